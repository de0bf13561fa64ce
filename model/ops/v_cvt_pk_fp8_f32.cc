// The packed RNE op: two f32 -> two 8-bit floats, round to nearest even, packed into the
// 16-bit half of VDST that OPSEL[3] selects: {fp8(S0) in bits [7:0], fp8(S1) in [15:8]} of
// that half; the other half of VDST is the old VDST's. The rows naming this op:
// v_cvt_pk_fp8_f32 (E4M3; Fp8Slot::fp8_clamp_ue5m3) and v_cvt_pk_bf8_f32 (E5M2; Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA3 ISA, V_CVT_PK_FP8_F32; the gfx12 RDNA4 page reads alike):
//
//   if OPSEL[3].u1 == 1'0U then
//     VGPR[laneId][VDST.u32][15 : 0].b16 = { f32_to_fp8(S1.f32), f32_to_fp8(S0.f32) }
//   else
//     VGPR[laneId][VDST.u32][31 : 16].b16 = { f32_to_fp8(S1.f32), f32_to_fp8(S0.f32) }
//   endif  // the other half of D is preserved
//
// Row (model/instrs.def): VOP3 opcode 674 on GFX9 (gfx942/gfx950), 873 on gfx12/gfx1250;
// neg/abs on both sources, op_sel:[a,b,d] with d = OPSEL[3], clamp only on gfx1250
// (llvm-mc-22 -show-encoding on each target: `v_cvt_pk_fp8_f32 v1, v2, v3 op_sel:[0,0,1]` is
// [0x01,0x40,0xa2,0xd2,0x02,0x07,0x02,0x00] on gfx942/gfx950,
// [0x01,0x40,0x69,0xd7,0x02,0x07,0x02,0x00] on gfx1200..gfx1251; `... clamp` is "invalid
// operand for instruction" on gfx942/gfx950/gfx12 and accepted on gfx1250/gfx1251).
//
// Readings chosen here, and why (the family's rules: docs/semantics.md §10.2; the hypotheses:
// model/targets/hypotheses.cc):
//   - Format: the target's fp8 format (TargetTraits::fp8: E4M3 FNUZ on gfx942, OCP E4M3FN on
//     gfx950/gfx12/gfx1250), as the SR instructions (C: HIP amd_hip_fp8.h per target).
//   - Rounding: RNE from the exact f32 value (model/fp/fp8.h F32ToFp8Rne), whatever
//     MODE.round says (the pseudocode's f32_to_fp8 is RNE; U for MODE, as for the SR ops).
//   - MODE.FP16_OVFL: the fp16_ovfl hypothesis the SR instructions read (saturate_finite /
//     saturate_all as Fp8Options), so one reading covers the whole family.
//   - CLAMP (only expressible on gfx1250): saturate a finite overflow to +-max finite
//     (Fp8Options::saturate_finite), the usual meaning of clamp on a saturating conversion.
//     U: no source found; it is the one reading named here that a device may refute.
//   - NaN: the fp8_nan hypothesis as for the SR instructions; specials per format (fp8.h).
//   - src0/src1 ABS then NEG apply before converting; MODE[4] flushes f32 denormal inputs to
//     signed zero (they round to zero either way under RNE).
//   - OPSEL[2:0], OMOD and S2 have no effect (U).
//
// The bf8 row (CDNA3 ISA, V_CVT_PK_BF8_F32: the pseudocode above with f32_to_bf8): VOP3 675 on
// GFX9, 874 on gfx12/gfx1250; LLVM refuses clamp on every target (llvm-mc-22: `v_cvt_pk_bf8_f32
// v1, -|v2|, -v3 op_sel:[0,0,1]` is [0x01,0x41,0xa3,0xd2,0x02,0x07,0x02,0x60] on
// gfx942/gfx950, [0x01,0x41,0x6a,0xd7,0x02,0x07,0x02,0x60] on gfx1200..gfx1251). Its readings
// are the ones above with TargetTraits::bf8 (E5M2 FNUZ on gfx942, OCP E5M2 elsewhere), and a
// raw CLAMP bit always saturates a finite overflow (no UE5M3 select; U: no source found).
#include "model/fp/fp8_format.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/op_table.h"
#include "model/ops/pk_common.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_pk_fp8_f32_output(const OpContext& ctx) { return {&RowFp8Format(ctx), 0}; }

void v_cvt_pk_fp8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  PkBatch(DecodePk(ctx, RowFp8Format(ctx), !RowClampSelectsFormat(ctx)), lanes, out);
}

void v_cvt_pk_fp8_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  PkBatchOracle(ctx, RowFp8Format(ctx), !RowClampSelectsFormat(ctx), lanes, out);
}

absl::string_view v_cvt_pk_fp8_f32_classify(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  return ClassifyPk(ctx, RowFp8Format(ctx), src0, src1);
}

uint32_t v_cvt_pk_fp8_f32_mode_bits(Family) { return kPkModeBits; }

}  // namespace ops
}  // namespace lanediff
