// The class of one lane's input, for the fuzzer's finding signatures: which region of the input
// space a disagreement sits in. One of, checked in this order (the first that holds wins):
//
//   "nan"       src0 (after its ABS/NEG modifiers) is a NaN
//   "inf"       src0 is +-Inf
//   "zero"      src0 is +-0
//   "denormal"  src0 is an f32 denormal (whatever MODE[4] says: flushing is what is tested)
//   "overflow"  pk_u8: src0 is a finite value above 255 (it saturates to 255 under some round
//               mode). SR: |src0| is above the output format's largest finite value (it
//               overflows, or rounds down to max finite, depending on the seed and FP16_OVFL).
//   "sr_carry"  SR only: the seed S1 added to the 23-bit fraction field, as the literal
//               pseudocode adds it, carries out of the field (fraction + seed >= 2^23): the
//               inputs where sr_rounding=carry_truncate keeps a carry that =literal loses.
//   "tie"       pk_u8: a positive value exactly halfway between two integers below 256 (RNE,
//               truncation and the round modes disagree). SR: the bits below the output
//               quantum are exactly one half of it (RNE under =literal has a tie; subnormal
//               outputs are judged at the subnormal quantum).
//   "normal"    everything else.
//
//   ClassifyInput(ctx, 0x43018000 /*129.5*/, 0)  // "tie" for the f32 -> u8 byte packer
//
// ctx must satisfy ValidateContext.
#ifndef LANEDIFF_MODEL_OPS_INPUT_CLASS_H_
#define LANEDIFF_MODEL_OPS_INPUT_CLASS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "model/fp/f32.h"
#include "model/fp/fp8_format.h"
#include "model/ops/ops.h"

namespace lanediff {

absl::string_view ClassifyInput(const OpContext& ctx, uint32_t src0, uint32_t src1);

// The input class of lane i of `v`, over the whole lane. A lane of one-dword sources (or a view
// that holds only dword 0 of a tuple, as EvaluateLane's) is ClassifyInput of its S0 and S1. A
// lane with a VGPR-tuple source is classified element by element: for each element e, each
// tuple source is read as the 32 bits starting at its element e (SrcElementBits wide: an FP6
// field and the four after it, or dword e; zeros past the tuple's end), the one-dword sources
// as they are, and the op's classifier is asked; the lane takes the most special of those
// classes, ranked nan, inf, overflow, denormal, tie, sr_carry, zero, normal. Why the most
// special element, not the first dword's (what the classifiers are given) nor the element of
// the first differing word: a disagreement on a tuple row sits at the element that hits a
// special rule, wherever it is in the tuple, while the first dword says nothing about the other
// 27 FP6 fields or 15 f32 elements; and the campaign's coverage counts, which have no
// disagreement to look at, must count lanes by the same rule as the findings name them. Zero
// ranks below the other special classes because a zero element is common in a tuple (a zero
// dword) and rarely decides a conversion.
//
//   ClassifyLane(ctx, batch.view(), 3)  // "overflow": some FP6 field of lane 3 overflows
absl::string_view ClassifyLane(const OpContext& ctx, const LaneView& v, size_t i);

// The pieces the op files' classify functions share (x: src0 after its ABS/NEG, no flush).

// "nan", "inf", "zero" or "denormal" when x is one, else "".
inline absl::string_view SpecialInputClass(uint32_t x) {
  if (F32IsNan(x)) return "nan";
  if (F32IsInf(x)) return "inf";
  if (F32IsZero(x)) return "zero";
  if (F32IsDenormal(x)) return "denormal";
  return "";
}

// Source i (0..2) of a lane after its ABS then NEG (OpContext::mods), no flush: what the scaled
// encoders convert and classify.
inline uint32_t SourceAfterAbsNeg(const OpContext& ctx, uint32_t x, int i) {
  return ApplySrcModifiers(x, ((ctx.mods.abs >> i) & 1) != 0, ((ctx.mods.neg >> i) & 1) != 0);
}

// The rarer class of two f32 data sources S0, S1 after their ABS/NEG (S0's when both are normal):
// nan, inf, zero, denormal, normal. The scaled two-f32 encoders' classify (their scale S2 is not
// seen here).
inline absl::string_view ClassifyTwoF32Sources(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  auto one = [&](uint32_t raw, int i) -> absl::string_view {
    const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, raw, i));
    return special.empty() ? "normal" : special;
  };
  const absl::string_view a = one(src0, 0), b = one(src1, 1);
  return a == "normal" ? b : a;
}

// The format's largest finite value as f32 bits: exponent field e, fraction m of the format map
// to f32 exponent e - bias + 127 and fraction m << (23 - M).
inline uint32_t Fp8MaxFiniteF32Bits(const Fp8Format& f) {
  const uint32_t e8 = f.max_finite >> f.man_bits;
  const uint32_t m8 = f.max_finite & ((1u << f.man_bits) - 1u);
  return ((e8 - f.bias + kF32Bias) << 23) | (m8 << (23 - f.man_bits));
}

// The bits of x below the format's output quantum are exactly one half of it (fraction bits
// dropped = 23 - M, plus the subnormal shift): the round-to-nearest tie.
inline bool IsFp8QuantumTie(uint32_t x, const Fp8Format& f) {
  const int32_t f_exp = static_cast<int32_t>(F32Exp(x)) - (kF32Bias - f.bias);
  const int32_t t = (23 - f.man_bits) + (f_exp < 1 ? 1 - f_exp : 0);
  if (t > 24) return false;
  const uint32_t below = F32Significand(x) & ((1u << t) - 1u);
  return below == (1u << (t - 1));
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_INPUT_CLASS_H_
