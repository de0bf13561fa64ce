#include "model/targets/hypotheses.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

template <typename E, E Hypotheses::*Field>
uint8_t Get(const Hypotheses& h) {
  return static_cast<uint8_t>(h.*Field);
}
template <typename E, E Hypotheses::*Field>
void Set(Hypotheses* h, uint8_t v) {
  h->*Field = static_cast<E>(v);
}

// The sources, spelled once. docs/semantics.md §9 says what was read in each and when.
#define ROCJITSU_RDNA4                                                                  \
  "ROCm/rocm-systems emulation/rocjitsu RDNA4 path (lib/rocjitsu/src/rocjitsu/isa/arch/" \
  "amdgpu/shared/, written against gfx1201 results; bit-identical to these defaults on "  \
  "fuzzed lanes)"
#define ROCJITSU_CDNA                                                                 \
  "ROCm/rocm-systems emulation/rocjitsu/lib/util/include/util/data_types.h (read at " \
  "02dd3a6f), chosen for CDNA by lib/python/amdisa/codegen/execute/vector_special.py "  \
  "gen_cvt_fp8 and fp8_formats.py"
#define HIP_HOST "ROCm clr hipamd/include/hip/amd_detail/amd_hip_fp8.h cast_to_f8 (host path)"
#define TINYGRAD "tinygrad/tinygrad test/mockgpu/amd/pcode.py _f_to_u via 'f32_to_u8'"

constexpr absl::string_view kNoSr =
    "gfx908 gfx90a gfx1010 gfx1030 gfx1100 gfx1150";  // targets without the SR instructions

