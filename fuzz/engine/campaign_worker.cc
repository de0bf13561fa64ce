// The campaign worker's loop: setup (device, known answers, store, seeds), the run until a
// limit or a stop, and the progress line (the stages: fuzz/engine/campaign_worker.h).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "device_harness/open_runner.h"
#include "fuzz/engine/campaign_worker.h"
#include "fuzz/selftest/selftest.h"
#include "model/base/status.h"
#include "proto/file_io.h"
#include "proto/text_format.h"

namespace lanediff {
namespace campaign_internal {

absl::Status Worker::Setup() {
  LANEDIFF_RETURN_IF_ERROR(mutator_.Check());
  for (const std::string& h : o_.hypotheses) LANEDIFF_RETURN_IF_ERROR(SetHypothesis(h, &hyp_));
  RunnerOptions ro;
  ro.inject = o_.inject;
  ro.timeout = absl::Seconds(o_.batch_timeout_seconds);
  if (o_.start_timeout_seconds > 0) ro.start_timeout = absl::Seconds(o_.start_timeout_seconds);
  LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> device, o_.open_runner ? o_.open_runner(ro)
                                                                           : OpenRunner(o_.device, ro, &stats_.note));
  runner_ = std::make_unique<CountingRunner>(std::move(device), &stats_.device_calls);
  stats_.device_description = runner_->Describe();
  stats_.device_driver = runner_->Driver();  // else the first answer's provenance says
  const bool gpu = absl::StrContains(stats_.device_description, "hip:");
  launch_lanes_ = o_.launch_lanes >= 0 ? static_cast<size_t>(o_.launch_lanes)
                  : gpu                ? kGpuLaunchLanes
                  : absl::StartsWith(o_.device, "exec:") ? kExecLaunchLanes
                                                         : 0;
  using KA = CampaignOptions::KnownAnswerCheck;
  if (o_.known_answer_check == KA::always || (o_.known_answer_check == KA::hardware && gpu)) {
    LANEDIFF_RETURN_IF_ERROR(CheckKnownAnswers());
  }
  if (!o_.corpus.empty()) {
    LANEDIFF_ASSIGN_OR_RETURN(CorpusStore s, CorpusStore::Open(o_.corpus + "/findings"));
    store_ = std::make_unique<CorpusStore>(std::move(s));
    buckets_before_ = o_.buckets_before != nullptr
                          ? o_.buckets_before
                          : std::make_shared<const std::set<std::string>>(
                                BucketsInStore(store_->root()));
    LoadSeeds();
  }
  return absl::OkStatus();
}

// The known-answer batches of fuzz/selftest/selftest.h for each campaign target the device accepts.
absl::Status Worker::CheckKnownAnswers() {
  for (const TargetTraits& t : AllTargets()) {
    if (!o_.targets.empty() && std::find(o_.targets.begin(), o_.targets.end(), t.name) == o_.targets.end()) continue;
    LANEDIFF_ASSIGN_OR_RETURN(SelfTest st, RunSelfTest(*runner_, t, {.discriminate = false}));
    int wrong = 0, run = 0;
    for (const KnownAnswer& k : st.known) {
      if (absl::IsInvalidArgument(k.status) || absl::IsNotFound(k.status)) continue;  // not this device's target
      if (k.unsupported()) continue;  // the device cannot run it: its cases are counted "unsupported"
      ++run;
      wrong += !k.ok();
    }
    if (wrong == 0) continue;
    std::string saw = FormatSelfTest(st);
    if (!o_.corpus.empty()) {
      const std::string path = absl::StrCat(o_.corpus, "/selftest-", t.name, ".textproto");
      std::ofstream(path, std::ios::trunc) << SelfTestBundle(st);
      saw = absl::StrCat("the self-test bundle (what it saw, replayable) is ", path, "\n", saw);
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "the harness is wrong on this GPU (", stats_.device_description, "): ", wrong, " of ", run,
        " known-answer batches for ", t.name, " wrong; no campaign. ", saw));
  }
  return absl::OkStatus();
}

