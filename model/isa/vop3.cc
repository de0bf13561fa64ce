// The forms, SpecViolations and LlvmRefusals, and the helpers the encoder, decoder, printer
// and parser share (vop3_internal.h). The jobs themselves: vop3_encode.cc, vop3_decode.cc,
// vop3_print.cc, vop3_parse.cc.
#include "model/isa/vop3.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/vop3_internal.h"

namespace lanediff {
namespace vop3_internal {

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

bool SrcInt16(const TargetTraits& target, const Vop3Instr& in, int i) {
  return SrcBits(target, in, i) == 16 && Src0Int16(in.instr);
}

}  // namespace vop3_internal

using vop3_internal::ConstantBusReads;
using vop3_internal::SrcBits;
using vop3_internal::UsesLiteral;

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

bool SdwaHasDstSel(Instr instr) {
  const InstrInfo& row = GetInstrInfo(instr);
  return row.encoding == Encoding::vop1 && row.src[0] == SrcRole::data_b32;
}

uint8_t SdwaDefaultDstUnused(Instr instr) { return SdwaHasDstSel(instr) ? 2 : 0; }

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

namespace {

// NEG/ABS on a source LLVM's syntax has no modifier for, OMOD and CLAMP where it takes none.
void LlvmModifierRefusals(const TargetTraits& target, const Vop3Instr& in, const AsmRules& r,
                          std::vector<std::string>* refusals) {
  std::vector<std::string>& out = *refusals;
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
  // LLVM 22 takes clamp in the SDWA form of a row with a destination select (llvm-mc-22
  // -mcpu=gfx950: the PRNG step's `_sdwa v1, v2 clamp` sets SDWA bit 13), not in its e64 form.
  const bool sdwa_clamp = in.form == InstrForm::sdwa && SdwaHasDstSel(in.instr);
  if (in.mods.clamp && !r.clamp && !sdwa_clamp) {
    out.push_back(absl::StrCat("CLAMP set: LLVM rejects clamp on ", InstrName(in.instr), " on ",
                               target.name));
  }
}

// OPSEL bits the instruction's op_sel/byte_sel syntax (AsmRules::opsel) cannot express.
void LlvmOpSelRefusals(const TargetTraits& target, const Vop3Instr& in, const AsmRules& r,
                       std::vector<std::string>* refusals) {
  std::vector<std::string>& out = *refusals;
  switch (r.opsel) {
    case OpSelSyntax::none:
      if (in.mods.opsel != 0) {
        out.push_back(absl::StrCat("OPSEL ", in.mods.opsel, " != 0: LLVM accepts no op_sel on ",
                                   InstrName(in.instr)));
      }
      break;
    case OpSelSyntax::op_sel_4: break;  // all four bits expressible
    case OpSelSyntax::op_sel_byte_sel: break;  // op_sel:[a,b,0] and byte_sel:N: all four
    case OpSelSyntax::scale_sel: break;        // scale_sel:N = OPSEL[3:0]: all four
    case OpSelSyntax::op_sel_dst_byte_sel:
      if ((in.mods.opsel & 4) != 0) {
        out.push_back(absl::StrCat("OPSEL[2] set: LLVM's op_sel:[x,d] byte_sel:N for ",
                                   InstrName(in.instr), " has no element for it"));
      }
      break;
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
}

// Operands: VDST pairs, unused source fields, literals, 16-bit sources, SDWA destination
// fields, the constant bus, codes LLVM has no name for.
void LlvmOperandRefusals(const TargetTraits& target, const Vop3Instr& in, const AsmRules& r,
                         std::vector<std::string>* refusals) {
  std::vector<std::string>& out = *refusals;
  if (DstWords(in.instr) > 1 && target.aligned_vgpr_tuples && (in.vdst & 1) != 0) {
    out.push_back(absl::StrCat("VDST v[", in.vdst, ":", in.vdst + DstWords(in.instr) - 1,
                               "]: ", target.name, " wants a VGPR tuple to start at an even "
                               "register (LLVM: invalid operand)"));
  }
  if (DstWords(in.instr) > 1 && in.vdst + DstWords(in.instr) - 1 > 255) {
    out.push_back(absl::StrCat("VDST v", in.vdst, ": the tuple runs past v255"));
  }
  for (int i = 0; i < NumSourcesRead(in.instr); ++i) {
    // A tuple source (InstrInfo::src_dwords): LLVM 22 takes an even-aligned VGPR tuple only
    // (llvm-mc-22 -mcpu=gfx950: `v[3:8]`, `s[4:9]`, `1.0` "invalid operand for instruction").
    const int n = GetInstrInfo(in.instr).src_dwords(i);
    // gfx1250's eight FP4 codes (SrcRole::fp4_x8): a VGPR only (llvm-mc-22 -mcpu=gfx1250:
    // `s20`, `1.0`, `0x12345678` "invalid operand for instruction").
    if (n == 1 && GetInstrInfo(in.instr).src[i] == SrcRole::fp4_x8 && in.src[i] < kFirstVgprCode) {
      out.push_back(absl::StrCat("src", i, " code ", in.src[i], ": LLVM takes only a VGPR as these "
                                 "eight FP4 codes (invalid operand)"));
    }
    if (n == 1) continue;
    if (in.src[i] < kFirstVgprCode) {
      out.push_back(absl::StrCat("src", i, " code ", in.src[i], ": LLVM takes only a VGPR tuple v[N:N+",
                                 n - 1, "] as this ", n, "-dword source (invalid operand)"));
      continue;
    }
    const int r = in.src[i] - kFirstVgprCode;
    if (target.aligned_vgpr_tuples && (r & 1) != 0) {
      out.push_back(absl::StrCat("src", i, " v[", r, ":", r + n - 1, "]: ", target.name,
                                 " wants a VGPR tuple to start at an even register (LLVM: invalid operand)"));
    }
    if (r + n - 1 > 255) out.push_back(absl::StrCat("src", i, " v[", r, ":", r + n - 1, "]: the tuple runs past v255"));
  }
  // gfx1250's packed f16 -> fp8/bf8 encoders (targets.h Src0NoInline): llvm-mc-22 assembles
  // every constant in S0 to a literal (`1.0` the literal 0x3c00, `0` the literal 0).
  if (Src0NoInline(in.instr)) {
    absl::StatusOr<OperandInfo> info = DescribeOperand(target.family, in.src[0]);
    if (info.ok() && (info->kind == OperandKind::inline_int || info->kind == OperandKind::inline_float)) {
      out.push_back(absl::StrCat("src0 code ", in.src[0], ": LLVM encodes no inline constant in ",
                                 InstrName(in.instr), "'s source (it assembles a literal)"));
    }
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
  if (in.form == InstrForm::e32 && Dst16(in.instr) && in.vdst >= 128) {
    // llvm-mc-22 -mcpu=gfx1250: `<f16 decode>_e32 v128, v2` "invalid operand for instruction".
    out.push_back(absl::StrCat("VDST v", in.vdst, ": LLVM takes v0..v127 in the e32 form of a "
                               "16-bit destination (VGPR_32_Lo128)"));
  }
  for (int i = 0; i < NumSourcesRead(in.instr); ++i) {
    if (in.src[i] == kLiteralCode && in.literal.has_value() && *in.literal > 0xffffu &&
        SrcBits(target, in, i) == 16) {
      out.push_back(absl::StrFormat("literal 0x%x on the 16-bit src%d: LLVM takes a 16-bit "
                                    "literal there (operands are not valid)", *in.literal, i));
    }
  }
  if (in.form == InstrForm::sdwa && !SdwaHasDstSel(in.instr)) {
    if (in.mods.dst_sel != 6 || in.mods.dst_unused != 0) {
      out.push_back(absl::StrCat("DST_SEL ", in.mods.dst_sel, ", DST_UNUSED ",
                                 in.mods.dst_unused, ": LLVM accepts only dst_sel:DWORD here"));
    }
  }
  if (in.form == InstrForm::sdwa && SdwaHasDstSel(in.instr)) {
    // LLVM's selects are BYTE_0..DWORD (0..6) and its dst_unused PAD, SEXT, PRESERVE (0..2).
    if (in.mods.src0_sel == 7) out.push_back("SRC0_SEL 7: LLVM has no name for the select");
    if (in.mods.dst_sel == 7) out.push_back("DST_SEL 7: LLVM has no name for the select");
    if (in.mods.dst_unused == 3) out.push_back("DST_UNUSED 3: LLVM has no name for it");
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
}

}  // namespace

std::vector<std::string> LlvmRefusals(const TargetTraits& target, const Vop3Instr& in) {
  std::vector<std::string> out;
  const AsmRules r = GetAsmRules(target, in.instr);
  LlvmModifierRefusals(target, in, r, &out);
  LlvmOpSelRefusals(target, in, r, &out);
  LlvmOperandRefusals(target, in, r, &out);
  return out;
}

}  // namespace lanediff
