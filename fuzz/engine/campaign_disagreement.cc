// The campaign worker's disagreement stage (fuzz/engine/campaign_worker.h). The case is
// resolved once (ResolvedTest, fuzz/engine/resolved_test.h) and every step takes that value:
//   attribute   the causes, decided on every disagreeing lane of the batch
//               (fuzz/triage/attribution.h); shape, input class and MODE are counted
//   confirm     a hypothesis named on this batch is confirmed on a second batch from the same
//               device (ConfirmationCase, built from t.rc); a refuted one is never named for
//               this batch. The confirmation batches are resolved once (ConfirmationFor) for
//               their run and for ReproducesEveryLane / DecideClass; the hypothesis's and the
//               class decision's run in one device call, once per disagreement
//   decide      a class the batch cannot tell from another is decided on a confirmation batch
//   per cause   a repeat is counted; a new one (or a new shape of a known one) is minimized
//               (each list of candidates in as few device calls as their launches allow),
//               re-run on both sides, classified, and stored (campaign_findings.cc)
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzz/engine/campaign_worker.h"
#include "fuzz/triage/bucket_merge.h"
#include "fuzz/triage/classify.h"
#include "fuzz/triage/lane_causes.h"
#include "fuzz/triage/minimize.h"
#include "model/base/status.h"
#include "model/isa/vop3.h"

namespace lanediff {
namespace campaign_internal {
namespace {

// Two causes that share a name (after DecideClass renamed one) are one: their lanes joined.
std::vector<Cause> MergeSameNamed(std::vector<Cause> causes) {
  std::vector<Cause> merged;
  for (Cause& c : causes) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const Cause& m) {
      return m.name == c.name && m.by_hypothesis == c.by_hypothesis;
    });
    if (same == merged.end()) {
      merged.push_back(std::move(c));
      continue;
    }
    same->lanes.insert(same->lanes.end(), c.lanes.begin(), c.lanes.end());
    std::sort(same->lanes.begin(), same->lanes.end());
  }
  return merged;
}

}  // namespace

absl::Status Worker::HandleDisagreement(proto::TestCase tc, const BothSides& both) {
  stats_.disagreeing++;
  const uint64_t calls_before = stats_.device_calls;  // what triage costs the device
  confirmations_.clear();
  absl::Status s = HandleDisagreementCalls(std::move(tc), both);
  confirmations_.clear();
  stats_.triage_device_calls += stats_.device_calls - calls_before;
  return s;
}

absl::Status Worker::HandleDisagreementCalls(proto::TestCase tc, const BothSides& both) {
  LANEDIFF_ASSIGN_OR_RETURN(const ResolvedTest t, ResolveTest(std::move(tc), hyp_));
  LANEDIFF_ASSIGN_OR_RETURN(std::vector<Cause> causes, ConfirmedCauses(t, both));
  // A class whose every lane also shows another (Cause::also: the batch cannot tell them apart)
  // is decided on a confirmation batch from the same device, as a hypothesis is confirmed.
  LANEDIFF_RETURN_IF_ERROR(DecideAmbiguousClasses(t, &causes));
  for (const Cause& cause : causes) {
    LANEDIFF_RETURN_IF_ERROR(HandleCause(t, cause, both));
  }
  return absl::OkStatus();
}

std::vector<std::string> Worker::KnownSettings(const ResolvedTest& t) const {
  const std::string prefix = absl::StrCat(t.tc.target(), ".", t.instr_name, ".");
  std::vector<std::string> known;
  for (auto it = confirmed_.lower_bound(prefix); it != confirmed_.end() && it->starts_with(prefix); ++it) {
    known.push_back(it->substr(prefix.size()));
  }
  return known;
}

