// Reports for people and CI systems from what runs left behind: run records (sweeps, campaign
// summaries, hypothesis verdicts; proto/report.proto) and stored findings.
//
//   ReportData data;
//   data.runs = {...};        // RunRecord messages, one per run or shard
//   data.findings = {...};    // from the corpus store
//   std::string xml = RenderJUnit(data);
//   std::string md = RenderMarkdown(data);
//   std::string html = RenderHtml(data);   // one self-contained page, no network
#ifndef LANEDIFF_FUZZ_REPORT_REPORT_H_
#define LANEDIFF_FUZZ_REPORT_REPORT_H_

#include <string>
#include <vector>

#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"
#include "proto/report.pb.h"

namespace lanediff {

struct ReportData {
  std::vector<proto::RunRecord> runs;
  std::vector<proto::Finding> findings;
  std::vector<std::string> load_errors;  // inputs that could not be read, shown in the report
};

// One cell of the compatibility matrix (instruction x target).
enum class CellStatus {
  kNotSupported,     // the target lacks the instruction
  kNotRun,           // nothing ran on silicon (the note says what ran elsewhere)
  kAgreesOnSilicon,  // ran on a real GPU, no disagreement
  kDisagrees,        // at least one disagreement or fault on this target x instruction
};

struct MatrixCell {
  CellStatus status = CellStatus::kNotRun;
  std::string note;  // "sim: 12345 lanes, agrees", "3 findings", ...
};

// The matrix, indexed [instr][target index in AllTargets()].
std::vector<std::vector<MatrixCell>> BuildMatrix(const ReportData& data);
absl::string_view CellStatusName(CellStatus s);

// Sweeps merged across shards: shards of the same (target, instr, setting, device, swept)
// add up; the result is what one unsharded run would have produced.
std::vector<proto::SweepResult> MergeSweeps(const std::vector<proto::RunRecord>& runs);

std::string RenderJUnit(const ReportData& data);
std::string RenderMarkdown(const ReportData& data);
std::string RenderHtml(const ReportData& data);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPORT_REPORT_H_
