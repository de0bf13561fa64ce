#include "model/fp/oracle.h"

#include <array>
#include <cstdint>
#include <vector>

namespace lanediff {
namespace {

// An exact non-negative number: a 320-bit integer counting units of 2^-160. f32 values span
// 2^-149 .. 2^128 and the smallest seed unit of any format is 2^-17 * 2^-21 = 2^-38, so every
// quantity below is represented without rounding.
constexpr int kFracBits = 160;
constexpr int kWords = 5;
struct Wide {
  std::array<uint64_t, kWords> w{};  // little-endian 64-bit words
};

// n * 2^exp.
Wide FromDyadic(uint64_t n, int exp) {
  Wide r;
  const int shift = exp + kFracBits;  // >= 0 for every value used here
  const int word = shift / 64, bit = shift % 64;
  r.w[word] = n << bit;
  if (bit != 0 && word + 1 < kWords) r.w[word + 1] = n >> (64 - bit);
  return r;
}

int Cmp(const Wide& a, const Wide& b) {
  for (int i = kWords - 1; i >= 0; --i) {
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  }
  return 0;
}

Wide Add(const Wide& a, const Wide& b) {
  Wide r;
  unsigned __int128 carry = 0;
  for (int i = 0; i < kWords; ++i) {
    const unsigned __int128 s = static_cast<unsigned __int128>(a.w[i]) + b.w[i] + carry;
    r.w[i] = static_cast<uint64_t>(s);
    carry = s >> 64;
  }
  return r;
}

Wide Sub(const Wide& a, const Wide& b) {  // a >= b
  Wide r;
  uint64_t borrow = 0;
  for (int i = 0; i < kWords; ++i) {
    const uint64_t d = a.w[i] - b.w[i] - borrow;
    borrow = (a.w[i] < b.w[i] || (a.w[i] == b.w[i] && borrow)) ? 1 : 0;
    r.w[i] = d;
  }
  return r;
}

Wide MulSmall(const Wide& a, uint32_t m) {
  Wide r;
  unsigned __int128 carry = 0;
  for (int i = 0; i < kWords; ++i) {
    const unsigned __int128 p = static_cast<unsigned __int128>(a.w[i]) * m + carry;
    r.w[i] = static_cast<uint64_t>(p);
    carry = p >> 64;
  }
  return r;
}

Wide ShiftRight(const Wide& a, int k) {  // 0 < k < 64; exact for the powers of two used here
  Wide r;
  for (int i = 0; i < kWords; ++i) {
    r.w[i] = a.w[i] >> k;
    if (i + 1 < kWords) r.w[i] |= a.w[i + 1] << (64 - k);
  }
  return r;
}

// |x| exactly, for a finite f32: by definition, a normal value is (2^23 + fraction) *
// 2^(exponent - 127 - 23) and a denormal one fraction * 2^(1 - 127 - 23).
Wide F32Magnitude(uint32_t x) {
  const uint32_t exponent = (x >> 23) & 0xff;
  const uint32_t fraction = x & 0x7fffff;
  if (exponent == 0) return FromDyadic(fraction, 1 - 127 - 23);
  return FromDyadic((1u << 23) + fraction, static_cast<int>(exponent) - 127 - 23);
}

// The value of every magnitude code 0 .. max_finite + 1 of a format, from the format's
// definition (exponent field e, fraction m, M fraction bits, bias B):
//   e == 0: m * 2^(1 - B - M)      e > 0: (2^M + m) * 2^(e - B - M)
// Code max_finite + 1 is the first value past the largest finite one (as if the exponent
// range went on): reaching it means overflow.
const std::vector<Wide>& ValueTable(const Fp8Format& f) {
  static const auto* tables = [] {
    auto* t = new std::array<std::vector<Wide>, kNumFp8Formats>;
    for (const Fp8Format& fmt : kFp8Formats) {
      std::vector<Wide>& v = (*t)[static_cast<int>(fmt.id)];
      const uint32_t mmask = (1u << fmt.man_bits) - 1;
      for (uint32_t c = 0; c <= fmt.max_finite + 1u; ++c) {
        const uint32_t e = c >> fmt.man_bits, m = c & mmask;
        if (e == 0) {
          v.push_back(FromDyadic(m, 1 - fmt.bias - fmt.man_bits));
        } else {
          v.push_back(FromDyadic((1u << fmt.man_bits) + m,
                                 static_cast<int>(e) - fmt.bias - fmt.man_bits));
        }
      }
    }
    return t;
  }();
  return (*tables)[static_cast<int>(f.id)];
}

// Largest index c with table[c] <= v (table ascending, table[0] = 0).
uint32_t FloorIndex(const std::vector<Wide>& table, const Wide& v) {
  uint32_t lo = 0, hi = static_cast<uint32_t>(table.size());  // answer in [lo, hi)
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (Cmp(table[mid], v) <= 0) lo = mid;
    else hi = mid;
  }
  return lo;
}

// The output byte for a rounded magnitude code (or overflow) and the input's sign, and for
// special inputs: docs/semantics.md §5, case by case.
uint32_t EncodeByCases(bool negative, bool overflow, uint32_t code, const Fp8Format& f,
                       const Fp8Options& o) {
  const uint32_t sign = negative && f.is_signed ? 0x80u : 0u;
  // UE5M3: negatives (and -Inf, overflow) clamp, unless the format encodes magnitudes.
  if (!f.is_signed && negative && !f.negative_as_magnitude) return 0x00;
  if (overflow) {
    if (o.saturate_finite) return sign | f.max_finite;
    if (f.fnuz) return 0x80;
    return sign | f.inf_out;  // OCP E4M3: sign|0x7F (NaN); E5M2: sign|0x7C (Inf); UE5M3: 0xFE/0xFF
  }
  if (code == 0 && f.fnuz) return 0x00;  // FNUZ has no -0
  return sign | code;
}

uint32_t SpecialInput(uint32_t x, const Fp8Format& f, const Fp8Options& o, bool* handled) {
  const bool negative = (x >> 31) != 0;
  const uint32_t exponent = (x >> 23) & 0xff, fraction = x & 0x7fffff;
  *handled = exponent == 0xff;
  if (!*handled) return 0;
  if (fraction != 0) {  // NaN, any payload
    if (f.fnuz || !f.is_signed) return f.nan_out;
    if (o.nan_sign_7f) return (negative ? 0x80u : 0u) | 0x7fu;
    if (o.nan_sign_preserving) return (negative ? 0x80u : 0u) | (f.nan_out & 0x7fu);
    return f.nan_out;
  }
  // Infinity: like an overflow that FP16_OVFL does not saturate, unless saturate_inf says
  // it saturates too.
  if (!f.is_signed) {
    if (negative && !f.negative_as_magnitude) return 0x00;
    return o.saturate_inf ? f.max_finite : f.inf_out;
  }
  if (o.saturate_inf) return (negative ? 0x80u : 0u) | f.max_finite;
  if (f.fnuz) return 0x80;
  return (negative ? 0x80u : 0u) | f.inf_out;
}

// sr_overflow=before_rounding (SR) or pk_overflow=before_rounding (RNE): is the finite
// magnitude v above the largest finite value?
bool AboveMaxFinite(const Wide& v, const Fp8Format& f, const Fp8Options& o) {
  return o.overflow_before_rounding && Cmp(v, ValueTable(f)[f.max_finite]) > 0;
}

// What every rounding does first: a special input, or a finite |x| at or past the first value
// beyond max finite (under an overflow-before-rounding reading: above max finite), decides the
// byte at once; otherwise |x| exactly and the code at or below it.
struct Finite {
  bool decided;
  uint32_t byte;  // when decided
  bool negative;
  Wide v;         // |x|
  uint32_t lo;    // largest code whose value is <= v
};

Finite Decode(uint32_t x, const Fp8Format& f, const Fp8Options& o) {
  Finite r{};
  bool special;
  r.byte = SpecialInput(x, f, o, &special);
  r.decided = special;
  if (special) return r;
  r.negative = (x >> 31) != 0;
  r.v = F32Magnitude(x);
  r.lo = FloorIndex(ValueTable(f), r.v);
  if (r.lo > f.max_finite || AboveMaxFinite(r.v, f, o)) {
    r.decided = true;
    r.byte = EncodeByCases(r.negative, true, 0, f, o);
  }
  return r;
}

// How a stochastic reading rounds a finite |x| = v: k seed bits, as a k-bit fraction of the
// output quantum at v. k > 24 means the result is a zero whatever the seed.
struct SeedBits {
  int k;
  uint32_t seed;
};

// Stochastic rounding by definition: specials and overflow by cases, then v plus seed / 2^k of
// the quantum at v, exactly, truncated to the representable value at or below.
template <typename Bits>
uint32_t SeededTruncate(uint32_t x, const Fp8Format& f, const Fp8Options& o, Bits bits_for) {
  const Finite in = Decode(x, f, o);
  if (in.decided) return in.byte;
  const SeedBits b = bits_for(in.v);
  if (b.k > 24) return EncodeByCases(in.negative, false, 0, f, o);
  const std::vector<Wide>& table = ValueTable(f);
  const Wide quantum = Sub(table[in.lo + 1], table[in.lo]);
  const Wide noise = ShiftRight(MulSmall(quantum, b.seed), b.k);
  const uint32_t code = FloorIndex(table, Add(in.v, noise));  // truncate v + noise
  return EncodeByCases(in.negative, code > f.max_finite, code, f, o);
}

}  // namespace

