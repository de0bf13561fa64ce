// The HIP runner's launch path: one accepted batch (one instruction word, one MODE, n lanes)
// run as launches of about kHipLaunchLanes lanes, two in flight, through page-locked staging
// buffers. The harness decides nothing here: which cases share a batch is the campaign's
// grouping step (fuzz/engine/launch_group.h); this file only executes the batch it is given, and
// the result is the same lane for lane however the batch is cut.
//
// Two slots, each with pinned host buffers (hipHostMalloc), device buffers, and two events.
// Launch i uses slot i % 2:
//   host: wait for slot's previous launch (i - 2) to be copied back (hipEventSynchronize),
//         take its VDST out of the pinned output, stage launch i's lanes into the pinned input
//   copy stream:    hipMemcpyHtoDAsync(all four operand arrays, one copy); record h2d_done
//   compute stream: wait h2d_done (hipStreamWaitEvent); fill out with 0xA5A5A5A5; launch;
//                   hipMemcpyDtoHAsync(out + MODE readback); record d2h_done
// out holds dst_words words per lane (a VGPR pair: lane i's VDST at out[2i], VDST+1 at
// out[2i + 1], the batch API's layout) and then the MODE readback, out[m * dst_words].
// So while the kernel of launch i runs, launch i + 1's operands are already being copied
// (another stream), and the host waits for launch i only after launch i + 1 is queued.
//
//   HipLaunchPipeline p(api);
//   LANEDIFF_RETURN_IF_ERROR(p.Init());                  // once per HIP context
//   LANEDIFF_RETURN_IF_ERROR(p.Run(request, &vdst, &readbacks));
//
// Every HIP error is a device fault naming the step, the launch and the words (hip_error.h).
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_LAUNCH_PIPELINE_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_LAUNCH_PIPELINE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "device_harness/hip/hip_api.h"
#include "model/ops/ops.h"

namespace lanediff {

// Lanes per launch the pipeline aims at: 64K lanes = 1 MiB of operands, 1024 wave64s.
inline constexpr size_t kHipLaunchLanes = 65536;

// [begin, end) lane ranges of the launches for a batch of n lanes: max(1, n / kHipLaunchLanes)
// launches of near-equal size, so every launch has at least kHipLaunchLanes lanes when the
// batch has (and fewer than 2 * kHipLaunchLanes); a smaller batch is one launch.
std::vector<std::pair<size_t, size_t>> HipLaunchRanges(size_t n);

struct LaunchRequest {
  void* function = nullptr;  // hipFunction_t of the module with the batch's words
  LaneView lanes;
  uint32_t mode = 0;
  std::array<uint32_t, 3> sgpr{};
  uint32_t dst_words = 1;    // VDST words per lane (KernelArgs::shape[7:0]; lanes.shape the source dwords)
  std::string what;          // "<mnemonic> words d1dd0004 040e0501", for errors
};

class HipLaunchPipeline {
 public:
  explicit HipLaunchPipeline(HipApi* api) : api_(api) {}
  HipLaunchPipeline(const HipLaunchPipeline&) = delete;
  HipLaunchPipeline& operator=(const HipLaunchPipeline&) = delete;
  ~HipLaunchPipeline();

  // The two streams and four events; buffers grow on demand and are kept.
  absl::Status Init();
  // Runs every lane of `r`: vdst gets n * r.dst_words words (lane i's at [i * W, i * W + W)),
  // mode_readbacks one word per launch (out[m * W] of each launch: the MODE the kernel read
  // back).
  absl::Status Run(const LaunchRequest& r, std::vector<uint32_t>* vdst,
                   std::vector<uint32_t>* mode_readbacks);

  // Bytes of page-locked host memory held (both slots).
  size_t pinned_bytes() const;

 private:
  struct Slot {
    uint32_t* host_in = nullptr;   // pinned: src0 | src1 | src2 | vdst_old, m lanes of dwords each
    uint32_t* host_out = nullptr;  // pinned: m * dst_words VDST words + the MODE readback
    void* dev_in = nullptr;
    void* dev_out = nullptr;
    size_t capacity = 0;           // words of operands (every lane's source dwords and vdst_old)
    size_t out_capacity = 0;       // words of output (VDST words + the readback)
    void* h2d_done = nullptr;
    void* d2h_done = nullptr;
    bool busy = false;             // a launch is queued whose output is not collected
    size_t begin = 0, end = 0;     // its lanes
    size_t index = 0;              // its launch number
  };
  absl::Status Reserve(Slot& s, size_t lanes, size_t out_words);
  void Release(Slot& s);
  absl::Status Collect(Slot& s, const LaunchRequest& r, size_t launches, std::vector<uint32_t>* vdst,
                       std::vector<uint32_t>* mode_readbacks);

  HipApi* api_;
  void* copy_stream_ = nullptr;
  void* compute_stream_ = nullptr;
  std::array<Slot, 2> slots_;
};

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_LAUNCH_PIPELINE_H_
