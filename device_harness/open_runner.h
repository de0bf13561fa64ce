// One entry point from a --device spec to a Runner.
//
//   auto           the first HIP GPU if one is visible, else the ISA simulator; `note` then
//                  says so, for the caller to print as its first line
//   hip | hip:N    HIP device N (default 0), always in an isolated child process with a
//                  watchdog (isolation/isolated_runner.h)
//   hip:N:wave64   the same with the wave64 code object (RDNA runs both; hip:N:wave32 too);
//                  a wave size the target has no code object for fails to open, naming it
//   sim            the ISA simulator (sim/sim_runner.h); isolated when a fault erratum
//                  (crash, hang) is injected or RunnerOptions::isolate_sim is set
//   exec:COMMAND   an external model speaking `lanediff eval`'s contract (exec/exec_runner.h)
//   exec-serve:COMMAND  one long-lived process speaking the framed protocol of
//                  serve/serve_protocol.h (serve/serve_runner.h), e.g. `lanediff serve-device`
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
#include "device_harness/hip/hip_runner.h"
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

// The targets a campaign on `spec` fuzzes, given the --targets asked for (`requested`, empty =
// all). For hip, hip:N, and auto when it will pick a GPU: the target of the GPU the spec uses
// (hip is hip:0), queried in a forked child (the HIP runtime never starts in this process),
// then ChooseHipTargets. For every other spec, `requested` unchanged. InvalidArgument is a
// usage error (exit 2); other errors are the environment's (no GPU for hip: exit 3).
absl::StatusOr<std::vector<std::string>> CampaignTargets(absl::string_view spec,
                                                         const RunnerOptions& options,
                                                         const std::vector<std::string>& requested);

// The pure choice behind CampaignTargets, from the GPUs the runtime lists (`visible`, their
// gcnArchName as reported, e.g. "gfx942:sramecc+:xnack-") and the index of the one used:
//   requested empty         -> {that GPU's gfx processor}, when lanediff has the target;
//   every requested target is that GPU's -> requested;
//   otherwise               -> InvalidArgument naming the targets no GPU in use is and every
//                              GPU found ("hip:0 AMD Instinct MI300X gfx942"), with the
//                              --device=hip:N that would run a target another GPU is.
// FailedPrecondition when the GPU used does not exist or is not a target lanediff knows.
absl::StatusOr<std::vector<std::string>> ChooseHipTargets(
    const std::vector<HipDeviceInfo>& visible, int device_index,
    const std::vector<std::string>& requested);

// The valid spec forms, one per line, for --help texts.
absl::string_view DeviceSpecHelp();

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_OPEN_RUNNER_H_
