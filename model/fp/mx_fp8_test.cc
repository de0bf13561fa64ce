// The scaled OCP fp8/bf8 encoders (mx.h F32ToFp8ScaledRne, mx_oracle.h OracleToFp8Scaled):
// hand-derived known answers through both, then fast == oracle on every f16 and every bf16
// pattern x a scale set x both formats under the default readings, every reading set on a
// stride, and f32 edges and random words.
//
// Values (OCP OFP8 as restated in ROCm/clr amd_hip_ocp_fp.hpp's format table): E4M3 bias 7, 3
// mantissa bits, max 0x7E = 1.75 * 2^8 = 448, 0x7F/0xFF NaN, no Inf, smallest subnormal 0x01 =
// 2^-9; E5M2 bias 15, 2 mantissa bits, max 0x7B = 1.75 * 2^15 = 57344, Inf 0x7C, NaN 0x7D..0x7F.
// The scale operand's exponent field e is 2^(e - 127): 0x3f800000 is 2^0, 0x40000000 2^1,
// 0x3f000000 2^-1.
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

// Fast path for a source of any width: 16-bit sources widened exactly (their own denormals
// flushed first under flush_denormal_in, as the ops do).
uint32_t Fast(uint32_t src, MxSource source, uint32_t scale, const Fp8Format& f,
              const Fp8Options& fo, const MxFp8EncodeOptions& o) {
  uint32_t x = src;
  if (source == MxSource::f16) {
    if (o.flush_denormal_in && (src & 0x7c00u) == 0) src &= 0x8000u;
    x = F16ToF32(src);
  }
  if (source == MxSource::bf16) x = Bf16ToF32(src);
  return F32ToFp8ScaledRne(x, scale, MakeFp8Params(f, fo), o);
}

// Both paths on one f32 lane must give `want`.
void Expect(uint32_t x, uint32_t scale, const Fp8Format& f, uint32_t want,
            const MxFp8EncodeOptions& o = {}, const Fp8Options& fo = {}) {
  EXPECT_EQ(Fast(x, MxSource::f32, scale, f, fo, o), want)
      << f.name << " fast x 0x" << std::hex << x << " scale 0x" << scale;
  EXPECT_EQ(OracleToFp8Scaled(x, MxSource::f32, scale, f, fo, o), want)
      << f.name << " oracle x 0x" << std::hex << x << " scale 0x" << scale;
}

MxFp8EncodeOptions Opt(MxScaleDir d, MxScaleRead r = MxScaleRead::exponent) {
  MxFp8EncodeOptions o;
  o.direction = d;
  o.read = r;
  return o;
}

