// gfx1250's scaled 16-element SR FP6/BF6 encoder op (docs/semantics.md §14.7, shape T): the 16
// elements of the VGPR tuple S0 over the block scale S2, each rounded stochastically (element 0
// with the seed S1, each next with the seed mx_sr_seed_step names) -> 16 six-bit codes in the
// 3-dword VGPR tuple VDST (written whole), the field order per mx_pk16_fp6_order. The rows
// naming this op (gfx1250 and gfx1251): v_cvt_scalef32_sr_pk16_{fp6,bf6}_f32 (SrcRole::f32_x16:
// element i is dword i), v_cvt_scalef32_sr_pk16_{fp6,bf6}_f16 (f16x2_x8) and _bf16 (bf16x2_x8):
// element 2k in bits 15:0 of dword k, 2k+1 in bits 31:16; Fp8Slot::fp6 (OCP MX FP6 E2M3) or bf6
// (OCP MX BF6 E3M2).
//
// No gfx1250 pseudocode is public. LLVM's intrinsics llvm.amdgcn.cvt.scalef32.sr.pk16.fp6.f32(<16
// x float>, i32 seed, float scale) -> <3 x i32> (and .f16 <16 x half>, .bf16 <16 x bfloat>) give
// the operand order and the element order of a vector; where element i lands in the 96 bits is
// the RNE twin's rule mx_pk16_fp6_order (docs/semantics.md §14.4; fp6_tuple.h Pk16Fp6Field).
// Each element is gfx950's f32_to_fp6_sr_scale / f32_to_bf6_sr_scale (model/fp/mx.h
// F32ToMxScaledSr with the source's fraction width: 23 f32, 10 f16, 7 bf16; a 16-bit element
// widened exactly first, pk16_common.h TupleElementF32): under mx_sr_round's default source_grid
// a normal result takes S1's top (source fraction - M) bits: f32 -> E2M3 S1[31:12], -> E3M2
// S1[31:11]; f16 -> E2M3 S1[31:25], -> E3M2 S1[31:24]; bf16 -> E2M3 S1[31:28], -> E3M2
// S1[31:27]. Element i (the source's order, whatever field it lands in) rounds with the seed
// word mx_sr_seed_step names (model/ops/sr_seed_step.h: gfx950's V_PRNG_B32 step, carried over,
// U). The other readings are the RNE twin's: mx_scale_read, mx_scale_zero, mx_scale_nan,
// mx_down_scale, mx_denorm_in, mx_fp4_nan (FP6 has no NaN code), mx_pk16_neg. Infinities and
// overflows saturate to sign|0x1f. No MODE bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on every source) act as on the RNE twin
// (none on the seed); OPSEL, CLAMP, OMOD (refused) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp6_tuple.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/ops/sr_seed_step.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_scalef32_sr_pk16_fp6_f32_output(const OpContext&) { return {nullptr, 0}; }  // fp6

void v_cvt_scalef32_sr_pk16_fp6_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(RowFp6Format(ctx), e.options);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const uint32_t man = !IsPacked16Tuple(role) ? 23u : IsPackedF16(role) ? 10u : 7u;
  const bool flush = e.options.flush_denormal_in;
  const MxPk16Fp6Order order = ctx.hyp.mx_pk16_fp6_order;
  const MxSrSeedStep step = ctx.hyp.mx_sr_seed_step;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    uint32_t seed = lanes.src1[i];
    Pk16Fp6Bits bits;
    for (int k = 0; k < kPk16Fp6Elements; ++k, seed = MxSrNextSeed(seed, step)) {
      const uint32_t x = TupleElementF32(ctx, lanes, i, k, flush);
      bits.Put(Pk16Fp6Field(k, order), F32ToMxScaledSr(x, s, seed, man, e.read, e.sr_round, p));
    }
    bits.Store(out + i * kPk16Fp6Dwords);
  }
}

// Written apart from the fast path: each element's bits taken at its offset in the tuple (32i
// for f32, 16i for a 16-bit float), modifiers bit by bit per reading, mx_denorm_in=flush on the
// element's own pattern (pk16_common.h OracleTupleElementFlushed), the exact oracle on that
// pattern, the PRNG step as arithmetic (2s, and the polynomial 0x1000000C5 subtracted when it
// reaches 2^32), each output bit placed one at a time (fp6_tuple.h Pk16Fp6PlaceOracle).
void v_cvt_scalef32_sr_pk16_fp6_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                           uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = RowFp6Format(ctx);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool pk16 = IsPacked16Tuple(role);
  const MxSource source = !pk16 ? MxSource::f32 : Pk16Source(role);
  const bool advance = ctx.hyp.mx_sr_seed_step == MxSrSeedStep::prng_step;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t* d = out + i * kPk16Fp6Dwords;
    for (int w = 0; w < kPk16Fp6Dwords; ++w) d[w] = 0;
    uint32_t s = lanes.src2[i];
    if ((ctx.mods.abs >> 2) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 2) & 1) s ^= 0x80000000u;
    uint64_t random = lanes.src1[i];
    for (int pass = 0; pass < kPk16Fp6Elements; ++pass) {
      const uint32_t x =
          OracleTupleElementFlushed(ctx, lanes, i, pass, pk16, e.options.flush_denormal_in);
      Pk16Fp6PlaceOracle(d, pass, ctx.hyp.mx_pk16_fp6_order,
                         OracleToMxScaledSr(x, source, static_cast<uint32_t>(random), s, f,
                                            e.options, e.read, e.sr_round));
      if (advance) {
        random *= 2u;
        if (random >= (uint64_t{1} << 32)) random ^= 0x1000000c5ull;
      }
    }
  }
}

// The class of the tuple's first dword after its modifiers (pk16_common.h ClassifyTupleSource).
absl::string_view v_cvt_scalef32_sr_pk16_fp6_f32_classify(const OpContext& ctx, uint32_t src0,
                                                          uint32_t) {
  return ClassifyTupleSource(ctx, src0);
}

uint32_t v_cvt_scalef32_sr_pk16_fp6_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
