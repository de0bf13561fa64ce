// PrintVop3 (LLVM syntax, and our spelling of what LLVM cannot express) and
// FormatEncodingBytes.
#include "model/isa/vop3.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/vop3_internal.h"

namespace lanediff {
namespace {

using vop3_internal::SrcBits;
using vop3_internal::SrcInt16;

std::string Bits4(uint32_t v) {
  return absl::StrFormat("[%d,%d,%d,%d]", v & 1, (v >> 1) & 1, (v >> 2) & 1, (v >> 3) & 1);
}

// "v5", or the pair "v[4:5]" for an instruction whose row has dst_bits 64, the tuple
// "v[4:35]" for dst_bits 1024 (as llvm-mc-22 prints them; a register after v255 is printed as
// v256 and up, as llvm-mc-22 disassembles it, which no assembler takes).
std::string VdstText(const Vop3Instr& in) {
  if (DstWords(in.instr) == 1) return absl::StrCat("v", in.vdst);
  return absl::StrCat("v[", in.vdst, ":", in.vdst + DstWords(in.instr) - 1, "]");
}

std::string SourceText(const TargetTraits& target, const Vop3Instr& in, int i) {
  std::string text = OperandText(target.family, in.src[i], in.literal, in.form == InstrForm::e32,
                                 SrcBits(target, in, i), SrcInt16(target, in, i));
  if (const int n = GetInstrInfo(in.instr).src_dwords(i); n > 1) {
    // A tuple source: v[N:N+n-1] as llvm-mc-22 prints it (an odd N too, with its comment
    // dropped: known difference disasm_comments_unaligned_pair), s[N:N+n-1] for an SGPR code
    // (llvm-mc-22 prints a misaligned range there with a comment; LLVM refuses both). A
    // constant keeps its text.
    if (in.src[i] >= kFirstVgprCode) {
      const int r = in.src[i] - kFirstVgprCode;
      text = absl::StrCat("v[", r, ":", r + n - 1, "]");
    } else if (absl::StatusOr<OperandInfo> o = DescribeOperand(target.family, in.src[i]);
               o.ok() && o->kind == OperandKind::sgpr) {
      text = absl::StrCat("s[", o->index, ":", o->index + n - 1, "]");
    }
  }
  const bool neg = (in.mods.neg >> i) & 1;
  const bool abs = (in.mods.abs >> i) & 1;
  absl::StatusOr<OperandInfo> info = DescribeOperand(target.family, in.src[i], in.form == InstrForm::e32);
  const bool is_register = info.ok() && (info->kind == OperandKind::vgpr ||
                                         info->kind == OperandKind::sgpr ||
                                         info->kind == OperandKind::special);
  // An inline code where LLVM encodes none (targets.h Src0NoInline): `inline(1.0)`, our spelling
  // of a word LLVM cannot write (its `1.0` there is the literal 0x3c00; LlvmRefusals says so).
  if (i == 0 && Src0NoInline(in.instr) && info.ok() &&
      (info->kind == OperandKind::inline_int || info->kind == OperandKind::inline_float)) {
    text = absl::StrCat("inline(", text, ")");
  }
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
    // A Src0Int16 row's e32 form without it, as LLVM prints it (llvm_differences.cc
    // disasm_drops_vop1_suffix), but beside a SRC0 v128..v255, which llvm-mc-22 takes as VOP3.
    const bool bare = Src0Int16(in.instr) && in.form == InstrForm::e32 &&
                      in.src[0] < kFirstVgprCode + 128;
    std::string out = absl::StrCat(InstrName(in.instr), bare ? "" : "_",
                                   bare ? "" : InstrFormName(in.form), " ", VdstText(in), ", ");
    std::string src = SourceText(target, in, 0);
    if (in.mods.src0_sext) src = absl::StrCat("sext(", src, ")");
    absl::StrAppend(&out, src);
    if (in.form == InstrForm::sdwa) {
      if (in.mods.clamp) absl::StrAppend(&out, " clamp");
      static constexpr absl::string_view kOmodSdwa[4] = {"", " mul:2", " mul:4", " div:2"};
      absl::StrAppend(&out, kOmodSdwa[in.mods.omod & 3]);
      // llvm-mc-22 prints a row's destination operands always where its syntax has them
      // (SdwaHasDstSel: the PRNG step's `_sdwa v1, v2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE
      // src0_sel:DWORD`); elsewhere we print them only when they are not DWORD, PAD.
      if (SdwaHasDstSel(in.instr) || in.mods.dst_sel != 6 || in.mods.dst_unused != 0) {
        static constexpr absl::string_view kUnused[4] = {"UNUSED_PAD", "UNUSED_SEXT",
                                                         "UNUSED_PRESERVE", "UNUSED_3"};
        absl::StrAppend(&out, " dst_sel:", SdwaSelName(in.mods.dst_sel), " dst_unused:",
                        kUnused[in.mods.dst_unused & 3]);
      }
      absl::StrAppend(&out, " src0_sel:", SdwaSelName(in.mods.src0_sel));
    }
    return out;
  }
  // LLVM prints a Src0Int16 row's VOP3 form without the suffix, which its assembler reads as
  // VOP3 only when a modifier follows: we drop it where op_sel is printed (llvm_differences.cc
  // disasm_drops_vop1_suffix).
  const bool suffix = vop1 && !(Src0Int16(in.instr) && in.mods.opsel != 0);
  std::string out = absl::StrCat(InstrName(in.instr), suffix ? "_e64" : "", " ", VdstText(in));
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
    } else if (r.opsel == OpSelSyntax::op_sel_byte_sel) {
      // op_sel:[OPSEL[0],OPSEL[1],0] then byte_sel:OPSEL[3:2], as llvm-mc-22 prints them.
      const uint32_t v = in.mods.opsel;
      if ((v & 3) != 0) absl::StrAppend(&out, absl::StrFormat(" op_sel:[%d,%d,0]", v & 1, (v >> 1) & 1));
      if ((v >> 2) != 0) absl::StrAppend(&out, " byte_sel:", v >> 2);
    } else if (r.opsel == OpSelSyntax::op_sel_dst_byte_sel) {
      // op_sel:[0,OPSEL[3]] then byte_sel:2*OPSEL[0] + OPSEL[1], as llvm-mc-22 prints them;
      // OPSEL[2], which LLVM cannot express, as op_sel_src2:1.
      const uint32_t v = in.mods.opsel;
      if ((v & 8) != 0) absl::StrAppend(&out, " op_sel:[0,1]");
      const int byte = 2 * (v & 1) + ((v >> 1) & 1);
      if (byte != 0) absl::StrAppend(&out, " byte_sel:", byte);
      if ((v & 4) != 0) absl::StrAppend(&out, " op_sel_src2:1");
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
    } else if (r.opsel == OpSelSyntax::scale_sel) {
      absl::StrAppend(&out, " scale_sel:", in.mods.opsel & 0xfu);  // as llvm-mc-22 prints it
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

std::string FormatEncodingBytes(absl::Span<const uint32_t> words) {
  std::vector<std::string> bytes;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) bytes.push_back(absl::StrFormat("0x%02x", (w >> (8 * b)) & 0xff));
  }
  return absl::StrCat("[", absl::StrJoin(bytes, ","), "]");
}

}  // namespace lanediff
