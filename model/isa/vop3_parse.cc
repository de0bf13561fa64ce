// ParseAsm (the syntax PrintVop3 writes and LLVM's spellings of the same) and
// ParseEncodingText.
#include "model/isa/vop3.h"

#include <algorithm>
#include <cctype>
#include <optional>

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

// A number: decimal or 0x hex, with an optional leading minus (two's complement).
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
//
// `dwords` > 1: a tuple source (InstrInfo::src_dwords), spelled v[N:N+dwords-1] as llvm-mc-22
// prints it, or s[N:N+dwords-1] (our spelling of an SGPR code there, which LLVM refuses); a
// constant keeps its one-operand spelling (LLVM refuses it too). A lone register is refused.
absl::StatusOr<ParsedSource> ParseTupleSource(const TargetTraits& target, absl::string_view t,
                                              const std::string& orig, int dwords) {
  ParsedSource s;
  for (const char* kind : {"v[", "s["}) {
    absl::string_view r = t;
    if (!absl::ConsumePrefix(&r, kind)) continue;
    std::vector<absl::string_view> ends;
    if (absl::ConsumeSuffix(&r, "]")) ends = absl::StrSplit(r, ':');
    int lo = -1, hi = -1;
    const int top = kind[0] == 'v' ? 255 : kFirstVgprCode - 1;
    if (ends.size() != 2 || !absl::SimpleAtoi(ends[0], &lo) || !absl::SimpleAtoi(ends[1], &hi) ||
        lo < 0 || lo > top || hi != lo + dwords - 1) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "' is not a ", dwords, "-register tuple ",
                                                     kind, "N:N+", dwords - 1, "]"));
    }
    if (kind[0] == 's') {
      absl::StatusOr<uint16_t> code = ParseOperandName(target.family, absl::StrCat("s", lo));
      if (!code.ok()) return code.status();
      s.code = *code;
    } else {
      s.code = static_cast<uint16_t>(kFirstVgprCode + lo);
    }
    return s;
  }
  if (absl::StatusOr<uint16_t> code = ParseOperandName(target.family, t); code.ok()) {
    if (*code >= kFirstVgprCode) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "': the source is a ", dwords,
                                                     "-dword tuple, spelled v[N:N+", dwords - 1, "]"));
    }
    s.code = *code;  // a special register or SGPR by its one-register name (LLVM refuses it)
    return s;
  }
  return absl::InvalidArgumentError("not a tuple");  // a constant: the caller parses it
}

// A constant in an operand LLVM gives no inline constant (targets.h Src0NoInline): the literal
// llvm-mc-22 assembles, an integer's 32-bit value or a float's f16 pattern (`1.0` 0x3c00).
ParsedSource NoInlineLiteral(const TargetTraits& target, ParsedSource s) {
  absl::StatusOr<OperandInfo> info = DescribeOperand(target.family, s.code);
  if (!info.ok() || (info->kind != OperandKind::inline_int && info->kind != OperandKind::inline_float)) {
    return s;
  }
  const bool f16 = info->kind == OperandKind::inline_float;
  s.literal = f16 ? DescribeOperand(target.family, s.code, false, 16)->value : info->value;
  s.code = kLiteralCode;
  return s;
}

