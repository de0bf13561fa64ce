// The model: what each instruction writes to VDST, lane by lane, from raw operand bits.
//
// One op file per op a row of model/instrs.def names (model/ops/<op>.cc) holds small pure
// functions, shared by the rows that differ only in their 8-bit float format; this header
// is the batch API everything else calls. Operands are already resolved to 32-bit values
// (inline constants, SGPRs and literals expanded by the caller); modifiers are the decoded
// VOP3 fields. No host float arithmetic, no globals, no I/O.
//
//   LANEDIFF_ASSIGN_OR_RETURN(const TargetTraits* t, FindTarget("gfx942"));
//   OpContext ctx{.target = t, .instr = instr};   // instr: an SR row (S1 is the seed)
//   ctx.mods.opsel = 0b0100;                       // byte 1
//   LaneBatch lanes;
//   lanes.Add(0x3fffffff, 0xfffff000, 0, 0);      // src0, src1, src2, vdst_old
//   std::vector<uint32_t> vdst(lanes.size());
//   LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, lanes.view(), absl::MakeSpan(vdst)));
#ifndef LANEDIFF_MODEL_OPS_OPS_H_
#define LANEDIFF_MODEL_OPS_OPS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "model/base/lanes.h"
#include "model/fp/fp8_format.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {

// The modifier fields, as encoded (VOP3; the SDWA dword's clamp, omod, neg/abs, selects, sext).
struct Modifiers {
  uint8_t opsel = 0;  // OPSEL[3:0]
  uint8_t neg = 0;    // NEG[2:0], bit 0 = src0
  uint8_t abs = 0;    // ABS[2:0], bit 0 = src0
  bool clamp = false;
  uint8_t omod = 0;   // OMOD[1:0]
  // SDWA SRC0_SEL (GFX9 SDWA form of a VOP1 instruction): BYTE_0..3 = 0..3, WORD_0 = 4,
  // WORD_1 = 5, DWORD = 6. 6 in every other form (e32, e64), which select nothing with it.
  uint8_t src0_sel = 6;
  // SDWA DST_SEL (codes as src0_sel; DWORD = 6 in every other form), DST_UNUSED (PAD = 0,
  // SEXT = 1, PRESERVE = 2; 3 unnamed) and SRC0_SEXT. The op that reads them: the PRNG step's.
  uint8_t dst_sel = 6;
  uint8_t dst_unused = 0;
  bool src0_sext = false;
  friend bool operator==(const Modifiers&, const Modifiers&) = default;
};

// Everything uniform across a batch.
struct OpContext {
  const TargetTraits* target = nullptr;
  Instr instr = kAllInstrs.front();  // the first row until the caller names one
  Modifiers mods;
  uint32_t mode = kDefaultMode;
  Hypotheses hyp;
  // Bit i: source i is a 16-bit operand holding a constant (model/isa/resolve.h
  // LaneRouting::constant16, copied by whoever resolved the case): its lane word is the
  // src16_constant default reading's, and the op applies the hypothesis's other reading.
  uint8_t constant16_srcs = 0;
};

// The MODE bits `instr` reads on `family` (its op file's declaration, model/ops/op_table.h):
// whoever runs the instruction must hold each of them at the value OpContext::mode gives.
uint32_t ModeBitsRead(Instr instr, Family family);

// Checks that ctx names a target that has ctx.instr and that the modifier fields fit their
// widths; the error says which.
absl::Status ValidateContext(const OpContext& ctx);

// Words of an instruction's result for `lanes` lanes: lanes * DstWords(instr) (the row's
// dst_bits / 32). A lane's words are consecutive: lane i's VDST at [i*W], VDST+1 at [i*W + 1].
inline size_t OutputWords(Instr instr, size_t lanes) {
  return lanes * static_cast<size_t>(DstWords(instr));
}

// The fast model: VDST for every lane. out.size() must equal OutputWords(ctx.instr, lanes.size).
absl::Status Evaluate(const OpContext& ctx, const LaneView& lanes, absl::Span<uint32_t> out);

// The slow exact oracle (exact intermediate, one rounding; model/fp/oracle.h), same contract.
// Cross-checked against Evaluate in tests and sweeps.
absl::Status EvaluateOracle(const OpContext& ctx, const LaneView& lanes,
                            absl::Span<uint32_t> out);

// The output element an instruction writes under ctx (the op file's <mnemonic>_output): for
// an 8-bit float (InstrInfo::writes_float()) its format (gfx1250 CLAMP and the gfx1250_clamp
// hypothesis included) and, for a stochastic-rounding instruction, where its seed sits in S1
// (seed = S1 >> seed_shift, 23 - man_bits bits wide; 0 without a seed). format is nullptr for
// integer bytes.
struct Fp8Shape {
  const Fp8Format* format;
  uint32_t seed_shift;
};
// nullopt for instructions with an integer result; ctx must be valid.
std::optional<Fp8Shape> Fp8OutputShape(const OpContext& ctx);

// True if the 8-bit output element (the low byte of `element`) is a NaN in the format the
// instruction writes under ctx; false for integer outputs. How compare, sweep and reports
// test NaN without knowing the formats.
bool OutputIsNan(const OpContext& ctx, uint32_t element);

// One lane through the fast model (convenience for tests and tools; ctx must be valid): its
// first destination word (VDST; EvaluateLanes for a VGPR pair's both).
uint32_t EvaluateLane(const OpContext& ctx, uint32_t src0, uint32_t src1, uint32_t src2,
                      uint32_t vdst_old);
uint32_t EvaluateLaneOracle(const OpContext& ctx, uint32_t src0, uint32_t src1, uint32_t src2,
                            uint32_t vdst_old);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_OPS_H_
