// The scaled FP4 decode op into f32: one byte of S0 (two OCP MX FP4 E2M1 codes) times the block
// scale S1 -> two f32 in a VGPR pair (docs/semantics.md §11.7). The row naming this op (gfx950
// only): v_cvt_scalef32_pk_f32_fp4 (Fp8Slot::fp4).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_F32_FP4, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py) reads the scale as the f32 operand's exponent
// field and the source byte OPSEL[1:0]; the helper that converts (fp4_to_f32_scale) is named,
// not defined. The model: byte OPSEL[1:0] of S0; VDST = its low nibble (element 0), VDST+1 its
// high nibble, each decoded exactly (FP4 has no NaN or infinity: every code is a number) and
// multiplied by the scale as the fp8 pair decode does (model/fp/mx.h MxScaleF32; readings
// mx_scale_read, mx_scale_zero, mx_scale_nan, mx_up_overflow, mx_denorm_out).
//
// Departures and unknowns: element 0 in the low nibble is the pseudocode's order for the FP4
// encoders ({tmp1, tmp0}) read back; NEG/ABS on S1 as the fp8 decodes; OPSEL[3] (accepted by
// LLVM), S2 and the old VDST: no effect (U, fuzzed).
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_scalef32_pk_f32_fp4_output(const OpContext&) { return {nullptr, 0}; }  // f32

void v_cvt_scalef32_pk_f32_fp4(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t byte = Fp4SourceByte(ctx, lanes.src0[i]);
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    out[2 * i] = MxScaleF32(Fp4ElementF32(byte), scale, d.read, d.options);
    out[2 * i + 1] = MxScaleF32(Fp4ElementF32(byte >> 4), scale, d.read, d.options);
  }
}

void v_cvt_scalef32_pk_f32_fp4_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const uint32_t shift = 8u * (ctx.mods.opsel & 3u);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    for (uint32_t k = 0; k < 2; ++k) {
      const uint32_t element = Fp4ElementF32Oracle((lanes.src0[i] >> (shift + 4 * k)) & 0xfu);
      out[2 * i + k] = OracleMxScaleF32(element, scale, d.read, d.options);
    }
  }
}

// "nan" (scale byte 0xFF), "zero" (an element is zero), then the products' "overflow",
// "denormal", "normal" (ClassifyScaledFp4).
absl::string_view v_cvt_scalef32_pk_f32_fp4_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t src1) {
  return ClassifyScaledFp4(ctx, src0, src1);
}

uint32_t v_cvt_scalef32_pk_f32_fp4_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
