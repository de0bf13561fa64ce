// gfx1250's scaled 8-wide SR encoder op (docs/semantics.md §14.5, shape T): eight elements of
// the VGPR tuple S0 over the block scale S2, each rounded stochastically (element 0 with the seed
// S1, each next with the seed mx_sr_seed_step names) -> eight 8-bit floats, element i in byte
// i % 4 of VDST + i / 4 (a VGPR pair, written whole). The rows naming this op (gfx1250 and
// gfx1251): v_cvt_scalef32_sr_pk8_{fp8,bf8}_f32 (SrcRole::f32_x8: element i is dword i),
// v_cvt_scalef32_sr_pk8_{fp8,bf8}_f16 (f16x2_x4) and _bf16 (bf16x2_x4): element 2k in bits 15:0
// of dword k, 2k+1 in bits 31:16; Fp8Slot::fp8 (OCP E4M3) or bf8 (OCP E5M2).
//
// No gfx1250 pseudocode is public. LLVM's intrinsics llvm.amdgcn.cvt.scalef32.sr.pk8.fp8.f32(<8
// x float>, i32 seed, float scale) -> <2 x i32> (and .f16 <8 x half>, .bf16 <8 x bfloat>) give
// the operand order and the element order of a vector; the byte order is the RNE twin's
// (docs/semantics.md §14.3). Each element is gfx950's f32_to_fp8_sr_scale (model/fp/mx.h
// F32ToFp8ScaledSr with the source's fraction width: 23 f32, 10 f16, 7 bf16; a 16-bit element
// widened exactly first, pk16_common.h Pk16ToF32), so under mx_sr_round's default source_grid a
// normal result takes S1's top (source fraction - M) bits: f32 -> E4M3 S1[31:12], -> E5M2
// S1[31:11]; f16 -> E4M3 S1[31:25], -> E5M2 S1[31:24]; bf16 -> E4M3 S1[31:28], -> E5M2
// S1[31:27]. Element i's seed word per mx_sr_seed_step (model/ops/sr_seed_step.h: gfx950's SR
// multi-element encoders' V_PRNG_B32 step, carried over, U). The other readings are the RNE
// twin's: mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in,
// mx_fp8_overflow / mx_bf8_overflow, fp8_nan, mx_pk16_neg. No MODE bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on every source) act as on the RNE twin
// (S0's on every f32 element, on the halves mx_pk16_neg says; S2's on the scale; none on the
// seed, as gfx950's SR encoders); OPSEL, CLAMP, OMOD (refused) and the old VDST: no effect (U,
// fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/ops/sr_seed_step.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kElements = 8;

// The source's fraction width: 23 (f32), 10 (f16), 7 (bf16).
uint32_t SourceFractionBits(SrcRole role) {
  return !IsPacked16(role) ? 23u : IsPackedF16(role) ? 10u : 7u;
}

}  // namespace

// Element 0's seed position for the lane generator and triage: S1's top (source fraction bits -
// M) bits (S1[31:12] for f32 -> E4M3, S1[31:25] for f16 -> E4M3).
Fp8Shape v_cvt_scalef32_sr_pk8_fp8_f32_output(const OpContext& ctx) {
  const Fp8Format& f = RowFp8Format(ctx);
  const uint32_t src_man = SourceFractionBits(GetInstrInfo(ctx.instr).src[0]);
  return {&f, 32u - src_man + static_cast<uint32_t>(f.man_bits)};
}

void v_cvt_scalef32_sr_pk8_fp8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const Fp8Params p = MakeFp8Params(f, e.fp8);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const uint32_t man = SourceFractionBits(role);
  const bool flush = e.options.flush_denormal_in;
  const MxSrSeedStep step = ctx.hyp.mx_sr_seed_step;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src2[i], 2);
    uint32_t seed = lanes.src1[i];
    uint64_t bytes = 0;
    for (int k = 0; k < kElements; ++k, seed = MxSrNextSeed(seed, step)) {
      const uint32_t x = TupleElementF32(ctx, lanes, i, k, flush);
      bytes |= uint64_t{F32ToFp8ScaledSr(x, s, seed, man, p, e.options)} << (8 * k);
    }
    out[2 * i] = static_cast<uint32_t>(bytes);
    out[2 * i + 1] = static_cast<uint32_t>(bytes >> 32);
  }
}

// Written apart from the fast path: each element's bits taken at its offset in the tuple (32i
// for f32, 16i for a 16-bit float), modifiers bit by bit per reading, the exact oracle on the
// element's own pattern, the PRNG step as arithmetic (2s, and the polynomial 0x1000000C5
// subtracted when it reaches 2^32), each byte placed from the element's index.
void v_cvt_scalef32_sr_pk8_fp8_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                          uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool pk16 = IsPacked16(role);
  const MxSource source = !pk16 ? MxSource::f32 : Pk16Source(role);
  const bool advance = ctx.hyp.mx_sr_seed_step == MxSrSeedStep::prng_step;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t s = lanes.src2[i];
    if ((ctx.mods.abs >> 2) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 2) & 1) s ^= 0x80000000u;
    uint64_t random = lanes.src1[i];
    out[2 * i] = 0;
    out[2 * i + 1] = 0;
    for (int k = 0; k < kElements; ++k) {
      const uint32_t x = OracleTupleElement(ctx, lanes, i, k, pk16);
      const uint32_t code = OracleToFp8ScaledSr(x, source, static_cast<uint32_t>(random), s, f,
                                                e.fp8, e.options);
      out[2 * i + k / 4] |= code << (8 * (k % 4));
      if (advance) {
        random *= 2u;
        if (random >= (uint64_t{1} << 32)) random ^= 0x1000000c5ull;
      }
    }
  }
}

// The first dword of S0 after its modifiers: an f32 (SpecialInputClass) or two 16-bit floats
// (ClassifyPk16Source); model/ops/input_class.h ClassifyLane takes every dword of the tuple.
absl::string_view v_cvt_scalef32_sr_pk8_fp8_f32_classify(const OpContext& ctx, uint32_t src0,
                                                         uint32_t) {
  if (IsPacked16(GetInstrInfo(ctx.instr).src[0])) return ClassifyPk16Source(ctx, src0);
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

uint32_t v_cvt_scalef32_sr_pk8_fp8_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
