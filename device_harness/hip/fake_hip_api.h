// For tests and `lanediff bench --pipeline` only: a fake HIP runtime behind the HipApi seam
// (hip_api.h), so the HIP runner runs without a GPU. Host memory stands for device memory;
// every asynchronous call is done when it is queued (so results are right whatever the
// order), and the fake records what the launch path asked for: the order of its calls (`log`,
// when `keep_log`), page-locked allocations and copies from pageable memory, modules loaded
// and unloaded, streams and events created.
//
// The "kernel" is `kernel` (FakeKernel): by default it copies vdst_old to out (to each of a
// VGPR pair's two words; it computes nothing: the tests using it are about errors and the launch path); a test or the pipeline
// bench gives one that computes (the simulator). The words it runs are read back from the
// patched code object the runner loaded, as a GPU would run them. Or the kernel is
// `code_kernel` (FakeCodeKernel), which gets the whole loaded code object, the grid and the
// kernelParams: the kernel interpreter runs the real kernel bytes (fake_sim_kernel.h
// InterpFakeKernel; OpenComputingFakeHip uses it). A HIP error is injected at
// the next hipEventSynchronize / hipStreamSynchronize when the launch's `mode` argument is
// kFaultMode (or on every launch when `fail_every_launch` is set), so the fault is a property
// of the batch (as on a GPU) and survives a fresh process.
//
//   absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip();  // "hip:0 fake MI300X", gfx942
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "device_harness/code_object.h"
#include "device_harness/hip/hip_api.h"
#include "device_harness/hip/hip_runner.h"
#include "device_harness/runner.h"
#include "model/base/status.h"

