// A campaign against the HIP runner on a fake HIP runtime (device_harness/hip/fake_hip_api.h)
// whose every launch fails at hipStreamSynchronize with 719 (hipErrorLaunchFailure): the
// error code is a device fault, stored in the corpus as a DEVICE_FAULT finding whose fault
// text carries the code and its name - not counted as 50 refused batches.
#include <stdlib.h>

#include <functional>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "device_harness/fault.h"
#include "device_harness/hip/fake_hip_api.h"
#include "device_harness/isolation/isolated_runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/triage/buckets.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;

// The HIP runner on a fake runtime that `setup` configures, isolated as OpenRunner runs HIP:
// the child exits after a fault, the next batch gets a fresh one (and a fresh fake context).
std::function<absl::StatusOr<std::unique_ptr<Runner>>(const RunnerOptions&)> IsolatedFakeHip(
    std::function<void(FakeHip*)> setup) {
  return [setup](const RunnerOptions& ro) -> absl::StatusOr<std::unique_ptr<Runner>> {
    LANEDIFF_ASSIGN_OR_RETURN(
        std::unique_ptr<IsolatedRunner> r,
        IsolatedRunner::Start(
            [setup]() -> absl::StatusOr<std::unique_ptr<Runner>> {
              FakeHip* fake = nullptr;
              absl::StatusOr<std::unique_ptr<Runner>> r = OpenFakeHip(&fake);
              if (r.ok()) setup(fake);
              return r;
            },
            {.timeout = ro.timeout, .start_timeout = absl::Seconds(60)}));
    return std::unique_ptr<Runner>(std::move(r));
  };
}

// Every launch fails at hipStreamSynchronize with `code`.
std::function<absl::StatusOr<std::unique_ptr<Runner>>(const RunnerOptions&)> FakeHipFailingWith(int code) {
  return IsolatedFakeHip([code](FakeHip* fake) {
    fake->fail_every_launch = true;
    fake->fault_code = code;
  });
}

// A campaign on the fake GPU's target (gfx942) and one instruction (device faults are keyed
// per instruction), storing into a fresh corpus `*dir`; the known-answer check is off (it
// would fault too), and the batch timeout leaves a loaded CI machine time (nothing here hangs).
CampaignOptions FakeGpuCampaign(const std::string& prefix, std::string* dir) {
  *dir = ::testing::TempDir() + prefix + "_XXXXXX";
  EXPECT_NE(::mkdtemp(dir->data()), nullptr);
  CampaignOptions o;
  o.device = "hip";
  o.targets = {"gfx942"};
  o.instrs = {Instr::v_cvt_pk_u8_f32};
  o.corpus = *dir;
  o.progress = false;
  o.known_answer_check = CampaignOptions::KnownAnswerCheck::never;
  o.batch_timeout_seconds = 60;
  return o;
}

TEST(CampaignHipFaultTest, AHipErrorCodeIsStoredAsADeviceFaultFindingWithItsCode) {
  std::string dir;
  CampaignOptions o = FakeGpuCampaign("campaign_hip", &dir);
  o.lanes_per_batch = 64;
  o.max_execs = 4;
  o.open_runner = FakeHipFailingWith(kHipErrorLaunchFailure);
  absl::StatusOr<CampaignStats> stats = RunCampaign(o, nullptr);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->refused, 0u);  // each one was once counted a refusal
  EXPECT_EQ(stats->device_faults, stats->execs);
  EXPECT_GE(stats->execs, 1u);
  EXPECT_EQ(stats->new_findings, 1u);  // one fault kind: later ones are repeats
  // The run identity's driver / ISA string comes from the runner (through the isolated
  // child's hello), even when no batch ever answered: the fake's gcnArchName.
  EXPECT_EQ(stats->device_driver, "ISA gfx942:sramecc+:xnack-");

  CorpusLoad load = LoadCorpus({dir + "/findings"});
  EXPECT_TRUE(load.errors.empty());
  ASSERT_EQ(load.findings.size(), 1u);
  const proto::Finding& f = load.findings[0].finding;
  EXPECT_EQ(f.kind(), proto::Finding::DEVICE_FAULT);
  EXPECT_EQ(f.testcase().target(), "gfx942");
  EXPECT_EQ(f.testcase().instr(), proto::v_cvt_pk_u8_f32);
  EXPECT_EQ(f.testcase().lanes_size(), 1);  // bisected: every batch faults
  EXPECT_THAT(f.fault(), HasSubstr("device fault: hip:0 fake MI300X"));
  EXPECT_THAT(f.fault(), HasSubstr("HIP error 719 (hipErrorLaunchFailure: unspecified launch failure)"));
  EXPECT_EQ(f.device().runner(), "hip");
  EXPECT_EQ(f.cause(), "device_fault.hip_error_719");
  EXPECT_EQ(f.signature(), "gfx942.v_cvt_pk_u8_f32.device_fault.hip_error_719");
  std::printf("stored %s: %s\n", f.signature().c_str(), f.fault().c_str());
}

