#include "fuzz/cli/bench_pipeline.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "device_harness/hip/fake_hip_api.h"
#include "device_harness/hip/fake_sim_kernel.h"
#include "device_harness/hip/launch_pipeline.h"
#include "device_harness/isolation/isolated_runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/cli/commands.h"
#include "fuzz/engine/cost_model.h"
#include "fuzz/engine/lane_gen.h"
#include "fuzz/engine/mutator.h"
#include "model/targets/targets.h"

namespace lanediff {

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

namespace {

struct PipelineRate {
  uint64_t lanes = 0, execs = 0, disagreeing = 0, refused = 0, launches = 0;
  double cpu = 0;         // this thread, the whole campaign
  double device_cpu = 0;  // of which the fake device computing the answers (excluded)
  double wall = 0;
  double HostCpu() const { return cpu - device_cpu; }
  double PerHostCpu() const { return HostCpu() > 0 ? static_cast<double>(lanes) / HostCpu() : 0; }
};

// A campaign on the HIP runner over the fake HIP runtime, in this thread. The fake's kernel
// computes the right answers with the simulator (so the campaign compares and finds nothing,
// as against a correct GPU) and its CPU time is measured and taken out: what remains is the
// host's work with a device that answers at once.
absl::StatusOr<PipelineRate> MeasurePipeline(int aim, int64_t launch_lanes, double seconds) {
  PipelineRate r;
  double device_cpu = 0;
  uint64_t launches = 0;
  CampaignOptions o;
  o.device = "hip";
  o.targets = {"gfx942"};
  o.aim_percent = aim;
  o.launch_lanes = launch_lanes;
  o.time_seconds = seconds;
  o.progress = false;
  o.known_answer_check = CampaignOptions::KnownAnswerCheck::never;
  o.open_runner = [&](const RunnerOptions&) -> absl::StatusOr<std::unique_ptr<Runner>> {
    FakeKernel sim = SimFakeKernel({});
    FakeHip* fake = nullptr;
    absl::StatusOr<std::unique_ptr<Runner>> dev =
        OpenFakeHip(&fake, false, [&device_cpu, &launches, sim](const FakeLaunch& l) {
          const double t0 = ThreadCpuSeconds();
          sim(l);
          device_cpu += ThreadCpuSeconds() - t0;
          ++launches;
        });
    // The host's ceiling is measured against a device with nothing wrong: no planted MODE
    // faults (they would cost bisections that a right GPU never asks for).
    if (fake != nullptr) fake->planted_mode_faults = false;
    return dev;
  };
  const auto wall0 = std::chrono::steady_clock::now();
  const double cpu0 = ThreadCpuSeconds();
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  if (!s.ok()) return s.status();
  r.cpu = ThreadCpuSeconds() - cpu0;
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  r.device_cpu = device_cpu;
  r.lanes = s->lanes;
  r.execs = s->execs;
  r.disagreeing = s->disagreeing;
  r.refused = s->refused;
  r.launches = launches;
  return r;
}

// A device that answers at once: VDST = the old VDST.
class EchoRunner : public Runner {
 public:
  std::string Describe() const override { return "echo"; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& b) override {
    DeviceResult r;
    const LaneView v = b.lanes.view();
    // Each destination word (DstWords per lane: a VGPR pair is 2) echoes the lane's old VDST.
    const size_t w = static_cast<size_t>(DstWords(b.instr));
    r.vdst.resize(v.size * w);
    for (size_t i = 0; i < v.size * w; ++i) r.vdst[i] = v.vdst_old[i / w];
    return r;
  }
};

double ChildrenCpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_CHILDREN, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

struct IsolationCost {
  double parent_ns = 0, child_ns = 0;  // CPU per lane
};

// What the device child costs per lane: rounds of kGpuLaunchLanes lanes through the isolation
// pipe to a child that answers at once; the parent's CPU (encode, write, read, decode) and the
// child's (read, decode, encode, write), per lane.
absl::StatusOr<IsolationCost> MeasureIsolation(double seconds) {
  DeviceBatch b;
  b.target = *FindTarget("gfx942");
  b.words = {0xd1dd0004u, 0x040e0501u};
  for (uint32_t i = 0; i < kGpuLaunchLanes; ++i) b.lanes.Add(i, i * 3, i * 5, i * 7);
  const double children0 = ChildrenCpuSeconds();
  const double cpu0 = ThreadCpuSeconds();
  uint64_t lanes = 0;
  {
    absl::StatusOr<std::unique_ptr<IsolatedRunner>> dev = IsolatedRunner::Start(
        [] { return absl::StatusOr<std::unique_ptr<Runner>>(std::make_unique<EchoRunner>()); },
        {.timeout = absl::Seconds(60), .start_timeout = absl::Seconds(60)});
    if (!dev.ok()) return dev.status();
    const auto wall0 = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() < seconds) {
      absl::StatusOr<DeviceResult> r = (*dev)->Run(b);
      if (!r.ok()) return r.status();
      lanes += b.lanes.size();
    }
  }  // the child is reaped here: its CPU time is in RUSAGE_CHILDREN
  IsolationCost c;
  c.parent_ns = (ThreadCpuSeconds() - cpu0) * 1e9 / static_cast<double>(lanes);
  c.child_ns = (ChildrenCpuSeconds() - children0) * 1e9 / static_cast<double>(lanes);
  return c;
}

// Lane generation alone: LaneGen::Fill of 65,536 lanes for each of 8 cases the mutator makes
// on gfx942 (the fake GPU's target), CPU-ns per lane; the floor under the pipeline's host cost
// per unaimed lane, whatever else is made faster.
double FillNsPerLane(double seconds) {
  uint64_t lanes = 0;
  LaneBatch out;
  Rng rng(1);
  MutatorConfig config;
  config.targets = {"gfx942"};
  config.exotic_per_256 = 0;
  const Mutator mutator(config);
  const double cpu0 = ThreadCpuSeconds();
  for (int i = 0; i < 8; ++i) {
    const LaneGen gen(mutator.GenerateFlat(rng).header);
    const double t0 = ThreadCpuSeconds();
    while (ThreadCpuSeconds() - t0 < seconds / 8) {
      gen.Fill(rng, &out, 65536);
      lanes += out.size();
    }
  }
  return lanes > 0 ? (ThreadCpuSeconds() - cpu0) * 1e9 / static_cast<double>(lanes) : 0;
}

void PrintRow(const char* name, const PipelineRate& r) {
  std::printf("%-34s %8.1f M lanes/host-CPU-s  (%.1fM lanes, %llu cases, %llu launches of %.0f lanes avg; "
              "host %.2f CPU-s, fake device %.2f CPU-s excluded; %llu disagreeing, %llu refused)\n",
              name, r.PerHostCpu() / 1e6, static_cast<double>(r.lanes) / 1e6,
              static_cast<unsigned long long>(r.execs), static_cast<unsigned long long>(r.launches),
              r.launches > 0 ? static_cast<double>(r.lanes) / static_cast<double>(r.launches) : 0.0,
              r.HostCpu(), r.device_cpu, static_cast<unsigned long long>(r.disagreeing),
              static_cast<unsigned long long>(r.refused));
}

}  // namespace

