// The scaled FP6/BF6 decode op into 16-bit floats: 32 six-bit fields of the 6-dword tuple S0
// times the block scale S1 -> 32 f16 or bf16 in the VGPR tuple VDST..VDST+15, two per dword
// (docs/semantics.md §11.15). The rows naming this op (gfx950 only), the field format and the
// 16-bit format read from the row: v_cvt_scalef32_pk32_f16_fp6 (Fp8Slot::fp6, OutputKind::f16),
// v_cvt_scalef32_pk32_bf16_fp6 (fp6, bf16), v_cvt_scalef32_pk32_f16_bf6 (bf6, f16),
// v_cvt_scalef32_pk32_bf16_bf6 (bf6, bf16).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK32_F16_FP6, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py) reads the scale as the f32 operand's exponent
// field and element i from bits 6i+5:6i of the 192-bit S0 into the 16-bit element i of the
// 512-bit D; the helper (fp6_to_f16_scale) is named, not defined. The model: field i of the tuple
// (dword 0 bit 0 the lowest) decoded exactly, times the scale, rounded once into the row's 16-bit
// format as the other scaled 16-bit decodes are (model/fp/mx.h MxScaleF32To16: readings
// mx_scale_read, mx_scale_zero, mx_scale_nan, mx_up_overflow, mx_denorm_out, mx_up_round);
// element 2j in VDST+j bits 15:0, element 2j+1 in bits 31:16 (element i at bits 16i+15:16i of
// the 512-bit result).
//
// Departures and unknowns: NEG/ABS on S1 (LLVM refuses them) read only under
// mx_scale_read=f32_multiply; OPSEL, S2 and the old VDST: no effect (U, fuzzed).
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

Fp8Shape v_cvt_scalef32_pk32_f16_fp6_output(const OpContext&) { return {nullptr, 0}; }

void v_cvt_scalef32_pk32_f16_fp6(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const Mx16 dst = RowMx16(ctx);
  uint32_t value[64];  // every code's exact value (scale 2^0)
  for (uint32_t c = 0; c < 64; ++c) value[c] = MxToF32(c, 127, RowFp6Format(ctx), {});
  for (size_t i = 0; i < lanes.size; ++i) {
    const Fp6Tuple t = Fp6TupleOf(lanes, i);
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    for (int j = 0; j < kFp6Fields / 2; ++j) {
      const uint32_t lo = value[Fp6Field(t, 2 * j)], hi = value[Fp6Field(t, 2 * j + 1)];
      out[kFp6Fields / 2 * i + j] = (MxScaleF32To16(lo, scale, d.read, d.options, dst) & 0xffffu) |
                                    MxScaleF32To16(hi, scale, d.read, d.options, dst) << 16;
    }
  }
}

void v_cvt_scalef32_pk32_f16_fp6_oracle(const OpContext& ctx, const LaneView& lanes,
                                        uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const Mx16 dst = RowMx16(ctx);
  const MxElemFormat& f = RowFp6Format(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const Fp6Tuple t = Fp6TupleOf(lanes, i);
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    for (int k = 0; k < kFp6Fields; ++k) {
      const uint32_t element = OracleMxToF32(Fp6FieldOracle(t, k), 127, f, {});
      const uint32_t h = OracleMxScaleF32To16(element, scale, d.read, d.options, dst) & 0xffffu;
      uint32_t& word = out[kFp6Fields / 2 * i + k / 2];
      word = k % 2 == 0 ? h : word | h << 16;
    }
  }
}

// From the tuple's first dword (fields 0..4): "nan" for a scale byte 0xFF, "zero" when all five
// are zero, then their products in the row's 16-bit format under the default readings:
// "overflow" (beyond its largest finite), "denormal" (below its smallest normal), "normal".
absl::string_view v_cvt_scalef32_pk32_f16_fp6_classify(const OpContext& ctx, uint32_t src0,
                                                       uint32_t src1) {
  if (E8m0FromF32Exponent(src1) == kE8m0Nan) return "nan";
  const Mx16 dst = RowMx16(ctx);
  const uint32_t inf16 = dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  const uint32_t min_normal16 = dst == Mx16::f16 ? 0x0400u : 0x0080u;
  bool overflow = false, denormal = false, all_zero = true;
  for (int k = 0; k < 5; ++k) {
    const uint32_t code = (src0 >> (6 * k)) & 0x3fu;
    if ((code & 0x1fu) == 0) continue;
    all_zero = false;
    const uint32_t r = MxScaleF32To16(MxToF32(code, 127, RowFp6Format(ctx), {}), src1,
                                      MxScaleRead::exponent, {}, dst) & 0x7fffu;
    overflow |= r == inf16;
    denormal |= r < min_normal16;
  }
  if (all_zero) return "zero";
  if (overflow) return "overflow";
  if (denormal) return "denormal";
  return "normal";
}

uint32_t v_cvt_scalef32_pk32_f16_fp6_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
