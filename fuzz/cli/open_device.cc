#include "fuzz/cli/open_device.h"

#include "fuzz/cli/commands.h"
#include "fuzz/cli/output_path.h"

namespace lanediff {

void DeviceFlags::Declare(Args& args, std::string device_help) {
  args.Flag("device", device_help.empty() ? std::string(DeviceSpecHelp()) : std::move(device_help),
            &device);
  args.Repeated("inject", "sim and interp only: plant a simulator erratum (repeatable; `lanediff devices` "
                "lists them)", &inject);
  args.Double("timeout", "per-batch device timeout in seconds, above 0: a hang past it is a fault "
              "(isolated and exec devices)", kTimeoutRange, &timeout);
  args.Double("start-timeout", "hip: how long the isolated device process may take to "
              "initialise HIP, above 0 (default 20 + 10 per GPU the driver exposes)", kTimeoutRange,
              &start_timeout);
}

int DeviceFlags::CheckPath(absl::string_view command) const {
  return CheckDeviceSpecPath(command, device);
}

RunnerOptions DeviceFlags::Options() const {
  RunnerOptions o;
  o.inject = inject;
  o.timeout = absl::Seconds(timeout);
  if (start_timeout > 0) o.start_timeout = absl::Seconds(start_timeout);
  return o;
}

int ReportDeviceError(absl::string_view command, const std::string& device,
                      const absl::Status& status) {
  std::fprintf(stderr, "lanediff %s: --device=%s: %s\n", std::string(command).c_str(),
               device.c_str(), std::string(status.message()).c_str());
  return absl::IsInvalidArgument(status) ? kExitUsage : kExitEnvironment;
}

std::unique_ptr<Runner> OpenCommandDevice(absl::string_view command, const std::string& device,
                                          const RunnerOptions& options, std::FILE* note_to,
                                          int* exit_code) {
  std::string note;
  absl::StatusOr<std::unique_ptr<Runner>> runner = OpenRunner(device, options, &note);
  if (!note.empty() && note_to != nullptr) std::fprintf(note_to, "%s\n", note.c_str());
  if (!runner.ok()) {
    *exit_code = ReportDeviceError(command, device, runner.status());
    return nullptr;
  }
  return *std::move(runner);
}

}  // namespace lanediff
