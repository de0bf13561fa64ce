// DecodeVop3Fields and DecodeVop3: words back into a Vop3Instr, the second with every check
// (operand codes, literal, constant bus, stray SDWA bits) and LLVM's refusals.
#include "model/isa/vop3.h"

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/base/status.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/vop3_internal.h"

namespace lanediff {
namespace {

using vop3_internal::ConstantBusReads;
using vop3_internal::UsesLiteral;

// The instruction whose VOP3 opcode (or, `vop1`, VOP1 opcode) on `target` is `op`; else an error
// listing the ones there are ("opcode 478 is not an instruction lanediff knows on gfx942
// (<mnemonic>=477, ...)").
absl::StatusOr<Instr> InstrOfOpcode(const TargetTraits& target, uint32_t op, bool vop1) {
  std::optional<Instr> found;
  std::vector<std::string> known;
  for (Instr i : kAllInstrs) {
    const int opcode = vop1 ? target.Vop1Opcode(i) : target.Opcode(i);
    if (opcode == kNoOpcode) continue;  // not on this target (or, vop1, VOP3-only)
    known.push_back(absl::StrCat(InstrName(i), "=", opcode));
    if (static_cast<uint32_t>(opcode) == op) found = i;
  }
  if (!found.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        vop1 ? "VOP1 opcode " : "opcode ", op, " is not an instruction lanediff knows on ",
        target.name, " (", absl::StrJoin(known, ", "), ")"));
  }
  return *found;
}

absl::StatusOr<DecodedVop3> DecodeVop1Fields(const TargetTraits& target,
                                             absl::Span<const uint32_t> words) {
  const Vop1Layout& l = kVop1Layout;
  DecodedVop3 d;
  LANEDIFF_ASSIGN_OR_RETURN(d.vop3.instr, InstrOfOpcode(target, l.op.Get(words), /*vop1=*/true));
  Vop3Instr& in = d.vop3;
  in.form = InstrForm::e32;
  in.vdst = static_cast<uint8_t>(l.vdst.Get(words));
  in.src = {static_cast<uint16_t>(l.src0.Get(words)), 0, 0};
  d.words_used = 1;
  if (in.src[0] == l.dpp_code) {
    return absl::InvalidArgumentError(absl::StrCat(
        InstrName(in.instr), ": SRC0 = 250 is the DPP form, which lanediff does not model"));
  }
  if (in.src[0] == l.sdwa_code && target.family == Family::gfx9) {
    if (words.size() < 2) {
      return absl::InvalidArgumentError("SRC0 = 249 (SDWA) but the SDWA dword is missing");
    }
    const SdwaLayout& s = kSdwaLayout;
    in.form = InstrForm::sdwa;
    const uint32_t field = s.src0.Get(words);
    in.src[0] = static_cast<uint16_t>(s.s0.Get(words) ? field : kFirstVgprCode + field);
    in.mods.dst_sel = static_cast<uint8_t>(s.dst_sel.Get(words));
    in.mods.dst_unused = static_cast<uint8_t>(s.dst_unused.Get(words));
    in.mods.clamp = s.clamp.Get(words) != 0;
    in.mods.omod = static_cast<uint8_t>(s.omod.Get(words));
    in.mods.src0_sel = static_cast<uint8_t>(s.src0_sel.Get(words));
    in.mods.src0_sext = s.src0_sext.Get(words) != 0;
    in.mods.neg = static_cast<uint8_t>(s.src0_neg.Get(words));
    in.mods.abs = static_cast<uint8_t>(s.src0_abs.Get(words));
    d.words_used = 2;
  } else if (in.src[0] == kLiteralCode) {
    if (words.size() < 2) {
      return absl::InvalidArgumentError(
          "SRC0 is code 255 (literal) but the literal dword is missing (1 word given)");
    }
    in.literal = words[1];
    d.words_used = 2;
  }
  return d;
}

}  // namespace

