// VOP3 encoding tables as data (docs/semantics.md §2): the field layout of each family,
// its constant-bus limit and literal support, and what LLVM 22's assembler accepts per target
// and instruction. Opcodes are not here: they live in TargetTraits (model/targets/targets.h).
// One table serves the encoder, the decoder, the printer and the parser.
//
//   const Vop3Layout& l = GetVop3Layout(Family::gfx9);
//   uint32_t op = l.op.Get(words);               // OP[25:16]
//   AsmRules r = GetAsmRules(*target, instr);   // instr: an SR row
//   if (r.opsel == OpSelSyntax::byte_sel) ...     // gfx12/gfx1250 byte_sel:N
#ifndef LANEDIFF_MODEL_ISA_TABLES_H_
#define LANEDIFF_MODEL_ISA_TABLES_H_

#include <array>
#include <cstdint>
#include <initializer_list>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "model/targets/targets.h"

namespace lanediff {

// One bit field of a VOP3 instruction: `width` bits at bit `lo` of dword `word`.
struct Vop3Field {
  absl::string_view name;  // "OPSEL": spelled as AMD's layout tables spell it
  uint8_t word;            // 0 or 1
  uint8_t lo;              // lowest bit within that dword
  uint8_t width;

  constexpr uint32_t Max() const { return width == 32 ? 0xffffffffu : (1u << width) - 1; }
  uint32_t Get(absl::Span<const uint32_t> words) const {
    return (words[word] >> lo) & Max();
  }
  void Set(uint32_t value, absl::Span<uint32_t> words) const {
    words[word] = (words[word] & ~(Max() << lo)) | ((value & Max()) << lo);
  }
};

// The 64-bit VOP3 layout of one family, plus the family's operand rules.
struct Vop3Layout {
  Family family;
  uint32_t enc_value;  // ENC[31:26]: 0b110100 on GFX9, 0b110101 on GFX10+
  Vop3Field vdst, abs, opsel, clamp, op, enc;  // dword 0
  Vop3Field src0, src1, src2, omod, neg;       // dword 1
  // SGPR/special/literal reads allowed per instruction (docs/semantics.md §2; inline constants
  // and VGPRs are free; reading the same SGPR twice, or the same literal twice, counts once).
  int constant_bus_limit;
  bool literal_allowed;  // operand code 255 + a trailing dword (GFX10+ VOP3 only)

  // Every field in bit order, for tests and documentation.
  std::array<Vop3Field, 11> Fields() const {
    return {vdst, abs, opsel, clamp, op, enc, src0, src1, src2, omod, neg};
  }
};

const Vop3Layout& GetVop3Layout(Family family);

// The 32-bit VOP1 word (e32; the same in every family, C: llvm-mc-22
// the fp8 -> f32 conversion `_e32 v1, v2` = [0x02,0xa9,0x02,0x7e] on gfx942):
// SRC0[8:0] OP[16:9] VDST[24:17] ENC[31:25] = 0b0111111; SRC0 = 255 adds a literal dword,
// 249 (0xF9) on GFX9 a second dword in the SDWA layout below, 250 (0xFA) a DPP dword (not
// modelled).
struct Vop1Layout {
  Vop3Field src0, op, vdst, enc;
  uint32_t enc_value;
  uint16_t sdwa_code;  // SRC0 = 249: the SDWA form
  uint16_t dpp_code;   // SRC0 = 250: the DPP form
};
inline constexpr Vop1Layout kVop1Layout = {
    .src0 = {"SRC0", 0, 0, 9},
    .op = {"OP", 0, 9, 8},
    .vdst = {"VDST", 0, 17, 8},
    .enc = {"ENC", 0, 25, 7},
    .enc_value = 0b0111111,
    .sdwa_code = 249,
    .dpp_code = 250,
};

// The GFX9 SDWA dword of a VOP1 instruction (word 1; C: llvm-mc-22 on gfx942,
// `<fp8 -> f32>_sdwa v1, s2 clamp mul:2 src0_sel:BYTE_1` sets bits 13, 14, 16 and 23):
// SRC0[7:0] DST_SEL[10:8] DST_UNUSED[12:11] CLAMP[13] OMOD[15:14] SRC0_SEL[18:16]
// SRC0_SEXT[19] SRC0_NEG[20] SRC0_ABS[21] S0[23] (1: SRC0 is a scalar operand code).
// Bits 22 and 30 are reserved; bits 24-29 and 31 are SRC1_SEL, SRC1_SEXT, SRC1_NEG, SRC1_ABS
// and S1 of a two-source (VOP2/VOPC) SDWA word: a VOP1 word owns none of them (OwnedMask).
struct SdwaLayout {
  Vop3Field src0, dst_sel, dst_unused, clamp, omod, src0_sel, src0_sext, src0_neg, src0_abs, s0;

