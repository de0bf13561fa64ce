#include "fuzz/report/report.h"

#include "fuzz/triage/run_identity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/match.h"
#include "model/isa/testcase.h"
#include "proto/file_io.h"
#include "proto/text_format.h"
#include "proto/validate.h"

namespace lanediff {
namespace {

constexpr int kMaxMismatchExamples = 8;

std::string InstrString(proto::Instruction i) { return proto::Instruction_Name(i); }

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

// `s` with every byte sequence XML 1.0 cannot hold as a character written as "\xNN" per byte:
// invalid UTF-8, C0 controls other than tab and line ends, DEL, U+FFFE and U+FFFF.
std::string Printable(absl::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const size_t ok = ValidUtf8Prefix(s.substr(i));
    // Valid UTF-8 run [i, i + ok): copy it, except for the characters XML refuses.
    for (size_t k = i; k < i + ok; ++k) {
      const unsigned char c = static_cast<unsigned char>(s[k]);
      const bool ffff = c == 0xef && k + 2 < i + ok && static_cast<unsigned char>(s[k + 1]) == 0xbf &&
                        (static_cast<unsigned char>(s[k + 2]) & 0xfe) == 0xbe;
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
        absl::StrAppend(&out, absl::StrFormat("\\x%02x", c));
      } else if (ffff) {
        for (int j = 0; j < 3; ++j) {
          absl::StrAppend(&out, absl::StrFormat("\\x%02x", static_cast<unsigned char>(s[k + j])));
        }
        k += 2;
      } else {
        out.push_back(static_cast<char>(c));
      }
    }
    i += ok;
    if (i < s.size()) {  // one byte that starts no valid character
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", static_cast<unsigned char>(s[i])));
      ++i;
    }
  }
  return out;
}

std::string XmlEscape(absl::string_view s) {
  return absl::StrReplaceAll(Printable(s), {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"},
                                            {"\"", "&quot;"}, {"'", "&apos;"}});
}

// Markdown text (a table cell or a list item): one line, every character Markdown or inline
// HTML could act on backslash-escaped.
std::string MdEscape(absl::string_view s) {
  std::string out;
  for (char c : Printable(s)) {
    if (c == '\n' || c == '\r' || c == '\t') {
      out.push_back(' ');
      continue;
    }
    if (absl::string_view("\\`*_{}[]<>()#!|~&").find(c) != absl::string_view::npos) {
      out.push_back('\\');
    }
    out.push_back(c);
  }
  return out;
}

// A fence of backticks longer than any run of them in `s` (at least `min` long).
std::string Fence(absl::string_view s, size_t min) {
  size_t run = 0, longest = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max(min, longest + 1), '`');
}

// A fenced Markdown code block holding `s` verbatim (control bytes as "\xNN").
std::string MdCodeBlock(absl::string_view s) {
  const std::string text = Printable(s);
  const std::string fence = Fence(text, 3);
  return absl::StrCat(fence, "\n", text, "\n", fence);
}

// Inline Markdown code: one line, fenced by more backticks than it holds, space-padded.
std::string MdCode(absl::string_view s) {
  std::string text = Printable(s);
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  const std::string fence = Fence(text, 1);
  // A space inside the fence only where a backtick would otherwise touch it (CommonMark
  // strips one space from each end).
  const bool pad = text.empty() || text.front() == '`' || text.back() == '`';
  return pad ? absl::StrCat(fence, " ", text, " ", fence) : absl::StrCat(fence, text, fence);
}

using SweepKey = std::tuple<std::string, int, std::string, std::string, std::string>;

