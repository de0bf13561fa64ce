#include "fuzz/report/text.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/match.h"
#include "fuzz/triage/render.h"
#include "fuzz/triage/run_identity.h"

namespace lanediff {

std::string FormatSeconds(double s) {
  if (!std::isfinite(s) || s < 0) return "-";
  if (s < 60) return absl::StrFormat("%.1f s", s);
  const uint64_t t = static_cast<uint64_t>(std::llround(s));
  if (t < 3600) return absl::StrFormat("%d min %02d s", t / 60, t % 60);
  return absl::StrFormat("%s h %02d min", Thousands(t / 3600), (t % 3600) / 60);
}

std::string LaneRate(uint64_t lanes, double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds)) return "-";
  return absl::StrCat(Thousands(static_cast<uint64_t>(std::llround(double(lanes) / seconds))),
                      " lanes/s");
}

std::string SeedsText(const std::vector<uint64_t>& seeds) {
  if (seeds.empty()) return "-";
  if (seeds.size() <= 4) return absl::StrJoin(seeds, ", ");
  return absl::StrCat(seeds.front(), "..", seeds.back(), " (", seeds.size(), " seeds)");
}

std::string VersionText(const proto::RunIdentity& id) {
  if (id.lanediff_version().empty() && id.git_commit().empty()) return "unknown";
  return absl::StrCat(id.lanediff_version().empty() ? "?" : id.lanediff_version(), " (commit ",
                      id.git_commit().empty() ? "unknown" : id.git_commit(), ")");
}

std::vector<std::pair<std::string, std::string>> IdentityFields(const RunGroup& g) {
  const proto::RunIdentity& id = g.identity;
  std::vector<std::string> setup;
  if (id.injected_size() > 0) setup.push_back("injected " + absl::StrJoin(id.injected(), ", "));
  if (id.hypotheses_size() > 0) setup.push_back("model " + absl::StrJoin(id.hypotheses(), " "));
  return {
      {"device", IdentityLabel(id)},
      {"device name", id.device_name().empty() ? (id.device_kind().empty() ? "-" : id.device_kind())
                                               : id.device_name()},
      {"driver / ISA", id.driver().empty() ? "not recorded" : id.driver()},
      {"errata, hypotheses", setup.empty() ? "none" : absl::StrJoin(setup, "; ")},
      {"seed", SeedsText(g.seeds)},
      {"lanediff", VersionText(id)},
      {"date", g.first_date == g.last_date ? (g.first_date.empty() ? "-" : g.first_date)
                                           : absl::StrCat(g.first_date, " .. ", g.last_date)},
      {"duration", FormatSeconds(g.seconds)},
      {"runs", Thousands(g.runs.size())},
      {"cases", Thousands(g.cases)},
      {"lanes", Thousands(g.lanes)},
      {"rate", LaneRate(g.lanes, g.seconds)},
  };
}

std::array<int, 4> StatusCounts(const std::vector<BucketGroup>& groups) {
  std::array<int, 4> n{};  // NEW, REGRESSED, KNOWN, FIXED
  for (const BucketGroup& g : groups) {
    for (const TriageRow& r : g.rows) {
      switch (r.status) {
        case BucketStatus::kNew: ++n[0]; break;
        case BucketStatus::kRegressed: ++n[1]; break;
        case BucketStatus::kKnown: ++n[2]; break;
        case BucketStatus::kFixed: ++n[3]; break;
      }
    }
  }
  return n;
}

std::string Verdict(const std::array<int, 4>& n) {
  const std::string rest = absl::StrFormat("%d KNOWN, %d FIXED", n[2], n[3]);
  if (n[0] + n[1] == 0) return absl::StrCat("Nothing NEW or REGRESSED (", rest, ")");
  return absl::StrFormat("%d NEW, %d REGRESSED root cause(s) (%s)", n[0], n[1], rest);
}

std::string TopAttributes(const Bucket& b, const std::string& kind, size_t max) {
  std::vector<std::pair<uint64_t, std::string>> v;
  const std::string prefix = kind + ":";
  for (const auto& [name, n] : b.attributes) {
    if (absl::StartsWith(name, prefix)) v.push_back({n, name.substr(prefix.size())});
  }
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& c) {
    return a.first != c.first ? a.first > c.first : a.second < c.second;
  });
  std::vector<std::string> parts;
  for (size_t i = 0; i < v.size() && i < max; ++i) {
    parts.push_back(absl::StrCat(kind == "mode" ? "0x" : "", v[i].second, " ", Thousands(v[i].first)));
  }
  if (v.size() > max) parts.push_back(absl::StrCat(v.size() - max, " more"));
  return parts.empty() ? "-" : absl::StrJoin(parts, ", ");
}

std::vector<CoverageRows> CoverageTable(const RunGroup& g, size_t max) {
  std::map<std::pair<std::string, std::string>, std::vector<proto::CoverageCell>> by;
  for (const proto::CoverageCell& c : g.coverage) {
    by[{proto::Instruction_Name(c.instr()), c.target()}].push_back(c);
  }
  std::vector<CoverageRows> out;
  for (auto& [key, cells] : by) {
    CoverageRows r;
    r.instr = key.first;
    r.target = key.second;
    std::sort(cells.begin(), cells.end(), [](const auto& a, const auto& b) {
      return a.lanes() != b.lanes() ? a.lanes() > b.lanes()
                                    : std::tie(a.shape(), a.mode_class()) < std::tie(b.shape(), b.mode_class());
    });
    for (size_t i = 0; i < cells.size(); ++i) {
      r.total.set_lanes(r.total.lanes() + cells[i].lanes());
      r.total.set_cases(r.total.cases() + cells[i].cases());
      if (i < max) {
        r.top.push_back(cells[i]);
      } else {
        r.rest.set_lanes(r.rest.lanes() + cells[i].lanes());
        r.rest.set_cases(r.rest.cases() + cells[i].cases());
        ++r.rest_cells;
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace lanediff
