// The scaled SR FP4 packing op from two packed 16-bit floats: S0's elements (bits 15:0, bits
// 31:16; f16 or bf16 by the row's SrcRole) over the block scale S2, each rounded stochastically
// -> two OCP MX FP4 E2M1 codes, {fp4(element 1) << 4 | fp4(element 0)} into the byte of VDST
// that OPSEL[3:2] selects, the other bytes the old VDST's (docs/semantics.md §11.17). The rows
// naming this op (gfx950 only): v_cvt_scalef32_sr_pk_fp4_f16 (SrcRole::data_f16x2) and
// v_cvt_scalef32_sr_pk_fp4_bf16 (SrcRole::data_bf16x2).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_SR_PK_FP4_F16), in substance (the f32 pair entry
// the f32 row's op file quotes, with the two halves of S0):
//
//   scale = 32'U(exponent(S2.f32));
//   randomVal = S1.u32;
//   tmp0 = f16_to_fp4_sr_scale(S0[15 : 0].f16, randomVal, scale.u8);
//   randomVal = V_PRNG_B32(randomVal);
//   tmp1 = f16_to_fp4_sr_scale(S0[31 : 16].f16, randomVal, scale.u8);
//   dstbyte = OPSEL[3 : 2].i32 * 8;
//   VDST[dstbyte + 7 : dstbyte] = { tmp1, tmp0 };
//
// The model: each element widened exactly to f32 (model/ops/pk16_common.h), then
// F32ToMxScaledSr as the f32 row with the source's fraction width (10 f16, 7 bf16: S1's top 9
// / 6 bits under mx_sr_round=source_grid), under the same readings (mx_scale_read,
// mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in, mx_sr_round, mx_fp4_nan) and
// mx_pk16_neg for where S0's NEG/ABS act; element i's seed word per mx_sr_seed_step
// (model/ops/sr_seed_step.h). No MODE bit is read.
//
// Departures and unknowns: OPSEL[1:0] (LLVM accepts and prints them) and NEG/ABS on S2 under the
// default exponent reading change nothing (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/ops/sr_seed_step.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
Fp8Shape v_cvt_scalef32_sr_pk_fp4_f16_output(const OpContext&) { return {nullptr, 0}; }  // fp4

void v_cvt_scalef32_sr_pk_fp4_f16(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(GetMxElemFormat(MxElemId::fp4_e2m1), e.options);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const uint32_t man = role == SrcRole::data_f16x2 ? 10u : 7u;
  const bool flush = e.options.flush_denormal_in;
  const MxSrSeedStep step = ctx.hyp.mx_sr_seed_step;
  const uint32_t shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  const uint32_t keep = ~(0xffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    const uint32_t x = Pk16AfterAbsNeg(ctx, lanes.src0[i], 0);
    const uint32_t seed1 = MxSrNextSeed(lanes.src1[i], step);
    const uint32_t lo =
        F32ToMxScaledSr(Pk16ToF32(x, role, flush), s, lanes.src1[i], man, e.read, e.sr_round, p);
    const uint32_t hi =
        F32ToMxScaledSr(Pk16ToF32(x >> 16, role, flush), s, seed1, man, e.read, e.sr_round, p);
    out[i] = (lanes.vdst_old[i] & keep) | (((hi << 4) | lo) << shift);
  }
}

// Written apart from the fast path: the halves taken apart, modifiers bit by bit per reading,
// the exact oracle on the 16-bit patterns themselves, the PRNG step as arithmetic, the byte
// spelled.
void v_cvt_scalef32_sr_pk_fp4_f16_oracle(const OpContext& ctx, const LaneView& lanes,
                                         uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = GetMxElemFormat(MxElemId::fp4_e2m1);
  const MxSource source = Pk16Source(GetInstrInfo(ctx.instr).src[0]);
  const uint32_t byte = (ctx.mods.opsel >> 2) & 3u;
  const bool abs0 = (ctx.mods.abs & 1) != 0, neg0 = (ctx.mods.neg & 1) != 0;
  const bool mod_lo = ctx.hyp.mx_pk16_neg != MxPk16Neg::high_half;
  const bool mod_hi = ctx.hyp.mx_pk16_neg != MxPk16Neg::low_half;
  // mx_denorm_in=flush on the 16-bit pattern itself: a zero exponent field keeps its sign.
  const uint32_t exp_field = source == MxSource::f16 ? 0x7c00u : 0x7f80u;
  auto element = [&](uint32_t h, bool modified) {
    if (modified && abs0) h &= 0x7fffu;
    if (modified && neg0) h ^= 0x8000u;
    if (e.options.flush_denormal_in && (h & exp_field) == 0) h &= 0x8000u;
    return h;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t s = lanes.src2[i];
    if ((ctx.mods.abs >> 2) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 2) & 1) s ^= 0x80000000u;
    const uint32_t seed0 = lanes.src1[i];
    uint32_t seed1 = seed0;
    if (ctx.hyp.mx_sr_seed_step == MxSrSeedStep::prng_step) {
      uint64_t t = uint64_t{seed0} * 2u;
      if (t >= (uint64_t{1} << 32)) t ^= 0x1000000c5ull;
      seed1 = static_cast<uint32_t>(t);
    }
    const uint32_t e0 = element(lanes.src0[i] & 0xffffu, mod_lo);
    const uint32_t e1 = element(lanes.src0[i] >> 16, mod_hi);
    const uint32_t lo = OracleToMxScaledSr(e0, source, seed0, s, f, e.options, e.read, e.sr_round);
    const uint32_t hi = OracleToMxScaledSr(e1, source, seed1, s, f, e.options, e.read, e.sr_round);
    uint32_t word = lanes.vdst_old[i];
    word &= ~(0xffu << (8 * byte));
    word |= (hi * 16u + lo) << (8 * byte);
    out[i] = word;
  }
}

// The rarer class of S0's two elements after their modifiers (ClassifyPk16Source).
absl::string_view v_cvt_scalef32_sr_pk_fp4_f16_classify(const OpContext& ctx, uint32_t src0,
                                                        uint32_t) {
  return ClassifyPk16Source(ctx, src0);
}

uint32_t v_cvt_scalef32_sr_pk_fp4_f16_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
