#include "fuzz/engine/campaign_record.h"

#include "absl/strings/str_cat.h"

namespace lanediff {

void CoverageTally::Add(const std::string& target, proto::Instruction instr,
                        const std::string& shape, const std::string& mode_class, uint64_t lanes,
                        uint64_t cases) {
  std::string key = absl::StrCat(target, "\t", static_cast<int>(instr), "\t", shape, "\t", mode_class);
  auto it = cells_.find(key);
  if (it == cells_.end()) {
    if (cells_.size() >= kMaxCoverageCells && shape != kOtherShapes) {
      Add(target, instr, kOtherShapes, mode_class, lanes, cases);
      return;
    }
    proto::CoverageCell c;
    c.set_target(target);
    c.set_instr(instr);
    c.set_shape(shape);
    c.set_mode_class(mode_class);
    it = cells_.emplace(std::move(key), std::move(c)).first;
  }
  it->second.set_lanes(it->second.lanes() + lanes);
  it->second.set_cases(it->second.cases() + cases);
}

std::vector<proto::CoverageCell> CoverageTally::Cells() const {
  std::vector<proto::CoverageCell> out;
  out.reserve(cells_.size());
  for (const auto& [key, c] : cells_) out.push_back(c);
  return out;
}

bool Timeline::Wants(double seconds) const {
  return samples_.empty() || seconds >= samples_.back().seconds() + spacing_;
}

void Timeline::Offer(const proto::StatsSample& s) {
  if (!Wants(s.seconds())) return;
  samples_.push_back(s);
  if (samples_.size() < kMaxTimelineSamples) return;
  // Full: keep every other point (the first included) and space the next ones twice as far.
  std::vector<proto::StatsSample> kept;
  for (size_t i = 0; i < samples_.size(); i += 2) kept.push_back(samples_[i]);
  samples_ = std::move(kept);
  spacing_ *= 2;
}

void Timeline::Close(const proto::StatsSample& s) {
  if (!samples_.empty() && samples_.back().seconds() >= s.seconds()) samples_.pop_back();
  samples_.push_back(s);
}

}  // namespace lanediff
