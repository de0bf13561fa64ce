// `lanediff triage CORPUS...`: one line (or JSON object) per root-cause bucket, with its status
// against the corpus's known-issues file (fuzz/triage/buckets.h, fuzz/triage/README.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/triage/buckets.h"
#include "fuzz/triage/discriminate.h"
#include "fuzz/triage/render.h"
#include "model/isa/testcase.h"
#include "model/targets/targets.h"
#include "proto/file_io.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// For a cause of equivalent readings (CauseTitle's "equivalent readings"): the first question
// of `lanediff discriminate` (fuzz/triage/discriminate.h) on the example's target and row that
// separates two of its values, as "<assembly> src0 0x.. src1 0x..: a -> words, b -> words";
// else that none does on this row. Empty for any other cause.
std::string SeparatedBy(const Bucket& b) {
  const size_t eq = b.cause.find('=');
  if (b.examples.empty() || eq == std::string::npos || b.cause.find('+') == std::string::npos ||
      absl::StartsWith(b.cause, "acts_as_if.")) {
    return "";
  }
  const std::string rule = b.cause.substr(0, eq);
  const std::vector<std::string> values = absl::StrSplit(b.cause.substr(eq + 1), '+');
  const proto::TestCase& tc = b.examples[0].finding.testcase();
  absl::StatusOr<const TargetTraits*> target = FindTarget(tc.target());
  absl::StatusOr<Instr> instr = InstrFromProto(tc.instr());
  if (!target.ok() || !instr.ok()) return "";
  absl::StatusOr<Discrimination> d = Discriminate(**target, *instr);
  if (!d.ok()) return "";
  auto named = [&](const std::string& v) {
    return std::find(values.begin(), values.end(), v) != values.end();
  };
  for (const ReadingPair& p : d->pairs) {
    if (p.rule != rule || !named(p.a) || !named(p.b) || p.question < 0) continue;
    const Question& q = d->questions[static_cast<size_t>(p.question)];
    std::string lane;
    if (q.testcase.lanes_size() > 0) {
      lane = absl::StrFormat(" src0 0x%08x src1 0x%08x", q.testcase.lanes(0).src0(),
                             q.testcase.lanes(0).src1());
    }
    std::string answers;
    for (size_t k = 0; k < d->reading_names.size() && k < q.answers.size(); ++k) {
      const std::string& n = d->reading_names[k];
      if (n == absl::StrCat(rule, "=", p.a) || n == absl::StrCat(rule, "=", p.b)) {
        absl::StrAppend(&answers, answers.empty() ? ": " : ", ", n.substr(eq + 1), " -> ",
                        FormatLaneAnswer(q.answers[k]));
      }
    }
    return absl::StrCat(tc.target(), " ", q.assembly, lane, answers);
  }
  return absl::StrCat("indistinguishable on ", tc.target(), " ", InstrName(*instr),
                      ": no input tells them apart");
}

// --accept SIGNATURE --reason TEXT [--link URL]: adds or replaces the known issue and writes
// the file. The exit code.
int AcceptIssue(const std::string& accept, const std::string& reason, const std::string& link,
                const std::string& known_path, proto::KnownIssues* known) {
  if (reason.empty()) {
    std::fprintf(stderr, "lanediff triage: --accept needs --reason TEXT\n");
    return kExitUsage;
  }
  if (accept.find('.') == std::string::npos || !IsValidSignature(accept)) {
    std::fprintf(stderr,
                 "lanediff triage: --accept '%s' is not a bucket signature "
                 "(<instruction>.<cause>, as `lanediff triage` prints it)\n",
                 accept.c_str());
    return kExitUsage;
  }
  proto::KnownIssue* k = nullptr;
  for (proto::KnownIssue& x : *known->mutable_issue()) {
    if (x.signature() == accept) k = &x;
  }
  if (k == nullptr) k = known->add_issue();
  k->set_signature(accept);
  k->set_reason(reason);
  k->set_link(link);
  k->set_accepted(NowRfc3339());
  k->clear_fixed();
  if (absl::Status s = WriteKnownIssues(known_path, *known); !s.ok()) {
    std::fprintf(stderr, "lanediff triage: %s\n", std::string(s.message()).c_str());
    return kExitEnvironment;
  }
  std::printf("accepted %s in %s\n", accept.c_str(), known_path.c_str());
  return kExitOk;
}

// What goes into the known-issues file must load again: text that is not UTF-8 is refused
// here, before anything is written (replacing bytes would change what the user typed). An
// exit code, else -1.
int CheckUtf8Flags(const std::string& accept, const std::string& reason, const std::string& link) {
  for (const auto& [flag, text] : {std::pair<const char*, const std::string*>{"--accept", &accept},
                                   {"--reason", &reason}, {"--link", &link}}) {
    if (ValidUtf8Prefix(*text) != text->size()) {
      std::fprintf(stderr, "lanediff triage: %s holds bytes that are not UTF-8 (byte %zu); the "
                   "known-issues file is UTF-8 text: nothing was written\n", flag,
                   ValidUtf8Prefix(*text) + 1);
      return kExitUsage;
    }
  }
  return -1;
}

