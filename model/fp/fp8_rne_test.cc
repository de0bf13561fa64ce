// f32 -> 8-bit float round-to-nearest-even (F32ToFp8Rne), the arithmetic of v_cvt_pk_fp8_f32 and
// v_cvt_pk_bf8_f32 (docs/semantics.md §10.2): hand-derived rows for every format with the
// saturation options (FP16_OVFL, CLAMP under pk_fp8_clamp=saturate_finite) and the NaN readings,
// and a sampled fast-vs-oracle sweep over the whole f32 range for every format and option set
// (the full 2^32 sweep is fp8_rne_exhaustive_test.cc, label slow).
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/fp/oracle.h"
#include "model/fp/rne_option_sets.h"

namespace lanediff {
namespace {

struct Row {
  Fp8FormatId format;
  Fp8Options options;
  uint32_t x;
  uint32_t byte;
  const char* derivation;
};

Fp8Options Sat() {  // MODE.FP16_OVFL under fp16_ovfl=saturate_finite, or CLAMP=1 under pk_fp8_clamp=saturate_finite
  Fp8Options o;
  o.saturate_finite = true;
  return o;
}
Fp8Options SatAll() {  // MODE.FP16_OVFL under fp16_ovfl=saturate_all
  Fp8Options o;
  o.saturate_finite = o.saturate_inf = true;
  return o;
}
Fp8Options Nan7f() {
  Fp8Options o;
  o.nan_sign_7f = true;
  return o;
}

const Row kRows[] = {
    // OCP E4M3 (bias 7, max 0x7E = 2^8 * 1.75 = 448; the next step up, 480, would be 0x7F = NaN).
    {Fp8FormatId::e4m3_ocp, {}, 0x3f800000, 0x38, "1.0 = 2^(7-7): e=7 m=0"},
    {Fp8FormatId::e4m3_ocp, {}, 0xbf800000, 0xb8, "-1.0: sign bit set"},
    {Fp8FormatId::e4m3_ocp, {}, 0x43e00000, 0x7e, "448 = max finite"},
    {Fp8FormatId::e4m3_ocp, {}, 0x43e80000, 0x7e,
     "464 = midway 448 (m=6, even) .. 480 (m=7): ties to even, stays finite"},
    {Fp8FormatId::e4m3_ocp, {}, 0x43e80001, 0x7f, "just above 464: rounds to 480, past max: NaN 0x7F"},
    {Fp8FormatId::e4m3_ocp, Sat(), 0x43e80001, 0x7e, "saturated: max finite"},
    {Fp8FormatId::e4m3_ocp, Sat(), 0xc3e80001, 0xfe, "saturated negative: sign|0x7E"},
    {Fp8FormatId::e4m3_ocp, {}, 0x7f800000, 0x7f, "+Inf: no Inf in E4M3, sign|0x7F"},
    {Fp8FormatId::e4m3_ocp, Sat(), 0x7f800000, 0x7f, "saturate_finite leaves Inf alone"},
    {Fp8FormatId::e4m3_ocp, SatAll(), 0xff800000, 0xfe, "saturate_all: -Inf -> sign|0x7E"},
    {Fp8FormatId::e4m3_ocp, {}, 0x7fc00000, 0xff, "NaN: canonical 0xFF whatever the sign"},
    {Fp8FormatId::e4m3_ocp, Nan7f(), 0x7fc00000, 0x7f, "fp8_nan=sign_7f: +NaN -> 0x7F"},
    {Fp8FormatId::e4m3_ocp, SatAll(), 0xffc00001, 0xff, "NaN is never saturated"},
    {Fp8FormatId::e4m3_ocp, {}, 0x3b000000, 0x01, "2^-9 = smallest subnormal, m=1"},
    {Fp8FormatId::e4m3_ocp, {}, 0x3b400000, 0x02, "1.5 * 2^-9: tie 0x01 (odd) .. 0x02: even"},
    {Fp8FormatId::e4m3_ocp, {}, 0x3a800000, 0x00, "2^-10 = half the smallest subnormal: tie to 0"},
    {Fp8FormatId::e4m3_ocp, {}, 0x3a800001, 0x01, "just above 2^-10: up to 0x01"},
    {Fp8FormatId::e4m3_ocp, {}, 0xba800000, 0x80, "-2^-10: tie to -0, sign kept"},
    {Fp8FormatId::e4m3_ocp, {}, 0x3c7c0000, 0x08,
     "2^-7 * 1.96875 = 7.875 * 2^-9: nearer 8 * 2^-9 = 2^-6, the smallest normal (carry out of the subnormals)"},
    {Fp8FormatId::e4m3_ocp, {}, 0x00000001, 0x00, "f32 denormal: far below 2^-10, +0"},
    {Fp8FormatId::e4m3_ocp, {}, 0x807fffff, 0x80, "negative f32 denormal: -0"},
    // OCP E5M2 (bias 15, max 0x7B = 2^15 * 1.75 = 57344, Inf 0x7C).
    {Fp8FormatId::e5m2_ocp, {}, 0x3f800000, 0x3c, "1.0 = 2^(15-15)"},
    {Fp8FormatId::e5m2_ocp, {}, 0x47600000, 0x7b, "57344 = max finite"},
    {Fp8FormatId::e5m2_ocp, {}, 0x47700000, 0x7c,
     "61440 = midway 57344 (m=3, odd) .. 65536: ties to even, the Inf code: +Inf"},
    {Fp8FormatId::e5m2_ocp, {}, 0x476fffff, 0x7b, "just below 61440: max finite"},
    {Fp8FormatId::e5m2_ocp, Sat(), 0x47700000, 0x7b, "saturated: max finite"},
    {Fp8FormatId::e5m2_ocp, {}, 0xff800000, 0xfc, "-Inf -> sign|0x7C"},
    {Fp8FormatId::e5m2_ocp, SatAll(), 0xff800000, 0xfb, "saturate_all: -Inf -> sign|0x7B"},
    {Fp8FormatId::e5m2_ocp, {}, 0xffc00000, 0xfe, "NaN: canonical 0xFE"},
    {Fp8FormatId::e5m2_ocp, Nan7f(), 0xffc00000, 0xff, "fp8_nan=sign_7f: -NaN -> 0xFF"},
    {Fp8FormatId::e5m2_ocp, {}, 0x37800000, 0x01, "2^-16 = smallest subnormal"},
    // E4M3 FNUZ (bias 8, max 0x7F = 2^7 * 1.875 = 240; 0x80 is the only NaN, no -0, no Inf).
    {Fp8FormatId::e4m3_fnuz, {}, 0x3f800000, 0x40, "1.0 = 2^(8-8): e=8"},
    {Fp8FormatId::e4m3_fnuz, {}, 0x43700000, 0x7f, "240 = max finite"},
    {Fp8FormatId::e4m3_fnuz, {}, 0x43780000, 0x80,
     "248 = midway 240 (m=7, odd) .. 256: ties to even = 256, past max: 0x80"},
    {Fp8FormatId::e4m3_fnuz, Sat(), 0xc3780000, 0xff, "saturated: -240 = 0xFF"},
    {Fp8FormatId::e4m3_fnuz, {}, 0x7f800000, 0x80, "+Inf: 0x80"},
    {Fp8FormatId::e4m3_fnuz, Sat(), 0x7f800000, 0x80, "saturate_finite leaves Inf -> 0x80"},
    {Fp8FormatId::e4m3_fnuz, SatAll(), 0xff800000, 0xff, "saturate_all: -Inf -> -240"},
    {Fp8FormatId::e4m3_fnuz, {}, 0xffc00000, 0x80, "NaN: 0x80"},
    {Fp8FormatId::e4m3_fnuz, {}, 0x80000000, 0x00, "-0: no -0 in FNUZ, 0x00"},
    {Fp8FormatId::e4m3_fnuz, {}, 0xb9800000, 0x00, "-2^-12 rounds to zero: 0x00, not 0x80"},
    {Fp8FormatId::e4m3_fnuz, {}, 0x3a800000, 0x01, "2^-10 = smallest subnormal"},
    // E5M2 FNUZ (bias 16, max 0x7F = 2^15 * 1.75 = 57344).
    {Fp8FormatId::e5m2_fnuz, {}, 0x3f800000, 0x40, "1.0 = 2^(16-16)"},
    {Fp8FormatId::e5m2_fnuz, {}, 0x47600000, 0x7f, "57344 = max finite"},
    {Fp8FormatId::e5m2_fnuz, {}, 0x47700000, 0x80, "61440: ties to even = 65536, past max: 0x80"},
    {Fp8FormatId::e5m2_fnuz, {}, 0x37000000, 0x01, "2^-17 = smallest subnormal"},
    // UE5M3 (gfx1250 CLAMP=1; bias 15, max 0xFE = 2^16 * 1.75 = 114688, NaN 0xFF, unsigned).
    {Fp8FormatId::ue5m3, {}, 0x3f800000, 0x78, "1.0 = 2^(15-15): e=15 m=0"},
    {Fp8FormatId::ue5m3, {}, 0x47e00000, 0xfe, "114688 = max finite"},
    {Fp8FormatId::ue5m3, {}, 0x47f00000, 0xfe, "122880 = midway 0xFE (m=6, even) .. 131072: stays"},
    {Fp8FormatId::ue5m3, {}, 0x47f00001, 0xfe, "above: overflow, UE5M3 overflow -> 0xFE"},
    {Fp8FormatId::ue5m3, {}, 0xbf800000, 0x00, "-1.0: unsigned, negatives -> 0x00"},
    {Fp8FormatId::ue5m3, {}, 0x7f800000, 0xfe, "+Inf -> 0xFE"},
    {Fp8FormatId::ue5m3, {}, 0x7fc00000, 0xff, "NaN -> 0xFF"},
    {Fp8FormatId::ue5m3_magnitude, {}, 0xbf800000, 0x78, "rocjitsu reading: |-1.0| = 0x78"},
    {Fp8FormatId::ue5m3_magnitude, {}, 0x47f00001, 0xff, "rocjitsu reading: overflow -> 0xFF"},
};

TEST(F32ToFp8RneFamily, HandDerived) {
  for (const Row& r : kRows) {
    const Fp8Format& f = GetFp8Format(r.format);
    EXPECT_EQ(F32ToFp8Rne(r.x, MakeFp8Params(f, r.options)), r.byte)
        << f.name << " x=0x" << std::hex << r.x << ": " << r.derivation;
    EXPECT_EQ(OracleF32ToFp8Rne(r.x, f, r.options), r.byte)
        << f.name << " x=0x" << std::hex << r.x << " (oracle): " << r.derivation;
  }
}

// MODE[4] (f32 input denormals) cannot change an RNE result: every f32 denormal is below half
// the smallest subnormal of every format (2^-18 for E5M2 FNUZ and UE5M3, the smallest), so it
// rounds to the zero its flushed value gives (docs/semantics.md §10.2).
TEST(F32ToFp8RneFamily, InputFlushCannotMatter) {
  for (const Fp8Format& f : kFp8Formats) {
    const Fp8Params p = MakeFp8Params(f, {});
    for (uint32_t m = 1; m < (1u << 23); m += 4099) {
      for (uint32_t s : {0u, 0x80000000u}) {
        ASSERT_EQ(F32ToFp8Rne(s | m, p), F32ToFp8Rne(s, p)) << f.name << std::hex << (s | m);
      }
    }
  }
}

// About 2^20 f32 words per format and option set, spread over the whole range by a fixed odd
// stride, plus each format's edge neighbourhoods: fast == oracle.
TEST(F32ToFp8RneFamily, SampledFastMatchesOracle) {
  size_t configs = 0;
  for (const RneOptionSet& s : RneOptionSets()) {
    const Fp8Format& f = GetFp8Format(s.format);
    const Fp8Params p = MakeFp8Params(f, s.options);
    uint32_t x = 0x1234567u;
    for (uint32_t i = 0; i < (1u << 20); ++i, x += 0x9e3779b1u) {  // odd stride: 2^20 distinct words
      ASSERT_EQ(F32ToFp8Rne(x, p), OracleF32ToFp8Rne(x, f, s.options))
          << s.name << " x=0x" << std::hex << x;
    }
    ++configs;
  }
  EXPECT_EQ(configs, RneOptionSets().size());
}

}  // namespace
}  // namespace lanediff
