// The grouping step: which cases share a launch, and that every case gets back exactly its
// own lanes' answers. Expected groupings are derived by hand from the batches built here.
#include "fuzz/engine/launch_group.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

using ::testing::ElementsAre;

// A batch of n lanes whose vdst_old words are first, first + 1, ... (so a split is checkable).
DeviceBatch Batch(uint32_t word0, uint32_t mode, size_t n, uint32_t first) {
  DeviceBatch b;
  b.target = *FindTarget("gfx942");
  b.words = {word0, 0x040e0501u};
  b.mode = mode;
  for (size_t i = 0; i < n; ++i) b.lanes.Add(1, 2, 3, first + static_cast<uint32_t>(i));
  return b;
}

TEST(LaunchGroupTest, CasesSharingTheLaunchAreOneBatchInOrder) {
  std::vector<DeviceBatch> in;
  in.push_back(Batch(0xd1dd0004, 0xf0, 3, 100));  // 0: A
  in.push_back(Batch(0xd1dd0004, 0xf1, 2, 200));  // 1: A's word, another MODE: another launch
  in.push_back(Batch(0xd2a40004, 0xf0, 1, 300));  // 2: another word
  in.push_back(Batch(0xd1dd0004, 0xf0, 2, 400));  // 3: A again
  DeviceBatch sg = Batch(0xd1dd0004, 0xf0, 1, 500);
  sg.sgpr_values[1] = 7;                           // 4: A's word and MODE, other SGPR values
  in.push_back(sg);
  std::vector<LaunchGroup> g = GroupLaunches(std::move(in), 1 << 20);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_THAT(g[0].cases, ElementsAre(0, 3));
  EXPECT_THAT(g[0].offset, ElementsAre(0, 3, 5));
  EXPECT_THAT(g[0].batch.lanes.vdst_old(), ElementsAre(100, 101, 102, 400, 401));
  EXPECT_EQ(g[0].batch.mode, 0xf0u);
  EXPECT_THAT(g[1].cases, ElementsAre(1));
  EXPECT_THAT(g[2].cases, ElementsAre(2));
  EXPECT_THAT(g[3].cases, ElementsAre(4));
}

TEST(LaunchGroupTest, HeadersAndLanesApartGroupAlike) {
  // The same five cases as above, given as headers without lanes plus each case's lanes: the
  // same groups, offsets and lanes (in each group, its cases' lanes one after the other).
  std::vector<DeviceBatch> full;
  full.push_back(Batch(0xd1dd0004, 0xf0, 3, 100));
  full.push_back(Batch(0xd1dd0004, 0xf1, 2, 200));
  full.push_back(Batch(0xd2a40004, 0xf0, 1, 300));
  full.push_back(Batch(0xd1dd0004, 0xf0, 2, 400));
  full.push_back(Batch(0xd1dd0004, 0xf0, 1, 500));
  full[4].sgpr_values[1] = 7;
  std::vector<DeviceBatch> headers;
  std::vector<LaneView> lanes;
  for (const DeviceBatch& b : full) {
    DeviceBatch h = b;
    h.lanes.Clear();
    headers.push_back(h);
    lanes.push_back(b.lanes.view());
  }
  std::vector<LaunchGroup> g = GroupLaunches(std::move(headers), lanes, 1 << 20);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_THAT(g[0].cases, ElementsAre(0, 3));
  EXPECT_THAT(g[0].offset, ElementsAre(0, 3, 5));
  EXPECT_THAT(g[0].batch.lanes.vdst_old(), ElementsAre(100, 101, 102, 400, 401));
  EXPECT_THAT(g[0].batch.lanes.src2(), ElementsAre(3, 3, 3, 3, 3));
  EXPECT_EQ(g[0].batch.mode, 0xf0u);
  EXPECT_THAT(g[1].cases, ElementsAre(1));
  EXPECT_THAT(g[1].batch.lanes.vdst_old(), ElementsAre(200, 201));
  EXPECT_THAT(g[2].cases, ElementsAre(2));
  EXPECT_THAT(g[3].cases, ElementsAre(4));
  EXPECT_THAT(g[3].batch.lanes.vdst_old(), ElementsAre(500));
  // The lane limit holds as above: 4 lanes each, at most 10 per group.
  std::vector<DeviceBatch> h5;
  std::vector<DeviceBatch> keep;
  std::vector<LaneView> l5;
  for (uint32_t i = 0; i < 5; ++i) keep.push_back(Batch(0xd1dd0004, 0xf0, 4, 10 * i));
  for (const DeviceBatch& b : keep) {
    h5.push_back(b);
    h5.back().lanes.Clear();
    l5.push_back(b.lanes.view());
  }
  std::vector<LaunchGroup> g5 = GroupLaunches(std::move(h5), l5, 10);
  ASSERT_EQ(g5.size(), 3u);
  EXPECT_THAT(g5[0].cases, ElementsAre(0, 1));
  EXPECT_THAT(g5[0].batch.lanes.vdst_old(), ElementsAre(0, 1, 2, 3, 10, 11, 12, 13));
  EXPECT_THAT(g5[2].cases, ElementsAre(4));
}

TEST(LaunchGroupTest, AGroupStopsAtTheLaneLimit) {
  std::vector<DeviceBatch> in;
  for (uint32_t i = 0; i < 5; ++i) in.push_back(Batch(0xd1dd0004, 0xf0, 4, 10 * i));
  // 4 lanes each, at most 10 per group: cases 0+1 (8), 2+3 (8), 4.
  std::vector<LaunchGroup> g = GroupLaunches(std::move(in), 10);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_THAT(g[0].cases, ElementsAre(0, 1));
  EXPECT_THAT(g[1].cases, ElementsAre(2, 3));
  EXPECT_THAT(g[2].cases, ElementsAre(4));
}

TEST(LaunchGroupTest, TheResultIsSplitBackPerCase) {
  std::vector<DeviceBatch> in;
  in.push_back(Batch(0xd1dd0004, 0xf0, 2, 10));
  in.push_back(Batch(0xd1dd0004, 0xf0, 3, 20));
  std::vector<LaunchGroup> g = GroupLaunches(std::move(in), 1 << 20);
  ASSERT_EQ(g.size(), 1u);
  DeviceResult r;
  r.vdst = {1, 2, 3, 4, 5};
  r.provenance.set_runner("hip");
  r.mode_readback = 0xf0;
  std::vector<DeviceResult> per = SplitResult(g[0], r);
  ASSERT_EQ(per.size(), 2u);
  EXPECT_THAT(per[0].vdst, ElementsAre(1, 2));
  EXPECT_THAT(per[1].vdst, ElementsAre(3, 4, 5));
  EXPECT_EQ(per[1].provenance.runner(), "hip");
  EXPECT_EQ(per[1].mode_readback, 0xf0u);
}

}  // namespace
}  // namespace lanediff
