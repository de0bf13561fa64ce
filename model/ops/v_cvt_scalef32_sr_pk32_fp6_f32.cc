// The scaled SR FP6/BF6 encoder op: a tuple of 32 f32 (S0) over the block scale S2, each
// rounded stochastically -> 32 six-bit codes packed into the 6-dword VGPR tuple VDST, element i
// at bits 6i+5:6i of the 192 bits (docs/semantics.md §11.18). The rows naming this op (gfx950
// only): v_cvt_scalef32_sr_pk32_fp6_f32 (Fp8Slot::fp6: OCP MX FP6 E2M3) and
// v_cvt_scalef32_sr_pk32_bf6_f32 (Fp8Slot::bf6: OCP MX FP6 E3M2).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_SR_PK32_FP6_F32, as extracted in
// tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py), in substance:
//
//   scale = 32'U(exponent(S2.f32));
//   randomVal = S1.u32;
//   for pass in 0 : 31 do
//     D[pass * 6 + 5 : pass * 6] = f32_to_fp6_sr_scale(S0[pass * 32 + 31 : pass * 32].f32,
//                                                      randomVal, scale.u8);
//     randomVal = V_PRNG_B32(randomVal)
//   endfor
//
// f32_to_fp6_sr_scale is named, not defined. The model (model/fp/mx.h F32ToMxScaledSr, as the
// SR FP4 encoders): each element scaled exactly (mx_scale_read, mx_scale_zero, mx_scale_nan,
// mx_down_scale, mx_denorm_in), the seed word added per mx_sr_round (on a normal result S1's
// top 20 bits for E2M3, 21 for E3M2), NaN sources per mx_fp4_nan, infinities and overflows
// saturated to sign|0x1f; element i's seed word per mx_sr_seed_step (model/ops/sr_seed_step.h).
// No MODE bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on every source here) are applied as the
// scaled FP4 encoders apply them, to each element of the tuple and to the scale (U, fuzzed);
// OPSEL (LLVM has no op_sel here) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp6_tuple.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/sr_seed_step.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kElems = 32;     // f32 in the source tuple

// Element k of lane i's tuple (LaneShape: 32 dwords on the harness); a view of one-dword sources
// (EvaluateLane) gives dword 0 for every element, as CompleteTupleLanes completes a tuple
// (model/isa/testcase.h).
uint32_t Element(const LaneView& lanes, size_t i, int k) {
  const int n = lanes.shape.src_dwords[0];
  return lanes.src0[i * n + (k < n ? k : 0)];
}

}  // namespace

Fp8Shape v_cvt_scalef32_sr_pk32_fp6_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp6

void v_cvt_scalef32_sr_pk32_fp6_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(RowFp6Format(ctx), e.options);
  const MxSrSeedStep step = ctx.hyp.mx_sr_seed_step;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    uint32_t seed = lanes.src1[i];
    // The 192 bits as three 64-bit words; the field at bit 6k straddles two when k is 10 or 21.
    uint64_t bits[3] = {0, 0, 0};
    for (int k = 0; k < kElems; ++k, seed = MxSrNextSeed(seed, step)) {
      const uint64_t code = F32ToMxScaledSr(SourceAfterAbsNeg(ctx, Element(lanes, i, k), 0), s,
                                            seed, 23, e.read, e.sr_round, p);
      const int at = 6 * k, w = at / 64, sh = at % 64;
      bits[w] |= code << sh;
      if (sh > 58) bits[w + 1] |= code >> (64 - sh);
    }
    uint32_t* d = out + i * kFp6TupleDwords;
    for (int w = 0; w < kFp6TupleDwords; ++w) d[w] = static_cast<uint32_t>(bits[w / 2] >> (32 * (w % 2)));
  }
}

// Written apart from the fast path: modifiers bit by bit, the exact oracle, the PRNG step as
// arithmetic (2s, and the polynomial 0x1000000C5 subtracted when it reaches 2^32), every output
// bit placed one at a time from the pseudocode's offsets (pass * 6).
void v_cvt_scalef32_sr_pk32_fp6_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                           uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = RowFp6Format(ctx);
  const bool advance = ctx.hyp.mx_sr_seed_step == MxSrSeedStep::prng_step;
  auto mods = [&](uint32_t x, int src) {
    if ((ctx.mods.abs >> src) & 1) x &= 0x7fffffffu;
    if ((ctx.mods.neg >> src) & 1) x ^= 0x80000000u;
    return x;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t* d = out + i * kFp6TupleDwords;
    for (int w = 0; w < kFp6TupleDwords; ++w) d[w] = 0;
    const uint32_t s = mods(lanes.src2[i], 2);
    uint64_t random = lanes.src1[i];
    for (int pass = 0; pass < kElems; ++pass) {
      const uint32_t tmp = OracleToMxScaledSr(mods(Element(lanes, i, pass), 0), MxSource::f32,
                                              static_cast<uint32_t>(random), s, f, e.options,
                                              e.read, e.sr_round);
      for (int b = 0; b < 6; ++b) {
        const int bit = pass * 6 + b;
        d[bit / 32] |= ((tmp >> b) & 1u) << (bit % 32);
      }
      if (advance) {
        random *= 2u;
        if (random >= (uint64_t{1} << 32)) random ^= 0x1000000c5ull;
      }
    }
  }
}

// The class of the tuple's first element after its modifiers: nan, inf, zero, denormal, normal.
absl::string_view v_cvt_scalef32_sr_pk32_fp6_f32_classify(const OpContext& ctx, uint32_t src0,
                                                          uint32_t) {
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

uint32_t v_cvt_scalef32_sr_pk32_fp6_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