absl::StatusOr<ParsedSource> ParseSource(const TargetTraits& target, absl::string_view text,
                                         int bits, int dwords = 1, bool int16 = false,
                                         bool no_inline = false) {
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
  if (dwords > 1) {
    absl::StatusOr<ParsedSource> tuple = ParseTupleSource(target, t, orig, dwords);
    if (tuple.ok()) {
      tuple->neg = s.neg;
      tuple->abs = s.abs;
      return tuple;
    }
    if (tuple.status().message() != "not a tuple") return tuple.status();
  }
  if (absl::ConsumePrefix(&t, "lit(")) {
    if (!absl::ConsumeSuffix(&t, ")")) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "': unbalanced lit("));
    }
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t v, ParseNumber(t));
    s.code = kLiteralCode;
    s.literal = v;
    return s;
  }
  // `inline(1.0)`: the inline code itself where LLVM encodes none (vop3_print.cc spells it so).
  if (no_inline && absl::ConsumePrefix(&t, "inline(")) {
    absl::StatusOr<uint16_t> code =
        absl::ConsumeSuffix(&t, ")") ? ParseOperandName(target.family, t) : absl::InvalidArgumentError("");
    absl::StatusOr<OperandInfo> info =
        code.ok() ? DescribeOperand(target.family, *code) : absl::StatusOr<OperandInfo>(code.status());
    if (!info.ok() || (info->kind != OperandKind::inline_int && info->kind != OperandKind::inline_float)) {
      return absl::InvalidArgumentError(absl::StrCat("'", orig, "': inline(...) takes an inline constant"));
    }
    s.code = *code;
    return s;
  }
  if (absl::StatusOr<uint16_t> code = ParseOperandName(target.family, t); code.ok()) {
    s.code = *code;
    return no_inline ? NoInlineLiteral(target, s) : s;
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
  // A 16-bit integer operand (`int16`, targets.h Src0Int16) keeps an f16 pattern a literal.
  if (std::optional<uint16_t> code = InlineConstantCode(*v, bits, int16);
      code.has_value() && !no_inline) {
    s.code = *code;
  } else {
    s.code = kLiteralCode;
    s.literal = *v;
  }
  return s;
}

// The instruction and its form from the mnemonic: _e64, _e32, _sdwa; without a suffix a VOP1
// instruction is e32 (as llvm-mc-22 assembles it) and a VOP3-only one e64.
absl::StatusOr<Vop3Instr> ParseMnemonic(const TargetTraits& target, absl::string_view mnemonic) {
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
  in.src = {0, 0, 0};
  // LLVM's default when dst_unused is not written (UNUSED_PRESERVE on the PRNG step's SDWA form).
  if (in.form == InstrForm::sdwa) in.mods.dst_unused = SdwaDefaultDstUnused(in.instr);
  return in;
}

// Splits "a, -|b|, neg(c), d op_sel:[0,0,1,0] clamp" at the commas outside brackets.
std::vector<std::string> SplitOperands(absl::string_view rest) {
  std::vector<std::string> parts;
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
  return parts;
}

// The last part holds the last operand then the space-separated modifiers: leaves the operand
// in `last` and returns the modifiers. Modifier tokens are recognised by name.
absl::StatusOr<std::vector<std::string>> SplitModifiers(absl::string_view line,
                                                        std::string* last) {
  std::vector<std::string> toks =
      absl::StrSplit(absl::StripAsciiWhitespace(*last), absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (toks.empty()) return absl::InvalidArgumentError(absl::StrCat("'", line, "': no operands"));
  size_t first_mod = toks.size();
  for (size_t i = 1; i < toks.size(); ++i) {
    absl::string_view tk = toks[i];
    if (tk == "clamp" || absl::StartsWith(tk, "op_sel:") || absl::StartsWith(tk, "byte_sel:") ||
        absl::StartsWith(tk, "scale_sel:") ||
        absl::StartsWith(tk, "src0_sel:") || absl::StartsWith(tk, "dst_sel:") ||
        absl::StartsWith(tk, "dst_unused:") ||
        absl::StartsWith(tk, "op_sel_src2:") || absl::StartsWith(tk, "op_sel_mid:") ||
        absl::StartsWith(tk, "mul:") || absl::StartsWith(tk, "div:")) {
      first_mod = i;
      break;
    }
  }
  std::vector<std::string> operand(toks.begin(), toks.begin() + first_mod);
  *last = absl::StrJoin(operand, " ");
  return std::vector<std::string>(toks.begin() + first_mod, toks.end());
}

// VDST: a VGPR, or a VGPR pair v[N:N+1] for an instruction with InstrInfo::dst_bits 64, or a
// tuple v[N:N+M-1] for one of M = dst_bits / 32 words.
absl::StatusOr<uint8_t> ParseVdst(const TargetTraits& target, Instr instr,
                                  absl::string_view vdst_text) {
  if (DstWords(instr) > 1) {
    int lo = -1, hi = -1;
    absl::string_view t = vdst_text;
    std::vector<absl::string_view> ends;
    if (absl::ConsumePrefix(&t, "v[") && absl::ConsumeSuffix(&t, "]")) ends = absl::StrSplit(t, ':');
    if (ends.size() != 2 || !absl::SimpleAtoi(ends[0], &lo) || !absl::SimpleAtoi(ends[1], &hi) ||
        lo < 0 || lo > 255 || hi != lo + DstWords(instr) - 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "vdst '", vdst_text, "' is not a VGPR ",
          DstWords(instr) == 2 ? std::string("pair v[N:N+1]") : absl::StrCat("tuple v[N:N+", DstWords(instr) - 1, "]"),
          ": ", InstrName(instr), " writes ",
          GetInstrInfo(instr).dst_bits, " bits"));
    }
    return static_cast<uint8_t>(lo);
  }
  absl::StatusOr<uint16_t> vdst = ParseOperandName(target.family, vdst_text);
  if (!vdst.ok() || *vdst < kFirstVgprCode) {
    return absl::InvalidArgumentError(absl::StrCat("vdst '", vdst_text, "' is not a VGPR"));
  }
  return static_cast<uint8_t>(*vdst - kFirstVgprCode);
}

