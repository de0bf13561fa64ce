// For tests only: a fake HIP runtime behind the HipApi seam (hip_api.h), so the HIP runner runs
// without a GPU. Host memory; a HIP error injected at hipStreamSynchronize when the launch's
// `mode` argument is kFaultMode (or on every launch when `fail_every_launch` is set), so the
// fault is a property of the batch (as on a GPU) and survives a fresh process.
// Its "kernel" either copies vdst_old to out (the error-path tests), or - computing, what the
// GPU tests run on without a GPU (hip_runner_gpu_test --fake-hip) - runs the model on the
// words patched into the very module the launch names (read back from the loaded image, as
// the simulator does), so a stale or mixed-up module, a wrong kernel argument or a lost lane
// gives a wrong answer.
//
//   absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip();  // "hip:0 fake MI300X", gfx942
//   dev = OpenComputingFakeHip("gfx1100", 64, &fake);             // wave64 RDNA3, computing
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/code_object.h"
#include "device_harness/hip/hip_api.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/runner.h"
#include "model/base/status.h"
#include "model/ops/ops.h"

namespace lanediff {

inline constexpr uint32_t kFaultMode = 0x3;
inline constexpr uint32_t kLostMode = 0x1;  // round toward +inf
inline constexpr int kHipErrorLaunchFailure = 719;  // hip_runtime_api.h: hipErrorLaunchFailure = 719
inline constexpr int kHipErrorIllegalAddress = 700;  // hip_runtime_api.h: hipErrorIllegalAddress = 700
inline constexpr int kHipErrorInvalidValue = 1;      // hip_runtime_api.h: hipErrorInvalidValue = 1
inline constexpr int kHipErrorInvalidImage = 200;    // hip_runtime_api.h: hipErrorInvalidImage = 200

class FakeHip : public HipApi {
 public:
  FakeHip() = default;
  // A computing fake for `code_object` (its target, and its size: an image is read back from
  // the bytes the runner loads).
  explicit FakeHip(CodeObjectView code_object) : code_object_(code_object), compute_(true) {}
  FakeHip(const FakeHip&) = delete;
  FakeHip& operator=(const FakeHip&) = delete;
  ~FakeHip() override {
    for (Module* m : live_) delete m;
  }
  int SetDevice(int) override { return 0; }
  int StreamCreate(void** s) override { *s = this; return 0; }
  int StreamDestroy(void*) override { return 0; }
  int Malloc(void** p, size_t bytes) override { *p = ::operator new(bytes); return 0; }
  int Free(void* p) override { ::operator delete(p); return 0; }
  int ModuleLoadData(void** m, const void* image) override {
    auto* module = new Module;
    if (compute_) {
      const auto* bytes = static_cast<const uint8_t*>(image);
      absl::StatusOr<PatchSiteWords> site = ReadPatchSite(absl::MakeConstSpan(bytes, code_object_.elf.size()));
      if (!site.ok()) {
        delete module;
        return kHipErrorInvalidImage;
      }
      module->site = *site;
    }
    live_.push_back(module);
    *m = module;
    ++modules_loaded;
    return 0;
  }
  int ModuleGetFunction(void** f, void* m, const char*) override { *f = m; return 0; }
  int ModuleUnload(void* m) override {
    auto it = std::find(live_.begin(), live_.end(), static_cast<Module*>(m));
    if (it == live_.end()) return kHipErrorInvalidValue;  // unloaded twice, or never loaded
    delete *it;
    live_.erase(it);
    return 0;
  }
  size_t modules_live() const { return live_.size(); }
  int MemcpyHtoDAsync(void* d, const void* h, size_t n, void*) override { std::memcpy(d, h, n); return 0; }
  int MemsetD32Async(void* d, uint32_t v, size_t n, void*) override {
    std::fill_n(static_cast<uint32_t*>(d), n, v);
    return 0;
  }
  int LaunchKernel(void* function, unsigned, unsigned, void*, void** params) override {
    const uint32_t n = *static_cast<uint32_t*>(params[5]), mode = *static_cast<uint32_t*>(params[6]);
    const auto* old = *static_cast<uint32_t**>(params[3]);
    auto* out = *static_cast<uint32_t**>(params[4]);
    if (std::find(live_.begin(), live_.end(), static_cast<Module*>(function)) == live_.end()) {
      return kHipErrorInvalidValue;  // a function of an unloaded module
    }
    if (compute_) {
      // The MODE the instruction runs under: kLostMode loses the MODE[7:0] write.
      const uint32_t ran = mode == kLostMode ? ((mode & ~0xffu) | (kDefaultMode & 0xffu)) : mode;
      absl::Status s = Compute(*static_cast<Module*>(function), params, n, ran, out);
      if (!s.ok()) {
        last_error = std::string(s.message());
        return kHipErrorInvalidValue;
      }
    } else {
      std::copy_n(old, n, out);
    }
    // out[n]: the kernel's MODE readback; kLostMode plays a GPU that lost the MODE[7:0] write.
    out[n] = mode == kLostMode ? (mode & ~0xffu) | (kDefaultMode & 0xffu) : mode;
    pending_error_ = mode == kFaultMode || fail_every_launch ? fault_code : 0;
    return 0;
  }
  int StreamSynchronize(void*) override { return pending_error_; }
  int MemcpyDtoH(void* h, const void* d, size_t n) override { std::memcpy(h, d, n); return 0; }
  std::string ErrorName(int e) override {
    return e == kHipErrorLaunchFailure   ? "hipErrorLaunchFailure"
           : e == kHipErrorIllegalAddress ? "hipErrorIllegalAddress"
           : e == kHipErrorInvalidValue   ? "hipErrorInvalidValue"
           : e == kHipErrorInvalidImage   ? "hipErrorInvalidImage"
                                          : "hipErrorUnknown";
  }
  std::string ErrorString(int e) override {
    return e == kHipErrorLaunchFailure   ? "unspecified launch failure"
           : e == kHipErrorIllegalAddress ? "an illegal memory access was encountered"
                                          : "";
  }
  int modules_loaded = 0;
  bool fail_every_launch = false;
  int fault_code = kHipErrorLaunchFailure;  // the HIP error an injected fault returns
  std::string last_error;                    // why a computing launch failed

