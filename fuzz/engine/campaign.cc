#include "fuzz/engine/campaign.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "device_harness/batch.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/fault.h"
#include "device_harness/isolation/wire.h"
#include "device_harness/open_runner.h"
#include "fuzz/engine/campaign_internal.h"
#include "fuzz/triage/classify.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/launch_group.h"
#include "fuzz/engine/lane_gen.h"
#include "fuzz/triage/minimize.h"
#include "fuzz/selftest/selftest.h"
#include "fuzz/triage/attribution.h"
#include "fuzz/triage/bucket_merge.h"
#include "fuzz/triage/render.h"
#include "model/base/status.h"
#include "model/base/version.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
#include "model/ops/input_class.h"
#include "model/ops/ops.h"
#include "proto/text_format.h"

namespace lanediff {
namespace campaign_internal {

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// "<instr>.<cause>" of a campaign signature "<target>.<instr>.<cause>" (fuzz/triage/).
std::string BucketOf(const std::string& signature) {
  const size_t dot = signature.find('.');
  return dot == std::string::npos ? signature : signature.substr(dot + 1);
}

std::set<std::string> BucketsInStore(const std::string& findings_root) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(findings_root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() == 2 && it->path().extension() == ".textproto") {
      out.insert(BucketOf(it->path().stem().string()));
    }
  }
  return out;
}

proto::StatsSample Sample(const CampaignStats& s, double secs) {
  proto::StatsSample x;
  x.set_seconds(secs);
  x.set_cases(s.execs);
  x.set_lanes(s.lanes);
  x.set_findings(s.new_findings);
  x.set_buckets(s.buckets.size());
  return x;
}

// The library's own guard for what the CLI parser already refuses (fuzz/cli/args.h).
absl::Status CheckOptions(const CampaignOptions& options) {
  if (!(options.time_seconds >= 0) || !std::isfinite(options.time_seconds)) {
    return absl::InvalidArgumentError("--time must be a finite number of seconds, 0 or more");
  }
  if (options.time_seconds == 0 && options.max_execs == 0) {
    return absl::InvalidArgumentError("give --time SECONDS or --execs N (or both)");
  }
  if (!(options.batch_timeout_seconds > 0) || !std::isfinite(options.batch_timeout_seconds)) {
    return absl::InvalidArgumentError("--timeout must be a finite number of seconds above 0");
  }
  if (options.lanes_per_batch == 0 || options.lanes_per_batch > kMaxLanes) {
    return absl::InvalidArgumentError(absl::StrCat("--lanes-per-batch must be 1..", kMaxLanes));
  }
  if (options.launch_lanes < -1 || options.launch_lanes > static_cast<int64_t>(kMaxLanesPerBatch)) {
    return absl::InvalidArgumentError(absl::StrCat("launch_lanes must be -1 (automatic), 0 (off) or up to ",
                                                   kMaxLanesPerBatch));
  }
  if (options.jobs < 1 || options.jobs > 256) {
    return absl::InvalidArgumentError("--jobs must be 1..256");
  }
  return absl::OkStatus();
}

uint64_t ConfirmationSalt(uint64_t seed, uint64_t execs, ConfirmationKind kind) {
  return (seed + 1) * 0x9e3779b97f4a7c15ull ^ execs ^ static_cast<uint64_t>(kind);
}

}  // namespace campaign_internal

