#include "device_harness/serve/serve_runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "device_harness/exec/exec_runner.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/fault.h"
#include "device_harness/isolation/isolated_runner.h"
#include "device_harness/isolation/wire.h"
#include "device_harness/serve/serve_protocol.h"
#include "model/base/status.h"
#include "model/base/version.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

constexpr size_t kStderrTail = 4096;  // stderr bytes kept for messages (the last ones)

// What one exchange produced: the answer frame's payload, or why there is none.
struct Exchange {
  std::optional<std::string> payload;
  bool timed_out = false;
  bool ended = false;     // stdout closed: the process is gone (or closed it)
  std::string protocol;   // a framing error (oversized frame)
};

class ServeRunner : public Runner {
 public:
  explicit ServeRunner(ServeOptions options)
      : options_(std::move(options)), who_(absl::StrCat("exec-serve:", options_.command)) {}
  ~ServeRunner() override { Stop(/*kill=*/false); }

  // Starts the process and reads its hello.
  absl::Status Start() {
    LANEDIFF_ASSIGN_OR_RETURN(
        child_, SpawnGuarded({"/bin/sh", "-c",
                              ExpandLanediff(options_.command, options_.lanediff_path)}));
    stderr_tail_.clear();
    Exchange x = Talk("", options_.start_timeout, kMaxFrameBytes);
    if (!x.payload) {
      const std::string why =
          x.timed_out ? absl::StrCat("no hello within ", absl::FormatDuration(options_.start_timeout))
          : !x.protocol.empty() ? x.protocol
                                : "the process ended before its hello";
      const std::string how = Stop(/*kill=*/true);
      return absl::UnavailableError(WithStderr(absl::StrCat(
          who_, ": ", why, " (", how, ")",
          how == "exit status 127" || how == "exit status 126"
              ? ": the shell's 'not found' or 'not executable'"
              : "")));
    }
    absl::StatusOr<ServeHello> hello = DecodeHello(*x.payload);
    if (!hello.ok()) {
      Stop(/*kill=*/true);
      return absl::UnavailableError(WithStderr(absl::StrCat(
          who_, ": not an exec-serve hello (", hello.status().message(),
          "); a command for the per-batch `lanediff eval` contract wants --device=exec:")));
    }
    hello_ = *std::move(hello);
    return absl::OkStatus();
  }

