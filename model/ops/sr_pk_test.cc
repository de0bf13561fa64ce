// gfx950's multi-element scaled SR encoders (the rows whose S1 is a seed, S2 a scale and whose
// output is FP4 or FP6/BF6 codes; docs/semantics.md §11.17, §11.18): hand-derived lanes that
// show the seed step between elements (rule mx_sr_seed_step), then the fast model against the
// exact oracle on random tuples under each reading of every mx_* rule. (The f16/bf16 rows'
// every-pattern sweep is pk16_test's, which takes every packed-16 row.)
//
// The seed words by hand from S1 = 0x80000000 with V_PRNG_B32's step s -> (s << 1) ^ (s[31] ?
// 0xC5 : 0) (AMD CDNA4 pseudocode): element 0 0x80000000 (bit 31 set), 1 0xC5, then 0xC5 << (i - 1)
// for i <= 25 (0xC5000000 at 25: bit 31 set), 26 0x8A0000C5 (set), 27 0x1400014F, 28 0x2800029E,
// 29 0x5000053C, 30 0xA0000A78 (set), 31 0x40001435. A value exactly half a quantum above a code
// rounds up iff its seed's bit 31 is set (the seed is S1's top bits, a fraction of the quantum).
#include <cstdint>
#include <random>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

OpContext Gfx950(Instr instr, const char* reading = nullptr) {
  OpContext ctx;
  ctx.target = *FindTarget("gfx950");
  ctx.instr = instr;
  if (reading != nullptr) {
    EXPECT_TRUE(SetHypothesis(reading, &ctx.hyp).ok()) << reading;
  }
  return ctx;
}

// One lane: S0's dwords (one, the pair, or the 32-dword tuple), the seed, the scale, the old
// VDST; the destination words, fast and oracle checked equal.
std::vector<uint32_t> Lanes(const OpContext& ctx, const std::vector<uint32_t>& s0, uint32_t seed,
                          uint32_t scale, uint32_t old) {
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  lanes.AddWide(s0.data(), &seed, &scale, old);
  const size_t words = GetInstrInfo(ctx.instr).dst_bits / 32;
  std::vector<uint32_t> fast(words), oracle(words);
  EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
  EXPECT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(oracle)).ok());
  EXPECT_EQ(fast, oracle) << InstrName(ctx.instr);
  return fast;
}

// FP4 E2M1 codes 0..7 = 0, 0.5, 1, 1.5, 2, 3, 4, 6. 1.25 is half a quantum (0.5) above 1.0
// (code 2): element 0 (seed bit 31 set) rounds to 1.5 (code 3), element 1 (0xC5) to 1.0.
TEST(SrPk, Fp4PairSeedStep) {
  const Instr f32 = Instr::v_cvt_scalef32_sr_pk_fp4_f32;
  const std::vector<uint32_t> pair = {0x3fa00000u, 0x3fa00000u};
  // {tmp1, tmp0} = 0x23 into byte 2 (OPSEL[3:2] = 2), the other bytes kept.
  OpContext ctx = Gfx950(f32);
  ctx.mods.opsel = 8;
  EXPECT_EQ(Lanes(ctx, pair, 0x80000000u, 0x3f800000u, 0x11223344u)[0], 0x11233344u);
  // mx_sr_seed_step=same: both with S1, both up: 0x33.
  OpContext same = Gfx950(f32, "mx_sr_seed_step=same");
  same.mods.opsel = 8;
  EXPECT_EQ(Lanes(same, pair, 0x80000000u, 0x3f800000u, 0x11223344u)[0], 0x11333344u);
  // Element order: {1.0, 6.0} exact whatever the seed: element 0 low nibble (2), 1 high (7).
  EXPECT_EQ(Lanes(Gfx950(f32), {0x3f800000u, 0x40c00000u}, 0xffffffffu, 0x3f800000u, 0)[0], 0x72u);
  // NEG on the pair (-v[2:3]) flips both elements: {-1.0, -6.0} = {0xA, 0xF}.
  OpContext neg = Gfx950(f32);
  neg.mods.neg = 1;
  EXPECT_EQ(Lanes(neg, {0x3f800000u, 0x40c00000u}, 0, 0x3f800000u, 0)[0], 0xfau);
  // f16 {1.25, 1.25} = 0x3D003D00 (the seed S1's top 9 bits) and bf16 0x3FA03FA0 (top 6): the
  // same bits as from f32.
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk_fp4_f16), {0x3d003d00u}, 0x80000000u,
                0x3f800000u, 0)[0],
            0x23u);
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk_fp4_bf16, "mx_sr_seed_step=same"),
                {0x3fa03fa0u}, 0x80000000u, 0x3f800000u, 0)[0],
            0x33u);
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk_fp4_bf16), {0x3fa03fa0u}, 0x80000000u,
                0x3f800000u, 0)[0],
            0x23u);
}

