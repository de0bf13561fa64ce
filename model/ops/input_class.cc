#include "model/ops/input_class.h"

#include "model/fp/f32.h"
#include "model/ops/kernel.h"
#include "model/ops/op_table.h"

namespace lanediff {

absl::string_view ClassifyInput(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  const ops::Src0Uniform u = ops::DecodeSrc0(ctx);
  const uint32_t x = (src0 & u.abs_and) ^ u.neg_xor;  // modifiers, no flush
  if (F32IsNan(x)) return "nan";
  if (F32IsInf(x)) return "inf";
  if (F32IsZero(x)) return "zero";
  if (F32IsDenormal(x)) return "denormal";
  const uint32_t mag = x & ~kF32SignMask;
  const ops::OpRow& row = ops::GetOp(ctx.instr);
  if (row.fp8_shape == nullptr) {  // v_cvt_pk_u8_f32
    if (F32Sign(x) != 0) return "normal";
    if (mag > 0x437f0000u) return "overflow";  // 255.0
    // n + 1/2 with n < 256: the bits below the units place are exactly 100..0.
    const int32_t units = 150 - static_cast<int32_t>(F32Exp(x));  // fraction bits below 1
    if (units >= 1 && units <= 24) {
      const uint32_t below = F32Significand(x) & ((1u << units) - 1u);
      if (below == (1u << (units - 1))) return "tie";
    }
    return "normal";
  }
  const Fp8Shape shape = row.fp8_shape(ctx);
  const Fp8Format& f = *shape.format;
  // The largest finite value as f32 bits: exponent field e, fraction m of the format map to
  // f32 exponent e - bias + 127 and fraction m << (23 - M).
  const uint32_t e8 = f.max_finite >> f.man_bits;
  const uint32_t m8 = f.max_finite & ((1u << f.man_bits) - 1u);
  const uint32_t max_bits = ((e8 - f.bias + kF32Bias) << 23) | (m8 << (23 - f.man_bits));
  if (mag > max_bits) return "overflow";
  const uint32_t seed = src1 >> shape.seed_shift;
  if (F32Man(x) + seed >= (1u << 23)) return "sr_carry";
  // The output quantum's position: fraction bits dropped = 23 - M, plus the subnormal shift.
  const int32_t f_exp = static_cast<int32_t>(F32Exp(x)) - (kF32Bias - f.bias);
  const int32_t t = (23 - f.man_bits) + (f_exp < 1 ? 1 - f_exp : 0);
  if (t <= 24) {
    const uint32_t below = F32Significand(x) & ((1u << t) - 1u);
    if (below == (1u << (t - 1))) return "tie";
  }
  return "normal";
}

}  // namespace lanediff
