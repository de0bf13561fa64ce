// The isolation protocol: DeviceBatch and DeviceResult as flat binary frames over pipes.
//
// A frame is a little-endian uint32 length followed by that many payload bytes. Payloads:
//   batch:  "LDB1" target-name instr words[] mode sgpr[3] n src0[n] src1[n] src2[n] vdst_old[n]
//   result: "LDR1" ok; ok=1: vdst[] provenance(proto bytes); ok=0: code message fault-flag
//   hello:  the same as a result with no lanes; the provenance's `device` is Describe().
// Strings and arrays carry a uint32 count first. Decoding checks every length against the
// payload and names the field at fault.
//
//   std::string frame = EncodeBatch(batch);
//   LANEDIFF_RETURN_IF_ERROR(WriteFrame(fd, frame));
//   LANEDIFF_ASSIGN_OR_RETURN(std::string payload, ReadFrame(fd, absl::Seconds(10)));
//   LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch again, DecodeBatch(payload));
#ifndef LANEDIFF_DEVICE_HARNESS_ISOLATION_WIRE_H_
#define LANEDIFF_DEVICE_HARNESS_ISOLATION_WIRE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "device_harness/runner.h"

namespace lanediff {

// Frames larger than this are refused on both sides (1<<20 lanes x 4 words + slack).
inline constexpr uint32_t kMaxFrameBytes = (1u << 20) * 16 + (1u << 16);

std::string EncodeBatch(const DeviceBatch& batch);
absl::StatusOr<DeviceBatch> DecodeBatch(absl::string_view payload);

// A runner's answer, error or not, as one payload. A device-fault Status keeps its flag.
std::string EncodeResult(const absl::StatusOr<DeviceResult>& result);
// The outer Status is a malformed frame; the inner one is the runner's own answer.
absl::StatusOr<absl::StatusOr<DeviceResult>> DecodeResult(absl::string_view payload);

// Writes the length prefix and the payload, retrying on EINTR and short writes.
absl::Status WriteFrame(int fd, absl::string_view payload);

// Reads one frame. With a finite timeout, waits at most that long in total (poll());
// kDeadlineExceeded if it expires, kUnavailable on end of file ("peer closed the pipe").
absl::StatusOr<std::string> ReadFrame(int fd, absl::Duration timeout = absl::InfiniteDuration());

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_ISOLATION_WIRE_H_
