// gfx1250's scaled 8-wide RNE FP4 encoder op (docs/semantics.md §14.3, shape R): eight elements
// of the VGPR tuple S0 over the block scale S1 -> eight OCP MX FP4 E2M1 codes, round to nearest
// even, element i at bits 4i+3:4i of VDST (one VGPR, written whole). The rows naming this op
// (gfx1250 and gfx1251, Fp8Slot::fp4): v_cvt_scalef32_pk8_fp4_f32 (SrcRole::f32_x8: element i is
// dword i), v_cvt_scalef32_pk8_fp4_f16 (f16x2_x4) and _bf16 (bf16x2_x4): element 2k in bits
// 15:0 of dword k, 2k+1 in bits 31:16.
//
// No gfx1250 pseudocode is public. LLVM's intrinsic llvm.amdgcn.cvt.scalef32.pk8.fp4.f32(<8 x
// float>, float) -> i32 gives the vector's element order; nibble i as element i is gfx950's
// V_CVT_SCALEF32_PK_FP4_F32 order ({tmp1, tmp0}: element 0 in the low nibble) carried over. Each
// element is gfx950's f32_to_fp4_scale (model/fp/mx.h F32ToMxScaledRne; a 16-bit element widened
// exactly first, pk16_common.h Pk16ToF32), under gfx950's readings as gfx1250's defaults
// (kGfx1250AsGfx950): mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in
// and mx_fp4_nan (FP4 has no NaN code). Infinities and overflows saturate to sign|6.0. No MODE
// bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on both sources) act as on gfx950's
// scaled encoders (on every f32 element; on the halves mx_pk16_neg says); OPSEL, CLAMP, OMOD
// (refused) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kElements = 8;

}  // namespace

Fp8Shape v_cvt_scalef32_pk8_fp4_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp4

void v_cvt_scalef32_pk8_fp4_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(GetMxElemFormat(MxElemId::fp4_e2m1), e.options);
  const bool flush = e.options.flush_denormal_in;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src1[i], 1);
    uint32_t codes = 0;
    for (int k = 0; k < kElements; ++k) {
      const uint32_t x = TupleElementF32(ctx, lanes, i, k, flush);
      codes |= F32ToMxScaledRne(x, s, e.read, p) << (4 * k);
    }
    out[i] = codes;
  }
}

// Written apart from the fast path: each element's bits taken at its offset in the tuple (32i
// for f32, 16i for a 16-bit float), modifiers bit by bit per reading, mx_denorm_in=flush on the
// element's own pattern, the exact oracle on that pattern, each nibble placed from the index.
void v_cvt_scalef32_pk8_fp4_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                       uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = GetMxElemFormat(MxElemId::fp4_e2m1);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool pk16 = IsPacked16(role);
  const MxSource source = !pk16 ? MxSource::f32 : Pk16Source(role);
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t s = lanes.src1[i];
    if ((ctx.mods.abs >> 1) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 1) & 1) s ^= 0x80000000u;
    uint32_t word = 0;
    for (int k = 0; k < kElements; ++k) {
      const uint32_t x =
          OracleTupleElementFlushed(ctx, lanes, i, k, pk16, e.options.flush_denormal_in);
      word |= OracleToMxScaled(x, source, s, f, e.options, e.read) << (4 * k);
    }
    out[i] = word;
  }
}

// The first dword of S0 after its modifiers: an f32 (SpecialInputClass) or two 16-bit floats
// (ClassifyPk16Source); model/ops/input_class.h ClassifyLane takes every dword of the tuple.
absl::string_view v_cvt_scalef32_pk8_fp4_f32_classify(const OpContext& ctx, uint32_t src0,
                                                      uint32_t) {
  if (IsPacked16(GetInstrInfo(ctx.instr).src[0])) return ClassifyPk16Source(ctx, src0);
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

uint32_t v_cvt_scalef32_pk8_fp4_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
