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
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "device_harness/open_runner.h"
#include "device_harness/runner.h"
#include "fuzz/cli/args.h"

namespace lanediff {

// The device flags, declared the same way by every command that opens a --device (fuzz, replay,
// record, serve-device, sweep, discriminate): --device, --inject, --timeout, --start-timeout.
// --hypothesis is not one of them: fuzz and replay read it as the model's reading, record and
// serve-device as the simulator's.
//
//   DeviceFlags dev(/*default_timeout_seconds=*/30);
//   dev.Declare(args);
//   if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
//   if (int rc = dev.CheckPath("record"); rc >= 0) return rc;
//   std::unique_ptr<Runner> r = OpenCommandDevice("record", dev.device, dev.Options(), stdout, &rc);
struct DeviceFlags {
  explicit DeviceFlags(double default_timeout_seconds) : timeout(default_timeout_seconds) {}
  // `device_help`, when not empty, replaces the standard --device text (the device specs).
  void Declare(Args& args, std::string device_help = "");
  // A replay:PATH spec names an input file: checked now (exit 2 naming it), -1 when fine.
  int CheckPath(absl::string_view command) const;
  // inject, timeout and start_timeout as the runner takes them (hypotheses left empty).
  RunnerOptions Options() const;

  std::string device = "auto";
  std::vector<std::string> inject;
  double timeout;            // seconds per batch: isolated runners and exec
  double start_timeout = 0;  // seconds a HIP child may take to start; 0: 20 + 10 per GPU
};

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
