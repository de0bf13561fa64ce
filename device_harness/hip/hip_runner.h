// The real-GPU device: runs a DeviceBatch on an AMD GPU through the HIP runtime, with the
// code object built for the GPU's target and wave size (device_harness/code_object.h) and the
// instruction word spliced in at its patch site.
//
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> gpu, OpenHipRunner(0));
//   LANEDIFF_ASSIGN_OR_RETURN(DeviceResult r, gpu->Run(batch));   // r.vdst[i]: lane i's VDST
//   // (a VGPR-pair writer, DstWords 2: r.vdst[2i] = lane i's VDST, r.vdst[2i + 1] = VDST+1)
//
// This header includes no HIP header; hip_runner.cc is the only file that does. Every HIP
// call is checked, and every error says what was being done, the HIP error code and its name:
//   "no AMD GPU is visible to the HIP runtime: hipGetDeviceCount failed with HIP error 100
//    (hipErrorNoDevice) ..."
// With no GPU, OpenHipRunner fails at once (the runtime answers hipErrorNoDevice immediately).
// The runner does not isolate itself: device_harness/isolation runs it in a child process.
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_HIP_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_HIP_RUNNER_H_

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "device_harness/code_object.h"
#include "device_harness/hip/hip_api.h"
#include "device_harness/runner.h"

namespace lanediff {

// One HIP device as the runtime reports it, and what lanediff makes of it.
struct HipDeviceInfo {
  int index = 0;
  std::string name;           // hipDeviceProp_t.name: "AMD Instinct MI300X"
  std::string gcn_arch_name;  // hipDeviceProp_t.gcnArchName: "gfx942:sramecc+:xnack-"
  int wave_size = 0;          // hipDeviceProp_t.warpSize
  std::string target;         // lanediff target ("gfx942"); empty when unsupported
  std::string unsupported;    // why lanediff cannot run on it; empty when supported
  std::string runtime;        // "HIP runtime 50221153, driver 50221153"
  int asic_revision = -1;     // hipDeviceProp_t.asicRevision (silicon stepping, where reported)
  int pci_bus = -1;           // hipDeviceProp_t.pciBusID
};

// Every HIP device. With no GPU: an error with the HIP code and name and the sentence
// "no AMD GPU is visible to the HIP runtime".
absl::StatusOr<std::vector<HipDeviceInfo>> ListHipDevices();

// Opens HIP device `device_index` for running batches, with the code object for its target
// and `wave_size` (0: the device's warpSize, i.e. 64 on GFX9 and 32 on RDNA; 64 selects the
// wave64 kernel on RDNA). Fails when there is no such device, when its target is not one
// lanediff knows, or when there is no code object for that wave size.
absl::StatusOr<std::unique_ptr<Runner>> OpenHipRunner(int device_index = 0, int wave_size = 0);

// "gfx942:sramecc+:xnack-" -> "gfx942" (the processor before the first ':'). Errors when the
// name is empty or not a gfx name.
absl::StatusOr<std::string> ProcessorFromGcnArchName(absl::string_view gcn_arch_name);

// The HIP runner on any HipApi (hip_api.h): the real runtime (what OpenHipRunner uses) or a
// test's fake one that injects HIP errors. `info.target` must name a target whose code object
// `code_object` is.
absl::StatusOr<std::unique_ptr<Runner>> OpenHipRunnerWithApi(HipDeviceInfo info, CodeObjectView code_object,
                                                             std::unique_ptr<HipApi> api);

// A HIP error after a batch was accepted (allocating, copying, loading the module, launching,
// synchronizing) is a device fault (fault.h) whose message has "HIP error N (name...)" and
// whose payload kHipErrorPayload holds N in decimal. The runner then refuses every later batch
// as a device fault (a sticky error such as 700 or 719 would fail them anyway), and the
// isolated child exits after sending a fault, so the next batch gets a fresh process and HIP
// context.
inline constexpr absl::string_view kHipErrorPayload = "lanediff.hip_error";
// Modules kept loaded (one per target and instruction words); when full, the least recently
// used one is unloaded (module_cache.h), never all at once.
inline constexpr size_t kHipModuleCacheSize = 64;

// Exposed for tests (they run without a GPU):
// The launch geometry for n lanes (blocks of kKernelWorkgroupSize).
unsigned HipGridBlocks(size_t lanes);
// What Run checks before touching the device: the batch's target is the code object's, the
// words may be spliced (CheckPatchWords) and encode batch.instr, the kernels store its
// destination (at most kKernelMaxDstWords words), the lane count fits.
absl::StatusOr<Instr> CheckHipBatch(const CodeObjectView& code_object, const DeviceBatch& batch);
// hipModuleLaunchKernel's kernelParams: one pointer per argument of the kernels' metadata,
// in metadata order (src0 src1 src2 vdst_old out n mode sgpr0 sgpr1 sgpr2 shape).
std::array<void*, 11> KernelParamPointers(KernelArgs& args);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_HIP_RUNNER_H_
