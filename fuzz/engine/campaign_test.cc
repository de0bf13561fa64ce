// End to end on the ISA simulator: each semantic erratum is found within a bounded number of
// test cases, minimized to one lane, stored once per signature, and replays bit for bit; with
// no erratum, nothing is found.
#include "fuzz/engine/campaign.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device_harness/fault.h"
#include "device_harness/open_runner.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/replay.h"
#include "fuzz/triage/buckets.h"
#include "fuzz/triage/lane_causes.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

std::string TempDir() {
  std::string templ = ::testing::TempDir() + "campaign_XXXXXX";
  EXPECT_NE(::mkdtemp(templ.data()), nullptr);
  return templ;
}

CampaignOptions Options(const std::string& corpus) {
  CampaignOptions o;
  o.device = "sim";
  o.corpus = corpus;
  o.lanes_per_batch = 256;
  o.progress = false;
  o.seed = 7;
  return o;
}

struct Case {
  const char* erratum;
  const char* explained_by;  // the hypothesis the erratum is (errata.h), "" for none
};

class ErratumTest : public ::testing::TestWithParam<Case> {};

TEST_P(ErratumTest, FoundMinimizedStoredOnceAndReplayed) {
  const Case& c = GetParam();
  const std::string dir = TempDir();
  CampaignOptions o = Options(dir);
  o.inject = {c.erratum};
  o.max_execs = 4000;  // the bound; the run stops at the third new finding
  o.stop_after_findings = 3;
  auto stats = RunCampaign(o, nullptr);
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_GE(stats->new_findings, 1u) << c.erratum << " not found in " << stats->execs << " cases";
  std::printf("%s: first finding at case %llu\n", c.erratum,
              static_cast<unsigned long long>(stats->first_finding_exec));
  CorpusLoad load = LoadCorpus({dir + "/findings"});
  EXPECT_TRUE(load.errors.empty());
  EXPECT_EQ(load.findings.size(), stats->new_findings);  // one file per signature
  RunnerOptions ro;
  ro.inject = {c.erratum};
  auto runner = OpenRunner("sim", ro);
  ASSERT_TRUE(runner.ok()) << runner.status();
  for (const LoadedFinding& lf : load.findings) {
    const proto::Finding& f = lf.finding;
    EXPECT_EQ(f.kind(), proto::Finding::DISAGREEMENT) << lf.path;
    EXPECT_EQ(f.testcase().lanes_size(), 1) << lf.path;  // minimized to one lane
    EXPECT_EQ(lf.path, dir + "/findings/" + f.testcase().target() + "/" +
                           proto::Instruction_Name(f.testcase().instr()) + "/" + f.signature() +
                           ".textproto");
    if (c.explained_by[0] != '\0') {
      // The erratum's setting names the finding, alone or with readings equivalent to it on
      // every lane seen (fuzz/triage/lane_causes.h: nan_sign on E4M3 is also fp8_nan=sign_7f).
      const std::vector<std::string> named = SettingsOfCause(f.explained_by());
      EXPECT_NE(std::find(named.begin(), named.end(), c.explained_by), named.end())
          << lf.path << ": " << f.explained_by();
    }
    EXPECT_FALSE(f.repro().empty());
    EXPECT_EQ(f.device().injected_size(), 1);
    ReplayOutcome r = ReplayFinding(f, Hypotheses{}, **runner, {});
    EXPECT_TRUE(r.reproduced) << lf.path << ": " << r.detail;
  }
  // And without the erratum the same findings do not reproduce.
  auto clean = OpenRunner("sim", {});
  ASSERT_TRUE(clean.ok());
  for (const LoadedFinding& lf : load.findings) {
    EXPECT_FALSE(ReplayFinding(lf.finding, Hypotheses{}, **clean, {}).reproduced) << lf.path;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sim, ErratumTest,
    ::testing::Values(Case{"sr_wrap", "sr_rounding=literal"},
                      Case{"u8_truncate", "pk_u8_rounding=truncate"},
                      Case{"byte12_swap", ""}, Case{"nan_sign", "fp8_nan=sign_preserving"},
                      Case{"fp16_ovfl_ignored", "fp16_ovfl=ignored"},
                      Case{"gfx1250_clamp_ignored", "gfx1250_clamp=ignored"},
                      Case{"src1_neg", ""}, Case{"half_swap", ""}, Case{"round_odd", ""},
                      Case{"src_byte_swap", ""},
                      Case{"garbage_lane", ""}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.erratum); });

