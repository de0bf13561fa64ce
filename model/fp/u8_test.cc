// f32 -> u8 (v_cvt_pk_u8_f32's arithmetic): docs/semantics.md §3's discriminating inputs, run
// through both the fast function and the exact oracle. Bit patterns come from Python's
// struct.pack('<f', v); expected bytes are docs/semantics.md's, or derived by hand in the comment.
#include "model/fp/u8.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "model/fp/f32.h"
#include "model/fp/oracle.h"

namespace lanediff {
namespace {

struct Row {
  uint32_t x;
  RoundMode rm;
  uint32_t want;
  const char* separates;
};

constexpr RoundMode kRne = RoundMode::nearest_even;
constexpr RoundMode kUp = RoundMode::toward_pos;
constexpr RoundMode kDown = RoundMode::toward_neg;
constexpr RoundMode kZero = RoundMode::toward_zero;  // also the pk_u8_rounding=truncate reading

const Row kRows[] = {
    {0x43018000, kRne, 130, "129.5: RNE 130 vs truncate 129"},
    {0x43018000, kZero, 129, "129.5 under truncate/toward zero: 129"},
    {0x43018000, kUp, 130, "129.5 toward +inf"},
    {0x43018000, kDown, 129, "129.5 toward -inf"},
    {0x3f000000, kRne, 0, "0.5: tie to even 0 (round-half-up would give 1)"},
    {0x3fc00000, kRne, 2, "1.5: tie to even 2 (truncate 1)"},
    {0x40200000, kRne, 2, "2.5: tie to even 2 (round-half-up 3)"},
    {0x437e8000, kRne, 254, "254.5: tie to even 254"},
    {0x437f8000, kRne, 255, "255.5: RNE gives 256, clamps to 255"},
    {0xbf000000, kRne, 0, "-0.5: negative -> 0"},
    {0xbfc00000, kDown, 0, "-1.5 toward -inf is -2: clamps to 0"},
    {0x3e800000, kUp, 1, "0.25 toward +inf: 1 (RNE and truncate give 0)"},
    {0x3e800000, kRne, 0, "0.25 RNE: 0"},
    {0x4301e666, kZero, 129, "129.9 toward zero: 129 (RNE 130)"},
    {0x4301e666, kRne, 130, "129.9 RNE: 130"},
    {0x3fc00000, kDown, 1, "1.5 toward -inf: 1"},
    {0xffc00000, kRne, 0, "NaN 0xffc00000 -> 0"},
    {0x7fc00000, kUp, 0, "+NaN -> 0 even rounding up"},
    {0x7f800001, kRne, 0, "signalling NaN -> 0"},
    {0x7f800000, kRne, 255, "+Inf -> 255"},
    {0xff800000, kRne, 0, "-Inf -> 0"},
    {0x80000000, kUp, 0, "-0 -> 0"},
    {0x43800000, kRne, 255, "256.0 clamps to 255"},
    {0x7149f2ca, kZero, 255, "1e30 clamps to 255"},
    {0x7f7fffff, kRne, 255, "max finite clamps to 255"},
    {0x00000001, kUp, 1, "smallest denormal kept, toward +inf: 1"},
    {0x00000001, kRne, 0, "smallest denormal, RNE: 0"},
    {0x437f0000, kUp, 255, "255.0 exactly"},
    {0x3f7fffff, kUp, 1, "0.99999994 toward +inf: 1"},
    {0x3f7fffff, kRne, 1, "0.99999994 RNE: 1"},
    {0x3f7fffff, kZero, 0, "0.99999994 toward zero: 0"},
    {0x3f000001, kRne, 1, "just above 0.5: 1"},
    {0x4b000001, kRne, 255, "2^23 + 1: far above 255"},
};

TEST(F32ToU8, DiscriminatingInputs) {
  for (const Row& r : kRows) {
    EXPECT_EQ(F32ToU8(r.x, r.rm), r.want) << std::hex << r.x << " " << r.separates;
    EXPECT_EQ(OracleF32ToU8(r.x, r.rm), r.want) << std::hex << r.x << " oracle " << r.separates;
  }
}

TEST(F32ToU8, DenormalFlushSeparatesUnderRoundUp) {
  // MODE[4] = 0 flushes the input: +denormal becomes +0, so toward +inf gives 0, not 1.
  for (uint32_t x : {0x00000001u, 0x007fffffu, 0x00400000u}) {
    EXPECT_EQ(F32ToU8(FlushInputDenormal(x, true), RoundMode::toward_pos), 1u) << std::hex << x;
    EXPECT_EQ(F32ToU8(FlushInputDenormal(x, false), RoundMode::toward_pos), 0u) << std::hex << x;
  }
  EXPECT_EQ(FlushInputDenormal(0x80000005u, false), 0x80000000u);  // keeps the sign
  EXPECT_EQ(FlushInputDenormal(0x3f800000u, false), 0x3f800000u);  // normals untouched
}

TEST(F32ToU8, EveryIntegerAndHalfBelow256) {
  // n and n + 0.5 for every n: n + 0.5 rounds to the even neighbour under RNE, n toward zero,
  // n + 1 toward +inf. Bit patterns built from the definition of binary32, not the model.
  for (uint32_t n = 1; n < 256; ++n) {
    // n + 0.5 = (2n + 1) * 2^-1; normalise 2n + 1 (< 2^9) to 24 bits.
    const uint32_t m = 2 * n + 1;
    int top = 31 - __builtin_clz(m);
    const uint32_t bits = (static_cast<uint32_t>(127 + top - 1) << 23) | ((m << (23 - top)) & 0x7fffff);
    const uint32_t even = (n % 2 == 0) ? n : n + 1;
    EXPECT_EQ(F32ToU8(bits, RoundMode::nearest_even), even > 255 ? 255 : even) << n;
    EXPECT_EQ(F32ToU8(bits, RoundMode::toward_zero), n) << n;
    EXPECT_EQ(F32ToU8(bits, RoundMode::toward_pos), n + 1 > 255 ? 255 : n + 1) << n;
  }
}

TEST(ApplySrcModifiers, AbsThenNeg) {
  EXPECT_EQ(ApplySrcModifiers(0xbf800000, true, false), 0x3f800000u);
  EXPECT_EQ(ApplySrcModifiers(0x3f800000, false, true), 0xbf800000u);
  EXPECT_EQ(ApplySrcModifiers(0x3f800000, true, true), 0xbf800000u);  // -|x|
  EXPECT_EQ(ApplySrcModifiers(0xbf800000, true, true), 0xbf800000u);  // -|x|, not +|x|
}

}  // namespace
}  // namespace lanediff
