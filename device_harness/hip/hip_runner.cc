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
#include "device_harness/code_object.h"
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
std::string HipErrorText(hipError_t e, absl::string_view doing) {
  const char* name = hipGetErrorName(e);
  const char* text = hipGetErrorString(e);
  const bool has_text = text != nullptr && *text != '\0' &&
                        (name == nullptr || std::strcmp(text, name) != 0);  // HIP 5.2 repeats the name
  return absl::StrCat(doing, " failed with HIP error ", static_cast<int>(e), " (",
                      name != nullptr ? name : "unnamed", has_text ? absl::StrCat(": ", text) : "", ")");
}

// Errors while running a batch are device faults (Unavailable); errors while opening are
// reported by the caller with more context.
absl::Status HipError(hipError_t e, absl::string_view doing) {
  return absl::UnavailableError(absl::StrCat("HIP device fault: ", HipErrorText(e, doing)));
}

#define LANEDIFF_HIP_CHECK(call, doing)                      \
  do {                                                       \
    const hipError_t lanediff_hip_err_ = (call);             \
    if (lanediff_hip_err_ != hipSuccess) {                   \
      return HipError(lanediff_hip_err_, (doing));           \
    }                                                        \
  } while (0)

// RAII owners. Destructors cannot report: a failing hipFree / hipModuleUnload during teardown
// after a device fault is expected, and the fault itself was already reported by Run.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { Release(); }

  // Makes room for `words` uint32 values; keeps the allocation when it is big enough.
  absl::Status Reserve(size_t words, absl::string_view what) {
    if (words <= capacity_) return absl::OkStatus();
    Release();
    void* p = nullptr;
    LANEDIFF_HIP_CHECK(hipMalloc(&p, words * sizeof(uint32_t)),
                       absl::StrCat("hipMalloc of ", words * sizeof(uint32_t), " bytes for ", what));
    ptr_ = p;
    capacity_ = words;
    return absl::OkStatus();
  }
  void* get() const { return ptr_; }

 private:
  void Release() {
    if (ptr_ != nullptr) (void)hipFree(ptr_);
    ptr_ = nullptr;
    capacity_ = 0;
  }
  void* ptr_ = nullptr;
  size_t capacity_ = 0;
};

class Module {
 public:
  Module() = default;
  Module(Module&& o) noexcept : module_(std::exchange(o.module_, nullptr)), function_(o.function_) {}
  Module& operator=(Module&&) = delete;
  Module(const Module&) = delete;
  ~Module() {
    if (module_ != nullptr) (void)hipModuleUnload(module_);
  }
  // Loads a code object and looks the kernel up. `elf` must stay alive during the call only.
  absl::Status Load(const std::vector<uint8_t>& elf, absl::string_view what) {
    LANEDIFF_HIP_CHECK(hipModuleLoadData(&module_, elf.data()),
                       absl::StrCat("hipModuleLoadData of the ", what, " code object"));
    const std::string name(kKernelName);
    LANEDIFF_HIP_CHECK(hipModuleGetFunction(&function_, module_, name.c_str()),
                       absl::StrCat("hipModuleGetFunction(\"", name, "\") in the ", what, " code object"));
    return absl::OkStatus();
  }
  hipFunction_t function() const { return function_; }

 private:
  hipModule_t module_ = nullptr;
  hipFunction_t function_ = nullptr;
};

