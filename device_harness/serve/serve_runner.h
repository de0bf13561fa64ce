// The exec-serve device (--device=exec-serve:COMMAND): COMMAND is started once (`/bin/sh -c`,
// in its own process group behind the guard of exec/subprocess.h) and answers every batch of
// the campaign over its stdin/stdout in the protocol of serve_protocol.h. `lanediff
// serve-device --device=DEV` speaks it for any device, so
//   --device='exec-serve:ssh gpu-host lanediff serve-device --device=hip'
// runs a remote GPU with nothing but ssh. Per-batch exec: (exec/exec_runner.h) is unchanged:
// the prefix says which contract a command speaks.
//
// Each batch's timeout runs from the moment its request is written (StopAwareTimer), never
// from process start; the hello has its own `start_timeout`. A case the hello's target or
// instruction lists leave out is answered Unsupported() here without asking. A hang, a crash,
// a malformed or oversized answer is a device fault (fault.h) carrying the command's last
// stderr bytes; the process group is then killed and the next batch starts a fresh process.
// An answer beyond ExecAnswerLimit(lanes) bytes is cut off at that limit.
//
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> dev,
//       OpenServeRunner({.command = "python3 my_emulator.py"}));
#ifndef LANEDIFF_DEVICE_HARNESS_SERVE_SERVE_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_SERVE_SERVE_RUNNER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "device_harness/runner.h"

namespace lanediff {

struct ServeOptions {
  std::string command;                               // shell text, run once
  absl::Duration timeout = absl::Seconds(60);        // per batch, from its request
  absl::Duration start_timeout = absl::Seconds(60);  // from start to the hello
  std::string lanediff_path;                         // "" = this process's executable
};

// Starts COMMAND and waits for its hello: a command that is not there, exits or says no hello
// is an environment error (kUnavailable, with its stderr).
absl::StatusOr<std::unique_ptr<Runner>> OpenServeRunner(const ServeOptions& options);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_SERVE_SERVE_RUNNER_H_
