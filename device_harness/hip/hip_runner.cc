// The only file of lanediff that includes HIP headers. Host API only (the kernels are
// assembled by llvm-mc-22 at build time), so it compiles with clang-22 or g++ against
// Debian's libamdhip64-dev or a ROCm install (LANEDIFF_HIP_ROOT).
#include "device_harness/hip/hip_runner.h"

#include <cstring>
#include <map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/strings/cord.h"
#include "device_harness/code_object.h"
#include "device_harness/fault.h"
#include "device_harness/hip/hip_api.h"
#include "model/isa/vop3.h"
#include "model/base/status.h"

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

namespace lanediff {
namespace {

constexpr char kNoGpuSentence[] = "no AMD GPU is visible to the HIP runtime";
constexpr char kNoGpuHelp[] =
    "Check that the amdgpu kernel driver is loaded, that /dev/kfd and /dev/dri/renderD* exist "
    "and this user may open them (groups video and render), and that HIP_VISIBLE_DEVICES / "
    "ROCR_VISIBLE_DEVICES do not hide the GPU. `lanediff devices` lists what the runtime sees; "
    "--device=sim runs without a GPU.";

// "<doing> failed with HIP error 100 (hipErrorNoDevice: no ROCm-capable device is detected)"
std::string HipErrorText(int e, const std::string& name, const std::string& text, absl::string_view doing) {
  const bool has_text = !text.empty() && text != name;  // HIP 5.2 repeats the name
  return absl::StrCat(doing, " failed with HIP error ", e, " (", name.empty() ? "unnamed" : name,
                      has_text ? absl::StrCat(": ", text) : "", ")");
}
std::string HipErrorText(hipError_t e, absl::string_view doing) {
  const char* name = hipGetErrorName(e);
  const char* text = hipGetErrorString(e);
  return HipErrorText(static_cast<int>(e), name != nullptr ? name : "", text != nullptr ? text : "", doing);
}

class RealApi : public HipApi {
 public:
  int SetDevice(int index) override { return hipSetDevice(index); }
  int StreamCreate(void** stream) override {
    hipStream_t s = nullptr;
    const int e = hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
    *stream = s;
    return e;
  }
  int StreamDestroy(void* stream) override { return hipStreamDestroy(static_cast<hipStream_t>(stream)); }
  int Malloc(void** ptr, size_t bytes) override { return hipMalloc(ptr, bytes); }
  int Free(void* ptr) override { return hipFree(ptr); }
  int ModuleLoadData(void** module, const void* image) override {
    hipModule_t m = nullptr;
    const int e = hipModuleLoadData(&m, image);
    *module = m;
    return e;
  }
  int ModuleGetFunction(void** function, void* module, const char* name) override {
    hipFunction_t f = nullptr;
    const int e = hipModuleGetFunction(&f, static_cast<hipModule_t>(module), name);
    *function = f;
    return e;
  }
  int ModuleUnload(void* module) override { return hipModuleUnload(static_cast<hipModule_t>(module)); }
  int MemcpyHtoDAsync(void* dst, const void* src, size_t bytes, void* stream) override {
    return hipMemcpyHtoDAsync(dst, const_cast<void*>(src), bytes, static_cast<hipStream_t>(stream));
  }
  int MemsetD32Async(void* dst, uint32_t value, size_t count, void* stream) override {
    return hipMemsetD32Async(dst, static_cast<int>(value), count, static_cast<hipStream_t>(stream));
  }
  int LaunchKernel(void* function, unsigned blocks, unsigned threads, void* stream, void** params) override {
    return hipModuleLaunchKernel(static_cast<hipFunction_t>(function), blocks, 1, 1, threads, 1, 1,
                                 /*sharedMemBytes=*/0, static_cast<hipStream_t>(stream), params, nullptr);
  }
  int StreamSynchronize(void* stream) override { return hipStreamSynchronize(static_cast<hipStream_t>(stream)); }
  int MemcpyDtoH(void* dst, const void* src, size_t bytes) override {
    return hipMemcpyDtoH(dst, const_cast<void*>(src), bytes);
  }
  std::string ErrorName(int e) override {
    const char* n = hipGetErrorName(static_cast<hipError_t>(e));
    return n != nullptr ? n : "";
  }
  std::string ErrorString(int e) override {
    const char* t = hipGetErrorString(static_cast<hipError_t>(e));
    return t != nullptr ? t : "";
  }
};

// A HIP error while running an accepted batch: a device fault (the campaign keeps it as a
// finding with the words), carrying the HIP code and name in its message and the code in the
// payload kHipErrorPayload. After one the runner's context is not trusted again (a sticky
// error such as 700/719 fails every later call), so the isolated child exits and the next
// batch gets a fresh process and HIP context.
absl::Status HipFault(HipApi& api, int e, absl::string_view doing) {
  absl::Status s = DeviceFaultLostContext(HipErrorText(e, api.ErrorName(e), api.ErrorString(e), doing));
  const std::string code = absl::StrCat(e);
  s.SetPayload(kHipErrorPayload, absl::Cord(absl::string_view(code)));  // (Debian's Abseil exports no Cord(string&&))
  return s;
}

#define LANEDIFF_HIP_CHECK(api, call, doing)                 \
  do {                                                       \
    const int lanediff_hip_err_ = (api).call;                \
    if (lanediff_hip_err_ != 0) {                            \
      return HipFault((api), lanediff_hip_err_, (doing));    \
    }                                                        \
  } while (0)

// RAII owners. Destructors cannot report: a failing Free / ModuleUnload during teardown
// after a device fault is expected, and the fault itself was already reported by Run.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(HipApi* api = nullptr) : api_(api) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { Release(); }
  void set_api(HipApi* api) { api_ = api; }

