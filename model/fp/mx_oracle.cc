#include "model/fp/mx_oracle.h"

#include <cstdint>
#include <vector>

namespace lanediff {
namespace {

// A number by cases; a finite one is (-1)^negative * n * 2^k exactly.
struct Num {
  enum Kind { finite, inf, nan } kind = finite;
  bool negative = false;
  uint64_t n = 0;
  int k = 0;
};

// An IEEE-style binary format's bits by definition: exponent field E, fraction F (f bits), bias
// B: E all ones: Inf (F = 0) or NaN; E = 0: F * 2^(1 - B - f); else (2^f + F) * 2^(E - B - f).
Num FromIeee(uint32_t bits, int exp_bits, int frac_bits, int bias) {
  Num r;
  const uint64_t radix = uint64_t{1} << frac_bits;
  const uint32_t total = static_cast<uint32_t>(1 + exp_bits + frac_bits);
  r.negative = ((bits >> (total - 1)) & 1u) != 0;
  const uint64_t F = bits % radix;
  const uint32_t E = (bits >> frac_bits) % (1u << exp_bits);
  if (E == (1u << exp_bits) - 1u) {
    r.kind = F == 0 ? Num::inf : Num::nan;
    return r;
  }
  r.n = E == 0 ? F : radix + F;
  r.k = (E == 0 ? 1 : static_cast<int>(E)) - bias - frac_bits;
  return r;
}

Num SourceValue(uint32_t src, MxSource s) {
  switch (s) {
    case MxSource::f32: return FromIeee(src, 8, 23, 127);
    case MxSource::f16: return FromIeee(src & 0xffffu, 5, 10, 15);
    case MxSource::bf16: return FromIeee(src & 0xffffu, 8, 7, 127);
  }
  return {};
}

// An element code by the MX definition: the top bit is the sign, the rest exponent e and
// fraction m; no code is special.
Num ElementValue(uint32_t code, const MxElemFormat& f) {
  Num r;
  code %= 1u << f.bits;
  r.negative = code >= (1u << (f.bits - 1));
  const uint32_t mag = code % (1u << (f.bits - 1));
  const uint32_t radix = 1u << f.man_bits;
  const uint32_t e = mag / radix, m = mag % radix;
  r.n = e == 0 ? m : radix + m;
  r.k = (e == 0 ? 1 : static_cast<int>(e)) - f.bias - f.man_bits;
  return r;
}

// The scale byte as a number under the readings: 2^(byte - 127), or the 0x00 / 0xFF readings.
Num ScaleValue(uint32_t byte, E8m0Zero zero, E8m0Nan nan) {
  Num r;
  byte %= 256;
  if (byte == 255 && nan == E8m0Nan::nan) {
    r.kind = Num::nan;
  } else if (byte == 255 && nan == E8m0Nan::infinity) {
    r.kind = Num::inf;
  } else if (byte == 0 && zero == E8m0Zero::zero) {
    r.n = 0;
  } else {
    r.n = 1;
    r.k = static_cast<int>(byte) - 127;  // byte 255 under pow2_128: 2^128
  }
  return r;
}

bool IsZero(const Num& a) { return a.kind == Num::finite && a.n == 0; }

// a * b or a / b by IEEE's case table (0 * Inf, Inf / Inf, x / 0 with x != 0 ...). The sign of
// every result, NaN included, is a's: the scale is positive (its sign is not part of E8M0).
Num Apply(const Num& a, const Num& b, bool divide) {
  Num r;
  r.negative = a.negative;
  if (a.kind == Num::nan || b.kind == Num::nan) {
    r.kind = Num::nan;
  } else if (!divide) {
    if ((a.kind == Num::inf && IsZero(b)) || (IsZero(a) && b.kind == Num::inf)) {
      r.kind = Num::nan;
    } else if (a.kind == Num::inf || b.kind == Num::inf) {
      r.kind = Num::inf;
    } else {
      r.n = a.n * b.n;
      r.k = a.k + b.k;
    }
  } else {
    if ((a.kind == Num::inf && b.kind == Num::inf) || (IsZero(a) && IsZero(b))) {
      r.kind = Num::nan;
    } else if (a.kind == Num::inf || IsZero(b)) {
      r.kind = Num::inf;
    } else if (b.kind == Num::inf) {
      r.n = 0;
    } else {  // b = 2^k (n = 1): a / b = a.n * 2^(a.k - b.k)
      r.n = a.n;
      r.k = a.k - b.k;
    }
  }
  return r;
}

// floor(log2 n) for n > 0.
int Log2(uint64_t n) {
  int t = 0;
  while (n >= 2) {
    n /= 2;
    ++t;
  }
  return t;
}

// ---- rounding into an element --------------------------------------------------------------

constexpr int kUnit = 100;  // fixed point: units of 2^-100
using U128 = unsigned __int128;

U128 Fixed(uint64_t n, int k) { return static_cast<U128>(n) << (k + kUnit); }  // k > -kUnit

// The value of every magnitude code 0 .. max_code + 1 (max_code + 1: the next value as if the
// exponent range went on; reaching it means the result is beyond the largest element).
const std::vector<U128>& Table(const MxElemFormat& f) {
  static const auto* tables = [] {
    auto* all = new std::vector<std::vector<U128>>(kNumMxElemFormats);
    for (const MxElemFormat& fmt : kMxElemFormats) {
      std::vector<U128>& t = (*all)[static_cast<int>(fmt.id)];
      const uint32_t radix = 1u << fmt.man_bits;
      for (uint32_t c = 0; c <= fmt.max_code + 1; ++c) {
        const uint32_t e = c / radix, m = c % radix;
        if (e == 0) t.push_back(Fixed(m, 1 - fmt.bias - fmt.man_bits));
        else t.push_back(Fixed(radix + m, static_cast<int>(e) - fmt.bias - fmt.man_bits));
      }
    }
    return all;
  }();
  return (*tables)[static_cast<int>(f.id)];
}

uint32_t FloorIndex(const std::vector<U128>& t, U128 v) {  // largest c with t[c] <= v
  uint32_t c = 0;
  while (c + 1 < t.size() && t[c + 1] <= v) ++c;
  return c;
}

uint32_t RoundFinite(const Num& v, const MxElemFormat& f, bool sr, uint32_t seed,
                     uint32_t seed_bits) {
  const uint32_t sign = v.negative ? 1u << (f.bits - 1) : 0u;
  const uint32_t saturated = sign | f.max_code;
  if (v.n == 0) return sign;
  const int top = v.k + Log2(v.n);  // |v| in [2^top, 2^(top + 1))
  if (top >= 10) return saturated;  // every element is below 2^5
  if (top < -60) return sign;       // below 2^-60: under half the smallest element (2^-4), and
                                    // under one seed step (2^-4 / 2^31) too
  const std::vector<U128>& t = Table(f);
  const U128 x = Fixed(v.n, v.k);
  const uint32_t lo = FloorIndex(t, x);
  if (lo > f.max_code) return saturated;
  uint32_t code;
  if (!sr) {
    const U128 twice = x + x, mid2 = t[lo] + t[lo + 1];
    code = twice < mid2 ? lo : twice > mid2 ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
  } else {
    // |v| + seed steps of quantum / 2^seed_bits, exactly, truncated to the element at or below
    // (mx.h: truncating |v| to the step grid first gives the same element).
    const U128 step = (t[lo + 1] - t[lo]) >> seed_bits;  // exact: quanta are >= 2^-4
    code = FloorIndex(t, x + static_cast<U128>(seed % (1ull << seed_bits)) * step);
  }
  return sign | (code > f.max_code ? f.max_code : code);
}

}  // namespace

uint32_t OracleMxToF32(uint32_t code, uint32_t scale, const MxElemFormat& f,
                       const MxDecodeOptions& o) {
  const Num v = Apply(ElementValue(code, f), ScaleValue(scale, o.scale_zero, o.scale_nan),
                      /*divide=*/false);
  const uint32_t sign = v.negative ? 0x80000000u : 0u;
  if (v.kind == Num::nan) return (ElementValue(code, f).n == 0 && scale % 256 == 255 &&
                                  o.scale_nan == E8m0Nan::infinity)
                                     ? 0x7fc00000u  // 0 * Inf: the default NaN, positive
                                     : sign | 0x7fc00000u;
  if (v.kind == Num::inf) return sign | 0x7f800000u;  // x * Inf: infinite, not an overflow
  const uint32_t overflow = sign | (o.saturate_overflow ? 0x7f7fffffu : 0x7f800000u);
  if (v.n == 0) return sign;
  const int top = v.k + Log2(v.n);
  if (top > 127) return overflow;
  if (top < -126) {  // an f32 denormal: v / 2^-149 is an integer for every element and scale
    if (o.flush_denormal_out || o.exponent_add) return sign;
    return sign | static_cast<uint32_t>(v.n << (v.k + 149));
  }
  // Normal: fraction = v / 2^top - 1 in units of 2^-23.
  const uint64_t frac = (v.n << (23 - Log2(v.n))) - (uint64_t{1} << 23);
  return sign | (static_cast<uint32_t>(top + 127) << 23) | static_cast<uint32_t>(frac);
}

uint32_t OracleToMx(uint32_t src, MxSource source, uint32_t scale, const MxElemFormat& f,
                    const MxEncodeOptions& o, bool sr, uint32_t seed, uint32_t seed_bits) {
  Num x = SourceValue(src, source);
  // The flush is of f32 denormals (below 2^-126, f32's smallest normal): an f16 source is an
  // f32 normal once widened, so only f32 and bf16 sources can be flushed.
  if (o.flush_denormal_in && x.kind == Num::finite && x.n != 0 && x.k + Log2(x.n) < -126) {
    x.n = 0;
  }
  const Num v = Apply(x, ScaleValue(scale, o.scale_zero, o.scale_nan),
                      o.direction == MxScaleDir::divide);
  const uint32_t sign = v.negative ? 1u << (f.bits - 1) : 0u;
  if (v.kind == Num::nan) {
    switch (o.nan_in) {
      case MxNanIn::max_keep_sign: return sign | f.max_code;
      case MxNanIn::pos_max: return f.max_code;
      case MxNanIn::neg_zero: return 1u << (f.bits - 1);
      case MxNanIn::pos_zero: return 0;
    }
  }
  if (v.kind == Num::inf) return sign | f.max_code;
  return RoundFinite(v, f, sr, seed, seed_bits);
}

namespace {

// Positive pattern p (0 .. 0x7F800000) as a number; 0x7F800000 stands for 2^128.
Num PatternValue(uint32_t p) {
  if (p == 0x7f800000u) return Num{Num::finite, false, 1, 128};
  return FromIeee(p, 8, 23, 127);
}

// a < b, a <= b for finite nonnegative numbers, exactly.
int Compare(const Num& a, const Num& b) {
  if (a.n == 0 || b.n == 0) return a.n == 0 ? (b.n == 0 ? 0 : -1) : 1;
  const int ta = a.k + Log2(a.n), tb = b.k + Log2(b.n);
  if (ta != tb) return ta < tb ? -1 : 1;
  // Same binade: bring both to the smaller exponent (the shift is under 64 bits of n).
  const int k = a.k < b.k ? a.k : b.k;
  const U128 na = static_cast<U128>(a.n) << (a.k - k), nb = static_cast<U128>(b.n) << (b.k - k);
  return na < nb ? -1 : na > nb ? 1 : 0;
}

// The positive f32 pattern nearest to v (finite, v >= 0), ties to the even pattern; 0x7F800000
// when v rounds to 2^128 or beyond.
uint32_t NearestPattern(const Num& v) {
  uint32_t lo = 0, hi = 0x7f800000u;  // value(lo) <= v, searching the last such pattern
  if (Compare(PatternValue(hi), v) <= 0) return hi;
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (Compare(PatternValue(mid), v) <= 0) lo = mid; else hi = mid;
  }
  // v in [value(lo), value(hi)): compare 2v with value(lo) + value(hi).
  const Num a = PatternValue(lo), b = PatternValue(hi);
  const int k = (a.n == 0 ? b.k : (a.k < b.k ? a.k : b.k)) - 1;
  Num sum{Num::finite, false, 0, k};
  sum.n = static_cast<uint64_t>((static_cast<U128>(a.n) << (a.k - k)) +
                                (static_cast<U128>(b.n) << (b.k - k)));
  const Num twice{Num::finite, false, v.n, v.k + 1};
  const int c = Compare(twice, sum);
  if (c < 0) return lo;
  if (c > 0) return hi;
  return (lo & 1u) == 0 ? lo : hi;
}

}  // namespace

