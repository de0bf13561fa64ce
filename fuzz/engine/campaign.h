// The campaign driver behind `lanediff fuzz`: generate (structured mutation, cross-over, aimed
// lanes), run both sides (model: ResolveTestCase + Evaluate under --hypothesis; device:
// BuildDeviceBatch + a Runner), compare strictly, minimize each new disagreement, classify it
// and store it (one file per signature, fuzz/corpus/corpus_store.h) before reporting it.
//
//   CampaignOptions o;
//   o.device = "sim"; o.inject = {"sr_wrap"}; o.max_execs = 2000; o.corpus = "/tmp/c";
//   std::atomic<bool> stop{false};
//   LANEDIFF_ASSIGN_OR_RETURN(CampaignStats s, RunCampaignJobs(o, &stop));
//   std::fputs(FormatSummary(o, s).c_str(), stderr);
//
// Memory is bounded whatever the run length: one batch (lanes_per_batch lanes, a few copies
// of 16 bytes each), a pool of kPoolSize earlier cases for mutation and cross-over, at most
// kMaxPreSignatures shortcuts from an unminimized disagreement to its stored signature, and
// at most kMaxSignatures remembered findings (about 1 KB each with their one-lane example);
// past those caps, repeats are minimized again and still deduplicated by the store on disk.
// Cases are FlatCases (fuzz/engine/lane_gen.h): 16 bytes a lane. Measured: 14 MiB per worker at the
// default 1024 lanes, 88 MiB at 65,536 (fuzz/engine/campaign_memory_test.cc), before findings.
#ifndef LANEDIFF_FUZZ_CAMPAIGN_H_
#define LANEDIFF_FUZZ_CAMPAIGN_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/open_runner.h"
#include "device_harness/runner.h"
#include "fuzz/engine/campaign_record.h"
#include "fuzz/engine/compare.h"
#include "fuzz/engine/mutator.h"
#include "model/targets/hypotheses.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

inline constexpr size_t kPoolSize = 64;
// Lanes per round on a GPU: four launches of 64K lanes (device_harness/hip/launch_pipeline.h),
// so two are always in flight.
inline constexpr size_t kGpuLaunchLanes = 4 * 65536;
// Lanes per round on an `exec:` device, which starts its command once per batch: 64 cases of
// the default 1,024 lanes share one start-up (the pipe carries about 45 bytes a lane).
inline constexpr size_t kExecLaunchLanes = 64 * 1024;
inline constexpr size_t kMaxSignatures = 65536;     // stored findings remembered (~1 KB each)
inline constexpr size_t kMaxPreSignatures = 8192;   // unminimized -> final map (~300 B each)
inline constexpr size_t kMaxUnconfirmedReasons = 16;  // distinct reasons kept and warned about

