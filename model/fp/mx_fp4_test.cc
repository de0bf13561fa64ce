// The scaled FP4 encoder (mx.h F32ToMxScaledRne, mx_oracle.h OracleToMxScaled): hand-derived
// known answers through both, then fast == oracle on every f16-exact and every bf16-exact f32 x
// a scale set under both scale readings, every option set on a stride, and f32 edges. The SR
// MX element encoder (F32ToMxScaledSr, OracleToMxScaledSr) likewise on FP4, FP6 and BF6.
//
// Values (OCP MX v1.0 FP4 E2M1, as restated in jax-ml/ml_dtypes ml_dtypes/include/mxfloat.h and
// the CUDA toolkit's cuda_fp4.h): codes 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 the sign. The
// scale operand's exponent field e is 2^(e - 127) under MxScaleRead::exponent (0x3f800000 2^0,
// 0x40000000 2^1); under f32_multiply the whole f32 (0x40400000 is 3.0, 0x3fc00000 1.5).
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"

namespace lanediff {
namespace {

const MxElemFormat& kFp4 = GetMxElemFormat(MxElemId::fp4_e2m1);
constexpr MxScaleRead kExp = MxScaleRead::exponent;
constexpr MxScaleRead kF32 = MxScaleRead::f32_multiply;

MxEncodeOptions Opt(MxScaleDir d = MxScaleDir::divide, MxNanIn nan = MxNanIn::max_keep_sign) {
  MxEncodeOptions o;
  o.direction = d;
  o.nan_in = nan;
  return o;
}

// Both paths on one f32 lane must give `want`.
void Expect(uint32_t x, uint32_t scale, MxScaleRead read, uint32_t want,
            const MxEncodeOptions& o = {}) {
  EXPECT_EQ(F32ToMxScaledRne(x, scale, read, MakeMxEncodeParams(kFp4, o)), want)
      << "fast x 0x" << std::hex << x << " scale 0x" << scale;
  EXPECT_EQ(OracleToMxScaled(x, MxSource::f32, scale, kFp4, o, read), want)
      << "oracle x 0x" << std::hex << x << " scale 0x" << scale;
}

TEST(MxFp4ScaledEncode, HandDerived) {
  // 6.0 / 2^1 = 3.0 = code 5; 1.0 * 2^1 = 2.0 = code 4 (multiply).
  Expect(0x40c00000u, 0x40000000u, kExp, 0x5u);
  Expect(0x3f800000u, 0x40000000u, kExp, 0x4u, Opt(MxScaleDir::multiply));
  // Ties to even: 2.5 between 2 (code 4) and 3 (5) -> 4; 0.25 between 0 and 0.5 -> 0; 0.75
  // between 0.5 (1) and 1 (2) -> 2; 5.0 between 4 (6) and 6 (7) -> 6; -0.25 -> -0 (0x8).
  Expect(0x40200000u, 0x3f800000u, kExp, 0x4u);
  Expect(0x3e800000u, 0x3f800000u, kExp, 0x0u);
  Expect(0x3f400000u, 0x3f800000u, kExp, 0x2u);
  Expect(0x40a00000u, 0x3f800000u, kExp, 0x6u);
  Expect(0xbe800000u, 0x3f800000u, kExp, 0x8u);
  // Past 6: 7.0 -> 0x7 (saturates), -100 -> 0xf, +Inf -> 0x7, -Inf -> 0xf.
  Expect(0x40e00000u, 0x3f800000u, kExp, 0x7u);
  Expect(0xc2c80000u, 0x3f800000u, kExp, 0xfu);
  Expect(0x7f800000u, 0x3f800000u, kExp, 0x7u);
  Expect(0xff800000u, 0x3f800000u, kExp, 0xfu);
  // NaN: -NaN 0xffc00000 under max_keep_sign -> 0xf, pos_max -> 0x7, neg_zero -> 0x8; +NaN
  // 0x7fc00000 -> 0x7, 0x7, 0x8.
  Expect(0xffc00000u, 0x3f800000u, kExp, 0xfu);
  Expect(0xffc00000u, 0x3f800000u, kExp, 0x7u, Opt(MxScaleDir::divide, MxNanIn::pos_max));
  Expect(0xffc00000u, 0x3f800000u, kExp, 0x8u, Opt(MxScaleDir::divide, MxNanIn::neg_zero));
  Expect(0x7fc00000u, 0x3f800000u, kExp, 0x7u);
  Expect(0x7fc00000u, 0x3f800000u, kExp, 0x7u, Opt(MxScaleDir::divide, MxNanIn::pos_max));
  Expect(0x7fc00000u, 0x3f800000u, kExp, 0x8u, Opt(MxScaleDir::divide, MxNanIn::neg_zero));
  // The scale byte 0xFF (an Inf scale operand) is NaN by default: -1.0 gives -NaN -> 0xf.
  Expect(0xbf800000u, 0x7f800000u, kExp, 0xfu);
  // A denormal source: 2^-127 (0x00400000) / 2^-127 (scale byte 0) = 1.0 = code 2.
  Expect(0x00400000u, 0x00000000u, kExp, 0x2u);
  // f32_multiply: 6 / 3.0 = 2 (code 4); 1.0 / 1.5 = 0.667, nearer 0.5 (code 1) than 1 (the
  // exponent reading takes 1.5 as 2^0: code 2); 3.0 / -1.0 = -3 (0xd; exponent reading +3, 0x5).
  Expect(0x40c00000u, 0x40400000u, kF32, 0x4u);
  Expect(0x3f800000u, 0x3fc00000u, kF32, 0x1u);
  Expect(0x3f800000u, 0x3fc00000u, kExp, 0x2u);
  Expect(0x40400000u, 0xbf800000u, kF32, 0xdu);
  Expect(0x40400000u, 0xbf800000u, kExp, 0x5u);
  // An inexact quotient at a tie: 2.25 (0x40100000) / 3 = 0.75 exactly, a tie -> even code 2;
  // 0x400fffff (2.25 - 2^-22) / 3 is just below 0.75 -> code 1; 0x40100001 / 3 just above -> 2.
  Expect(0x40100000u, 0x40400000u, kF32, 0x2u);
  Expect(0x400fffffu, 0x40400000u, kF32, 0x1u);
  Expect(0x40100001u, 0x40400000u, kF32, 0x2u);
  // f32_multiply specials: 1 / +0 = +Inf -> 0x7; 0 / 0 = NaN, positive -> 0x7 (max_keep_sign),
  // 0x8 (neg_zero); 1 / Inf = +0; a -NaN operand keeps its sign: 0xf.
  Expect(0x3f800000u, 0x00000000u, kF32, 0x7u);
  Expect(0x00000000u, 0x00000000u, kF32, 0x7u);
  Expect(0x00000000u, 0x00000000u, kF32, 0x8u, Opt(MxScaleDir::divide, MxNanIn::neg_zero));
  Expect(0x3f800000u, 0x7f800000u, kF32, 0x0u);
  Expect(0x3f800000u, 0xffc00000u, kF32, 0xfu);
}

// Scale operands: exponent fields 0, 1, 2^-24 .. 2^24 around 2^0, 2^127, 0xFF; a sign and a
// mantissa on some (read only under f32_multiply).
const uint32_t kScales[] = {0x00000000u, 0x00800000u, 0x33800000u, 0x3b800000u, 0x3e800000u,
                            0x3f000000u, 0x3f800000u, 0x40000000u, 0x43000000u, 0x4b800000u,
                            0x7f000000u, 0x7f800000u, 0x3fc00000u, 0xc0400000u, 0x7fc00000u,
                            0x00400000u};

// Every 16-bit pattern (on `stride`) widened to f32 (f16 and bf16) x kScales x `read`: fast ==
// oracle. Returns the count.
uint64_t Sweep(const MxEncodeOptions& o, MxScaleRead read, uint32_t stride) {
  const MxEncodeParams p = MakeMxEncodeParams(kFp4, o);
  uint64_t n = 0;
  for (bool bf16 : {false, true}) {
    for (uint32_t h = 0; h < 0x10000u; h += stride) {
      const uint32_t x = bf16 ? Bf16ToF32(h) : F16ToF32(h);
      for (uint32_t scale : kScales) {
        const uint32_t fast = F32ToMxScaledRne(x, scale, read, p);
        const uint32_t slow = OracleToMxScaled(x, MxSource::f32, scale, kFp4, o, read);
        if (fast != slow) {
          ADD_FAILURE() << "x 0x" << std::hex << x << " scale 0x" << scale << ": fast 0x"
                        << fast << " oracle 0x" << slow;
          return n;
        }
        ++n;
      }
    }
  }
  return n;
}

TEST(MxFp4ScaledEncode, EveryF16AndBf16ExactValueTimesScaleSetFastEqualsOracle) {
  EXPECT_EQ(Sweep({}, kExp, 1), 2u * 65536u * 16u);
  EXPECT_EQ(Sweep({}, kF32, 1), 2u * 65536u * 16u);
}

// Every option set (2 directions x 2 zero x 3 NaN-byte x 4 NaN-input x 2 flush = 96) x both
// readings on every 251st pattern.
TEST(MxFp4ScaledEncode, EveryReadingSetOnAStrideFastEqualsOracle) {
  for (MxScaleDir d : {MxScaleDir::divide, MxScaleDir::multiply}) {
    for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
      for (E8m0Nan b : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
        for (MxNanIn in : {MxNanIn::max_keep_sign, MxNanIn::pos_max, MxNanIn::neg_zero,
                           MxNanIn::pos_zero}) {
          for (bool flush : {false, true}) {
            MxEncodeOptions o = Opt(d, in);
            o.scale_zero = z;
            o.scale_nan = b;
            o.flush_denormal_in = flush;
            for (MxScaleRead r : {kExp, kF32}) Sweep(o, r, 251);
          }
        }
      }
    }
  }
}

// f32 sources: every exponent with edge fractions, and random words, x a random scale, both
// readings and directions.
TEST(MxFp4ScaledEncode, F32EdgesAndRandomFastEqualsOracle) {
  std::vector<uint32_t> xs;
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t m : {0x000000u, 0x000001u, 0x400000u, 0x3fffffu, 0x7fffffu, 0x200000u,
                       0x600000u, 0x100000u}) {
      xs.push_back((e << 23) | m);
      xs.push_back(0x80000000u | (e << 23) | m);
    }
  }
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) xs.push_back(static_cast<uint32_t>(rng()));
  for (MxScaleDir d : {MxScaleDir::divide, MxScaleDir::multiply}) {
    const MxEncodeOptions o = Opt(d);
    const MxEncodeParams p = MakeMxEncodeParams(kFp4, o);
    for (MxScaleRead r : {kExp, kF32}) {
      for (uint32_t x : xs) {
        const uint32_t scale = rng() % 4 == 0 ? static_cast<uint32_t>(rng())
                                              : kScales[rng() % std::size(kScales)];
        ASSERT_EQ(F32ToMxScaledRne(x, scale, r, p),
                  OracleToMxScaled(x, MxSource::f32, scale, kFp4, o, r))
            << "x 0x" << std::hex << x << " scale 0x" << scale;
      }
    }
  }
}

