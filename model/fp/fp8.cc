#include "model/fp/fp8.h"

namespace lanediff {

Fp8Params MakeFp8Params(const Fp8Format& f, const Fp8Options& o) {
  Fp8Params p{};
  p.man_bits = static_cast<uint32_t>(f.man_bits);
  p.drop_bits = static_cast<uint32_t>(kF32ManBits - f.man_bits);
  p.exp_adj = kF32Bias - f.bias;
  p.max_finite = f.max_finite;
  p.sign_bit = f.is_signed ? 0x80u : 0u;
  p.zero_unsigned = f.fnuz;
  p.negative_to_zero = !f.is_signed;
  // NaN: the canonical byte; sign-preserving applies to signed OCP formats only (FNUZ has one
  // NaN, 0x80; UE5M3 has no sign).
  const bool sp = o.nan_sign_preserving && f.is_signed && !f.fnuz;
  p.nan_pos = sp ? (f.nan_out & 0x7fu) : f.nan_out;
  p.nan_neg = sp ? (f.nan_out | 0x80u) : f.nan_out;
  // Inf: FNUZ gives its NaN 0x80 for both signs; unsigned formats clamp -Inf to 0.
  if (f.fnuz) {
    p.inf_pos = p.inf_neg = f.inf_out;
  } else if (!f.is_signed) {
    p.inf_pos = f.inf_out;
    p.inf_neg = 0;
  } else {
    p.inf_pos = f.inf_out;
    p.inf_neg = 0x80u | f.inf_out;
  }
  // Finite overflow: what an infinity gives, or max finite when saturating.
  if (o.saturate_finite) {
    p.ovf_pos = f.max_finite;
    p.ovf_neg = f.is_signed ? (0x80u | f.max_finite) : 0u;
  } else {
    p.ovf_pos = p.inf_pos;
    p.ovf_neg = p.inf_neg;
  }
  return p;
}

}  // namespace lanediff
