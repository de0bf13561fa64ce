// VOP3 instruction words for the instructions lanediff models, on every target family:
// encoder, decoder, LLVM-syntax printer and parser. Tables: tables.h, operands.h.
//
//   LANEDIFF_ASSIGN_OR_RETURN(const TargetTraits* t, FindTarget("gfx942"));
//   Vop3Instr in{.instr = sr, .vdst = 1, .src = {258, 259, 0}};  // sr: an SR row (fp8)
//   in.mods.opsel = 0b1100;                                   // byte 3
//   LANEDIFF_ASSIGN_OR_RETURN(std::vector<uint32_t> words, EncodeVop3(*t, in));
//   PrintVop3(*t, in) == "<mnemonic> v1, v2, v3 op_sel:[0,0,1,1]"  // InstrName(sr)
//   LANEDIFF_ASSIGN_OR_RETURN(DecodedVop3 d, DecodeVop3(*t, words));   // d.instr == in
//   LANEDIFF_ASSIGN_OR_RETURN(Vop3Instr again, ParseAsm(*t, "<mnemonic> v1, v2, v3"));
//
// The encoder writes any field value that fits its width, including the bits LLVM's
// assembler refuses (NEG on src1, OMOD, stray OPSEL bits): the fuzzer must run those.
// LlvmRefusals() says which of them LLVM would refuse, and why.
#ifndef LANEDIFF_MODEL_ISA_VOP3_H_
#define LANEDIFF_MODEL_ISA_VOP3_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "model/ops/ops.h"  // Modifiers (header-only struct)
#include "model/targets/targets.h"

namespace lanediff {

// One VOP3 instruction, field by field. src[i] are 9-bit operand codes (operands.h):
// 256 + n for vN, n for sN, 128..208 / 240..248 inline constants, 255 literal (then
// `literal` holds the trailing dword). For the SR instructions src[2] is the SRC2 field,
// which LLVM always encodes as 0.
// Which encoding of the instruction a word is: the VOP3 word (for a VOP1 instruction its VOP3
// promotion, `_e64`), the 32-bit VOP1 word (`_e32`), or VOP1 with the GFX9 SDWA dword
// (`_sdwa`). InstrInfo::encoding says which exist (tables.h has the layouts).
enum class InstrForm : uint8_t { e64, e32, sdwa };
absl::string_view InstrFormName(InstrForm form);  // "e64", "e32", "sdwa"
// The form exists for `instr` on `target`: e64 wherever the instruction does, e32 for a VOP1
// instruction, SDWA for a VOP1 instruction on GFX9 (the only SDWA family lanediff targets).
bool HasForm(const TargetTraits& target, Instr instr, InstrForm form);
// The row's SDWA form has LLVM's destination operands dst_sel / dst_unused (printed always,
// dst_unused:UNUSED_PRESERVE by default) and takes sext(...): a VOP1 row whose source is
// SrcRole::data_b32 (the PRNG step, LLVM's generic VOP_I32_I32 SDWA profile). The fp8/bf8 ->
// f32 conversions' SDWA syntax has src0_sel and clamp/omod only (llvm-mc-22 -mcpu=gfx942:
// `..._sdwa v1, v2 dst_sel:WORD_1 ...` and `sext(v2)` "not a valid operand").
bool SdwaHasDstSel(Instr instr);
// DST_UNUSED when LLVM's text names none: UNUSED_PRESERVE (2) on a SdwaHasDstSel row, PAD (0,
// the field LLVM encodes) elsewhere. Also the proto default (Encoding.dst_unused absent).
uint8_t SdwaDefaultDstUnused(Instr instr);

struct Vop3Instr {
  Instr instr = kAllInstrs.front();  // the first row until the caller names one
  uint8_t vdst = 0;  // VGPR number
  std::array<uint16_t, 3> src = {256, 256, 256};
  // e32: all default; SDWA: clamp, omod, neg/abs bit 0, src0_sel, and DST_SEL, DST_UNUSED and
  // SRC0_SEXT as encoded (LLVM accepts them on a row whose SDWA form has a destination select,
  // SdwaHasDstSel; on the fp8 conversions only DWORD, 0, 0, other values running as raw words).
  Modifiers mods;
  std::optional<uint32_t> literal;
  InstrForm form = InstrForm::e64;

