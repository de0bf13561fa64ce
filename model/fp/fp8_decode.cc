#include "model/fp/fp8_decode.h"

#include "model/fp/f32.h"

namespace lanediff {
namespace {

constexpr uint32_t kQuietNan = 0x7fc00000u;
constexpr uint32_t kOne = 0x3f800000u;

// Bit-field decode of one byte: the format's exponent field re-biased to f32's, its mantissa
// moved to the top of f32's fraction; a subnormal is normalised by shifting its mantissa up to
// the implicit bit. Specials from the format's flags.
uint32_t Decode(uint32_t byte, const Fp8Format& f, const Fp8ToF32Options& o) {
  const uint32_t sign_bit = f.is_signed ? (byte >> 7) & 1u : 0u;
  const uint32_t mag = f.is_signed ? byte & 0x7fu : byte;
  const uint32_t sign = sign_bit << 31;
  const auto nan = [&]() -> uint32_t {
    if (!f.is_signed) return o.unsigned_nan;
    if (o.nan == Fp8NanToF32::host_7f800001) return 0x7f800001u;
    if (o.nan == Fp8NanToF32::negative_quiet) return kF32SignMask | kQuietNan;
    return sign | kQuietNan;
  };
  if (f.fnuz && byte == 0x80u) return nan();  // FNUZ: "negative zero" is the one NaN
  if (mag > f.max_finite) {
    if (f.has_inf && mag == f.inf_out) return sign | kF32ExpMask;
    return nan();
  }
  const uint32_t m_bits = static_cast<uint32_t>(f.man_bits);
  const uint32_t e = mag >> m_bits;
  uint32_t m = mag & ((1u << m_bits) - 1u);
  if (mag == 0u) return sign;
  int32_t exp_field;  // f32 biased exponent
  if (e != 0u) {
    exp_field = static_cast<int32_t>(e) - f.bias + kF32Bias;
  } else {
    if (o.flush_denormals) return sign;
    // m * 2^(1 - bias - M): shift m up until its top bit sits at bit M (the implicit one).
    int32_t exp = 1 - f.bias;
    while ((m & (1u << m_bits)) == 0u) {
      m <<= 1;
      --exp;
    }
    m &= (1u << m_bits) - 1u;
    exp_field = exp + kF32Bias;
  }
  return sign | (static_cast<uint32_t>(exp_field) << 23) | (m << (kF32ManBits - f.man_bits));
}

// OMOD on a decoded value: an exponent step for finite non-zero values (every one is a normal
// f32 far from both ends of the range), nothing for zeros, Inf and NaN.
uint32_t Omod(uint32_t x, uint32_t omod) {
  const uint32_t exp = F32Exp(x);
  if (exp == 0u || exp == 0xffu || omod == kOmodNone) return x;
  const int32_t step = omod == kOmodMul2 ? 1 : omod == kOmodMul4 ? 2 : -1;
  return static_cast<uint32_t>(static_cast<int32_t>(x) + step * (1 << 23));
}

uint32_t Clamp(uint32_t x, bool dx10) {
  if (F32IsNan(x)) return dx10 ? 0u : x;
  if (F32Sign(x) != 0u) return 0u;         // negatives, -0 and -Inf
  return x > kOne ? kOne : x;              // +Inf too; positive f32 order as integers
}

}  // namespace

Fp8ToF32Table MakeFp8ToF32Table(const Fp8Format& format, const Fp8ToF32Options& options) {
  Fp8ToF32Table t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t x = Omod(Decode(b, format, options), options.omod);
    if (options.clamp) x = Clamp(x, options.dx10_clamp);
    t.f32[b] = x;
  }
  return t;
}

}  // namespace lanediff