// FP6 E2M3: 1.0 = 0x08, 1.125 = 0x09; 1.0625 is half a quantum above 1.0. With every element
// 1.0625 and S1 0x80000000, elements 0, 25, 26 and 30 round up (the seeds above): field i at
// bits 6i+5:6i. BF6 E3M2: 1.0 = 0x0C, 1.25 = 0x0D, 1.125 half way.
TEST(SrPk, Fp6TupleSeedStep) {
  const std::vector<uint32_t> fp6_in(32, 0x3f880000u), bf6_in(32, 0x3f900000u);
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_f32), fp6_in, 0x80000000u, 0x3f800000u, 0),
            (std::vector<uint32_t>{0x08208209u, 0x82082082u, 0x20820820u, 0x08208208u, 0x92482082u,
                                   0x20920820u}));
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_f32, "mx_sr_seed_step=same"), fp6_in,
                0x80000000u, 0x3f800000u, 0),
            (std::vector<uint32_t>{0x49249249u, 0x92492492u, 0x24924924u, 0x49249249u, 0x92492492u,
                                   0x24924924u}));
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_bf6_f32), bf6_in, 0x80000000u, 0x3f800000u, 0),
            (std::vector<uint32_t>{0x0c30c30du, 0xc30c30c3u, 0x30c30c30u, 0x0c30c30cu, 0xd34c30c3u,
                                   0x30d30c30u}));
}

// The twins from 32 packed 16-bit floats (element 2k in bits 15:0 of dword k, 2k+1 in bits
// 31:16). mx_sr_round=source_grid adds S1's top (source fraction - code fraction) bits: f16 ->
// E2M3 7, f16 -> E3M2 8, bf16 -> E2M3 4, bf16 -> E3M2 5. Every element half a quantum above a
// code (f16 1.0625 = 0x3C40, bf16 0x3F88 for E2M3; f16 1.125 = 0x3C80, bf16 0x3F90 for E3M2):
// the dropped bits are 1 followed by zeros, so an element rounds up iff its seed's bit 31 is
// set, as from f32: elements 0, 25, 26, 30 (the seed words above), the f32 rows' words. Element
// 1 (bits 31:16 of dword 0) rounds with 0xC5: field 1 = 0x08 (E2M3) / 0x0C (E3M2).
TEST(SrPk, Fp6From16BitTupleSeedStep) {
  const std::vector<uint32_t> fp6_words = {0x08208209u, 0x82082082u, 0x20820820u,
                                           0x08208208u, 0x92482082u, 0x20920820u};
  const std::vector<uint32_t> bf6_words = {0x0c30c30du, 0xc30c30c3u, 0x30c30c30u,
                                           0x0c30c30cu, 0xd34c30c3u, 0x30d30c30u};
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_f16), std::vector<uint32_t>(16, 0x3c403c40u),
                  0x80000000u, 0x3f800000u, 0),
            fp6_words);
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_bf16), std::vector<uint32_t>(16, 0x3f883f88u),
                  0x80000000u, 0x3f800000u, 0),
            fp6_words);
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_bf6_f16), std::vector<uint32_t>(16, 0x3c803c80u),
                  0x80000000u, 0x3f800000u, 0),
            bf6_words);
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_bf6_bf16), std::vector<uint32_t>(16, 0x3f903f90u),
                  0x80000000u, 0x3f800000u, 0),
            bf6_words);
  // mx_sr_seed_step=same: every element with S1, every field 0x09 (001001 repeating).
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_f16, "mx_sr_seed_step=same"),
                  std::vector<uint32_t>(16, 0x3c403c40u), 0x80000000u, 0x3f800000u, 0),
            (std::vector<uint32_t>{0x49249249u, 0x92492492u, 0x24924924u, 0x49249249u, 0x92492492u,
                                   0x24924924u}));
  // Element order within a dword, exact values whatever the seed: dword 0 = {bits 15:0 f16 1.0
  // (0x3C00: E2M3 0x08), bits 31:16 f16 7.5 (0x4780: 0x1F)}, the rest 0: field 0 = 0x08,
  // field 1 = 0x1F at bits 11:6: VDST word 0 = 0x7C8.
  std::vector<uint32_t> order(16, 0);
  order[0] = 0x47803c00u;
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_f16), order, 0xffffffffu, 0x3f800000u, 0),
            (std::vector<uint32_t>{0x7c8u, 0, 0, 0, 0, 0}));
}

