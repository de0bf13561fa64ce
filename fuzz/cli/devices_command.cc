// lanediff devices: what can run batches here: HIP GPUs (or why there are none), the ISA
// simulator with its errata catalogue, and the replay sources in a directory.
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include "absl/strings/str_join.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/replay/recording_io.h"
#include "device_harness/sim/errata.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"

namespace lanediff {
namespace {

int RunDevices(int argc, char** argv) {
  Args args("devices",
            "List the devices lanediff can run batches on: HIP GPUs (--device=hip:N), the ISA\n"
            "simulator (--device=sim, with --inject ERRATUM) and recordings to replay\n"
            "(--device=replay:PATH) found under --replay-dir.");
  std::string replay_dir;
  bool hip_count = false;
  args.Flag("replay-dir", "DIR", "also list the recordings under DIR", &replay_dir);
  args.Bool("hip-count", "print only the number of usable HIP GPUs (0 with none), for scripts",
            &hip_count);
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (hip_count) {
    absl::StatusOr<std::vector<HipDeviceInfo>> hip = ListHipDevices();
    int usable = 0;
    if (hip.ok()) {
      for (const HipDeviceInfo& d : *hip) usable += d.unsupported.empty();
    }
    std::printf("%d\n", usable);
    return kExitOk;
  }

  std::printf("HIP devices (--device=hip:N, run isolated in a child process):\n");
  absl::StatusOr<std::vector<HipDeviceInfo>> hip = ListHipDevices();
  if (!hip.ok()) {
    std::printf("  none: %s\n", std::string(hip.status().message()).c_str());
  } else {
    for (const HipDeviceInfo& d : *hip) {
      std::printf("  hip:%d  %s  %s  wave%d  %s\n", d.index, d.name.c_str(),
                  d.gcn_arch_name.c_str(), d.wave_size,
                  d.unsupported.empty() ? ("target " + d.target).c_str()
                                        : ("unsupported: " + d.unsupported).c_str());
    }
  }

  std::printf(
      "\nISA simulator (--device=sim): a simulation, no hardware. Patches each batch's words\n"
      "into the target's code object, reads them back, decodes them and runs the model.\n"
      "Errata (--inject NAME, repeatable):\n%s",
      DescribeErrata().c_str());

  std::printf("\nExternal model (--device=exec:COMMAND): any program speaking `lanediff eval`'s "
              "pipe contract, started once per batch.\n");
  std::printf("External device (--device=exec-serve:COMMAND): one process per campaign speaking "
              "the framed exec-serve protocol (README), e.g. `lanediff serve-device --device=hip` "
              "over ssh.\n");

  std::printf("\nReplay sources (--device=replay:PATH)");
  if (replay_dir.empty()) {
    std::printf(": pass --replay-dir DIR to list recordings\n");
    return kExitOk;
  }
  std::printf(" under %s:\n", replay_dir.c_str());
  namespace fs = std::filesystem;
  std::error_code ec;
  int found = 0;
  for (auto it = fs::recursive_directory_iterator(replay_dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const std::string path = it->path().string();
    absl::StatusOr<proto::Recording> rec = ReadRecordingFile(path);
    if (!rec.ok() || rec->entries_size() == 0) continue;  // not a recording
    std::set<std::string> targets, devices;
    size_t lanes = 0, faults = 0;
    for (const auto& e : rec->entries()) {
      targets.insert(e.testcase().target());
      devices.insert(e.observation().provenance().device());
      lanes += e.testcase().lanes_size();
      faults += !e.observation().fault().empty();
    }
    std::printf("  replay:%s  %d batches, %zu lanes, %zu faults; targets %s; devices %s\n",
                path.c_str(), rec->entries_size(), lanes, faults,
                absl::StrJoin(targets, ",").c_str(), absl::StrJoin(devices, ",").c_str());
    ++found;
  }
  if (ec) {
    std::printf("  cannot read %s: %s\n", replay_dir.c_str(), ec.message().c_str());
    return kExitEnvironment;
  }
  if (found == 0) std::printf("  none\n");
  return kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(15, "devices", "list HIP GPUs, the simulator and its errata, replay sources",
                          RunDevices);

}  // namespace lanediff
