// Every gfx target lanediff knows, as data: family, wave sizes, 8-bit float formats and the
// opcode of each instruction (docs/semantics.md §1, §4).
//
// Semantics read these fields; nothing outside this file tests a target's name.
//
//   LANEDIFF_ASSIGN_OR_RETURN(const TargetTraits* t, FindTarget("gfx942"));
//   if (!t->Has(instr)) ...
//   GetFp8Format(t->fp8).max_finite
#ifndef LANEDIFF_MODEL_TARGETS_TARGETS_H_
#define LANEDIFF_MODEL_TARGETS_TARGETS_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "model/base/lanes.h"
#include "model/fp/fp8_format.h"

namespace lanediff {

// VOP3 encoding family (docs/semantics.md §2). gfx1250 shares GFX12's VOP3 layout but has its own
// row because its operand rules and modifiers differ.
enum class Family : uint8_t { gfx9, gfx10, gfx11, gfx12, gfx1250 };
inline constexpr int kNumFamilies = 5;
absl::string_view FamilyName(Family family);
using FamilySet = uint8_t;  // bit i: Family i
constexpr FamilySet FamilyBit(Family f) { return static_cast<FamilySet>(1u << static_cast<int>(f)); }
inline constexpr FamilySet kAllFamilies = (1u << kNumFamilies) - 1;

// The instructions the model knows, one per row of model/instrs.def, spelled as the mnemonic.
enum class Instr : uint8_t {
#define LANEDIFF_INSTR(mnemonic, proto_number, ...) mnemonic,
#include "model/instrs.def"
#undef LANEDIFF_INSTR
};
inline constexpr int kNumInstrs = 0
#define LANEDIFF_INSTR(mnemonic, proto_number, ...) +1
#include "model/instrs.def"
#undef LANEDIFF_INSTR
    ;
inline constexpr std::array<Instr, kNumInstrs> kAllInstrs = {
#define LANEDIFF_INSTR(mnemonic, proto_number, ...) Instr::mnemonic,
#include "model/instrs.def"
#undef LANEDIFF_INSTR
};

absl::string_view InstrName(Instr instr);

// --- The vocabulary of an instruction's row (model/instrs.def) ---

// How the instruction is encoded.
//   vop3: a VOP3-only instruction (InstrInfo::opcode is its VOP3 opcode).
//   vop1: a VOP1 instruction: InstrInfo::vop1_opcode is its 32-bit e32 opcode (also the SDWA
//         and DPP forms'), InstrInfo::opcode its VOP3 (e64) promotion's, which LLVM prints with
//         the `_e64` suffix (gfx9: 0x140 + the VOP1 opcode; GFX12/GFX1250: 0x180 + it).
enum class Encoding : uint8_t { vop3, vop1 };

// A target capability an instruction needs beside its family's opcode: LLVM's
// FeatureFP8ConversionInsts (fp8_conversion: gfx942, gfx950, gfx12, gfx1250) and
// FeatureFP8ConversionScaleInsts / FeatureBF8ConversionScaleInsts (fp8_cvt_scale: gfx950 only;
// llvm-mc-22 answers "instruction not supported on this GPU" for the scaled fp8 -> f32 decodes
// on gfx942, gfx1200 and gfx1250); gfx950_insts: the instructions gfx950 adds to GFX9 beside
// the scaled ones (LLVM's FeaturePrngInst, FeatureCvtPkF16F32Inst and FeatureBF16ConversionInsts:
// the PRNG step, the f32 -> f16/bf16 pair conversions and their stochastic-rounding forms;
// llvm-mc-22 answers "instruction not supported on this GPU" for them on gfx90a and gfx942).
// gfx1250 and gfx1251 have the PRNG step and the pair conversions too, under their own opcodes
// (the rows' Family::gfx1250 column; docs/semantics.md §13), so they have the feature; the
// single-f32 SR forms have no gfx1250 opcode (llvm-mc-22: "not supported on this GPU").
enum class TargetFeature : uint8_t { none, fp8_conversion, fp8_cvt_scale, gfx950_insts };

// What a source operand means to the instruction.
enum class SrcRole : uint8_t {
  unused,       // the field carries no data; LLVM's syntax omits it and encodes 0
  data_f32,     // an f32 value that is converted (ABS/NEG apply)
  byte_select,  // bits [1:0] select the destination byte
  sr_seed,      // the stochastic-rounding seed (its high bits; model/ops decides which)
  kept_bytes,   // the destination bits the instruction does not write come from here
  fp8_bytes,    // 8-bit floats, one per byte; the instruction's select picks the one converted
  // The block scale of the gfx950 scaled (MX) conversions: an f32 operand of which the
  // hypothesis mx_scale_read says what is read (the exponent field as an E8M0 byte, by
  // default); ABS/NEG are accepted by LLVM and change nothing under that reading.
  scale_f32,
  data_b32,     // a 32-bit integer read as is, no float modifiers (the PRNG step's input)
  // Two 16-bit floats in one 32-bit operand, element 0 in bits 15:0 and element 1 in bits
  // 31:16 (the gfx950 scaled conversions from f16 / bf16): IEEE binary16, or bfloat16. The
  // op reads one or both halves; the hypothesis mx_pk16_neg says where ABS/NEG apply.
  data_f16x2,
  data_bf16x2,
  // 32 six-bit float fields packed in a VGPR tuple of 6 dwords (192 bits; field i at bits
  // 6i+5:6i, AMD's CDNA4 pseudocode for V_CVT_SCALEF32_PK32_*): the gfx950 FP6/BF6 decodes'
  // S0. LLVM 22 takes only an even-aligned VGPR tuple here (VReg_192_Align2: `v[3:8]`, `s[4:9]`
  // and inline constants are "invalid operand for instruction"), no neg/abs.
  fp6_x32,
  // 16 f32 in a VGPR tuple of 16 dwords (element i in dword i): the gfx950 interleaved FP6/BF6
  // encoders' S0 and S1 (V_CVT_SCALEF32_2XPK16_*). LLVM 22 takes only an even-aligned VGPR
  // tuple here (`v[5:20]`, `s[4:19]` "invalid operand for instruction"), no neg/abs.
  f32_x16,
  // 32 packed 16-bit floats in a VGPR tuple of 16 dwords: element 2k in bits 15:0 of dword k,
  // element 2k+1 in bits 31:16 (AMD's CDNA4 pseudocode for V_CVT_SCALEF32_PK32_*_F16 /
  // _BF16 reads S0[pass * 16 + 15 : pass * 16]; LLVM's intrinsic takes <32 x half> /
  // <32 x bfloat>, element j at bits 16j+15:16j). IEEE binary16 or bfloat16 by the role, each
  // dword read as data_f16x2 / data_bf16x2 (Packed16Pair). LLVM 22 takes only an even-aligned
  // VGPR tuple here, no neg/abs.
  f16x2_x16,
  bf16x2_x16,
  // 16 packed 16-bit floats in a VGPR tuple of 8 dwords, laid out as f16x2_x16 (element 2k in
  // bits 15:0 of dword k): gfx1250's FP6/BF6 encoders' S0 (V_CVT_SCALEF32_PK16_*_F16 / _BF16;
  // LLVM's intrinsic takes <16 x half> / <16 x bfloat>). LLVM 22 takes only an even-aligned
  // VGPR tuple here (`v[21:28]`, `s[20:27]` refused), no neg/abs.
  f16x2_x8,
  bf16x2_x8,
  // Two f32 in an even-aligned VGPR pair (element i in dword i): the gfx950 SR FP4 encoder's S0
  // (V_CVT_SCALEF32_SR_PK_FP4_F32). LLVM 22 takes `v[2:3]` with neg/abs (`-v[2:3]`: NEG bit 0),
  // not `v[3:4]` or `s[2:3]`.
  f32_x2,
  // 32 f32 in a VGPR tuple of 32 dwords (element i in dword i): the gfx950 SR FP6/BF6 encoders'
  // S0 (V_CVT_SCALEF32_SR_PK32_*_F32). LLVM 22 takes only an even-aligned VGPR tuple here
  // (`v[11:42]`, `s[10:41]` refused), no neg/abs.
  f32_x32,
  // gfx1250's scaled decodes of shape U (V_CVT_SCALE_PK8_*; docs/semantics.md §14.2): eight
  // OCP E4M3 / E5M2 codes in an even-aligned VGPR pair, element k at bits 8k+7:8k of the 64
  // bits (dword 0 the low one; LLVM's intrinsic takes <2 x i32>), the format per
  // InstrInfo::fp8_slot. LLVM 22 takes only `v[2n:2n+1]` here (`v[21:22]`, `s[20:21]`, `1.0`
  // "invalid operand for instruction"), no neg/abs.
  fp8_x8,
  // Eight OCP MX FP4 E2M1 codes in one VGPR, element k at bits 4k+3:4k (gfx1250's
  // V_CVT_SCALE_PK8_*_FP4; LLVM's intrinsic takes i32). LLVM 22 takes only a VGPR here (`s20`,
  // `1.0`, a literal "invalid operand for instruction"), no neg/abs.
  fp4_x8,
  // The scale of gfx1250's scaled decodes (shapes U and V; docs/semantics.md §14.1): a 32-bit
  // integer operand holding E8M0 bytes, of which the instruction's scale_sel (OpSelSyntax::
  // scale_sel, OPSEL[3:0]) picks one per the hypothesis mx_scale_sel. LLVM 22 takes a VGPR, an
  // SGPR, an inline constant or a 32-bit literal here, no neg/abs (`-s2` "not a valid operand").
  scale_e8m0_x4,
  // 8 f32 in a VGPR tuple of 8 dwords (element i in dword i): gfx1250's RNE 8-wide scaled
  // encoders' S0 (V_CVT_SCALEF32_PK8_{FP8,BF8,FP4}_F32). LLVM 22 takes only an even-aligned
  // VGPR tuple here (`v[21:28]`, `s[20:27]`, `1.0` "invalid operand for instruction"), no
  // neg/abs (`-v[20:27]` "not a valid operand.").
  f32_x8,
  // 8 packed 16-bit floats in a VGPR tuple of 4 dwords: element 2k in bits 15:0 of dword k,
  // 2k+1 in bits 31:16, IEEE binary16 or bfloat16 by the role, each dword read as data_f16x2 /
  // data_bf16x2 (gfx1250's V_CVT_SCALEF32_PK8_*_{F16,BF16}). LLVM 22 takes only an
  // even-aligned VGPR tuple here (`v[21:24]`, `s[20:23]` refused), no neg/abs.
  f16x2_x4,
  bf16x2_x4,
  // 16 six-bit float fields packed in a VGPR tuple of 3 dwords (96 bits): gfx1250's scaled
  // decodes of shape V (V_CVT_SCALE_PK16_*_{FP6,BF6}; docs/semantics.md §14.6; LLVM's
  // intrinsic takes <3 x i32>), OCP MX FP6 E2M3 / BF6 E3M2 per InstrInfo::fp8_slot. Where
  // element i sits in the 96 bits is the hypothesis mx_pk16_fp6_order (by default field i at
  // bits 6i+5:6i, fields 5 and 10 straddling dwords, as the 6-dword fp6_x32). LLVM 22 takes
  // only an even-aligned VGPR tuple here (`v[21:23]`, `s[20:22]` "invalid operand for
  // instruction"), no neg/abs.
  fp6_x16,
};

// A tuple of packed 16-bit floats: 16 dwords (SrcRole::f16x2_x16 / bf16x2_x16), 8
// (f16x2_x8 / bf16x2_x8) or 4 (f16x2_x4 / bf16x2_x4).
constexpr bool IsPacked16Tuple(SrcRole role) {
  return role == SrcRole::f16x2_x16 || role == SrcRole::bf16x2_x16 ||
         role == SrcRole::f16x2_x8 || role == SrcRole::bf16x2_x8 ||
         role == SrcRole::f16x2_x4 || role == SrcRole::bf16x2_x4;
}

// A source of packed 16-bit floats, two per dword: one dword (SrcRole::data_f16x2 /
// data_bf16x2) or a tuple of them (IsPacked16Tuple; its dword 0 holds elements 0, 1).
constexpr bool IsPacked16(SrcRole role) {
  return role == SrcRole::data_f16x2 || role == SrcRole::data_bf16x2 || IsPacked16Tuple(role);
}
// The role of one dword of a packed 16-bit source: data_f16x2 or data_bf16x2 (a one-dword role
// is its own; anything else: unused).
constexpr SrcRole Packed16Pair(SrcRole role) {
  return role == SrcRole::data_f16x2 || role == SrcRole::f16x2_x16 ||
                 role == SrcRole::f16x2_x8 || role == SrcRole::f16x2_x4
             ? SrcRole::data_f16x2
         : role == SrcRole::data_bf16x2 || role == SrcRole::bf16x2_x16 ||
                 role == SrcRole::bf16x2_x8 || role == SrcRole::bf16x2_x4
             ? SrcRole::data_bf16x2
             : SrcRole::unused;
}
// A packed 16-bit source of IEEE binary16 (not bfloat16) elements.
constexpr bool IsPackedF16(SrcRole role) { return Packed16Pair(role) == SrcRole::data_f16x2; }

// The dwords a source of this role reads per lane: one 32-bit operand, or the VGPR tuple of a
// packed role (fp6_x32: 6; fp6_x16: 3; f32_x2, fp8_x8: 2; f16x2_x4, bf16x2_x4: 4; f32_x8,
// f16x2_x8, bf16x2_x8: 8; f32_x16, f16x2_x16, bf16x2_x16: 16; f32_x32: 32). A source of more
// than one dword is the tuple v[r:r+N-1].
constexpr int SrcDwords(SrcRole role) {
  switch (role) {
    case SrcRole::fp6_x32: return 6;
    case SrcRole::fp6_x16: return 3;
    case SrcRole::f32_x2:
    case SrcRole::fp8_x8: return 2;
    case SrcRole::f16x2_x4:
    case SrcRole::bf16x2_x4: return 4;
    case SrcRole::f32_x8:
    case SrcRole::f16x2_x8:
    case SrcRole::bf16x2_x8: return 8;
    case SrcRole::f32_x16:
    case SrcRole::f16x2_x16:
    case SrcRole::bf16x2_x16: return 16;
    case SrcRole::f32_x32: return 32;
    default: return 1;
  }
}

// The bits of one element of a source of this role, the unit `lanediff sweep --element` walks
// and the input class reads (model/ops/input_class.h ClassifyLane): a six-bit field of a packed
// FP6/BF6 tuple (fp6_x32: 32 of them, element k at bits 6k+5:6k; fp6_x16: 16 in 3 dwords), else
// one dword (a 32-bit operand, dword k of a tuple of dword elements such as f32_x16, or of a
// tuple of packed 16-bit pairs such as f16x2_x16, whose classifier reads a pair as it reads a
// data_f16x2 source).
constexpr int SrcElementBits(SrcRole role) {
  return role == SrcRole::fp6_x32 || role == SrcRole::fp6_x16 ? 6 : 32;
}

// Which bits of the destination a lane writes, and what selects them.
enum class DstWrite : uint8_t {
  byte_at_src1,       // byte S1[1:0]
  byte_at_opsel_3_2,  // byte OPSEL[3:2]
  half_at_opsel_3,    // 16-bit half OPSEL[3]: {element(S0) low byte, element(S1) high byte},
                      // or one f16 (OutputKind::f16)
  dword,              // all 32 bits of every destination word (an f32 result; with dst_bits
                      // 64 both words of the VGPR pair)
};

// Where the destination bits the lane does not write come from.
enum class KeptFrom : uint8_t { src2, vdst_old };

// How LLVM 22 spells the OPSEL field for this instruction on one family.
enum class OpSelSyntax : uint8_t {
  none,        // no op_sel: LLVM accepts none (OPSEL must be 0)
  op_sel_4,    // op_sel:[a,b,c,d] = OPSEL[0..3]
  op_sel_dst3, // two sources + destination: op_sel:[a,b,d] = OPSEL[0], OPSEL[1], OPSEL[3]
  byte_sel,    // byte_sel:N = OPSEL[3:2] (OPSEL[1:0] not expressible)
  byte_sel_src,  // byte_sel:N = 2*OPSEL[0] + OPSEL[1]: the source byte (fp8 -> f32 VOP3)
  op_sel_word_src,  // op_sel:[a,d] = OPSEL[0] (the source word: 1 = high), OPSEL[3] (packed
                    // fp8 -> f32 VOP3 on GFX12/GFX1250; llvm-mc-22 op_sel:[0,1] sets bit 14)
  op_sel_byte_sel,  // op_sel:[a,b,c] = OPSEL[0], OPSEL[1] (c and a fourth element dropped) then
                    // byte_sel:N = OPSEL[3:2], in that order only (gfx1250's SR encoders from
                    // f16: llvm-mc-22 `op_sel:[1,1,0] byte_sel:3` sets bits 11-14)
  op_sel_dst_byte_sel,  // op_sel:[x,d] = OPSEL[3] (x dropped) then byte_sel:N = 2*OPSEL[0] +
                        // OPSEL[1], the source byte, in that order only (gfx1250's one-byte
                        // fp8 -> f16 decodes: llvm-mc-22 `op_sel:[0,1] byte_sel:3` sets bits
                        // 11, 12, 14; `byte_sel:2 op_sel:[0,1]` is "not a valid operand")
  scale_sel,  // scale_sel:N = OPSEL[3:0], N in 0..15 (gfx1250's scaled decodes with an E8M0
              // scale register, SrcRole::scale_e8m0_x4: llvm-mc-22 `scale_sel:7` sets bits
              // 11-13, `scale_sel:15` bits 11-14, `scale_sel:16` "invalid scale_sel value"); no
              // op_sel (`op_sel:[1,0,0]` "not a valid operand")
};

// What an element the lane writes is: compare, sweep and reports decode by this, and ask the
// op (OutputFormat, model/ops/ops.h) for the exact 8-bit float format under a context.
// f32: a 32-bit float converted from an 8-bit float (fp8 -> f32 conversions, scaled or not).
// f16 / bf16: 16-bit floats converted from 8-bit floats (the gfx950 scaled decodes): two per
// dword (DstWrite::dword), or one in the half OPSEL[3] selects (DstWrite::half_at_opsel_3).
// fp4: a byte of two OCP MX FP4 E2M1 codes (element 0 in the low nibble; Fp8Slot::fp4), from
// f32 sources (the gfx950 scaled FP4 encoder), or a whole dword of eight codes (element i at
// bits 4i+3:4i; gfx1250's 8-wide encoders, DstWrite::dword); compare, sweep and reports decode
// it by nibbles. fp8 / bf8 also: eight bytes in a VGPR pair (element i in byte i % 4 of word
// i / 4; gfx1250's 8-wide encoders, dst_bits 64).
// f16 / bf16 also: converted from f32 (gfx950's pair conversions: two per dword; their
// stochastic-rounding forms: one in the half OPSEL[3] selects).
// b32_int: a whole 32-bit integer word (the gfx950 PRNG step).
// fp6: a 6-dword tuple of 32 six-bit OCP MX FP6 E2M3 / BF6 E3M2 codes (Fp8Slot::fp6 / bf6),
// field i at bits 6i+5:6i, from two 16-f32 tuples interleaved (the gfx950 interleaved FP6/BF6
// encoders: S0's element i is field 2i, S1's field 2i+1) or from one tuple; or a 3-dword tuple
// of 16 such codes (gfx1250's V_CVT_SCALEF32_PK16_*: dst_bits 96, the element order the
// hypothesis mx_pk16_fp6_order names).
enum class OutputKind : uint8_t { u8_int, fp8, bf8, f32, f16, bf16, fp4, b32_int, fp6 };

// Which of the target's 8-bit float formats the instruction converts to or from: the op
// (model/ops/op_table.h) reads it from the row, so two rows that differ only in the format
// share one op file.
//   none:            no 8-bit float (an integer output)
//   fp8:             TargetTraits::fp8, whatever CLAMP says
//   fp8_clamp_ue5m3: TargetTraits::fp8; where TargetTraits::clamp_selects_ue5m3, CLAMP is the
//                    UE5M3 format bit (hypothesis gfx1250_clamp; model/ops/fp8_clamp.h)
//   bf8:             TargetTraits::bf8
//   fp4:             not an 8-bit float: OCP MX FP4 E2M1 (model/fp/mx_format.h), two codes per
//                    source byte, the low nibble element 0 (the gfx950 scaled FP4 rows; an
//                    op reading this slot never asks RowFp8Format)
//   fp6, bf6:        not 8-bit floats: OCP MX FP6 E2M3 / BF6 E3M2 (model/fp/mx_format.h), 32
//                    six-bit fields of a 6-dword tuple (SrcRole::fp6_x32; the gfx950 FP6/BF6
//                    decodes), 16 of a 3-dword tuple (SrcRole::fp6_x16; gfx1250's), or
//                    the fields of a destination tuple (OutputKind::fp6: the
//                    encoders); an op reading these slots
//                    never asks RowFp8Format
enum class Fp8Slot : uint8_t { none, fp8, fp8_clamp_ue5m3, bf8, fp4, fp6, bf6 };

inline constexpr int16_t kNoOpcode = -1;  // the family has no encoding of the instruction
// A VOP3-only instruction's vop1_opcode.
inline constexpr std::array<int16_t, kNumFamilies> kNoOpcodes = {kNoOpcode, kNoOpcode, kNoOpcode,
                                                                 kNoOpcode, kNoOpcode};

// One row of model/instrs.def: an instruction's shape. Filled by the row; `instr` and `name`
// come from the row's mnemonic, `op` from its op argument.
struct InstrInfo {
  Instr instr{};
  absl::string_view name;
  absl::string_view op;  // the op file model/ops/<op>.cc the row names
  int proto_number = 0;
  Encoding encoding = Encoding::vop3;
  std::array<int16_t, kNumFamilies> opcode{};  // per Family; kNoOpcode: none
  // Encoding::vop1: the 32-bit VOP1 opcode per Family (kNoOpcode for a VOP3-only instruction).
  std::array<int16_t, kNumFamilies> vop1_opcode = kNoOpcodes;
  TargetFeature requires_feature = TargetFeature::none;
  std::array<SrcRole, 3> src{};  // roles of SRC0..SRC2
  // Families where SRC0 is a 16-bit operand (LLVM 22's OPERAND_REG_IMM_FP16; the packed fp8 ->
  // f32 conversions on GFX12/GFX1250): its inline constants are 16-bit values (f16 patterns,
  // integers as 16 bits), a literal must fit 16 bits, and a number that is a 16-bit inline
  // constant assembles to the inline code (operands.h, docs/semantics.md §10.11). 0: every source
  // is a 32-bit operand everywhere.
  FamilySet src0_16bit = 0;
  // 32: one VGPR; 64: a VGPR pair VDST, VDST+1 (the packed fp8 -> f32 conversions); up to
  // 1024: a VGPR tuple of dst_bits / 32 registers (model/base/lanes.h LaneShape). Every
  // layer sizes a lane's result by dst_words(): the model writes, devices return, compare
  // checks and findings keep dst_words() words per lane, lane i's at [i*W, i*W + W).
  uint16_t dst_bits = 32;
  DstWrite write = DstWrite::byte_at_src1;
  KeptFrom kept = KeptFrom::vdst_old;
  uint8_t neg_abs_srcs = 0;  // bit i: LLVM accepts -x / |x| on source i
  uint8_t opsel_bits = 0;    // the OPSEL bits the instruction reads (others are don't-care)
  std::array<OpSelSyntax, kNumFamilies> opsel_syntax{};
  FamilySet clamp_families = 0;  // families where LLVM accepts `clamp`
  FamilySet omod_families = 0;   // families where LLVM accepts mul:2 / mul:4 / div:2
  OutputKind output = OutputKind::u8_int;
  Fp8Slot fp8_slot = Fp8Slot::none;

