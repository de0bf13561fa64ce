// The grouping step in a campaign (fuzz/engine/launch_group.h) on the HIP runner over the fake HIP
// runtime, which executes the loaded code object through the kernel interpreter with the
// simulator at the patch site (device_harness/hip/fake_sim_kernel.h InterpFakeKernel): cases
// that share an instruction word go to the device together, in launches of at least 64K
// lanes, and each case gets back its own lanes' answers.
#include <stdlib.h>

#include <cstring>
#include <iterator>
#include <memory>
#include <string>

#include "device_harness/hip/fake_hip_api.h"
#include "device_harness/hip/fake_sim_kernel.h"
#include "device_harness/hip/launch_pipeline.h"
#include "device_harness/sim/sim_runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/corpus/corpus_store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

// The fake HIP runtime belongs to the runner, which the campaign destroys when it ends: what
// the test looks at afterwards is recorded into `launches` (lanes of every launch) instead.
CampaignOptions FakeGpuCampaign(std::vector<size_t>* launches, std::vector<std::string> inject) {
  CampaignOptions o;
  o.device = "hip";
  o.targets = {"gfx942"};  // the fake GPU's target
  // Every instruction, the VGPR-pair writers (dst_bits 64: two words a lane) included.
  o.instrs.assign(std::begin(kAllInstrs), std::end(kAllInstrs));
  o.lanes_per_batch = 1024;
  o.progress = false;
  o.known_answer_check = CampaignOptions::KnownAnswerCheck::never;
  // The fake GPU executes the loaded code object's bytes (the kernel interpreter, with the
  // simulator and `inject`'s errata at the patch site), as launched: grid, block, kernelParams.
  o.open_runner = [launches, inject](const RunnerOptions&) -> absl::StatusOr<std::unique_ptr<Runner>> {
    FakeHip* fake = nullptr;
    absl::StatusOr<std::unique_ptr<Runner>> runner = OpenFakeHip(&fake);
    if (!runner.ok()) return runner;
    FakeCodeKernel code = InterpFakeKernel(inject, "gfx942", 64);
    fake->code_kernel = [launches, code](absl::Span<const uint8_t> image, unsigned blocks,
                                         unsigned threads, void** params, std::string* error) {
      uint32_t n = 0;  // KernelArgs::n, the sixth kernel argument
      std::memcpy(&n, params[5], sizeof(n));
      launches->push_back(n);
      return code(image, blocks, threads, params, error);
    };
    return runner;
  };
  return o;
}

// A correct device (the simulator with no erratum) and the grouping step: rounds of
// kGpuLaunchLanes = 262144 lanes, i.e. 256 cases of 1024 lanes sharing one header, reach the
// device as one batch = 4 launches of 65536; no case disagrees (a case given a neighbour's
// answers would: their lanes differ).
TEST(CampaignGroupingTest, CasesSharingAWordGoTogetherInLaunchesOf64KLanes) {
  std::vector<size_t> sizes;
  CampaignOptions o = FakeGpuCampaign(&sizes, {});
  o.max_execs = 512;  // two rounds of 256 cases
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->execs, 512u);
  EXPECT_EQ(s->disagreeing, 0u) << FormatSummary(o, *s);
  EXPECT_EQ(s->refused, 0u) << FormatSummary(o, *s);
  EXPECT_EQ(s->unsupported, 0u) << FormatSummary(o, *s);
  EXPECT_EQ(s->device_faults, 0u);
  // Invalid cases are fewer lanes; a round of valid ones is 262144 lanes in 4 launches.
  EXPECT_EQ(s->lanes, 512u * 1024u - 1024u * s->invalid);
  ASSERT_FALSE(sizes.empty());
  size_t launched = 0;
  for (size_t n : sizes) {
    EXPECT_GE(n, kHipLaunchLanes);
    launched += n;
  }
  EXPECT_EQ(launched, s->lanes);
}

// The VGPR-pair writers alone (lane i's words at out[2i], out[2i + 1] through the grouping
// step, the launch path and SplitResult): a correct fake GPU agrees on every case, nothing is
// "unsupported", and launches still carry 64K lanes; with pair_word_swap (the two words
// exchanged, sim/errata.h) the disagreement is found and stored.
TEST(CampaignGroupingTest, VgprPairWritersRunInGroupedLaunches) {
  std::vector<Instr> pairs;
  for (Instr i : kAllInstrs) {
    if (DstWords(i) == 2 && (*FindTarget("gfx942"))->Has(i)) pairs.push_back(i);
  }
  ASSERT_FALSE(pairs.empty()) << "no VGPR-pair writer on gfx942: the test checks nothing";
  std::vector<size_t> sizes;
  CampaignOptions o = FakeGpuCampaign(&sizes, {});
  o.instrs = pairs;
  o.max_execs = 256;
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->execs, 256u);
  EXPECT_EQ(s->disagreeing, 0u) << FormatSummary(o, *s);
  EXPECT_EQ(s->unsupported, 0u) << FormatSummary(o, *s);
  EXPECT_EQ(s->refused, 0u) << FormatSummary(o, *s);
  ASSERT_FALSE(sizes.empty());
  for (size_t n : sizes) EXPECT_GE(n, kHipLaunchLanes);

  std::string dir = ::testing::TempDir() + "campaign_grouping_pair_XXXXXX";
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  std::vector<size_t> swapped_sizes;
  CampaignOptions w = FakeGpuCampaign(&swapped_sizes, {"pair_word_swap"});
  w.instrs = pairs;
  w.corpus = dir;
  w.max_execs = 256;
  w.stop_after_findings = 1;
  absl::StatusOr<CampaignStats> f = RunCampaign(w, nullptr);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_GE(f->disagreeing, 1u) << FormatSummary(w, *f);
  EXPECT_EQ(f->new_findings, 1u) << FormatSummary(w, *f);
}

