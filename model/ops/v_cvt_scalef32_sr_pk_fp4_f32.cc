// The scaled SR FP4 packing op: two f32 (the VGPR pair S0) over the block scale S2, each rounded
// stochastically -> two OCP MX FP4 E2M1 codes, {fp4(element 1) << 4 | fp4(element 0)} into the
// byte of VDST that OPSEL[3:2] selects, the other bytes the old VDST's (docs/semantics.md
// §11.17). The row naming this op (gfx950 only): v_cvt_scalef32_sr_pk_fp4_f32
// (SrcRole::f32_x2, Fp8Slot::fp4).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_SR_PK_FP4_F32, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py), in substance:
//
//   scale = 32'U(exponent(S2.f32));
//   randomVal = S1.u32;
//   tmp0 = f32_to_fp4_sr_scale(S0[31 : 0].f32, randomVal, scale.u8);
//   randomVal = V_PRNG_B32(randomVal);
//   tmp1 = f32_to_fp4_sr_scale(S0[63 : 32].f32, randomVal, scale.u8);
//   dstbyte = OPSEL[3 : 2].i32 * 8;
//   VDST[dstbyte + 7 : dstbyte] = { tmp1, tmp0 };
//   // Other destination bits are preserved
//
// f32_to_fp4_sr_scale is named, not defined. The model (model/fp/mx.h F32ToMxScaledSr): each
// element after S0's ABS then NEG, scaled exactly as the RNE FP4 encoder scales (mx_scale_read,
// mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in), the seed word added per
// mx_sr_round (S1[31:10] on a normal result: 23 - 1 seed bits, as the scaled fp8 SR rows'
// S1[31:12]), NaN sources per mx_fp4_nan, infinities and overflows saturated to sign|0x7.
// Element i's seed word per mx_sr_seed_step (model/ops/sr_seed_step.h). No MODE bit is read.
//
// Departures and unknowns: NEG/ABS on S0 (LLVM accepts them on the pair: `-v[2:3]` sets NEG
// bit 0) act on both elements' sign bits (U, fuzzed); NEG/ABS on S2 change nothing under the
// default exponent reading; OPSEL[1:0] (accepted, printed) have no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/sr_seed_step.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

// Element k (0 or 1) of lane i's pair; a view of one-dword sources (EvaluateLane) gives dword 0
// for both, as CompleteTupleLanes completes a tuple (model/isa/testcase.h).
uint32_t PairElement(const LaneView& lanes, size_t i, int k) {
  const int n = lanes.shape.src_dwords[0];
  return lanes.src0[i * n + (k < n ? k : 0)];
}

}  // namespace

Fp8Shape v_cvt_scalef32_sr_pk_fp4_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp4

void v_cvt_scalef32_sr_pk_fp4_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(GetMxElemFormat(MxElemId::fp4_e2m1), e.options);
  const MxSrSeedStep step = ctx.hyp.mx_sr_seed_step;
  const uint32_t shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  const uint32_t keep = ~(0xffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    uint32_t seed = lanes.src1[i];
    uint32_t byte = 0;
    for (int k = 0; k < 2; ++k, seed = MxSrNextSeed(seed, step)) {
      const uint32_t x = SourceAfterAbsNeg(ctx, PairElement(lanes, i, k), 0);
      byte |= F32ToMxScaledSr(x, s, seed, 23, e.read, e.sr_round, p) << (4 * k);
    }
    out[i] = (lanes.vdst_old[i] & keep) | (byte << shift);
  }
}

// Written apart from the fast path: modifiers bit by bit, the exact oracle, the PRNG step as
// arithmetic (2s, and the polynomial 0x1000000C5 subtracted when it reaches 2^32), the byte
// spelled.
void v_cvt_scalef32_sr_pk_fp4_f32_oracle(const OpContext& ctx, const LaneView& lanes,
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
    const uint32_t seed0 = lanes.src1[i];
    uint32_t seed1 = seed0;
    if (ctx.hyp.mx_sr_seed_step == MxSrSeedStep::prng_step) {
      uint64_t t = uint64_t{seed0} * 2u;
      if (t >= (uint64_t{1} << 32)) t ^= 0x1000000c5ull;
      seed1 = static_cast<uint32_t>(t);
    }
    const uint32_t lo = OracleToMxScaledSr(mods(PairElement(lanes, i, 0), 0), MxSource::f32,
                                           seed0, s, f, e.options, e.read, e.sr_round);
    const uint32_t hi = OracleToMxScaledSr(mods(PairElement(lanes, i, 1), 0), MxSource::f32,
                                           seed1, s, f, e.options, e.read, e.sr_round);
    uint32_t word = lanes.vdst_old[i];
    word &= ~(0xffu << (8 * byte));
    word |= (hi * 16u + lo) << (8 * byte);
    out[i] = word;
  }
}

// The class of the pair's first element after S0's modifiers: nan, inf, zero, denormal, normal.
absl::string_view v_cvt_scalef32_sr_pk_fp4_f32_classify(const OpContext& ctx, uint32_t src0,
                                                        uint32_t) {
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

uint32_t v_cvt_scalef32_sr_pk_fp4_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
