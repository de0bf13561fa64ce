// The campaign worker (RunCampaign, fuzz/engine/campaign.h) as a pipeline of stages, one file
// each, private to the campaign's files:
//
//   generate        NextCase, Siblings                       campaign_round.cc
//   run the batch   RunOne, RunRound, RunLaunches (model, device batch, compare)
//   account         Account: counts, pool, routes a fault or a disagreement   campaign_account.cc
//   disagreement    HandleDisagreement: the case resolved once (ResolvedTest,
//                   fuzz/engine/resolved_test.h), then attribute + confirm, decide
//                   ambiguous classes, and per cause minimize, re-run, classify  campaign_disagreement.cc
//   fault           HandleFault: bisect the lanes, the DEVICE_FAULT finding  campaign_fault.cc
//   findings        Store, FlushCounts, the `new finding:` line, repro line    campaign_findings.cc
//   the loop        Setup (device, known answers, store, seeds), Run, Progress  campaign_worker.cc
#ifndef LANEDIFF_FUZZ_ENGINE_CAMPAIGN_WORKER_H_
#define LANEDIFF_FUZZ_ENGINE_CAMPAIGN_WORKER_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device_harness/batch.h"
#include "device_harness/runner.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/engine/campaign_internal.h"
#include "fuzz/engine/lane_gen.h"
#include "fuzz/engine/mutator.h"
#include "fuzz/engine/resolved_test.h"
#include "fuzz/triage/attribution.h"
#include "model/targets/hypotheses.h"
#include "proto/lanediff.pb.h"

namespace lanediff {
namespace campaign_internal {

class Worker {
 public:
  Worker(const CampaignOptions& o, const std::atomic<bool>* stop)
      : o_(o), stop_(stop), rng_(o.seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(o.worker)),
        mutator_(MutatorConfig{.targets = o.targets,
                               .instrs = o.instrs,
                               .min_lanes = o.lanes_per_batch,
                               .max_lanes = o.lanes_per_batch,
                               .allow_undefined = o.allow_undefined}) {}

  absl::StatusOr<CampaignStats> Run();

 private:
  // The loop (campaign_worker.cc).
  absl::Status Setup();
  absl::Status CheckKnownAnswers();
  void LoadSeeds();
  void Progress(bool final);

  // Generate and run (campaign_round.cc).
  // `aimed`, when the case is aimed, receives its header as aiming resolved it.
  FlatCase NextCase(std::optional<AimHeader>* aimed);
  // One case, its own launch (launch_lanes_ == 0).
  absl::Status RunOne(uint64_t* consecutive_refusals);
  absl::Status RunRound(uint64_t* consecutive_refusals);
  // Appends to `cases` (holding the round's first case) siblings with its header and fresh
  // lanes, aimed as often as any case, until the round holds launch_lanes_ lanes.
  void AddSiblings(std::optional<AimHeader>* aim_header, std::vector<FlatCase>* cases);
  // The device side of a round: the valid cases' batches grouped into launches, each answer
  // split back and compared per case (a faulting group re-run case by case).
  void RunLaunches(const std::vector<FlatCase>& cases, std::vector<DeviceBatch> batches,
                   const std::vector<absl::Status>& invalid, std::vector<BothSides>* both);

  // Account (campaign_account.cc).
  absl::Status Account(FlatCase& c, absl::StatusOr<BothSides> both, bool keep_in_pool,
                       uint64_t* consecutive_refusals);
  // A device status that is not OK: counted, or stored as a fault; a non-OK return stops.
  absl::Status AccountDeviceError(const FlatCase& c, const absl::Status& device_status,
                                  uint64_t* consecutive_refusals);
  void KeepInPool(FlatCase& c);

