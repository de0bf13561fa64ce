// The harness checks itself on a device: `lanediff devices --selftest` and the known-answer
// check every campaign runs first.
//
// Known answers: for each instruction of the target, word variants covering every modifier
// field the instruction uses (NEG/ABS on src0, the destination-byte select, CLAMP), an SGPR
// source, a literal source (GFX10+), and two MODE values; each with lanes on which every
// setting of every hypothesis relevant to the instruction (fuzz/triage/discriminate.h) gives the
// same answer, so a device that disagrees on one is wrong whatever the silicon's reading of
// the rules: the harness is wrong on it (or the device is broken), not a finding. The lanes
// include the agreed NaN and special inputs (+-Inf, +-0, denormals, overflow; counted in
// KnownAnswer::nan_lanes and special_lanes) and span two workgroups (kSelfTestLanes). On an
// RDNA GPU both wave sizes are checked, one SelfTest each (SelfTestDeviceSpecs).
// Each batch's MODE readback is checked by the runner (runner.h CheckModeReadback).
//
//   LANEDIFF_ASSIGN_OR_RETURN(SelfTest st, RunSelfTest(*runner, *target, {.discriminate = true}));
//   if (!st.ok()) ...   // FormatSelfTest(st) says what was seen; SelfTestBundle(st) is the file
#ifndef LANEDIFF_FUZZ_SELFTEST_H_
#define LANEDIFF_FUZZ_SELFTEST_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "device_harness/code_object.h"
#include "device_harness/fault.h"
#include "device_harness/runner.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct KnownAnswer {
  std::string name;  // "<mnemonic> byte 2, MODE 0x000000f0"
  proto::TestCase testcase;
  // Every hypothesis setting's answer (they agree): DstWords per lane, lane i's at
  // [i*W, i*W + W) (a VGPR pair: VDST, VDST+1), as the device returns them.
  std::vector<uint32_t> expected;
  absl::Status status;             // the device's error, if any
  std::vector<uint32_t> observed;
  std::optional<uint32_t> mode_readback;
  int nan_lanes = 0;      // lanes whose input is a NaN (model/ops/input_class.h "nan")
  int special_lanes = 0;  // lanes whose input is +-Inf, +-0, a denormal or an overflow
  int wrong_lanes = 0;
  std::string first_wrong;  // "lane 3: src0 0x3f800000 ... expected 0x... got 0x..."
  bool ok() const { return status.ok() && wrong_lanes == 0; }
  // The device answered "unsupported" (device_harness/fault.h): not run, so not checked; a
  // self-test shows it as SKIP and does not fail on it.
  bool unsupported() const { return IsUnsupported(status); }
};

// Lanes in every known-answer batch: more than one workgroup of the HIP kernels
// (kKernelWorkgroupSize, device_harness/code_object.h), so the second workgroup's addressing
// is checked too; the agreed NaN and special lanes sit at the start of both workgroups and in
// the last lane.
inline constexpr size_t kWorkgroupLanes = kKernelWorkgroupSize;
inline constexpr size_t kSelfTestLanes = kWorkgroupLanes + 44;  // 300: two workgroups

struct SelfTest {
  std::string device;              // runner Describe()
  std::optional<proto::Provenance> provenance;  // the first answer's: device, driver, target, stepping
  std::string target;
  std::string isa;                 // the code objects' ISA string, amdgcn-amd-amdhsa--gfxNNN
  std::vector<KnownAnswer> known;
  std::vector<std::string> discriminate;  // one verdict line per instruction
  std::vector<std::string> discriminate_errors;
  proto::Recording recording;      // every batch run, replayable with --device=replay:
  // Every known answer right but those the device cannot run (unsupported; at least one run),
  // and no discriminate error.
  bool ok() const;
};

struct SelfTestOptions {
  bool discriminate = true;  // also put the discriminate questions to the device
  // The rows checked (known answers and discriminate questions); empty: every row the target
  // has. (Tests of a device that starts a process per batch, exec:, check a sample.)
  std::vector<Instr> instrs = {};
};

// Errors only when no known-answer case can be built (a bug); device errors are results.
absl::StatusOr<SelfTest> RunSelfTest(Runner& runner, const TargetTraits& target,
                                     SelfTestOptions options = {});

// The --device specs a self-test of `spec` on `target` runs, one self-test (and report) each: a
// HIP GPU named without a wave size ("hip", "hip:N") on a target with both wave sizes (RDNA)
// is checked with each code object: {"hip:N" (its default, wave32), "hip:N:wave64"}; any other
// spec as given.
std::vector<std::string> SelfTestDeviceSpecs(absl::string_view spec, const TargetTraits& target);

// What a user reads: one line per check, then a verdict.
std::string FormatSelfTest(const SelfTest& st);

// The attachable file: '#' comment lines with the device, driver, ISA string, MODE readback,
// known-answer results and discriminate verdicts, then the recording as a text-format
// lanediff.proto.Recording, so the file itself replays with --device=replay:FILE.
std::string SelfTestBundle(const SelfTest& st);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_SELFTEST_H_