TEST(Campaign, NoErratumNoFindings) {
  const std::string dir = TempDir();
  CampaignOptions o = Options(dir);
  o.max_execs = 1500;
  auto stats = RunCampaign(o, nullptr);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->execs, 1500u);
  EXPECT_EQ(stats->new_findings, 0u);
  EXPECT_EQ(stats->disagreeing, 0u);
  EXPECT_EQ(stats->device_faults, 0u);
  // Every input class was exercised.
  for (int i = 0; i < kNumInputClasses; ++i) EXPECT_GT(stats->classes[i], 0u) << kInputClasses[i];
}

TEST(Campaign, SameSeedSameFindings) {
  auto run = [](const std::string& dir) {
    CampaignOptions o = Options(dir);
    o.inject = {"u8_truncate"};
    o.max_execs = 150;
    auto s = RunCampaign(o, nullptr);
    EXPECT_TRUE(s.ok());
    return s->new_signatures;
  };
  const auto a = run(TempDir()), b = run(TempDir());
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(Campaign, DeviceCrashIsAFindingAndTheCampaignGoesOn) {
  const std::string dir = TempDir();
  CampaignOptions o = Options(dir);
  o.inject = {"crash"};
  o.targets = {"gfx942"};
  o.max_execs = 40;
  auto stats = RunCampaign(o, nullptr);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->execs, 40u);  // went on after the faults
  EXPECT_GE(stats->device_faults, 1u);
  CorpusLoad load = LoadCorpus({dir + "/findings"});
  ASSERT_GE(load.findings.size(), 1u);
  const proto::Finding& f = load.findings[0].finding;
  EXPECT_EQ(f.kind(), proto::Finding::DEVICE_FAULT);
  EXPECT_NE(f.fault().find("device fault"), std::string::npos) << f.fault();
}

TEST(Campaign, UnwritableCorpusIsAnEnvironmentError) {
  const std::string dir = TempDir();
  FILE* f = std::fopen((dir + "/findings").c_str(), "w");  // a file where the dir should be
  std::fclose(f);
  CampaignOptions o = Options(dir);
  o.max_execs = 1;
  auto stats = RunCampaign(o, nullptr);
  EXPECT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find(dir + "/findings"), std::string::npos) << stats.status();
}

TEST(Campaign, TwoJobsShareOneCorpus) {
  const std::string dir = TempDir();
  CampaignOptions o = Options(dir);
  o.inject = {"sr_wrap"};
  o.jobs = 2;
  o.max_execs = 200;
  auto stats = RunCampaignJobs(o, nullptr);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->execs, 200u);
  // The workers' device calls add up: on the simulator one call a case, and more for triage.
  EXPECT_GE(stats->device_calls, stats->execs + stats->triage_device_calls);
  EXPECT_GT(stats->triage_device_calls, 0u);
  CorpusLoad load = LoadCorpus({dir + "/findings"});
  EXPECT_TRUE(load.errors.empty());
  EXPECT_EQ(load.findings.size(), stats->signatures.size());
}

