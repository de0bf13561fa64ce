// `lanediff fuzz --jobs N` (RunCampaignJobs, fuzz/engine/campaign.h): N worker processes, each a
// RunCampaign of its own, their counters and findings merged by the parent.
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device_harness/isolation/wire.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/engine/campaign_internal.h"
#include "model/base/status.h"

namespace lanediff {
namespace {

using campaign_internal::BucketOf;
using campaign_internal::BucketsInStore;
using campaign_internal::Clock;
using campaign_internal::DecodeMessage;
using campaign_internal::EncodeStats;
using campaign_internal::Message;
using campaign_internal::NewFindingLines;
using campaign_internal::kMaxWorkerMessage;
using campaign_internal::Sample;
using campaign_internal::Since;
using campaign_internal::UnconfirmedWarning;
using campaign_internal::WriteAll;

std::atomic<bool> g_worker_stop{false};

void OnWorkerStop(int) { g_worker_stop.store(true); }

void InstallWorkerStop() {
  struct sigaction sa = {};
  sa.sa_handler = OnWorkerStop;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

struct Child {
  pid_t pid;
  int fd;
  std::string buf;
  CampaignStats stats;
};

// Worker `i`'s process: its share of the run (seed + i, its part of max_execs), counters and
// findings to the parent on `fd`. Never returns.
[[noreturn]] void WorkerMain(const CampaignOptions& options, const CampaignOptions& shared, int i,
                             int fd, pid_t parent, const std::atomic<bool>* stop) {
  CampaignOptions o = shared;
  o.jobs = 1;
  o.worker = i;
  o.seed = options.seed + static_cast<uint64_t>(i);
  o.progress = false;
  if (options.max_execs != 0) {
    o.max_execs = options.max_execs / options.jobs +
                  (static_cast<uint64_t>(i) < options.max_execs % options.jobs ? 1 : 0);
    if (o.max_execs == 0) ::_exit(0);
  }
  o.progress_fd = fd;  // 'P' counter frames every second, 'F' + lists at the end
  // SIGINT/SIGTERM (the parent forwards them; Ctrl-C reaches the whole group) stop this
  // worker between batches; the parent's death does too (PR_SET_PDEATHSIG).
  InstallWorkerStop();
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent || (stop != nullptr && stop->load())) g_worker_stop.store(true);
  absl::StatusOr<CampaignStats> s = RunCampaign(o, &g_worker_stop);
  if (!s.ok()) {
    const bool env = s.status().code() == absl::StatusCode::kUnavailable;
    WriteAll(fd, Message('X', absl::StrCat(env ? "env " : "err ", s.status().message())));
    ::_exit(3);
  }
  WriteAll(fd, EncodeStats(*s, true));
  ::_exit(0);
}

// The parent's side while the workers run: their frames read and decoded, the `new finding:`
// and unconfirmed lines printed once per run (what the parent alone knows: which buckets it
// printed, which were new, and when), one progress line for all workers.
class Parent {
 public:
  Parent(const CampaignOptions& options, std::vector<Child>* children, Clock::time_point t0)
      : options_(options), children_(*children), t0_(t0), open_(children->size()), last_(Clock::now()) {}

  // Until every worker's pipe is closed; `stop` is forwarded to the workers.
  void Drain(const std::atomic<bool>* stop) {
    while (open_ > 0) {
      // Asked to stop (SIGINT/SIGTERM reached this process only, say): so are the workers. They
      // finish their batch, flush their counts and send their final lists.
      if (!forwarded_ && stop != nullptr && stop->load()) {
        forwarded_ = true;
        for (const Child& c : children_) ::kill(c.pid, SIGTERM);
      }
      std::vector<pollfd> pfds;
      for (Child& c : children_) {
        if (c.fd >= 0) pfds.push_back({c.fd, POLLIN, 0});
      }
      ::poll(pfds.data(), pfds.size(), forwarded_ ? 1000 : 100);
      for (Child& c : children_) {
        if (c.fd < 0) continue;
        pollfd* p = nullptr;
        for (pollfd& q : pfds) {
          if (q.fd == c.fd) p = &q;
        }
        if (p == nullptr || !(p->revents & (POLLIN | POLLHUP))) continue;
        Read(c);
      }
      ShowProgress();
    }
    if (options_.progress && ::isatty(2)) std::fprintf(stderr, "\r\x1b[K");
  }