uint32_t OracleMxScaleF32(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                          const MxDecodeOptions& o) {
  const Num a = FromIeee(x, 8, 23, 127);
  if (a.kind == Num::nan) return x;
  Num b;
  if (read == MxScaleRead::f32_multiply) {
    b = FromIeee(scale_operand, 8, 23, 127);
    if (b.kind == Num::nan) return scale_operand | 0x00400000u;
  } else {
    b = ScaleValue((scale_operand >> 23) % 256, o.scale_zero, o.scale_nan);
  }
  Num v = Apply(a, b, /*divide=*/false);
  v.negative = a.negative != (read == MxScaleRead::f32_multiply && b.negative);
  const uint32_t sign = v.negative ? 0x80000000u : 0u;
  if (v.kind == Num::nan) {
    // 0 * Inf is the default NaN; a NaN scale byte keeps the element's sign.
    return b.kind == Num::nan ? sign | 0x7fc00000u : 0x7fc00000u;
  }
  if (v.kind == Num::inf) return sign | 0x7f800000u;
  const uint32_t p = NearestPattern(v);
  if (p == 0x7f800000u) return sign | (o.saturate_overflow ? 0x7f7fffffu : 0x7f800000u);
  if (p != 0 && p < 0x00800000u && o.flush_denormal_out) return sign;
  return sign | p;
}

