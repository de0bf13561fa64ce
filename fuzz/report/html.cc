// RenderHtml: one self-contained page (fuzz/report/report.h). No script, no network; every
// string from a file is escaped; every section is a <section id=...> that a browser test
// (render_in_chromium_test.sh) checks for presence and overflow.
#include <array>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/report/escape.h"
#include "fuzz/report/plots.h"
#include "fuzz/report/report.h"
#include "fuzz/report/text.h"
#include "fuzz/triage/render.h"
#include "fuzz/triage/run_identity.h"
#include "model/isa/testcase.h"

namespace lanediff {
namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1600px}"
    "section{margin:1.5em 0;overflow-x:auto}"
    "table{border-collapse:collapse;margin:0.5em 0;max-width:100%}"
    "td,th{border:1px solid #ccc;padding:3px 7px;font-size:13px;text-align:left;vertical-align:top;"
    "overflow-wrap:anywhere}"
    "td.num,th.num{text-align:right;white-space:nowrap}"
    "th{background:#f0f0f0}"
    "tr.subtotal td{font-weight:bold;background:#f7f7f7}"
    ".agrees{background:#c8ecc8}.disagrees{background:#f7c2c2}.notsupported{background:#eee;color:#999}"
    ".notrun{background:#fff8dc}"
    "code{background:#f6f6f6;padding:1px 3px;overflow-wrap:anywhere}"
    "pre{background:#f6f6f6;padding:6px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px}"
    ".verdict{padding:8px 12px;font-weight:bold;font-size:16px}"
    ".green{background:#c8ecc8}.red{background:#f7c2c2}"
    ".bucket{border:1px solid #ddd;margin:0.6em 0;padding:0 10px}"
    ".status{display:inline-block;padding:1px 6px;margin-right:6px;font-size:13px}"
    ".NEW,.REGRESSED{background:#f7c2c2}.KNOWN{background:#fff0b3}.FIXED{background:#c8ecc8}"
    ".label{font-style:italic;color:#555}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
    "figcaption{font-size:13px;max-width:640px;overflow-wrap:anywhere}"
    ".legend{display:block;margin-top:4px}.key{display:inline-block;margin-right:12px}"
    ".swatch{display:inline-block;width:14px;height:4px;margin-right:4px;vertical-align:middle}";

std::string E(absl::string_view s) { return XmlEscape(s); }
std::string InstrString(proto::Instruction i) { return proto::Instruction_Name(i); }

std::string Header(const ReportData& data, const std::vector<RunGroup>& groups,
                   const std::vector<BucketGroup>& buckets) {
  const std::array<int, 4> n = StatusCounts(buckets);
  std::string out = absl::StrCat(
      "<header id=\"header\"><h1>lanediff report</h1>\n<p class=\"verdict ",
      n[0] + n[1] == 0 ? "green" : "red", "\" id=\"verdict\">", E(Verdict(n)), "</p>\n",
      data.incomplete.empty()
          ? ""
          : absl::StrCat("<p class=\"verdict red\" id=\"incomplete\">INCOMPLETE: ",
                         E(data.incomplete), "</p>\n"),
      "<p>",
      data.generated.empty() ? "" : absl::StrCat("Generated ", E(data.generated), ". "),
      Thousands(data.runs.size()), " run record(s) in ", Thousands(groups.size()),
      " run identit", groups.size() == 1 ? "y" : "ies",
      " (runs of different identities are shown side by side, never summed); ",
      Thousands(data.findings.size()), " stored finding(s).</p>\n");
  if (!groups.empty()) {
    absl::StrAppend(&out, "<table id=\"runs\"><tr>");
    for (const auto& [name, v] : IdentityFields(groups[0])) {
      const bool num = name == "runs" || name == "cases" || name == "lanes" || name == "rate" ||
                       name == "duration";
      absl::StrAppend(&out, "<th", num ? " class=\"num\"" : "", ">", E(name), "</th>");
    }
    absl::StrAppend(&out, "</tr>\n");
    for (const RunGroup& g : groups) {
      absl::StrAppend(&out, "<tr>");
      for (const auto& [name, v] : IdentityFields(g)) {
        const bool num = name == "runs" || name == "cases" || name == "lanes" || name == "rate" ||
                         name == "duration";
        absl::StrAppend(&out, "<td", num ? " class=\"num\"" : "", ">", E(v), "</td>");
      }
      absl::StrAppend(&out, "</tr>\n");
    }
    absl::StrAppend(&out, "</table>\n");
  }
  return out + "</header>\n";
}

