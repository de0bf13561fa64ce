#include "proto/validate.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace lanediff {
namespace {

absl::Status Bad(absl::string_view where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

bool KnownInstr(proto::Instruction i) {
  return i != proto::INSTRUCTION_UNSPECIFIED && proto::Instruction_IsValid(i);
}

absl::Status CheckTargetInstr(const std::string& where, const std::string& target,
                              proto::Instruction instr) {
  if (!IsValidSignature(target)) return Bad(where, "field target: missing or not a gfx name");
  if (!KnownInstr(instr)) {
    return Bad(where, absl::StrCat("field instr: ", static_cast<int>(instr),
                                   " is not a known instruction"));
  }
  return absl::OkStatus();
}

absl::Status CheckSeconds(const std::string& where, double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) {
    return Bad(where, "field seconds: not a finite, non-negative number");
  }
  return absl::OkStatus();
}

absl::Status CheckSweep(const std::string& w, const proto::SweepResult& s) {
  if (absl::Status st = CheckTargetInstr(w, s.target(), s.instr()); !st.ok()) return st;
  // N words of each per example, N the row's VDST words (1, a pair's 2, a tuple's up to 32).
  const int n = s.mismatch_examples_size();
  const int e = s.mismatch_expected_size();
  if (s.mismatch_observed_size() != e || (n == 0 ? e != 0 : e < n || e % n != 0 || e / n > 32)) {
    return Bad(w, absl::StrCat(n, " mismatch_examples but ", e, " mismatch_expected and ",
                               s.mismatch_observed_size(),
                               " mismatch_observed words (N of each per example, 1 <= N <= 32)"));
  }
  if (static_cast<uint64_t>(s.mismatch_examples_size()) > s.mismatches()) {
    return Bad(w, absl::StrCat(s.mismatch_examples_size(), " mismatch_examples but only ",
                               s.mismatches(), " mismatches"));
  }
  if (s.mismatch_by_exponent_size() > kExponentBins) {
    return Bad(w, absl::StrCat("field mismatch_by_exponent: ", s.mismatch_by_exponent_size(),
                               " entries; there are ", kExponentBins, " (sign x exponent)"));
  }
  if (s.first() > s.last()) {
    return Bad(w, absl::StrCat("fields first/last: first ", s.first(), " is after last ",
                               s.last()));
  }
  if (s.mismatches() > s.lanes()) {
    return Bad(w, absl::StrCat("field mismatches: ", s.mismatches(), " of only ", s.lanes(),
                               " lanes"));
  }
  if (s.round_up_model() > s.lanes() || s.round_up_device() > s.lanes()) {
    return Bad(w, absl::StrCat("fields round_up_model/round_up_device: more than the ",
                               s.lanes(), " lanes"));
  }
  if (s.oracle_mismatches() > s.oracle_checked()) {
    return Bad(w, absl::StrCat("field oracle_mismatches: ", s.oracle_mismatches(), " of only ",
                               s.oracle_checked(), " checked"));
  }
  if (!(s.fraction() >= 0 && s.fraction() <= 1)) {  // also refuses NaN
    return Bad(w, "field fraction: not in [0, 1]");
  }
  return CheckSeconds(w, s.seconds());
}

}  // namespace

bool IsValidSignature(absl::string_view s) {
  if (s.empty() || s.size() > 200 || s[0] == '.') return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '+' || c == '=' || c == '-';
    if (!ok) return false;
  }
  return true;
}