  // The SDWA dword's bits the fields above own (0x00bfffff).
  constexpr uint32_t OwnedMask() const {
    uint32_t m = 0;
    for (const Vop3Field& f :
         {src0, dst_sel, dst_unused, clamp, omod, src0_sel, src0_sext, src0_neg, src0_abs, s0}) {
      m |= f.Max() << f.lo;
    }
    return m;
  }
};
inline constexpr SdwaLayout kSdwaLayout = {
    .src0 = {"SRC0", 1, 0, 8},
    .dst_sel = {"DST_SEL", 1, 8, 3},
    .dst_unused = {"DST_UNUSED", 1, 11, 2},
    .clamp = {"CLAMP", 1, 13, 1},
    .omod = {"OMOD", 1, 14, 2},
    .src0_sel = {"SRC0_SEL", 1, 16, 3},
    .src0_sext = {"SRC0_SEXT", 1, 19, 1},
    .src0_neg = {"SRC0_NEG", 1, 20, 1},
    .src0_abs = {"SRC0_ABS", 1, 21, 1},
    .s0 = {"S0", 1, 23, 1},
};
static_assert(kSdwaLayout.OwnedMask() == 0x00bfffffu, "SDWA VOP1 fields: bits 0-21 and 23");
// The SRC1 fields of a two-source SDWA word (bits 24-29, 31; LLVM 22's disassembler calls a VOP1
// word with any of them set invalid) and the reserved bits 22 and 30 (LLVM ignores them).
inline constexpr uint32_t kSdwaSrc1Bits = 0xbf000000u;
inline constexpr uint32_t kSdwaReservedBits = 0x40400000u;
static_assert((kSdwaLayout.OwnedMask() | kSdwaSrc1Bits | kSdwaReservedBits) == 0xffffffffu &&
              (kSdwaLayout.OwnedMask() & (kSdwaSrc1Bits | kSdwaReservedBits)) == 0 &&
              (kSdwaSrc1Bits & kSdwaReservedBits) == 0);
// SDWA select codes (SRC0_SEL, DST_SEL): BYTE_0..BYTE_3 = 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6.
inline constexpr uint8_t kSdwaDword = 6;
absl::string_view SdwaSelName(uint32_t sel);  // "BYTE_1"; "SEL_7" for the unnamed code 7

// What LLVM 22's assembler accepts for one instruction on one target (docs/semantics.md §2,
// second table): the instruction's row (model/instrs.def) and the family's layout, read
// together so the encoder, printer, parser and LLVM-refusal checks share one answer.
struct AsmRules {
  uint8_t neg_abs_srcs = 0b001;  // bit i: -x, |x| accepted on source i
  bool clamp = false;
  bool omod = false;             // mul:2 / mul:4 / div:2 accepted (InstrInfo::omod_families)
  bool literal = false;
  int constant_bus_limit = 1;  // 2: two different SGPRs (or SGPR + literal) accepted
  OpSelSyntax opsel = OpSelSyntax::none;
  // false when SRC2 carries no data: the syntax has two sources and LLVM encodes SRC2 = 0.
  bool has_src2_operand = true;
};

AsmRules GetAsmRules(const TargetTraits& target, Instr instr);

// The instruction reads no SRC2 (the field carries no data; LLVM encodes 0 there):
// InstrInfo::sources (model/targets/targets.h) is 2.
bool Src2Unused(Instr instr);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_TABLES_H_
