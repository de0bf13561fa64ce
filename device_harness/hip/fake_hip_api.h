// For tests only: a fake HIP runtime behind the HipApi seam (hip_api.h), so the HIP runner's
// error paths run without a GPU. Host memory, a "kernel" that copies vdst_old to out (it
// computes nothing: the tests using it are about errors), and a HIP error injected at
// hipStreamSynchronize when the launch's `mode` argument is kFaultMode (or on every launch
// when `fail_every_launch` is set), so the fault is a property of the batch (as on a GPU) and
// survives a fresh process.
//
//   absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip();  // "hip:0 fake MI300X", gfx942
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "device_harness/code_object.h"
#include "device_harness/hip/hip_api.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/runner.h"
#include "model/base/status.h"

namespace lanediff {

inline constexpr uint32_t kFaultMode = 0x3;
inline constexpr uint32_t kLostMode = 0x1;  // round toward +inf
inline constexpr int kHipErrorLaunchFailure = 719;  // hip_runtime_api.h: hipErrorLaunchFailure = 719

class FakeHip : public HipApi {
 public:
  int SetDevice(int) override { return 0; }
  int StreamCreate(void** s) override { *s = this; return 0; }
  int StreamDestroy(void*) override { return 0; }
  int Malloc(void** p, size_t bytes) override { *p = ::operator new(bytes); return 0; }
  int Free(void* p) override { ::operator delete(p); return 0; }
  int ModuleLoadData(void** m, const void*) override { *m = this; ++modules_loaded; return 0; }
  int ModuleGetFunction(void** f, void*, const char*) override { *f = this; return 0; }
  int ModuleUnload(void*) override { return 0; }
  int MemcpyHtoDAsync(void* d, const void* h, size_t n, void*) override { std::memcpy(d, h, n); return 0; }
  int MemsetD32Async(void* d, uint32_t v, size_t n, void*) override {
    std::fill_n(static_cast<uint32_t*>(d), n, v);
    return 0;
  }
  int LaunchKernel(void*, unsigned, unsigned, void*, void** params) override {
    const uint32_t n = *static_cast<uint32_t*>(params[5]), mode = *static_cast<uint32_t*>(params[6]);
    const auto* old = *static_cast<uint32_t**>(params[3]);
    auto* out = *static_cast<uint32_t**>(params[4]);
    std::copy_n(old, n, out);
    // out[n]: the kernel's MODE readback; kLostMode plays a GPU that lost the MODE[7:0] write.
    out[n] = mode == kLostMode ? (mode & ~0xffu) | (kDefaultMode & 0xffu) : mode;
    pending_error_ = mode == kFaultMode || fail_every_launch ? kHipErrorLaunchFailure : 0;
    return 0;
  }
  int StreamSynchronize(void*) override { return pending_error_; }
  int MemcpyDtoH(void* h, const void* d, size_t n) override { std::memcpy(h, d, n); return 0; }
  std::string ErrorName(int e) override { return e == kHipErrorLaunchFailure ? "hipErrorLaunchFailure" : "hipErrorUnknown"; }
  std::string ErrorString(int e) override { return e == kHipErrorLaunchFailure ? "unspecified launch failure" : ""; }
  int modules_loaded = 0;
  bool fail_every_launch = false;

 private:
  int pending_error_ = 0;
};

// The HIP runner ("hip:0 fake MI300X", gfx942 wave64) on a FakeHip; `fake` receives it.
inline absl::StatusOr<std::unique_ptr<Runner>> OpenFakeHip(FakeHip** fake = nullptr,
                                                           bool fail_every_launch = false) {
  LANEDIFF_ASSIGN_OR_RETURN(CodeObjectView co, FindCodeObject("gfx942", 64));
  HipDeviceInfo info;
  info.name = "fake MI300X";
  info.gcn_arch_name = "gfx942:sramecc+:xnack-";
  info.wave_size = 64;
  info.target = "gfx942";
  auto api = std::make_unique<FakeHip>();
  api->fail_every_launch = fail_every_launch;
  if (fake != nullptr) *fake = api.get();
  return OpenHipRunnerWithApi(std::move(info), co, std::move(api));
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_
