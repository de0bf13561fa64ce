// `lanediff fuzz`: the campaign driver (fuzz/engine/campaign.h).
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "device_harness/open_runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/json_line.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/triage/run_identity.h"
#include "model/base/version.h"
#include "model/isa/testcase.h"
#include "proto/report.pb.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

std::atomic<bool> g_stop{false};

void OnSigint(int) { g_stop.store(true); }

// --json: a "finding" line as each new finding is stored (from the worker that stored it;
// one write per line, so lines of several workers never interleave), then a "summary" line.
void PrintFindingJson(const proto::Finding& f, const std::string& path) {
  const std::string line = JsonLine()
                               .Str("type", "finding")
                               .Str("signature", f.signature())
                               .Str("target", f.testcase().target())
                               .Str("instr", proto::Instruction_Name(f.testcase().instr()))
                               .Str("path", path)
                               .Text() +
                           "\n";
  std::fflush(stdout);
  (void)!::write(STDOUT_FILENO, line.data(), line.size());
}

void PrintFuzzJson(const CampaignOptions& o, const CampaignStats& s, bool interrupted) {
  std::printf("%s\n", JsonLine()
                          .Str("type", "summary")
                          .Str("device", s.device_description)
                          .Strs("targets", o.targets)
                          .Uint("seed", o.seed)
                          .Uint("execs", s.execs)
                          .Uint("lanes", s.lanes)
                          .Num("seconds", s.seconds)
                          .Uint("disagreeing", s.disagreeing)
                          .Uint("device_faults", s.device_faults)
                          .Uint("environment_errors", s.environment_errors)
                          .Uint("refused", s.refused)
                          .Uint("invalid", s.invalid)
                          .Uint("unsupported", s.unsupported)
                          .Uint("unconfirmed", s.unconfirmed)
                          .Uint("device_calls", s.device_calls)
                          .Uint("triage_device_calls", s.triage_device_calls)
                          .Uint("new_findings", s.new_findings)
                          .Uint("repeats", s.repeats)
                          .Strs("signatures", {s.signatures.begin(), s.signatures.end()})
                          .Strs("errors", s.errors)
                          .Bool("interrupted", interrupted)
                          .Text()
                          .c_str());
}

// --targets and --instrs into `o`: an exit code for a name that is not one, else -1.
int ParseTargetsAndInstrs(const std::string& targets, const std::string& instrs,
                          CampaignOptions* o) {
  if (int rc = ParseInstrList("fuzz", instrs, &o->instrs); rc >= 0) return rc;
  return ParseTargetList("fuzz", targets, &o->targets);
}

// --shard i/n: this shard's seed, worker index and share of --execs (an exit code when the
// spec is bad or leaves the shard nothing to run, else -1).
int ApplyShard(const std::string& shard, uint64_t seed, uint64_t jobs, uint64_t execs,
               CampaignOptions* o) {
  uint64_t i = 0, n = 0;
  std::vector<std::string> parts = absl::StrSplit(shard, '/');
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &i) || !absl::SimpleAtoi(parts[1], &n) ||
      n == 0 || i < 1 || i > n) {
    std::fprintf(stderr, "lanediff fuzz: --shard '%s' is not i/n with 1 <= i <= n\n", shard.c_str());
    return kExitUsage;
  }
  // Shard i/n is worker i-1 of `--jobs n` (RunCampaignJobs: seed + worker, the worker index
  // in the PRNG, an equal share of --execs), so n one-job shards run exactly the cases one
  // `--jobs n` run does. With --jobs J per shard, its workers take seeds seed + (i-1)*J + w:
  // still no overlap anywhere in the fleet.
  o->seed = seed + (i - 1) * jobs;
  if (jobs == 1) o->worker = static_cast<int>(i - 1);
  if (execs != 0) {
    o->max_execs = execs / n + (i - 1 < execs % n ? 1 : 0);
    if (o->max_execs == 0) {
      std::fprintf(stderr, "lanediff fuzz: --execs %llu leaves shard %s no case to run\n",
                   static_cast<unsigned long long>(execs), shard.c_str());
      return kExitOk;
    }
  }
  return -1;
}

