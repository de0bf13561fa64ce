// The scaled one-byte decode op: one 8-bit float of S0 times the block scale S1 -> f32
// (docs/semantics.md §11). The rows naming this op (gfx950 only): v_cvt_scalef32_f32_fp8 (OCP
// E4M3, Fp8Slot::fp8) and v_cvt_scalef32_f32_bf8 (OCP E5M2, Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_F32_FP8, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py; the BF8 entry reads alike with bf8):
//
//   scale = 32'U(exponent(S1.f32));
//   tmp = fp8_to_f32_scale(S0.b32, scale.u8, OPSEL[1:0].u2);
//   D0.f32 = tmp
//
// fp8_to_f32_scale is named but not defined there. The model: the byte OPSEL[1:0] of S0
// (gem5/gem5 src/arch/amdgpu/vega/insts/vop3_cvt.hh Inst_VOP3__V_CVT_SCALE::execute,
// `OPSEL & 3`), decoded exactly (model/fp/fp8_decode.h; a NaN byte per fp8_to_f32_nan, no
// input flush: the op reads no MODE bit), then multiplied by the scale (model/fp/mx.h
// MxScaleF32) under the readings mx_scale_read, mx_scale_zero, mx_scale_nan, mx_up_overflow and
// mx_denorm_out (model/targets/hypotheses.h; docs/semantics.md §11 weighs the evidence).
//
// Departures and unknowns: NEG/ABS on S1 (LLVM accepts them) change nothing under the default
// exponent reading and apply under mx_scale_read=f32_multiply; NEG/ABS on S0 (LLVM refuses
// them), OPSEL[3:2], S2 and the old VDST: no effect (U, fuzzed). gem5 applies OMOD and CLAMP,
// which LLVM refuses here; the model ignores both fields (U).
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

// The element decode: the fp8_to_f32_nan reading, nothing flushed, no output modifiers.
Fp8ToF32Options ElementOptions(const OpContext& ctx) {
  return Fp8DecodeOptionsFor(ctx.hyp, /*f16_input_denormals=*/true, kOmodNone, false, true);
}

// S1 after its ABS/NEG (read only under mx_scale_read=f32_multiply).
uint32_t ScaleOperand(const OpContext& ctx, uint32_t src1) {
  return ApplySrcModifiers(src1, (ctx.mods.abs & 2) != 0, (ctx.mods.neg & 2) != 0);
}

}  // namespace

Fp8Shape v_cvt_scalef32_f32_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f32

void v_cvt_scalef32_f32_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ElementOptions(ctx));
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const uint32_t shift = 8u * static_cast<uint32_t>(UnpackSourceByte(ctx));
  for (size_t i = 0; i < lanes.size; ++i) {
    out[i] = MxScaleF32(Fp8ToF32(lanes.src0[i] >> shift, t), ScaleOperand(ctx, lanes.src1[i]),
                        d.read, d.options);
  }
}

void v_cvt_scalef32_f32_fp8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Options o = ElementOptions(ctx);
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const int byte = UnpackSourceByte(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t element = OracleFp8ToF32((lanes.src0[i] >> (8 * byte)) & 0xffu,
                                            RowFp8Format(ctx), o);
    out[i] = OracleMxScaleF32(element, ScaleOperand(ctx, lanes.src1[i]), d.read, d.options);
  }
}

// The element's class (nan, inf, zero) first; then the scale's: "nan" for a scale byte 0xFF,
// "overflow" and "denormal" for a product beyond f32's range or below 2^-126 under the default
// readings (scale byte 0 gives denormals), else "normal".
absl::string_view v_cvt_scalef32_f32_fp8_classify(const OpContext& ctx, uint32_t src0,
                                                  uint32_t src1) {
  const absl::string_view c = ClassifyUnpackByte(ctx, RowFp8Format(ctx), src0);
  if (c == "nan" || c == "inf" || c == "zero") return c;
  if (E8m0FromF32Exponent(src1) == kE8m0Nan) return "nan";
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ElementOptions(ctx));
  const uint32_t r = MxScaleF32(Fp8ToF32(src0 >> (8 * UnpackSourceByte(ctx)), t), src1,
                                MxScaleRead::exponent, {});
  if (F32IsInf(r)) return "overflow";
  if (F32Exp(r) == 0) return "denormal";
  return "normal";
}

uint32_t v_cvt_scalef32_f32_fp8_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
