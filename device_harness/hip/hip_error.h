// How a HIP error code becomes a Status, for every file of the HIP path that calls the
// runtime through HipApi (hip_runner.cc, launch_pipeline.cc). No HIP header: names and texts
// come through the HipApi seam.
//
//   LANEDIFF_HIP_CHECK(api, MemcpyHtoDAsync(d, h, n, s), "copying src0 to the device");
//   // on error: a device fault "copying src0 ... failed with HIP error 719 (hipError...: ...)"
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_HIP_ERROR_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_HIP_ERROR_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "device_harness/fault.h"
#include "device_harness/hip/hip_api.h"
#include "device_harness/hip/hip_runner.h"

namespace lanediff {

// "<doing> failed with HIP error 100 (hipErrorNoDevice: no ROCm-capable device is detected)"
inline std::string HipErrorText(int e, const std::string& name, const std::string& text,
                                absl::string_view doing) {
  const bool has_text = !text.empty() && text != name;  // HIP 5.2 repeats the name
  return absl::StrCat(doing, " failed with HIP error ", e, " (", name.empty() ? "unnamed" : name,
                      has_text ? absl::StrCat(": ", text) : "", ")");
}

// A HIP error while running an accepted batch: a device fault (the campaign keeps it as a
// finding with the words), carrying the HIP code and name in its message and the code in the
// payload kHipErrorPayload. After one the runner's context is not trusted again (a sticky
// error such as 700/719 fails every later call), so the isolated child exits and the next
// batch gets a fresh process and HIP context.
inline absl::Status HipFault(HipApi& api, int e, absl::string_view doing) {
  absl::Status s = DeviceFaultLostContext(HipErrorText(e, api.ErrorName(e), api.ErrorString(e), doing));
  const std::string code = absl::StrCat(e);
  s.SetPayload(kHipErrorPayload, absl::Cord(absl::string_view(code)));  // (Debian's Abseil exports no Cord(string&&))
  return s;
}

// A HIP error that is the environment's, not the instruction's (a module load the runtime
// refuses, an allocation): an environment error (fault.h) naming what to check. It keeps the
// HIP code in its message and payload.
inline absl::Status HipEnvironmentError(HipApi& api, int e, absl::string_view doing,
                                        absl::string_view check) {
  absl::Status s = EnvironmentError(HipErrorText(e, api.ErrorName(e), api.ErrorString(e), doing), check);
  const std::string code = absl::StrCat(e);
  s.SetPayload(kHipErrorPayload, absl::Cord(absl::string_view(code)));
  return s;
}

#define LANEDIFF_HIP_ENV_CHECK(api, call, doing, check)                               \
  do {                                                                               \
    const int lanediff_hip_err_ = (api).call;                                        \
    if (lanediff_hip_err_ != 0) {                                                    \
      return ::lanediff::HipEnvironmentError((api), lanediff_hip_err_, (doing), (check)); \
    }                                                                                \
  } while (0)

#define LANEDIFF_HIP_CHECK(api, call, doing)                 \
  do {                                                       \
    const int lanediff_hip_err_ = (api).call;                \
    if (lanediff_hip_err_ != 0) {                            \
      return ::lanediff::HipFault((api), lanediff_hip_err_, (doing)); \
    }                                                        \
  } while (0)

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_HIP_ERROR_H_