namespace {

// A 16-bit destination by its definition: exponent bits, fraction bits, bias.
struct Def16 {
  int exp_bits, frac_bits, bias;
  uint32_t Inf() const { return ((1u << exp_bits) - 1u) << frac_bits; }
  uint32_t Nan() const { return Inf() | (1u << (frac_bits - 1)); }
};

// Positive pattern p (0 .. Inf) as a number; the Inf pattern stands for 2^(emax + 1).
Num Pattern16Value(uint32_t p, const Def16& d) {
  if (p == d.Inf()) return Num{Num::finite, false, 1, (1 << d.exp_bits) - 1 - d.bias};
  return FromIeee(p, d.exp_bits, d.frac_bits, d.bias);
}

// The positive pattern at or below v (finite, v >= 0) and the one after it, by binary search.
uint32_t Floor16(const Num& v, const Def16& d) {
  uint32_t lo = 0, hi = d.Inf();
  if (Compare(Pattern16Value(hi, d), v) <= 0) return hi;
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (Compare(Pattern16Value(mid, d), v) <= 0) lo = mid; else hi = mid;
  }
  return lo;
}

// Round v by definition: toward zero (the pattern at or below), or to the nearer of the two
// patterns around it, ties to the even one.
uint32_t Round16(const Num& v, const Def16& d, bool toward_zero) {
  const uint32_t lo = Floor16(v, d);
  if (toward_zero || lo == d.Inf()) return lo;
  const uint32_t hi = lo + 1;
  const Num a = Pattern16Value(lo, d), b = Pattern16Value(hi, d);
  const int k = (a.n == 0 ? b.k : (a.k < b.k ? a.k : b.k)) - 1;
  Num sum{Num::finite, false, 0, k};
  sum.n = static_cast<uint64_t>((static_cast<U128>(a.n) << (a.k - k)) +
                                (static_cast<U128>(b.n) << (b.k - k)));
  const int c = Compare(Num{Num::finite, false, v.n, v.k + 1}, sum);
  if (c < 0) return lo;
  if (c > 0) return hi;
  return (lo & 1u) == 0 ? lo : hi;
}

}  // namespace

