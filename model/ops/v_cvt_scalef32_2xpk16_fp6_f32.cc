// The interleaved scaled FP6/BF6 encoder op: two tuples of 16 f32 (S0, S1) over the block scale
// S2 -> 32 six-bit codes, round to nearest even, packed into the 6-dword VGPR tuple VDST
// (docs/semantics.md §11.16). The rows naming this op (gfx950 only):
// v_cvt_scalef32_2xpk16_fp6_f32 (Fp8Slot::fp6: OCP MX FP6 E2M3) and
// v_cvt_scalef32_2xpk16_bf6_f32 (Fp8Slot::bf6: OCP MX FP6 E3M2).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_2XPK16_FP6_F32, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py), in substance:
//
//   scale = 32'U(exponent(S2.f32));
//   for pass in 0 : 15 do
//     dOffset = pass * 12;
//     D[dOffset + 5  : dOffset]     = f32_to_fp6_scale(S0[pass * 32 + 31 : pass * 32].f32, scale.u8);
//     D[dOffset + 11 : dOffset + 6] = f32_to_fp6_scale(S1[pass * 32 + 31 : pass * 32].f32, scale.u8)
//   endfor
//
// so S0's element i is the field at bits 12i+5:12i and S1's element i the field at bits
// 12i+11:12i+6 (fields 2i and 2i+1 of the 192 bits). f32_to_fp6_scale is named, not defined. The
// model (model/fp/mx.h F32ToMxScaledRne, as the scaled FP4 encoder): each element scaled exactly
// and rounded once to nearest even, under the readings mx_scale_read, mx_scale_zero,
// mx_scale_nan, mx_down_scale, mx_denorm_in and mx_fp4_nan for NaN sources (FP6 has no NaN code
// either; the hypothesis's readings are the format's largest code or its sign alone, whatever the
// format). Infinities and overflows saturate to sign|max (0x1f).
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on every source here) are applied as the
// scaled FP4 encoder applies them, to each element of a tuple and to the scale (U, fuzzed);
// OPSEL (LLVM has no op_sel here) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp6_tuple.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kElems = 16;     // f32 per source tuple

// Element k of source s (0 or 1) of lane i: the view's tuple of that lane (LaneShape, 16 dwords
// on the harness); a view of one-dword sources (EvaluateLane, tables of single words) gives dword
// 0 for every element, as CompleteTupleLanes completes a tuple (model/isa/testcase.h).
uint32_t Element(const LaneView& lanes, int s, size_t i, int k) {
  const int n = lanes.shape.src_dwords[s];
  const uint32_t* p = (s == 0 ? lanes.src0 : lanes.src1) + i * n;
  return k < n ? p[k] : p[0];
}

}  // namespace

Fp8Shape v_cvt_scalef32_2xpk16_fp6_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp6

void v_cvt_scalef32_2xpk16_fp6_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(RowFp6Format(ctx), e.options);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    // The 192 bits as three 64-bit words; the 12-bit pair at bit 12k straddles two when k is
    // 5 or 10.
    uint64_t bits[3] = {0, 0, 0};
    for (int k = 0; k < kElems; ++k) {
      const uint64_t pair =
          F32ToMxScaledRne(SourceAfterAbsNeg(ctx, Element(lanes, 0, i, k), 0), s, e.read, p) |
          uint64_t{F32ToMxScaledRne(SourceAfterAbsNeg(ctx, Element(lanes, 1, i, k), 1), s, e.read, p)} << 6;
      const int at = 12 * k, w = at / 64, sh = at % 64;
      bits[w] |= pair << sh;
      if (sh > 52) bits[w + 1] |= pair >> (64 - sh);
    }
    uint32_t* d = out + i * kFp6TupleDwords;
    for (int w = 0; w < kFp6TupleDwords; ++w) d[w] = static_cast<uint32_t>(bits[w / 2] >> (32 * (w % 2)));
  }
}

// Written apart from the fast path: modifiers bit by bit, the exact oracle, every output bit
// placed one at a time from the pseudocode's offsets (pass * 12, pass * 12 + 6).
void v_cvt_scalef32_2xpk16_fp6_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                          uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = RowFp6Format(ctx);
  auto mods = [&](uint32_t x, int src) {
    if ((ctx.mods.abs >> src) & 1) x &= 0x7fffffffu;
    if ((ctx.mods.neg >> src) & 1) x ^= 0x80000000u;
    return x;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t* d = out + i * kFp6TupleDwords;
    for (int w = 0; w < kFp6TupleDwords; ++w) d[w] = 0;
    const uint32_t s = mods(lanes.src2[i], 2);
    for (int pass = 0; pass < kElems; ++pass) {
      uint32_t tmp[2];
      for (int src = 0; src < 2; ++src) {
        const size_t n = lanes.shape.src_dwords[src];
        const uint32_t x = lanes.src(src)[i * n + (static_cast<size_t>(pass) < n ? pass : 0)];
        tmp[src] = OracleToMxScaled(mods(x, src), MxSource::f32, s, f, e.options, e.read);
      }
      for (int src = 0; src < 2; ++src) {
        for (int b = 0; b < 6; ++b) {
          const int bit = pass * 12 + src * 6 + b;
          d[bit / 32] |= ((tmp[src] >> b) & 1u) << (bit % 32);
        }
      }
    }
  }
}

// The rarer class of the two tuples' first elements after their modifiers
// (ClassifyTwoF32Sources; the classifier is given each source's first dword).
absl::string_view v_cvt_scalef32_2xpk16_fp6_f32_classify(const OpContext& ctx, uint32_t src0,
                                                         uint32_t src1) {
  return ClassifyTwoF32Sources(ctx, src0, src1);
}

uint32_t v_cvt_scalef32_2xpk16_fp6_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
