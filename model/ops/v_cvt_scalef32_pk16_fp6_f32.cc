// gfx1250's scaled FP6/BF6 encoder op of 16 elements: a VGPR tuple S0 of 16 f32 (16 dwords,
// element i in dword i) or of 16 packed 16-bit floats (8 dwords, element 2k in bits 15:0 of
// dword k, element 2k+1 in bits 31:16) over the block scale S1 -> 16 six-bit codes, round to
// nearest even, in the 3-dword VGPR tuple VDST (docs/semantics.md §14.4). The rows naming this
// op (gfx1250, gfx1251): v_cvt_scalef32_pk16_fp6_f32 (SrcRole::f32_x16, Fp8Slot::fp6: OCP MX
// FP6 E2M3), v_cvt_scalef32_pk16_bf6_f32 (f32_x16, Fp8Slot::bf6: OCP MX FP6 E3M2),
// v_cvt_scalef32_pk16_{fp6,bf6}_f16 (f16x2_x8) and v_cvt_scalef32_pk16_{fp6,bf6}_bf16
// (bf16x2_x8).
//
// No gfx1250 pseudocode is public. gfx950's nearest instructions (AMD's CDNA4 pseudocode as
// extracted in tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py):
//
//   V_CVT_SCALEF32_PK32_FP6_F16:    scale = 32'U(exponent(S1.f32));
//                                   for pass in 0 : 31 do
//                                     D[pass * 6 + 5 : pass * 6] =
//                                         f16_to_fp6_scale(S0[pass * 16 + 15 : pass * 16].f16, scale.u8)
//   V_CVT_SCALEF32_2XPK16_FP6_F32:  D[pass * 12 + 5 : pass * 12] = f32_to_fp6_scale(S0[pass], ...);
//                                   D[pass * 12 + 11 : pass * 12 + 6] = f32_to_fp6_scale(S1[pass], ...)
//
// Where element i lands in the 96 bits is the hypothesis mx_pk16_fp6_order: `linear` (field i at
// bits 6i+5:6i, the PK32 layout; two AMD test suites expect it) or `interleaved` (the 2XPK16
// layout over the two halves: element i < 8 at field 2i, element 8 + i at field 2i + 1). Each
// element as gfx950's FP6/BF6 encoders convert it (model/fp/mx.h F32ToMxScaledRne; a 16-bit
// element widened exactly first, pk16_common.h TupleElementF32), under the same readings:
// mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in, mx_fp4_nan (FP6 has
// no NaN code); infinities and overflows saturate to sign|max (0x1f). No MODE bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on both sources) act as on gfx950's
// tuple encoders (U, fuzzed): on every f32 element and the scale, or on the packed halves per
// mx_pk16_neg; OPSEL (no op_sel in LLVM) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp6_tuple.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_scalef32_pk16_fp6_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp6

void v_cvt_scalef32_pk16_fp6_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(RowFp6Format(ctx), e.options);
  const bool flush = e.options.flush_denormal_in;
  const MxPk16Fp6Order order = ctx.hyp.mx_pk16_fp6_order;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src1[i], 1);
    Pk16Fp6Bits bits;
    for (int k = 0; k < kPk16Fp6Elements; ++k) {
      bits.Put(Pk16Fp6Field(k, order),
               F32ToMxScaledRne(TupleElementF32(ctx, lanes, i, k, flush), s, e.read, p));
    }
    bits.Store(out + i * kPk16Fp6Dwords);
  }
}

// Written apart from the fast path: each element's bits read where the row's layout puts them
// (dword e of an f32 tuple; the 16 bits at bit 16e of a packed tuple), modifiers bit by bit,
// the exact oracle on the source pattern itself, every output bit placed one at a time from
// the field's offset under each order's own formula.
void v_cvt_scalef32_pk16_fp6_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                        uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = RowFp6Format(ctx);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool packed = IsPacked16Tuple(role);
  const MxSource source = packed ? Pk16Source(role) : MxSource::f32;
  const bool abs0 = (ctx.mods.abs & 1) != 0, neg0 = (ctx.mods.neg & 1) != 0;
  // mx_pk16_neg on a packed tuple: NEG[0]/ABS[0] reach the even elements unless the reading is
  // high_half, the odd ones unless it is low_half; an f32 element always.
  auto modified = [&](int pass) {
    if (!packed) return true;
    return pass % 2 == 0 ? ctx.hyp.mx_pk16_neg != MxPk16Neg::high_half
                         : ctx.hyp.mx_pk16_neg != MxPk16Neg::low_half;
  };
  const uint32_t sign = packed ? 0x8000u : 0x80000000u;
  // mx_denorm_in=flush on a 16-bit pattern (f16: exponent bits 14:10 zero; bf16: bits 14:7);
  // an f32 element's flush is the oracle's own (MxFp8EncodeOptions::flush_denormal_in).
  const uint32_t exp_field = source == MxSource::f16 ? 0x7c00u : 0x7f80u;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t* d = out + i * kPk16Fp6Dwords;
    for (int w = 0; w < kPk16Fp6Dwords; ++w) d[w] = 0;
    uint32_t s = lanes.src1[i];
    if ((ctx.mods.abs >> 1) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 1) & 1) s ^= 0x80000000u;
    const size_t n = lanes.shape.src_dwords[0];
    for (int pass = 0; pass < kPk16Fp6Elements; ++pass) {
      const int bits = packed ? 16 : 32;
      const size_t dword = static_cast<size_t>(pass * bits / 32);
      uint32_t x = lanes.src0[i * n + (dword < n ? dword : 0)];
      if (packed) x = (x >> (16 * (pass % 2))) & 0xffffu;
      if (modified(pass) && abs0) x &= ~sign;
      if (modified(pass) && neg0) x ^= sign;
      if (packed && e.options.flush_denormal_in && (x & exp_field) == 0) x &= 0x8000u;
      Pk16Fp6PlaceOracle(d, pass, ctx.hyp.mx_pk16_fp6_order,
                         OracleToMxScaled(x, source, s, f, e.options, e.read));
    }
  }
}

// The class of the tuple's first dword after its modifiers (pk16_common.h ClassifyTupleSource).
absl::string_view v_cvt_scalef32_pk16_fp6_f32_classify(const OpContext& ctx, uint32_t src0,
                                                       uint32_t) {
  return ClassifyTupleSource(ctx, src0);
}

uint32_t v_cvt_scalef32_pk16_fp6_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