  // Makes room for `words` uint32 values; keeps the allocation when it is big enough.
  absl::Status Reserve(size_t words, absl::string_view what) {
    if (words <= capacity_) return absl::OkStatus();
    Release();
    void* p = nullptr;
    LANEDIFF_HIP_CHECK(*api_, Malloc(&p, words * sizeof(uint32_t)),
                       absl::StrCat("hipMalloc of ", words * sizeof(uint32_t), " bytes for ", what));
    ptr_ = p;
    capacity_ = words;
    return absl::OkStatus();
  }
  void* get() const { return ptr_; }
  void Reset() { Release(); }

 private:
  void Release() {
    if (ptr_ != nullptr) (void)api_->Free(ptr_);
    ptr_ = nullptr;
    capacity_ = 0;
  }
  HipApi* api_;
  void* ptr_ = nullptr;
  size_t capacity_ = 0;
};

class Module {
 public:
  explicit Module(HipApi* api) : api_(api) {}
  Module(Module&& o) noexcept
      : api_(o.api_), module_(std::exchange(o.module_, nullptr)), function_(o.function_) {}
  Module& operator=(Module&&) = delete;
  Module(const Module&) = delete;
  ~Module() {
    if (module_ != nullptr) (void)api_->ModuleUnload(module_);
  }
  // Loads a code object and looks the kernel up. `elf` must stay alive during the call only.
  absl::Status Load(const std::vector<uint8_t>& elf, absl::string_view what) {
    LANEDIFF_HIP_CHECK(*api_, ModuleLoadData(&module_, elf.data()),
                       absl::StrCat("hipModuleLoadData of the ", what, " code object"));
    const std::string name(kKernelName);
    LANEDIFF_HIP_CHECK(*api_, ModuleGetFunction(&function_, module_, name.c_str()),
                       absl::StrCat("hipModuleGetFunction(\"", name, "\") in the ", what, " code object"));
    return absl::OkStatus();
  }
  void* function() const { return function_; }