std::string Buckets(const std::vector<BucketGroup>& groups) {
  std::string out = "<section id=\"buckets\"><h2>Root causes (buckets) by status</h2>\n";
  if (groups.empty()) absl::StrAppend(&out, "<p>No findings stored: nothing to triage.</p>\n");
  for (const BucketGroup& g : groups) {
    absl::StrAppend(&out, "<h3>Answers of: <span class=\"label\">", E(g.label), "</span></h3>\n");
    if (g.rows.empty()) absl::StrAppend(&out, "<p>No bucket seen by this run.</p>\n");
    for (const TriageRow& r : g.rows) {
      const std::string status = BucketStatusName(r.status);
      absl::StrAppend(&out, "<div class=\"bucket\"><h4><span class=\"status ", status, "\">", status,
                      "</span><code>", E(r.signature), "</code></h4>\n");
      if (r.bucket != nullptr) {
        const Bucket& b = *r.bucket;
        absl::StrAppend(&out, "<p>cause <strong>", E(b.cause), "</strong> in ", E(b.instr), " on ",
                        E(absl::StrJoin(b.targets, ", ")), "; seen ", Thousands(b.count),
                        " time(s) in ", Thousands(b.findings), " stored finding(s), ",
                        E(b.first_seen), " .. ", E(b.last_seen), "<br>shapes: ",
                        E(TopAttributes(b, "shape", 5)), "<br>input classes: ",
                        E(TopAttributes(b, "class", 5)), "<br>MODE: ", E(TopAttributes(b, "mode", 5)),
                        "</p>\n");
      }
      if (r.known != nullptr) {
        absl::StrAppend(&out, "<p>known: ", E(r.known->reason()),
                        r.known->link().empty() ? "" : absl::StrCat(" (<code>", E(r.known->link()), "</code>)"),
                        r.known->fixed().empty() ? "" : absl::StrCat("; marked fixed ", E(r.known->fixed())),
                        "</p>\n");
      }
      if (r.bucket != nullptr && r.status != BucketStatus::kFixed && !r.bucket->examples.empty()) {
        const LoadedFinding& ex = r.bucket->examples[0];
        absl::StrAppend(&out, "<pre class=\"example\">", E(DecodeExample(ex.finding, ex.path)), "</pre>\n");
      }
      absl::StrAppend(&out, "</div>\n");
    }
  }
  return out + "</section>\n";
}

std::string Coverage(const std::vector<RunGroup>& groups) {
  std::string out =
      "<section id=\"coverage\"><h2>Coverage: lanes run per instruction x target x operand shape x "
      "MODE class</h2>\n";
  bool any = false;
  for (const RunGroup& g : groups) {
    if (g.coverage.empty()) continue;
    any = true;
    absl::StrAppend(&out, "<h3><span class=\"label\">", E(g.label), "</span> ",
                    E(g.identity.device_name()), "</h3>\n<table class=\"coverage\"><tr><th>instruction</th>"
                    "<th>target</th><th>operand shape</th><th>MODE class</th><th class=\"num\">cases</th>"
                    "<th class=\"num\">lanes</th></tr>\n");
    for (const CoverageRows& r : CoverageTable(g, 8)) {
      absl::StrAppend(&out, "<tr class=\"subtotal\"><td>", E(r.instr), "</td><td>", E(r.target),
                      "</td><td>all</td><td>all</td><td class=\"num\">", Thousands(r.total.cases()),
                      "</td><td class=\"num\">", Thousands(r.total.lanes()), "</td></tr>\n");
      for (const proto::CoverageCell& c : r.top) {
        absl::StrAppend(&out, "<tr><td></td><td></td><td>", E(c.shape()), "</td><td>", E(c.mode_class()),
                        "</td><td class=\"num\">", Thousands(c.cases()), "</td><td class=\"num\">",
                        Thousands(c.lanes()), "</td></tr>\n");
      }
      if (r.rest_cells > 0) {
        absl::StrAppend(&out, "<tr><td></td><td></td><td colspan=\"2\">", Thousands(r.rest_cells),
                        " more combinations</td><td class=\"num\">", Thousands(r.rest.cases()),
                        "</td><td class=\"num\">", Thousands(r.rest.lanes()), "</td></tr>\n");
      }
    }
    absl::StrAppend(&out, "</table>\n");
  }
  if (!any) absl::StrAppend(&out, "<p>No campaign recorded its coverage.</p>\n");
  return out + "</section>\n";
}

