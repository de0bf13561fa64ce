// f32 -> 8-bit float for every format in fp8_format.h: round to nearest even, and the three
// readings of the SR instructions' stochastic rounding (docs/semantics.md §4-6). Integer code,
// branch-free, inline so that batch loops vectorize; the per-format and per-hypothesis choices
// are folded once per batch into an Fp8Params.
//
//   Fp8Params p = MakeFp8Params(GetFp8Format(Fp8FormatId::e4m3_ocp), {});
//   F32ToFp8Rne(0x3f800000, p)                              // 0x38 (1.0)
//   F32ToFp8SrCarryTruncate(0x3fffffff, 0xfffff, p)         // 0x40: the carry reaches 2.0
//   F32ToFp8SrLiteral(0x3fffffff, 0xfffff, p)               // 0x39: the literal pseudocode
//   F32ToFp8SrExactSubnormal(0x3c7fffff, 0x800, false, p)   // 0x08: rocjitsu's CDNA reading
//
// A `seed` is the random fraction of one output quantum, (23 - man_bits) bits wide: 20 bits
// for 3-bit mantissas, 21 for 2-bit ones. Which operand bits feed it is instruction knowledge
// (model/ops, hypothesis sr_seed), except for the exact_subnormal reading, whose seed width
// varies per lane and which therefore takes the whole S1 word. Callers apply source modifiers
// and the MODE[4] input flush first (f32.h).
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
  // A finite value that overflows gives sign|max-finite instead of the format's infinity/NaN
  // byte (MODE.FP16_OVFL set under fp16_ovfl=saturate_finite or saturate_all).
  bool saturate_finite = false;
  // NaN input on a signed OCP format gives sign|0x7F for E4M3 and E5M2 alike
  // (fp8_nan=sign_7f). Takes precedence over nan_sign_preserving.
  bool nan_sign_7f = false;
  // An infinite input gives sign|max-finite too (MODE.FP16_OVFL set under
  // fp16_ovfl=saturate_all). NaN is never saturated.
  bool saturate_inf = false;
  // Any finite |x| above the largest finite value overflows, whatever rounding would do
  // (sr_overflow=before_rounding on the SR functions, pk_overflow=before_rounding on the RNE
  // pair writers' F32ToFp8RnePkK). F32ToFp8RneK itself never reads it.
  bool overflow_before_rounding = false;
};

// How a format encodes signs and specials; each kind has its own branch-free encoder so that a
// batch loop carries no per-format selects it does not need.
enum class Fp8Kind : uint8_t {
  ocp,        // signed, -0 exists: sign | magnitude for everything (OCP E4M3FN, E5M2)
  fnuz,       // signed, no -0: 0x80 is the only NaN; zero is 0x00 whatever the sign
  unsigned_,  // no sign bit (UE5M3): every negative non-NaN input gives 0x00
};

// Everything one format and one set of options need, folded once per batch.
struct Fp8Params {
  Fp8Kind kind;
  uint32_t man_bits;    // M
  uint32_t drop_bits;   // 23 - M: f32 fraction bits below the kept LSB; the seed width
  uint32_t exp_adj;     // 127 - bias: fp8 biased exponent = f32 biased exponent - exp_adj
  uint32_t max_finite;  // largest finite magnitude code
  uint32_t nan_mag;     // output for a NaN input (OCP: ORed with the sign; 0xff/0xfe carry it)
  uint32_t inf_mag;     // output magnitude for an infinite input
  uint32_t ovf_mag;     // output magnitude for a finite overflow (after rounding)
  // SR only: |x| bit patterns above this overflow before rounding (0xffffffff: never).
  uint32_t pre_ovf_limit;
  // Unsigned kind only: a negative non-NaN input gives m & neg_keep (0: zero; 0xff: |x|).
  uint32_t neg_keep;
};

Fp8Params MakeFp8Params(const Fp8Format& format, const Fp8Options& options);

namespace fp8_internal {

// Encodes a rounded magnitude `code` of a finite input (it may exceed max_finite: overflow), or
// x's special value, with the sign rules of the kind (docs/semantics.md §5).
//
// kFull = false is a batch loop's promise that the rarely used readings that cost a select per
// lane are off (Fp8Options::saturate_inf and overflow_before_rounding false), so the default
// readings run at full speed; every other caller keeps the default, true.
template <Fp8Kind kKind, bool kFull = true>
inline uint32_t Encode(uint32_t x, uint32_t code, const Fp8Params& p) {
  const uint32_t mag = x & ~kF32SignMask;
  const bool special = mag >= kF32ExpMask;  // Inf or NaN
  const bool nan = mag > kF32ExpMask;
  uint32_t m = code > p.max_finite ? p.ovf_mag : code;
  if constexpr (kKind == Fp8Kind::ocp) {
    m = special ? (nan ? p.nan_mag : p.inf_mag) : m;
    return m | ((x >> 24) & 0x80u);
  } else if constexpr (kKind == Fp8Kind::fnuz) {
    if constexpr (kFull) {
      m = special ? (nan ? 0x80u : p.inf_mag) : m;  // inf_mag: 0x80, or max finite (saturate_inf)
    } else {
      m = special ? 0x80u : m;
    }
    return m | (m != 0u ? (x >> 24) & 0x80u : 0u);
  } else {
    m = special ? (nan ? p.nan_mag : p.inf_mag) : m;
    return (F32Sign(x) != 0u && !nan) ? (m & p.neg_keep) : m;
  }
}

// sr_overflow=before_rounding: a finite |x| above max finite overflows whatever its rounded
// code (pre_ovf_limit is 0xffffffff otherwise, which no magnitude exceeds). Specials are
// decided by Encode either way.
template <bool kFull = true>
inline uint32_t OverflowBeforeRounding(uint32_t x, uint32_t code, const Fp8Params& p) {
  if constexpr (!kFull) return code;
  return (x & ~kF32SignMask) > p.pre_ovf_limit ? p.max_finite + 1u : code;
}

}  // namespace fp8_internal