 private:
  HipApi* api_;
  void* module_ = nullptr;
  void* function_ = nullptr;
};

absl::StatusOr<int> DeviceCount() {
  int count = 0;
  const hipError_t e = hipGetDeviceCount(&count);
  if (e != hipSuccess) {
    return absl::FailedPreconditionError(absl::StrCat(
        kNoGpuSentence, ": ", HipErrorText(e, "hipGetDeviceCount"), ". ", kNoGpuHelp));
  }
  if (count <= 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        kNoGpuSentence, ": hipGetDeviceCount succeeded but reported ", count, " devices. ", kNoGpuHelp));
  }
  return count;
}

std::string RuntimeVersions() {
  int runtime = 0, driver = 0;
  std::string out;
  if (hipRuntimeGetVersion(&runtime) == hipSuccess) {
    absl::StrAppend(&out, "HIP runtime ", runtime);
  } else {
    absl::StrAppend(&out, "HIP runtime version unknown");
  }
  if (hipDriverGetVersion(&driver) == hipSuccess) absl::StrAppend(&out, ", driver ", driver);
  absl::StrAppend(&out, " (built against HIP ", HIP_VERSION_MAJOR, ".", HIP_VERSION_MINOR, ")");
  return out;
}

absl::StatusOr<HipDeviceInfo> QueryDevice(int index) {
  HipDeviceInfo info;
  info.index = index;
  hipDeviceProp_t props;
  std::memset(&props, 0, sizeof props);
  const hipError_t e = hipGetDeviceProperties(&props, index);
  if (e != hipSuccess) {
    return absl::UnavailableError(
        HipErrorText(e, absl::StrCat("hipGetDeviceProperties for HIP device ", index)));
  }
  info.name.assign(props.name, strnlen(props.name, sizeof props.name));
  info.gcn_arch_name.assign(props.gcnArchName, strnlen(props.gcnArchName, sizeof props.gcnArchName));
  info.wave_size = props.warpSize;
  info.asic_revision = props.asicRevision;
  info.pci_bus = props.pciBusID;
  info.runtime = RuntimeVersions();
  absl::StatusOr<std::string> proc = ProcessorFromGcnArchName(info.gcn_arch_name);
  if (!proc.ok()) {
    info.unsupported = std::string(proc.status().message());
    return info;
  }
  absl::StatusOr<const TargetTraits*> target = FindTarget(*proc);
  if (!target.ok()) {
    info.unsupported = absl::StrCat(*proc, " is not a lanediff target (", target.status().message(), ")");
    return info;
  }
  absl::StatusOr<CodeObjectView> co = FindCodeObject(*proc, info.wave_size);
  if (!co.ok()) {
    info.unsupported = std::string(co.status().message());
    return info;
  }
  info.target = *proc;
  return info;
}

std::string DescribeDevice(const HipDeviceInfo& d) {
  return absl::StrCat("hip:", d.index, " ", d.name, " (", d.gcn_arch_name, ", wave", d.wave_size, ")");
}

class HipRunner : public Runner {
 public:
  HipRunner(HipDeviceInfo info, CodeObjectView code_object, std::unique_ptr<HipApi> api)
      : info_(std::move(info)), code_object_(code_object), api_(std::move(api)) {
    for (DeviceBuffer& b : buffers_) b.set_api(api_.get());
  }
  ~HipRunner() override {
    for (DeviceBuffer& b : buffers_) b.Reset();  // before the stream goes
    modules_.clear();
    if (stream_ != nullptr) (void)api_->StreamDestroy(stream_);
  }

  absl::Status Init() {
    LANEDIFF_HIP_CHECK(*api_, SetDevice(info_.index), absl::StrCat("hipSetDevice(", info_.index, ")"));
    LANEDIFF_HIP_CHECK(*api_, StreamCreate(&stream_), "hipStreamCreateWithFlags");
    return absl::OkStatus();
  }