// Each HIP code is its own cause: a second campaign on the same corpus whose launches fail
// with 700 (hipErrorIllegalAddress) stores a second finding, not a repeat of the 719 one, and
// triage shows two buckets.
TEST(CampaignHipFaultTest, EachHipErrorCodeIsItsOwnFindingAndBucket) {
  std::string dir;
  CampaignOptions o = FakeGpuCampaign("campaign_hip2", &dir);
  o.lanes_per_batch = 16;
  o.max_execs = 2;
  for (int code : {kHipErrorLaunchFailure, kHipErrorIllegalAddress, kHipErrorLaunchFailure}) {
    o.open_runner = FakeHipFailingWith(code);
    absl::StatusOr<CampaignStats> stats = RunCampaign(o, nullptr);
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(stats->device_faults, stats->execs);
  }
  CorpusLoad load = LoadCorpus({dir + "/findings"});
  EXPECT_TRUE(load.errors.empty());
  std::vector<std::string> causes;
  for (const LoadedFinding& lf : load.findings) causes.push_back(lf.finding.cause());
  EXPECT_THAT(causes, ::testing::UnorderedElementsAre("device_fault.hip_error_719",
                                                      "device_fault.hip_error_700"));
  std::vector<Bucket> buckets = FoldIntoBuckets(load.findings);
  std::vector<std::string> sigs;
  for (const Bucket& b : buckets) sigs.push_back(b.signature);
  EXPECT_THAT(sigs, ::testing::UnorderedElementsAre("v_cvt_pk_u8_f32.device_fault.hip_error_719",
                                                    "v_cvt_pk_u8_f32.device_fault.hip_error_700"));
  for (const LoadedFinding& lf : load.findings) {
    if (lf.finding.cause() == "device_fault.hip_error_700") {
      EXPECT_THAT(lf.finding.fault(),
                  HasSubstr("HIP error 700 (hipErrorIllegalAddress: an illegal memory access was encountered)"));
    }
  }
}

// A runtime that refuses every code object (hipModuleLoadData fails: a ROCm too old for the
// target, or the code-object version) is the environment's failure, not the words': the
// campaign stores no finding and stops after kEnvironmentErrorsInARow batches with an error
// naming what failed and what to check (`lanediff fuzz` exits 3 on it: fuzz_command.cc maps
// every campaign error but InvalidArgument to kExitEnvironment). Before, each word was stored
// as a device-fault finding, with a fresh child and bisection reruns.
TEST(CampaignHipFaultTest, AnAlwaysFailingModuleLoadStopsTheCampaignAndStoresNothing) {
  std::string dir;
  CampaignOptions o = FakeGpuCampaign("campaign_hip_env", &dir);
  o.lanes_per_batch = 16;
  o.max_execs = 1000000;  // far more than it takes: the stop is the environment errors'
  o.open_runner =
      IsolatedFakeHip([](FakeHip* fake) { fake->fail_module_load = kHipErrorNoBinaryForGpu; });
  absl::StatusOr<CampaignStats> stats = RunCampaign(o, nullptr);
  ASSERT_FALSE(stats.ok()) << "execs " << stats->execs << ", environment errors " << stats->environment_errors
                           << ", device faults " << stats->device_faults << ", refused " << stats->refused
                           << ", invalid " << stats->invalid << "; " << (stats->errors.empty() ? "" : stats->errors[0]);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kFailedPrecondition) << stats.status();
  EXPECT_THAT(std::string(stats.status().message()),
              HasSubstr(absl::StrCat(kEnvironmentErrorsInARow, " environment errors in a row")));
  EXPECT_THAT(std::string(stats.status().message()),
              HasSubstr("environment error: hip:0 fake MI300X"));
  EXPECT_THAT(std::string(stats.status().message()),
              HasSubstr("hipModuleLoadData of the patched gfx942 wave64 code object failed with HIP "
                        "error 209 (hipErrorNoBinaryForGpu)"));
  EXPECT_THAT(std::string(stats.status().message()), HasSubstr("check: that this ROCm supports the target"));
  CorpusLoad load = LoadCorpus({dir + "/findings"});
  EXPECT_TRUE(load.errors.empty());
  EXPECT_TRUE(load.findings.empty());
}

}  // namespace
}  // namespace lanediff
