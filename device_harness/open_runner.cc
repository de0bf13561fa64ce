#include "device_harness/open_runner.h"

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "device_harness/exec/exec_runner.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/isolation/isolated_runner.h"
#include "device_harness/replay/replay_runner.h"
#include "device_harness/sim/errata.h"
#include "device_harness/sim/sim_runner.h"
#include "model/base/status.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace lanediff {
namespace {

absl::StatusOr<std::unique_ptr<Runner>> Isolate(RunnerFactory factory, absl::Duration timeout,
                                                absl::Duration start_timeout = absl::Seconds(20)) {
  LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<IsolatedRunner> r,
                            IsolatedRunner::Start(std::move(factory), IsolationOptions{.timeout = timeout, .start_timeout = start_timeout}));
  return std::unique_ptr<Runner>(std::move(r));
}

absl::StatusOr<std::unique_ptr<Runner>> OpenHip(int index, const RunnerOptions& options) {
  const absl::Duration start = options.start_timeout > absl::ZeroDuration()
                                   ? options.start_timeout
                                   : HipStartTimeout(CountKfdGpus());
  return Isolate([index]() { return OpenHipRunner(index); }, options.timeout, start);
}

absl::StatusOr<std::unique_ptr<Runner>> OpenSim(const RunnerOptions& options) {
  SimOptions sim{.inject = options.inject, .hypotheses = options.hypotheses};
  LANEDIFF_ASSIGN_OR_RETURN(ErrataSet errata, ErrataSet::Parse(options.inject));
  if (!errata.HasFault() && !options.isolate_sim) return OpenSimRunner(sim);
  // Check the options here, so a bad one is not reported as a child's failure.
  LANEDIFF_RETURN_IF_ERROR(OpenSimRunner(sim).status());
  return Isolate([sim]() { return OpenSimRunner(sim); }, options.timeout);
}

}  // namespace

int CountKfdGpus(const std::string& topology_nodes) {
  std::error_code ec;
  int gpus = 0;
  for (auto it = std::filesystem::directory_iterator(topology_nodes, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::ifstream f(it->path() / "gpu_id");
    uint64_t id = 0;
    if (f >> id && id != 0) ++gpus;  // CPU nodes have gpu_id 0
  }
  return gpus;
}

absl::Duration HipStartTimeout(int gpus) { return absl::Seconds(20) + absl::Seconds(10) * std::max(gpus, 0); }

absl::string_view DeviceSpecHelp() {
  return "auto (HIP GPU if visible, else the simulator), hip, hip:N, sim, exec:COMMAND, "
         "replay:PATH";
}

absl::StatusOr<std::unique_ptr<Runner>> OpenRunner(absl::string_view spec,
                                                   const RunnerOptions& options,
                                                   std::string* note) {
  if (note != nullptr) note->clear();
  const bool is_sim = spec == "sim" || spec == "auto";
  if (!is_sim && (!options.inject.empty() || !options.hypotheses.empty())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--inject and --hypothesis configure the simulator; --device=", spec, " takes neither"));
  }
  if (spec == "sim") return OpenSim(options);
  if (spec == "hip" || absl::StartsWith(spec, "hip:")) {
    int index = 0;
    if (spec != "hip" && (!absl::SimpleAtoi(spec.substr(4), &index) || index < 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--device=", spec, ": want hip or hip:N with N a device index"));
    }
    if (!options.inject.empty()) {
      return absl::InvalidArgumentError("--inject is for --device=sim only");
    }
    return OpenHip(index, options);
  }
  if (absl::StartsWith(spec, "exec:")) {
    return OpenExecRunner({.command = std::string(spec.substr(5)),
                           .timeout = options.timeout,
                           .lanediff_path = options.lanediff_path});
  }
  if (absl::StartsWith(spec, "replay:")) return OpenReplayRunner(std::string(spec.substr(7)));
  if (spec == "auto") {
    // Errata are a simulator feature: asking for them means the simulator.
    if (options.inject.empty() && options.hypotheses.empty()) {
      absl::StatusOr<std::unique_ptr<Runner>> hip = OpenHip(0, options);
      if (hip.ok()) return hip;
      if (note != nullptr) {
        *note = absl::StrCat(
            "lanediff: --device=auto: no usable AMD GPU, so using the ISA simulator "
            "(a simulation, no hardware): ",
            hip.status().message());
      }
    } else if (note != nullptr) {
      *note = "lanediff: --device=auto with --inject/--hypothesis: using the ISA simulator "
              "(a simulation, no hardware)";
    }
    return OpenSim(options);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown --device '", spec, "'; valid: ", DeviceSpecHelp()));
}

}  // namespace lanediff
