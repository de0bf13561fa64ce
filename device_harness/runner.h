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
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "device_harness/kernel_state.h"
#include "model/base/lanes.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// What a device executes: exactly the words spliced into the kernel, plus the data.
struct DeviceBatch {
  const TargetTraits* target = nullptr;
  Instr instr = kAllInstrs.front();      // the instruction the words encode (checked)
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
  // MODE as the instruction ran, read back by the kernel (s_getreg after the MODE writes);
  // the simulator emulates it; empty for devices that cannot report it (exec, replay).
  std::optional<uint32_t> mode_readback;
};

// A harness fault, not a device fault and not a finding: the MODE read back differs from the
// MODE the instruction was to run with (KernelMode of the batch's, kernel_state.h) in a field
// the kernel sets from the batch or the code object fixes (KernelModeState::checked: MODE[7:0],
// MODE[23] and, on GFX9-11, DX10_CLAMP and IEEE), so the model's MODE is not the chip's and no
// lane of the batch can be trusted. OK when they agree or when the device reports no readback.
inline absl::Status CheckModeReadback(const DeviceBatch& batch, const DeviceResult& result) {
  if (!result.mode_readback.has_value() || batch.target == nullptr) return absl::OkStatus();
  const KernelModeState state = KernelModeStateFor(*batch.target);
  const uint32_t mask = state.checked();
  const uint32_t got = *result.mode_readback & mask;
  const uint32_t want = KernelMode(*batch.target, batch.mode) & mask;
  if (got == want) return absl::OkStatus();
  const uint32_t fixed_diff = (got ^ want) & state.fixed;
  return absl::InternalError(absl::StrFormat(
      "harness fault: MODE read back 0x%08x after setting 0x%08x (checked bits 0x%08x: got "
      "0x%08x, want 0x%08x%s): the instruction did not run under the MODE the model uses, so "
      "the harness is wrong on this device; not a finding", *result.mode_readback, batch.mode,
      mask, got, want,
      fixed_diff != 0 ? absl::StrFormat("; bits 0x%08x are fixed by %s", fixed_diff, state.fixed_from)
                      : std::string()));
}

class Runner {
 public:
  virtual ~Runner() = default;
  // "sim (simulation of the ISA; no hardware)", "hip:0 AMD Instinct MI300X (gfx942)", ...
  virtual std::string Describe() const = 0;
  // Its driver / ISA string where it has one, for the run identity (proto/report.proto
  // RunIdentity.driver): "HIP runtime 60342134, driver 60342134; ISA gfx942:sramecc+:xnack-".
  // "" for devices without a driver (simulator, exec, replay).
  virtual std::string Driver() const { return ""; }
  // Runs one batch. An error Status is a device fault or a refusal (wrong target, unknown
  // opcode); its message says which and carries the device's own words (stderr, HIP error).
  virtual absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) = 0;
};

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_RUNNER_H_