// A device with an erratum (u8_truncate: pk_u8 truncates where the model rounds): the
// disagreement is found in grouped launches, minimized on single cases and stored.
TEST(CampaignGroupingTest, ADisagreementInAGroupedLaunchIsFoundAndMinimized) {
  std::string dir = ::testing::TempDir() + "campaign_grouping_XXXXXX";
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  std::vector<size_t> sizes;
  CampaignOptions o = FakeGpuCampaign(&sizes, {"u8_truncate"});
  o.instrs = {Instr::v_cvt_pk_u8_f32};
  o.corpus = dir;
  o.max_execs = 256;
  o.stop_after_findings = 1;
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_GE(s->disagreeing, 1u);
  EXPECT_EQ(s->new_findings, 1u) << FormatSummary(o, *s);
  CorpusLoad load = LoadCorpus({dir + "/findings"});
  ASSERT_EQ(load.findings.size(), 1u);
  EXPECT_EQ(load.findings[0].finding.testcase().lanes_size(), 1);  // minimized to one lane
  EXPECT_EQ(load.findings[0].finding.device().runner(), "hip");
}

// The simulator, but a batch of more than 1024 lanes loses its last word.
class ShortAnswers : public Runner {
 public:
  explicit ShortAnswers(std::unique_ptr<Runner> sim) : sim_(std::move(sim)) {}
  std::string Describe() const override { return "short-answering sim"; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& b) override {
    absl::StatusOr<DeviceResult> r = sim_->Run(b);
    if (r.ok() && b.lanes.size() > 1024) r->vdst.pop_back();
    return r;
  }

 private:
  std::unique_ptr<Runner> sim_;
};

// A grouped answer with the wrong number of words cannot be split: it is a fault of the group,
// said in a note, and each case is run alone (here: correctly).
TEST(CampaignGroupingTest, AGroupAnswerOfTheWrongSizeIsRerunCaseByCase) {
  CampaignOptions o;
  o.device = "sim";
  o.lanes_per_batch = 1024;
  o.launch_lanes = 4096;  // 4 cases a round
  o.max_execs = 16;
  o.progress = false;
  o.open_runner = [](const RunnerOptions&) -> absl::StatusOr<std::unique_ptr<Runner>> {
    LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> sim, OpenSimRunner({}));
    return std::unique_ptr<Runner>(std::make_unique<ShortAnswers>(std::move(sim)));
  };
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->execs, 16u);
  EXPECT_EQ(s->disagreeing, 0u) << FormatSummary(o, *s);
  EXPECT_EQ(s->device_faults, 0u);
  EXPECT_THAT(s->errors, ::testing::Contains(::testing::HasSubstr("grouped cases faulted, rerun case by case: device fault: "
                                                 "short-answering sim answered 4095 VDST words for 4096 lanes")));
}

// A device that refuses (an error that is neither a fault nor "unsupported") the first
// `refuse` batches it is given, then answers as the simulator.
class RefusingFirst : public Runner {
 public:
  RefusingFirst(std::unique_ptr<Runner> sim, int refuse) : sim_(std::move(sim)), refuse_(refuse) {}
  std::string Describe() const override { return "refusing-first"; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& b) override {
    if (refuse_ > 0) {
      --refuse_;
      return absl::FailedPreconditionError("refusing-first: this batch is refused");
    }
    return sim_->Run(b);
  }

 private:
  std::unique_ptr<Runner> sim_;
  int refuse_;
};

// One refused round is one refusal, not one per case: a round of 64 cases sharing one header
// goes to the device as one batch; it is refused, and the campaign goes on (before, its 64
// cases counted as 64 refusals in a row and stopped the campaign at the 50th).
TEST(CampaignGroupingTest, ARefusedRoundIsOneRefusalNotOnePerCase) {
  CampaignOptions o;
  o.device = "sim";
  o.lanes_per_batch = 1024;
  o.launch_lanes = 64 * 1024;  // rounds of 64 cases
  o.max_execs = 256;
  o.progress = false;
  o.known_answer_check = CampaignOptions::KnownAnswerCheck::never;
  o.open_runner = [](const RunnerOptions&) -> absl::StatusOr<std::unique_ptr<Runner>> {
    absl::StatusOr<std::unique_ptr<Runner>> sim = OpenSimRunner({});
    if (!sim.ok()) return sim.status();
    return std::unique_ptr<Runner>(std::make_unique<RefusingFirst>(*std::move(sim), 1));
  };
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->execs, 256u);
  // The first round's valid cases were refused (one batch); the other rounds ran.
  EXPECT_GE(s->refused, 1u);
  EXPECT_LE(s->refused, 64u);
  EXPECT_GT(s->lanes, 0u);
}

}  // namespace
}  // namespace lanediff