int RunPipelineBench(double seconds) {
  std::printf("lanediff bench --pipeline: the whole host pipeline (generation, model, grouping, HIP launch\n"
              "path with pinned staging, compare) on one thread against the fake HIP runtime (\"hip:0 fake\n"
              "MI300X\", gfx942), %.1f wall-s per row. The fake's kernel computes with the simulator and its\n"
              "CPU time is measured and excluded: the rate is the host's ceiling with a device that answers\n"
              "at once. Target: 50 M lanes per host-CPU-second with 64K-lane launches.\n",
              seconds);
  struct Row {
    const char* name;
    int aim;
    int64_t launch_lanes;
  };
  const Row rows[] = {{"grouped 4x64K, --aim 50 (default)", 50, -1},
                      {"grouped 4x64K, --aim 0", 0, -1},
                      {"grouped 4x64K, --aim 100", 100, -1},
                      {"ungrouped (1024-lane launches)", 50, 0}};
  for (const Row& row : rows) {
    absl::StatusOr<PipelineRate> r = MeasurePipeline(row.aim, row.launch_lanes, seconds);
    if (!r.ok()) {
      std::fprintf(stderr, "lanediff bench --pipeline: %s\n", std::string(r.status().message()).c_str());
      return kExitEnvironment;
    }
    PrintRow(row.name, *r);
  }
  absl::StatusOr<IsolationCost> iso = MeasureIsolation(std::min(seconds, 2.0));
  if (!iso.ok()) {
    std::fprintf(stderr, "lanediff bench --pipeline: isolation: %s\n", std::string(iso.status().message()).c_str());
    return kExitEnvironment;
  }
  std::printf("device child's pipe (isolation, %u-lane batches to a child that answers at once): "
              "%.1f CPU-ns per lane in the campaign's process, %.1f in the child\n",
              static_cast<unsigned>(kGpuLaunchLanes), iso->parent_ns, iso->child_ns);
  const double fill_ns = FillNsPerLane(std::min(seconds, 1.0));
  std::printf("lane generation alone (LaneGen::Fill, 64K lanes, 8 generated gfx942 cases): %.1f CPU-ns per "
              "lane = %.1f M lanes/CPU-s: the ceiling of any pipeline that draws its lanes this way\n",
              fill_ns, fill_ns > 0 ? 1e3 / fill_ns : 0.0);
  return kExitOk;
}

int RunCostModelBench(const std::string& gpu, int cores, double seconds) {
  absl::StatusOr<GpuSpec> spec = FindGpuSpec(gpu);
  if (!spec.ok()) {
    std::fprintf(stderr, "lanediff bench: --cost-model: %s\n", std::string(spec.status().message()).c_str());
    return kExitUsage;
  }
  absl::StatusOr<PipelineRate> r = MeasurePipeline(50, -1, seconds);
  absl::StatusOr<IsolationCost> iso = MeasureIsolation(std::min(seconds, 2.0));
  if (!r.ok() || !iso.ok()) {
    std::fprintf(stderr, "lanediff bench --cost-model: %s\n",
                 std::string((!r.ok() ? r.status() : iso.status()).message()).c_str());
    return kExitEnvironment;
  }
  std::printf("measured: default campaign (--aim 50) against the fake HIP device, %.1f wall-s:\n", seconds);
  PrintRow("grouped 4x64K, --aim 50 (default)", *r);
  CostInputs in;
  in.gpu = *spec;
  in.host_ns_per_lane = 1e9 / r->PerHostCpu();
  in.isolation_ns_per_lane = iso->parent_ns + iso->child_ns;
  in.round_lanes = static_cast<double>(kGpuLaunchLanes);
  in.launches_per_round = static_cast<double>(HipLaunchRanges(kGpuLaunchLanes).size());
  in.cores = cores;
  std::fputs(FormatCostEstimate(in, EstimateCost(in)).c_str(), stdout);
  return kExitOk;
}

}  // namespace lanediff