namespace {

using campaign_internal::BucketOf;
using campaign_internal::BucketsInStore;
using campaign_internal::ConfirmationKind;
using campaign_internal::ConfirmationSalt;
using campaign_internal::UnconfirmedWarning;
using campaign_internal::Clock;
using campaign_internal::EncodeStats;
using campaign_internal::Message;
using campaign_internal::NewFindingLines;
using campaign_internal::Sample;
using campaign_internal::Since;
using campaign_internal::WriteAll;

int ClassIndex(absl::string_view c) {
  for (int i = 0; i < kNumInputClasses; ++i) {
    if (c == kInputClasses[i]) return i;
  }
  return kNumInputClasses - 1;
}

// The driver / ISA string of the device that answered: the driver as it says (HIP: runtime
// and driver versions) with the ISA it reports (HIP: "gfx942:sramecc+:xnack-"); a device
// without a driver (simulator, exec, replay) is "none (<runner>)".
std::string DriverOf(const proto::Provenance& p) {
  if (p.driver().empty()) return absl::StrCat("none (", p.runner().empty() ? "?" : p.runner(), ")");
  return p.target().empty() ? p.driver() : absl::StrCat(p.driver(), ", ISA ", p.target());
}

// Resolved case + the model's words.
struct ModelSide {
  ResolvedCase rc;
  std::vector<uint32_t> expected;
};

absl::StatusOr<ModelSide> RunModel(const proto::TestCase& tc, const Hypotheses& hyp) {
  ModelSide m;
  LANEDIFF_ASSIGN_OR_RETURN(m.rc, ResolveTestCase(tc));
  m.rc.ctx.hyp = hyp;
  m.expected.resize(OutputWords(m.rc.ctx.instr, m.rc.lanes.size()));
  LANEDIFF_RETURN_IF_ERROR(Evaluate(m.rc.ctx, m.rc.lanes.view(), absl::MakeSpan(m.expected)));
  return m;
}

// The two halves of RunBothSides, so the grouping step (fuzz/engine/launch_group.h) can run the
// device side of many cases as one batch in between. Prepare: every per-case decision once
// (operands, format, target), the model's answer, and the device batch. Finish: the device's
// answer (or its error) and the comparison.
// `copy_lanes` false: the batch is the header only (its lanes empty; the grouping step copies
// the case's lanes straight into the launch).
// `routing_out`, when given, receives the case's operand routing (for PrepareSibling).
// `pre`, when given, is the case's header already resolved (by aiming): not resolved again.
absl::Status PrepareBothSides(const FlatCase& c, const Hypotheses& hyp, BothSides* b, DeviceBatch* batch,
                              bool allow_undefined, bool copy_lanes = true,
                              LaneRouting* routing_out = nullptr, const AimHeader* pre = nullptr) {
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

// PrepareBothSides for a case whose header is `first`'s, prepared with copy_lanes false (the
// grouping step's siblings): the header's decisions (resolution, context, device batch header)
// are `first`'s and not made again; only the lanes are resolved and evaluated.
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
  absl::Status Setup();
  absl::Status RunRound(uint64_t* consecutive_refusals);
  absl::Status Account(FlatCase& c, absl::StatusOr<BothSides> both, bool keep_in_pool,
                       uint64_t* consecutive_refusals);
  absl::Status CheckKnownAnswers();
  void LoadSeeds();
  // `aimed`, when the case is aimed, receives its header as aiming resolved it.
  FlatCase NextCase(std::optional<AimHeader>* aimed);
  void Progress(bool final);
  absl::Status HandleDisagreement(const proto::TestCase& tc, const BothSides& both);
  absl::StatusOr<bool> Confirmed(const proto::TestCase& tc, const std::vector<std::string>& named);
  // Counts a confirmation batch that could not run (`why`: the device's status, or why the
  // batch could not be built) and warns once per distinct reason: what it was to check stands
  // unchecked, which must not pass silently.
  void ConfirmationNotRun(const absl::Status& why);
  // Renames each class cause the batch cannot tell from another (Cause::also) by a
  // confirmation batch (DecideClass), and merges causes that then share a name.
  absl::Status DecideAmbiguousClasses(const proto::TestCase& tc, std::vector<Cause>* causes);
  absl::Status HandleCause(const proto::TestCase& tc, const ResolvedCase& rc, const Cause& cause);
  absl::Status HandleFault(const proto::TestCase& tc, const absl::Status& fault);
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
  std::set<std::string> confirmed_;  // target.instr.settings confirmed on a second batch
};

absl::Status Worker::Setup() {
  LANEDIFF_RETURN_IF_ERROR(mutator_.Check());
  for (const std::string& h : o_.hypotheses) LANEDIFF_RETURN_IF_ERROR(SetHypothesis(h, &hyp_));
  RunnerOptions ro;
  ro.inject = o_.inject;
  ro.timeout = absl::Seconds(o_.batch_timeout_seconds);
  if (o_.start_timeout_seconds > 0) ro.start_timeout = absl::Seconds(o_.start_timeout_seconds);
  LANEDIFF_ASSIGN_OR_RETURN(runner_, o_.open_runner ? o_.open_runner(ro)
                                                    : OpenRunner(o_.device, ro, &stats_.note));
  stats_.device_description = runner_->Describe();
  stats_.device_driver = runner_->Driver();  // else the first answer's provenance says
  const bool gpu = absl::StrContains(stats_.device_description, "hip:");
  launch_lanes_ = o_.launch_lanes >= 0 ? static_cast<size_t>(o_.launch_lanes) : gpu ? kGpuLaunchLanes : 0;
  using KA = CampaignOptions::KnownAnswerCheck;
  if (o_.known_answer_check == KA::always || (o_.known_answer_check == KA::hardware && gpu)) {
    LANEDIFF_RETURN_IF_ERROR(CheckKnownAnswers());
  }
  if (!o_.corpus.empty()) {
    LANEDIFF_ASSIGN_OR_RETURN(CorpusStore s, CorpusStore::Open(o_.corpus + "/findings"));
    store_ = std::make_unique<CorpusStore>(std::move(s));
    buckets_before_ = o_.buckets_before != nullptr
                          ? o_.buckets_before
                          : std::make_shared<const std::set<std::string>>(
                                BucketsInStore(store_->root()));
    LoadSeeds();
  }
  return absl::OkStatus();
}

// The known-answer batches of fuzz/selftest/selftest.h for each campaign target the device accepts.
absl::Status Worker::CheckKnownAnswers() {
  for (const TargetTraits& t : AllTargets()) {
    if (!o_.targets.empty() && std::find(o_.targets.begin(), o_.targets.end(), t.name) == o_.targets.end()) continue;
    LANEDIFF_ASSIGN_OR_RETURN(SelfTest st, RunSelfTest(*runner_, t, {.discriminate = false}));
    int wrong = 0, run = 0;
    for (const KnownAnswer& k : st.known) {
      if (absl::IsInvalidArgument(k.status) || absl::IsNotFound(k.status)) continue;  // not this device's target
      if (k.unsupported()) continue;  // the device cannot run it: its cases are counted "unsupported"
      ++run;
      wrong += !k.ok();
    }
    if (wrong == 0) continue;
    std::string saw = FormatSelfTest(st);
    if (!o_.corpus.empty()) {
      const std::string path = absl::StrCat(o_.corpus, "/selftest-", t.name, ".textproto");
      std::ofstream(path, std::ios::trunc) << SelfTestBundle(st);
      saw = absl::StrCat("the self-test bundle (what it saw, replayable) is ", path, "\n", saw);
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "the harness is wrong on this GPU (", stats_.device_description, "): ", wrong, " of ", run,
        " known-answer batches for ", t.name, " wrong; no campaign. ", saw));
  }
  return absl::OkStatus();
}

