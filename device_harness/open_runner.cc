#include "device_harness/open_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "device_harness/exec/exec_runner.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/isolation/isolated_runner.h"
#include "device_harness/isolation/wire.h"
#include "device_harness/replay/replay_runner.h"
#include "device_harness/serve/serve_runner.h"
#include "device_harness/sim/errata.h"
#include "device_harness/sim/sim_runner.h"
#include "device_harness/interp/interp.h"
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

// --start-timeout, else the default for the GPUs the driver exposes: a child that starts HIP
// initialises every visible GPU.
absl::Duration HipStart(const RunnerOptions& options) {
  return options.start_timeout > absl::ZeroDuration() ? options.start_timeout
                                                      : HipStartTimeout(CountKfdGpus());
}

// wave_size 0: the device's own (warpSize).
absl::StatusOr<std::unique_ptr<Runner>> OpenHip(int index, const RunnerOptions& options, int wave_size = 0) {
  return Isolate([index, wave_size]() { return OpenHipRunner(index, wave_size); }, options.timeout,
                 HipStart(options));
}

// "hip" -> {0, 0}; "hip:N" -> {N, 0}; "hip:N:wave32" / "hip:N:wave64" -> {N, 32 or 64}.
// InvalidArgument for any other hip spec.
absl::StatusOr<std::pair<int, int>> ParseHipSpec(absl::string_view spec) {
  if (spec == "hip") return std::pair<int, int>{0, 0};
  std::vector<absl::string_view> parts = absl::StrSplit(spec, ':');
  int index = -1, wave = 0;
  const bool ok = parts.size() >= 2 && parts.size() <= 3 && parts[0] == "hip" &&
                  absl::SimpleAtoi(parts[1], &index) && index >= 0 &&
                  (parts.size() == 2 || parts[2] == "wave32" || parts[2] == "wave64");
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--device=", spec, ": want hip, hip:N or hip:N:wave32|wave64 with N a device index"));
  }
  if (parts.size() == 3) wave = parts[2] == "wave64" ? 64 : 32;
  return std::pair<int, int>{index, wave};
}

absl::StatusOr<std::unique_ptr<Runner>> OpenSim(const RunnerOptions& options) {
  SimOptions sim{.inject = options.inject, .hypotheses = options.hypotheses};
  LANEDIFF_ASSIGN_OR_RETURN(ErrataSet errata, ErrataSet::Parse(options.inject));
  if (!errata.HasFault() && !options.isolate_sim) return OpenSimRunner(sim);
  // Check the options here, so a bad one is not reported as a child's failure.
  LANEDIFF_RETURN_IF_ERROR(OpenSimRunner(sim).status());
  return Isolate([sim]() { return OpenSimRunner(sim); }, options.timeout);
}

// The kernel interpreter with the simulator at the patch site (interp/interp.h), isolated as
// the simulator is.
absl::StatusOr<std::unique_ptr<Runner>> OpenInterp(const RunnerOptions& options) {
  SimOptions sim{.inject = options.inject, .hypotheses = options.hypotheses};
  LANEDIFF_ASSIGN_OR_RETURN(ErrataSet errata, ErrataSet::Parse(options.inject));
  if (!errata.HasFault() && !options.isolate_sim) return interp::OpenInterpRunner(sim);
  LANEDIFF_RETURN_IF_ERROR(interp::OpenInterpRunner(sim).status());
  return Isolate([sim]() { return interp::OpenInterpRunner(sim); }, options.timeout);
}

// "hip" -> 0, "hip:N" and "hip:N:waveW" -> N; -1 for any other spec.
int HipIndex(absl::string_view spec) {
  absl::StatusOr<std::pair<int, int>> p = ParseHipSpec(spec);
  return p.ok() ? p->first : -1;
}

// ListHipDevices in a forked child, its answer sent back as text over a pipe: line 1 "ok" or
// "CODE message"; then one line per device, "index<TAB>name<TAB>gcnArchName".
absl::StatusOr<std::vector<HipDeviceInfo>> ListHipDevicesInChild(absl::Duration timeout) {
  int fds[2];
  if (::pipe(fds) != 0) return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    ::close(fds[0]);
    absl::StatusOr<std::vector<HipDeviceInfo>> list = ListHipDevices();
    std::string text = list.ok() ? "ok" : absl::StrCat(static_cast<int>(list.status().code()), " ",
                                                       list.status().message());
    absl::StrReplaceAll({{"\n", " "}}, &text);
    if (list.ok()) {
      for (const HipDeviceInfo& d : *list) {
        absl::StrAppend(&text, "\n", d.index, "\t",
                        absl::StrReplaceAll(d.name, {{"\t", " "}, {"\n", " "}}), "\t",
                        absl::StrReplaceAll(d.gcn_arch_name, {{"\t", " "}, {"\n", " "}}));
      }
    }
    (void)WriteFrame(fds[1], text);
    ::_exit(0);
  }
  ::close(fds[1]);
  absl::StatusOr<std::string> text = ReadFrame(fds[0], timeout);
  ::close(fds[0]);
  if (!text.ok()) ::kill(pid, SIGKILL);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!text.ok()) {
    return absl::UnavailableError(absl::StrCat("listing the HIP devices in a child process: ",
                                               text.status().message(), " (child ended with ",
                                               DescribeWaitStatus(st), ")"));
  }
  std::vector<std::string> lines = absl::StrSplit(*text, '\n');
  if (lines[0] != "ok") {
    int code = static_cast<int>(absl::StatusCode::kUnavailable);
    std::pair<std::string, std::string> cm = absl::StrSplit(lines[0], absl::MaxSplits(' ', 1));
    if (!absl::SimpleAtoi(cm.first, &code) || code <= 0 || code > 16) {
      code = static_cast<int>(absl::StatusCode::kUnavailable);
    }
    return absl::Status(static_cast<absl::StatusCode>(code), cm.second);
  }
  std::vector<HipDeviceInfo> out;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> f = absl::StrSplit(lines[i], '\t');
    HipDeviceInfo d;
    if (f.size() != 3 || !absl::SimpleAtoi(f[0], &d.index)) continue;
    d.name = f[1];
    d.gcn_arch_name = f[2];
    out.push_back(std::move(d));
  }
  return out;
}