struct CampaignOptions {
  std::vector<std::string> targets;       // empty: every target
  std::vector<Instr> instrs;              // empty: every instruction
  std::string device = "auto";            // OpenRunner spec
  std::vector<std::string> inject;        // sim errata
  std::vector<std::string> hypotheses;    // model side, "name=value"
  double time_seconds = 0;                // 0: no time limit
  uint64_t max_execs = 0;                 // 0: no exec limit (one of the two must be set)
  uint64_t seed = 1;
  int jobs = 1;
  std::string corpus;                     // corpus root: findings under <corpus>/findings,
                                          // seeds read from <corpus>/seeds ("" = no storage)
  // The buckets (a signature less its target) the corpus held when the run began: a bucket
  // this run stores is "new" unless listed. RunCampaignJobs reads them once before it forks
  // its workers, so that what one worker stores is not "already in the corpus" to another;
  // a single campaign reads them when it opens the store.
  std::shared_ptr<const std::set<std::string>> buckets_before;
  size_t lanes_per_batch = 1024;
  Relaxations relax;
  int aim_percent = 50;                   // batches whose lanes are aimed at hypotheses
  // The grouping step (fuzz/engine/launch_group.h): each round is a case plus siblings with its
  // header and fresh lanes, this many lanes in all, sent to the device as one batch. -1: on a
  // GPU (a device that describes itself "hip:N") kGpuLaunchLanes, on an `exec:` device
  // kExecLaunchLanes, elsewhere 0; 0: one case per batch (each case's own launch, as before
  // grouping existed).
  int64_t launch_lanes = -1;
  double batch_timeout_seconds = 2;       // per batch, isolated devices (hangs)
  uint64_t stop_after_findings = 0;       // stop once this many new findings (0: never)
  bool progress = true;                   // live line on stderr
  bool verbose = false;
  int worker = 0;                         // set by RunCampaignJobs
  int progress_fd = -1;                   // set by RunCampaignJobs: counters to the parent
  std::string repro_prefix = "lanediff";  // how the repro line invokes the tool
  // Known-answer batches first (fuzz/selftest/selftest.h): on hardware (HIP) devices by default; a
  // failure stops the campaign ("the harness is wrong on this GPU") before any finding.
  enum class KnownAnswerCheck { hardware, always, never };
  KnownAnswerCheck known_answer_check = KnownAnswerCheck::hardware;
  // Opens the device in place of OpenRunner(device, ...) when set: a test's runner (e.g. the
  // HIP runner on a fake HIP runtime that injects errors). `device` still names it in repro
  // lines and provenance.
  std::function<absl::StatusOr<std::unique_ptr<Runner>>(const RunnerOptions&)> open_runner;
  // --allow-undefined: also generate and run words that break a documented ISA restriction
  // (the constant-bus limit: model/isa/vop3.h SpecViolations); their findings are labelled
  // undefined by spec (Finding.undefined_by_spec, cause "undefined_by_spec.<cause>"). Without
  // it such words are never generated and a seed holding one is refused before it runs.
  bool allow_undefined = false;
  // hip: how long the isolated child may take to initialise HIP (--start-timeout); zero: the
  // default for the number of GPUs (device_harness/open_runner.h HipStartTimeout).
  double start_timeout_seconds = 0;
  // Called for each new finding right after its `new finding:` line, in the process that
  // stored it (a worker's, with --jobs N): `lanediff fuzz --json` streams it on stdout. `path`
  // is its file, or "" without a corpus.
  std::function<void(const proto::Finding& finding, const std::string& path)> on_new_finding;
};

// Lanes whose value class is one of these are counted for the coverage line.
inline constexpr const char* kInputClasses[] = {"nan",      "inf",      "zero", "denormal",
                                                "overflow", "sr_carry", "tie",  "normal"};
inline constexpr int kNumInputClasses = 8;

struct CampaignStats {
  uint64_t execs = 0;           // test cases (batches) run on both sides
  uint64_t lanes = 0;
  uint64_t invalid = 0;         // generated cases the resolver or batch builder refused
  uint64_t refused = 0;         // batches the device refused (not faults)
  uint64_t unsupported = 0;     // cases the device answered "unsupported" (counted in execs)
  // Confirmation batches (fuzz/triage/attribution.h ConfirmationCase) that could not run: the
  // device refused, could not run ("unsupported") or faulted on one, or it could not be built.
  // The hypothesis it was to confirm is named unconfirmed, the classes it was to decide keep
  // the batch's own order; each distinct reason is warned about once on stderr.
  uint64_t unconfirmed = 0;
  std::vector<std::string> unconfirmed_reasons;  // distinct, first kMaxUnconfirmedReasons
  // Runner::Run calls: every batch the device was asked to run (a case, a round of cases
  // sharing a launch, a confirmation batch, a batch of minimization candidates, a re-run, a
  // fault's bisection; the known-answer batches too). What a device that starts a process per
  // batch (exec:) pays its start-up for.
  uint64_t device_calls = 0;
  // The part of device_calls spent on disagreements after their first run: confirmation
  // batches, minimization and the re-run before storing (campaign_disagreement.cc).
  uint64_t triage_device_calls = 0;
  uint64_t disagreeing = 0;     // batches with at least one differing lane
  uint64_t device_faults = 0;
  // Batches that failed for a reason not the instruction's (device_harness/fault.h
  // EnvironmentError: a module load the runtime refuses, an allocation, a child that cannot
  // start): never findings; kEnvironmentErrorsInARow in a row stop the campaign (exit 3).
  uint64_t environment_errors = 0;
  uint64_t new_findings = 0;    // signatures stored for the first time
  uint64_t repeats = 0;         // disagreements whose signature was already known
  uint64_t first_finding_exec = 0;  // 1-based index of the case that gave the first new finding
  std::array<uint64_t, kNumInputClasses> classes{};  // sampled lanes per input class
  double last_new_seconds = -1;           // when the last new bucket was stored (-1: none)
  std::set<std::string> signatures;       // distinct signatures seen this run
  std::set<std::string> buckets;          // their buckets, "<instr>.<cause>" (fuzz/triage/)
  // Buckets this run stored first (no finding of theirs on any target was in the corpus
  // before); each is printed once per run, as its first `new finding:` line.
  std::set<std::string> new_buckets;
  CoverageTally coverage;                 // lanes per target x instr x shape x MODE class
  Timeline timeline;                      // counters over time (bounded)
  std::string device_driver;              // the device's driver / ISA string, where it says
  std::vector<std::string> new_signatures;
  std::vector<std::string> errors;        // store or minimization problems (first few)
  std::string device_description;
  std::string note;
  double seconds = 0;
};

