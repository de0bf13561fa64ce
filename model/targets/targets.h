// Every gfx target lanediff knows, as data: family, wave sizes, 8-bit float formats and the
// opcode of each instruction (docs/semantics.md §1, §4).
//
// Semantics read these fields; nothing outside this file tests a target's name.
//
//   LANEDIFF_ASSIGN_OR_RETURN(const TargetTraits* t, FindTarget("gfx942"));
//   if (!t->Has(Instr::v_cvt_sr_fp8_f32)) ...
//   GetFp8Format(t->fp8).max_finite
#ifndef LANEDIFF_MODEL_TARGETS_TARGETS_H_
#define LANEDIFF_MODEL_TARGETS_TARGETS_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "model/fp/fp8_format.h"

namespace lanediff {

// The instructions the model knows. Spelled as the mnemonic (design rule 1).
enum class Instr : uint8_t { v_cvt_pk_u8_f32, v_cvt_sr_fp8_f32, v_cvt_sr_bf8_f32 };
inline constexpr int kNumInstrs = 3;
inline constexpr std::array<Instr, kNumInstrs> kAllInstrs = {
    Instr::v_cvt_pk_u8_f32, Instr::v_cvt_sr_fp8_f32, Instr::v_cvt_sr_bf8_f32};

absl::string_view InstrName(Instr instr);

// How an instruction moves data, as data: all that code outside model/ops/<mnemonic>.cc and
// the ISA's syntax tables may know about an instruction, so none of it tests a name. A new
// instruction is one row in kInstrInfo (targets.cc) plus its op file.
struct InstrInfo {
  Instr instr;
  absl::string_view name;  // the mnemonic
  int sources;             // source operands read: 3, or 2 when SRC2 carries no data
  bool byte_select_src1;   // the written byte is S1[1:0]; else OPSEL[3:2]
  bool keeps_vdst_old;     // the three unwritten bytes are the old VDST's; else S2's
  bool writes_fp8;         // the written byte is an 8-bit float, rounded with a seed from S1
};
const InstrInfo& GetInstrInfo(Instr instr);

// The byte of VDST (0..3) a lane writes, for the instruction's OPSEL field and the lane's S1.
inline int WrittenByte(Instr instr, uint32_t opsel, uint32_t src1) {
  return GetInstrInfo(instr).byte_select_src1 ? static_cast<int>(src1 & 3)
                                              : static_cast<int>((opsel >> 2) & 3);
}
absl::StatusOr<Instr> ParseInstr(absl::string_view name);  // error lists the valid names

// VOP3 encoding family (docs/semantics.md §2). gfx1250 shares GFX12's VOP3 layout but has its own
// row because its operand rules and modifiers differ.
enum class Family : uint8_t { gfx9, gfx10, gfx11, gfx12, gfx1250 };
inline constexpr int kNumFamilies = 5;
absl::string_view FamilyName(Family family);

struct TargetTraits {
  absl::string_view name;        // "gfx942": the LLVM processor name
  absl::string_view generation;  // "CDNA3"
  absl::string_view example_product;
  Family family;
  bool wave32;                  // supports wave32
  bool wave64;                  // supports wave64
  // Opcode of each instruction in this target's VOP3 encoding, indexed by Instr; -1: absent.
  std::array<int16_t, kNumInstrs> opcode;
  Fp8FormatId fp8;              // format of v_cvt_sr_fp8_f32 (CLAMP=0)
  Fp8FormatId bf8;              // format of v_cvt_sr_bf8_f32
  // CLAMP=1 makes v_cvt_sr_fp8_f32 produce UE5M3 (gfx1250 B0; hypothesis gfx1250_clamp).
  bool clamp_selects_ue5m3;
  absl::string_view evidence;

  bool Has(Instr instr) const { return opcode[static_cast<int>(instr)] >= 0; }
  int Opcode(Instr instr) const { return opcode[static_cast<int>(instr)]; }
  int DefaultWaveSize() const { return wave64 && !wave32 ? 64 : 32; }
};

// All targets, in generation order.
std::span<const TargetTraits> AllTargets();

// Looks a target up by its gfx name; the error lists every valid name.
absl::StatusOr<const TargetTraits*> FindTarget(absl::string_view name);

// "gfx942 (CDNA3, GFX9): v_cvt_pk_u8_f32 v_cvt_sr_fp8_f32 ..." table, for `lanediff targets`.
std::string DescribeTargets();

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_TARGETS_TARGETS_H_
