// The part gfx950's f32 -> f16/bf16 conversions share (v_cvt_pk_{f16,bf16}_f32 and
// v_cvt_sr_{f16,bf16}_f32; docs/semantics.md §12): the 16-bit format from the row's output
// kind, each f32 source as its ABS/NEG and MODE[4] leave it, and what the readings cvt16_nan,
// cvt16_denorm_out and fp16_ovfl (MODE[23], f16 only) make of a result. The rounding itself is
// model/fp/mx.h MxScaleF32To16 (one rounding to nearest even of an exact product), its oracle
// model/fp/mx_oracle.h OracleMxScaleF32To16.
#ifndef LANEDIFF_MODEL_OPS_CVT16_COMMON_H_
#define LANEDIFF_MODEL_OPS_CVT16_COMMON_H_

#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

// MODE bits these conversions can read: MODE[4] (f32 input denormals), MODE[5] / MODE[7]
// (f32-width / f16 output denormals under cvt16_denorm_out=mode), MODE[23] FP16_OVFL (f16
// results under fp16_ovfl), and on GFX9 MODE[8] DX10_CLAMP (a NaN under CLAMP, the pk rows).
inline constexpr uint32_t kModeDenormF32OutBit = 1u << 5;
inline constexpr uint32_t kModeDenormF16OutBit = 1u << 7;
inline constexpr uint32_t kCvt16Dx10ClampBit = 1u << 8;
inline constexpr uint32_t kCvt16ModeBits = kModeDenormF32InBit | kModeDenormF32OutBit |
                                           kModeDenormF16OutBit | kModeFp16OvflBit;

// The 16-bit format the row writes (OutputKind::f16 or bf16).
inline Mx16 RowMx16Out(const OpContext& ctx) {
  return GetInstrInfo(ctx.instr).output == OutputKind::bf16 ? Mx16::bf16 : Mx16::f16;
}

// Uniform across a batch: the format and the readings, folded.
struct Cvt16Uniform {
  Mx16 dst;
  MxDecodeOptions options;    // flush_denormal_out and saturate_overflow (finite) set
  bool saturate_inf;          // fp16_ovfl=saturate_all with MODE[23] on an f16 result
  bool canonical_nan;         // cvt16_nan=canonical
  bool keep_input_denormals;  // MODE[4]
};
inline Cvt16Uniform DecodeCvt16(const OpContext& ctx) {
  Cvt16Uniform u{};
  u.dst = RowMx16Out(ctx);
  const uint32_t out_bit = u.dst == Mx16::f16 ? kModeDenormF16OutBit : kModeDenormF32OutBit;
  u.options.flush_denormal_out =
      ctx.hyp.cvt16_denorm_out == Cvt16DenormOut::mode && (ctx.mode & out_bit) == 0;
  const bool ovfl = u.dst == Mx16::f16 && (ctx.mode & kModeFp16OvflBit) != 0 &&
                    ctx.hyp.fp16_ovfl != Fp16Ovfl::ignored;
  u.options.saturate_overflow = ovfl;
  u.saturate_inf = ovfl && ctx.hyp.fp16_ovfl == Fp16Ovfl::saturate_all;
  u.canonical_nan = ctx.hyp.cvt16_nan == Cvt16Nan::canonical;
  u.keep_input_denormals = (ctx.mode & kModeDenormF32InBit) != 0;
  return u;
}

// Source `i` (0 or 1) as ABS then NEG and the MODE[4] flush leave it.
inline uint32_t Cvt16Source(const OpContext& ctx, int i, uint32_t x, bool keep_denormals) {
  const bool abs = ((ctx.mods.abs >> i) & 1u) != 0, neg = ((ctx.mods.neg >> i) & 1u) != 0;
  return FlushInputDenormal(ApplySrcModifiers(x, abs, neg), keep_denormals);
}

// The readings' last word on a rounded 16-bit result r of the f32 x: a canonical NaN, an
// infinity saturated (the finite overflows MxScaleF32To16 saturated itself).
inline uint32_t Cvt16Finish(uint32_t x, uint32_t r, const Cvt16Uniform& u) {
  const uint32_t inf = u.dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  if (F32IsNan(x) && u.canonical_nan) return u.dst == Mx16::f16 ? 0x7e00u : 0x7fc0u;
  if (u.saturate_inf && (r & 0x7fffu) == inf) return r - 1u;
  return r;
}

// One f32 x (modifiers applied) stochastically rounded to a 16-bit float with `man_bits`
// mantissa bits (10 f16, 7 bf16): NaN (quieted, its top mantissa bits kept), infinity and zero
// as they are; a finite nonzero x takes the magnitude code magnitude() gives, then FP16_OVFL's
// saturation and the output flush as u says, then Cvt16Finish. The single SR conversion and the
// gfx1250 SR pair each pass their own magnitude (how the seed meets the mantissa).
template <typename Magnitude>
uint32_t Sr16Specials(uint32_t x, uint32_t man_bits, const Cvt16Uniform& u, Magnitude magnitude) {
  const uint32_t inf = u.dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  const uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t r;
  if (F32IsNan(x)) {
    r = sign | inf | (1u << (man_bits - 1)) | (F32Man(x) >> (23u - man_bits));
  } else if (F32IsInf(x)) {
    r = sign | inf;
  } else if (F32IsZero(x)) {
    r = sign;
  } else {
    uint32_t m = magnitude();
    if (m == inf && u.options.saturate_overflow) m = inf - 1u;  // FP16_OVFL, finite
    if (m < (1u << man_bits) && u.options.flush_denormal_out) m = 0u;
    r = sign | m;
  }
  return Cvt16Finish(x, r, u);
}

// The input class of one f32 (after ABS/NEG): nan, inf, zero, denormal (an f32 denormal), then
// "overflow" (|x| rounds past the largest finite: f16 at or above 65520, bf16 at or above
// 0x7f7f8000), "tiny" (|x| below the format's smallest normal: f16 2^-14, bf16 2^-126, the
// results cvt16_denorm_out decides), "normal".
inline absl::string_view Cvt16Class(uint32_t x, Mx16 dst) {
  if (F32IsNan(x)) return "nan";
  if (F32IsInf(x)) return "inf";
  if (F32IsZero(x)) return "zero";
  if (F32IsDenormal(x)) return "denormal";
  const uint32_t m = x & ~kF32SignMask;
  if (m >= (dst == Mx16::f16 ? 0x477ff000u : 0x7f7f8000u)) return "overflow";
  if (m < (dst == Mx16::f16 ? 0x38800000u : 0x00800000u)) return "tiny";
  return "normal";
}

// The rarer of two classes, in Cvt16Class's order.
inline absl::string_view RarerCvt16Class(absl::string_view a, absl::string_view b) {
  for (absl::string_view c : {"nan", "inf", "zero", "denormal", "overflow", "tiny"}) {
    if (a == c || b == c) return c;
  }
  return "normal";
}

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_CVT16_COMMON_H_
