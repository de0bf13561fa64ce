#include "fuzz/cli/open_device.h"

#include "fuzz/cli/commands.h"

namespace lanediff {

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
