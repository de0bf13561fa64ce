// lanediff devices: what can run batches here: HIP GPUs (or why there are none), the ISA
// simulator with its errata catalogue, and the replay sources in a directory.
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "device_harness/open_runner.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/replay/recording_io.h"
#include "device_harness/sim/errata.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/selftest.h"

namespace lanediff {
namespace {

// `lanediff devices --selftest`: fuzz/selftest.h on one device.
int RunSelfTestCommand(const std::string& device, std::string target_name, const RunnerOptions& ro,
                       const std::string& bundle) {
  if (target_name.empty() && (device == "auto" || absl::StartsWith(device, "hip"))) {
    int index = 0;
    // hip:N or hip:N:wave64: the index is up to the next ':'.
    if (absl::StartsWith(device, "hip:") &&
        !absl::SimpleAtoi(absl::string_view(device).substr(4, device.find(':', 4) - 4), &index)) {
      index = -1;
    }
    absl::StatusOr<std::vector<HipDeviceInfo>> hip = ListHipDevices();
    if (hip.ok() && index >= 0 && static_cast<size_t>(index) < hip->size()) target_name = (*hip)[index].target;
  }
  if (target_name.empty()) {
    std::fprintf(stderr, "lanediff devices --selftest: --target T is needed for --device=%s (no HIP GPU "
                 "to take it from)\n", device.c_str());
    return kExitUsage;
  }
  absl::StatusOr<const TargetTraits*> target = FindTarget(target_name);
  if (!target.ok()) {
    std::fprintf(stderr, "lanediff devices --selftest: %s\n", std::string(target.status().message()).c_str());
    return kExitUsage;
  }
  std::string note;
  absl::StatusOr<std::unique_ptr<Runner>> runner = OpenRunner(device, ro, &note);
  if (!runner.ok()) {
    std::fprintf(stderr, "lanediff devices --selftest: %s\n", std::string(runner.status().message()).c_str());
    return kExitEnvironment;
  }
  if (!note.empty()) std::fprintf(stderr, "%s\n", note.c_str());
  absl::StatusOr<SelfTest> st = RunSelfTest(**runner, **target);
  if (!st.ok()) {
    std::fprintf(stderr, "lanediff devices --selftest: %s\n", std::string(st.status().message()).c_str());
    return kExitEnvironment;
  }
  std::fputs(FormatSelfTest(*st).c_str(), stdout);
  if (!bundle.empty()) {
    std::ofstream f(bundle, std::ios::binary | std::ios::trunc);
    f << SelfTestBundle(*st);
    f.close();
    if (!f) {
      std::fprintf(stderr, "lanediff devices --selftest: cannot write the bundle %s\n", bundle.c_str());
      return kExitEnvironment;
    }
    std::printf("bundle: %s (attach it to a bug report; it replays with --device=replay:%s)\n",
                bundle.c_str(), bundle.c_str());
  }
  return st->ok() ? kExitOk : kExitFound;
}

int RunDevices(int argc, char** argv) {
  Args args("devices",
            "List the devices lanediff can run batches on: HIP GPUs (--device=hip:N), the ISA\n"
            "simulator (--device=sim, with --inject ERRATUM) and recordings to replay\n"
            "(--device=replay:PATH) found under --replay-dir. With --selftest, check the harness\n"
            "on one device (device_harness/README.md walks through it).");
  std::string replay_dir;
  bool hip_count = false;
  args.Flag("replay-dir", "DIR", "also list the recordings under DIR", &replay_dir);
  args.Bool("hip-count", "print only the number of usable HIP GPUs (0 with none), for scripts",
            &hip_count);
  bool selftest = false;
  std::string device = "auto", target_name, bundle;
  double start_timeout = 0;
  std::vector<std::string> inject;
  args.Bool("selftest",
            "check the harness on --device: known-answer batches (lanes every reading of every "
            "rule agrees on, every modifier, literal and non-literal words, two MODEs), the MODE "
            "read back after each batch, and a discriminate pass; exit 0 when all are right, 1 when "
            "the harness is wrong on the device, 3 when the device cannot be opened",
            &selftest);
  args.Flag("device", "SPEC", "with --selftest: the device to check (default auto)", &device);
  args.Flag("target", "T", "with --selftest: the gfx target (default: the HIP device's own; "
            "needed for sim, exec and replay)", &target_name);
  args.Repeated("inject", "E", "with --selftest and --device=sim: simulator erratum (repeatable)", &inject);
  args.Flag("bundle", "FILE", "with --selftest: write the attachable report (device, driver, ISA "
            "string, MODE readback, known answers, verdicts) with a recording that replays with "
            "--device=replay:FILE", &bundle);
  args.Double("start-timeout", "SECONDS", "with --selftest and a HIP device: how long the isolated "
            "child may take to initialise HIP (default 20 + 10 per GPU the driver exposes)",
              kTimeoutRange, &start_timeout);
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (!replay_dir.empty()) {
    if (int rc = CheckInputPaths("devices", "--replay-dir", {replay_dir}); rc >= 0) return rc;
  }
  RunnerOptions ro;
  ro.inject = inject;
  if (start_timeout > 0) ro.start_timeout = absl::Seconds(start_timeout);
  if (selftest) {
    if (!bundle.empty()) {
      if (int rc = CheckOutputFile("devices", "--bundle", bundle); rc >= 0) return rc;
    }
    if (int rc = CheckDeviceSpecPath("devices", device); rc >= 0) return rc;
    return RunSelfTestCommand(device, target_name, ro, bundle);
  }
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
