// The one operand resolver: from an instruction's source operand codes to the 32-bit word each
// source reads in each lane. The model's test-case path, the device harness's decoder (sim,
// exec, serve, replay) and the fuzzer all resolve through it, once per case: ResolveOperands
// decides per source where its value comes from (a LaneRouting), ResolveLanes then applies
// that to any number of lanes without looking at the encoding again.
//
//   RegisterFile regs;                                   // the executor says where registers are
//   regs.LoadVgpr(1, LaneWord::src0).LoadSgpr(20, 0x40490fdb);
//   LANEDIFF_ASSIGN_OR_RETURN(LaneRouting r, ResolveOperands(*target, vop3, regs));
//   LaneBatch uniform;
//   LaneView v = ResolveLanes(r, raw_lanes, &uniform);   // v.src0[i]: what lane i's src0 reads
//
// The boundary. The resolver delivers the word a source operand holds, before the instruction
// looks at it: a VGPR's per-lane value, an SGPR's uniform value, an inline constant's 32-bit
// value (0.5 -> 0x3f000000, -1 -> 0xffffffff), the literal dword, null's 0. A 16-bit source
// operand (InstrInfo::src_bits: the packed fp8 -> f32 conversions' SRC0 on GFX12/GFX1250) that is a constant
// holds the word of the src16_constant hypothesis's default reading: an inline constant's 16-bit
// value in both halves (1.0 -> 0x3c003c00, -1 -> 0xffffffff), the literal dword as encoded; the
// routing marks such a source (LaneRouting::constant16) and the op applies the other reading
// (OpContext::constant16_srcs, model/ops/unpack_common.h), so that one resolution serves every
// hypothesis value (the campaign resolves a case once and evaluates it under each). What the
// instruction then does with the word - NEG, ABS, OPSEL (byte_sel, op_sel halves), SDWA byte
// selects, which bits are the SR seed - is the op's (model/ops), because it depends on the
// instruction, not on the operand. A source the instruction does not read (InstrInfo::sources(),
// e.g. the SR instructions' SRC2 field) resolves to a uniform 0 and its code is not looked at.
//
// Encoding facts (which 9-bit code is a VGPR, an SGPR, an inline constant, the literal:
// operands.h) are the model's. Where the registers are - which VGPR holds which lane word,
// which SGPRs hold which uniform value - is the executor's: it passes a RegisterFile. The
// device harness builds its kernels' one (device_harness/register_convention.h); the model
// knows no register layout of its own.
#ifndef LANEDIFF_MODEL_ISA_RESOLVE_H_
#define LANEDIFF_MODEL_ISA_RESOLVE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "model/base/lanes.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {

// A lane's raw words, in the order LaneView / proto::Lane hold them.
enum class LaneWord : uint8_t { src0 = 0, src1 = 1, src2 = 2, vdst_old = 3 };
absl::string_view LaneWordName(LaneWord w);  // "src0", ..., "vdst_old"

// The registers an executor loads before the instruction runs: VGPRs with one of the lane's
// raw words, SGPRs with a uniform value. Anything else (another VGPR or SGPR, a special
// register but null) has no value the executor controls, and reading it is an error.
class RegisterFile {
 public:
  // `loader` names who loads them, for errors ("the harness kernels"); it must outlive this.
  explicit RegisterFile(absl::string_view loader = "the executor") : loader_(loader) {}
  // Loading a register again replaces its content. More than 8 VGPRs or 8 SGPRs: a crash
  // (a programming error, not an input error).
  RegisterFile& LoadVgpr(int index, LaneWord word);
  // The VGPR tuple from v[index] holds the lane word's dwords, up to `capacity` of them (a
  // multi-dword source, model/base/lanes.h LaneShape: the executor loads as many as the row's
  // source reads). A tuple source resolves only to a tuple loaded at its first register with
  // room for its dwords; a one-dword source never reads a tuple.
  RegisterFile& LoadVgprTuple(int index, LaneWord word, int capacity);
  RegisterFile& LoadSgpr(int index, uint32_t value);
  std::optional<LaneWord> Vgpr(int index) const;  // a one-dword VGPR
  // The tuple loaded at v[index] with room for `dwords` dwords (dwords 1: a one-dword VGPR).
  std::optional<LaneWord> VgprTuple(int index, int dwords) const;
  std::optional<uint32_t> Sgpr(int index) const;
  absl::string_view loader() const { return loader_; }
  // "v1 (src0), v2 (src1), v3 (src2), v4 (vdst_old), v[36:67] (src0), s20, s21, s22"
  std::string Describe() const;