 private:
  struct Module {
    PatchSiteWords site{};
  };

  // What the kernel computes: the words at the module's patch site (2 dwords, or 3 when a
  // source is the literal), each lane's operands from the kernel arguments in metadata order
  // (src0 src1 src2 vdst_old out n mode sgpr0..2), the model under `mode`.
  absl::Status Compute(const Module& m, void** params, uint32_t n, uint32_t mode, uint32_t* out) {
    const TargetTraits& t = *code_object_.target;
    LANEDIFF_ASSIGN_OR_RETURN(DecodedVop3 fields, DecodeVop3Fields(t, m.site));
    DeviceBatch b;
    b.target = &t;
    b.instr = fields.vop3.instr;
    b.words.assign(m.site.begin(), m.site.begin() + fields.words_used);
    b.mode = mode;
    b.allow_undefined = true;  // the runner decided; the fake runs what it was given
    for (int i = 0; i < 3; ++i) b.sgpr_values[i] = *static_cast<uint32_t*>(params[7 + i]);
    const uint32_t* in[4];
    for (int i = 0; i < 4; ++i) in[i] = *static_cast<uint32_t**>(params[i]);
    for (uint32_t i = 0; i < n; ++i) b.lanes.Add(in[0][i], in[1][i], in[2][i], in[3][i]);
    LANEDIFF_ASSIGN_OR_RETURN(DecodedBatch d, DecodeDeviceBatch(b, b.words));
    return Evaluate(d.ctx, d.resolved.view(), absl::MakeSpan(out, n));
  }

  CodeObjectView code_object_;
  bool compute_ = false;
  std::vector<Module*> live_;
  int pending_error_ = 0;
};

// The HIP runner ("hip:0 fake MI300X", gfx942 wave64) on a FakeHip; `fake` receives it.
inline absl::StatusOr<std::unique_ptr<Runner>> OpenFakeHip(FakeHip** fake = nullptr,
                                                           bool fail_every_launch = false,
                                                           int fault_code = kHipErrorLaunchFailure) {
  LANEDIFF_ASSIGN_OR_RETURN(CodeObjectView co, FindCodeObject("gfx942", 64));
  HipDeviceInfo info;
  info.name = "fake MI300X";
  info.gcn_arch_name = "gfx942:sramecc+:xnack-";
  info.wave_size = 64;
  info.target = "gfx942";
  auto api = std::make_unique<FakeHip>();
  api->fail_every_launch = fail_every_launch;
  api->fault_code = fault_code;
  if (fake != nullptr) *fake = api.get();
  return OpenHipRunnerWithApi(std::move(info), co, std::move(api));
}

// The HIP runner on a computing FakeHip for `target` and `wave_size` (its code object):
// "hip:0 fake gfx1100 (gfx1100, wave64)"; `fake` receives the fake runtime.
inline absl::StatusOr<std::unique_ptr<Runner>> OpenComputingFakeHip(const std::string& target, int wave_size,
                                                                    FakeHip** fake = nullptr) {
  LANEDIFF_ASSIGN_OR_RETURN(CodeObjectView co, FindCodeObject(target, wave_size));
  HipDeviceInfo info;
  info.name = absl::StrCat("fake ", target);
  info.gcn_arch_name = target;
  info.wave_size = wave_size;
  info.target = target;
  info.runtime = "fake HIP runtime (device_harness/hip/fake_hip_api.h)";
  auto api = std::make_unique<FakeHip>(co);
  if (fake != nullptr) *fake = api.get();
  return OpenHipRunnerWithApi(std::move(info), co, std::move(api));
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_
