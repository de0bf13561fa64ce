// The campaign's grouping step: cases that would run the same launch - the same
// target, instruction words, MODE, SGPR values and allow_undefined - become one DeviceBatch
// with their lanes one after the other, so a GPU gets launches of 64K lanes and more instead
// of one small launch per case; the answer is split back into one result per case. This is
// where the decision is made; the harness only runs the batch it is given (the HIP runner
// cuts a large batch into launches, device_harness/hip/launch_pipeline.h, which changes no
// lane's answer).
//
//   std::vector<DeviceBatch> batches = ...;            // one per case
//   for (LaunchGroup& g : GroupLaunches(std::move(batches))) {
//     absl::StatusOr<DeviceResult> r = runner.Run(g.batch);
//     if (r.ok()) std::vector<DeviceResult> per_case = SplitResult(g, *std::move(r));
//   }
#ifndef LANEDIFF_FUZZ_LAUNCH_GROUP_H_
#define LANEDIFF_FUZZ_LAUNCH_GROUP_H_

#include <cstddef>
#include <vector>

#include "absl/types/span.h"
#include "device_harness/runner.h"

namespace lanediff {

struct LaunchGroup {
  DeviceBatch batch;           // the header of the first case; every case's lanes in order
  std::vector<size_t> cases;   // indices into GroupLaunches' input, ascending
  std::vector<size_t> offset;  // first lane of each case in batch.lanes; offset.back() = size
};

// True when the two batches run as one launch (everything but the lanes equal).
bool SameLaunch(const DeviceBatch& a, const DeviceBatch& b);

// Groups `batches` (moved from) in order of first appearance; a group holds at most
// `max_lanes` lanes (device_harness/batch.h kMaxLanesPerBatch: what any runner accepts), a case
// larger than that is a group of its own.
std::vector<LaunchGroup> GroupLaunches(std::vector<DeviceBatch> batches, size_t max_lanes);
// The same from batch headers (their lanes ignored) and each case's lanes apart: the lanes are
// copied once, straight into each group's batch (sized first, no growth), not into a batch per
// case first. `lanes` has one view per header.
std::vector<LaunchGroup> GroupLaunches(std::vector<DeviceBatch> headers, absl::Span<const LaneView> lanes,
                                       size_t max_lanes);

// One result per case of `g`, in g.cases order: its slice of VDST words, with the group's
// provenance and MODE readback. The result must have one word per lane of g.batch.
std::vector<DeviceResult> SplitResult(const LaunchGroup& g, DeviceResult r);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_LAUNCH_GROUP_H_
