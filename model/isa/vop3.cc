#include "model/isa/vop3.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "model/base/status.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"

namespace lanediff {
namespace {

absl::Status CheckWidth(absl::string_view field, uint32_t value, const Vop3Field& f) {
  if (value > f.Max()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " ", value, " exceeds ", f.width, " bits"));
  }
  return absl::OkStatus();
}

// A literal dword follows when a source the instruction reads is code 255 (an SR
// instruction's unused SRC2 = 255 fetches none here; DecodeVop3 rejects that word).
bool UsesLiteral(const Vop3Instr& in) {
  for (int i = 0; i < NumSourcesRead(in.instr); ++i) {
    if (in.src[i] == kLiteralCode) return true;
  }
  return false;
}

// Distinct constant-bus reads among the sources the instruction reads (the literal counts
// once however many sources name it; so does an SGPR read twice). Unknown codes count 0.
int ConstantBusReads(Family family, const Vop3Instr& in) {
  std::set<uint16_t> codes;
  for (int i = 0; i < NumSourcesRead(in.instr); ++i) {
    absl::StatusOr<OperandInfo> info = DescribeOperand(family, in.src[i], in.form == InstrForm::e32);
    if (info.ok() && info->constant_bus) codes.insert(in.src[i]);
  }
  return static_cast<int>(codes.size());
}

// The width of source i's operand (InstrInfo::src_bits): 16 for a 16-bit SRC0.
int SrcBits(const TargetTraits& target, const Vop3Instr& in, int i) {
  return GetInstrInfo(in.instr).src_bits(target.family, i);
}

std::string Bits4(uint32_t v) {
  return absl::StrFormat("[%d,%d,%d,%d]", v & 1, (v >> 1) & 1, (v >> 2) & 1, (v >> 3) & 1);
}

}  // namespace

int NumSourcesRead(Instr instr) { return GetInstrInfo(instr).sources(); }

absl::string_view InstrFormName(InstrForm form) {
  switch (form) {
    case InstrForm::e64: return "e64";
    case InstrForm::e32: return "e32";
    case InstrForm::sdwa: return "sdwa";
  }
  return "?";
}

bool HasForm(const TargetTraits& target, Instr instr, InstrForm form) {
  if (!target.Has(instr)) return false;
  switch (form) {
    case InstrForm::e64: return true;
    case InstrForm::e32: return target.Vop1Opcode(instr) != kNoOpcode;
    case InstrForm::sdwa:
      return target.Vop1Opcode(instr) != kNoOpcode && target.family == Family::gfx9;
  }
  return false;
}

namespace {

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

// The VOP1 forms (e32, SDWA) of a VOP1 instruction: tables.h kVop1Layout, kSdwaLayout.
absl::StatusOr<std::vector<uint32_t>> EncodeVop1(const TargetTraits& target, const Vop3Instr& in) {
  const int op = target.Vop1Opcode(in.instr);
  if (op == kNoOpcode) {
    return absl::InvalidArgumentError(absl::StrCat(InstrName(in.instr), " has no VOP1 (",
                                                   InstrFormName(in.form), ") form on ",
                                                   target.name));
  }
  for (int i = 1; i < 3; ++i) {
    if (in.src[i] != 0) {
      return absl::InvalidArgumentError(absl::StrCat("src", i, " = ", in.src[i], ": the ",
                                                     InstrFormName(in.form),
                                                     " form has one source field"));
    }
  }
  const Vop1Layout& l = kVop1Layout;
  std::vector<uint32_t> words(1, 0);
  l.op.Set(static_cast<uint32_t>(op), absl::MakeSpan(words));
  l.vdst.Set(in.vdst, absl::MakeSpan(words));
  l.enc.Set(l.enc_value, absl::MakeSpan(words));
  if (in.form == InstrForm::e32) {
    if (!(in.mods == Modifiers{}) || in.sdwa_dst_sel != 6 || in.sdwa_dst_unused != 0 ||
        in.sdwa_sext) {
      return absl::InvalidArgumentError(
          "the e32 form has no modifier or select fields (the _e64 or _sdwa forms have)");
    }
    LANEDIFF_RETURN_IF_ERROR(CheckWidth("src0", in.src[0], l.src0));
    if (in.src[0] == l.sdwa_code || in.src[0] == l.dpp_code) {
      return absl::InvalidArgumentError(absl::StrCat(
          "src0 code ", in.src[0], " in an e32 word selects the SDWA/DPP form, not an operand"));
    }
    const bool uses_literal = in.src[0] == kLiteralCode;
    if (uses_literal != in.literal.has_value()) {
      return absl::InvalidArgumentError(
          uses_literal ? "src0 is code 255 (literal) but no literal value is set"
                       : "a literal value is set but src0 is not code 255");
    }
    l.src0.Set(in.src[0], absl::MakeSpan(words));
    if (uses_literal) words.push_back(*in.literal);
    return words;
  }
  // SDWA
  if (target.family != Family::gfx9) {
    return absl::InvalidArgumentError(absl::StrCat("the SDWA form exists on GFX9 only, not on ",
                                                   target.name));
  }
  if (in.mods.opsel != 0 || ((in.mods.neg | in.mods.abs) & ~1u) != 0) {
    return absl::InvalidArgumentError(
        "the SDWA form has no OPSEL and neg/abs on src0 only");
  }
  if (in.src[0] == kLiteralCode || in.literal.has_value()) {
    return absl::InvalidArgumentError("the SDWA form takes no literal");
  }
  const SdwaLayout& d = kSdwaLayout;
  const bool vgpr = in.src[0] >= kFirstVgprCode;
  const uint32_t field = vgpr ? in.src[0] - kFirstVgprCode : in.src[0];
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("SDWA src0", field, d.src0));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("src0_sel", in.mods.src0_sel, d.src0_sel));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("dst_sel", in.sdwa_dst_sel, d.dst_sel));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("dst_unused", in.sdwa_dst_unused, d.dst_unused));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("omod", in.mods.omod, d.omod));
  l.src0.Set(l.sdwa_code, absl::MakeSpan(words));
  words.push_back(0);
  const absl::Span<uint32_t> w = absl::MakeSpan(words);
  d.src0.Set(field, w);
  d.s0.Set(vgpr ? 0 : 1, w);
  d.dst_sel.Set(in.sdwa_dst_sel, w);
  d.dst_unused.Set(in.sdwa_dst_unused, w);
  d.clamp.Set(in.mods.clamp ? 1 : 0, w);
  d.omod.Set(in.mods.omod, w);
  d.src0_sel.Set(in.mods.src0_sel, w);
  d.src0_sext.Set(in.sdwa_sext ? 1 : 0, w);
  d.src0_neg.Set(in.mods.neg & 1, w);
  d.src0_abs.Set(in.mods.abs & 1, w);
  return words;
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
    in.sdwa_dst_sel = static_cast<uint8_t>(s.dst_sel.Get(words));
    in.sdwa_dst_unused = static_cast<uint8_t>(s.dst_unused.Get(words));
    in.mods.clamp = s.clamp.Get(words) != 0;
    in.mods.omod = static_cast<uint8_t>(s.omod.Get(words));
    in.mods.src0_sel = static_cast<uint8_t>(s.src0_sel.Get(words));
    in.sdwa_sext = s.src0_sext.Get(words) != 0;
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

