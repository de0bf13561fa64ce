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

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"
#include "proto/report.pb.h"

namespace lanediff {

struct ReportData {
  std::vector<proto::RunRecord> runs;
  std::vector<proto::Finding> findings;
  std::vector<std::string> load_errors;  // inputs that could not be read, shown in the report
};

// One run record file's contents, parsed (binary for *.binpb / *.pb, text otherwise) and
// validated (proto/validate.h ValidateRunRecord); errors name `path` and the field.
absl::StatusOr<proto::RunRecord> ParseRunRecordFile(const std::string& path,
                                                    absl::string_view data);

// Run records from files and directories (*.textproto, *.txtpb, *.binpb, *.pb under a
// directory; a named file whatever its name) into data->runs; every file or directory that
// could not be read, parsed or validated is named in data->load_errors and skipped
// (proto/file_io.h WalkFiles: FIFOs, devices and unreadable directories included). A path
// that yields no run record at all is named too: reading nothing is never success.
void LoadRunRecords(const std::vector<std::string>& paths, ReportData* data);

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

// Every string from a file is escaped for its output: XML/HTML entities, and anything XML 1.0
// cannot hold (invalid UTF-8, control characters but tab and line ends, U+FFFE/U+FFFF)
// written as "\xNN" per byte; Markdown punctuation backslash-escaped, code in fences longer
// than any run of backticks it holds. Reports are valid XML (xmllint) for any input.
std::string RenderJUnit(const ReportData& data);
std::string RenderMarkdown(const ReportData& data);
std::string RenderHtml(const ReportData& data);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPORT_REPORT_H_
