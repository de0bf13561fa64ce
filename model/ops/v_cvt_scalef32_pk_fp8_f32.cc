// The scaled packing RNE op: two f32 (S0, S1) over the block scale S2 -> two 8-bit floats,
// round to nearest even, {byte(S1), byte(S0)} into the 16-bit half of VDST that OPSEL[3]
// selects, the other half the old VDST's (docs/semantics.md §11.6). The rows naming this op
// (gfx950 only): v_cvt_scalef32_pk_fp8_f32 (OCP E4M3, Fp8Slot::fp8) and
// v_cvt_scalef32_pk_bf8_f32 (OCP E5M2, Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_FP8_F32, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py; the BF8 entry reads alike with bf8):
//
//   scale = 32'U(exponent(S2.f32));
//   tmp0 = f32_to_fp8_scale(S0.f32, scale.u8);
//   tmp1 = f32_to_fp8_scale(S1.f32, scale.u8);
//   dstword = OPSEL[3].i32 * 16;
//   VGPR[laneId][VDST.u32][dstword + 15 : dstword].b16 = { tmp1, tmp0 };
//   // Other destination bits are preserved
//
// f32_to_fp8_scale is named but not defined there. The model (model/fp/mx.h F32ToFp8ScaledRne):
// each source after its ABS then NEG, scaled exactly and rounded once to nearest even, under
// the readings mx_scale_read, mx_scale_zero, mx_scale_nan (the scale operand, as for the scaled
// decodes), mx_down_scale (x / 2^s or x * 2^s), mx_denorm_in, mx_fp8_overflow (E4M3) or
// mx_bf8_overflow (E5M2), and fp8_nan for NaN bytes (model/targets/hypotheses.h;
// docs/semantics.md §11.6 weighs the evidence). No MODE bit is read.
//
// Departures and unknowns: NEG/ABS on S2 (LLVM accepts them) change nothing under the default
// exponent reading; OPSEL[2:0] (LLVM accepts and prints them) and OMOD/CLAMP (LLVM refuses
// them) have no effect (U, fuzzed).
#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
Fp8Shape v_cvt_scalef32_pk_fp8_f32_output(const OpContext& ctx) {
  return {&RowFp8Format(ctx), 0};
}

void v_cvt_scalef32_pk_fp8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const Fp8Params p = MakeFp8Params(f, e.fp8);
  const uint32_t shift = 16u * ((ctx.mods.opsel >> 3) & 1u);
  const uint32_t keep = ~(0xffffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    const uint32_t lo = F32ToFp8ScaledRne(SourceAfterAbsNeg(ctx, lanes.src0[i], 0), s, p, e.options);
    const uint32_t hi = F32ToFp8ScaledRne(SourceAfterAbsNeg(ctx, lanes.src1[i], 1), s, p, e.options);
    out[i] = (lanes.vdst_old[i] & keep) | (((hi << 8) | lo) << shift);
  }
}

// Written apart from the fast path: modifiers bit by bit, the exact oracle, the halves spelled.
void v_cvt_scalef32_pk_fp8_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const bool high = ((ctx.mods.opsel >> 3) & 1) != 0;
  auto mods = [&](uint32_t x, int i) {
    if ((ctx.mods.abs >> i) & 1) x &= 0x7fffffffu;
    if ((ctx.mods.neg >> i) & 1) x ^= 0x80000000u;
    return x;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = mods(lanes.src2[i], 2);
    const uint32_t lo = OracleToFp8Scaled(mods(lanes.src0[i], 0), MxSource::f32, s, f, e.fp8,
                                          e.options);
    const uint32_t hi = OracleToFp8Scaled(mods(lanes.src1[i], 1), MxSource::f32, s, f, e.fp8,
                                          e.options);
    const uint32_t packed = (hi << 8) | lo;
    out[i] = high ? (lanes.vdst_old[i] & 0x0000ffffu) | (packed << 16)
                  : (lanes.vdst_old[i] & 0xffff0000u) | packed;
  }
}

// The rarer class of the two data sources after their modifiers (ClassifyTwoF32Sources).
absl::string_view v_cvt_scalef32_pk_fp8_f32_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t src1) {
  return ClassifyTwoF32Sources(ctx, src0, src1);
}

uint32_t v_cvt_scalef32_pk_fp8_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