absl::StatusOr<std::vector<uint32_t>> EncodeVop3(const TargetTraits& target,
                                                 const Vop3Instr& in) {
  if (!target.Has(in.instr)) {
    return absl::InvalidArgumentError(absl::StrCat("instruction ", InstrName(in.instr),
                                                   " does not exist on ", target.name));
  }
  if (in.form != InstrForm::e64) return EncodeVop1(target, in);
  if (in.mods.src0_sel != 6 || in.sdwa_dst_sel != 6 || in.sdwa_dst_unused != 0 || in.sdwa_sext) {
    return absl::InvalidArgumentError("SDWA fields are set on a VOP3 (e64) instruction");
  }
  const Vop3Layout& l = GetVop3Layout(target.family);
  static constexpr absl::string_view kSrcNames[3] = {"src0", "src1", "src2"};
  for (int i = 0; i < 3; ++i) LANEDIFF_RETURN_IF_ERROR(CheckWidth(kSrcNames[i], in.src[i], l.src0));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("opsel", in.mods.opsel, l.opsel));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("neg", in.mods.neg, l.neg));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("abs", in.mods.abs, l.abs));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("omod", in.mods.omod, l.omod));
  const bool uses_literal = UsesLiteral(in);
  if (uses_literal && !l.literal_allowed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a source is code 255 (literal) but ", FamilyName(target.family),
        " VOP3 has no literal dword (", target.name, ")"));
  }
  if (uses_literal && !in.literal.has_value()) {
    return absl::InvalidArgumentError("a source is code 255 (literal) but no literal value is set");
  }
  if (!uses_literal && in.literal.has_value()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "literal 0x%08x is set but no source is code 255", *in.literal));
  }
  std::vector<uint32_t> words(2, 0);
  absl::Span<uint32_t> w = absl::MakeSpan(words);
  l.vdst.Set(in.vdst, w);
  l.abs.Set(in.mods.abs, w);
  l.opsel.Set(in.mods.opsel, w);
  l.clamp.Set(in.mods.clamp ? 1 : 0, w);
  l.op.Set(static_cast<uint32_t>(target.Opcode(in.instr)), w);
  l.enc.Set(l.enc_value, w);
  l.src0.Set(in.src[0], w);
  l.src1.Set(in.src[1], w);
  l.src2.Set(in.src[2], w);
  l.omod.Set(in.mods.omod, w);
  l.neg.Set(in.mods.neg, w);
  if (uses_literal) words.push_back(*in.literal);
  return words;
}

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

std::vector<std::string> SpecViolations(const TargetTraits& target, const Vop3Instr& in) {
  std::vector<std::string> out;
  const Vop3Layout& l = GetVop3Layout(target.family);
  const int bus = ConstantBusReads(target.family, in);
  if (bus > l.constant_bus_limit) {
    out.push_back(absl::StrCat("constant bus: ", bus, " distinct SGPR/literal reads, ",
                               FamilyName(target.family), " allows ", l.constant_bus_limit));
  }
  if (UsesLiteral(in) && !l.literal_allowed && in.form == InstrForm::e64) {
    out.push_back(absl::StrCat("literal (code 255): ", FamilyName(target.family), " VOP3 takes none"));
  }
  return out;
}

