// One case's two sides: the model's answer and the device batch prepared from one resolution,
// the device's answer compared (RunBothSides, fuzz/engine/campaign.h; the halves are
// campaign_internal.h's PrepareBothSides, PrepareSibling and FinishBothSides).
#include <optional>
#include <utility>

#include "device_harness/batch.h"
#include "device_harness/resolve_case.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/engine/campaign_internal.h"
#include "fuzz/engine/lane_gen.h"
#include "model/base/status.h"
#include "model/isa/resolve.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace campaign_internal {

absl::Status PrepareBothSides(const FlatCase& c, const Hypotheses& hyp, BothSides* b, DeviceBatch* batch,
                              bool allow_undefined, bool copy_lanes, LaneRouting* routing_out,
                              const AimHeader* pre) {
  std::optional<ResolvedCase> owned;
  LaneRouting owned_routing;
  if (pre == nullptr) {
    LANEDIFF_ASSIGN_OR_RETURN(owned, ResolveHeader(c.header, &owned_routing));
  } else {
    LANEDIFF_RETURN_IF_ERROR(pre->rc.status());
  }
  const ResolvedCase& rc = pre == nullptr ? *owned : *pre->rc;
  const LaneRouting& routing = pre == nullptr ? owned_routing : pre->routing;
  if (routing_out != nullptr) *routing_out = routing;
  b->resolved = ResolveLanes(routing, c.lanes.view(), &b->uniform);
  b->ctx = rc.ctx;
  b->ctx.hyp = hyp;
  b->expected.resize(OutputWords(b->ctx.instr, c.size()));
  LANEDIFF_RETURN_IF_ERROR(Evaluate(b->ctx, b->resolved, absl::MakeSpan(b->expected)));
  // The device batch from the same resolution (the words encoded once, the same SGPR values).
  if (copy_lanes) {
    LANEDIFF_ASSIGN_OR_RETURN(*batch, BuildDeviceBatch(rc, c.lanes.view(), allow_undefined));
  } else {
    LANEDIFF_ASSIGN_OR_RETURN(*batch, BuildDeviceBatchHeader(rc, c.size(), allow_undefined));
  }
  return absl::OkStatus();
}

absl::Status PrepareSibling(const FlatCase& c, const BothSides& first, const DeviceBatch& first_batch,
                            const LaneRouting& routing, BothSides* b, DeviceBatch* batch) {
  b->resolved = ResolveLanes(routing, c.lanes.view(), &b->uniform);
  b->ctx = first.ctx;
  b->expected.resize(OutputWords(b->ctx.instr, c.size()));
  LANEDIFF_RETURN_IF_ERROR(Evaluate(b->ctx, b->resolved, absl::MakeSpan(b->expected)));
  *batch = first_batch;  // header only: its lanes are empty
  return absl::OkStatus();
}

void FinishBothSides(absl::StatusOr<DeviceResult> r, const Relaxations& relax, BothSides* b) {
  if (!r.ok()) {
    b->device_status = r.status();
    return;
  }
  b->observed = std::move(r->vdst);
  b->device_provenance = std::move(r->provenance);
  b->differing = DifferingLanes(b->ctx, b->resolved, b->expected, b->observed, relax);
}

}  // namespace campaign_internal

absl::StatusOr<BothSides> RunBothSides(const proto::TestCase& tc, const Hypotheses& hyp,
                                       Runner& runner, const Relaxations& relax,
                                       bool allow_undefined) {
  const FlatCase c = Flatten(tc);
  LANEDIFF_ASSIGN_OR_RETURN(BothSides b, RunBothSides(c, hyp, runner, relax, allow_undefined));
  b.resolved = {};  // pointed into `c`
  return b;
}

absl::StatusOr<BothSides> RunBothSides(const FlatCase& c, const Hypotheses& hyp, Runner& runner,
                                       const Relaxations& relax, bool allow_undefined) {
  BothSides b;
  DeviceBatch batch;
  LANEDIFF_RETURN_IF_ERROR(campaign_internal::PrepareBothSides(c, hyp, &b, &batch, allow_undefined));
  campaign_internal::FinishBothSides(runner.Run(batch), relax, &b);
  return b;
}

}  // namespace lanediff