// --out: one CampaignSummary for the whole run; the report's matrix places it when the run
// covered exactly one target and one instruction.
proto::RunRecord CampaignRecord(const CampaignOptions& o, CampaignStats* s,
                                const std::vector<std::string>& relax) {
  proto::RunRecord record;
  record.set_started(NowRfc3339());
  *record.mutable_identity() =
      MakeRunIdentity(o.device, s->device_description, o.inject, o.hypotheses, o.seed);
  record.mutable_identity()->set_driver(s->device_driver);
  record.set_lanediff_version(LANEDIFF_VERSION);
  proto::CampaignSummary* c = record.add_campaigns();
  std::vector<std::string> targets = o.targets;  // empty: every target
  if (targets.empty()) {
    for (const TargetTraits& t : AllTargets()) targets.push_back(std::string(t.name));
  }
  c->set_target(absl::StrJoin(targets, ","));
  if (o.instrs.size() == 1) {
    c->set_instr(InstrToProto(o.instrs[0]));
  }
  c->set_device(s->device_description);
  c->set_on_silicon(absl::StartsWith(s->device_description, "hip"));
  c->set_testcases(s->execs);
  c->set_lanes(s->lanes);
  c->set_findings(s->new_findings);
  c->set_faults(s->device_faults);
  c->set_seconds(s->seconds);
  for (const std::string& e : o.inject) c->add_injected(e);
  for (const std::string& x : relax) c->add_relaxations(x);
  for (proto::CoverageCell& cell : s->coverage.Cells()) *c->add_coverage() = std::move(cell);
  for (const proto::StatsSample& x : s->timeline.samples()) *c->add_timeline() = x;
  c->set_buckets(s->buckets.size());
  c->set_unconfirmed(s->unconfirmed);
  return record;
}

