// The scaled FP6/BF6 decode op into f32: 32 six-bit fields of the 6-dword tuple S0 times the
// block scale S1 -> 32 f32 in the VGPR tuple VDST..VDST+31 (docs/semantics.md §11.14). The rows
// naming this op (gfx950 only): v_cvt_scalef32_pk32_f32_fp6 (Fp8Slot::fp6: OCP MX FP6 E2M3) and
// v_cvt_scalef32_pk32_f32_bf6 (Fp8Slot::bf6: OCP MX FP6 E3M2).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK32_F32_FP6, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py) reads the scale as the f32 operand's exponent
// field and element i from bits 6i+5:6i of the 192-bit S0 into D[i]; the helper that converts
// (fp6_to_f32_scale) is named, not defined. The model: field i of the tuple, lowest bits of
// dword 0 first (fields 5, 10, 16, 21 and 26 straddle two dwords), decoded exactly (FP6 has no
// NaN or infinity) and multiplied by the scale as the FP4 and fp8 decodes do (model/fp/mx.h
// MxScaleF32; readings mx_scale_read, mx_scale_zero, mx_scale_nan, mx_up_overflow,
// mx_denorm_out).
//
// Departures and unknowns: NEG/ABS on S1 (LLVM refuses them here) as the other scaled decodes:
// read only under mx_scale_read=f32_multiply; OPSEL (LLVM has no op_sel here), S2 and the old
// VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp6_tuple.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_scalef32_pk32_f32_fp6_output(const OpContext&) { return {nullptr, 0}; }  // f32

void v_cvt_scalef32_pk32_f32_fp6(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  uint32_t value[64];  // every code's exact value (scale 2^0)
  for (uint32_t c = 0; c < 64; ++c) value[c] = MxToF32(c, 127, RowFp6Format(ctx), {});
  for (size_t i = 0; i < lanes.size; ++i) {
    const Fp6Tuple t = Fp6TupleOf(lanes, i);
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    for (int k = 0; k < kFp6Fields; ++k) {
      out[kFp6Fields * i + k] = MxScaleF32(value[Fp6Field(t, k)], scale, d.read, d.options);
    }
  }
}

void v_cvt_scalef32_pk32_f32_fp6_oracle(const OpContext& ctx, const LaneView& lanes,
                                        uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const MxElemFormat& f = RowFp6Format(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const Fp6Tuple t = Fp6TupleOf(lanes, i);
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    for (int k = 0; k < kFp6Fields; ++k) {
      const uint32_t element = OracleMxToF32(Fp6FieldOracle(t, k), 127, f, {});
      out[kFp6Fields * i + k] = OracleMxScaleF32(element, scale, d.read, d.options);
    }
  }
}

// From the tuple's first dword (what the classifier is given: its fields 0..4, the five whole
// ones): "nan" for a scale byte 0xFF, "zero" when all five are zero, then their products under
// the default readings: "overflow" if one is beyond f32's largest finite, "denormal" if one is
// an f32 denormal, else "normal".
absl::string_view v_cvt_scalef32_pk32_f32_fp6_classify(const OpContext& ctx, uint32_t src0,
                                                       uint32_t src1) {
  if (E8m0FromF32Exponent(src1) == kE8m0Nan) return "nan";
  bool overflow = false, denormal = false, all_zero = true;
  for (int k = 0; k < 5; ++k) {
    const uint32_t code = (src0 >> (6 * k)) & 0x3fu;
    if ((code & 0x1fu) == 0) continue;
    all_zero = false;
    const uint32_t r = MxScaleF32(MxToF32(code, 127, RowFp6Format(ctx), {}), src1,
                                  MxScaleRead::exponent, {});
    overflow |= F32IsInf(r);
    denormal |= F32Exp(r) == 0;
  }
  if (all_zero) return "zero";
  if (overflow) return "overflow";
  if (denormal) return "denormal";
  return "normal";
}

uint32_t v_cvt_scalef32_pk32_f32_fp6_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
