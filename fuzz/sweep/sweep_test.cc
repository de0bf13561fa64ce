#include "fuzz/sweep/sweep.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "device_harness/open_runner.h"
#include "fuzz/report/report.h"
#include "proto/validate.h"
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

// ---- element sweeps of the VGPR-tuple rows --------------------------------------------------

// The geometry comes from the row: v_cvt_scalef32_pk32_f32_fp6's S0 is a 6-dword tuple of 32
// six-bit fields (docs/semantics.md §11.14), S1 its f32 scale: 64 codes x 256 exponent bytes;
// v_cvt_scalef32_2xpk16_fp6_f32's S0 and S1 are 16-dword f32 tuples (§11.16): a dword element,
// 2^32 values, its scale S2 held at the base lane; pk_u8 has no tuple.
TEST(ElementSweep, GeometryIsTheRows) {
  const InstrInfo& dec = GetInstrInfo(Instr::v_cvt_scalef32_pk32_f32_fp6);
  EXPECT_EQ(FirstTupleSource(dec), 0);
  EXPECT_EQ(ElementBits(dec, 0), 6);
  EXPECT_EQ(ElementCount(dec, 0), 32);
  EXPECT_EQ(ElementSweepSize(dec, 0), 64u * 256u);
  const InstrInfo& enc = GetInstrInfo(Instr::v_cvt_scalef32_2xpk16_fp6_f32);
  EXPECT_EQ(FirstTupleSource(enc), 0);
  EXPECT_EQ(ElementBits(enc, 1), 32);
  EXPECT_EQ(ElementCount(enc, 1), 16);
  EXPECT_EQ(ElementSweepSize(enc, 1), uint64_t{1} << 32);
  // 16 + 16 tuple dwords 0, the scale 1.0, vdst_old 0.
  const std::vector<uint32_t> base = DefaultBaseLane(enc);
  ASSERT_EQ(base.size(), 34u);
  EXPECT_EQ(base[32], 0x3f800000u);
  EXPECT_EQ(base[31], 0u);
  EXPECT_EQ(FirstTupleSource(GetInstrInfo(Instr::v_cvt_pk_u8_f32)), -1);
  const uint32_t e[3] = {1, 2, 3}, o[3] = {1, 5, 6};
  EXPECT_EQ(DifferingWords(e, o, 3), "VDST+1 VDST+2");
}

// Every row with a tuple source, element 5 (an FP6 field straddling dwords 0 and 1: bits
// 35:30; the last element of a shorter tuple, an f32 pair's 1), against the clean simulator with the oracle on every lane: no mismatch. An FP6
// element covers its whole space (64 codes x 256 scales); a dword element 4096 values from 1.0.
TEST(ElementSweep, CleanSimulatorAgreesOnEveryTupleRow) {
  Sim sim(1);
  int rows = 0;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& row = GetInstrInfo(instr);
    const int src = FirstTupleSource(row);
    if (src < 0) continue;
    const TargetTraits* target = nullptr;  // the first target that has the row
    for (const TargetTraits& t : AllTargets()) {
      if (target == nullptr && t.Has(instr)) target = &t;
    }
    ASSERT_NE(target, nullptr) << row.name;
    ++rows;
    SweepSpec spec;
    spec.ctx.target = target;
    spec.ctx.instr = instr;
    spec.swept = SweptOperand::kElement;
    spec.tuple_src = src;
    // Element 5, or the last of a shorter tuple (an f32 pair: element 1).
    spec.element = std::min(5, ElementCount(row, src) - 1);
    spec.oracle = OracleCheck::kEvery;
    const bool narrow = ElementBits(row, src) < 32;
    spec.first = narrow ? 0 : 0x3f800000;
    spec.last = narrow ? ElementSweepSize(row, src) : 0x3f800000 + 4096;
    auto r = RunSweep(spec, sim.runners, nullptr);
    ASSERT_TRUE(r.ok()) << row.name << ": " << r.status();
    EXPECT_EQ(r->lanes(), spec.last - spec.first) << row.name;
    EXPECT_EQ(r->mismatches(), 0u) << row.name;
    EXPECT_EQ(r->oracle_checked(), spec.last - spec.first) << row.name;
    EXPECT_EQ(r->oracle_mismatches(), 0u) << row.name;
    EXPECT_EQ(r->swept(), absl::StrCat("src0[", spec.element, "]"));
  }
  EXPECT_GE(rows, 6);  // the FP6/BF6 decodes alone are six
}

