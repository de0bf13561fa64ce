// lanediff devices: what can run batches here: HIP GPUs (or why there are none), the ISA
// simulator with its errata catalogue, and the replay sources in a directory.
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/open_runner.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/replay/recording_io.h"
#include "device_harness/sim/errata.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/json_line.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/selftest/selftest.h"

namespace lanediff {
namespace {

// `lanediff devices --selftest`: fuzz/selftest/selftest.h on one device.
// --selftest --json: a "check" line per known-answer batch, a "discriminate" line per verdict
// or error, then one "selftest" line (docs/json.md).
std::string SelfTestJsonLines(const SelfTest& st, const std::string& bundle) {
  std::string out;
  for (const KnownAnswer& k : st.known) {
    absl::StrAppend(&out, JsonLine()
                              .Str("type", "check")
                              .Str("name", k.name)
                              .Bool("ok", k.ok())
                              .Uint("lanes", k.testcase.lanes_size())
                              .Uint("wrong_lanes", k.wrong_lanes)
                              .Str("first_wrong", k.first_wrong)
                              .Str("error", k.status.ok() ? "" : std::string(k.status.message()))
                              .Str("mode_readback", k.mode_readback.has_value()
                                                        ? absl::StrFormat("0x%08x", *k.mode_readback)
                                                        : "")
                              .Text(),
                    "\n");
  }
  for (const std::string& v : st.discriminate) {
    absl::StrAppend(&out, JsonLine().Str("type", "discriminate").Str("verdict", v).Str("error", "").Text(),
                    "\n");
  }
  for (const std::string& e : st.discriminate_errors) {
    absl::StrAppend(&out, JsonLine().Str("type", "discriminate").Str("verdict", "").Str("error", e).Text(),
                    "\n");
  }
  absl::StrAppend(&out, JsonLine()
                            .Str("type", "selftest")
                            .Bool("ok", st.ok())
                            .Str("device", st.device)
                            .Str("target", st.target)
                            .Str("isa", st.isa)
                            .Str("bundle", bundle)
                            .Text(),
                  "\n");
  return out;
}

int RunSelfTestCommand(const std::string& device, std::string target_name, const RunnerOptions& ro,
                       const std::string& bundle, bool json) {
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
    std::fprintf(stderr, "lanediff devices --selftest: --targets T is needed for --device=%s (no HIP GPU "
                 "to take it from)\n", device.c_str());
    return kExitUsage;
  }
  absl::StatusOr<const TargetTraits*> target = FindTarget(target_name);
  if (!target.ok()) {
    std::fprintf(stderr, "lanediff devices --selftest: %s\n", std::string(target.status().message()).c_str());
    return kExitUsage;
  }
  // On an RDNA GPU named without a wave size: both code objects, one report (and bundle) each.
  const std::vector<std::string> specs = SelfTestDeviceSpecs(device, **target);
  int worst = kExitOk;
  for (size_t i = 0; i < specs.size(); ++i) {
    int rc = kExitOk;
    std::unique_ptr<Runner> runner = OpenCommandDevice("devices --selftest", specs[i], ro, stderr, &rc);
    if (runner == nullptr) return rc;
    absl::StatusOr<SelfTest> st = RunSelfTest(*runner, **target);
    if (!st.ok()) {
      std::fprintf(stderr, "lanediff devices --selftest: %s\n", std::string(st.status().message()).c_str());
      return kExitEnvironment;
    }
    if (!json) std::fputs(FormatSelfTest(*st).c_str(), stdout);
    // The first spec's bundle is --out; a second wave size's is --out with "-wave64" before its
    // extension (selftest.textproto -> selftest-wave64.textproto).
    std::string path = bundle;
    if (!bundle.empty() && i > 0) {
      const std::string suffix = absl::StrCat("-", specs[i].substr(specs[i].rfind(':') + 1));
      const size_t dot = bundle.rfind('.'), slash = bundle.rfind('/');
      path = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                 ? absl::StrCat(bundle, suffix)
                 : absl::StrCat(bundle.substr(0, dot), suffix, bundle.substr(dot));
    }
    if (!path.empty()) {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << SelfTestBundle(*st);
      f.close();
      if (!f) {
        std::fprintf(stderr, "lanediff devices --selftest: cannot write the bundle %s\n", path.c_str());
        return kExitEnvironment;
      }
      if (!json) {
        std::printf("bundle: %s (attach it to a bug report; it replays with --device=replay:%s)\n",
                    path.c_str(), path.c_str());
      }
    }
    if (json) std::fputs(SelfTestJsonLines(*st, path).c_str(), stdout);
    if (!st->ok()) worst = kExitFound;
  }
  return worst;
}

// One recording found under --replay-dir.
struct ReplaySource {
  std::string path;
  int batches = 0;
  size_t lanes = 0, faults = 0;
  std::set<std::string> targets, devices;
};

// The recordings under `dir` (files that are no recording are passed over), or the error
// listing the directory.
absl::StatusOr<std::vector<ReplaySource>> FindReplaySources(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<ReplaySource> found;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    ReplaySource src;
    src.path = it->path().string();
    absl::StatusOr<proto::Recording> rec = ReadRecordingFile(src.path);
    if (!rec.ok() || rec->entries_size() == 0) continue;  // not a recording
    src.batches = rec->entries_size();
    for (const auto& e : rec->entries()) {
      src.targets.insert(e.testcase().target());
      src.devices.insert(e.observation().provenance().device());
      src.lanes += e.testcase().lanes_size();
      src.faults += !e.observation().fault().empty();
    }
    found.push_back(std::move(src));
  }
  if (ec) return absl::UnavailableError(absl::StrCat("cannot read ", dir, ": ", ec.message()));
  return found;
}

