// `lanediff replay PATH...`: re-runs stored findings on a device (fuzz/engine/replay.h).
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "device_harness/open_runner.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/json_line.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/engine/compare.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/replay.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace {

int RunReplay(int argc, char** argv) {
  Args args("replay",
            "Re-run stored findings (files or directories of them) and say which still\n"
            "reproduce: the device gives, bit for bit, the words stored in the finding and the\n"
            "model still disagrees; a stored device fault reproduces when the device faults.");
  std::vector<std::string> hyps, relax, paths;
  DeviceFlags dev(/*default_timeout_seconds=*/10);
  bool allow_undefined = false;
  dev.Declare(args);
  args.Repeated("hypothesis", "model-side hypothesis (repeatable)", &hyps);
  args.Repeated("relax", "comparison relaxation (added to the finding's own)", &relax);
  args.Bool("allow-undefined", "run findings whose word breaks a documented ISA restriction "
            "(labelled undefined-by-spec; refused without this flag)", &allow_undefined);
  bool json = false;
  args.Bool("json", "JSON Lines: one object per finding and per malformed file, then a summary "
            "(docs/json.md)", &json);
  args.Positional("PATH", "finding files (.textproto, .binpb) or directories", &paths);
  args.Epilog("exit codes: 0 every finding reproduced, 1 some did not (or a file is malformed or\n"
              "refused: not a regular file, over a size limit; or there was nothing to replay),\n"
              "2 usage, 3 the device could not be opened.");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = CheckInputPaths("replay", "PATH", paths); rc >= 0) return rc;
  if (int rc = dev.CheckPath("replay"); rc >= 0) return rc;
  if (paths.empty()) {
    std::fprintf(stderr, "lanediff replay: give at least one PATH\n");
    return kExitUsage;
  }
  Hypotheses hyp;
  if (int rc = ApplyHypothesisFlags("replay", hyps, &hyp); rc >= 0) return rc;
  absl::StatusOr<Relaxations> r = ParseRelaxations(relax);
  if (!r.ok()) {
    std::fprintf(stderr, "lanediff replay: --relax: %s\n", std::string(r.status().message()).c_str());
    return kExitUsage;
  }
  int rc = kExitOk;
  std::unique_ptr<Runner> runner = OpenCommandDevice("replay", dev.device, dev.Options(), stderr, &rc);
  if (runner == nullptr) return rc;
  CorpusLoad load = LoadCorpus(paths);
  for (const std::string& e : load.errors) {
    if (json) {
      std::printf("%s\n", JsonLine().Str("type", "malformed").Str("error", e).Text().c_str());
    } else {
      std::printf("MALFORMED   %s\n", e.c_str());
    }
  }
  int reproduced = 0, gone = 0;
  for (const LoadedFinding& lf : load.findings) {
    ReplayOutcome o = ReplayFinding(lf.finding, hyp, *runner, *r, allow_undefined);
    const char* status = o.reproduced ? "REPRODUCED" : "NOT-REPRO";
    if (json) {
      std::printf("%s\n", JsonLine()
                              .Str("type", "finding")
                              .Str("status", status)
                              .Bool("reproduced", o.reproduced)
                              .Str("path", lf.path)
                              .Str("signature", lf.finding.signature())
                              .Str("detail", o.detail)
                              .Text()
                              .c_str());
    } else {
      std::printf("%-11s %s\n            %s\n", status, lf.path.c_str(), o.detail.c_str());
    }
    std::fflush(stdout);
    (o.reproduced ? reproduced : gone)++;
  }
  if (json) {
    std::printf("%s\n", JsonLine()
                            .Str("type", "summary")
                            .Uint("reproduced", reproduced)
                            .Uint("not_reproduced", gone)
                            .Uint("malformed", load.errors.size())
                            .Str("device", runner->Describe())
                            .Text()
                            .c_str());
    return load.findings.empty() || gone > 0 || !load.errors.empty() ? kExitFound : kExitOk;
  }
  std::printf("%d reproduced, %d did not, %zu malformed (device: %s)\n", reproduced, gone,
              load.errors.size(), runner->Describe().c_str());
  if (load.findings.empty() && load.errors.empty()) {
    // Reading nothing is never success: an empty directory verifies nothing.
    std::printf("NOTHING     no finding files (*.textproto, *.txtpb, *.binpb, *.pb) under the "
                "given paths: nothing was replayed\n");
    return kExitFound;
  }
  return gone == 0 && load.errors.empty() ? kExitOk : kExitFound;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(35, "replay", "re-run stored findings; which still reproduce",
                          RunReplay);

}  // namespace lanediff