// fp6_fields_reversed (device_harness/sim/errata.h: element i from field 31 - i), element 0 of
// v_cvt_scalef32_pk32_f32_fp6 over its 64 codes x 256 scale bytes, the base lane's other
// fields 0. Expected VDST+0 = code x 2^(byte-127), VDST+31 = field 31 (0) x scale = +0; the
// device swaps the two. A lane differs iff code x scale is not +0 (mx.cc MxScaleF32 under the
// default readings): for bytes 0..254, every code but 0 (0x20, -0, gives 0x80000000; the
// smallest, 0x01 = 0.125 x 2^-127 = 2^-130, an exact f32 denormal): 255 x 63 = 16,065 lanes;
// for byte 0xFF (NaN scale: sign | 0x7FC00000) the 32 codes with the sign bit (0xFFC00000
// against 0x7FC00000). 16,097 in all. The first is code 1, byte 0: VDST+0 0x00080000 (2^-130
// = 2^19 x 2^-149) against 0; the words that differ are VDST+0 and VDST+31.
TEST(ElementSweep, FieldsReversedErratumShowsInElementZero) {
  Sim sim(2, {"fp6_fields_reversed"});
  SweepSpec spec;
  spec.ctx = Ctx("gfx950", Instr::v_cvt_scalef32_pk32_f32_fp6);
  spec.swept = SweptOperand::kElement;
  spec.element = 0;
  spec.first = 0;
  spec.last = 64 * 256;
  spec.chunk_lanes = 4096;
  auto r = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->mismatches(), 16097u);
  EXPECT_EQ(r->oracle_mismatches(), 0u);
  EXPECT_EQ(r->mismatch_by_exponent_size(), 0);  // an element sweep has no src0 exponent map
  ASSERT_EQ(r->mismatch_examples_size(), 8);
  ASSERT_EQ(r->mismatch_expected_size(), 8 * 32);
  const proto::Lane& first = r->mismatch_examples(0);
  EXPECT_EQ(first.src0(), 1u);
  EXPECT_EQ(first.src0_more_size(), 5);
  EXPECT_EQ(first.src1(), 0u);  // 1.0 with its exponent byte 0
  EXPECT_EQ(r->mismatch_expected(0), 0x00080000u);
  EXPECT_EQ(r->mismatch_observed(0), 0u);
  EXPECT_EQ(DifferingWords(r->mismatch_expected().data(), r->mismatch_observed().data(), 32),
            "VDST+0 VDST+31");
}

// Element 5 sits at tuple bits 35:30 (model/ops/fp6_tuple.h). Under fp6_fields_reversed its
// lanes differ at VDST+5 and VDST+26 (31 - 5); the fourth differing lane is code 4 (0b000100)
// at byte 0: bits 31:30 of dword 0 are 0 and bit 0 of dword 1 is 1.
TEST(ElementSweep, StraddlingFieldIsSplitAcrossDwords) {
  Sim sim(1, {"fp6_fields_reversed"});
  SweepSpec spec;
  spec.ctx = Ctx("gfx950", Instr::v_cvt_scalef32_pk32_f32_fp6);
  spec.swept = SweptOperand::kElement;
  spec.element = 5;
  spec.first = 0;
  spec.last = 64;  // scale byte 0
  auto r = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->mismatches(), 63u);  // every code but 0, as above
  ASSERT_GE(r->mismatch_examples_size(), 4);
  EXPECT_EQ(r->mismatch_examples(0).src0(), 0x40000000u);  // code 1: bit 30
  EXPECT_EQ(r->mismatch_examples(3).src0(), 0u);
  EXPECT_EQ(r->mismatch_examples(3).src0_more(0), 1u);
  EXPECT_EQ(DifferingWords(r->mismatch_expected().data(), r->mismatch_observed().data(), 32),
            "VDST+5 VDST+26");
}

