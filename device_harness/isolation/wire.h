// The isolation protocol: DeviceBatch and DeviceResult as flat binary frames over pipes.
//
// A frame is a little-endian uint32 length followed by that many payload bytes. Payloads:
//   batch:  "LDB1" target-name instr words[] mode sgpr[3] n src0[n] src1[n] src2[n] vdst_old[n]
//           [flags]  (optional, only written when non-zero: bit 0 = allow_undefined)
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
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "device_harness/runner.h"

namespace lanediff {

// Frames larger than this are refused on both sides (1<<20 lanes x 4 words + slack).
inline constexpr uint32_t kMaxFrameBytes = (1u << 20) * 16 + (1u << 16);

// The payload pieces every frame here is made of: a little-endian uint32; a string or byte
// blob as its uint32 length then the bytes; n words as n little-endian uint32.
void PutU32(std::string* out, uint32_t v);
void PutString(std::string* out, absl::string_view s);
void PutWords(std::string* out, const uint32_t* w, size_t n);

// Reads those pieces off a payload; every error names the field and is DataLoss, prefixed
// with `what` ("isolation frame", "exec-serve answer", ...).
class WireReader {
 public:
  explicit WireReader(absl::string_view data, absl::string_view what = "isolation frame")
      : data_(data), what_(what) {}
  absl::Status Magic(absl::string_view magic);
  absl::StatusOr<uint32_t> U32(absl::string_view field);
  absl::StatusOr<std::string> String(absl::string_view field);
  absl::Status Words(absl::string_view field, size_t n, std::vector<uint32_t>* out);
  absl::Status End();  // no bytes left
  bool AtEnd() const { return data_.empty(); }

 private:
  absl::Status Short(absl::string_view field);
  absl::string_view data_;
  absl::string_view what_;
};

std::string EncodeBatch(const DeviceBatch& batch);
absl::StatusOr<DeviceBatch> DecodeBatch(absl::string_view payload);

// A runner's answer, error or not, as one payload. A device-fault Status keeps its flag.
std::string EncodeResult(const absl::StatusOr<DeviceResult>& result);
// The outer Status is a malformed frame; the inner one is the runner's own answer.
absl::StatusOr<absl::StatusOr<DeviceResult>> DecodeResult(absl::string_view payload);

// The length prefix and the payload, as WriteFrame writes them (for callers that batch frames).
std::string Frame(absl::string_view payload);
// Takes the first complete frame off the front of `buffer` (bytes read so far from a pipe):
// nullopt while it is incomplete; DataLoss if its length exceeds `max_bytes`.
absl::StatusOr<std::optional<std::string>> PopFrame(std::string* buffer,
                                                    uint32_t max_bytes = kMaxFrameBytes);

// A timeout in the time a process was able to wait, not in wall-clock time across a stop:
// waits are cut into slices of at most 200 ms, and a slice that took longer than asked by
// more than 100 ms (the process was stopped by SIGSTOP, or the machine suspended) is charged
// as asked. A campaign stopped and continued thus never turns a batch into a false "hang".
//
//   StopAwareTimer t(absl::Seconds(2));
//   while (!t.Expired()) { poll(&p, 1, t.NextWaitMs()); ... }
class StopAwareTimer {
 public:
  explicit StopAwareTimer(absl::Duration budget);
  bool Expired();
  // How long the next poll() may wait, in milliseconds (1..200).
  int NextWaitMs();

 private:
  void Charge();
  absl::Duration budget_, used_, asked_;
  absl::Time last_;
};

// Writes the length prefix and the payload, retrying on EINTR and short writes.
absl::Status WriteFrame(int fd, absl::string_view payload);

// Reads one frame. With a finite timeout, waits at most that long in total (poll(), measured
// with StopAwareTimer); kDeadlineExceeded if it expires with no complete frame at hand (bytes
// already in the pipe when it expires are still read: a complete answer is never a hang),
// kUnavailable on end of file ("peer closed the pipe").
// Frames longer than `max_bytes` are DataLoss.
absl::StatusOr<std::string> ReadFrame(int fd, absl::Duration timeout = absl::InfiniteDuration(),
                                      uint32_t max_bytes = kMaxFrameBytes);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_ISOLATION_WIRE_H_