SweepKey KeyOf(const proto::SweepResult& s) {
  return {s.target(), static_cast<int>(s.instr()), s.setting(), s.device(), s.swept()};
}

}  // namespace

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
  // Only shards of one run merge: same sweep key and same run identity (device, errata,
  // hypotheses, version; fuzz/triage/run_identity.h). Different identities stay apart.
  std::vector<std::pair<std::string, const proto::SweepResult*>> all;
  for (const proto::RunRecord& r : runs) {
    for (const proto::SweepResult& s : r.sweeps()) all.push_back({IdentityKey(r.identity()), &s});
  }
  // Shards in range order, so the first examples of the merge are the first of the whole.
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(KeyOf(*a.second), a.first, a.second->first(), a.second->last()) <
           std::make_tuple(KeyOf(*b.second), b.first, b.second->first(), b.second->last());
  });
  std::vector<proto::SweepResult> merged;
  std::string merged_id;
  for (const auto& [id, p] : all) {
    const proto::SweepResult& s = *p;
    if (merged.empty() || KeyOf(merged.back()) != KeyOf(s) || merged_id != id) {
      merged_id = id;
      merged.push_back(s);
      merged.back().clear_shard();
      continue;
    }
    proto::SweepResult& m = merged.back();
    m.set_first(std::min(m.first(), s.first()));
    m.set_last(std::max(m.last(), s.last()));
    m.set_lanes(m.lanes() + s.lanes());
    m.set_mismatches(m.mismatches() + s.mismatches());
    // ValidateRunRecord makes the three lists equally long; the bound holds even if not.
    const int examples = std::min({s.mismatch_examples_size(), s.mismatch_expected_size(),
                                   s.mismatch_observed_size()});
    for (int i = 0; i < examples && m.mismatch_examples_size() < kMaxMismatchExamples; ++i) {
      *m.add_mismatch_examples() = s.mismatch_examples(i);
      m.add_mismatch_expected(s.mismatch_expected(i));
      m.add_mismatch_observed(s.mismatch_observed(i));
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
  return merged;
}

std::vector<std::vector<MatrixCell>> BuildMatrix(const ReportData& data) {
  auto targets = AllTargets();
  std::vector<std::vector<MatrixCell>> m(kNumInstrs, std::vector<MatrixCell>(targets.size()));
  struct Tally { uint64_t lanes = 0, silicon_lanes = 0, findings = 0, faults = 0, sweep_mismatches = 0; };
  std::vector<std::vector<Tally>> t(kNumInstrs, std::vector<Tally>(targets.size()));
  auto tally = [&](const std::string& target, proto::Instruction instr) -> Tally* {
    const int ti = TargetIndex(target), ii = InstrIndex(instr);
    if (ti < 0 || ii < 0 || ii >= kNumInstrs) return nullptr;
    return &t[ii][ti];
  };
  for (const proto::RunRecord& r : data.runs) {
    for (const proto::CampaignSummary& c : r.campaigns()) {
      if (Tally* x = tally(c.target(), c.instr())) {
        x->lanes += c.lanes();
        if (c.on_silicon()) x->silicon_lanes += c.lanes();
        x->findings += c.findings();
        x->faults += c.faults() + (c.fault().empty() ? 0 : 1);
      }
    }
  }
  for (const proto::SweepResult& s : MergeSweeps(data.runs)) {
    if (Tally* x = tally(s.target(), s.instr())) {
      x->lanes += s.lanes();
      if (s.device() == "hip") x->silicon_lanes += s.lanes();
      x->sweep_mismatches += s.mismatches();
      x->faults += s.fault().empty() ? 0 : 1;
    }
  }
  for (const proto::Finding& f : data.findings) {
    if (Tally* x = tally(f.testcase().target(), f.testcase().instr())) ++x->findings;
  }
  for (int i = 0; i < kNumInstrs; ++i) {
    for (size_t j = 0; j < targets.size(); ++j) {
      MatrixCell& cell = m[i][j];
      const Tally& x = t[i][j];
      if (!targets[j].Has(kAllInstrs[i])) {
        cell.status = CellStatus::kNotSupported;
        continue;
      }
      if (x.findings > 0 || x.faults > 0 || x.sweep_mismatches > 0) {
        cell.status = CellStatus::kDisagrees;
        std::vector<std::string> parts;
        if (x.findings) parts.push_back(absl::StrCat(x.findings, " finding(s)"));
        if (x.sweep_mismatches) parts.push_back(absl::StrCat(x.sweep_mismatches, " sweep lane(s)"));
        if (x.faults) parts.push_back(absl::StrCat(x.faults, " fault(s)"));
        cell.note = absl::StrJoin(parts, ", ");
      } else if (x.silicon_lanes > 0) {
        cell.status = CellStatus::kAgreesOnSilicon;
        cell.note = absl::StrCat(x.silicon_lanes, " lanes");
      } else {
        cell.status = CellStatus::kNotRun;
        cell.note = x.lanes ? absl::StrCat("simulated: ", x.lanes, " lanes agree") : "";
      }
    }
  }
  return m;
}

std::string RenderJUnit(const ReportData& data) {
  // One suite per target; a test case per campaign, per sweep, and per stored finding.
  std::map<std::string, std::vector<std::string>> cases;  // target -> <testcase> elements
  std::map<std::string, int> failures;
  auto add = [&](const std::string& target, const std::string& name, const std::string& cls,
                 double seconds, const std::string& failure) {
    std::string x = absl::StrFormat("    <testcase classname=\"%s\" name=\"%s\" time=\"%.3f\"",
                                    XmlEscape(cls), XmlEscape(name), seconds);
    if (failure.empty()) {
      absl::StrAppend(&x, "/>\n");
    } else {
      absl::StrAppend(&x, ">\n      <failure message=\"", XmlEscape(failure), "\"/>\n    </testcase>\n");
      ++failures[target];
    }
    cases[target].push_back(x);
  };
  for (const proto::RunRecord& r : data.runs) {
    for (const proto::CampaignSummary& c : r.campaigns()) {
      std::string failure;
      if (!c.fault().empty()) failure = absl::StrCat("campaign fault: ", c.fault());
      else if (c.findings() > 0) failure = absl::StrCat(c.findings(), " new finding(s)");
      add(c.target(), absl::StrCat("campaign ", InstrString(c.instr()), " on ", c.device()),
          absl::StrCat("lanediff.", c.target()), c.seconds(), failure);
    }
  }
  for (const proto::SweepResult& s : MergeSweeps(data.runs)) {
    std::string failure;
    if (!s.fault().empty()) failure = absl::StrCat("sweep fault: ", s.fault());
    else if (s.mismatches() > 0) failure = absl::StrCat(s.mismatches(), " of ", s.lanes(), " lanes disagree");
    add(s.target(), absl::StrCat("sweep ", InstrString(s.instr()), " ", s.swept(), " ", s.setting(), " vs ", s.device()),
        absl::StrCat("lanediff.", s.target()), s.seconds(), failure);
  }
  for (const proto::Finding& f : data.findings) {
    add(f.testcase().target(), absl::StrCat("finding ", f.signature()),
        absl::StrCat("lanediff.", f.testcase().target()), 0,
        absl::StrCat(proto::Finding::Kind_Name(f.kind()), ": ", f.assembly(), " (", f.input_class(),
                     ")",
                     f.undefined_by_spec().empty()
                         ? ""
                         : absl::StrCat(" undefined by spec: ", absl::StrJoin(f.undefined_by_spec(), "; ")),
                     " repro: ", f.repro()));
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lanediff\">\n";
  // (Every string below goes through XmlEscape in add() or here.)
  for (const auto& [target, xs] : cases) {
    absl::StrAppend(&out, absl::StrFormat("  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\">\n",
                                          XmlEscape(target), xs.size(), failures[target]));
    for (const std::string& x : xs) absl::StrAppend(&out, x);
    absl::StrAppend(&out, "  </testsuite>\n");
  }
  for (const std::string& e : data.load_errors) {
    absl::StrAppend(&out, "  <testsuite name=\"inputs\" tests=\"1\" failures=\"1\">\n"
                          "    <testcase classname=\"lanediff.inputs\" name=\"load\">\n"
                          "      <failure message=\"", XmlEscape(e), "\"/>\n    </testcase>\n  </testsuite>\n");
  }
  absl::StrAppend(&out, "</testsuites>\n");
  return out;
}

namespace {

std::string MatrixMarkdown(const ReportData& data) {
  auto m = BuildMatrix(data);
  auto targets = AllTargets();
  std::string out = "| instruction |";
  for (const TargetTraits& t : targets) absl::StrAppend(&out, " ", t.name, " |");
  absl::StrAppend(&out, "\n|---|");
  for (size_t j = 0; j < targets.size(); ++j) absl::StrAppend(&out, "---|");
  absl::StrAppend(&out, "\n");
  for (int i = 0; i < kNumInstrs; ++i) {
    absl::StrAppend(&out, "| ", InstrName(kAllInstrs[i]), " |");
    for (size_t j = 0; j < targets.size(); ++j) {
      const MatrixCell& c = m[i][j];
      absl::StrAppend(&out, " ", CellStatusName(c.status), c.note.empty() ? "" : absl::StrCat(" (", MdEscape(c.note), ")"), " |");
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

std::vector<proto::HypothesisVerdict> AllVerdicts(const ReportData& data) {
  std::vector<proto::HypothesisVerdict> v;
  for (const auto& r : data.runs) for (const auto& x : r.verdicts()) v.push_back(x);
  return v;
}

}  // namespace

std::string RenderMarkdown(const ReportData& data) {
  std::string out = "# lanediff report\n\n## Compatibility matrix\n\n";
  absl::StrAppend(&out, MatrixMarkdown(data));
  absl::StrAppend(&out, "\n## Hypothesis verdicts\n\n");
  auto verdicts = AllVerdicts(data);
  if (verdicts.empty()) absl::StrAppend(&out, "No discrimination run.\n");
  else absl::StrAppend(&out, "| target | instruction | device | hypothesis | device follows | questions |\n|---|---|---|---|---|---|\n");
  for (const auto& v : verdicts) {
    absl::StrAppend(&out, "| ", MdEscape(v.target()), " | ", MdEscape(InstrString(v.instr())), " | ",
                    MdEscape(v.device()), " | ", MdEscape(v.hypothesis()), " | ", MdEscape(v.verdict()),
                    " | ", v.questions(), " |\n");
  }
  absl::StrAppend(&out, "\n## Sweeps\n\n");
  auto sweeps = MergeSweeps(data.runs);
  if (sweeps.empty()) absl::StrAppend(&out, "No sweep run.\n");
  else absl::StrAppend(&out, "| target | instruction | swept | setting | device | lanes | mismatches | seconds |\n|---|---|---|---|---|---|---|---|\n");
  for (const auto& s : sweeps) {
    absl::StrAppend(&out, absl::StrFormat("| %s | %s | %s | %s | %s | %d | %d | %.1f |\n", MdEscape(s.target()),
                                          MdEscape(InstrString(s.instr())), MdEscape(s.swept()), MdEscape(s.setting()),
                                          MdEscape(s.device()), s.lanes(), s.mismatches(), s.seconds()));
  }
  absl::StrAppend(&out, "\n## Findings\n\n");
  if (data.findings.empty()) absl::StrAppend(&out, "None.\n");
  for (const proto::Finding& f : data.findings) {
    absl::StrAppend(&out, "### ", MdEscape(f.signature()), "\n\n- kind: ", MdEscape(proto::Finding::Kind_Name(f.kind())),
                    "\n- target: ", MdEscape(f.testcase().target()), ", instruction: ",
                    MdEscape(InstrString(f.testcase().instr())), "\n- input class: ", MdEscape(f.input_class()),
                    "\n- explained by: ", MdEscape(f.explained_by().empty() ? "no hypothesis" : f.explained_by()),
                    f.undefined_by_spec().empty()
                        ? std::string()
                        : absl::StrCat("\n- **undefined by spec** (run with --allow-undefined): ",
                                       MdEscape(absl::StrJoin(f.undefined_by_spec(), "; "))),
                    "\n- seen: ", f.count(), " time(s), first ", MdEscape(f.first_seen()), ", last ",
                    MdEscape(f.last_seen()), "\n\n", MdCodeBlock(f.assembly()), "\n\nrepro: ", MdCode(f.repro()),
                    "\n\n");
  }
  for (const std::string& e : data.load_errors) absl::StrAppend(&out, "\n**input not loaded:** ", MdEscape(e), "\n");
  return out;
}

namespace {

// SR round-up probability against the fractional position: one polyline per (target,
// instruction, side), plus the ideal diagonal P(up) = fraction.
std::string SrProbabilitySvg(const std::vector<proto::SweepResult>& sweeps) {
  std::map<std::string, std::vector<std::pair<double, double>>> series;
  for (const auto& s : sweeps) {
    if (s.swept() != "seed" || s.lanes() == 0) continue;
    const std::string key = absl::StrCat(s.target(), " ", InstrString(s.instr()));
    series[key + " model"].push_back({s.fraction(), double(s.round_up_model()) / s.lanes()});
    series[key + " device (" + s.device() + ")"].push_back({s.fraction(), double(s.round_up_device()) / s.lanes()});
  }
  const int W = 640, H = 400, L = 60, B = 50, R = 260, T = 20;
  const int pw = W - L - R, ph = H - T - B;
  auto X = [&](double x) { return L + x * pw; };
  auto Y = [&](double y) { return T + (1 - y) * ph; };
  std::string svg = absl::StrFormat(
      "<svg id=\"sr-probability\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"SR round-up probability\">\n"
      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#888\"/>\n",
      W, H, W, H, L, T, pw, ph);
  for (int k = 0; k <= 4; ++k) {
    const double v = k / 4.0;
    absl::StrAppend(&svg, absl::StrFormat(
        "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%.2f</text>"
        "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.2f</text>\n",
        X(v), H - B + 16, v, L - 6, Y(v) + 4, v));
  }
  absl::StrAppend(&svg, absl::StrFormat(
      "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">fractional position of src0 "
      "between the two neighbouring outputs</text>\n"
      "<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
      "text-anchor=\"middle\">P(round up) over all seeds</text>\n"
      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" stroke-dasharray=\"4\"/>\n",
      L + pw / 2, H - 12, T + ph / 2, T + ph / 2, X(0), Y(0), X(1), Y(1)));
  static const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                  "#8c564b", "#e377c2", "#17becf"};
  int n = 0;
  for (auto& [name, pts] : series) {
    std::sort(pts.begin(), pts.end());
    const char* color = kColors[n % 8];
    std::string path;
    for (const auto& [x, y] : pts) absl::StrAppend(&path, path.empty() ? "M" : " L", absl::StrFormat("%.1f %.1f", X(x), Y(y)));
    absl::StrAppend(&svg, absl::StrFormat("<path class=\"series\" d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                                          path, color, (n % 2) ? " stroke-dasharray=\"6 3\"" : ""));
    for (const auto& [x, y] : pts) absl::StrAppend(&svg, absl::StrFormat("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", X(x), Y(y), color));
    absl::StrAppend(&svg, absl::StrFormat("\n<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">%s</text>\n",
                                          W - R + 10, T + 14 + 16 * n, color, XmlEscape(name)));
    ++n;
  }
  if (n == 0) absl::StrAppend(&svg, absl::StrFormat("<text x=\"%d\" y=\"%d\" font-size=\"13\">no seed sweep in these runs</text>\n", L + 20, T + 30));
  absl::StrAppend(&svg, "</svg>\n");
  return svg;
}

// Where in f32 space pk_u8 disagreements fall: sign x biased exponent heat map.
std::string PkU8MapSvg(const std::vector<proto::SweepResult>& sweeps) {
  std::vector<uint64_t> counts(512, 0);
  uint64_t lanes = 0;
  for (const auto& s : sweeps) {
    if (s.instr() != proto::v_cvt_pk_u8_f32) continue;
    lanes += s.lanes();
    for (int i = 0; i < s.mismatch_by_exponent_size() && i < 512; ++i) counts[i] += s.mismatch_by_exponent(i);
  }
  const uint64_t peak = std::max<uint64_t>(1, *std::max_element(counts.begin(), counts.end()));
  const int cell = 2, L = 90, T = 20, rowh = 40;
  const int W = L + 256 * cell + 40, H = T + 2 * rowh + 60;
  std::string svg = absl::StrFormat(
      "<svg id=\"pk-u8-map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"pk_u8 disagreement map\">\n", W, H, W, H);
  for (int sign = 0; sign < 2; ++sign) {
    absl::StrAppend(&svg, absl::StrFormat("<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%s</text>\n",
                                          L - 6, T + sign * rowh + rowh / 2 + 4, sign ? "src0 < 0" : "src0 >= 0"));
    for (int e = 0; e < 256; ++e) {
      const uint64_t c = counts[sign * 256 + e];
      // White for none; red intensity by log count otherwise.
      std::string fill = "#eef3ee";
      if (c > 0) {
        const double t = std::log1p(double(c)) / std::log1p(double(peak));
        fill = absl::StrFormat("rgb(%d,%d,%d)", 255, int(200 * (1 - t)), int(200 * (1 - t)));
      }
      absl::StrAppend(&svg, absl::StrFormat("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>exp %d, %s: %d</title></rect>",
                                            L + e * cell, T + sign * rowh, cell, rowh - 2, fill, e, sign ? "negative" : "positive", c));
    }
    absl::StrAppend(&svg, "\n");
  }
  for (int e : {0, 64, 127, 192, 255}) {
    absl::StrAppend(&svg, absl::StrFormat("<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%d</text>",
                                          L + e * cell + 1, T + 2 * rowh + 14, e));
  }
  absl::StrAppend(&svg, absl::StrFormat(
      "\n<text x=\"%d\" y=\"%d\" font-size=\"12\">f32 biased exponent of src0 "
      "(127 = 1.0, 134 = 128.0); %d lanes swept; red = disagreements (log scale)</text>\n</svg>\n",
      L, T + 2 * rowh + 34, lanes));
  return svg;
}

std::string HtmlEscape(absl::string_view s) { return XmlEscape(s); }

}  // namespace

std::string RenderHtml(const ReportData& data) {
  auto m = BuildMatrix(data);
  auto targets = AllTargets();
  auto sweeps = MergeSweeps(data.runs);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lanediff report</title>\n"
      "<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
      "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px}th{background:#f0f0f0}"
      ".agrees{background:#c8ecc8}.disagrees{background:#f7c2c2}.notsupported{background:#eee;color:#999}"
      ".notrun{background:#fff8dc}code,pre{background:#f6f6f6;padding:2px 4px}</style></head><body>\n"
      "<h1>lanediff report</h1>\n<h2>Compatibility matrix</h2>\n<table id=\"matrix\"><tr><th>instruction</th>";
  for (const TargetTraits& t : targets) absl::StrAppend(&out, "<th>", t.name, "<br><small>", t.generation, "</small></th>");
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
                      c.note.empty() ? "" : absl::StrCat("<br><small>", HtmlEscape(c.note), "</small>"), "</td>");
    }
    absl::StrAppend(&out, "</tr>\n");
  }
  absl::StrAppend(&out, "</table>\n<h2>Hypothesis verdicts</h2>\n");
  auto verdicts = AllVerdicts(data);
  if (verdicts.empty()) absl::StrAppend(&out, "<p>No discrimination run.</p>\n");
  else {
    absl::StrAppend(&out, "<table id=\"verdicts\"><tr><th>target</th><th>instruction</th><th>device</th><th>hypothesis</th><th>device follows</th><th>questions</th></tr>\n");
    for (const auto& v : verdicts) {
      absl::StrAppend(&out, "<tr><td>", HtmlEscape(v.target()), "</td><td>", HtmlEscape(InstrString(v.instr())),
                      "</td><td>", HtmlEscape(v.device()), "</td><td>", HtmlEscape(v.hypothesis()), "</td><td>",
                      HtmlEscape(v.verdict()), "</td><td>", v.questions(), "</td></tr>\n");
    }
    absl::StrAppend(&out, "</table>\n");
  }
  absl::StrAppend(&out, "<h2>Stochastic rounding: round-up probability</h2>\n", SrProbabilitySvg(sweeps),
                  "<h2>v_cvt_pk_u8_f32: where disagreements fall</h2>\n", PkU8MapSvg(sweeps),
                  "<h2>Sweeps</h2>\n");
  if (sweeps.empty()) absl::StrAppend(&out, "<p>No sweep run.</p>\n");
  else {
    absl::StrAppend(&out, "<table id=\"sweeps\"><tr><th>target</th><th>instruction</th><th>swept</th><th>setting</th><th>device</th><th>lanes</th><th>mismatches</th><th>seconds</th></tr>\n");
    for (const auto& s : sweeps) {
      absl::StrAppend(&out, absl::StrFormat("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%.1f</td></tr>\n",
                                            HtmlEscape(s.target()), HtmlEscape(InstrString(s.instr())),
                                            HtmlEscape(s.swept()), HtmlEscape(s.setting()),
                                            HtmlEscape(s.device()), s.lanes(), s.mismatches(), s.seconds()));
    }
    absl::StrAppend(&out, "</table>\n");
  }
  absl::StrAppend(&out, "<h2>Findings</h2>\n");
  if (data.findings.empty()) absl::StrAppend(&out, "<p id=\"no-findings\">None.</p>\n");
  for (const proto::Finding& f : data.findings) {
    absl::StrAppend(&out, "<div class=\"finding\"><h3>", HtmlEscape(f.signature()), "</h3><p>",
                    HtmlEscape(proto::Finding::Kind_Name(f.kind())), " on ", HtmlEscape(f.testcase().target()),
                    ", ", HtmlEscape(InstrString(f.testcase().instr())), "; input class ", HtmlEscape(f.input_class()),
                    "; explained by ", HtmlEscape(f.explained_by().empty() ? "no hypothesis" : f.explained_by()),
                    f.undefined_by_spec().empty()
                        ? std::string()
                        : absl::StrCat("; <strong class=\"undefined-by-spec\">undefined by spec</strong> (run "
                                       "with --allow-undefined): ",
                                       HtmlEscape(absl::StrJoin(f.undefined_by_spec(), "; "))),
                    "; seen ", f.count(), " time(s)</p><pre>", HtmlEscape(f.assembly()), "</pre><p>repro: <code>",
                    HtmlEscape(f.repro()), "</code></p></div>\n");
  }
  for (const std::string& e : data.load_errors) absl::StrAppend(&out, "<p class=\"load-error\">input not loaded: ", HtmlEscape(e), "</p>\n");
  absl::StrAppend(&out, "</body></html>\n");
  return out;
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