int PrintDevicesJson(const absl::StatusOr<std::vector<HipDeviceInfo>>& hip,
                     const std::string& replay_dir) {
  std::vector<std::string> gpus, errata, replays;
  if (hip.ok()) {
    for (const HipDeviceInfo& d : *hip) {
      gpus.push_back(JsonLine()
                         .Str("device", absl::StrCat("hip:", d.index))
                         .Str("name", d.name)
                         .Str("gcn_arch_name", d.gcn_arch_name)
                         .Uint("wave_size", d.wave_size)
                         .Str("target", d.target)
                         .Str("unsupported", d.unsupported)
                         .Text());
    }
  }
  for (const ErratumInfo& e : AllErrata()) {
    errata.push_back(JsonLine()
                         .Str("name", e.name)
                         .Str("description", e.description)
                         .Str("predicts", e.predicts)
                         .Bool("fault", e.fault)
                         .Text());
  }
  int rc = kExitOk;
  std::string replay_error;
  if (!replay_dir.empty()) {
    absl::StatusOr<std::vector<ReplaySource>> found = FindReplaySources(replay_dir);
    if (!found.ok()) {
      replay_error = std::string(found.status().message());
      rc = kExitEnvironment;
    } else {
      for (const ReplaySource& r : *found) {
        replays.push_back(JsonLine()
                              .Str("device", "replay:" + r.path)
                              .Uint("batches", r.batches)
                              .Uint("lanes", r.lanes)
                              .Uint("faults", r.faults)
                              .Strs("targets", {r.targets.begin(), r.targets.end()})
                              .Strs("devices", {r.devices.begin(), r.devices.end()})
                              .Text());
      }
    }
  }
  JsonLine j;
  j.Raw("hip", JsonArray(gpus))
      .Str("hip_error", hip.ok() ? "" : std::string(hip.status().message()))
      .Raw("errata", JsonArray(errata))
      .Raw("replay", JsonArray(replays))
      .Str("replay_error", replay_error);
  std::printf("%s\n", j.Text().c_str());
  return rc;
}

