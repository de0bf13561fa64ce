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
// A VOP1 instruction: e32 and its VOP3 promotion (`_e64`, no modifiers: llvm-mc-22 refuses neg,
// abs, clamp and omod). LLVM also has a GFX9 SDWA form (src0_sel, sext and clamp accepted,
// dst_unused:UNUSED_PRESERVE by default), which lanediff does not run for this row
// (model/isa/vop3.cc HasForm). The op reads Modifiers::src0_sel as the generic SDWA operand rule
// would (the selected byte or word zero-extended; DWORD, the e32/e64 value, the whole
// register) so that its tests hold the select arithmetic; every batch a device runs carries
// DWORD. OPSEL, S1, S2, MODE and the old VDST have no effect.
#include "model/fp/mx.h"
#include "model/ops/op_table.h"

namespace lanediff {
namespace ops {
namespace {

// SDWA SRC0_SEL: BYTE_0..3 = 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6 (and 7, reserved, read as
// DWORD): the shift and mask of the bits the instruction reads, zero-extended.
struct Sel {
  uint32_t shift;
  uint32_t mask;
};
constexpr Sel SelOf(uint32_t src0_sel) {
  if (src0_sel < 4) return {8u * src0_sel, 0xffu};
  if (src0_sel == 4) return {0u, 0xffffu};
  if (src0_sel == 5) return {16u, 0xffffu};
  return {0u, 0xffffffffu};
}

}  // namespace

Fp8Shape v_prng_b32_output(const OpContext&) { return {nullptr, 0}; }  // a 32-bit integer

void v_prng_b32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Sel s = SelOf(ctx.mods.src0_sel);
  for (size_t i = 0; i < lanes.size; ++i) out[i] = PrngB32((lanes.src0[i] >> s.shift) & s.mask);
}

// By the pseudocode's words: shift left one place as a doubling modulo 2^32, then the feedback
// taps as an exclusive or, bit by bit.
void v_prng_b32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const uint32_t sel = ctx.mods.src0_sel;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint64_t in = lanes.src0[i];
    if (sel < 4) in = in / (uint64_t{1} << (8 * sel)) % 256u;
    if (sel == 4) in %= 65536u;
    if (sel == 5) in = in / 65536u;
    const bool top = in >= 0x80000000u;
    const uint64_t shifted = in * 2u % 0x100000000u;
    uint64_t r = 0;
    for (int b = 0; b < 32; ++b) {
      const uint64_t p = uint64_t{1} << b;
      const bool tap = top && (b == 0 || b == 2 || b == 6 || b == 7);  // 0xC5 = 1100 0101
      if (((shifted / p) % 2u == 1u) != tap) r += p;
    }
    out[i] = static_cast<uint32_t>(r);
  }
}

// "top_bit" when the read input's bit 31 is set (the taps fire), "zero" for 0, else "normal".
absl::string_view v_prng_b32_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  const Sel s = SelOf(ctx.mods.src0_sel);
  const uint32_t in = (src0 >> s.shift) & s.mask;
  if (in == 0u) return "zero";
  return (in >> 31) != 0u ? "top_bit" : "normal";
}

uint32_t v_prng_b32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
