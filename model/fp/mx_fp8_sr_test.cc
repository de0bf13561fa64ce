// The scaled stochastic-rounding fp8/bf8 encoders (mx.h F32ToFp8ScaledSr, mx_oracle.h
// OracleToFp8ScaledSr): hand-derived known answers through both, then fast == oracle over f16
// and bf16 patterns (their own seed widths), f32 edges and random words, seeds and scales, under
// both mx_sr_round readings and the scale readings.
//
// Values (OCP OFP8): E4M3 bias 7, 3 mantissa bits, quantum 2^-3 in [1, 2), max 0x7E = 448,
// 0x7F NaN, smallest normal 2^-6, subnormal quantum 2^-9; E5M2 bias 15, 2 mantissa bits, quantum
// 2^-2 in [1, 2), max 0x7B = 57344, Inf 0x7C. Seed of an f32 source (HIP from_float_sr
// `seed >> (32 - 23 + M)`): S1[31:12] for E4M3, S1[31:11] for E5M2, a fraction of one quantum.
// The scale operand's exponent field e is 2^(e - 127): 0x3f800000 is 2^0, 0x40000000 2^1.
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"

namespace lanediff {
namespace {

const Fp8Format& kE4m3 = GetFp8Format(Fp8FormatId::e4m3_ocp);
const Fp8Format& kE5m2 = GetFp8Format(Fp8FormatId::e5m2_ocp);

// Fast path for a source of any width, widened exactly as the ops widen it.
uint32_t Fast(uint32_t src, MxSource source, uint32_t s1, uint32_t scale, const Fp8Format& f,
              const Fp8Options& fo, const MxFp8EncodeOptions& o) {
  uint32_t x = src, man = 23;
  if (source == MxSource::f16) {
    if (o.flush_denormal_in && (src & 0x7c00u) == 0) src &= 0x8000u;
    x = F16ToF32(src);
    man = 10;
  }
  if (source == MxSource::bf16) {
    x = Bf16ToF32(src);
    man = 7;
  }
  return F32ToFp8ScaledSr(x, scale, s1, man, MakeFp8Params(f, fo), o);
}

// Both paths on one f32 lane must give `want`.
void Expect(uint32_t x, uint32_t s1, uint32_t scale, const Fp8Format& f, uint32_t want,
            const MxFp8EncodeOptions& o = {}, const Fp8Options& fo = {}) {
  EXPECT_EQ(Fast(x, MxSource::f32, s1, scale, f, fo, o), want)
      << f.name << " fast x 0x" << std::hex << x << " s1 0x" << s1 << " scale 0x" << scale;
  EXPECT_EQ(OracleToFp8ScaledSr(x, MxSource::f32, s1, scale, f, fo, o), want)
      << f.name << " oracle x 0x" << std::hex << x << " s1 0x" << s1 << " scale 0x" << scale;
}

MxFp8EncodeOptions Exact() {
  MxFp8EncodeOptions o;
  o.sr_round = MxSrRound::f32_exact_subnormal;
  return o;
}

TEST(MxFp8Sr, HandDerivedE4m3) {
  const uint32_t one = 0x3f800000u;
  // 1.0625 = 1 + 1/16, half a quantum above 0x38 (1.0). Seed S1[31:12] = 2^19 is half a
  // quantum: the sum reaches 1.125 = 0x39. One seed step less stays at 0x38; S1[11:0] is not read.
  Expect(0x3f880000u, 0x80000000u, one, kE4m3, 0x39u);
  Expect(0x3f880000u, 0x7ffff000u, one, kE4m3, 0x38u);
  Expect(0x3f880000u, 0x7fffffffu, one, kE4m3, 0x38u);
  Expect(0x3f880000u, 0x00000fffu, one, kE4m3, 0x38u);
  // The sign rides along: -1.0625 -> 0xb9.
  Expect(0xbf880000u, 0x80000000u, one, kE4m3, 0xb9u);
  // The scale comes first: 2.125 / 2^1 = 1.0625 -> 0x39 as above; multiplied, 2.125 * 2 = 4.25,
  // half a quantum (0.5) above 4.0 = 0x48: 4.5 = 0x49.
  Expect(0x40080000u, 0x80000000u, 0x40000000u, kE4m3, 0x39u);
  MxFp8EncodeOptions mul;
  mul.direction = MxScaleDir::multiply;
  Expect(0x40080000u, 0x80000000u, 0x40000000u, kE4m3, 0x49u, mul);
  // A carry into the next binade: 1.9375 = 1.875 (0x3e) + 1/16 -> 2.0 = 0x40.
  Expect(0x3ff80000u, 0x80000000u, one, kE4m3, 0x40u);
  // 464 = 448 + 16, half a quantum (32) past the largest: seed 0 truncates to 448 = 0x7e; half
  // a quantum reaches 480, an overflow decided after rounding: 0x7f (mx_fp8_overflow=nan), 0x7e
  // saturated.
  Expect(0x43e80000u, 0u, one, kE4m3, 0x7eu);
  Expect(0x43e80000u, 0x80000000u, one, kE4m3, 0x7fu);
  Fp8Options sat;
  sat.saturate_finite = sat.saturate_inf = true;
  Expect(0x43e80000u, 0x80000000u, one, kE4m3, 0x7eu, {}, sat);
  // Specials, whatever the seed: NaN -> 0xff (the format's NaN byte under fp8_nan=canonical,
  // fp8_format.h e4m3_ocp), Inf -> the overflow byte 0x7f, -0 -> 0x80; a NaN scale byte
  // (exponent field 0xFF) -> the NaN byte.
  Expect(0x7fc00000u, 0xffffffffu, one, kE4m3, 0xffu);
  Expect(0x7f800000u, 0xffffffffu, one, kE4m3, 0x7fu);
  Expect(0x80000000u, 0xffffffffu, one, kE4m3, 0x80u);
  Expect(0x3f800000u, 0xffffffffu, 0x7f800000u, kE4m3, 0xffu);
}

TEST(MxFp8Sr, HandDerivedSubnormalReadings) {
  const uint32_t one = 0x3f800000u;
  // 2^-8 (1 + 2^-23) = 0x3b800001 is 2 + 2^-22 subnormal quanta (2^-9). source_grid: the 2^-22
  // lies below the seed's 2^-20 grid and is dropped; the top 20 bits of 0xffffffff are one step
  // short of a quantum: 0x02. f32_exact_subnormal: k = 20 + 2 binades below 2^-6 = 22 bits kept,
  // S1's top 22 bits (2^22 - 1) plus the kept 1 reach a quantum: 0x03.
  Expect(0x3b800001u, 0xffffffffu, one, kE4m3, 0x02u);
  Expect(0x3b800001u, 0xffffffffu, one, kE4m3, 0x03u, Exact());
  // 1.0 over 2^10 (exponent field 137 = 0x44800000) = 2^-10, half a subnormal quantum: seed half
  // (0x80000000) reaches 2^-9 = 0x01 under both readings (k = 24: S1's top 24 bits 2^23); one
  // short stays at 0.
  Expect(one, 0x80000000u, 0x44800000u, kE4m3, 0x01u);
  Expect(one, 0x80000000u, 0x44800000u, kE4m3, 0x01u, Exact());
  Expect(one, 0x7fffffffu, 0x44800000u, kE4m3, 0x00u);
  Expect(one, 0x7fffffffu, 0x44800000u, kE4m3, 0x00u, Exact());
  // 1.0 over 2^11 = 2^-11, a quarter quantum: source_grid adds S1's top 20 bits (one step short
  // of a whole quantum) and carries: 0x01; f32_exact_subnormal has k = 25 > 24: zero.
  Expect(one, 0xffffffffu, 0x45000000u, kE4m3, 0x01u);
  Expect(one, 0xffffffffu, 0x45000000u, kE4m3, 0x00u, Exact());
}

TEST(MxFp8Sr, HandDerivedE5m2) {
  const uint32_t one = 0x3f800000u;
  // 1.125 = 1 + half a quantum (0.25): S1[31:11] = 2^20 is half -> 1.25 = 0x3d; one step less
  // -> 0x3c; S1[10:0] is not read.
  Expect(0x3f900000u, 0x80000000u, one, kE5m2, 0x3du);
  Expect(0x3f900000u, 0x7ffff800u, one, kE5m2, 0x3cu);
  Expect(0x3f900000u, 0x000007ffu, one, kE5m2, 0x3cu);
  // 61440 = 57344 (0x7b) + 4096, half a quantum (8192): seed 0 -> 0x7b; half -> 65536, past the
  // largest: Inf 0x7c (mx_bf8_overflow=infinity). +-Inf in -> 0x7c / 0xfc.
  Expect(0x47700000u, 0u, one, kE5m2, 0x7bu);
  Expect(0x47700000u, 0x80000000u, one, kE5m2, 0x7cu);
  Expect(0xff800000u, 0x80000000u, one, kE5m2, 0xfcu);
}

// 16-bit sources: the seed width is the source's (HIP from_float_sr): f16 1 + 2^-4 (0x3c40) is
// half an E4M3 quantum above 1.0; its seed is S1[31:25] (7 bits), so 0x80000000 carries (0x39)
// and 0x7fffffff (top 7 bits 0x3f, under half) does not (0x38). bf16 1 + 2^-4 (0x3f88): seed
// S1[31:28], alike. (On a normal result a wider seed gives the same carries: the value sits on
// the narrower grid, so only subnormal results tell the widths apart.)
TEST(MxFp8Sr, HandDerived16BitSeedWidth) {
  const Fp8Params p = MakeFp8Params(kE4m3, {});
  const uint32_t one = 0x3f800000u;
  EXPECT_EQ(F32ToFp8ScaledSr(F16ToF32(0x3c40u), one, 0x80000000u, 10, p, {}), 0x39u);
  EXPECT_EQ(F32ToFp8ScaledSr(F16ToF32(0x3c40u), one, 0x7fffffffu, 10, p, {}), 0x38u);
  EXPECT_EQ(F32ToFp8ScaledSr(Bf16ToF32(0x3f88u), one, 0x80000000u, 7, p, {}), 0x39u);
  EXPECT_EQ(F32ToFp8ScaledSr(Bf16ToF32(0x3f88u), one, 0x7fffffffu, 7, p, {}), 0x38u);
  EXPECT_EQ(OracleToFp8ScaledSr(0x3c40u, MxSource::f16, 0x80000000u, one, kE4m3, {}, {}), 0x39u);
  EXPECT_EQ(OracleToFp8ScaledSr(0x3f88u, MxSource::bf16, 0x7fffffffu, one, kE4m3, {}, {}), 0x38u);
  // A subnormal result: f16 0x1c01 = 2^-8 (1 + 2^-10) is 2 + 2^-9 E4M3 subnormal quanta. The
  // f16 seed grid is quantum / 2^7 after the 2-binade denormal shift: the 2^-9 falls below it,
  // so S1 0xffffffff (127 of 128 steps) leaves 0x02; f32_exact_subnormal keeps k = 22 bits (the
  // 2^-9 is 2^13 of them) and adds S1's top 22 bits, 2^22 - 1: it carries, 0x03.
  EXPECT_EQ(F32ToFp8ScaledSr(F16ToF32(0x1c01u), one, 0xffffffffu, 10, p, {}), 0x02u);
  MxFp8EncodeOptions exact;
  exact.sr_round = MxSrRound::f32_exact_subnormal;
  EXPECT_EQ(F32ToFp8ScaledSr(F16ToF32(0x1c01u), one, 0xffffffffu, 10, p, exact), 0x03u);
  EXPECT_EQ(OracleToFp8ScaledSr(0x1c01u, MxSource::f16, 0xffffffffu, one, kE4m3, {}, exact),
            0x03u);
}

// Scale operands (exponent fields around 2^0, the extremes, 0xFF; a mantissa on some) and seeds.
const uint32_t kScales[] = {0x00000000u, 0x3b800000u, 0x3f000000u, 0x3f800000u, 0x40000000u,
                            0x44800000u, 0x4b800000u, 0x7f000000u, 0x7f800000u, 0x3fc00000u,
                            0xc0400000u};
const uint32_t kSeeds[] = {0u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x12345678u, 0xfffff000u};

std::vector<MxFp8EncodeOptions> Readings() {
  std::vector<MxFp8EncodeOptions> v;
  for (MxSrRound r : {MxSrRound::source_grid, MxSrRound::f32_exact_subnormal}) {
    for (int k = 0; k < 3; ++k) {
      MxFp8EncodeOptions o;
      o.sr_round = r;
      if (k == 1) o.direction = MxScaleDir::multiply;
      if (k == 2) o.read = MxScaleRead::f32_multiply;
      v.push_back(o);
    }
  }
  return v;
}

// 16-bit patterns on a stride x scales x seeds x formats x readings: fast == oracle.
TEST(MxFp8Sr, SixteenBitSourcesOnAStrideFastEqualsOracle) {
  uint64_t n = 0;
  for (MxSource source : {MxSource::f16, MxSource::bf16}) {
    for (const MxFp8EncodeOptions& o : Readings()) {
      for (const Fp8Format* f : {&kE4m3, &kE5m2}) {
        for (uint32_t h = 0; h < 0x10000u; h += 13) {
          const uint32_t scale = kScales[h % std::size(kScales)];
          const uint32_t s1 = kSeeds[(h / 7) % std::size(kSeeds)];
          ASSERT_EQ(Fast(h, source, s1, scale, *f, {}, o),
                    OracleToFp8ScaledSr(h, source, s1, scale, *f, {}, o))
              << f->name << " src 0x" << std::hex << h << " s1 0x" << s1 << " scale 0x" << scale;
          ++n;
        }
      }
    }
  }
  EXPECT_GT(n, 60000u);
}

// f32 sources: every exponent with edge fractions, and random words, x scales x seeds.
TEST(MxFp8Sr, F32EdgesAndRandomFastEqualsOracle) {
  std::vector<uint32_t> xs;
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t m : {0x000000u, 0x000001u, 0x400000u, 0x7fffffu, 0x080000u, 0x0fffffu}) {
      xs.push_back((e << 23) | m);
      xs.push_back(0x80000000u | (e << 23) | m);
    }
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 1000; ++i) xs.push_back(static_cast<uint32_t>(rng()));
  for (const MxFp8EncodeOptions& o : Readings()) {
    for (const Fp8Format* f : {&kE4m3, &kE5m2}) {
      for (uint32_t x : xs) {
        const uint32_t scale = kScales[rng() % std::size(kScales)];
        const uint32_t s1 = rng() % 2 ? kSeeds[rng() % std::size(kSeeds)]
                                      : static_cast<uint32_t>(rng());
        ASSERT_EQ(Fast(x, MxSource::f32, s1, scale, *f, {}, o),
                  OracleToFp8ScaledSr(x, MxSource::f32, s1, scale, *f, {}, o))
            << f->name << " x 0x" << std::hex << x << " s1 0x" << s1 << " scale 0x" << scale;
      }
    }
  }
}

}  // namespace
}  // namespace lanediff
