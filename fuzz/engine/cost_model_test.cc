// The cost model's arithmetic on round numbers, derived by hand beside each expectation.
#include "fuzz/engine/cost_model.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

GpuSpec RoundGpu() {
  GpuSpec g;
  g.name = "round";
  g.compute_units = 100;
  g.clock_hz = 1e9;
  g.hbm_bytes_per_s = 2e12;
  g.link_bytes_per_s = 16e9;
  return g;
}

TEST(CostModelTest, TheLinkBoundsAFastHost) {
  CostInputs in;
  in.gpu = RoundGpu();
  in.link_efficiency = 1;
  in.launch_overhead_s = 0;
  in.module_load_s = 0;
  in.round_lanes = 1e6;
  in.launches_per_round = 1;
  in.host_ns_per_lane = 1;  // 1e9 lanes/s per core
  in.cores = 64;
  CostEstimate e = EstimateCost(in);
  // h2d: 1e6 x 16 B / 16e9 B/s = 1 ms; d2h: 4 B -> 0.25 ms;
  // kernel: HBM 1e6 x 20 / 2e12 = 10 us; VALU (1e6 / 64) x 7 x 4 / (100 x 4 x 1e9) = 1.09 us.
  EXPECT_DOUBLE_EQ(e.h2d_s_per_round, 1e-3);
  EXPECT_DOUBLE_EQ(e.d2h_s_per_round, 0.25e-3);
  EXPECT_DOUBLE_EQ(e.kernel_s_per_round, 10e-6);
  // One launch: nothing overlaps, busy = 1 + 0.25 + 0.01 ms = 1.26 ms.
  EXPECT_NEAR(e.gpu_busy_s_per_round, 1.26e-3, 1e-12);
  EXPECT_NEAR(e.gpu_lanes_per_second, 1e6 / 1.26e-3, 1e-3);
  EXPECT_NEAR(e.host_lanes_per_second, 64e9, 1);
  EXPECT_EQ(e.total_lanes_per_second, e.gpu_lanes_per_second);
  EXPECT_THAT(e.bound, ::testing::HasSubstr("host-to-device"));

  // Four launches in flight: busy = 1 ms + (0.26 ms) / 4 = 1.065 ms.
  in.launches_per_round = 4;
  EXPECT_NEAR(EstimateCost(in).gpu_busy_s_per_round, 1.065e-3, 1e-12);
}

TEST(CostModelTest, ASlowHostBoundsAndOverheadsAdd) {
  CostInputs in;
  in.gpu = RoundGpu();
  in.link_efficiency = 0.5;        // link 8e9 B/s
  in.launch_overhead_s = 10e-6;
  in.module_load_s = 1e-3;
  in.round_lanes = 262144;
  in.launches_per_round = 4;
  in.module_loads_per_round = 1;
  in.host_ns_per_lane = 90;
  in.isolation_ns_per_lane = 10;   // 100 ns a lane: 10 M lanes/s per core
  in.cores = 2;
  CostEstimate e = EstimateCost(in);
  // h2d 262144 x 16 / 8e9 = 524.288 us; d2h 131.072 us; kernel 262144 x 20 / 2e12 = 2.62144 us.
  // busy = 524.288 + (131.072 + 2.62144) / 4 + 40 + 1000 = 1597.71136 us.
  EXPECT_NEAR(e.gpu_busy_s_per_round, 1597.71136e-6, 1e-12);
  EXPECT_NEAR(e.host_lanes_per_second, 20e6, 1e-6);
  EXPECT_EQ(e.total_lanes_per_second, e.host_lanes_per_second);
  EXPECT_THAT(e.bound, ::testing::HasSubstr("host: 2 cores x 10.0 M lanes/CPU-s"));
  // One job: 262144 x 100 ns = 26.2144 ms of host, then the GPU's 1.59771136 ms.
  EXPECT_NEAR(e.job_lanes_per_second, 262144 / (26.2144e-3 + 1597.71136e-6), 1e-6);

  // Many cores: the GPU bounds, and of its 1597.7 us a round, 1000 us are the module load.
  in.cores = 4096;
  EXPECT_THAT(EstimateCost(in).bound, ::testing::HasSubstr("GPU: module loads"));
}

TEST(CostModelTest, KnownGpusAreNamedAndOthersRefused) {
  absl::StatusOr<GpuSpec> g = FindGpuSpec("mi300x");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->compute_units, 304);  // AMD's MI300X product page
  EXPECT_NEAR(g->link_bytes_per_s, 63.015e9, 0.001e9);  // 32 GT/s x 16 x 128/130 / 8
  EXPECT_FALSE(FindGpuSpec("h100").ok());
  EXPECT_THAT(std::string(FindGpuSpec("h100").status().message()), ::testing::HasSubstr("known: mi300x"));
}

}  // namespace
}  // namespace lanediff
