#include "fuzz/sweep/sweep.h"

#include <memory>

#include "device_harness/open_runner.h"
#include "fuzz/report/report.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

struct Sim {
  std::vector<std::unique_ptr<Runner>> owned;
  std::vector<Runner*> runners;
  explicit Sim(int n, std::vector<std::string> inject = {}) {
    RunnerOptions opt;
    opt.inject = std::move(inject);
    for (int i = 0; i < n; ++i) {
      auto r = OpenRunner("sim", opt);
      EXPECT_TRUE(r.ok()) << r.status();
      owned.push_back(*std::move(r));
      runners.push_back(owned.back().get());
    }
  }
};

OpContext Ctx(const char* target, Instr instr) {
  OpContext ctx;
  ctx.target = *FindTarget(target);
  ctx.instr = instr;
  return ctx;
}

TEST(ShardRange, SplitsContiguously) {
  EXPECT_EQ(*ShardRange(0, 10, ""), std::make_pair(uint64_t{0}, uint64_t{10}));
  EXPECT_EQ(*ShardRange(0, 10, "1/3"), std::make_pair(uint64_t{0}, uint64_t{3}));
  EXPECT_EQ(*ShardRange(0, 10, "3/3"), std::make_pair(uint64_t{6}, uint64_t{10}));
  EXPECT_FALSE(ShardRange(0, 10, "0/3").ok());
  EXPECT_FALSE(ShardRange(0, 10, "4/3").ok());
  EXPECT_FALSE(ShardRange(0, 10, "x").ok());
}

// A pk_u8 sweep over src0 in [128.0, 128.0 + 2^20 ulp) against the clean simulator: every lane
// agrees, and the sampled oracle agrees with the fast model.
TEST(Sweep, CleanSimulatorAgrees) {
  Sim sim(2);
  SweepSpec spec;
  spec.ctx = Ctx("gfx942", Instr::v_cvt_pk_u8_f32);
  spec.first = 0x43000000;
  spec.last = 0x43000000 + (1u << 20);
  spec.chunk_lanes = 1 << 16;
  auto r = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->lanes(), 1u << 20);
  EXPECT_EQ(r->mismatches(), 0u);
  EXPECT_GT(r->oracle_checked(), (1u << 20) / 61 - 1);
  EXPECT_EQ(r->oracle_mismatches(), 0u);
}

// u8_truncate: src0 in [128, 256) has 2^16 ulps per integer step; under RNE the upper half of
// every step (fraction > 1/2, plus the ties to odd) rounds up, which truncation never does.
// Over [128.0, 129.0): fractions in (1/2, 1) are 2^15 - 1 values; the tie 128.5 goes to 128
// under RNE (even) and truncation alike. So exactly 32767 mismatches, all at exponent 134.
TEST(Sweep, TruncationErratumMismatchesExactlyTheUpperHalf) {
  Sim sim(1, {"u8_truncate"});
  SweepSpec spec;
  spec.ctx = Ctx("gfx942", Instr::v_cvt_pk_u8_f32);
  spec.first = 0x43000000;           // 128.0
  spec.last = 0x43000000 + (1u << 16);  // 129.0 exclusive
  spec.chunk_lanes = 1 << 12;
  auto r = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->mismatches(), 32767u);
  ASSERT_EQ(r->mismatch_by_exponent_size(), 512);
  EXPECT_EQ(r->mismatch_by_exponent(134), 32767u);
  EXPECT_EQ(r->mismatch_examples_size(), 8);
  EXPECT_EQ(r->mismatch_examples(0).src0(), 0x43008001u);  // first value above 128.5
}

// SR seed sweep at 1 + 2^-5 (fraction 1/4 of an E4M3 quantum): carry_truncate rounds up for
// exactly 2^18 of the 2^20 seeds (docs/semantics.md §6), on both sides.
TEST(Sweep, SeedSweepRoundUpCountIsTheFraction) {
  Sim sim(2);
  SweepSpec spec;
  spec.ctx = Ctx("gfx1201", Instr::v_cvt_sr_fp8_f32);
  spec.swept = SweptOperand::kSeed;
  spec.src0 = 0x3f840000;
  spec.first = 0;
  spec.last = 1u << 20;
  spec.chunk_lanes = 1 << 16;
  auto r = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->mismatches(), 0u);  // the device side's random low seed bits change nothing
  EXPECT_EQ(r->round_up_model(), 1u << 18);
  EXPECT_EQ(r->round_up_device(), 1u << 18);
  EXPECT_EQ(r->oracle_mismatches(), 0u);
}

