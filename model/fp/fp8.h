// f32 -> 8-bit float for every format in fp8_format.h: round to nearest even, and the two
// readings of the SR instructions' stochastic rounding (SEMANTICS.md §4-6). Integer code,
// branch-free, inline so that batch loops vectorize; the per-format and per-hypothesis choices
// are folded once per batch into an Fp8Params.
//
//   Fp8Params p = MakeFp8Params(GetFp8Format(Fp8FormatId::e4m3_ocp), {});
//   F32ToFp8Rne(0x3f800000, p)                              // 0x38 (1.0)
//   F32ToFp8SrCarryTruncate(0x3fffffff, 0xfffff, p)         // 0x40: the carry reaches 2.0
//   F32ToFp8SrLiteral(0x3fffffff, 0xfffff, p)               // 0x39: the literal pseudocode
//
// A `seed` is the random fraction of one output quantum, (23 - man_bits) bits wide: 20 bits
// for 3-bit mantissas, 21 for 2-bit ones. Which operand bits feed it is instruction knowledge
// (model/ops). Callers apply source modifiers and the MODE[4] input flush first (f32.h).
#ifndef LANEDIFF_MODEL_FP_FP8_H_
#define LANEDIFF_MODEL_FP_FP8_H_

#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/fp8_format.h"

namespace lanediff {

// The readings that change special-value outputs (model/targets/hypotheses.h decides them).
struct Fp8Options {
  // NaN input on a signed OCP format gives sign|0x7F (E4M3) / sign|0x7E (E5M2) instead of the
  // canonical byte (hypothesis fp8_nan=sign_preserving).
  bool nan_sign_preserving = false;
  // A finite value that overflows after rounding gives sign|max-finite instead of the
  // format's infinity/NaN byte (MODE.FP16_OVFL set under fp16_ovfl=saturate_finite).
  bool saturate_finite = false;
};

// Everything one format and one set of options need, as whole output bytes and shift counts.
struct Fp8Params {
  uint32_t man_bits;        // M
  uint32_t drop_bits;       // 23 - M: f32 fraction bits below the kept LSB; the seed width
  int32_t exp_adj;          // 127 - bias: fp8 biased exponent = f32 biased exponent - exp_adj
  uint32_t max_finite;      // largest finite magnitude code
  uint32_t sign_bit;        // 0x80 on signed formats, 0 on unsigned (UE5M3)
  bool zero_unsigned;       // FNUZ: a zero result is 0x00 whatever the sign (0x80 is NaN)
  bool negative_to_zero;    // unsigned formats: every negative non-NaN input gives 0x00
  uint32_t nan_pos, nan_neg;  // output byte for a NaN input, by input sign
  uint32_t inf_pos, inf_neg;  // output byte for an infinite input
  uint32_t ovf_pos, ovf_neg;  // output byte for a finite overflow (after rounding)
};

Fp8Params MakeFp8Params(const Fp8Format& format, const Fp8Options& options);

namespace fp8_internal {

// Encodes a rounded, finite magnitude `code` (which may exceed max_finite: overflow) or a
// special input, with the sign rules of the format.
inline uint32_t Encode(uint32_t x, uint32_t code, const Fp8Params& p) {
  const uint32_t sign = F32Sign(x);
  const bool neg = sign != 0u;
  const bool nan = F32IsNan(x);
  const bool inf = F32IsInf(x);
  const bool ovf = code > p.max_finite;
  const bool zero_code = code == 0u;
  uint32_t finite = code | ((neg & !(p.zero_unsigned & zero_code)) ? p.sign_bit : 0u);
  finite = (neg & p.negative_to_zero) ? 0u : finite;
  const uint32_t ovf_out = neg ? p.ovf_neg : p.ovf_pos;
  const uint32_t inf_out = neg ? p.inf_neg : p.inf_pos;
  const uint32_t nan_out = neg ? p.nan_neg : p.nan_pos;
  uint32_t out = ovf ? ovf_out : finite;
  out = inf ? inf_out : out;
  out = nan ? nan_out : out;
  return out;
}

// Where x's significand sits relative to the format: the output exponent field (at least 1;
// subnormal outputs use 1 with no implicit bit) and the extra right shift that puts a value
// headed for the subnormal range at the subnormal quantum (0 for normal outputs).
struct Aligned {
  uint32_t f_eff;
  uint32_t shift;
};
inline Aligned Align(uint32_t x, const Fp8Params& p) {
  const uint32_t e = F32Exp(x);
  const int32_t e_eff = static_cast<int32_t>(e | (e == 0 ? 1u : 0u));
  const int32_t f = e_eff - p.exp_adj;
  const int32_t shift = f < 1 ? 1 - f : 0;
  return {static_cast<uint32_t>(f < 1 ? 1 : f),
          static_cast<uint32_t>(shift > 24 ? 24 : shift)};  // sig < 2^24: 24 clears it
}

}  // namespace fp8_internal

// Round to nearest, ties to even, once, from the exact f32 value (subnormal outputs too).
inline uint32_t F32ToFp8Rne(uint32_t x, const Fp8Params& p) {
  const fp8_internal::Aligned a = fp8_internal::Align(x, p);
  const uint32_t sig = F32Significand(x);
  uint32_t t = p.drop_bits + a.shift;  // >= 20
  t = t > 25u ? 25u : t;               // from 25 on: quotient 0, remainder below one half
  const uint32_t q = sig >> t;
  const uint32_t rem = sig & ((1u << t) - 1u);
  const uint32_t half = 1u << (t - 1u);
  const uint32_t r = q + ((rem > half) | ((rem == half) & (q & 1u)));
  return fp8_internal::Encode(x, ((a.f_eff - 1u) << p.man_bits) + r, p);
}

// sr_rounding=carry_truncate (SEMANTICS.md §6, L+): specials first; the seed is added to the
// 24-bit significand just below the kept LSB, the carry propagates (1.111.. can become 2.0,
// and the largest subnormal the smallest normal), then the sum is truncated. A value headed
// for the subnormal range is first truncated at the subnormal quantum's 24-bit window, then
// the same seed is added there. Overflow is checked after rounding.
inline uint32_t F32ToFp8SrCarryTruncate(uint32_t x, uint32_t seed, const Fp8Params& p) {
  const fp8_internal::Aligned a = fp8_internal::Align(x, p);
  const uint32_t aligned = F32Significand(x) >> a.shift;  // truncated at the subnormal quantum
  const uint32_t r = (aligned + seed) >> p.drop_bits;
  return fp8_internal::Encode(x, ((a.f_eff - 1u) << p.man_bits) + r, p);
}

// The literal pseudocode (sr_rounding=literal): the seed is added to the 23-bit fraction field
// with wrap-around (the carry is lost), BEFORE any special-value handling, so Inf plus noise is
// a NaN and a NaN whose fraction wraps to 0 is an Inf; then round to nearest even.
inline uint32_t LiteralSeedAdd(uint32_t x, uint32_t seed) {
  return (x & ~kF32ManMask) | ((x + seed) & kF32ManMask);
}
inline uint32_t F32ToFp8SrLiteral(uint32_t x, uint32_t seed, const Fp8Params& p) {
  return F32ToFp8Rne(LiteralSeedAdd(x, seed), p);
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_FP8_H_
