#include "fuzz/triage/buckets.h"

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <sys/stat.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/engine/compare.h"
#include "fuzz/triage/attribution.h"
#include "fuzz/triage/bucket_merge.h"
#include "fuzz/triage/lane_causes.h"
#include "model/isa/testcase.h"
#include "model/targets/hypotheses.h"
#include "proto/file_io.h"
#include "proto/text_format.h"

namespace lanediff {

std::string CauseOfFinding(const proto::Finding& f) {
  if (!f.cause().empty()) return f.cause();
  if (f.kind() == proto::Finding::DEVICE_FAULT) {
    // Old signatures: "<target>.<instr>.device_fault.<crash|hang|fault>[.<class>]".
    const std::string& s = f.signature();
    if (absl::StrContains(s, ".device_fault.crash")) return "device_fault.crash";
    if (absl::StrContains(s, ".device_fault.hang")) return "device_fault.hang";
    return "device_fault.fault";
  }
  Hypotheses hyp;
  for (const std::string& h : f.model().hypotheses()) {
    if (!SetHypothesis(h, &hyp).ok()) return "unattributed";
  }
  std::vector<std::string> names(f.relaxations().begin(), f.relaxations().end());
  absl::StatusOr<Relaxations> relax = ParseRelaxations(names);
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(f.testcase());
  if (!relax.ok() || !rc.ok()) return "unattributed";
  rc->ctx.hyp = hyp;
  std::vector<uint32_t> expected(f.expected().begin(), f.expected().end());
  std::vector<uint32_t> observed(f.observed().begin(), f.observed().end());
  absl::StatusOr<std::vector<Cause>> causes = Attribute(*rc, expected, observed, *relax);
  if (!causes.ok() || causes->empty()) return "unattributed";
  return (*causes)[0].name;
}

namespace {

// Old findings carry no attribute counts: their one example's shape, class and MODE, counted
// `count` times.
std::map<std::string, uint64_t> AttributesOf(const proto::Finding& f) {
  std::map<std::string, uint64_t> out(f.attributes().begin(), f.attributes().end());
  if (!out.empty()) return out;
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(f.testcase());
  if (!rc.ok() || f.testcase().lanes_size() == 0) return out;
  for (const std::string& a : SightingAttributes(f.testcase(), *rc, 0)) {
    out[a] += std::max<uint64_t>(1, f.count());
  }
  return out;
}

}  // namespace

std::string BucketKey(absl::string_view instr_and_cause) {
  return std::string(instr_and_cause.substr(0, instr_and_cause.find('=')));
}

namespace {

// The values of a cause named by settings ("fp8_nan=sign_7f+sign_preserving" -> {sign_7f,
// sign_preserving}); a cause without '=' has none.
std::set<std::string> ValuesOfCause(absl::string_view cause) {
  std::set<std::string> out;
  for (const std::string& s : SettingsOfCause(cause)) out.insert(s.substr(s.find('=') + 1));
  return out;
}

// The causes of findings of one BucketKey folded: findings whose causes name readings of one
// rule share a bucket while the readings consistent with all of them (the intersection of their
// value sets) are not empty; the bucket is named by that intersection. Value sets are taken
// smallest first (then by name): each joins the first group it shares a reading with, else
// starts one. So gfx1250's `fp8_nan=sign_preserving` (its UE5M3 form parts the readings) and
// an E4M3 target's `fp8_nan=sign_7f+sign_preserving` are one bucket, `fp8_nan=sign_preserving`,
// and readings no two targets share stay apart. Returns cause -> the bucket's cause.
std::map<std::string, std::string> FoldReadings(const std::set<std::string>& causes) {
  std::map<std::string, std::string> out;
  std::vector<std::pair<std::set<std::string>, std::string>> sets;
  for (const std::string& c : causes) {
    std::set<std::string> values = ValuesOfCause(c);
    if (values.empty()) {
      out[c] = c;
    } else {
      sets.emplace_back(std::move(values), c);
    }
  }
  std::sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) {
    return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a < b;
  });
  std::vector<std::set<std::string>> groups;
  std::vector<size_t> group_of(sets.size());
  for (size_t i = 0; i < sets.size(); ++i) {
    size_t g = 0;
    std::set<std::string> common;
    for (; g < groups.size(); ++g) {
      common.clear();
      std::set_intersection(groups[g].begin(), groups[g].end(), sets[i].first.begin(),
                            sets[i].first.end(), std::inserter(common, common.end()));
      if (!common.empty()) break;
    }
    if (g == groups.size()) {
      groups.push_back(sets[i].first);
    } else {
      groups[g] = std::move(common);
    }
    group_of[i] = g;
  }
  for (size_t i = 0; i < sets.size(); ++i) {
    const std::string& c = sets[i].second;
    const std::string rule = c.substr(0, c.find('='));
    std::vector<std::string> settings;
    for (const std::string& v : groups[group_of[i]]) settings.push_back(absl::StrCat(rule, "=", v));
    out[c] = CauseName(settings);
  }
  return out;
}

