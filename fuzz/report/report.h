// Reports for people and CI systems from what runs left behind: run records (sweeps, campaign
// summaries, hypothesis verdicts; proto/report.proto) and stored findings.
//
//   ReportData data;
//   LoadRunRecords({"out/runs"}, &data);        // RunRecord files, one per run or shard
//   data.findings = LoadCorpus({...}).findings;  // from the corpus store
//   data.known = *ReadKnownIssues(...);          // fuzz/triage/buckets.h
//   data.triage.since = run_start;               // what counts as seen by this run
//   std::string xml = RenderJUnit(data);
//   std::string md = RenderMarkdown(data);
//   std::string html = RenderHtml(data);   // one self-contained page, no network, no script
//
// Every report opens with a header per run identity (fuzz/triage/run_identity.h: device and
// whether it is silicon, driver, errata, seeds, version and commit, dates, duration, lanes and
// rate), then the root-cause buckets by status (NEW, REGRESSED, KNOWN, FIXED) with one
// decoded example each (fuzz/triage/render.h), the coverage table (instruction x target x
// operand shape x MODE class: lanes run), the campaigns' statistics over time, the
// compatibility matrix, verdicts, sweeps and the stored findings. Runs of different identities
// are never summed; a simulator's, exec's or replay's answer is labelled as such wherever it is
// shown. Numbers carry thousands separators.
#ifndef LANEDIFF_FUZZ_REPORT_REPORT_H_
#define LANEDIFF_FUZZ_REPORT_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/triage/buckets.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"
#include "proto/report.pb.h"

namespace lanediff {

struct ReportData {
  std::vector<proto::RunRecord> runs;
  std::vector<LoadedFinding> findings;   // stored findings and their paths
  proto::KnownIssues known;              // the known-issues file: bucket statuses
  TriageOptions triage;                  // which buckets this run saw and covered
  std::string generated;                 // when the report was made (RFC 3339), shown if set
  std::vector<std::string> load_errors;  // inputs that could not be read, shown in the report
  // Non-empty: the run did not finish (killed, out of time) and this says where it stopped.
  // Every report says INCOMPLETE with it at the top; the JUnit counts it as a failure.
  std::string incomplete;
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

// "simulator (not silicon)", "silicon", "exec (not silicon)", "replay (not silicon)", ... for
// a runner spec or kind ("sim", "hip:1", "exec:./m", "replay:p recorded by hip").
std::string DeviceLabel(absl::string_view runner);

// Runs whose identities match (IdentityKey): shards of one run, the campaigns of one night.
struct RunGroup {
  std::string key;                   // IdentityKey
  proto::RunIdentity identity;       // the first run's (seed, host and date vary inside)
  std::string label;                 // IdentityLabel: "silicon", "simulator (not silicon)"
  std::vector<uint64_t> seeds;       // distinct, ascending
  std::string first_date, last_date; // identity dates (or `started`)
  double seconds = 0;                // campaigns and sweeps, summed
  uint64_t cases = 0, lanes = 0, findings = 0, faults = 0;
  std::vector<const proto::RunRecord*> runs;
  std::vector<proto::CoverageCell> coverage;  // summed per cell, by instruction then target
  // The campaigns' timelines laid end to end in date order: seconds and counters cumulative.
  std::vector<proto::StatsSample> timeline;
};
std::vector<RunGroup> GroupRuns(const std::vector<proto::RunRecord>& runs);
// At least one of the group's runs recorded a campaign (a sweep-only group has none).
bool HasCampaigns(const RunGroup& g);

// Findings grouped by who answered (device kind, injected errata, model hypotheses: different
// groups are never folded together), folded into buckets and triaged.
struct BucketGroup {
  std::string key;
  std::string label;                 // "simulator (not silicon), injected sr_wrap"
  std::vector<Bucket> buckets;
  std::vector<TriageRow> rows;       // point into `buckets`: a BucketGroup is moved, never copied
  BucketGroup() = default;
  BucketGroup(BucketGroup&&) = default;
  BucketGroup& operator=(BucketGroup&&) = default;
  BucketGroup(const BucketGroup&) = delete;
};
std::vector<BucketGroup> GroupBuckets(const ReportData& data);

// One cell of the compatibility matrix (instruction x target).
enum class CellStatus {
  kNotSupported,     // the target lacks the instruction
  kNotRun,           // nothing ran on silicon (the note says what ran elsewhere)
  kAgreesOnSilicon,  // ran on a real GPU, no disagreement
  kDisagrees,        // at least one disagreement or fault (the note says on which device)
};

struct MatrixCell {
  CellStatus status = CellStatus::kNotRun;
  std::string note;  // "simulator (not silicon): 12,345 lanes agree", "3 findings on ...", ...
};

// The matrix, indexed [instr][target index in AllTargets()].
std::vector<std::vector<MatrixCell>> BuildMatrix(const ReportData& data);
absl::string_view CellStatusName(CellStatus s);

// Sweeps merged across shards: shards of the same (target, instr, setting, device, swept)
// and the same run identity add up; the result is what one unsharded run would have produced.
std::vector<proto::SweepResult> MergeSweeps(const std::vector<proto::RunRecord>& runs);
// The same, each merged sweep with the identity of the runs it came from.
struct IdentifiedSweep {
  proto::RunIdentity identity;
  proto::SweepResult sweep;
};
std::vector<IdentifiedSweep> MergeSweepsWithIdentity(const std::vector<proto::RunRecord>& runs);

// Every string from a file is escaped for its output (fuzz/report/escape.h). Reports are
// valid XML (xmllint) for any input.
//
// JUnit: per run identity one suite "<label>: ..." with one testcase per instruction x target
// that ran (a failure when a sweep there disagrees, an error when a campaign or sweep could
// not finish); per bucket group one suite "buckets: <label>" with one testcase per bucket: a
// failure for NEW and REGRESSED, skipped with the known issue's reason for KNOWN, passed for
// FIXED.
std::string RenderJUnit(const ReportData& data);
std::string RenderMarkdown(const ReportData& data);
std::string RenderHtml(const ReportData& data);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPORT_REPORT_H_