// Round to nearest, ties to even, once, from the exact f32 value (subnormal outputs too).
//
// For a normal output, mag - (exp_adj << 23) is the value's bit pattern re-biased to the
// format: its top bits are the output exponent and M fraction bits, the low drop_bits the rest,
// and a carry out of the fraction runs into the exponent by itself. For a subnormal output the
// 24-bit significand is shifted right by drop_bits plus the distance below the format's
// smallest normal exponent. Either way: add one half minus one (plus one if the kept LSB is
// odd), then shift.
template <Fp8Kind kKind, bool kFull = true>
inline uint32_t F32ToFp8RneK(uint32_t x, const Fp8Params& p) {
  const uint32_t mag = x & ~kF32SignMask;
  const int32_t below = static_cast<int32_t>(p.exp_adj + 1u) - static_cast<int32_t>(mag >> 23);
  const uint32_t sig = (mag & kF32ManMask) | 0x00800000u;  // f32 denormals: see below
  int32_t sub_shift = static_cast<int32_t>(p.drop_bits) + below;
  // From 25 on the quotient is 0 and the remainder below one half (sig < 2^24); this also
  // covers f32 denormals (exponent 0 puts them >= 111 places below), whose wrongly set
  // implicit bit is shifted out with everything else.
  sub_shift = sub_shift > 25 ? 25 : sub_shift;
  const bool subnormal = below > 0;
  const uint32_t a = subnormal ? sig : mag - (p.exp_adj << 23);
  const uint32_t sh = subnormal ? static_cast<uint32_t>(sub_shift) : p.drop_bits;
  const uint32_t code = (a + ((1u << (sh - 1u)) - 1u) + ((a >> sh) & 1u)) >> sh;
  return fp8_internal::Encode<kKind, kFull>(x, code, p);
}

// The RNE conversion of the instructions that pack two f32 (model/ops pk_common.cc):
// F32ToFp8RneK, except that under pk_overflow=before_rounding (pre_ovf_limit set) a finite |x|
// above max finite overflows even when it would round down to max finite (FNUZ E4M3 241.0:
// 0x80, not 0x7f).
template <Fp8Kind kKind>
inline uint32_t F32ToFp8RnePkK(uint32_t x, const Fp8Params& p) {
  const uint32_t r = F32ToFp8RneK<kKind>(x, p);
  const uint32_t mag = x & ~kF32SignMask;
  const bool pre = mag > p.pre_ovf_limit && mag < kF32ExpMask;
  return pre ? fp8_internal::Encode<kKind>(x, p.max_finite + 1u, p) : r;
}

// sr_rounding=carry_truncate (docs/semantics.md §6, L+): specials first; the seed is added to the
// 24-bit significand just below the kept LSB, the carry propagates (1.111.. can become 2.0,
// and the largest subnormal the smallest normal), then the sum is truncated. A value headed
// for the subnormal range is first truncated at the subnormal quantum's 24-bit window, then
// the same seed is added there. Overflow is checked after rounding.
//
// f32 denormal inputs give +-0 whatever the seed (exponent 0 puts them >= 111 places below the
// smallest normal, so the window keeps nothing), hence the MODE[4] flush cannot change the
// result and batch loops may skip it; the oracle applies it, and the cross-checks confirm.
template <Fp8Kind kKind, bool kFull = true>
inline uint32_t F32ToFp8SrCarryTruncateK(uint32_t x, uint32_t seed, const Fp8Params& p) {
  const uint32_t mag = x & ~kF32SignMask;
  const int32_t below = static_cast<int32_t>(p.exp_adj + 1u) - static_cast<int32_t>(mag >> 23);
  const uint32_t shift = below > 24 ? 24u : (below > 0 ? static_cast<uint32_t>(below) : 0u);
  const uint32_t sub = ((mag & kF32ManMask) | 0x00800000u) >> shift;  // truncated window
  const uint32_t a = below > 0 ? sub : mag - (p.exp_adj << 23);
  const uint32_t code =
      fp8_internal::OverflowBeforeRounding<kFull>(x, (a + seed) >> p.drop_bits, p);
  return fp8_internal::Encode<kKind, kFull>(x, code, p);
}