 private:
  // Fixed capacity (no allocation per case): more registers than any layout here loads.
  static constexpr int kMaxSlots = 8;
  struct VgprSlot { int index = 0; LaneWord word = LaneWord::src0; int capacity = 1; };
  struct SgprSlot { int index = 0; uint32_t value = 0; };
  absl::string_view loader_;
  std::array<VgprSlot, kMaxSlots> vgprs_{};
  std::array<SgprSlot, kMaxSlots> sgprs_{};
  int num_vgprs_ = 0, num_sgprs_ = 0;
};

// Where each source's word comes from: lane_field[i] >= 0 is a LaneWord (a VGPR: the lane's
// own word), -1 means every lane reads uniform[i].
struct LaneRouting {
  std::array<int, 3> lane_field{-1, -1, -1};
  std::array<uint32_t, 3> uniform{};
  // Bit i: source i is a 16-bit operand holding a constant (inline or literal); the op reads it
  // per the src16_constant hypothesis (copy it into OpContext::constant16_srcs).
  uint8_t constant16 = 0;
  friend bool operator==(const LaneRouting&, const LaneRouting&) = default;
};

// One source operand: `code` (9 bits, operands.h) on `family`, `literal` the instruction's
// literal dword if it has one. Returns {lane_field, uniform} for that source. Errors name the
// source ("src1 (operand code 263) reads v7, which is not loaded by the harness kernels
// (loaded: v1 (src0), ...)"),
// an operand code the project does not model, a literal code without a literal dword.
// `vop1_e32`: the source of a 32-bit VOP1 word, which takes a literal on every family
// (operands.h DescribeOperand). `bits`: the operand's width (InstrInfo::src_bits), 32 or 16.
// `dwords`: the source's dwords per lane (InstrInfo::src_dwords); above 1 the source is a VGPR
// tuple and resolves only to a tuple the executor loaded at its first register with room for
// that many dwords (RegisterFile::LoadVgprTuple). An SGPR, constant or special register as a tuple source is an error: LLVM
// 22 refuses every such spelling on the gfx950 FP6 decodes (`s[4:9]`, `1.0`, `0`: "invalid
// operand for instruction") and what silicon reads there (s[N:N+5]? the constant in every
// dword?) is not documented, so the project runs none (docs/semantics.md §11.13).
struct SourceRoute {
  int lane_field = -1;
  uint32_t uniform = 0;
  bool constant16 = false;  // a constant (inline or literal) in a 16-bit operand
};
absl::StatusOr<SourceRoute> ResolveSource(Family family, int source, uint16_t code,
                                          std::optional<uint32_t> literal,
                                          const RegisterFile& regs, bool vop1_e32 = false,
                                          int bits = 32, int dwords = 1);

// Every source an instruction reads: codes[i] for i < sources_read (the rest resolve to 0).
// `src16`: bit i, source i is a 16-bit operand. `dwords[i]`: source i's dwords per lane.
absl::StatusOr<LaneRouting> ResolveOperands(Family family, absl::Span<const uint16_t> codes,
                                            int sources_read, std::optional<uint32_t> literal,
                                            const RegisterFile& regs, bool vop1_e32 = false,
                                            uint8_t src16 = 0,
                                            std::array<uint8_t, 3> dwords = {1, 1, 1});
// The same for a decoded instruction word (its row says how many sources it reads and which are
// 16-bit operands on the target's family; its form whether the literal rule is VOP1 e32's).
absl::StatusOr<LaneRouting> ResolveOperands(const TargetTraits& target, const Vop3Instr& instr,
                                            const RegisterFile& regs);

// Applies a routing to raw lanes (src0, src1, src2, vdst_old as loaded). The view points into
// `raw` for VGPR sources (no copy) and into `uniform` (filled with the source's value) for the
// others, so it lives as long as both; vdst_old is raw's. The view's shape: a VGPR source has
// the dwords of the raw word it reads (a tuple source routes only to a raw word of its own
// dword count: ResolveSource), a uniform source one; dst_words is raw's.
LaneView ResolveLanes(const LaneRouting& routing, const LaneView& raw, LaneBatch* uniform);
// The same, copied into an owning batch.
void ResolveLanesInto(const LaneRouting& routing, const LaneView& raw, LaneBatch* out);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_RESOLVE_H_
