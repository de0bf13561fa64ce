// The SR op: f32 -> 8-bit float with stochastic rounding, seed from S1, written to the byte of
// VDST that OPSEL[3:2] selects. The rows naming this op: v_cvt_sr_fp8_f32 (E4M3, or UE5M3 on
// gfx1250 with CLAMP; Fp8Slot::fp8_clamp_ue5m3) and v_cvt_sr_bf8_f32 (E5M2; Fp8Slot::bf8).
//
// AMD's pseudocode (the CDNA 5 ISA page for V_CVT_SR_FP8_F32; "Stochastic
// rounding. Ignores OMOD and clamp."):
//
//   prev_mode = ROUND_MODE; ROUND_MODE = ROUND_NEAREST_EVEN;
//   s = sign(S0.f32); e = exponent(S0.f32);
//   m = 23'U(32'U(23'B(mantissa(S0.f32))) + S1[31 : 12].u32);
//   tmp = float32(s, e, m); // Add stochastic value to mantissa, wrap around on overflow
//   if OPSEL[3 : 2].u2 == 2'0U then VGPR[laneId][VDST.u32][7 : 0].fp8 = f32_to_fp8(tmp.f32)
//   elsif OPSEL[3 : 2].u2 == 2'1U then VGPR[laneId][VDST.u32][15 : 8].fp8 = f32_to_fp8(tmp.f32)
//   elsif OPSEL[3 : 2].u2 == 2'2U then VGPR[laneId][VDST.u32][23 : 16].fp8 = f32_to_fp8(tmp.f32)
//   else VGPR[laneId][VDST.u32][31 : 24].fp8 = f32_to_fp8(tmp.f32)
//   endif; // Unwritten bytes of D are preserved.
//   ROUND_MODE = prev_mode
//
// Where the model departs, and why (docs/semantics.md §4-6):
//   - Default rounding is sr_rounding=carry_truncate, not the text above: S1[31:12] is added
//     to the 24-bit significand below the kept LSB with the carry kept, then truncated;
//     specials are handled first (L+: rocjitsu measured on gfx1201; comgr PR #3275 found the
//     wrapping 23-bit add wrong on silicon). The text above, word for word, is
//     sr_rounding=literal.
//   - The format is the target's (TargetTraits::fp8: E4M3 FNUZ on gfx942, OCP E4M3FN on
//     gfx950/gfx12/gfx1250). Specials and overflow per format: model/fp/fp8.h; NaN byte
//     (fp8_nan) and MODE.FP16_OVFL (fp16_ovfl) are hypotheses.
//   - "Ignores clamp" does not hold on gfx1250 B0: where TargetTraits::clamp_selects_ue5m3,
//     CLAMP=1 selects UE5M3 (hypothesis gfx1250_clamp=ue5m3, the default; =ignored is A0;
//     =ue5m3_magnitude is rocjitsu's |x| encoding).
//     Elsewhere CLAMP has no effect (U).
//   - src0 ABS then NEG apply to the float before converting (L). S1[11:0], src1/src2
//     modifiers, OPSEL[1:0], OMOD and S2 have no effect (C spec for S1[11:0]; U for the rest).
//   - f32 denormal inputs flush to signed zero when MODE[4] is 0 (they give +-0 either way
//     under RNE, and under carry_truncate a seed cannot lift them: their fraction of the
//     smallest quantum is far below 2^-20).
//
// The bf8 row (docs/semantics.md §6: "bf8 uses S1[31:11] (21 bits)"; the pseudocode above with
// S1[31 : 11] and f32_to_bf8) departs as above, with these differences:
//   - The format is TargetTraits::bf8: E5M2 FNUZ on gfx942, OCP E5M2 elsewhere. OCP E5M2 has
//     infinities: +-Inf in gives sign|0x7C whatever the seed under carry_truncate (C on gfx950).
//   - The seed is S1[31:11], the 21 f32 fraction bits E5M2 drops.
//   - CLAMP has no effect on any target (UE5M3 is an fp8-only choice; U).
#include "model/fp/fp8_format.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/op_table.h"
#include "model/ops/sr_common.h"

namespace lanediff {
namespace ops {
namespace {

// The seed's position: S1[31:12], the 20 f32 fraction bits E4M3 drops (UE5M3 under CLAMP
// keeps the E4M3 seed), or S1[31:11], the 21 bits E5M2 drops.
uint32_t SeedShift(const OpContext& ctx) {
  return GetInstrInfo(ctx.instr).fp8_slot == Fp8Slot::bf8 ? 11 : 12;
}

SrUniform Decode(const OpContext& ctx) {
  const Fp8Shape shape = v_cvt_sr_fp8_f32_output(ctx);
  return DecodeSr(ctx, *shape.format, shape.seed_shift);
}

}  // namespace

Fp8Shape v_cvt_sr_fp8_f32_output(const OpContext& ctx) {
  return {&RowFp8Format(ctx), SeedShift(ctx)};
}

void v_cvt_sr_fp8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  SrBatch(Decode(ctx), lanes, out);
}

void v_cvt_sr_fp8_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  SrBatchOracle(Decode(ctx), lanes, out);
}

absl::string_view v_cvt_sr_fp8_f32_classify(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  return ClassifySr(ctx, v_cvt_sr_fp8_f32_output(ctx), src0, src1);
}

uint32_t v_cvt_sr_fp8_f32_mode_bits(Family) { return kSrModeBits; }

}  // namespace ops
}  // namespace lanediff
