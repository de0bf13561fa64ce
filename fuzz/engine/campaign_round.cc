// The campaign worker's first stages: generate the next case (or a round of cases sharing a
// launch), run the model and the device on them, and compare (fuzz/engine/campaign_worker.h).
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "device_harness/fault.h"
#include "fuzz/engine/campaign_worker.h"
#include "fuzz/engine/launch_group.h"
#include "model/base/status.h"

namespace lanediff {
namespace campaign_internal {

FlatCase Worker::NextCase(std::optional<AimHeader>* aimed) {
  FlatCase c;
  // Aimed or not is drawn first: a generated case that is aimed draws its lanes only where
  // aiming leaves them (a cold aim table that found fewer lanes than the case has).
  const bool aim = static_cast<int>(rng_.Below(100)) < o_.aim_percent;
  const uint64_t r = rng_.Below(10);
  const bool generated = pool_.empty() || r < 4;
  if (generated) {
    c = mutator_.GenerateFlat(rng_, /*draw_lanes=*/!aim);
  } else if (r < 8) {
    c = pool_[rng_.Below(pool_.size())];
    mutator_.MutateFlat(rng_, &c);
  } else {
    const size_t a = rng_.Below(pool_.size());  // first parent drawn first
    const size_t b = rng_.Below(pool_.size());
    c = mutator_.CrossOverFlat(rng_, pool_[a], pool_[b]);
  }
  if (aim && c.size() > 0) {
    aimed->emplace(c.header);
    const size_t n = AimLanes(rng_, hyp_, **aimed, &c, &aim_scratch_);
    if (generated && n < c.size()) (*aimed)->gen.FillFrom(rng_, &c.lanes, n);
  }
  return c;
}

absl::Status Worker::RunOne(uint64_t* consecutive_refusals) {
  std::optional<AimHeader> aimed;
  FlatCase c = NextCase(&aimed);
  absl::StatusOr<BothSides> both = BothSides{};
  DeviceBatch batch;
  if (absl::Status s = PrepareBothSides(c, hyp_, &*both, &batch, o_.allow_undefined, /*copy_lanes=*/true,
                                        nullptr, aimed ? &*aimed : nullptr);
      !s.ok()) {
    both = s;
  } else {
    FinishBothSides(runner_->Run(batch), o_.relax, &*both);  // RunBothSides, the header resolved once
  }
  return Account(c, std::move(both), /*keep_in_pool=*/true, consecutive_refusals);
}

// One round of the grouping step (launch_lanes_ > 0, a GPU by default): a case as NextCase
// makes it, then siblings with its header (the same instruction words and MODE) and fresh
// lanes, aimed as often as any case, until the round holds launch_lanes_ lanes; the model
// runs per case, the device once per group of cases sharing a launch (fuzz/engine/launch_group.h),
// and each case is then counted and handled exactly as one run alone. A group that faults is
// run again case by case, so the fault lands on the case (and lanes) that cause it.
absl::Status Worker::RunRound(uint64_t* consecutive_refusals) {
  std::vector<FlatCase> cases;
  std::optional<AimHeader> aim_header;  // the round's header resolved for aiming, once
  cases.push_back(NextCase(&aim_header));
  std::vector<BothSides> both(1);
  std::vector<DeviceBatch> batches(1);
  LaneRouting routing;
  if (absl::Status s = PrepareBothSides(cases[0], hyp_, &both[0], &batches[0], o_.allow_undefined,
                                        /*copy_lanes=*/false, &routing, aim_header ? &*aim_header : nullptr);
      !s.ok()) {
    return Account(cases[0], s, /*keep_in_pool=*/true, consecutive_refusals);  // invalid: no siblings
  }
  AddSiblings(&aim_header, &cases);
  // `cases` no longer grows: BothSides::resolved may point into its lanes from here on.
  both.resize(cases.size());
  batches.resize(cases.size());
  std::vector<absl::Status> invalid(cases.size());
  for (size_t i = 1; i < cases.size(); ++i) {
    invalid[i] = PrepareSibling(cases[i], both[0], batches[0], routing, &both[i], &batches[i]);
  }
  RunLaunches(cases, std::move(batches), invalid, &both);
  // "The device refused 50 batches in a row" counts rounds, not cases: the siblings share the
  // first case's words and MODE, so one refused launch refuses all of them (256 cases in a round
  // of 4x64K lanes at 1024 lanes a case), and counting each would stop the campaign on its
  // first refused round. The first case's outcome moves the counter; the siblings' never do.
  for (size_t i = 0; i < cases.size(); ++i) {
    absl::StatusOr<BothSides> b = invalid[i].ok() ? absl::StatusOr<BothSides>(std::move(both[i]))
                                                  : absl::StatusOr<BothSides>(invalid[i]);
    uint64_t sibling_refusals = 0;
    LANEDIFF_RETURN_IF_ERROR(Account(cases[i], std::move(b), /*keep_in_pool=*/i == 0,
                                     i == 0 ? consecutive_refusals : &sibling_refusals));
  }
  return absl::OkStatus();
}

void Worker::AddSiblings(std::optional<AimHeader>* aim_header, std::vector<FlatCase>* cases) {
  const size_t per_case = (*cases)[0].size();
  const uint64_t budget = o_.max_execs == 0 ? UINT64_MAX : o_.max_execs - stats_.execs;
  if (per_case == 0) return;
  LaneGen gen((*cases)[0].header);
  for (size_t lanes = per_case; lanes < launch_lanes_ && cases->size() < budget; lanes += per_case) {
    FlatCase c;
    c.header = (*cases)[0].header;
    c.lanes.SetShape((*cases)[0].lanes.shape());  // a tuple row's lanes: its LaneShape
    // Aimed or not is drawn first: an aimed sibling's lanes are drawn only where aiming
    // leaves them (a cold aim table that found fewer than per_case lanes).
    if (static_cast<int>(rng_.Below(100)) < o_.aim_percent) {
      c.lanes.Resize(per_case);
      if (!*aim_header) aim_header->emplace((*cases)[0].header);
      gen.FillFrom(rng_, &c.lanes, AimLanes(rng_, hyp_, **aim_header, &c, &aim_scratch_));
    } else {
      gen.Fill(rng_, &c.lanes, per_case);
    }
    cases->push_back(std::move(c));
  }
}

void Worker::RunLaunches(const std::vector<FlatCase>& cases, std::vector<DeviceBatch> batches,
                         const std::vector<absl::Status>& invalid, std::vector<BothSides>* both) {
  std::vector<size_t> index;  // batches (valid cases) -> case
  std::vector<DeviceBatch> valid;  // headers: the lanes are the cases'
  std::vector<LaneView> valid_lanes;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!invalid[i].ok()) continue;
    index.push_back(i);
    valid.push_back(std::move(batches[i]));
    valid_lanes.push_back(cases[i].lanes.view());
  }
  for (LaunchGroup& g : GroupLaunches(std::move(valid), valid_lanes, kMaxLanesPerBatch)) {
    absl::StatusOr<DeviceResult> r = runner_->Run(g.batch);
    if (r.ok() && r->vdst.size() != OutputWords(g.batch.instr, g.batch.lanes.size())) {  // no slice would be right
      r = DeviceFault(absl::StrCat(runner_->Describe(), " answered ", r->vdst.size(), " VDST words for ",
                                   g.batch.lanes.size(), " lanes"));
    }
    if (r.ok()) {
      std::vector<DeviceResult> per = SplitResult(g, *std::move(r));
      for (size_t k = 0; k < g.cases.size(); ++k) {
        FinishBothSides(std::move(per[k]), o_.relax, &(*both)[index[g.cases[k]]]);
      }
    } else if (IsDeviceFault(r.status()) && g.cases.size() > 1) {
      Note(absl::StrCat("a batch of ", g.cases.size(), " grouped cases faulted, rerun case by case: ",
                        r.status().message()));
      // A round too large for the per-batch timeout (a slow exec: device on 65,536 lanes):
      // later rounds are a quarter as large, down to one case a batch.
      if (absl::IsDeadlineExceeded(r.status())) launch_lanes_ /= 4;
      for (size_t k : g.cases) {
        const FlatCase& c = cases[index[k]];
        absl::StatusOr<DeviceBatch> alone = BuildDeviceBatch(c.header, c.lanes.view(), o_.allow_undefined);
        FinishBothSides(alone.ok() ? runner_->Run(*alone) : absl::StatusOr<DeviceResult>(alone.status()),
                        o_.relax, &(*both)[index[k]]);
      }
    } else {
      for (size_t k : g.cases) FinishBothSides(r.status(), o_.relax, &(*both)[index[k]]);
    }
  }
}

}  // namespace campaign_internal
}  // namespace lanediff