void Worker::LoadSeeds() {
  const std::string dir = o_.corpus + "/seeds";
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 && errno == ENOENT) return;  // no seeds: nothing to say
  // Unreadable directories, FIFOs and devices are named; the walk goes on past them.
  FileWalk walk = WalkFiles({dir}, [](absl::string_view name) {
    return absl::EndsWith(name, ".textproto");
  });
  for (const std::string& e : walk.errors) Note(absl::StrCat("seed skipped: ", e));
  const std::vector<std::string>& files = walk.files;
  for (const std::string& f : files) {
    absl::StatusOr<std::string> text = ReadFile(f);
    if (!text.ok()) {
      Note(absl::StrCat("seed skipped: ", text.status().message()));
      continue;
    }
    proto::TestCase tc;
    if (absl::Status st = ParseTextInto(*text, f, &tc); !st.ok()) {
      Note(absl::StrCat("seed skipped: ", st.message()));  // path:line:col, never rewritten
      continue;
    }
    if (pool_.size() >= kPoolSize) break;
    mutator_.Fixup(rng_, &tc);
    pool_.push_back(Flatten(std::move(tc)));
  }
}

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


void Worker::Progress(bool final) {
  if (o_.progress_fd < 0) {  // the parent samples --jobs
    const double secs = Since(t0_);
    if (stats_.timeline.Wants(secs)) stats_.timeline.Offer(Sample(stats_, secs));
  }
  if (o_.progress_fd >= 0 && !final) {
    const auto now = Clock::now();
    if (now - last_progress_ < std::chrono::milliseconds(1000)) return;
    last_progress_ = now;
    WriteAll(o_.progress_fd, EncodeStats(stats_, false));
    return;
  }
  if (!o_.progress) return;
  const auto now = Clock::now();
  if (tty_ < 0) tty_ = ::isatty(2) ? 1 : 0;  // once: a syscall per case was 3% of a campaign
  const bool tty = tty_ == 1;
  // A terminal gets a live line every second; a log gets a line every 10 seconds.
  if (!final && now - last_progress_ < std::chrono::milliseconds(tty ? 1000 : 10000)) return;
  last_progress_ = now;
  if (!tty) {
    std::fprintf(stderr, "%s\n",
                 ProgressLine(stats_, Since(t0_), o_.time_seconds, o_.max_execs).c_str());
    return;
  }
  std::fprintf(stderr, "\r%s\x1b[K%s",
               ProgressLine(stats_, Since(t0_), o_.time_seconds, o_.max_execs).c_str(),
               final ? "\n" : "");
  std::fflush(stderr);
  progress_shown_ = !final;
}

// A signature seen for the first time in this run: its bucket counts as seen, and a worker of
// --jobs tells the parent at once (the parent's live line counts the buckets).
void Worker::Saw(const std::string& signature) {
  if (!stats_.signatures.insert(signature).second) return;
  stats_.buckets.insert(BucketOf(signature));
  if (o_.progress_fd >= 0) WriteAll(o_.progress_fd, Message('S', signature));
}

// Whether the store already holds a finding of `f`'s bucket on some target (before `f`).
bool Worker::BucketInStore(const proto::Finding& f) const {
  return buckets_before_ != nullptr && buckets_before_->count(BucketOf(f.signature())) != 0;
}

// A new signature is on disk: its bucket's first one in this run is printed (once per run,
// whatever the targets and workers). A worker of --jobs leaves the printing to the parent,
// which alone knows what the other workers printed.
void Worker::ReportNew(const std::string& signature, const std::string& path, bool bucket_new) {
  if (o_.progress_fd >= 0) {
    WriteAll(o_.progress_fd, Message('B', absl::StrCat(bucket_new ? "1" : "0", signature, "\t", path)));
    return;
  }
  const std::string bucket = BucketOf(signature);
  if (!printed_.insert(bucket).second) return;
  if (bucket_new) {
    stats_.new_buckets.insert(bucket);
    stats_.last_new_seconds = Since(t0_);
  }
  if (progress_shown_) std::fprintf(stderr, "\r\x1b[K");
  std::fprintf(stderr, "%s", NewFindingLines(signature, path, bucket_new).c_str());
}

std::string Worker::Repro(const std::string& path) const {
  // Every word shell-quoted: the line is meant to be pasted into a shell, and a corpus path
  // or an exec: device command may hold spaces, quotes or `$(...)`.
  std::vector<std::string> w = {o_.repro_prefix, "replay", path, "--device=" + o_.device};
  for (const std::string& e : o_.inject) w.insert(w.end(), {"--inject", e});
  for (const std::string& h : o_.hypotheses) w.insert(w.end(), {"--hypothesis", h});
  for (const std::string& x : RelaxationNames(o_.relax)) w.insert(w.end(), {"--relax", x});
  if (o_.allow_undefined) w.push_back("--allow-undefined");
  return ShellJoin(w);
}

