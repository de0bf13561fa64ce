#include "model/targets/targets.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace lanediff {
namespace {

// fp8_conversion: C (LLVM 22 llvm-mc accepts/rejects the fp8 conversions exactly so; the
// opcodes are in the instruction rows, model/instrs.def). Formats: C (HIP amd_hip_fp8.h per target; gfx950 and MI300X hardware bytes).
// Wave sizes: C (LLVM 22 accepts +wavefrontsize32/64 exactly so; gfx1250 is wave32-only).
constexpr TargetTraits kTargets[] = {
    {"gfx908", "CDNA1", "MI100", Family::gfx9, false, true, false,
     Fp8FormatId::e4m3_fnuz, Fp8FormatId::e5m2_fnuz, false, "no SR instructions (llvm-mc-22 rejects)"},
    {"gfx90a", "CDNA2", "MI210/MI250X", Family::gfx9, false, true, false,
     Fp8FormatId::e4m3_fnuz, Fp8FormatId::e5m2_fnuz, false, "no SR instructions (llvm-mc-22 rejects)", true},
    {"gfx942", "CDNA3", "MI300X", Family::gfx9, false, true, true,
     Fp8FormatId::e4m3_fnuz, Fp8FormatId::e5m2_fnuz, false,
     "FNUZ formats: HIP headers, MI300X bytes (WeirdFloats.jl)", true},
    {"gfx950", "CDNA4", "MI355X", Family::gfx9, false, true, true,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false,
     "OCP formats: HIP headers, tinygrad gfx950 hardware values", true, true, true},
    {"gfx1010", "RDNA1", "RX 5700 XT", Family::gfx10, true, true, false,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1030", "RDNA2", "RX 6900 XT", Family::gfx10, true, true, false,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1100", "RDNA3", "RX 7900 XTX", Family::gfx11, true, true, false,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1150", "RDNA3.5", "Radeon 890M", Family::gfx11, true, true, false,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1200", "RDNA4", "RX 9060 XT", Family::gfx12, true, true, true,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "OCP formats: HIP headers"},
    {"gfx1201", "RDNA4", "RX 9070 XT", Family::gfx12, true, true, true,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false,
     "OCP formats: HIP headers; conversion rules measured by rocjitsu on this target (L+)"},
    {"gfx1250", "CDNA5", "MI450 (GFX12.5)", Family::gfx1250, true, false, true,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, true,
     "CLAMP selects UE5M3 on B0 stepping (LLVM _e5m3 builtin; comgr: A0 ignores the bit)", true,
     false, true},
    {"gfx1251", "CDNA5", "GFX12.5 variant", Family::gfx1250, true, false, true,
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, true, "as gfx1250 (LLVM 22 treats it alike)", true,
     false, true},
};

// Formats on targets without fp8_conversion are placeholders: nothing reads them.

}  // namespace

// The rows of model/instrs.def, in Instr order.
constexpr InstrInfo kInstrInfo[] = {
#define LANEDIFF_INSTR(mnemonic, number, op_file, ...) \
  InstrInfo{.instr = Instr::mnemonic, .name = #mnemonic, .op = #op_file, .proto_number = number, \
            __VA_ARGS__},
#include "model/instrs.def"
#undef LANEDIFF_INSTR
};
static_assert(std::size(kInstrInfo) == kNumInstrs, "every Instr needs a row in kInstrInfo");

// A row is consistent: an opcode somewhere, OPSEL syntax only where the family has the
// instruction, op_sel_dst3 / half writes only with the OPSEL[3] bit owned.
// A row's per-family columns: its e32 and VOP3 opcodes, OPSEL syntax and 16-bit sources.
constexpr bool FamilyColumnsConsistent(const InstrInfo& i) {
  for (int f = 0; f < kNumFamilies; ++f) {
    // A VOP1 instruction has its e32 opcode wherever it has its VOP3 one; a VOP3-only has none.
    const bool vop1 = i.vop1_opcode[f] != kNoOpcode;
    if (i.encoding == Encoding::vop1 && vop1 != (i.opcode[f] != kNoOpcode)) return false;
    if (i.encoding == Encoding::vop3 && vop1) return false;
    if (i.vop1_opcode[f] < kNoOpcode || i.vop1_opcode[f] > 255) return false;
    if (i.opsel_syntax[f] == OpSelSyntax::byte_sel_src && i.opsel_bits != 0b0011) return false;
    // A 16-bit source only where the family has the instruction.
    if ((i.src0_16bit & (1u << f)) != 0 && i.opcode[f] == kNoOpcode) return false;
    // op_sel:[a,d] on the packed decodes (OPSEL[0] the source word: two f32 in a pair, or two
    // f16 in one VGPR) and on the packed f16 encoders (OPSEL[3] the destination half they write).
    const bool pair_decode = i.dst_bits == 64 || (i.dst_bits == 32 && i.output == OutputKind::f16);
    const bool half_encoder = i.opsel_bits == 0b1000 && i.write == DstWrite::half_at_opsel_3 &&
                              IsPackedF16(i.src[0]);
    if (i.opsel_syntax[f] == OpSelSyntax::op_sel_word_src &&
        !(i.opsel_bits == 0b0001 && pair_decode) && !half_encoder) {
      return false;
    }
  }
  return true;
}

