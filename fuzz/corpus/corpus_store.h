// The findings corpus: one text proto per signature, never lost, never torn.
//
// Layout: <root>/<target>/<instruction>/<signature>.textproto (proto::Finding, text format of
// proto/text_format.h: hex words). Every write is atomic: a temporary file in the same
// directory, fsync, rename over the final name, fsync of the directory. Several processes may
// share one root: a finding's file is updated under an exclusive flock() on a per-signature
// lock file (<dir>/.<signature>.lock), so "one example per signature, count summed, first_seen
// kept, last_seen advanced" holds with any number of writers. Readers never see a partial file
// (rename is atomic); a SIGKILL at any moment leaves at most a stray ".tmp.*" file, which the
// loader ignores and the next write to that directory cleans up.
//
//   LANEDIFF_ASSIGN_OR_RETURN(CorpusStore store, CorpusStore::Open("corpus/findings"));
//   LANEDIFF_ASSIGN_OR_RETURN(RecordOutcome r, store.Record(finding));   // r.is_new
//   CorpusLoad load = LoadCorpus({"corpus/findings"});
//   for (const std::string& e : load.errors) std::fprintf(stderr, "%s\n", e.c_str());
#ifndef LANEDIFF_FUZZ_CORPUS_STORE_H_
#define LANEDIFF_FUZZ_CORPUS_STORE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/file_io.h"  // WriteFileAtomic, ReadFile: the store writes through them
#include "proto/lanediff.pb.h"
#include "proto/validate.h"  // IsValidSignature, ValidateFinding: what a usable finding is

namespace lanediff {

struct RecordOutcome {
  bool is_new = false;   // no file for this signature existed before
  std::string path;      // where it is stored
  uint64_t count = 0;    // the stored count after this record
};

class CorpusStore {
 public:
  // `root` is the findings directory (e.g. <repo>/corpus/findings); created if absent.
  // Fails cleanly if it cannot be created or written.
  static absl::StatusOr<CorpusStore> Open(std::string root);

  // Stores `finding` (its signature, testcase.target and testcase.instr choose the path).
  // New signature: the finding is written with count = max(1, finding.count) and
  // first_seen = last_seen = finding's (or now). Known signature: the stored example is kept,
  // count is increased by max(1, finding.count), first_seen is the earlier and last_seen the
  // later of the two. Durable on return. If the stored file is unreadable, malformed, or
  // parses but is not a valid finding (ValidateFinding: an empty file, kind 7 ...) it is NOT
  // overwritten: the error names it and says why.
  absl::StatusOr<RecordOutcome> Record(const proto::Finding& finding);

  // Joins a finding from another corpus into its signature's file (fuzz/corpus/corpus_merge.h:
  // per-origin counts, the larger kept; idempotent and commutative). The file is rewritten
  // only if something changed. A malformed stored file is left untouched, as by Record.
  enum class MergeResult { kAdded, kUpdated, kUnchanged };
  absl::StatusOr<MergeResult> Merge(const proto::Finding& finding);

  // Path a finding with this target/instruction/signature is stored at.
  std::string PathFor(const proto::Finding& finding) const;

  const std::string& root() const { return root_; }
  // This corpus's id, the origin its own hits count under: <root>/.origin, 16 random hex
  // digits, made by the first Record (a copy of the corpus keeps it).
  absl::StatusOr<std::string> Origin();

 private:
  explicit CorpusStore(std::string root) : root_(std::move(root)) {}
  std::string root_;
  std::string origin_;  // "" until Origin() read or made it
};

struct LoadedFinding {
  std::string path;
  proto::Finding finding;
};

// Everything found under some paths: good findings, and one error line per bad file
// ("path:line:col: what" for text, "path: what" for binary and I/O problems).
struct CorpusLoad {
  std::vector<LoadedFinding> findings;
  std::vector<std::string> errors;
};

// Loads files and (recursively) directories: *.textproto / *.txtpb as text, *.binpb / *.pb as
// binary proto::Finding, each file once however many links reach it (a symlink loop is not
// followed twice; proto/file_io.h WalkFiles). Other regular files and dot-files are skipped;
// FIFOs, sockets, devices and unreadable directories are named in `errors`. Never modifies
// anything; a bad file (unreadable, over the size or message limits, not UTF-8, malformed,
// or failing ValidateFinding) is reported and the rest still load. Sorted by path.
CorpusLoad LoadCorpus(const std::vector<std::string>& paths);

// Parses one finding file's contents (text or binary by `path`'s name) and validates it; the
// error names `path`.
absl::StatusOr<proto::Finding> ParseFindingFile(const std::string& path, absl::string_view data);

struct MergeStats {
  int added = 0;      // new signatures written to the destination
  int updated = 0;    // existing signatures whose counts/seen times changed
  int unchanged = 0;  // already merged before (nothing to add)
  std::vector<std::string> errors;  // bad source files (skipped)
};

// Joins corpora: every finding under `sources` is Merge()d into `into`. Idempotent and
// commutative (fuzz/corpus/corpus_merge.h). `into` inside a source is refused (InvalidArgument): the
// merged copies would be loaded again with that source, every finding twice.
absl::StatusOr<MergeStats> MergeCorpora(const std::vector<std::string>& sources,
                                        const std::string& into);

// Current UTC time, RFC 3339 with seconds ("2026-11-30T03:04:05Z").
std::string NowRfc3339();

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CORPUS_STORE_H_
