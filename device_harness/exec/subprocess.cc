#include "device_harness/exec/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <pthread.h>

#include <cstring>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "device_harness/isolation/isolated_runner.h"

namespace lanediff {

bool SubprocessResult::exited_ok() const {
  return !timed_out && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

std::string SubprocessResult::HowItEnded() const { return DescribeWaitStatus(wait_status); }

std::string TruncateMiddle(absl::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  const size_t half = max / 2;
  return absl::StrCat(text.substr(0, half), "\n[... ", text.size() - 2 * half,
                      " bytes elided ...]\n", text.substr(text.size() - half));
}

absl::StatusOr<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv,
                                               absl::string_view input, absl::Duration timeout) {
  if (argv.empty()) return absl::InvalidArgumentError("RunSubprocess: empty argv");
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

  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    return absl::UnavailableError(absl::StrCat("fork: ", std::strerror(e)));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::signal(SIGPIPE, SIG_DFL);
    if (::dup2(in[0], 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0) _exit(127);
    ::close_range(3, ~0u, 0);
    ::execv(cargv[0], cargv.data());
    const char msg[] = "lanediff: exec failed\n";
    (void)!::write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  for (int fd : {in[1], out[0], err[0]}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

  SubprocessResult r;
  int fd_in = in[1], fd_out = out[0], fd_err = err[0];
  size_t written = 0;
  if (input.empty()) {
    ::close(fd_in);
    fd_in = -1;
  }
  const absl::Time deadline = absl::Now() + timeout;
  char buf[65536];
  while (fd_out >= 0 || fd_err >= 0) {
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) {
      r.timed_out = true;
      break;
    }
    pollfd p[3];
    int n = 0;
    int idx_in = -1, idx_out = -1, idx_err = -1;
    if (fd_in >= 0) idx_in = n, p[n++] = {fd_in, POLLOUT, 0};
    if (fd_out >= 0) idx_out = n, p[n++] = {fd_out, POLLIN, 0};
    if (fd_err >= 0) idx_err = n, p[n++] = {fd_err, POLLIN, 0};
    const int64_t ms = absl::ToInt64Milliseconds(left) + 1;
    const int rc = ::poll(p, n, static_cast<int>(ms > (1 << 30) ? (1 << 30) : ms));
    if (rc < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (idx_in >= 0 && p[idx_in].revents) {
      // Pipes are not sockets: MSG_NOSIGNAL is unavailable, so block SIGPIPE around write.
      sigset_t block, old;
      sigemptyset(&block);
      sigaddset(&block, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &block, &old);
      const ssize_t w = ::write(fd_in, input.data() + written, input.size() - written);
      const int e = errno;
      if (w < 0 && e == EPIPE) {  // consume the pending SIGPIPE before unblocking
        timespec zero{0, 0};
        sigtimedwait(&block, nullptr, &zero);
      }
      pthread_sigmask(SIG_SETMASK, &old, nullptr);
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
        dst->append(buf, static_cast<size_t>(got));
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        ::close(*fd);
        *fd = -1;
      }
    }
  }
  if (r.timed_out) ::kill(-pid, SIGKILL);
  for (int fd : {fd_in, fd_out, fd_err}) {
    if (fd >= 0) ::close(fd);
  }
  int st = 0;
  // stdout and stderr are closed; the child may still be running (it closed them itself).
  // Give it until the deadline, then kill the group.
  for (;;) {
    const pid_t w = ::waitpid(pid, &st, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (absl::Now() > deadline && !r.timed_out) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
    }
    ::usleep(1000);
  }
  r.wait_status = st;
  return r;
}

}  // namespace lanediff
