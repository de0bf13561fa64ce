// lanediff record: run test cases on a device and write what it answered as a Recording,
// for --device=replay:PATH on a machine without that device.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "device_harness/open_runner.h"
#include "device_harness/replay/recording_io.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// Every *.textproto under a directory (sorted), or the file itself.
std::vector<std::string> ExpandCases(const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      files.push_back(in);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(in, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".textproto") {
        found.push_back(it->path().string());
      }
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

int RunRecord(int argc, char** argv) {
  Args args("record",
            "Run test cases on a device and write its answers as a lanediff.proto.Recording\n"
            "(text, or binary when --out ends in .pb/.binpb), for --device=replay:PATH.\n"
            "Device faults are recorded as such (Observation.fault) and replay as faults.");
  std::string out;
  std::vector<std::string> hyps, cases;
  DeviceFlags flags(/*default_timeout_seconds=*/30);
  bool allow_undefined = false;
  flags.Declare(args);
  args.Flag("out", "recording to write (atomically: temp file, fsync, rename)", &out);
  args.Repeated("hypothesis", "sim only: the simulated model's hypothesis", &hyps);
  args.Bool("allow-undefined", "run cases whose word breaks a documented ISA restriction (the "
            "constant-bus limit); refused without this flag", &allow_undefined);
  args.Positional("CASE...", "TestCase text files, or directories of *.textproto", &cases);
  args.Epilog(
      "exit codes: 0 every case recorded (device faults included); 1 some case could not be\n"
      "read or was refused (the others are still written); 2 usage; 3 no device, or the\n"
      "recording could not be written.\n");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = CheckInputPaths("record", "CASE", cases); rc >= 0) return rc;
  if (int rc = CheckOutputFile("record", "--out", out); rc >= 0) return rc;
  if (int rc = flags.CheckPath("record"); rc >= 0) return rc;
  if (out.empty() || cases.empty()) {
    std::fprintf(stderr, "lanediff record: need --out PATH and at least one CASE\n");
    return kExitUsage;
  }
  RunnerOptions options = flags.Options();
  options.hypotheses = hyps;
  int rc = kExitOk;
  std::unique_ptr<Runner> dev = OpenCommandDevice("record", flags.device, options, stdout, &rc);
  if (dev == nullptr) return rc;
  std::printf("lanediff record: device %s\n", dev->Describe().c_str());
  proto::Recording rec;
  int bad = 0, faults = 0;
  size_t lanes = 0;
  for (const std::string& file : ExpandCases(cases)) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    absl::StatusOr<proto::TestCase> tc =
        in ? ParseText<proto::TestCase>(ss.str(), file)
           : absl::StatusOr<proto::TestCase>(absl::NotFoundError(absl::StrCat(file, ": cannot open")));
    absl::StatusOr<DeviceBatch> batch =
        tc.ok() ? BuildDeviceBatch(*tc, allow_undefined) : absl::StatusOr<DeviceBatch>(tc.status());
    if (!batch.ok()) {
      std::fprintf(stderr, "lanediff record: %s: %s\n", file.c_str(),
                   std::string(batch.status().message()).c_str());
      ++bad;
      continue;
    }
    absl::StatusOr<DeviceResult> r = dev->Run(*batch);
    proto::Recording::Entry* e = rec.add_entries();
    *e->mutable_testcase() = *tc;
    if (r.ok()) {
      e->mutable_observation()->mutable_vdst()->Assign(r->vdst.begin(), r->vdst.end());
      *e->mutable_observation()->mutable_provenance() = r->provenance;
      lanes += r->vdst.size();
    } else if (IsDeviceFault(r.status())) {
      e->mutable_observation()->set_fault(std::string(r.status().message()));
      e->mutable_observation()->mutable_provenance()->set_runner(flags.device);
      std::fprintf(stderr, "lanediff record: %s: %s\n", file.c_str(),
                   std::string(r.status().message()).c_str());
      ++faults;
    } else {
      rec.mutable_entries()->RemoveLast();
      std::fprintf(stderr, "lanediff record: %s: refused: %s\n", file.c_str(),
                   std::string(r.status().message()).c_str());
      ++bad;
    }
  }
  if (absl::Status w = WriteRecording(rec, out); !w.ok()) {
    std::fprintf(stderr, "lanediff record: %s\n", std::string(w.message()).c_str());
    return kExitEnvironment;
  }
  std::printf("lanediff record: wrote %s: %d cases, %zu lanes, %d device faults, %d refused\n",
              out.c_str(), rec.entries_size(), lanes, faults, bad);
  return bad > 0 ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(60, "record", "run cases on a device and write a recording for replay",
                          RunRecord);

}  // namespace lanediff
