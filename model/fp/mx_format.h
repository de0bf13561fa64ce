// The OCP Microscaling (MX v1.0) element formats and the E8M0 scale, as data.
//
// The element formats are signed (sign bit at the top of the field), have subnormals, and have
// no Inf and no NaN encoding: every code is a finite number. Arithmetic code (mx.h, mx_oracle.h)
// reads these fields; it never tests which format it has.
//
//   const MxElemFormat& f = GetMxElemFormat(MxElemId::fp4_e2m1);
//   f.max_code  // 0x7: 0b0.11.1 = 2^(3-1) * 1.5 = 6.0
//
// E8M0 (the shared block scale) is one unsigned exponent byte: 2^(byte - 127), byte 0..254;
// 0xFF is NaN; there is no zero and no infinity (OCP MX v1.0 as restated by jax-ml/ml_dtypes
// ml_dtypes/include/mxfloat.h and the CUDA toolkit's cuda_fp8.h __nv_fp8_e8m0). Where
// implementations read 0x00 and 0xFF differently the readings are options of the functions that
// take a scale byte (E8m0Zero, E8m0Nan in mx.h).
#ifndef LANEDIFF_MODEL_FP_MX_FORMAT_H_
#define LANEDIFF_MODEL_FP_MX_FORMAT_H_

#include <array>
#include <cstdint>
#include "absl/strings/string_view.h"

namespace lanediff {

enum class MxElemId : uint8_t { fp4_e2m1, fp6_e2m3, bf6_e3m2 };
inline constexpr int kNumMxElemFormats = 3;

struct MxElemFormat {
  MxElemId id;
  absl::string_view name;
  int bits;       // field width with the sign: 4 or 6
  int exp_bits;
  int man_bits;   // M
  int bias;
  // Magnitude code (the field without its sign bit) of the largest value; every code up to it
  // is finite, and it is the all-ones magnitude (no code is reserved for Inf or NaN).
  uint32_t max_code;
  absl::string_view evidence;
};

inline constexpr std::array<MxElemFormat, kNumMxElemFormats> kMxElemFormats = {{
    {MxElemId::fp4_e2m1, "fp4_e2m1", 4, 2, 1, 1, 0x7,
     "OCP MX v1.0 FP4 E2M1: bias 1, max 6.0, subnormals, no Inf/NaN (as restated by jax-ml/"
     "ml_dtypes ml_dtypes/include/mxfloat.h float4_e2m1fn and CUDA cuda_fp4.h)"},
    {MxElemId::fp6_e2m3, "fp6_e2m3", 6, 2, 3, 1, 0x1f,
     "OCP MX v1.0 FP6 E2M3: bias 1, max 7.5, subnormals, no Inf/NaN (ml_dtypes mxfloat.h "
     "float6_e2m3fn, CUDA cuda_fp6.h)"},
    {MxElemId::bf6_e3m2, "bf6_e3m2", 6, 3, 2, 3, 0x1f,
     "OCP MX v1.0 FP6 E3M2: bias 3, max 28.0, subnormals, no Inf/NaN (ml_dtypes mxfloat.h "
     "float6_e3m2fn, CUDA cuda_fp6.h)"},
}};

constexpr const MxElemFormat& GetMxElemFormat(MxElemId id) {
  return kMxElemFormats[static_cast<int>(id)];
}

inline constexpr int kE8m0Bias = 127;
inline constexpr uint32_t kE8m0Nan = 0xffu;

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_MX_FORMAT_H_