// gfx1250's decodes with an E8M0 scale register: the elements their S0 holds, eight codes
// (shape U: fp8/bf8 in a VGPR pair, FP4 in one VGPR) or sixteen FP6/BF6 codes (shape V: a
// 3-dword tuple); 0 for any other S0.
constexpr int E8m0DecodeElements(const InstrInfo& i) {
  return i.src[0] == SrcRole::fp8_x8 || i.src[0] == SrcRole::fp4_x8 ? 8
         : i.src[0] == SrcRole::fp6_x16                            ? 16
                                                                   : 0;
}

// Such a decode's shape: its codes, the scale register S1 that scale_sel (OPSEL[3:0]) picks a
// byte of, each element to f32 (a dword each) or to packed f16 / bf16 (two per dword), written
// whole.
constexpr bool E8m0Decode(const InstrInfo& i) {
  const int n = E8m0DecodeElements(i);
  return n > 0 && i.src[1] == SrcRole::scale_e8m0_x4 && i.src[2] == SrcRole::unused &&
         i.write == DstWrite::dword && i.opsel_bits == 0b1111 &&
         ((i.output == OutputKind::f32 && i.dst_bits == 32 * n) ||
          ((i.output == OutputKind::f16 || i.output == OutputKind::bf16) && i.dst_bits == 16 * n));
}

// The code roles are read by these decodes only, each with its slot (FP4 codes: Fp8Slot::fp4;
// FP6/BF6 codes: fp6 / bf6), and the scale register is S1 only.
constexpr bool E8m0DecodeConsistent(const InstrInfo& i) {
  const bool decode = E8m0Decode(i);
  if ((E8m0DecodeElements(i) > 0) != decode) return false;
  if ((i.src[0] == SrcRole::fp4_x8) != (decode && i.fp8_slot == Fp8Slot::fp4)) return false;
  if ((i.src[0] == SrcRole::fp6_x16) !=
      (decode && (i.fp8_slot == Fp8Slot::fp6 || i.fp8_slot == Fp8Slot::bf6))) {
    return false;
  }
  for (int s = 1; s < 3; ++s) {
    if (i.src[s] == SrcRole::fp8_x8 || i.src[s] == SrcRole::fp4_x8 ||
        i.src[s] == SrcRole::fp6_x16) {
      return false;
    }
  }
  return i.src[0] != SrcRole::scale_e8m0_x4 && i.src[2] != SrcRole::scale_e8m0_x4;
}