  const std::string& fatal() const { return fatal_; }
  const CampaignStats& own() const { return own_; }

 private:
  void Close(Child& c) {
    ::close(c.fd);
    c.fd = -1;
    --open_;
  }

  void Read(Child& c) {
    char buf[4096];
    ssize_t n = ::read(c.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) {
      Close(c);
      return;
    }
    c.buf.append(buf, static_cast<size_t>(n));
    for (;;) {
      absl::StatusOr<std::optional<std::string>> msg = PopFrame(&c.buf, kMaxWorkerMessage);
      if (!msg.ok()) {  // cannot happen with our own workers: stop trusting this pipe
        fatal_ = absl::StrCat("err worker ", c.pid, ": ", msg.status().message());
        Close(c);
        break;
      }
      if (!msg->has_value()) break;
      OnFrame(c, **msg);
    }
  }

  void OnFrame(Child& c, const std::string& m) {
    if (!m.empty() && m[0] == 'X') {
      fatal_ = m.substr(1);
    } else if (m.size() > 1 && m[0] == 'U') {  // printed here, once per reason per run
      const std::string reason = m.substr(1);
      std::vector<std::string>& seen = own_.unconfirmed_reasons;
      if (seen.size() < kMaxUnconfirmedReasons &&
          std::find(seen.begin(), seen.end(), reason) == seen.end()) {
        seen.push_back(reason);
        if (options_.progress && ::isatty(2)) std::fprintf(stderr, "\r\x1b[K");
        std::fprintf(stderr, "%s", UnconfirmedWarning(reason).c_str());
      }
    } else if (m.size() > 2 && m[0] == 'B') {  // printed here, once per bucket per run
      const size_t tab = m.find('\t');
      const std::string sig = m.substr(2, tab == std::string::npos ? std::string::npos : tab - 2);
      const std::string path = tab == std::string::npos ? "" : m.substr(tab + 1);
      const std::string bucket = BucketOf(sig);
      if (printed_.insert(bucket).second) {
        if (m[1] == '1') {
          own_.new_buckets.insert(bucket);
          own_.last_new_seconds = Since(t0_);
        }
        if (options_.progress && ::isatty(2)) std::fprintf(stderr, "\r\x1b[K");
        std::fprintf(stderr, "%s", NewFindingLines(sig, path, m[1] == '1').c_str());
      }
    } else {
      DecodeMessage(m, &c.stats);
    }
  }

  CampaignStats Sum() const {
    CampaignStats sum;
    for (const Child& c : children_) {
      sum.execs += c.stats.execs;
      sum.lanes += c.stats.lanes;
      sum.new_findings += c.stats.new_findings;
      sum.device_faults += c.stats.device_faults;
      for (int i = 0; i < kNumInputClasses; ++i) sum.classes[i] += c.stats.classes[i];
      sum.buckets.insert(c.stats.buckets.begin(), c.stats.buckets.end());
    }
    sum.new_buckets = own_.new_buckets;
    sum.last_new_seconds = own_.last_new_seconds;
    return sum;
  }

  // One line for all workers. As for one worker: a terminal redraws the line every second,
  // a log gets one every 10 s.
  void ShowProgress() {
    const CampaignStats sum = Sum();
    own_.timeline.Offer(Sample(sum, Since(t0_)));
    const bool tty = ::isatty(2);
    if (options_.progress && Clock::now() - last_ > std::chrono::seconds(tty ? 1 : 10)) {
      last_ = Clock::now();
      std::fprintf(stderr, tty ? "\r%s (%d workers)\x1b[K" : "%s (%d workers)\n",
                   ProgressLine(sum, Since(t0_), options_.time_seconds, options_.max_execs).c_str(),
                   static_cast<int>(open_));
      std::fflush(stderr);
    }
  }

