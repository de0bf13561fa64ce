// From a proto::TestCase to the DeviceBatch every runner executes, and back from a batch's
// words to what a software device (simulator, external model, replay) needs.
//
//   LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch batch, BuildDeviceBatch(testcase));
//   LANEDIFF_ASSIGN_OR_RETURN(DecodedBatch d, DecodeDeviceBatch(batch, batch.words));
//   d.ctx.mods.opsel; d.resolved.view()   // per-lane 32-bit operand values
//
// Register convention (register_convention.h, the HIP kernels' layout): each lane's
// src0..src2 live in v1..v3 and vdst_old in v4, which is also VDST; the uniform SGPR values
// sgpr_values[0..2] live in s20..s22. Words (structured or raw) that name any other register
// are refused: no kernel would load it, so no device could give it a defined value. Operands
// are resolved by the one resolver (model/isa/resolve.h) under that layout, once per case
// (resolve_case.h) and once per batch a software device decodes (DecodeDeviceBatch).
#ifndef LANEDIFF_DEVICE_HARNESS_BATCH_H_
#define LANEDIFF_DEVICE_HARNESS_BATCH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "device_harness/register_convention.h"
#include "device_harness/resolve_case.h"
#include "device_harness/runner.h"
#include "model/isa/resolve.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// The largest batch any runner accepts (the HIP kernels' buffers are sized from it).
inline constexpr size_t kMaxLanesPerBatch = size_t{1} << 20;

// Encodes the case's instruction (or takes encoding.raw_words verbatim), copies the lanes and
// the SGPR-source values. Errors name the field at fault: unknown target, an instruction the
// target lacks, no lanes or more than kMaxLanesPerBatch, raw words that do not decode or name
// the wrong instruction, a register outside the convention, and - unless `allow_undefined`
// (--allow-undefined; then set in the batch) - a word that breaks a documented restriction
// (CheckDefinedBySpec).
absl::StatusOr<DeviceBatch> BuildDeviceBatch(const proto::TestCase& tc, bool allow_undefined = false);
// The same from a case whose lanes are flat arrays (fuzz/engine/lane_gen.h FlatCase): `header`'s own
// lanes are ignored; `lanes` holds the Lane fields (src0, src1, src2, vdst_old).
absl::StatusOr<DeviceBatch> BuildDeviceBatch(const proto::TestCase& header, const LaneView& lanes,
                                             bool allow_undefined = false);
// The same from a case already resolved (ResolveHeader, resolve_case.h): nothing is encoded
// or resolved again, so a caller that resolved the case for the model reuses it here.
absl::StatusOr<DeviceBatch> BuildDeviceBatch(const ResolvedCase& rc, const LaneView& lanes,
                                             bool allow_undefined = false);
// Everything but the lanes (b.lanes empty), checked for a batch of `num_lanes` lanes.
absl::StatusOr<DeviceBatch> BuildDeviceBatchHeader(const proto::TestCase& header, size_t num_lanes,
                                                   bool allow_undefined = false);
absl::StatusOr<DeviceBatch> BuildDeviceBatchHeader(const ResolvedCase& rc, size_t num_lanes,
                                                   bool allow_undefined = false);

// Refuses (InvalidArgument) a word that breaks a documented ISA restriction (model/isa/vop3.h
// SpecViolations: the constant-bus limit, a literal where none is allowed) unless
// `allow_undefined`: "undefined by spec on gfx942: constant bus: 2 distinct SGPR/literal
// reads, GFX9 allows 1; not run (--allow-undefined runs it)". Every runner that executes words
// (HIP, the simulator) and BuildDeviceBatch check it, so a word is refused before any launch.
absl::Status CheckDefinedBySpec(const TargetTraits& target, const Vop3Instr& instr,
                                bool allow_undefined);

// Refuses a decoded instruction whose VDST is not v4 or whose sources read a register the
// convention does not load (VGPRs other than v1..v4, SGPRs other than s20..s22, special
// registers other than null), a field the instruction does not read included (unless it is
// 0, as LLVM encodes it). RouteOnHarness does the same check and returns where each source's
// word comes from, given the batch's SGPR values (the one resolver, model/isa/resolve.h).
absl::Status CheckConvention(const TargetTraits& target, const Vop3Instr& instr);
absl::StatusOr<LaneRouting> RouteOnHarness(const TargetTraits& target, const Vop3Instr& instr,
                                           const std::array<uint32_t, 3>& sgpr_values);

// What the words of a batch mean, with every lane's operands resolved to 32-bit values.
struct DecodedBatch {
  DecodedVop3 decoded;
  // target, instr, mods, default hypotheses; mode = KernelMode of the batch's (kernel_state.h)
  OpContext ctx;
  uint32_t requested_mode = kDefaultMode;  // DeviceBatch::mode: what an external model is told
  LaneBatch resolved;  // src0..src2 as each lane reads them; vdst_old as loaded into v4
};

// Decodes `words` (normally batch.words; the simulator passes the words it read back from
// the patched code object) and resolves every lane. Refuses words that decode to another
// instruction than batch.instr, break the register convention, or (unless
// batch.allow_undefined) a documented restriction (CheckDefinedBySpec).
absl::StatusOr<DecodedBatch> DecodeDeviceBatch(const DeviceBatch& batch,
                                               absl::Span<const uint32_t> words);

// "gfx942 <mnemonic> v4, v1, v2, v3 [0xd1dd0004 0x040e0501], MODE 0x000000f0, 64 lanes"
// (the words alone when they do not decode): how errors name a batch.
std::string DescribeBatch(const DeviceBatch& batch);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_BATCH_H_