  std::string Describe() const override { return absl::StrCat(who_, ": ", hello_.device); }

  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    LANEDIFF_RETURN_IF_ERROR(hello_.Covers(batch));
    LANEDIFF_ASSIGN_OR_RETURN(std::string request, EncodeRequest(++next_id_, batch));
    if (child_.pid < 0) {
      absl::Status s = Start();
      if (!s.ok()) return DeviceFault(absl::StrCat("restarting after a fault: ", s.message()));
    }
    const size_t lanes = batch.lanes.size();
    // Destination words the answer carries: one per lane, two for a VGPR pair (dst_bits 64).
    const size_t words = lanes * static_cast<size_t>(DstWords(batch.instr));
    const size_t limit = std::min<size_t>(ExecAnswerLimit(words), kMaxFrameBytes);
    Exchange x = Talk(Frame(request), options_.timeout, static_cast<uint32_t>(limit));
    if (!x.payload) {
      std::string what;
      absl::StatusCode code = absl::StatusCode::kUnavailable;
      if (x.timed_out) {
        code = absl::StatusCode::kDeadlineExceeded;
        what = absl::StrCat("hang: no answer within ", absl::FormatDuration(options_.timeout),
                            " of the request (timeout); process group killed");
      } else if (!x.protocol.empty()) {
        what = absl::StrCat("malformed answer: ", x.protocol, "; process group killed");
      }
      const std::string how = Stop(/*kill=*/!x.ended || x.timed_out);
      if (what.empty()) what = absl::StrCat("the process ended (", how, ") before answering");
      return DeviceFault(code, WithStderr(absl::StrCat(who_, ": ", what)));
    }
    absl::StatusOr<ServeAnswer> a = DecodeAnswer(*x.payload, words);
    std::string bad;
    if (!a.ok()) {
      bad = std::string(a.status().message());
    } else if (a->id != next_id_) {
      bad = absl::StrCat("answer to request ", a->id, " while ", next_id_, " was asked");
    } else if (a->result.ok() && a->result->vdst.size() != words) {
      bad = absl::StrCat(a->result->vdst.size(), " VDST words for ", lanes, " lanes",
                         words != lanes ? absl::StrCat(" (", words, " wanted: a VGPR pair each)") : "");
    }
    if (!bad.empty()) {
      Stop(/*kill=*/true);
      return DeviceFault(WithStderr(absl::StrCat(who_, ": malformed answer: ", bad,
                                                 "; process group killed")));
    }
    if (!a->result.ok()) return a->result.status();
    proto::Provenance& p = a->result->provenance;
    if (p.runner().empty()) p.set_runner(who_);
    if (p.device().empty()) p.set_device(hello_.device);
    if (p.target().empty()) p.set_target(std::string(batch.target->name));
    if (p.lanediff_version().empty()) p.set_lanediff_version(LANEDIFF_VERSION);
    return std::move(a->result);
  }

 private:
  // Writes `request` while reading stdout (into one frame of at most `max_frame` bytes) and
  // stderr (its tail kept), until a whole frame is in, stdout ends or `timeout` (from now)
  // passes. The device writes nothing between answers, so bytes past the frame are an error.
  Exchange Talk(const std::string& request, absl::Duration timeout, uint32_t max_frame) {
    Exchange x;
    StopAwareTimer timer(timeout);
    size_t written = 0;
    std::string buf;
    char chunk[65536];
    int drains = 0;
    for (;;) {
      absl::StatusOr<std::optional<std::string>> f = PopFrame(&buf, max_frame);
      if (!f.ok()) {
        x.protocol = absl::StrCat(f.status().message(), " (bytes per answer: ",
                                  kExecAnswerBaseBytes, " + ", kExecAnswerBytesPerLane,
                                  " per lane)");
        return x;
      }
      if (*f) {
        if (!buf.empty()) {
          x.protocol = absl::StrCat(buf.size(), " bytes on stdout after the answer");
          return x;
        }
        x.payload = std::move(**f);
        return x;
      }
      const bool expired = timer.Expired();
      if (expired && ++drains > 64) {
        x.timed_out = true;
        return x;
      }
      pollfd p[3];
      int n = 0, idx_in = -1, idx_err = -1;
      if (written < request.size() && !expired) idx_in = n, p[n++] = {child_.in, POLLOUT, 0};
      const int idx_out = n;
      p[n++] = {child_.out, POLLIN, 0};
      if (child_.err >= 0) idx_err = n, p[n++] = {child_.err, POLLIN, 0};
      const int rc = ::poll(p, n, expired ? 0 : timer.NextWaitMs());
      if (rc < 0 && errno == EINTR) continue;
      if (rc < 0 || (expired && rc == 0)) {
        x.timed_out = true;
        return x;
      }
      if (idx_in >= 0 && p[idx_in].revents) {
        int e = 0;
        const ssize_t w =
            WriteNoSigpipe(child_.in, request.data() + written, request.size() - written, &e);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 && e != EAGAIN && e != EINTR) written = request.size();  // reader gone
      }
      if (idx_err >= 0 && p[idx_err].revents) {
        const ssize_t got = ::read(child_.err, chunk, sizeof chunk);
        if (got > 0) {
          KeepStderr(chunk, static_cast<size_t>(got));
        } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
          ::close(child_.err);
          child_.err = -1;
        }
      }
      if (p[idx_out].revents) {
        const ssize_t got = ::read(child_.out, chunk, sizeof chunk);
        if (got > 0) {
          buf.append(chunk, static_cast<size_t>(got));
        } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
          x.ended = true;
          return x;
        }
      }
    }
  }

  // Keeps the last kStderrTail bytes (at least) of what the device wrote on stderr: the
  // buffer never holds more than 2 * kStderrTail + one read, in any phase.
  void KeepStderr(const char* data, size_t n) {
    stderr_tail_.append(data, n);
    if (stderr_tail_.size() > 2 * kStderrTail) {
      stderr_tail_.erase(0, stderr_tail_.size() - kStderrTail);
    }
  }

  // Ends the process (closing its stdin first; killing it at once when `kill`, or after 2 s),
  // reaps it and says how it ended. Nothing it started outlives this: the device is killed
  // through its guard (KillGuardedCommand), which then kills what the device left behind (a
  // process that left the group is named in a warning), on every path; a guard that has not
  // ended kGuardKillGrace later is killed with the whole group.
  std::string Stop(bool kill) {
    if (child_.pid < 0) return "not running";
    std::optional<StopAwareTimer> kill_grace;
    if (kill) {
      KillGuardedCommand(child_.pid);
      kill_grace.emplace(kGuardKillGrace);
    }
    for (int* fd : {&child_.in, &child_.out}) {
      if (*fd >= 0) ::close(*fd);
      *fd = -1;
    }
    StopAwareTimer grace(absl::Seconds(2));
    bool group_killed = false;
    while (WaitGuardExited(child_.pid) == 0) {
      if (!kill_grace && grace.Expired()) {
        KillGuardedCommand(child_.pid);
        kill_grace.emplace(kGuardKillGrace);
      }
      if (kill_grace && !group_killed && kill_grace->Expired()) {
        ::kill(-child_.pid, SIGKILL);
        group_killed = true;
      }
      // Drain stderr meanwhile (its last words go into the message), keeping only its tail.
      pollfd p{child_.err, POLLIN, 0};
      if (child_.err >= 0 && ::poll(&p, 1, 5) > 0) {
        char chunk[4096];
        const ssize_t got = ::read(child_.err, chunk, sizeof chunk);
        if (got > 0) {
          KeepStderr(chunk, static_cast<size_t>(got));
        } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
          ::close(child_.err);
          child_.err = -1;
        }
      } else if (child_.err < 0) {
        ::usleep(5000);
      }
    }
    if (child_.err >= 0) {
      // What is left in the pipe, bounded: a writer outside the group could go on for ever.
      char chunk[4096];
      ssize_t got;
      for (int i = 0; i < 64 && (got = ::read(child_.err, chunk, sizeof chunk)) > 0; ++i) {
        KeepStderr(chunk, static_cast<size_t>(got));
      }
      ::close(child_.err);
      child_.err = -1;
    }
    std::string escaped;
    const int st = ReapGuard(child_, &escaped);
    if (!escaped.empty()) {
      std::fprintf(stderr, "lanediff: warning: %s left processes running outside its process "
                   "group (setsid); killed: %s\n", ToValidUtf8(who_).c_str(),
                   ToValidUtf8(absl::StrReplaceAll(escaped, {{"\n", ", "}})).c_str());
    }
    child_ = GuardedChild{};
    return DescribeWaitStatus(st);
  }

  std::string WithStderr(absl::string_view what) const {
    absl::string_view tail = stderr_tail_;
    if (tail.size() > kStderrTail) {
      tail.remove_prefix(Utf8CutAfter(tail, tail.size() - kStderrTail));  // whole characters
    }
    const std::string err(absl::StripTrailingAsciiWhitespace(tail));
    // The device's bytes: any bytes, made UTF-8 before they become a fault message.
    return ToValidUtf8(
        absl::StrCat(what, err.empty() ? "; no stderr" : absl::StrCat("; stderr: ", err)));
  }

  ServeOptions options_;
  std::string who_;
  GuardedChild child_;
  ServeHello hello_;
  std::string stderr_tail_;
  uint32_t next_id_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Runner>> OpenServeRunner(const ServeOptions& options) {
  if (absl::StripAsciiWhitespace(options.command).empty()) {
    return absl::InvalidArgumentError(
        "--device=exec-serve:COMMAND needs a command after 'exec-serve:'");
  }
  if (options.timeout <= absl::ZeroDuration() || options.start_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("exec-serve timeouts must be positive");
  }
  LANEDIFF_RETURN_IF_ERROR(CheckCommandExists(options.command, "exec-serve:"));
  auto runner = std::make_unique<ServeRunner>(options);
  LANEDIFF_RETURN_IF_ERROR(runner->Start());
  return std::unique_ptr<Runner>(std::move(runner));
}

}  // namespace lanediff