namespace lanediff {

inline constexpr uint32_t kFaultMode = 0x3;
inline constexpr uint32_t kLostMode = 0x1;  // round toward +inf
inline constexpr int kHipErrorLaunchFailure = 719;  // hip_runtime_api.h: hipErrorLaunchFailure = 719
inline constexpr int kHipErrorIllegalAddress = 700;  // hip_runtime_api.h: hipErrorIllegalAddress = 700
inline constexpr int kHipErrorNoBinaryForGpu = 209;  // hip_runtime_api.h: hipErrorNoBinaryForGpu = 209

// One launch as the fake kernel sees it: the words of the module, the kernel arguments.
struct FakeLaunch {
  PatchSiteWords words{};  // the patch site of the loaded code object (3 dwords)
  uint32_t mode = 0;
  std::array<uint32_t, 3> sgpr{};
  uint32_t dst_words = 1;  // KernelArgs::shape[7:0]: VDST words per lane
  LaneView in;             // n lanes
  uint32_t* out = nullptr; // n * dst_words VDST words, as the kernels store them (lane i's at
                           // out[i * dst_words]); out[n * dst_words], the MODE readback, is the fake's
};
using FakeKernel = std::function<void(const FakeLaunch&)>;
// A loaded module: the words at its patch site and the whole image.
struct FakeModule {
  PatchSiteWords words{};
  std::vector<uint8_t> image;
};
using FakeCodeKernel =
    std::function<int(absl::Span<const uint8_t> image, unsigned blocks, unsigned threads, void** params,
                      std::string* error)>;

class FakeHip : public HipApi {
 public:
  ~FakeHip() override {
    for (auto& [m, words] : modules_) delete words;
  }
  int SetDevice(int) override { return 0; }
  int StreamCreate(void** s) override { *s = NewHandle("stream"); ++streams_created; return 0; }
  int StreamDestroy(void*) override { return 0; }
  int Malloc(void** p, size_t bytes) override { *p = ::operator new(bytes); return 0; }
  int Free(void* p) override { ::operator delete(p); return 0; }
  int HostMalloc(void** p, size_t bytes) override {
    *p = ::operator new(bytes);
    pinned_[static_cast<const char*>(*p)] = bytes;
    ++host_mallocs;
    return 0;
  }
  int HostFree(void* p) override {
    pinned_.erase(static_cast<const char*>(p));
    ::operator delete(p);
    return 0;
  }
  int ModuleLoadData(void** m, const void* image) override {
    if (fail_module_load != 0) return fail_module_load;  // a runtime that refuses the code object
    // The words the module would run: read back from the patch site of the image, which is
    // kept whole for a code kernel (the interpreter runs all of it).
    const auto* bytes = static_cast<const uint8_t*>(image);
    uint64_t shoff;
    uint16_t shentsize, shnum;
    std::memcpy(&shoff, bytes + 0x28, 8);  // ELF64 e_shoff, e_shentsize, e_shnum
    std::memcpy(&shentsize, bytes + 0x3a, 2);
    std::memcpy(&shnum, bytes + 0x3c, 2);
    const auto elf = absl::MakeConstSpan(bytes, shoff + uint64_t{shentsize} * shnum);
    absl::StatusOr<PatchSiteWords> site = ReadPatchSite(elf);
    if (!site.ok()) return 200;  // hipErrorInvalidImage
    auto* module = new FakeModule{*site, std::vector<uint8_t>(elf.begin(), elf.end())};
    *m = module;
    modules_[module] = module;
    ++modules_loaded;
    Log("load");
    return 0;
  }
  int ModuleGetFunction(void** f, void* m, const char*) override { *f = m; return 0; }
  int ModuleUnload(void* m) override {
    auto it = modules_.find(m);
    if (it != modules_.end()) {
      delete it->second;
      modules_.erase(it);
    }
    ++modules_unloaded;
    Log("unload");
    return 0;
  }
  int MemcpyHtoDAsync(void* d, const void* h, size_t n, void* s) override {
    if (!IsPinned(h, n)) ++pageable_copies;
    std::memcpy(d, h, n);
    Log("h2d", s);
    return 0;
  }
  int MemcpyDtoHAsync(void* h, const void* d, size_t n, void* s) override {
    if (!IsPinned(h, n)) ++pageable_copies;
    std::memcpy(h, d, n);
    Log("d2h", s);
    return 0;
  }
  int MemsetD32Async(void* d, uint32_t v, size_t n, void*) override {
    std::fill_n(static_cast<uint32_t*>(d), n, v);
    return 0;
  }
  int LaunchKernel(void* f, unsigned blocks, unsigned threads, void* s, void** params) override {
    const FakeModule& module = *static_cast<FakeModule*>(f);
    FakeLaunch l;
    l.words = module.words;
    const uint32_t n = *static_cast<uint32_t*>(params[5]);
    l.mode = *static_cast<uint32_t*>(params[6]);
    for (int i = 0; i < 3; ++i) l.sgpr[i] = *static_cast<uint32_t*>(params[7 + i]);
    // KernelArgs::shape[7:0]: the VDST words per lane the kernels store (the GFX10+ kernels
    // compare the whole word with 2; a one-dword row's shape is 1 or 2).
    l.dst_words = std::max<uint32_t>(1, *static_cast<uint32_t*>(params[10]) & 0xff);
    auto ptr = [&](int i) { return reinterpret_cast<uint32_t*>(*static_cast<uint64_t*>(params[i])); };
    l.in = {ptr(0), ptr(1), ptr(2), ptr(3), n};
    l.out = ptr(4);
    int kernel_error = 0;
    if (code_kernel) {
      code_kernel_error.clear();
      kernel_error = code_kernel(module.image, blocks, threads, params, &code_kernel_error);
    } else if (kernel) {
      kernel(l);
    } else {  // every VDST word of a lane is its vdst_old
      for (size_t i = 0; i < size_t{n} * l.dst_words; ++i) l.out[i] = l.in.vdst_old[i / l.dst_words];
    }
    // out[n * dst_words]: the kernel's MODE readback (a code kernel stores its own); kLostMode
    // plays a GPU that lost the MODE[7:0] write. Outside the fields the kernel sets, the
    // readback shows what the code object fixes (kernel_state.h: DX10_CLAMP and IEEE on
    // GFX9-11), as the real kernel's would.
    const bool lost = planted_mode_faults && l.mode == kLostMode;
    const KernelModeState state = KernelModeStateFor(family);
    if (lost || !code_kernel) {
      const uint32_t set = lost ? (l.mode & ~0xffu) | (kDefaultMode & 0xffu) : l.mode;
      l.out[size_t{n} * l.dst_words] =
          (set & state.set_by_batch) | (state.entry & ~state.set_by_batch);
    }
    const bool fault = (planted_mode_faults && l.mode == kFaultMode) || fail_every_launch;
    pending_error_ = fault ? fault_code : kernel_error;
    ++launches;
    Log(absl::StrCat("launch ", n), s);
    return 0;
  }
  int StreamSynchronize(void*) override { return pending_error_; }
  int MemcpyDtoH(void* h, const void* d, size_t n) override { std::memcpy(h, d, n); return 0; }
  int EventCreate(void** e) override { *e = NewHandle("event"); return 0; }
  int EventDestroy(void*) override { return 0; }
  int EventRecord(void* e, void* s) override { Log(absl::StrCat("record ", Name(e)), s); return 0; }
  int EventSynchronize(void* e) override { Log(absl::StrCat("wait ", Name(e))); return pending_error_; }
  int StreamWaitEvent(void* s, void* e) override { Log(absl::StrCat("streamwait ", Name(e)), s); return 0; }
  std::string ErrorName(int e) override {
    return e == kHipErrorLaunchFailure   ? "hipErrorLaunchFailure"
           : e == kHipErrorIllegalAddress ? "hipErrorIllegalAddress"
           : e == kHipErrorNoBinaryForGpu ? "hipErrorNoBinaryForGpu"
                                          : "hipErrorUnknown";
  }
  std::string ErrorString(int e) override {
    std::string s = e == kHipErrorLaunchFailure   ? "unspecified launch failure"
                    : e == kHipErrorIllegalAddress ? "an illegal memory access was encountered"
                                                   : "";
    if (!code_kernel_error.empty()) absl::StrAppend(&s, " (fake HIP code kernel: ", code_kernel_error, ")");
    return s;
  }

