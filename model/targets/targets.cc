#include "model/targets/targets.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace lanediff {
namespace {

constexpr int16_t kNone = -1;

// Opcodes: C (LLVM 22 llvm-mc accepts/rejects exactly so; seed pages give 477/350/550 and
// 676/875). Formats: C (HIP amd_hip_fp8.h per target; gfx950 and MI300X hardware bytes).
// Wave sizes: C (LLVM 22 accepts +wavefrontsize32/64 exactly so; gfx1250 is wave32-only).
constexpr TargetTraits kTargets[] = {
    {"gfx908", "CDNA1", "MI100", Family::gfx9, false, true, {477, kNone, kNone},
     Fp8FormatId::e4m3_fnuz, Fp8FormatId::e5m2_fnuz, false, "no SR instructions (llvm-mc-22 rejects)"},
    {"gfx90a", "CDNA2", "MI210/MI250X", Family::gfx9, false, true, {477, kNone, kNone},
     Fp8FormatId::e4m3_fnuz, Fp8FormatId::e5m2_fnuz, false, "no SR instructions (llvm-mc-22 rejects)"},
    {"gfx942", "CDNA3", "MI300X", Family::gfx9, false, true, {477, 676, 677},
     Fp8FormatId::e4m3_fnuz, Fp8FormatId::e5m2_fnuz, false,
     "FNUZ formats: HIP headers, MI300X bytes (WeirdFloats.jl)"},
    {"gfx950", "CDNA4", "MI355X", Family::gfx9, false, true, {477, 676, 677},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false,
     "OCP formats: HIP headers, tinygrad gfx950 hardware values"},
    {"gfx1010", "RDNA1", "RX 5700 XT", Family::gfx10, true, true, {350, kNone, kNone},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1030", "RDNA2", "RX 6900 XT", Family::gfx10, true, true, {350, kNone, kNone},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1100", "RDNA3", "RX 7900 XTX", Family::gfx11, true, true, {550, kNone, kNone},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1150", "RDNA3.5", "Radeon 890M", Family::gfx11, true, true, {550, kNone, kNone},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "pk_u8 only"},
    {"gfx1200", "RDNA4", "RX 9060 XT", Family::gfx12, true, true, {550, 875, 876},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false, "OCP formats: HIP headers"},
    {"gfx1201", "RDNA4", "RX 9070 XT", Family::gfx12, true, true, {550, 875, 876},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, false,
     "OCP formats: HIP headers; conversion rules measured by rocjitsu on this target (L+)"},
    {"gfx1250", "CDNA5", "MI450 (GFX12.5)", Family::gfx1250, true, false, {550, 875, 876},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, true,
     "CLAMP selects UE5M3 on B0 stepping (LLVM _e5m3 builtin; comgr: A0 ignores the bit)"},
    {"gfx1251", "CDNA5", "GFX12.5 variant", Family::gfx1250, true, false, {550, 875, 876},
     Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp, true, "as gfx1250 (LLVM 22 treats it alike)"},
};

// Formats on targets without the SR instructions are placeholders: nothing reads them.

}  // namespace

// docs/semantics.md §3 (pk_u8: byte S1[1:0], other bytes from S2) and §6 (SR: byte OPSEL[3:2],
// other bytes of the old VDST kept, SRC2 carries no data): C, spec text.
constexpr InstrInfo kInstrInfo[] = {
    {Instr::v_cvt_pk_u8_f32, "v_cvt_pk_u8_f32", 3, true, false, false},
    {Instr::v_cvt_sr_fp8_f32, "v_cvt_sr_fp8_f32", 2, false, true, true},
    {Instr::v_cvt_sr_bf8_f32, "v_cvt_sr_bf8_f32", 2, false, true, true},
};
static_assert(std::size(kInstrInfo) == kNumInstrs, "every Instr needs a row in kInstrInfo");

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
    const bool has_sr = t.Has(Instr::v_cvt_sr_fp8_f32);
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