// Source k from `part` into `in`: its code, neg/abs bits, the literal (one per instruction),
// and on SDWA a sext(...) around it.
absl::Status ParseSourceInto(const TargetTraits& target, absl::string_view part_text, int k,
                             Vop3Instr* in) {
  std::string part = std::string(absl::StripAsciiWhitespace(part_text));
  if (in->form == InstrForm::sdwa && absl::StartsWith(part, "sext(") &&
      absl::EndsWith(part, ")")) {
    in->mods.src0_sext = true;
    part = part.substr(5, part.size() - 6);
  }
  LANEDIFF_ASSIGN_OR_RETURN(ParsedSource s,
                            ParseSource(target, part, GetInstrInfo(in->instr).src_bits(target.family, k),
                                        GetInstrInfo(in->instr).src_dwords(k),
                                        k == 0 && Src0Int16(in->instr),
                                        k == 0 && Src0NoInline(in->instr)));
  in->src[k] = s.code;
  if (s.neg) in->mods.neg |= 1 << k;
  if (s.abs) in->mods.abs |= 1 << k;
  if (s.literal.has_value()) {
    if (in->literal.has_value() && *in->literal != *s.literal) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "src%d literal 0x%x differs from an earlier literal 0x%x: VOP3 has one literal dword",
          k, *s.literal, *in->literal));
    }
    in->literal = s.literal;
  }
  return absl::OkStatus();
}

