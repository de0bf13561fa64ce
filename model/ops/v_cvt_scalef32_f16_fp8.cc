// The scaled one-byte decode op into a 16-bit half: one 8-bit float of S0 (byte OPSEL[1:0])
// times the block scale S1 -> f16 in the half of VDST that OPSEL[3] selects (docs/semantics.md
// §11.5). The rows naming this op (gfx950 only): v_cvt_scalef32_f16_fp8 (OCP E4M3,
// Fp8Slot::fp8) and v_cvt_scalef32_f16_bf8 (OCP E5M2, Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_F16_FP8, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py): the scale from the f32 operand's exponent
// field, the byte OPSEL[1:0], a comment "OPSEL[3] controls destination hi/lo", and
// `D0 = tmp.b32`. The model: the byte decoded exactly and multiplied by the scale, rounded once
// into f16 (model/fp/mx.h MxScaleF32To16, the readings of the pair rows), written to half
// OPSEL[3]; the other half is the old VDST's under mx_f16_half=kept (LLVM ties VDST as an
// input) or 0 under mx_f16_half=zeroed (the last pseudocode line read literally).
//
// Departures and unknowns: NEG/ABS on S1 as the one-byte f32 rows; OPSEL[2] and S2: no effect
// (U, fuzzed).
#include "model/fp/f32.h"
#include "model/fp/fp8_decode.h"
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

// The half written (its shift) and the mask of the other half's old bits that are kept.
struct Half {
  uint32_t shift;
  uint32_t kept_mask;
};
Half HalfOf(const OpContext& ctx) {
  const uint32_t shift = 16u * ((ctx.mods.opsel >> 3) & 1u);
  const uint32_t other = 0xffff0000u >> shift;
  return {shift, ctx.hyp.mx_f16_half == MxF16Half::kept ? other : 0u};
}

}  // namespace

Fp8Shape v_cvt_scalef32_f16_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f16

void v_cvt_scalef32_f16_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ScaledElementOptions(ctx));
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const uint32_t byte_shift = 8u * static_cast<uint32_t>(UnpackSourceByte(ctx));
  const Half h = HalfOf(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t r = MxScaleF32To16(Fp8ToF32(lanes.src0[i] >> byte_shift, t),
                                      ScaleOperandOf(ctx, lanes.src1[i]), d.read, d.options,
                                      Mx16::f16);
    out[i] = (r << h.shift) | (lanes.vdst_old[i] & h.kept_mask);
  }
}

void v_cvt_scalef32_f16_fp8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Options o = ScaledElementOptions(ctx);
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const int byte = ctx.mods.opsel & 3;  // OPSEL[1:0], as the pseudocode says
  const bool high = ((ctx.mods.opsel >> 3) & 1u) != 0;
  const bool kept = ctx.hyp.mx_f16_half == MxF16Half::kept;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t element =
        OracleFp8ToF32((lanes.src0[i] >> (8 * byte)) & 0xffu, RowFp8Format(ctx), o);
    const uint32_t r = OracleMxScaleF32To16(element, ScaleOperandOf(ctx, lanes.src1[i]), d.read,
                                            d.options, Mx16::f16);
    const uint32_t old = lanes.vdst_old[i];
    const uint32_t other = kept ? (high ? old % 0x10000u : old / 0x10000u) : 0u;
    out[i] = high ? r * 0x10000u + other : other * 0x10000u + r;
  }
}

// The byte's class (nan, inf, zero) first; then the scale's and the product's in f16: "nan"
// (scale byte 0xFF), "overflow", "denormal", "normal".
absl::string_view v_cvt_scalef32_f16_fp8_classify(const OpContext& ctx, uint32_t src0,
                                                  uint32_t src1) {
  const absl::string_view c = ClassifyUnpackByte(ctx, RowFp8Format(ctx), src0);
  if (c == "nan" || c == "inf" || c == "zero") return c;
  return ClassifyScaledProducts(ctx, src0, src1, /*bytes=*/1);
}

uint32_t v_cvt_scalef32_f16_fp8_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
