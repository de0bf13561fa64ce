// lanediff report: JUnit XML, Markdown and HTML from run records and a findings corpus.
#include <cstdio>
#include <filesystem>
#include <utility>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/report/report.h"
#include "fuzz/triage/buckets.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

int RunReport(int argc, char** argv) {
  Args args("report",
            "Write report.xml (JUnit), report.md and report.html (one self-contained page) from run\n"
            "records written by `lanediff sweep --out`/`fuzz --out` and from findings\n"
            "corpora. They open with each run identity (device and whether it is silicon, driver,\n"
            "errata, seeds, version and commit, dates, duration, lanes and rate), then the\n"
            "root-cause buckets by status (NEW, REGRESSED, KNOWN, FIXED; as `lanediff triage`)\n"
            "with a decoded example each, the coverage table, the campaigns' statistics over time,\n"
            "the instruction x target matrix, verdicts, the SR round-up curve and the pk_u8 map.\n"
            "Shards of one run are merged; runs of different identities are shown side by side.\n"
            "JUnit: one testcase per instruction x target, one failure per NEW or REGRESSED bucket,\n"
            "KNOWN buckets skipped with their reason.");
  std::string out_dir, known_path, since, instrs, incomplete;
  std::vector<std::string> corpora, inputs;
  args.Flag("out", "directory for report.xml, report.md, report.html (created)", &out_dir);
  args.Repeated("corpus", "corpus root or findings directory to include (repeatable)", &corpora);
  args.Flag("known", "known-issues file (default: <first corpus>/known_issues.textproto)",
            &known_path);
  args.Flag("since",
            "only buckets seen at or after this time count as seen by this run (default: all)",
            &since);
  args.Flag("instrs",
            "instructions the run covered (comma list; default all): a known issue of a covered "
            "instruction that was not seen is FIXED",
            &instrs);
  args.Flag("incomplete",
            "the run did not finish: TEXT (where it stopped) is shown as INCOMPLETE at the top of "
            "every report, and the JUnit counts it as a failure",
            &incomplete);
  args.Positional("RUN_RECORD...", "run record files or directories of them", &inputs);
  args.Epilog("example:\n  lanediff report --out out/report --corpus corpus/findings out/runs/");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = CheckInputPaths("report", "RUN_RECORD", inputs); rc >= 0) return rc;
  if (int rc = CheckInputPaths("report", "--corpus", corpora); rc >= 0) return rc;
  if (int rc = CheckOutputDir("report", "--out", out_dir); rc >= 0) return rc;
  if (out_dir.empty()) {
    std::fprintf(stderr, "lanediff report: --out DIR is required\n");
    return kExitUsage;
  }
  ReportData data;
  data.generated = NowRfc3339();
  data.incomplete = ToValidUtf8(incomplete);
  LoadRunRecords(inputs, &data);
  if (!corpora.empty()) {
    std::vector<std::string> dirs;
    for (const std::string& c : corpora) dirs.push_back(FindingsDirOf(c));
    CorpusLoad load = LoadCorpus(dirs);
    data.findings = std::move(load.findings);
    for (std::string& e : load.errors) data.load_errors.push_back(std::move(e));
    if (known_path.empty()) known_path = CorpusRootOf(corpora[0]) + "/known_issues.textproto";
  }
  if (!known_path.empty()) {
    absl::StatusOr<proto::KnownIssues> known = ReadKnownIssues(known_path);
    if (!known.ok()) {
      std::fprintf(stderr, "lanediff report: %s\n", std::string(known.status().message()).c_str());
      return kExitEnvironment;
    }
    data.known = *std::move(known);
  }
  data.triage.since = since;
  for (absl::string_view i : absl::StrSplit(instrs, ',', absl::SkipEmpty())) {
    data.triage.covered_instrs.insert(std::string(i));
  }
  for (const std::string& e : data.load_errors) std::fprintf(stderr, "lanediff report: %s\n", e.c_str());
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "lanediff report: cannot create %s: %s\n", out_dir.c_str(), ec.message().c_str());
    return kExitEnvironment;
  }
  const std::pair<const char*, std::string> outputs[] = {
      {"report.xml", RenderJUnit(data)},
      {"report.md", RenderMarkdown(data)},
      {"report.html", RenderHtml(data)},
  };
  for (const auto& [name, content] : outputs) {
    const std::string path = absl::StrCat(out_dir, "/", name);
    if (absl::Status st = WriteFileAtomic(path, content); !st.ok()) {
      std::fprintf(stderr, "lanediff report: %s\n", std::string(st.message()).c_str());
      return kExitEnvironment;
    }
    std::printf("wrote %s\n", path.c_str());
  }
  std::printf("%zu run record(s), %zu finding(s), %zu input(s) not loaded\n", data.runs.size(),
              data.findings.size(), data.load_errors.size());
  return data.load_errors.empty() ? kExitOk : kExitFound;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(80, "report", "JUnit XML, Markdown and HTML reports from runs and corpora",
                          RunReport);

}  // namespace lanediff
