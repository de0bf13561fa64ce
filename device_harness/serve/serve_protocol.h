// The exec-serve protocol: one long-lived device process per campaign, answering batches over
// its stdin/stdout in the frames of isolation/wire.h (a little-endian uint32 length, then the
// payload). Integers are little-endian uint32; a string is its uint32 length then the bytes;
// n words are n uint32. device_harness/README.md ("The protocol") documents it with a Python
// adapter.
//
//   device -> host, once, first:  hello   "LDH1" version(=1) device-string
//                                         ntargets target-string... ninstrs instr-string...
//                                         (an empty list means "any")
//   host -> device, per case:     request "LDQ1" id target-string instr-string opsel neg abs
//                                         clamp omod mode n src0[n] src1[n] src2[n]
//                                         vdst_old[n] batch-string
//   device -> host, per request:  answer  "LDA1" id kind ...
//        kind 0 ok:          n vdst[n] provenance-string (a serialized lanediff.proto.Provenance,
//                            may be empty)
//        kind 1 unsupported: reason-string (counted by the campaign; not a fault, not a refusal)
//        kind 2 fault:       code message-string (the device crashed or hung on this case)
//        kind 3 refused:     code message-string (the device will not run it: not a fault)
// src0..vdst_old are the 32-bit values each lane reads (inline constants, SGPRs and literals
// resolved, as `lanediff eval` gets them); the modifiers are decoded from the words. The
// trailing batch-string is the raw DeviceBatch (wire.h "LDB1": words, SGPR values, VGPR lanes)
// for devices that execute the words themselves (`lanediff serve-device`); adapters skip it.
// End of input (stdin closed) means the campaign is over: the device exits 0.
#ifndef LANEDIFF_DEVICE_HARNESS_SERVE_SERVE_PROTOCOL_H_
#define LANEDIFF_DEVICE_HARNESS_SERVE_SERVE_PROTOCOL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "device_harness/isolation/wire.h"
#include "device_harness/runner.h"

namespace lanediff {

inline constexpr uint32_t kServeProtocolVersion = 1;
// A request carries each lane twice (resolved, and in the raw batch): 32 bytes per lane, so
// kMaxLanesPerBatch lanes need twice the isolation protocol's frame limit.
inline constexpr uint32_t kServeMaxRequestBytes = 2 * kMaxFrameBytes;

struct ServeHello {
  std::string device;                // what answers: "sim (simulation ...)", "my emulator 0.3"
  std::vector<std::string> targets;  // gfx names; empty: any
  std::vector<std::string> instrs;   // instruction names; empty: any
  // Unsupported("...") when the hello's lists leave out the batch's target or instruction.
  absl::Status Covers(const DeviceBatch& batch) const;
};

std::string EncodeHello(const ServeHello& hello);
absl::StatusOr<ServeHello> DecodeHello(absl::string_view payload);

// Decodes the batch's words (errors are the batch's: a refusal) and writes the request.
absl::StatusOr<std::string> EncodeRequest(uint32_t id, const DeviceBatch& batch);
struct ServeRequest {
  uint32_t id = 0;
  DeviceBatch batch;  // the raw batch carried at the end of the request
};
absl::StatusOr<ServeRequest> DecodeRequest(absl::string_view payload);

// An answer to request `id`: ok, or the Status kind (IsUnsupported, IsDeviceFault, else refused).
std::string EncodeAnswer(uint32_t id, const absl::StatusOr<DeviceResult>& result);
struct ServeAnswer {
  uint32_t id = 0;
  absl::StatusOr<DeviceResult> result;
};
// The outer Status is a malformed answer; `max_lanes` bounds the vdst count.
absl::StatusOr<ServeAnswer> DecodeAnswer(absl::string_view payload, size_t max_lanes);

// The device side (`lanediff serve-device`): writes the hello to out_fd, then answers each
// request read from in_fd with runner.Run until end of input (OkStatus). A malformed request
// or a broken pipe ends it with an error.
absl::Status ServeDevice(Runner& runner, const ServeHello& hello, int in_fd, int out_fd);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_SERVE_SERVE_PROTOCOL_H_
