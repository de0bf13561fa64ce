// `lanediff bench`: the model's throughput, lanes per second, per instruction and per target
// family, through the batch API (Evaluate) on one thread, with batches that fit in L2.
// `--campaign` measures the whole campaign on the simulator against that rate.
//
//   lanediff bench                 # a table
//   lanediff bench --time 2 --json
//   lanediff bench --campaign      # campaign lanes/s, --aim 0 vs 100, --jobs 1 vs 2, peak RSS
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/bench_pipeline.h"
#include "fuzz/cli/commands.h"
#include "fuzz/engine/peak_rss.h"
#include "model/ops/ops.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// 16384 lanes x (4 operand arrays + 1 result) x 4 bytes = 320 KiB: inside a 512 KiB+ L2.
constexpr size_t kBatchLanes = 16384;

struct Result {
  Instr instr;
  const TargetTraits* target;
  double lanes_per_second;       // per second of this thread's CPU time
  double lanes_per_wall_second;  // per second of wall-clock time
};

std::string BuildDescription() {
  std::string s;
#if defined(__clang__)
  absl::StrAppend(&s, "clang ", __clang_major__, ".", __clang_minor__);
#elif defined(__GNUC__)
  absl::StrAppend(&s, "gcc ", __GNUC__, ".", __GNUC_MINOR__);
#endif
#ifdef NDEBUG
  absl::StrAppend(&s, ", NDEBUG (optimised build)");
#else
  absl::StrAppend(&s, ", assertions on (not an optimised build: numbers mean little)");
#endif
#if defined(__SANITIZE_ADDRESS__)
  absl::StrAppend(&s, ", ASan");
#endif
#if defined(__x86_64__)
  __builtin_cpu_init();
  // model/ops/kernel.h compiles the inner loops for AVX-512F, AVX2 and baseline x86-64; the
  // loader picks one (the same test as the ifunc resolver's).
#if defined(__SANITIZE_ADDRESS__) || defined(LANEDIFF_NO_MULTIVERSION)
  absl::StrAppend(&s, ", baseline x86-64 inner loops (multiversioning off in this build)");
#else
  const char* isa = __builtin_cpu_supports("avx512f") ? "AVX-512F"
                    : __builtin_cpu_supports("avx2")  ? "AVX2"
                                                      : "baseline x86-64";
  absl::StrAppend(&s, ", inner loops: ", isa, " clone (target_clones avx512f/avx2/default)");
#endif
#endif
  return s;
}

