// Binary32 fields and the few bit-level operations every conversion shares. Integer code only:
// the model never uses host float arithmetic (its rounding and denormal handling are the host's,
// not the GPU's).
//
//   uint32_t x = 0x3fc00000;          // 1.5
//   F32Exp(x) == 127, F32Man(x) == 0x400000, F32IsNan(x) == false
//   x = ApplySrcModifiers(x, /*abs=*/true, /*neg=*/true);   // -|x|: 0xbfc00000
#ifndef LANEDIFF_MODEL_FP_F32_H_
#define LANEDIFF_MODEL_FP_F32_H_

#include <cstdint>

namespace lanediff {

inline constexpr uint32_t kF32SignMask = 0x80000000u;
inline constexpr uint32_t kF32ExpMask = 0x7f800000u;
inline constexpr uint32_t kF32ManMask = 0x007fffffu;
inline constexpr int kF32ManBits = 23;
inline constexpr int kF32Bias = 127;

constexpr uint32_t F32Sign(uint32_t x) { return x >> 31; }
constexpr uint32_t F32Exp(uint32_t x) { return (x >> 23) & 0xffu; }  // biased exponent field
constexpr uint32_t F32Man(uint32_t x) { return x & kF32ManMask; }   // 23-bit fraction field
constexpr bool F32IsNan(uint32_t x) { return (x & ~kF32SignMask) > kF32ExpMask; }
constexpr bool F32IsInf(uint32_t x) { return (x & ~kF32SignMask) == kF32ExpMask; }
constexpr bool F32IsZero(uint32_t x) { return (x & ~kF32SignMask) == 0; }
constexpr bool F32IsDenormal(uint32_t x) { return F32Exp(x) == 0 && F32Man(x) != 0; }
// The 24-bit significand with the implicit bit (denormals and zero have none).
constexpr uint32_t F32Significand(uint32_t x) {
  return F32Man(x) | (F32Exp(x) != 0 ? 0x00800000u : 0u);
}

// VOP3 source modifiers on a float operand: ABS clears the sign, then NEG flips it
// (docs/semantics.md §3: L). Applies to NaNs too (the payload is kept).
constexpr uint32_t ApplySrcModifiers(uint32_t x, bool abs, bool neg) {
  return (abs ? x & ~kF32SignMask : x) ^ (neg ? kF32SignMask : 0u);
}

// MODE.FP_DENORM input flush: with `keep_denormals` false, a denormal becomes a zero of the
// same sign; everything else is unchanged. Branch-free.
constexpr uint32_t FlushInputDenormal(uint32_t x, bool keep_denormals) {
  const uint32_t flush = (!keep_denormals && F32Exp(x) == 0) ? 0xffffffffu : 0u;
  return x & ~(flush & kF32ManMask);
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_F32_H_
