#include "model/fp/mx.h"

namespace lanediff {
namespace {

constexpr uint32_t kQuietNan = 0x7fc00000u;
constexpr uint32_t kF32MaxFinite = 0x7f7fffffu;

int BitLength(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }

}  // namespace

uint32_t E8m0ToF32(uint32_t byte, E8m0Zero zero, E8m0Nan nan) {
  byte &= 0xffu;
  if (byte == kE8m0Nan) return nan == E8m0Nan::nan ? kQuietNan : kF32ExpMask;
  if (byte == 0u) return zero == E8m0Zero::zero ? 0u : 0x00400000u;  // 2^-127 = 2^22 * 2^-149
  return byte << 23;
}

uint32_t MxToF32(uint32_t code, uint32_t scale, const MxElemFormat& f, const MxDecodeOptions& o) {
  const uint32_t bits = static_cast<uint32_t>(f.bits);
  const uint32_t M = static_cast<uint32_t>(f.man_bits);
  code &= (1u << bits) - 1u;
  scale &= 0xffu;
  const uint32_t sign = ((code >> (bits - 1u)) & 1u) << 31;
  const uint32_t mag = code & ((1u << (bits - 1u)) - 1u);
  int32_t shift = static_cast<int32_t>(scale) - kE8m0Bias;
  if (scale == kE8m0Nan) {
    switch (o.scale_nan) {
      case E8m0Nan::nan: return sign | kQuietNan;
      case E8m0Nan::infinity: return mag == 0u ? kQuietNan : sign | kF32ExpMask;  // 0 * Inf
      case E8m0Nan::pow2_128: break;
    }
  }
  if (scale == 0u && o.scale_zero == E8m0Zero::zero) return sign;
  if (mag == 0u) return sign;
  // The element as sig * 2^(E - M) with sig in [2^M, 2^(M+1)).
  const uint32_t e = mag >> M;
  uint32_t sig = e != 0u ? (1u << M) | (mag & ((1u << M) - 1u)) : mag;
  int32_t E = (e != 0u ? static_cast<int32_t>(e) : 1) - f.bias;
  while (sig < (1u << M)) {
    sig <<= 1;
    --E;
  }
  const int32_t fexp = E + shift + kF32Bias;  // the product's f32 exponent field
  const uint32_t full = sig << (kF32ManBits - static_cast<int32_t>(M));  // 24-bit significand
  if (fexp >= 0xff) return sign | (o.saturate_overflow ? kF32MaxFinite : kF32ExpMask);
  if (fexp >= 1) return sign | (static_cast<uint32_t>(fexp) << 23) | (full & kF32ManMask);
  if (o.exponent_add || o.flush_denormal_out) return sign;
  // f32 denormal: the significand shifted down to the 2^-149 grid, RNE (exact for every
  // element format and scale byte; the rounding is there so that nothing depends on it).
  const uint32_t sh = static_cast<uint32_t>(1 - fexp);
  if (sh > 25u) return sign;
  return sign | ((full + ((1u << (sh - 1u)) - 1u) + ((full >> sh) & 1u)) >> sh);
}

MxEncodeParams MakeMxEncodeParams(const MxElemFormat& f, const MxEncodeOptions& o) {
  MxEncodeParams p{};
  p.man_bits = static_cast<uint32_t>(f.man_bits);
  p.max_code = f.max_code;
  p.sign_bit = 1u << (f.bits - 1);
  p.qmin = 1 - f.bias - f.man_bits;
  p.emax = static_cast<int32_t>(f.max_code >> f.man_bits) - f.bias;
  switch (o.nan_in) {
    case MxNanIn::max_keep_sign:
      p.nan_pos = f.max_code;
      p.nan_neg = p.sign_bit | f.max_code;
      break;
    case MxNanIn::pos_max: p.nan_pos = p.nan_neg = f.max_code; break;
    case MxNanIn::neg_zero: p.nan_pos = p.nan_neg = p.sign_bit; break;
    case MxNanIn::pos_zero: p.nan_pos = p.nan_neg = 0u; break;
  }
  p.options = o;
  return p;
}

namespace {

// Everything before the rounding: a decided code for special inputs and scales, or the scaled
// magnitude sig * 2^e.
struct Scaled {
  bool decided;
  uint32_t code;  // when decided
  uint32_t sgn;   // the sign bit of the output field
  uint64_t sig;
  int32_t e;
};

Scaled Decided(Scaled r, uint32_t code) {
  r.code = code;
  return r;
}

Scaled Prepare(uint32_t x, uint32_t scale, const MxEncodeParams& p) {
  const MxEncodeOptions& o = p.options;
  Scaled r{};
  r.decided = true;
  if (o.flush_denormal_in) x = FlushInputDenormal(x, false);
  r.sgn = F32Sign(x) != 0u ? p.sign_bit : 0u;
  const uint32_t nan_out = F32Sign(x) != 0u ? p.nan_neg : p.nan_pos;
  const uint32_t max_out = r.sgn | p.max_code;
  const bool divide = o.direction == MxScaleDir::divide;
  scale &= 0xffu;
  if (F32IsNan(x)) return Decided(r, nan_out);
  int32_t k = static_cast<int32_t>(scale) - kE8m0Bias;
  if (scale == kE8m0Nan) {
    if (o.scale_nan == E8m0Nan::nan) return Decided(r, nan_out);
    if (o.scale_nan == E8m0Nan::infinity) {
      // x / Inf: 0 (Inf / Inf: NaN); x * Inf: Inf (0 * Inf: NaN).
      if (divide) return Decided(r, F32IsInf(x) ? nan_out : r.sgn);
      return Decided(r, F32IsZero(x) ? nan_out : max_out);
    }
  }
  if (scale == 0u && o.scale_zero == E8m0Zero::zero) {
    // x / 0: Inf (0 / 0: NaN); x * 0: 0 (Inf * 0: NaN).
    if (divide) return Decided(r, F32IsZero(x) ? nan_out : max_out);
    return Decided(r, F32IsInf(x) ? nan_out : r.sgn);
  }
  if (F32IsInf(x)) return Decided(r, max_out);
  if (F32IsZero(x)) return Decided(r, r.sgn);
  r.decided = false;
  r.sig = F32Significand(x);
  r.e = (F32Exp(x) != 0u ? static_cast<int32_t>(F32Exp(x)) : 1) - kF32Bias - kF32ManBits;
  r.e += divide ? -k : k;
  return r;
}

// The quantum exponent at sig * 2^e and the bits below it, or saturation.
struct Grid {
  bool over;
  int32_t qe;  // log2 of the output quantum
  int32_t sh;  // qe - e: how many bits of sig lie below the quantum (may be <= 0)
};

Grid Locate(const Scaled& s, const MxEncodeParams& p) {
  const int32_t top = s.e + BitLength(s.sig) - 1;  // floor(log2 |v|)
  Grid g{};
  g.over = top > p.emax;
  const int32_t q = top - static_cast<int32_t>(p.man_bits);
  g.qe = q > p.qmin ? q : p.qmin;
  g.sh = g.qe - s.e;
  return g;
}

// The output field for `code` quanta of 2^qe: in every binade the encoding is (binade index) *
// 2^M + the significand in quanta, and a carry runs into the next binade by itself.
uint32_t Pack(uint32_t sgn, int32_t qe, uint64_t code, const MxEncodeParams& p) {
  const uint64_t enc = (static_cast<uint64_t>(qe - p.qmin) << p.man_bits) + code;
  return sgn | (enc > p.max_code ? p.max_code : static_cast<uint32_t>(enc));
}

}  // namespace

uint32_t F32ToMxRne(uint32_t x, uint32_t scale, const MxEncodeParams& p) {
  const Scaled s = Prepare(x, scale, p);
  if (s.decided) return s.code;
  const Grid g = Locate(s, p);
  if (g.over) return s.sgn | p.max_code;
  uint64_t code;
  if (g.sh <= 0) {
    code = s.sig << -g.sh;
  } else if (g.sh > 25) {
    code = 0;  // sig < 2^24 is below half a quantum
  } else {
    const uint32_t sh = static_cast<uint32_t>(g.sh);
    code = (s.sig + ((uint64_t{1} << (sh - 1u)) - 1u) + ((s.sig >> sh) & 1u)) >> sh;
  }
  return Pack(s.sgn, g.qe, code, p);
}

uint32_t F32ToMxSr(uint32_t x, uint32_t scale, uint32_t seed, uint32_t seed_bits,
                   const MxEncodeParams& p) {
  const Scaled s = Prepare(x, scale, p);
  if (s.decided) return s.code;
  const Grid g = Locate(s, p);
  if (g.over) return s.sgn | p.max_code;
  seed &= (1u << seed_bits) - 1u;
  const int32_t d = g.sh - static_cast<int32_t>(seed_bits);  // sig bits below the seed grid
  uint64_t t;
  if (d <= 0) {
    t = s.sig << -d;
  } else {
    t = d >= 64 ? 0u : s.sig >> d;
  }
  return Pack(s.sgn, g.qe, (t + seed) >> seed_bits, p);
}

namespace {

// sign | the f32 nearest (ties to even) to sig * 2^e (sig > 0), denormals on the 2^-149 grid.
uint32_t PackF32Rne(uint32_t sign, uint64_t sig, int32_t e, const MxDecodeOptions& o) {
  const int32_t lead = e + BitLength(sig) - 1;                  // floor(log2 value)
  const int32_t quantum = lead >= -126 ? lead - 23 : -149;       // log2 of the result's ulp
  const int32_t sh = quantum - e;                                // bits of sig below the ulp
  uint64_t m;
  if (sh <= 0) {
    m = sig << -sh;  // exact: the value has at most 24 significant bits here
  } else if (sh > 63) {
    m = 0;  // below half the smallest denormal (sig < 2^63)
  } else {
    const uint64_t rem = sig & ((uint64_t{1} << sh) - 1u), half = uint64_t{1} << (sh - 1);
    m = sig >> sh;
    if (rem > half || (rem == half && (m & 1u) != 0)) ++m;
  }
  int32_t fexp = lead >= -126 ? lead + kF32Bias : 0;
  if (fexp == 0) {  // m < 2^23, or 2^23 after rounding up: the smallest normal's bits
    if (m < (uint64_t{1} << 23) && o.flush_denormal_out) return sign;
    return sign | static_cast<uint32_t>(m);
  }
  if (m == (uint64_t{1} << 24)) {
    m >>= 1;
    ++fexp;
  }
  if (fexp >= 0xff) return sign | (o.saturate_overflow ? kF32MaxFinite : kF32ExpMask);
  return sign | (static_cast<uint32_t>(fexp) << 23) | (static_cast<uint32_t>(m) & kF32ManMask);
}

// A finite nonzero f32 as sig * 2^e (denormals unnormalised: sig < 2^23).
void SplitF32(uint32_t x, uint64_t* sig, int32_t* e) {
  const uint32_t ex = F32Exp(x);
  *sig = ex != 0u ? (F32Man(x) | 0x800000u) : F32Man(x);
  *e = (ex != 0u ? static_cast<int32_t>(ex) : 1) - kF32Bias - kF32ManBits;
}

uint32_t ScaleByF32(uint32_t x, uint32_t y, const MxDecodeOptions& o) {
  const uint32_t sign = (x ^ y) & kF32SignMask;
  if (F32IsNan(x)) return x;
  if (F32IsNan(y)) return y | 0x00400000u;
  if (F32IsInf(x) || F32IsInf(y)) {
    return F32IsZero(x) || F32IsZero(y) ? kQuietNan : sign | kF32ExpMask;
  }
  if (F32IsZero(x) || F32IsZero(y)) return sign;
  uint64_t sx, sy;
  int32_t ex, ey;
  SplitF32(x, &sx, &ex);
  SplitF32(y, &sy, &ey);
  return PackF32Rne(sign, sx * sy, ex + ey, o);
}

}  // namespace

uint32_t MxScaleF32(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                    const MxDecodeOptions& o) {
  if (read == MxScaleRead::f32_multiply) return ScaleByF32(x, scale_operand, o);
  const uint32_t sign = x & kF32SignMask;
  const uint32_t byte = E8m0FromF32Exponent(scale_operand);
  if (F32IsNan(x)) return x;
  int32_t shift = static_cast<int32_t>(byte) - kE8m0Bias;
  if (byte == kE8m0Nan && o.scale_nan == E8m0Nan::nan) return sign | kQuietNan;
  if (byte == kE8m0Nan && o.scale_nan == E8m0Nan::infinity) {
    return F32IsZero(x) ? kQuietNan : sign | kF32ExpMask;
  }
  if (byte == 0u && o.scale_zero == E8m0Zero::zero) return F32IsInf(x) ? kQuietNan : sign;
  if (F32IsInf(x) || F32IsZero(x)) return x;
  uint64_t sig;
  int32_t e;
  SplitF32(x, &sig, &e);
  return PackF32Rne(sign, sig, e + shift, o);
}

namespace {

// A 16-bit destination's fields.
struct Fields16 {
  int32_t man_bits, bias;
  uint32_t exp_all_ones;  // the exponent field of Inf / NaN
};
constexpr Fields16 Fields(Mx16 dst) {
  return dst == Mx16::f16 ? Fields16{10, 15, 0x1fu} : Fields16{7, 127, 0xffu};
}
uint32_t Inf16(const Fields16& f) { return f.exp_all_ones << f.man_bits; }
uint32_t QuietNan16(const Fields16& f) { return Inf16(f) | (1u << (f.man_bits - 1)); }

// An f32 NaN's sign and top fraction bits in the 16-bit format, quieted.
uint32_t NarrowNan(uint32_t x, const Fields16& f) {
  const uint32_t sign = (x >> 16) & 0x8000u;
  return sign | QuietNan16(f) | ((x & kF32ManMask) >> (kF32ManBits - f.man_bits));
}

// sign | the 16-bit value sig * 2^e (sig > 0) rounds to: to nearest even or toward zero,
// denormals on the 2^(1 - bias - man_bits) grid.
uint32_t Pack16(uint32_t sign, uint64_t sig, int32_t e, const Fields16& f,
                const MxDecodeOptions& o) {
  const int32_t emin = 1 - f.bias;
  const int32_t lead = e + BitLength(sig) - 1;
  const int32_t quantum = (lead >= emin ? lead : emin) - f.man_bits;
  const int32_t sh = quantum - e;
  uint64_t m;
  if (sh <= 0) {
    m = sig << -sh;  // exact: at most man_bits + 1 significant bits here
  } else if (sh > 63) {
    m = 0;
  } else {
    const uint64_t rem = sig & ((uint64_t{1} << sh) - 1u), half = uint64_t{1} << (sh - 1);
    m = sig >> sh;
    if (!o.round16_toward_zero && (rem > half || (rem == half && (m & 1u) != 0))) ++m;
  }
  const uint64_t hidden = uint64_t{1} << f.man_bits;
  int32_t fexp = lead >= emin ? lead + f.bias : 0;
  if (fexp == 0) {  // m < hidden, or hidden after rounding up: the smallest normal's bits
    if (m < hidden && o.flush_denormal_out) return sign;
    return sign | static_cast<uint32_t>(m);
  }
  if (m == hidden << 1) {
    m >>= 1;
    ++fexp;
  }
  if (static_cast<uint32_t>(fexp) >= f.exp_all_ones) {
    return sign | (o.saturate_overflow ? Inf16(f) - 1u : Inf16(f));
  }
  return sign | (static_cast<uint32_t>(fexp) << f.man_bits) |
         (static_cast<uint32_t>(m) & static_cast<uint32_t>(hidden - 1u));
}

// x * y (f32 bits, both read whole) into the 16-bit format.
uint32_t ScaleByF32To16(uint32_t x, uint32_t y, const MxDecodeOptions& o, const Fields16& f) {
  const uint32_t sign = ((x ^ y) >> 16) & 0x8000u;
  if (F32IsNan(x)) return NarrowNan(x, f);
  if (F32IsNan(y)) return NarrowNan(y | 0x00400000u, f);
  if (F32IsInf(x) || F32IsInf(y)) {
    return F32IsZero(x) || F32IsZero(y) ? QuietNan16(f) : sign | Inf16(f);
  }
  if (F32IsZero(x) || F32IsZero(y)) return sign;
  uint64_t sx, sy;
  int32_t ex, ey;
  SplitF32(x, &sx, &ex);
  SplitF32(y, &sy, &ey);
  return Pack16(sign, sx * sy, ex + ey, f, o);
}

}  // namespace

uint32_t MxScaleF32To16(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                        const MxDecodeOptions& o, Mx16 dst) {
  const Fields16 f = Fields(dst);
  if (read == MxScaleRead::f32_multiply) return ScaleByF32To16(x, scale_operand, o, f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t byte = E8m0FromF32Exponent(scale_operand);
  if (F32IsNan(x)) return NarrowNan(x, f);
  if (byte == kE8m0Nan && o.scale_nan == E8m0Nan::nan) return sign | QuietNan16(f);
  if (byte == kE8m0Nan && o.scale_nan == E8m0Nan::infinity) {
    return F32IsZero(x) ? QuietNan16(f) : sign | Inf16(f);
  }
  if (byte == 0u && o.scale_zero == E8m0Zero::zero) return F32IsInf(x) ? QuietNan16(f) : sign;
  if (F32IsInf(x)) return sign | Inf16(f);
  if (F32IsZero(x)) return sign;
  uint64_t sig;
  int32_t e;
  SplitF32(x, &sig, &e);
  return Pack16(sign, sig, e + static_cast<int32_t>(byte) - kE8m0Bias, f, o);
}

// ---- f32 -> OCP fp8/bf8 with the scale operand ------------------------------------------------

namespace {

using U128 = unsigned __int128;

int BitLength128(U128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64);
  return hi != 0 ? 64 + BitLength(hi) : BitLength(static_cast<uint64_t>(v));
}

// The magnitude code for (sig + a sticky part below sig's last bit) * 2^e (sig > 0), nearest
// with ties to even, on the grid of a format with M fraction bits whose smallest quantum is
// 2^qmin: the quantum is 2^(top - M) in a normal binade and 2^qmin below; the code is (binade
// index) * 2^M + the quanta, so a carry runs into the next binade by itself; `over` (one past
// the largest magnitude) for a result beyond it (the caller decides its output).
uint32_t RoundToGrid(U128 sig, bool sticky, int32_t e, int32_t M, int32_t qmin, uint32_t over) {
  const int32_t top = e + BitLength128(sig) - 1;
  if (top > qmin + 64) return over;  // far past every 4- to 8-bit float's range
  if (top <= qmin - 2) return 0;     // below half the smallest quantum
  const int32_t qe = top - M > qmin ? top - M : qmin;
  const int32_t sh = qe - e;  // bits of sig below the quantum
  uint64_t q;
  if (sh <= 0) {
    // Exact (a sticky part comes only with a 64-bit quotient, whose sh is large).
    q = static_cast<uint64_t>(sig) << -sh;
  } else {
    const U128 mask = sh >= 128 ? ~U128{0} : (U128{1} << sh) - 1u;
    const U128 half = U128{1} << (sh - 1);
    const U128 rem = sig & mask;
    q = sh >= 128 ? 0u : static_cast<uint64_t>(sig >> sh);
    if (rem > half || (rem == half && (sticky || (q & 1u) != 0))) ++q;
  }
  const uint64_t enc = (static_cast<uint64_t>(qe - qmin) << M) + q;
  return enc > over ? over : static_cast<uint32_t>(enc);
}

// The byte for sign | (sig + sticky) * 2^e on the fp8 format's grid; one past max_finite is an
// overflow (Encode decides its byte).
uint32_t RoundScaledFp8(uint32_t sign, U128 sig, bool sticky, int32_t e, const Fp8Params& p) {
  const int32_t M = static_cast<int32_t>(p.man_bits);
  const int32_t qmin = 1 - (kF32Bias - static_cast<int32_t>(p.exp_adj)) - M;
  return fp8_internal::Encode<Fp8Kind::ocp>(
      sign, RoundToGrid(sig, sticky, e, M, qmin, p.max_finite + 1u), p);
}

// The scale operand as a number class: 2^k (n = 1), zero, infinite or NaN; f32 significand and
// exponent under f32_multiply.
struct ScaleOperand {
  enum Kind { finite, zero, inf, nan } kind = finite;
  uint32_t sign = 0;  // f32 sign bit (f32_multiply only)
  uint64_t sig = 1;
  int32_t e = 0;
};

ScaleOperand ReadScaleOperand(uint32_t s, const MxFp8EncodeOptions& o) {
  ScaleOperand r;
  if (o.read == MxScaleRead::f32_multiply) {
    r.sign = s & kF32SignMask;
    if (F32IsNan(s)) r.kind = ScaleOperand::nan;
    else if (F32IsInf(s)) r.kind = ScaleOperand::inf;
    else if (F32IsZero(s)) r.kind = ScaleOperand::zero;
    else SplitF32(s, &r.sig, &r.e);
    return r;
  }
  const uint32_t byte = E8m0FromF32Exponent(s);
  r.e = static_cast<int32_t>(byte) - kE8m0Bias;
  if (byte == kE8m0Nan && o.scale_nan == E8m0Nan::nan) r.kind = ScaleOperand::nan;
  if (byte == kE8m0Nan && o.scale_nan == E8m0Nan::infinity) r.kind = ScaleOperand::inf;
  if (byte == 0u && o.scale_zero == E8m0Zero::zero) r.kind = ScaleOperand::zero;
  return r;
}

// x (after the input flush) over or times the scale operand by IEEE's case table: `special`
// gets the f32 bits of a special result (a NaN, a signed infinity or a signed zero), `round`
// the exact finite result as (sign, sig + sticky, e). Shared by the fp8/bf8 and the MX element
// encoders: only their specials and grids differ.
template <class Special, class Round>
uint32_t ScaledByCases(uint32_t x, uint32_t scale_operand, const MxFp8EncodeOptions& o,
                       Special special, Round round) {
  if (o.flush_denormal_in) x = FlushInputDenormal(x, false);
  const ScaleOperand s = ReadScaleOperand(scale_operand, o);
  const bool divide = o.direction == MxScaleDir::divide;
  if (F32IsNan(x)) return special(x);
  const uint32_t sign = (x ^ s.sign) & kF32SignMask;
  const uint32_t inf = sign | kF32ExpMask;
  if (s.kind == ScaleOperand::nan) {
    // A NaN operand (f32_multiply) propagates with its own sign; a NaN byte keeps x's.
    return special(o.read == MxScaleRead::f32_multiply ? scale_operand : (x & kF32SignMask) |
                                                                             kQuietNan);
  }
  const bool x_inf = F32IsInf(x), x_zero = F32IsZero(x);
  if (s.kind == ScaleOperand::inf) {
    if (divide) return x_inf ? special(kQuietNan) : special(sign);  // Inf / Inf, x / Inf
    return x_zero ? special(kQuietNan) : special(inf);              // 0 * Inf, x * Inf
  }
  if (s.kind == ScaleOperand::zero) {
    if (divide) return x_zero ? special(kQuietNan) : special(inf);  // 0 / 0, x / 0
    return x_inf ? special(kQuietNan) : special(sign);              // Inf * 0, x * 0
  }
  if (x_inf) return special(inf);
  if (x_zero) return special(sign);
  uint64_t sx;
  int32_t ex;
  SplitF32(x, &sx, &ex);
  if (!divide) return round(sign, U128{sx} * s.sig, false, ex + s.e);
  if (s.sig == 1u) return round(sign, U128{sx}, false, ex - s.e);
  // x / S, S's significand not a power of two: 64 quotient bits below x's, the rest sticky.
  const U128 num = U128{sx} << 64;
  return round(sign, num / s.sig, num % s.sig != 0u, ex - s.e - 64);
}

// sig (+ sticky) * 2^e (sig > 0) as the nearest 24-bit significand m * 2^*e24 (ties to even).
uint64_t To24Bits(U128 sig, bool sticky, int32_t e, int32_t* e24) {
  const int len = BitLength128(sig);
  if (len <= 24) {
    *e24 = e - (24 - len);
    return static_cast<uint64_t>(sig) << (24 - len);
  }
  const int sh = len - 24;
  const U128 rem = sig & ((U128{1} << sh) - 1u), half = U128{1} << (sh - 1);
  uint64_t m = static_cast<uint64_t>(sig >> sh);
  *e24 = e + sh;
  if (rem > half || (rem == half && (sticky || (m & 1u) != 0))) ++m;
  if (m == (uint64_t{1} << 24)) {
    m >>= 1;
    ++*e24;
  }
  return m;
}

// The magnitude code for the stochastically rounded value (sig + sticky) * 2^e (sig > 0) on the
// grid of a format with M fraction bits whose smallest quantum is 2^qmin (RoundToGrid's layout;
// docs/semantics.md §11.8): `over` (one past the largest magnitude) for a result beyond it. The
// 8-bit floats' and the MX elements' SR encoders alike.
uint32_t SrToGrid(U128 sig, bool sticky, int32_t e, uint32_t s1, uint32_t src_man_bits,
                  MxSrRound reading, int32_t M, int32_t qmin, uint32_t over) {
  int32_t e24;
  const uint64_t m = To24Bits(sig, sticky, e, &e24);
  const int32_t top = e24 + 23;
  if (top > qmin + 40) return over;
  const int32_t qe = top - M > qmin ? top - M : qmin;
  const int32_t sh = qe - e24;  // bits of m below the quantum: 23 - M for a normal result
  uint64_t q;
  if (reading == MxSrRound::f32_exact_subnormal) {
    if (sh > 24) return 0;
    q = (m + (s1 >> (32 - sh))) >> sh;
  } else {
    const int32_t b = static_cast<int32_t>(src_man_bits) - M;  // seed bits
    const int32_t d = sh - b;                                   // bits below the seed's grid
    const uint64_t t = d >= 64 ? 0u : m >> d;
    q = (t + (s1 >> (32 - b))) >> b;
  }
  const uint64_t enc = (static_cast<uint64_t>(qe - qmin) << M) + q;
  return enc > over ? over : static_cast<uint32_t>(enc);
}

// The byte for sign | the stochastically rounded value (sig + sticky) * 2^e (sig > 0), on the
// format's grid as RoundScaledFp8 lays it out (docs/semantics.md §11.8).
uint32_t SrScaledFp8(uint32_t sign, U128 sig, bool sticky, int32_t e, uint32_t s1,
                     uint32_t src_man_bits, MxSrRound reading, const Fp8Params& p) {
  const int32_t M = static_cast<int32_t>(p.man_bits);
  const int32_t qmin = 1 - (kF32Bias - static_cast<int32_t>(p.exp_adj)) - M;
  return fp8_internal::Encode<Fp8Kind::ocp>(
      sign, SrToGrid(sig, sticky, e, s1, src_man_bits, reading, M, qmin, p.max_finite + 1u), p);
}

}  // namespace

uint32_t F32ToFp8ScaledRne(uint32_t x, uint32_t scale_operand, const Fp8Params& p,
                           const MxFp8EncodeOptions& o) {
  return ScaledByCases(
      x, scale_operand, o, [&](uint32_t v) { return fp8_internal::Encode<Fp8Kind::ocp>(v, 0, p); },
      [&](uint32_t sign, U128 sig, bool sticky, int32_t e) {
        return RoundScaledFp8(sign, sig, sticky, e, p);
      });
}

uint32_t F32ToFp8ScaledSr(uint32_t x, uint32_t scale_operand, uint32_t s1, uint32_t src_man_bits,
                          const Fp8Params& p, const MxFp8EncodeOptions& o) {
  return ScaledByCases(
      x, scale_operand, o, [&](uint32_t v) { return fp8_internal::Encode<Fp8Kind::ocp>(v, 0, p); },
      [&](uint32_t sign, U128 sig, bool sticky, int32_t e) {
        return SrScaledFp8(sign, sig, sticky, e, s1, src_man_bits, o.sr_round, p);
      });
}

namespace {

// F32ToMxScaledRne's and F32ToMxScaledSr's specials and scale cases around `round` (sign bit of
// the f32 result, sig + sticky, e) -> the magnitude code, max_code + 1 or more past the largest.
template <class Round>
uint32_t MxScaled(uint32_t x, uint32_t scale_operand, MxScaleRead read, const MxEncodeParams& p,
                  Round round) {
  const MxEncodeOptions& mo = p.options;
  auto finish = [&](uint32_t sgn, uint32_t code) {
    return sgn | (code > p.max_code ? p.max_code : code);
  };
  if (read == MxScaleRead::exponent) {
    // Prepare's specials (a NaN, a scale byte read as zero or infinite) and its exact sig * 2^e.
    const Scaled s = Prepare(x, E8m0FromF32Exponent(scale_operand), p);
    if (s.decided) return s.code;
    return finish(s.sgn, round(U128{s.sig}, false, s.e));
  }
  MxFp8EncodeOptions o;
  o.read = read;
  o.direction = mo.direction;
  o.flush_denormal_in = mo.flush_denormal_in;
  return ScaledByCases(
      x, scale_operand, o,
      [&](uint32_t v) -> uint32_t {
        const uint32_t sgn = F32Sign(v) != 0u ? p.sign_bit : 0u;
        if (F32IsNan(v)) return sgn != 0u ? p.nan_neg : p.nan_pos;
        return F32IsInf(v) ? sgn | p.max_code : sgn;  // infinities saturate
      },
      [&](uint32_t sign, U128 sig, bool sticky, int32_t e) -> uint32_t {
        return finish(sign != 0u ? p.sign_bit : 0u, round(sig, sticky, e));
      });
}

}  // namespace

uint32_t F32ToMxScaledRne(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                          const MxEncodeParams& p) {
  if (read == MxScaleRead::exponent) return F32ToMxRne(x, E8m0FromF32Exponent(scale_operand), p);
  const int32_t M = static_cast<int32_t>(p.man_bits);
  return MxScaled(x, scale_operand, read, p, [&](U128 sig, bool sticky, int32_t e) {
    return RoundToGrid(sig, sticky, e, M, p.qmin, p.max_code + 1u);
  });
}

uint32_t F32ToMxScaledSr(uint32_t x, uint32_t scale_operand, uint32_t s1, uint32_t src_man_bits,
                         MxScaleRead read, MxSrRound reading, const MxEncodeParams& p) {
  const int32_t M = static_cast<int32_t>(p.man_bits);
  return MxScaled(x, scale_operand, read, p, [&](U128 sig, bool sticky, int32_t e) {
    return SrToGrid(sig, sticky, e, s1, src_man_bits, reading, M, p.qmin, p.max_code + 1u);
  });
}

}  // namespace lanediff