std::string Statistics(const std::vector<RunGroup>& groups) {
  std::string out = "<section id=\"statistics\"><h2>Campaign statistics</h2>\n";
  bool any = false;
  for (const RunGroup& g : groups) {
    if (!HasCampaigns(g)) continue;
    any = true;
    absl::StrAppend(&out, "<h3><span class=\"label\">", E(g.label), "</span> ", E(g.identity.device_name()),
                    "</h3>\n<table class=\"campaigns\"><tr><th>targets</th><th>instruction</th>"
                    "<th class=\"num\">seed</th><th class=\"num\">cases</th><th class=\"num\">lanes</th>"
                    "<th class=\"num\">rate</th><th class=\"num\">buckets</th><th class=\"num\">new findings</th>"
                    "<th class=\"num\">faults</th><th class=\"num\">time</th></tr>\n");
    for (const proto::RunRecord* r : g.runs) {
      for (const proto::CampaignSummary& c : r->campaigns()) {
        absl::StrAppend(&out, "<tr><td>", E(absl::StrJoin(absl::StrSplit(c.target(), ','), ", ")),
                        "</td><td>",
                        E(c.instr() == proto::INSTRUCTION_UNSPECIFIED ? "several" : InstrString(c.instr())),
                        "</td><td class=\"num\">", r->identity().seed(), "</td><td class=\"num\">",
                        Thousands(c.testcases()), "</td><td class=\"num\">", Thousands(c.lanes()),
                        "</td><td class=\"num\">", LaneRate(c.lanes(), c.seconds()), "</td><td class=\"num\">",
                        Thousands(c.buckets()), "</td><td class=\"num\">", Thousands(c.findings()),
                        "</td><td class=\"num\">", Thousands(c.faults()), "</td><td class=\"num\">",
                        FormatSeconds(c.seconds()), "</td></tr>\n");
      }
    }
    absl::StrAppend(&out, "</table>\n");
  }
  if (!any) absl::StrAppend(&out, "<p>No campaign in these runs.</p>\n");
  absl::StrAppend(&out, TimelineFigures(groups));
  return out + "</section>\n";
}

std::string Matrix(const ReportData& data) {
  auto m = BuildMatrix(data);
  auto targets = AllTargets();
  std::string out =
      "<section id=\"matrix-section\"><h2>Compatibility matrix</h2>\n<table id=\"matrix\"><tr><th>instruction</th>";
  for (const TargetTraits& t : targets) {
    absl::StrAppend(&out, "<th>", t.name, "<br><small>", t.generation, "</small></th>");
  }
  absl::StrAppend(&out, "</tr>\n");
  for (int i = 0; i < kNumInstrs; ++i) {
    absl::StrAppend(&out, "<tr><th>", InstrName(kAllInstrs[i]), "</th>");
    for (size_t j = 0; j < targets.size(); ++j) {
      const MatrixCell& c = m[i][j];
      const char* cls = c.status == CellStatus::kAgreesOnSilicon ? "agrees"
                        : c.status == CellStatus::kDisagrees     ? "disagrees"
                        : c.status == CellStatus::kNotSupported  ? "notsupported"
                                                                 : "notrun";
      absl::StrAppend(&out, "<td class=\"", cls, "\">", CellStatusName(c.status),
                      c.note.empty() ? "" : absl::StrCat("<br><small>", E(c.note), "</small>"), "</td>");
    }
    absl::StrAppend(&out, "</tr>\n");
  }
  return out + "</table>\n</section>\n";
}