uint32_t OracleF32ToU8(uint32_t x, RoundMode rm, bool nan_gives_max) {
  const bool negative = (x >> 31) != 0;
  const uint32_t exponent = (x >> 23) & 0xff, fraction = x & 0x7fffff;
  if (exponent == 0xff && fraction != 0) return nan_gives_max ? 255 : 0;  // NaN
  if (negative) return 0;                           // rounds to <= 0, clamps to 0
  if (exponent == 0xff) return 255;                 // +Inf
  static const auto* integers = [] {
    auto* t = new std::vector<Wide>;
    for (uint64_t i = 0; i <= 256; ++i) t->push_back(FromDyadic(i, 0));
    return t;
  }();
  const Wide v = F32Magnitude(x);
  const uint32_t n = FloorIndex(*integers, v);  // floor(v), or 256 for anything >= 256
  if (n >= 256) return 255;
  const Wide frac = Sub(v, (*integers)[n]);
  const int vs_half = Cmp(frac, FromDyadic(1, -1));
  const bool exact = Cmp(frac, Wide{}) == 0;
  uint32_t r = n;
  switch (rm) {
    case RoundMode::nearest_even:
      if (vs_half > 0 || (vs_half == 0 && n % 2 == 1)) r = n + 1;
      break;
    case RoundMode::toward_pos:
      if (!exact) r = n + 1;
      break;
    case RoundMode::toward_neg:
    case RoundMode::toward_zero:
      break;  // positive: both are floor
  }
  return r > 255 ? 255 : r;
}