std::vector<std::string> LlvmRefusals(const TargetTraits& target, const Vop3Instr& in) {
  std::vector<std::string> out;
  const AsmRules r = GetAsmRules(target, in.instr);
  for (int i = 0; i < 3; ++i) {
    if ((r.neg_abs_srcs >> i) & 1) continue;
    if ((in.mods.neg >> i) & 1) {
      out.push_back(absl::StrCat("NEG[", i, "] set: LLVM accepts no neg modifier on src", i));
    }
    if ((in.mods.abs >> i) & 1) {
      out.push_back(absl::StrCat("ABS[", i, "] set: LLVM accepts no abs modifier on src", i));
    }
  }
  if (in.mods.omod != 0 && !r.omod) {
    out.push_back(absl::StrCat("OMOD ", in.mods.omod, " != 0: LLVM accepts no output modifier on ",
                               InstrName(in.instr)));
  }
  if (in.mods.clamp && !r.clamp) {
    out.push_back(absl::StrCat("CLAMP set: LLVM rejects clamp on ", InstrName(in.instr), " on ",
                               target.name));
  }
  switch (r.opsel) {
    case OpSelSyntax::none:
      if (in.mods.opsel != 0) {
        out.push_back(absl::StrCat("OPSEL ", in.mods.opsel, " != 0: LLVM accepts no op_sel on ",
                                   InstrName(in.instr)));
      }
      break;
    case OpSelSyntax::op_sel_4: break;  // all four bits expressible
    case OpSelSyntax::op_sel_dst3:
      if ((in.mods.opsel & 4) != 0) {
        out.push_back(absl::StrCat("OPSEL[2] set: LLVM's op_sel:[a,b,d] for ", InstrName(in.instr),
                                   " has no element for it (a third source's select)"));
      }
      break;
    case OpSelSyntax::byte_sel:
      if ((in.mods.opsel & 3) != 0) {
        out.push_back(absl::StrCat("OPSEL[1:0] = ", in.mods.opsel & 3,
                                   ": byte_sel expresses only OPSEL[3:2] on ", target.name));
      }
      break;
    case OpSelSyntax::op_sel_word_src:
      if ((in.mods.opsel & 0b0110) != 0) {
        out.push_back(absl::StrCat("OPSEL[2:1] = ", (in.mods.opsel >> 1) & 3, ": LLVM's op_sel:[a,d] for ",
                                   InstrName(in.instr), " expresses only OPSEL[0] and OPSEL[3]"));
      }
      break;
    case OpSelSyntax::byte_sel_src:
      if ((in.mods.opsel & 0b1100) != 0) {
        out.push_back(absl::StrCat("OPSEL[3:2] = ", in.mods.opsel >> 2,
                                   ": byte_sel expresses only OPSEL[1:0] on ", target.name));
      }
      break;
  }
  if (DstWords(in.instr) > 1 && target.aligned_vgpr_tuples && (in.vdst & 1) != 0) {
    out.push_back(absl::StrCat("VDST v[", in.vdst, ":", in.vdst + DstWords(in.instr) - 1,
                               "]: ", target.name, " wants a VGPR pair to start at an even "
                               "register (LLVM: invalid operand)"));
  }
  if (DstWords(in.instr) > 1 && in.vdst + DstWords(in.instr) - 1 > 255) {
    out.push_back(absl::StrCat("VDST v", in.vdst, ": the pair runs past v255"));
  }
  static constexpr absl::string_view kSrcField[3] = {"SRC0", "SRC1", "SRC2"};
  for (int i = NumSourcesRead(in.instr); i < 3; ++i) {
    if (in.src[i] != 0) {
      out.push_back(absl::StrCat(kSrcField[i], " = ", in.src[i], ": LLVM's ", InstrName(in.instr),
                                 " syntax has no source ", i, " and always encodes 0"));
    }
  }
  if (UsesLiteral(in) && !r.literal && in.form == InstrForm::e64) {
    out.push_back(absl::StrCat("literal: ", target.name, " VOP3 has none"));
  }
  if (in.form == InstrForm::e32 && SrcBits(target, in, 0) == 16 &&
      in.src[0] >= kFirstVgprCode + 128) {
    // llvm-mc-22 on gfx1200/gfx1250: `<pk_f32_fp8>_e32 v[4:5], v128` "operands are not valid";
    // the e32 field of a 16-bit operand is VS_32_Lo128 (bit 7 of the VGPR number is the
    // true16 half select in that encoding; docs/semantics.md §10.11).
    out.push_back(absl::StrCat("src0 v", in.src[0] - kFirstVgprCode, ": LLVM takes v0..v127 in "
                               "the e32 form of a 16-bit source (VS_32_Lo128)"));
  }
  for (int i = 0; i < NumSourcesRead(in.instr); ++i) {
    if (in.src[i] == kLiteralCode && in.literal.has_value() && *in.literal > 0xffffu &&
        SrcBits(target, in, i) == 16) {
      out.push_back(absl::StrFormat("literal 0x%x on the 16-bit src%d: LLVM takes a 16-bit "
                                    "literal there (operands are not valid)", *in.literal, i));
    }
  }
  if (in.form == InstrForm::sdwa) {
    if (in.sdwa_dst_sel != 6 || in.sdwa_dst_unused != 0) {
      out.push_back(absl::StrCat("DST_SEL ", in.sdwa_dst_sel, ", DST_UNUSED ",
                                 in.sdwa_dst_unused, ": LLVM accepts only dst_sel:DWORD here"));
    }
  }
  const int bus = ConstantBusReads(target.family, in);
  if (bus > r.constant_bus_limit) {
    out.push_back(absl::StrCat("constant bus: ", bus, " distinct SGPR/literal reads, LLVM allows ",
                               r.constant_bus_limit, " on ", target.name));
  }
  for (int i = 0; i < 3; ++i) {
    if (!DescribeOperand(target.family, in.src[i], in.form == InstrForm::e32).ok()) {
      out.push_back(absl::StrCat("src", i, " code ", in.src[i], " is not an operand LLVM accepts"));
    }
  }
  return out;
}

