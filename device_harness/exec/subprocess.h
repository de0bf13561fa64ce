// Runs a child process with a pipe on each of stdin, stdout and stderr, feeding stdin and
// draining both outputs concurrently (poll()), so a batch of any size cannot deadlock on
// full pipe buffers. The child gets its own process group; on timeout the whole group is
// killed with SIGKILL (a `sh -c` wrapper and whatever it started).
//
//   LANEDIFF_ASSIGN_OR_RETURN(SubprocessResult r,
//       RunSubprocess({"/bin/sh", "-c", "sort"}, "b\na\n", absl::Seconds(5)));
//   r.exited_ok()  // exit status 0;  r.out == "a\nb\n"
#ifndef LANEDIFF_DEVICE_HARNESS_EXEC_SUBPROCESS_H_
#define LANEDIFF_DEVICE_HARNESS_EXEC_SUBPROCESS_H_

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
  std::string out, err;
  bool exited_ok() const;
  std::string HowItEnded() const;  // "exit status 1", "signal 9 (SIGKILL: Killed)", ...
};

// An error Status only when the process could not be started at all.
absl::StatusOr<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv,
                                               absl::string_view input, absl::Duration timeout);

// At most `max` bytes of `text`: its head and tail with "[... N bytes elided ...]" between.
std::string TruncateMiddle(absl::string_view text, size_t max = 4096);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_EXEC_SUBPROCESS_H_
