// The scaled SR op from one 16-bit float: the element of S0 (f16 or bf16 by the row's SrcRole;
// bits 15:0, or the half the rule mx_sr16_opsel0 says OPSEL[0] selects) over the block scale S2,
// rounded stochastically with the seed S1 -> one 8-bit float into the byte of VDST that
// OPSEL[3:2] selects, the other bytes the old VDST's (docs/semantics.md §11.12). The rows naming
// this op (gfx950 only): v_cvt_scalef32_sr_fp8_f16, v_cvt_scalef32_sr_bf8_f16
// (SrcRole::data_f16x2) and v_cvt_scalef32_sr_fp8_bf16, v_cvt_scalef32_sr_bf8_bf16
// (SrcRole::data_bf16x2); OCP E4M3 or E5M2 by Fp8Slot.
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_SR_FP8_F16), in substance (the f32 entry the scaled
// SR encoders' op file quotes, with a 16-bit source):
//
//   scale = 32'U(exponent(S2.f32));
//   tmp = f16_to_fp8_sr_scale(S0[15 : 0].f16, S1.u32, scale.u8);
//   dstbyte = OPSEL[3 : 2].i32 * 8;
//   VDST[dstbyte + 7 : dstbyte] = tmp;
//   // Other destination bits are preserved
//
// The model: the element after its ABS then NEG (bit 15 of the 16-bit value: LLVM's intrinsic
// takes a `half` / `bfloat`), widened exactly, then F32ToFp8ScaledSr with the source's fraction
// width (10 f16, 7 bf16: S1's top 10 - M / 7 - M bits under mx_sr_round=source_grid), under the
// scaled SR rows' readings (mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale,
// mx_denorm_in, mx_sr_round, mx_fp8_overflow or mx_bf8_overflow, fp8_nan) and mx_sr16_opsel0. No
// MODE bit is read.
//
// Departures and unknowns: OPSEL[1] (LLVM accepts and prints it) and NEG/ABS on S2 under the
// default exponent reading change nothing (U, fuzzed).
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
namespace {
constexpr uint32_t FractionBits(SrcRole role) { return role == SrcRole::data_f16x2 ? 10u : 7u; }
}  // namespace

// The seed position reported for the lane generator and triage: S1's top (source fraction bits
// - M) bits, S1[31:22 + M] for f16 and S1[31:25 + M] for bf16.
Fp8Shape v_cvt_scalef32_sr_fp8_f16_output(const OpContext& ctx) {
  const Fp8Format& f = RowFp8Format(ctx);
  const uint32_t src_man = FractionBits(GetInstrInfo(ctx.instr).src[0]);
  return {&f, 32u - src_man + static_cast<uint32_t>(f.man_bits)};
}

void v_cvt_scalef32_sr_fp8_f16(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const Fp8Params p = MakeFp8Params(f, e.fp8);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const uint32_t src_man = FractionBits(role);
  const bool flush = e.options.flush_denormal_in;
  const uint32_t half = ctx.hyp.mx_sr16_opsel0 == MxSr16Opsel0::high_half ? 16u * (ctx.mods.opsel & 1u) : 0u;
  const uint32_t abs = (ctx.mods.abs & 1u) != 0 ? 0x8000u : 0u;
  const uint32_t neg = (ctx.mods.neg & 1u) != 0 ? 0x8000u : 0u;
  const uint32_t shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  const uint32_t keep = ~(0xffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t h = (((lanes.src0[i] >> half) & 0xffffu) & ~abs) ^ neg;
    const uint32_t b = F32ToFp8ScaledSr(Pk16ToF32(h, role, flush),
                                        SourceAfterAbsNeg(ctx, lanes.src2[i], 2), lanes.src1[i],
                                        src_man, p, e.options);
    out[i] = (lanes.vdst_old[i] & keep) | (b << shift);
  }
}

// Written apart from the fast path: the half picked and modified bit by bit, the exact oracle on
// the 16-bit pattern itself, the byte spelled.
void v_cvt_scalef32_sr_fp8_f16_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const MxSource source = Pk16Source(GetInstrInfo(ctx.instr).src[0]);
  const bool high = ctx.hyp.mx_sr16_opsel0 == MxSr16Opsel0::high_half && (ctx.mods.opsel & 1) != 0;
  const uint32_t byte = (ctx.mods.opsel / 4) % 4;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t h = high ? lanes.src0[i] / 65536u : lanes.src0[i] % 65536u;
    if (ctx.mods.abs & 1) h &= 0x7fffu;
    if (ctx.mods.neg & 1) h ^= 0x8000u;
    uint32_t s = lanes.src2[i];
    if ((ctx.mods.abs >> 2) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 2) & 1) s ^= 0x80000000u;
    const uint32_t b = OracleToFp8ScaledSr(h, source, lanes.src1[i], s, f, e.fp8, e.options);
    uint32_t d = lanes.vdst_old[i];
    d &= ~(0xffu << (8 * byte));
    out[i] = d | (b << (8 * byte));
  }
}

// The class of the converted element after its modifiers (ClassifyPk16Source on the pair whose
// halves are both that element). Neither the seed nor the scale is seen here.
absl::string_view v_cvt_scalef32_sr_fp8_f16_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t) {
  const uint32_t half = ctx.hyp.mx_sr16_opsel0 == MxSr16Opsel0::high_half ? 16u * (ctx.mods.opsel & 1u) : 0u;
  OpContext one = ctx;
  one.hyp.mx_pk16_neg = MxPk16Neg::both_halves;
  return ClassifyPk16Source(one, ((src0 >> half) & 0xffffu) * 0x10001u);
}

uint32_t v_cvt_scalef32_sr_fp8_f16_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
