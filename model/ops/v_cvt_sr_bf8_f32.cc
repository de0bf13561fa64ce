// v_cvt_sr_bf8_f32: f32 -> 8-bit float (E5M2) with stochastic rounding, seed from S1, written
// to the byte of VDST that OPSEL[3:2] selects.
//
// AMD's pseudocode (the CDNA 5 ISA page for V_CVT_SR_FP8_F32, with
// the bf8 seed width; docs/semantics.md §6: "bf8 uses S1[31:11] (21 bits)"):
//
//   prev_mode = ROUND_MODE; ROUND_MODE = ROUND_NEAREST_EVEN;
//   s = sign(S0.f32); e = exponent(S0.f32);
//   m = 23'U(32'U(23'B(mantissa(S0.f32))) + S1[31 : 11].u32);
//   tmp = float32(s, e, m); // Add stochastic value to mantissa, wrap around on overflow
//   VGPR[laneId][VDST.u32][8 * OPSEL[3 : 2] + 7 : 8 * OPSEL[3 : 2]].bf8 = f32_to_bf8(tmp.f32);
//   // Unwritten bytes of D are preserved.
//   ROUND_MODE = prev_mode
//
// Where the model departs, and why: as v_cvt_sr_fp8_f32.cc (carry_truncate by default, the text
// above is sr_rounding=literal; specials and overflow per format; src0 ABS/NEG apply; S1[10:0]
// and the other modifiers have no effect), with these differences:
//   - The format is TargetTraits::bf8: E5M2 FNUZ on gfx942, OCP E5M2 elsewhere. OCP E5M2 has
//     infinities: +-Inf in gives sign|0x7C whatever the seed under carry_truncate (C on gfx950).
//   - CLAMP has no effect on any target (UE5M3 is an fp8-only choice; U).
#include "model/fp/fp8_format.h"
#include "model/ops/op_table.h"
#include "model/ops/sr_common.h"

namespace lanediff {
namespace ops {
namespace {

constexpr uint32_t kBf8SeedShift = 11;  // S1[31:11]: the 21 f32 fraction bits E5M2 drops

SrUniform Decode(const OpContext& ctx) {
  const Fp8Shape shape = v_cvt_sr_bf8_f32_output(ctx);
  return DecodeSr(ctx, *shape.format, shape.seed_shift);
}

}  // namespace

Fp8Shape v_cvt_sr_bf8_f32_output(const OpContext& ctx) {
  return {&GetFp8Format(ctx.target->bf8), kBf8SeedShift};
}

void v_cvt_sr_bf8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  SrBatch(Decode(ctx), lanes, out);
}

void v_cvt_sr_bf8_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  SrBatchOracle(Decode(ctx), lanes, out);
}

absl::string_view v_cvt_sr_bf8_f32_classify(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  return ClassifySr(ctx, v_cvt_sr_bf8_f32_output(ctx), src0, src1);
}

uint32_t v_cvt_sr_bf8_f32_mode_bits(Family) { return kSrModeBits; }

}  // namespace ops
}  // namespace lanediff
