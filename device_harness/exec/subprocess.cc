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
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/isolation/isolated_runner.h"
#include "device_harness/isolation/wire.h"
#include "model/base/status.h"
#include "proto/text_format.h"

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
  while (!s.empty()) {
    const size_t ok = ValidUtf8Prefix(s);
    for (char c : s.substr(0, ok)) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    s.remove_prefix(ok);
    if (s.empty()) break;
    // A byte that is not UTF-8: outside the quotes, as printf(1) prints it from an octal
    // escape, so the line stays UTF-8 (it is stored in text files) and still gives the byte.
    absl::StrAppendFormat(&out, "'\"$(printf '\\%03o')\"'", static_cast<unsigned char>(s[0]));
    s.remove_prefix(1);
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
  // Both cuts on character boundaries: a cut inside a UTF-8 character would leave bytes
  // that are not UTF-8 in the message (and in the finding that stores it).
  const size_t head = Utf8CutBefore(text, half);
  const size_t tail = Utf8CutAfter(text, text.size() - half);
  return absl::StrCat(text.substr(0, head), "\n[... ", tail - head, " bytes elided ...]\n",
                      text.substr(tail));
}

namespace {

// Reads /proc/self/task/<pid>/children (the guard is single-threaded) into `pids`; the count,
// 0 when there are none, -1 when the kernel does not offer the file. Async-signal-safe.
int ChildrenOfSelf(pid_t self, pid_t* pids, int max) {
  char path[64] = "/proc/self/task/";
  char num[16];
  int n = 0;
  for (pid_t v = self; v > 0; v /= 10) num[n++] = static_cast<char>('0' + v % 10);
  size_t at = std::strlen(path);
  while (n > 0) path[at++] = num[--n];
  std::memcpy(path + at, "/children", 10);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[4096];
  const ssize_t got = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (got < 0) return -1;
  int count = 0;
  pid_t v = 0;
  bool in_number = false;
  for (ssize_t i = 0; i < got && count < max; ++i) {
    if (buf[i] >= '0' && buf[i] <= '9') {
      v = v * 10 + (buf[i] - '0');
      in_number = true;
    } else if (in_number) {
      pids[count++] = v;
      v = 0;
      in_number = false;
    }
  }
  if (in_number && count < max) pids[count++] = v;
  return count;
}

// After the command ended: every process it left behind is killed. The guard is a child
// subreaper (PR_SET_CHILD_SUBREAPER), so an orphaned descendant, a background job or one that
// left the group with setsid(), becomes its child; it kills its children until none is left
// (a killed process's own children come to it next round). Each that had left the group is
// named on `note` ("<pid> <comm>" per line) for the caller's warning. Async-signal-safe.
void EndDescendants(int note) {
  const pid_t self = ::getpid();
  const pid_t group = ::getpgrp();
  pid_t pids[256];
  pid_t named[64];  // named once each, though a killed process may be listed until reaped
  int n_named = 0;
  for (int round = 0; round < 10000; ++round) {
    int st = 0;
    while (::waitpid(-1, &st, WNOHANG) > 0) {
    }
    const int n = ChildrenOfSelf(self, pids, 256);
    if (n <= 0) {
      if (n < 0 || ::waitpid(-1, &st, WNOHANG) < 0) return;  // no children at all (ECHILD)
      ::usleep(1000);  // a killed child not yet reaped
      continue;
    }
    for (int i = 0; i < n; ++i) {
      bool seen = false;
      for (int j = 0; j < n_named; ++j) seen = seen || named[j] == pids[i];
      if (!seen && ::getpgid(pids[i]) != group && note >= 0 && n_named < 64) {
        named[n_named++] = pids[i];
        char line[64 + 16];
        int len = 0;
        char num[16];
        int k = 0;
        for (pid_t v = pids[i]; v > 0; v /= 10) num[k++] = static_cast<char>('0' + v % 10);
        while (k > 0) line[len++] = num[--k];
        line[len++] = ' ';
        char comm_path[48] = "/proc/";
        size_t at = 6;
        k = 0;
        for (pid_t v = pids[i]; v > 0; v /= 10) num[k++] = static_cast<char>('0' + v % 10);
        while (k > 0) comm_path[at++] = num[--k];
        std::memcpy(comm_path + at, "/comm", 6);
        const int fd = ::open(comm_path, O_RDONLY | O_CLOEXEC);
        ssize_t got = fd >= 0 ? ::read(fd, line + len, 60) : 0;
        if (fd >= 0) ::close(fd);
        if (got > 0) len += static_cast<int>(got);
        if (len == 0 || line[len - 1] != '\n') line[len++] = '\n';
        (void)!::write(note, line, static_cast<size_t>(len));
      }
      ::kill(pids[i], SIGKILL);
    }
    ::usleep(200);  // let them die before the next look
  }
}

// The first process of the command's group, between fork and exec: it runs the command as its
// own child and waits. If lanediff dies (even by SIGKILL) the kernel sends the guard SIGTERM
// (PR_SET_PDEATHSIG) and it kills the whole group; SIGUSR1 from lanediff (a timeout, an
// overflow, a fault) kills the command only; otherwise it ends as the command ended
// (same exit status, or the same signal), so the caller sees the command's own wait status,
// after it killed whatever the command left running (EndDescendants).
// Only async-signal-safe calls: the caller may be one thread of several.
[[noreturn]] void GuardAndExec(char* const* argv, pid_t parent, int note) {
  sigset_t guard, old;
  sigemptyset(&guard);
  sigaddset(&guard, SIGCHLD);
  sigaddset(&guard, SIGTERM);
  sigaddset(&guard, SIGUSR1);
  ::sigprocmask(SIG_BLOCK, &guard, &old);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (::getppid() != parent) _exit(127);  // lanediff is already gone
  const pid_t cmd = ::fork();
  if (cmd < 0) _exit(127);
  if (cmd == 0) {
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    ::signal(SIGPIPE, SIG_DFL);
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    ::execv(argv[0], argv);
    const char msg[] = "lanediff: exec failed\n";
    (void)!::write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  for (int fd = 0; fd <= 2; ++fd) ::close(fd);  // only the command holds the pipes
  int st = 0;
  for (;;) {
    int sig = 0;
    if (::sigwait(&guard, &sig) != 0) continue;
    if (sig == SIGTERM) {  // lanediff died: everything goes, escaped descendants included
      ::kill(cmd, SIGKILL);
      EndDescendants(-1);
      ::kill(0, SIGKILL);
    }
    // The caller ends the command early (KillGuardedCommand): the command goes at once, the
    // guard stays to kill and name what it left behind, as after a normal end.
    if (sig == SIGUSR1) ::kill(cmd, SIGKILL);
    // Reap every child that ended (orphans come to the guard too); stop when the command did.
    bool done = false;
    for (;;) {
      int s = 0;
      const pid_t w = ::waitpid(-1, &s, WNOHANG);
      if (w <= 0) break;
      if (w == cmd) st = s, done = true;
    }
    if (done) break;
  }
  EndDescendants(note);
  if (note >= 0) ::close(note);
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

}  // namespace

int WaitGuardExited(pid_t pid) {
  siginfo_t info{};
  for (;;) {
    info.si_pid = 0;
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
      return info.si_pid == pid ? 1 : 0;
    }
    if (errno != EINTR) return -1;
  }
}

void KillGuardedCommand(pid_t pid) {
  ::kill(pid, SIGUSR1);
  ::kill(pid, SIGCONT);  // a guard stopped with its group (kill -STOP 0) could not act
}

int ReapGuard(GuardedChild& child, std::string* escaped) {
  // The guard has ended but is not reaped yet, so its group id cannot be reused: whatever is
  // still in the group (nothing, unless the guard could not see it) is killed now.
  ::kill(-child.pid, SIGKILL);
  int st = 0;
  while (::waitpid(child.pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (child.note >= 0) {
    char buf[1024];
    ssize_t got;
    while ((got = ::read(child.note, buf, sizeof buf)) > 0 && escaped->size() < 4096) {
      escaped->append(buf, static_cast<size_t>(got));
    }
    ::close(child.note);
    child.note = -1;
  }
  while (!escaped->empty() && escaped->back() == '\n') escaped->pop_back();
  return st;
}

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
  int note[2];
  if (::pipe2(note, O_CLOEXEC) != 0) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    return absl::InternalError("pipe2 failed");
  }
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1], note[0], note[1]}) ::close(fd);
    return absl::UnavailableError(absl::StrCat("fork: ", std::strerror(e)));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    if (::dup2(in[0], 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0 ||
        ::dup2(note[1], 3) < 0) {
      _exit(127);
    }
    ::close_range(4, ~0u, 0);
    ::fcntl(3, F_SETFD, FD_CLOEXEC);  // the guard's alone: the command does not inherit it
    GuardAndExec(cargv.data(), parent, 3);
  }
  ::setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ::close(note[1]);
  for (int fd : {in[1], out[0], err[0], note[0]}) {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  return GuardedChild{.pid = pid, .in = in[1], .out = out[0], .err = err[0], .note = note[0]};
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
  // Ending early goes through the guard, which kills the command and then, as after a normal
  // end, whatever it left behind, naming what had left the group. Killing the whole group at
  // once would kill the guard too, and a setsid child would survive unnamed. The guard gets
  // kGuardKillGrace for that; then the group, guard included, is killed.
  std::optional<StopAwareTimer> kill_grace;
  if (r.timed_out || r.output_overflow) {
    KillGuardedCommand(pid);
    kill_grace.emplace(kGuardKillGrace);
  }
  for (int fd : {fd_in, fd_out, fd_err}) {
    if (fd >= 0) ::close(fd);
  }
  // stdout and stderr are closed; the child may still be running (it closed them itself).
  // Give it until the timeout, then end it the same way.
  bool group_killed = false;
  for (;;) {
    const int w = WaitGuardExited(pid);
    if (w != 0) break;
    if (!r.timed_out && !kill_grace && timer.Expired()) {
      r.timed_out = true;
      KillGuardedCommand(pid);
      kill_grace.emplace(kGuardKillGrace);
    }
    if (kill_grace && !group_killed && kill_grace->Expired()) {
      ::kill(-pid, SIGKILL);
      group_killed = true;
    }
    ::usleep(1000);
  }
  const int st = ReapGuard(child, &r.escaped);
  r.wait_status = st;
  return r;
}

}  // namespace lanediff