uint32_t OracleMxScaleF32To16(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                              const MxDecodeOptions& o, Mx16 dst) {
  const Def16 d = dst == Mx16::f16 ? Def16{5, 10, 15} : Def16{8, 7, 127};
  const Num a = FromIeee(x, 8, 23, 127);
  // A NaN keeps its sign and its fraction's top bits, with the quiet bit set.
  const auto narrow_nan = [&d](uint32_t bits) {
    return ((bits >> 31) << 15) | d.Nan() | ((bits % (1u << 23)) >> (23 - d.frac_bits));
  };
  if (a.kind == Num::nan) return narrow_nan(x);
  Num b;
  if (read == MxScaleRead::f32_multiply) {
    b = FromIeee(scale_operand, 8, 23, 127);
    if (b.kind == Num::nan) return narrow_nan(scale_operand | 0x00400000u);
  } else {
    b = ScaleValue((scale_operand >> 23) % 256, o.scale_zero, o.scale_nan);
  }
  Num v = Apply(a, b, /*divide=*/false);
  v.negative = a.negative != (read == MxScaleRead::f32_multiply && b.negative);
  const uint32_t sign = v.negative ? 0x8000u : 0u;
  if (v.kind == Num::nan) return b.kind == Num::nan ? sign | d.Nan() : d.Nan();
  if (v.kind == Num::inf) return sign | d.Inf();
  const uint32_t p = Round16(v, d, o.round16_toward_zero);
  if (p == d.Inf()) return sign | (o.saturate_overflow ? d.Inf() - 1u : d.Inf());
  if (p != 0 && p < (1u << d.frac_bits) && o.flush_denormal_out) return sign;
  return sign | p;
}

