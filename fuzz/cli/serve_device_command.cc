// lanediff serve-device: any device behind the exec-serve protocol on stdin/stdout
// (device_harness/serve/serve_protocol.h), for --device='exec-serve:COMMAND' elsewhere:
//   lanediff fuzz --device='exec-serve:ssh gpu-host lanediff serve-device --device=hip'
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device_harness/open_runner.h"
#include "device_harness/serve/serve_protocol.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"

namespace lanediff {
namespace {

int RunServeDevice(int argc, char** argv) {
  Args args("serve-device",
            "Serve a device on stdin/stdout in the exec-serve protocol (device_harness/README.md,\n"
            "\"The protocol\"): a hello naming the device, the targets it runs (for hip: the\n"
            "GPU's) and the instructions, then one answer per request until stdin ends.\n"
            "stdout carries only frames; everything else goes to stderr. Meant to be started\n"
            "by another lanediff through --device='exec-serve:COMMAND', over ssh or locally.");
  std::vector<std::string> hyps;
  DeviceFlags flags(/*default_timeout_seconds=*/30);
  flags.Declare(args);
  args.Repeated("hypothesis", "sim only: the simulated model's hypothesis", &hyps);
  args.Epilog(
      "examples:\n  lanediff fuzz --execs 500 --device='exec-serve:ssh gpu-host lanediff serve-device "
      "--device=hip'\n"
      "  lanediff fuzz --execs 500 \\\n"
      "      --device='exec-serve:lanediff serve-device --device=sim --inject byte12_swap'\n"
      "exit codes: 0 stdin ended, 2 usage, 3 the device cannot be opened or the protocol broke.");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = flags.CheckPath("serve-device"); rc >= 0) return rc;
  // Frames only on stdout: keep it for the protocol, send anything else printed to stderr.
  const int out_fd = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (out_fd < 0 || ::dup2(2, 1) < 0) {
    std::fprintf(stderr, "lanediff serve-device: cannot set up stdout\n");
    return kExitEnvironment;
  }
  RunnerOptions ro = flags.Options();
  ro.hypotheses = hyps;
  absl::StatusOr<std::vector<std::string>> targets = CampaignTargets(flags.device, ro, {});
  if (!targets.ok()) return ReportDeviceError("serve-device", flags.device, targets.status());
  int rc = kExitOk;
  std::unique_ptr<Runner> runner = OpenCommandDevice("serve-device", flags.device, ro, stderr, &rc);
  if (runner == nullptr) return rc;
  ServeHello hello;
  hello.device = runner->Describe();
  hello.targets = *targets;  // empty: any (the device refuses what it cannot run)
  for (Instr i : kAllInstrs) hello.instrs.emplace_back(InstrName(i));
  absl::Status s = ServeDevice(*runner, hello, 0, out_fd);
  if (!s.ok()) {
    std::fprintf(stderr, "lanediff serve-device: %s\n", std::string(s.message()).c_str());
    return kExitEnvironment;
  }
  return kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(75, "serve-device",
                          "a device on stdin/stdout for --device=exec-serve:COMMAND (ssh)",
                          RunServeDevice);

}  // namespace lanediff
