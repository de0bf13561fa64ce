#include "device_harness/isolation/isolated_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/fault.h"
#include "device_harness/isolation/wire.h"
#include "model/base/status.h"

namespace lanediff {
namespace {

constexpr int kChildIn = 3;   // the child's end of the request pipe
constexpr int kChildOut = 4;  // the child's end of the response pipe

// The child: build the runner, say hello, answer batches until the parent closes the pipe.
[[noreturn]] void ChildMain(const RunnerFactory& factory) {
  absl::StatusOr<std::unique_ptr<Runner>> runner = factory();
  if (!runner.ok()) {
    (void)WriteFrame(kChildOut, EncodeResult(runner.status()));
    _exit(0);
  }
  DeviceResult hello;
  hello.provenance.set_device((*runner)->Describe());
  hello.provenance.set_driver((*runner)->Driver());
  if (!WriteFrame(kChildOut, EncodeResult(hello)).ok()) _exit(1);
  for (;;) {
    absl::StatusOr<std::string> frame = ReadFrame(kChildIn);
    if (!frame.ok()) _exit(0);  // the parent closed the pipe: done
    absl::StatusOr<DeviceBatch> batch = DecodeBatch(*frame);
    absl::StatusOr<DeviceResult> result =
        batch.ok() ? (*runner)->Run(*batch) : absl::StatusOr<DeviceResult>(batch.status());
    if (!WriteFrame(kChildOut, EncodeResult(result)).ok()) _exit(1);
    // After a fault that lost the device context (fault.h DeviceFaultLostContext: a HIP
    // error) the runner is not trusted: end, so the next batch gets a fresh child.
    if (!result.ok() && NeedsFreshProcess(result.status())) _exit(0);
  }
}

std::string SecondsText(absl::Duration d) { return absl::FormatDuration(d); }

}  // namespace

std::string DescribeWaitStatus(int st) {
  if (WIFSIGNALED(st)) {
    const int sig = WTERMSIG(st);
    const char* abbrev = sigabbrev_np(sig);
    const char* descr = sigdescr_np(sig);
    return absl::StrFormat("signal %d (SIG%s: %s)%s", sig, abbrev ? abbrev : "?",
                           descr ? descr : "?", WCOREDUMP(st) ? ", core dumped" : "");
  }
  if (WIFEXITED(st)) return absl::StrCat("exit status ", WEXITSTATUS(st));
  return absl::StrCat("wait status 0x", absl::Hex(st));
}

absl::StatusOr<std::unique_ptr<IsolatedRunner>> IsolatedRunner::Start(RunnerFactory factory,
                                                                      IsolationOptions options) {
  std::unique_ptr<IsolatedRunner> r(new IsolatedRunner(std::move(factory), options));
  LANEDIFF_RETURN_IF_ERROR(r->Spawn());
  return r;
}

IsolatedRunner::~IsolatedRunner() {
  if (pid_ > 0) {
    ::close(to_child_);  // the child sees end of file and exits
    to_child_ = -1;
    for (int i = 0; i < 200; ++i) {  // up to 1 s of grace, then SIGKILL
      int st;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      ::usleep(5000);
    }
    if (pid_ > 0) Reap(/*kill=*/true);
  }
  if (from_child_ >= 0) ::close(from_child_);
}

std::string IsolatedRunner::Describe() const { return absl::StrCat("isolated ", describe_); }

absl::Status IsolatedRunner::Spawn() {
  int req[2], resp[2];
  if (::pipe2(req, O_CLOEXEC) != 0) return absl::InternalError("pipe2 failed");
  if (::pipe2(resp, O_CLOEXEC) != 0) {
    ::close(req[0]);
    ::close(req[1]);
    return absl::InternalError("pipe2 failed");
  }
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {req[0], req[1], resp[0], resp[1]}) ::close(fd);
    return absl::UnavailableError(absl::StrCat("fork: ", std::strerror(e)));
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);
    // Ctrl-C reaches the whole foreground process group: the parent decides how to stop (it
    // closes the pipe, and the child exits on end of file); a child killed by SIGINT would
    // otherwise turn the batch in flight into a false "crash" device fault.
    ::signal(SIGINT, SIG_IGN);
    // Our two ends to fds 3 and 4 (via high numbers so neither dup2 clobbers the other).
    const int in = ::fcntl(req[0], F_DUPFD, 100);
    const int out = ::fcntl(resp[1], F_DUPFD, 100);
    if (in < 0 || out < 0 || ::dup2(in, kChildIn) < 0 || ::dup2(out, kChildOut) < 0) _exit(1);
    ::close_range(kChildOut + 1, ~0u, 0);
    ChildMain(factory_);
  }
  ::close(req[0]);
  ::close(resp[1]);
  pid_ = pid;
  to_child_ = req[1];
  from_child_ = resp[0];
  ++children_started_;

  absl::StatusOr<std::string> hello = ReadFrame(from_child_, options_.start_timeout);
  if (!hello.ok()) {
    const bool hung = absl::IsDeadlineExceeded(hello.status());
    const std::string how = Reap(/*kill=*/true);
    // No batch was sent: a child that cannot start is the environment's failure, never a
    // finding (the campaign stops after a few in a row).
    return EnvironmentError(
        absl::StrCat("isolated child pid ", pid, hung ? " did not start within " : " died while starting: ",
                     hung ? SecondsText(options_.start_timeout) : "", hung ? "; " : "", how),
        hung ? "--start-timeout SECONDS (HIP initialisation on many GPUs is slow); whether "
               "rocminfo answers"
             : "the device runtime's own messages above (rocminfo; dmesg for GPU resets)");
  }
  absl::StatusOr<absl::StatusOr<DeviceResult>> decoded = DecodeResult(*hello);
  if (!decoded.ok()) {
    Reap(true);
    return decoded.status();
  }
  if (!decoded->ok()) {  // the factory's own error (no GPU, bad option): pass it on verbatim
    Reap(true);
    return decoded->status();
  }
  describe_ = (*decoded)->provenance.device();
  driver_ = (*decoded)->provenance.driver();
  return absl::OkStatus();
}