absl::Status Worker::Store(proto::Finding f, const std::string& pre_signature) {
  const std::string now = NowRfc3339();
  f.set_first_seen(now);
  f.set_last_seen(now);
  f.set_count(1);
  for (const std::string& x : RelaxationNames(o_.relax)) f.add_relaxations(x);
  if (pre_to_final_.size() < kMaxPreSignatures) pre_to_final_[pre_signature] = f.signature();
  Saw(f.signature());
  auto it = known_.find(f.signature());
  if (it != known_.end()) {  // minimized into a signature already stored in this run
    it->second.unflushed++;
    for (const auto& [a, n] : f.attributes()) it->second.attrs[a] += n;
    stats_.repeats++;
    return absl::OkStatus();
  }
  bool is_new = true;
  std::string path = "(not stored: no --corpus)";
  const bool bucket_new = !BucketInStore(f);
  if (store_ != nullptr) {
    // Durable before it is reported.
    LANEDIFF_ASSIGN_OR_RETURN(RecordOutcome r, store_->Record(f));
    is_new = r.is_new;
    path = r.path;
  }
  if (known_.size() < kMaxSignatures) known_[f.signature()] = Known{f, 0, {}, {}, {}};
  if (is_new) {
    if (stats_.new_findings == 0) stats_.first_finding_exec = stats_.execs;
    stats_.new_findings++;
    stats_.new_signatures.push_back(f.signature());
    ReportNew(f.signature(), path, bucket_new);
    if (o_.on_new_finding) o_.on_new_finding(f, store_ != nullptr ? path : "");
  } else {
    stats_.repeats++;
  }
  return absl::OkStatus();
}

void Worker::FlushCounts() {
  if (store_ == nullptr) return;
  for (auto& [sig, k] : known_) {
    if (k.unflushed == 0) continue;
    proto::Finding f = k.finding;
    f.set_count(k.unflushed);
    f.clear_attributes();
    *f.mutable_more_examples() = k.extras.more_examples();
    for (const auto& [a, n] : k.attrs) (*f.mutable_attributes())[a] = n;
    f.set_first_seen("");
    f.set_last_seen(NowRfc3339());
    absl::StatusOr<RecordOutcome> r = store_->Record(f);
    if (!r.ok()) Note(std::string(r.status().message()));
    else k.unflushed = 0, k.attrs.clear(), k.extras.clear_more_examples();
  }
}

absl::Status Worker::HandleDisagreement(const proto::TestCase& tc, const BothSides& both) {
  stats_.disagreeing++;
  // Root causes, decided on every disagreeing lane of this batch (fuzz/triage/attribution.h):
  // one bucket per cause per target and instruction; shape, input class and MODE are counted.
  // A hypothesis named on this batch is confirmed on a second batch from the same device
  // (ConfirmationCase); a refuted one is never named for this batch.
  LANEDIFF_ASSIGN_OR_RETURN(ModelSide m, RunModel(tc, hyp_));
  std::vector<std::string> refuted;
  std::vector<Cause> causes;
  for (int round = 0; round < 4; ++round) {
    LANEDIFF_ASSIGN_OR_RETURN(causes, Attribute(m.rc, both.expected, both.observed, o_.relax, refuted));
    std::vector<std::string> named;
    for (const Cause& c : causes) {
      if (c.by_hypothesis) named.push_back(c.name);
    }
    if (named.empty()) break;
    LANEDIFF_ASSIGN_OR_RETURN(bool confirmed, Confirmed(tc, named));
    if (confirmed) break;
    refuted.insert(refuted.end(), named.begin(), named.end());
  }
  // A class whose every lane also shows another (Cause::also: the batch cannot tell them apart)
  // is decided on a confirmation batch from the same device, as a hypothesis is confirmed.
  LANEDIFF_RETURN_IF_ERROR(DecideAmbiguousClasses(tc, &causes));
  for (const Cause& cause : causes) {
    LANEDIFF_RETURN_IF_ERROR(HandleCause(tc, m.rc, cause));
  }
  return absl::OkStatus();
}