  const CampaignOptions& options_;
  std::vector<Child>& children_;
  const Clock::time_point t0_;
  size_t open_;
  Clock::time_point last_;
  bool forwarded_ = false;
  std::string fatal_;
  std::set<std::string> printed_;
  CampaignStats own_;
};

// A finished worker's final counters and lists added into `total`.
void AddWorker(const CampaignStats& s, CampaignStats* total) {
  total->execs += s.execs;
  total->lanes += s.lanes;
  total->invalid += s.invalid;
  total->refused += s.refused;
  total->unsupported += s.unsupported;
  total->unconfirmed += s.unconfirmed;
  total->device_calls += s.device_calls;
  total->triage_device_calls += s.triage_device_calls;
  total->disagreeing += s.disagreeing;
  total->device_faults += s.device_faults;
  total->environment_errors += s.environment_errors;
  total->new_findings += s.new_findings;
  total->repeats += s.repeats;
  for (int i = 0; i < kNumInputClasses; ++i) total->classes[i] += s.classes[i];
  total->signatures.insert(s.signatures.begin(), s.signatures.end());
  total->new_signatures.insert(total->new_signatures.end(), s.new_signatures.begin(),
                               s.new_signatures.end());
  total->errors.insert(total->errors.end(), s.errors.begin(), s.errors.end());
  if (total->device_description.empty()) total->device_description = s.device_description;
  if (total->device_driver.empty()) total->device_driver = s.device_driver;
  total->buckets.insert(s.buckets.begin(), s.buckets.end());
  for (const proto::CoverageCell& cell : s.coverage.Cells()) total->coverage.Add(cell);
}

}  // namespace

absl::StatusOr<CampaignStats> RunCampaignJobs(const CampaignOptions& options,
                                              const std::atomic<bool>* stop) {
  LANEDIFF_RETURN_IF_ERROR(campaign_internal::CheckOptions(options));
  if (options.jobs == 1) return RunCampaign(options, stop);
  std::vector<Child> children;
  const auto t0 = Clock::now();
  // What the corpus held before any worker stores: the workers' one view of "new".
  CampaignOptions shared = options;
  if (!options.corpus.empty() && shared.buckets_before == nullptr) {
    shared.buckets_before =
        std::make_shared<const std::set<std::string>>(BucketsInStore(options.corpus + "/findings"));
  }
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  for (int i = 0; i < options.jobs; ++i) {
    int fds[2];
    if (::pipe(fds) != 0) return absl::InternalError("pipe() failed");
    pid_t pid = ::fork();
    if (pid < 0) return absl::InternalError("fork() failed");
    if (pid == 0) {
      ::close(fds[0]);
      WorkerMain(options, shared, i, fds[1], parent, stop);
    }
    ::close(fds[1]);
    children.push_back({pid, fds[0], "", {}});
  }
  Parent p(options, &children, t0);
  p.Drain(stop);
  CampaignStats total;
  bool failed = false;
  for (Child& c : children) {
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = true;
    AddWorker(c.stats, &total);
  }
  const CampaignStats& own = p.own();
  total.seconds = Since(t0);
  total.new_buckets = own.new_buckets;
  total.unconfirmed_reasons = own.unconfirmed_reasons;
  total.last_new_seconds = own.last_new_seconds;
  total.timeline = own.timeline;
  std::sort(total.new_signatures.begin(), total.new_signatures.end());
  total.new_signatures.erase(std::unique(total.new_signatures.begin(), total.new_signatures.end()),
                             total.new_signatures.end());
  // Two workers can both find a signature new only if they raced on it; the store kept one.
  total.new_findings = total.new_signatures.size();
  total.timeline.Close(Sample(total, total.seconds));
  const std::string& fatal = p.fatal();
  if (!fatal.empty()) {
    if (fatal.rfind("env ", 0) == 0) return absl::UnavailableError(fatal.substr(4));
    return absl::InternalError(fatal.substr(4));
  }
  if (failed) return absl::InternalError("a worker process died (see its messages above)");
  return total;
}

}  // namespace lanediff