// op_sel:[...] (`mv` is the text after "op_sel:", `m` the whole token). Element k is OPSEL[k],
// except for two sources and a destination (OpSelSyntax::op_sel_dst3): element 2 is OPSEL[3],
// the destination select, and a fourth element is ignored, as llvm-mc-22 does
// (`op_sel:[0,0,1]` and `op_sel:[0,0,1,0]` set bit 14, `op_sel:[0,0,0,1]` encodes OPSEL = 0).
// OPSEL[2] is op_sel_src2:1 then. One source and the destination
// (OpSelSyntax::op_sel_word_src): op_sel:[a,d] = OPSEL[0], OPSEL[3]. Two sources beside a
// byte_sel (OpSelSyntax::op_sel_byte_sel): op_sel:[a,b,c] = OPSEL[0], OPSEL[1], c and a fourth
// element dropped as llvm-mc-22 drops them (`op_sel:[0,0,1]` encodes OPSEL = 0). The
// destination half beside a source byte_sel (OpSelSyntax::op_sel_dst_byte_sel): op_sel:[x,d] =
// OPSEL[3], x and a third element dropped (llvm-mc-22 -mcpu=gfx1250 `op_sel:[1,0]` and
// `op_sel:[0,0,1]` encode OPSEL = 0, `op_sel:[0,1,0]` sets bit 14).
absl::Status ParseOpSel(const AsmRules& r, absl::string_view m, absl::string_view mv,
                        Vop3Instr* in) {
  if (!absl::ConsumePrefix(&mv, "[") || !absl::ConsumeSuffix(&mv, "]")) {
    return absl::InvalidArgumentError(absl::StrCat("'", m, "': expected op_sel:[a,b,c,d]"));
  }
  if (r.opsel == OpSelSyntax::scale_sel) {  // llvm-mc-22 -mcpu=gfx1250: "not a valid operand"
    return absl::InvalidArgumentError(
        absl::StrCat("'", m, "': this instruction's OPSEL is scale_sel:N, it has no op_sel"));
  }
  std::vector<absl::string_view> bits = absl::StrSplit(mv, ',');
  if (bits.size() > 4) {
    return absl::InvalidArgumentError(absl::StrCat("'", m, "': at most 4 op_sel bits"));
  }
  static constexpr int kIdentity[4] = {0, 1, 2, 3}, kDst3[4] = {0, 1, 3, -1},
                       kWordSrc[4] = {0, 3, -1, -1}, kSrcPair[4] = {0, 1, -1, -1},
                       kDstOnly[4] = {-1, 3, -1, -1};
  const int* bit_of = r.opsel == OpSelSyntax::op_sel_dst3       ? kDst3
                      : r.opsel == OpSelSyntax::op_sel_word_src ? kWordSrc
                      : r.opsel == OpSelSyntax::op_sel_byte_sel ? kSrcPair
                      : r.opsel == OpSelSyntax::op_sel_dst_byte_sel ? kDstOnly
                                                                : kIdentity;
  for (size_t b = 0; b < bits.size(); ++b) {
    absl::string_view bit = absl::StripAsciiWhitespace(bits[b]);
    if (bit != "0" && bit != "1") {
      return absl::InvalidArgumentError(absl::StrCat("'", m, "': op_sel bits are 0 or 1"));
    }
    if (bit == "1" && bit_of[b] >= 0) in->mods.opsel |= 1 << bit_of[b];
  }
  // Where the instruction has no op_sel, a set bit is our spelling of the raw field (LLVM
  // refuses it, LlvmRefusals says so); an all-zero op_sel sets nothing and only LLVM's refusal
  // of the spelling would tell it apart, so it is refused here too.
  if (r.opsel == OpSelSyntax::none && in->mods.opsel == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", m, "': this instruction has no op_sel (LLVM: not a valid operand)"));
  }
  return absl::OkStatus();
}

// op_sel_mid:[b1,b2]: OPSEL[1], OPSEL[2] of an instruction whose op_sel is [a,d] (our
// spelling; LLVM has none).
absl::Status ParseOpSelMid(const AsmRules& r, absl::string_view m, absl::string_view mv,
                           Vop3Instr* in) {
  std::vector<absl::string_view> bits;
  if (absl::ConsumePrefix(&mv, "[") && absl::ConsumeSuffix(&mv, "]")) bits = absl::StrSplit(mv, ',');
  if (bits.size() != 2 || r.opsel != OpSelSyntax::op_sel_word_src ||
      (bits[0] != "0" && bits[0] != "1") || (bits[1] != "0" && bits[1] != "1")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", m, "': op_sel_mid:[b1,b2] is OPSEL[1], OPSEL[2] of an instruction whose op_sel "
        "is [a,d]"));
  }
  if (bits[0] == "1") in->mods.opsel |= 2;
  if (bits[1] == "1") in->mods.opsel |= 4;
  return absl::OkStatus();
}

// op_sel_src2:0|1: OPSEL[2] of a two-source instruction with op_sel:[a,b,d], or of a one-byte
// decode with op_sel:[x,d] byte_sel:N (our spelling; LLVM has none).
absl::Status ParseOpSelSrc2(const AsmRules& r, absl::string_view m, absl::string_view mv,
                            Vop3Instr* in) {
  if ((mv != "0" && mv != "1") ||
      (r.opsel != OpSelSyntax::op_sel_dst3 && r.opsel != OpSelSyntax::op_sel_dst_byte_sel)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", m, "': op_sel_src2:0|1 is OPSEL[2] of an instruction whose op_sel is [a,b,d] or "
        "[x,d] beside byte_sel"));
  }
  if (mv == "1") in->mods.opsel |= 4;
  return absl::OkStatus();
}