std::string Verdicts(const ReportData& data) {
  std::string out = "<section id=\"verdicts-section\"><h2>Hypothesis verdicts</h2>\n";
  std::vector<const proto::HypothesisVerdict*> v;
  for (const auto& r : data.runs) for (const auto& x : r.verdicts()) v.push_back(&x);
  if (v.empty()) return out + "<p>No discrimination run.</p>\n</section>\n";
  absl::StrAppend(&out, "<table id=\"verdicts\"><tr><th>target</th><th>instruction</th><th>device</th>"
                        "<th>hypothesis</th><th>device follows</th><th class=\"num\">questions</th></tr>\n");
  for (const proto::HypothesisVerdict* x : v) {
    absl::StrAppend(&out, "<tr><td>", E(x->target()), "</td><td>", E(InstrString(x->instr())), "</td><td>",
                    E(x->device()), " <span class=\"label\">", E(DeviceLabel(x->device())), "</span></td><td>",
                    E(x->hypothesis()), "</td><td>", E(x->verdict()), "</td><td class=\"num\">",
                    Thousands(x->questions()), "</td></tr>\n");
  }
  return out + "</table>\n</section>\n";
}

// `lanediff fidelity --out` lines: per device, target and row, the rules it does not follow as
// the defaults say (a reading, none of the known readings, a field unlike the spec), with the
// lane that shows each; the rules that follow the defaults counted.
std::string FidelitySection(const ReportData& data) {
  std::string out = "<section id=\"fidelity-section\"><h2>Fidelity</h2>\n";
  std::vector<const proto::FidelityLine*> lines;
  size_t defaults = 0;
  for (const auto& r : data.runs) {
    for (const auto& x : r.fidelity()) {
      if (x.status() == "default" || x.status() == "undetermined") {
        ++defaults;
      } else {
        lines.push_back(&x);
      }
    }
  }
  if (lines.empty() && defaults == 0) return out + "<p>No fidelity run.</p>\n</section>\n";
  absl::StrAppend(&out, "<p>", Thousands(defaults),
                  " rules follow the default reading or are undetermined; the others:</p>\n");
  if (lines.empty()) return out + "</section>\n";
  absl::StrAppend(&out, "<table id=\"fidelity\"><tr><th>target</th><th>instruction</th>"
                        "<th>device</th><th>rule or field</th><th>status</th><th>follows</th>"
                        "<th>default</th><th>lane</th><th>device words</th><th>model words</th>"
                        "</tr>\n");
  auto words = [](const auto& w) {
    std::vector<std::string> out;
    for (uint32_t x : w) out.push_back(absl::StrFormat("0x%08x", x));
    return absl::StrJoin(out, " ");
  };
  for (const proto::FidelityLine* x : lines) {
    std::string lane;
    if (x->lane().lanes_size() > 0) {
      lane = absl::StrFormat("%s src0=0x%08x src1=0x%08x MODE=0x%08x", x->assembly(),
                             x->lane().lanes(0).src0(), x->lane().lanes(0).src1(),
                             x->lane().has_mode() ? x->lane().mode() : kDefaultMode);
    }
    absl::StrAppend(&out, "<tr><td>", E(x->target()), "</td><td>", E(InstrString(x->instr())),
                    "</td><td>", E(x->device()), "</td><td>", E(x->rule()), "</td><td>",
                    E(x->status()), "</td><td>", E(x->verdict()), "</td><td>",
                    E(x->default_value()), "</td><td><code>", E(lane), "</code></td><td>",
                    E(words(x->device_words())), "</td><td>", E(words(x->model_words())),
                    "</td></tr>\n");
  }
  return out + "</table>\n</section>\n";
}

