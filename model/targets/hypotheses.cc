#include "model/targets/hypotheses.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

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

const std::vector<HypothesisInfo>& Registry() {
  static const auto* registry = new std::vector<HypothesisInfo>{
      {"pk_u8_rounding",
       "v_cvt_pk_u8_f32: how f32 is rounded to an integer",
       {{"mode", "MODE[1:0] single-precision round mode (RNE by default). L; L+ on gfx12 "
                 "(rocjitsu, measured gfx1201)"},
        {"truncate", "always toward zero (tinygrad and gem5 emulators, unvalidated)"}},
       Get<PkU8Rounding, &Hypotheses::pk_u8_rounding>,
       Set<PkU8Rounding, &Hypotheses::pk_u8_rounding>},
      {"sr_rounding",
       "v_cvt_sr_*: how the seed S1 rounds the value",
       {{"carry_truncate", "seed's top bits added to the 24-bit significand with carry, then "
                           "truncated; specials first. L+ (rocjitsu gfx1201; comgr PR #3275)"},
        {"literal", "seed pages' pseudocode word for word: 23-bit mantissa add that wraps, "
                    "before special handling, then RNE (spec text only)"}},
       Get<SrRounding, &Hypotheses::sr_rounding>, Set<SrRounding, &Hypotheses::sr_rounding>},
      {"fp8_nan",
       "OCP formats: the byte a NaN input produces",
       {{"canonical", "0xFF (E4M3) / 0xFE (E5M2) whatever the sign. L+ (rocjitsu gfx1201); "
                      "U on gfx950"},
        {"sign_preserving", "sign | 0x7F (E4M3) / sign | 0x7E (E5M2)"}},
       Get<Fp8Nan, &Hypotheses::fp8_nan>, Set<Fp8Nan, &Hypotheses::fp8_nan>},
      {"fp16_ovfl",
       "MODE[23] FP16_OVFL on the SR instructions",
       {{"saturate_finite", "finite overflow gives sign|max-finite; Inf/NaN unchanged. L+ on "
                            "gfx12 (rocjitsu); U on gfx942/gfx950"},
        {"ignored", "the bit changes nothing"}},
       Get<Fp16Ovfl, &Hypotheses::fp16_ovfl>, Set<Fp16Ovfl, &Hypotheses::fp16_ovfl>},
      {"gfx1250_clamp",
       "gfx1250 CLAMP on v_cvt_sr_fp8_f32",
       {{"ue5m3", "CLAMP=1 selects UE5M3 (B0 stepping; LLVM _e5m3 builtin)"},
        {"ignored", "CLAMP is non-functional, result is E4M3 (A0 stepping; AMD comgr notes)"}},
       Get<Gfx1250Clamp, &Hypotheses::gfx1250_clamp>,
       Set<Gfx1250Clamp, &Hypotheses::gfx1250_clamp>},
  };
  return *registry;
}

}  // namespace

std::span<const HypothesisInfo> AllHypotheses() { return Registry(); }

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
  for (const HypothesisInfo& info : Registry()) {
    if (info.name != name) continue;
    std::vector<absl::string_view> values;
    for (size_t i = 0; i < info.values.size(); ++i) {
      if (info.values[i].name == value) {
        info.set(h, static_cast<uint8_t>(i));
        return absl::OkStatus();
      }
      values.push_back(info.values[i].name);
    }
    return absl::InvalidArgumentError(absl::StrCat("hypothesis ", name, " has no value '",
                                                   value, "'; valid: ",
                                                   absl::StrJoin(values, ", ")));
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown hypothesis '", name,
                                                 "'; valid: ", absl::StrJoin(names, ", ")));
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

}  // namespace lanediff
