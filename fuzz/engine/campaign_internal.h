// Private to the campaign's files (fuzz/engine/campaign*.cc): the helpers more than one of them
// uses. Not part of the library's interface (fuzz/engine/campaign.h is).
//   campaign.cc           RunCampaign and the library's functions (RunBothSides, StoredCause ...)
//   campaign_both_sides.cc  one case's two sides in halves: prepare (model, device batch), finish
//   campaign_worker.h     the worker, a pipeline of stages in campaign_{worker,round,account,
//                         disagreement,fault,findings}.cc (the stages: that header)
//   campaign_messages.cc  worker -> parent frames of --jobs (encode, decode)
//   campaign_jobs.cc      --jobs N: forking the workers, merging their counters and findings
//   campaign_summary.cc   the live progress line and the end-of-campaign summary
#ifndef LANEDIFF_FUZZ_CAMPAIGN_INTERNAL_H_
#define LANEDIFF_FUZZ_CAMPAIGN_INTERNAL_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "device_harness/batch.h"
#include "device_harness/runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/engine/lane_gen.h"
#include "model/isa/resolve.h"

namespace lanediff {
namespace campaign_internal {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t0);

// "<instr>.<cause>" of a campaign signature "<target>.<instr>.<cause>" (fuzz/triage/).
std::string BucketOf(const std::string& signature);
// The buckets of the findings under `findings_root` (<target>/<instr>/<signature>.textproto);
// none when the folder does not exist yet.
std::set<std::string> BucketsInStore(const std::string& findings_root);

// The lines that announce a bucket's first new signature in a run (campaign_summary.cc).
std::string NewFindingLines(const std::string& signature, const std::string& path, bool bucket_new);

// A device that counts the batches it is asked to run (CampaignStats::device_calls) and
// otherwise is the device it wraps.
class CountingRunner : public Runner {
 public:
  CountingRunner(std::unique_ptr<Runner> device, uint64_t* calls) : device_(std::move(device)), calls_(calls) {}
  std::string Describe() const override { return device_->Describe(); }
  std::string Driver() const override { return device_->Driver(); }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    ++*calls_;
    return device_->Run(batch);
  }

 private:
  std::unique_ptr<Runner> device_;
  uint64_t* calls_;
};

// The timeline point of `s` at `secs`.
proto::StatsSample Sample(const CampaignStats& s, double secs);

// The library's own guard for what the CLI parser already refuses (fuzz/cli/args.h).
absl::Status CheckOptions(const CampaignOptions& options);

// The salt of the confirmation batch (fuzz/triage/attribution.h ConfirmationCase) of the case
// a campaign seeded `seed` handles after `execs` cases. A hypothesis confirmation and a class
// decision of the same case draw different batches (`kind`).
enum class ConfirmationKind : uint64_t { hypothesis = 0, difference_class = 0x5bd1e995u };
uint64_t ConfirmationSalt(uint64_t seed, uint64_t execs, ConfirmationKind kind);

// The stderr line for a confirmation batch that could not run, `reason` the device's words
// (or why the batch could not be built): printed once per distinct reason per run.
std::string UnconfirmedWarning(absl::string_view reason);

// Worker -> parent messages (campaign_messages.cc; the frame format is described there).
inline constexpr uint32_t kMaxWorkerMessage = 1 << 20;
void WriteAll(int fd, const std::string& s);
std::string Message(char tag, absl::string_view body);
std::string EncodeStats(const CampaignStats& s, bool final);
void DecodeMessage(absl::string_view msg, CampaignStats* s);

// The two halves of RunBothSides (campaign_both_sides.cc), so the grouping step
// (fuzz/engine/launch_group.h) can run the device side of many cases as one batch in between.
// Prepare: every per-case decision once (operands, format, target), the model's answer, and the
// device batch. Finish: the device's answer (or its error) and the comparison.
// `copy_lanes` false: the batch is the header only (its lanes empty; the grouping step copies
// the case's lanes straight into the launch).
// `routing_out`, when given, receives the case's operand routing (for PrepareSibling).
// `pre`, when given, is the case's header already resolved (by aiming): not resolved again.
absl::Status PrepareBothSides(const FlatCase& c, const Hypotheses& hyp, BothSides* b, DeviceBatch* batch,
                              bool allow_undefined, bool copy_lanes = true,
                              LaneRouting* routing_out = nullptr, const AimHeader* pre = nullptr);
// PrepareBothSides for a case whose header is `first`'s, prepared with copy_lanes false (the
// grouping step's siblings): the header's decisions (resolution, context, device batch header)
// are `first`'s and not made again; only the lanes are resolved and evaluated.
absl::Status PrepareSibling(const FlatCase& c, const BothSides& first, const DeviceBatch& first_batch,
                            const LaneRouting& routing, BothSides* b, DeviceBatch* batch);
void FinishBothSides(absl::StatusOr<DeviceResult> r, const Relaxations& relax, BothSides* b);

}  // namespace campaign_internal
}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CAMPAIGN_INTERNAL_H_