// sr_wrap (the literal pseudocode) rounds 1 + 2^-5 up with probability ~3/4 (docs/semantics.md §6:
// "round-up probability 0.75 where 0.25 is right"). Exactly: the 23-bit mantissa field is
// 2^18, plus the seed s < 2^20 gives m = 2^18 + s (no wrap). RNE to 3 mantissa bits keeps
// m >> 20. For s < 3*2^18, m < 2^20: up iff m > 2^19, i.e. s > 2^18 (the tie s = 2^18 goes
// to even, down): 2^19 - 1 seeds. For s >= 3*2^18, m >= 2^20 and the remainder is below
// half: the kept field is 1, one step above 1.0: 2^18 seeds. Total 3*2^18 - 1.
TEST(Sweep, SrWrapErratumShowsInTheCurve) {
  Sim sim(1, {"sr_wrap"});
  SweepSpec spec;
  spec.ctx = Ctx("gfx1201", Instr::v_cvt_sr_fp8_f32);
  spec.swept = SweptOperand::kSeed;
  spec.src0 = 0x3f840000;
  spec.first = 0;
  spec.last = 1u << 20;
  spec.chunk_lanes = 1 << 16;
  auto r = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->round_up_model(), 1u << 18);
  EXPECT_EQ(r->round_up_device(), (3u << 18) - 1);
  EXPECT_GT(r->mismatches(), 0u);
}

// Four shards merged by the report equal one unsharded sweep (erratum on, so the mismatch
// examples and the exponent map are compared too).
TEST(Sweep, FourShardsMergeToTheUnshardedSweep) {
  Sim sim(2, {"u8_truncate"});
  SweepSpec spec;
  spec.ctx = Ctx("gfx1100", Instr::v_cvt_pk_u8_f32);
  spec.first = 0x42fe0000;  // 127.0 .. into 128.x: two exponents
  spec.last = 0x42fe0000 + (3u << 16) + 12345;
  spec.chunk_lanes = 1 << 14;
  auto whole = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(whole.ok()) << whole.status();
  proto::RunRecord shards;
  for (int i = 1; i <= 4; ++i) {
    SweepSpec s = spec;
    auto range = ShardRange(spec.first, spec.last, absl::StrCat(i, "/4"));
    ASSERT_TRUE(range.ok());
    s.first = range->first;
    s.last = range->second;
    auto r = RunSweep(s, sim.runners, nullptr);
    ASSERT_TRUE(r.ok()) << r.status();
    r->set_shard(absl::StrCat(i, "/4"));
    *shards.add_sweeps() = *r;
  }
  auto merged = MergeSweeps({shards});
  ASSERT_EQ(merged.size(), 1u);
  proto::SweepResult a = *whole, b = merged[0];
  a.clear_seconds();
  b.clear_seconds();
  EXPECT_GT(a.mismatches(), 0u);
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString()) << a.DebugString() << b.DebugString();
}

// One f16 source (gfx1250's SR encoders from f16, docs/semantics.md §13.5): the boundary set
// is f16 values in [1, 2) in both halves, positioned by their 10 - m dropped fraction bits (by
// hand: E4M3 drops 7, so 0x3c01 is 1/128 of a quantum and 0x3c7f 127/128; E5M2 drops 8).
TEST(SrBoundarySet, F16SourceUsesTheF16Grid) {
  int rows = 0;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.src[0] != SrcRole::data_f16x2 || info.src[1] != SrcRole::sr_seed ||
        info.src[2] != SrcRole::unused) {
      continue;
    }
    ++rows;
    OpContext ctx;
    ctx.target = *FindTarget("gfx1250");
    ctx.instr = instr;
    const bool bf8 = info.fp8_slot == Fp8Slot::bf8;
    const std::vector<std::pair<uint32_t, double>> set = SrBoundarySet(ctx);
    ASSERT_EQ(set.size(), 18u);
    EXPECT_EQ(set[0].first, 0x3c003c00u);
    EXPECT_EQ(set[1].first, bf8 ? 0x3c103c10u : 0x3c083c08u);  // 1/16: bit d - 4
    EXPECT_DOUBLE_EQ(set[1].second, 1.0 / 16);
    EXPECT_EQ(set[16].first, 0x3c013c01u);
    EXPECT_DOUBLE_EQ(set[16].second, bf8 ? 1.0 / 256 : 1.0 / 128);
    EXPECT_EQ(set[17].first, bf8 ? 0x3cff3cffu : 0x3c7f3c7fu);
  }
  EXPECT_EQ(rows, 2);
}

}  // namespace
}  // namespace lanediff