constexpr bool RowsConsistent() {
  for (const InstrInfo& i : kInstrInfo) {
    bool any = false;
    for (int f = 0; f < kNumFamilies; ++f) {
      if (i.opcode[f] != kNoOpcode) any = true;
      if (i.opcode[f] == kNoOpcode && i.opsel_syntax[f] != OpSelSyntax::none) return false;
      if (i.opcode[f] < kNoOpcode || i.opcode[f] > 1023) return false;
    }
    if (!any || i.proto_number <= 0) return false;
    // The 8-bit float format the op reads agrees with the output element.
    if (i.output == OutputKind::fp8 && i.fp8_slot != Fp8Slot::fp8 &&
        i.fp8_slot != Fp8Slot::fp8_clamp_ue5m3) {
      return false;
    }
    if (i.output == OutputKind::bf8 && i.fp8_slot != Fp8Slot::bf8) return false;
    if (i.output == OutputKind::u8_int && i.fp8_slot != Fp8Slot::none) return false;
    // gfx1250's 8-wide encoders: 8 f32 or 8 packed 16-bit floats over the scale S1 (RNE) or,
    // after a seed S1, S2 (SR) -> 8 fp8/bf8 bytes in a VGPR pair or 8 FP4 codes in one VGPR,
    // written whole.
    const bool pk8 = (i.src[0] == SrcRole::f32_x8 || i.src[0] == SrcRole::f16x2_x4 ||
                      i.src[0] == SrcRole::bf16x2_x4) &&
                     ((i.src[1] == SrcRole::scale_f32 && i.src[2] == SrcRole::unused) ||
                      (i.src[1] == SrcRole::sr_seed && i.src[2] == SrcRole::scale_f32)) &&
                     i.write == DstWrite::dword;
    const bool pk8_ok = pk8 && (i.output == OutputKind::fp4 ? i.dst_bits == 32
                                : i.writes_float()          ? i.dst_bits == 64
                                                            : false);
    if (i.output == OutputKind::fp4 &&
        (i.fp8_slot != Fp8Slot::fp4 || (i.write != DstWrite::byte_at_opsel_3_2 && !pk8_ok))) {
      return false;
    }
    if (i.src[0] == SrcRole::fp8_bytes && i.fp8_slot == Fp8Slot::none) return false;
    if (i.write == DstWrite::byte_at_opsel_3_2 && i.opsel_bits != 0b1100) return false;
    if (i.write == DstWrite::half_at_opsel_3 && (i.opsel_bits & 0b1000) == 0) return false;
    if (i.write == DstWrite::byte_at_src1 && i.src[1] != SrcRole::byte_select) return false;
    if (i.kept == KeptFrom::src2 && i.src[2] != SrcRole::kept_bytes) return false;
    if (i.src[0] == SrcRole::unused) return false;
    if (i.dst_bits % 32 != 0 || i.dst_bits / 32 < 1 || i.dst_bits / 32 > kMaxDstWords) return false;
    // A tuple wider than a pair is written whole: the FP6/BF6 decodes' from a packed tuple, the
    // FP6/BF6 encoders' 6 dwords of codes from two 16-f32 tuples (interleaved) or from one tuple
    // of 32 packed 16-bit floats, its scale S1 or, after a seed S1, S2.
    const bool fp6_slot = i.fp8_slot == Fp8Slot::fp6 || i.fp8_slot == Fp8Slot::bf6;
    // The FP6 encoders: the interleaved ones (two 16-f32 tuples), the ones from 32 packed 16-bit
    // floats (the scale S1), the SR ones (one tuple of f32 or of packed 16-bit floats, a seed S1,
    // the scale S2).
    const bool interleaved = i.src[0] == SrcRole::f32_x16 && i.src[1] == SrcRole::f32_x16 &&
                             i.src[2] == SrcRole::scale_f32;
    const bool pk16_tuple = IsPacked16Tuple(i.src[0]) && i.src[1] == SrcRole::scale_f32 &&
                            i.src[2] == SrcRole::unused;
    const bool sr_encoder = SrcDwords(i.src[0]) > 1 && i.src[1] == SrcRole::sr_seed &&
                            i.src[2] == SrcRole::scale_f32;
    // gfx1250's one-tuple encoders: 16 f32 (a 16-dword tuple) over the scale S1.
    const bool f32_tuple = i.src[0] == SrcRole::f32_x16 && i.src[1] == SrcRole::scale_f32 &&
                           i.src[2] == SrcRole::unused;
    // Six bits per element: 32 elements (192 bits) but for gfx1250's 16 (96 bits).
    const int elements = interleaved                      ? 32
                         : i.src[0] == SrcRole::f32_x16   ? 16
                         : IsPacked16Tuple(i.src[0])      ? 2 * SrcDwords(i.src[0])
                                                          : SrcDwords(i.src[0]);
    const bool encoder = (interleaved || pk16_tuple || f32_tuple || sr_encoder) &&
                         i.output == OutputKind::fp6 && i.dst_bits == 6 * elements;
    const bool e8m0_decode = E8m0Decode(i);
    if (!E8m0DecodeConsistent(i)) return false;
    // A source tuple narrower than 16 dwords is one of these shapes': the FP6 codes, the f32
    // pair, an E8M0 decode's codes, an 8-wide encoder's or a 16-element FP6 encoder's elements.
    if (SrcDwords(i.src[0]) > 1 && SrcDwords(i.src[0]) < 16 && i.src[0] != SrcRole::fp6_x32 &&
        i.src[0] != SrcRole::f32_x2 && !e8m0_decode && !pk8_ok && !encoder) {
      return false;
    }
    if (i.dst_bits > 64 &&
        (i.write != DstWrite::dword || (i.src[0] != SrcRole::fp6_x32 && !encoder && !e8m0_decode))) {
      return false;
    }
    // A packed FP6 tuple is read, and an FP6 tuple written, by the FP6/BF6 slots only.
    if ((i.src[0] == SrcRole::fp6_x32 || i.src[0] == SrcRole::fp6_x16 || encoder) != fp6_slot) {
      return false;
    }
    if ((i.output == OutputKind::fp6) != encoder) return false;
    if (i.src[1] == SrcRole::fp6_x32 || i.src[2] == SrcRole::fp6_x32) return false;
    if ((i.src[0] == SrcRole::f32_x16 || i.src[1] == SrcRole::f32_x16 || i.src[2] == SrcRole::f32_x16) &&
        !encoder) {
      return false;
    }
    if ((IsPacked16Tuple(i.src[0]) && !encoder && !pk8_ok) || IsPacked16Tuple(i.src[1]) ||
        IsPacked16Tuple(i.src[2])) {
      return false;
    }
    // A VGPR pair is written whole (DstWrite::dword), from one source word of 8-bit floats or
    // by an 8-wide encoder.
    if (i.dst_bits == 64 && !pk8_ok &&
        (i.write != DstWrite::dword || i.src[0] != SrcRole::fp8_bytes || i.output != OutputKind::f32)) {
      return false;
    }
    if (!FamilyColumnsConsistent(i)) return false;
  }
  for (int a = 0; a < kNumInstrs; ++a) {
    if (static_cast<int>(kInstrInfo[a].instr) != a) return false;
    for (int b = 0; b < a; ++b) {
      if (kInstrInfo[a].proto_number == kInstrInfo[b].proto_number) return false;
    }
  }
  return true;
}
static_assert(RowsConsistent(), "an instruction row in model/instrs.def is inconsistent");