const std::vector<HypothesisInfo>& Registry() {
  static const auto* registry = new std::vector<HypothesisInfo>{
      {"pk_u8_rounding",
       "v_cvt_pk_u8_f32: how f32 is rounded to an integer",
       {{"mode", "rounds with MODE[1:0], the f32 round mode (RNE unless changed)",
         ROCJITSU_RDNA4, "gfx1200 gfx1201 (measured)",
         "gfx1201 src0=0x43018000 (129.5): 0x82"},
        {"truncate", "always toward zero, MODE ignored",
         TINYGRAD "; gem5 src/arch/amdgpu/vega/insts/vop3.cc (a C cast); rocjitsu's CDNA path "
         "(clamp then truncate, per the notes this project keeps; not re-read)",
         "RDNA3 (tinygrad), Vega/CDNA (gem5, rocjitsu CDNA)", "gfx1100 src0=0x43018000 (129.5): 0x81 (default 0x82)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1250 gfx1251",
         "L: the ISA guides' MODE round mode applies to float->int conversions; not measured"}},
       Get<PkU8Rounding, &Hypotheses::pk_u8_rounding>,
       Set<PkU8Rounding, &Hypotheses::pk_u8_rounding>},
      {"pk_u8_nan",
       "v_cvt_pk_u8_f32: the byte a NaN input produces",
       {{"zero", "NaN gives 0", ROCJITSU_RDNA4, "gfx1200 gfx1201 (measured)",
         "gfx1100 src0=0x7fc00000: 0x00"},
        {"max", "NaN gives 255 (the host cast of a NaN; the C cast itself is undefined)",
         TINYGRAD, "RDNA3, RDNA4, CDNA (one emulator for all)",
         "gfx1100 src0=0x7fc00000: 0xff (default 0x00)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1250 gfx1251",
         "L: v_cvt_u32_f32 and friends give 0 for NaN in every ISA guide; not measured here"}},
       Get<PkU8Nan, &Hypotheses::pk_u8_nan>, Set<PkU8Nan, &Hypotheses::pk_u8_nan>},
      {"sr_rounding",
       "v_cvt_sr_*: how the seed rounds the value",
       {{"carry_truncate",
         "seed added just below the kept LSB with carry, then truncated; a subnormal result is "
         "first truncated to its quantum's 24-bit window; specials first",
         ROCJITSU_RDNA4 "; comgr PR #3275", "gfx1200 gfx1201 (measured)",
         "gfx950 fp8 src0=0x3fffffff src1=0xfffff000: 0x40"},
        {"literal",
         "the ISA pages' pseudocode word for word: 23-bit fraction add that wraps, before "
         "special handling, then RNE",
         "AMD ISA guides (CDNA3/CDNA4/RDNA4/CDNA5) V_CVT_SR_FP8_F32 pseudocode",
         "every target with the instruction (text only, no implementation)",
         "gfx950 fp8 src0=0x3fffffff src1=0xfffff000: 0x39 (default 0x40)"},
        {"exact_subnormal",
         "as carry_truncate in the normal range; a subnormal result keeps all k dropped bits "
         "(k = 23 - M + distance below the smallest normal) and adds the top k seed bits; past "
         "k = 24 the result is a signed zero whatever the seed",
         ROCJITSU_CDNA " f32_to_fp8_e4m3_sr, f32_to_bf8_e5m2_sr, detail::f32_to_fnuz_sr, "
         "f32_to_fp8_e5m3_sr",
         "gfx942 gfx950 gfx1250 (CDNA paths)",
         "gfx950 fp8 src0=0x3c7fffff src1=0x00000800: 0x08 (default 0x07)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "U: not measured; the RDNA4 measurement is carried over; rocjitsu's CDNA paths "
         "(exact_subnormal) and the pseudocode (literal) are unmeasured alternatives"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<SrRounding, &Hypotheses::sr_rounding>, Set<SrRounding, &Hypotheses::sr_rounding>},
      {"sr_seed",
       "v_cvt_sr_*: which bits of S1 are the seed",
       {{"high", "S1's top 23 - M bits (S1[31:12] for E4M3/UE5M3, S1[31:11] for E5M2)",
         "AMD ISA guides ('S1[31:12]'); " ROCJITSU_RDNA4 "; " ROCJITSU_CDNA,
         "every target with the instruction",
         "gfx950 fp8 src0=0x3f800001 src1=0x000fffff: 0x38"},
        {"low", "S1's low 23 - M bits (S1[19:0] / S1[20:0])",
         HIP_HOST ": 'rng & drop_mask'", "gfx942 gfx950 gfx12 (the host stand-in for them)",
         "gfx950 fp8 src0=0x3f800001 src1=0x000fffff: 0x39 (default 0x38)"}},
       {{"gfx942 gfx950 gfx1200 gfx1201 gfx1250 gfx1251",
         "C: the ISA pages name S1[31:12]; both emulators agree (L+ on gfx12)"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<SrSeed, &Hypotheses::sr_seed>, Set<SrSeed, &Hypotheses::sr_seed>},
      {"sr_overflow",
       "v_cvt_sr_*: is a finite overflow decided after or before rounding",
       {{"after_rounding",
         "only a value that rounds (with its seed) above the largest finite overflows",
         ROCJITSU_RDNA4 "; " ROCJITSU_CDNA, "every target with the instruction",
         "gfx950 fp8 src0=0x43e00001 src1=0: 0x7e"},
        {"before_rounding",
         "any finite |x| above the largest finite overflows, whatever the seed",
         HIP_HOST ": '(x & mask) > ifmax' before the seed is added",
         "gfx942 gfx950 gfx12 (the host stand-in for them)",
         "gfx950 fp8 src0=0x43e00001 src1=0: 0x7f (default 0x7e)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "L: both AMD emulator paths agree; HIP's host code is a stand-in, not a model"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<SrOverflow, &Hypotheses::sr_overflow>, Set<SrOverflow, &Hypotheses::sr_overflow>},
      {"fp8_nan",
       "OCP formats: the byte a NaN input produces",
       {{"canonical", "0xFF (E4M3) / 0xFE (E5M2) whatever the sign", ROCJITSU_RDNA4,
         "gfx1200 gfx1201 (measured)", "gfx950 bf8 src0=0x7fc00000: 0xfe"},
        {"sign_preserving", "sign|0x7F (E4M3) / sign|0x7E (E5M2)",
         "no public implementation found; the quiet-NaN pattern of each format with the sign "
         "kept", "-", "gfx950 bf8 src0=0x7fc00000: 0x7e (default 0xfe)"},
        {"sign_7f", "sign|0x7F for both E4M3 and E5M2",
         ROCJITSU_CDNA " f32_to_fp8_e4m3_sr / f32_to_bf8_e5m2_sr; " HIP_HOST " ('nan = (sign "
         "<< 7) + 0x7f')",
         "gfx950 gfx1250 (rocjitsu CDNA); OCP targets (HIP)",
         "gfx950 bf8 src0=0x7fc00000: 0x7f (default 0xfe)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx950 gfx1250 gfx1251",
         "U: not measured; the RDNA4 measurement is carried over; sign_7f is what rocjitsu's "
         "CDNA path and HIP's host code compute"},
        {"gfx942", "FNUZ formats: 0x80 is the only NaN, the rule does not arise"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<Fp8Nan, &Hypotheses::fp8_nan>, Set<Fp8Nan, &Hypotheses::fp8_nan>},
      {"fp16_ovfl",
       "MODE[23] FP16_OVFL on the SR instructions",
       {{"saturate_finite", "a finite overflow gives sign|max-finite; Inf and NaN unchanged",
         ROCJITSU_RDNA4, "gfx1200 gfx1201 (measured)",
         "gfx950 fp8 MODE=0x008000f0 src0=0x7f800000: 0x7f"},
        {"ignored", "the bit changes nothing",
         "rocjitsu vector_special.py gen_cvt_fp8 at 0ffdc8c6 (calls the SR helpers without "
         "the _mode variants)",
         "gfx942 gfx950 gfx1250 (that version)",
         "gfx950 fp8 MODE=0x008000f0 src0=0x43f00000: 0x7f (default 0x7e)"},
        {"saturate_all",
         "every non-NaN overflow saturates, Inf included (E4M3 sign|0x7E, E5M2 sign|0x7B, FNUZ "
         "sign|0x7F, UE5M3 0xFE)",
         ROCJITSU_CDNA " f32_to_fp8_e4m3_sr_mode, f32_to_bf8_e5m2_sr_mode, "
         "f32_to_fp8_e4m3_fnuz_sr_mode, f32_to_fp8_e5m3_sr_mode",
         "gfx942 gfx950 gfx1250 (CDNA paths)",
         "gfx950 fp8 MODE=0x008000f0 src0=0x7f800000: 0x7e (default 0x7f)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "U: not measured; the RDNA4 measurement is carried over; rocjitsu's CDNA path "
         "saturates Inf too"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<Fp16Ovfl, &Hypotheses::fp16_ovfl>, Set<Fp16Ovfl, &Hypotheses::fp16_ovfl>},
      {"gfx1250_clamp",
       "gfx1250 CLAMP on v_cvt_sr_fp8_f32",
       {{"ue5m3",
         "CLAMP=1 selects UE5M3: negatives give 0x00, +Inf 0xFE, NaN 0xFF, overflow 0xFE",
         "LLVM __builtin_amdgcn_cvt_sr_fp8_f32_e5m3 (B0 stepping); comgr hot-swap notes",
         "gfx1250 B0", "gfx1250 fp8 clamp src0=0x7f800000: 0xfe"},
        {"ignored", "CLAMP is non-functional: the result is E4M3", "AMD comgr notes (A0 stepping)",
         "gfx1250 A0", "gfx1250 fp8 clamp src0=0x3f800000: 0x38 (default 0x78)"},
        {"ue5m3_magnitude",
         "CLAMP=1 encodes |x| as UE5M3 (the sign dropped); NaN, Inf and overflow give 0xFF",
         ROCJITSU_CDNA " f32_to_fp8_e5m3_sr (chosen by inst_.clamp in gen_cvt_fp8)",
         "gfx1250", "gfx1250 fp8 clamp src0=0xb8000000: 0x04 (default 0x00)"}},
       {{"gfx1250 gfx1251",
         "L: the LLVM _e5m3 builtin and AMD's B0 notes; not measured (the sign handling of "
         "UE5M3 on negatives is U)"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "CLAMP does not select a format here: the rule does not arise"}},
       Get<Gfx1250Clamp, &Hypotheses::gfx1250_clamp>,
       Set<Gfx1250Clamp, &Hypotheses::gfx1250_clamp>},
  };
  return *registry;
}

#undef ROCJITSU_RDNA4
#undef ROCJITSU_CDNA
#undef HIP_HOST
#undef TINYGRAD

void AppendJsonString(std::string* out, absl::string_view s) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppend(out, "\\u00", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendJsonField(std::string* out, absl::string_view key, absl::string_view value,
                     bool comma = true) {
  AppendJsonString(out, key);
  out->push_back(':');
  AppendJsonString(out, value);
  if (comma) out->push_back(',');
}

}  // namespace

std::span<const HypothesisInfo> AllHypotheses() { return Registry(); }

const HypothesisInfo* FindHypothesis(absl::string_view name) {
  for (const HypothesisInfo& info : Registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

absl::string_view DefaultReason(const HypothesisInfo& info, absl::string_view target) {
  for (const TargetDefault& d : info.defaults) {
    for (absl::string_view t : absl::StrSplit(d.targets, ' ', absl::SkipEmpty())) {
      if (t == target) return d.reason;
    }
  }
  return "";
}

absl::Status SetHypothesis(absl::string_view name_equals_value, Hypotheses* h) {
  const size_t eq = name_equals_value.find('=');
  std::vector<absl::string_view> names;
  for (const HypothesisInfo& info : Registry()) names.push_back(info.name);
  if (eq == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("hypothesis '", name_equals_value, "' is not NAME=VALUE; names: ",
                     absl::StrJoin(names, ", ")));
  }
  const absl::string_view name = name_equals_value.substr(0, eq);
  const absl::string_view value = name_equals_value.substr(eq + 1);
  const HypothesisInfo* info = FindHypothesis(name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown hypothesis '", name,
                                                   "'; valid: ", absl::StrJoin(names, ", ")));
  }
  std::vector<absl::string_view> values;
  for (size_t i = 0; i < info->values.size(); ++i) {
    if (info->values[i].name == value) {
      info->set(h, static_cast<uint8_t>(i));
      return absl::OkStatus();
    }
    values.push_back(info->values[i].name);
  }
  return absl::InvalidArgumentError(absl::StrCat("hypothesis ", name, " has no value '", value,
                                                 "'; valid: ", absl::StrJoin(values, ", ")));
}

std::vector<std::string> HypothesisSettings(const Hypotheses& h) {
  std::vector<std::string> out;
  for (const HypothesisInfo& info : Registry()) {
    out.push_back(absl::StrCat(info.name, "=", info.values[info.get(h)].name));
  }
  return out;
}

std::vector<std::string> NonDefaultHypothesisSettings(const Hypotheses& h) {
  std::vector<std::string> out;
  for (const HypothesisInfo& info : Registry()) {
    if (info.get(h) != 0) out.push_back(absl::StrCat(info.name, "=", info.values[info.get(h)].name));
  }
  return out;
}

std::string DescribeHypotheses(bool json) {
  std::string out;
  if (json) out.push_back('[');
  bool first_rule = true;
  for (const HypothesisInfo& info : Registry()) {
    if (json) {
      if (!first_rule) out.push_back(',');
      out.push_back('{');
      AppendJsonField(&out, "rule", info.name);
      AppendJsonField(&out, "question", info.question);
      out.append("\"values\":[");
      for (size_t v = 0; v < info.values.size(); ++v) {
        const HypothesisValue& hv = info.values[v];
        if (v > 0) out.push_back(',');
        out.push_back('{');
        AppendJsonField(&out, "name", hv.name);
        AppendJsonField(&out, "computes", hv.computes);
        AppendJsonField(&out, "source", hv.source);
        AppendJsonField(&out, "claims", hv.targets);
        AppendJsonField(&out, "lane", hv.lane, false);
        out.push_back('}');
      }
      out.append("],\"defaults\":[");
      bool first = true;
      for (const TargetTraits& t : AllTargets()) {
        if (!first) out.push_back(',');
        first = false;
        out.push_back('{');
        AppendJsonField(&out, "target", t.name);
        AppendJsonField(&out, "value", info.values[0].name);
        AppendJsonField(&out, "reason", DefaultReason(info, t.name), false);
        out.push_back('}');
      }
      out.append("]}");
    } else {
      absl::StrAppend(&out, "\n", info.name, ": ", info.question, "\n");
      for (size_t v = 0; v < info.values.size(); ++v) {
        const HypothesisValue& hv = info.values[v];
        absl::StrAppend(&out, "  ", hv.name, v == 0 ? " (default)" : "", ": ", hv.computes,
                        "\n      source: ", hv.source, "\n      claims: ", hv.targets,
                        "\n      lane:   ", hv.lane, "\n");
      }
      absl::StrAppend(&out, "  default ", info.values[0].name, " per target:\n");
      for (const TargetDefault& d : info.defaults) {
        absl::StrAppend(&out, "    ", d.targets, ": ", d.reason, "\n");
      }
    }
    first_rule = false;
  }
  if (json) out.append("]\n");
  return out;
}

}  // namespace lanediff
