// Opening a command's --device, with the one error wording and exit-code mapping the commands
// share: "lanediff COMMAND: --device=SPEC: MESSAGE", exit 2 for a spec that is malformed
// (InvalidArgument), 3 for a device that cannot be opened. Every command that opens a --device
// goes through here (fuzz/cli/open_device_test.sh checks each one's exit codes).
//
//   int rc = kExitOk;
//   std::unique_ptr<Runner> dev = OpenCommandDevice("record", device, options, stdout, &rc);
//   if (dev == nullptr) return rc;
#ifndef LANEDIFF_FUZZ_CLI_OPEN_DEVICE_H_
#define LANEDIFF_FUZZ_CLI_OPEN_DEVICE_H_

#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "device_harness/open_runner.h"
#include "device_harness/runner.h"

namespace lanediff {

// Prints `status` for `command` and `device` on stderr; returns its exit code (2 or 3).
int ReportDeviceError(absl::string_view command, const std::string& device,
                      const absl::Status& status);

// OpenRunner(device, options), printing its note (e.g. "using the ISA simulator") on
// `note_to` first (nullptr: not printed). On failure: nullptr, the error printed by ReportDeviceError, *exit_code set.
std::unique_ptr<Runner> OpenCommandDevice(absl::string_view command, const std::string& device,
                                          const RunnerOptions& options, std::FILE* note_to,
                                          int* exit_code);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_OPEN_DEVICE_H_
