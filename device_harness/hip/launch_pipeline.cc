#include "device_harness/hip/launch_pipeline.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "device_harness/code_object.h"
#include "device_harness/hip/hip_error.h"
#include "device_harness/hip/hip_runner.h"
#include "model/base/status.h"

namespace lanediff {

// An allocation failure is the environment's (memory held by another process, batches too
// large), never the instruction's.
constexpr absl::string_view kAllocationCheck =
    "free GPU and pinned host memory (rocm-smi --showmemuse; another process may hold it), or "
    "use smaller batches";

std::vector<std::pair<size_t, size_t>> HipLaunchRanges(size_t n) {
  std::vector<std::pair<size_t, size_t>> out;
  if (n == 0) return out;
  const size_t launches = std::max<size_t>(1, n / kHipLaunchLanes);
  for (size_t i = 0; i < launches; ++i) out.emplace_back(n * i / launches, n * (i + 1) / launches);
  return out;
}

HipLaunchPipeline::~HipLaunchPipeline() {
  // Teardown cannot report: after a device fault failing calls are expected here.
  for (Slot& s : slots_) {
    Release(s);
    if (s.h2d_done != nullptr) (void)api_->EventDestroy(s.h2d_done);
    if (s.d2h_done != nullptr) (void)api_->EventDestroy(s.d2h_done);
  }
  if (copy_stream_ != nullptr) (void)api_->StreamDestroy(copy_stream_);
  if (compute_stream_ != nullptr) (void)api_->StreamDestroy(compute_stream_);
}

absl::Status HipLaunchPipeline::Init() {
  LANEDIFF_HIP_CHECK(*api_, StreamCreate(&copy_stream_), "hipStreamCreateWithFlags (copy stream)");
  LANEDIFF_HIP_CHECK(*api_, StreamCreate(&compute_stream_), "hipStreamCreateWithFlags (compute stream)");
  for (Slot& s : slots_) {
    LANEDIFF_HIP_CHECK(*api_, EventCreate(&s.h2d_done), "hipEventCreateWithFlags");
    LANEDIFF_HIP_CHECK(*api_, EventCreate(&s.d2h_done), "hipEventCreateWithFlags");
  }
  return absl::OkStatus();
}

size_t HipLaunchPipeline::pinned_bytes() const {
  size_t b = 0;
  for (const Slot& s : slots_) b += (s.capacity + s.out_capacity) * sizeof(uint32_t);
  return b;
}

void HipLaunchPipeline::Release(Slot& s) {
  if (s.host_in != nullptr) (void)api_->HostFree(s.host_in);
  if (s.host_out != nullptr) (void)api_->HostFree(s.host_out);
  if (s.dev_in != nullptr) (void)api_->Free(s.dev_in);
  if (s.dev_out != nullptr) (void)api_->Free(s.dev_out);
  s.host_in = s.host_out = nullptr;
  s.dev_in = s.dev_out = nullptr;
  s.capacity = s.out_capacity = 0;
}

// Grows the slot's buffers to hold `in_words` operand words (every source dword and vdst_old of
// each lane) and `out_words` output words (a one-word batch after a pair batch reuses the larger
// output).
absl::Status HipLaunchPipeline::Reserve(Slot& s, size_t in_words, size_t out_words) {
  if (in_words <= s.capacity && out_words <= s.out_capacity) return absl::OkStatus();
  in_words = std::max(in_words, s.capacity);
  out_words = std::max(out_words, s.out_capacity);
  Release(s);
  in_words = (in_words + 16383) / 16384 * 16384;  // launches of one batch differ by a lane: one size fits
  out_words = (out_words + 4095) / 4096 * 4096;
  const size_t in_bytes = in_words * sizeof(uint32_t), out_bytes = out_words * sizeof(uint32_t);
  void* p = nullptr;
  LANEDIFF_HIP_ENV_CHECK(*api_, HostMalloc(&p, in_bytes), absl::StrCat("hipHostMalloc of ", in_bytes, " bytes (operand staging)"),
                         kAllocationCheck);
  s.host_in = static_cast<uint32_t*>(p);
  LANEDIFF_HIP_ENV_CHECK(*api_, HostMalloc(&p, out_bytes), absl::StrCat("hipHostMalloc of ", out_bytes, " bytes (VDST staging)"),
                         kAllocationCheck);
  s.host_out = static_cast<uint32_t*>(p);
  LANEDIFF_HIP_ENV_CHECK(*api_, Malloc(&s.dev_in, in_bytes), absl::StrCat("hipMalloc of ", in_bytes, " bytes for the operands"),
                         kAllocationCheck);
  LANEDIFF_HIP_ENV_CHECK(*api_, Malloc(&s.dev_out, out_bytes), absl::StrCat("hipMalloc of ", out_bytes, " bytes for VDST"),
                         kAllocationCheck);
  s.capacity = in_words;
  s.out_capacity = out_words;
  return absl::OkStatus();
}

// Waits for the slot's launch to be copied back and takes its VDST words and MODE readback.
absl::Status HipLaunchPipeline::Collect(Slot& s, const LaunchRequest& r, size_t launches,
                                        std::vector<uint32_t>* vdst,
                                        std::vector<uint32_t>* mode_readbacks) {
  const size_t m = s.end - s.begin, w = r.dst_words;
  s.busy = false;
  LANEDIFF_HIP_CHECK(*api_, EventSynchronize(s.d2h_done),
                     absl::StrCat("running the kernel (hipEventSynchronize after launch ", s.index + 1,
                                  " of ", launches, ": ", m, " lanes of ", r.what, ")"));
  std::memcpy(vdst->data() + s.begin * w, s.host_out, m * w * sizeof(uint32_t));
  (*mode_readbacks)[s.index] = s.host_out[m * w];
  return absl::OkStatus();
}

absl::Status HipLaunchPipeline::Run(const LaunchRequest& r, std::vector<uint32_t>* vdst,
                                    std::vector<uint32_t>* mode_readbacks) {
  const std::vector<std::pair<size_t, size_t>> ranges = HipLaunchRanges(r.lanes.size);
  const size_t w = r.dst_words;  // VDST words per lane (HipRunner: 1 or 2)
  vdst->resize(r.lanes.size * w);
  mode_readbacks->assign(ranges.size(), 0);
  for (Slot& s : slots_) s.busy = false;
  HipApi& api = *api_;
  const uint32_t* host[] = {r.lanes.src0, r.lanes.src1, r.lanes.src2, r.lanes.vdst_old};
  for (size_t i = 0; i < ranges.size(); ++i) {
    Slot& s = slots_[i % 2];
    // Launch i - 2 used this slot: its output must be out before the buffers are reused.
    if (s.busy) LANEDIFF_RETURN_IF_ERROR(Collect(s, r, ranges.size(), vdst, mode_readbacks));
    const auto [begin, end] = ranges[i];
    const size_t m = end - begin;
    // The four arrays one after another, each a lane's dwords per lane (a tuple source's N).
    const size_t words = m * static_cast<size_t>(r.lanes.shape.lane_words());
    LANEDIFF_RETURN_IF_ERROR(Reserve(s, words, m * w + 1));
    size_t offset[4] = {};
    for (int k = 0; k < 4; ++k) {
      const size_t dw = k < 3 ? r.lanes.shape.src_dwords[k] : 1;
      std::memcpy(s.host_in + offset[k], host[k] + begin * dw, m * dw * sizeof(uint32_t));
      if (k < 3) offset[k + 1] = offset[k] + m * dw;
    }
    const std::string launch = absl::StrCat("launch ", i + 1, " of ", ranges.size(), ": ", m, " lanes of ", r.what);
    LANEDIFF_HIP_CHECK(api, MemcpyHtoDAsync(s.dev_in, s.host_in, words * sizeof(uint32_t), copy_stream_),
                       absl::StrCat("copying ", 4 * words, " bytes of operands to the device (", launch, ")"));
    LANEDIFF_HIP_CHECK(api, EventRecord(s.h2d_done, copy_stream_), absl::StrCat("hipEventRecord (", launch, ")"));
    LANEDIFF_HIP_CHECK(api, StreamWaitEvent(compute_stream_, s.h2d_done), absl::StrCat("hipStreamWaitEvent (", launch, ")"));
    // A lane the kernel fails to store shows this pattern instead of stale data.
    LANEDIFF_HIP_CHECK(api, MemsetD32Async(s.dev_out, 0xA5A5A5A5u, m * w + 1, compute_stream_),
                       "filling the output buffer with 0xA5A5A5A5");
    KernelArgs args;
    const uintptr_t in = reinterpret_cast<uintptr_t>(s.dev_in);
    args.src0 = in;
    args.src1 = in + offset[1] * sizeof(uint32_t);
    args.src2 = in + offset[2] * sizeof(uint32_t);
    args.vdst_old = in + offset[3] * sizeof(uint32_t);
    args.out = reinterpret_cast<uintptr_t>(s.dev_out);
    args.n = static_cast<uint32_t>(m);
    args.mode = r.mode;
    for (int k = 0; k < 3; ++k) args.sgpr[k] = r.sgpr[k];
    LaneShape shape = r.lanes.shape;
    shape.dst_words = static_cast<uint8_t>(r.dst_words);
    args.shape = KernelShapeWord(shape);  // a one-dword row's: its VDST words
    std::array<void*, 11> params = KernelParamPointers(args);
    const unsigned blocks = HipGridBlocks(m);
    LANEDIFF_HIP_CHECK(api, LaunchKernel(r.function, blocks, kKernelWorkgroupSize, compute_stream_, params.data()),
                       absl::StrCat("hipModuleLaunchKernel (", blocks, " blocks of ", kKernelWorkgroupSize,
                                    " for ", launch, ")"));
    LANEDIFF_HIP_CHECK(api, MemcpyDtoHAsync(s.host_out, s.dev_out, (m * w + 1) * sizeof(uint32_t), compute_stream_),
                       absl::StrCat("copying ", 4 * (m * w + 1), " bytes of VDST and the MODE readback back from the device (",
                                    launch, ")"));
    LANEDIFF_HIP_CHECK(api, EventRecord(s.d2h_done, compute_stream_), absl::StrCat("hipEventRecord (", launch, ")"));
    s.busy = true;
    s.begin = begin;
    s.end = end;
    s.index = i;
  }
  // The older launch first.
  const size_t n = ranges.size();
  for (size_t k = n >= 2 ? n - 2 : 0; k < n; ++k) {
    Slot& s = slots_[k % 2];
    if (s.busy) LANEDIFF_RETURN_IF_ERROR(Collect(s, r, n, vdst, mode_readbacks));
  }
  return absl::OkStatus();
}

}  // namespace lanediff