  std::string Describe() const override { return DescribeDevice(info_); }
  std::string Driver() const override {
    if (info_.runtime.empty()) return absl::StrCat("ISA ", info_.gcn_arch_name);
    return absl::StrCat(info_.runtime, "; ISA ", info_.gcn_arch_name);
  }

  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    absl::StatusOr<Instr> checked = CheckHipBatch(code_object_, batch);
    if (!checked.ok()) {
      return absl::Status(checked.status().code(),
                          absl::StrCat(Describe(), " refuses the batch: ", checked.status().message()));
    }
    if (!broken_.ok()) {  // a HIP error left this context unusable (see HipFault)
      return DeviceFaultLostContext(absl::StrCat(Describe(), ": not run: an earlier batch left the HIP context unusable (",
                                      broken_.message(), "); a fresh process is needed"));
    }
    absl::StatusOr<DeviceResult> r = RunAccepted(*checked, batch);
    if (!r.ok() && IsDeviceFault(r.status())) {
      broken_ = r.status();
      absl::Status s = r.status();
      absl::Status out = DeviceFault(s.code(), absl::StrCat(Describe(), ": ",
                                                            absl::StripPrefix(s.message(), "device fault: ")));
      s.ForEachPayload([&](absl::string_view url, const absl::Cord& v) { out.SetPayload(url, v); });
      return out;
    }
    return r;
  }

 private:
  absl::StatusOr<DeviceResult> RunAccepted(Instr instr, const DeviceBatch& batch) {
    const LaneView lanes = batch.lanes.view();
    const size_t n = lanes.size;
    DeviceResult result;
    result.provenance.set_runner("hip");
    result.provenance.set_device(info_.name);
    result.provenance.set_target(info_.gcn_arch_name);
    result.provenance.set_driver(info_.runtime);
    // The stepping question that matters (gfx1250 A0 vs B0) needs the revision on record.
    result.provenance.set_stepping(absl::StrCat("asicRevision ", info_.asic_revision));
    if (n == 0) return result;

    HipApi& api = *api_;
    LANEDIFF_HIP_CHECK(api, SetDevice(info_.index), absl::StrCat("hipSetDevice(", info_.index, ")"));
    LANEDIFF_ASSIGN_OR_RETURN(void* function, Kernel(batch.words));
    const char* names[] = {"src0", "src1", "src2", "vdst_old", "out"};
    const uint32_t* host[] = {lanes.src0, lanes.src1, lanes.src2, lanes.vdst_old};
    // out holds one more word: out[n] = the MODE readback the kernel stores.
    for (int i = 0; i < 5; ++i) LANEDIFF_RETURN_IF_ERROR(buffers_[i].Reserve(i == 4 ? n + 1 : n, names[i]));
    const size_t bytes = n * sizeof(uint32_t);
    for (int i = 0; i < 4; ++i) {
      LANEDIFF_HIP_CHECK(api, MemcpyHtoDAsync(buffers_[i].get(), host[i], bytes, stream_),
                         absl::StrCat("copying ", names[i], " (", bytes, " bytes) to the device"));
    }
    // A lane the kernel fails to store shows this pattern instead of stale data.
    LANEDIFF_HIP_CHECK(api, MemsetD32Async(buffers_[4].get(), 0xA5A5A5A5u, n + 1, stream_),
                       "filling the output buffer with 0xA5A5A5A5");

    KernelArgs args;
    args.src0 = reinterpret_cast<uintptr_t>(buffers_[0].get());
    args.src1 = reinterpret_cast<uintptr_t>(buffers_[1].get());
    args.src2 = reinterpret_cast<uintptr_t>(buffers_[2].get());
    args.vdst_old = reinterpret_cast<uintptr_t>(buffers_[3].get());
    args.out = reinterpret_cast<uintptr_t>(buffers_[4].get());
    args.n = static_cast<uint32_t>(n);
    args.mode = batch.mode;
    for (int i = 0; i < 3; ++i) args.sgpr[i] = batch.sgpr_values[i];
    std::array<void*, 11> params = KernelParamPointers(args);
    const unsigned blocks = HipGridBlocks(n);
    const std::string words = absl::StrJoin(batch.words, " ", [](std::string* o, uint32_t w) {
      absl::StrAppend(o, absl::Hex(w, absl::kZeroPad8));
    });
    LANEDIFF_HIP_CHECK(api, LaunchKernel(function, blocks, kKernelWorkgroupSize, stream_, params.data()),
                       absl::StrCat("hipModuleLaunchKernel (", blocks, " blocks of ", kKernelWorkgroupSize,
                                    " for ", n, " lanes of ", InstrName(instr), " words ", words, ")"));
    LANEDIFF_HIP_CHECK(api, StreamSynchronize(stream_),
                       absl::StrCat("running the kernel (hipStreamSynchronize after launching ",
                                    n, " lanes of ", InstrName(instr), " words ", words, ")"));
    result.vdst.resize(n + 1);
    LANEDIFF_HIP_CHECK(api, MemcpyDtoH(result.vdst.data(), buffers_[4].get(), bytes + 4),
                       absl::StrCat("copying ", bytes + 4, " bytes of VDST and the MODE readback back from the device"));
    result.mode_readback = result.vdst.back();
    result.vdst.pop_back();
    LANEDIFF_RETURN_IF_ERROR(CheckModeReadback(batch, result));
    return result;
  }

  // The loaded kernel for these words, from a small cache (loading a module costs a
  // round trip to the driver; campaigns reuse words across batches).
  absl::StatusOr<void*> Kernel(const std::vector<uint32_t>& words) {
    auto it = modules_.find(words);
    if (it != modules_.end()) return it->second.function();
    if (modules_.size() >= kHipModuleCacheSize) modules_.clear();
    LANEDIFF_ASSIGN_OR_RETURN(std::vector<uint8_t> elf, PatchCodeObject(code_object_, words));
    // Belt and braces: the words must read back from the site before the GPU sees them.
    LANEDIFF_ASSIGN_OR_RETURN(PatchSiteWords site, ReadPatchSite(elf));
    for (size_t i = 0; i < site.size(); ++i) {
      const uint32_t want = i < words.size() ? words[i] : kSNop0;
      if (site[i] != want) {
        return absl::InternalError(absl::StrFormat(
            "patched code object reads back 0x%08x at dword %d of the patch site, expected 0x%08x",
            site[i], i, want));
      }
    }
    Module m(api_.get());
    LANEDIFF_RETURN_IF_ERROR(m.Load(elf, absl::StrCat("patched ", code_object_.target->name, " wave",
                                                      code_object_.wave_size)));
    void* f = m.function();
    modules_.emplace(words, std::move(m));
    return f;
  }

  HipDeviceInfo info_;
  CodeObjectView code_object_;
  std::unique_ptr<HipApi> api_;
  void* stream_ = nullptr;
  std::array<DeviceBuffer, 5> buffers_;  // src0, src1, src2, vdst_old, out
  std::map<std::vector<uint32_t>, Module> modules_;
  absl::Status broken_;  // the first HIP fault; every later batch is refused with it
};

}  // namespace

