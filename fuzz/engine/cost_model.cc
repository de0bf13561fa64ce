#include "fuzz/engine/cost_model.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace lanediff {

const std::vector<GpuSpec>& KnownGpuSpecs() {
  // PCIe 5.0 x16: 32 GT/s x 16 lanes x 128b/130b encoding / 8 bits = 63.0 GB/s per direction
  // (PCI-SIG PCIe 5.0 base specification's signalling rate and encoding; arithmetic).
  static const std::vector<GpuSpec> specs = {
      {"mi300x", "AMD Instinct MI300X (gfx942)", 304, 2100e6, 5.3e12, 32e9 * 16 * 128 / 130 / 8,
       "AMD Instinct MI300X product page (amd.com/en/products/accelerators/instinct/mi300/"
       "mi300x.html): 304 compute units, 2100 MHz peak engine clock, 5.3 TB/s peak memory "
       "bandwidth, bus PCIe 5.0 x16"},
  };
  return specs;
}

absl::StatusOr<GpuSpec> FindGpuSpec(absl::string_view name) {
  std::vector<std::string> names;
  for (const GpuSpec& g : KnownGpuSpecs()) {
    if (g.name == name) return g;
    names.push_back(g.name);
  }
  return absl::InvalidArgumentError(absl::StrCat("no cost-model constants for GPU '", name,
                                                 "'; known: ", absl::StrJoin(names, ", ")));
}

CostEstimate EstimateCost(const CostInputs& in) {
  CostEstimate e;
  const double lanes = in.round_lanes;
  const double hbm_s = lanes * (kKernelBytesReadPerLane + kKernelBytesWrittenPerLane) / in.gpu.hbm_bytes_per_s;
  const double valu_s = (lanes / 64) * kKernelValuPerWave * kCyclesPerValuWave64 /
                        (in.gpu.compute_units * kSimdsPerCu * in.gpu.clock_hz);
  e.kernel_s_per_round = std::max(hbm_s, valu_s);
  const double link = in.gpu.link_bytes_per_s * in.link_efficiency;
  e.h2d_s_per_round = lanes * kKernelBytesReadPerLane / link;
  e.d2h_s_per_round = lanes * kKernelBytesWrittenPerLane / link;
  // Two launches in flight: the slowest stage sets the pace; the other stages of one launch
  // (the pipeline filling and draining) and the per-launch and per-word costs add.
  const double slowest = std::max({e.h2d_s_per_round, e.kernel_s_per_round, e.d2h_s_per_round});
  const double all = e.h2d_s_per_round + e.kernel_s_per_round + e.d2h_s_per_round;
  e.gpu_busy_s_per_round = slowest + (all - slowest) / std::max(1.0, in.launches_per_round) +
                           in.launches_per_round * in.launch_overhead_s +
                           in.module_loads_per_round * in.module_load_s;
  e.gpu_lanes_per_second = lanes / e.gpu_busy_s_per_round;
  const double host_s = lanes * (in.host_ns_per_lane + in.isolation_ns_per_lane) * 1e-9;
  e.job_lanes_per_second = lanes / (host_s + e.gpu_busy_s_per_round);
  e.cores_per_job = host_s / (host_s + e.gpu_busy_s_per_round);
  const double ns = in.host_ns_per_lane + in.isolation_ns_per_lane;
  e.host_lanes_per_second = ns > 0 ? in.cores * 1e9 / ns : INFINITY;
  e.total_lanes_per_second = std::min(e.gpu_lanes_per_second, e.host_lanes_per_second);
  if (e.host_lanes_per_second <= e.gpu_lanes_per_second) {
    e.bound = absl::StrFormat("host: %d cores x %.1f M lanes/CPU-s", in.cores, 1e3 / ns);
  } else {
    // What takes most of the GPU's time per round: the copies or kernel, launches, or loads.
    const double stages = slowest + (all - slowest) / std::max(1.0, in.launches_per_round);
    const double launches = in.launches_per_round * in.launch_overhead_s;
    const double loads = in.module_loads_per_round * in.module_load_s;
    const char* stage = slowest == e.h2d_s_per_round ? "host-to-device copies over the link"
                        : slowest == e.kernel_s_per_round ? "the kernel"
                                                          : "device-to-host copies";
    e.bound = absl::StrCat("GPU: ", loads >= stages && loads >= launches ? "module loads (one new word per round)"
                                    : launches >= stages              ? "launch overhead"
                                                                      : stage);
  }
  return e;
}

std::string FormatCostEstimate(const CostInputs& in, const CostEstimate& e) {
  std::string o;
  const GpuSpec& g = in.gpu;
  absl::StrAppendFormat(&o, "cost model for %s\n", g.description);
  absl::StrAppendFormat(&o, "  documented: %d CUs, %.0f MHz, HBM %.2f TB/s, host link %.1f GB/s per direction\n",
                        g.compute_units, g.clock_hz / 1e6, g.hbm_bytes_per_s / 1e12, g.link_bytes_per_s / 1e9);
  absl::StrAppendFormat(&o, "    (%s)\n", g.source);
  absl::StrAppendFormat(&o, "  assumed (no document states them; measure on the GPU): %.0f%% of the link achieved, "
                        "%.0f us per launch, %.2f ms per module load\n",
                        in.link_efficiency * 100, in.launch_overhead_s * 1e6, in.module_load_s * 1e3);
  absl::StrAppendFormat(&o, "  kernel (device_harness/kernels/gfx9.s): %.0f bytes read + %.0f written per lane, "
                        "%.0f VALU per wave64\n",
                        kKernelBytesReadPerLane, kKernelBytesWrittenPerLane, kKernelValuPerWave);
  absl::StrAppendFormat(&o, "  round: %.0f lanes in %.0f launches, %.0f module load(s)\n", in.round_lanes,
                        in.launches_per_round, in.module_loads_per_round);
  absl::StrAppendFormat(&o, "  measured on this host: %.1f CPU-ns per lane for the pipeline, %.1f for the "
                        "device child's pipe\n",
                        in.host_ns_per_lane, in.isolation_ns_per_lane);
  absl::StrAppendFormat(&o, "  per round: kernel %.1f us, host-to-device %.1f us, device-to-host %.1f us, "
                        "GPU busy %.1f us (two launches in flight)\n",
                        e.kernel_s_per_round * 1e6, e.h2d_s_per_round * 1e6, e.d2h_s_per_round * 1e6,
                        e.gpu_busy_s_per_round * 1e6);
  absl::StrAppendFormat(&o, "  the GPU side takes      %10.1f M lanes/s\n", e.gpu_lanes_per_second / 1e6);
  absl::StrAppendFormat(&o, "  one job                 %10.1f M lanes/s (busy %.0f%% of a core)\n",
                        e.job_lanes_per_second / 1e6, e.cores_per_job * 100);
  absl::StrAppendFormat(&o, "  %3d cores of host       %10.1f M lanes/s\n", in.cores, e.host_lanes_per_second / 1e6);
  absl::StrAppendFormat(&o, "  expected                %10.1f M lanes/s, bound by the %s\n",
                        e.total_lanes_per_second / 1e6, e.bound);
  return o;
}

}  // namespace lanediff
