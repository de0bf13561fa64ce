// What running a device in an isolated child costs: the simulator in-process vs the same
// simulator behind IsolatedRunner (two pipe copies of the batch and result per Run).
//   ninja -C BUILD device_harness_isolation_bench && BUILD/device_harness/device_harness_isolation_bench
#include <random>

#include "benchmark/benchmark.h"
#include "device_harness/batch.h"
#include "device_harness/isolation/isolated_runner.h"
#include "device_harness/sim/sim_runner.h"
#include "model/isa/testcase.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

DeviceBatch MakeBatch(int lanes) {
  proto::TestCase tc;
  tc.set_target("gfx942");
  // The first SR row (S1 a seed): the batch's work is per lane, whichever row it is.
  for (Instr i : kAllInstrs) {
    if (GetInstrInfo(i).src[1] == SrcRole::sr_seed) {
      tc.set_instr(InstrToProto(i));
      break;
    }
  }
  std::mt19937 rng(1);
  for (int i = 0; i < lanes; ++i) {
    proto::Lane* l = tc.add_lanes();
    l->set_src0(rng() & 0xbfffffff);  // no NaN triggers
    l->set_src1(rng());
    l->set_vdst_old(rng());
  }
  return *BuildDeviceBatch(tc);
}

void BM_SimInProcess(benchmark::State& state) {
  auto sim = *OpenSimRunner(SimOptions{});
  const DeviceBatch b = MakeBatch(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(sim->Run(b));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_SimIsolated(benchmark::State& state) {
  auto sim = *IsolatedRunner::Start([] { return OpenSimRunner(SimOptions{}); });
  const DeviceBatch b = MakeBatch(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(sim->Run(b));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_SimInProcess)->Arg(1)->Arg(64)->Arg(4096)->Arg(65536);
BENCHMARK(BM_SimIsolated)->Arg(1)->Arg(64)->Arg(4096)->Arg(65536);

}  // namespace
}  // namespace lanediff

BENCHMARK_MAIN();
