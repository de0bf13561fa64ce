// The GPU cost model: how many lanes per second a campaign can run on a given
// GPU, from three kinds of constants, each named with where it comes from:
//   - the GPU's documented peaks (GpuSpec: compute units, engine clock, HBM and host-link
//     bandwidth; AMD's product pages, cited in kGpuSpecs),
//   - assumptions about the HIP runtime no document states (launch overhead, module load,
//     achieved share of the host link), marked as such and meant to be replaced by a
//     measurement on the GPU,
//   - the host's costs, measured on this machine against the fake HIP device
//     (`lanediff bench --pipeline`: the whole pipeline with a device that answers at once).
// docs/gpu-cost-model.md explains the formula; `lanediff bench --cost-model mi300x` prints it.
//
//   CostInputs in{.gpu = *FindGpuSpec("mi300x"), .host_ns_per_lane = 40, ...};
//   CostEstimate e = EstimateCost(in);  // e.total_lanes_per_second, e.bound
#ifndef LANEDIFF_FUZZ_COST_MODEL_H_
#define LANEDIFF_FUZZ_COST_MODEL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace lanediff {

struct GpuSpec {
  std::string name;            // "mi300x"
  std::string description;     // "AMD Instinct MI300X (gfx942)"
  int compute_units = 0;
  double clock_hz = 0;         // peak engine clock
  double hbm_bytes_per_s = 0;  // peak memory bandwidth
  double link_bytes_per_s = 0; // host link, per direction, theoretical
  std::string source;          // where the numbers come from
};

const std::vector<GpuSpec>& KnownGpuSpecs();
absl::StatusOr<GpuSpec> FindGpuSpec(absl::string_view name);

// The kernel's work per lane (device_harness/kernels/gfx9.s): 16 bytes read (src0..src2,
// vdst_old), 4 written; and its vector instructions per wave (counted in the kernel source:
// v_and, v_add, v_cmp, v_lshlrev, the instruction under test, 2 v_mov of the readback), each
// 4 cycles of a 16-wide SIMD for a wave64. Scalar instructions and s_nop wait states stall
// only their own wave and are hidden by the other waves of the SIMD.
inline constexpr double kKernelBytesReadPerLane = 16;
inline constexpr double kKernelBytesWrittenPerLane = 4;
inline constexpr double kKernelValuPerWave = 7;
inline constexpr double kSimdsPerCu = 4;
inline constexpr double kCyclesPerValuWave64 = 4;

struct CostInputs {
  GpuSpec gpu;
  // Assumptions about the runtime (no AMD document states them; measure on the GPU):
  double link_efficiency = 0.8;        // share of the link's theoretical bandwidth achieved
  double launch_overhead_s = 10e-6;    // host time per hipModuleLaunchKernel + its copies
  double module_load_s = 1e-3;         // one hipModuleLoadData (assumed 0.1-1 ms; worst taken)
  // The grouping step (fuzz/engine/launch_group.h): lanes per round, launches per round, module
  // loads per round (a new word each round: one miss).
  double round_lanes = 262144;
  double launches_per_round = 4;
  double module_loads_per_round = 1;
  // Measured on the host (`lanediff bench --pipeline`), CPU-ns per lane:
  double host_ns_per_lane = 0;         // generation, model, compare, grouping, staging
  double isolation_ns_per_lane = 0;    // the batch and answer crossing to the device child
  int cores = 1;                       // host cores given to campaign jobs
};

struct CostEstimate {
  double kernel_s_per_round = 0;       // the GPU running the kernel (compute or HBM bound)
  double h2d_s_per_round = 0, d2h_s_per_round = 0;
  double gpu_busy_s_per_round = 0;     // with two launches in flight: the slowest stage + overheads
  double gpu_lanes_per_second = 0;     // what the GPU side can take
  double job_lanes_per_second = 0;     // one job: host work, then its round on the GPU
  double cores_per_job = 0;            // a job's process plus its share of the device child
  double host_lanes_per_second = 0;    // all cores' jobs, if the GPU never made them wait
  double total_lanes_per_second = 0;   // min of the two
  std::string bound;                   // "host (...)" or "GPU (... link ...)"
};

CostEstimate EstimateCost(const CostInputs& in);

// The estimate and every number it comes from, one per line.
std::string FormatCostEstimate(const CostInputs& in, const CostEstimate& e);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_COST_MODEL_H_