namespace {

// "v5", or the pair "v[4:5]" for an instruction whose row has dst_bits 64 (as llvm-mc-22 prints
// it; the register after v255 is printed as v256, which no assembler takes).
std::string VdstText(const Vop3Instr& in) {
  if (DstWords(in.instr) == 1) return absl::StrCat("v", in.vdst);
  return absl::StrCat("v[", in.vdst, ":", in.vdst + DstWords(in.instr) - 1, "]");
}

std::string SourceText(const TargetTraits& target, const Vop3Instr& in, int i) {
  std::string text = OperandText(target.family, in.src[i], in.literal, in.form == InstrForm::e32,
                                 SrcBits(target, in, i));
  const bool neg = (in.mods.neg >> i) & 1;
  const bool abs = (in.mods.abs >> i) & 1;
  absl::StatusOr<OperandInfo> info = DescribeOperand(target.family, in.src[i], in.form == InstrForm::e32);
  const bool is_register = info.ok() && (info->kind == OperandKind::vgpr ||
                                         info->kind == OperandKind::sgpr ||
                                         info->kind == OperandKind::special);
  if (absl::StartsWith(text, "lit(") && (neg || abs)) {
    // An inline-valued literal with modifiers: llvm-mc-22 reads |lit(0x0)| as the inline |0|
    // and rejects -lit(0x0), so spell it with the function forms it assembles exactly
    // (known difference disasm_lit_modifier_spelling).
    if (abs) text = absl::StrCat("abs(", text, ")");
    if (neg) text = absl::StrCat("neg(", text, ")");
    return text;
  }
  if (abs) text = absl::StrCat("|", text, "|");
  if (neg) {
    // llvm-mc-22 prints NEG on a constant as neg(1.0) (so it is not read as -1.0), on a
    // register or |x| as a leading minus.
    text = (abs || is_register) ? absl::StrCat("-", text) : absl::StrCat("neg(", text, ")");
  }
  return text;
}

}  // namespace

std::string PrintVop3(const TargetTraits& target, const Vop3Instr& in) {
  const AsmRules r = GetAsmRules(target, in.instr);
  // A VOP1 instruction's VOP3 form is spelled with the _e64 suffix (without it, llvm-mc-22
  // assembles the 32-bit e32 form).
  const bool vop1 = GetInstrInfo(in.instr).encoding == Encoding::vop1;
  if (in.form != InstrForm::e64) {
    // llvm-mc-22 prints the VOP1 forms with their suffix: `<mnemonic>_e32 v1, v2`,
    // `<mnemonic>_sdwa v1, v2 clamp mul:2 src0_sel:BYTE_1` (src0_sel always, DWORD too).
    std::string out = absl::StrCat(InstrName(in.instr), "_", InstrFormName(in.form), " ",
                                   VdstText(in), ", ");
    std::string src = SourceText(target, in, 0);
    if (in.sdwa_sext) src = absl::StrCat("sext(", src, ")");
    absl::StrAppend(&out, src);
    if (in.form == InstrForm::sdwa) {
      if (in.mods.clamp) absl::StrAppend(&out, " clamp");
      static constexpr absl::string_view kOmodSdwa[4] = {"", " mul:2", " mul:4", " div:2"};
      absl::StrAppend(&out, kOmodSdwa[in.mods.omod & 3]);
      if (in.sdwa_dst_sel != 6 || in.sdwa_dst_unused != 0) {
        static constexpr absl::string_view kUnused[4] = {"UNUSED_PAD", "UNUSED_SEXT",
                                                         "UNUSED_PRESERVE", "UNUSED_3"};
        absl::StrAppend(&out, " dst_sel:", SdwaSelName(in.sdwa_dst_sel), " dst_unused:",
                        kUnused[in.sdwa_dst_unused & 3]);
      }
      absl::StrAppend(&out, " src0_sel:", SdwaSelName(in.mods.src0_sel));
    }
    return out;
  }
  std::string out = absl::StrCat(InstrName(in.instr), vop1 ? "_e64" : "", " ", VdstText(in));
  // A source field the instruction does not read shows only when something is in it (LLVM
  // encodes 0); printing it means printing the ones before it too.
  int n = NumSourcesRead(in.instr);
  for (int i = n; i < 3; ++i) {
    if (in.src[i] != 0 || (((in.mods.neg | in.mods.abs) >> i) & 1) != 0) n = i + 1;
  }
  for (int i = 0; i < n; ++i) absl::StrAppend(&out, ", ", SourceText(target, in, i));
  // Modifier order as llvm-mc-22 prints it: byte_sel:N before clamp.
  if (in.mods.opsel != 0) {
    if (r.opsel == OpSelSyntax::byte_sel_src) {
      // byte_sel:N = 2*OPSEL[0] + OPSEL[1]; OPSEL[3:2], which LLVM cannot express, as op_sel.
      if ((in.mods.opsel & 0b1100) != 0) {
        absl::StrAppend(&out, " op_sel:", Bits4(in.mods.opsel & 0b1100));
      }
      const int byte = 2 * (in.mods.opsel & 1) + ((in.mods.opsel >> 1) & 1);
      if (byte != 0) absl::StrAppend(&out, " byte_sel:", byte);
    } else if (r.opsel == OpSelSyntax::byte_sel) {
      if ((in.mods.opsel & 3) != 0) absl::StrAppend(&out, " op_sel:", Bits4(in.mods.opsel & 3));
      if ((in.mods.opsel >> 2) != 0) absl::StrAppend(&out, " byte_sel:", in.mods.opsel >> 2);
    } else if (r.opsel == OpSelSyntax::op_sel_dst3) {
      // Two sources and the destination: op_sel:[OPSEL[0],OPSEL[1],OPSEL[3]] as LLVM prints it;
      // OPSEL[2], which LLVM cannot express, as op_sel_src2:1.
      const uint32_t v = in.mods.opsel;
      if ((v & 0b1011) != 0) {
        absl::StrAppend(&out, absl::StrFormat(" op_sel:[%d,%d,%d]", v & 1, (v >> 1) & 1, (v >> 3) & 1));
      }
      if ((v & 4) != 0) absl::StrAppend(&out, " op_sel_src2:1");
    } else if (r.opsel == OpSelSyntax::op_sel_word_src) {
      // One source and the destination: op_sel:[OPSEL[0],OPSEL[3]] as LLVM prints it;
      // OPSEL[2:1], which LLVM cannot express, as op_sel_mid:[b1,b2] (our spelling).
      const uint32_t v = in.mods.opsel;
      if ((v & 0b1001) != 0) {
        absl::StrAppend(&out, absl::StrFormat(" op_sel:[%d,%d]", v & 1, (v >> 3) & 1));
      }
      if ((v & 0b0110) != 0) {
        absl::StrAppend(&out, absl::StrFormat(" op_sel_mid:[%d,%d]", (v >> 1) & 1, (v >> 2) & 1));
      }
    } else {
      absl::StrAppend(&out, " op_sel:", Bits4(in.mods.opsel));
    }
  }
  if (in.mods.clamp) absl::StrAppend(&out, " clamp");
  static constexpr absl::string_view kOmod[4] = {"", " mul:2", " mul:4", " div:2"};
  absl::StrAppend(&out, kOmod[in.mods.omod & 3]);
  return out;
}