  // Source operands read: 1 + the index of the last source that is not `unused`.
  constexpr int sources() const {
    return src[2] != SrcRole::unused ? 3 : src[1] != SrcRole::unused ? 2 : 1;
  }
  // The width in bits (16 or 32) of source `i`'s operand on `family` (src0_16bit).
  constexpr int src_bits(Family family, int i) const {
    return i == 0 && (src0_16bit & FamilyBit(family)) != 0 ? 16 : 32;
  }
  // Destination words per lane (1, 2, or a tuple's registers).
  constexpr int dst_words() const { return dst_bits / 32; }
  // The dwords source `i` reads per lane: 1 for every role but a packed tuple's
  // (SrcDwords). A source of more than one dword is a VGPR tuple v[r:r+N-1].
  constexpr int src_dwords(int i) const { return SrcDwords(src[i]); }
  // What a lane moves through the harness: each source's dwords and the destination's words.
  constexpr LaneShape lane_shape() const {
    LaneShape s;
    for (int i = 0; i < 3; ++i) s.src_dwords[i] = static_cast<uint8_t>(src_dwords(i));
    s.dst_words = static_cast<uint8_t>(dst_words());
    return s;
  }
  // The output is an 8-bit float (fp8/bf8): compare, sweep and reports decode it by format.
  constexpr bool writes_float() const {
    return output == OutputKind::fp8 || output == OutputKind::bf8;
  }
};
const InstrInfo& GetInstrInfo(Instr instr);
// InstrInfo::dst_words of the instruction: destination words per lane.
inline int DstWords(Instr instr) { return GetInstrInfo(instr).dst_words(); }
// A VOP1 instruction writing one f16 into a 16-bit half (gfx1250's one-byte fp8 -> f16
// decodes): its e32 VDST is a 16-bit operand, v0..v127 to LLVM (VGPR_32_Lo128).
inline bool Dst16(Instr instr) {
  const InstrInfo& info = GetInstrInfo(instr);
  return info.encoding == Encoding::vop1 && info.output == OutputKind::f16 &&
         info.write == DstWrite::half_at_opsel_3;
}
// A VOP1 instruction whose 16-bit SRC0 LLVM 22 types as a 16-bit integer (gfx1250's packed
// fp8 -> f16 decodes: two 8-bit floats in, two f16 in the whole VDST out): an f16 pattern is no
// inline constant there (llvm-mc-22 -mcpu=gfx1250 assembles `0x3c00` to a literal, `1.0` to the
// inline code 0xf2, `64` to 0xc0), and LLVM prints the VOP3 form without its `_e64` suffix.
inline bool Src0Int16(Instr instr) {
  const InstrInfo& info = GetInstrInfo(instr);
  return info.encoding == Encoding::vop1 && info.src0_16bit != 0 &&
         info.output == OutputKind::f16 && info.write == DstWrite::dword;
}
// A VOP3 row whose SRC0 (two packed f16, a 32-bit operand) takes no inline constant in LLVM 22
// (gfx1250's packed f16 -> fp8/bf8 encoders, docs/semantics.md §13.8): llvm-mc-22 -mcpu=gfx1250
// assembles every constant to a literal (`1.0` the f16 pattern 0x00003c00, `-1` 0xffffffff,
// `0` the literal 0) and its disassembler prints an inline code's 32-bit value (0xf2 as
// `0x3f800000`) and a literal plainly (0x40 as `64`, 0x3f800000 as `0x3f800000`).
inline bool Src0NoInline(Instr instr) {
  const InstrInfo& info = GetInstrInfo(instr);
  return info.encoding == Encoding::vop3 && IsPackedF16(info.src[0]) &&
         info.write == DstWrite::half_at_opsel_3 &&
         info.opsel_syntax[static_cast<int>(Family::gfx1250)] == OpSelSyntax::op_sel_word_src;
}
// The most destination words any instruction writes per lane (a VGPR tuple of 32: the gfx950
// FP6/BF6 -> f32 decodes' v[N:N+31]).
inline constexpr int kMaxDstWords = 32;
// The most dwords any source reads per lane (SrcDwords).
inline constexpr int kMaxSrcDwords = 32;

// The destination bits a lane writes (a mask over the 32-bit VDST), for the instruction's
// OPSEL field and the lane's S1. The other bits come from InstrInfo::kept.
inline uint32_t WrittenMask(const InstrInfo& info, uint32_t opsel, uint32_t src1) {
  switch (info.write) {
    case DstWrite::byte_at_src1: return 0xffu << (8 * (src1 & 3));
    case DstWrite::byte_at_opsel_3_2: return 0xffu << (8 * ((opsel >> 2) & 3));
    case DstWrite::half_at_opsel_3: return 0xffffu << (16 * ((opsel >> 3) & 1));
    case DstWrite::dword: return 0xffffffffu;
  }
  return 0xffffffffu;
}
inline uint32_t WrittenMask(Instr instr, uint32_t opsel, uint32_t src1) {
  return WrittenMask(GetInstrInfo(instr), opsel, src1);
}
// The lowest byte (0..3) of the destination the lane writes: the byte of a one-byte write.
inline int WrittenByte(Instr instr, uint32_t opsel, uint32_t src1) {
  const uint32_t m = WrittenMask(instr, opsel, src1);
  return m & 0xffu ? 0 : m & 0xff00u ? 1 : m & 0xff0000u ? 2 : 3;
}
// The lane's old-bits word: the word InstrInfo::kept names.
inline uint32_t KeptWord(const InstrInfo& info, uint32_t src2, uint32_t vdst_old) {
  return info.kept == KeptFrom::src2 ? src2 : vdst_old;
}
absl::StatusOr<Instr> ParseInstr(absl::string_view name);  // error lists the valid names

struct TargetTraits {
  absl::string_view name;        // "gfx942": the LLVM processor name
  absl::string_view generation;  // "CDNA3"
  absl::string_view example_product;
  Family family;
  bool wave32;                  // supports wave32
  bool wave64;                  // supports wave64
  bool fp8_conversion;          // LLVM FeatureFP8ConversionInsts (TargetFeature::fp8_conversion)
  Fp8FormatId fp8;              // format of an OutputKind::fp8 element (CLAMP=0)
  Fp8FormatId bf8;              // format of an OutputKind::bf8 element
  // CLAMP=1 makes the stochastic-rounding fp8 conversion produce UE5M3 (gfx1250 B0;
  // hypothesis gfx1250_clamp).
  bool clamp_selects_ue5m3;
  absl::string_view evidence;
  // A VGPR pair (InstrInfo::dst_bits 64) must start at an even register: LLVM 22's
  // FeatureRequiresAlignedVGPRs (gfx90a, gfx942, gfx950, gfx1250; llvm-mc-22 refuses
  // `v_lshlrev_b64 v[3:4], 1, v[6:7]` on gfx90a/gfx942, and the packed fp8 -> f32 conversions'
  // `v[3:4]` on gfx942/gfx950/gfx1250 (fp8_family_forms.txt *_odd_vdst); accepts them on
  // gfx908/gfx10/gfx11/gfx12).
  bool aligned_vgpr_tuples = false;
  // LLVM 22's FeatureFP8ConversionScaleInsts and FeatureBF8ConversionScaleInsts (gfx950 only):
  // the scaled 8-bit float conversions (TargetFeature::fp8_cvt_scale).
  bool fp8_cvt_scale = false;
  // The instructions gfx950 adds to GFX9 beside the scaled ones (TargetFeature::gfx950_insts;
  // gfx950, gfx1250, gfx1251).
  bool gfx950_insts = false;

