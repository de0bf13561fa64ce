// v_prng_b32 (gfx950): one step of a 32-bit Galois LFSR, an integer op with no float semantics
// (docs/semantics.md §12.1). AMD's pseudocode (CDNA4 ISA, V_PRNG_B32, as extracted in
// tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py):
//
//   in = S0.u32
//   D0.u32 = ((in << 1U) ^ (in[31] ? 197U : 0U))
//
// (197 = 0xC5: the taps x^7 + x^6 + x^2 + 1 fed back from bit 31). The SR multi-element
// conversions advance their seed with the same function (model/fp/mx.h PrngB32).
//
// A VOP1 instruction: e32, its VOP3 promotion (`_e64`, no modifiers: llvm-mc-22 refuses neg,
// abs, clamp and omod) and on gfx950 its GFX9 SDWA form (docs/semantics.md §12.1), which runs
// the generic SDWA operand and destination rules around the step: SRC0_SEL picks a byte or word
// (zero-extended; SRC0_SEXT sign-extends it; DWORD the whole register), the step runs on that
// dword, then DST_SEL places the result's low byte or word in its field and DST_UNUSED fills the
// rest: PAD zeros, SEXT the field's top bit above it and zeros below, PRESERVE the old VDST's
// bits (gem5 src/arch/amdgpu/vega/insts/inst_util.hh SDWADstVals: "Pad all unused bits with 0",
// "Sign-extend upper bits; pad lower bits w/ 0"; case by case in the SDWA "Operation code" of
// CLRX/CLRX-mirror doc/GcnSdwaDpp.md; DST_SEL DWORD writes the whole result).
// CLAMP has no effect (gem5's sdwaInstDstImpl_helper never reads it; an integer result). The
// reserved SEL 7 and DST_UNUSED 3, which the campaign never draws, follow a convention
// (docs/semantics.md §12.1): SEL 7 as DWORD, DST_UNUSED 3 as PAD (as gem5 and LLVM's printer).
// OPSEL, S1, S2 and MODE have no effect; the old VDST only under DST_UNUSED PRESERVE.
#include "model/fp/mx.h"
#include "model/ops/op_table.h"

namespace lanediff {
namespace ops {
namespace {

// SDWA SRC0_SEL / DST_SEL: BYTE_0..3 = 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6 (and 7, reserved,
// read as DWORD): the shift and mask of the bits selected.
struct Sel {
  uint32_t shift;
  uint32_t mask;
};
constexpr Sel SelOf(uint32_t sel) {
  if (sel < 4) return {8u * sel, 0xffu};
  if (sel == 4) return {0u, 0xffffu};
  if (sel == 5) return {16u, 0xffffu};
  return {0u, 0xffffffffu};
}

// The operand the step reads: the selected bits, zero- or (SRC0_SEXT) sign-extended.
uint32_t ReadSrc0(const Modifiers& m, uint32_t src0) {
  const Sel s = SelOf(m.src0_sel);
  const uint32_t v = (src0 >> s.shift) & s.mask;
  if (!m.src0_sext || s.mask == 0xffffffffu) return v;
  const uint32_t top = (s.mask >> 1) + 1;  // the field's sign bit
  return (v & top) != 0 ? v | ~s.mask : v;
}

// The destination dword: the result's low byte/word at DST_SEL, the rest per DST_UNUSED.
uint32_t WriteDst(const Modifiers& m, uint32_t result, uint32_t vdst_old) {
  const Sel d = SelOf(m.dst_sel);
  if (d.mask == 0xffffffffu) return result;
  const uint32_t field = (result & d.mask) << d.shift;
  const uint32_t in_field = d.mask << d.shift;
  if (m.dst_unused == 2) return field | (vdst_old & ~in_field);  // PRESERVE
  if (m.dst_unused == 1 && (result & ((d.mask >> 1) + 1)) != 0) {  // SEXT, sign bit set
    return field | ~(in_field | (in_field - 1));  // ones above the field, zeros below
  }
  return field;  // PAD (and 3), or SEXT of a clear sign bit
}

}  // namespace

Fp8Shape v_prng_b32_output(const OpContext&) { return {nullptr, 0}; }  // a 32-bit integer

void v_prng_b32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Modifiers& m = ctx.mods;
  for (size_t i = 0; i < lanes.size; ++i) {
    out[i] = WriteDst(m, PrngB32(ReadSrc0(m, lanes.src0[i])), lanes.vdst_old[i]);
  }
}

// By the pseudocode's words, in arithmetic on the values rather than masks: the SDWA source
// select as a division and remainder (SEXT: minus 2^n when the field's top bit is set), the step
// as a doubling modulo 2^32 then the feedback taps as an exclusive or bit by bit, the destination
// field as a multiplication by 256^byte (or 65536^word) plus the fill.
namespace {

uint64_t OracleSrc0(const Modifiers& m, uint64_t src0) {
  const uint32_t sel = m.src0_sel;
  if (sel > 5) return src0;
  const uint64_t width = sel < 4 ? 256u : 65536u;
  const uint64_t lsb = sel < 4 ? uint64_t{1} << (8 * sel) : sel == 5 ? 65536u : 1u;
  const uint64_t v = src0 / lsb % width;
  return m.src0_sext && v >= width / 2 ? v + 0x100000000u - width : v;
}

uint64_t OracleStep(uint64_t in) {
  const bool top = in >= 0x80000000u;
  const uint64_t shifted = in * 2u % 0x100000000u;
  uint64_t r = 0;
  for (int b = 0; b < 32; ++b) {
    const uint64_t p = uint64_t{1} << b;
    const bool tap = top && (b == 0 || b == 2 || b == 6 || b == 7);  // 0xC5 = 1100 0101
    if (((shifted / p) % 2u == 1u) != tap) r += p;
  }
  return r;
}

uint64_t OracleDst(const Modifiers& m, uint64_t result, uint64_t old) {
  const uint32_t sel = m.dst_sel;
  if (sel > 5) return result;
  const uint64_t width = sel < 4 ? 256u : 65536u;
  const uint64_t lsb = sel < 4 ? uint64_t{1} << (8 * sel) : sel == 5 ? 65536u : 1u;
  const uint64_t v = result % width;
  const uint64_t below = old % lsb;                   // the old bits under the field
  const uint64_t above = old / (lsb * width) * (lsb * width);  // and over it
  if (m.dst_unused == 2) return above + v * lsb + below;
  if (m.dst_unused == 1 && v >= width / 2) {
    return 0x100000000u - lsb * width + v * lsb;  // every bit over the field set
  }
  return v * lsb;
}

}  // namespace

void v_prng_b32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint64_t r = OracleStep(OracleSrc0(ctx.mods, lanes.src0[i]));
    out[i] = static_cast<uint32_t>(OracleDst(ctx.mods, r, lanes.vdst_old[i]));
  }
}

// "top_bit" when the read input's bit 31 is set (the taps fire), "zero" for 0, else "normal".
absl::string_view v_prng_b32_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  const uint32_t in = ReadSrc0(ctx.mods, src0);
  if (in == 0u) return "zero";
  return (in >> 31) != 0u ? "top_bit" : "normal";
}

uint32_t v_prng_b32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
