#include "fuzz/report/report.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzz/triage/render.h"
#include "fuzz/triage/run_identity.h"
#include "model/isa/testcase.h"
#include "model/targets/hypotheses.h"
#include "proto/file_io.h"
#include "proto/text_format.h"
#include "proto/validate.h"

namespace lanediff {
namespace {

constexpr int kMaxMismatchExamples = 8;

int TargetIndex(absl::string_view name) {
  auto targets = AllTargets();
  for (size_t i = 0; i < targets.size(); ++i) {
    if (targets[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int InstrIndex(proto::Instruction i) {
  absl::StatusOr<Instr> instr = InstrFromProto(i);
  return instr.ok() ? static_cast<int>(*instr) : -1;
}

using SweepKey = std::tuple<std::string, int, std::string, std::string, std::string>;

SweepKey KeyOf(const proto::SweepResult& s) {
  return {s.target(), static_cast<int>(s.instr()), s.setting(), s.device(), s.swept()};
}

// The model hypotheses a finding was decided under that are not the defaults (its provenance
// lists every setting in force), sorted.
std::vector<std::string> ModelChoices(const proto::Finding& f) {
  const std::vector<std::string> defaults = HypothesisSettings(Hypotheses{});
  std::vector<std::string> out;
  for (const std::string& h : f.model().hypotheses()) {
    if (std::find(defaults.begin(), defaults.end(), h) == defaults.end()) out.push_back(h);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The identity a finding was produced under: who answered, which errata, which hypotheses.
std::string FindingGroupKey(const proto::Finding& f) {
  std::vector<std::string> inj(f.device().injected().begin(), f.device().injected().end());
  std::sort(inj.begin(), inj.end());
  return absl::StrCat(DeviceKind(f.device().runner()), "|", absl::StrJoin(inj, ","), "|",
                      absl::StrJoin(ModelChoices(f), ","));
}

std::string FindingGroupLabel(const proto::Finding& f) {
  std::string label = DeviceLabel(f.device().runner());
  std::vector<std::string> inj(f.device().injected().begin(), f.device().injected().end());
  std::sort(inj.begin(), inj.end());
  if (!inj.empty()) absl::StrAppend(&label, ", injected ", absl::StrJoin(inj, ","));
  const std::vector<std::string> model = ModelChoices(f);
  if (!model.empty()) absl::StrAppend(&label, ", model ", absl::StrJoin(model, " "));
  return label;
}

}  // namespace

std::string DeviceLabel(absl::string_view runner) {
  // "replay:PATH recorded by hip" is a replay: the kind is what precedes ':' or ' '.
  const absl::string_view first = runner.substr(0, runner.find(' '));
  return DeviceKindLabel(std::string(first.substr(0, first.find(':'))));
}

absl::string_view CellStatusName(CellStatus s) {
  switch (s) {
    case CellStatus::kNotSupported: return "not supported";
    case CellStatus::kNotRun: return "not run on silicon";
    case CellStatus::kAgreesOnSilicon: return "agrees on silicon";
    case CellStatus::kDisagrees: return "disagrees";
  }
  return "?";
}

std::vector<proto::SweepResult> MergeSweeps(const std::vector<proto::RunRecord>& runs) {
  std::vector<proto::SweepResult> out;
  for (IdentifiedSweep& s : MergeSweepsWithIdentity(runs)) out.push_back(std::move(s.sweep));
  return out;
}

std::vector<IdentifiedSweep> MergeSweepsWithIdentity(const std::vector<proto::RunRecord>& runs) {
  // Only shards of one run merge: same sweep key and same run identity (device, errata,
  // hypotheses, version; fuzz/triage/run_identity.h). Different identities stay apart.
  std::vector<std::pair<std::string, const proto::SweepResult*>> all;
  std::map<std::string, const proto::RunIdentity*> identity_of;
  for (const proto::RunRecord& r : runs) {
    identity_of.try_emplace(IdentityKey(r.identity()), &r.identity());
    for (const proto::SweepResult& s : r.sweeps()) all.push_back({IdentityKey(r.identity()), &s});
  }
  // Shards in range order, so the first examples of the merge are the first of the whole.
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(KeyOf(*a.second), a.first, a.second->first(), a.second->last()) <
           std::make_tuple(KeyOf(*b.second), b.first, b.second->first(), b.second->last());
  });
  std::vector<proto::SweepResult> merged;
  std::vector<std::string> merged_ids;
  std::string merged_id;
  for (const auto& [id, p] : all) {
    const proto::SweepResult& s = *p;
    if (merged.empty() || KeyOf(merged.back()) != KeyOf(s) || merged_id != id) {
      merged_id = id;
      merged_ids.push_back(id);
      merged.push_back(s);
      merged.back().clear_shard();
      continue;
    }
    proto::SweepResult& m = merged.back();
    m.set_first(std::min(m.first(), s.first()));
    m.set_last(std::max(m.last(), s.last()));
    m.set_lanes(m.lanes() + s.lanes());
    m.set_mismatches(m.mismatches() + s.mismatches());
    // ValidateRunRecord makes the word lists N words per example (a lane's VDST words); the
    // bounds hold even if not.
    const int words = s.mismatch_examples_size() == 0
                          ? 1
                          : std::max(1, s.mismatch_expected_size() / s.mismatch_examples_size());
    const int examples = std::min({s.mismatch_examples_size(), s.mismatch_expected_size() / words,
                                   s.mismatch_observed_size() / words});
    for (int i = 0; i < examples && m.mismatch_examples_size() < kMaxMismatchExamples; ++i) {
      *m.add_mismatch_examples() = s.mismatch_examples(i);
      for (int k = 0; k < words; ++k) {
        m.add_mismatch_expected(s.mismatch_expected(i * words + k));
        m.add_mismatch_observed(s.mismatch_observed(i * words + k));
      }
    }
    const int bins = std::min(s.mismatch_by_exponent_size(), kExponentBins);
    if (m.mismatch_by_exponent_size() < bins) m.mutable_mismatch_by_exponent()->Resize(bins, 0);
    for (int i = 0; i < bins; ++i) {
      m.set_mismatch_by_exponent(i, m.mismatch_by_exponent(i) + s.mismatch_by_exponent(i));
    }
    m.set_oracle_checked(m.oracle_checked() + s.oracle_checked());
    m.set_oracle_mismatches(m.oracle_mismatches() + s.oracle_mismatches());
    for (int i = 0; i < s.oracle_mismatch_examples_size() &&
                    m.oracle_mismatch_examples_size() < kMaxMismatchExamples;
         ++i) {
      *m.add_oracle_mismatch_examples() = s.oracle_mismatch_examples(i);
    }
    m.set_round_up_model(m.round_up_model() + s.round_up_model());
    m.set_round_up_device(m.round_up_device() + s.round_up_device());
    m.set_seconds(m.seconds() + s.seconds());
    if (!s.fault().empty()) {
      m.set_fault(m.fault().empty() ? s.fault() : absl::StrCat(m.fault(), "; ", s.fault()));
    }
  }
  std::vector<IdentifiedSweep> out;
  for (size_t i = 0; i < merged.size(); ++i) {
    out.push_back({*identity_of[merged_ids[i]], std::move(merged[i])});
  }
  return out;
}

bool HasCampaigns(const RunGroup& g) {
  for (const proto::RunRecord* r : g.runs) {
    if (r->campaigns_size() > 0) return true;
  }
  return false;
}

std::vector<RunGroup> GroupRuns(const std::vector<proto::RunRecord>& runs) {
  std::map<std::string, RunGroup> by_key;
  std::vector<std::string> order;  // first appearance
  for (const proto::RunRecord& r : runs) {
    const std::string key = IdentityKey(r.identity());
    auto [it, fresh] = by_key.try_emplace(key);
    RunGroup& g = it->second;
    if (fresh) {
      order.push_back(key);
      g.key = key;
      g.identity = r.identity();
      g.label = IdentityTitle(r.identity());
    }
    g.runs.push_back(&r);
    g.seeds.push_back(r.identity().seed());
    const std::string date = r.identity().date().empty() ? r.started() : r.identity().date();
    if (!date.empty() && (g.first_date.empty() || date < g.first_date)) g.first_date = date;
    if (date > g.last_date) g.last_date = date;
    for (const proto::CampaignSummary& c : r.campaigns()) {
      g.seconds += c.seconds();
      g.cases += c.testcases();
      g.lanes += c.lanes();
      g.findings += c.findings();
      g.faults += c.faults();
    }
    for (const proto::SweepResult& s : r.sweeps()) {
      g.seconds += s.seconds();
      g.lanes += s.lanes();
    }
  }
  std::vector<RunGroup> out;
  for (const std::string& key : order) {
    RunGroup& g = by_key[key];
    std::sort(g.seeds.begin(), g.seeds.end());
    g.seeds.erase(std::unique(g.seeds.begin(), g.seeds.end()), g.seeds.end());
    // Coverage: summed per cell.
    std::map<std::tuple<int, std::string, std::string, std::string>, proto::CoverageCell> cells;
    for (const proto::RunRecord* r : g.runs) {
      for (const proto::CampaignSummary& c : r->campaigns()) {
        for (const proto::CoverageCell& x : c.coverage()) {
          proto::CoverageCell& m =
              cells[{static_cast<int>(x.instr()), x.target(), x.shape(), x.mode_class()}];
          if (m.target().empty()) m = x, m.set_lanes(0), m.set_cases(0);
          m.set_lanes(m.lanes() + x.lanes());
          m.set_cases(m.cases() + x.cases());
        }
      }
    }
    for (auto& [k, c] : cells) g.coverage.push_back(std::move(c));
    // Timeline: campaigns in date order, end to end.
    std::vector<std::tuple<std::string, size_t, const proto::CampaignSummary*>> cs;
    for (const proto::RunRecord* r : g.runs) {
      const std::string date = r->identity().date().empty() ? r->started() : r->identity().date();
      for (const proto::CampaignSummary& c : r->campaigns()) cs.push_back({date, cs.size(), &c});
    }
    std::sort(cs.begin(), cs.end());  // by date, then in input order
    proto::StatsSample base;
    for (const auto& [date, index, c] : cs) {
      for (const proto::StatsSample& x : c->timeline()) {
        proto::StatsSample y = x;
        y.set_seconds(base.seconds() + x.seconds());
        y.set_cases(base.cases() + x.cases());
        y.set_lanes(base.lanes() + x.lanes());
        y.set_findings(base.findings() + x.findings());
        y.set_buckets(base.buckets() + x.buckets());
        g.timeline.push_back(y);
      }
      base.set_seconds(base.seconds() + c->seconds());
      base.set_cases(base.cases() + c->testcases());
      base.set_lanes(base.lanes() + c->lanes());
      base.set_findings(base.findings() + c->findings());
      base.set_buckets(base.buckets() + c->buckets());
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<BucketGroup> GroupBuckets(const ReportData& data) {
  std::map<std::string, std::vector<LoadedFinding>> by_key;
  std::map<std::string, std::string> labels;
  for (const LoadedFinding& f : data.findings) {
    const std::string key = FindingGroupKey(f.finding);
    by_key[key].push_back(f);
    labels.try_emplace(key, FindingGroupLabel(f.finding));
  }
  std::vector<BucketGroup> out;
  for (auto& [key, findings] : by_key) {
    BucketGroup g;
    g.key = key;
    g.label = labels[key];
    g.buckets = FoldIntoBuckets(findings);
    out.push_back(std::move(g));
  }
  // A known issue seen by no group is listed (FIXED) once, in the first group.
  for (BucketGroup& g : out) g.rows = Triage(g.buckets, data.known, data.triage);
  if (out.size() > 1) {
    std::set<std::string> seen;
    for (const BucketGroup& g : out) {
      for (const TriageRow& r : g.rows) {
        if (r.status != BucketStatus::kFixed) seen.insert(r.signature);
      }
    }
    std::set<std::string> listed;
    for (BucketGroup& g : out) {
      std::vector<TriageRow> kept;
      for (const TriageRow& r : g.rows) {
        if (r.status == BucketStatus::kFixed && r.bucket == nullptr &&
            (seen.count(r.signature) || !listed.insert(r.signature).second)) {
          continue;
        }
        kept.push_back(r);
      }
      g.rows = std::move(kept);
    }
  }
  return out;
}

std::vector<std::vector<MatrixCell>> BuildMatrix(const ReportData& data) {
  auto targets = AllTargets();
  std::vector<std::vector<MatrixCell>> m(kNumInstrs, std::vector<MatrixCell>(targets.size()));
  // Per cell and per device label: lanes that agreed or disagreed, never summed across labels.
  struct Tally {
    std::map<std::string, uint64_t> lanes;             // label -> lanes run
    std::map<std::string, uint64_t> findings, faults, sweep_mismatches;  // label -> count
    uint64_t silicon_lanes = 0;
  };
  std::vector<std::vector<Tally>> t(kNumInstrs, std::vector<Tally>(targets.size()));
  auto tally = [&](const std::string& target, proto::Instruction instr) -> Tally* {
    const int ti = TargetIndex(target), ii = InstrIndex(instr);
    if (ti < 0 || ii < 0 || ii >= kNumInstrs) return nullptr;
    return &t[ii][ti];
  };
  for (const proto::RunRecord& r : data.runs) {
    for (const proto::CampaignSummary& c : r.campaigns()) {
      const std::string label = r.has_identity() ? IdentityTitle(r.identity())
                                : c.on_silicon()   ? "silicon"
                                                   : DeviceLabel(c.device());
      const bool silicon = r.has_identity() ? r.identity().silicon() : c.on_silicon();
      if (c.coverage_size() > 0) {  // placed by its coverage cells (any number of targets)
        for (const proto::CoverageCell& x : c.coverage()) {
          if (Tally* y = tally(x.target(), x.instr())) {
            y->lanes[label] += x.lanes();
            if (silicon) y->silicon_lanes += x.lanes();
          }
        }
      } else if (Tally* x = tally(c.target(), c.instr())) {
        x->lanes[label] += c.lanes();
        if (silicon) x->silicon_lanes += c.lanes();
      }
      if (Tally* x = tally(c.target(), c.instr())) {
        if (c.faults() + (c.fault().empty() ? 0 : 1) > 0) {
          x->faults[label] += c.faults() + (c.fault().empty() ? 0 : 1);
        }
      }
    }
  }
  for (const IdentifiedSweep& is : MergeSweepsWithIdentity(data.runs)) {
    const proto::SweepResult& s = is.sweep;
    if (Tally* x = tally(s.target(), s.instr())) {
      const std::string label = is.identity.device_kind().empty() ? DeviceLabel(s.device())
                                                                  : IdentityTitle(is.identity);
      x->lanes[label] += s.lanes();
      if (DeviceKind(s.device()) == "hip") x->silicon_lanes += s.lanes();
      if (s.mismatches() > 0) x->sweep_mismatches[label] += s.mismatches();
      if (!s.fault().empty()) x->faults[label] += 1;
    }
  }
  for (const LoadedFinding& lf : data.findings) {
    const proto::Finding& f = lf.finding;
    if (Tally* x = tally(f.testcase().target(), f.testcase().instr())) {
      ++x->findings[DeviceLabel(f.device().runner())];
    }
  }
  auto per_label = [](const std::map<std::string, uint64_t>& m, const std::string& what) {
    std::vector<std::string> parts;
    for (const auto& [label, n] : m) parts.push_back(absl::StrCat(Thousands(n), " ", what, " on ", label));
    return parts;
  };
  for (int i = 0; i < kNumInstrs; ++i) {
    for (size_t j = 0; j < targets.size(); ++j) {
      MatrixCell& cell = m[i][j];
      const Tally& x = t[i][j];
      if (!targets[j].Has(kAllInstrs[i])) {
        cell.status = CellStatus::kNotSupported;
        continue;
      }
      if (!x.findings.empty() || !x.faults.empty() || !x.sweep_mismatches.empty()) {
        cell.status = CellStatus::kDisagrees;
        std::vector<std::string> parts = per_label(x.findings, "finding(s)");
        for (std::string& p : per_label(x.sweep_mismatches, "sweep lane(s)")) parts.push_back(p);
        for (std::string& p : per_label(x.faults, "fault(s)")) parts.push_back(p);
        cell.note = absl::StrJoin(parts, "; ");
      } else if (x.silicon_lanes > 0) {
        cell.status = CellStatus::kAgreesOnSilicon;
        cell.note = absl::StrCat(Thousands(x.silicon_lanes), " lanes");
      } else {
        cell.status = CellStatus::kNotRun;
        std::vector<std::string> parts;
        for (const auto& [label, n] : x.lanes) {
          if (n > 0) parts.push_back(absl::StrCat(label, ": ", Thousands(n), " lanes agree"));
        }
        cell.note = absl::StrJoin(parts, "; ");
      }
    }
  }
  return m;
}

absl::StatusOr<proto::RunRecord> ParseRunRecordFile(const std::string& path,
                                                    absl::string_view data) {
  proto::RunRecord record;
  const bool binary = absl::EndsWith(path, ".binpb") || absl::EndsWith(path, ".pb");
  absl::Status parsed =
      binary ? ParseBinaryInto(data, path, &record) : ParseTextInto(data, path, &record);
  if (!parsed.ok()) return parsed;
  if (absl::Status valid = ValidateRunRecord(record); !valid.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a usable run record, skipped: ", valid.message()));
  }
  return record;
}

void LoadRunRecords(const std::vector<std::string>& paths, ReportData* data) {
  for (const std::string& path : paths) {
    FileWalk walk = WalkFiles({path}, [](absl::string_view name) {
      return absl::EndsWith(name, ".textproto") || absl::EndsWith(name, ".txtpb") ||
             absl::EndsWith(name, ".binpb") || absl::EndsWith(name, ".pb");
    });
    for (std::string& e : walk.errors) data->load_errors.push_back(std::move(e));
    size_t loaded = 0;
    for (const std::string& file : walk.files) {
      absl::StatusOr<std::string> bytes = ReadFile(file);
      absl::StatusOr<proto::RunRecord> record =
          bytes.ok() ? ParseRunRecordFile(file, *bytes)
                     : absl::StatusOr<proto::RunRecord>(bytes.status());
      if (!record.ok()) {
        data->load_errors.push_back(std::string(record.status().message()));
        continue;
      }
      data->runs.push_back(*std::move(record));
      ++loaded;
    }
    if (loaded == 0 && walk.errors.empty() && walk.files.empty()) {
      data->load_errors.push_back(absl::StrCat(
          path, ": no run record files (*.textproto, *.txtpb, *.binpb, *.pb) found"));
    }
  }
}

}  // namespace lanediff