  // True when [p, p + n) lies inside one hipHostMalloc allocation.
  bool IsPinned(const void* p, size_t n) const {
    const char* c = static_cast<const char*>(p);
    auto it = pinned_.upper_bound(c);
    if (it == pinned_.begin()) return false;
    --it;
    return c + n <= it->first + it->second;
  }
  size_t pinned_allocations() const { return pinned_.size(); }
  size_t modules_live() const { return modules_.size(); }  // loaded and not unloaded

  FakeKernel kernel;
  // When set, runs instead of `kernel`: the whole code object the runner loaded, the grid and
  // block sizes and kernelParams as hipModuleLaunchKernel received them (fake_sim_kernel.h
  // InterpFakeKernel: the kernel interpreter); its non-zero return is the HIP error the next
  // synchronize reports. It stores the MODE readback itself.
  FakeCodeKernel code_kernel;
  // Why the code kernel's last launch failed ("" if it did not).
  std::string code_kernel_error;
  Family family = Family::gfx9;  // the loaded code objects' family: what the MODE readback shows
  bool fail_every_launch = false;
  int fail_module_load = 0;  // nonzero: every hipModuleLoadData fails with this HIP error
  // The two MODE values that misbehave (kLostMode loses its MODE write, kFaultMode faults);
  // off: a device that answers every batch right (the pipeline bench).
  bool planted_mode_faults = true;
  int fault_code = kHipErrorLaunchFailure;  // the HIP error an injected fault returns
  bool keep_log = false;
  std::vector<std::string> log;  // "h2d stream1", "launch 65536 stream2", "wait event3", ...
  int modules_loaded = 0, modules_unloaded = 0, streams_created = 0, host_mallocs = 0;
  int pageable_copies = 0;       // async copies to or from memory not from hipHostMalloc
  uint64_t launches = 0;

 private:
  void* NewHandle(const char* kind) {
    names_.push_back(absl::StrCat(kind, names_.size() + 1));
    return reinterpret_cast<void*>(static_cast<uintptr_t>(names_.size()));  // never dereferenced
  }
  std::string Name(void* h) const {
    const uintptr_t i = reinterpret_cast<uintptr_t>(h);
    return i >= 1 && i <= names_.size() ? names_[i - 1] : "?";
  }
  void Log(const std::string& what, void* stream = nullptr) {
    if (keep_log) log.push_back(stream == nullptr ? what : absl::StrCat(what, " ", Name(stream)));
  }
  int pending_error_ = 0;
  std::vector<std::string> names_;
  std::map<const char*, size_t> pinned_;
  std::map<void*, FakeModule*> modules_;
};

// The HIP runner ("hip:0 fake MI300X", gfx942 wave64) on a FakeHip; `fake` receives it.
inline absl::StatusOr<std::unique_ptr<Runner>> OpenFakeHip(FakeHip** fake = nullptr,
                                                           bool fail_every_launch = false,
                                                           FakeKernel kernel = nullptr) {
  LANEDIFF_ASSIGN_OR_RETURN(CodeObjectView co, FindCodeObject("gfx942", 64));
  HipDeviceInfo info;
  info.name = "fake MI300X";
  info.gcn_arch_name = "gfx942:sramecc+:xnack-";
  info.wave_size = 64;
  info.target = "gfx942";
  auto api = std::make_unique<FakeHip>();
  api->fail_every_launch = fail_every_launch;
  api->kernel = std::move(kernel);
  if (fake != nullptr) *fake = api.get();
  return OpenHipRunnerWithApi(std::move(info), co, std::move(api));
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_FAKE_HIP_API_H_
