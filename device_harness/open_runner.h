// One entry point from a --device spec to a Runner.
//
//   auto           the first HIP GPU if one is visible, else the ISA simulator; `note` then
//                  says so, for the caller to print as its first line
//   hip | hip:N    HIP device N (default 0), always in an isolated child process with a
//                  watchdog (isolation/isolated_runner.h)
//   sim            the ISA simulator (sim/sim_runner.h); isolated when a fault erratum
//                  (crash, hang) is injected or RunnerOptions::isolate_sim is set
//   exec:COMMAND   an external model speaking `lanediff eval`'s contract (exec/exec_runner.h)
//   replay:PATH    recorded answers (replay/replay_runner.h)
//
//   RunnerOptions opt;
//   opt.inject = {"byte12_swap"};
//   std::string note;
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> dev, OpenRunner("auto", opt, &note));
//   if (!note.empty()) std::printf("%s\n", note.c_str());
#ifndef LANEDIFF_DEVICE_HARNESS_OPEN_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_OPEN_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "device_harness/runner.h"

namespace lanediff {

struct RunnerOptions {
  std::vector<std::string> inject;      // sim only: errata names (sim/errata.h)
  std::vector<std::string> hypotheses;  // sim only: "name=value" for the simulated model
  absl::Duration timeout = absl::Seconds(30);  // per batch: isolated runners and exec
  bool isolate_sim = false;             // run the simulator isolated even without faults
  std::string lanediff_path;            // exec: what `lanediff` means ("" = this binary)
  // hip: how long a fresh child may take to initialise HIP and say hello (it initialises every
  // visible GPU); zero: HipStartTimeout(CountKfdGpus()). --start-timeout.
  absl::Duration start_timeout = absl::ZeroDuration();
};

// GPUs the amdgpu driver exposes (KFD topology nodes with a non-zero gpu_id under
// `topology_nodes`), counted without initialising HIP; 0 when there is no KFD.
int CountKfdGpus(const std::string& topology_nodes = "/sys/class/kfd/kfd/topology/nodes");
// The default child start timeout for `gpus` GPUs: 20 s + 10 s per GPU (HIP initialises every
// visible device in the child: 8 GPUs, or one MI300X in CPX mode, take 100 s).
absl::Duration HipStartTimeout(int gpus);

// Error messages say what was asked and why it failed; `hip` with no GPU carries the HIP
// runtime's error code and name and the sentence "no AMD GPU is visible".
absl::StatusOr<std::unique_ptr<Runner>> OpenRunner(absl::string_view spec,
                                                   const RunnerOptions& options,
                                                   std::string* note = nullptr);

// The valid spec forms, one per line, for --help texts.
absl::string_view DeviceSpecHelp();

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_OPEN_RUNNER_H_
