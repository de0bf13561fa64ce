#include "model/fp/fp8.h"

namespace lanediff {

Fp8Params MakeFp8Params(const Fp8Format& f, const Fp8Options& o) {
  Fp8Params p{};
  p.kind = f.fnuz ? Fp8Kind::fnuz : (f.is_signed ? Fp8Kind::ocp : Fp8Kind::unsigned_);
  p.man_bits = static_cast<uint32_t>(f.man_bits);
  p.drop_bits = static_cast<uint32_t>(kF32ManBits - f.man_bits);
  p.exp_adj = static_cast<uint32_t>(kF32Bias - f.bias);
  p.max_finite = f.max_finite;
  switch (p.kind) {
    case Fp8Kind::ocp:
      // Canonical NaN bytes (0xff, 0xfe) already have bit 7 set, so ORing the sign keeps them
      // whatever the sign; the sign-keeping readings drop it from the magnitude.
      p.nan_mag = o.nan_sign_7f ? 0x7fu : (o.nan_sign_preserving ? (f.nan_out & 0x7fu) : f.nan_out);
      p.inf_mag = f.inf_out;  // E4M3: 0x7f (a NaN); E5M2: 0x7c (Inf)
      break;
    case Fp8Kind::fnuz:  // one NaN, 0x80, for NaN, Inf and non-saturated overflow
      p.nan_mag = p.inf_mag = f.nan_out;
      break;
    case Fp8Kind::unsigned_:  // NaN 0xff; +Inf 0xfe (or 0xff, magnitude reading)
      p.nan_mag = f.nan_out;
      p.inf_mag = f.inf_out;
      break;
  }
  // A finite overflow: what an infinity gives, or max finite when FP16_OVFL saturates.
  p.ovf_mag = o.saturate_finite ? f.max_finite : p.inf_mag;
  if (o.saturate_inf) p.inf_mag = f.max_finite;
  // The f32 bit pattern of max finite: its exponent re-biased, its fraction moved up.
  const uint32_t e = f.max_finite >> f.man_bits;
  const uint32_t m = f.max_finite & ((1u << f.man_bits) - 1u);
  p.pre_ovf_limit = o.overflow_before_rounding
                        ? ((e + p.exp_adj) << 23) | (m << p.drop_bits)
                        : 0xffffffffu;
  p.neg_keep = f.negative_as_magnitude ? 0xffu : 0u;
  return p;
}

}  // namespace lanediff
