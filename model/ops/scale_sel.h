// The scale of gfx1250's scaled decodes with an E8M0 scale register (SrcRole::scale_e8m0_x4,
// OpSelSyntax::scale_sel; docs/semantics.md §14.1): the byte scale_sel picks (hypothesis
// mx_scale_sel) and the way it scales (mx_up_scale), as the f32 scale operand the gfx950 scaled
// decodes' arithmetic takes (model/fp/mx.h MxScaleF32, MxScaleF32To16 under
// MxScaleRead::exponent): the E8M0 byte in the exponent field, so that the E8M0 readings
// mx_scale_zero (byte 0x00) and mx_scale_nan (0xFF) apply to it as on gfx950.
#ifndef LANEDIFF_MODEL_OPS_SCALE_SEL_H_
#define LANEDIFF_MODEL_OPS_SCALE_SEL_H_

#include <cstdint>

#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

// The E8M0 byte of the 32-bit scale operand `scale` that scale_sel (OPSEL[3:0]) picks under
// mx_scale_sel: byte sel & 3 (low2), byte sel >> 2 (high2), or the f32 exponent field, bits
// 30:23 (f32_exponent).
//
//   ScaleSelByte(MxScaleSel::low2, 0x7f7e7d80, 6)          // 0x7e
//   ScaleSelByte(MxScaleSel::high2, 0x7f7e7d80, 6)         // 0x7d
//   ScaleSelByte(MxScaleSel::f32_exponent, 0x7f7e7d80, 6)  // 0xfe
constexpr uint32_t ScaleSelByte(MxScaleSel reading, uint32_t scale, uint32_t sel) {
  switch (reading) {
    case MxScaleSel::low2: return (scale >> (8 * (sel & 3u))) & 0xffu;
    case MxScaleSel::high2: return (scale >> (8 * ((sel >> 2) & 3u))) & 0xffu;
    case MxScaleSel::f32_exponent: return (scale >> 23) & 0xffu;
  }
  return 0;
}

// The E8M0 byte that multiplies the elements under mx_up_scale: `e` itself (multiply), or the
// byte of 2^(127-e) (divide: 254 - e; the NaN byte 0xFF stays).
constexpr uint32_t UpScaleByte(MxUpScale direction, uint32_t e) {
  return direction == MxUpScale::multiply || e == 0xffu ? e : 254u - e;
}

// The f32 scale operand (the byte in the exponent field) of lane scale `scale` under `h` and
// OPSEL `opsel`, for MxScaleF32 / MxScaleF32To16 under MxScaleRead::exponent.
constexpr uint32_t ScaleSelOperand(const Hypotheses& h, uint32_t scale, uint32_t opsel) {
  return UpScaleByte(h.mx_up_scale, ScaleSelByte(h.mx_scale_sel, scale, opsel & 0xfu)) << 23;
}

static_assert(ScaleSelByte(MxScaleSel::low2, 0x7f7e7d80u, 6) == 0x7eu);
static_assert(ScaleSelByte(MxScaleSel::high2, 0x7f7e7d80u, 6) == 0x7du);
static_assert(ScaleSelByte(MxScaleSel::f32_exponent, 0x7f7e7d80u, 6) == 0xfeu);
static_assert(UpScaleByte(MxUpScale::divide, 0x80u) == 0x7eu);  // 2^1 -> 2^-1
static_assert(UpScaleByte(MxUpScale::divide, 0x00u) == 0xfeu);  // 2^-127 -> 2^127

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_SCALE_SEL_H_