  bool HasFeature(TargetFeature f) const {
    return f == TargetFeature::none || (f == TargetFeature::fp8_conversion && fp8_conversion) ||
           (f == TargetFeature::fp8_cvt_scale && fp8_cvt_scale) ||
           (f == TargetFeature::gfx950_insts && gfx950_insts);
  }
  // The instruction exists here: its row has an opcode for this family and the target has
  // the feature the row requires.
  bool Has(Instr instr) const {
    const InstrInfo& i = GetInstrInfo(instr);
    return i.opcode[static_cast<int>(family)] != kNoOpcode && HasFeature(i.requires_feature);
  }
  // The VOP3 opcode here, kNoOpcode when !Has(instr).
  int Opcode(Instr instr) const {
    return Has(instr) ? GetInstrInfo(instr).opcode[static_cast<int>(family)] : kNoOpcode;
  }
  // The 32-bit VOP1 (e32/SDWA) opcode here, kNoOpcode when !Has(instr) or it is VOP3-only.
  int Vop1Opcode(Instr instr) const {
    return Has(instr) ? GetInstrInfo(instr).vop1_opcode[static_cast<int>(family)] : kNoOpcode;
  }
  int DefaultWaveSize() const { return wave64 && !wave32 ? 64 : 32; }
};

// All targets, in generation order.
std::span<const TargetTraits> AllTargets();

// Looks a target up by its gfx name; the error lists every valid name.
absl::StatusOr<const TargetTraits*> FindTarget(absl::string_view name);

// "gfx942 (CDNA3, GFX9): <mnemonic> <mnemonic> ..." table (every row the target has), for
// `lanediff targets`.
std::string DescribeTargets();

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_TARGETS_TARGETS_H_
