// From a proto::TestCase to the instruction it means: the instruction enum through the proto
// mapping, and the structured encoding (or raw words) as a Vop3Instr. Encoding facts only: the
// registers a structured source names when its code is 0 ("let the harness choose") and VDST
// come from the caller, because where registers are is the executor's business (the device
// harness's kernel layout, device_harness/register_convention.h); the per-lane operand values
// are resolved by model/isa/resolve.h under the executor's RegisterFile
// (device_harness/resolve_case.h does both for a test case).
//
//   LANEDIFF_ASSIGN_OR_RETURN(Vop3Instr in, Vop3FromTestCase(*target, tc, defaults));
#ifndef LANEDIFF_MODEL_ISA_TESTCASE_H_
#define LANEDIFF_MODEL_ISA_TESTCASE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// proto::Instruction <-> Instr, through the shared mnemonic. The error names the number.
absl::StatusOr<Instr> InstrFromProto(proto::Instruction p);
proto::Instruction InstrToProto(Instr instr);

// Encoding.src0..src2 by index, and whether it is set.
const proto::Source& SourceOf(const proto::Encoding& e, int i);
bool HasSource(const proto::Encoding& e, int i);

// The registers the caller's executor uses where a structured encoding leaves the choice to it:
// VDST, and the register of source i when Source.code is 0 (vgpr[i] for a VGPR source, sgpr[i]
// for an SGPR source).
struct DefaultRegisters {
  uint8_t vdst = 0;
  std::array<uint16_t, 3> vgpr{};
  std::array<uint16_t, 3> sgpr{};
  // The first VGPR of a multi-dword source's tuple (InstrInfo::src_dwords(i) > 1).
  std::array<uint16_t, 3> tuple{};
};

// The instruction word a test case means. Structured encoding: each source by kind
// (VGPR: register defaults.vgpr[i] unless Source.code names one; SGPR: defaults.sgpr[i]
// unless Source.code names one; INLINE: Source.code must be an inline constant; LITERAL: code 255 with
// Source.value). An SR instruction's absent src2 is encoded as 0, as LLVM does.
// raw_words: DecodeVop3 of them, which must name tc.instr. A word over the constant-bus limit
// is accepted: the model computes it as if every source were delivered (each has a value);
// whether it may run is the harness's decision (SpecViolations, device_harness/batch.h:
// refused unless --allow-undefined). Errors name the field at fault:
// "encoding.src1.code 300 is not an inline constant", "encoding.opsel 17 exceeds 4 bits",
// "instruction <mnemonic> does not exist on gfx1100". `words`, when given, receives the
// instruction's words (encoded once here: the caller need not encode again).
absl::StatusOr<Vop3Instr> Vop3FromTestCase(const TargetTraits& target,
                                           const proto::TestCase& tc,
                                           const DefaultRegisters& defaults,
                                           std::vector<uint32_t>* words = nullptr);

// Completes lanes written as a one-dword row's (tables of candidate words: self-test,
// discriminate) for tc's row: each tuple source (InstrInfo::src_dwords > 1) of a lane that holds
// only its first dword gets dwords 1..N-1 as copies of it (Lane.srcN_more), so its fields repeat
// the first dword's bit pattern at every offset. Lanes that already hold them, rows without a
// tuple source and an unknown instruction are left as they are.
void CompleteTupleLanes(proto::TestCase* tc);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_TESTCASE_H_
