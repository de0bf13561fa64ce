// The only file of lanediff that includes HIP headers. Host API only (the kernels are
// assembled by llvm-mc-22 at build time), so it compiles with clang-22 or g++ against
// Debian's libamdhip64-dev or a ROCm install (LANEDIFF_HIP_ROOT).
#include "device_harness/hip/hip_runner.h"

#include <cstdlib>
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
#include "device_harness/hip/hip_error.h"
#include "device_harness/hip/launch_pipeline.h"
#include "device_harness/hip/module_cache.h"
#include "device_harness/hip/provenance.h"
#include "device_harness/register_convention.h"
#include "model/isa/vop3.h"
#include "model/base/status.h"

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

namespace lanediff {
namespace {

// The kernels store up to kKernelMaxDstWords VDST words per lane (KernelArgs::shape; a tuple
// wider than a pair on the GFX9 and GFX12.5 kernels only, KernelCapacity); a row with a wider destination
// needs a kernel change before it can run here.
static_assert(kMaxDstWords <= kKernelMaxDstWords,
              "a row writes more VDST words than the HIP kernels store (device_harness/kernels/*.s, "
              "KernelArgs::shape): extend the kernels' stores first");

constexpr char kNoGpuSentence[] = "no AMD GPU is visible to the HIP runtime";
constexpr char kNoGpuHelp[] =
    "Check that the amdgpu kernel driver is loaded, that /dev/kfd and /dev/dri/renderD* exist "
    "and this user may open them (groups video and render), and that HIP_VISIBLE_DEVICES / "
    "ROCR_VISIBLE_DEVICES do not hide the GPU. `lanediff devices` lists what the runtime sees; "
    "--device=sim runs without a GPU.";

std::string HipErrorText(hipError_t e, absl::string_view doing) {
  const char* name = hipGetErrorName(e);
  const char* text = hipGetErrorString(e);
  return ::lanediff::HipErrorText(static_cast<int>(e), name != nullptr ? name : "", text != nullptr ? text : "", doing);
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
  int HostMalloc(void** ptr, size_t bytes) override { return hipHostMalloc(ptr, bytes, hipHostMallocDefault); }
  int HostFree(void* ptr) override { return hipHostFree(ptr); }
  int MemcpyDtoHAsync(void* dst, const void* src, size_t bytes, void* stream) override {
    return hipMemcpyDtoHAsync(dst, const_cast<void*>(src), bytes, static_cast<hipStream_t>(stream));
  }
  int EventCreate(void** event) override {
    hipEvent_t e = nullptr;
    const int r = hipEventCreateWithFlags(&e, hipEventDisableTiming);
    *event = e;
    return r;
  }
  int EventDestroy(void* event) override { return hipEventDestroy(static_cast<hipEvent_t>(event)); }
  int EventRecord(void* event, void* stream) override {
    return hipEventRecord(static_cast<hipEvent_t>(event), static_cast<hipStream_t>(stream));
  }
  int EventSynchronize(void* event) override { return hipEventSynchronize(static_cast<hipEvent_t>(event)); }
  int StreamWaitEvent(void* stream, void* event) override {
    return hipStreamWaitEvent(static_cast<hipStream_t>(stream), static_cast<hipEvent_t>(event), 0);
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

// RAII owner of a loaded module. The destructor cannot report: a failing Free / ModuleUnload during teardown
// after a device fault is expected, and the fault itself was already reported by Run.
class Module {
 public:
  explicit Module(HipApi* api) : api_(api) {}
  Module(Module&& o) noexcept
      : api_(o.api_), image_(std::move(o.image_)), module_(std::exchange(o.module_, nullptr)),
        function_(o.function_) {}
  Module& operator=(Module&&) = delete;
  Module(const Module&) = delete;
  ~Module() {
    if (module_ != nullptr) (void)api_->ModuleUnload(module_);
    // image_ is freed after the unload: the image lives as long as its module (whatever the
    // runtime may read from it after hipModuleLoadData returns).
  }
  // Loads a code object and looks the kernel up. The module keeps `elf` (moved in) until it
  // is unloaded.
  absl::Status Load(std::vector<uint8_t> elf, absl::string_view what) {
    image_ = std::move(elf);
    const std::vector<uint8_t>& elf_ref = image_;
    // The runtime refusing the code object is the environment's failure, not the word's (it
    // does not look at the instructions): an environment error, never a finding.
    LANEDIFF_HIP_ENV_CHECK(*api_, ModuleLoadData(&module_, elf_ref.data()),
                           absl::StrCat("hipModuleLoadData of the ", what, " code object"),
                           "that this ROCm supports the target (build against the machine's ROCm: "
                           "-DLANEDIFF_HIP_ROOT=/opt/rocm) and the code-object version "
                           "(-DLANEDIFF_CODE_OBJECT_VERSION=5 or 6); device_harness/README.md");
    const std::string name(kKernelName);
    LANEDIFF_HIP_ENV_CHECK(*api_, ModuleGetFunction(&function_, module_, name.c_str()),
                           absl::StrCat("hipModuleGetFunction(\"", name, "\") in the ", what, " code object"),
                           "the kernel metadata of device_harness/kernels/*.s (please report)");
    return absl::OkStatus();
  }
  void* function() const { return function_; }
  const std::vector<uint8_t>& image() const { return image_; }

 private:
  HipApi* api_;
  std::vector<uint8_t> image_;  // the patched code object, alive while the module is
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
  const char* rocm_path = std::getenv("ROCM_PATH");
  info.runtime = absl::StrCat(RuntimeVersions(), "; ",
                              HostVersions(rocm_path != nullptr && *rocm_path != '\0' ? rocm_path : "/opt/rocm",
                                           "/sys/module/amdgpu"));
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
      : info_(std::move(info)), code_object_(code_object), api_(std::move(api)),
        pipeline_(std::make_unique<HipLaunchPipeline>(api_.get())) {}
  ~HipRunner() override {
    pipeline_.reset();  // buffers, events and streams before the modules
    modules_.Clear();
  }

  // Once per process: the isolated child keeps this context, its streams, pinned buffers and
  // loaded modules for the whole campaign (until a HIP fault, after which it exits).
  absl::Status Init() {
    LANEDIFF_HIP_CHECK(*api_, SetDevice(info_.index), absl::StrCat("hipSetDevice(", info_.index, ")"));
    return pipeline_->Init();
  }

  std::string Describe() const override { return DescribeDevice(info_); }
  std::string Driver() const override {
    if (info_.runtime.empty()) return absl::StrCat("ISA ", info_.gcn_arch_name);
    return absl::StrCat(info_.runtime, "; ISA ", info_.gcn_arch_name);
  }

  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    absl::StatusOr<Instr> checked = CheckHipBatch(code_object_, batch);
    if (IsUnsupported(checked.status())) {  // a shape the kernel does not take: not a refusal
      return Unsupported(absl::StrCat(Describe(), " cannot run the batch: ", checked.status().message()));
    }
    if (!checked.ok()) {
      const std::string what = absl::StrCat(Describe(), " refuses the batch: ", checked.status().message());
      // "unsupported" stays unsupported (its payload kept: fault.h), whatever it is prefixed by.
      return IsUnsupported(checked.status()) ? Unsupported(what)
                                             : absl::Status(checked.status().code(), what);
    }
    if (!broken_.ok()) {  // a HIP error left this context unusable (see HipFault)
      return DeviceFaultLostContext(absl::StrCat(Describe(), ": not run: an earlier batch left the HIP context unusable (",
                                      broken_.message(), "); a fresh process is needed"));
    }
    absl::StatusOr<DeviceResult> r = RunAccepted(*checked, batch);
    if (!r.ok() && IsEnvironmentError(r.status())) {  // not the batch's: the context is fine
      absl::Status s = r.status();
      absl::Status out = EnvironmentError(
          absl::StrCat(Describe(), ": ", absl::StripPrefix(s.message(), "environment error: ")), "");
      s.ForEachPayload([&](absl::string_view url, const absl::Cord& v) { out.SetPayload(url, v); });
      return out;
    }
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
    // The stepping question that matters (gfx1250 A0 vs B0) needs the revision on record, and
    // on gfx1250 whether the A0 translator is known to be active (provenance.h).
    result.provenance.set_stepping(SteppingText(*batch.target, info_.asic_revision));
    if (n == 0) return result;

    HipApi& api = *api_;
    LANEDIFF_HIP_CHECK(api, SetDevice(info_.index), absl::StrCat("hipSetDevice(", info_.index, ")"));
    LaunchRequest req;
    LANEDIFF_ASSIGN_OR_RETURN(req.function, Kernel(batch.words));
    req.lanes = lanes;
    req.mode = batch.mode;
    req.sgpr = batch.sgpr_values;
    req.dst_words = static_cast<uint32_t>(DstWords(instr));  // CheckHipBatch: the kernel takes it
    req.what = absl::StrCat(InstrName(instr), " words ", absl::StrJoin(batch.words, " ", [](std::string* o, uint32_t w) {
      absl::StrAppend(o, absl::Hex(w, absl::kZeroPad8));
    }));
    std::vector<uint32_t> readbacks;
    LANEDIFF_RETURN_IF_ERROR(pipeline_->Run(req, &result.vdst, &readbacks));
    // One readback per launch; one that differs from the MODE the instruction was to run with
    // (in the bits CheckModeReadback checks) is the one reported.
    result.mode_readback = readbacks.front();
    const uint32_t checked = KernelModeStateFor(*batch.target).checked();
    for (uint32_t r : readbacks) {
      if ((r & checked) != (KernelMode(*batch.target, batch.mode) & checked)) {
        result.mode_readback = r;
        break;
      }
    }
    LANEDIFF_RETURN_IF_ERROR(CheckModeReadback(batch, result));
    return result;
  }

  // The loaded kernel for these words, from the LRU cache (module_cache.h: loading a module
  // is a round trip to the driver; campaigns reuse words across batches).
  absl::StatusOr<void*> Kernel(const std::vector<uint32_t>& words) {
    ModuleKey key{std::string(code_object_.target->name), words};
    if (Module* m = modules_.Find(key)) return m->function();
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
    LANEDIFF_RETURN_IF_ERROR(m.Load(std::move(elf), absl::StrCat("patched ", code_object_.target->name, " wave",
                                                      code_object_.wave_size)));
    void* f = m.function();
    modules_.Insert(key, std::move(m));
    return f;
  }

  HipDeviceInfo info_;
  CodeObjectView code_object_;
  std::unique_ptr<HipApi> api_;
  std::unique_ptr<HipLaunchPipeline> pipeline_;
  LruCache<ModuleKey, Module> modules_{kHipModuleCacheSize};
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
  // The launch path (hip/launch_pipeline.h) stages every dword of each source's tuple; the
  // family's kernel must take the row's shape (code_object.h KernelCapacity) and the batch's
  // lanes must be laid out as the row reads them.
  // A shape the family's kernel does not take is "unsupported" (device_harness/fault.h): the
  // campaign counts it and goes on, the self-test shows it as SKIP. Every row of
  // model/instrs.def fits its family's kernel today (the GFX9 and GFX12.5 kernels load the
  // tuples); a wider row, or a tuple row on a family whose kernel has none, would land here.
  if (const LaneShape shape = GetInstrInfo(instr).lane_shape(); !KernelRuns(batch.target->family, shape)) {
    return Unsupported(absl::StrCat(
        InstrName(instr), " reads ", shape.src_dwords[0], "/", shape.src_dwords[1], "/", shape.src_dwords[2],
        " source dwords and writes ", shape.dst_words, " VDST words: the ", FamilyName(batch.target->family),
        " kernel does not take that shape"));
  } else if (!batch.lanes.shape().same_sources(shape)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the batch's lanes hold ", batch.lanes.shape().src_dwords[0], "/", batch.lanes.shape().src_dwords[1], "/",
        batch.lanes.shape().src_dwords[2], " dwords per source but ", InstrName(instr), "'s row reads ",
        shape.src_dwords[0], "/", shape.src_dwords[1], "/", shape.src_dwords[2]));
  }
  // Documented restrictions, checked on the words themselves (a DeviceBatch need not come
  // from BuildDeviceBatch, whose decoder refuses them too): undefined by spec, not run.
  LANEDIFF_ASSIGN_OR_RETURN(DecodedVop3 fields, DecodeVop3Fields(*batch.target, batch.words));
  const std::vector<std::string> undefined = SpecViolations(*batch.target, fields.vop3);
  if (!undefined.empty() && !batch.allow_undefined) {
    return absl::InvalidArgumentError(absl::StrCat(
        "undefined by spec on ", batch.target->name, ": ", absl::StrJoin(undefined, "; "),
        "; not run (DeviceBatch::allow_undefined runs it)"));
  }
  // The register convention, on the words themselves: a DeviceBatch built any other way than
  // BuildDeviceBatch must not read a register the kernel does not load (v5..v7, a VGPR past
  // the allocation, s23+). A batch running undefined words on purpose (a GFX9 literal has no
  // value to resolve) is checked for VDST and the unread fields only.
  if (undefined.empty()) {
    if (absl::Status s = CheckRegisterConvention(*batch.target, fields.vop3, batch.sgpr_values); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("register convention: ", s.message()));
    }
  } else if (absl::Status s = CheckLayoutBeyondReadSources(*batch.target, fields.vop3,
                                                           HarnessRegisterFile(batch.sgpr_values));
             !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("register convention: ", s.message()));
  }
  if (instr != batch.instr) {
    return absl::InvalidArgumentError(absl::StrCat("the instruction words encode ", InstrName(instr),
                                                   " but the batch says ", InstrName(batch.instr)));
  }
  const size_t max_lanes = (size_t{1} << 30) / static_cast<size_t>(DstWords(instr));
  if (batch.lanes.size() > max_lanes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch of ", batch.lanes.size(), " lanes of ", DstWords(instr), " VDST words exceeds ", max_lanes,
        " (the kernel uses 32-bit byte offsets)"));
  }
  return instr;
}

std::array<void*, 11> KernelParamPointers(KernelArgs& args) {
  return {&args.src0, &args.src1, &args.src2, &args.vdst_old, &args.out, &args.n,
          &args.mode, &args.sgpr[0], &args.sgpr[1], &args.sgpr[2], &args.shape};
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
