#include "fuzz/report/plots.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/report/escape.h"
#include "fuzz/triage/render.h"
#include "model/isa/testcase.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string InstrString(proto::Instruction i) { return proto::Instruction_Name(i); }

// A plot frame: the plotting area [L, L+pw] x [T, T+ph] inside a W x H viewBox, with room on
// the left for tick labels and the rotated y title, and below for tick labels and the x title.
struct Frame {
  int W = 640, H = 360, L = 78, R = 16, T = 12, B = 52;
  int pw() const { return W - L - R; }
  int ph() const { return H - T - B; }
  double X(double x, double x0, double x1) const {
    return L + (x1 > x0 ? (x - x0) / (x1 - x0) : 0) * pw();
  }
  double Y(double y, double y0, double y1) const {
    return T + (1 - (y1 > y0 ? (y - y0) / (y1 - y0) : 0)) * ph();
  }
};

std::string SvgOpen(const std::string& id, const Frame& f, const std::string& aria) {
  return absl::StrFormat(
      "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n"
      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#888\"/>\n",
      id, f.W, f.H, f.W, f.H, XmlEscape(aria), f.L, f.T, f.pw(), f.ph());
}

// Tick labels on both axes and the two axis titles.
std::string Axes(const Frame& f, const std::vector<std::pair<double, std::string>>& xticks,
                 double x0, double x1, const std::vector<std::pair<double, std::string>>& yticks,
                 double y0, double y1, const std::string& xtitle, const std::string& ytitle) {
  std::string svg;
  for (const auto& [v, text] : xticks) {
    const double x = f.X(v, x0, x1);
    absl::StrAppend(&svg, absl::StrFormat(
        "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>"
        "<text class=\"tick\" x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
        x, f.T + f.ph(), x, f.T + f.ph() + 4, x, f.T + f.ph() + 16, XmlEscape(text)));
  }
  for (const auto& [v, text] : yticks) {
    const double y = f.Y(v, y0, y1);
    absl::StrAppend(&svg, absl::StrFormat(
        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\"/>"
        "<text class=\"tick\" x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
        f.L - 4, y, f.L, y, f.L - 6, y + 4, XmlEscape(text)));
  }
  absl::StrAppend(&svg, absl::StrFormat(
      "<text class=\"axis-title\" x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n"
      "<text class=\"axis-title\" x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
      "text-anchor=\"middle\">%s</text>\n",
      f.L + f.pw() / 2, f.H - 10, XmlEscape(xtitle), f.T + f.ph() / 2, f.T + f.ph() / 2,
      XmlEscape(ytitle)));
  return svg;
}

// Compact tick numbers: 0.25, 1,234 below 10^5, then 120k, 3.4M, 1.2G.
std::string Compact(double v) {
  if (v >= 1e9) return absl::StrFormat("%.3gG", v / 1e9);
  if (v >= 1e6) return absl::StrFormat("%.3gM", v / 1e6);
  if (v >= 1e5) return absl::StrFormat("%.3gk", v / 1e3);
  if (v != std::floor(v)) return absl::StrFormat("%.3g", v);
  return Thousands(static_cast<uint64_t>(std::llround(std::max(0.0, v))));
}

// A "nice" upper bound at or above `v` (1, 2, 5 x 10^k) and its quarter ticks.
double NiceMax(double v) {
  if (!(v > 0) || !std::isfinite(v)) return 1;
  const double p = std::pow(10, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * p >= v) return m * p;
  }
  return 10 * p;
}

std::string Legend(const std::vector<std::pair<std::string, std::string>>& entries) {
  if (entries.empty()) return "";
  std::string out = "<span class=\"legend\">";
  for (const auto& [color, name] : entries) {
    absl::StrAppend(&out, "<span class=\"key\"><span class=\"swatch\" style=\"background:", color,
                    "\"></span>", XmlEscape(name), "</span> ");
  }
  return out + "</span>";
}

}  // namespace

