// The minimizer: shrinks a test case that shows a disagreement to the simplest one that still
// does. Order: one lane; then, field by field, simpler values (0, the canonical NaN, the sign
// cleared, then single set bits cleared from the top: fewer set bits and smaller magnitude,
// the sparsest seed, the lowest byte select); then the fewest modifier bits (NEG, ABS, CLAMP,
// OMOD, OPSEL, non-VGPR sources back to VGPRs, raw-word modifier bits); then the fewest MODE
// bits (default MODE first). Deterministic: the same case and predicate give the same result.
//
// The predicate runs both sides (model and device) and says whether the case still disagrees;
// the caller re-runs the result on both sides before storing it (the campaign does).
//
//   StillFails pred = [&](const proto::TestCase& tc) -> absl::StatusOr<bool> { ... };
//   LANEDIFF_ASSIGN_OR_RETURN(proto::TestCase small, Minimize(big, pred, {.hint_lanes = bad}));
#ifndef LANEDIFF_FUZZ_MINIMIZE_H_
#define LANEDIFF_FUZZ_MINIMIZE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// True when `tc` still shows the disagreement. An error Status counts as "no" for a candidate
// (a candidate the device refuses or faults on is not simpler); it is counted in stats.
using StillFails = std::function<absl::StatusOr<bool>(const proto::TestCase&)>;

struct MinimizeOptions {
  std::vector<size_t> hint_lanes;  // lanes known to differ: tried alone first
  int max_calls = 2000;            // budget of predicate calls
};

struct MinimizeStats {
  int calls = 0;
  int errors = 0;     // candidates whose predicate returned an error
  bool budget_exhausted = false;
};

// Errors only if the predicate fails (or errors) on `tc` itself: then there is nothing to
// minimize, and the error says so.
absl::StatusOr<proto::TestCase> Minimize(const proto::TestCase& tc, const StillFails& still_fails,
                                         const MinimizeOptions& options = {},
                                         MinimizeStats* stats = nullptr);

// f32 NaN test and the canonical quiet NaN the minimizer prefers.
inline constexpr uint32_t kCanonicalNan = 0x7fc00000;
inline bool IsF32Nan(uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu); }

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_MINIMIZE_H_