absl::Status ValidateFinding(const proto::Finding& f) {
  if (!IsValidSignature(f.signature())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "field signature: '", f.signature(), "' is not a valid signature ([A-Za-z0-9_.+=-]{1,200})"));
  }
  if (f.kind() == proto::Finding::KIND_UNSPECIFIED) {
    return absl::InvalidArgumentError("field kind: unspecified");
  }
  if (!proto::Finding::Kind_IsValid(f.kind())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "field kind: ", static_cast<int>(f.kind()),
        " is not a Finding.Kind (1 DISAGREEMENT, 2 DEVICE_FAULT)"));
  }
  if (!IsValidSignature(f.testcase().target())) {
    return absl::InvalidArgumentError("field testcase.target: missing or not a gfx name");
  }
  if (!KnownInstr(f.testcase().instr())) {
    return absl::InvalidArgumentError("field testcase.instr: missing or unknown");
  }
  const proto::Encoding& e = f.testcase().encoding();
  const proto::Source* sources[] = {&e.src0(), &e.src1(), &e.src2()};
  for (int i = 0; i < 3; ++i) {
    if (!proto::SourceKind_IsValid(sources[i]->kind())) {
      return absl::InvalidArgumentError(absl::StrCat("field testcase.encoding.src", i, ".kind: ",
                                                     static_cast<int>(sources[i]->kind()),
                                                     " is not a SourceKind"));
    }
  }
  if (f.testcase().lanes_size() == 0) {
    return absl::InvalidArgumentError("field testcase.lanes: no lanes");
  }
  if (static_cast<size_t>(f.testcase().lanes_size()) > kMaxLanesPerFinding) {
    return absl::InvalidArgumentError(absl::StrCat("field testcase.lanes: ",
                                                   f.testcase().lanes_size(),
                                                   " lanes; the limit is ", kMaxLanesPerFinding));
  }
  // One word per lane, a VGPR pair's two or a tuple's (model/instrs.def dst_bits): the proto layer
  // does not know the rows, so any whole number of words up to kMaxWordsPerLane; the model's
  // users (attribution, replay) check the instruction's own count.
  const int lanes = f.testcase().lanes_size();
  if (f.kind() == proto::Finding::DISAGREEMENT &&
      (f.expected_size() != f.observed_size() || f.expected_size() % lanes != 0 ||
       f.expected_size() / lanes < 1 ||
       static_cast<size_t>(f.expected_size() / lanes) > kMaxWordsPerLane)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fields expected/observed: ", f.expected_size(), "/", f.observed_size(),
        " words for ", lanes, " lanes (1 to ", kMaxWordsPerLane, " words per lane)"));
  }
  return absl::OkStatus();
}

absl::Status ValidateRunRecord(const proto::RunRecord& r) {
  if (r.sweeps_size() == 0 && r.campaigns_size() == 0 && r.verdicts_size() == 0 &&
      r.fidelity_size() == 0) {
    return absl::InvalidArgumentError(
        "holds no sweeps, campaigns, verdicts or fidelity lines (an empty record)");
  }
  for (int i = 0; i < r.sweeps_size(); ++i) {
    if (absl::Status st = CheckSweep(absl::StrCat("sweeps[", i, "]"), r.sweeps(i)); !st.ok()) {
      return st;
    }
  }
  for (int i = 0; i < r.campaigns_size(); ++i) {
    const proto::CampaignSummary& c = r.campaigns(i);
    const std::string w = absl::StrCat("campaigns[", i, "]");
    // A campaign over several targets names them as a comma list, and over several
    // instructions leaves instr unspecified: its coverage cells say what ran where.
    for (absl::string_view t : absl::StrSplit(c.target(), ',')) {
      if (!IsValidSignature(t)) {
        return Bad(w, "field target: missing or not a gfx name (or a comma list of them)");
      }
    }
    if (c.instr() != proto::INSTRUCTION_UNSPECIFIED && !KnownInstr(c.instr())) {
      return Bad(w, absl::StrCat("field instr: ", static_cast<int>(c.instr()),
                                 " is not a known instruction"));
    }
    if (absl::Status st = CheckSeconds(w, c.seconds()); !st.ok()) return st;
    for (int k = 0; k < c.coverage_size(); ++k) {
      const proto::CoverageCell& cell = c.coverage(k);
      const std::string wc = absl::StrCat(w, ".coverage[", k, "]");
      if (absl::Status st = CheckTargetInstr(wc, cell.target(), cell.instr()); !st.ok()) return st;
    }
    for (int k = 0; k < c.timeline_size(); ++k) {
      if (absl::Status st = CheckSeconds(absl::StrCat(w, ".timeline[", k, "]"),
                                         c.timeline(k).seconds());
          !st.ok()) {
        return st;
      }
    }
  }
  for (int i = 0; i < r.verdicts_size(); ++i) {
    const proto::HypothesisVerdict& v = r.verdicts(i);
    const std::string w = absl::StrCat("verdicts[", i, "]");
    if (absl::Status st = CheckTargetInstr(w, v.target(), v.instr()); !st.ok()) return st;
  }
  for (int i = 0; i < r.fidelity_size(); ++i) {
    const proto::FidelityLine& f = r.fidelity(i);
    const std::string w = absl::StrCat("fidelity[", i, "]");
    if (absl::Status st = CheckTargetInstr(w, f.target(), f.instr()); !st.ok()) return st;
  }
  return absl::OkStatus();
}

}  // namespace lanediff