absl::Status Worker::DecideAmbiguousClasses(const proto::TestCase& tc,
                                            std::vector<Cause>* causes) {
  bool renamed = false;
  // One confirmation batch serves every ambiguous cause of this batch: built and run when the
  // first one needs it.
  proto::TestCase conf;
  std::optional<absl::StatusOr<BothSides>> run;
  for (Cause& c : *causes) {
    if (c.by_hypothesis || c.also.empty()) continue;
    if (!run.has_value()) {
      LANEDIFF_ASSIGN_OR_RETURN(
          conf, ConfirmationCase(tc, ConfirmationSalt(o_.seed, stats_.execs,
                                                      ConfirmationKind::difference_class)));
      run = RunBothSides(conf, hyp_, *runner_, o_.relax, o_.allow_undefined);
      if (!run->ok()) {
        ConfirmationNotRun(run->status());
      } else if (!(*run)->device_status.ok()) {
        ConfirmationNotRun((*run)->device_status);
      }
    }
    const absl::StatusOr<BothSides>& b = *run;
    if (!b.ok() || !b->device_status.ok()) continue;  // no evidence: the batch's own order stands
    std::vector<std::string> candidates = {c.name};
    candidates.insert(candidates.end(), c.also.begin(), c.also.end());
    LANEDIFF_ASSIGN_OR_RETURN(std::string decided,
                              DecideClass(conf, hyp_, candidates, b->observed, o_.relax));
    if (!decided.empty() && decided != c.name) c.name = decided, renamed = true;
    c.also.clear();
  }
  if (!renamed) return absl::OkStatus();
  // Two causes that now share a name are one.
  std::vector<Cause> merged;
  for (Cause& c : *causes) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const Cause& m) {
      return m.name == c.name && m.by_hypothesis == c.by_hypothesis;
    });
    if (same == merged.end()) {
      merged.push_back(std::move(c));
      continue;
    }
    same->lanes.insert(same->lanes.end(), c.lanes.begin(), c.lanes.end());
    std::sort(same->lanes.begin(), same->lanes.end());
  }
  *causes = std::move(merged);
  return absl::OkStatus();
}

absl::StatusOr<bool> Worker::Confirmed(const proto::TestCase& tc,
                                       const std::vector<std::string>& named) {
  const std::string key = absl::StrCat(tc.target(), ".", proto::Instruction_Name(tc.instr()), ".",
                                       absl::StrJoin(named, "+"));
  if (confirmed_.count(key) != 0) return true;
  LANEDIFF_ASSIGN_OR_RETURN(
      proto::TestCase conf,
      ConfirmationCase(tc, ConfirmationSalt(o_.seed, stats_.execs, ConfirmationKind::hypothesis)));
  absl::StatusOr<BothSides> b = RunBothSides(conf, hyp_, *runner_, o_.relax, o_.allow_undefined);
  // A device that cannot run the second batch gives no evidence against the hypothesis: it is
  // named as the batch alone says, counted and warned about (ConfirmationNotRun), and not
  // remembered as confirmed, so the next disagreement naming it tries again.
  if (!b.ok() || !b->device_status.ok()) {
    ConfirmationNotRun(b.ok() ? b->device_status : b.status());
    return true;
  }
  LANEDIFF_ASSIGN_OR_RETURN(bool ok, ReproducesEveryLane(conf, hyp_, named, b->observed, o_.relax));
  if (ok) confirmed_.insert(key);
  return ok;
}

void Worker::ConfirmationNotRun(const absl::Status& why) {
  stats_.unconfirmed++;
  const std::string reason =
      why.message().empty() ? absl::StatusCodeToString(why.code()) : std::string(why.message());
  std::vector<std::string>& seen = stats_.unconfirmed_reasons;
  if (std::find(seen.begin(), seen.end(), reason) != seen.end()) return;
  if (seen.size() >= kMaxUnconfirmedReasons) return;  // counted; the reasons kept are enough
  seen.push_back(reason);
  if (o_.progress_fd >= 0) {  // --jobs: the parent prints it, once for all workers
    WriteAll(o_.progress_fd, Message('U', reason));
    return;
  }
  if (progress_shown_) std::fprintf(stderr, "\r\x1b[K");
  std::fprintf(stderr, "%s", UnconfirmedWarning(reason).c_str());
}