std::string Sweeps(const std::vector<IdentifiedSweep>& identified) {
  std::vector<proto::SweepResult> sweeps;
  for (const IdentifiedSweep& s : identified) sweeps.push_back(s.sweep);
  std::string out = absl::StrCat(
      "<section id=\"sr-section\"><h2>Stochastic rounding: round-up probability</h2>\n",
      SrProbabilityFigure(sweeps), "</section>\n<section id=\"src0-map-section\"><h2>Src0 sweeps: where "
      "disagreements fall</h2>\n", Src0MapFigure(sweeps), "</section>\n<section id=\"sweeps-section\">"
      "<h2>Sweeps</h2>\n");
  if (sweeps.empty()) return out + "<p>No sweep run.</p>\n</section>\n";
  absl::StrAppend(&out, "<table id=\"sweeps\"><tr><th>target</th><th>instruction</th><th>swept</th>"
                        "<th>setting</th><th>device</th><th class=\"num\">lanes</th>"
                        "<th class=\"num\">mismatches</th><th class=\"num\">time</th></tr>\n");
  for (const IdentifiedSweep& is : identified) {
    const proto::SweepResult& s = is.sweep;
    const std::string who = is.identity.device_kind().empty() ? DeviceLabel(s.device()) : IdentityTitle(is.identity);
    absl::StrAppend(&out, "<tr><td>", E(s.target()), "</td><td>", E(InstrString(s.instr())), "</td><td>",
                    E(s.swept()), "</td><td>", E(s.setting()), "</td><td>", E(s.device()),
                    " <span class=\"label\">", E(who), "</span></td><td class=\"num\">",
                    Thousands(s.lanes()), "</td><td class=\"num\">", Thousands(s.mismatches()),
                    "</td><td class=\"num\">", FormatSeconds(s.seconds()), "</td></tr>\n");
  }
  return out + "</table>\n</section>\n";
}

std::string Findings(const ReportData& data) {
  std::string out = "<section id=\"findings\"><h2>Stored findings</h2>\n";
  if (data.findings.empty()) return out + "<p id=\"no-findings\">None.</p>\n</section>\n";
  absl::StrAppend(&out, "<table id=\"findings-table\"><tr><th>signature</th><th>kind</th><th>device</th>"
                        "<th class=\"num\">seen</th><th>first .. last</th><th>repro</th></tr>\n");
  for (const LoadedFinding& lf : data.findings) {
    const proto::Finding& f = lf.finding;
    absl::StrAppend(&out, "<tr><td><code>", E(f.signature()), "</code></td><td>",
                    E(proto::Finding::Kind_Name(f.kind())), "</td><td>", E(DeviceLabel(f.device().runner())),
                    "</td><td class=\"num\">", Thousands(f.count()), "</td><td>", E(f.first_seen()), " .. ",
                    E(f.last_seen()), "</td><td><code>", E(f.repro()), "</code></td></tr>\n");
  }
  return out + "</table>\n</section>\n";
}

}  // namespace

std::string RenderHtml(const ReportData& data) {
  const std::vector<RunGroup> groups = GroupRuns(data.runs);
  const std::vector<BucketGroup> buckets = GroupBuckets(data);
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lanediff report</title>\n"
      "<style>", kStyle, "</style></head><body>\n");
  absl::StrAppend(&out, Header(data, groups, buckets), Buckets(buckets), Coverage(groups),
                  Statistics(groups), Matrix(data), Verdicts(data), FidelitySection(data), Sweeps(MergeSweepsWithIdentity(data.runs)),
                  Findings(data));
  if (!data.load_errors.empty()) {
    absl::StrAppend(&out, "<section id=\"load-errors\"><h2>Inputs not loaded</h2>\n");
    for (const std::string& e : data.load_errors) {
      absl::StrAppend(&out, "<p class=\"load-error\">input not loaded: ", E(e), "</p>\n");
    }
    absl::StrAppend(&out, "</section>\n");
  }
  absl::StrAppend(&out, "</body></html>\n");
  return out;
}

}  // namespace lanediff