// ---- scaled 8-bit float encoders ---------------------------------------------------------------

namespace {

// A nonnegative exact fraction num / den * 2^k (den >= 1).
struct Frac {
  U128 num = 0;
  uint64_t den = 1;
  int k = 0;
};

int Log2U128(U128 n) {
  int t = 0;
  while (n >= 2) {
    n /= 2;
    ++t;
  }
  return t;
}

// a * 2^ka against b * 2^kb (a, b > 0, each under 2^100): -1, 0, 1.
int CompareScaled(U128 a, int ka, U128 b, int kb) {
  const int ta = ka + Log2U128(a), tb = kb + Log2U128(b);
  if (ta != tb) return ta < tb ? -1 : 1;
  // Same binade: the one with the larger exponent shifted down to the other's (its bit length
  // grows to the other's, under 2^100).
  if (ka > kb) a <<= (ka - kb);
  if (kb > ka) b <<= (kb - ka);
  return a < b ? -1 : a > b ? 1 : 0;
}

// The magnitude of code c of a format with M fraction bits and bias B by its definition, as
// n * 2^k (the 8-bit floats' and the MX elements' alike).
struct Grid {
  int man_bits;
  int bias;
};
Num Magnitude(uint32_t c, const Grid& g) {
  const uint32_t radix = 1u << g.man_bits;
  const uint32_t e = c / radix, m = c % radix;
  Num r;
  r.n = e == 0 ? m : radix + m;
  r.k = (e == 0 ? 1 : static_cast<int>(e)) - g.bias - g.man_bits;
  return r;
}

// v against the magnitude of code c: -1 (v below), 0, 1.
int CompareToCode(const Frac& v, uint32_t c, const Grid& g) {
  const Num t = Magnitude(c, g);
  if (t.n == 0) return v.num == 0 ? 0 : 1;
  if (v.num == 0) return -1;
  return CompareScaled(v.num, v.k, static_cast<U128>(v.den) * t.n, t.k);
}

// The nearest magnitude code to v (ties to even); `over` (one past the largest) when past it.
uint32_t NearestCode(const Frac& v, const Grid& g, uint32_t over) {
  if (CompareToCode(v, over, g) >= 0) return over;
  uint32_t lo = 0, hi = over;  // value(lo) <= v < value(hi)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (CompareToCode(v, mid, g) >= 0) lo = mid; else hi = mid;
  }
  // 2v against value(lo) + value(hi), both over one exponent.
  const Num a = Magnitude(lo, g), b = Magnitude(hi, g);
  const int k = (a.k < b.k ? a.k : b.k) - 1;
  const U128 sum = (static_cast<U128>(a.n) << (a.k - k)) + (static_cast<U128>(b.n) << (b.k - k));
  const int c = v.num == 0 ? -1 : CompareScaled(v.num, v.k + 1, static_cast<U128>(v.den) * sum, k);
  if (c < 0) return lo;
  if (c > 0) return hi;
  return lo % 2 == 0 ? lo : hi;
}

