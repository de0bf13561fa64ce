#include "fuzz/triage/minimize.h"

#include <vector>

#include "gtest/gtest.h"

namespace lanediff {
namespace {

proto::TestCase Batch(int n) {
  proto::TestCase tc;
  tc.set_target("gfx942");
  tc.set_instr(proto::v_cvt_sr_fp8_f32);
  for (int i = 0; i < n; ++i) {
    proto::Lane* l = tc.add_lanes();
    l->set_src0(0x3f800000);  // 1.0
    l->set_src1(0x12345678 + i);
    l->set_src2(0xa5a5a5a5);
    l->set_vdst_old(0xdeadbeef);
  }
  return tc;
}

bool AnyNan(const proto::TestCase& tc) {
  for (const auto& l : tc.lanes()) {
    if (IsF32Nan(l.src0())) return true;
  }
  return false;
}

TEST(Minimize, ShrinksToOneLaneAndTheCanonicalNan) {
  proto::TestCase tc = Batch(100);
  tc.mutable_lanes(37)->set_src0(0xffc12345);  // a negative NaN with a payload
  MinimizeStats stats;
  auto r = Minimize(tc, [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); },
                    {}, &stats);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->lanes_size(), 1);
  EXPECT_EQ(r->lanes(0).src0(), kCanonicalNan);
  // Fields the predicate ignores become 0.
  EXPECT_EQ(r->lanes(0).src1(), 0u);
  EXPECT_EQ(r->lanes(0).src2(), 0u);
  EXPECT_EQ(r->lanes(0).vdst_old(), 0u);
  EXPECT_LT(stats.calls, 200);
}

TEST(Minimize, HintedLaneIsTriedFirst) {
  proto::TestCase tc = Batch(1000);
  tc.mutable_lanes(999)->set_src0(0x7f800001);
  MinimizeStats stats;
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); };
  auto r = Minimize(tc, pred, {.hint_lanes = {999}}, &stats);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lanes_size(), 1);
}

TEST(Minimize, FewestModifierAndModeBitsAndSmallestValue) {
  proto::TestCase tc = Batch(4);
  tc.mutable_lanes(2)->set_src0(0xc0490fdb);  // -3.14159
  proto::Encoding* e = tc.mutable_encoding();
  e->set_neg(7);
  e->set_abs(5);
  e->set_omod(3);
  e->set_clamp(true);
  e->set_opsel(0b1101);
  tc.set_mode(0x008000f3);
  // Disagrees when NEG[1] is set, a lane's src0 is negative and MODE rounds toward zero.
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> {
    if (!(c.encoding().neg() & 2)) return false;
    if (!c.has_mode() || (c.mode() & 3) != 3) return false;
    for (const auto& l : c.lanes()) {
      if (l.src0() & 0x80000000u) return true;
    }
    return false;
  };
  auto r = Minimize(tc, pred);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->lanes_size(), 1);
  EXPECT_EQ(r->lanes(0).src0(), 0x80000000u);  // only the sign bit: -0
  EXPECT_EQ(r->encoding().neg(), 2u);
  EXPECT_EQ(r->encoding().abs(), 0u);
  EXPECT_EQ(r->encoding().omod(), 0u);
  EXPECT_EQ(r->encoding().opsel(), 0u);
  EXPECT_FALSE(r->encoding().clamp());
  EXPECT_EQ(r->mode(), 0x000000f3u);  // FP16_OVFL dropped, denormal bits back to default
}

TEST(Minimize, DeterministicAndRefusesNonFailingInput) {
  proto::TestCase tc = Batch(50);
  tc.mutable_lanes(10)->set_src0(0x7fa00001);
  tc.mutable_lanes(30)->set_src0(0xffffffff);
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); };
  auto a = Minimize(tc, pred), b = Minimize(tc, pred);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->SerializeAsString(), b->SerializeAsString());
  auto none = Minimize(Batch(3), pred);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Minimize, SourceKindsGoBackToVgprs) {
  proto::TestCase tc = Batch(1);
  tc.mutable_lanes(0)->set_src0(0x7fc00000);
  tc.mutable_encoding()->mutable_src1()->set_kind(proto::SOURCE_SGPR);
  tc.mutable_encoding()->mutable_src1()->set_value(0xffffffff);
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); };
  auto r = Minimize(tc, pred);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->encoding().src1().kind(), proto::SOURCE_VGPR);
}

// A batched predicate that answers like AnyNan and counts its calls (each a device call for a
// caller that runs its list as one batch).
struct CountingNan {
  int calls = 0;
  std::vector<size_t> sizes;
  StillFailsBatch Pred() {
    return [this](const std::vector<proto::TestCase>& cands) {
      ++calls;
      sizes.push_back(cands.size());
      std::vector<absl::StatusOr<bool>> out;
      for (const proto::TestCase& c : cands) out.push_back(AnyNan(c));
      return out;
    };
  }
};