bool IsolatedRunner::ChildHasEnded() {
  int st = 0;
  pid_t w;
  do {
    w = ::waitpid(pid_, &st, WNOHANG);
  } while (w < 0 && errno == EINTR);
  if (w != pid_) return false;
  // Reaped here: Reap() must not wait for it again.
  const std::string how = DescribeWaitStatus(st);
  pid_ = -1;
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  to_child_ = from_child_ = -1;
  last_idle_death_ = how;
  return true;
}

std::string IsolatedRunner::Reap(bool kill) {
  std::string how = "not running";
  if (pid_ > 0) {
    if (kill) ::kill(pid_, SIGKILL);
    int st = 0;
    pid_t w;
    do {
      w = ::waitpid(pid_, &st, 0);
    } while (w < 0 && errno == EINTR);
    how = w == pid_ ? DescribeWaitStatus(st) : "not reaped";
    pid_ = -1;
  }
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  to_child_ = from_child_ = -1;
  return how;
}

absl::StatusOr<DeviceResult> IsolatedRunner::Run(const DeviceBatch& batch) {
  // A child that died while idle (a GPU reset, the OOM killer, a runtime abort between two
  // batches) never saw this batch: it is replaced before the batch is sent, and the batch is
  // not blamed.
  if (pid_ > 0 && ChildHasEnded()) ++idle_deaths_;  // reaped; last_idle_death_ says how
  if (pid_ <= 0) LANEDIFF_RETURN_IF_ERROR(Spawn());
  const std::string frame = EncodeBatch(batch);
  absl::Status sent = WriteFrame(to_child_, frame);
  if (!sent.ok() && absl::IsInvalidArgument(sent)) return sent;  // too large: a refusal
  if (!sent.ok()) {
    // The pipe is broken before the child read the batch: it died between the check above and
    // the write. Same as above: a fresh child gets the batch, once.
    last_idle_death_ = Reap(/*kill=*/true);
    ++idle_deaths_;
    LANEDIFF_RETURN_IF_ERROR(Spawn());
    sent = WriteFrame(to_child_, frame);
  }
  const pid_t pid = pid_;
  absl::StatusOr<std::string> answer =
      sent.ok() ? ReadFrame(from_child_, options_.timeout) : absl::StatusOr<std::string>(sent);
  if (!answer.ok()) {
    if (absl::IsDeadlineExceeded(answer.status())) {
      const std::string how = Reap(/*kill=*/true);
      return DeviceFault(
          absl::StatusCode::kDeadlineExceeded,
          absl::StrCat(describe_, ": hang: no answer within ", SecondsText(options_.timeout),
                       " (timeout); child pid ", pid, " killed, ended with ", how,
                       "; a fresh child takes the next batch"));
    }
    // End of file or a broken pipe: the child died. Say how.
    const std::string how = Reap(/*kill=*/false);
    return DeviceFault(absl::StrCat(describe_, ": crash: child pid ", pid,
                                    " died while running the batch: ", how,
                                    "; a fresh child takes the next batch"));
  }
  absl::StatusOr<absl::StatusOr<DeviceResult>> decoded = DecodeResult(*answer);
  if (!decoded.ok()) {
    const std::string how = Reap(/*kill=*/true);
    return DeviceFault(absl::StrCat(describe_, ": child pid ", pid, " sent a malformed answer (",
                                    decoded.status().message(), "); killed: ", how));
  }
  if (!decoded->ok() && NeedsFreshProcess(decoded->status())) Reap(/*kill=*/true);  // it exits anyway
  return *std::move(decoded);
}

}  // namespace lanediff