double ProcessCpuSeconds(int who) {
  rusage ru{};
  getrusage(who, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

struct CampaignRate {
  uint64_t lanes = 0;
  double cpu = 0, wall = 0;
  double PerCpu() const { return cpu > 0 ? static_cast<double>(lanes) / cpu : 0; }
  double PerWall() const { return wall > 0 ? static_cast<double>(lanes) / wall : 0; }
};

// A campaign on the simulator, no corpus, `seconds` of wall time. One job runs in this thread
// (its CPU time is this thread's); more jobs are worker processes (their CPU time is what the
// waited-for children used).
absl::StatusOr<CampaignRate> MeasureCampaign(int aim, int jobs, double seconds) {
  CampaignOptions o;
  o.device = "sim";
  o.aim_percent = aim;
  o.jobs = jobs;
  o.time_seconds = seconds;
  o.progress = false;
  const auto wall0 = std::chrono::steady_clock::now();
  const double cpu0 = jobs > 1 ? ProcessCpuSeconds(RUSAGE_CHILDREN) : ThreadCpuSeconds();
  absl::StatusOr<CampaignStats> s = RunCampaignJobs(o, nullptr);
  if (!s.ok()) return s.status();
  CampaignRate r;
  r.lanes = s->lanes;
  r.cpu = (jobs > 1 ? ProcessCpuSeconds(RUSAGE_CHILDREN) : ThreadCpuSeconds()) - cpu0;
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return r;
}

std::string LoadAverage() {
  double l[3] = {0, 0, 0};
  if (getloadavg(l, 3) != 3) return "unknown";
  return absl::StrFormat("%.2f %.2f %.2f", l[0], l[1], l[2]);
}

int RunCampaignBench(double seconds, double model_pk_u8) {
  std::printf("lanediff bench --campaign: --device=sim, no corpus, %.1f wall-s per run; %s\n",
              seconds, BuildDescription().c_str());
  std::printf("load average before: %s on %ld CPUs (per-CPU-second figures are the honest ones "
              "on a shared machine)\n",
              LoadAverage().c_str(), sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("model pk_u8 rate:            %8.1f M lanes/CPU-s (best family, 16384-lane batches)\n",
              model_pk_u8 / 1e6);
  struct Row {
    const char* name;
    int aim, jobs;
  };
  const Row rows[] = {{"default (--aim 50)", 50, 1}, {"--aim 0", 0, 1}, {"--aim 100", 100, 1},
                      {"--jobs 2 (--aim 50)", 50, 2}};
  CampaignRate got[4];
  for (int i = 0; i < 4; ++i) {
    absl::StatusOr<CampaignRate> r = MeasureCampaign(rows[i].aim, rows[i].jobs, seconds);
    if (!r.ok()) {
      std::fprintf(stderr, "lanediff bench: campaign %s: %s\n", rows[i].name,
                   std::string(r.status().message()).c_str());
      return kExitEnvironment;
    }
    got[i] = *r;
    std::printf("campaign %-20s %8.2f M lanes/CPU-s  %8.2f M lanes/wall-s  (%.1fM lanes, %.2f "
                "CPU-s, %d job%s)\n",
                rows[i].name, r->PerCpu() / 1e6, r->PerWall() / 1e6,
                static_cast<double>(r->lanes) / 1e6, r->cpu, rows[i].jobs,
                rows[i].jobs == 1 ? "" : "s");
  }
  const double ratio = model_pk_u8 / std::max(got[0].PerCpu(), 1.0);
  std::printf("default campaign = 1/%.0f of the model's pk_u8 rate per CPU-second (target: 1/300 "
              "or better) %s\n",
              ratio, ratio <= 300 ? "ok" : "MISSED");
  const double aim_cost = got[1].PerCpu() / std::max(got[2].PerCpu(), 1.0);
  std::printf("--aim 100 costs %.2fx --aim 0 per lane (target: 1.5x or less) %s\n", aim_cost,
              aim_cost <= 1.5 ? "ok" : "MISSED");
  std::printf("--jobs 2: %.2fx the lanes per wall-second of one job, %.2fx per CPU-second\n",
              got[3].PerWall() / std::max(got[0].PerWall(), 1.0),
              got[3].PerCpu() / std::max(got[0].PerCpu(), 1.0));
  constexpr size_t kRssLanes = 65536;
  constexpr uint64_t kRssExecs = 160;  // more than the 64-case pool: the pool is full
  absl::StatusOr<double> rss =
      PeakRssMiB({"/proc/self/exe", "fuzz", "--device=sim", "--seed=1",
                  absl::StrCat("--lanes-per-batch=", kRssLanes), absl::StrCat("--execs=", kRssExecs)});
  if (!rss.ok()) {
    std::fprintf(stderr, "lanediff bench: %s\n", std::string(rss.status().message()).c_str());
    return kExitEnvironment;
  }
  std::printf("peak RSS at %zu lanes per batch (%llu cases, one job): %.1f MiB (bound: 100 MB) "
              "%s\n",
              kRssLanes, static_cast<unsigned long long>(kRssExecs), *rss,
              *rss * 1.048576 < 100 ? "ok" : "MISSED");
  std::printf("load average after: %s\n", LoadAverage().c_str());
  return kExitOk;
}

// The rows as a JSON array (--json).
void PrintResultsJson(const std::vector<Result>& results) {
  std::printf("[\n");
  for (size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    std::printf("  {\"instr\": \"%s\", \"target\": \"%s\", \"family\": \"%s\", "
                "\"lanes_per_second\": %.0f, \"lanes_per_wall_second\": %.0f}%s\n",
                std::string(InstrName(r.instr)).c_str(), std::string(r.target->name).c_str(),
                std::string(FamilyName(r.target->family)).c_str(), r.lanes_per_second,
                r.lanes_per_wall_second, i + 1 < results.size() ? "," : "");
  }
  std::printf("]\n");
}

// The rows as a table, with what the two rates mean.
void PrintResultsTable(const std::vector<Result>& results, double seconds) {
  std::printf("lanediff bench: one thread, %zu-lane batches, %.2f CPU-s per row; %s\n",
              kBatchLanes, seconds, BuildDescription().c_str());
  std::printf("%-18s %-8s %-8s %16s %16s\n", "instruction", "target", "family",
              "G lanes/CPU-s", "G lanes/wall-s");
  for (const Result& r : results) {
    std::printf("%-18s %-8s %-8s %16.3f %16.3f\n", std::string(InstrName(r.instr)).c_str(),
                std::string(r.target->name).c_str(),
                std::string(FamilyName(r.target->family)).c_str(), r.lanes_per_second / 1e9,
                r.lanes_per_wall_second / 1e9);
  }
  std::printf("lanes per CPU-second count only the time this thread ran (robust on a shared\n"
              "machine); lanes per wall-second include time spent waiting for a core.\n");
}

int RunBench(int argc, char** argv) {
  Args args("bench",
            "Measure the model: lanes per second for each instruction on one target per VOP3\n"
            "family, through the batch API (Evaluate), one thread, 16384-lane batches (fit in\n"
            "L2), random operands concentrated where the formats live.");
  double seconds = 0.5;
  bool json = false;
  args.Double("time", "thread CPU time per measurement", {0, 3600, true},
              &seconds);
  bool campaign = false;
  double campaign_seconds = 5;
  args.Bool("campaign",
            "also measure the campaign (`lanediff fuzz --device=sim`): lanes/s with default "
            "flags against the model's pk_u8 rate, --aim 0 vs --aim 100, --jobs 1 vs 2, peak "
            "RSS at 65,536 lanes per batch",
            &campaign);
  args.Double("campaign-time", "wall time per campaign run", {0, 3600, true},
              &campaign_seconds);
  bool pipeline = false;
  args.Bool("pipeline",
            "measure the host's ceiling on a GPU instead: the whole campaign pipeline against the "
            "fake HIP runtime with a device that answers at once (grouped 64K-lane launches vs "
            "not, --aim 0/50/100), and the device child's pipe; --campaign-time per row",
            &pipeline);
  std::string cost_model;
  args.Flag("cost-model", "print the expected lanes/s of a campaign on GPU (mi300x), from its documented "
              "peaks, stated assumptions and the host costs measured now (as --pipeline)",
              &cost_model);
  uint64_t cores = static_cast<uint64_t>(sysconf(_SC_NPROCESSORS_ONLN));
  args.Uint("cores", "host cores the cost model gives the campaign (default: this machine's)",
            1, 4096, &cores);
  args.Bool("json",
            "print a JSON array of {instr, target, family, lanes_per_second (per CPU-second), "
            "lanes_per_wall_second}",
            &json);
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (!(seconds > 0)) {
    std::fprintf(stderr, "lanediff bench: --time must be positive\n");
    return kExitUsage;
  }
  if (!cost_model.empty()) return RunCostModelBench(cost_model, static_cast<int>(cores), campaign_seconds);
  if (pipeline) return RunPipelineBench(campaign_seconds);

  std::mt19937 rng(12345);
  LaneBatch lanes;
  for (size_t i = 0; i < kBatchLanes; ++i) {
    const uint32_t r = rng();
    // Three in four src0 values between 2^-15 and 2^17 (both signs), one in four anywhere.
    const uint32_t s0 = (i % 4 == 3) ? r : ((r & 0x80ffffffu) | ((0x70u + (r >> 24) % 32) << 23));
    lanes.Add(s0, rng(), rng(), rng());
  }
  std::vector<uint32_t> out(kBatchLanes * kMaxDstWords);

  std::vector<Result> results;
  for (Instr instr : kAllInstrs) {
    bool seen[kNumFamilies] = {};
    for (const TargetTraits& t : AllTargets()) {
      if (!t.Has(instr) || seen[static_cast<int>(t.family)]) continue;
      seen[static_cast<int>(t.family)] = true;
      OpContext ctx;
      ctx.target = &t;
      ctx.instr = instr;
      const absl::Span<uint32_t> out_words =
          absl::MakeSpan(out.data(), OutputWords(instr, lanes.size()));
      if (absl::Status s = Evaluate(ctx, lanes.view(), out_words); !s.ok()) {
        std::fprintf(stderr, "lanediff bench: %s\n", std::string(s.message()).c_str());
        return kExitEnvironment;
      }
      using Clock = std::chrono::steady_clock;
      const auto wall_start = Clock::now();
      const double cpu_start = ThreadCpuSeconds();
      uint64_t done = 0;
      double cpu = 0;
      do {
        for (int rep = 0; rep < 16; ++rep) {
          (void)Evaluate(ctx, lanes.view(), out_words);
          done += kBatchLanes;
        }
        cpu = ThreadCpuSeconds() - cpu_start;
      } while (cpu < seconds);
      const double wall = std::chrono::duration<double>(Clock::now() - wall_start).count();
      results.push_back({instr, &t, static_cast<double>(done) / cpu,
                         static_cast<double>(done) / wall});
    }
  }

  if (campaign) {
    double best_pk_u8 = 0;
    for (const Result& r : results) {
      // The reference rate: the first row of model/instrs.def (pk_u8).
      if (r.instr == kAllInstrs[0]) best_pk_u8 = std::max(best_pk_u8, r.lanes_per_second);
    }
    return RunCampaignBench(campaign_seconds, best_pk_u8);
  }
  if (json) PrintResultsJson(results);
  else PrintResultsTable(results, seconds);
  return kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(80, "bench", "the model's speed: lanes per second per instruction",
                          RunBench);

}  // namespace lanediff