void Worker::LoadSeeds() {
  const std::string dir = o_.corpus + "/seeds";
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 && errno == ENOENT) return;  // no seeds: nothing to say
  // Unreadable directories, FIFOs and devices are named; the walk goes on past them.
  FileWalk walk = WalkFiles({dir}, [](absl::string_view name) {
    return absl::EndsWith(name, ".textproto");
  });
  for (const std::string& e : walk.errors) Note(absl::StrCat("seed skipped: ", e));
  const std::vector<std::string>& files = walk.files;
  for (const std::string& f : files) {
    absl::StatusOr<std::string> text = ReadFile(f);
    if (!text.ok()) {
      Note(absl::StrCat("seed skipped: ", text.status().message()));
      continue;
    }
    proto::TestCase tc;
    if (absl::Status st = ParseTextInto(*text, f, &tc); !st.ok()) {
      Note(absl::StrCat("seed skipped: ", st.message()));  // path:line:col, never rewritten
      continue;
    }
    if (pool_.size() >= kPoolSize) break;
    mutator_.Fixup(rng_, &tc);
    pool_.push_back(Flatten(std::move(tc)));
  }
}

void Worker::Progress(bool final) {
  if (o_.progress_fd < 0) {  // the parent samples --jobs
    const double secs = Since(t0_);
    if (stats_.timeline.Wants(secs)) stats_.timeline.Offer(Sample(stats_, secs));
  }
  if (o_.progress_fd >= 0 && !final) {
    const auto now = Clock::now();
    if (now - last_progress_ < std::chrono::milliseconds(1000)) return;
    last_progress_ = now;
    WriteAll(o_.progress_fd, EncodeStats(stats_, false));
    return;
  }
  if (!o_.progress) return;
  const auto now = Clock::now();
  if (tty_ < 0) tty_ = ::isatty(2) ? 1 : 0;  // once: a syscall per case was 3% of a campaign
  const bool tty = tty_ == 1;
  // A terminal gets a live line every second; a log gets a line every 10 seconds.
  if (!final && now - last_progress_ < std::chrono::milliseconds(tty ? 1000 : 10000)) return;
  last_progress_ = now;
  if (!tty) {
    std::fprintf(stderr, "%s\n",
                 ProgressLine(stats_, Since(t0_), o_.time_seconds, o_.max_execs).c_str());
    return;
  }
  std::fprintf(stderr, "\r%s\x1b[K%s",
               ProgressLine(stats_, Since(t0_), o_.time_seconds, o_.max_execs).c_str(),
               final ? "\n" : "");
  std::fflush(stderr);
  progress_shown_ = !final;
}

absl::StatusOr<CampaignStats> Worker::Run() {
  LANEDIFF_RETURN_IF_ERROR(Setup());
  t0_ = Clock::now();
  last_progress_ = t0_;
  uint64_t consecutive_refusals = 0;
  while (!(stop_ != nullptr && stop_->load())) {
    if (o_.max_execs != 0 && stats_.execs >= o_.max_execs) break;
    if (o_.stop_after_findings != 0 && stats_.new_findings >= o_.stop_after_findings) break;
    if (o_.time_seconds > 0 && Since(t0_) >= o_.time_seconds) break;
    if (launch_lanes_ > 0) {
      LANEDIFF_RETURN_IF_ERROR(RunRound(&consecutive_refusals));
      continue;
    }
    LANEDIFF_RETURN_IF_ERROR(RunOne(&consecutive_refusals));
  }
  FlushCounts();
  stats_.seconds = Since(t0_);
  stats_.timeline.Close(Sample(stats_, stats_.seconds));
  if (progress_shown_) {
    std::fprintf(stderr, "\r%s\x1b[K\n", ProgressLine(stats_, stats_.seconds, 0, 0).c_str());
  }
  std::sort(stats_.new_signatures.begin(), stats_.new_signatures.end());
  return stats_;
}

}  // namespace campaign_internal
}  // namespace lanediff
