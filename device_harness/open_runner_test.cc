#include "device_harness/open_runner.h"

#include "absl/strings/match.h"
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

}  // namespace
}  // namespace lanediff