  friend bool operator==(const Vop3Instr&, const Vop3Instr&) = default;
};

struct DecodedVop3 {
  Vop3Instr vop3;
  int words_used = 0;  // 2, or 3 with a literal
  // Every reason LLVM 22's assembler would refuse this encoding ("NEG[1] set: LLVM accepts
  // no neg modifier on src1", "OMOD 2 != 0: ..."); empty when llvm-mc can produce it.
  std::vector<std::string> llvm_refuses;
};

// 2 words, or 3 when a source is the literal (code 255) on a family that allows one.
// Errors only for what cannot be encoded: a field value wider than its field, an
// instruction the target lacks, a literal code without a literal value (or the reverse),
// a literal on GFX9.
absl::StatusOr<std::vector<uint32_t>> EncodeVop3(const TargetTraits& target,
                                                 const Vop3Instr& instr);

// Decodes the instruction at the start of `words`. Errors with the reason when the words
// are not a valid instance of a known instruction on `target`: wrong ENC bits, unknown
// opcode, unknown operand code, literal not allowed, literal dword missing, constant bus
// exceeded, too few words, an SDWA dword bit no VOP1 field owns (tables.h kSdwaSrc1Bits,
// kSdwaReservedBits). `allow_undefined` (--allow-undefined) accepts a word whose only
// fault is the constant bus (SpecViolations): each source still has a value to compute with.
absl::StatusOr<DecodedVop3> DecodeVop3(const TargetTraits& target,
                                       absl::Span<const uint32_t> words,
                                       bool allow_undefined = false);

// The fields of the instruction at the start of `words`, without checking operand codes,
// literal rules or the constant bus (checks only the word count, ENC and the opcode). For
// the simulator and for tools that must show a word DecodeVop3 rejects.
absl::StatusOr<DecodedVop3> DecodeVop3Fields(const TargetTraits& target,
                                             absl::Span<const uint32_t> words);

// Source operands an instruction reads (InstrInfo::sources): 3 for the f32 -> u8 byte packer,
// 2 for the SR instructions (their SRC2 field carries no data; LLVM encodes 0 there).
int NumSourcesRead(Instr instr);

// The documented ISA restrictions `instr` breaks on `target` (empty: none), from the family's
// row of tables.h: more distinct SGPR/literal reads than the constant-bus limit (1 on GFX9,
// 2 on GFX10+; docs/semantics.md §2), a literal (code 255) on a family whose VOP3 takes none
// (GFX9). What hardware does with such a word is undefined by the spec: the harness refuses
// to run it unless asked (--allow-undefined), and findings on it are labelled so.
std::vector<std::string> SpecViolations(const TargetTraits& target, const Vop3Instr& instr);

// The reasons LLVM 22's assembler would refuse `instr` on `target` (empty: accepted).
// Errors of EncodeVop3/DecodeVop3 are not repeated here.
std::vector<std::string> LlvmRefusals(const TargetTraits& target, const Vop3Instr& instr);

// LLVM syntax for `target`: "<mnemonic> v5, -|v1|, 0.5, s3 clamp" (the u8 packer),
// "<mnemonic> v1, v2, v3 op_sel:[0,0,1,0]" (an SR row on gfx942/gfx950),
// "<mnemonic> v1, v2, s3 byte_sel:2" (an SR row on gfx12/gfx1250). Fields LLVM cannot express are
// printed in the same style so the text stays exact and parses back: neg/abs on src1/src2
// (-v2, |v2|, neg(1)), OMOD as mul:2 / mul:4 / div:2, op_sel:[...] for stray OPSEL bits,
// a non-zero SRC2 of an SR instruction as a fourth operand.
std::string PrintVop3(const TargetTraits& target, const Vop3Instr& instr);

// Parses the syntax PrintVop3 produces (and the LLVM spellings of the same things:
// `-1.0` as the inline constant, 0x3f800000 folded to 1.0, lit(...) kept a literal,
// `src_scc`/`scc`, abs(...)/neg(...)). Errors quote the token at fault.
absl::StatusOr<Vop3Instr> ParseAsm(const TargetTraits& target, absl::string_view line);

// "[0x05,0x00,0xdd,0xd1,...]": the words' bytes as llvm-mc -show-encoding prints them.
std::string FormatEncodingBytes(absl::Span<const uint32_t> words);

// Parses "[0x05,0x00,...]" / "0x05,0x00,..." byte lists or "0xd1dd0005 0x000e0501" /
// "d1dd0005 000e0501" 32-bit words into words (bytes: little-endian, a multiple of 4).
absl::StatusOr<std::vector<uint32_t>> ParseEncodingText(absl::string_view text);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_VOP3_H_