// sr_rounding=exact_subnormal (rocjitsu's CDNA helpers, docs/semantics.md §6): as
// carry_truncate for a normal result. For a subnormal one, nothing is truncated first: the
// k = drop_bits + (distance below the smallest normal) bits the result drops are kept whole,
// k seed bits are added (the top k of S1, or the low k under sr_seed=low), and the sum is
// truncated; from k = 25 on the result is a signed zero whatever the seed. With k = drop_bits
// in the normal range the same formula gives carry_truncate there.
template <Fp8Kind kKind>
inline uint32_t F32ToFp8SrExactSubnormalK(uint32_t x, uint32_t s1, bool seed_low,
                                          const Fp8Params& p) {
  const uint32_t mag = x & ~kF32SignMask;
  const int32_t below = static_cast<int32_t>(p.exp_adj + 1u) - static_cast<int32_t>(mag >> 23);
  const int32_t k = static_cast<int32_t>(p.drop_bits) + (below > 0 ? below : 0);
  const uint32_t kk = k > 24 ? 24u : static_cast<uint32_t>(k);
  const uint32_t sig = (mag & kF32ManMask) | 0x00800000u;
  const uint32_t a = below > 0 ? sig : mag - (p.exp_adj << 23);
  const uint32_t seed = seed_low ? s1 & ((1u << kk) - 1u) : s1 >> (32u - kk);
  uint32_t code = k > 24 ? 0u : (a + seed) >> kk;
  code = fp8_internal::OverflowBeforeRounding(x, code, p);
  return fp8_internal::Encode<kKind>(x, code, p);
}

// The literal pseudocode (sr_rounding=literal): the seed is added to the 23-bit fraction field
// with wrap-around (the carry is lost), BEFORE any special-value handling, so Inf plus noise is
// a NaN and a NaN whose fraction wraps to 0 is an Inf; then round to nearest even.
inline uint32_t LiteralSeedAdd(uint32_t x, uint32_t seed) {
  return (x & ~kF32ManMask) | ((x + seed) & kF32ManMask);
}
template <Fp8Kind kKind, bool kFull = true>
inline uint32_t F32ToFp8SrLiteralK(uint32_t x, uint32_t seed, const Fp8Params& p) {
  const uint32_t r = F32ToFp8RneK<kKind, kFull>(LiteralSeedAdd(x, seed), p);
  if constexpr (!kFull) return r;
  // sr_overflow=before_rounding, decided on the input (its exponent is unchanged by the add):
  // a finite |x| above max finite gives the overflow byte.
  const uint32_t mag = x & ~kF32SignMask;
  const bool pre = mag > p.pre_ovf_limit && mag < kF32ExpMask;
  return pre ? fp8_internal::Encode<kKind>(x, p.max_finite + 1u, p) : r;
}

// Run-time-kind forms, for single conversions and tests.
inline uint32_t F32ToFp8Rne(uint32_t x, const Fp8Params& p) {
  switch (p.kind) {
    case Fp8Kind::ocp: return F32ToFp8RneK<Fp8Kind::ocp>(x, p);
    case Fp8Kind::fnuz: return F32ToFp8RneK<Fp8Kind::fnuz>(x, p);
    case Fp8Kind::unsigned_: return F32ToFp8RneK<Fp8Kind::unsigned_>(x, p);
  }
  return 0;
}
inline uint32_t F32ToFp8SrCarryTruncate(uint32_t x, uint32_t seed, const Fp8Params& p) {
  switch (p.kind) {
    case Fp8Kind::ocp: return F32ToFp8SrCarryTruncateK<Fp8Kind::ocp>(x, seed, p);
    case Fp8Kind::fnuz: return F32ToFp8SrCarryTruncateK<Fp8Kind::fnuz>(x, seed, p);
    case Fp8Kind::unsigned_: return F32ToFp8SrCarryTruncateK<Fp8Kind::unsigned_>(x, seed, p);
  }
  return 0;
}
inline uint32_t F32ToFp8SrLiteral(uint32_t x, uint32_t seed, const Fp8Params& p) {
  switch (p.kind) {
    case Fp8Kind::ocp: return F32ToFp8SrLiteralK<Fp8Kind::ocp>(x, seed, p);
    case Fp8Kind::fnuz: return F32ToFp8SrLiteralK<Fp8Kind::fnuz>(x, seed, p);
    case Fp8Kind::unsigned_: return F32ToFp8SrLiteralK<Fp8Kind::unsigned_>(x, seed, p);
  }
  return 0;
}
inline uint32_t F32ToFp8SrExactSubnormal(uint32_t x, uint32_t s1, bool seed_low,
                                         const Fp8Params& p) {
  switch (p.kind) {
    case Fp8Kind::ocp: return F32ToFp8SrExactSubnormalK<Fp8Kind::ocp>(x, s1, seed_low, p);
    case Fp8Kind::fnuz: return F32ToFp8SrExactSubnormalK<Fp8Kind::fnuz>(x, s1, seed_low, p);
    case Fp8Kind::unsigned_:
      return F32ToFp8SrExactSubnormalK<Fp8Kind::unsigned_>(x, s1, seed_low, p);
  }
  return 0;
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_FP8_H_