std::string SrProbabilityFigure(const std::vector<proto::SweepResult>& sweeps) {
  std::map<std::string, std::vector<std::pair<double, double>>> series;
  uint64_t seeds = 0;
  for (const auto& s : sweeps) {
    if (s.swept() != "seed" || s.lanes() == 0 || !(s.fraction() >= 0 && s.fraction() <= 1)) continue;
    const std::string key = absl::StrCat(s.target(), " ", InstrString(s.instr()));
    series[key + " model"].push_back({s.fraction(), double(s.round_up_model()) / s.lanes()});
    series[absl::StrCat(key, " device: ", s.device(), ", ", DeviceLabel(s.device()))].push_back(
        {s.fraction(), double(s.round_up_device()) / s.lanes()});
    seeds = std::max<uint64_t>(seeds, s.lanes());
  }
  Frame f;
  std::string svg = SvgOpen("sr-probability", f, "SR round-up probability against src0's position");
  std::vector<std::pair<double, std::string>> ticks;
  for (int k = 0; k <= 4; ++k) ticks.push_back({k / 4.0, absl::StrFormat("%.2f", k / 4.0)});
  absl::StrAppend(&svg, Axes(f, ticks, 0, 1, ticks, 0, 1,
                             "src0's fractional position between its two neighbours (0..1)",
                             "P(round up), fraction of seeds"));
  absl::StrAppend(&svg, absl::StrFormat(
      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" stroke-dasharray=\"4\"/>\n",
      f.X(0, 0, 1), f.Y(0, 0, 1), f.X(1, 0, 1), f.Y(1, 0, 1)));
  std::vector<std::pair<std::string, std::string>> legend = {{"#bbb", "ideal: P(up) = position"}};
  int n = 0;
  for (auto& [name, pts] : series) {
    std::sort(pts.begin(), pts.end());
    const char* color = kColors[n % 8];
    std::string path;
    for (const auto& [x, y] : pts) {
      absl::StrAppend(&path, path.empty() ? "M" : " L",
                      absl::StrFormat("%.1f %.1f", f.X(x, 0, 1), f.Y(y, 0, 1)));
    }
    absl::StrAppend(&svg, absl::StrFormat(
        "<path class=\"series\" d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", path,
        color, (n % 2) ? " stroke-dasharray=\"6 3\"" : ""));
    for (const auto& [x, y] : pts) {
      absl::StrAppend(&svg, absl::StrFormat("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>",
                                            f.X(x, 0, 1), f.Y(y, 0, 1), color));
    }
    legend.push_back({color, name});
    ++n;
  }
  if (n == 0) {
    absl::StrAppend(&svg, absl::StrFormat(
        "<text x=\"%d\" y=\"%d\" font-size=\"13\">no seed sweep in these runs</text>\n", f.L + 20, f.T + 30));
  }
  absl::StrAppend(&svg, "</svg>\n");
  return absl::StrCat(
      "<figure id=\"sr-probability-figure\">", svg,
      "<figcaption>Stochastic rounding: for each boundary src0, the fraction of all ",
      Thousands(seeds), " seeds that rounded up, by the model and by the device, against src0's "
      "position between the two neighbouring outputs; an unbiased rounding follows the dashed "
      "diagonal. ", Legend(legend), "</figcaption></figure>\n");
}

bool PlotsSrc0Map(const InstrInfo& row) {
  return row.src[0] == SrcRole::data_f32 && row.src[1] != SrcRole::sr_seed;
}

std::string Src0MapFigure(const std::vector<proto::SweepResult>& sweeps) {
  // The plotted rows (PlotsSrc0Map), in row order: two heat-map rows each, its sign.
  std::vector<Instr> rows;
  for (Instr i : kAllInstrs) {
    if (PlotsSrc0Map(GetInstrInfo(i))) rows.push_back(i);
  }
  const int n = static_cast<int>(rows.size());
  std::vector<uint64_t> counts(512 * std::max(n, 1), 0);
  uint64_t lanes = 0, total = 0;
  for (const auto& s : sweeps) {
    int k = 0;
    while (k < n && static_cast<int>(InstrToProto(rows[k])) != static_cast<int>(s.instr())) ++k;
    if (k == n) continue;
    lanes += s.lanes();
    for (int i = 0; i < s.mismatch_by_exponent_size() && i < 512; ++i) {
      counts[512 * k + i] += s.mismatch_by_exponent(i);
      total += s.mismatch_by_exponent(i);
    }
  }
  const uint64_t peak = std::max<uint64_t>(1, *std::max_element(counts.begin(), counts.end()));
  Frame f;
  const int cell = 2, rowh = 40;
  f.L = 190;  // room for "<mnemonic> < 0"
  f.R = 18;
  f.W = f.L + 256 * cell + f.R;
  f.H = f.T + 2 * std::max(n, 1) * rowh + f.B;  // rows: instruction x sign; columns: exponent
  std::string svg = SvgOpen("src0-map", f, "disagreements by instruction, sign and exponent of src0");
  std::vector<std::pair<double, std::string>> yticks;
  for (int k = 0; k < n; ++k) {
    for (int sign = 0; sign < 2; ++sign) {
      const int band = 2 * k + sign;  // from the top
      yticks.push_back({2 * n - band - 0.5, absl::StrCat(InstrName(rows[k]), sign ? " < 0" : " >= 0")});
      for (int e = 0; e < 256; ++e) {
        const uint64_t c = counts[512 * k + sign * 256 + e];
        // Pale green for none; red by log count otherwise.
        std::string fill = "#eef3ee";
        if (c > 0) {
          const double t = std::log1p(double(c)) / std::log1p(double(peak));
          fill = absl::StrFormat("rgb(%d,%d,%d)", 255, int(200 * (1 - t)), int(200 * (1 - t)));
        }
        absl::StrAppend(&svg, absl::StrFormat(
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s, exponent %d, %s: %s lanes</title></rect>",
            f.L + e * cell, f.T + band * rowh, cell, rowh - 2, fill, InstrName(rows[k]), e,
            sign ? "negative" : "positive", Thousands(c)));
      }
      absl::StrAppend(&svg, "\n");
    }
  }
  if (n == 0) {
    absl::StrAppend(&svg, absl::StrFormat(
        "<text x=\"%d\" y=\"%d\" font-size=\"13\">no instruction with an f32 src0 and no seed</text>\n",
        f.L + 20, f.T + 30));
  }
  absl::StrAppend(&svg, Axes(f, {{0, "0"}, {64, "64"}, {127, "127"}, {192, "192"}, {255, "255"}}, 0, 256,
                             yticks, 0, 2 * std::max(n, 1),
                             "f32 biased exponent of src0 (127 = 1.0, 134 = 128.0)", "instruction, sign"));
  absl::StrAppend(&svg, "</svg>\n");
  return absl::StrCat(
      "<figure id=\"src0-map-figure\">", svg,
      "<figcaption>Every instruction with an f32 src0 and no seed: where the ", Thousands(total),
      " disagreeing lanes of ", Thousands(lanes), " swept fall, by the sign and biased exponent of "
      "src0 (one column per exponent). Pale green: none; red: disagreements, darker for more (log "
      "scale, ", Thousands(peak), " at the darkest).</figcaption></figure>\n");
}

