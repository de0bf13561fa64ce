// The external-model device (--device=exec:COMMAND): any program that speaks `lanediff
// eval`'s pipe contract is a device.
//
// For each batch the runner decodes the words, runs `/bin/sh -c 'COMMAND --targets T --instrs I
// --opsel N --neg N --abs N [--clamp] --omod N --mode 0xHEX'`, writes one line per lane,
// `src0 src1 src2 vdst_old` as 8-digit hex (operands resolved to the 32-bit values the lane
// reads: inline constants, SGPRs and the literal expanded), and reads one VDST word per lane
// from its stdout (hex, `0x` optional; blank lines and `#` comments skipped). When COMMAND's
// first word is `lanediff`, the running binary itself is used (/proc/self/exe), or
// ExecOptions::lanediff_path when set.
//
// A command that exits non-zero or dies of a signal, prints too few, too many or malformed
// lines, prints more than ExecAnswerLimit(lanes) bytes on stdout (its process group is then
// killed at once), or runs past the timeout is a device fault (fault.h) with its stderr kept
// (head and tail, 4 KiB at most). A command that is not there at all is no device fault but
// an environment error (kUnavailable: lanediff exits 3): OpenExecRunner checks the first word
// (`command -v`), and an exit status of 126 or 127 (the shell's "cannot execute" and "not
// found") is reported the same way.
//
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> dev,
//       OpenExecRunner({.command = "lanediff eval --hypothesis sr_rounding=literal"}));
#ifndef LANEDIFF_DEVICE_HARNESS_EXEC_EXEC_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_EXEC_EXEC_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "device_harness/batch.h"
#include "device_harness/runner.h"

namespace lanediff {

// Bytes of stdout accepted for one batch: 64 KiB plus 64 per lane (an answer line is at most
// 11 bytes, "0x%08x\n"; the rest is room for comments and blank lines).
inline constexpr size_t kExecAnswerBaseBytes = size_t{64} << 10;
inline constexpr size_t kExecAnswerBytesPerLane = 64;
inline constexpr size_t ExecAnswerLimit(size_t lanes) {
  return kExecAnswerBaseBytes + kExecAnswerBytesPerLane * lanes;
}

struct ExecOptions {
  std::string command;                          // shell text; flags are appended
  absl::Duration timeout = absl::Seconds(60);   // per batch
  std::string lanediff_path;                    // "" = this process's executable
};

absl::StatusOr<std::unique_ptr<Runner>> OpenExecRunner(const ExecOptions& options);

// The `lanediff eval` flags for a decoded batch, in the order listed above.
std::vector<std::string> EvalFlags(const DecodedBatch& d);

// COMMAND with a first word `lanediff` replaced by `lanediff_path` ("" = this executable).
std::string ExpandLanediff(absl::string_view command, absl::string_view lanediff_path);

// OkStatus when COMMAND's first word is something the shell can run (see above); kUnavailable
// naming it and PATH otherwise.
absl::Status CheckCommandExists(absl::string_view command, absl::string_view prefix = "exec:");

// The shell command line the runner runs for `d` (COMMAND with `lanediff` replaced, plus flags).
std::string ExecCommandLine(const ExecOptions& options, const DecodedBatch& d);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_EXEC_EXEC_RUNNER_H_