uint32_t OracleF32ToFp8Rne(uint32_t x, const Fp8Format& f, const Fp8Options& o) {
  const Finite in = Decode(x, f, o);
  if (in.decided) return in.byte;
  const std::vector<Wide>& table = ValueTable(f);
  const uint32_t lo = in.lo, hi = lo + 1;
  const int c = Cmp(Add(in.v, in.v), Add(table[lo], table[hi]));  // 2v vs lo + hi
  const uint32_t code = c < 0 ? lo : c > 0 ? hi : (lo % 2 == 0 ? lo : hi);
  return EncodeByCases(in.negative, code > f.max_finite, code, f, o);
}

uint32_t OracleF32ToFp8Sr(uint32_t x, uint32_t seed, const Fp8Format& f,
                          const Fp8Options& o) {
  // The seed is a (23 - M)-bit fraction of one quantum, wherever |x| lies.
  return SeededTruncate(x, f, o, [&](const Wide&) { return SeedBits{23 - f.man_bits, seed}; });
}

uint32_t OracleF32ToFp8Literal(uint32_t x, uint32_t seed, const Fp8Format& f,
                               const Fp8Options& o) {
  if (((x >> 23) & 0xff) != 0xff && AboveMaxFinite(F32Magnitude(x), f, o)) {
    return EncodeByCases((x >> 31) != 0, true, 0, f, o);
  }
  const uint32_t fraction = x & 0x7fffff;
  const uint32_t wrapped = (fraction + seed) % (1u << 23);
  // The overflow reading was decided on x above; the sum is rounded as RNE rounds.
  Fp8Options rne = o;
  rne.overflow_before_rounding = false;
  return OracleF32ToFp8Rne((x & 0xff800000u) | wrapped, f, rne);
}

uint32_t OracleF32ToFp8SrExactSubnormal(uint32_t x, uint32_t s1, bool seed_low,
                                        const Fp8Format& f, const Fp8Options& o) {
  return SeededTruncate(x, f, o, [&](const Wide& v) {
    // How many bits the result drops: 23 - M for a normal result; for a subnormal one, one
    // more per binade between x's exponent and the smallest normal's (1 - bias). An f32
    // denormal (exponent field 0) lies below 2^-126, far enough for any format.
    int k = 23 - f.man_bits;
    if (Cmp(v, ValueTable(f)[1u << f.man_bits]) < 0) {
      const int exponent = static_cast<int>((x >> 23) & 0xff);
      const int unbiased = exponent == 0 ? -127 : exponent - 127;
      k += (1 - f.bias) - unbiased;
    }
    if (k > 24) return SeedBits{k, 0};
    // The k seed bits: the top k of S1, or its low k.
    const uint32_t seed = seed_low ? static_cast<uint32_t>(s1 % (1ull << k))
                                   : static_cast<uint32_t>(s1 / (1ull << (32 - k)));
    return SeedBits{k, seed};
  });
}