// fp6_interleave_swapped (errata.h: S0's element i written as field 2i+1, S1's as 2i), element 3
// of S0 of v_cvt_scalef32_2xpk16_fp6_f32 over f32 [2^-4 - 2048 ulp, 2^-4 + 2048 ulp), S1 0, the
// scale S2 1.0. E2M3's smallest subnormal is 0.125, so RNE gives code 0 up to 2^-4 (the tie
// 2^-4 goes to even, 0) and code 1 above it; S1[3] = +0 gives code 0. Fields 6 and 7 (tuple
// bits 47:36, VDST+1 bits 15:4) are then (1, 0) expected and (0, 1) observed on exactly the
// 2047 values above 0x3d800000: VDST+1 0x00000010 against 0x00000400.
TEST(ElementSweep, InterleaveSwappedErratumShowsInOneWord) {
  Sim sim(1, {"fp6_interleave_swapped"});
  SweepSpec spec;
  spec.ctx = Ctx("gfx950", Instr::v_cvt_scalef32_2xpk16_fp6_f32);
  spec.swept = SweptOperand::kElement;
  spec.element = 3;
  spec.first = 0x3d800000 - 2048;
  spec.last = 0x3d800000 + 2048;
  auto r = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->mismatches(), 2047u);
  EXPECT_EQ(r->oracle_mismatches(), 0u);
  ASSERT_GE(r->mismatch_examples_size(), 1);
  EXPECT_EQ(r->mismatch_examples(0).src0_more(2), 0x3d800001u);  // dword 3 = element 3
  EXPECT_EQ(r->mismatch_examples(0).src2(), 0x3f800000u);
  ASSERT_EQ(r->mismatch_expected_size(), r->mismatch_examples_size() * 6);
  EXPECT_EQ(r->mismatch_expected(1), 0x00000010u);
  EXPECT_EQ(r->mismatch_observed(1), 0x00000400u);
  EXPECT_EQ(DifferingWords(r->mismatch_expected().data(), r->mismatch_observed().data(), 6),
            "VDST+1");
}

// Two shards of an element sweep merge to the unsharded one: every example keeps its 32 words
// through lanediff report's merge (fuzz/report/report.cc MergeSweeps) and ValidateRunRecord.
TEST(ElementSweep, ShardsMergeWithEveryWordOfTheirExamples) {
  Sim sim(1, {"fp6_fields_reversed"});
  SweepSpec spec;
  spec.ctx = Ctx("gfx950", Instr::v_cvt_scalef32_pk32_f32_fp6);
  spec.swept = SweptOperand::kElement;
  spec.element = 0;
  spec.first = 0;
  spec.last = 64 * 4;  // scale bytes 0..3
  auto whole = RunSweep(spec, sim.runners, nullptr);
  ASSERT_TRUE(whole.ok()) << whole.status();
  proto::RunRecord shards;
  for (int i = 1; i <= 2; ++i) {
    SweepSpec s = spec;
    auto range = ShardRange(spec.first, spec.last, absl::StrCat(i, "/2"));
    ASSERT_TRUE(range.ok());
    s.first = range->first;
    s.last = range->second;
    auto r = RunSweep(s, sim.runners, nullptr);
    ASSERT_TRUE(r.ok()) << r.status();
    r->set_shard(absl::StrCat(i, "/2"));
    *shards.add_sweeps() = *r;
  }
  EXPECT_TRUE(ValidateRunRecord(shards).ok()) << ValidateRunRecord(shards);
  auto merged = MergeSweeps({shards});
  ASSERT_EQ(merged.size(), 1u);
  proto::SweepResult a = *whole, b = merged[0];
  a.clear_seconds();
  b.clear_seconds();
  EXPECT_EQ(a.mismatches(), 4u * 63u);  // every code but 0 at each of four scale bytes
  EXPECT_EQ(b.mismatch_expected_size(), 8 * 32);
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString()) << a.DebugString() << b.DebugString();
}

