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

// --device=interp: the kernel interpreter with the simulator at the patch site; it takes the
// simulator's --inject and --hypothesis and isolates like it.
TEST(OpenRunnerTest, InterpAndItsOptions) {
  auto interp = OpenRunner("interp", {});
  ASSERT_TRUE(interp.ok()) << interp.status();
  EXPECT_TRUE(absl::StartsWith((*interp)->Describe(), "interp (the harness kernel interpreted, the instruction on sim"))
      << (*interp)->Describe();
  RunnerOptions iso;
  iso.isolate_sim = true;
  auto isolated = OpenRunner("interp", iso);
  ASSERT_TRUE(isolated.ok()) << isolated.status();
  EXPECT_TRUE(absl::StartsWith((*isolated)->Describe(), "isolated interp")) << (*isolated)->Describe();
  RunnerOptions bad;
  bad.hypotheses = {"sr_rounding=bogus"};
  EXPECT_TRUE(absl::StrContains(OpenRunner("interp", bad).status().message(), "bogus"));
  EXPECT_TRUE(absl::StrContains(DeviceSpecHelp(), "interp"));
}

TEST(OpenRunnerTest, BadSpecs) {
  EXPECT_TRUE(absl::StrContains(OpenRunner("gpu", {}).status().message(),
                                "unknown --device 'gpu'; valid: auto"));
  EXPECT_TRUE(absl::StrContains(OpenRunner("hip:x", {}).status().message(), "hip:N"));
  // The wave-size suffix: only wave32 and wave64, after a device index.
  for (const char* bad : {"hip:0:wave48", "hip:0:", "hip::wave64", "hip:0:wave64:x", "hip:-1:wave64"}) {
    absl::Status s = OpenRunner(bad, {}).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad << ": " << s;
    EXPECT_TRUE(absl::StrContains(s.message(), "hip:N:wave32|wave64")) << s;
  }
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
  // hip:0:wave64 is a valid spec (RDNA's wave64 code object): it gets as far as the runtime.
  auto w64 = OpenRunner("hip:0:wave64", {});
  ASSERT_FALSE(w64.ok());
  EXPECT_TRUE(absl::StrContains(w64.status().message(), "no AMD GPU is visible")) << w64.status();
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

// ChooseHipTargets: the GPUs below are made up (no GPU here); gcnArchName strings are in the
// form the HIP runtime reports them (processor, then feature flags after ':').
std::vector<HipDeviceInfo> TwoGpus() {
  HipDeviceInfo a, b;
  a.index = 0;
  a.name = "AMD Instinct MI300X";
  a.gcn_arch_name = "gfx942:sramecc+:xnack-";
  b.index = 1;
  b.name = "AMD Radeon RX 9070";
  b.gcn_arch_name = "gfx1201";
  return {a, b};
}

TEST(ChooseHipTargetsTest, NoTargetsAskedMeansTheGpuInUse) {
  auto t0 = ChooseHipTargets(TwoGpus(), 0, {});
  ASSERT_TRUE(t0.ok()) << t0.status();
  EXPECT_EQ(*t0, std::vector<std::string>{"gfx942"});  // feature flags dropped
  auto t1 = ChooseHipTargets(TwoGpus(), 1, {});
  ASSERT_TRUE(t1.ok()) << t1.status();
  EXPECT_EQ(*t1, std::vector<std::string>{"gfx1201"});
}

TEST(ChooseHipTargetsTest, AskedTargetTheGpuIsIsKept) {
  auto t = ChooseHipTargets(TwoGpus(), 0, {"gfx942"});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(*t, std::vector<std::string>{"gfx942"});
}

TEST(ChooseHipTargetsTest, AskedTargetNoGpuInUseIsIsAUsageErrorNamingTheGpus) {
  auto t = ChooseHipTargets(TwoGpus(), 0, {"gfx942", "gfx1201", "gfx90a"});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string m(t.status().message());
  EXPECT_TRUE(absl::StrContains(m, "--targets gfx1201,gfx90a: not the target")) << m;
  EXPECT_TRUE(absl::StrContains(
      m, "GPUs found: hip:0 AMD Instinct MI300X gfx942, hip:1 AMD Radeon RX 9070 gfx1201")) << m;
  EXPECT_TRUE(absl::StrContains(m, "--device=hip:1 runs gfx1201")) << m;  // the other GPU
}

TEST(ChooseHipTargetsTest, GpuLanediffCannotRunOrMissingIsTheEnvironment) {
  std::vector<HipDeviceInfo> gpus = TwoGpus();
  gpus[0].gcn_arch_name = "gfx906:sramecc+:xnack-";  // Vega 20: no lanediff target row
  auto unknown = ChooseHipTargets(gpus, 0, {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(unknown.status().message(), "is gfx906, not a target")) << unknown.status();
  auto missing = ChooseHipTargets(TwoGpus(), 2, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(missing.status().message(), "HIP device 2 does not exist")) << missing.status();
  auto none = ChooseHipTargets({}, 0, {"gfx942"});
  EXPECT_TRUE(absl::StrContains(none.status().message(), "GPUs found: none")) << none.status();
}

// Specs that are not a GPU pass --targets through untouched; hip without a GPU is the
// environment's error (the runtime's words), not a usage error.
TEST(CampaignTargetsTest, OnlyHipSpecsAreRestricted) {
  auto sim = CampaignTargets("sim", {}, {"gfx90a"});
  ASSERT_TRUE(sim.ok()) << sim.status();
  EXPECT_EQ(*sim, std::vector<std::string>{"gfx90a"});
  auto ex = CampaignTargets("exec:cat", {}, {});
  ASSERT_TRUE(ex.ok()) << ex.status();
  EXPECT_TRUE(ex->empty());
  if (ListHipDevices().ok()) return;  // a GPU machine: covered by the GPU tests
  auto hip = CampaignTargets("hip", {}, {});
  ASSERT_FALSE(hip.ok());
  EXPECT_NE(hip.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(hip.status().message(), "no AMD GPU is visible")) << hip.status();
  auto autodev = CampaignTargets("auto", {}, {"gfx90a"});  // auto falls back to the simulator
  ASSERT_TRUE(autodev.ok()) << autodev.status();
  EXPECT_EQ(*autodev, std::vector<std::string>{"gfx90a"});
}

}  // namespace
}  // namespace lanediff