// byte_sel:N: the source byte (2*OPSEL[0] + OPSEL[1]) or the destination byte (OPSEL[3:2]).
absl::Status ParseByteSel(const TargetTraits& target, const AsmRules& r, absl::string_view m,
                          absl::string_view mv, Vop3Instr* in) {
  int n = 0;
  if (!absl::SimpleAtoi(mv, &n) || n < 0 || n > 3) {
    return absl::InvalidArgumentError(absl::StrCat("'", m, "': byte_sel is 0..3"));
  }
  if (r.opsel == OpSelSyntax::byte_sel_src || r.opsel == OpSelSyntax::op_sel_dst_byte_sel) {
    // the source byte: 2*OPSEL[0] + OPSEL[1]
    in->mods.opsel = static_cast<uint8_t>((in->mods.opsel & 0b1100) | ((n >> 1) & 1) |
                                          ((n & 1) << 1));
    return absl::OkStatus();
  }
  if (r.opsel != OpSelSyntax::byte_sel && r.opsel != OpSelSyntax::op_sel_byte_sel) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", m, "': ", InstrName(in->instr), " takes no byte_sel on ", target.name));
  }
  in->mods.opsel = static_cast<uint8_t>((in->mods.opsel & 3) | (n << 2));
  return absl::OkStatus();
}

// scale_sel:N (0..15): OPSEL[3:0] of gfx1250's scaled decodes with an E8M0 scale register
// (OpSelSyntax::scale_sel; llvm-mc-22 -mcpu=gfx1250 `scale_sel:15` sets bits 11-14,
// `scale_sel:16` is "invalid scale_sel value").
absl::Status ParseScaleSel(const TargetTraits& target, const AsmRules& r, absl::string_view m,
                           absl::string_view mv, Vop3Instr* in) {
  int n = 0;
  if (!absl::SimpleAtoi(mv, &n) || n < 0 || n > 15) {
    return absl::InvalidArgumentError(absl::StrCat("'", m, "': scale_sel is 0..15"));
  }
  if (r.opsel != OpSelSyntax::scale_sel) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", m, "': ", InstrName(in->instr), " takes no scale_sel on ", target.name));
  }
  in->mods.opsel = static_cast<uint8_t>(n);
  return absl::OkStatus();
}

// src0_sel:SEL / dst_sel:SEL (`mv` is SEL) of the _sdwa form.
absl::Status ParseSdwaSel(absl::string_view m, absl::string_view mv, Vop3Instr* in) {
  if (in->form != InstrForm::sdwa) {
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
  if (absl::StartsWith(m, "src0_sel:")) in->mods.src0_sel = static_cast<uint8_t>(sel);
  else in->mods.dst_sel = static_cast<uint8_t>(sel);
  return absl::OkStatus();
}

// dst_unused:UNUSED_* of the _sdwa form.
absl::Status ParseDstUnused(absl::string_view m, absl::string_view mv, Vop3Instr* in) {
  static constexpr absl::string_view kUnused[4] = {"UNUSED_PAD", "UNUSED_SEXT",
                                                   "UNUSED_PRESERVE", "UNUSED_3"};
  int u = -1;
  for (int k = 0; k < 4; ++k) {
    if (mv == kUnused[k]) u = k;
  }
  if (u < 0 || in->form != InstrForm::sdwa) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", m, "': dst_unused is UNUSED_PAD, UNUSED_SEXT or UNUSED_PRESERVE (_sdwa only)"));
  }
  in->mods.dst_unused = static_cast<uint8_t>(u);
  return absl::OkStatus();
}

