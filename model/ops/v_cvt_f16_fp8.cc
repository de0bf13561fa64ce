// The unscaled one-byte decode op into a 16-bit half: one 8-bit float of S0 -> f16 in the half
// of VDST the encoding selects (docs/semantics.md §13.4). The rows naming this op (gfx1250 and
// gfx1251 only): v_cvt_f16_fp8 (OCP E4M3, Fp8Slot::fp8) and v_cvt_f16_bf8 (OCP E5M2,
// Fp8Slot::bf8).
//
// No pseudocode is public for gfx1250. The model reuses two existing cores:
//   - the byte and its decode are the one-byte fp8 -> f32 decode's: byte 0 in e32, byte_sel:N =
//     2*OPSEL[0] + OPSEL[1] in VOP3 (unpack_common.h UnpackSourceByte), decoded
//     exactly to f32 under the same readings (fp8_to_f32_nan for the NaN bytes, fp8_denorm_input
//     with MODE[6] for the subnormal bytes; UnpackOptions: OMOD and CLAMP too, which LLVM
//     refuses here, U);
//   - the f32 goes into f16 as the gfx950 scaled decodes into f16 put their product there
//     (docs/semantics.md §11.5; model/fp/mx.h MxScaleF32To16 with the scale 2^0): one rounding
//     to nearest even, NaN keeping its sign and top fraction bits, quieted. Every OCP E4M3 and
//     E5M2 value is an f16 (E4M3 spans 2^-9 to 448, E5M2 is f16's high byte), so no value
//     rounds under the default readings.
// The half written: the low half in e32 (no OPSEL field), OPSEL[3] in VOP3 (op_sel:[0,1]); the
// other half is the old VDST's under f16_decode_half=kept (default) or 0 under =zeroed.
//
// Departures and unknowns: OPSEL[2], NEG/ABS, S1, S2: no effect (U, fuzzed).
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/fp/oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr uint32_t kScaleOne = 0x3f800000u;  // the scale operand 1.0: E8M0 byte 127, 2^0

}  // namespace

Fp8Shape v_cvt_f16_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f16

void v_cvt_f16_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), UnpackOptions(ctx, false));
  const uint32_t byte_shift = 8u * static_cast<uint32_t>(UnpackSourceByte(ctx));
  const uint32_t shift = 16u * ((ctx.mods.opsel >> 3) & 1u);
  const uint32_t kept_mask =
      ctx.hyp.f16_decode_half == F16DecodeHalf::kept ? 0xffff0000u >> shift : 0u;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t r = MxScaleF32To16(Fp8ToF32(lanes.src0[i] >> byte_shift, t), kScaleOne,
                                      MxScaleRead::exponent, {}, Mx16::f16);
    out[i] = (r << shift) | (lanes.vdst_old[i] & kept_mask);
  }
}

void v_cvt_f16_fp8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Options o = UnpackOptions(ctx, false);
  const int byte = UnpackSourceByte(ctx);
  const bool high = ((ctx.mods.opsel >> 3) & 1u) != 0;
  const bool kept = ctx.hyp.f16_decode_half == F16DecodeHalf::kept;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t element =
        OracleFp8ToF32((lanes.src0[i] >> (8 * byte)) & 0xffu, RowFp8Format(ctx), o);
    const uint32_t r =
        OracleMxScaleF32To16(element, kScaleOne, MxScaleRead::exponent, {}, Mx16::f16);
    const uint32_t old = lanes.vdst_old[i];
    const uint32_t other = kept ? (high ? old % 0x10000u : old / 0x10000u) : 0u;
    out[i] = high ? r * 0x10000u + other : other * 0x10000u + r;
  }
}

absl::string_view v_cvt_f16_fp8_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  return ClassifyUnpackByte(ctx, RowFp8Format(ctx), src0);
}

uint32_t v_cvt_f16_fp8_mode_bits(Family family) { return UnpackModeBits(family); }

}  // namespace ops
}  // namespace lanediff
