#include "device_harness/open_runner.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/hip/hip_runner.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

TEST(OpenRunnerTest, SimAndItsOptions) {
  auto sim = OpenRunner("sim", {});
  ASSERT_TRUE(sim.ok()) << sim.status();
  EXPECT_TRUE(absl::StartsWith((*sim)->Describe(), "sim (simulation")) << (*sim)->Describe();
  RunnerOptions iso;
  iso.isolate_sim = true;
  auto isolated = OpenRunner("sim", iso);
  ASSERT_TRUE(isolated.ok()) << isolated.status();
  EXPECT_TRUE(absl::StartsWith((*isolated)->Describe(), "isolated sim")) << (*isolated)->Describe();
  RunnerOptions bad;
  bad.hypotheses = {"sr_rounding=bogus"};
  EXPECT_TRUE(absl::StrContains(OpenRunner("sim", bad).status().message(), "bogus"));
}

TEST(OpenRunnerTest, BadSpecs) {
  EXPECT_TRUE(absl::StrContains(OpenRunner("gpu", {}).status().message(),
                                "unknown --device 'gpu'; valid: auto"));
  EXPECT_TRUE(absl::StrContains(OpenRunner("hip:x", {}).status().message(), "hip:N"));
  EXPECT_TRUE(absl::StrContains(OpenRunner("exec:", {}).status().message(), "needs a command"));
  RunnerOptions inject;
  inject.inject = {"crash"};
  EXPECT_TRUE(absl::StrContains(OpenRunner("exec:cat", inject).status().message(),
                                "configure the simulator"));
}

// Without an AMD GPU (every machine here), hip fails with the runtime's words and auto falls
// back to the simulator, saying so. On a GPU machine both open the GPU.
TEST(OpenRunnerTest, HipAndAutoFollowWhatIsVisible) {
  const bool gpu = ListHipDevices().ok();
  auto hip = OpenRunner("hip", {});
  std::string note;
  auto autodev = OpenRunner("auto", {}, &note);
  ASSERT_TRUE(autodev.ok()) << autodev.status();
  if (gpu) {
    EXPECT_TRUE(hip.ok()) << hip.status();
    EXPECT_TRUE(note.empty()) << note;
    return;
  }
  ASSERT_FALSE(hip.ok());
  EXPECT_TRUE(absl::StrContains(hip.status().message(), "no AMD GPU is visible")) << hip.status();
  EXPECT_TRUE(absl::StrContains(hip.status().message(), "hipErrorNoDevice")) << hip.status();
  EXPECT_TRUE(absl::StrContains(note, "using the ISA simulator (a simulation, no hardware)")) << note;
  EXPECT_TRUE(absl::StrContains(note, "no AMD GPU is visible")) << note;
  EXPECT_TRUE(absl::StrContains((*autodev)->Describe(), "simulation")) << (*autodev)->Describe();
}

// The HIP child's start timeout scales with the GPUs the driver exposes, counted from KFD's
// topology without HIP: two GPU nodes (gpu_id != 0) and a CPU node (gpu_id 0) are 2 GPUs.
TEST(OpenRunnerTest, HipStartTimeoutScalesWithTheKfdGpuCount) {
  const std::string root = absl::StrCat(testing::TempDir(), "/lanediff_kfd_", getpid());
  for (auto [node, id] : std::vector<std::pair<const char*, const char*>>{{"0", "0"}, {"1", "4660"}, {"2", "22136"}}) {
    std::filesystem::create_directories(absl::StrCat(root, "/", node));
    std::ofstream(absl::StrCat(root, "/", node, "/gpu_id")) << id << "\n";
  }
  EXPECT_EQ(CountKfdGpus(root), 2);
  EXPECT_EQ(CountKfdGpus(root + "/missing"), 0);
  EXPECT_EQ(HipStartTimeout(0), absl::Seconds(20));
  EXPECT_EQ(HipStartTimeout(8), absl::Seconds(100));
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace lanediff
