#include "model/isa/tables.h"

namespace lanediff {
namespace {

// SEMANTICS.md §2 (C): the same 64-bit field layout in every family; only ENC differs.
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
// for `v_cvt_pk_u8_f32 v5, s1, s2, v3` on gfx908/gfx942, accepted on gfx1010+).
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

bool Src2Unused(Instr instr) { return GetInstrInfo(instr).sources < 3; }

// SEMANTICS.md §2, second table, each cell checked with llvm-mc-22 -show-encoding:
//   pk_u8: src0 neg/abs yes, clamp yes, op_sel "not a valid operand" on every target,
//          literal on GFX10+, two different SGPRs on GFX10+.
//   SR gfx942/gfx950: op_sel:[a,b,c,d] accepts all four bits; clamp "invalid operand".
//   SR gfx12: byte_sel:N; clamp "invalid operand". gfx1250: clamp accepted on fp8 only
//          (v_cvt_sr_bf8_f32 ... clamp: "invalid operand for instruction").
//   mul:2 / div:2 (OMOD) and -v2 on src1/src2: "not a valid operand" everywhere.
AsmRules GetAsmRules(const TargetTraits& target, Instr instr) {
  const Vop3Layout& layout = GetVop3Layout(target.family);
  AsmRules r;
  r.literal = layout.literal_allowed;
  r.constant_bus_limit = layout.constant_bus_limit;
  if (GetInstrInfo(instr).byte_select_src1) {  // v_cvt_pk_u8_f32
    r.clamp = true;
    r.byte_sel = ByteSelSyntax::none;
    r.has_src2_operand = true;
    return r;
  }
  r.has_src2_operand = false;
  if (target.family == Family::gfx9) {
    r.byte_sel = ByteSelSyntax::op_sel;
    r.clamp = false;
  } else {
    r.byte_sel = ByteSelSyntax::byte_sel;
    r.clamp = target.family == Family::gfx1250 && instr == Instr::v_cvt_sr_fp8_f32;
  }
  return r;
}

}  // namespace lanediff
