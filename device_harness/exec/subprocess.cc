#include "device_harness/exec/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "device_harness/isolation/isolated_runner.h"
#include "device_harness/isolation/wire.h"
#include "model/base/status.h"

namespace lanediff {

bool SubprocessResult::exited_ok() const {
  return !timed_out && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

std::string SubprocessResult::HowItEnded() const { return DescribeWaitStatus(wait_status); }

std::string ShellQuote(absl::string_view s) {
  bool plain = !s.empty();
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.' || c == ',' || c == '/' || c == ':' ||
                    c == '=' || c == '+' || c == '@' || c == '%';
    plain = plain && ok;
  }
  if (plain) return std::string(s);
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string ShellJoin(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    out += ShellQuote(w);
  }
  return out;
}

std::string TruncateMiddle(absl::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  const size_t half = max / 2;
  return absl::StrCat(text.substr(0, half), "\n[... ", text.size() - 2 * half,
                      " bytes elided ...]\n", text.substr(text.size() - half));
}

namespace {

// The first process of the command's group, between fork and exec: it runs the command as its
// own child and waits. If lanediff dies (even by SIGKILL) the kernel sends the guard SIGTERM
// (PR_SET_PDEATHSIG) and it kills the whole group; otherwise it ends as the command ended
// (same exit status, or the same signal), so the caller sees the command's own wait status.
// Only async-signal-safe calls: the caller may be one thread of several.
[[noreturn]] void GuardAndExec(char* const* argv, pid_t parent) {
  sigset_t guard, old;
  sigemptyset(&guard);
  sigaddset(&guard, SIGCHLD);
  sigaddset(&guard, SIGTERM);
  ::sigprocmask(SIG_BLOCK, &guard, &old);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) _exit(127);  // lanediff is already gone
  const pid_t cmd = ::fork();
  if (cmd < 0) _exit(127);
  if (cmd == 0) {
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    ::signal(SIGPIPE, SIG_DFL);
    ::execv(argv[0], argv);
    const char msg[] = "lanediff: exec failed\n";
    (void)!::write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  for (int fd = 0; fd <= 2; ++fd) ::close(fd);  // only the command holds the pipes
  for (;;) {
    int sig = 0;
    if (::sigwait(&guard, &sig) != 0) continue;
    if (sig == SIGTERM) ::kill(0, SIGKILL);  // lanediff died: the whole group goes
    int st = 0;
    if (::waitpid(cmd, &st, WNOHANG) != cmd) continue;
    if (WIFEXITED(st)) _exit(WEXITSTATUS(st));
    const int how = WTERMSIG(st);
    ::prctl(PR_SET_PDEATHSIG, 0);
    struct rlimit no_core = {0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);  // the command dumped its core already, if any
    ::signal(how, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, how);
    ::sigprocmask(SIG_UNBLOCK, &one, nullptr);
    ::kill(::getpid(), how);
    _exit(128 + how);
  }
}

}  // namespace

ssize_t WriteNoSigpipe(int fd, const char* data, size_t n, int* error) {
  // Pipes are not sockets: MSG_NOSIGNAL is unavailable, so block SIGPIPE around write.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  const ssize_t w = ::write(fd, data, n);
  *error = w < 0 ? errno : 0;
  if (w < 0 && *error == EPIPE) {  // consume the pending SIGPIPE before unblocking
    timespec zero{0, 0};
    sigtimedwait(&block, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return w;
}

absl::StatusOr<GuardedChild> SpawnGuarded(const std::vector<std::string>& argv) {
  if (argv.empty()) return absl::InvalidArgumentError("SpawnGuarded: empty argv");
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return absl::InternalError("pipe2 failed");
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]);
    return absl::InternalError("pipe2 failed");
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return absl::InternalError("pipe2 failed");
  }
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    return absl::UnavailableError(absl::StrCat("fork: ", std::strerror(e)));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    if (::dup2(in[0], 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0) _exit(127);
    ::close_range(3, ~0u, 0);
    GuardAndExec(cargv.data(), parent);
  }
  ::setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  for (int fd : {in[1], out[0], err[0]}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return GuardedChild{.pid = pid, .in = in[1], .out = out[0], .err = err[0]};
}

absl::StatusOr<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv,
                                               absl::string_view input, absl::Duration timeout,
                                               size_t max_stdout) {
  LANEDIFF_ASSIGN_OR_RETURN(GuardedChild child, SpawnGuarded(argv));
  const pid_t pid = child.pid;
  SubprocessResult r;
  int fd_in = child.in, fd_out = child.out, fd_err = child.err;
  size_t written = 0;
  if (input.empty()) {
    ::close(fd_in);
    fd_in = -1;
  }
  StopAwareTimer timer(timeout);
  char buf[65536];
  int drains = 0;  // reads after the timeout expired: a command still printing is cut off
  while (fd_out >= 0 || fd_err >= 0) {
    // Out of time: take what is already in the pipes (a complete answer is not a hang), but
    // wait no longer, and read no more than 64 more chunks.
    const bool expired = timer.Expired();
    if (expired && ++drains > 64) {
      r.timed_out = true;
      break;
    }
    pollfd p[3];
    int n = 0;
    int idx_in = -1, idx_out = -1, idx_err = -1;
    if (fd_in >= 0 && !expired) idx_in = n, p[n++] = {fd_in, POLLOUT, 0};
    if (fd_out >= 0) idx_out = n, p[n++] = {fd_out, POLLIN, 0};
    if (fd_err >= 0) idx_err = n, p[n++] = {fd_err, POLLIN, 0};
    const int rc = ::poll(p, n, expired ? 0 : timer.NextWaitMs());
    if (rc < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (expired && rc == 0) {
      r.timed_out = true;
      break;
    }
    if (idx_in >= 0 && p[idx_in].revents) {
      int e = 0;
      const ssize_t w = WriteNoSigpipe(fd_in, input.data() + written, input.size() - written, &e);
      if (w > 0) written += static_cast<size_t>(w);
      if ((w < 0 && e != EAGAIN && e != EINTR) || written == input.size()) {
        if (written < input.size()) r.stdin_closed_early = true;
        ::close(fd_in);
        fd_in = -1;
      }
    }
    for (auto [idx, fd, dst] : {std::tuple{idx_out, &fd_out, &r.out}, std::tuple{idx_err, &fd_err, &r.err}}) {
      if (idx < 0 || !p[idx].revents) continue;
      const ssize_t got = ::read(*fd, buf, sizeof buf);
      if (got > 0) {
        const size_t cap = dst == &r.out ? max_stdout : kMaxStderrBytes;
        const size_t keep = std::min(static_cast<size_t>(got), cap - std::min(cap, dst->size()));
        dst->append(buf, keep);
        if (dst == &r.err) r.stderr_dropped += static_cast<size_t>(got) - keep;
        if (dst == &r.out && keep < static_cast<size_t>(got)) r.output_overflow = true;
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        ::close(*fd);
        *fd = -1;
      }
    }
    if (r.output_overflow) break;
  }
  if (r.timed_out || r.output_overflow) ::kill(-pid, SIGKILL);
  for (int fd : {fd_in, fd_out, fd_err}) {
    if (fd >= 0) ::close(fd);
  }
  int st = 0;
  // stdout and stderr are closed; the child may still be running (it closed them itself).
  // Give it until the timeout, then kill the group.
  for (;;) {
    const pid_t w = ::waitpid(pid, &st, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (!r.timed_out && timer.Expired()) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
    }
    ::usleep(1000);
  }
  r.wait_status = st;
  return r;
}

}  // namespace lanediff