TEST(Minimize, AsksInFewCalls) {
  proto::TestCase tc = Batch(100);
  tc.mutable_lanes(37)->set_src0(0xffc12345);
  CountingNan n;
  MinimizeStats stats;
  auto r = Minimize(tc, n.Pred(), {.hint_lanes = {37}}, &stats);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->lanes_size(), 1);
  EXPECT_EQ(r->lanes(0).src0(), kCanonicalNan);
  EXPECT_EQ(r->lanes(0).src1(), 0u);
  EXPECT_EQ(r->lanes(0).src2(), 0u);
  EXPECT_EQ(r->lanes(0).vdst_old(), 0u);
  // By hand: (1) the case, lane 37 alone and lanes 0..63 but 37 alone: 65 candidates, lane 37
  // taken. (2) Each word's replacements (src0: 0, canonical NaN, its negative, low runs
  // cleared; the others 0 and their low runs), with the bit clears of the lane as it is: src0
  // gets the canonical NaN, the rest 0. (3) The four chosen edits as prefixes 2..4, with the
  // bit clears of the result (0x7fc00000: each clear leaves no NaN). The bit-clear phase is
  // then answered already, and no source, modifier or MODE is spelled out: 3 calls.
  EXPECT_EQ(n.calls, 3);
  EXPECT_EQ(stats.batches, 3);
  ASSERT_FALSE(n.sizes.empty());
  EXPECT_EQ(n.sizes[0], 65u);
}

TEST(Minimize, FoldsNegOnlyIntoTheSourceThatNeedsIt) {
  proto::TestCase tc = Batch(1);
  tc.mutable_lanes(0)->set_src0(0x3f800000);  // 1.0, read as -1.0 under NEG[0]
  tc.mutable_encoding()->set_neg(7);
  // Disagrees when the value src0 reads (NEG[0] applied) is negative.
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> {
    const uint32_t read = c.lanes(0).src0() ^ ((c.encoding().neg() & 1u) ? 0x80000000u : 0u);
    return (read & 0x80000000u) != 0;
  };
  auto r = Minimize(tc, pred);
  ASSERT_TRUE(r.ok()) << r.status();
  // Values first (NEG still set): src0 0 reads -0 and still fails; src1, src2, vdst_old 0.
  // Then every NEG bit cleared: src0 0 reads +0 (no); folded into src0 alone: 0x80000000
  // (yes), src1 and src2 left 0.
  EXPECT_EQ(r->encoding().neg(), 0u);
  EXPECT_EQ(r->lanes(0).src0(), 0x80000000u);
  EXPECT_EQ(r->lanes(0).src1(), 0u);
  EXPECT_EQ(r->lanes(0).src2(), 0u);
}

TEST(Minimize, PositionDependentAnswersAreAskedOneCandidateABatch) {
  // A device whose last lane of every batch answers wrong, run on every candidate of a call
  // as one batch: only the candidate that holds the batch's last lane fails.
  auto last_lane = [](const std::vector<proto::TestCase>& cands) {
    int total = 0;
    for (const proto::TestCase& c : cands) total += c.lanes_size();
    std::vector<absl::StatusOr<bool>> out;
    int at = 0;
    for (const proto::TestCase& c : cands) {
      at += c.lanes_size();
      out.push_back(at == total);
    }
    return out;
  };
  proto::TestCase tc = Batch(16);
  MinimizeStats stats;
  auto r = Minimize(tc, StillFailsBatch(last_lane), {.hint_lanes = {15}}, &stats);
  ASSERT_TRUE(r.ok()) << r.status();
  // The first call: the case (16 lanes), lane 15 alone, then lanes 0..14 alone; the batch's
  // last lane is lane 14's, so neither the case nor the hinted lane fails there. The case
  // asked alone fails (its last lane is its own): from then on one candidate a call, where
  // every one-lane batch fails (its only lane is its last). So lane 15 alone, every word 0.
  ASSERT_EQ(r->lanes_size(), 1);
  EXPECT_EQ(r->lanes(0).src0(), 0u);
  EXPECT_EQ(r->lanes(0).src1(), 0u);
  EXPECT_EQ(r->lanes(0).src2(), 0u);
  EXPECT_EQ(r->lanes(0).vdst_old(), 0u);
  // After the first call (17 candidates) one candidate a call, the case asked again among them.
  EXPECT_EQ(stats.batches, stats.calls - 16);
}

}  // namespace
}  // namespace lanediff