void AddToBucket(const LoadedFinding& lf, Bucket* b) {
  const proto::Finding& f = lf.finding;
  b->targets.insert(f.testcase().target());
  b->count += std::max<uint64_t>(1, f.count());
  if (!f.first_seen().empty() && (b->first_seen.empty() || f.first_seen() < b->first_seen)) {
    b->first_seen = f.first_seen();
  }
  if (f.last_seen() > b->last_seen) b->last_seen = f.last_seen();
  for (const auto& [a, n] : AttributesOf(f)) b->attributes[a] += n;
  b->findings++;
  // Examples: the finding's own, then its extra examples (other shapes), one per shape.
  auto offer = [&](const LoadedFinding& ex) {
    const std::string shape = ExampleShape(ex.finding.testcase());
    for (const LoadedFinding& x : b->examples) {
      if (ExampleShape(x.finding.testcase()) == shape) return;
    }
    if (b->examples.size() < kMaxBucketExamples) b->examples.push_back(ex);
  };
  offer(lf);
  for (const proto::Finding::Example& x : f.more_examples()) {
    LoadedFinding ex{lf.path, f};
    ex.finding.clear_more_examples();
    *ex.finding.mutable_testcase() = x.testcase();
    ex.finding.mutable_expected()->Assign(x.expected().begin(), x.expected().end());
    ex.finding.mutable_observed()->Assign(x.observed().begin(), x.observed().end());
    offer(ex);
  }
}

}  // namespace

std::vector<Bucket> FoldIntoBuckets(const std::vector<LoadedFinding>& findings) {
  std::vector<std::string> instr(findings.size()), cause(findings.size());
  std::map<std::string, std::set<std::string>> causes_of_key;  // BucketKey -> causes
  for (size_t i = 0; i < findings.size(); ++i) {
    instr[i] = proto::Instruction_Name(findings[i].finding.testcase().instr());
    cause[i] = CauseOfFinding(findings[i].finding);
    causes_of_key[BucketKey(absl::StrCat(instr[i], ".", cause[i]))].insert(cause[i]);
  }
  std::map<std::string, std::map<std::string, std::string>> folded;  // key -> cause -> bucket's
  for (const auto& [key, causes] : causes_of_key) folded[key] = FoldReadings(causes);
  std::map<std::string, Bucket> by_sig;
  for (size_t i = 0; i < findings.size(); ++i) {
    const std::string& c =
        folded[BucketKey(absl::StrCat(instr[i], ".", cause[i]))].at(cause[i]);
    Bucket& b = by_sig[absl::StrCat(instr[i], ".", c)];
    b.signature = absl::StrCat(instr[i], ".", c);
    b.instr = instr[i];
    b.cause = c;
    AddToBucket(findings[i], &b);
  }
  std::vector<Bucket> out;
  for (auto& [sig, b] : by_sig) out.push_back(std::move(b));
  return out;
}