class Stream {
 public:
  Stream() = default;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() {
    if (stream_ != nullptr) (void)hipStreamDestroy(stream_);
  }
  absl::Status Create() {
    LANEDIFF_HIP_CHECK(hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking), "hipStreamCreateWithFlags");
    return absl::OkStatus();
  }
  hipStream_t get() const { return stream_; }

 private:
  hipStream_t stream_ = nullptr;
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
  HipRunner(HipDeviceInfo info, CodeObjectView code_object)
      : info_(std::move(info)), code_object_(code_object) {}

  absl::Status Init() {
    LANEDIFF_HIP_CHECK(hipSetDevice(info_.index), absl::StrCat("hipSetDevice(", info_.index, ")"));
    return stream_.Create();
  }

  std::string Describe() const override { return DescribeDevice(info_); }

  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    absl::StatusOr<Instr> checked = CheckHipBatch(code_object_, batch);
    if (!checked.ok()) {
      return absl::Status(checked.status().code(),
                          absl::StrCat(Describe(), " refuses the batch: ", checked.status().message()));
    }
    const Instr instr = *checked;
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

    LANEDIFF_HIP_CHECK(hipSetDevice(info_.index), absl::StrCat("hipSetDevice(", info_.index, ")"));
    LANEDIFF_ASSIGN_OR_RETURN(hipFunction_t function, Kernel(batch.words));
    const char* names[] = {"src0", "src1", "src2", "vdst_old", "out"};
    const uint32_t* host[] = {lanes.src0, lanes.src1, lanes.src2, lanes.vdst_old};
    for (int i = 0; i < 5; ++i) LANEDIFF_RETURN_IF_ERROR(buffers_[i].Reserve(n, names[i]));
    const size_t bytes = n * sizeof(uint32_t);
    for (int i = 0; i < 4; ++i) {
      LANEDIFF_HIP_CHECK(hipMemcpyHtoDAsync(buffers_[i].get(), const_cast<uint32_t*>(host[i]), bytes, stream_.get()),
                         absl::StrCat("copying ", names[i], " (", bytes, " bytes) to the device"));
    }
    // A lane the kernel fails to store shows this pattern instead of stale data.
    LANEDIFF_HIP_CHECK(hipMemsetD32Async(buffers_[4].get(), static_cast<int>(0xA5A5A5A5u), n, stream_.get()),
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
    LANEDIFF_HIP_CHECK(hipModuleLaunchKernel(function, blocks, 1, 1, kKernelWorkgroupSize, 1, 1,
                                             /*sharedMemBytes=*/0, stream_.get(), params.data(), nullptr),
                       absl::StrCat("hipModuleLaunchKernel (", blocks, " blocks of ", kKernelWorkgroupSize,
                                    " for ", n, " lanes)"));
    LANEDIFF_HIP_CHECK(hipStreamSynchronize(stream_.get()),
                       absl::StrCat("running the kernel (hipStreamSynchronize after launching ",
                                    n, " lanes of ", InstrName(instr), " words ",
                                    absl::StrJoin(batch.words, " ", [](std::string* o, uint32_t w) {
                                      absl::StrAppend(o, absl::Hex(w, absl::kZeroPad8));
                                    }), ")"));
    result.vdst.resize(n);
    LANEDIFF_HIP_CHECK(hipMemcpyDtoH(result.vdst.data(), buffers_[4].get(), bytes),
                       absl::StrCat("copying ", bytes, " bytes of VDST back from the device"));
    return result;
  }

 private:
  // The loaded kernel for these words, from a small cache (loading a module costs a
  // round trip to the driver; campaigns reuse words across batches).
  absl::StatusOr<hipFunction_t> Kernel(const std::vector<uint32_t>& words) {
    auto it = modules_.find(words);
    if (it != modules_.end()) return it->second.function();
    if (modules_.size() >= kMaxModules) modules_.clear();
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
    Module m;
    LANEDIFF_RETURN_IF_ERROR(m.Load(elf, absl::StrCat("patched ", code_object_.target->name, " wave",
                                                      code_object_.wave_size)));
    hipFunction_t f = m.function();
    modules_.emplace(words, std::move(m));
    return f;
  }

  static constexpr size_t kMaxModules = 64;
  HipDeviceInfo info_;
  CodeObjectView code_object_;
  // Declared before the buffers and modules so it is destroyed after them.
  Stream stream_;
  DeviceBuffer buffers_[5];  // src0, src1, src2, vdst_old, out
  std::map<std::vector<uint32_t>, Module> modules_;
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
  auto runner = std::make_unique<HipRunner>(std::move(info), *co);
  absl::Status s = runner->Init();
  if (!s.ok()) {
    return absl::Status(s.code(), absl::StrCat("opening ", runner->Describe(), ": ", s.message()));
  }
  return std::unique_ptr<Runner>(std::move(runner));
}

}  // namespace lanediff
