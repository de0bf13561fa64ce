// Runs a child process with a pipe on each of stdin, stdout and stderr, feeding stdin and
// draining both outputs concurrently (poll()), so a batch of any size cannot deadlock on
// full pipe buffers. The child gets its own process group. The group's first process is a
// small guard that runs the command as its child and kills the whole group if this process
// dies (PR_SET_PDEATHSIG), so a campaign killed by SIGKILL orphans no device command; on a
// timeout or an overflow the guard is asked to kill the command (KillGuardedCommand) and then
// what it left behind, as after a normal end.
// The timeout counts the time this process could wait (StopAwareTimer, isolation/wire.h): a
// SIGSTOP/SIGCONT of lanediff is not the command's time, and output already complete when the
// timeout expires is taken, not called a hang. Stdout beyond `max_stdout` bytes ends the
// command the same way (output_overflow); stderr beyond kMaxStderrBytes is dropped
// (counted). When the command ends, nothing it started outlives the call (GuardedChild below).
//
//   LANEDIFF_ASSIGN_OR_RETURN(SubprocessResult r,
//       RunSubprocess({"/bin/sh", "-c", "sort"}, "b\na\n", absl::Seconds(5)));
//   r.exited_ok()  // exit status 0;  r.out == "a\nb\n"
#ifndef LANEDIFF_DEVICE_HARNESS_EXEC_SUBPROCESS_H_
#define LANEDIFF_DEVICE_HARNESS_EXEC_SUBPROCESS_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace lanediff {

struct SubprocessResult {
  int wait_status = 0;     // as waitpid() reports it
  bool timed_out = false;  // killed by the watchdog
  bool stdin_closed_early = false;  // the child stopped reading before all input was written
  bool output_overflow = false;     // stdout passed max_stdout: the group was killed
  size_t stderr_dropped = 0;        // stderr bytes past kMaxStderrBytes, not kept
  // Processes the command left running outside its process group (setsid), one
  // "<pid> <name>" per line; they were killed. Those left inside the group are killed silently.
  std::string escaped;
  std::string out, err;
  bool exited_ok() const;
  std::string HowItEnded() const;  // "exit status 1", "signal 9 (SIGKILL: Killed)", ...
};

// An error Status only when the process could not be started at all.
inline constexpr size_t kMaxStderrBytes = size_t{1} << 20;
absl::StatusOr<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv,
                                               absl::string_view input, absl::Duration timeout,
                                               size_t max_stdout = SIZE_MAX);

// The start of RunSubprocess, for a child that outlives one call (the exec-serve device): the
// command behind its guard, in its own process group (kill(-pid, SIGKILL) ends it all), with
// our ends of its stdin, stdout and stderr pipes (non-blocking, close-on-exec). The caller
// closes the three and reaps `pid`.
// When the command ends, the guard (a child subreaper) kills every process the command left
// behind, in its group or not, and names those that had left the group on `note`.
struct GuardedChild {
  int pid = -1;
  int in = -1, out = -1, err = -1;
  int note = -1;  // read end: "<pid> <name>" lines from the guard, EOF when it ends
};
absl::StatusOr<GuardedChild> SpawnGuarded(const std::vector<std::string>& argv);

// Ends the command behind the guard `pid` now (SIGKILL) but not the guard: it goes on to kill
// every process the command left behind and to name on `note` those that had left the group,
// as after a normal end. The caller waits for the guard (WaitGuardExited) for at most
// kGuardKillGrace, then kills the whole group (kill(-pid, SIGKILL)) and reaps it (ReapGuard).
void KillGuardedCommand(pid_t pid);
inline constexpr absl::Duration kGuardKillGrace = absl::Seconds(2);

// 1 when the guard `pid` has ended (left unreaped), 0 while it runs, -1 on error.
int WaitGuardExited(pid_t pid);
// Kills what is left of the guard's group (its id is still reserved by the unreaped guard),
// reaps the guard, reads and closes `note` into `escaped` (at most 4 KiB); the wait status.
int ReapGuard(GuardedChild& child, std::string* escaped);

// write(2) with SIGPIPE blocked for the call: a reader gone is errno EPIPE in *error, no signal.
ssize_t WriteNoSigpipe(int fd, const char* data, size_t n, int* error);

// `s` as one word of a POSIX shell command line: unchanged when it holds only characters no
// shell treats specially (letters, digits, `_-.,/:=+@%`), else in single quotes with each `'`
// written '\''. ShellQuote("a b") == "'a b'", ShellQuote("$(x)") == "'$(x)'". A byte that is
// not part of valid UTF-8 (a Latin-1 file name) is written outside the quotes as
// "$(printf '\351')", so the line is UTF-8 (it goes into text files) and any POSIX shell still
// gives back the exact bytes: ShellQuote("r\xe9s") == "'r'\"$(printf '\\351')\"'s'".
std::string ShellQuote(absl::string_view s);
// Each word quoted, joined by spaces: `sh -c` runs exactly `words`.
std::string ShellJoin(const std::vector<std::string>& words);

// At most `max` bytes of `text`: its head and tail with "[... N bytes elided ...]" between.
// Both cuts fall on UTF-8 character boundaries (Utf8CutBefore/After, proto/text_format.h).
std::string TruncateMiddle(absl::string_view text, size_t max = 4096);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_EXEC_SUBPROCESS_H_