const char* BucketStatusName(BucketStatus s) {
  switch (s) {
    case BucketStatus::kNew: return "NEW";
    case BucketStatus::kKnown: return "KNOWN";
    case BucketStatus::kFixed: return "FIXED";
    case BucketStatus::kRegressed: return "REGRESSED";
  }
  return "?";
}

std::vector<TriageRow> Triage(const std::vector<Bucket>& buckets, const proto::KnownIssues& known,
                              const TriageOptions& o) {
  std::map<std::string, const proto::KnownIssue*> by_sig;
  for (const proto::KnownIssue& k : known.issue()) by_sig[k.signature()] = &k;
  std::vector<TriageRow> rows;
  std::set<std::string> seen;
  for (const Bucket& b : buckets) {
    if (!o.since.empty() && b.last_seen < o.since) continue;  // not seen by this run
    seen.insert(b.signature);
    auto k = by_sig.find(b.signature);
    TriageRow r{BucketStatus::kNew, &b, nullptr, b.signature, {}};
    if (k != by_sig.end()) {
      r.known = k->second;
      r.status = k->second->fixed().empty() ? BucketStatus::kKnown : BucketStatus::kRegressed;
    }
    rows.push_back(r);
  }
  for (const proto::KnownIssue& k : known.issue()) {
    if (seen.count(k.signature()) != 0) continue;
    const std::string instr = k.signature().substr(0, k.signature().find('.'));
    if (!o.covered_instrs.empty() && o.covered_instrs.count(instr) == 0) continue;
    const Bucket* b = nullptr;
    for (const Bucket& x : buckets) {
      if (x.signature == k.signature()) b = &x;
    }
    rows.push_back(TriageRow{BucketStatus::kFixed, b, &k, k.signature(), {}});
  }
  auto rank = [](BucketStatus s) {
    switch (s) {
      case BucketStatus::kNew: return 0;
      case BucketStatus::kRegressed: return 1;
      case BucketStatus::kKnown: return 2;
      case BucketStatus::kFixed: return 3;
    }
    return 4;
  };
  std::sort(rows.begin(), rows.end(), [&](const TriageRow& a, const TriageRow& b) {
    if (rank(a.status) != rank(b.status)) return rank(a.status) < rank(b.status);
    return a.signature < b.signature;
  });
  return rows;
}

namespace {
bool IsDir(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
}  // namespace

std::string FindingsDirOf(const std::string& corpus) {
  return IsDir(corpus + "/findings") ? corpus + "/findings" : corpus;
}

std::string CorpusRootOf(const std::string& corpus) {
  if (IsDir(corpus + "/findings")) return corpus;
  std::string c = corpus;
  while (c.size() > 1 && c.back() == '/') c.pop_back();
  const size_t slash = c.rfind('/');
  const std::string base = slash == std::string::npos ? c : c.substr(slash + 1);
  if (base == "findings") return slash == std::string::npos ? "." : c.substr(0, slash);
  return c;
}

absl::StatusOr<proto::KnownIssues> ReadKnownIssues(const std::string& path) {
  proto::KnownIssues known;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return known;
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  if (absl::Status s = ParseTextInto(*text, path, &known); !s.ok()) return s;
  for (int i = 0; i < known.issue_size(); ++i) {
    if (known.issue(i).signature().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": issue ", i + 1, ": field signature is empty"));
    }
  }
  return known;
}

absl::Status WriteKnownIssues(const std::string& path, const proto::KnownIssues& known) {
  return WriteFileAtomic(path, absl::StrCat("# lanediff known issues: accepted root causes "
                                            "(lanediff triage --accept). One issue per bucket "
                                            "signature.\n",
                                            ToText(known)));
}

}  // namespace lanediff
