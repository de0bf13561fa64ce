#include "fuzz/engine/campaign_record.h"

#include "gtest/gtest.h"

namespace lanediff {
namespace {

proto::StatsSample At(double seconds, uint64_t lanes) {
  proto::StatsSample s;
  s.set_seconds(seconds);
  s.set_lanes(lanes);
  return s;
}

TEST(CoverageTally, SumsPerCellAndBoundsTheCells) {
  CoverageTally t;
  t.Add("gfx950", proto::v_cvt_sr_fp8_f32, "plain", "nearest_even", 1024);
  t.Add("gfx950", proto::v_cvt_sr_fp8_f32, "plain", "nearest_even", 1024);
  t.Add("gfx950", proto::v_cvt_sr_fp8_f32, "plain", "toward_zero", 16);
  ASSERT_EQ(t.size(), 2u);
  const std::vector<proto::CoverageCell> cells = t.Cells();
  EXPECT_EQ(cells[0].mode_class(), "nearest_even");
  EXPECT_EQ(cells[0].lanes(), 2048u);
  EXPECT_EQ(cells[0].cases(), 2u);
  EXPECT_EQ(cells[1].lanes(), 16u);
  // Past kMaxCoverageCells, a new shape lands in kOtherShapes (one more cell per target x
  // instruction x MODE class), and nothing is lost from the lane total.
  for (size_t i = 0; i < kMaxCoverageCells + 10; ++i) {
    t.Add("gfx942", proto::v_cvt_pk_u8_f32, "opsel" + std::to_string(i), "nearest_even", 1);
  }
  EXPECT_EQ(t.size(), kMaxCoverageCells + 1);
  uint64_t lanes = 0;
  for (const proto::CoverageCell& c : t.Cells()) lanes += c.lanes();
  EXPECT_EQ(lanes, 2048u + 16u + kMaxCoverageCells + 10);
}

TEST(Timeline, KeepsAtMostTheBoundAndTheFinalPoint) {
  Timeline t;
  // One offer every 0.25 s for 1000 s: 4000 offers.
  for (int i = 0; i <= 4000; ++i) t.Offer(At(i * 0.25, i));
  EXPECT_LE(t.samples().size(), kMaxTimelineSamples);
  EXPECT_GE(t.samples().size(), kMaxTimelineSamples / 2);
  EXPECT_EQ(t.samples().front().seconds(), 0);
  for (size_t i = 1; i < t.samples().size(); ++i) {
    EXPECT_GT(t.samples()[i].seconds(), t.samples()[i - 1].seconds());
  }
  t.Close(At(1000.1, 4001));
  EXPECT_EQ(t.samples().back().lanes(), 4001u);
  EXPECT_LE(t.samples().size(), kMaxTimelineSamples + 1);
}

TEST(Timeline, WantsWhatOfferKeeps) {
  Timeline t;
  EXPECT_TRUE(t.Wants(0.0));  // the first offer is always kept
  t.Offer(At(0.0, 1));
  EXPECT_FALSE(t.Wants(0.5));  // spacing 1 s at first
  EXPECT_TRUE(t.Wants(1.0));
  t.Offer(At(0.5, 2));
  EXPECT_EQ(t.samples().size(), 1u);
}

}  // namespace
}  // namespace lanediff