std::string DescribeGpus(const std::vector<HipDeviceInfo>& visible) {
  if (visible.empty()) return "none";
  std::vector<std::string> parts;
  for (const HipDeviceInfo& d : visible) {
    absl::StatusOr<std::string> gfx = ProcessorFromGcnArchName(d.gcn_arch_name);
    parts.push_back(absl::StrCat("hip:", d.index, " ", d.name, " ",
                                 gfx.ok() ? *gfx : absl::StrCat("'", d.gcn_arch_name, "'")));
  }
  return absl::StrJoin(parts, ", ");
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

absl::StatusOr<std::vector<std::string>> ChooseHipTargets(
    const std::vector<HipDeviceInfo>& visible, int device_index,
    const std::vector<std::string>& requested) {
  const HipDeviceInfo* used = nullptr;
  for (const HipDeviceInfo& d : visible) {
    if (d.index == device_index) used = &d;
  }
  if (used == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "HIP device ", device_index, " does not exist; GPUs found: ", DescribeGpus(visible)));
  }
  LANEDIFF_ASSIGN_OR_RETURN(std::string gfx, ProcessorFromGcnArchName(used->gcn_arch_name));
  if (!FindTarget(gfx).ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "hip:", device_index, " ", used->name, " is ", gfx,
        ", not a target lanediff knows (lanediff targets); GPUs found: ", DescribeGpus(visible)));
  }
  if (requested.empty()) return std::vector<std::string>{gfx};
  std::vector<std::string> missing;
  for (const std::string& t : requested) {
    if (t != gfx) missing.push_back(t);
  }
  if (missing.empty()) return requested;
  std::string hint;
  for (const std::string& t : missing) {
    for (const HipDeviceInfo& d : visible) {
      absl::StatusOr<std::string> g = ProcessorFromGcnArchName(d.gcn_arch_name);
      if (g.ok() && *g == t) {
        absl::StrAppend(&hint, "; --device=hip:", d.index, " runs ", t);
        break;
      }
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--targets ", absl::StrJoin(missing, ","), ": not the target of the GPU in use (hip:",
      device_index, " is ", gfx, "); GPUs found: ", DescribeGpus(visible), hint));
}

absl::StatusOr<std::vector<std::string>> CampaignTargets(absl::string_view spec,
                                                         const RunnerOptions& options,
                                                         const std::vector<std::string>& requested) {
  int index = HipIndex(spec);
  const bool is_auto = spec == "auto" && options.inject.empty() && options.hypotheses.empty();
  if (index < 0 && !is_auto) return requested;
  absl::StatusOr<std::vector<HipDeviceInfo>> visible = ListHipDevicesInChild(HipStart(options));
  if (is_auto) {
    // auto picks the GPU only when hip:0 opens; a GPU lanediff cannot run means the simulator.
    if (!visible.ok()) return requested;
    absl::StatusOr<std::vector<std::string>> t = ChooseHipTargets(*visible, 0, {});
    if (!t.ok()) return requested;
    index = 0;
  }
  if (!visible.ok()) return visible.status();
  return ChooseHipTargets(*visible, index, requested);
}

absl::string_view DeviceSpecHelp() {
  return "auto (HIP GPU if visible, else the simulator), hip, hip:N, hip:N:wave64 (RDNA), sim, interp (the kernel "
         "interpreted, the simulator at the patch site), exec:COMMAND, "
         "exec-serve:COMMAND, replay:PATH";
}

absl::StatusOr<std::unique_ptr<Runner>> OpenRunner(absl::string_view spec,
                                                   const RunnerOptions& options,
                                                   std::string* note) {
  if (note != nullptr) note->clear();
  const bool is_sim = spec == "sim" || spec == "auto" || spec == "interp";
  if (!is_sim && (!options.inject.empty() || !options.hypotheses.empty())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--inject and --hypothesis configure the simulator; --device=", spec, " takes neither"));
  }
  if (spec == "sim") return OpenSim(options);
  if (spec == "interp") return OpenInterp(options);
  if (spec == "hip" || absl::StartsWith(spec, "hip:")) {
    LANEDIFF_ASSIGN_OR_RETURN(auto index_wave, ParseHipSpec(spec));
    if (!options.inject.empty()) {
      return absl::InvalidArgumentError("--inject is for --device=sim only");
    }
    return OpenHip(index_wave.first, options, index_wave.second);
  }
  if (absl::StartsWith(spec, "exec:")) {
    return OpenExecRunner({.command = std::string(spec.substr(5)),
                           .timeout = options.timeout,
                           .lanediff_path = options.lanediff_path});
  }
  if (absl::StartsWith(spec, "exec-serve:")) {
    return OpenServeRunner({.command = std::string(spec.substr(11)),
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
