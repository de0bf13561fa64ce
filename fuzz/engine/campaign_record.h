// What a campaign leaves for the report besides its counters (proto/report.proto
// CampaignSummary): the lanes it ran per target x instruction x operand shape x MODE class,
// and its counters sampled over time. Both bounded whatever the run length.
//
//   CoverageTally cov;
//   cov.Add("gfx950", InstrToProto(instr), "src1_inline", ModeClass(0xf0), 1024);
//   Timeline t;
//   t.Offer({seconds, cases, lanes, findings, buckets});   // cheap: call it every batch
//   for (const proto::CoverageCell& c : cov.Cells()) ...; t.samples()
#ifndef LANEDIFF_FUZZ_CAMPAIGN_RECORD_H_
#define LANEDIFF_FUZZ_CAMPAIGN_RECORD_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "proto/report.pb.h"

namespace lanediff {

// Cells kept per campaign; past it, new shapes of a target x instruction x MODE class are
// counted under shape kOtherShapes (the mutator draws thousands of modifier sets: a 12 s
// campaign over every target with --jobs 2 filled 2,198 cells).
inline constexpr size_t kMaxCoverageCells = 4096;
inline constexpr const char* kOtherShapes = "(other shapes, past the cell limit)";
// Points kept per timeline: when full, every other point is dropped and the spacing doubles.
inline constexpr size_t kMaxTimelineSamples = 64;

class CoverageTally {
 public:
  void Add(const std::string& target, proto::Instruction instr, const std::string& shape,
           const std::string& mode_class, uint64_t lanes, uint64_t cases = 1);
  void Add(const proto::CoverageCell& cell) {
    Add(cell.target(), cell.instr(), cell.shape(), cell.mode_class(), cell.lanes(), cell.cases());
  }
  // Sorted by target, instruction, shape, MODE class.
  std::vector<proto::CoverageCell> Cells() const;
  size_t size() const { return cells_.size(); }

 private:
  std::map<std::string, proto::CoverageCell> cells_;
};

class Timeline {
 public:
  // Keeps `s` when at least the current spacing (1 s at first) has passed since the last
  // point kept; the first offer is always kept.
  void Offer(const proto::StatsSample& s);
  // Whether Offer would keep a sample taken at `seconds` (so one is built only then).
  bool Wants(double seconds) const;
  // The final counters: always kept (replacing a last point at the same time).
  void Close(const proto::StatsSample& s);
  const std::vector<proto::StatsSample>& samples() const { return samples_; }

 private:
  std::vector<proto::StatsSample> samples_;
  double spacing_ = 1;
};

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CAMPAIGN_RECORD_H_