// A subnormal result parts mx_sr_round's readings: element 0 f16 2^-4 (1 + 2^-10) = 0x2C01 over
// scale 1.0 is (1/2 + 2^-11) E2M3 quanta (1/8) below the smallest subnormal code. source_grid
// keeps 7 bits below the quantum (1/2) and adds S1[31:25]; f32_exact_subnormal keeps every
// significand bit below the quantum (24: 2^23 + 2^13 in 2^-24 units) and adds S1[31:8]. S1 =
// 0x7FE00000: S1[31:25] = 63, 64 + 63 < 128, down to 0x00; S1[31:8] = 0x7FE000 = 2^23 - 2^13,
// the sum reaches 2^24: up to 0x01 (1/8).
TEST(SrPk, Fp6From16BitSubnormalPartsSrRound) {
  std::vector<uint32_t> s0(16, 0);
  s0[0] = 0x2c01u;
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_f16), s0, 0x7fe00000u, 0x3f800000u, 0)[0],
            0x00u);
  EXPECT_EQ(Lanes(Gfx950(Instr::v_cvt_scalef32_sr_pk32_fp6_f16, "mx_sr_round=f32_exact_subnormal"), s0,
                  0x7fe00000u, 0x3f800000u, 0)[0],
            0x01u);
}

// Random tuples (a third of the elements copies of element 0, a third near 1.0 over the scale,
// the rest random words), random seeds, a few scales, each reading of every mx_* rule alone:
// fast == oracle on every row of the family.
TEST(SrPk, FastMatchesOracle) {
  std::mt19937 rng(3);
  constexpr uint32_t kScales[] = {0x3f800000u, 0x40000000u, 0x3e800000u, 0x00000000u,
                                  0x7f800000u, 0x3fc00000u, 0xc0400000u, 0x0a000000u};
  int rows = 0;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.src[1] != SrcRole::sr_seed || info.src[2] != SrcRole::scale_f32 ||
        (info.output != OutputKind::fp4 && info.output != OutputKind::fp6) ||
        !(*FindTarget("gfx950"))->Has(instr)) {
      continue;  // gfx1250's 8-wide SR encoders are sr_pk8_test's
    }
    ++rows;
    const int n = info.src_dwords(0);
    LaneBatch lanes;
    lanes.SetShape(info.lane_shape());
    std::vector<uint32_t> s0(n);
    for (int lane = 0; lane < 300; ++lane) {
      for (int k = 0; k < n; ++k) {
        const uint32_t r = static_cast<uint32_t>(rng());
        s0[k] = k > 0 && r % 3 == 0 ? s0[0] : r % 3 == 1 ? 0x3f000000u + (r >> 9) : r;
      }
      uint32_t seed = static_cast<uint32_t>(rng()), scale = kScales[rng() % 8];
      lanes.AddWide(s0.data(), &seed, &scale, static_cast<uint32_t>(rng()));
    }
    const size_t words = info.dst_bits / 32;
    std::vector<uint32_t> fast(words * lanes.size()), oracle(fast.size());
    std::vector<OpContext> contexts = {Gfx950(instr)};
    for (const HypothesisInfo& h : AllHypotheses()) {
      if (!absl::StartsWith(h.name, "mx_")) continue;
      for (size_t v = 1; v < h.values.size(); ++v) {
        OpContext c = Gfx950(instr);
        h.set(&c.hyp, static_cast<uint8_t>(v));
        c.mods.neg = static_cast<uint8_t>(v % 2 == 0 ? 0b101 : 0b001);
        c.mods.opsel = static_cast<uint8_t>(info.opsel_bits & (v == 1 ? 0b1100 : 0b0100));
        contexts.push_back(c);
      }
    }
    for (const OpContext& ctx : contexts) {
      ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
      ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(oracle)).ok());
      for (size_t i = 0; i < fast.size(); ++i) {
        ASSERT_EQ(fast[i], oracle[i]) << InstrName(instr) << " word " << i << " "
                                      << testing::PrintToString(NonDefaultHypothesisSettings(ctx.hyp));
      }
    }
  }
  EXPECT_GE(rows, 9);  // the FP4 pair rows and the FP6/BF6 tuple rows, from f32 and 16-bit floats
}

}  // namespace
}  // namespace lanediff