namespace {

// What a byte means, by the format's definition (docs/semantics.md §4): its sign, and either a
// special or the exact magnitude n * 2^k.
struct Fp8Value {
  bool negative = false;
  bool nan = false;
  bool inf = false;
  bool subnormal = false;
  uint64_t n = 0;  // magnitude = n * 2^k
  int k = 0;
};

Fp8Value DecodeByDefinition(uint32_t byte, const Fp8Format& f) {
  Fp8Value r;
  byte &= 0xffu;
  // Signed formats: bit 7 is the sign, bits [6:0] the code; unsigned ones use all 8 bits.
  const uint32_t code = f.is_signed ? byte % 128u : byte;
  r.negative = f.is_signed && byte >= 128u;
  if (f.fnuz && byte == 128u) {  // FNUZ: the sign bit alone is the only NaN, no -0
    r.nan = true;
    return r;
  }
  if (code > f.max_finite) {  // past the largest finite code: Inf (E5M2's 0x7C) or NaN
    r.inf = f.has_inf && code == f.inf_out;
    r.nan = !r.inf;
    return r;
  }
  const uint32_t radix = 1u << f.man_bits;  // 2^M
  const uint32_t e = code / radix, m = code % radix;
  if (e == 0) {  // subnormal or zero: m * 2^(1 - bias - M)
    r.subnormal = m != 0;
    r.n = m;
    r.k = 1 - f.bias - f.man_bits;
  } else {  // normal: (2^M + m) * 2^(e - bias - M)
    r.n = radix + m;
    r.k = static_cast<int>(e) - f.bias - f.man_bits;
  }
  return r;
}

// The f32 bits of (-1)^negative * n * 2^k, n < 2^24, exactly representable as a normal f32.
uint32_t EncodeF32(bool negative, uint64_t n, int k) {
  const uint32_t sign = negative ? 0x80000000u : 0u;
  if (n == 0) return sign;
  int top = 0;  // n in [2^top, 2^(top + 1))
  while ((n >> (top + 1)) != 0) ++top;
  const int exponent = k + top;  // the value lies in [2^exponent, 2^(exponent + 1))
  const uint64_t fraction = (n - (uint64_t{1} << top)) << (23 - top);
  return sign | (static_cast<uint32_t>(exponent + 127) << 23) | static_cast<uint32_t>(fraction);
}

}  // namespace

uint32_t OracleFp8ToF32(uint32_t byte, const Fp8Format& f, const Fp8ToF32Options& o) {
  Fp8Value v = DecodeByDefinition(byte, f);
  if (v.nan) {
    if (o.clamp && o.dx10_clamp) return 0u;
    if (!f.is_signed) return o.unsigned_nan;
    if (o.nan == Fp8NanToF32::host_7f800001) return 0x7f800001u;
    if (o.nan == Fp8NanToF32::negative_quiet) return 0xffc00000u;  // both signs
    return (v.negative ? 0x80000000u : 0u) | 0x7fc00000u;
  }
  if (v.subnormal && o.flush_denormals) v.n = 0;
  // OMOD multiplies the exact value by 2, 4 or 1/2.
  switch (o.omod) {
    case kOmodMul2: v.k += 1; break;
    case kOmodMul4: v.k += 2; break;
    case kOmodDiv2: v.k -= 1; break;
    default: break;
  }
  if (o.clamp) {
    if (v.negative) return 0u;  // every negative value, -0 and -Inf: +0
    // v >= 1 (or +Inf): 1.0. n * 2^k >= 1 <=> n >= 2^-k.
    const bool at_least_one = v.inf || (v.k >= 0 ? v.n != 0 : v.n >= (uint64_t{1} << -v.k));
    if (at_least_one) return 0x3f800000u;
  }
  if (v.inf) return (v.negative ? 0x80000000u : 0u) | 0x7f800000u;
  return EncodeF32(v.negative, v.n, v.k);
}

}  // namespace lanediff