unsigned HipGridBlocks(size_t lanes) {
  return static_cast<unsigned>((lanes + kKernelWorkgroupSize - 1) / kKernelWorkgroupSize);
}

absl::StatusOr<Instr> CheckHipBatch(const CodeObjectView& code_object, const DeviceBatch& batch) {
  if (code_object.target == nullptr) return absl::InvalidArgumentError("code object has no target");
  if (batch.target == nullptr) return absl::InvalidArgumentError("batch has no target");
  if (batch.target != code_object.target) {
    return absl::InvalidArgumentError(absl::StrCat("batch is for ", batch.target->name,
                                                   " but the device is ", code_object.target->name));
  }
  LANEDIFF_ASSIGN_OR_RETURN(Instr instr, CheckPatchWords(*batch.target, batch.words));
  // Documented restrictions, checked on the words themselves (a DeviceBatch need not come
  // from BuildDeviceBatch, whose decoder refuses them too): undefined by spec, not run.
  LANEDIFF_ASSIGN_OR_RETURN(DecodedVop3 fields, DecodeVop3Fields(*batch.target, batch.words));
  const std::vector<std::string> undefined = SpecViolations(*batch.target, fields.vop3);
  if (!undefined.empty() && !batch.allow_undefined) {
    return absl::InvalidArgumentError(absl::StrCat(
        "undefined by spec on ", batch.target->name, ": ", absl::StrJoin(undefined, "; "),
        "; not run (DeviceBatch::allow_undefined runs it)"));
  }
  if (instr != batch.instr) {
    return absl::InvalidArgumentError(absl::StrCat("the instruction words encode ", InstrName(instr),
                                                   " but the batch says ", InstrName(batch.instr)));
  }
  if (batch.lanes.size() > (size_t{1} << 30)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch of ", batch.lanes.size(), " lanes exceeds 2^30 (the kernel uses 32-bit byte offsets)"));
  }
  return instr;
}

