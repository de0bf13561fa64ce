// The scaled word decode op: one 16-bit word of S0 (two 8-bit floats) times the block scale S1
// -> two f32 in a VGPR pair (docs/semantics.md §11.5). The rows naming this op (gfx950 only):
// v_cvt_scalef32_pk_f32_fp8 (OCP E4M3, Fp8Slot::fp8) and v_cvt_scalef32_pk_f32_bf8 (OCP E5M2,
// Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_F32_FP8, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py) reads the scale as the f32 operand's exponent
// field and the source word OPSEL[0]; the helper that converts is named, not defined. The
// model: word OPSEL[0] of S0 (1: the high word), VDST = its low byte, VDST+1 = its high byte, each
// decoded exactly (fp8_to_f32_nan reading, no input flush) and multiplied by the scale as the
// one-byte rows do (model/fp/mx.h MxScaleF32; readings mx_scale_read, mx_scale_zero,
// mx_scale_nan, mx_up_overflow, mx_denorm_out).
//
// Departures and unknowns: which byte goes to VDST is the unscaled pair decode's order
// (low byte first; U here); NEG/ABS on S1 as the one-byte rows; OPSEL[1] and OPSEL[3]
// (accepted by LLVM), S2 and the old VDST: no effect (U, fuzzed).
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

Fp8Shape v_cvt_scalef32_pk_f32_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f32

void v_cvt_scalef32_pk_f32_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ScaledElementOptions(ctx));
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const SourceWord w = UnpackSourceWord(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t word = (lanes.src0[i] >> w.shift) & w.mask;
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    out[2 * i] = MxScaleF32(Fp8ToF32(word, t), scale, d.read, d.options);
    out[2 * i + 1] = MxScaleF32(Fp8ToF32(word >> 8, t), scale, d.read, d.options);
  }
}

void v_cvt_scalef32_pk_f32_fp8_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const Fp8ToF32Options o = ScaledElementOptions(ctx);
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const uint32_t shift = 16u * (ctx.mods.opsel & 1u);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    for (uint32_t k = 0; k < 2; ++k) {
      const uint32_t element =
          OracleFp8ToF32((lanes.src0[i] >> (shift + 8 * k)) & 0xffu, RowFp8Format(ctx), o);
      out[2 * i + k] = OracleMxScaleF32(element, scale, d.read, d.options);
    }
  }
}

// The rarer of the two bytes' classes (nan, inf, zero) first; then the scale's and the products'
// as the one-byte rows: "nan" (scale byte 0xFF), "overflow", "denormal", "normal".
absl::string_view v_cvt_scalef32_pk_f32_fp8_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t src1) {
  const absl::string_view c = ClassifyUnpackPair(ctx, RowFp8Format(ctx), src0);
  if (c == "nan" || c == "inf" || c == "zero") return c;
  return ClassifyScaledProducts(ctx, src0, src1, /*bytes=*/2);
}

uint32_t v_cvt_scalef32_pk_f32_fp8_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