// A device that cannot run the confirmation batches (fuzz/triage/attribution.h
// ConfirmationCase: 256 to 1024 lanes) but runs everything else: the simulator with sr_wrap
// (whose disagreements are named sr_rounding=literal, a hypothesis, so each is confirmed), in
// a campaign of 64-lane cases, so that every batch of 256 lanes or more is a confirmation
// batch. Odd-numbered ones are refused, even-numbered ones answered "unsupported": two reasons.
class RefusesConfirmations : public Runner {
 public:
  explicit RefusesConfirmations(std::unique_ptr<Runner> sim) : sim_(std::move(sim)) {}
  std::string Describe() const override { return "sim refusing confirmation batches (test)"; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    if (batch.lanes.size() < 256) return sim_->Run(batch);
    ++refused_;
    WriteCount();
    if (refused_ % 2 == 1) return absl::FailedPreconditionError("test device: no batch of 256+ lanes");
    return Unsupported("test device: 256+ lanes");
  }
  // The count where a test can read it after the campaign destroyed the runner (--jobs: in
  // another process): a file, rewritten each time.
  static std::string CountFile(const std::string& dir) { return dir + "/refused_count"; }
  std::string count_file;

 private:
  void WriteCount() const {
    if (count_file.empty()) return;
    FILE* f = std::fopen(count_file.c_str(), "w");
    if (f == nullptr) return;
    std::fprintf(f, "%d\n", refused_);
    std::fclose(f);
  }
  std::unique_ptr<Runner> sim_;
  int refused_ = 0;
};

int ReadCount(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return 0;
  int n = 0;
  if (std::fscanf(f, "%d", &n) != 1) n = 0;
  std::fclose(f);
  return n;
}

int CountLines(const std::string& text, const std::string& prefix) {
  int n = 0;
  for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    n += at == 0 || text[at - 1] == '\n';
  }
  return n;
}

CampaignOptions RefusingConfirmations(const std::string& dir) {
  CampaignOptions o = Options(dir);
  o.inject = {"sr_wrap"};
  o.targets = {"gfx942"};
  o.instrs = {*ParseInstr("v_cvt_sr_fp8_f32")};
  o.lanes_per_batch = 64;
  o.max_execs = 200;
  const std::string count = RefusesConfirmations::CountFile(dir);
  o.open_runner = [count](const RunnerOptions& ro) -> absl::StatusOr<std::unique_ptr<Runner>> {
    absl::StatusOr<std::unique_ptr<Runner>> sim = OpenRunner("sim", ro);
    if (!sim.ok()) return sim.status();
    auto r = std::make_unique<RefusesConfirmations>(std::move(*sim));
    r->count_file = count;
    return std::unique_ptr<Runner>(std::move(r));
  };
  return o;
}