TEST(MxFp8Encode, HandDerived) {
  const MxFp8EncodeOptions mul = Opt(MxScaleDir::multiply);
  // 2.0 / 2^1 = 1.0 = 0x38 (exponent 0 + 7); 2.0 * 2^1 = 4.0 = 0x48 (2 + 7 = 9).
  Expect(0x40000000u, 0x40000000u, kE4m3, 0x38u);
  Expect(0x40000000u, 0x40000000u, kE4m3, 0x48u, mul);
  // 448 / 2^-1 = 896 overflows: E4M3's overflow byte is 0x7F (a NaN; HIP inf<E4M3>), 0x7E under
  // saturation; 448 * 2^-1 = 224 = 1.75 * 2^7 = 0x76.
  Expect(0x43e00000u, 0x3f000000u, kE4m3, 0x7fu);
  Fp8Options sat;
  sat.saturate_finite = true;
  sat.saturate_inf = true;
  Expect(0x43e00000u, 0x3f000000u, kE4m3, 0x7eu, {}, sat);
  Expect(0x43e00000u, 0x3f000000u, kE4m3, 0x76u, mul);
  // 464 = 1.8125 * 2^8 (0x43e80000) lies halfway between 448 (0x7E, even) and 480: 0x7E; 465
  // (0x43e88000) is past the half: overflow.
  Expect(0x43e80000u, 0x3f800000u, kE4m3, 0x7eu);
  Expect(0x43e88000u, 0x3f800000u, kE4m3, 0x7fu);
  // E5M2: 114688 = 1.75 * 2^16 (0x47e00000) / 2^0 overflows: Inf 0x7C, or 0x7B saturated;
  // / 2^1 = 57344 = 0x7B.
  Expect(0x47e00000u, 0x3f800000u, kE5m2, 0x7cu);
  Expect(0x47e00000u, 0x3f800000u, kE5m2, 0x7bu, {}, sat);
  Expect(0x47e00000u, 0x40000000u, kE5m2, 0x7bu);
  // Infinite sources: E4M3 0x7F (sign kept: 0xFF), E5M2 0x7C / 0xFC; saturated 0x7E / 0x7B.
  Expect(0x7f800000u, 0x3f800000u, kE4m3, 0x7fu);
  Expect(0xff800000u, 0x3f800000u, kE5m2, 0xfcu);
  Expect(0x7f800000u, 0x3f800000u, kE5m2, 0x7bu, {}, sat);
  // Subnormals: 1.5 * 2^-9 (0x3b400000) is halfway between 0x01 and 0x02: 0x02 (even); 2^-10
  // (0x3a800000) halfway between 0 and 0x01: 0; one ulp above (0x3a800001): 0x01.
  Expect(0x3b400000u, 0x3f800000u, kE4m3, 0x02u);
  Expect(0x3a800000u, 0x3f800000u, kE4m3, 0x00u);
  Expect(0x3a800001u, 0x3f800000u, kE4m3, 0x01u);
  Expect(0xba800001u, 0x3f800000u, kE4m3, 0x81u);
  // Scale byte 0 (S 0.0) is 2^-127: the f32 denormal 2^-127 (0x00400000) / 2^-127 = 1.0 = 0x38,
  // kept; flushed first it is +0. 1.0 / 2^-127 overflows.
  Expect(0x00400000u, 0x00000000u, kE4m3, 0x38u);
  MxFp8EncodeOptions flush;
  flush.flush_denormal_in = true;
  Expect(0x00400000u, 0x00000000u, kE4m3, 0x00u, flush);
  Expect(0x3f800000u, 0x00000000u, kE4m3, 0x7fu);
  // Byte 0 read as the value 0: 1.0 / 0 = Inf (E5M2 0x7C), 0 / 0 = NaN (E5M2 canonical 0xFE).
  MxFp8EncodeOptions zero;
  zero.scale_zero = E8m0Zero::zero;
  Expect(0x3f800000u, 0x00000000u, kE5m2, 0x7cu, zero);
  Expect(0x00000000u, 0x00000000u, kE5m2, 0xfeu, zero);
  // Byte 0xFF (S +Inf): NaN (E4M3 canonical 0xFF) by default; 2^128 gives 2^127 / 2^128 = 0.5 =
  // 0x30; as +Inf, 2^127 / Inf = +0.
  Expect(0x7f000000u, 0x7f800000u, kE4m3, 0xffu);
  MxFp8EncodeOptions p128, inf;
  p128.scale_nan = E8m0Nan::pow2_128;
  inf.scale_nan = E8m0Nan::infinity;
  Expect(0x7f000000u, 0x7f800000u, kE4m3, 0x30u, p128);
  Expect(0x7f000000u, 0x7f800000u, kE4m3, 0x00u, inf);
  // The whole f32 read: 3.0 / 1.5 = 2.0 = 0x40 (exponent read: 3.0 / 2^0 = 0x44); 3.0 / -1.5 =
  // -2.0 = 0xC0; 1.0 / 3.0 = 0.333.. lies between 0x2A (0.3125) and 0x2B (0.34375), nearer the
  // latter (exponent read: 1.0 / 2^1 = 0x30).
  const MxFp8EncodeOptions whole = Opt(MxScaleDir::divide, MxScaleRead::f32_multiply);
  Expect(0x40400000u, 0x3fc00000u, kE4m3, 0x40u, whole);
  Expect(0x40400000u, 0x3fc00000u, kE4m3, 0x44u);
  Expect(0x40400000u, 0xbfc00000u, kE4m3, 0xc0u, whole);
  Expect(0x3f800000u, 0x40400000u, kE4m3, 0x2bu, whole);
  Expect(0x3f800000u, 0x40400000u, kE4m3, 0x30u);
  // NaN sources: the format's canonical NaN (0xFF, 0xFE), sign|0x7F under nan_sign_7f.
  Fp8Options nan7f;
  nan7f.nan_sign_7f = true;
  Expect(0x7fc00000u, 0x3f800000u, kE5m2, 0xfeu);
  Expect(0x7fc00000u, 0x3f800000u, kE5m2, 0x7fu, {}, nan7f);
}

