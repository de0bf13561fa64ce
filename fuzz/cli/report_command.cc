// lanediff report: JUnit XML, Markdown and HTML from run records and a findings corpus.
#include <cstdio>
#include <filesystem>
#include <utility>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/corpus_store.h"
#include "fuzz/report/report.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

int RunReport(int argc, char** argv) {
  Args args("report",
            "Write report.xml (JUnit), report.md and report.html (one self-contained page: the\n"
            "instruction x target matrix, hypothesis verdicts per target, the SR round-up\n"
            "probability curve, the pk_u8 disagreement map, and every finding with its repro\n"
            "command) from run records written by `lanediff sweep --out`/`fuzz --out` and from\n"
            "findings corpora. Shards of one run are merged.");
  std::string out_dir;
  std::vector<std::string> corpora, inputs;
  args.Flag("out", "directory for report.xml, report.md, report.html (created)", &out_dir);
  args.Repeated("corpus", "findings directory to include (repeatable)", &corpora);
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
  LoadRunRecords(inputs, &data);
  if (!corpora.empty()) {
    CorpusLoad load = LoadCorpus(corpora);
    for (LoadedFinding& f : load.findings) data.findings.push_back(std::move(f.finding));
    for (std::string& e : load.errors) data.load_errors.push_back(std::move(e));
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