// A confirmation batch the device cannot run is not passed over in silence: each is counted
// (CampaignStats::unconfirmed, the summary), each distinct reason warned about once on stderr
// (not once per batch), and the campaign still stores what it found.
TEST(Campaign, ConfirmationBatchesThatCannotRunAreCountedAndWarnedOncePerReason) {
  const std::string dir = TempDir();
  CampaignOptions o = RefusingConfirmations(dir);
  ::testing::internal::CaptureStderr();
  auto stats = RunCampaign(o, nullptr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(stats.ok()) << stats.status();
  const int refused = ReadCount(RefusesConfirmations::CountFile(dir));
  ASSERT_GE(refused, 3) << "too few confirmation batches to tell per reason from per batch";
  EXPECT_EQ(stats->unconfirmed, static_cast<uint64_t>(refused));
  EXPECT_EQ(stats->unconfirmed_reasons,
            (std::vector<std::string>{"test device: no batch of 256+ lanes",
                                      "unsupported: test device: 256+ lanes"}));
  EXPECT_EQ(CountLines(err, "warning: a confirmation batch could not run"), 2) << err;
  EXPECT_NE(err.find("stored unconfirmed (counted in the summary): test device: no batch of 256+ "
                     "lanes\n"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("): unsupported: test device: 256+ lanes\n"), std::string::npos) << err;
  const std::string summary = FormatSummary(o, *stats);
  EXPECT_NE(summary.find(absl::StrCat("  confirmation  ", refused,
                                      " batches could not run: the causes they were to confirm "
                                      "are unconfirmed (test device: no batch of 256+ lanes; "
                                      "unsupported: test device: 256+ lanes)\n")),
            std::string::npos)
      << summary;
  EXPECT_GE(stats->new_findings, 1u);  // named by the batch alone, stored all the same
  // The refusals of confirmation batches are not the campaign's own cases'.
  EXPECT_EQ(stats->refused, 0u);
  EXPECT_EQ(stats->unsupported, 0u);

  // The same campaign on a device that runs them: nothing unconfirmed, no warning.
  CampaignOptions clean = Options(TempDir());
  clean.inject = o.inject;
  clean.targets = o.targets;
  clean.instrs = o.instrs;
  clean.lanes_per_batch = o.lanes_per_batch;
  clean.max_execs = o.max_execs;
  ::testing::internal::CaptureStderr();
  auto ran = RunCampaign(clean, nullptr);
  const std::string clean_err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_GE(ran->new_findings, 1u);
  EXPECT_EQ(ran->unconfirmed, 0u);
  EXPECT_EQ(clean_err.find("warning: a confirmation batch"), std::string::npos) << clean_err;
  EXPECT_NE(FormatSummary(clean, *ran).find("  confirmation  every confirmation batch ran"),
            std::string::npos);
}

// With --jobs the workers' counts add up and each reason is warned about once for the run,
// by the parent, however many workers meet it.
TEST(Campaign, JobsWarnOncePerReasonForAllWorkers) {
  const std::string dir = TempDir();
  CampaignOptions o = RefusingConfirmations(dir);
  o.jobs = 2;
  o.max_execs = 300;
  ::testing::internal::CaptureStderr();
  auto stats = RunCampaignJobs(o, nullptr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_GE(stats->unconfirmed, 3u);
  EXPECT_EQ(stats->unconfirmed_reasons.size(), 2u);
  EXPECT_EQ(CountLines(err, "warning: a confirmation batch could not run"), 2) << err;
}

// A device whose every third batch fails for a reason not the instruction's (an environment
// error: device_harness/fault.h), never two in a row, so the campaign runs on. Each worker
// counts its failures into a file of its own (dir/env_errors.<pid>).
class FailsEveryThirdBatch : public Runner {
 public:
  FailsEveryThirdBatch(std::unique_ptr<Runner> sim, std::string dir)
      : sim_(std::move(sim)), dir_(std::move(dir)) {}
  std::string Describe() const override { return "sim failing every third batch (test)"; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    if (++calls_ % 3 != 0) return sim_->Run(batch);
    ++failed_;
    const std::string file = absl::StrCat(dir_, "/env_errors.", ::getpid());
    if (FILE* f = std::fopen(file.c_str(), "w"); f != nullptr) {
      std::fprintf(f, "%d\n", failed_);
      std::fclose(f);
    }
    return EnvironmentError("test device: no memory for the batch", "nothing: a test");
  }

 private:
  std::unique_ptr<Runner> sim_;
  std::string dir_;
  int calls_ = 0, failed_ = 0;
};

// The environment errors every worker's file counts.
int EnvironmentErrorsCounted(const std::string& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("env_errors.", 0) == 0) n += ReadCount(e.path().string());
  }
  return n;
}

// Batches that failed for the environment's reasons are no findings, but a CI owner reading the
// summary must see them: counted per worker, added up by the parent, printed in the summary.
TEST(Campaign, EnvironmentErrorsAreCountedInTheSummaryForOneWorkerAndForJobs) {
  for (int jobs : {1, 2}) {
    const std::string dir = TempDir();
    const std::string counts = TempDir();
    CampaignOptions o = Options(dir);
    o.max_execs = 60;
    o.jobs = jobs;
    o.open_runner = [counts](const RunnerOptions& ro) -> absl::StatusOr<std::unique_ptr<Runner>> {
      absl::StatusOr<std::unique_ptr<Runner>> sim = OpenRunner("sim", ro);
      if (!sim.ok()) return sim.status();
      return std::unique_ptr<Runner>(std::make_unique<FailsEveryThirdBatch>(std::move(*sim), counts));
    };
    auto stats = RunCampaignJobs(o, nullptr);
    ASSERT_TRUE(stats.ok()) << "jobs " << jobs << ": " << stats.status();
    const int failed = EnvironmentErrorsCounted(counts);
    ASSERT_GE(failed, 1) << "jobs " << jobs;
    EXPECT_EQ(stats->environment_errors, static_cast<uint64_t>(failed)) << "jobs " << jobs;
    EXPECT_EQ(stats->new_findings, 0u) << "jobs " << jobs;
    const std::string summary = FormatSummary(o, *stats);
    EXPECT_NE(summary.find(absl::StrCat(", ", failed, " environment errors (batches that failed for "
                                        "a reason not the instruction's; never findings)\n")),
              std::string::npos)
        << summary;
  }
}

TEST(Campaign, ProgressLineShowsRatesTimesAndBuckets) {
  CampaignStats s;
  s.execs = 1234;
  s.lanes = 1263616;  // 1234 x 1024
  s.buckets = {"v_cvt_sr_fp8_f32.sr_rounding=literal", "v_cvt_sr_bf8_f32.sr_rounding=literal",
               "v_cvt_pk_u8_f32.byte_moved"};
  s.new_buckets = {"v_cvt_pk_u8_f32.byte_moved", "v_cvt_sr_fp8_f32.sr_rounding=literal"};
  s.last_new_seconds = 5;
  // 12 s into a --time 60 run: 48 s left; 1,263,616 lanes / 12 s = 105.3k/s; last new 7 s ago.
  const std::string line = ProgressLine(s, 12, 60, 0);
  EXPECT_NE(line.find("[  12s, 48s left]"), std::string::npos) << line;
  EXPECT_NE(line.find("1,234 cases (103/s)"), std::string::npos) << line;
  EXPECT_NE(line.find("1,263,616 lanes (105.3k/s)"), std::string::npos) << line;
  EXPECT_NE(line.find("3 buckets (2 new), last new bucket 7s ago"), std::string::npos) << line;
  // --execs 4936 only: 1234 cases in 12 s, 3702 left at that rate: ~36 s.
  EXPECT_NE(ProgressLine(s, 12, 0, 4936).find("[  12s, ~36s left]"), std::string::npos);
  s.last_new_seconds = -1;
  EXPECT_NE(ProgressLine(s, 12, 0, 0).find("no new bucket yet"), std::string::npos);
}

TEST(Campaign, JobsReportBucketsCoverageTimelineAndDriverToTheParent) {
  // With --jobs 2 the parent learns from its workers' frames which buckets they saw (its live
  // line counts them), which were new, the lanes per coverage cell and the driver.
  const std::string dir = TempDir();
  CampaignOptions o = Options(dir);
  o.inject = {"sr_wrap"};
  o.jobs = 2;
  o.max_execs = 200;
  auto stats = RunCampaignJobs(o, nullptr);
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_FALSE(stats->signatures.empty());
  // "<target>.<instr>.<cause>" -> BucketKey("<instr>.<cause>") (fuzz/triage/buckets.h)
  std::set<std::string> buckets;
  for (const std::string& sig : stats->signatures) {
    buckets.insert(BucketKey(sig.substr(sig.find('.') + 1)));
  }
  EXPECT_EQ(stats->buckets, buckets);
  EXPECT_EQ(stats->new_buckets, buckets);  // the corpus was empty: every bucket is new
  EXPECT_GE(stats->last_new_seconds, 0);
  uint64_t lanes = 0;
  for (const proto::CoverageCell& c : stats->coverage.Cells()) lanes += c.lanes();
  EXPECT_EQ(lanes, stats->lanes);
  ASSERT_FALSE(stats->timeline.samples().empty());
  EXPECT_EQ(stats->timeline.samples().back().lanes(), stats->lanes);
  EXPECT_EQ(stats->timeline.samples().back().buckets(), buckets.size());
  EXPECT_EQ(stats->device_driver, "none (sim)");  // the simulator has no driver
  // A second run on the same corpus: the buckets are seen, none is new.
  o.seed = 99;
  auto again = RunCampaignJobs(o, nullptr);
  ASSERT_TRUE(again.ok()) << again.status();
  for (const std::string& b : again->new_buckets) {
    EXPECT_EQ(buckets.count(b), 0u) << b << " was in the corpus already";
  }
}

TEST(Campaign, ABucketIsNewUnlessTheCorpusHeldItWhenTheRunBegan) {
  // With --jobs, one worker may store a bucket on one target just before another stores it on
  // a second: the second must still call it new (the parent counts it new only if some
  // worker says so). Played without a race: a first campaign stores the bucket on gfx950,
  // then a gfx942 campaign runs with the corpus as it was before the first (empty).
  const std::string dir = TempDir();
  CampaignOptions o = Options(dir);
  o.inject = {"sr_wrap"};
  o.instrs = {Instr::v_cvt_sr_fp8_f32};
  o.max_execs = 60;
  o.targets = {"gfx950"};
  auto first = RunCampaign(o, nullptr);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_FALSE(first->new_buckets.empty());
  o.targets = {"gfx942"};
  o.buckets_before = std::make_shared<const std::set<std::string>>();
  auto second = RunCampaign(o, nullptr);
  ASSERT_TRUE(second.ok()) << second.status();
  for (const std::string& b : first->new_buckets) {
    if (second->buckets.count(b) == 0) continue;  // not met on gfx942 in this run
    EXPECT_EQ(second->new_buckets.count(b), 1u) << b << ": stored by a sibling in this run";
  }
  // Without the snapshot the campaign reads the corpus itself: gfx950's bucket is not new.
  o.buckets_before = nullptr;
  o.seed = 8;
  auto third = RunCampaign(o, nullptr);
  ASSERT_TRUE(third.ok()) << third.status();
  for (const std::string& b : third->new_buckets) {
    EXPECT_EQ(first->new_buckets.count(b), 0u) << b << " was in the corpus already";
  }
  size_t met = 0;
  for (const std::string& b : first->new_buckets) met += second->buckets.count(b);
  EXPECT_GT(met, 0u) << "no bucket of the first run was met again: the test checked nothing";
}

TEST(Campaign, OptionsOutOfRangeAreRefusedBeforeAnyCase) {
  // The library's own guard for what the CLI refuses: a NaN time ran
  // forever, jobs = 0 ran one job, more lanes than the mutator's cap were silently capped.
  const std::string dir = TempDir();
  std::vector<std::pair<std::string, CampaignOptions>> bad;
  CampaignOptions o = Options(dir);
  o.max_execs = 1;
  bad.push_back({"time nan", o});
  bad.back().second.time_seconds = std::nan("");
  bad.push_back({"time -1", o});
  bad.back().second.time_seconds = -1;
  bad.push_back({"batch timeout 0", o});
  bad.back().second.batch_timeout_seconds = 0;
  bad.push_back({"batch timeout nan", o});
  bad.back().second.batch_timeout_seconds = std::nan("");
  bad.push_back({"jobs 0", o});
  bad.back().second.jobs = 0;
  bad.push_back({"lanes above kMaxLanes", o});
  bad.back().second.lanes_per_batch = kMaxLanes + 1;
  for (const auto& [what, opts] : bad) {
    auto stats = RunCampaignJobs(opts, nullptr);
    EXPECT_EQ(stats.status().code(), absl::StatusCode::kInvalidArgument) << what;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/findings"));  // refused before opening anything
}

}  // namespace
}  // namespace lanediff