absl::StatusOr<DecodedVop3> DecodeVop3Fields(const TargetTraits& target,
                                             absl::Span<const uint32_t> words) {
  if (!words.empty() && kVop1Layout.enc.Get(words) == kVop1Layout.enc_value) {
    return DecodeVop1Fields(target, words);
  }
  if (words.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("too few words: VOP3 needs 2 dwords, got ", words.size()));
  }
  const Vop3Layout& l = GetVop3Layout(target.family);
  const uint32_t enc = l.enc.Get(words);
  if (enc != l.enc_value) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "word 0x%08x: ENC[31:26] = 0x%02x is not VOP3 (0x%02x) on %s", words[0], enc,
        l.enc_value, target.name));
  }
  DecodedVop3 d;
  LANEDIFF_ASSIGN_OR_RETURN(d.vop3.instr, InstrOfOpcode(target, l.op.Get(words), /*vop1=*/false));
  Vop3Instr& in = d.vop3;
  in.vdst = static_cast<uint8_t>(l.vdst.Get(words));
  in.mods.abs = static_cast<uint8_t>(l.abs.Get(words));
  in.mods.opsel = static_cast<uint8_t>(l.opsel.Get(words));
  in.mods.clamp = l.clamp.Get(words) != 0;
  in.mods.omod = static_cast<uint8_t>(l.omod.Get(words));
  in.mods.neg = static_cast<uint8_t>(l.neg.Get(words));
  in.src = {static_cast<uint16_t>(l.src0.Get(words)), static_cast<uint16_t>(l.src1.Get(words)),
            static_cast<uint16_t>(l.src2.Get(words))};
  d.words_used = 2;
  if (UsesLiteral(in) && l.literal_allowed) {
    if (words.size() < 3) {
      return absl::InvalidArgumentError(
          "a source is code 255 (literal) but the literal dword is missing (2 words given)");
    }
    in.literal = words[2];
    d.words_used = 3;
  }
  return d;
}

absl::StatusOr<DecodedVop3> DecodeVop3(const TargetTraits& target,
                                       absl::Span<const uint32_t> words, bool allow_undefined) {
  LANEDIFF_ASSIGN_OR_RETURN(DecodedVop3 d, DecodeVop3Fields(target, words));
  const Vop3Instr& in = d.vop3;
  if (in.form == InstrForm::sdwa) {
    // Bits no VOP1 SDWA field owns: Vop3Instr cannot hold them, so the text would not show
    // them and would not assemble back to this word (tables.h kSdwaSrc1Bits, kSdwaReservedBits).
    const uint32_t stray = words[1] & ~kSdwaLayout.OwnedMask();
    if (stray != 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s SDWA dword 0x%08x: bits 0x%08x are set outside the VOP1 fields (bits 24-29 and 31 "
          "are the SRC1 fields of a two-source SDWA word, 22 and 30 are reserved)",
          InstrName(in.instr), words[1], stray));
    }
  }
  static constexpr absl::string_view kSrcNames[3] = {"SRC0", "SRC1", "SRC2"};
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<OperandInfo> info = DescribeOperand(target.family, in.src[i], in.form == InstrForm::e32);
    if (!info.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(InstrName(in.instr), " ", kSrcNames[i], ": ", info.status().message()));
    }
    if (i >= NumSourcesRead(in.instr) && info->kind == OperandKind::literal) {
      // Whether silicon fetches a literal dword for the unused SRC2 of an SR instruction is
      // unknown; LLVM never encodes one. Refuse rather than guess the instruction length.
      return absl::InvalidArgumentError(absl::StrCat(
          InstrName(in.instr), " SRC2 = 255 (literal) in the unused source field: the "
          "instruction length is unknown"));
    }
  }
  const Vop3Layout& l = GetVop3Layout(target.family);
  const int bus = ConstantBusReads(target.family, in);
  if (bus > l.constant_bus_limit && !allow_undefined) {
    return absl::InvalidArgumentError(absl::StrCat(
        InstrName(in.instr), ": constant bus exceeded: ", bus,
        " distinct SGPR/literal reads, ", FamilyName(target.family), " allows ",
        l.constant_bus_limit, " (undefined by spec; --allow-undefined runs it)"));
  }
  d.llvm_refuses = LlvmRefusals(target, in);
  return d;
}

}  // namespace lanediff
