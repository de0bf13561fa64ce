// gfx1250's scaled 8-wide SR FP4 encoder op (docs/semantics.md §14.5, shape T): eight elements
// of the VGPR tuple S0 over the block scale S2, each rounded stochastically (element 0 with the
// seed S1, each next with the seed mx_sr_seed_step names) -> eight OCP MX FP4 E2M1 codes,
// element i at bits 4i+3:4i of VDST (one VGPR, written whole). The rows naming this op (gfx1250
// and gfx1251, Fp8Slot::fp4): v_cvt_scalef32_sr_pk8_fp4_f32 (SrcRole::f32_x8: element i is
// dword i), v_cvt_scalef32_sr_pk8_fp4_f16 (f16x2_x4) and _bf16 (bf16x2_x4): element 2k in bits
// 15:0 of dword k, 2k+1 in bits 31:16.
//
// No gfx1250 pseudocode is public. LLVM's intrinsic llvm.amdgcn.cvt.scalef32.sr.pk8.fp4.f32(<8
// x float>, i32 seed, float scale) -> i32 gives the operand order and the vector's element
// order; the nibble order is the RNE twin's (docs/semantics.md §14.3). Each element is
// gfx950's f32_to_fp4_sr_scale (model/fp/mx.h F32ToMxScaledSr with the source's fraction width:
// 23 f32, 10 f16, 7 bf16; a 16-bit element widened exactly first, pk16_common.h Pk16ToF32): under
// mx_sr_round's default source_grid a normal result takes S1's top (source fraction - 1) bits
// (S1[31:10] f32, S1[31:23] f16, S1[31:26] bf16). Element i's seed word per mx_sr_seed_step
// (model/ops/sr_seed_step.h: gfx950's V_PRNG_B32 step, carried over, U). The other readings are
// the RNE twin's: mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in,
// mx_fp4_nan, mx_pk16_neg. Infinities and overflows saturate to sign|6.0. No MODE bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on every source) act as on the RNE twin
// (none on the seed); OPSEL, CLAMP, OMOD (refused) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/ops/sr_seed_step.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kElements = 8;

}  // namespace

Fp8Shape v_cvt_scalef32_sr_pk8_fp4_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp4

void v_cvt_scalef32_sr_pk8_fp4_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(GetMxElemFormat(MxElemId::fp4_e2m1), e.options);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool pk16 = IsPacked16(role);
  const uint32_t man = !pk16 ? 23u : IsPackedF16(role) ? 10u : 7u;
  const bool flush = e.options.flush_denormal_in;
  const MxSrSeedStep step = ctx.hyp.mx_sr_seed_step;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    uint32_t seed = lanes.src1[i];
    uint32_t codes = 0;
    for (int k = 0; k < kElements; ++k, seed = MxSrNextSeed(seed, step)) {
      const uint32_t x = TupleElementF32(ctx, lanes, i, k, flush);
      codes |= F32ToMxScaledSr(x, s, seed, man, e.read, e.sr_round, p) << (4 * k);
    }
    out[i] = codes;
  }
}

// Written apart from the fast path: each element's bits taken at its offset in the tuple (32i
// for f32, 16i for a 16-bit float), modifiers bit by bit per reading, mx_denorm_in=flush on the
// element's own pattern, the exact oracle on that pattern, the PRNG step as arithmetic (2s, and
// the polynomial 0x1000000C5 subtracted when it reaches 2^32), each nibble placed from the index.
void v_cvt_scalef32_sr_pk8_fp4_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                          uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = GetMxElemFormat(MxElemId::fp4_e2m1);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool pk16 = IsPacked16(role);
  const MxSource source = !pk16 ? MxSource::f32 : Pk16Source(role);
  const bool advance = ctx.hyp.mx_sr_seed_step == MxSrSeedStep::prng_step;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t s = lanes.src2[i];
    if ((ctx.mods.abs >> 2) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 2) & 1) s ^= 0x80000000u;
    uint64_t random = lanes.src1[i];
    uint32_t word = 0;
    for (int k = 0; k < kElements; ++k) {
      const uint32_t x =
          OracleTupleElementFlushed(ctx, lanes, i, k, pk16, e.options.flush_denormal_in);
      word |= OracleToMxScaledSr(x, source, static_cast<uint32_t>(random), s, f, e.options, e.read,
                                 e.sr_round)
              << (4 * k);
      if (advance) {
        random *= 2u;
        if (random >= (uint64_t{1} << 32)) random ^= 0x1000000c5ull;
      }
    }
    out[i] = word;
  }
}

// The first dword of S0 after its modifiers: an f32 (SpecialInputClass) or two 16-bit floats
// (ClassifyPk16Source); model/ops/input_class.h ClassifyLane takes every dword of the tuple.
absl::string_view v_cvt_scalef32_sr_pk8_fp4_f32_classify(const OpContext& ctx, uint32_t src0,
                                                         uint32_t) {
  if (IsPacked16(GetInstrInfo(ctx.instr).src[0])) return ClassifyPk16Source(ctx, src0);
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

uint32_t v_cvt_scalef32_sr_pk8_fp4_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
