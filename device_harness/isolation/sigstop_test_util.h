// Test-only: run a device call in a helper process and SIGSTOP it in the middle of a batch.
//
//   char c = RunStoppedMidway(marker, /*whole_group=*/true, absl::Milliseconds(2500), [&] {
//     return runner->Run(batch).ok() ? 'O' : 'H';
//   });
//
// The helper runs `body` in its own process group (an isolated child joins it; an exec device
// makes its own). Once `marker` exists (the device writes it when its batch has started: the
// test waits for that state, never for a fixed time) the test stops the helper (or its whole
// group) with SIGSTOP for `stopped`, continues it with SIGCONT, and returns the byte `body`
// returned ('?' if the marker never appeared within 60 s or the helper died).
#ifndef LANEDIFF_DEVICE_HARNESS_ISOLATION_SIGSTOP_TEST_UTIL_H_
#define LANEDIFF_DEVICE_HARNESS_ISOLATION_SIGSTOP_TEST_UTIL_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace lanediff {

inline char RunStoppedMidway(const std::string& marker, bool whole_group, absl::Duration stopped,
                             const std::function<char()>& body) {
  int p[2];
  if (::pipe(p) != 0) return '?';
  const pid_t pid = ::fork();
  if (pid < 0) return '?';
  if (pid == 0) {
    ::setpgid(0, 0);
    ::close(p[0]);
    const char c = body();
    (void)!::write(p[1], &c, 1);
    _exit(0);
  }
  ::setpgid(pid, pid);
  ::close(p[1]);
  const pid_t target = whole_group ? -pid : pid;
  bool started = false;
  for (int i = 0; i < 60000 && !started; ++i) {
    started = ::access(marker.c_str(), F_OK) == 0;
    if (!started) ::usleep(1000);
  }
  char c = '?';
  if (started) {
    ::kill(target, SIGSTOP);
    absl::SleepFor(stopped);
    ::kill(target, SIGCONT);
    if (::read(p[0], &c, 1) != 1) c = '?';
  } else {
    ::kill(-pid, SIGKILL);
  }
  ::close(p[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  return c;
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_ISOLATION_SIGSTOP_TEST_UTIL_H_