int RunDevices(int argc, char** argv) {
  Args args("devices",
            "List the devices lanediff can run batches on: HIP GPUs (--device=hip:N), the ISA\n"
            "simulator (--device=sim, with --inject ERRATUM) and recordings to replay\n"
            "(--device=replay:PATH) found under --replay-dir. With --selftest, check the harness\n"
            "on one device (device_harness/README.md walks through it).");
  std::string replay_dir;
  bool hip_count = false;
  args.Flag("replay-dir", "also list the recordings under DIR", &replay_dir);
  args.Bool("hip-count", "print only the number of usable HIP GPUs (0 with none), for scripts",
            &hip_count);
  bool selftest = false;
  std::string device = "auto", target_name, bundle;
  double start_timeout = 0;
  std::vector<std::string> inject;
  args.Bool("selftest",
            "check the harness on --device: known-answer batches (lanes every reading of every "
            "rule agrees on, NaN and other special inputs among them, every modifier, literal and "
            "non-literal words, two MODEs, two workgroups a batch), the MODE read back after each "
            "batch, and a discriminate pass; on an RDNA GPU (hip:N) both wave sizes, each "
            "reported (the wave64 bundle FILE-wave64.EXT); exit 0 when all are right, 1 when "
            "the harness is wrong on the device, 3 when the device cannot be opened",
            &selftest);
  args.Flag("device", "with --selftest: the device to check", &device);
  args.Flag("targets", "with --selftest: the gfx target (default: the HIP device's own; "
            "needed for sim, exec and replay)", &target_name);
  args.Repeated("inject", "with --selftest and --device=sim: simulator erratum (repeatable)", &inject);
  args.Flag("out", "with --selftest: write the attachable report (device, driver, ISA "
            "string, MODE readback, known answers, verdicts) with a recording that replays with "
            "--device=replay:FILE", &bundle);
  args.Double("start-timeout", "with --selftest and a HIP device: how long the isolated "
            "child may take to initialise HIP (default 20 + 10 per GPU the driver exposes)",
              kTimeoutRange, &start_timeout);
  bool json = false;
  args.Bool("json", "the listing as one JSON object; with --selftest, JSON Lines: a line per check, "
            "then the verdict (docs/json.md)", &json);
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = RequireOne("devices", "--targets", target_name); rc >= 0) return rc;
  if (!replay_dir.empty()) {
    if (int rc = CheckInputPaths("devices", "--replay-dir", {replay_dir}); rc >= 0) return rc;
  }
  RunnerOptions ro;
  ro.inject = inject;
  if (start_timeout > 0) ro.start_timeout = absl::Seconds(start_timeout);
  if (selftest) {
    if (!bundle.empty()) {
      if (int rc = CheckOutputFile("devices", "--out", bundle); rc >= 0) return rc;
    }
    if (int rc = CheckDeviceSpecPath("devices", device); rc >= 0) return rc;
    return RunSelfTestCommand(device, target_name, ro, bundle, json);
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

  absl::StatusOr<std::vector<HipDeviceInfo>> hip = ListHipDevices();
  if (json) return PrintDevicesJson(hip, replay_dir);
  std::printf("HIP devices (--device=hip:N, run isolated in a child process):\n");
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
              "the framed exec-serve protocol (device_harness/README.md), e.g. "
              "`lanediff serve-device --device=hip` "
              "over ssh.\n");

  std::printf("\nReplay sources (--device=replay:PATH)");
  if (replay_dir.empty()) {
    std::printf(": pass --replay-dir DIR to list recordings\n");
    return kExitOk;
  }
  std::printf(" under %s:\n", replay_dir.c_str());
  absl::StatusOr<std::vector<ReplaySource>> found = FindReplaySources(replay_dir);
  if (!found.ok()) {
    std::printf("  %s\n", std::string(found.status().message()).c_str());
    return kExitEnvironment;
  }
  for (const ReplaySource& r : *found) {
    std::printf("  replay:%s  %d batches, %zu lanes, %zu faults; targets %s; devices %s\n",
                r.path.c_str(), r.batches, r.lanes, r.faults, absl::StrJoin(r.targets, ",").c_str(),
                absl::StrJoin(r.devices, ",").c_str());
  }
  if (found->empty()) std::printf("  none\n");
  return kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(15, "devices", "list HIP GPUs, the simulator and its errata, replay sources",
                          RunDevices);

}  // namespace lanediff
