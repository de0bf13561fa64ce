// The gfx950 scaled conversions from 16-bit floats (docs/semantics.md §11.10 to §11.13): S0 holds
// two of them (SrcRole::data_f16x2 / data_bf16x2, element 0 in bits 15:0), the row's role says
// which format. What the op files share: the modifiers under the reading mx_pk16_neg, the exact
// widening to f32 (model/fp/mx.h F16ToF32 / Bf16ToF32), and the input class of a lane.
//
//   Pk16AfterAbsNeg(ctx, 0x3c003c00, 0)   // NEG[0] under both_halves: 0xbc00bc00
//   Pk16ToF32(0x3c00, SrcRole::data_f16x2, false)    // 0x3f800000 (1.0)
#ifndef LANEDIFF_MODEL_OPS_PK16_COMMON_H_
#define LANEDIFF_MODEL_OPS_PK16_COMMON_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {

// The sign bits of S0 that its NEG/ABS flip/clear under mx_pk16_neg.
constexpr uint32_t Pk16SignMask(MxPk16Neg reading) {
  return reading == MxPk16Neg::low_half    ? 0x00008000u
         : reading == MxPk16Neg::high_half ? 0x80000000u
                                           : 0x80008000u;
}

// Source i's packed word after its ABS then NEG on the bits mx_pk16_neg says.
inline uint32_t Pk16AfterAbsNeg(const OpContext& ctx, uint32_t x, int i) {
  const uint32_t mask = Pk16SignMask(ctx.hyp.mx_pk16_neg);
  if (((ctx.mods.abs >> i) & 1) != 0) x &= ~mask;
  if (((ctx.mods.neg >> i) & 1) != 0) x ^= mask;
  return x;
}

// Element h (its low 16 bits) of a data_f16x2 / data_bf16x2 source as exact f32 bits; under
// `flush` (mx_denorm_in=flush) an f16 / bf16 denormal becomes a zero of its sign first (the
// caller's job, model/fp/mx.h MxFp8EncodeOptions::flush_denormal_in).
constexpr uint32_t Pk16ToF32(uint32_t h, SrcRole role, bool flush) {
  h &= 0xffffu;
  const bool f16 = IsPackedF16(role);
  const uint32_t exp_mask = f16 ? 0x7c00u : 0x7f80u;
  if (flush && (h & exp_mask) == 0) h &= 0x8000u;
  return f16 ? F16ToF32(h) : Bf16ToF32(h);
}

// Dword k of source s's tuple of lane i: the view's tuple of that lane (LaneShape; 16 dwords for
// SrcRole::f16x2_x16 / bf16x2_x16 on the harness); a view of one-dword sources (EvaluateLane,
// tables of single words) gives dword 0 for every k, as CompleteTupleLanes completes a tuple
// (model/isa/testcase.h).
inline uint32_t TupleDword(const LaneView& lanes, int s, size_t i, int k) {
  const int n = lanes.shape.src_dwords[s];
  const uint32_t* p = lanes.src(s) + i * static_cast<size_t>(n);
  return k < n ? p[k] : p[0];
}

// Element e of S0's tuple on lane i as exact f32 bits after the modifiers (the fast paths of
// gfx1250's 16-element encoders): an f32 element (a tuple of dwords) after ABS/NEG of S0, or a
// packed 16-bit one (IsPacked16Tuple: element 2k in bits 15:0 of dword k) after the halves
// mx_pk16_neg names, widened under `flush` as Pk16ToF32 says.
inline uint32_t TupleElementF32(const OpContext& ctx, const LaneView& lanes, size_t i, int e,
                                bool flush) {
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  if (!IsPacked16Tuple(role)) return SourceAfterAbsNeg(ctx, TupleDword(lanes, 0, i, e), 0);
  const uint32_t x = Pk16AfterAbsNeg(ctx, TupleDword(lanes, 0, i, e / 2), 0);
  return Pk16ToF32(x >> (16 * (e % 2)), role, flush);
}

// The oracles' element k of S0's tuple on lane i: an f32 (pk16 false: dword k) or a 16-bit float
// (pk16: bits 16k+15:16k of the tuple), after S0's ABS then NEG, bit by bit, where mx_pk16_neg
// lets them reach that half (an f32 element always).
inline uint32_t OracleTupleElement(const OpContext& ctx, const LaneView& lanes, size_t i, int k,
                                   bool pk16) {
  const int bit = pk16 ? 16 * k : 32 * k;
  uint32_t x = TupleDword(lanes, 0, i, bit / 32);
  uint32_t sign = 0x80000000u;
  bool modified = true;
  if (pk16) {
    x = (x >> (bit % 32)) & 0xffffu;
    sign = 0x8000u;
    modified = k % 2 == 0 ? ctx.hyp.mx_pk16_neg != MxPk16Neg::high_half
                          : ctx.hyp.mx_pk16_neg != MxPk16Neg::low_half;
  }
  if (modified && (ctx.mods.abs & 1) != 0) x &= ~sign;
  if (modified && (ctx.mods.neg & 1) != 0) x ^= sign;
  return x;
}

// OracleTupleElement, then under `flush` (mx_denorm_in=flush) a denormal of the element's own
// format (exponent field zero: f32 bits 30:23, f16 bits 14:10, bf16 bits 14:7) made a zero of
// its sign, on the pattern itself.
inline uint32_t OracleTupleElementFlushed(const OpContext& ctx, const LaneView& lanes, size_t i,
                                          int k, bool pk16, bool flush) {
  const uint32_t x = OracleTupleElement(ctx, lanes, i, k, pk16);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const uint32_t exp_field = !pk16 ? 0x7f800000u : IsPackedF16(role) ? 0x7c00u : 0x7f80u;
  const uint32_t sign = pk16 ? 0x8000u : 0x80000000u;
  return flush && (x & exp_field) == 0 ? x & sign : x;
}

// The oracle's name for the row's source format.
constexpr MxSource Pk16Source(SrcRole role) {
  return IsPackedF16(role) ? MxSource::f16 : MxSource::bf16;
}

// The rarer class (nan, inf, zero, denormal, normal; element 0's when both are normal) of the
// two 16-bit elements of S0 after its modifiers, each judged in its own format.
inline absl::string_view ClassifyPk16Source(const OpContext& ctx, uint32_t src0) {
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const uint32_t x = Pk16AfterAbsNeg(ctx, src0, 0);
  auto one = [&](uint32_t h) -> absl::string_view {
    const uint32_t exp_mask = IsPackedF16(role) ? 0x7c00u : 0x7f80u;
    if ((h & exp_mask) == 0 && (h & 0x7fffu) != 0) return "denormal";
    const absl::string_view special = SpecialInputClass(Pk16ToF32(h, role, false));
    return special.empty() ? "normal" : special;
  };
  const absl::string_view a = one(x & 0xffffu), b = one(x >> 16);
  return a == "normal" ? b : a;
}

// The class of a tuple S0's first dword after its modifiers (the classifier of gfx1250's
// 16-element encoders, given the tuple's first dword): an f32 element's, or the rarer of two
// packed 16-bit elements' (ClassifyPk16Source).
inline absl::string_view ClassifyTupleSource(const OpContext& ctx, uint32_t src0) {
  if (IsPacked16Tuple(GetInstrInfo(ctx.instr).src[0])) return ClassifyPk16Source(ctx, src0);
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_PK16_COMMON_H_