  // Disagreement (campaign_disagreement.cc).
  // Counts the device calls the rest takes (CampaignStats::triage_device_calls).
  absl::Status HandleDisagreement(proto::TestCase tc, const BothSides& both);
  absl::Status HandleDisagreementCalls(proto::TestCase tc, const BothSides& both);
  // The batch's causes, each hypothesis cause confirmed on a second batch (up to 4 rounds),
  // the settings confirmed on its target and instruction known to Attribute; attributed again
  // when a round refutes a setting or confirms a new one.
  absl::StatusOr<std::vector<Cause>> ConfirmedCauses(const ResolvedTest& t, const BothSides& both);
  // The settings confirmed on t's target and instruction (confirmed_), without the prefix.
  std::vector<std::string> KnownSettings(const ResolvedTest& t) const;
  // The settings of `causes` a confirmation batch refutes (RefutedSettings); none when every
  // one is confirmed already or the batch cannot run. Another value of a named setting's rule
  // confirmed earlier is checked beside it (one reading per rule) and forgotten if refuted.
  absl::StatusOr<std::vector<std::string>> Refuted(const ResolvedTest& t,
                                                   const std::vector<Cause>& causes);
  // A confirmation batch of this disagreement (ConfirmationCase, salted by `kind`), resolved
  // once (t: what RefutedSettings and DecideClass read; run.resolved points into it) and
  // run; the first call builds and runs both kinds in one device call, later calls for the
  // same disagreement read them. An error: the batch could not be built.
  struct ConfirmationRun {
    absl::Status built;
    std::optional<ResolvedTest> t;
    absl::StatusOr<BothSides> run = absl::UnknownError("not run");
  };
  absl::StatusOr<const ConfirmationRun*> ConfirmationFor(const ResolvedTest& t, ConfirmationKind kind);
  // Counts a confirmation batch that could not run (`why`: the device's status, or why the
  // batch could not be built) and warns once per distinct reason: what it was to check stands
  // unchecked, which must not pass silently.
  void ConfirmationNotRun(const absl::Status& why);
  // Renames each class cause the batch cannot tell from another (Cause::also) by a
  // confirmation batch (DecideClass), and merges causes that then share a name.
  absl::Status DecideAmbiguousClasses(const ResolvedTest& t, std::vector<Cause>* causes);
  absl::Status HandleCause(const ResolvedTest& t, const Cause& cause, const BothSides& batch);
  // Minimizes `t` to a case that still shows `cause` and re-runs it on both sides (falling
  // back to `t` when the smaller case no longer disagrees). Returns the case to store (`t` or
  // *small) with its run in *b, or nullptr when not even `t` disagrees again (a flaky device).
  absl::StatusOr<const ResolvedTest*> MinimizeAndRerun(const ResolvedTest& t, const Cause& cause,
                                                       const std::string& stored_cause,
                                                       std::optional<ResolvedTest>* small, BothSides* b);
  // Whether the minimization candidate `ct`, run as `r`, still shows `cause` under the same
  // stored cause (an error Status: the device's, for a candidate it refused or faulted on).
  absl::StatusOr<bool> StillShowsCause(const ResolvedTest& ct, const absl::StatusOr<BothSides>& r,
                                       const Cause& cause, const std::string& stored_cause);
  // The DISAGREEMENT finding of case `s` (run `b`) for `cause` of the batch `t`.
  absl::StatusOr<proto::Finding> DisagreementFinding(const ResolvedTest& t, const ResolvedTest& s,
                                                     const BothSides& b, const Cause& cause,
                                                     const std::string& key,
                                                     const std::vector<std::string>& attrs);

  // Fault (campaign_fault.cc).
  absl::Status HandleFault(const proto::TestCase& tc, const absl::Status& fault);
  // Fewer lanes that still fault, by bisection within a budget; `*fault` becomes their fault.
  proto::TestCase BisectFault(const proto::TestCase& tc, absl::Status* fault);
  proto::Finding FaultFinding(const proto::TestCase& best, const absl::Status& fault);

  // Findings (campaign_findings.cc).
  absl::Status Store(proto::Finding f, const std::string& pre_signature);
  void FlushCounts();
  std::string Repro(const std::string& path) const;
  void Note(const std::string& error) {
    if (stats_.errors.size() < 20) stats_.errors.push_back(error);
  }
  void Saw(const std::string& signature);
  // Whether the finding's bucket was in the corpus when the run began (on any target).
  bool BucketInStore(const proto::Finding& f) const;
  void ReportNew(const std::string& signature, const std::string& path, bool bucket_new);

  const CampaignOptions& o_;
  const std::atomic<bool>* stop_;
  Rng rng_;
  Mutator mutator_;
  Hypotheses hyp_;
  std::unique_ptr<Runner> runner_;
  std::unique_ptr<CorpusStore> store_;
  std::vector<FlatCase> pool_;  // flat: 16 bytes per lane
  AimScratch aim_scratch_;
  size_t launch_lanes_ = 0;  // the grouping step's aim (0: one case per launch)
  int tty_ = -1;              // stderr is a terminal (1) or not (0); -1 not asked yet
  size_t pool_next_ = 0;
  CampaignStats stats_;
  uint64_t environment_errors_in_a_row_ = 0;
  // pre-signature (unminimized) -> final signature; final signature -> stored finding and
  // the count not yet flushed to disk.
  std::map<std::string, std::string> pre_to_final_;
  struct Known {
    proto::Finding finding;
    uint64_t unflushed = 0;
    std::map<std::string, uint64_t> attrs;  // attribute counts not yet flushed
    std::set<std::string> shapes;  // operand shapes minimized so far (bounded)
    proto::Finding extras;         // more_examples not yet flushed
  };
  std::map<std::string, Known> known_;
  Clock::time_point t0_;
  std::shared_ptr<const std::set<std::string>> buckets_before_;  // CampaignOptions::buckets_before
  Clock::time_point last_progress_;
  bool progress_shown_ = false;
  std::set<std::string> printed_;  // buckets whose `new finding:` line is printed
  std::set<std::string> confirmed_;  // target.instr.setting confirmed on a second batch
  std::map<ConfirmationKind, ConfirmationRun> confirmations_;  // the disagreement in hand's
};

}  // namespace campaign_internal
}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_ENGINE_CAMPAIGN_WORKER_H_