namespace {

// Splits "a, -|b|, neg(c), d op_sel:[0,0,1,0] clamp" at top-level commas and spaces.
absl::StatusOr<uint32_t> ParseNumber(absl::string_view t) {
  bool negative = absl::ConsumePrefix(&t, "-");
  uint64_t v = 0;
  bool ok = false;
  if (absl::ConsumePrefix(&t, "0x") || absl::ConsumePrefix(&t, "0X")) {
    ok = !t.empty() && t.size() <= 8 && absl::SimpleHexAtoi(t, &v);
  } else {
    ok = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(c); }) &&
         absl::SimpleAtoi(t, &v) && v <= 0xffffffffull;
  }
  if (!ok) return absl::InvalidArgumentError(absl::StrCat("'", t, "' is not a number"));
  uint32_t u = static_cast<uint32_t>(v);
  return negative ? static_cast<uint32_t>(0u - u) : u;
}

struct ParsedSource {
  uint16_t code = 0;
  bool neg = false, abs = false;
  std::optional<uint32_t> literal;
};

// `bits`: the operand's width (InstrInfo::src_bits). A 16-bit operand takes a number that fits
// 16 bits, as llvm-mc-22 does: 0..0xffff, or -32768..-1 as its 16-bit pattern (`-17` is the
// literal 0xffef, `0x12345` and `-32769` are refused); one that is a 16-bit inline constant
// becomes that constant (`0x3c00` is 1.0, `0xffff` is -1). lit(...) keeps any dword a literal
// (our spelling of a word LLVM cannot write; LlvmRefusals says so).
absl::StatusOr<ParsedSource> ParseSource(const TargetTraits& target, absl::string_view text,
                                         int bits) {
  ParsedSource s;
  absl::string_view t = absl::StripAsciiWhitespace(text);
  const std::string orig(t);
  if (absl::ConsumePrefix(&t, "neg(")) {
    if (!absl::ConsumeSuffix(&t, ")")) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "': unbalanced neg("));
    }
    s.neg = true;
  } else if (t.size() > 1 && t[0] == '-' && (t[1] == '|' || std::isalpha(t[1]))) {
    t.remove_prefix(1);
    s.neg = true;
  }
  if (absl::ConsumePrefix(&t, "abs(")) {
    if (!absl::ConsumeSuffix(&t, ")")) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "': unbalanced abs("));
    }
    s.abs = true;
  } else if (absl::ConsumePrefix(&t, "|")) {
    if (!absl::ConsumeSuffix(&t, "|")) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "': unbalanced |"));
    }
    s.abs = true;
  }
  t = absl::StripAsciiWhitespace(t);
  if (absl::ConsumePrefix(&t, "lit(")) {
    if (!absl::ConsumeSuffix(&t, ")")) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "': unbalanced lit("));
    }
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t v, ParseNumber(t));
    s.code = kLiteralCode;
    s.literal = v;
    return s;
  }
  if (absl::StatusOr<uint16_t> code = ParseOperandName(target.family, t); code.ok()) {
    s.code = *code;
    return s;
  }
  absl::StatusOr<uint32_t> v = ParseNumber(t);
  if (!v.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", orig, "' is not a register, inline constant or literal on ",
                     target.name));
  }
  if (bits == 16) {
    const bool negative = absl::StartsWith(t, "-");
    if (negative ? static_cast<int32_t>(*v) < -32768 : *v > 0xffffu) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", orig, "' does not fit the 16-bit source operand on ", target.name,
          " (0..0xffff or -32768..-1)"));
    }
    *v &= 0xffffu;
  }
  // As llvm-mc does: a number that is an inline constant's value becomes that constant.
  if (std::optional<uint16_t> code = InlineConstantCode(*v, bits); code.has_value()) {
    s.code = *code;
  } else {
    s.code = kLiteralCode;
    s.literal = *v;
  }
  return s;
}

}  // namespace

