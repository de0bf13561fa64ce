// The one operand resolver: from an instruction's source operand codes to the 32-bit word each
// source reads in each lane. The model's test-case path, the device harness's decoder (sim,
// exec, serve, replay) and the fuzzer all resolve through it, once per case: ResolveOperands
// decides per source where its value comes from (a LaneRouting), ResolveLanes then applies
// that to any number of lanes without looking at the encoding again.
//
//   RegisterFile regs;                                   // the executor says where registers are
//   regs.LoadVgpr(1, LaneWord::src0).LoadSgpr(20, 0x40490fdb);
//   LANEDIFF_ASSIGN_OR_RETURN(LaneRouting r, ResolveOperands(*target, vop3, regs));
//   LaneBatch uniform;
//   LaneView v = ResolveLanes(r, raw_lanes, &uniform);   // v.src0[i]: what lane i's src0 reads
//
// The boundary. The resolver delivers the word a source operand holds, before the instruction
// looks at it: a VGPR's per-lane value, an SGPR's uniform value, an inline constant's 32-bit
// value (0.5 -> 0x3f000000, -1 -> 0xffffffff), the literal dword, null's 0. What the
// instruction then does with the word - NEG, ABS, OPSEL (byte_sel, op_sel halves), SDWA byte
// selects, which bits are the SR seed - is the op's (model/ops), because it depends on the
// instruction, not on the operand. A source the instruction does not read (InstrInfo::sources(),
// e.g. the SR instructions' SRC2 field) resolves to a uniform 0 and its code is not looked at.
//
// Encoding facts (which 9-bit code is a VGPR, an SGPR, an inline constant, the literal:
// operands.h) are the model's. Where the registers are - which VGPR holds which lane word,
// which SGPRs hold which uniform value - is the executor's: it passes a RegisterFile. The
// device harness builds its kernels' one (device_harness/register_convention.h); the model
// knows no register layout of its own.
#ifndef LANEDIFF_MODEL_ISA_RESOLVE_H_
#define LANEDIFF_MODEL_ISA_RESOLVE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "model/base/lanes.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {

// A lane's raw words, in the order LaneView / proto::Lane hold them.
enum class LaneWord : uint8_t { src0 = 0, src1 = 1, src2 = 2, vdst_old = 3 };
absl::string_view LaneWordName(LaneWord w);  // "src0", ..., "vdst_old"

// The registers an executor loads before the instruction runs: VGPRs with one of the lane's
// raw words, SGPRs with a uniform value. Anything else (another VGPR or SGPR, a special
// register but null) has no value the executor controls, and reading it is an error.
class RegisterFile {
 public:
  // `loader` names who loads them, for errors ("the harness kernels"); it must outlive this.
  explicit RegisterFile(absl::string_view loader = "the executor") : loader_(loader) {}
  // Loading a register again replaces its content. More than 8 VGPRs or 8 SGPRs: a crash
  // (a programming error, not an input error).
  RegisterFile& LoadVgpr(int index, LaneWord word);
  RegisterFile& LoadSgpr(int index, uint32_t value);
  std::optional<LaneWord> Vgpr(int index) const;
  std::optional<uint32_t> Sgpr(int index) const;
  absl::string_view loader() const { return loader_; }
  // "v1 (src0), v2 (src1), v3 (src2), v4 (vdst_old), s20, s21, s22"
  std::string Describe() const;

 private:
  // Fixed capacity (no allocation per case): more registers than any layout here loads.
  static constexpr int kMaxSlots = 8;
  struct VgprSlot { int index = 0; LaneWord word = LaneWord::src0; };
  struct SgprSlot { int index = 0; uint32_t value = 0; };
  absl::string_view loader_;
  std::array<VgprSlot, kMaxSlots> vgprs_{};
  std::array<SgprSlot, kMaxSlots> sgprs_{};
  int num_vgprs_ = 0, num_sgprs_ = 0;
};

// Where each source's word comes from: lane_field[i] >= 0 is a LaneWord (a VGPR: the lane's
// own word), -1 means every lane reads uniform[i].
struct LaneRouting {
  std::array<int, 3> lane_field{-1, -1, -1};
  std::array<uint32_t, 3> uniform{};
  friend bool operator==(const LaneRouting&, const LaneRouting&) = default;
};

// One source operand: `code` (9 bits, operands.h) on `family`, `literal` the instruction's
// literal dword if it has one. Returns {lane_field, uniform} for that source. Errors name the
// source ("src1 (operand code 263) reads v7, which is not loaded by the harness kernels
// (loaded: v1 (src0), ...)"),
// an operand code the project does not model, a literal code without a literal dword.
struct SourceRoute {
  int lane_field = -1;
  uint32_t uniform = 0;
};
absl::StatusOr<SourceRoute> ResolveSource(Family family, int source, uint16_t code,
                                          std::optional<uint32_t> literal,
                                          const RegisterFile& regs);

// Every source an instruction reads: codes[i] for i < sources_read (the rest resolve to 0).
absl::StatusOr<LaneRouting> ResolveOperands(Family family, absl::Span<const uint16_t> codes,
                                            int sources_read, std::optional<uint32_t> literal,
                                            const RegisterFile& regs);
// The same for a VOP3 instruction (its row says how many sources it reads).
absl::StatusOr<LaneRouting> ResolveOperands(const TargetTraits& target, const Vop3Instr& instr,
                                            const RegisterFile& regs);

// Applies a routing to raw lanes (src0, src1, src2, vdst_old as loaded). The view points into
// `raw` for VGPR sources (no copy) and into `uniform` (filled with the source's value) for the
// others, so it lives as long as both; vdst_old is raw's.
LaneView ResolveLanes(const LaneRouting& routing, const LaneView& raw, LaneBatch* uniform);
// The same, copied into an owning batch.
void ResolveLanesInto(const LaneRouting& routing, const LaneView& raw, LaneBatch* out);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_RESOLVE_H_
