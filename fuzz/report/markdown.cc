// RenderMarkdown (fuzz/report/report.h): the same sections as the HTML page, as text. The
// plots are in report.html only; their numbers are in the tables here.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/ascii.h"
#include "fuzz/report/escape.h"
#include "fuzz/report/report.h"
#include "fuzz/report/text.h"
#include "fuzz/triage/render.h"
#include "fuzz/triage/run_identity.h"
#include "model/isa/testcase.h"

namespace lanediff {
namespace {

std::string InstrString(proto::Instruction i) { return proto::Instruction_Name(i); }

std::string Row(const std::vector<std::string>& cells) {
  return absl::StrCat("| ", absl::StrJoin(cells, " | "), " |\n");
}

std::string Rule(size_t n, const std::vector<size_t>& right = {}) {
  std::string out = "|";
  for (size_t i = 0; i < n; ++i) {
    const bool r = std::find(right.begin(), right.end(), i) != right.end();
    out += r ? "---:|" : "---|";
  }
  return out + "\n";
}

void Header(const ReportData& data, const std::vector<RunGroup>& groups,
            const std::vector<BucketGroup>& buckets, std::string* out) {
  absl::StrAppend(out, "# lanediff report\n\n**", MdEscape(Verdict(StatusCounts(buckets))), "**\n\n",
                  data.incomplete.empty()
                      ? ""
                      : absl::StrCat("**INCOMPLETE: ", MdEscape(data.incomplete), "**\n\n"),
                  data.generated.empty() ? "" : absl::StrCat("Generated ", MdEscape(data.generated), ". "),
                  Thousands(data.runs.size()), " run record(s) in ", Thousands(groups.size()),
                  " run identit", groups.size() == 1 ? "y" : "ies",
                  " (shown side by side, never summed); ", Thousands(data.findings.size()),
                  " stored finding(s).\n\n");
  if (groups.empty()) return;
  std::vector<std::string> names;
  for (const auto& [name, v] : IdentityFields(groups[0])) names.push_back(name);
  absl::StrAppend(out, Row(names), Rule(names.size(), {7, 8, 9, 10, 11}));
  for (const RunGroup& g : groups) {
    std::vector<std::string> cells;
    for (const auto& [name, v] : IdentityFields(g)) cells.push_back(MdEscape(v));
    absl::StrAppend(out, Row(cells));
  }
  absl::StrAppend(out, "\n");
}

void Buckets(const std::vector<BucketGroup>& groups, std::string* out) {
  absl::StrAppend(out, "## Root causes (buckets) by status\n\n");
  if (groups.empty()) absl::StrAppend(out, "No findings stored: nothing to triage.\n\n");
  for (const BucketGroup& g : groups) {
    absl::StrAppend(out, "### Answers of: ", MdEscape(g.label), "\n\n");
    if (g.rows.empty()) absl::StrAppend(out, "No bucket seen by this run.\n\n");
    for (const TriageRow& r : g.rows) {
      absl::StrAppend(out, "#### ", BucketStatusName(r.status), " ", MdCode(r.signature), "\n\n");
      if (r.bucket != nullptr) {
        const Bucket& b = *r.bucket;
        absl::StrAppend(out, "- cause **", MdEscape(b.cause), "** in ", MdEscape(b.instr), " on ",
                        MdEscape(absl::StrJoin(b.targets, ", ")), "; seen ", Thousands(b.count),
                        " time(s) in ", Thousands(b.findings), " stored finding(s), ",
                        MdEscape(b.first_seen), " .. ", MdEscape(b.last_seen), "\n- shapes: ",
                        MdEscape(TopAttributes(b, "shape", 5)), "\n- input classes: ",
                        MdEscape(TopAttributes(b, "class", 5)), "\n- MODE: ",
                        MdEscape(TopAttributes(b, "mode", 5)), "\n");
      }
      if (r.known != nullptr) {
        absl::StrAppend(out, "- known: ", MdEscape(r.known->reason()),
                        r.known->link().empty() ? "" : absl::StrCat(" (", MdCode(r.known->link()), ")"),
                        r.known->fixed().empty() ? "" : absl::StrCat("; marked fixed ", MdEscape(r.known->fixed())),
                        "\n");
      }
      absl::StrAppend(out, "\n");
      if (r.bucket != nullptr && r.status != BucketStatus::kFixed && !r.bucket->examples.empty()) {
        const LoadedFinding& ex = r.bucket->examples[0];
        absl::StrAppend(out, MdCodeBlock(absl::StripTrailingAsciiWhitespace(DecodeExample(ex.finding, ex.path))),
                        "\n\n");
      }
    }
  }
}

void Coverage(const std::vector<RunGroup>& groups, std::string* out) {
  absl::StrAppend(out, "## Coverage: lanes run per instruction x target x operand shape x MODE class\n\n");
  bool any = false;
  for (const RunGroup& g : groups) {
    if (g.coverage.empty()) continue;
    any = true;
    absl::StrAppend(out, "### ", MdEscape(g.label), " ", MdEscape(g.identity.device_name()), "\n\n",
                    Row({"instruction", "target", "operand shape", "MODE class", "cases", "lanes"}),
                    Rule(6, {4, 5}));
    for (const CoverageRows& r : CoverageTable(g, 8)) {
      absl::StrAppend(out, Row({absl::StrCat("**", MdEscape(r.instr), "**"), absl::StrCat("**", MdEscape(r.target), "**"),
                                "all", "all", Thousands(r.total.cases()), Thousands(r.total.lanes())}));
      for (const proto::CoverageCell& c : r.top) {
        absl::StrAppend(out, Row({"", "", MdEscape(c.shape()), MdEscape(c.mode_class()),
                                  Thousands(c.cases()), Thousands(c.lanes())}));
      }
      if (r.rest_cells > 0) {
        absl::StrAppend(out, Row({"", "", absl::StrCat(Thousands(r.rest_cells), " more combinations"), "",
                                  Thousands(r.rest.cases()), Thousands(r.rest.lanes())}));
      }
    }
    absl::StrAppend(out, "\n");
  }
  if (!any) absl::StrAppend(out, "No campaign recorded its coverage.\n\n");
}

void Statistics(const std::vector<RunGroup>& groups, std::string* out) {
  absl::StrAppend(out, "## Campaign statistics\n\n");
  bool any = false;
  for (const RunGroup& g : groups) {
    if (!HasCampaigns(g)) continue;
    any = true;
    absl::StrAppend(out, "### ", MdEscape(g.label), " ", MdEscape(g.identity.device_name()), "\n\n",
                    Row({"targets", "instruction", "seed", "cases", "lanes", "rate", "buckets",
                         "new findings", "faults", "time"}),
                    Rule(10, {2, 3, 4, 5, 6, 7, 8, 9}));
    for (const proto::RunRecord* r : g.runs) {
      for (const proto::CampaignSummary& c : r->campaigns()) {
        absl::StrAppend(out, Row({MdEscape(absl::StrJoin(absl::StrSplit(c.target(), ','), ", ")),
                                  MdEscape(c.instr() == proto::INSTRUCTION_UNSPECIFIED ? "several"
                                                                                       : InstrString(c.instr())),
                                  absl::StrCat(r->identity().seed()), Thousands(c.testcases()),
                                  Thousands(c.lanes()), LaneRate(c.lanes(), c.seconds()),
                                  Thousands(c.buckets()), Thousands(c.findings()), Thousands(c.faults()),
                                  FormatSeconds(c.seconds())}));
      }
    }
    absl::StrAppend(out, "\n");
  }
  if (!any) absl::StrAppend(out, "No campaign in these runs.\n\n");
  else absl::StrAppend(out, "Lanes and buckets over time are plotted in report.html.\n\n");
}

void Matrix(const ReportData& data, std::string* out) {
  auto m = BuildMatrix(data);
  auto targets = AllTargets();
  absl::StrAppend(out, "## Compatibility matrix\n\n| instruction |");
  for (const TargetTraits& t : targets) absl::StrAppend(out, " ", t.name, " |");
  absl::StrAppend(out, "\n|---|");
  for (size_t j = 0; j < targets.size(); ++j) absl::StrAppend(out, "---|");
  absl::StrAppend(out, "\n");
  for (int i = 0; i < kNumInstrs; ++i) {
    absl::StrAppend(out, "| ", InstrName(kAllInstrs[i]), " |");
    for (size_t j = 0; j < targets.size(); ++j) {
      const MatrixCell& c = m[i][j];
      absl::StrAppend(out, " ", CellStatusName(c.status),
                      c.note.empty() ? "" : absl::StrCat(" (", MdEscape(c.note), ")"), " |");
    }
    absl::StrAppend(out, "\n");
  }
  absl::StrAppend(out, "\n");
}

}  // namespace

std::string RenderMarkdown(const ReportData& data) {
  const std::vector<RunGroup> groups = GroupRuns(data.runs);
  const std::vector<BucketGroup> buckets = GroupBuckets(data);
  std::string out;
  Header(data, groups, buckets, &out);
  Buckets(buckets, &out);
  Coverage(groups, &out);
  Statistics(groups, &out);
  Matrix(data, &out);
  absl::StrAppend(&out, "## Hypothesis verdicts\n\n");
  bool any = false;
  for (const auto& r : data.runs) {
    for (const auto& v : r.verdicts()) {
      if (!any) {
        absl::StrAppend(&out, Row({"target", "instruction", "device", "hypothesis", "device follows",
                                   "questions"}), Rule(6, {5}));
      }
      any = true;
      absl::StrAppend(&out, Row({MdEscape(v.target()), MdEscape(InstrString(v.instr())),
                                 MdEscape(absl::StrCat(v.device(), ", ", DeviceLabel(v.device()))),
                                 MdEscape(v.hypothesis()), MdEscape(v.verdict()), Thousands(v.questions())}));
    }
  }
  if (!any) absl::StrAppend(&out, "No discrimination run.\n");
  absl::StrAppend(&out, "\n## Sweeps\n\n");
  const auto sweeps = MergeSweepsWithIdentity(data.runs);
  if (sweeps.empty()) {
    absl::StrAppend(&out, "No sweep run.\n");
  } else {
    absl::StrAppend(&out, Row({"target", "instruction", "swept", "setting", "device", "lanes", "mismatches", "time"}),
                    Rule(8, {5, 6, 7}));
  }
  for (const IdentifiedSweep& is : sweeps) {
    const proto::SweepResult& s = is.sweep;
    const std::string who = is.identity.device_kind().empty() ? DeviceLabel(s.device()) : IdentityTitle(is.identity);
    absl::StrAppend(&out, Row({MdEscape(s.target()), MdEscape(InstrString(s.instr())), MdEscape(s.swept()),
                               MdEscape(s.setting()), MdEscape(absl::StrCat(s.device(), ", ", who)),
                               Thousands(s.lanes()), Thousands(s.mismatches()), FormatSeconds(s.seconds())}));
  }
  absl::StrAppend(&out, "\n## Stored findings\n\n");
  if (data.findings.empty()) absl::StrAppend(&out, "None.\n");
  for (const LoadedFinding& lf : data.findings) {
    const proto::Finding& f = lf.finding;
    absl::StrAppend(&out, "- ", MdCode(f.signature()), " ", MdEscape(proto::Finding::Kind_Name(f.kind())),
                    " from ", MdEscape(DeviceLabel(f.device().runner())), ", seen ", Thousands(f.count()),
                    " time(s), ", MdEscape(f.first_seen()), " .. ", MdEscape(f.last_seen()),
                    "; repro: ", MdCode(f.repro()), "\n");
  }
  for (const std::string& e : data.load_errors) {
    absl::StrAppend(&out, "\n**input not loaded:** ", MdEscape(e), "\n");
  }
  return out;
}

}  // namespace lanediff