absl::StatusOr<std::vector<Cause>> Worker::ConfirmedCauses(const ResolvedTest& t, const BothSides& both) {
  std::vector<std::string> refuted;
  std::vector<Cause> causes;
  // The settings confirmed on this (target, instruction) so far explain first (CoverValueLanes).
  for (int round = 0; round < 4; ++round) {
    const std::vector<std::string> known = KnownSettings(t);
    LANEDIFF_ASSIGN_OR_RETURN(causes, Attribute(t.rc, both.expected, both.observed, o_.relax, refuted, known));
    const size_t confirmed_before = confirmed_.size();
    LANEDIFF_ASSIGN_OR_RETURN(std::vector<std::string> now, Refuted(t, causes));
    if (now.empty() && confirmed_.size() == confirmed_before) break;
    // A setting refuted is excluded; one just confirmed is known: the batch is attributed again
    // (the lanes where it meets another cause are then its and the other's, not a class).
    refuted.insert(refuted.end(), now.begin(), now.end());
  }
  return causes;
}

absl::Status Worker::DecideAmbiguousClasses(const ResolvedTest& t, std::vector<Cause>* causes) {
  bool renamed = false;
  bool warned = false;  // a batch that could not run is counted once for this batch
  for (Cause& c : *causes) {
    if (c.by_hypothesis || c.also.empty()) continue;
    LANEDIFF_ASSIGN_OR_RETURN(const ConfirmationRun* conf, ConfirmationFor(t, ConfirmationKind::difference_class));
    const absl::StatusOr<BothSides>& b = conf->run;
    if (!warned && (!b.ok() || !b->device_status.ok())) {
      ConfirmationNotRun(b.ok() ? b->device_status : b.status());
      warned = true;
    }
    if (!b.ok() || !b->device_status.ok()) continue;  // no evidence: the batch's own order stands
    std::vector<std::string> candidates = {c.name};
    candidates.insert(candidates.end(), c.also.begin(), c.also.end());
    LANEDIFF_ASSIGN_OR_RETURN(std::string decided,
                              DecideClass(conf->t->rc, hyp_, candidates, b->observed, o_.relax));
    if (!decided.empty() && decided != c.name) c.name = decided, renamed = true;
    c.also.clear();
  }
  if (renamed) *causes = MergeSameNamed(std::move(*causes));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> Worker::Refuted(const ResolvedTest& t,
                                                        const std::vector<Cause>& causes) {
  // One confirmation batch checks every setting named on this batch not yet confirmed
  // (RefutedSettings: each where it alone decides); one a batch confirmed stays confirmed.
  const std::string prefix = absl::StrCat(t.tc.target(), ".", t.instr_name, ".");
  bool all_confirmed = true;
  for (const Cause& c : causes) {
    for (const std::string& s : c.settings) all_confirmed &= confirmed_.count(prefix + s) != 0;
  }
  if (all_confirmed) return std::vector<std::string>();
  LANEDIFF_ASSIGN_OR_RETURN(const ConfirmationRun* conf, ConfirmationFor(t, ConfirmationKind::hypothesis));
  const absl::StatusOr<BothSides>& b = conf->run;
  // A device that cannot run the second batch gives no evidence against the settings: they are
  // named as the batch alone says, counted and warned about (ConfirmationNotRun), and not
  // remembered as confirmed, so the next disagreement naming them tries again.
  if (!b.ok() || !b->device_status.ok()) {
    ConfirmationNotRun(b.ok() ? b->device_status : b.status());
    return std::vector<std::string>();
  }
  // One reading per rule: another value of a named setting's rule confirmed earlier (on a batch
  // where it happened to agree) is checked beside it, as an equivalent reading, and forgotten
  // where the two part and the device follows the one named here.
  const std::vector<std::string> known = KnownSettings(t);
  std::vector<Cause> checked = causes;
  std::vector<std::string> earlier;
  for (Cause& c : checked) {
    if (!c.by_hypothesis || c.settings.empty()) continue;
    const std::string rule = RuleOf(c.settings[0]);
    for (const std::string& s : known) {
      if (RuleOf(s) != rule) continue;
      if (std::find(c.settings.begin(), c.settings.end(), s) != c.settings.end()) continue;
      c.settings.push_back(s);
      earlier.push_back(s);
    }
  }
  // The settings confirmed before, of rules no cause here names, are among "the others" too
  // (checked beside, never refuted by this batch): a lane where a named setting matters may be
  // one where a confirmed cause also acts (SR +Inf made NaN by the literal add, its sign kept by
  // fp8_nan=sign_preserving).
  std::vector<std::string> background;
  for (const std::string& s : known) {
    const bool named = std::any_of(checked.begin(), checked.end(), [&](const Cause& c) {
      return c.by_hypothesis && !c.settings.empty() && RuleOf(c.settings[0]) == RuleOf(s);
    });
    const bool rule_seen = std::any_of(background.begin(), background.end(),
                                       [&](const std::string& b) { return RuleOf(b) == RuleOf(s); });
    if (!named && !rule_seen) background.push_back(s);
  }
  for (const std::string& s : background) checked.push_back(Cause{s, true, {}, {}, {s}});
  // Only a setting that mattered on the second batch and held there is remembered as confirmed.
  std::vector<std::string> held;
  LANEDIFF_ASSIGN_OR_RETURN(std::vector<std::string> refuted,
                            RefutedSettings(conf->t->rc, hyp_, checked, b->observed, o_.relax, &held, known));
  for (const std::string& s : held) confirmed_.insert(prefix + s);
  std::vector<std::string> out;
  for (const std::string& s : refuted) {
    if (std::find(background.begin(), background.end(), s) != background.end()) continue;
    if (std::find(earlier.begin(), earlier.end(), s) == earlier.end()) {
      out.push_back(s);
    } else {
      confirmed_.erase(prefix + s);
    }
  }
  return out;
}

absl::StatusOr<const Worker::ConfirmationRun*> Worker::ConfirmationFor(const ResolvedTest& t,
                                                                       ConfirmationKind kind) {
  if (confirmations_.empty()) {
    // Both kinds at once: the hypothesis confirmation and the class decision of this batch
    // have its words and MODE, so one device call runs both (RunBothSidesTogether), and a
    // confirmation asked again (another round of ConfirmedCauses) is not run again.
    std::vector<const ResolvedTest*> run;
    std::vector<ConfirmationRun*> of;
    for (ConfirmationKind k : {ConfirmationKind::hypothesis, ConfirmationKind::difference_class}) {
      ConfirmationRun& c = confirmations_[k];
      absl::StatusOr<proto::TestCase> ctc = ConfirmationCase(t.tc, t.rc, ConfirmationSalt(o_.seed, stats_.execs, k));
      if (!ctc.ok()) {
        c.built = ctc.status();
        continue;
      }
      absl::StatusOr<ResolvedTest> r = ResolveTest(*std::move(ctc), hyp_);
      if (!r.ok()) {
        c.run = r.status();
        continue;
      }
      c.t.emplace(*std::move(r));
      run.push_back(&*c.t);
      of.push_back(&c);
    }
    std::vector<absl::StatusOr<BothSides>> both = RunBothSidesTogether(run, *runner_, o_.relax, o_.allow_undefined);
    for (size_t i = 0; i < of.size(); ++i) of[i]->run = std::move(both[i]);
  }
  const ConfirmationRun& c = confirmations_.at(kind);
  LANEDIFF_RETURN_IF_ERROR(c.built);
  return &c;
}

void Worker::ConfirmationNotRun(const absl::Status& why) {
  stats_.unconfirmed++;
  const std::string reason =
      why.message().empty() ? absl::StatusCodeToString(why.code()) : std::string(why.message());
  std::vector<std::string>& seen = stats_.unconfirmed_reasons;
  if (std::find(seen.begin(), seen.end(), reason) != seen.end()) return;
  if (seen.size() >= kMaxUnconfirmedReasons) return;  // counted; the reasons kept are enough
  seen.push_back(reason);
  if (o_.progress_fd >= 0) {  // --jobs: the parent prints it, once for all workers
    WriteAll(o_.progress_fd, Message('U', reason));
    return;
  }
  if (progress_shown_) std::fprintf(stderr, "\r\x1b[K");
  std::fprintf(stderr, "%s", UnconfirmedWarning(reason).c_str());
}

absl::Status Worker::HandleCause(const ResolvedTest& t, const Cause& cause, const BothSides& batch) {
  const std::string stored_cause = StoredCause(t, cause.name);
  const std::string key = SignatureOf(t, stored_cause);
  const std::vector<std::string> attrs = SightingAttributes(t.tc, t.rc, cause.lanes[0]);
  const std::string shape = attrs.front() + "/" + attrs.back();  // modifiers and MODE
  auto seen = known_.find(key);
  bool extra_example = false;  // a repeat in a shape not yet shown: minimized once more
  if (seen != known_.end()) {
    Known& k = seen->second;
    if (store_ == nullptr || k.shapes.size() >= 1 + kMaxExtraExamples ||
        !k.shapes.insert(shape).second) {  // a repeat: counted, not minimized again
      k.unflushed++;
      for (const std::string& a : attrs) k.attrs[a]++;
      Saw(key);
      stats_.repeats++;
      return absl::OkStatus();
    }
    extra_example = true;
  }
  std::optional<ResolvedTest> small;
  BothSides b;
  LANEDIFF_ASSIGN_OR_RETURN(const ResolvedTest* s, MinimizeAndRerun(t, cause, stored_cause, &small, &b));
  if (s == nullptr) return absl::OkStatus();  // not reproducible: flaky device; counted in disagreeing
  LANEDIFF_ASSIGN_OR_RETURN(proto::Finding f, DisagreementFinding(t, *s, b, cause, key, attrs));
  // What no reading explains keeps its lanes for a new hypothesis (lane_causes.h).
  KeepUnexplainedLanes(t.tc, cause, batch.expected, batch.observed, &f);
  if (extra_example) {  // flushed with the counts; the store keeps it (bucket_merge.h)
    Known& k = known_[key];
    proto::Finding::Example* x = k.extras.add_more_examples();
    *x->mutable_testcase() = f.testcase();
    *x->mutable_expected() = f.expected();
    *x->mutable_observed() = f.observed();
    k.unflushed++;
    for (const std::string& a : attrs) k.attrs[a]++;
    Saw(key);
    stats_.repeats++;
    return absl::OkStatus();
  }
  LANEDIFF_RETURN_IF_ERROR(Store(std::move(f), key));
  if (auto it = known_.find(key); it != known_.end()) it->second.shapes.insert(shape);
  return absl::OkStatus();
}

absl::StatusOr<const ResolvedTest*> Worker::MinimizeAndRerun(const ResolvedTest& t, const Cause& cause,
                                                             const std::string& stored_cause,
                                                             std::optional<ResolvedTest>* small,
                                                             BothSides* b) {
  // Minimize: the predicate re-runs both sides and wants this very cause again. Each list of
  // candidates runs with as few device calls as their launches allow (RunBothSidesTogether:
  // the candidates sharing words, MODE and SGPR values are one batch). Each candidate is
  // resolved once, for its run, its stored cause and ShowsCause.
  StillFailsBatch pred = [&](const std::vector<proto::TestCase>& cands) {
    std::vector<absl::StatusOr<bool>> out(cands.size(), false);
    std::vector<std::optional<ResolvedTest>> ct(cands.size());
    std::vector<const ResolvedTest*> run;
    std::vector<size_t> index;
    for (size_t i = 0; i < cands.size(); ++i) {
      absl::StatusOr<ResolvedTest> r = ResolveTest(cands[i], hyp_);
      if (!r.ok()) {
        out[i] = r.status();
        continue;
      }
      ct[i].emplace(*std::move(r));
      run.push_back(&*ct[i]);
      index.push_back(i);
    }
    std::vector<absl::StatusOr<BothSides>> both = RunBothSidesTogether(run, *runner_, o_.relax, o_.allow_undefined);
    for (size_t k = 0; k < run.size(); ++k) {
      out[index[k]] = StillShowsCause(*run[k], both[k], cause, stored_cause);
    }
    return out;
  };
  MinimizeStats ms;
  absl::StatusOr<proto::TestCase> minimized = Minimize(t.tc, pred, {.hint_lanes = cause.lanes}, &ms);
  const ResolvedTest* s = &t;  // keep the unminimized case when minimization fails: nothing is dropped
  if (!minimized.ok()) {
    Note(absl::StrCat("minimization of a ", t.tc.target(), " disagreement failed: ",
                      minimized.status().message()));
  } else {
    LANEDIFF_ASSIGN_OR_RETURN(*small, ResolveTest(*std::move(minimized), hyp_));
    s = &**small;
  }
  // Re-run the result on both sides before storing.
  LANEDIFF_ASSIGN_OR_RETURN(*b, RunBothSides(*s, *runner_, o_.relax, o_.allow_undefined));
  if (!b->device_status.ok() || b->differing.empty()) {
    Note(absl::StrCat("minimized case no longer disagrees on re-run; storing the original"));
    s = &t;
    LANEDIFF_ASSIGN_OR_RETURN(*b, RunBothSides(t, *runner_, o_.relax, o_.allow_undefined));
    if (!b->device_status.ok() || b->differing.empty()) return static_cast<const ResolvedTest*>(nullptr);
  }
  return s;
}

absl::StatusOr<bool> Worker::StillShowsCause(const ResolvedTest& ct, const absl::StatusOr<BothSides>& r,
                                             const Cause& cause, const std::string& stored_cause) {
  if (!r.ok()) return r.status();
  if (!r->device_status.ok()) return r->device_status;
  if (r->differing.empty()) return false;
  // A smaller word must stay on the same side of the spec: a defined word never stands for
  // an undefined one's finding, nor the reverse.
  if (StoredCause(ct, cause.name) != stored_cause) return false;
  return ShowsCause(ct.rc, hyp_, r->observed, o_.relax, cause, KnownSettings(ct));
}

absl::StatusOr<proto::Finding> Worker::DisagreementFinding(const ResolvedTest& t, const ResolvedTest& s,
                                                           const BothSides& b, const Cause& cause,
                                                           const std::string& key,
                                                           const std::vector<std::string>& attrs) {
  LANEDIFF_ASSIGN_OR_RETURN(Classification cls, ClassifyDisagreement(s.tc, s.rc, b.expected, b.observed, o_.relax));
  proto::Finding f;
  f.set_kind(proto::Finding::DISAGREEMENT);
  *f.mutable_testcase() = s.tc;
  for (uint32_t w : b.expected) f.add_expected(w);
  for (uint32_t w : b.observed) f.add_observed(w);
  f.set_signature(key);
  f.set_cause(StoredCause(t, cause.name));
  for (const std::string& u : t.spec_violations) f.add_undefined_by_spec(u);
  for (const std::string& a : attrs) (*f.mutable_attributes())[a] = 1;
  f.set_input_class(cls.input_class);
  if (cause.by_hypothesis) f.set_explained_by(cause.name);
  f.set_assembly(PrintVop3(*s.rc.target, s.rc.vop3));
  *f.mutable_model() = ModelProvenance(s.tc.target(), hyp_);
  *f.mutable_device() = b.device_provenance;
  if (store_ != nullptr) f.set_repro(Repro(store_->PathFor(f)));
  return f;
}

}  // namespace campaign_internal
}  // namespace lanediff