// x over (or times) the scale s by IEEE's case table, as an exact fraction; *kind is Num::nan
// or Num::inf for a special result (the fraction is then unset), Num::finite otherwise.
Frac Quotient(const Num& x, const Num& s, bool divide, Num::Kind* kind) {
  Frac v;
  *kind = Num::finite;
  if (divide && x.kind == Num::finite && s.kind == Num::finite && s.n != 0 && x.n != 0) {
    v.num = static_cast<U128>(x.n);
    v.den = s.n;
    v.k = x.k - s.k;
    return v;
  }
  Num b = s;
  b.negative = false;
  const Num r = Apply(x, b, divide);  // its finite division wants a power of two: done above
  *kind = r.kind;
  v.num = static_cast<U128>(r.n);
  v.k = r.k;
  return v;
}

// The scaled encoders by definition: the specials by IEEE's case table, then `round(v)` (the
// magnitude code, max_finite + 1 or more when past the largest) for a finite nonzero |v|.
template <typename Round>
uint32_t ScaledOracle(uint32_t src, MxSource source, uint32_t scale_operand, const Fp8Format& f,
                      const Fp8Options& fo, const MxFp8EncodeOptions& o, Round round) {
  Num x = SourceValue(src, source);
  const int min_normal = source == MxSource::f16 ? -14 : -126;
  if (o.flush_denormal_in && x.kind == Num::finite && x.n != 0 &&
      x.k + Log2(x.n) < min_normal) {
    x.n = 0;
  }
  const bool f32_read = o.read == MxScaleRead::f32_multiply;
  const Num s = f32_read ? FromIeee(scale_operand, 8, 23, 127)
                         : ScaleValue((scale_operand >> 23) % 256, o.scale_zero, o.scale_nan);
  const bool divide = o.direction == MxScaleDir::divide;
  auto nan_byte = [&](bool negative) -> uint32_t {
    const uint32_t sg = negative ? 0x80u : 0u;
    if (fo.nan_sign_7f) return sg | 0x7fu;
    if (fo.nan_sign_preserving) return sg | (f.nan_out & 0x7fu);
    return f.nan_out;
  };
  const bool negative = x.negative != (f32_read && s.negative);
  const uint32_t sign = negative ? 0x80u : 0u;
  const uint32_t inf_byte = sign | (fo.saturate_inf ? f.max_finite : f.inf_out);
  if (x.kind == Num::nan) return nan_byte(x.negative);
  if (s.kind == Num::nan) return nan_byte(f32_read ? s.negative : x.negative);
  Num::Kind kind;
  const Frac v = Quotient(x, s, divide, &kind);
  if (kind == Num::nan) return nan_byte(false);
  if (kind == Num::inf) return inf_byte;
  if (v.num == 0) return sign;
  const uint32_t code = round(v);
  if (code > f.max_finite) return sign | (fo.saturate_finite ? f.max_finite : f.inf_out);
  return sign | code;
}