absl::StatusOr<Vop3Instr> ParseAsm(const TargetTraits& target, absl::string_view line) {
  absl::string_view text = line;
  if (size_t semi = text.find(';'); semi != absl::string_view::npos) text = text.substr(0, semi);
  if (size_t hash = text.find("//"); hash != absl::string_view::npos) text = text.substr(0, hash);
  text = absl::StripAsciiWhitespace(text);
  size_t sp = text.find_first_of(" \t");
  absl::string_view mnemonic = text.substr(0, sp);
  absl::string_view rest = sp == absl::string_view::npos ? "" : text.substr(sp);
  // The form: _e64, _e32, _sdwa; without a suffix a VOP1 instruction is e32 (as llvm-mc-22
  // assembles it) and a VOP3-only one e64.
  std::optional<InstrForm> form;
  if (absl::ConsumeSuffix(&mnemonic, "_e64")) form = InstrForm::e64;
  else if (absl::ConsumeSuffix(&mnemonic, "_e32")) form = InstrForm::e32;
  else if (absl::ConsumeSuffix(&mnemonic, "_sdwa")) form = InstrForm::sdwa;
  Vop3Instr in;
  LANEDIFF_ASSIGN_OR_RETURN(in.instr, ParseInstr(mnemonic));
  if (!target.Has(in.instr)) {
    return absl::InvalidArgumentError(absl::StrCat("instruction ", InstrName(in.instr),
                                                   " does not exist on ", target.name));
  }
  const bool vop1 = GetInstrInfo(in.instr).encoding == Encoding::vop1;
  in.form = form.value_or(vop1 ? InstrForm::e32 : InstrForm::e64);
  if (!HasForm(target, in.instr, in.form)) {
    return absl::InvalidArgumentError(absl::StrCat(InstrName(in.instr), " has no ",
                                                   InstrFormName(in.form), " form on ",
                                                   target.name, " (SDWA: GFX9 only)"));
  }
  // Operands are comma separated; modifiers follow the last operand, space separated.
  // Split at commas outside brackets.
  std::vector<std::string> parts;
  {
    std::string cur;
    int depth = 0;
    for (char c : rest) {
      if (c == '[' || c == '(') ++depth;
      if (c == ']' || c == ')') --depth;
      if (c == ',' && depth == 0) {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur.push_back(c);
      }
    }
    parts.push_back(cur);
  }
  // The last part holds the last operand then the modifiers.
  std::vector<std::string> mods;
  {
    std::vector<std::string> toks =
        absl::StrSplit(absl::StripAsciiWhitespace(parts.back()), absl::ByAnyChar(" \t"),
                       absl::SkipEmpty());
    if (toks.empty()) return absl::InvalidArgumentError(absl::StrCat("'", line, "': no operands"));
    // Modifier tokens are recognised by name; everything before them is the operand.
    size_t first_mod = toks.size();
    for (size_t i = 1; i < toks.size(); ++i) {
      absl::string_view tk = toks[i];
      if (tk == "clamp" || absl::StartsWith(tk, "op_sel:") || absl::StartsWith(tk, "byte_sel:") ||
          absl::StartsWith(tk, "src0_sel:") || absl::StartsWith(tk, "dst_sel:") ||
          absl::StartsWith(tk, "dst_unused:") ||
          absl::StartsWith(tk, "op_sel_src2:") || absl::StartsWith(tk, "op_sel_mid:") ||
          absl::StartsWith(tk, "mul:") || absl::StartsWith(tk, "div:")) {
        first_mod = i;
        break;
      }
    }
    std::vector<std::string> operand(toks.begin(), toks.begin() + first_mod);
    parts.back() = absl::StrJoin(operand, " ");
    mods.assign(toks.begin() + first_mod, toks.end());
  }
  const int min_sources = NumSourcesRead(in.instr);
  if (parts.size() < static_cast<size_t>(1 + min_sources) || parts.size() > 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        InstrName(in.instr), " takes vdst and ", min_sources, " sources; got ",
        parts.size(), " operands in '", line, "'"));
  }
  absl::string_view vdst_text = absl::StripAsciiWhitespace(parts[0]);
  if (DstWords(in.instr) > 1) {
    // A VGPR pair: v[N:N+1] (InstrInfo::dst_bits 64).
    int lo = -1, hi = -1;
    absl::string_view t = vdst_text;
    std::vector<absl::string_view> ends;
    if (absl::ConsumePrefix(&t, "v[") && absl::ConsumeSuffix(&t, "]")) ends = absl::StrSplit(t, ':');
    if (ends.size() != 2 || !absl::SimpleAtoi(ends[0], &lo) || !absl::SimpleAtoi(ends[1], &hi) ||
        lo < 0 || lo > 255 || hi != lo + DstWords(in.instr) - 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "vdst '", vdst_text, "' is not a VGPR pair v[N:N+1]: ", InstrName(in.instr), " writes ",
          GetInstrInfo(in.instr).dst_bits, " bits"));
    }
    in.vdst = static_cast<uint8_t>(lo);
  } else {
    absl::StatusOr<uint16_t> vdst = ParseOperandName(target.family, vdst_text);
    if (!vdst.ok() || *vdst < kFirstVgprCode) {
      return absl::InvalidArgumentError(absl::StrCat("vdst '", vdst_text, "' is not a VGPR"));
    }
    in.vdst = static_cast<uint8_t>(*vdst - kFirstVgprCode);
  }
  in.src = {0, 0, 0};
  if (in.form != InstrForm::e64 && parts.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", InstrFormName(in.form), " form takes vdst and one source; got ", parts.size(),
        " operands in '", line, "'"));
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string part = std::string(absl::StripAsciiWhitespace(parts[i]));
    if (in.form == InstrForm::sdwa && absl::StartsWith(part, "sext(") &&
        absl::EndsWith(part, ")")) {
      in.sdwa_sext = true;
      part = part.substr(5, part.size() - 6);
    }
    const int k = static_cast<int>(i - 1);
    LANEDIFF_ASSIGN_OR_RETURN(ParsedSource s,
                              ParseSource(target, part, GetInstrInfo(in.instr).src_bits(target.family, k)));
    in.src[k] = s.code;
    if (s.neg) in.mods.neg |= 1 << k;
    if (s.abs) in.mods.abs |= 1 << k;
    if (s.literal.has_value()) {
      if (in.literal.has_value() && *in.literal != *s.literal) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "src%d literal 0x%x differs from an earlier literal 0x%x: VOP3 has one literal dword",
            k, *s.literal, *in.literal));
      }
      in.literal = s.literal;
    }
  }
  const AsmRules r = GetAsmRules(target, in.instr);
  for (const std::string& m : mods) {
    absl::string_view mv = m;
    if (mv == "clamp") {
      in.mods.clamp = true;
    } else if (absl::ConsumePrefix(&mv, "op_sel:")) {
      if (!absl::ConsumePrefix(&mv, "[") || !absl::ConsumeSuffix(&mv, "]")) {
        return absl::InvalidArgumentError(absl::StrCat("'", m, "': expected op_sel:[a,b,c,d]"));
      }
      std::vector<absl::string_view> bits = absl::StrSplit(mv, ',');
      if (bits.size() > 4) {
        return absl::InvalidArgumentError(absl::StrCat("'", m, "': at most 4 op_sel bits"));
      }
      // Element k is OPSEL[k], except for two sources and a destination
      // (OpSelSyntax::op_sel_dst3): element 2 is OPSEL[3], the destination select, and a
      // fourth element is ignored, as llvm-mc-22 does (`op_sel:[0,0,1]` and `op_sel:[0,0,1,0]`
      // set bit 14, `op_sel:[0,0,0,1]` encodes OPSEL = 0). OPSEL[2] is op_sel_src2:1 then.
      // One source and the destination (OpSelSyntax::op_sel_word_src): op_sel:[a,d] =
      // OPSEL[0], OPSEL[3].
      static constexpr int kIdentity[4] = {0, 1, 2, 3}, kDst3[4] = {0, 1, 3, -1},
                           kWordSrc[4] = {0, 3, -1, -1};
      const int* bit_of = r.opsel == OpSelSyntax::op_sel_dst3       ? kDst3
                          : r.opsel == OpSelSyntax::op_sel_word_src ? kWordSrc
                                                                    : kIdentity;
      for (size_t b = 0; b < bits.size(); ++b) {
        absl::string_view bit = absl::StripAsciiWhitespace(bits[b]);
        if (bit != "0" && bit != "1") {
          return absl::InvalidArgumentError(absl::StrCat("'", m, "': op_sel bits are 0 or 1"));
        }
        if (bit == "1" && bit_of[b] >= 0) in.mods.opsel |= 1 << bit_of[b];
      }
    } else if (absl::ConsumePrefix(&mv, "op_sel_mid:")) {
      // OPSEL[1], OPSEL[2] of an instruction whose op_sel is [a,d] (our spelling; LLVM has none).
      std::vector<absl::string_view> bits;
      if (absl::ConsumePrefix(&mv, "[") && absl::ConsumeSuffix(&mv, "]")) bits = absl::StrSplit(mv, ',');
      if (bits.size() != 2 || r.opsel != OpSelSyntax::op_sel_word_src ||
          (bits[0] != "0" && bits[0] != "1") || (bits[1] != "0" && bits[1] != "1")) {
        return absl::InvalidArgumentError(absl::StrCat(
            "'", m, "': op_sel_mid:[b1,b2] is OPSEL[1], OPSEL[2] of an instruction whose op_sel "
            "is [a,d]"));
      }
      if (bits[0] == "1") in.mods.opsel |= 2;
      if (bits[1] == "1") in.mods.opsel |= 4;
    } else if (absl::ConsumePrefix(&mv, "op_sel_src2:")) {
      // OPSEL[2] of a two-source instruction with op_sel:[a,b,d] (our spelling; LLVM has none).
      if ((mv != "0" && mv != "1") || r.opsel != OpSelSyntax::op_sel_dst3) {
        return absl::InvalidArgumentError(absl::StrCat(
            "'", m, "': op_sel_src2:0|1 is OPSEL[2] of an instruction whose op_sel is [a,b,d]"));
      }
      if (mv == "1") in.mods.opsel |= 4;
    } else if (absl::ConsumePrefix(&mv, "byte_sel:")) {
      int n = 0;
      if (!absl::SimpleAtoi(mv, &n) || n < 0 || n > 3) {
        return absl::InvalidArgumentError(absl::StrCat("'", m, "': byte_sel is 0..3"));
      }
      if (r.opsel == OpSelSyntax::byte_sel_src) {  // the source byte: 2*OPSEL[0] + OPSEL[1]
        in.mods.opsel = static_cast<uint8_t>((in.mods.opsel & 0b1100) | ((n >> 1) & 1) |
                                             ((n & 1) << 1));
        continue;
      }
      if (r.opsel != OpSelSyntax::byte_sel) {
        return absl::InvalidArgumentError(absl::StrCat(
            "'", m, "': ", InstrName(in.instr), " takes no byte_sel on ", target.name));
      }
      in.mods.opsel = static_cast<uint8_t>((in.mods.opsel & 3) | (n << 2));
    } else if (absl::ConsumePrefix(&mv, "src0_sel:") || absl::ConsumePrefix(&mv, "dst_sel:")) {
      if (in.form != InstrForm::sdwa) {
        return absl::InvalidArgumentError(absl::StrCat("'", m, "': only the _sdwa form has selects"));
      }
      int sel = -1;
      for (int k = 0; k < 8; ++k) {
        if (mv == SdwaSelName(k)) sel = k;
      }
      if (sel < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", m, "': a select is BYTE_0..BYTE_3, WORD_0, WORD_1 or DWORD"));
      }
      if (absl::StartsWith(m, "src0_sel:")) in.mods.src0_sel = static_cast<uint8_t>(sel);
      else in.sdwa_dst_sel = static_cast<uint8_t>(sel);
    } else if (absl::ConsumePrefix(&mv, "dst_unused:")) {
      static constexpr absl::string_view kUnused[4] = {"UNUSED_PAD", "UNUSED_SEXT",
                                                       "UNUSED_PRESERVE", "UNUSED_3"};
      int u = -1;
      for (int k = 0; k < 4; ++k) {
        if (mv == kUnused[k]) u = k;
      }
      if (u < 0 || in.form != InstrForm::sdwa) {
        return absl::InvalidArgumentError(absl::StrCat(
            "'", m, "': dst_unused is UNUSED_PAD, UNUSED_SEXT or UNUSED_PRESERVE (_sdwa only)"));
      }
      in.sdwa_dst_unused = static_cast<uint8_t>(u);
    } else if (m == "mul:2") {
      in.mods.omod = 1;
    } else if (m == "mul:4") {
      in.mods.omod = 2;
    } else if (m == "div:2") {
      in.mods.omod = 3;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown modifier '", m, "'"));
    }
  }
  if (in.form == InstrForm::e32 && !(in.mods == Modifiers{})) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", line, "': the e32 form has no modifiers (write _e64 or _sdwa)"));
  }
  if (in.form == InstrForm::sdwa && in.mods.opsel != 0) {
    return absl::InvalidArgumentError(absl::StrCat("'", line, "': the SDWA form has no op_sel"));
  }
  return in;
}