// Both SR paths on one lane must give `want` (an f32 source, or the 16-bit pattern `x16` of an
// f16 / bf16 source when `src` says so).
void ExpectSr(const MxElemFormat& f, uint32_t x, uint32_t scale, uint32_t s1, MxSrRound reading,
              uint32_t want, MxSource src = MxSource::f32) {
  const MxEncodeParams p = MakeMxEncodeParams(f, {});
  const uint32_t wide = src == MxSource::f16 ? F16ToF32(x) : src == MxSource::bf16 ? Bf16ToF32(x) : x;
  const uint32_t man = src == MxSource::f32 ? 23u : src == MxSource::f16 ? 10u : 7u;
  EXPECT_EQ(F32ToMxScaledSr(wide, scale, s1, man, kExp, reading, p), want)
      << "fast x 0x" << std::hex << x << " s1 0x" << s1;
  EXPECT_EQ(OracleToMxScaledSr(x, src, s1, scale, f, {}, kExp, reading), want)
      << "oracle x 0x" << std::hex << x << " s1 0x" << s1;
}

TEST(MxElemScaledSr, HandDerived) {
  const MxElemFormat& fp6 = GetMxElemFormat(MxElemId::fp6_e2m3);
  const MxElemFormat& bf6 = GetMxElemFormat(MxElemId::bf6_e3m2);
  constexpr MxSrRound kGrid = MxSrRound::source_grid, kExact = MxSrRound::f32_exact_subnormal;
  // FP4 1.25 over 2^0: half a quantum (0.5) above 1.0 (code 2); the seed is S1's top 23 - 1 = 22
  // bits, a fraction of the quantum: 0x80000000 gives exactly one half, the sum reaches 1.5
  // (code 3); 0x7fffffff falls short.
  ExpectSr(kFp4, 0x3fa00000u, 0x3f800000u, 0x80000000u, kGrid, 0x3u);
  ExpectSr(kFp4, 0x3fa00000u, 0x3f800000u, 0x7fffffffu, kGrid, 0x2u);
  // 6.5 is code 7 (6.0) plus a quarter of its quantum 2: a seed of all ones carries past the
  // largest element, which saturates (0x7); 5.5 (4.0 + 0.75 quanta) carries to 6.0 too.
  ExpectSr(kFp4, 0x40d00000u, 0x3f800000u, 0xffffffffu, kGrid, 0x7u);
  ExpectSr(kFp4, 0x40b00000u, 0x3f800000u, 0xffffffffu, kGrid, 0x7u);
  ExpectSr(kFp4, 0xc0b00000u, 0x3f800000u, 0x00000000u, kGrid, 0xeu);  // -5.5 truncates to -4
  // 0.25 (1 + 2^-23) below FP4's smallest quantum 0.5: half a quantum plus 2^-24 of it.
  // source_grid keeps 22 bits below the quantum (the 2^-24 dropped) and adds S1's top 22:
  // 0x7fffffff gives 2^21 + 2^21 - 1 < 2^22: code 0. f32_exact_subnormal keeps all 24 bits
  // and adds S1's top 24 (0x7fffff): 2^23 + 1 + 2^23 - 1 = 2^24, a carry: code 1 (0.5).
  ExpectSr(kFp4, 0x3e800001u, 0x3f800000u, 0x7fffffffu, kGrid, 0x0u);
  ExpectSr(kFp4, 0x3e800001u, 0x3f800000u, 0x7fffffffu, kExact, 0x1u);
  // FP6 E2M3 (bias 1): 1.0 = 0x08, 1.125 = 0x09; 1.0625 is half its quantum 1/8 above 1.0:
  // S1[31:12] (20 seed bits) at one half carries.
  ExpectSr(fp6, 0x3f880000u, 0x3f800000u, 0x80000000u, kGrid, 0x09u);
  ExpectSr(fp6, 0x3f880000u, 0x3f800000u, 0x7fffffffu, kGrid, 0x08u);
  // BF6 E3M2 (bias 3): 1.0 = 0x0c, 1.25 = 0x0d; 1.125 is half a quantum (1/4) above 1.0.
  ExpectSr(bf6, 0x3f900000u, 0x3f800000u, 0x80000000u, kGrid, 0x0du);
  ExpectSr(bf6, 0x3f900000u, 0x3f800000u, 0x7fffffffu, kGrid, 0x0cu);
  // 2.25 over 2^1 (S2 0x40000000) is 1.125 too.
  ExpectSr(bf6, 0x40100000u, 0x40000000u, 0x80000000u, kGrid, 0x0du);
  // An f16 source: 1.25 (0x3d00) has 10 fraction bits, the seed S1's top 10 - 1 = 9 bits:
  // 0x80000000 is one half (up, 0x3), 0x807fffff the same 9 bits (up), 0x7fffffff down.
  ExpectSr(kFp4, 0x3d00u, 0x3f800000u, 0x80000000u, kGrid, 0x3u, MxSource::f16);
  ExpectSr(kFp4, 0x3d00u, 0x3f800000u, 0x807fffffu, kGrid, 0x3u, MxSource::f16);
  ExpectSr(kFp4, 0x3d00u, 0x3f800000u, 0x7fffffffu, kGrid, 0x2u, MxSource::f16);
  // A bf16 source: 1.25 is 0x3fa0 (7 fraction bits, 6 seed bits: S1[31:26]).
  ExpectSr(kFp4, 0x3fa0u, 0x3f800000u, 0x80000000u, kGrid, 0x3u, MxSource::bf16);
  ExpectSr(kFp4, 0x3fa0u, 0x3f800000u, 0x7fffffffu, kGrid, 0x2u, MxSource::bf16);
}

