// The scaled FP4 packing RNE op from two packed 16-bit floats: S0's elements (bits 15:0, bits
// 31:16; f16 or bf16 by the row's SrcRole) over the block scale S1 -> two OCP MX FP4 E2M1 codes,
// round to nearest even, {fp4(element 1) << 4 | fp4(element 0)} into the byte of VDST that
// OPSEL[3:2] selects, the other bytes the old VDST's (docs/semantics.md §11.11). The rows naming
// this op (gfx950 only): v_cvt_scalef32_pk_fp4_f16 (SrcRole::data_f16x2) and
// v_cvt_scalef32_pk_fp4_bf16 (SrcRole::data_bf16x2).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_FP4_F16), in substance (the f32 entry the FP4
// encoder's op file quotes, with 16-bit sources and the scale in S1):
//
//   scale = 32'U(exponent(S1.f32));
//   tmp0 = f16_to_fp4_scale(S0[15 : 0].f16, scale.u8);    // the low nibble [3:0]
//   tmp1 = f16_to_fp4_scale(S0[31 : 16].f16, scale.u8);   // the high nibble [7:4]
//   dstbyte = OPSEL[3 : 2].i32 * 8;
//   VDST[dstbyte + 7 : dstbyte] = { tmp1, tmp0 };
//   // Other destination bits are preserved
//
// The model: each element widened exactly to f32, then F32ToMxScaledRne as the f32 FP4 row
// (model/fp/mx.h), under the same readings (mx_scale_read, mx_scale_zero, mx_scale_nan,
// mx_down_scale, mx_denorm_in, mx_fp4_nan) and mx_pk16_neg for where S0's NEG/ABS act.
// Infinities and overflows saturate to sign|0x7. No MODE bit is read.
//
// Departures and unknowns: OPSEL[1:0] (LLVM accepts and prints them) and NEG/ABS on S1 under the
// default exponent reading change nothing (U, fuzzed).
#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
Fp8Shape v_cvt_scalef32_pk_fp4_f16_output(const OpContext&) { return {nullptr, 0}; }  // fp4

void v_cvt_scalef32_pk_fp4_f16(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(GetMxElemFormat(MxElemId::fp4_e2m1), e.options);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool flush = e.options.flush_denormal_in;
  const uint32_t shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  const uint32_t keep = ~(0xffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src1[i], 1);
    const uint32_t x = Pk16AfterAbsNeg(ctx, lanes.src0[i], 0);
    const uint32_t lo = F32ToMxScaledRne(Pk16ToF32(x, role, flush), s, e.read, p);
    const uint32_t hi = F32ToMxScaledRne(Pk16ToF32(x >> 16, role, flush), s, e.read, p);
    out[i] = (lanes.vdst_old[i] & keep) | (((hi << 4) | lo) << shift);
  }
}

// Written apart from the fast path: the halves taken apart, modifiers bit by bit per reading,
// the exact oracle on the 16-bit patterns themselves, the byte spelled.
void v_cvt_scalef32_pk_fp4_f16_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = GetMxElemFormat(MxElemId::fp4_e2m1);
  const MxSource source = Pk16Source(GetInstrInfo(ctx.instr).src[0]);
  const uint32_t byte = (ctx.mods.opsel >> 2) & 3u;
  const bool abs0 = (ctx.mods.abs & 1) != 0, neg0 = (ctx.mods.neg & 1) != 0;
  const bool mod_lo = ctx.hyp.mx_pk16_neg != MxPk16Neg::high_half;
  const bool mod_hi = ctx.hyp.mx_pk16_neg != MxPk16Neg::low_half;
  // mx_denorm_in=flush on the 16-bit pattern itself (OracleToMxScaled flushes f32 denormals
  // only): a zero exponent field (f16: bits 14:10, below 2^-14; bf16: bits 14:7) keeps its sign.
  const uint32_t exp_field = source == MxSource::f16 ? 0x7c00u : 0x7f80u;
  auto element = [&](uint32_t h, bool modified) {
    if (modified && abs0) h &= 0x7fffu;
    if (modified && neg0) h ^= 0x8000u;
    if (e.options.flush_denormal_in && (h & exp_field) == 0) h &= 0x8000u;
    return h;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t s = lanes.src1[i];
    if ((ctx.mods.abs >> 1) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 1) & 1) s ^= 0x80000000u;
    const uint32_t e0 = element(lanes.src0[i] & 0xffffu, mod_lo);
    const uint32_t e1 = element(lanes.src0[i] >> 16, mod_hi);
    const uint32_t lo = OracleToMxScaled(e0, source, s, f, e.options, e.read);
    const uint32_t hi = OracleToMxScaled(e1, source, s, f, e.options, e.read);
    uint32_t word = lanes.vdst_old[i];
    word &= ~(0xffu << (8 * byte));
    word |= (hi * 16u + lo) << (8 * byte);
    out[i] = word;
  }
}

// The rarer class of S0's two elements after their modifiers (ClassifyPk16Source).
absl::string_view v_cvt_scalef32_pk_fp4_f16_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t) {
  return ClassifyPk16Source(ctx, src0);
}

uint32_t v_cvt_scalef32_pk_fp4_f16_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