const InstrInfo& GetInstrInfo(Instr instr) { return kInstrInfo[static_cast<int>(instr)]; }

absl::string_view InstrName(Instr instr) { return GetInstrInfo(instr).name; }

absl::StatusOr<Instr> ParseInstr(absl::string_view name) {
  std::vector<absl::string_view> names;
  for (Instr i : kAllInstrs) {
    if (InstrName(i) == name) return i;
    names.push_back(InstrName(i));
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown instruction '", name,
                                                 "'; valid: ", absl::StrJoin(names, ", ")));
}

absl::string_view FamilyName(Family family) {
  switch (family) {
    case Family::gfx9: return "GFX9";
    case Family::gfx10: return "GFX10";
    case Family::gfx11: return "GFX11";
    case Family::gfx12: return "GFX12";
    case Family::gfx1250: return "GFX1250";
  }
  return "?";
}

std::span<const TargetTraits> AllTargets() { return kTargets; }

absl::StatusOr<const TargetTraits*> FindTarget(absl::string_view name) {
  std::vector<absl::string_view> names;
  for (const TargetTraits& t : kTargets) {
    if (t.name == name) return &t;
    names.push_back(t.name);
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown target '", name,
                                                 "'; valid: ", absl::StrJoin(names, ", ")));
}

std::string DescribeTargets() {
  std::string out = absl::StrFormat("%-8s %-8s %-8s %-6s %-10s %-10s %s\n", "target", "gen",
                                    "family", "wave", "fp8", "bf8", "instructions (opcode)");
  for (const TargetTraits& t : kTargets) {
    std::string wave = t.wave32 && t.wave64 ? "32/64" : (t.wave32 ? "32" : "64");
    std::vector<std::string> instrs;
    for (Instr i : kAllInstrs) {
      if (t.Has(i)) instrs.push_back(absl::StrCat(InstrName(i), "(", t.Opcode(i), ")"));
    }
    const bool has_sr = t.fp8_conversion;
    std::string fp8 = has_sr ? std::string(GetFp8Format(t.fp8).name) : "-";
    if (has_sr && t.clamp_selects_ue5m3) absl::StrAppend(&fp8, "|ue5m3");
    std::string bf8 = has_sr ? std::string(GetFp8Format(t.bf8).name) : "-";
    absl::StrAppend(&out, absl::StrFormat("%-8s %-8s %-8s %-6s %-10s %-10s %s\n", t.name,
                                          t.generation, FamilyName(t.family), wave, fp8, bf8,
                                          absl::StrJoin(instrs, " ")));
  }
  return out;
}

}  // namespace lanediff