// What an element sweep refuses, each naming the fix.
TEST(ElementSweep, RefusesWhatTheRowDoesNotHave) {
  Sim sim(1);
  SweepSpec spec;
  spec.ctx = Ctx("gfx950", Instr::v_cvt_scalef32_pk32_f32_fp6);
  spec.first = 0;
  spec.last = 64;
  auto src0 = RunSweep(spec, sim.runners, nullptr);  // a src0 sweep of a tuple row
  ASSERT_FALSE(src0.ok());
  EXPECT_NE(src0.status().message().find("--element"), absl::string_view::npos);
  spec.swept = SweptOperand::kElement;
  spec.tuple_src = 1;  // the scale: one dword
  EXPECT_FALSE(RunSweep(spec, sim.runners, nullptr).ok());
  spec.tuple_src = 0;
  spec.element = 32;
  auto past = RunSweep(spec, sim.runners, nullptr);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("0..31"), absl::string_view::npos);
  spec.element = 0;
  spec.last = 64 * 256 + 1;
  EXPECT_FALSE(RunSweep(spec, sim.runners, nullptr).ok());
  spec.last = 64;
  spec.base = {1, 2, 3};
  EXPECT_FALSE(RunSweep(spec, sim.runners, nullptr).ok());
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

// What a row's sweep walks is decided once (RowSweptOperand) and is what RunSweep takes: a seed
// only where the seed's width is known, so `targets --json` never promises a seed sweep that
// the command turns into 2^32 src0 (a tuple row's element, seed or not). By hand: v_cvt_sr_fp8_f32 drops 20 f32 fraction bits to
// E4M3 (docs/semantics.md §6), its seed; v_cvt_sr_f16_f32 writes an f16, no 8-bit format, so
// src0; v_cvt_scalef32_pk32_f32_fp6 reads a 6-dword tuple, an element; v_cvt_pk_u8_f32, src0.
TEST(RowSweptOperand, IsWhatTheSweepTakes) {
  EXPECT_EQ(RowSweptOperand(Instr::v_cvt_sr_fp8_f32), SweptOperand::kSeed);
  EXPECT_EQ(RowSweptOperand(Instr::v_cvt_sr_f16_f32), SweptOperand::kSrc0);
  EXPECT_EQ(RowSweptOperand(Instr::v_cvt_scalef32_pk32_f32_fp6), SweptOperand::kElement);
  EXPECT_EQ(RowSweptOperand(Instr::v_cvt_pk_u8_f32), SweptOperand::kSrc0);
  EXPECT_STREQ(SweptOperandName(SweptOperand::kSeed), "seed");
  Sim sim(1);
  for (Instr instr : kAllInstrs) {
    const SweptOperand kind = RowSweptOperand(instr);
    for (const TargetTraits& t : AllTargets()) {
      if (!t.Has(instr)) continue;
      SweepSpec spec;
      spec.ctx.target = &t;
      spec.ctx.instr = instr;
      spec.swept = kind;
      spec.src0 = 0x3f800000;
      spec.first = 0;
      spec.last = 4;
      spec.oracle = OracleCheck::kOff;
      // A tuple row sweeps an element even when it takes a seed (gfx1250's 8-wide SR encoders
      // to fp8/bf8 have a seed width: element 0's).
      const bool tuple = FirstTupleSource(GetInstrInfo(instr)) >= 0;
      EXPECT_EQ(SeedBits(spec.ctx) > 0 && !tuple, kind == SweptOperand::kSeed) << InstrName(instr);
      auto r = RunSweep(spec, sim.runners, nullptr);
      EXPECT_TRUE(r.ok()) << InstrName(instr) << " on " << t.name << ": " << r.status();
    }
  }
}

}  // namespace
}  // namespace lanediff