// The largest magnitude code whose value is at most v, or `over` (one past the largest) when v
// reaches it.
uint32_t FloorCode(const Frac& v, const Grid& g, uint32_t over) {
  if (CompareToCode(v, over, g) >= 0) return over;
  uint32_t lo = 0, hi = over;  // value(lo) <= v < value(hi)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (CompareToCode(v, mid, g) >= 0) lo = mid; else hi = mid;
  }
  return lo;
}

// v (> 0) rounded to the nearest n * 2^k with n < 2^24 (ties to even n): n in [2^23, 2^24).
Num Nearest24(const Frac& v) {
  // t = floor(log2 v), from a first guess corrected by exact comparisons with 2^t.
  int t = v.k + Log2U128(v.num) - Log2U128(v.den);
  while (CompareScaled(v.num, v.k, static_cast<U128>(v.den), t) < 0) --t;
  while (CompareScaled(v.num, v.k, static_cast<U128>(v.den), t + 1) >= 0) ++t;
  // v / 2^(t - 23) = num * 2^sh / den, sh = k - t + 23 (between -64 and 64 here).
  const int sh = v.k - t + 23;
  U128 num = v.num, den = v.den;
  if (sh >= 0) num <<= sh; else den <<= -sh;
  Num r;
  r.n = static_cast<uint64_t>(num / den);
  const U128 rem2 = 2 * (num % den);
  if (rem2 > den || (rem2 == den && r.n % 2 == 1)) ++r.n;
  r.k = t - 23;
  if (r.n == (uint64_t{1} << 24)) {
    r.n /= 2;
    ++r.k;
  }
  return r;
}

// The stochastic rounding of v by its definition: w = v to 24 significant bits; the quantum Q
// at w is the distance from the largest code at or below w to the next code (one past the
// largest finite standing for the first value beyond it); the seed adds seed * Q / 2^bits to w
// (source_grid first truncates w to a multiple of Q / 2^bits); the result is the largest code at
// or below the sum.
uint32_t SrCode(const Frac& v, const Grid& g, uint32_t over, uint32_t s1, uint32_t src_man_bits,
                MxSrRound reading) {
  const Num w = Nearest24(v);
  const Frac wf{static_cast<U128>(w.n), 1, w.k};
  const uint32_t c0 = FloorCode(wf, g, over);
  if (c0 >= over) return c0;
  const Num a = Magnitude(c0, g), b = Magnitude(c0 + 1, g);
  // Q in units of 2^w.k (the 24-bit value's last place): Q / 2^w.k = 2^qbits.
  const int bk = b.k, ak = a.n == 0 ? b.k : a.k;
  const int qk = ak < bk ? ak : bk;
  const U128 qn = (static_cast<U128>(b.n) << (bk - qk)) - (static_cast<U128>(a.n) << (ak - qk));
  const int qbits = qk + Log2U128(qn) - w.k;  // Q is a power of two
  if (qbits > 90) return 0;  // w is below 2^-90 of the quantum: every seed leaves it at zero
  U128 sum;
  if (reading == MxSrRound::f32_exact_subnormal) {
    if (qbits > 24) return 0;
    sum = static_cast<U128>(w.n) + (s1 >> (32 - qbits));
  } else {
    const int bits = static_cast<int>(src_man_bits) - g.man_bits;
    const U128 step = U128{1} << (qbits - bits);
    sum = (static_cast<U128>(w.n) / step + (s1 >> (32 - bits))) * step;
  }
  return FloorCode(Frac{sum, 1, w.k}, g, over);
}

}  // namespace

uint32_t OracleToFp8Scaled(uint32_t src, MxSource source, uint32_t scale_operand,
                           const Fp8Format& f, const Fp8Options& fo, const MxFp8EncodeOptions& o) {
  return ScaledOracle(src, source, scale_operand, f, fo, o, [&](const Frac& v) {
    return NearestCode(v, {f.man_bits, f.bias}, f.max_finite + 1u);
  });
}

