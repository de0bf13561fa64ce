#include "model/isa/llvm_differences.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/vop3.h"

namespace lanediff {
namespace {

// Each entry was observed with llvm-mc-22 (Debian llvm-22) on every target in AllTargets().
constexpr LlvmDifference kDifferences[] = {
    {"disasm_drops_src12_neg_abs",
     "LLVM's disassembler silently drops NEG[1], NEG[2], ABS[1], ABS[2] (prints nothing); on "
     "gfx12/gfx1250 SR it drops NEG[1]/ABS[1] (NEG[2]/ABS[2]: see disasm_rejects_gfx12_sr_bits)",
     "the bits are in the word and silicon may honour them (docs/semantics.md §3 U): we keep them "
     "and print them as -v2 / |v2| so the text is exact"},
    {"disasm_drops_src0_neg_abs",
     "LLVM's disassembler silently drops NEG[0] and ABS[0] of a VOP3 instruction whose source 0 "
     "takes no -x/|x| (the gfx950 scaled fp8/bf8 -> f32 decodes: an 8-bit float source; the "
     "assembler answers 'not a valid operand')",
     "the bits are in the word and silicon may honour them (U): we keep them and print them as "
     "-v2 / |v2| so the text is exact"},
    {"disasm_drops_pk_u8_opsel",
     "LLVM's disassembler silently drops OPSEL on the u8 byte packer (pk_u8; its assembler has "
     "no op_sel)",
     "the bits are in the word; their effect on silicon is U: we print op_sel:[a,b,c,d]"},
    {"disasm_ignores_sr_src2",
     "LLVM's disassembler ignores the SRC2 field of v_cvt_sr_fp8/bf8_f32 entirely: any value, "
     "even codes it rejects elsewhere and 255 (no literal fetched)",
     "silicon decodes the field; we decode it as an operand, reject codes we do not model and "
     "SRC2=255 (instruction length unknown), and print a non-zero SRC2 as a fourth operand"},
    {"disasm_rejects_omod",
     "LLVM's disassembler calls OMOD != 0 an invalid encoding",
     "silicon executes the word (the SR pages say 'ignores OMOD'); we decode it and list the "
     "refusal in DecodedVop3::llvm_refuses"},
    {"disasm_rejects_sr_clamp",
     "LLVM's disassembler rejects CLAMP on the SR instructions on GFX9 and gfx12, and on "
     "the bf8 SR instruction on gfx1250",
     "silicon executes the word; its effect is U (docs/semantics.md §5): we decode it"},
    {"disasm_rejects_scaled_encoder_clamp",
     "LLVM's disassembler calls CLAMP on the gfx950 scaled encoders (the rows whose S2 is a "
     "block scale) an invalid encoding, as its assembler refuses `clamp` there",
     "silicon executes the word; its effect is U (the model ignores CLAMP there): we decode it"},
    {"disasm_rejects_gfx12_sr_bits",
     "on gfx12/gfx1250 LLVM's disassembler rejects OPSEL[1:0] != 0, NEG[2] and ABS[2] on the SR "
     "instructions (on gfx1250's f16 SR encoders, whose op_sel:[a,b,0] expresses OPSEL[1:0], "
     "NEG[2] and ABS[2] only)",
     "silicon executes the word; effect U: we decode it"},
    {"disasm_rejects_src2_bits",
     "for a two-source instruction whose op_sel is [a,b,d] (OPSEL[3] the destination half), "
     "LLVM's disassembler rejects OPSEL[2], NEG[2] and ABS[2] (the absent third source's bits) "
     "on every target; so it does for a two-source instruction with no op_sel (gfx950's f32 -> "
     "f16/bf16 pair conversions; llvm-mc-22: [0xd6,0x04,0x67,0xd2,0x44,0xe5,0x02,0x00] and "
     "[0xd6,0x20,0x68,...] are invalid encodings: NEG[2] and ABS[2] on both, OPSEL[2] on the "
     "bf16 one only, not on the FP6/BF6 tuple decodes into bf16, which print it dropped as their "
     "f16 twins do; the other OPSEL bits are dropped, disasm_drops_pk_u8_opsel). On gfx1250 "
     "the pair conversions' NEG[2] and ABS[2] are refused too, OPSEL[2] is dropped on both "
     "([0x01,0x20,0x6d,0xd7,0x02,0x07,0x02,0x00] prints as the bf16 one's `v1, v2, v3`)",
     "silicon executes the word; effect U: we decode it and print OPSEL[2] as op_sel_src2:1"},
    {"disasm_ignores_vop1_e64_src12",
     "LLVM's disassembler ignores the SRC1 and SRC2 fields of a VOP1 instruction's VOP3 form "
     "(a word with SRC1 = v1 prints as `<mnemonic>_e64 v5, v1`), every target, and of a "
     "one-source VOP3 instruction (gfx1250's packed f16 -> fp8/bf8 encoders: "
     "[0x35,0x48,0x72,0xd7,0xff,0x7a,0x03,0x00,...], the fp8 one's opcode 0x372 with SRC1 = "
     "v122, prints as `<mnemonic> v53, 0x4d71fc22 op_sel:[1,1]`)",
     "silicon decodes the fields; we decode them as operands and print a non-zero one as an "
     "extra source so the text is exact"},
    {"disasm_rejects_vop1_e64_bits",
     "for a VOP1 instruction's VOP3 form LLVM's disassembler calls any NEG or ABS bit an invalid "
     "encoding on every target, on gfx12/gfx1250 also OPSEL[3:2] (byte_sel is OPSEL[1:0]), and "
     "CLAMP and OMOD where its assembler refuses them",
     "silicon executes the word; effect U (docs/semantics.md §10.5): we decode it"},
    {"disasm_rejects_one_source_bits",
     "for a one-source VOP3 instruction (gfx1250's packed f16 -> fp8/bf8 encoders) LLVM's "
     "disassembler calls NEG[2:1], ABS[2:1] and OPSEL[2:1] an invalid encoding "
     "([0x8e,0x02,0x72,0xd7,0x5b,0xfd,0x00,0x00], ABS[1], on gfx1250)",
     "silicon executes the word; effect U (docs/semantics.md §13.8): we decode it"},
    {"disasm_drops_src16_neg_abs",
     "for a VOP1 instruction's VOP3 form whose SRC0 is a 16-bit operand (the packed fp8 -> f32 "
     "conversions on gfx12/gfx1250), and for gfx1250's one-byte fp8 -> f16 decodes, LLVM's "
     "disassembler silently drops NEG[0] and ABS[0] (prints nothing; its "
     "assembler refuses -v1 and |v1|), while it calls NEG[2:1], ABS[2:1], OPSEL[2:1] (OPSEL[2] on "
     "the f16 decodes: [0x01,0x20,0xf7,0xd5,0x02,0x01,0x00,0x00]), CLAMP and OMOD an invalid "
     "encoding",
     "the bits are in the word and silicon may honour them (effect U): we keep them and print "
     "-v1 / |v1| so the text is exact"},
    {"disasm_splits_literal16",
     "a literal dword read both by a 16-bit SRC0 and by a 32-bit SRC1 (gfx1250's f16 SR "
     "encoders) is printed twice, truncated and whole: [0x56,0x00,0x75,0xd7,0xff,0xfe,0x01,0x00,"
     "0x9e,0xb7,0x18,0x38] (VOP3 opcode 0x375) on gfx1250 prints `v86, 0xb79e, 0x3818b79e`, "
     "which its assembler refuses (two literals)",
     "the word has one literal and silicon fetches it once: we print it once, whole; the two "
     "texts are not compared"},
    {"disasm_truncates_literal16",
     "for a 16-bit source operand (the packed fp8 -> f32 conversions' SRC0 on gfx12/gfx1250) LLVM's "
     "disassembler prints only the literal dword's low 16 bits: [0xff,0xdc,0x04,0x7e,0x78,0x56,"
     "0x34,0x12] on gfx1200 is `<mnemonic>_e32 v[2:3], 0x5678` (which assembles to a "
     "literal 0x00005678); when the low 16 bits are an inline constant it prints the whole dword "
     "as lit(0x13c00), which its assembler refuses; on gfx1250's packed fp8 -> f16 decodes (a "
     "16-bit integer SRC0, targets.h Src0Int16) it prints the low half plainly (0xfb170040 as "
     "`0x40`) unless the dword is a 32-bit inline constant's value (lit(0x3f800000))",
     "silicon fetches the whole dword and op_sel:[1,0] may read its high half: we keep it and "
     "print lit(0x12345678) so the text is exact"},
    {"disasm_comments_e32_src16_lo128",
     "in the e32 form of an instruction whose SRC0 is a 16-bit operand, LLVM's disassembler prints "
     "a VGPR v128..v255 with a comment: `v128/*Invalid register, operand has 'VS_32_Lo128' "
     "register class*/` (its assembler refuses v128 there: bit 7 of the field is the true16 half "
     "select in that encoding)",
     "silicon decodes the field (which half it reads is U, docs/semantics.md §10.11): we decode "
     "it, list the refusal in DecodedVop3::llvm_refuses and print plain v128"},
    {"disasm_rejects_e32_dst16_hi128",
     "in the e32 form of an instruction with a 16-bit destination (gfx1250's one-byte fp8 -> f16 "
     "decodes) LLVM's disassembler calls VDST v128..v255 an invalid encoding "
     "([0x02,0xef,0x02,0x7f] on gfx1250) and its assembler refuses it (VGPR_32_Lo128: bit 7 of "
     "the field is the true16 half select in that encoding)",
     "silicon decodes the field (which half of which VGPR is written is U): we decode it as "
     "v128..v255 and list the refusal in DecodedVop3::llvm_refuses"},
    {"disasm_drops_vop1_suffix",
     "LLVM prints both forms of a VOP1 instruction whose 16-bit SRC0 it types as an integer "
     "(gfx1250's packed fp8 -> f16 decodes, targets.h Src0Int16) without a suffix: "
     "[0x01,0x00,0xf5,0xd5,0x02,0x01,0x00,0x00] prints as `<mnemonic> v1, v2`, which its "
     "assembler reads as the e32 form",
     "we print _e64 unless op_sel is printed (a modifier makes the text VOP3 to llvm-mc-22 too), "
     "and _e32 only beside a SRC0 v128..v255 (which llvm-mc-22 would take as VOP3), so that the "
     "text assembles back to the same word"},
    {"disasm_prints_int16_inline_float_hex",
     "in a 16-bit operand LLVM types as an integer (targets.h Src0Int16) its disassembler prints "
     "an inline float code as its f16 pattern: 0xf0 as `0x3800`, 0xf8 as `0x3118` "
     "([0xf0,0xea,0x02,0x7e] on gfx1250), which its assembler makes a literal",
     "the word holds the inline code: we print `0.5`, which llvm-mc-22 assembles back to the "
     "inline code 0xf0"},
    {"disasm_prints_no_inline_constant_value",
     "in the packed f16 source of gfx1250's packed f16 -> fp8/bf8 encoders (targets.h "
     "Src0NoInline), where its assembler encodes no inline constant, LLVM's disassembler prints "
     "an inline float code as its 32-bit value (0xf2 as `0x3f800000`, with NEG `neg(0x3f800000)`) "
     "and a literal plainly (0x40 as `64`, 0 as `0`, 0x3f800000 as `0x3f800000`); its assembler "
     "makes each of them a literal",
     "the word holds the inline code: we print `1.0`, and a literal whose value an inline "
     "constant has as lit(...), which llvm-mc-22 assembles back to the same word (an inline code "
     "there is in LlvmRefusals)"},
    {"constant_bus_not_checked",
     "LLVM's disassembler does not check the constant bus: it prints three SGPR sources "
     "(pk_u8 `v5, s1, s2, s3`) on GFX9",
     "the constant-bus limit is a hardware rule (1 on GFX9, 2 on GFX10+; LLVM's assembler "
     "enforces it): we call such words invalid"},
    {"unmodelled_operands",
     "LLVM decodes source codes we do not model: 230-231, 235-239, 251, 252, 254 (src_* "
     "apertures, src_vccz, src_execz, src_lds_direct, ...), on GFX11+ SRC0 233/234/250 (VOP3 "
     "DPP8/DPP16 forms, a third dword), GFX10+ SRC0 235/251 and gfx1250 254 (more words), and "
     "125 on GFX9 (printed `null`, which LLVM's own assembler rejects there)",
     "the device harness cannot give these a defined value; we reject them and do not compare"},
    {"gfx9_asm_lit_without_dword",
     "llvm-mc-22's assembler accepts lit(...) on GFX9 VOP3 (pk_u8 `v5, lit(0x3f800000), v2, v3` "
     "on gfx942) and emits SRC0 = 255 with no literal dword: "
     "[0x05,0x00,0xdd,0xd1,0xff,0x04,0x0e,0x04]; its own disassembler crashes on that word",
     "GFX9 VOP3 has no literal: our parser and encoder refuse it (an LLVM bug, reported)"},
    {"disasm_lit_modifier_spelling",
     "for a literal whose value is also an inline constant, LLVM's disassembler prints "
     "|lit(0x0)|, -lit(0x0), -|lit(0x0)|; its own assembler reads |lit(0x0)| as the inline "
     "constant |0| (a different word) and rejects -lit(0x0)",
     "we print abs(lit(0x0)), neg(lit(0x0)), neg(abs(lit(0x0))), which llvm-mc-22 assembles "
     "back to the same word"},
    {"disasm_comments_unaligned_pair",
     "on a target with aligned VGPR tuples (gfx90a, gfx942, gfx950, gfx1250) LLVM's disassembler "
     "prints an odd VGPR pair destination with a comment: `v[3:4]/*Invalid register, operand has "
     "'VReg_64_Align2' register class*/` (its assembler refuses `v[3:4]`)",
     "silicon decodes the field; effect U: we decode it, list the refusal in "
     "DecodedVop3::llvm_refuses and print plain v[3:4]"},
    {"disasm_tuple_operands",
     "for the gfx950 FP6/BF6 decodes (a 6-dword tuple source, a 32-word destination) and "
     "interleaved encoders (two 16-dword tuple sources, a 6-word destination; an SGPR or "
     "constant code in either tuple source is printed with a comment or as an invalid "
     "immediate: `58/*Invalid immediate*/`, `ttmp[0:15]/*Invalid register ...*/`) "
     "llvm-mc-22's disassembler calls a word with NEG/ABS bits an invalid encoding, prints an "
     "SGPR code in the tuple source as a misaligned range of another length (code 67: "
     "`s[64:68]/*Invalid register, operand has 'VReg_192_Align2' register class*/`), and "
     "comments odd tuples with their own class names ('VReg_1024_Align2', 'VReg_192_Align2'); "
     "for gfx1250's decodes with an E8M0 scale register (v_cvt_scale_pk8_*: a VGPR pair or one "
     "VGPR of codes, an 8- or 4-word destination) the same, and an SGPR or constant code in "
     "the FP4 codes' one-VGPR source is an invalid encoding",
     "LLVM's assembler refuses all of these; silicon decodes the fields (effect U): we decode "
     "them, list the refusals in DecodedVop3::llvm_refuses and compare only words with an even "
     "VGPR tuple in both, no NEG/ABS and a VGPR, SGPR or constant scale"},
    {"asm_tuple_constant",
     "llvm-mc-22 -mcpu=gfx950 assembles an inline constant or a literal as the f32 pair source "
     "of the SR FP4 encoder (SrcRole::f32_x2, VOP3 0x23e: `v5, 1.0, v2, v3`) "
     "and emits a source code it prints back as an invalid immediate (`1.0` and `0` give code "
     "0, `lit(0x5)` code 5: [0x05,0x00,0x3e,0xd2,0x05,0x04,0x0e,0x04] printed `5/*Invalid "
     "immediate*/`); it refuses an SGPR pair or a lone VGPR there",
     "the operand is a VGPR pair (VReg_64_Align2): we list a non-VGPR pair among LLVM's "
     "refusals (LlvmRefusals) and compare no such line"},
    {"disasm_rejects_sdwa_bits",
     "for the GFX9 SDWA form of a VOP1 instruction LLVM's disassembler calls SRC0_NEG, SRC0_ABS "
     "and DST_SEL != DWORD an invalid encoding (its assembler accepts none of them there)",
     "silicon executes the word; effect U (docs/semantics.md §10.5): we decode it and print "
     "-v2 / |v2| / dst_sel:BYTE_0 dst_unused:... so the text is exact"},
    {"disasm_drops_sdwa_dst_unused",
     "with DST_SEL = DWORD LLVM's disassembler silently drops DST_UNUSED (prints nothing)",
     "the bits are in the word: we print dst_sel:DWORD dst_unused:UNUSED_SEXT so the text is "
     "exact (with a whole-dword destination no bit is unused: no effect expected)"},
    {"disasm_crashes_sdwa_dst_sel7",
     "llvm-mc-22 crashes (segfault) disassembling the gfx950 PRNG step's SDWA word with DST_SEL = "
     "7, e.g. [0xf9,0xb0,0x02,0x7e,0x02,0x17,0x06,0x00]",
     "we decode it and print dst_sel:SEL_7; it is never fed to llvm-mc"},
    {"disasm_rejects_sdwa_omod",
     "for the SDWA form of a row with a destination select (the PRNG step, vop3.h SdwaHasDstSel) "
     "LLVM's disassembler calls OMOD != 0 an invalid encoding (gfx950 "
     "[0xf9,0xb0,0x02,0x7e,0x02,0x56,0x06,0x00]; its assembler has no mul:2 there)",
     "silicon executes the word: we decode it and print mul:2 / mul:4 / div:2 so the text is "
     "exact"},
    {"disasm_prints_sdwa_unused3_as_pad",
     "for the SDWA form of a row with a destination select LLVM's disassembler prints "
     "DST_UNUSED = 3 as dst_unused:UNUSED_PAD (gfx950 [0xf9,0xb0,0x02,0x7e,0x02,0x1e,0x06,0x00])",
     "the bits are in the word: we print dst_unused:UNUSED_3 so the text is exact and parses "
     "back; the model reads 3 as PAD (docs/semantics.md §12.1)"},
    {"disasm_ignores_sdwa_reserved_bits",
     "LLVM's disassembler ignores the reserved SDWA dword bits 22 and 30 (prints the word as "
     "if they were 0)",
     "our instruction has no field for them, so a text could not show them: our decoder rejects "
     "the word (DecodeVop3), as LLVM does for the SRC1 bits 24-29 and 31"},
    {"disasm_crashes_sdwa_sel7",
     "llvm-mc-22 crashes (segfault) disassembling a GFX9 SDWA word with SRC0_SEL = 7, e.g. "
     "gfx942 [0xf9,0xa8,0x02,0x7e,0x02,0x06,0x07,0x00]",
     "we decode it and print src0_sel:SEL_7; it is never fed to llvm-mc"},
    {"disasm_crashes_sdwa_literal",
     "llvm-mc-22 crashes (segfault) disassembling a GFX9 SDWA word whose scalar SRC0 is 255, e.g. "
     "gfx942 [0xf9,0xa8,0x02,0x7e,0xff,0x06,0x81,0x00]",
     "SDWA takes no literal: we reject the word; it is never fed to llvm-mc"},
    {"gfx9_literal_crash",
     "llvm-mc-22 crashes (stack dump in Twine::printOneChild) disassembling a GFX9 VOP3 word with "
     "a source code 255, e.g. gfx942 [0x05,0x00,0xdd,0xd1,0xff,0x04,0x0e,0x04]",
     "GFX9 VOP3 has no literal: we reject the word; it is never fed to llvm-mc"},
};

// Source codes LLVM's disassembler rejects at `pos` (observed; 233/234/250 are VOP3-DPP on
// GFX11+ SRC0).
bool LlvmRejectsCode(Family family, int pos, uint16_t code) {
  if ((code >= 209 && code <= 229) || code == 232 || code == 249) return true;
  const bool gfx11_plus = family != Family::gfx9 && family != Family::gfx10;
  if (code == 233 || code == 234 || code == 250) return pos != 0 || !gfx11_plus;
  return false;
}

}  // namespace

std::span<const LlvmDifference> KnownLlvmDifferences() { return kDifferences; }

namespace {

// disasm_truncates_literal16: a 16-bit SRC0's literal dword above 0xffff prints as LLVM prints
// it: its low 16 bits, unless those are an inline constant (then lit(<dword>), as ours).
// disasm_rejects_gfx12_sr_bits: NEG[2] / ABS[2] (and OPSEL[1:0] where byte_sel is the only
// select) on the gfx12/gfx1250 SR encoders.
// The OPSEL bits LLVM's disassembler calls an invalid encoding where it drops NEG[0] and ABS[0]
// (disasm_drops_src16_neg_abs): OPSEL[2:1] beside op_sel:[a,d], OPSEL[2] beside op_sel:[x,d]
// byte_sel:N.
bool RejectsDrops0OpSel(OpSelSyntax syntax, uint8_t opsel) {
  return (syntax == OpSelSyntax::op_sel_word_src && (opsel & 0b0110) != 0) ||
         (syntax == OpSelSyntax::op_sel_dst_byte_sel && (opsel & 0b0100) != 0);
}

bool RejectsGfx12SrBits(OpSelSyntax syntax, const Modifiers& m) {
  const bool src2_mods = (m.neg & 4) != 0 || (m.abs & 4) != 0;
  return (syntax == OpSelSyntax::byte_sel && ((m.opsel & 3) != 0 || src2_mods)) ||
         (syntax == OpSelSyntax::op_sel_byte_sel && src2_mods);
}

void TruncateLiteral16(Vop3Instr* in, LlvmDisasmExpectation* e) {
  if (in->src[0] != kLiteralCode || !in->literal.has_value() || *in->literal <= 0xffffu) return;
  const uint32_t low = *in->literal & 0xffffu;
  // On a Src0Int16 row LLVM prints the whole dword as lit(...) when it is a 32-bit inline
  // constant's value (0x3f800000), else its low half plainly, an inline value too (`0x40` for
  // 0xfb170040; RespellInt16).
  if (Src0Int16(in->instr) ? InlineConstantCode(*in->literal).has_value()
                           : InlineConstantCode(low, 16).has_value()) {
    return;
  }
  if (in->src[1] == kLiteralCode || in->src[2] == kLiteralCode) {
    // One dword printed two ways (our text has one literal): compared by nobody.
    e->comparable = false;
    e->applied.push_back("disasm_splits_literal16");
    return;
  }
  in->literal = low;
  e->applied.push_back("disasm_truncates_literal16");
}

// A Src0Int16 row's text as LLVM prints it: both forms without their suffix
// (disasm_drops_vop1_suffix), a truncated literal plainly (disasm_truncates_literal16), an
// inline float code in SRC0 as its f16 pattern
// (disasm_prints_int16_inline_float_hex). The row's one source takes no modifier LLVM prints.
void RespellInt16(const Vop3Instr& in, LlvmDisasmExpectation* e) {
  if (!Src0Int16(in.instr)) return;
  for (absl::string_view form : {"_e64 ", "_e32 "}) {
    const std::string suffixed = absl::StrCat(InstrName(in.instr), form);
    if (!absl::StartsWith(e->text, suffixed)) continue;
    e->text = absl::StrCat(InstrName(in.instr), " ", e->text.substr(suffixed.size()));
    e->applied.push_back("disasm_drops_vop1_suffix");
  }
  // A literal dword truncated to an inline value: printed plainly (`0x40`).
  if (std::find(e->applied.begin(), e->applied.end(), "disasm_truncates_literal16") !=
      e->applied.end()) {
    static const std::regex kLit(R"(lit\((0x[0-9a-f]+)\))");
    e->text = std::regex_replace(e->text, kLit, "$1");
  }
  if (in.src[0] < 240 || in.src[0] > 248) return;
  absl::StatusOr<OperandInfo> info = DescribeOperand(Family::gfx1250, in.src[0], false, 16);
  const std::string ours = absl::StrCat(", ", info->name);
  if (const size_t at = e->text.find(ours); at != std::string::npos) {
    e->text.replace(at, ours.size(), absl::StrFormat(", 0x%x", info->value));
    e->applied.push_back("disasm_prints_int16_inline_float_hex");
  }
}

// LLVM's text of a Src0NoInline row whose SRC0 is a constant (disasm_prints_no_inline_constant_value):
// the constant's 32-bit value, in decimal when it is an integer inline constant's and in hex
// otherwise, `neg(x)`, `|x|` or `-|x|` around it; nullopt for a register.
std::optional<std::string> NoInlineText(const TargetTraits& target, const Vop3Instr& in) {
  if (!Src0NoInline(in.instr)) return std::nullopt;
  absl::StatusOr<OperandInfo> info = DescribeOperand(target.family, in.src[0]);
  if (!info.ok()) return std::nullopt;
  uint32_t value = 0;
  if (info->kind == OperandKind::literal && in.literal.has_value()) {
    value = *in.literal;
  } else if (info->kind == OperandKind::inline_int || info->kind == OperandKind::inline_float) {
    value = info->value;
  } else {
    return std::nullopt;
  }
  const int32_t s = static_cast<int32_t>(value);
  std::string x = s >= -16 && s <= 64 ? absl::StrCat(s) : absl::StrFormat("0x%x", value);
  const bool neg = (in.mods.neg & 1) != 0, abs = (in.mods.abs & 1) != 0;
  if (abs) x = absl::StrCat(neg ? "-|" : "|", x, "|");
  else if (neg) x = absl::StrCat("neg(", x, ")");
  Vop3Instr reg = in;
  reg.src[0] = kFirstVgprCode;
  reg.mods.neg &= ~1u;
  reg.mods.abs &= ~1u;
  reg.literal.reset();
  std::string text = PrintVop3(target, reg);
  const size_t at = text.find(", v0");
  if (at == std::string::npos) return std::nullopt;
  return text.replace(at, 4, absl::StrCat(", ", x));
}

// A GFX9 SDWA word (tables.h kSdwaLayout), probed field by field with llvm-mc-22 on gfx942 and
// gfx950.
LlvmDisasmExpectation ExpectSdwa(const TargetTraits& target, absl::Span<const uint32_t> words,
                                 const DecodedVop3& fields) {
  LlvmDisasmExpectation e;
  Vop3Instr in = fields.vop3;
  const Family fam = target.family;
  const uint32_t sdwa = words[1];
  if (in.mods.src0_sel == 7) {
    e.comparable = false;
    e.applied.push_back("disasm_crashes_sdwa_sel7");
    return e;
  }
  if (in.src[0] == kLiteralCode) {
    e.comparable = false;
    e.applied.push_back("disasm_crashes_sdwa_literal");
    return e;
  }
  if (!DescribeOperand(fam, in.src[0]).ok()) {
    if (LlvmRejectsCode(fam, 0, in.src[0])) return e;  // invalid, as ours
    e.comparable = false;
    e.applied.push_back("unmodelled_operands");
    return e;
  }
  // From here LLVM answers as our validating decoder does, but for the differences below.
  if (!DecodeVop3(target, words).ok()) {
    // Ours rejects the reserved bits 22 and 30, which LLVM ignores; anything else it rejects
    // (the SRC1 bits) LLVM must call invalid too.
    const std::vector<uint32_t> cleared = {words[0], sdwa & ~kSdwaReservedBits};
    if ((sdwa & kSdwaReservedBits) == 0 || !DecodeVop3(target, cleared).ok()) return e;
    e.applied.push_back("disasm_ignores_sdwa_reserved_bits");
  }
  const bool dst_sel_row = SdwaHasDstSel(in.instr);
  if (dst_sel_row && in.mods.dst_sel == 7) {
    e.comparable = false;
    e.applied.push_back("disasm_crashes_sdwa_dst_sel7");
    return e;
  }
  if (in.mods.neg != 0 || in.mods.abs != 0 || (!dst_sel_row && in.mods.dst_sel != kSdwaDword)) {
    e.applied.push_back("disasm_rejects_sdwa_bits");
    return e;
  }
  if (dst_sel_row && in.mods.omod != 0) {
    e.applied.push_back("disasm_rejects_sdwa_omod");
    return e;
  }
  if (dst_sel_row && in.mods.dst_unused == 3) {
    e.applied.push_back("disasm_prints_sdwa_unused3_as_pad");
    in.mods.dst_unused = 0;
  }
  if (!dst_sel_row && in.mods.dst_unused != 0) {
    e.applied.push_back("disasm_drops_sdwa_dst_unused");
    in.mods.dst_unused = 0;
  }
  e.valid = true;
  e.words_used = fields.words_used;
  e.text = PrintVop3(target, in);
  return e;
}

// A 32-bit VOP1 (e32) word: every field is LLVM's; a literal on every family.
LlvmDisasmExpectation ExpectE32(const TargetTraits& target, const DecodedVop3& fields) {
  LlvmDisasmExpectation e;
  Vop3Instr in = fields.vop3;
  const Family fam = target.family;
  if (!DescribeOperand(fam, in.src[0], /*vop1_e32=*/true).ok()) {
    if (LlvmRejectsCode(fam, 0, in.src[0])) return e;  // invalid
    e.comparable = false;
    e.applied.push_back("unmodelled_operands");
    return e;
  }
  const bool src16 = GetInstrInfo(in.instr).src_bits(fam, 0) == 16;
  if (src16) TruncateLiteral16(&in, &e);
  if (Dst16(in.instr) && in.vdst >= 128) {
    e.applied.push_back("disasm_rejects_e32_dst16_hi128");
    return e;
  }
  e.valid = true;
  e.words_used = fields.words_used;
  e.text = PrintVop3(target, in);
  RespellInt16(in, &e);
  if (src16 && in.src[0] >= kFirstVgprCode + 128) {
    e.text += "/*Invalid register, operand has 'VS_32_Lo128' register class*/";
    e.applied.push_back("disasm_comments_e32_src16_lo128");
  }
  return e;
}

// llvm-mc-22's spelling of a literal with modifiers (-|lit(...)|, |lit(...)|, -lit(...)) in
// place of ours (neg(abs(lit(...))) ...): known difference disasm_lit_modifier_spelling.
void RespellLiteralModifiers(LlvmDisasmExpectation* e) {
  static const std::regex kNegAbs(R"(neg\(abs\((lit\(0x[0-9a-f]+\))\)\))");
  static const std::regex kAbs(R"(abs\((lit\(0x[0-9a-f]+\))\))");
  static const std::regex kNeg(R"(neg\((lit\(0x[0-9a-f]+\))\))");
  std::string llvm = std::regex_replace(e->text, kNegAbs, "-|$1|");
  llvm = std::regex_replace(llvm, kAbs, "|$1|");
  llvm = std::regex_replace(llvm, kNeg, "-$1");
  if (llvm != e->text) {
    e->applied.push_back("disasm_lit_modifier_spelling");
    e->text = llvm;
  }
}

// NEG/ABS bits LLVM's disassembler drops silently (prints nothing): those of sources 1 and 2
// that the row takes no -x/|x| on (disasm_drops_src12_neg_abs), and source 0's on a VOP3-only
// row that takes none there (disasm_drops_src0_neg_abs; VOP1 promotions have their own entries).
void DropUnacceptedNegAbs(Instr instr, const AsmRules& rules, Vop3Instr* vop3,
                          LlvmDisasmExpectation* expectation) {
  Vop3Instr& in = *vop3;
  LlvmDisasmExpectation& e = *expectation;
  const uint8_t dropped = static_cast<uint8_t>(6 & ~rules.neg_abs_srcs);
  if ((in.mods.neg & dropped) != 0 || (in.mods.abs & dropped) != 0) {
    e.applied.push_back("disasm_drops_src12_neg_abs");
    in.mods.neg &= static_cast<uint8_t>(~dropped);
    in.mods.abs &= static_cast<uint8_t>(~dropped);
  }
  const uint8_t dropped0 =
      GetInstrInfo(instr).encoding == Encoding::vop3 && (rules.neg_abs_srcs & 1) == 0 ? 1 : 0;
  if (((in.mods.neg | in.mods.abs) & dropped0) != 0) {
    e.applied.push_back("disasm_drops_src0_neg_abs");
    in.mods.neg &= static_cast<uint8_t>(~dropped0);
    in.mods.abs &= static_cast<uint8_t>(~dropped0);
  }
}

// A tuple row's word llvm-mc-22 does not print comparably (known difference
// disasm_tuple_operands): NEG/ABS bits where LLVM takes none (the SR FP4 encoder's pair and
// scale take them), a source tuple that is not an even VGPR tuple (or runs past v255), an odd
// destination tuple; gfx1250's eight FP4 codes (SrcRole::fp4_x8, a one-dword source beside a
// destination tuple) in anything but a VGPR.
bool TupleNotComparable(const Vop3Instr& in) {
  const InstrInfo& row = GetInstrInfo(in.instr);
  const bool fp4_x8 = row.src[0] == SrcRole::fp4_x8;
  if (row.src_dwords(0) == 1 && !fp4_x8) return false;
  if (((in.mods.neg | in.mods.abs) & ~row.neg_abs_srcs) != 0) return true;
  if (DstWords(in.instr) > 1 && (in.vdst & 1) != 0) return true;
  if (fp4_x8 && in.src[0] < kFirstVgprCode) return true;
  for (int s = 0; s < 3; ++s) {
    if (row.src_dwords(s) > 1 &&
        (in.src[s] < kFirstVgprCode || ((in.src[s] - kFirstVgprCode) & 1) != 0 ||
         in.src[s] - kFirstVgprCode + row.src_dwords(s) > 256)) {
      return true;
    }
  }
  return false;
}

// The entry under which LLVM's disassembler calls the word's modifier bits an invalid encoding
// (OMOD, CLAMP, OPSEL and NEG/ABS bits its syntax cannot write), or empty.
absl::string_view RejectedModifierBits(const TargetTraits& target, const Vop3Instr& in, bool sr,
                                       bool one_source_vop3) {
  if (one_source_vop3 && (((in.mods.neg | in.mods.abs) & 6) != 0 || (in.mods.opsel & 6) != 0)) {
    return "disasm_rejects_one_source_bits";
  }
  if (in.mods.omod != 0 && !GetAsmRules(target, in.instr).omod) {
    return "disasm_rejects_omod";
  }
  if (sr && in.mods.clamp && !GetAsmRules(target, in.instr).clamp) {
    return "disasm_rejects_sr_clamp";
  }
  if (in.mods.clamp && GetInstrInfo(in.instr).src[2] == SrcRole::scale_f32 &&
      !GetAsmRules(target, in.instr).clamp) {
    return "disasm_rejects_scaled_encoder_clamp";
  }
  const AsmRules syntax = GetAsmRules(target, in.instr);
  if (RejectsGfx12SrBits(syntax.opsel, in.mods)) {
    return "disasm_rejects_gfx12_sr_bits";
  }
  const bool two_sources_no_opsel =
      syntax.opsel == OpSelSyntax::none && GetInstrInfo(in.instr).sources() == 2;
  if ((syntax.opsel == OpSelSyntax::op_sel_dst3 &&
       ((in.mods.opsel & 4) != 0 || (in.mods.neg & 4) != 0 || (in.mods.abs & 4) != 0)) ||
      (two_sources_no_opsel &&
       (((in.mods.opsel & 4) != 0 && GetInstrInfo(in.instr).output == OutputKind::bf16 &&
         GetInstrInfo(in.instr).src[0] == SrcRole::data_f32 && target.family == Family::gfx9) ||
        (in.mods.neg & 4) != 0 || (in.mods.abs & 4) != 0))) {
    return "disasm_rejects_src2_bits";
  }
  return {};
}

LlvmDisasmExpectation ExpectLlvmDisassemblyOfFields(const TargetTraits& target,
                                                    absl::Span<const uint32_t> words) {
  LlvmDisasmExpectation e;
  absl::StatusOr<DecodedVop3> fields = DecodeVop3Fields(target, words);
  if (!fields.ok()) {
    // Wrong ENC/opcode or too few words: another instruction, or nothing; not comparable
    // unless the caller keeps to our opcodes.
    e.comparable = false;
    return e;
  }
  Vop3Instr in = fields->vop3;
  const Family fam = target.family;
  const int n = NumSourcesRead(in.instr);
  const bool sr = n == 2;
  const bool vop1_e64 = GetInstrInfo(in.instr).encoding == Encoding::vop1 &&
                        in.form == InstrForm::e64;
  if (in.form == InstrForm::sdwa) return ExpectSdwa(target, words, *fields);
  if (in.form == InstrForm::e32) return ExpectE32(target, *fields);
  if (sr) {
    if (in.src[2] != 0) e.applied.push_back("disasm_ignores_sr_src2");
    in.src[2] = 0;
  }
  const bool one_source_vop3 = GetInstrInfo(in.instr).encoding == Encoding::vop3 && n == 1;
  if (vop1_e64 || one_source_vop3) {
    if (in.src[1] != 0 || in.src[2] != 0) e.applied.push_back("disasm_ignores_vop1_e64_src12");
    in.src[1] = in.src[2] = 0;
  }
  bool llvm_rejects = false;
  for (int i = 0; i < n; ++i) {
    if (fam == Family::gfx9 && in.src[i] == kLiteralCode) {
      e.comparable = false;
      e.applied.push_back("gfx9_literal_crash");
      return e;
    }
    if (DescribeOperand(fam, in.src[i]).ok()) continue;
    if (LlvmRejectsCode(fam, i, in.src[i])) {
      llvm_rejects = true;
    } else {
      e.comparable = false;
      e.applied.push_back("unmodelled_operands");
      return e;
    }
  }
  if (llvm_rejects) {
    e.valid = false;
    return e;
  }
  // Re-decode as LLVM sees it (SR SRC2 zeroed; its literal, if any, then belongs to SRC0/1).
  absl::StatusOr<std::vector<uint32_t>> seen = EncodeVop3(target, in);
  if (!seen.ok()) {
    e.valid = false;
    return e;
  }
  const int words_used = static_cast<int>(seen->size());
  const bool src16 = GetInstrInfo(in.instr).src_bits(fam, 0) == 16;
  const bool drops0 = src16 || GetAsmRules(target, in.instr).opsel == OpSelSyntax::op_sel_dst_byte_sel;
  if (vop1_e64 && drops0) {
    const AsmRules rules = GetAsmRules(target, in.instr);
    if (((in.mods.neg | in.mods.abs) & 6) != 0 || (in.mods.clamp && !rules.clamp) ||
        (in.mods.omod != 0 && !rules.omod) || RejectsDrops0OpSel(rules.opsel, in.mods.opsel)) {
      e.applied.push_back("disasm_drops_src16_neg_abs");  // the rejecting half of the entry
      return e;
    }
    if (((in.mods.neg | in.mods.abs) & 1) != 0) {
      e.applied.push_back("disasm_drops_src16_neg_abs");
      in.mods.neg = in.mods.abs = 0;
    }
  }
  if (src16) TruncateLiteral16(&in, &e);
  if (vop1_e64 && !drops0) {
    const AsmRules rules = GetAsmRules(target, in.instr);
    if (in.mods.neg != 0 || in.mods.abs != 0 || (in.mods.clamp && !rules.clamp) ||
        (in.mods.omod != 0 && !rules.omod) ||
        (rules.opsel == OpSelSyntax::byte_sel_src && (in.mods.opsel & 0b1100) != 0)) {
      e.applied.push_back("disasm_rejects_vop1_e64_bits");
      return e;
    }
  }
  if (absl::string_view id = RejectedModifierBits(target, in, sr, one_source_vop3); !id.empty()) {
    e.applied.push_back(id);
    return e;
  }
  absl::StatusOr<DecodedVop3> ours = DecodeVop3(target, *seen);
  if (!ours.ok()) e.applied.push_back("constant_bus_not_checked");
  const AsmRules rules = GetAsmRules(target, in.instr);
  DropUnacceptedNegAbs(in.instr, rules, &in, &e);
  if (rules.opsel == OpSelSyntax::none && in.mods.opsel != 0) {
    e.applied.push_back("disasm_drops_pk_u8_opsel");
    in.mods.opsel = 0;
  }
  e.valid = true;
  e.words_used = words_used;
  e.text = PrintVop3(target, in);
  RespellLiteralModifiers(&e);
  RespellInt16(in, &e);
  if (std::optional<std::string> llvm = NoInlineText(target, in); llvm.has_value()) {
    if (*llvm != e.text) e.applied.push_back("disasm_prints_no_inline_constant_value");
    e.text = *llvm;
  }
  return e;
}

}  // namespace

std::string LlvmAsmText(const TargetTraits& target, const Vop3Instr& in) {
  if (std::optional<std::string> llvm = NoInlineText(target, in); llvm.has_value()) return *llvm;
  const std::string text = PrintVop3(target, in);
  if (!Src0Int16(in.instr)) return text;
  for (absl::string_view form : {"_e64 ", "_e32 "}) {
    const std::string suffixed = absl::StrCat(InstrName(in.instr), form);
    if (absl::StartsWith(text, suffixed)) {
      return absl::StrCat(InstrName(in.instr), " ", text.substr(suffixed.size()));
    }
  }
  return text;
}

LlvmDisasmExpectation ExpectLlvmDisassembly(const TargetTraits& target,
                                            absl::Span<const uint32_t> words) {
  if (absl::StatusOr<DecodedVop3> f = DecodeVop3Fields(target, words); f.ok() && TupleNotComparable(f->vop3)) {
    LlvmDisasmExpectation e;
    e.comparable = false;
    e.applied.push_back("disasm_tuple_operands");
    return e;
  }
  LlvmDisasmExpectation e = ExpectLlvmDisassemblyOfFields(target, words);
  if (!e.comparable || !e.valid || !target.aligned_vgpr_tuples) return e;
  absl::StatusOr<DecodedVop3> fields = DecodeVop3Fields(target, words);
  if (!fields.ok() || DstWords(fields->vop3.instr) < 2 || (fields->vop3.vdst & 1) == 0) return e;
  const size_t pair_end = e.text.find(']');
  if (pair_end == std::string::npos) return e;
  e.text.insert(pair_end + 1,
                "/*Invalid register, operand has 'VReg_64_Align2' register class*/");
  e.applied.push_back("disasm_comments_unaligned_pair");
  return e;
}

}  // namespace lanediff