std::string TimelineFigures(const std::vector<RunGroup>& groups) {
  struct Plot {
    const char* id;
    const char* ytitle;
    const char* what;
    uint64_t (*get)(const proto::StatsSample&);
  };
  const Plot plots[] = {
      {"lanes-over-time", "lanes run (cumulative)", "Lanes run",
       [](const proto::StatsSample& s) { return s.lanes(); }},
      {"buckets-over-time", "buckets seen (cumulative)", "Root-cause buckets seen (summed over campaigns)",
       [](const proto::StatsSample& s) { return s.buckets(); }},
  };
  std::string out;
  for (const Plot& p : plots) {
    double xmax = 0, ymax = 0;
    for (const RunGroup& g : groups) {
      for (const proto::StatsSample& s : g.timeline) {
        if (std::isfinite(s.seconds())) xmax = std::max(xmax, s.seconds());
        ymax = std::max(ymax, double(p.get(s)));
      }
    }
    xmax = NiceMax(xmax);
    ymax = NiceMax(ymax);
    Frame f;
    std::string svg = SvgOpen(p.id, f, p.what);
    std::vector<std::pair<double, std::string>> xt, yt;
    for (int k = 0; k <= 4; ++k) {
      xt.push_back({xmax * k / 4, Compact(xmax * k / 4)});
      yt.push_back({ymax * k / 4, Compact(ymax * k / 4)});
    }
    absl::StrAppend(&svg, Axes(f, xt, 0, xmax, yt, 0, ymax,
                               "campaign time (seconds; the campaigns of one identity end to end)",
                               p.ytitle));
    std::vector<std::pair<std::string, std::string>> legend;
    int n = 0;
    for (const RunGroup& g : groups) {
      if (g.timeline.empty()) continue;
      const char* color = kColors[n % 8];
      std::string path;
      for (const proto::StatsSample& s : g.timeline) {
        if (!std::isfinite(s.seconds()) || s.seconds() < 0) continue;
        absl::StrAppend(&path, path.empty() ? "M" : " L",
                        absl::StrFormat("%.1f %.1f", f.X(s.seconds(), 0, xmax),
                                        f.Y(double(p.get(s)), 0, ymax)));
      }
      absl::StrAppend(&svg, absl::StrFormat(
          "<path class=\"series\" d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", path, color));
      legend.push_back({color, absl::StrCat(g.label, " ", g.identity.device_name())});
      ++n;
    }
    if (n == 0) {
      absl::StrAppend(&svg, absl::StrFormat(
          "<text x=\"%d\" y=\"%d\" font-size=\"13\">no campaign timeline in these runs</text>\n",
          f.L + 20, f.T + 30));
    }
    absl::StrAppend(&svg, "</svg>\n");
    absl::StrAppend(&out, "<figure id=\"", p.id, "-figure\">", svg, "<figcaption>", p.what,
                    " against campaign time, one line per run identity (never summed across "
                    "identities); points are sampled while each campaign ran. ",
                    Legend(legend), "</figcaption></figure>\n");
  }
  return out;
}

}  // namespace lanediff