int RunTriage(int argc, char** argv) {
  Args args("triage",
            "Fold the findings of one or more corpora into root-cause buckets (one per cause\n"
            "per instruction, all targets together) and classify each against the known-issues\n"
            "file: NEW (not known), KNOWN (accepted), FIXED (known, not seen by this run\n"
            "although its instruction ran), REGRESSED (marked fixed, seen again).\n"
            "Each bucket prints once, with one decoded example and the command that reproduces\n"
            "it. Corpora written before buckets existed fold in too (causes are recomputed).");
  std::vector<std::string> corpora;
  std::string known_path, accept, reason, link, since, instrs;
  bool json = false, record_fixed = false;
  args.Flag("known", "known-issues file (default: <first corpus>/known_issues.textproto)",
            &known_path);
  args.Bool("json", "JSON Lines: one object per bucket (docs/json.md)", &json);
  args.Flag("accept", "add SIGNATURE to the known-issues file (needs --reason)",
            &accept);
  args.Flag("reason", "why the accepted cause is acceptable", &reason);
  args.Flag("link", "bug or erratum link for --accept", &link);
  args.Flag("since", "only buckets seen at or after this time count as seen by this run (default: all)",
            &since);
  args.Flag("instrs", "instructions the run covered (comma list; default all): a known issue of a covered "
            "instruction that was not seen is FIXED",
            &instrs);
  args.Bool("record-fixed", "write the FIXED date into the known-issues file, so that a later "
            "sighting is REGRESSED", &record_fixed);
  args.Positional("CORPUS", "corpus roots (holding findings/) or findings directories", &corpora);
  args.Epilog(absl::StrCat(
      "exit codes: 0 nothing NEW or REGRESSED, 1 something NEW or REGRESSED (or a bad\n"
      "file), 2 usage, 3 the known-issues file cannot be read or written.\n"
      "example: lanediff triage corpus --accept ", ExampleInstr(RowIsSeeded),
      ".sr_rounding=literal \\\n"
      "           --reason 'gfx950 A1 erratum 12, fixed in B0' --link https://bugs/123"));
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (corpora.empty()) {
    std::fprintf(stderr, "lanediff triage: give at least one CORPUS\n");
    return kExitUsage;
  }
  // Reading a corpus that is not there is a usage error; --accept may start a new corpus's file.
  if (accept.empty()) {
    if (int rc = CheckInputPaths("triage", "CORPUS", corpora); rc >= 0) return rc;
  }
  if (known_path.empty()) known_path = CorpusRootOf(corpora[0]) + "/known_issues.textproto";
  if (int rc = CheckUtf8Flags(accept, reason, link); rc >= 0) return rc;
  // A change of the known-issues file (--accept, --record-fixed) reads, changes and renames it
  // under an exclusive lock beside it, so concurrent changes are all kept.
  std::optional<FileLock> lock;
  if (!accept.empty() || record_fixed) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(known_path).parent_path(), ec);
    absl::StatusOr<FileLock> l =
        FileLock::Acquire(absl::StrCat(DirName(known_path), "/.", BaseName(known_path), ".lock"));
    if (!l.ok()) {
      std::fprintf(stderr, "lanediff triage: %s\n", std::string(l.status().message()).c_str());
      return kExitEnvironment;
    }
    lock.emplace(*std::move(l));
  }
  absl::StatusOr<proto::KnownIssues> known = ReadKnownIssues(known_path);
  if (!known.ok()) {
    std::fprintf(stderr, "lanediff triage: %s\n", std::string(known.status().message()).c_str());
    return kExitEnvironment;
  }
  if (!accept.empty()) return AcceptIssue(accept, reason, link, known_path, &*known);
  std::vector<std::string> dirs;
  for (const std::string& c : corpora) dirs.push_back(FindingsDirOf(c));
  CorpusLoad load = LoadCorpus(dirs);
  for (const std::string& e : load.errors) std::fprintf(stderr, "MALFORMED %s\n", e.c_str());
  const std::vector<Bucket> buckets = FoldIntoBuckets(load.findings);
  TriageOptions o;
  o.since = since;
  for (absl::string_view i : absl::StrSplit(instrs, ',', absl::SkipEmpty())) {
    o.covered_instrs.insert(std::string(i));
  }
  std::vector<TriageRow> rows = Triage(buckets, *known, o);
  for (TriageRow& r : rows) {
    if (r.bucket != nullptr) r.separated_by = SeparatedBy(*r.bucket);
  }
  int bad = 0;
  bool changed = false;
  for (const TriageRow& r : rows) {
    if (r.status == BucketStatus::kNew || r.status == BucketStatus::kRegressed) ++bad;
    std::fputs((json ? TriageJson(r) + "\n" : TriageText(r)).c_str(), stdout);
    if (record_fixed && r.status == BucketStatus::kFixed && r.known->fixed().empty()) {
      for (proto::KnownIssue& x : *known->mutable_issue()) {
        if (x.signature() == r.signature) x.set_fixed(NowRfc3339());
      }
      changed = true;
    }
  }
  if (!json) {
    int n[4] = {0, 0, 0, 0};
    for (const TriageRow& r : rows) n[static_cast<int>(r.status)]++;
    std::printf("%zu buckets from %zu findings: %d NEW, %d REGRESSED, %d KNOWN, %d FIXED (known "
                "issues: %s)\n",
                buckets.size(), load.findings.size(), n[0], n[3], n[1], n[2],
                known_path.c_str());
  }
  if (changed) {
    if (absl::Status s = WriteKnownIssues(known_path, *known); !s.ok()) {
      std::fprintf(stderr, "lanediff triage: %s\n", std::string(s.message()).c_str());
      return kExitEnvironment;
    }
  }
  return bad == 0 && load.errors.empty() ? kExitOk : kExitFound;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(38, "triage",
                          "root-cause buckets of corpora: NEW / KNOWN / FIXED / REGRESSED",
                          RunTriage);

}  // namespace lanediff
