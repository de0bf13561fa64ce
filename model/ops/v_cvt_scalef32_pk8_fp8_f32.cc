// gfx1250's scaled 8-wide RNE encoder op (docs/semantics.md §14.3, shape Q): eight elements of
// the VGPR tuple S0 over the block scale S1 -> eight 8-bit floats, round to nearest even,
// element i in byte i % 4 of VDST + i / 4 (a VGPR pair, written whole). The rows naming this
// op (gfx1250 and gfx1251): v_cvt_scalef32_pk8_{fp8,bf8}_f32 (SrcRole::f32_x8: element i is
// dword i), v_cvt_scalef32_pk8_{fp8,bf8}_f16 (f16x2_x4) and _bf16 (bf16x2_x4): element 2k in
// bits 15:0 of dword k, 2k+1 in bits 31:16; Fp8Slot::fp8 (OCP E4M3) or bf8 (OCP E5M2).
//
// No gfx1250 pseudocode is public. LLVM's intrinsics llvm.amdgcn.cvt.scalef32.pk8.fp8.f32(<8 x
// float>, float) -> <2 x i32> (and .f16 <8 x half>, .bf16 <8 x bfloat>) give the element order
// of a vector (element j at bits 32j or 16j of the tuple) and a <2 x i32> result; byte i of the
// result as element i is the order of gfx950's V_CVT_SCALEF32_PK_FP8_F32 ({tmp1, tmp0}: element
// 0 in the low byte) carried over. Each element is gfx950's f32_to_fp8_scale (model/fp/mx.h
// F32ToFp8ScaledRne on the element, a 16-bit one widened exactly first: pk16_common.h
// Pk16ToF32), under gfx950's readings as gfx1250's defaults (kGfx1250AsGfx950): mx_scale_read,
// mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in, mx_fp8_overflow / mx_bf8_overflow,
// fp8_nan. No MODE bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on both sources) act as on gfx950's
// scaled encoders (on every f32 element; on the halves mx_pk16_neg says); OPSEL, CLAMP, OMOD
// (refused) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kElements = 8;

}  // namespace

Fp8Shape v_cvt_scalef32_pk8_fp8_f32_output(const OpContext& ctx) {
  return {&RowFp8Format(ctx), 0};
}

void v_cvt_scalef32_pk8_fp8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const Fp8Params p = MakeFp8Params(f, e.fp8);
  const bool flush = e.options.flush_denormal_in;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src1[i], 1);
    uint64_t bytes = 0;
    for (int k = 0; k < kElements; ++k) {
      const uint32_t x = TupleElementF32(ctx, lanes, i, k, flush);
      bytes |= uint64_t{F32ToFp8ScaledRne(x, s, p, e.options)} << (8 * k);
    }
    out[2 * i] = static_cast<uint32_t>(bytes);
    out[2 * i + 1] = static_cast<uint32_t>(bytes >> 32);
  }
}

// Written apart from the fast path: each element's bits taken at its offset in the tuple (32i
// for f32, 16i for a 16-bit float), modifiers bit by bit per reading, the exact oracle on the
// element's own pattern, each byte placed from the element's index.
void v_cvt_scalef32_pk8_fp8_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                       uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool pk16 = IsPacked16(role);
  const MxSource source = !pk16 ? MxSource::f32 : Pk16Source(role);
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t s = lanes.src1[i];
    if ((ctx.mods.abs >> 1) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 1) & 1) s ^= 0x80000000u;
    out[2 * i] = 0;
    out[2 * i + 1] = 0;
    for (int k = 0; k < kElements; ++k) {
      const uint32_t x = OracleTupleElement(ctx, lanes, i, k, pk16);
      const uint32_t code = OracleToFp8Scaled(x, source, s, f, e.fp8, e.options);
      out[2 * i + k / 4] |= code << (8 * (k % 4));
    }
  }
}

// The first dword of S0 after its modifiers: an f32 (SpecialInputClass) or two 16-bit floats
// (ClassifyPk16Source); model/ops/input_class.h ClassifyLane takes every dword of the tuple.
absl::string_view v_cvt_scalef32_pk8_fp8_f32_classify(const OpContext& ctx, uint32_t src0,
                                                      uint32_t) {
  if (IsPacked16(GetInstrInfo(ctx.instr).src[0])) return ClassifyPk16Source(ctx, src0);
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

uint32_t v_cvt_scalef32_pk8_fp8_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
