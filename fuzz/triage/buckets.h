// Buckets: one per root cause per instruction, folded from the findings of one or more corpora
// (old corpora, whose findings carry no cause, included: the cause is recomputed from the
// stored example, so nothing is lost), and their status against a known-issues file.
//
//   CorpusLoad load = LoadCorpus({"corpus/findings"});
//   std::vector<Bucket> buckets = FoldIntoBuckets(load.findings);
//   LANEDIFF_ASSIGN_OR_RETURN(proto::KnownIssues known, ReadKnownIssues(path));  // absent: empty
//   std::vector<TriageRow> rows = Triage(buckets, known, {.since = run_start});
#ifndef LANEDIFF_FUZZ_TRIAGE_BUCKETS_H_
#define LANEDIFF_FUZZ_TRIAGE_BUCKETS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/corpus/corpus_store.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

inline constexpr size_t kMaxBucketExamples = 4;

struct Bucket {
  std::string signature;  // "<instruction>.<cause>": stable across runs, targets and shapes
  std::string instr;      // the row's mnemonic
  std::string cause;      // fuzz/triage/attribution.h
  std::set<std::string> targets;
  uint64_t count = 0;     // sightings, summed over findings
  std::string first_seen, last_seen;
  std::map<std::string, uint64_t> attributes;  // "shape:..", "class:..", "mode:.." -> sightings
  std::vector<LoadedFinding> examples;  // the first of each shape, at most kMaxBucketExamples
  int findings = 0;       // finding files folded in
};

// The cause of a stored finding: its `cause` field, or (corpora written before causes
// existed) recomputed from the stored example under the finding's model hypotheses and
// relaxations; device faults from their signature's fault kind. Never fails: a finding that
// cannot be attributed gets "unattributed".
std::string CauseOfFinding(const proto::Finding& f);

// What a bucket is keyed by, from "<instruction>.<cause>": for a cause named by settings, the
// instruction and the rule ("<instr>.fp8_nan=sign_7f+sign_preserving" -> "<instr>.fp8_nan"),
// so the readings of one rule on one instruction are one bucket however many of them each
// target could part; any other cause (a difference class, a device fault) is its own key. The campaign counts its buckets by this key (fuzz/engine/).
std::string BucketKey(absl::string_view instr_and_cause);

// Buckets sorted by signature, one per BucketKey, except that readings of one rule are parted
// into as few buckets as share a reading: the findings whose causes are readings of one rule on
// one instruction are one bucket while some reading is consistent with all of them, named by
// the readings consistent with all (`fp8_nan=sign_7f+sign_preserving` on an E4M3 target, where
// the two give the same byte, and `fp8_nan=sign_preserving` on gfx1250, whose UE5M3 form parts
// them: one bucket `fp8_nan=sign_preserving` on both targets); causes sharing no reading are
// buckets of their own (the smallest value sets group first; fuzz/triage/README.md).
std::vector<Bucket> FoldIntoBuckets(const std::vector<LoadedFinding>& findings);

enum class BucketStatus { kNew, kKnown, kFixed, kRegressed };
const char* BucketStatusName(BucketStatus s);  // "NEW", "KNOWN", "FIXED", "REGRESSED"

struct TriageOptions {
  // A bucket counts as seen by this run when its last_seen is at or after `since` (RFC 3339);
  // empty: every bucket in the corpus is seen.
  std::string since;
  // Instructions the run covered; a known issue of a covered instruction that was not seen is
  // FIXED. Empty: every instruction counts as covered.
  std::set<std::string> covered_instrs;
};

struct TriageRow {
  BucketStatus status;
  const Bucket* bucket = nullptr;        // nullptr for a FIXED known issue with no bucket
  const proto::KnownIssue* known = nullptr;
  std::string signature;
  // A cause of equivalent readings ("fp8_nan=sign_7f+sign_preserving"): the question that
  // would separate two of them on the example's target and row, or that none does there (set
  // by `lanediff triage`, fuzz/cli/triage_command.cc; empty for any other cause).
  std::string separated_by;
};

// NEW: seen, not known. KNOWN: seen and known. REGRESSED: seen, known and marked fixed.
// FIXED: known, not marked fixed or marked fixed, and not seen although covered. Known issues
// not seen and not covered are not listed. Rows: NEW, REGRESSED, KNOWN, FIXED, each by
// signature.
std::vector<TriageRow> Triage(const std::vector<Bucket>& buckets, const proto::KnownIssues& known,
                              const TriageOptions& options);

// A corpus named either by its root (holding findings/) or by its findings directory: the
// findings directory, and the root (where known_issues.textproto lives by default).
std::string FindingsDirOf(const std::string& corpus);
std::string CorpusRootOf(const std::string& corpus);

// The known-issues file: absent is empty; malformed is an error naming path:line:col.
absl::StatusOr<proto::KnownIssues> ReadKnownIssues(const std::string& path);
absl::Status WriteKnownIssues(const std::string& path, const proto::KnownIssues& known);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_BUCKETS_H_