int RunFuzz(int argc, char** argv) {
  Args args("fuzz",
            "Hunt disagreements between the model and a device: generate and mutate test cases,\n"
            "run both sides, compare every bit of every lane, minimize each new disagreement,\n"
            "classify it and store one finding per signature under <corpus>/findings/.");
  std::string targets, instrs, corpus, shard, summary_out;
  std::vector<std::string> hyps, relax;
  double time_s = 0;
  DeviceFlags dev(/*default_timeout_seconds=*/2);
  uint64_t execs = 0, seed = 1, jobs = 1, lanes = 1024, aim = 50;
  bool quiet = false, verbose = false, json = false, allow_undefined = false;
  args.Flag("targets", "comma list of gfx targets (default: all)", &targets);
  args.Flag("instrs", "comma list of instructions (default: all)", &instrs);
  dev.Declare(args);
  args.Repeated("hypothesis", "model-side hypothesis (repeatable)", &hyps);
  args.Double("time", "stop after this long (0: no limit)", kDurationRange, &time_s);
  args.Uint("execs", "stop after N test cases (batches; with --shard, the fleet's total)",
            uint64_t{1} << 62, &execs);
  args.Uint("seed", "PRNG seed: same seed + same device = same findings", ~uint64_t{0},
            &seed);
  args.Uint("jobs", "worker processes sharing the corpus (1..256)", 1, 256, &jobs);
  args.Flag("corpus", "corpus root: findings stored in DIR/findings, seeds read from "
            "DIR/seeds (default: nothing stored)", &corpus);
  args.Uint("lanes-per-batch", absl::StrCat("lanes per test case (one launch; 1..", kMaxLanes, ")"), 1, kMaxLanes,
            &lanes);
  args.Repeated("relax", "comparison relaxation: nan_payload, unwritten_bytes", &relax);
  args.Uint("aim", "batches whose lanes are aimed where hypotheses disagree", 100,
            &aim);
  args.Flag("shard", "this machine's share of a fleet run: worker i of --jobs n (its seed, "
            "its share of --execs), so n shards find what one --jobs n run finds; join their "
            "corpora with `lanediff corpus merge`", &shard);
  args.Flag("out", "write the campaign's counts as a RunRecord file (lanediff report)",
            &summary_out);
  args.Bool("allow-undefined", "also generate and run words that break a documented ISA "
            "restriction (more SGPR/literal reads than the constant bus takes: 1 on GFX9, 2 on "
            "GFX10+); their findings are labelled undefined-by-spec (cause undefined_by_spec.*)",
            &allow_undefined);
  args.Bool("quiet", "no live progress line", &quiet);
  args.Bool("verbose", "report every invalid case", &verbose);
  args.Bool("json", "JSON Lines on stdout: one object per new finding as it is stored, then the "
            "summary (docs/json.md); the human summary stays on stderr", &json);
  args.Epilog(
      "examples:\n"
      "  lanediff fuzz --device=sim --inject sr_wrap --execs 2000 --corpus /tmp/c\n"
      "  lanediff fuzz --device=auto --time 60 --corpus corpus --jobs 2\n"
      "exit codes: 0 no new finding, 1 new findings stored, 2 usage, 3 device or environment\n"
      "error (unwritable corpus, no device).");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = CheckOutputFile("fuzz", "--out", summary_out); rc >= 0) return rc;
  if (int rc = dev.CheckPath("fuzz"); rc >= 0) return rc;
  CampaignOptions o;
  if (int rc = ParseTargetsAndInstrs(targets, instrs, &o); rc >= 0) return rc;
  absl::StatusOr<Relaxations> r = ParseRelaxations(relax);
  if (!r.ok()) {
    std::fprintf(stderr, "lanediff fuzz: --relax: %s\n", std::string(r.status().message()).c_str());
    return kExitUsage;
  }
  Hypotheses check;
  if (int rc = ApplyHypothesisFlags("fuzz", hyps, &check); rc >= 0) return rc;
  if (time_s <= 0 && execs == 0) {
    std::fprintf(stderr, "lanediff fuzz: give --time SECONDS or --execs N\n");
    return kExitUsage;
  }
  {  // hip (and auto picking a GPU): only the targets the GPU in use is
    RunnerOptions ro = dev.Options();
    ro.hypotheses = hyps;
    absl::StatusOr<std::vector<std::string>> t = CampaignTargets(dev.device, ro, o.targets);
    if (!t.ok()) {
      std::fprintf(stderr, "lanediff fuzz: --device=%s: %s\n", dev.device.c_str(),
                   std::string(t.status().message()).c_str());
      return t.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage
                                                                      : kExitEnvironment;
    }
    o.targets = *std::move(t);
  }
  o.relax = *r;
  o.device = dev.device;
  o.inject = dev.inject;
  o.hypotheses = hyps;
  o.time_seconds = time_s;
  o.max_execs = execs;
  o.seed = seed;
  if (!shard.empty()) {
    if (int rc = ApplyShard(shard, seed, jobs, execs, &o); rc >= 0) return rc;
  }
  o.jobs = static_cast<int>(jobs);
  o.corpus = corpus;
  o.lanes_per_batch = lanes;
  o.aim_percent = static_cast<int>(aim);
  o.batch_timeout_seconds = dev.timeout;
  o.start_timeout_seconds = dev.start_timeout;
  o.allow_undefined = allow_undefined;
  o.progress = !quiet;
  o.verbose = verbose;
  if (json) o.on_new_finding = PrintFindingJson;
  struct sigaction sa = {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  absl::StatusOr<CampaignStats> s = RunCampaignJobs(o, &g_stop);
  if (!s.ok()) {
    std::fprintf(stderr, "\nlanediff fuzz: %s\n", std::string(s.status().message()).c_str());
    const bool usage = s.status().code() == absl::StatusCode::kInvalidArgument;
    return usage ? kExitUsage : kExitEnvironment;
  }
  if (!s->note.empty()) std::fprintf(stderr, "%s\n", s->note.c_str());
  std::fputs(FormatSummary(o, *s).c_str(), stderr);
  if (g_stop.load()) std::fprintf(stderr, "  (interrupted: everything found so far is stored)\n");
  if (json) PrintFuzzJson(o, *s, g_stop.load());
  if (!summary_out.empty()) {
    const proto::RunRecord record = CampaignRecord(o, &*s, relax);
    if (absl::Status st = WriteFileAtomic(summary_out, ToText(record)); !st.ok()) {
      std::fprintf(stderr, "lanediff fuzz: %s\n", std::string(st.message()).c_str());
      return kExitEnvironment;
    }
  }
  return s->new_findings > 0 ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(30, "fuzz", "the campaign: mutate, run model and device, minimize, store",
                          RunFuzz);

}  // namespace lanediff
