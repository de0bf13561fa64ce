// The 8-bit float formats the SR instructions produce, as data (docs/semantics.md §4-5).
//
// Arithmetic code reads these fields; it never tests which format it has. A new format is a
// new row in kFp8Formats.
//
//   const Fp8Format& f = GetFp8Format(Fp8FormatId::e4m3_ocp);
//   f.max_finite  // 0x7e (448.0)
#ifndef LANEDIFF_MODEL_FP_FP8_FORMAT_H_
#define LANEDIFF_MODEL_FP_FP8_FORMAT_H_

#include <array>
#include <cstdint>
#include "absl/strings/string_view.h"

namespace lanediff {

enum class Fp8FormatId : uint8_t { e4m3_fnuz, e5m2_fnuz, e4m3_ocp, e5m2_ocp, ue5m3, ue5m3_magnitude };
inline constexpr int kNumFp8Formats = 6;

struct Fp8Format {
  Fp8FormatId id;
  absl::string_view name;
  int exp_bits;
  int man_bits;
  int bias;
  bool is_signed;           // false: UE5M3, 8 bits of exponent+mantissa, negatives clamp to 0
  uint8_t max_finite;       // magnitude code of the largest finite value
  // Output for a NaN input (the canonical reading; `fp8_nan=sign_preserving` ORs in the sign
  // on signed OCP formats instead).
  uint8_t nan_out;
  // Output magnitude for an infinite input (sign ORed in where is_signed and !fnuz);
  // for FNUZ formats the whole output is 0x80.
  uint8_t inf_out;
  bool fnuz;                // no -0, no Inf; 0x80 is the only NaN and the only "special"
  bool has_inf;             // the format encodes infinities (OCP E5M2)
  // Unsigned formats only: a negative input is encoded as its magnitude instead of giving 0x00
  // (the gfx1250_clamp=ue5m3_magnitude reading).
  bool negative_as_magnitude;
  absl::string_view evidence;
};

inline constexpr std::array<Fp8Format, kNumFp8Formats> kFp8Formats = {{
    {Fp8FormatId::e4m3_fnuz, "e4m3_fnuz", 4, 3, 8, true, 0x7f, 0x80, 0x80, true, false, false,
     "gfx942 fp8: HIP amd_hip_fp8.h selects FNUZ for gfx942; MI300X bytes decode as E4M3 FNUZ "
     "(WeirdFloats.jl). NaN/Inf/overflow -> 0x80: L (MLIR #74153)"},
    {Fp8FormatId::e5m2_fnuz, "e5m2_fnuz", 5, 2, 16, true, 0x7f, 0x80, 0x80, true, false, false,
     "gfx942 bf8: HIP amd_hip_fp8.h. NaN/Inf/overflow -> 0x80: L (MLIR #74153)"},
    {Fp8FormatId::e4m3_ocp, "e4m3_ocp", 4, 3, 7, true, 0x7e, 0xff, 0x7f, false, false, false,
     "OCP E4M3FN on gfx950/gfx12/gfx1250: C (HIP headers; gfx950 fp8(1.0)=0x38, tinygrad). "
     "NaN -> 0xFF, Inf -> sign|0x7F: L+ (rocjitsu, measured gfx1201)"},
    {Fp8FormatId::e5m2_ocp, "e5m2_ocp", 5, 2, 15, true, 0x7b, 0xfe, 0x7c, false, true, false,
     "OCP E5M2 on gfx950/gfx12/gfx1250: C (bf8(1.0)=0x3c, bf8(+-Inf)=0x7c/0xfc on gfx950, "
     "tinygrad). NaN -> 0xFE: L+ (rocjitsu)"},
    {Fp8FormatId::ue5m3, "ue5m3", 5, 3, 15, false, 0xfe, 0xff, 0xfe, false, false, false,
     "gfx1250 fp8 with CLAMP=1 (B0 stepping): L (LLVM __builtin_amdgcn_cvt_sr_fp8_f32_e5m3, "
     "comgr hot-swap patch). +Inf -> 0xFE, -Inf and negatives -> 0x00"},
    {Fp8FormatId::ue5m3_magnitude, "ue5m3_magnitude", 5, 3, 15, false, 0xfe, 0xff, 0xff, false,
     false, true,
     "gfx1250 fp8 with CLAMP=1 as rocjitsu's f32_to_fp8_e5m3_sr computes it (hypothesis "
     "gfx1250_clamp=ue5m3_magnitude): |x| encoded, NaN, +-Inf and overflow -> 0xFF"},
}};

constexpr const Fp8Format& GetFp8Format(Fp8FormatId id) {
  return kFp8Formats[static_cast<int>(id)];
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_FP8_FORMAT_H_
