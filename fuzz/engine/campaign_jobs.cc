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
#include <cstdio>
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

}  // namespace

absl::StatusOr<CampaignStats> RunCampaignJobs(const CampaignOptions& options,
                                              const std::atomic<bool>* stop) {
  LANEDIFF_RETURN_IF_ERROR(campaign_internal::CheckOptions(options));
  if (options.jobs == 1) return RunCampaign(options, stop);
  struct Child {
    pid_t pid;
    int fd;
    std::string buf;
    CampaignStats stats;
  };
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
      o.progress_fd = fds[1];  // 'P' counter frames every second, 'F' + lists at the end
      // SIGINT/SIGTERM (the parent forwards them; Ctrl-C reaches the whole group) stop this
      // worker between batches; the parent's death does too (PR_SET_PDEATHSIG).
      InstallWorkerStop();
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent || (stop != nullptr && stop->load())) g_worker_stop.store(true);
      absl::StatusOr<CampaignStats> s = RunCampaign(o, &g_worker_stop);
      if (!s.ok()) {
        const bool env = s.status().code() == absl::StatusCode::kUnavailable;
        WriteAll(fds[1], Message('X', absl::StrCat(env ? "env " : "err ", s.status().message())));
        ::_exit(3);
      }
      WriteAll(fds[1], EncodeStats(*s, true));
      ::_exit(0);
    }
    ::close(fds[1]);
    children.push_back({pid, fds[0], "", {}});
  }
  std::string fatal;
  size_t open = children.size();
  auto last = Clock::now();
  bool forwarded = false;
  // What the parent alone knows: which buckets it printed, which were new, and when.
  std::set<std::string> printed;
  CampaignStats own;
  auto sum_of = [&] {
    CampaignStats sum;
    for (const Child& c : children) {
      sum.execs += c.stats.execs;
      sum.lanes += c.stats.lanes;
      sum.new_findings += c.stats.new_findings;
      sum.device_faults += c.stats.device_faults;
      for (int i = 0; i < kNumInputClasses; ++i) sum.classes[i] += c.stats.classes[i];
      sum.buckets.insert(c.stats.buckets.begin(), c.stats.buckets.end());
    }
    sum.new_buckets = own.new_buckets;
    sum.last_new_seconds = own.last_new_seconds;
    return sum;
  };
  while (open > 0) {
    // Asked to stop (SIGINT/SIGTERM reached this process only, say): so are the workers. They
    // finish their batch, flush their counts and send their final lists.
    if (!forwarded && stop != nullptr && stop->load()) {
      forwarded = true;
      for (const Child& c : children) ::kill(c.pid, SIGTERM);
    }
    std::vector<pollfd> pfds;
    for (Child& c : children) {
      if (c.fd >= 0) pfds.push_back({c.fd, POLLIN, 0});
    }
    ::poll(pfds.data(), pfds.size(), forwarded ? 1000 : 100);
    for (Child& c : children) {
      if (c.fd < 0) continue;
      pollfd* p = nullptr;
      for (pollfd& q : pfds) {
        if (q.fd == c.fd) p = &q;
      }
      if (p == nullptr || !(p->revents & (POLLIN | POLLHUP))) continue;
      char buf[4096];
      ssize_t n = ::read(c.fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(c.fd);
        c.fd = -1;
        --open;
        continue;
      }
      c.buf.append(buf, static_cast<size_t>(n));
      for (;;) {
        absl::StatusOr<std::optional<std::string>> msg = PopFrame(&c.buf, kMaxWorkerMessage);
        if (!msg.ok()) {  // cannot happen with our own workers: stop trusting this pipe
          fatal = absl::StrCat("err worker ", c.pid, ": ", msg.status().message());
          ::close(c.fd);
          c.fd = -1;
          --open;
          break;
        }
        if (!msg->has_value()) break;
        const std::string& m = **msg;
        if (!m.empty() && m[0] == 'X') {
          fatal = m.substr(1);
        } else if (m.size() > 1 && m[0] == 'U') {  // printed here, once per reason per run
          const std::string reason = m.substr(1);
          std::vector<std::string>& seen = own.unconfirmed_reasons;
          if (seen.size() < kMaxUnconfirmedReasons &&
              std::find(seen.begin(), seen.end(), reason) == seen.end()) {
            seen.push_back(reason);
            if (options.progress && ::isatty(2)) std::fprintf(stderr, "\r\x1b[K");
            std::fprintf(stderr, "%s", UnconfirmedWarning(reason).c_str());
          }
        } else if (m.size() > 2 && m[0] == 'B') {  // printed here, once per bucket per run
          const size_t tab = m.find('\t');
          const std::string sig = m.substr(2, tab == std::string::npos ? std::string::npos : tab - 2);
          const std::string path = tab == std::string::npos ? "" : m.substr(tab + 1);
          const std::string bucket = BucketOf(sig);
          if (printed.insert(bucket).second) {
            if (m[1] == '1') {
              own.new_buckets.insert(bucket);
              own.last_new_seconds = Since(t0);
            }
            if (options.progress && ::isatty(2)) std::fprintf(stderr, "\r\x1b[K");
            std::fprintf(stderr, "%s", NewFindingLines(sig, path, m[1] == '1').c_str());
          }
        } else {
          DecodeMessage(m, &c.stats);
        }
      }
    }
    // One line for all workers. As for one worker: a terminal redraws the line every second,
    // a log gets one every 10 s.
    const CampaignStats sum = sum_of();
    own.timeline.Offer(Sample(sum, Since(t0)));
    const bool tty = ::isatty(2);
    if (options.progress && Clock::now() - last > std::chrono::seconds(tty ? 1 : 10)) {
      last = Clock::now();
      std::fprintf(stderr, tty ? "\r%s (%d workers)\x1b[K" : "%s (%d workers)\n",
                   ProgressLine(sum, Since(t0), options.time_seconds, options.max_execs).c_str(),
                   static_cast<int>(open));
      std::fflush(stderr);
    }
  }
  if (options.progress && ::isatty(2)) std::fprintf(stderr, "\r\x1b[K");
  CampaignStats total;
  bool failed = false;
  for (Child& c : children) {
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = true;
    const CampaignStats& s = c.stats;
    total.execs += s.execs;
    total.lanes += s.lanes;
    total.invalid += s.invalid;
    total.refused += s.refused;
    total.unsupported += s.unsupported;
    total.unconfirmed += s.unconfirmed;
    total.disagreeing += s.disagreeing;
    total.device_faults += s.device_faults;
    total.new_findings += s.new_findings;
    total.repeats += s.repeats;
    for (int i = 0; i < kNumInputClasses; ++i) total.classes[i] += s.classes[i];
    total.signatures.insert(s.signatures.begin(), s.signatures.end());
    total.new_signatures.insert(total.new_signatures.end(), s.new_signatures.begin(),
                                s.new_signatures.end());
    total.errors.insert(total.errors.end(), s.errors.begin(), s.errors.end());
    if (total.device_description.empty()) total.device_description = s.device_description;
    if (total.device_driver.empty()) total.device_driver = s.device_driver;
    total.buckets.insert(s.buckets.begin(), s.buckets.end());
    for (const proto::CoverageCell& cell : s.coverage.Cells()) total.coverage.Add(cell);
  }
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
  if (!fatal.empty()) {
    if (fatal.rfind("env ", 0) == 0) return absl::UnavailableError(fatal.substr(4));
    return absl::InternalError(fatal.substr(4));
  }
  if (failed) return absl::InternalError("a worker process died (see its messages above)");
  return total;
}

}  // namespace lanediff