absl::Status Worker::HandleCause(const proto::TestCase& tc, const ResolvedCase& rc,
                                 const Cause& cause) {
  std::vector<std::string> undefined;
  const std::string stored_cause = StoredCause(tc, cause.name, &undefined);
  const std::string key =
      CauseSignature(tc.target(), proto::Instruction_Name(tc.instr()), stored_cause);
  const std::vector<std::string> attrs = SightingAttributes(tc, rc, cause.lanes[0]);
  const std::string shape = attrs.front() + "/" + attrs.back();  // modifiers and MODE
  auto seen = known_.find(key);
  bool extra_example = false;  // a repeat in a shape not yet shown: minimized once more
  if (seen != known_.end()) {
    Known& k = seen->second;
    if (store_ == nullptr || k.shapes.size() >= 1 + kMaxExtraExamples ||
        !k.shapes.insert(shape).second) {  // a repeat: counted, not minimized again
      k.unflushed++;
      for (const std::string& a : attrs) k.attrs[a]++;
      Saw(key);
      stats_.repeats++;
      return absl::OkStatus();
    }
    extra_example = true;
  }
  // Minimize: the predicate re-runs both sides and wants this very cause again.
  StillFails pred = [&](const proto::TestCase& c) -> absl::StatusOr<bool> {
    LANEDIFF_ASSIGN_OR_RETURN(BothSides b, RunBothSides(c, hyp_, *runner_, o_.relax, o_.allow_undefined));
    if (!b.device_status.ok()) return b.device_status;
    if (b.differing.empty()) return false;
    // A smaller word must stay on the same side of the spec: a defined word never stands for
    // an undefined one's finding, nor the reverse.
    if (StoredCause(c, cause.name) != stored_cause) return false;
    return ShowsCause(c, hyp_, b.observed, o_.relax, cause);
  };
  MinimizeStats ms;
  absl::StatusOr<proto::TestCase> small = Minimize(tc, pred, {.hint_lanes = cause.lanes}, &ms);
  if (!small.ok()) {
    Note(absl::StrCat("minimization of a ", tc.target(), " disagreement failed: ",
                      small.status().message()));
    small = tc;  // keep the unminimized case: nothing is dropped
  }
  // Re-run the result on both sides before storing.
  LANEDIFF_ASSIGN_OR_RETURN(BothSides b, RunBothSides(*small, hyp_, *runner_, o_.relax, o_.allow_undefined));
  if (!b.device_status.ok() || b.differing.empty()) {
    Note(absl::StrCat("minimized case no longer disagrees on re-run; storing the original"));
    small = tc;
    LANEDIFF_ASSIGN_OR_RETURN(b, RunBothSides(*small, hyp_, *runner_, o_.relax, o_.allow_undefined));
    if (!b.device_status.ok() || b.differing.empty()) {
      return absl::OkStatus();  // not reproducible: flaky device; counted in disagreeing
    }
  }
  LANEDIFF_ASSIGN_OR_RETURN(ModelSide ms2, RunModel(*small, hyp_));
  LANEDIFF_ASSIGN_OR_RETURN(Classification cls,
                            ClassifyDisagreement(*small, ms2.rc, b.observed, o_.relax));
  proto::Finding f;
  f.set_kind(proto::Finding::DISAGREEMENT);
  *f.mutable_testcase() = *small;
  for (uint32_t w : b.expected) f.add_expected(w);
  for (uint32_t w : b.observed) f.add_observed(w);
  f.set_signature(key);
  f.set_cause(stored_cause);
  for (const std::string& u : undefined) f.add_undefined_by_spec(u);
  for (const std::string& a : attrs) (*f.mutable_attributes())[a] = 1;
  f.set_input_class(cls.input_class);
  if (cause.by_hypothesis) f.set_explained_by(cause.name);
  f.set_assembly(PrintVop3(*ms2.rc.target, ms2.rc.vop3));
  *f.mutable_model() = ModelProvenance(small->target(), hyp_);
  *f.mutable_device() = b.device_provenance;
  if (store_ != nullptr) f.set_repro(Repro(store_->PathFor(f)));
  if (extra_example) {  // flushed with the counts; the store keeps it (bucket_merge.h)
    Known& k = known_[key];
    proto::Finding::Example* x = k.extras.add_more_examples();
    *x->mutable_testcase() = f.testcase();
    *x->mutable_expected() = f.expected();
    *x->mutable_observed() = f.observed();
    k.unflushed++;
    for (const std::string& a : attrs) k.attrs[a]++;
    Saw(key);
    stats_.repeats++;
    return absl::OkStatus();
  }
  LANEDIFF_RETURN_IF_ERROR(Store(std::move(f), key));
  if (auto it = known_.find(key); it != known_.end()) it->second.shapes.insert(shape);
  return absl::OkStatus();
}

absl::Status Worker::HandleFault(const proto::TestCase& tc, const absl::Status& fault) {
  stats_.device_faults++;
  // A fault kind already stored in this run is a repeat: no second bisection.
  // Keyed by the stored cause: each HIP error code is its own cause (FaultCause).
  const std::string pre = absl::StrCat("fault:", tc.target(), ".", proto::Instruction_Name(tc.instr()),
                                       ".", StoredCause(tc, FaultCause(fault)));
  if (auto seen = pre_to_final_.find(pre); seen != pre_to_final_.end()) {
    auto k = known_.find(seen->second);
    if (k != known_.end()) k->second.unflushed++;
    stats_.repeats++;
    return absl::OkStatus();
  }
  // Shrink the lanes by bisection within a budget: a crash costs little, a hang costs the
  // batch timeout per try; and never past the campaign's end.
  const int budget = fault.code() == absl::StatusCode::kDeadlineExceeded ? 6 : 24;
  proto::TestCase best = tc;
  absl::Status best_fault = fault;
  auto out_of_time = [&] { return o_.time_seconds > 0 && Since(t0_) >= o_.time_seconds; };
  for (int calls = 0; calls < budget && best.lanes_size() > 1 && !out_of_time(); ) {
    const int n = best.lanes_size(), half = n / 2;
    bool shrunk = false;
    for (int side = 0; side < 2 && calls < budget; ++side) {
      proto::TestCase c = best;
      if (side == 0) c.mutable_lanes()->DeleteSubrange(half, n - half);
      else c.mutable_lanes()->DeleteSubrange(0, half);
      ++calls;
      absl::StatusOr<DeviceBatch> batch = BuildDeviceBatch(c, o_.allow_undefined);
      if (!batch.ok()) continue;
      absl::StatusOr<DeviceResult> r = runner_->Run(*batch);
      if (!r.ok() && IsDeviceFault(r.status())) {
        best = std::move(c);
        best_fault = r.status();
        shrunk = true;
        break;
      }
    }
    if (!shrunk) break;
  }
  proto::Finding f;
  f.set_kind(proto::Finding::DEVICE_FAULT);
  *f.mutable_testcase() = best;
  f.set_fault(std::string(best_fault.message()));  // the device's exact words
  std::vector<std::string> undefined;
  // The input class is an attribute, not part of the key.
  f.set_cause(StoredCause(best, FaultCause(best_fault), &undefined));
  for (const std::string& u : undefined) f.add_undefined_by_spec(u);
  f.set_signature(CauseSignature(best.target(), proto::Instruction_Name(best.instr()), f.cause()));
  if (absl::StatusOr<ResolvedCase> r1 = ResolveTestCase(best); r1.ok() && best.lanes_size() > 0) {
    for (const std::string& a : SightingAttributes(best, *r1, 0)) (*f.mutable_attributes())[a] = 1;
  }
  *f.mutable_model() = ModelProvenance(best.target(), hyp_);
  proto::Provenance* dev = f.mutable_device();
  dev->set_runner(o_.device);
  dev->set_device(runner_->Describe());
  dev->set_target(best.target());
  for (const std::string& e : o_.inject) dev->add_injected(e);
  dev->set_lanediff_version(LANEDIFF_VERSION);
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(best);
  if (rc.ok()) f.set_assembly(PrintVop3(*rc->target, rc->vop3));
  if (store_ != nullptr) f.set_repro(Repro(store_->PathFor(f)));
  return Store(std::move(f), pre);
}

