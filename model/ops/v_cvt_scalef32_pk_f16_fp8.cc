// The scaled word decode op into 16-bit floats: one 16-bit word of S0 (two 8-bit floats) times
// the block scale S1 -> two f16 or two bf16 in one dword (docs/semantics.md §11.5). The rows
// naming this op (gfx950 only): v_cvt_scalef32_pk_f16_fp8, v_cvt_scalef32_pk_f16_bf8
// (OutputKind::f16) and v_cvt_scalef32_pk_bf16_fp8, v_cvt_scalef32_pk_bf16_bf8
// (OutputKind::bf16), with OCP E4M3 (Fp8Slot::fp8) or E5M2 (Fp8Slot::bf8) elements.
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_F16_FP8 and the three others, as extracted in
// tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py) reads the scale as the f32
// operand's exponent field and the source word OPSEL[0]; the conversion helper is named, not
// defined. The model: word OPSEL[0] of S0, VDST[15:0] from its low byte and VDST[31:16] from its
// high byte, each decoded exactly and multiplied by the scale, rounded once into the 16-bit
// format (model/fp/mx.h MxScaleF32To16; readings mx_scale_read, mx_scale_zero, mx_scale_nan,
// mx_up_overflow, mx_denorm_out, mx_up_round). An element times a scale is exact in f16's and
// bf16's normal range (3 and 2 fraction bits fit in 10 and 7), so mx_up_round decides only
// denormal results (and products under mx_scale_read=f32_multiply).
//
// Departures and unknowns: the element order in the dword (low byte to the low half, as the
// unscaled pair decodes; U); NEG/ABS on S1 as the one-byte rows; OPSEL[1] and OPSEL[3], S2 and
// the old VDST: no effect (U, fuzzed).
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

Fp8Shape v_cvt_scalef32_pk_f16_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f16/bf16

void v_cvt_scalef32_pk_f16_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ScaledElementOptions(ctx));
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const Mx16 dst = RowMx16(ctx);
  const SourceWord w = UnpackSourceWord(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t word = (lanes.src0[i] >> w.shift) & w.mask;
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    const uint32_t lo = MxScaleF32To16(Fp8ToF32(word, t), scale, d.read, d.options, dst);
    const uint32_t hi = MxScaleF32To16(Fp8ToF32(word >> 8, t), scale, d.read, d.options, dst);
    out[i] = lo | (hi << 16);
  }
}

void v_cvt_scalef32_pk_f16_fp8_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const Fp8ToF32Options o = ScaledElementOptions(ctx);
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const uint32_t shift = 16u * (ctx.mods.opsel & 1u);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    uint32_t r = 0;
    for (uint32_t k = 0; k < 2; ++k) {
      const uint32_t element =
          OracleFp8ToF32((lanes.src0[i] >> (shift + 8 * k)) & 0xffu, RowFp8Format(ctx), o);
      r |= OracleMxScaleF32To16(element, scale, d.read, d.options, RowMx16(ctx)) << (16 * k);
    }
    out[i] = r;
  }
}

// The rarer of the two bytes' classes (nan, inf, zero) first; then the scale's and the products'
// in the 16-bit format: "nan" (scale byte 0xFF), "overflow", "denormal", "normal".
absl::string_view v_cvt_scalef32_pk_f16_fp8_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t src1) {
  const absl::string_view c = ClassifyUnpackPair(ctx, RowFp8Format(ctx), src0);
  if (c == "nan" || c == "inf" || c == "zero") return c;
  return ClassifyScaledProducts(ctx, src0, src1, /*bytes=*/2);
}

uint32_t v_cvt_scalef32_pk_f16_fp8_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
