// The ISA-simulator device (--device=sim): CI's end-to-end path through encoder, patcher,
// decoder and model, with no hardware.
//
// For each batch it does what the HIP path does up to the launch, then simulates the launch:
// it patches the batch's words into the target's embedded code object (PatchCodeObject),
// reads the words back from the patched ELF (ReadPatchSite), decodes them (DecodeVop3),
// resolves each lane's operands under the kernels' register layout (RouteOnHarness in
// batch.h: the one operand resolver, model/isa/resolve.h) and runs the model's Evaluate, under SimOptions::hypotheses with the injected errata (errata.h) applied.
// Everything it says (Describe, provenance) says it is a simulation.
//
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> sim,
//       OpenSimRunner({.inject = {"byte12_swap"}}));
//
// The fault errata `crash` and `hang` really abort or hang the calling process: run such a
// simulator inside an IsolatedRunner (OpenRunner does).
#ifndef LANEDIFF_DEVICE_HARNESS_SIM_SIM_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_SIM_SIM_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/runner.h"
#include "device_harness/sim/errata.h"

namespace lanediff {

struct SimOptions {
  std::vector<std::string> inject;      // erratum names (errata.h), repeatable
  std::vector<std::string> hypotheses;  // "name=value" for the simulated device's model
};

inline constexpr absl::string_view kSimDeviceName = "simulation (no hardware)";

absl::StatusOr<std::unique_ptr<Runner>> OpenSimRunner(const SimOptions& options);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_SIM_SIM_RUNNER_H_
