// The HIP boundary: every HIP runtime call the runner makes while running a batch, behind an
// interface, so a test can put a fake runtime there and inject HIP errors (a launch failure,
// a sticky 700/719 at synchronize, a failing copy) or watch the order of the launch path's
// calls, without a GPU. Handles are opaque
// pointers and errors plain HIP error codes, so this header includes no HIP header; the real
// implementation (RealHipApi) is in hip_runner.cc, the only file that does.
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_HIP_API_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_HIP_API_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace lanediff {

class HipApi {
 public:
  virtual ~HipApi() = default;
  // 0 is hipSuccess; any other value is a hipError_t.
  virtual int SetDevice(int index) = 0;
  virtual int StreamCreate(void** stream) = 0;
  virtual int StreamDestroy(void* stream) = 0;
  virtual int Malloc(void** ptr, size_t bytes) = 0;
  virtual int Free(void* ptr) = 0;
  virtual int ModuleLoadData(void** module, const void* image) = 0;
  virtual int ModuleGetFunction(void** function, void* module, const char* name) = 0;
  virtual int ModuleUnload(void* module) = 0;
  virtual int MemcpyHtoDAsync(void* dst, const void* src, size_t bytes, void* stream) = 0;
  virtual int MemsetD32Async(void* dst, uint32_t value, size_t count, void* stream) = 0;
  virtual int LaunchKernel(void* function, unsigned blocks, unsigned threads, void* stream,
                           void** params) = 0;
  virtual int StreamSynchronize(void* stream) = 0;
  virtual int MemcpyDtoH(void* dst, const void* src, size_t bytes) = 0;
  // The launch path (hip/launch_pipeline.h): page-locked host staging buffers
  // (hipHostMalloc / hipHostFree), the copy back on a stream (hipMemcpyDtoHAsync), and events
  // (hipEventCreateWithFlags(hipEventDisableTiming), hipEventRecord, hipEventSynchronize,
  // hipStreamWaitEvent, hipEventDestroy) that order a copy stream against a compute stream.
  virtual int HostMalloc(void** ptr, size_t bytes) = 0;
  virtual int HostFree(void* ptr) = 0;
  virtual int MemcpyDtoHAsync(void* dst, const void* src, size_t bytes, void* stream) = 0;
  virtual int EventCreate(void** event) = 0;
  virtual int EventDestroy(void* event) = 0;
  virtual int EventRecord(void* event, void* stream) = 0;
  virtual int EventSynchronize(void* event) = 0;
  virtual int StreamWaitEvent(void* stream, void* event) = 0;
  // hipGetErrorName / hipGetErrorString ("hipErrorLaunchFailure", "unspecified launch failure").
  virtual std::string ErrorName(int error) = 0;
  virtual std::string ErrorString(int error) = 0;
};

// The HIP runtime itself.
std::unique_ptr<HipApi> RealHipApi();

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_HIP_API_H_