// Every reading set the encoders take: direction x read x scale 0x00 x scale 0xFF x input
// flush (2 x 2 x 2 x 3 x 2 = 48), each with the overflow readings off and on.
std::vector<MxFp8EncodeOptions> AllOptions() {
  std::vector<MxFp8EncodeOptions> v;
  for (MxScaleDir d : {MxScaleDir::divide, MxScaleDir::multiply}) {
    for (MxScaleRead r : {MxScaleRead::exponent, MxScaleRead::f32_multiply}) {
      for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
        for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
          for (bool flush : {false, true}) {
            MxFp8EncodeOptions o = Opt(d, r);
            o.scale_zero = z;
            o.scale_nan = n;
            o.flush_denormal_in = flush;
            v.push_back(o);
          }
        }
      }
    }
  }
  return v;
}

// Scale operands: the exponent fields 0, 1, 2^-24 .. 2^24 around 2^0 in steps, 2^127, 0xFF; a
// sign and mantissa on some (read only under f32_multiply).
const uint32_t kScales[] = {0x00000000u, 0x00800000u, 0x33800000u, 0x3b800000u, 0x3e800000u,
                            0x3f000000u, 0x3f800000u, 0x40000000u, 0x43000000u, 0x4b800000u,
                            0x7f000000u, 0x7f800000u, 0x3fc00000u, 0xc0400000u, 0x7fc00000u,
                            0x00400000u};

// Every 16-bit pattern (on `stride`) of `source` x kScales x both formats: fast == oracle.
uint64_t Sweep(MxSource source, const MxFp8EncodeOptions& o, const Fp8Options& fo,
               uint32_t stride) {
  uint64_t n = 0;
  for (const Fp8Format* f : {&kE4m3, &kE5m2}) {
    for (uint32_t h = 0; h < 0x10000u; h += stride) {
      for (uint32_t scale : kScales) {
        const uint32_t fast = Fast(h, source, scale, *f, fo, o);
        const uint32_t slow = OracleToFp8Scaled(h, source, scale, *f, fo, o);
        if (fast != slow) {
          ADD_FAILURE() << f->name << " src 0x" << std::hex << h << " scale 0x" << scale
                        << ": fast 0x" << fast << " oracle 0x" << slow;
          return n;
        }
        ++n;
      }
    }
  }
  return n;
}

TEST(MxFp8Encode, EveryF16AndBf16TimesScaleSetFastEqualsOracle) {
  EXPECT_EQ(Sweep(MxSource::f16, {}, {}, 1), 2u * 65536u * 16u);
  EXPECT_EQ(Sweep(MxSource::bf16, {}, {}, 1), 2u * 65536u * 16u);
}

TEST(MxFp8Encode, EveryReadingSetOnAStrideFastEqualsOracle) {
  for (const MxFp8EncodeOptions& o : AllOptions()) {
    for (bool sat : {false, true}) {
      Fp8Options fo;
      fo.saturate_finite = fo.saturate_inf = sat;
      fo.nan_sign_preserving = sat;
      Sweep(MxSource::f16, o, fo, 251);
      Sweep(MxSource::bf16, o, fo, 251);
    }
  }
}

// f32 sources: every exponent with edge fractions, and random words, x kScales, every reading.
TEST(MxFp8Encode, F32EdgesAndRandomFastEqualsOracle) {
  std::vector<uint32_t> xs;
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t m : {0x000000u, 0x000001u, 0x400000u, 0x3fffffu, 0x7fffffu, 0x080000u,
                       0x0c0000u, 0x100000u}) {
      xs.push_back((e << 23) | m);
      xs.push_back(0x80000000u | (e << 23) | m);
    }
  }
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) xs.push_back(static_cast<uint32_t>(rng()));
  for (const MxFp8EncodeOptions& o : AllOptions()) {
    for (const Fp8Format* f : {&kE4m3, &kE5m2}) {
      for (uint32_t x : xs) {
        const uint32_t scale = kScales[rng() % std::size(kScales)];
        ASSERT_EQ(Fast(x, MxSource::f32, scale, *f, {}, o),
                  OracleToFp8Scaled(x, MxSource::f32, scale, *f, {}, o))
            << f->name << " x 0x" << std::hex << x << " scale 0x" << scale;
      }
    }
  }
}

}  // namespace
}  // namespace lanediff
