// f32 -> 8-bit float: docs/semantics.md §4-6's discriminating inputs for every format and every
// hypothesis that lives in the arithmetic (sr_rounding, fp8_nan, fp16_ovfl as
// Fp8Options::saturate_finite), through the fast functions and the exact oracle. Expected bytes
// are docs/semantics.md's or derived by hand in the row's comment; f32 bit patterns from Python's
// struct.pack('<f', v).
#include "model/fp/fp8.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "model/fp/fp8_format.h"
#include "model/fp/oracle.h"

namespace lanediff {
namespace {

enum class Method { rne, carry, literal };
using F = Fp8FormatId;

struct Row {
  F format;
  Method method;
  uint32_t x;
  uint32_t seed;  // the (23 - M)-bit seed: S1 >> 12 for fp8, S1 >> 11 for bf8
  bool nan_sign_preserving;
  bool saturate;
  uint32_t want;
  const char* separates;
};

uint32_t Fast(const Row& r) {
  const Fp8Params p = MakeFp8Params(GetFp8Format(r.format), {r.nan_sign_preserving, r.saturate});
  switch (r.method) {
    case Method::rne: return F32ToFp8Rne(r.x, p);
    case Method::carry: return F32ToFp8SrCarryTruncate(r.x, r.seed, p);
    case Method::literal: return F32ToFp8SrLiteral(r.x, r.seed, p);
  }
  return 0xdead;
}

uint32_t Oracle(const Row& r) {
  const Fp8Format& f = GetFp8Format(r.format);
  const Fp8Options o{r.nan_sign_preserving, r.saturate};
  switch (r.method) {
    case Method::rne: return OracleF32ToFp8Rne(r.x, f, o);
    case Method::carry: return OracleF32ToFp8Sr(r.x, r.seed, f, o);
    case Method::literal: return OracleF32ToFp8Literal(r.x, r.seed, f, o);
  }
  return 0xdead;
}

constexpr Method R = Method::rne, C = Method::carry, L = Method::literal;

const Row kRows[] = {
    // --- sr_rounding: carry_truncate vs literal (docs/semantics.md §6) -------------------------
    {F::e4m3_ocp, C, 0x3fffffff, 0xfffff, false, false, 0x40,
     "~2.0, seed all ones: carry reaches 2.0 = 0x40 (literal wraps: 0x39)"},
    {F::e4m3_ocp, L, 0x3fffffff, 0xfffff, false, false, 0x39,
     "literal: fraction 0x7fffff + 0xfffff wraps to 0x0ffffe: 1.1249998 -> RNE 1.125"},
    {F::e4m3_ocp, C, 0x3f840000, 0x80000, false, false, 0x38,
     "1 + 2^-5, seed 1/2: 1/4 + 1/2 < 1, truncates to 1.0 (literal: 0x39)"},
    {F::e4m3_ocp, L, 0x3f840000, 0x80000, false, false, 0x39,
     "literal: 1 + 2^-5 + 2^-4 = 1.09375, RNE -> 1.125"},
    {F::e4m3_ocp, C, 0x35800000, 0xfffff, false, false, 0x01,
     "2^-20 is 2^-11 of the subnormal quantum 2^-9: 0x200 + 0xfffff carries -> 0x01"},
    {F::e4m3_ocp, C, 0x35800000, 0xffdff, false, false, 0x00,
     "2^-20, seed 0xffdff: 0x200 + 0xffdff = 0xfffff, no carry -> 0x00"},
    {F::e4m3_ocp, L, 0x35800000, 0xfffff, false, false, 0x00,
     "literal: 2^-20 plus noise stays far below half a subnormal quantum -> 0x00"},
    {F::e5m2_ocp, C, 0x7f800000, 0x1fffff, false, false, 0x7c,
     "bf8 +Inf, non-zero seed: stays +Inf under carry_truncate (specials first)"},
    {F::e5m2_ocp, C, 0xff800000, 0x000001, false, false, 0xfc, "bf8 -Inf stays -Inf"},
    {F::e5m2_ocp, L, 0x7f800000, 0x000001, false, false, 0xfe,
     "literal: Inf plus noise is a NaN before specials are handled -> NaN 0xfe"},
    {F::e4m3_ocp, L, 0x7fffffff, 0x000001, false, false, 0x7f,
     "literal: NaN fraction 0x7fffff + 1 wraps to 0: an Inf -> E4M3 sign|0x7f"},
    {F::e4m3_ocp, C, 0x3f800000, 0xfffff, false, false, 0x38,
     "exact 1.0: no seed rounds it up (RNE-with-noise readings could)"},
    {F::e4m3_ocp, C, 0x3f8fffff, 0x00001, false, false, 0x39,
     "1.125 - 2^-23: dropped bits 0xfffff + 1 carry exactly -> 1.125"},
    {F::e4m3_ocp, C, 0x3f8fffff, 0x00000, false, false, 0x38, "same value, seed 0: truncates"},
    {F::e5m2_ocp, C, 0x3fa00000, 0x100000, false, false, 0x3d,
     "bf8: 1.25 is exact (M=2): 0x3d whatever the seed (bits 20:0 are 0)"},
    {F::e5m2_ocp, C, 0x3f900000, 0x100000, false, false, 0x3d,
     "bf8: 1.125 = 1 + half a quantum; seed 1/2 (bit 20 of 21): carries -> 1.25 = 0x3d"},
    {F::e5m2_ocp, C, 0x3f900000, 0x0fffff, false, false, 0x3c,
     "bf8: 1.125, seed just under 1/2: truncates -> 1.0 = 0x3c"},
    {F::e4m3_ocp, C, 0x43e7ffff, 0xfffff, false, false, 0x7f,
     "463.99997 rounds up past 448 -> overflow after rounding: E4M3 sign|0x7f"},
    {F::e4m3_ocp, C, 0x43e7ffff, 0xfffff, false, true, 0x7e,
     "same with FP16_OVFL saturating: max finite 0x7e"},
    {F::e4m3_ocp, C, 0x43e7ffff, 0x00000, false, false, 0x7e, "seed 0: truncates to 448"},
    {F::e4m3_ocp, C, 0xc3e7ffff, 0x80000, false, false, 0xfe,
     "-463.99997: dropped 0x7ffff + 0x80000 = 0xfffff, no carry -> -448"},

    // --- RNE (the `literal` reading's rounding) ------------------------------------------
    {F::e4m3_ocp, R, 0x3f800000, 0, false, false, 0x38, "gfx950 fp8(1.0) = 0x38 (C)"},
    {F::e4m3_ocp, R, 0x40000000, 0, false, false, 0x40, "gfx950 fp8(2.0) = 0x40 (C)"},
    {F::e5m2_ocp, R, 0x3f800000, 0, false, false, 0x3c, "gfx950 bf8(1.0) = 0x3c (C)"},
    {F::e5m2_ocp, R, 0x47700000, 0, false, false, 0x7c,
     "gfx950 bf8(61440) = 0x7c: the tie above max 57344 goes to the even code 0x7c = Inf"},
    {F::e5m2_ocp, R, 0x7f800000, 0, false, false, 0x7c, "gfx950 bf8(+Inf) = 0x7c"},
    {F::e5m2_ocp, R, 0xff800000, 0, false, false, 0xfc, "gfx950 bf8(-Inf) = 0xfc"},
    {F::e4m3_ocp, R, 0x3f880000, 0, false, false, 0x38, "1.0625: tie -> even 0x38"},
    {F::e4m3_ocp, R, 0x3f980000, 0, false, false, 0x3a, "1.1875: tie -> even 0x3a"},
    {F::e4m3_ocp, R, 0x43e80000, 0, false, false, 0x7e,
     "464 = 448 + half quantum: tie, 0x7e is even -> 448 (no overflow)"},
    {F::e4m3_ocp, R, 0x43f00000, 0, false, false, 0x7f, "480: overflow -> sign|0x7f"},
    {F::e4m3_ocp, R, 0x3b000000, 0, false, false, 0x01, "2^-9: smallest subnormal 0x01"},
    {F::e4m3_ocp, R, 0x3a800000, 0, false, false, 0x00, "2^-10: tie -> even 0x00"},
    {F::e4m3_ocp, R, 0x3ac00000, 0, false, false, 0x01, "1.5 * 2^-10: 0.75 quantum -> 0x01"},
    {F::e4m3_ocp, R, 0xbac00000, 0, false, false, 0x81, "-1.5 * 2^-10 -> 0x81"},
    {F::e4m3_ocp, R, 0xba800000, 0, false, false, 0x80, "-2^-10 -> -0 = 0x80 (OCP keeps -0)"},
    {F::e4m3_ocp, R, 0x80000000, 0, false, false, 0x80, "-0 -> 0x80 (OCP)"},

    // --- formats: FNUZ (gfx942) -----------------------------------------------------------
    {F::e4m3_fnuz, R, 0x3f800000, 0, false, false, 0x40, "E4M3 FNUZ 1.0: bias 8 -> 0x40"},
    {F::e4m3_fnuz, R, 0x43700000, 0, false, false, 0x7f, "240 = max finite 0x7f"},
    {F::e4m3_fnuz, R, 0x447a0000, 0, false, false, 0x80, "1000: overflow -> 0x80 (NaN)"},
    {F::e4m3_fnuz, R, 0xc47a0000, 0, false, false, 0x80, "-1000: overflow -> 0x80"},
    {F::e4m3_fnuz, R, 0x447a0000, 0, false, true, 0x7f, "1000, FP16_OVFL: 0x7f"},
    {F::e4m3_fnuz, R, 0xc47a0000, 0, false, true, 0xff, "-1000, FP16_OVFL: 0xff"},
    {F::e4m3_fnuz, R, 0x7f800000, 0, false, true, 0x80, "+Inf -> 0x80 even with FP16_OVFL"},
    {F::e4m3_fnuz, R, 0xffc00000, 0, true, false, 0x80, "NaN -> 0x80 (one NaN; no sign)"},
    {F::e4m3_fnuz, R, 0x80000000, 0, false, false, 0x00, "-0 -> 0x00 (no -0 in FNUZ)"},
    {F::e4m3_fnuz, C, 0xba000000, 0x7ffff, false, false, 0x00,
     "-2^-11 (half the FNUZ subnormal quantum 2^-10), seed just under 1/2: truncates to zero "
     "-> 0x00, never 0x80"},
    {F::e5m2_fnuz, R, 0x3f800000, 0, false, false, 0x40, "E5M2 FNUZ 1.0: bias 16 -> 0x40"},
    {F::e5m2_fnuz, R, 0x47600000, 0, false, false, 0x7f, "57344 = max 0x7f"},
    {F::e5m2_fnuz, R, 0x49742400, 0, false, false, 0x80, "1e6 -> 0x80"},
    {F::e5m2_fnuz, R, 0x37000000, 0, false, false, 0x01, "2^-17: smallest subnormal"},

    // --- fp8_nan, fp16_ovfl on OCP ----------------------------------------------------------
    {F::e4m3_ocp, R, 0x7fc00000, 0, false, false, 0xff, "E4M3 +NaN canonical: 0xff"},
    {F::e4m3_ocp, R, 0x7fc00000, 0, true, false, 0x7f, "E4M3 +NaN sign_preserving: 0x7f"},
    {F::e4m3_ocp, R, 0xffc00000, 0, true, false, 0xff, "E4M3 -NaN sign_preserving: 0xff"},
    {F::e5m2_ocp, R, 0x7fc00000, 0, false, false, 0xfe, "E5M2 +NaN canonical: 0xfe"},
    {F::e5m2_ocp, R, 0x7fc00000, 0, true, false, 0x7e, "E5M2 +NaN sign_preserving: 0x7e"},
    {F::e5m2_ocp, C, 0xffc00001, 0x1fffff, true, false, 0xfe, "E5M2 -NaN sign_preserving"},
    {F::e4m3_ocp, R, 0x7f800000, 0, false, false, 0x7f, "E4M3 +Inf -> 0x7f (a NaN)"},
    {F::e4m3_ocp, R, 0xff800000, 0, false, true, 0xff,
     "E4M3 -Inf with FP16_OVFL: still NaN 0xff (saturation is for finite values only)"},
    {F::e4m3_ocp, R, 0x447a0000, 0, false, false, 0x7f, "E4M3 1000 -> 0x7f"},
    {F::e4m3_ocp, R, 0x447a0000, 0, false, true, 0x7e, "E4M3 1000, FP16_OVFL -> 0x7e"},
    {F::e4m3_ocp, R, 0xc47a0000, 0, false, true, 0xfe, "E4M3 -1000, FP16_OVFL -> 0xfe"},
    {F::e5m2_ocp, R, 0x49742400, 0, false, false, 0x7c, "E5M2 1e6 -> +Inf 0x7c"},
    {F::e5m2_ocp, R, 0x49742400, 0, false, true, 0x7b, "E5M2 1e6, FP16_OVFL -> 0x7b"},
    {F::e5m2_ocp, R, 0xc9742400, 0, false, true, 0xfb, "E5M2 -1e6, FP16_OVFL -> 0xfb"},
    {F::e5m2_ocp, R, 0x7f800000, 0, false, true, 0x7c, "E5M2 +Inf, FP16_OVFL: still Inf"},

    // --- UE5M3 (gfx1250 CLAMP) ------------------------------------------------------------
    {F::ue5m3, R, 0x3f800000, 0, false, false, 0x78, "UE5M3 1.0: exponent 15 << 3 = 0x78"},
    {F::ue5m3, R, 0xbf800000, 0, false, false, 0x00, "UE5M3 -1.0 -> 0x00 (negatives clamp)"},
    {F::ue5m3, R, 0x47e00000, 0, false, false, 0xfe, "114688 = max 0xfe"},
    {F::ue5m3, R, 0x49742400, 0, false, false, 0xfe, "1e6 saturates to 0xfe"},
    {F::ue5m3, R, 0x7f800000, 0, false, false, 0xfe, "+Inf -> 0xfe"},
    {F::ue5m3, R, 0xff800000, 0, false, false, 0x00, "-Inf -> 0x00"},
    {F::ue5m3, R, 0xffc00000, 0, true, false, 0xff, "NaN (either sign) -> 0xff"},
    {F::ue5m3, C, 0x37000000, 0x0, false, false, 0x01, "2^-17: smallest subnormal 0x01"},
    {F::ue5m3, C, 0x36800000, 0x80000, false, false, 0x01,
     "2^-18 = half the subnormal quantum, seed 1/2: carries -> 0x01"},
    {F::ue5m3, C, 0x36800000, 0x7ffff, false, false, 0x00, "seed just under 1/2: 0x00"},
    {F::ue5m3, C, 0xc2000000, 0xfffff, false, false, 0x00, "-32.0 -> 0x00 whatever the seed"},
};

TEST(F32ToFp8, DiscriminatingInputs) {
  for (const Row& r : kRows) {
    EXPECT_EQ(Fast(r), r.want) << GetFp8Format(r.format).name << " x=" << std::hex << r.x
                               << " seed=" << r.seed << ": " << r.separates;
    EXPECT_EQ(Oracle(r), r.want) << "oracle " << GetFp8Format(r.format).name << " x=" << std::hex
                                 << r.x << " seed=" << r.seed << ": " << r.separates;
  }
}

// docs/semantics.md §6: over all 2^20 seeds, 1 + 2^-5 (a quarter of E4M3's quantum above 1.0)
// rounds up exactly 2^18 times under carry_truncate.
TEST(F32ToFp8SrCarryTruncate, RoundUpCountIsTheExactFraction) {
  const Fp8Params p = MakeFp8Params(GetFp8Format(F::e4m3_ocp), {});
  uint32_t ups = 0;
  for (uint32_t seed = 0; seed < (1u << 20); ++seed) {
    const uint32_t b = F32ToFp8SrCarryTruncate(0x3f840000, seed, p);
    ASSERT_TRUE(b == 0x38 || b == 0x39) << seed;
    ups += b == 0x39;
  }
  EXPECT_EQ(ups, 1u << 18);
}

// The same for every format and a spread of values (normal and subnormal outputs): the count
// of round-ups over all 2^k seeds is floor(frac * 2^k), where frac is the value's exact
// fraction of its quantum. For values whose quantum lies at or above 2^-k of their own
// significand (normal outputs) the fraction is the low k bits; for subnormal outputs it is
// given per row by hand.
TEST(F32ToFp8SrCarryTruncate, RoundUpCountEveryFormat) {
  struct Case {
    F format;
    uint32_t x;
    uint32_t want_ups;
    const char* why;
  };
  const Case cases[] = {
      {F::e4m3_ocp, 0x3f812345, 0x12345, "normal: low 20 bits 0x12345"},
      {F::e4m3_fnuz, 0x40fedcba, 0xedcba, "normal: low 20 bits 0xedcba"},
      {F::e5m2_ocp, 0x3f9fffff, 0x1fffff, "normal: low 21 bits 0x1fffff"},
      {F::e5m2_fnuz, 0x3e800001, 0x000001, "normal: low 21 bits 0x000001"},
      {F::ue5m3, 0x40400000, 0x00000, "3.0 is exact: never rounds up"},
      {F::e4m3_ocp, 0x35800000, 0x200, "2^-20 = 2^-11 quantum: 2^9 of 2^20 seeds"},
      {F::e4m3_ocp, 0x3a900000, 0x90000,
       "2^-10 * 1.125 = 0.5625 of the subnormal quantum 2^-9: 0.5625 * 2^20 = 0x90000"},
  };
  for (const Case& c : cases) {
    const Fp8Format& f = GetFp8Format(c.format);
    const Fp8Params p = MakeFp8Params(f, {});
    const uint32_t k = 23 - f.man_bits;
    const uint32_t down = F32ToFp8SrCarryTruncate(c.x, 0, p);
    uint32_t ups = 0;
    for (uint32_t seed = 0; seed < (1u << k); ++seed) ups += F32ToFp8SrCarryTruncate(c.x, seed, p) != down;
    EXPECT_EQ(ups, c.want_ups) << f.name << " " << std::hex << c.x << ": " << c.why;
  }
}

}  // namespace
}  // namespace lanediff
