// The scaled packing RNE op from two packed 16-bit floats: S0's elements (bits 15:0, bits 31:16;
// f16 or bf16 by the row's SrcRole) over the block scale S1 -> two 8-bit floats, round to nearest
// even, {byte(element 1), byte(element 0)} into the 16-bit half of VDST that OPSEL[3] selects, the
// other half the old VDST's (docs/semantics.md §11.10). The rows naming this op (gfx950 only):
// v_cvt_scalef32_pk_fp8_f16, v_cvt_scalef32_pk_bf8_f16 (SrcRole::data_f16x2) and
// v_cvt_scalef32_pk_fp8_bf16, v_cvt_scalef32_pk_bf8_bf16 (SrcRole::data_bf16x2); OCP E4M3 or E5M2
// by Fp8Slot.
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_FP8_F16, as the f32 entry the scaled fp8
// encoders' op file quotes, with 16-bit sources and the scale in S1):
//
//   scale = 32'U(exponent(S1.f32));
//   tmp0 = f16_to_fp8_scale(S0[15 : 0].f16, scale.u8);
//   tmp1 = f16_to_fp8_scale(S0[31 : 16].f16, scale.u8);
//   dstword = OPSEL[3].i32 * 16;
//   VGPR[laneId][VDST.u32][dstword + 15 : dstword].b16 = { tmp1, tmp0 };
//   // Other destination bits are preserved
//
// The model: each element widened exactly to f32 (every f16 and bf16 value is an f32), then
// F32ToFp8ScaledRne as the f32 rows (model/fp/mx.h), under the same readings (mx_scale_read,
// mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in, mx_fp8_overflow or mx_bf8_overflow,
// fp8_nan) and mx_pk16_neg for where S0's NEG/ABS act. No MODE bit is read.
//
// Departures and unknowns: OPSEL[1:0] (LLVM accepts and prints them) and NEG/ABS on S1 under
// the default exponent reading change nothing (U, fuzzed).
#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
Fp8Shape v_cvt_scalef32_pk_fp8_f16_output(const OpContext& ctx) {
  return {&RowFp8Format(ctx), 0};
}

void v_cvt_scalef32_pk_fp8_f16(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const Fp8Params p = MakeFp8Params(f, e.fp8);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool flush = e.options.flush_denormal_in;
  const uint32_t shift = 16u * ((ctx.mods.opsel >> 3) & 1u);
  const uint32_t keep = ~(0xffffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src1[i], 1);
    const uint32_t x = Pk16AfterAbsNeg(ctx, lanes.src0[i], 0);
    const uint32_t lo = F32ToFp8ScaledRne(Pk16ToF32(x, role, flush), s, p, e.options);
    const uint32_t hi = F32ToFp8ScaledRne(Pk16ToF32(x >> 16, role, flush), s, p, e.options);
    out[i] = (lanes.vdst_old[i] & keep) | (((hi << 8) | lo) << shift);
  }
}

// Written apart from the fast path: the halves taken apart, modifiers bit by bit per reading,
// the exact oracle on the 16-bit patterns themselves, the destination half spelled.
void v_cvt_scalef32_pk_fp8_f16_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const MxSource source = Pk16Source(GetInstrInfo(ctx.instr).src[0]);
  const bool high = ((ctx.mods.opsel >> 3) & 1) != 0;
  const bool abs0 = (ctx.mods.abs & 1) != 0, neg0 = (ctx.mods.neg & 1) != 0;
  const bool mod_lo = ctx.hyp.mx_pk16_neg != MxPk16Neg::high_half;
  const bool mod_hi = ctx.hyp.mx_pk16_neg != MxPk16Neg::low_half;
  auto element = [&](uint32_t h, bool modified) {
    if (modified && abs0) h &= 0x7fffu;
    if (modified && neg0) h ^= 0x8000u;
    return h;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t s = lanes.src1[i];
    if ((ctx.mods.abs >> 1) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 1) & 1) s ^= 0x80000000u;
    const uint32_t e0 = element(lanes.src0[i] & 0xffffu, mod_lo);
    const uint32_t e1 = element(lanes.src0[i] >> 16, mod_hi);
    const uint32_t lo = OracleToFp8Scaled(e0, source, s, f, e.fp8, e.options);
    const uint32_t hi = OracleToFp8Scaled(e1, source, s, f, e.fp8, e.options);
    const uint32_t packed = (hi << 8) | lo;
    out[i] = high ? (lanes.vdst_old[i] & 0x0000ffffu) | (packed << 16)
                  : (lanes.vdst_old[i] & 0xffff0000u) | packed;
  }
}

// The rarer class of S0's two elements after their modifiers (ClassifyPk16Source).
absl::string_view v_cvt_scalef32_pk_fp8_f16_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t) {
  return ClassifyPk16Source(ctx, src0);
}

uint32_t v_cvt_scalef32_pk_fp8_f16_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
