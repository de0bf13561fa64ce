// From a proto::TestCase to what the model and the device harness need: the instruction
// (structured fields or raw words), and every lane's resolved 32-bit operands.
//
//   LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(tc));
//   std::vector<uint32_t> vdst(rc.lanes.size());
//   LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, rc.lanes.view(), absl::MakeSpan(vdst)));
//   LANEDIFF_ASSIGN_OR_RETURN(std::vector<uint32_t> words, EncodeVop3(*rc.target, rc.vop3));
//
// The register convention is the device harness's: its kernels load each lane's src0..src2
// into v1..v3 and vdst_old into v4, and the uniform SGPR-source values into s20..s22.
#ifndef LANEDIFF_MODEL_ISA_TESTCASE_H_
#define LANEDIFF_MODEL_ISA_TESTCASE_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// proto::Instruction <-> Instr, through the shared mnemonic. The error names the number.
absl::StatusOr<Instr> InstrFromProto(proto::Instruction p);
proto::Instruction InstrToProto(Instr instr);

struct RegisterConvention {
  uint8_t vdst = 4;                        // holds Lane.vdst_old before the instruction
  std::array<uint16_t, 3> vgpr = {1, 2, 3};  // hold Lane.src0..src2
  std::array<uint8_t, 3> sgpr = {20, 21, 22};  // hold Encoding.src0..src2.value
};

// The instruction word a test case means. Structured encoding: each source by kind
// (VGPR: register vgpr[i] unless Source.code names one; SGPR: sgpr[i] unless Source.code
// names one; INLINE: Source.code must be an inline constant; LITERAL: code 255 with
// Source.value). An SR instruction's absent src2 is encoded as 0, as LLVM does.
// raw_words: DecodeVop3 of them, which must name tc.instr. A word over the constant-bus limit
// is accepted: the model computes it as if every source were delivered (each has a value);
// whether it may run is the harness's decision (SpecViolations, device_harness/batch.h:
// refused unless --allow-undefined). Errors name the field at fault:
// "encoding.src1.code 300 is not an inline constant", "encoding.opsel 17 exceeds 4 bits",
// "instruction v_cvt_sr_fp8_f32 does not exist on gfx1100".
absl::StatusOr<Vop3Instr> Vop3FromTestCase(const TargetTraits& target,
                                           const proto::TestCase& tc,
                                           const RegisterConvention& conv = {});

struct ResolvedCase {
  const TargetTraits* target = nullptr;
  OpContext ctx;   // target, instr, mods, mode (0xf0 when absent); default hypotheses
  LaneBatch lanes; // every source resolved to the 32-bit value each lane reads
  Vop3Instr vop3;
};

// Resolves every source of every lane through the register convention: a VGPR reads the
// lane field the convention loads into it (v1..v3 -> src0..src2, v4 -> vdst_old), an SGPR
// the Encoding.srcN.value loaded into it, inline constants their value, the literal its
// word; null reads 0. A register the convention does not load is an error naming it.
absl::StatusOr<ResolvedCase> ResolveTestCase(const proto::TestCase& tc,
                                             const RegisterConvention& conv = {});

// ResolveTestCase in two steps, for a caller that keeps its lanes as flat arrays: the per-case
// part once (everything but rc.lanes, which stays empty; tc's lanes are not read), then any
// number of lanes. `raw` holds the Lane fields as written (src0, src1, src2, vdst_old); the
// view ResolveLanes returns points into `raw` for VGPR sources and into `uniform` (filled with
// the source's value) for the others, so it lives as long as both.
struct LaneRouting {
  std::array<int, 3> lane_field{};     // which Lane field feeds each source (3: vdst_old), or -1
  std::array<uint32_t, 3> uniform{};   // the value of a source that is not a lane field
};
absl::StatusOr<ResolvedCase> ResolveHeader(const proto::TestCase& tc, LaneRouting* routing,
                                           const RegisterConvention& conv = {});
LaneView ResolveLanes(const LaneRouting& routing, const LaneView& raw, LaneBatch* uniform);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_TESTCASE_H_
