// The scaled FP4 packing RNE op: two f32 (S0, S1) over the block scale S2 -> two OCP MX FP4
// E2M1 codes, round to nearest even, {fp4(S1) << 4 | fp4(S0)} into the byte of VDST that
// OPSEL[3:2] selects, the other bytes the old VDST's (docs/semantics.md §11.9). The row naming
// this op (gfx950 only): v_cvt_scalef32_pk_fp4_f32 (Fp8Slot::fp4, OutputKind::fp4).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_FP4_F32), in substance (the form of the fp8
// entry the scaled fp8 encoders' op file quotes, with fp4 nibbles and a byte select):
//
//   scale = 32'U(exponent(S2.f32));
//   tmp0 = f32_to_fp4_scale(S0.f32, scale.u8);   // the low nibble [3:0]
//   tmp1 = f32_to_fp4_scale(S1.f32, scale.u8);   // the high nibble [7:4]
//   dstbyte = OPSEL[3 : 2].i32 * 8;
//   VDST[dstbyte + 7 : dstbyte] = { tmp1, tmp0 };
//   // Other destination bits are preserved
//
// f32_to_fp4_scale is named but not defined there. The model (model/fp/mx.h F32ToMxScaledRne):
// each source after its ABS then NEG, scaled exactly and rounded once to nearest even, under
// the readings mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in (as the
// scaled fp8 encoders) and mx_fp4_nan for NaN sources (model/targets/hypotheses.h;
// docs/semantics.md §11.9 weighs the evidence). Infinities and overflows saturate to sign|0x7
// (every source agrees). No MODE bit is read.
//
// Departures and unknowns: OPSEL[1:0] (LLVM accepts and prints them) and NEG/ABS on S2 under the
// default exponent reading change nothing (U, fuzzed).
#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
Fp8Shape v_cvt_scalef32_pk_fp4_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp4

void v_cvt_scalef32_pk_fp4_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(GetMxElemFormat(MxElemId::fp4_e2m1), e.options);
  const uint32_t shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  const uint32_t keep = ~(0xffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    const uint32_t lo = F32ToMxScaledRne(SourceAfterAbsNeg(ctx, lanes.src0[i], 0), s, e.read, p);
    const uint32_t hi = F32ToMxScaledRne(SourceAfterAbsNeg(ctx, lanes.src1[i], 1), s, e.read, p);
    out[i] = (lanes.vdst_old[i] & keep) | (((hi << 4) | lo) << shift);
  }
}

// Written apart from the fast path: modifiers bit by bit, the exact oracle, the byte spelled.
void v_cvt_scalef32_pk_fp4_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = GetMxElemFormat(MxElemId::fp4_e2m1);
  const uint32_t byte = (ctx.mods.opsel >> 2) & 3u;
  auto mods = [&](uint32_t x, int i) {
    if ((ctx.mods.abs >> i) & 1) x &= 0x7fffffffu;
    if ((ctx.mods.neg >> i) & 1) x ^= 0x80000000u;
    return x;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = mods(lanes.src2[i], 2);
    const uint32_t lo =
        OracleToMxScaled(mods(lanes.src0[i], 0), MxSource::f32, s, f, e.options, e.read);
    const uint32_t hi =
        OracleToMxScaled(mods(lanes.src1[i], 1), MxSource::f32, s, f, e.options, e.read);
    uint32_t word = lanes.vdst_old[i];
    word &= ~(0xffu << (8 * byte));
    word |= (hi * 16u + lo) << (8 * byte);
    out[i] = word;
  }
}

// The rarer class of the two data sources after their modifiers (ClassifyTwoF32Sources).
absl::string_view v_cvt_scalef32_pk_fp4_f32_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t src1) {
  return ClassifyTwoF32Sources(ctx, src0, src1);
}

uint32_t v_cvt_scalef32_pk_fp4_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
