// Device faults: how a runner says "the device crashed, hung or misbehaved" as opposed to
// "I refuse this batch" (wrong target, unknown opcode, a replay with no recording).
//
// A fault is a Status whose message starts "device fault: " and which carries the payload
// kDeviceFaultPayload, so callers (the campaign, `lanediff record`) can keep it as a finding
// with the device's exact words and go on with the next batch.
//
//   return DeviceFault(absl::StatusCode::kDeadlineExceeded,
//                      "sim child pid 42 did not answer within 10 s (hang); killed with SIGKILL");
//   if (IsDeviceFault(status)) finding.set_fault(std::string(status.message()));
#ifndef LANEDIFF_DEVICE_HARNESS_FAULT_H_
#define LANEDIFF_DEVICE_HARNESS_FAULT_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace lanediff {

inline constexpr absl::string_view kDeviceFaultPayload = "lanediff.device_fault";

// A device fault. `code` is kUnavailable for crashes and bad output, kDeadlineExceeded for
// hangs; the message gets the "device fault: " prefix unless it already has it.
inline absl::Status DeviceFault(absl::StatusCode code, absl::string_view what) {
  absl::Status s(code, absl::StartsWith(what, "device fault: ")
                           ? std::string(what)
                           : absl::StrCat("device fault: ", what));
  s.SetPayload(kDeviceFaultPayload, absl::Cord("1"));
  return s;
}
inline absl::Status DeviceFault(absl::string_view what) {
  return DeviceFault(absl::StatusCode::kUnavailable, what);
}

// A device fault after which the process's device state is not to be trusted (a HIP context
// with a sticky error fails every later call): code kAborted. The isolated child exits after
// answering with one, so the next batch runs in a fresh child (isolation/isolated_runner.h).
inline absl::Status DeviceFaultLostContext(absl::string_view what) {
  return DeviceFault(absl::StatusCode::kAborted, what);
}

// True for a Status made by DeviceFault (also after it crossed the isolation pipe).
inline bool IsDeviceFault(const absl::Status& s) {
  return !s.ok() && (s.GetPayload(kDeviceFaultPayload).has_value() ||
                     absl::StartsWith(s.message(), "device fault: "));
}

// True for a fault made by DeviceFaultLostContext (also after it crossed the isolation pipe).
inline bool NeedsFreshProcess(const absl::Status& s) {
  return IsDeviceFault(s) && s.code() == absl::StatusCode::kAborted;
}

// The HIP error code of a fault the HIP runner made (hip/hip_runner.h: "... failed with HIP
// error 719 (hipErrorLaunchFailure...)"), read from the message, which crosses the isolation
// pipe whole; nullopt for a crash, a hang or any other fault.
inline std::optional<int> HipErrorOf(const absl::Status& s) {
  if (!IsDeviceFault(s) || s.code() == absl::StatusCode::kDeadlineExceeded ||
      s.code() == absl::StatusCode::kUnavailable) {
    return std::nullopt;
  }
  constexpr absl::string_view kMark = "HIP error ";
  const absl::string_view m = s.message();
  const size_t at = m.find(kMark);
  if (at == absl::string_view::npos) return std::nullopt;
  size_t i = at + kMark.size();
  int code = 0, digits = 0;
  for (; i < m.size() && m[i] >= '0' && m[i] <= '9' && digits < 9; ++i, ++digits) {
    code = code * 10 + (m[i] - '0');
  }
  if (digits == 0 || i >= m.size() || m[i] != ' ') return std::nullopt;
  return code;
}

// An environment error: a failure that is not the instruction's (the runtime refused the code
// object, an allocation failed, the device child could not start). Never a finding: the
// campaign counts it, and stops (exit 3) after kEnvironmentErrorsInARow of them in a row.
// Code kFailedPrecondition, message "environment error: <what failed>; check: <what to check>",
// payload kEnvironmentErrorPayload; the prefix alone is recognised after the isolation pipe.
inline constexpr absl::string_view kEnvironmentErrorPayload = "lanediff.environment_error";
inline constexpr int kEnvironmentErrorsInARow = 3;

inline absl::Status EnvironmentError(absl::string_view what, absl::string_view check) {
  absl::Status s(absl::StatusCode::kFailedPrecondition,
                 absl::StrCat(absl::StartsWith(what, "environment error: ") ? "" : "environment error: ",
                              what, check.empty() ? "" : "; check: ", check));
  s.SetPayload(kEnvironmentErrorPayload, absl::Cord("1"));
  return s;
}

inline bool IsEnvironmentError(const absl::Status& s) {
  return !s.ok() && (s.GetPayload(kEnvironmentErrorPayload).has_value() ||
                     absl::StartsWith(s.message(), "environment error: "));
}

// "Unsupported": the device cannot run this case (a target, instruction, modifier or MODE it
// does not implement). Neither a fault nor a refusal: the campaign counts it and goes on. Code
// kUnimplemented, message prefixed "unsupported: ", payload kUnsupportedPayload.
//
//   if (!Implements(batch)) return Unsupported("clamp is not implemented by this emulator");
inline constexpr absl::string_view kUnsupportedPayload = "lanediff.unsupported";

inline absl::Status Unsupported(absl::string_view what) {
  absl::Status s(absl::StatusCode::kUnimplemented, absl::StartsWith(what, "unsupported: ")
                                                       ? std::string(what)
                                                       : absl::StrCat("unsupported: ", what));
  s.SetPayload(kUnsupportedPayload, absl::Cord("1"));
  return s;
}

inline bool IsUnsupported(const absl::Status& s) {
  return !s.ok() && s.GetPayload(kUnsupportedPayload).has_value();
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_FAULT_H_