// Counts one case's outcome (invalid, unsupported, refused, fault, disagreement) and keeps it
// in the pool when asked. A non-OK return stops the campaign (the store failed, or every case
// is invalid, or the device refuses everything).
absl::Status Worker::Account(FlatCase& c, absl::StatusOr<BothSides> both, bool keep_in_pool,
                             uint64_t* consecutive_refusals) {
  if (!both.ok()) {  // the case itself is invalid (resolver, batch builder)
    stats_.invalid++;
    if (o_.verbose || stats_.invalid <= 3) Note(std::string(both.status().message()));
    if (stats_.invalid > 1000 && stats_.execs == 0) {
      return absl::InternalError(absl::StrCat(
          "every generated case was refused as invalid; first reason: ", stats_.errors[0]));
    }
    return absl::OkStatus();
  }
  stats_.execs++;
  if (IsUnsupported(both->device_status)) {  // the device cannot run it: counted, no finding
    if (stats_.unsupported++ < 3) Note(std::string(both->device_status.message()));
    Progress(false);
    return absl::OkStatus();
  }
  // Not the instruction's failure: counted, never stored; a few in a row stop the campaign
  // (only the first case of a round moves the count: its siblings share its launch).
  if (IsEnvironmentError(both->device_status)) {
    stats_.environment_errors++;
    if (stats_.environment_errors <= 3) Note(std::string(both->device_status.message()));
    if (keep_in_pool && ++environment_errors_in_a_row_ >= kEnvironmentErrorsInARow) {
      return absl::FailedPreconditionError(absl::StrCat(
          "stopped: ", environment_errors_in_a_row_,
          " environment errors in a row (failures that are not the instruction's; nothing was "
          "stored for them); last: ", both->device_status.message()));
    }
    Progress(false);
    return absl::OkStatus();
  }
  if (keep_in_pool) environment_errors_in_a_row_ = 0;
  stats_.lanes += c.size();
  stats_.coverage.Add(c.header.target(), c.header.instr(), ModifierSet(c.header, both->ctx.mods),
                      ModeClass(both->ctx.mode), c.size());
  if (stats_.device_driver.empty() && both->device_status.ok()) {
    stats_.device_driver = DriverOf(both->device_provenance);
  }
  if (!both->device_status.ok()) {
    if (IsDeviceFault(both->device_status)) {
      (*consecutive_refusals) = 0;
      absl::Status s = HandleFault(ToProto(c), both->device_status);
      if (!s.ok()) return s;  // the store failed: nothing may be lost silently
    } else {
      stats_.refused++;
      if (++(*consecutive_refusals) >= 50) {
        return absl::UnavailableError(absl::StrCat(
            "the device refused 50 batches in a row; last: ", both->device_status.message()));
      }
      if (stats_.refused <= 3) Note(std::string(both->device_status.message()));
    }
    Progress(false);
    return absl::OkStatus();
  }
  (*consecutive_refusals) = 0;
  // Input-class coverage: a sample of lanes.
  {
    OpContext ctx = both->ctx;
    ctx.hyp = Hypotheses{};  // as the case resolves, whatever --hypothesis says
    const LaneView v = both->resolved;
    for (size_t i = 0; i < v.size && i < 64; ++i) {
      stats_.classes[ClassIndex(ClassifyInput(ctx, v.src0[i], v.src1[i]))]++;
    }
  }
  if (!both->differing.empty()) {
    absl::Status s = HandleDisagreement(ToProto(c), *both);  // protobuf at the edge only
    if (!s.ok()) return s;
  }
  if (!keep_in_pool) {
    Progress(false);
    return absl::OkStatus();
  }
  if (pool_.size() < kPoolSize) {
    pool_.push_back(std::move(c));
  } else {
    pool_[pool_next_++ % kPoolSize] = std::move(c);
  }
  Progress(false);
  return absl::OkStatus();
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
  const size_t per_case = cases[0].size();
  const uint64_t budget = o_.max_execs == 0 ? UINT64_MAX : o_.max_execs - stats_.execs;
  if (per_case > 0) {
    LaneGen gen(cases[0].header);
    for (size_t lanes = per_case; lanes < launch_lanes_ && cases.size() < budget; lanes += per_case) {
      FlatCase c;
      c.header = cases[0].header;
      // Aimed or not is drawn first: an aimed sibling's lanes are drawn only where aiming
      // leaves them (a cold aim table that found fewer than per_case lanes).
      if (static_cast<int>(rng_.Below(100)) < o_.aim_percent) {
        c.lanes.Resize(per_case);
        if (!aim_header) aim_header.emplace(cases[0].header);
        gen.FillFrom(rng_, &c.lanes, AimLanes(rng_, hyp_, *aim_header, &c, &aim_scratch_));
      } else {
        gen.Fill(rng_, &c.lanes, per_case);
      }
      cases.push_back(std::move(c));
    }
  }
  // `cases` no longer grows: BothSides::resolved may point into its lanes from here on.
  both.resize(cases.size());
  batches.resize(cases.size());
  std::vector<absl::Status> invalid(cases.size());
  for (size_t i = 1; i < cases.size(); ++i) {
    invalid[i] = PrepareSibling(cases[i], both[0], batches[0], routing, &both[i], &batches[i]);
  }
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
        FinishBothSides(std::move(per[k]), o_.relax, &both[index[g.cases[k]]]);
      }
    } else if (IsDeviceFault(r.status()) && g.cases.size() > 1) {
      Note(absl::StrCat("a batch of ", g.cases.size(), " grouped cases faulted, rerun case by case: ",
                        r.status().message()));
      for (size_t k : g.cases) {
        const FlatCase& c = cases[index[k]];
        absl::StatusOr<DeviceBatch> alone = BuildDeviceBatch(c.header, c.lanes.view(), o_.allow_undefined);
        FinishBothSides(alone.ok() ? runner_->Run(*alone) : absl::StatusOr<DeviceResult>(alone.status()),
                        o_.relax, &both[index[k]]);
      }
    } else {
      for (size_t k : g.cases) FinishBothSides(r.status(), o_.relax, &both[index[k]]);
    }
  }
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