std::string FormatEncodingBytes(absl::Span<const uint32_t> words) {
  std::vector<std::string> bytes;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) bytes.push_back(absl::StrFormat("0x%02x", (w >> (8 * b)) & 0xff));
  }
  return absl::StrCat("[", absl::StrJoin(bytes, ","), "]");
}

absl::StatusOr<std::vector<uint32_t>> ParseEncodingText(absl::string_view text) {
  absl::string_view t = absl::StripAsciiWhitespace(text);
  if (size_t semi = t.find(';'); semi != absl::string_view::npos) {
    // "... ; encoding: [..]" lines as llvm-mc prints them: take the bracketed list.
    size_t open = t.find('[', semi);
    if (open != absl::string_view::npos) t = t.substr(open);
    else t = t.substr(0, semi);
  }
  t = absl::StripAsciiWhitespace(t);
  const bool bracketed = absl::ConsumePrefix(&t, "[");
  if (bracketed && !absl::ConsumeSuffix(&t, "]")) {
    return absl::InvalidArgumentError("unbalanced '[' in byte list");
  }
  std::vector<uint32_t> words;
  if (bracketed || t.find(',') != absl::string_view::npos) {
    std::vector<uint8_t> bytes;
    for (absl::string_view b : absl::StrSplit(t, ',')) {
      b = absl::StripAsciiWhitespace(b);
      uint64_t v = 0;
      absl::string_view digits = b;
      if (!absl::ConsumePrefix(&digits, "0x") && !absl::ConsumePrefix(&digits, "0X")) {
        return absl::InvalidArgumentError(absl::StrCat("byte '", b, "' is not 0xNN"));
      }
      if (digits.empty() || digits.size() > 2 || !absl::SimpleHexAtoi(digits, &v)) {
        return absl::InvalidArgumentError(absl::StrCat("byte '", b, "' is not 0xNN"));
      }
      bytes.push_back(static_cast<uint8_t>(v));
    }
    if (bytes.size() % 4 != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(bytes.size(), " bytes is not a whole number of 32-bit words"));
    }
    for (size_t i = 0; i < bytes.size(); i += 4) {
      words.push_back(bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
                      static_cast<uint32_t>(bytes[i + 3]) << 24);
    }
  } else {
    for (absl::string_view w : absl::StrSplit(t, absl::ByAnyChar(" \t"), absl::SkipEmpty())) {
      absl::string_view digits = w;
      if (!absl::ConsumePrefix(&digits, "0x")) absl::ConsumePrefix(&digits, "0X");
      uint64_t v = 0;
      if (digits.empty() || digits.size() > 8 || !absl::SimpleHexAtoi(digits, &v)) {
        return absl::InvalidArgumentError(absl::StrCat("word '", w, "' is not a 32-bit hex word"));
      }
      words.push_back(static_cast<uint32_t>(v));
    }
  }
  if (words.empty()) return absl::InvalidArgumentError("no words");
  return words;
}

}  // namespace lanediff
