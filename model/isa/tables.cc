#include "model/isa/tables.h"

namespace lanediff {
namespace {

// docs/semantics.md §2 (C): the same 64-bit field layout in every family; only ENC differs.
// dword0: VDST[7:0] ABS[10:8] OPSEL[14:11] CLAMP[15] OP[25:16] ENC[31:26]
// dword1: SRC0[40:32] SRC1[49:41] SRC2[58:50] OMOD[60:59] NEG[63:61]
constexpr Vop3Layout MakeLayout(Family family, uint32_t enc, int bus, bool literal) {
  return Vop3Layout{
      .family = family,
      .enc_value = enc,
      .vdst = {"VDST", 0, 0, 8},
      .abs = {"ABS", 0, 8, 3},
      .opsel = {"OPSEL", 0, 11, 4},
      .clamp = {"CLAMP", 0, 15, 1},
      .op = {"OP", 0, 16, 10},
      .enc = {"ENC", 0, 26, 6},
      .src0 = {"SRC0", 1, 0, 9},
      .src1 = {"SRC1", 1, 9, 9},
      .src2 = {"SRC2", 1, 18, 9},
      .omod = {"OMOD", 1, 27, 2},
      .neg = {"NEG", 1, 29, 3},
      .constant_bus_limit = bus,
      .literal_allowed = literal,
  };
}

// Constant bus: 1 on GFX9, 2 on GFX10+ (C: llvm-mc-22 "violates constant bus restrictions"
// for pk_u8 `v5, s1, s2, v3` on gfx908/gfx942, accepted on gfx1010+).
// Literal: GFX9 VOP3 has none ("literal operands are not supported"), GFX10+ has one dword.
constexpr Vop3Layout kLayouts[kNumFamilies] = {
    MakeLayout(Family::gfx9, 0b110100, 1, false),
    MakeLayout(Family::gfx10, 0b110101, 2, true),
    MakeLayout(Family::gfx11, 0b110101, 2, true),
    MakeLayout(Family::gfx12, 0b110101, 2, true),
    MakeLayout(Family::gfx1250, 0b110101, 2, true),
};

}  // namespace

const Vop3Layout& GetVop3Layout(Family family) { return kLayouts[static_cast<int>(family)]; }

absl::string_view SdwaSelName(uint32_t sel) {
  static constexpr absl::string_view kNames[8] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                                  "WORD_0", "WORD_1", "DWORD",  "SEL_7"};
  return kNames[sel & 7];
}

bool Src2Unused(Instr instr) { return GetInstrInfo(instr).sources() < 3; }

// docs/semantics.md §2, second table: the row says what the instruction accepts (each cell checked
// with llvm-mc-22 -show-encoding, model/instrs.def), the family's layout the literal and the
// constant bus. mul:2 / div:2 (OMOD): "not a valid operand" everywhere.
AsmRules GetAsmRules(const TargetTraits& target, Instr instr) {
  const Vop3Layout& layout = GetVop3Layout(target.family);
  const InstrInfo& info = GetInstrInfo(instr);
  AsmRules r;
  r.literal = layout.literal_allowed;
  r.constant_bus_limit = layout.constant_bus_limit;
  r.neg_abs_srcs = info.neg_abs_srcs;
  r.clamp = (info.clamp_families & FamilyBit(target.family)) != 0;
  r.omod = (info.omod_families & FamilyBit(target.family)) != 0;
  r.opsel = info.opsel_syntax[static_cast<int>(target.family)];
  r.has_src2_operand = info.src[2] != SrcRole::unused;
  return r;
}

}  // namespace lanediff
