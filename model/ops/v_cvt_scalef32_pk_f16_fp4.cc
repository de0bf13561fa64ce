// The scaled FP4 decode op into 16-bit floats: one byte of S0 (two OCP MX FP4 E2M1 codes) times
// the block scale S1 -> two f16 or two bf16 in one dword (docs/semantics.md §11.7). The rows
// naming this op (gfx950 only): v_cvt_scalef32_pk_f16_fp4 (OutputKind::f16) and
// v_cvt_scalef32_pk_bf16_fp4 (OutputKind::bf16), both Fp8Slot::fp4.
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_PK_F16_FP4 and _PK_BF16_FP4, as extracted in
// tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py) reads the scale as the f32
// operand's exponent field and the source byte OPSEL[1:0]; the conversion helper is named, not
// defined. The model: byte OPSEL[1:0] of S0, VDST[15:0] from its low nibble (element 0) and
// VDST[31:16] from its high nibble, each decoded exactly and multiplied by the scale, rounded
// once into the 16-bit format (model/fp/mx.h MxScaleF32To16; readings mx_scale_read,
// mx_scale_zero, mx_scale_nan, mx_up_overflow, mx_denorm_out, mx_up_round). An FP4 value times
// a power of two is exact in f16's and bf16's normal range (1 fraction bit), so mx_up_round
// decides only denormal results (and products under mx_scale_read=f32_multiply).
//
// Departures and unknowns: the element order (low nibble to the low half; U); NEG/ABS on S1 as
// the fp8 decodes; OPSEL[2] (no LLVM syntax; LLVM's op_sel handling of these two rows says the
// hardware ignores it) and OPSEL[3], S2 and the old VDST: no effect (U, fuzzed).
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_scalef32_pk_f16_fp4_output(const OpContext&) { return {nullptr, 0}; }  // f16/bf16

void v_cvt_scalef32_pk_f16_fp4(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const Mx16 dst = RowMx16(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t byte = Fp4SourceByte(ctx, lanes.src0[i]);
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    const uint32_t lo = MxScaleF32To16(Fp4ElementF32(byte), scale, d.read, d.options, dst);
    const uint32_t hi = MxScaleF32To16(Fp4ElementF32(byte >> 4), scale, d.read, d.options, dst);
    out[i] = lo | (hi << 16);
  }
}

void v_cvt_scalef32_pk_f16_fp4_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const uint32_t shift = 8u * (ctx.mods.opsel & 3u);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t scale = ScaleOperandOf(ctx, lanes.src1[i]);
    uint32_t r = 0;
    for (uint32_t k = 0; k < 2; ++k) {
      const uint32_t element = Fp4ElementF32Oracle((lanes.src0[i] >> (shift + 4 * k)) & 0xfu);
      r |= OracleMxScaleF32To16(element, scale, d.read, d.options, RowMx16(ctx)) << (16 * k);
    }
    out[i] = r;
  }
}

// "nan" (scale byte 0xFF), "zero" (an element is zero), then the products' "overflow",
// "denormal", "normal" in the 16-bit format (ClassifyScaledFp4).
absl::string_view v_cvt_scalef32_pk_f16_fp4_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t src1) {
  return ClassifyScaledFp4(ctx, src0, src1);
}

uint32_t v_cvt_scalef32_pk_f16_fp4_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