absl::StatusOr<CampaignStats> Worker::Run() {
  LANEDIFF_RETURN_IF_ERROR(Setup());
  t0_ = Clock::now();
  last_progress_ = t0_;
  uint64_t consecutive_refusals = 0;
  while (!(stop_ != nullptr && stop_->load())) {
    if (o_.max_execs != 0 && stats_.execs >= o_.max_execs) break;
    if (o_.stop_after_findings != 0 && stats_.new_findings >= o_.stop_after_findings) break;
    if (o_.time_seconds > 0 && Since(t0_) >= o_.time_seconds) break;
    if (launch_lanes_ > 0) {
      LANEDIFF_RETURN_IF_ERROR(RunRound(&consecutive_refusals));
      continue;
    }
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
    LANEDIFF_RETURN_IF_ERROR(Account(c, std::move(both), /*keep_in_pool=*/true, &consecutive_refusals));
  }
  FlushCounts();
  stats_.seconds = Since(t0_);
  stats_.timeline.Close(Sample(stats_, stats_.seconds));
  if (progress_shown_) {
    std::fprintf(stderr, "\r%s\x1b[K\n", ProgressLine(stats_, stats_.seconds, 0, 0).c_str());
  }
  std::sort(stats_.new_signatures.begin(), stats_.new_signatures.end());
  return stats_;
}

}  // namespace

proto::Provenance ModelProvenance(const std::string& target, const Hypotheses& hyp) {
  proto::Provenance p;
  p.set_runner("model");
  p.set_device("model");
  p.set_target(target);
  for (const std::string& h : HypothesisSettings(hyp)) p.add_hypotheses(h);
  p.set_lanediff_version(LANEDIFF_VERSION);
  return p;
}

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
  LANEDIFF_RETURN_IF_ERROR(PrepareBothSides(c, hyp, &b, &batch, allow_undefined));
  FinishBothSides(runner.Run(batch), relax, &b);
  return b;
}

std::string StoredCause(const proto::TestCase& tc, const std::string& cause,
                        std::vector<std::string>* violations) {
  absl::StatusOr<const TargetTraits*> t = FindTarget(tc.target());
  if (!t.ok()) return cause;
  absl::StatusOr<Vop3Instr> in = Vop3FromTestCase(**t, tc, HarnessDefaultRegisters());
  if (!in.ok()) return cause;
  std::vector<std::string> v = SpecViolations(**t, *in);
  if (v.empty()) return cause;
  if (violations != nullptr) *violations = std::move(v);
  return absl::StrCat("undefined_by_spec.", cause);
}

size_t AimLanes(const Mutator&, Rng& rng, const Hypotheses& hyp, proto::TestCase* tc) {
  FlatCase c = Flatten(std::move(*tc));
  const size_t aimed = AimLanes(rng, hyp, &c);
  *tc = ToProto(c);
  return aimed;
}

absl::StatusOr<CampaignStats> RunCampaign(const CampaignOptions& options,
                                          const std::atomic<bool>* stop) {
  LANEDIFF_RETURN_IF_ERROR(campaign_internal::CheckOptions(options));
  Worker w(options, stop);
  return w.Run();
}

}  // namespace lanediff