// One worker, in this process. `stop` is polled between batches (SIGINT handler sets it).
absl::StatusOr<CampaignStats> RunCampaign(const CampaignOptions& options,
                                          const std::atomic<bool>* stop);

// options.jobs worker processes (fork) sharing the corpus; jobs == 1 runs in-process.
// Worker i uses seed + i and an equal share of max_execs.
absl::StatusOr<CampaignStats> RunCampaignJobs(const CampaignOptions& options,
                                              const std::atomic<bool>* stop);

// The live progress line after `seconds`: cases and lanes with their rates, elapsed and
// remaining time (of --time `limit`, or estimated from the rate for --execs `max_execs`,
// marked "~"), buckets seen and new, the time since the last new bucket, faults, classes.
// With --jobs the parent prints one such line for all workers.
std::string ProgressLine(const CampaignStats& stats, double seconds, double limit,
                         uint64_t max_execs);

// The closing summary: counts, rates, relaxations in force, signatures, coverage.
std::string FormatSummary(const CampaignOptions& options, const CampaignStats& stats);

// Both sides of one case: the model under `hyp` and the device.
struct BothSides {
  OpContext ctx;          // the case's context under `hyp`
  LaneView resolved;      // each lane's operands; points into the case's lanes and `uniform`
  LaneBatch uniform;      // values of the sources that are not lane fields
  std::vector<uint32_t> expected, observed;
  std::vector<size_t> differing;   // lanes that differ under the relaxations
  absl::Status device_status;      // non-OK: the device refused or faulted (observed empty)
  proto::Provenance device_provenance;
};
// From a FlatCase, `resolved` is valid while the case lives; from a proto it is empty.
// `allow_undefined`: run a word that breaks a documented restriction (else it is an error,
// like any case the batch builder refuses).
absl::StatusOr<BothSides> RunBothSides(const proto::TestCase& tc, const Hypotheses& hyp,
                                       Runner& runner, const Relaxations& relax,
                                       bool allow_undefined = false);
absl::StatusOr<BothSides> RunBothSides(const FlatCase& c, const Hypotheses& hyp, Runner& runner,
                                       const Relaxations& relax, bool allow_undefined = false);

// The stored cause of a finding on `tc`: `cause` itself, or "undefined_by_spec.<cause>" when
// the word breaks a documented restriction (then *violations, when given, gets the reasons).
std::string StoredCause(const proto::TestCase& tc, const std::string& cause,
                        std::vector<std::string>* violations = nullptr);

// Replaces up to all lanes of `tc` by candidates on which some single alternative hypothesis
// disagrees with `hyp` (the proto form of fuzz/engine/lane_gen.h AimLanes, which the campaign uses).
// Returns how many lanes were aimed.
size_t AimLanes(const Mutator& mutator, Rng& rng, const Hypotheses& hyp, proto::TestCase* tc);

// Provenance of the model side.
proto::Provenance ModelProvenance(const std::string& target, const Hypotheses& hyp);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CAMPAIGN_H_
