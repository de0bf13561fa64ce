// The scale of gfx1250's scaled decodes with an E8M0 scale register (SrcRole::scale_e8m0_x4,
// OpSelSyntax::scale_sel; docs/semantics.md §14.1): the byte scale_sel picks (hypothesis
// mx_scale_sel) and the way it scales (mx_up_scale), as the f32 scale operand the gfx950 scaled
// decodes' arithmetic takes (model/fp/mx.h MxScaleF32, MxScaleF32To16 under
// MxScaleRead::exponent): the E8M0 byte in the exponent field, so that the E8M0 readings
// mx_scale_zero (byte 0x00) and mx_scale_nan (0xFF) apply to it as on gfx950. Also what the op
// files of these decodes (shape U, 8 elements; shape V, 16) share after the element decode: the
// products rounded into the f32 or 16-bit destination, fast and oracle, and the oracles' own
// reading of the scale.
//
//   ScaleSelOperand(Hypotheses{}, 0x7f7e7d80, 6)   // 0x3f000000: byte 2, 0x7e, as 2^-1
#ifndef LANEDIFF_MODEL_OPS_SCALE_SEL_H_
#define LANEDIFF_MODEL_OPS_SCALE_SEL_H_

#include <cstddef>
#include <cstdint>

#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

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

// The oracles' ScaleSelOperand, from their own reading of mx_scale_sel and mx_up_scale: the
// register's bytes by division, the f32 operand by multiplication.
constexpr uint32_t OracleScaleOperand(const Hypotheses& h, uint32_t scale, uint32_t opsel) {
  const uint32_t sel = opsel % 16;
  uint32_t e = 0;
  if (h.mx_scale_sel == MxScaleSel::f32_exponent) {
    e = (scale % 0x80000000u) / 0x800000u;
  } else {
    const uint32_t byte = h.mx_scale_sel == MxScaleSel::low2 ? sel % 4 : sel / 4;
    uint32_t weight = 1;
    for (uint32_t b = 0; b < byte; ++b) weight *= 256;
    e = scale / weight % 256;
  }
  if (h.mx_up_scale == MxUpScale::divide && e != 255) e = 254 - e;
  return e * 0x800000u;
}

// The fast paths' lane i of a decode of `n` elements: x[k] (element k's exact f32) times the
// scale operand, rounded once into the destination: out[n * i + k] (wide: f32), or the halves of
// out[n / 2 * i + j] (f16 / bf16 `dst`: element 2j in bits 15:0, 2j + 1 in bits 31:16).
inline void ScaledLaneStore(const uint32_t* x, int n, uint32_t scale, const MxDecodeOptions& o,
                            bool wide, Mx16 dst, size_t i, uint32_t* out) {
  if (wide) {
    for (int k = 0; k < n; ++k) out[n * i + k] = MxScaleF32(x[k], scale, MxScaleRead::exponent, o);
    return;
  }
  for (int j = 0; j < n / 2; ++j) {
    const uint32_t lo = MxScaleF32To16(x[2 * j], scale, MxScaleRead::exponent, o, dst);
    const uint32_t hi = MxScaleF32To16(x[2 * j + 1], scale, MxScaleRead::exponent, o, dst);
    out[n / 2 * i + j] = (lo & 0xffffu) | hi << 16;
  }
}

// The oracles' element k of lane i of a decode of `n` elements, `element` (its exact f32) times
// the scale operand, rounded by the oracle into the row's `output`: out[n * i + k] (f32), or the
// half k % 2 of out[n / 2 * i + k / 2] (f16 / bf16; the even element, stored first, sets the
// dword, the odd one adds its high half).
inline void OracleScaledElementStore(uint32_t element, uint32_t scale, const MxDecodeOptions& o,
                                     OutputKind output, int n, size_t i, int k, uint32_t* out) {
  if (output == OutputKind::f32) {
    out[n * i + k] = OracleMxScaleF32(element, scale, MxScaleRead::exponent, o);
    return;
  }
  const Mx16 dst = output == OutputKind::bf16 ? Mx16::bf16 : Mx16::f16;
  const uint32_t h = OracleMxScaleF32To16(element, scale, MxScaleRead::exponent, o, dst) & 0xffffu;
  uint32_t& w = out[n / 2 * i + k / 2];
  w = k % 2 == 0 ? h : w | h << 16;
}

static_assert(ScaleSelOperand(Hypotheses{}, 0x7f7e7d80u, 6) == 0x3f000000u);
static_assert(OracleScaleOperand(Hypotheses{}, 0x7f7e7d80u, 6) == 0x3f000000u);
static_assert(ScaleSelByte(MxScaleSel::low2, 0x7f7e7d80u, 6) == 0x7eu);
static_assert(ScaleSelByte(MxScaleSel::high2, 0x7f7e7d80u, 6) == 0x7du);
static_assert(ScaleSelByte(MxScaleSel::f32_exponent, 0x7f7e7d80u, 6) == 0xfeu);
static_assert(UpScaleByte(MxUpScale::divide, 0x80u) == 0x7eu);  // 2^1 -> 2^-1
static_assert(UpScaleByte(MxUpScale::divide, 0x00u) == 0xfeu);  // 2^-127 -> 2^127

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_SCALE_SEL_H_
