// Plain-text pieces the report's HTML and Markdown share (unescaped: each renderer escapes).
#ifndef LANEDIFF_FUZZ_REPORT_TEXT_H_
#define LANEDIFF_FUZZ_REPORT_TEXT_H_

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/report/report.h"
#include "proto/report.pb.h"

namespace lanediff {

// "15.2 s", "3 min 12 s", "2 h 05 min".
std::string FormatSeconds(double seconds);
// "1,234,567 lanes/s" ("-" when no time was measured).
std::string LaneRate(uint64_t lanes, double seconds);
// "7", "1, 2, 3", "11..37 (27 seeds)".
std::string SeedsText(const std::vector<uint64_t>& seeds);
// "0.1.0 (commit 6eddcc7)", "unknown".
std::string VersionText(const proto::RunIdentity& id);

// The header's fields for one run identity, in order: {name, value}.
std::vector<std::pair<std::string, std::string>> IdentityFields(const RunGroup& g);

// Buckets by status over all groups: NEW, REGRESSED, KNOWN, FIXED.
std::array<int, 4> StatusCounts(const std::vector<BucketGroup>& groups);
// "nothing NEW or REGRESSED (green)" or "2 NEW, 1 REGRESSED root cause(s) (red)".
std::string Verdict(const std::array<int, 4>& counts);

// A bucket's attribute histogram for one kind ("shape", "class", "mode"): the most seen first,
// at most `max`, as "plain 1,203, src1_inline 57, 3 more".
std::string TopAttributes(const Bucket& b, const std::string& kind, size_t max);

// A group's coverage rows for one instruction x target: the subtotal, then the `max` largest
// cells, then the rest folded into one row (shape "N more combinations").
struct CoverageRows {
  std::string instr, target;
  proto::CoverageCell total;
  std::vector<proto::CoverageCell> top;
  proto::CoverageCell rest;  // cases == 0: none
  int rest_cells = 0;
};
std::vector<CoverageRows> CoverageTable(const RunGroup& g, size_t max);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPORT_TEXT_H_