// f32, f16 and bf16 sources (edges and random words) x random seeds x random scales, every
// format, both scale readings, both directions, both SR readings: fast == oracle.
TEST(MxElemScaledSr, EdgesAndRandomFastEqualsOracle) {
  std::mt19937 rng(7);
  std::vector<uint32_t> xs;
  for (uint32_t e = 0; e < 256; e += 3) {
    for (uint32_t m : {0x000000u, 0x000001u, 0x400000u, 0x7fffffu, 0x200000u, 0x080001u}) {
      xs.push_back((e << 23) | m);
      xs.push_back(0x80000000u | (e << 23) | m);
    }
  }
  for (int i = 0; i < 600; ++i) xs.push_back(static_cast<uint32_t>(rng()));
  for (MxElemId id : {MxElemId::fp4_e2m1, MxElemId::fp6_e2m3, MxElemId::bf6_e3m2}) {
    const MxElemFormat& f = GetMxElemFormat(id);
    for (MxScaleDir d : {MxScaleDir::divide, MxScaleDir::multiply}) {
      const MxEncodeOptions o = Opt(d);
      const MxEncodeParams p = MakeMxEncodeParams(f, o);
      for (MxScaleRead r : {kExp, kF32}) {
        for (MxSrRound sr : {MxSrRound::source_grid, MxSrRound::f32_exact_subnormal}) {
          for (uint32_t x : xs) {
            const uint32_t scale = rng() % 4 == 0 ? static_cast<uint32_t>(rng())
                                                  : kScales[rng() % std::size(kScales)];
            const uint32_t s1 = static_cast<uint32_t>(rng());
            const MxSource src = static_cast<MxSource>(rng() % 3);
            const uint32_t bits = src == MxSource::f32 ? x : x >> 16;
            const uint32_t wide = src == MxSource::f16   ? F16ToF32(bits)
                                  : src == MxSource::bf16 ? Bf16ToF32(bits)
                                                          : bits;
            const uint32_t man = src == MxSource::f32 ? 23u : src == MxSource::f16 ? 10u : 7u;
            ASSERT_EQ(F32ToMxScaledSr(wide, scale, s1, man, r, sr, p),
                      OracleToMxScaledSr(bits, src, s1, scale, f, o, r, sr))
                << "x 0x" << std::hex << bits << " src " << static_cast<int>(src) << " scale 0x"
                << scale << " s1 0x" << s1 << " fmt " << static_cast<int>(id);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace lanediff
