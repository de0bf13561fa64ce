// The minimizer: shrinks a test case that shows a disagreement to the simplest one that still
// does. Order: one lane; then, field by field, simpler values (0, the canonical NaN, runs of low
// bits cleared, then single set bits cleared: fewer set bits and smaller magnitude, the
// sparsest seed, the lowest byte select); then the fewest modifier bits (NEG, ABS, CLAMP,
// OMOD, OPSEL, non-VGPR sources back to VGPRs, raw-word modifier bits); then the fewest MODE
// bits (default MODE first). Deterministic: the same case and predicate give the same result.
//
// Few device calls: the predicate takes a list of candidates and answers each, so a caller
// that runs a device can run every candidate sharing a launch (the same words, MODE and SGPR
// values) as lanes of one batch (the campaign does: fuzz/engine/campaign_disagreement.cc).
// The minimizer asks in rounds: the original case and each lane alone, together; every
// simpler value of every operand word of a lane, together, then the chosen ones combined (each
// prefix of the combination, together); all modifier bits cleared at once (with and without
// NEG/ABS folded into the values) before bit by bit. Candidates that change the word or MODE
// (a modifier bit, a MODE bit, an SGPR's or literal's value) are one launch each.
//
// The predicate runs both sides (model and device) and says whether the case still disagrees;
// the caller re-runs the result on both sides before storing it (the campaign does).
//
//   StillFailsBatch pred = [&](const std::vector<proto::TestCase>& cands) { ... };
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
// The same for a list of candidates: one answer per candidate, in order.
using StillFailsBatch =
    std::function<std::vector<absl::StatusOr<bool>>(const std::vector<proto::TestCase>&)>;

struct MinimizeOptions {
  std::vector<size_t> hint_lanes;  // lanes known to differ: tried alone first
  int max_calls = 2000;            // budget of candidates asked about
};

struct MinimizeStats {
  int calls = 0;      // candidates asked about
  int batches = 0;    // predicate calls (lists of candidates)
  int errors = 0;     // candidates whose predicate returned an error
  bool budget_exhausted = false;
};

// Errors only if the predicate fails (or errors) on `tc` itself: then there is nothing to
// minimize, and the error says so.
absl::StatusOr<proto::TestCase> Minimize(const proto::TestCase& tc, const StillFailsBatch& still_fails,
                                         const MinimizeOptions& options = {},
                                         MinimizeStats* stats = nullptr);
// With a one-candidate predicate, asked once per candidate (stats->batches == stats->calls).
absl::StatusOr<proto::TestCase> Minimize(const proto::TestCase& tc, const StillFails& still_fails,
                                         const MinimizeOptions& options = {},
                                         MinimizeStats* stats = nullptr);

// f32 NaN test and the canonical quiet NaN the minimizer prefers.
inline constexpr uint32_t kCanonicalNan = 0x7fc00000;
inline bool IsF32Nan(uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu); }

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_MINIMIZE_H_
