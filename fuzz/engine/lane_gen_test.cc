// AimLanes (fuzz/engine/lane_gen.h): every lane it says it aimed separates some alternative
// hypothesis under the case it entered with, and the aim tables stay within their bounds.
// "Separates" is checked here lane by lane with the model's Evaluate, independently of
// AimLanes' chunked evaluation: for each alternative value of each hypothesis, one lane.
#include "fuzz/engine/lane_gen.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz/engine/mutator.h"
#include "gtest/gtest.h"
#include "device_harness/resolve_case.h"
#include "model/isa/resolve.h"

namespace lanediff {
namespace {

// True if some single alternative hypothesis value changes lane i's answer under `header`.
bool Separates(const proto::TestCase& header, const LaneBatch& lanes, size_t i) {
  LaneRouting routing;
  absl::StatusOr<ResolvedCase> rc = ResolveHeader(header, &routing);
  if (!rc.ok()) return false;
  LaneBatch one, uniform;
  one.Add(lanes.view().src0[i], lanes.view().src1[i], lanes.view().src2[i], lanes.view().vdst_old[i]);
  const LaneView v = ResolveLanes(routing, one.view(), &uniform);
  uint32_t base = 0, alt = 0;
  if (!Evaluate(rc->ctx, v, absl::MakeSpan(&base, 1)).ok()) return false;
  for (const HypothesisInfo& h : AllHypotheses()) {
    for (size_t k = 0; k < h.values.size(); ++k) {
      if (k == h.get(Hypotheses{})) continue;
      OpContext ctx = rc->ctx;
      h.set(&ctx.hyp, static_cast<uint8_t>(k));
      if (Evaluate(ctx, v, absl::MakeSpan(&alt, 1)).ok() && alt != base) return true;
    }
  }
  return false;
}

// A case for v_cvt_sr_fp8_f32 whose lanes can separate (every source a VGPR in practice:
// the generator is drawn until AimLanes without tables aims some lanes).
FlatCase SrCase(Rng& rng, size_t lanes) {
  MutatorConfig config;
  config.instrs = {*ParseInstr("v_cvt_sr_fp8_f32")};
  config.targets = {"gfx950"};
  config.min_lanes = config.max_lanes = lanes;
  config.exotic_per_256 = 0;  // VGPR sources, default MODE
  Mutator m(config);
  return m.GenerateFlat(rng);
}

// The pools behind LaneGen::Fill (LanePools): shares by weight, every table value reachable.
TEST(LanePools, Src0HoldsEveryBoundaryOfItsFormatAndAnEighthRandomWords) {
  Rng rng(21);
  const FlatCase c = SrCase(rng, 1);  // v_cvt_sr_fp8_f32 on gfx950
  const LaneGen gen(c.header);
  const WordPool& p = gen.Pools().word[0];
  ASSERT_EQ(p.entries.size(), size_t{1} << p.bits);
  size_t random_words = 0;
  std::vector<uint32_t> fixed;
  for (uint64_t e : p.entries) {
    if ((e >> 32) == 0xffffffffu) ++random_words;
    if ((e >> 32) == 0) fixed.push_back(static_cast<uint32_t>(e));
  }
  // Src0's choices in 1/32: specials 4, any 32 bits 4, exponent range 4, table 15 + 5; the
  // pool is a power of two >= 256, so the "any 32 bits" share is exactly an eighth.
  EXPECT_EQ(random_words, p.entries.size() / 8);
  const auto* table = static_cast<const std::vector<uint32_t>*>(gen.Key().fp8_table);
  ASSERT_NE(table, nullptr) << "v_cvt_sr_fp8_f32 writes an 8-bit float";
  for (uint32_t v : *table) {
    EXPECT_NE(std::find(fixed.begin(), fixed.end(), v), fixed.end()) << std::hex << v;
  }
  for (uint32_t v : SpecialF32Table()) {
    EXPECT_NE(std::find(fixed.begin(), fixed.end(), v), fixed.end()) << std::hex << v;
  }
}

TEST(LanePools, FillTakesOneRandomNumberAndKeepsS1ByteSelectsHalfTheTime) {
  MutatorConfig config;
  config.instrs = {*ParseInstr("v_cvt_pk_u8_f32")};
  config.targets = {"gfx942"};
  config.min_lanes = config.max_lanes = 1;
  config.exotic_per_256 = 0;
  Rng rng(22);
  const FlatCase c = Mutator(config).GenerateFlat(rng);
  const LaneGen gen(c.header);
  Rng expected = rng;
  expected.Next();  // Fill draws one number, whatever the lane count
  LaneBatch lanes;
  gen.Fill(rng, &lanes, 65536);
  EXPECT_EQ(rng.Next(), expected.Next());
  // pk_u8's S1 (LaneGen::Src1 without a seed): half the lanes exactly k in 0..3, half random
  // above bit 1 (which is below 4 with probability 2^-30): 32768 expected, sd 128.
  size_t small = 0;
  for (uint32_t s1 : lanes.src1()) small += s1 < 4;
  EXPECT_GT(small, 32768u - 1000u);
  EXPECT_LT(small, 32768u + 1000u);
}

// A tuple of 32 packed 16-bit floats as S0 (SrcRole::f16x2_x16 / bf16x2_x16), or gfx1250's 16
// (f16x2_x8 / bf16x2_x8; the rows are taken from the table, each on gfx950 or else gfx1250): per
// lane, a quarter copy dword 0 into every dword; of the other lanes' dwords 1..n-1 a quarter
// hold two FP6/BF6 edge values (LaneGen::FillPk16TupleDwords), the rest words of S0's packed
// 16-bit pool, among them its specials. 4,096 lanes: 1,024 copies expected (sd 28), and of the
// 46,080 dwords (16-dword tuples; 21,504 of 8-dword ones) of the 3,072 others 11,520 edge pairs
// (sd 93; 5,376, sd 64).
TEST(LanePools, Packed16TupleDwordsDrawEdgesAndPoolWords) {
  // The edge values by hand: FP6 E2M3 7.5, 7.75, 8, 0.125, 0.0625, 0.1875 and BF6 E3M2 28, 30,
  // 32, 0.03125, 0.09375 as f16 (7.5 = 2^2 * 1.875: exponent 17, fraction 0x380 -> 0x4780) and as
  // bf16 (7.5: exponent 129, fraction 0x70 -> 0x40f0), both signs.
  const std::vector<uint32_t> f16 = {0x4780, 0x47c0, 0x4800, 0x3000, 0x2c00, 0x3200,
                                     0x4f00, 0x4f80, 0x5000, 0x2800, 0x2e00};
  const std::vector<uint32_t> bf16 = {0x40f0, 0x40f8, 0x4100, 0x3e00, 0x3d80, 0x3e40,
                                      0x41e0, 0x41f0, 0x4200, 0x3d00, 0x3dc0};
  int rows = 0;
  for (Instr instr : kAllInstrs) {
    // The FP6/BF6 encoders' packed tuples (gfx1250's 8-wide encoders' 4-dword ones draw no FP6
    // edges).
    const InstrInfo& row = GetInstrInfo(instr);
    if (!IsPacked16Tuple(row.src[0]) || row.output != OutputKind::fp6) continue;
    ++rows;
    MutatorConfig config;
    config.instrs = {instr};
    config.targets = {(*FindTarget("gfx950"))->Has(instr) ? "gfx950" : "gfx1250"};
    config.min_lanes = config.max_lanes = 1;
    config.exotic_per_256 = 0;
    Rng rng(23);
    const FlatCase c = Mutator(config).GenerateFlat(rng);
    const LaneGen gen(c.header);
    LaneBatch lanes;
    lanes.SetShape(GetInstrInfo(instr).lane_shape());
    gen.Fill(rng, &lanes, 4096);
    const std::vector<uint32_t>& edges = IsPackedF16(GetInstrInfo(instr).src[0]) ? f16 : bf16;
    auto edge = [&](uint32_t h) {
      return std::find(edges.begin(), edges.end(), h & 0x7fffu) != edges.end();
    };
    const uint32_t inf = IsPackedF16(GetInstrInfo(instr).src[0]) ? 0x7c00u : 0x7f80u;
    size_t copies = 0, edge_pairs = 0, others = 0, infinities = 0;
    const uint32_t* s0 = lanes.src0().data();
    const int n = GetInstrInfo(instr).src_dwords(0);
    for (size_t i = 0; i < 4096; ++i) {
      const uint32_t* d = s0 + n * i;
      if (std::all_of(d + 1, d + n, [&](uint32_t w) { return w == d[0]; })) {
        ++copies;
        continue;
      }
      for (int k = 1; k < n; ++k) {
        ++others;
        edge_pairs += edge(d[k]) && edge(d[k] >> 16);
        infinities += (d[k] & 0x7fffu) == inf || ((d[k] >> 16) & 0x7fffu) == inf;
      }
    }
    EXPECT_GT(copies, 900u) << InstrName(instr);
    EXPECT_LT(copies, 1150u) << InstrName(instr);
    EXPECT_GT(edge_pairs, others / 4 - 500) << InstrName(instr);
    EXPECT_LT(edge_pairs, others / 4 + 500) << InstrName(instr);
    EXPECT_GT(infinities, 0u) << InstrName(instr);
  }
  // gfx950's four RNE FP6/BF6 encoders from 16-bit floats, their four SR twins, and gfx1250's
  // four of 16 elements and their four SR twins.
  EXPECT_EQ(rows, 16);
}

TEST(AimLanes, WithoutScratchEveryAimedLaneSeparates) {
  Rng rng(11);
  FlatCase c = SrCase(rng, 256);
  const size_t aimed = AimLanes(rng, Hypotheses{}, &c);
  ASSERT_GT(aimed, 0u) << "no lane of 1024 candidates separates: the test case is wrong";
  for (size_t i = 0; i < aimed; ++i) EXPECT_TRUE(Separates(c.header, c.lanes, i)) << "lane " << i;
}

TEST(AimLanes, WarmTableLanesSeparateUnderTheCaseTheyCameFrom) {
  // Every case shares one header, so every table lane entered under this very case: all lanes
  // of all aimed cases must separate, the cold ones (4n candidates) and the warm ones (n/16
  // fresh candidates, the rest from the table).
  Rng rng(12);
  const FlatCase first = SrCase(rng, 512);
  AimScratch scratch;
  size_t warm_calls = 0;
  for (int round = 0; round < 12; ++round) {
    FlatCase c = first;
    const bool was_warm = !scratch.tables.empty() && scratch.tables.begin()->second.size() >= kAimWarmLanes;
    const size_t aimed = AimLanes(rng, Hypotheses{}, &c, &scratch);
    ASSERT_EQ(scratch.tables.size(), 1u);
    EXPECT_LE(scratch.tables.begin()->second.size(), kAimTableLanes);
    if (was_warm) {
      ++warm_calls;
      EXPECT_EQ(aimed, c.size()) << "a warm table aims every lane";
    }
    for (size_t i = 0; i < aimed; ++i) {
      ASSERT_TRUE(Separates(c.header, c.lanes, i)) << "round " << round << " lane " << i;
    }
  }
  EXPECT_GT(warm_calls, 0u) << "the table never warmed: the test does not test the warm path";
}

TEST(AimLanes, TablesAreBoundedAndKeyedByGenerator) {
  // Different instructions are different tables; never more than kMaxAimTables.
  Rng rng(13);
  AimScratch scratch;
  MutatorConfig config;
  config.min_lanes = config.max_lanes = 64;
  Mutator m(config);
  for (int i = 0; i < 400; ++i) {
    FlatCase c = m.GenerateFlat(rng);
    AimLanes(rng, Hypotheses{}, &c, &scratch);
  }
  EXPECT_GT(scratch.tables.size(), 1u);
  EXPECT_LE(scratch.tables.size(), kMaxAimTables);
  for (const auto& [key, table] : scratch.tables) EXPECT_LE(table.size(), kAimTableLanes);
}

}  // namespace
}  // namespace lanediff
