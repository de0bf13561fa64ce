// The one interface every device implements: run a batch (one instruction word, one MODE
// value, N lanes of operands) and return each lane's VDST word, or a Status saying what went
// wrong. The harness only executes: it never computes an expected value.
//
// Implementations: HIP (real GPU, device_harness/hip/), the ISA simulator (--device=sim),
// an external model (--device=exec:COMMAND) and replay of recordings (--device=replay:PATH).
//
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> dev, OpenRunner("sim", {}));
//   LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch batch, BuildDeviceBatch(testcase));
//   LANEDIFF_ASSIGN_OR_RETURN(DeviceResult r, dev->Run(batch));
#ifndef LANEDIFF_DEVICE_HARNESS_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_RUNNER_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "model/ops/ops.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// What a device executes: exactly the words spliced into the kernel, plus the data.
struct DeviceBatch {
  const TargetTraits* target = nullptr;
  Instr instr = Instr::v_cvt_pk_u8_f32;  // the instruction the words encode (checked)
  std::vector<uint32_t> words;           // 2 dwords, or 3 with a trailing literal
  uint32_t mode = kDefaultMode;          // MODE set before the instruction, restored after
  // Per-lane values of the VGPRs the word reads (src0..src2 where they name VGPRs) and the
  // old VDST. Lane values for non-VGPR sources are ignored.
  LaneBatch lanes;
  // Uniform values of SGPR sources, by source slot (src0, src1, src2).
  std::array<uint32_t, 3> sgpr_values{};
  // Run words that break a documented ISA restriction (model/isa/vop3.h SpecViolations: the
  // constant-bus limit, a literal where none is allowed) instead of refusing them before the
  // launch. Their result is undefined by the spec.
  bool allow_undefined = false;
};

// A device's answer: one VDST word per lane, plus who answered.
struct DeviceResult {
  std::vector<uint32_t> vdst;
  proto::Provenance provenance;
};

class Runner {
 public:
  virtual ~Runner() = default;
  // "sim (simulation of the ISA; no hardware)", "hip:0 AMD Instinct MI300X (gfx942)", ...
  virtual std::string Describe() const = 0;
  // Runs one batch. An error Status is a device fault or a refusal (wrong target, unknown
  // opcode); its message says which and carries the device's own words (stderr, HIP error).
  virtual absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) = 0;
};

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_RUNNER_H_