// One modifier token `m` into `in`.
absl::Status ParseModifier(const TargetTraits& target, const AsmRules& r, const std::string& m,
                           Vop3Instr* in) {
  absl::string_view mv = m;
  if (mv == "clamp") {
    in->mods.clamp = true;
  } else if (absl::ConsumePrefix(&mv, "op_sel:")) {
    return ParseOpSel(r, m, mv, in);
  } else if (absl::ConsumePrefix(&mv, "op_sel_mid:")) {
    return ParseOpSelMid(r, m, mv, in);
  } else if (absl::ConsumePrefix(&mv, "op_sel_src2:")) {
    return ParseOpSelSrc2(r, m, mv, in);
  } else if (absl::ConsumePrefix(&mv, "byte_sel:")) {
    return ParseByteSel(target, r, m, mv, in);
  } else if (absl::ConsumePrefix(&mv, "scale_sel:")) {
    return ParseScaleSel(target, r, m, mv, in);
  } else if (absl::ConsumePrefix(&mv, "src0_sel:") || absl::ConsumePrefix(&mv, "dst_sel:")) {
    return ParseSdwaSel(m, mv, in);
  } else if (absl::ConsumePrefix(&mv, "dst_unused:")) {
    return ParseDstUnused(m, mv, in);
  } else if (m == "mul:2") {
    in->mods.omod = 1;
  } else if (m == "mul:4") {
    in->mods.omod = 2;
  } else if (m == "div:2") {
    in->mods.omod = 3;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("unknown modifier '", m, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Vop3Instr> ParseAsm(const TargetTraits& target, absl::string_view line) {
  absl::string_view text = line;
  if (size_t semi = text.find(';'); semi != absl::string_view::npos) text = text.substr(0, semi);
  if (size_t hash = text.find("//"); hash != absl::string_view::npos) text = text.substr(0, hash);
  text = absl::StripAsciiWhitespace(text);
  size_t sp = text.find_first_of(" \t");
  absl::string_view rest = sp == absl::string_view::npos ? "" : text.substr(sp);
  LANEDIFF_ASSIGN_OR_RETURN(Vop3Instr in, ParseMnemonic(target, text.substr(0, sp)));
  // Operands are comma separated; modifiers follow the last operand, space separated.
  std::vector<std::string> parts = SplitOperands(rest);
  LANEDIFF_ASSIGN_OR_RETURN(std::vector<std::string> mods, SplitModifiers(line, &parts.back()));
  const int min_sources = NumSourcesRead(in.instr);
  if (parts.size() < static_cast<size_t>(1 + min_sources) || parts.size() > 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        InstrName(in.instr), " takes vdst and ", min_sources, " sources; got ",
        parts.size(), " operands in '", line, "'"));
  }
  LANEDIFF_ASSIGN_OR_RETURN(in.vdst,
                            ParseVdst(target, in.instr, absl::StripAsciiWhitespace(parts[0])));
  // Without a suffix llvm-mc-22 takes the VOP3 form where the e32 VDST cannot name the register
  // (a 16-bit destination, v0..v127: `<one-byte f16 decode> v128, v2` assembles as _e64).
  if (in.form == InstrForm::e32 && Dst16(in.instr) && in.vdst >= 128 &&
      !absl::EndsWith(text.substr(0, sp), "_e32")) {
    in.form = InstrForm::e64;
  }
  // Without a suffix llvm-mc-22 takes the VOP3 form where a modifier or a second source is
  // written and the target has no SDWA form (LLVM prints a Src0Int16 row's VOP3 form so:
  // `<mnemonic> v1, v2 op_sel:[1,1]`).
  if (in.form == InstrForm::e32 && (!mods.empty() || parts.size() != 2) &&
      !HasForm(target, in.instr, InstrForm::sdwa) && !absl::EndsWith(text.substr(0, sp), "_e32")) {
    in.form = InstrForm::e64;
  }
  if (in.form != InstrForm::e64 && parts.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", InstrFormName(in.form), " form takes vdst and one source; got ", parts.size(),
        " operands in '", line, "'"));
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    LANEDIFF_RETURN_IF_ERROR(ParseSourceInto(target, parts[i], static_cast<int>(i - 1), &in));
  }
  const AsmRules r = GetAsmRules(target, in.instr);
  for (const std::string& m : mods) LANEDIFF_RETURN_IF_ERROR(ParseModifier(target, r, m, &in));
  if (in.form == InstrForm::e32 && !(in.mods == Modifiers{})) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", line, "': the e32 form has no modifiers (write _e64 or _sdwa)"));
  }
  if (in.form == InstrForm::sdwa && in.mods.opsel != 0) {
    return absl::InvalidArgumentError(absl::StrCat("'", line, "': the SDWA form has no op_sel"));
  }
  return in;
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
