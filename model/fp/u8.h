// f32 -> unsigned 8-bit integer, the arithmetic of v_cvt_pk_u8_f32 (SEMANTICS.md §3), with the
// four MODE.FP_ROUND modes. Branch-free integer code so that a batch loop vectorizes.
//
//   F32ToU8(0x43018000 /*129.5*/, RoundMode::nearest_even)  // 130
//   F32ToU8(0x43018000 /*129.5*/, RoundMode::toward_zero)   // 129 (the `truncate` reading)
//
// The caller applies source modifiers (f32.h ApplySrcModifiers) and the MODE[4] input-denormal
// flush (FlushInputDenormal) first; this function sees the final operand bits.
#ifndef LANEDIFF_MODEL_FP_U8_H_
#define LANEDIFF_MODEL_FP_U8_H_

#include <cstdint>

#include "model/fp/f32.h"

namespace lanediff {

// MODE[1:0] (single precision) and MODE[3:2] (double/half) encode rounding like this.
enum class RoundMode : uint8_t { nearest_even = 0, toward_pos = 1, toward_neg = 2, toward_zero = 3 };

// Rules (SEMANTICS.md §3, all L): NaN -> 0; +Inf -> 255; anything negative -> 0 (a negative
// value rounds to a non-positive integer, which clamps to 0); positive values round to an
// integer under `rm` and clamp to 255.
inline uint32_t F32ToU8(uint32_t x, RoundMode rm) {
  const uint32_t e = F32Exp(x);
  const uint32_t sig = F32Significand(x);
  const uint32_t e_eff = e | (e == 0 ? 1u : 0u);  // denormals share exponent 1's scale
  // value = sig * 2^(e_eff - 150): the integer part is sig >> (150 - e_eff). Shifts of 25 or
  // more leave 0 with a remainder below one half (sig < 2^24), so clamping to [1, 25] is exact
  // for every value below 256; values >= 256 (e >= 135) saturate below.
  int32_t s = 150 - static_cast<int32_t>(e_eff);
  s = s < 1 ? 1 : (s > 25 ? 25 : s);
  const uint32_t us = static_cast<uint32_t>(s);
  const uint32_t ipart = sig >> us;
  const uint32_t rem = sig & ((1u << us) - 1u);
  const uint32_t half = 1u << (us - 1u);
  const uint32_t rne = rm == RoundMode::nearest_even ? 1u : 0u;
  const uint32_t up = rm == RoundMode::toward_pos ? 1u : 0u;
  const uint32_t above = rem > half ? 1u : 0u, tie = rem == half ? 1u : 0u;
  const uint32_t inexact = rem != 0u ? 1u : 0u;
  const uint32_t inc = (rne & (above | (tie & ipart))) | (up & inexact);
  uint32_t r = ipart + inc;
  r = r > 255u ? 255u : r;
  r = e >= 135u ? 255u : r;                          // >= 256, +Inf (NaN cleared below)
  const bool zero = (F32Sign(x) != 0u) | F32IsNan(x);  // negatives, -0, NaN of either sign
  return zero ? 0u : r;
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_U8_H_
