// The comparator: strict, every bit of every lane. Each relaxation is a named flag, off by
// default, printed in every summary and stored in every finding (proto Finding.relaxations).
//
//   LANEDIFF_ASSIGN_OR_RETURN(Relaxations relax, ParseRelaxations({"nan_payload"}));
//   std::vector<size_t> bad = DifferingLanes(ctx, lanes.view(), expected, observed, relax);
//
// Relaxations:
//   nan_payload      any NaN equals any NaN in each written element's output format (the
//                    op says which: OutputIsNan, model/ops/ops.h). Integer outputs have none.
//   unwritten_bytes  compare only the bits the instruction writes (WrittenMask,
//                    model/targets/targets.h); the others are ignored.
#ifndef LANEDIFF_FUZZ_COMPARE_H_
#define LANEDIFF_FUZZ_COMPARE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "model/ops/ops.h"

namespace lanediff {

struct Relaxations {
  bool nan_payload = false;
  bool unwritten_bytes = false;
  bool any() const { return nan_payload || unwritten_bytes; }
};

// Every relaxation name, for --help.
std::vector<std::string> AllRelaxationNames();

// Parses names (each may also be a comma list); the error lists the valid names.
absl::StatusOr<Relaxations> ParseRelaxations(const std::vector<std::string>& names);

// The names in force, in a fixed order (empty = strict).
std::vector<std::string> RelaxationNames(const Relaxations& r);

// "strict" or "relaxed: nan_payload,unwritten_bytes": for summaries.
std::string DescribeRelaxations(const Relaxations& r);

// Whether one lane's words agree under `relax`. `src1` is the lane's resolved S1.
bool LaneAgrees(const OpContext& ctx, uint32_t src1, uint32_t expected, uint32_t observed,
                const Relaxations& relax);

// Indices of the lanes that differ (empty = agreement). `expected` and `observed` hold
// DstWords(ctx.instr) words per lane (lane i's at [i*W, i*W + W)); a lane differs when any of
// its words does. If the sizes differ, every lane past the shorter is reported as differing.
std::vector<size_t> DifferingLanes(const OpContext& ctx, const LaneView& lanes,
                                   absl::Span<const uint32_t> expected,
                                   absl::Span<const uint32_t> observed, const Relaxations& relax);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_COMPARE_H_
