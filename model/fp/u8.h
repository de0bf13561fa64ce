// f32 -> unsigned 8-bit integer, the arithmetic of the u8 byte packer (docs/semantics.md §3),
// with the four MODE.FP_ROUND modes. Branch-free integer code so that a batch loop vectorizes.
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

// Rules (docs/semantics.md §3, all L): NaN -> 0 (pk_u8_nan=max: 255, below); +Inf -> 255; anything negative -> 0 (a negative
// value rounds to a non-positive integer, which clamps to 0); positive values round to an
// integer under the round mode and clamp to 255.
//
// The round mode is a template parameter so that a batch loop instantiates one body per mode
// (model/ops picks it once per batch); F32ToU8 below is the run-time-mode form.
template <RoundMode kRm>
inline uint32_t F32ToU8Fixed(uint32_t x) {
  const uint32_t e = F32Exp(x);
  const uint32_t sig = F32Significand(x);
  const uint32_t e_eff = e > 1u ? e : 1u;  // denormals share exponent 1's scale
  // value = sig * 2^(e_eff - 150): the integer part is sig >> (150 - e_eff). A shift of 25 or
  // more leaves 0 with a remainder below one half (sig < 2^24), so clamping the shift to 25 is
  // exact. Clamping it to at least 1 keeps every value >= 2^23 at >= 2^22 after the shift, so
  // the final min(., 255) saturates everything >= 256, +Inf included.
  int32_t s = 150 - static_cast<int32_t>(e_eff);
  s = s < 1 ? 1 : (s > 25 ? 25 : s);
  const uint32_t us = static_cast<uint32_t>(s);
  // Round by adding a bias below the integer's LSB, then shifting: toward +inf adds all ones;
  // nearest-even adds one half minus one, plus one when the integer part is odd; toward zero
  // and toward -inf add nothing (only positive values get this far).
  uint32_t bias = 0;
  if constexpr (kRm == RoundMode::toward_pos) {
    bias = (1u << us) - 1u;
  } else if constexpr (kRm == RoundMode::nearest_even) {
    bias = (1u << (us - 1u)) - 1u + ((sig >> us) & 1u);
  }
  uint32_t r = (sig + bias) >> us;  // sig + bias < 2^25: no overflow
  r = r > 255u ? 255u : r;
  // Negatives (sign bit set) and NaNs are exactly the words above 0x7f800000 (+Inf).
  return x > kF32ExpMask ? 0u : r;
}

// The pk_u8_nan=max reading (tinygrad's emulator): a NaN gives 255 instead of 0; everything
// else as above. Used for whole batches, so the default loop carries no extra select.
template <RoundMode kRm>
inline uint32_t F32ToU8NanMaxFixed(uint32_t x) {
  return (x & ~kF32SignMask) > kF32ExpMask ? 255u : F32ToU8Fixed<kRm>(x);
}

inline uint32_t F32ToU8(uint32_t x, RoundMode rm) {
  switch (rm) {
    case RoundMode::nearest_even: return F32ToU8Fixed<RoundMode::nearest_even>(x);
    case RoundMode::toward_pos: return F32ToU8Fixed<RoundMode::toward_pos>(x);
    case RoundMode::toward_neg: return F32ToU8Fixed<RoundMode::toward_neg>(x);
    case RoundMode::toward_zero: return F32ToU8Fixed<RoundMode::toward_zero>(x);
  }
  return 0;
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_U8_H_