uint32_t OracleToFp8ScaledSr(uint32_t src, MxSource source, uint32_t s1, uint32_t scale_operand,
                             const Fp8Format& f, const Fp8Options& fo,
                             const MxFp8EncodeOptions& o) {
  const uint32_t man = source == MxSource::f32 ? 23u : source == MxSource::f16 ? 10u : 7u;
  return ScaledOracle(src, source, scale_operand, f, fo, o, [&](const Frac& v) {
    return SrCode(v, {f.man_bits, f.bias}, f.max_finite + 1u, s1, man, o.sr_round);
  });
}

namespace {

// The MX element encoders' cases by definition around `round` (a finite nonzero |v| -> the
// magnitude code, max_code + 1 or more past the largest). Under MxScaleRead::exponent the
// scale is its E8M0 byte (options' zero and NaN readings), the result's sign x's, and a NaN
// from the case table (0 / 0, Inf / Inf, 0 * Inf) keeps x's sign (mx.cc Prepare); under
// f32_multiply the operand's sign multiplies too and such a NaN is positive.
template <typename Round>
uint32_t MxScaledOracle(uint32_t src, MxSource source, uint32_t scale_operand,
                        const MxElemFormat& f, const MxEncodeOptions& o, MxScaleRead read,
                        Round round) {
  Num x = SourceValue(src, source);
  if (o.flush_denormal_in && x.kind == Num::finite && x.n != 0 && x.k + Log2(x.n) < -126) {
    x.n = 0;
  }
  const bool f32_read = read == MxScaleRead::f32_multiply;
  const Num s = f32_read ? FromIeee(scale_operand, 8, 23, 127)
                         : ScaleValue((scale_operand >> 23) % 256, o.scale_zero, o.scale_nan);
  const uint32_t sign_bit = 1u << (f.bits - 1);
  auto nan_code = [&](bool negative) -> uint32_t {
    switch (o.nan_in) {
      case MxNanIn::max_keep_sign: return (negative ? sign_bit : 0u) | f.max_code;
      case MxNanIn::pos_max: return f.max_code;
      case MxNanIn::neg_zero: return sign_bit;
      case MxNanIn::pos_zero: return 0;
    }
    return 0;
  };
  const bool s_negative = f32_read && s.negative;
  const uint32_t sign = x.negative != s_negative ? sign_bit : 0u;
  if (x.kind == Num::nan) return nan_code(x.negative);
  if (s.kind == Num::nan) return nan_code(f32_read ? s.negative : x.negative);
  Num::Kind kind;
  Num sp = s;
  sp.negative = false;
  const Frac v = Quotient(x, sp, o.direction == MxScaleDir::divide, &kind);
  if (kind == Num::nan) return nan_code(f32_read ? false : x.negative);
  if (kind == Num::inf) return sign | f.max_code;
  if (v.num == 0) return sign;
  const uint32_t code = round(v);
  return sign | (code > f.max_code ? f.max_code : code);
}

}  // namespace

uint32_t OracleToMxScaled(uint32_t src, MxSource source, uint32_t scale_operand,
                          const MxElemFormat& f, const MxEncodeOptions& o, MxScaleRead read) {
  if (read == MxScaleRead::exponent) {
    return OracleToMx(src, source, (scale_operand >> 23) % 256, f, o, false, 0, 0);
  }
  return MxScaledOracle(src, source, scale_operand, f, o, read, [&](const Frac& v) {
    return NearestCode(v, {f.man_bits, f.bias}, f.max_code + 1u);
  });
}

uint32_t OracleToMxScaledSr(uint32_t src, MxSource source, uint32_t s1, uint32_t scale_operand,
                            const MxElemFormat& f, const MxEncodeOptions& o, MxScaleRead read,
                            MxSrRound reading) {
  const uint32_t man = source == MxSource::f32 ? 23u : source == MxSource::f16 ? 10u : 7u;
  return MxScaledOracle(src, source, scale_operand, f, o, read, [&](const Frac& v) {
    return SrCode(v, {f.man_bits, f.bias}, f.max_code + 1u, s1, man, reading);
  });
}

}  // namespace lanediff