std::array<void*, 11> KernelParamPointers(KernelArgs& args) {
  return {&args.src0, &args.src1, &args.src2, &args.vdst_old, &args.out, &args.n,
          &args.mode, &args.sgpr[0], &args.sgpr[1], &args.sgpr[2], &args.reserved};
}

absl::StatusOr<std::string> ProcessorFromGcnArchName(absl::string_view gcn_arch_name) {
  const absl::string_view proc = gcn_arch_name.substr(0, gcn_arch_name.find(':'));
  if (proc.size() < 4 || !absl::StartsWith(proc, "gfx")) {
    return absl::InvalidArgumentError(absl::StrCat("gcnArchName '", gcn_arch_name,
                                                   "' does not start with a gfx processor name"));
  }
  for (char c : proc.substr(3)) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(absl::StrCat("gcnArchName '", gcn_arch_name,
                                                     "' has a malformed processor name"));
    }
  }
  return std::string(proc);
}

absl::StatusOr<std::vector<HipDeviceInfo>> ListHipDevices() {
  LANEDIFF_ASSIGN_OR_RETURN(int count, DeviceCount());
  std::vector<HipDeviceInfo> out;
  for (int i = 0; i < count; ++i) {
    LANEDIFF_ASSIGN_OR_RETURN(HipDeviceInfo info, QueryDevice(i));
    out.push_back(std::move(info));
  }
  return out;
}

absl::StatusOr<std::unique_ptr<Runner>> OpenHipRunner(int device_index, int wave_size) {
  LANEDIFF_ASSIGN_OR_RETURN(int count, DeviceCount());
  if (device_index < 0 || device_index >= count) {
    return absl::InvalidArgumentError(absl::StrCat("HIP device ", device_index,
                                                   " does not exist; the runtime sees ", count,
                                                   " (hip:0 to hip:", count - 1, ")"));
  }
  LANEDIFF_ASSIGN_OR_RETURN(HipDeviceInfo info, QueryDevice(device_index));
  if (!info.unsupported.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(DescribeDevice(info), " cannot run lanediff kernels: ", info.unsupported));
  }
  if (wave_size != 0) info.wave_size = wave_size;
  absl::StatusOr<CodeObjectView> co = FindCodeObject(info.target, info.wave_size);
  if (!co.ok()) {
    return absl::Status(co.status().code(),
                        absl::StrCat(DescribeDevice(info), ": ", co.status().message()));
  }
  return OpenHipRunnerWithApi(std::move(info), *co, RealHipApi());
}

std::unique_ptr<HipApi> RealHipApi() { return std::make_unique<RealApi>(); }

absl::StatusOr<std::unique_ptr<Runner>> OpenHipRunnerWithApi(HipDeviceInfo info, CodeObjectView code_object,
                                                             std::unique_ptr<HipApi> api) {
  auto runner = std::make_unique<HipRunner>(std::move(info), code_object, std::move(api));
  absl::Status s = runner->Init();
  if (!s.ok()) {
    // Opening is not running a batch: an environment error, not a device fault.
    return absl::UnavailableError(
        absl::StrCat("opening ", runner->Describe(), ": ", absl::StripPrefix(s.message(), "device fault: ")));
  }
  return std::unique_ptr<Runner>(std::move(runner));
}

}  // namespace lanediff
