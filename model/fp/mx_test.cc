// MX element formats, E8M0 scale readings, f16/bf16 widening and v_prng_b32 (mx.h): hand-derived
// known answers through the fast functions and the oracle, then fast == oracle on every element
// code x every scale byte x every decode option set, and on every f16 and every bf16 source x a
// scale set for the encoders (RNE and stochastic rounding). The full encoder sweep (every scale
// byte, every option set) is mx_exhaustive_test.cc (label slow).
//
// Values of the element formats (OCP MX v1.0, as restated in jax-ml/ml_dtypes
// ml_dtypes/include/mxfloat.h and the CUDA toolkit's cuda_fp4.h / cuda_fp6.h): a magnitude code
// with exponent field e and fraction m (M bits, bias B) is m * 2^(1 - B - M) for e = 0 and
// (1 + m / 2^M) * 2^(e - B) otherwise. FP4 E2M1 (B 1, M 1): 0, 0.5, 1, 1.5, 2, 3, 4, 6.
// FP6 E2M3 (B 1, M 3): max 0b11111 = 1.875 * 2^2 = 7.5, smallest 1 * 2^-3. FP6 E3M2 (B 3, M 2):
// max 0b11111 = 1.75 * 2^4 = 28, smallest 1 * 2^-4. E8M0: 2^(byte - 127), 0xFF NaN.
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"

namespace lanediff {
namespace {

const MxElemFormat& kFp4 = GetMxElemFormat(MxElemId::fp4_e2m1);
const MxElemFormat& kFp6 = GetMxElemFormat(MxElemId::fp6_e2m3);
const MxElemFormat& kBf6 = GetMxElemFormat(MxElemId::bf6_e3m2);

TEST(MxFormat, RowsMatchTheirDefinitions) {
  for (const MxElemFormat& f : kMxElemFormats) {
    EXPECT_EQ(f.bits, 1 + f.exp_bits + f.man_bits) << f.name;
    EXPECT_EQ(f.max_code, (1u << (f.bits - 1)) - 1u) << f.name << ": no code is reserved";
    EXPECT_EQ(&GetMxElemFormat(f.id), &f);
  }
}

TEST(PrngB32, HandDerived) {
  // D = (in << 1) ^ (in[31] ? 0xC5 : 0) (AMD CDNA4 ISA pseudocode, V_PRNG_B32).
  EXPECT_EQ(PrngB32(0x00000000u), 0x00000000u);  // 0 is a fixed point of the LFSR
  EXPECT_EQ(PrngB32(0x00000001u), 0x00000002u);  // bit 31 clear: a plain shift
  EXPECT_EQ(PrngB32(0x40000000u), 0x80000000u);
  EXPECT_EQ(PrngB32(0x80000000u), 0x000000c5u);  // shifted out to 0, then ^ 0xC5
  EXPECT_EQ(PrngB32(0xc0000000u), 0x800000c5u);
  EXPECT_EQ(PrngB32(0xffffffffu), 0xffffff3bu);  // 0xfffffffe ^ 0xc5: low byte 0xfe ^ 0xc5 = 0x3b
  EXPECT_EQ(PrngB32(0x12345678u), 0x2468acf0u);  // bit 31 clear
  EXPECT_EQ(PrngB32(0x87654321u), 0x0eca8687u);  // 0x0eca8642 ^ 0xc5: 0x42 ^ 0xc5 = 0x87
}

TEST(E8m0, HandDerived) {
  EXPECT_EQ(E8m0ToF32(0x7f), 0x3f800000u);  // 2^0 = 1.0
  EXPECT_EQ(E8m0ToF32(0x80), 0x40000000u);  // 2^1
  EXPECT_EQ(E8m0ToF32(0x7e), 0x3f000000u);  // 2^-1
  EXPECT_EQ(E8m0ToF32(0xfe), 0x7f000000u);  // 2^127, f32 exponent field 254
  EXPECT_EQ(E8m0ToF32(0x01), 0x00800000u);  // 2^-126, the smallest f32 normal
  EXPECT_EQ(E8m0ToF32(0x00), 0x00400000u);  // 2^-127 = 2^22 * 2^-149, an f32 denormal
  EXPECT_EQ(E8m0ToF32(0x00, E8m0Zero::zero), 0x00000000u);
  EXPECT_EQ(E8m0ToF32(0xff), 0x7fc00000u);  // NaN
  EXPECT_EQ(E8m0ToF32(0xff, E8m0Zero::pow2_m127, E8m0Nan::infinity), 0x7f800000u);
  EXPECT_EQ(E8m0ToF32(0xff, E8m0Zero::pow2_m127, E8m0Nan::pow2_128), 0x7f800000u);  // 2^128
  // Only the exponent field of an f32 scale operand: 1.5f (0x3fc00000) and -1.0f both carry 0x7f.
  EXPECT_EQ(E8m0FromF32Exponent(0x3fc00000u), 0x7fu);
  EXPECT_EQ(E8m0FromF32Exponent(0xbf800000u), 0x7fu);
  EXPECT_EQ(E8m0FromF32Exponent(0x00400000u), 0x00u);  // an f32 denormal: byte 0
  EXPECT_EQ(E8m0FromF32Exponent(0x7f800000u), 0xffu);  // +Inf: byte 0xFF
}

TEST(Widen, HandDerived) {
  EXPECT_EQ(F16ToF32(0x3c00), 0x3f800000u);  // 1.0: exponent 15 -> 127
  EXPECT_EQ(F16ToF32(0x4600), 0x40c00000u);  // 6.0 = 1.5 * 2^2: exponent 17, fraction 0x200
  EXPECT_EQ(F16ToF32(0xc600), 0xc0c00000u);  // -6.0
  EXPECT_EQ(F16ToF32(0x7bff), 0x477fe000u);  // 65504 = (2 - 2^-10) * 2^15
  EXPECT_EQ(F16ToF32(0x0001), 0x33800000u);  // 2^-24: f32 exponent 103
  EXPECT_EQ(F16ToF32(0x0200), 0x38000000u);  // 2^9 * 2^-24 = 2^-15: exponent 112
  EXPECT_EQ(F16ToF32(0x03ff), 0x387fc000u);  // 1023 * 2^-24 = (2 - 2^-9) * 2^-15
  EXPECT_EQ(F16ToF32(0x0400), 0x38800000u);  // 2^-14, the smallest f16 normal
  EXPECT_EQ(F16ToF32(0x8000), 0x80000000u);  // -0
  EXPECT_EQ(F16ToF32(0x7c00), 0x7f800000u);  // +Inf
  EXPECT_EQ(F16ToF32(0xfc00), 0xff800000u);  // -Inf
  EXPECT_EQ(F16ToF32(0x7e00), 0x7fc00000u);  // quiet NaN, payload moved up 13 bits
  EXPECT_EQ(F16ToF32(0x7c01), 0x7f802000u);  // signalling NaN, kept as is
  EXPECT_EQ(Bf16ToF32(0x40c0), 0x40c00000u);  // 6.0
  EXPECT_EQ(Bf16ToF32(0xff80), 0xff800000u);  // -Inf
  EXPECT_EQ(Bf16ToF32(0x0001), 0x00010000u);  // a denormal stays one
  EXPECT_EQ(Bf16ToF32(0x12344321u), 0x43210000u);  // only the low 16 bits
}

struct DecodeRow {
  const MxElemFormat* f;
  uint32_t code, scale;
  MxDecodeOptions o;
  uint32_t f32;
  const char* derivation;
};

MxDecodeOptions Dec(E8m0Zero z, E8m0Nan n, bool exp_add = false, bool flush = false,
                    bool sat = false) {
  MxDecodeOptions o;
  o.scale_zero = z;
  o.scale_nan = n;
  o.exponent_add = exp_add;
  o.flush_denormal_out = flush;
  o.saturate_overflow = sat;
  return o;
}

const MxDecodeOptions kOcp{};
const MxDecodeOptions kZeroScale = Dec(E8m0Zero::zero, E8m0Nan::nan);
const MxDecodeOptions kInfScale = Dec(E8m0Zero::pow2_m127, E8m0Nan::infinity);
const MxDecodeOptions kPow128 = Dec(E8m0Zero::pow2_m127, E8m0Nan::pow2_128);
const MxDecodeOptions kExpAdd = Dec(E8m0Zero::pow2_m127, E8m0Nan::nan, true);
const MxDecodeOptions kSat = Dec(E8m0Zero::pow2_m127, E8m0Nan::nan, false, false, true);

const DecodeRow kDecodeRows[] = {
    {&kFp4, 0x7, 0x7f, kOcp, 0x40c00000, "0b0.11.1 = 1.5 * 2^2 = 6.0, scale 2^0"},
    {&kFp4, 0x7, 0x80, kOcp, 0x41400000, "6.0 * 2^1 = 12 = 1.5 * 2^3 (exp 130)"},
    {&kFp4, 0x7, 0x7e, kOcp, 0x40400000, "6.0 * 2^-1 = 3.0 = 1.5 * 2^1"},
    {&kFp4, 0xf, 0x7f, kOcp, 0xc0c00000, "sign bit 3: -6.0"},
    {&kFp4, 0x1, 0x7f, kOcp, 0x3f000000, "subnormal m=1: 1 * 2^(1-1-1) = 0.5"},
    {&kFp4, 0x2, 0x7f, kOcp, 0x3f800000, "e=1 m=0: 1.0"},
    {&kFp4, 0x5, 0x7f, kOcp, 0x40400000, "e=2 m=1: 1.5 * 2 = 3.0"},
    {&kFp4, 0x8, 0x7f, kOcp, 0x80000000, "-0"},
    {&kFp4, 0x0, 0xff, kOcp, 0x7fc00000, "scale NaN: NaN with the element's sign (+)"},
    {&kFp4, 0x9, 0xff, kOcp, 0xffc00000, "scale NaN, element -0.5: negative NaN"},
    {&kFp4, 0x1, 0x00, kOcp, 0x00200000, "0.5 * 2^-127 = 2^-128 = 2^21 * 2^-149 (denormal)"},
    {&kFp4, 0x7, 0x00, kOcp, 0x01400000, "6 * 2^-127 = 1.5 * 2^-125: normal, exp field 2"},
    {&kFp4, 0x2, 0x01, kOcp, 0x00800000, "1.0 * 2^-126: the smallest f32 normal"},
    {&kFp4, 0x1, 0x01, kOcp, 0x00400000, "0.5 * 2^-126 = 2^-127: denormal"},
    {&kFp4, 0x1, 0x01, kExpAdd, 0x00000000, "exponent add cannot reach 2^-127: flushed"},
    {&kFp4, 0x9, 0x01, kExpAdd, 0x80000000, "flushed with the element's sign"},
    {&kFp4, 0x7, 0xfe, kOcp, 0x7f800000, "6 * 2^127 = 1.5 * 2^129 > f32 max: +Inf"},
    {&kFp4, 0xf, 0xfe, kSat, 0xff7fffff, "-6 * 2^127 saturated: -f32 max"},
    {&kFp4, 0x3, 0xfe, kOcp, 0x7f400000, "1.5 * 2^127: exp 254, still finite"},
    {&kFp4, 0x7, 0x00, kZeroScale, 0x00000000, "scale 0x00 read as 0: 6 * 0 = +0"},
    {&kFp4, 0xf, 0x00, kZeroScale, 0x80000000, "-6 * 0 = -0"},
    {&kFp4, 0x7, 0xff, kInfScale, 0x7f800000, "scale 0xFF read as +Inf: 6 * Inf"},
    {&kFp4, 0xf, 0xff, kInfScale, 0xff800000, "-6 * Inf = -Inf"},
    {&kFp4, 0x0, 0xff, kInfScale, 0x7fc00000, "0 * Inf: the default NaN"},
    {&kFp4, 0x1, 0xff, kPow128, 0x7f000000, "0.5 * 2^128 = 2^127"},
    {&kFp4, 0x2, 0xff, kPow128, 0x7f800000, "1.0 * 2^128: overflow"},
    {&kFp4, 0x7, 0xff, Dec(E8m0Zero::pow2_m127, E8m0Nan::infinity, false, false, true), 0x7f800000,
     "6 * Inf is Inf, not an overflow: saturate_overflow does not apply"},
    {&kFp6, 0x1f, 0x7f, kOcp, 0x40f00000, "0b0.11.111 = 1.875 * 2^2 = 7.5 (frac .875)"},
    {&kFp6, 0x3f, 0x7f, kOcp, 0xc0f00000, "-7.5"},
    {&kFp6, 0x01, 0x7f, kOcp, 0x3e000000, "subnormal m=1: 2^(1-1-3) = 0.125"},
    {&kFp6, 0x07, 0x7f, kOcp, 0x3f600000, "subnormal m=7: 7/8 = 1.75 * 2^-1"},
    {&kFp6, 0x08, 0x7f, kOcp, 0x3f800000, "e=1 m=0: 1.0"},
    {&kFp6, 0x01, 0x00, kOcp, 0x00080000, "2^-3 * 2^-127 = 2^-130 = 2^19 * 2^-149"},
    {&kFp6, 0x1f, 0x85, kOcp, 0x43f00000, "7.5 * 2^6 = 480 = 1.875 * 2^8 (exp 135)"},
    {&kBf6, 0x1f, 0x7f, kOcp, 0x41e00000, "0b0.111.11 = 1.75 * 2^(7-3) = 28 (exp 131)"},
    {&kBf6, 0x3f, 0x7f, kOcp, 0xc1e00000, "-28"},
    {&kBf6, 0x01, 0x7f, kOcp, 0x3d800000, "subnormal m=1: 2^(1-3-2) = 2^-4"},
    {&kBf6, 0x0c, 0x7f, kOcp, 0x3f800000, "e=3 m=0: 2^(3-3) = 1.0"},
    {&kBf6, 0x03, 0x00, kOcp, 0x000c0000, "3 * 2^-4 * 2^-127 = 3 * 2^-131 = 3 * 2^18 * 2^-149"},
    {&kBf6, 0x1f, 0xfa, kOcp, 0x7f600000, "28 * 2^123 = 1.75 * 2^127: exp 254, finite"},
    {&kBf6, 0x1f, 0xfb, kOcp, 0x7f800000, "28 * 2^124 = 1.75 * 2^128: overflow, +Inf"},
};

TEST(MxDecode, HandDerived) {
  for (const DecodeRow& r : kDecodeRows) {
    EXPECT_EQ(MxToF32(r.code, r.scale, *r.f, r.o), r.f32)
        << r.f->name << " 0x" << std::hex << r.code << " scale 0x" << r.scale << ": "
        << r.derivation;
    EXPECT_EQ(OracleMxToF32(r.code, r.scale, *r.f, r.o), r.f32)
        << r.f->name << " 0x" << std::hex << r.code << " scale 0x" << r.scale
        << " (oracle): " << r.derivation;
  }
}

// Every decode option set (2 x 3 x 2 x 2 x 2 = 48).
std::vector<MxDecodeOptions> AllDecodeOptions() {
  std::vector<MxDecodeOptions> v;
  for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
    for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
      for (int bits = 0; bits < 8; ++bits) {
        v.push_back(Dec(z, n, (bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0));
      }
    }
  }
  return v;
}

TEST(MxDecode, EveryCodeEveryScaleEveryOptionFastEqualsOracle) {
  uint64_t checked = 0;
  for (const MxElemFormat& f : kMxElemFormats) {
    for (const MxDecodeOptions& o : AllDecodeOptions()) {
      for (uint32_t code = 0; code < (1u << f.bits); ++code) {
        for (uint32_t scale = 0; scale < 256; ++scale) {
          const uint32_t fast = MxToF32(code, scale, f, o);
          const uint32_t slow = OracleMxToF32(code, scale, f, o);
          ASSERT_EQ(fast, slow) << f.name << " code 0x" << std::hex << code << " scale 0x"
                                << scale << " zero=" << static_cast<int>(o.scale_zero)
                                << " nan=" << static_cast<int>(o.scale_nan)
                                << " exp_add=" << o.exponent_add
                                << " flush=" << o.flush_denormal_out
                                << " sat=" << o.saturate_overflow;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 48u * 256u * (16u + 64u + 64u));
}

TEST(MxDecode, OnlyTheLowBitsAreRead) {
  EXPECT_EQ(MxToF32(0xfffffff7u, 0x7f, kFp4, {}), 0x40c00000u);  // low nibble 0x7 = 6.0
  EXPECT_EQ(MxToF32(0x7u, 0xffffff7fu, kFp4, {}), 0x40c00000u);  // low byte 0x7f = 2^0
  EXPECT_EQ(MxToF32(0xc1u, 0x7f, kFp6, {}), 0x3e000000u);         // low 6 bits 0x01 = 0.125
}

MxEncodeOptions Enc(MxScaleDir dir = MxScaleDir::divide, E8m0Zero z = E8m0Zero::pow2_m127,
                    E8m0Nan n = E8m0Nan::nan, MxNanIn nan_in = MxNanIn::max_keep_sign,
                    bool flush = false) {
  MxEncodeOptions o;
  o.direction = dir;
  o.scale_zero = z;
  o.scale_nan = n;
  o.nan_in = nan_in;
  o.flush_denormal_in = flush;
  return o;
}

constexpr MxScaleDir kDiv = MxScaleDir::divide;
constexpr MxScaleDir kMul = MxScaleDir::multiply;

struct EncodeRow {
  const MxElemFormat* f;
  MxSource source;
  uint32_t src, scale;
  MxEncodeOptions o;
  bool sr;
  uint32_t seed, seed_bits;
  uint32_t code;
  const char* derivation;
};

uint32_t FastEncode(uint32_t src, MxSource s, uint32_t scale,
                    const MxEncodeParams& p, bool sr, uint32_t seed, uint32_t bits) {
  const uint32_t x = s == MxSource::f32 ? src : s == MxSource::f16 ? F16ToF32(src) : Bf16ToF32(src);
  return sr ? F32ToMxSr(x, scale, seed, bits, p) : F32ToMxRne(x, scale, p);
}

constexpr MxSource kF32 = MxSource::f32, kF16 = MxSource::f16, kBf16 = MxSource::bf16;
const MxEncodeOptions kDef = Enc();

const EncodeRow kEncodeRows[] = {
    // FP4 E2M1 values: 0, 0.5, 1, 1.5, 2, 3, 4, 6 (codes 0..7); scale 0x7f = 2^0.
    {&kFp4, kF32, 0x40c00000, 0x7f, kDef, false, 0, 0, 0x7, "6.0 is code 7"},
    {&kFp4, kF32, 0x41400000, 0x80, kDef, false, 0, 0, 0x7, "12 / 2^1 = 6"},
    {&kFp4, kF32, 0x40400000, 0x80, kDef, false, 0, 0, 0x3, "3 / 2 = 1.5: code 3"},
    {&kFp4, kF32, 0x40400000, 0x80, Enc(kMul), false, 0, 0, 0x7, "multiply: 3 * 2 = 6"},
    {&kFp4, kF32, 0x40400000, 0x7e, Enc(kMul), false, 0, 0, 0x3, "multiply: 3 * 0.5 = 1.5"},
    {&kFp4, kF32, 0x40e00000, 0x7f, kDef, false, 0, 0, 0x7,
     "7 is the tie of 6 (code 7, odd) and 8 (code 8, even, past max): 8, saturated to 6"},
    {&kFp4, kF32, 0x42c80000, 0x7f, kDef, false, 0, 0, 0x7, "100 saturates"},
    {&kFp4, kF32, 0xc2c80000, 0x7f, kDef, false, 0, 0, 0xf, "-100 saturates to -6"},
    {&kFp4, kF32, 0x3e800000, 0x7f, kDef, false, 0, 0, 0x0, "0.25: tie of 0 and 0.5 -> 0"},
    {&kFp4, kF32, 0xbe800000, 0x7f, kDef, false, 0, 0, 0x8, "-0.25 -> -0 (sign kept)"},
    {&kFp4, kF32, 0x3e800001, 0x7f, kDef, false, 0, 0, 0x1, "just above 0.25 -> 0.5"},
    {&kFp4, kF32, 0x3f400000, 0x7f, kDef, false, 0, 0, 0x2, "0.75: tie of 0.5/1.0 -> code 2"},
    {&kFp4, kF32, 0x40200000, 0x7f, kDef, false, 0, 0, 0x4, "2.5: tie of 2 (4) and 3 (5)"},
    {&kFp4, kF32, 0x40a00000, 0x7f, kDef, false, 0, 0, 0x6, "5.0: tie of 4 (6) and 6 (7)"},
    {&kFp4, kF32, 0x7fc00000, 0x7f, kDef, false, 0, 0, 0x7, "NaN: +max (HIP)"},
    {&kFp4, kF32, 0xffc00000, 0x7f, kDef, false, 0, 0, 0xf, "-NaN: -max (HIP)"},
    {&kFp4, kF32, 0xffc00000, 0x7f, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::nan,
                                        MxNanIn::pos_max), false, 0, 0, 0x7, "CUDA: +max"},
    {&kFp4, kF32, 0x7fc00000, 0x7f, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::nan,
                                        MxNanIn::neg_zero), false, 0, 0, 0x8, "ml_dtypes: -0"},
    {&kFp4, kF32, 0xffc00000, 0x7f, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::nan,
                                        MxNanIn::pos_zero), false, 0, 0, 0x0, "+0"},
    {&kFp4, kF32, 0x7f800000, 0x7f, kDef, false, 0, 0, 0x7, "+Inf saturates"},
    {&kFp4, kF32, 0xff800000, 0x7f, kDef, false, 0, 0, 0xf, "-Inf saturates"},
    {&kFp4, kF32, 0x3f800000, 0xff, kDef, false, 0, 0, 0x7, "NaN scale: as a NaN input, +"},
    {&kFp4, kF32, 0xbf800000, 0xff, kDef, false, 0, 0, 0xf, "NaN scale, x = -1: -max"},
    {&kFp4, kF32, 0x3f800000, 0xff, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::pow2_128), false,
     0, 0, 0x0, "1 / 2^128 rounds to 0"},
    {&kFp4, kF32, 0x7f000000, 0xff, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::pow2_128), false,
     0, 0, 0x1, "2^127 / 2^128 = 0.5"},
    {&kFp4, kF32, 0x3f800000, 0xff, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::infinity), false,
     0, 0, 0x0, "1 / Inf = 0"},
    {&kFp4, kF32, 0x7f800000, 0xff, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::infinity), false,
     0, 0, 0x7, "Inf / Inf = NaN: +max"},
    {&kFp4, kF32, 0x3f800000, 0xff, Enc(kMul, E8m0Zero::pow2_m127, E8m0Nan::infinity), false,
     0, 0, 0x7, "1 * Inf = Inf: +max"},
    {&kFp4, kF32, 0x00400000, 0x00, kDef, false, 0, 0, 0x2, "2^-127 (f32 denormal) / 2^-127 = 1"},
    {&kFp4, kF32, 0x00400000, 0x00, Enc(kDiv, E8m0Zero::pow2_m127, E8m0Nan::nan,
                                        MxNanIn::max_keep_sign, true), false, 0, 0, 0x0,
     "the denormal flushed to +0 first"},
    {&kFp4, kF32, 0x3f800000, 0x00, Enc(kDiv, E8m0Zero::zero), false, 0, 0, 0x7,
     "scale 0x00 read as 0: 1 / 0 = Inf: +max"},
    {&kFp4, kF32, 0x00000000, 0x00, Enc(kDiv, E8m0Zero::zero), false, 0, 0, 0x7,
     "0 / 0 = NaN: +max (HIP NaN reading)"},
    {&kFp4, kF32, 0xbf800000, 0x00, Enc(kMul, E8m0Zero::zero), false, 0, 0, 0x8,
     "multiply: -1 * 0 = -0"},
    // SR: seed is a seed_bits-bit fraction of the quantum. f32 sources: 23 - 1 = 22 bits.
    {&kFp4, kF32, 0x3fa00000, 0x7f, kDef, true, 0, 22, 0x2, "1.25 + 0 -> 1.0"},
    {&kFp4, kF32, 0x3fa00000, 0x7f, kDef, true, 1u << 21, 22, 0x3,
     "1.25 = 1 + q/2; + q/2 = 1.5"},
    {&kFp4, kF32, 0x3fa00000, 0x7f, kDef, true, (1u << 21) - 1, 22, 0x2, "just short of 1.5"},
    {&kFp4, kF32, 0x40b00000, 0x7f, kDef, true, 1u << 20, 22, 0x7,
     "5.5 = 4 + 0.75 q (q = 2); + q/4 = 6"},
    {&kFp4, kF32, 0x40b00000, 0x7f, kDef, true, (1u << 20) - 1, 22, 0x6, "just short: 4"},
    {&kFp4, kF32, 0x40d00000, 0x7f, kDef, true, 0x3fffff, 22, 0x7,
     "6.5 + almost q = 8 - : truncates to 6"},
    {&kFp4, kF32, 0x40f00000, 0x7f, kDef, true, 1u << 21, 22, 0x7,
     "7.5 + q/2 = 8.5: past max, saturated"},
    {&kFp4, kF32, 0x3e800001, 0x7f, kDef, true, 1u << 21, 22, 0x1,
     "subnormal range: 0.25 (+2^-25) + 0.5/2 = 0.5"},
    {&kFp4, kF32, 0xbe800001, 0x7f, kDef, true, (1u << 21) - 1, 22, 0x8, "-> -0"},
    // 16-bit sources: f16 1.25 = 0x3d00, SR seed bits 10 - 1 = 9; bf16 1.25 = 0x3fa0, 7 - 1 = 6.
    {&kFp4, kF16, 0x4600, 0x7f, kDef, false, 0, 0, 0x7, "f16 6.0"},
    {&kFp4, kF16, 0x4700, 0x7f, kDef, false, 0, 0, 0x7, "f16 7.0: tie, saturated"},
    {&kFp4, kF16, 0x3d00, 0x7f, kDef, true, 1u << 8, 9, 0x3, "f16 1.25 + q/2 = 1.5"},
    {&kFp4, kF16, 0x3d00, 0x7f, kDef, true, (1u << 8) - 1, 9, 0x2, "just short"},
    {&kFp4, kF16, 0x0001, 0x68, kDef, false, 0, 0, 0x1,
     "f16 denormal 2^-24 / 2^(104-127) = 2^-1 = 0.5"},
    {&kFp4, kBf16, 0x40c0, 0x81, kDef, false, 0, 0, 0x3, "bf16 6.0 / 2^2 = 1.5"},
    {&kFp4, kBf16, 0x3fa0, 0x7f, kDef, true, 32, 6, 0x3, "bf16 1.25 + q/2 = 1.5"},
    {&kFp4, kBf16, 0x3fa0, 0x7f, kDef, true, 31, 6, 0x2, "just short"},
    // FP6 E2M3: max 7.5 (0x1f), smallest 0.125 (0x01).
    {&kFp6, kF32, 0x40f00000, 0x7f, kDef, false, 0, 0, 0x1f, "7.5 is max"},
    {&kFp6, kF32, 0xc0f00000, 0x7f, kDef, false, 0, 0, 0x3f, "-7.5"},
    {&kFp6, kF32, 0x40f80000, 0x7f, kDef, false, 0, 0, 0x1f,
     "7.75: tie of 7.5 (0x1f) and 8 (0x20, past max): saturated"},
    {&kFp6, kF32, 0x3d800000, 0x7f, kDef, false, 0, 0, 0x00, "2^-4: tie of 0 and 2^-3 -> 0"},
    {&kFp6, kF32, 0x3e400000, 0x7f, kDef, false, 0, 0, 0x02, "1.5 * 2^-3: tie of 1, 2 -> 2"},
    {&kFp6, kF32, 0x3f800000, 0x7f, kDef, false, 0, 0, 0x08, "1.0 = e1 m0"},
    // BF6 E3M2: max 28 (0x1f), smallest 2^-4 (0x01).
    {&kBf6, kF32, 0x41e00000, 0x7f, kDef, false, 0, 0, 0x1f, "28 is max"},
    {&kBf6, kF32, 0x41f00000, 0x7f, kDef, false, 0, 0, 0x1f, "30: tie of 28 and 32: saturated"},
    {&kBf6, kF32, 0xc1f00000, 0x7f, kDef, false, 0, 0, 0x3f, "-30"},
    {&kBf6, kF32, 0x3f800000, 0x7f, kDef, false, 0, 0, 0x0c, "1.0 = e3 m0"},
    {&kBf6, kF32, 0x3d000000, 0x7f, kDef, false, 0, 0, 0x00, "2^-5: tie of 0 and 2^-4 -> 0"},
    {&kBf6, kF32, 0x3dc00000, 0x7f, kDef, false, 0, 0, 0x02, "1.5 * 2^-4: tie of 1, 2 -> 2"},
    {&kBf6, kF32, 0x41700000, 0x7f, kDef, true, 1u << 20, 21, 0x1c,
     "SR: 15 = 14 + q/2 (q = 2, e=6); + q/2 = 16 = e7 m0, a normal code, not saturated"},
    {&kBf6, kF32, 0x41b00000, 0x7f, kDef, true, 1u << 20, 21, 0x1e,
     "SR: 22 = 20 + q/2 (q = 4, e=7); + q/2 = 24 = e7 m2"},
};

TEST(MxEncode, HandDerived) {
  for (const EncodeRow& r : kEncodeRows) {
    const MxEncodeParams p = MakeMxEncodeParams(*r.f, r.o);
    EXPECT_EQ(FastEncode(r.src, r.source, r.scale, p, r.sr, r.seed, r.seed_bits), r.code)
        << r.f->name << " src 0x" << std::hex << r.src << " scale 0x" << r.scale << ": "
        << r.derivation;
    EXPECT_EQ(OracleToMx(r.src, r.source, r.scale, *r.f, r.o, r.sr, r.seed, r.seed_bits), r.code)
        << r.f->name << " src 0x" << std::hex << r.src << " scale 0x" << r.scale
        << " (oracle): " << r.derivation;
  }
}

// Scale bytes that move f16/bf16 values across every element's range: the E8M0 ends (0x00,
// 0x01, 0xfe, 0xff), 2^0 and its neighbours, and steps that put f16 denormals (2^-24),
// normals and 65504 (2^16) near the elements' 2^-4 .. 2^5.
const uint32_t kScaleSet[] = {0x00, 0x01, 0x67, 0x6f, 0x77, 0x7b, 0x7d, 0x7e, 0x7f,
                              0x80, 0x81, 0x83, 0x87, 0x8f, 0xfe, 0xff};

// The seeds for a seed_bits-bit fraction: the ends, one half and just below it, one random.
std::vector<uint32_t> Seeds(uint32_t bits, std::mt19937& rng) {
  const uint32_t top = (1u << bits) - 1u;
  return {0u, top, 1u << (bits - 1u), (1u << (bits - 1u)) - 1u, static_cast<uint32_t>(rng()) & top};
}

// Every 16-bit pattern of `source` x kScaleSet x every element format, RNE and SR (HIP's seed
// width for the source, five seeds each), under `o`: fast == oracle. Returns the count.
uint64_t SweepSixteenBit(MxSource source, const MxEncodeOptions& o, uint32_t stride) {
  std::mt19937 rng(7);
  const int src_man = source == MxSource::f16 ? 10 : 7;
  uint64_t n = 0;
  for (const MxElemFormat& f : kMxElemFormats) {
    const MxEncodeParams p = MakeMxEncodeParams(f, o);
    const uint32_t bits = MxSrSeedBits(src_man, f);
    for (uint32_t scale : kScaleSet) {
      const std::vector<uint32_t> seeds = Seeds(bits, rng);
      for (uint32_t h = 0; h < 0x10000u; h += stride) {
        const uint32_t fast = FastEncode(h, source, scale, p, false, 0, 0);
        const uint32_t slow = OracleToMx(h, source, scale, f, o, false, 0, 0);
        if (fast != slow) {
          ADD_FAILURE() << f.name << " RNE src 0x" << std::hex << h << " scale 0x" << scale
                        << ": fast 0x" << fast << " oracle 0x" << slow;
          return n;
        }
        for (uint32_t seed : seeds) {
          const uint32_t fs = FastEncode(h, source, scale, p, true, seed, bits);
          const uint32_t ss = OracleToMx(h, source, scale, f, o, true, seed, bits);
          if (fs != ss) {
            ADD_FAILURE() << f.name << " SR src 0x" << std::hex << h << " scale 0x" << scale
                          << " seed 0x" << seed << ": fast 0x" << fs << " oracle 0x" << ss;
            return n;
          }
        }
        n += 1 + seeds.size();
      }
    }
  }
  return n;
}

TEST(MxEncode, EveryF16TimesScaleSetFastEqualsOracle) {
  EXPECT_EQ(SweepSixteenBit(MxSource::f16, {}, 1), 3u * 16u * 65536u * 6u);
}

TEST(MxEncode, EveryBf16TimesScaleSetFastEqualsOracle) {
  EXPECT_EQ(SweepSixteenBit(MxSource::bf16, {}, 1), 3u * 16u * 65536u * 6u);
}

// Every encode option set (2 x 2 x 3 x 4 x 2 = 96).
std::vector<MxEncodeOptions> AllEncodeOptions() {
  std::vector<MxEncodeOptions> v;
  for (MxScaleDir d : {kDiv, kMul}) {
    for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
      for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
        for (MxNanIn in : {MxNanIn::max_keep_sign, MxNanIn::pos_max, MxNanIn::neg_zero,
                           MxNanIn::pos_zero}) {
          for (bool flush : {false, true}) v.push_back(Enc(d, z, n, in, flush));
        }
      }
    }
  }
  return v;
}

// Every option set on every 127th f16 and bf16 pattern, plus the specials, zeros and denormal
// ends (not all on the stride) x kScaleSet; the full product is in
// mx_exhaustive_test.cc.
TEST(MxEncode, EveryOptionSetOnASampleFastEqualsOracle) {
  for (const MxEncodeOptions& o : AllEncodeOptions()) {
    SweepSixteenBit(MxSource::f16, o, 127);
    SweepSixteenBit(MxSource::bf16, o, 127);
    std::mt19937 rng(11);
    for (const MxElemFormat& f : kMxElemFormats) {
      const MxEncodeParams p = MakeMxEncodeParams(f, o);
      for (uint32_t src : {0x0000u, 0x8000u, 0x0001u, 0x8001u, 0x03ffu, 0x7c00u, 0xfc00u,
                           0x7c01u, 0xfe00u, 0x7f80u, 0xff80u, 0x7fc0u, 0x0080u, 0x007fu}) {
        for (MxSource s : {MxSource::f16, MxSource::bf16}) {
          for (uint32_t scale : kScaleSet) {
            const uint32_t seed = static_cast<uint32_t>(rng()) & 0x3fu;
            ASSERT_EQ(FastEncode(src, s, scale, p, false, 0, 0),
                      OracleToMx(src, s, scale, f, o, false, 0, 0))
                << f.name << " src 0x" << std::hex << src << " scale 0x" << scale;
            ASSERT_EQ(FastEncode(src, s, scale, p, true, seed, 6),
                      OracleToMx(src, s, scale, f, o, true, seed, 6))
                << f.name << " SR src 0x" << std::hex << src << " scale 0x" << scale;
          }
        }
      }
    }
  }
}

// f32 sources: every exponent with edge fractions, and random words, x every scale byte, every
// element format, RNE and SR (23 - M seed bits and random seeds), default and multiply readings.
TEST(MxEncode, F32EdgesAndRandomFastEqualsOracle) {
  std::vector<uint32_t> xs;
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t m : {0x000000u, 0x000001u, 0x400000u, 0x3fffffu, 0x400001u, 0x7fffffu,
                       0x200000u, 0x600000u, 0x100000u, 0x080000u}) {
      xs.push_back((e << 23) | m);
      xs.push_back(0x80000000u | (e << 23) | m);
    }
  }
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) xs.push_back(static_cast<uint32_t>(rng()));
  uint64_t n = 0;
  for (const MxEncodeOptions& o : {Enc(), Enc(kMul)}) {
    for (const MxElemFormat& f : kMxElemFormats) {
      const MxEncodeParams p = MakeMxEncodeParams(f, o);
      const uint32_t bits = MxSrSeedBits(23, f);
      for (uint32_t x : xs) {
        for (uint32_t scale = 0; scale < 256; scale += 5) {
          const uint32_t seed = static_cast<uint32_t>(rng());
          ASSERT_EQ(F32ToMxRne(x, scale, p), OracleToMx(x, MxSource::f32, scale, f, o, false, 0, 0))
              << f.name << " x 0x" << std::hex << x << " scale 0x" << scale;
          ASSERT_EQ(F32ToMxSr(x, scale, seed, bits, p),
                    OracleToMx(x, MxSource::f32, scale, f, o, true, seed, bits))
              << f.name << " SR x 0x" << std::hex << x << " scale 0x" << scale << " seed 0x"
              << seed;
          n += 2;
        }
      }
    }
  }
  EXPECT_GT(n, 1000000u);
}

// ---- an exact f32 times the scale operand (the gfx950 scaled decodes) ------------------------

MxDecodeOptions ScaledDec(E8m0Zero z, E8m0Nan n, bool sat, bool flush) {
  MxDecodeOptions o;
  o.scale_zero = z;
  o.scale_nan = n;
  o.saturate_overflow = sat;
  o.flush_denormal_out = flush;
  return o;
}

// Hand-derived: 2^(e - 127) per exponent field e; 2^-127 = 2^22 * 2^-149 is the f32 denormal
// 0x00400000; 448 * 2^127 > 2^128 overflows.
TEST(MxScaleF32, HandDerived) {
  constexpr MxScaleRead kExp = MxScaleRead::exponent, kMul = MxScaleRead::f32_multiply;
  const MxDecodeOptions d;
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0x40000000u, kExp, d), 0x40000000u);  // 1 * 2^1
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0x3fc00000u, kExp, d), 0x3f800000u);  // 1.5 reads as 2^0
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0xbfc00000u, kExp, d), 0x3f800000u);  // the sign too
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0x3fc00000u, kMul, d), 0x3fc00000u);  // 1 * 1.5
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0xbf800000u, kMul, d), 0xbf800000u);  // 1 * -1
  EXPECT_EQ(MxScaleF32(0x3fc00000u, 0x3fc00000u, kMul, d), 0x40100000u);  // 1.5 * 1.5 = 2.25
  // (1 + 2^-23) * 1.5 = 1.5 + 1.5 ulp: a tie between 0x3fc00001 and the even 0x3fc00002.
  EXPECT_EQ(MxScaleF32(0x3f800001u, 0x3fc00000u, kMul, d), 0x3fc00002u);
  EXPECT_EQ(MxScaleF32(0x00000001u, 0x3f000000u, kMul, d), 0x00000000u);  // 2^-150: tie to 0
  EXPECT_EQ(MxScaleF32(0x00000001u, 0x3f400000u, kMul, d), 0x00000001u);  // 0.75 * 2^-149
  // Scale byte 0: 2^-127, or zero.
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0x00000000u, kExp, d), 0x00400000u);
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0x00000000u, kExp,
                       ScaledDec(E8m0Zero::zero, E8m0Nan::nan, false, false)), 0x00000000u);
  EXPECT_EQ(MxScaleF32(0x7f800000u, 0x00000000u, kExp,
                       ScaledDec(E8m0Zero::zero, E8m0Nan::nan, false, false)), 0x7fc00000u);  // Inf*0
  // Scale byte 0xFF: NaN of the element's sign, 2^128 (overflow; 0 stays 0), or +Inf.
  EXPECT_EQ(MxScaleF32(0xbf800000u, 0x7f800000u, kExp, d), 0xffc00000u);
  EXPECT_EQ(MxScaleF32(0x00000000u, 0x7f800000u, kExp, d), 0x7fc00000u);
  const MxDecodeOptions p128 = ScaledDec(E8m0Zero::pow2_m127, E8m0Nan::pow2_128, false, false);
  const MxDecodeOptions inf = ScaledDec(E8m0Zero::pow2_m127, E8m0Nan::infinity, false, false);
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0x7f800000u, kExp, p128), 0x7f800000u);
  EXPECT_EQ(MxScaleF32(0x00000000u, 0x7f800000u, kExp, p128), 0x00000000u);
  EXPECT_EQ(MxScaleF32(0x3f800000u, 0x7f800000u, kExp, inf), 0x7f800000u);
  EXPECT_EQ(MxScaleF32(0x00000000u, 0x7f800000u, kExp, inf), 0x7fc00000u);
  // Overflow: 448 * 2^127 (exponent field 254).
  EXPECT_EQ(MxScaleF32(0x43e00000u, 0x7f000000u, kExp, d), 0x7f800000u);
  EXPECT_EQ(MxScaleF32(0xc3e00000u, 0x7f000000u, kExp,
                       ScaledDec(E8m0Zero::pow2_m127, E8m0Nan::nan, true, false)), 0xff7fffffu);
  // 0.5 * 2^-126 = 2^-127: kept as a denormal or flushed.
  EXPECT_EQ(MxScaleF32(0x3f000000u, 0x00800000u, kExp, d), 0x00400000u);
  EXPECT_EQ(MxScaleF32(0x3f000000u, 0x00800000u, kExp,
                       ScaledDec(E8m0Zero::pow2_m127, E8m0Nan::nan, false, true)), 0x00000000u);
  // A NaN element keeps its bits; Inf stays Inf.
  EXPECT_EQ(MxScaleF32(0xffc00000u, 0x3f800000u, kExp, d), 0xffc00000u);
  EXPECT_EQ(MxScaleF32(0xff800000u, 0x00000000u, kExp, d), 0xff800000u);
}

// Every byte of the OCP E4M3 and E5M2 formats, decoded, x every scale exponent field (with the
// rest of the operand 0, and random) x every reading: fast == oracle (about 2 s).
TEST(MxScaleF32, EveryFp8ByteEveryScaleExponentEveryReadingFastEqualsOracle) {
  std::vector<MxDecodeOptions> sets;
  for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
    for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
      for (int f = 0; f < 4; ++f) sets.push_back(ScaledDec(z, n, (f & 1) != 0, (f & 2) != 0));
    }
  }
  std::mt19937 rng(5);
  uint64_t n = 0;
  for (Fp8FormatId id : {Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp}) {
    const Fp8ToF32Table t = MakeFp8ToF32Table(GetFp8Format(id), {});
    for (uint32_t byte = 0; byte < 256; ++byte) {
      const uint32_t x = t.f32[byte];
      for (uint32_t e = 0; e < 256; ++e) {
        const uint32_t plain = e << 23, noisy = plain | (static_cast<uint32_t>(rng()) & 0x807fffffu);
        // The E8M0 0x00/0xFF readings matter only at those bytes: elsewhere the first four
        // sets (the overflow and denormal readings) stand for all 24.
        const size_t nsets = e == 0 || e == 255 ? sets.size() : 4;
        for (size_t k = 0; k < nsets; ++k) {
          const MxDecodeOptions& o = sets[k];
          ASSERT_EQ(MxScaleF32(x, plain, MxScaleRead::exponent, o),
                    OracleMxScaleF32(x, plain, MxScaleRead::exponent, o))
              << "byte 0x" << std::hex << byte << " scale 0x" << plain;
          ++n;
        }
        for (int s = 0; s < 4; ++s) {  // the multiply reads no E8M0 option
          const MxDecodeOptions& o = sets[static_cast<size_t>(s)];
          for (uint32_t scale : {plain, noisy}) {
            ASSERT_EQ(MxScaleF32(x, scale, MxScaleRead::f32_multiply, o),
                      OracleMxScaleF32(x, scale, MxScaleRead::f32_multiply, o))
                << "byte 0x" << std::hex << byte << " scale 0x" << scale << " set " << s;
            ++n;
          }
        }
      }
    }
  }
  EXPECT_EQ(n, 2u * 256 * (254 * 4 + 2 * 24 + 256 * 8));
}

MxDecodeOptions Narrow(bool saturate, bool flush, bool toward_zero) {
  MxDecodeOptions o;
  o.saturate_overflow = saturate;
  o.flush_denormal_out = flush;
  o.round16_toward_zero = toward_zero;
  return o;
}

// Hand-derived. f16: bias 15, 10 fraction bits, smallest denormal 2^-24, largest 65504 (0x7bff).
// bf16: bias 127, 7 fraction bits, smallest denormal 2^-133, largest 0x7f7f. The scale operand's
// exponent field e gives 2^(e - 127): 0x33000000 = 2^-25, 0x33800000 = 2^-24, 0x34800000 =
// 2^-22, 0x43800000 = 2^8, 0x7f000000 = 2^127.
TEST(MxScaleF32To16, HandDerived) {
  constexpr MxScaleRead kMul = MxScaleRead::f32_multiply;
  const MxDecodeOptions d;
  // (A lambda's default argument may not name a local variable: g++ refuses it.)
  const auto f16 = [&](uint32_t x, uint32_t s, const MxDecodeOptions& o,
                       MxScaleRead r = MxScaleRead::exponent) {
    const uint32_t fast = MxScaleF32To16(x, s, r, o, Mx16::f16);
    EXPECT_EQ(fast, OracleMxScaleF32To16(x, s, r, o, Mx16::f16)) << std::hex << x << " " << s;
    return fast;
  };
  const auto bf16 = [&](uint32_t x, uint32_t s, const MxDecodeOptions& o,
                        MxScaleRead r = MxScaleRead::exponent) {
    const uint32_t fast = MxScaleF32To16(x, s, r, o, Mx16::bf16);
    EXPECT_EQ(fast, OracleMxScaleF32To16(x, s, r, o, Mx16::bf16)) << std::hex << x << " " << s;
    return fast;
  };
  // 448 = 1.75 * 2^8: f16 exponent field 23, fraction 0.75 * 1024 = 0x300.
  EXPECT_EQ(f16(0x43e00000u, 0x3f800000u, d), 0x5f00u);
  EXPECT_EQ(bf16(0x43e00000u, 0x3f800000u, d), 0x43e0u);
  // 448 * 2^8 = 114688 > 65504: +-Inf, or +-max under saturation; bf16 overflows at 2^127.
  EXPECT_EQ(f16(0x43e00000u, 0x43800000u, d), 0x7c00u);
  EXPECT_EQ(f16(0xc3e00000u, 0x43800000u, d), 0xfc00u);
  EXPECT_EQ(f16(0x43e00000u, 0x43800000u, Narrow(true, false, false)), 0x7bffu);
  EXPECT_EQ(bf16(0x43e00000u, 0x7f000000u, d), 0x7f80u);
  EXPECT_EQ(bf16(0xc3e00000u, 0x7f000000u, Narrow(true, false, false)), 0xff7fu);
  // 1.875 * 2^-22 = 7.5 * 2^-24: 8 to nearest even, 7 toward zero, 0 flushed.
  EXPECT_EQ(f16(0x3ff00000u, 0x34800000u, d), 0x0008u);
  EXPECT_EQ(f16(0x3ff00000u, 0x34800000u, Narrow(false, false, true)), 0x0007u);
  EXPECT_EQ(f16(0xbff00000u, 0x34800000u, Narrow(false, true, false)), 0x8000u);
  // Ties: 1.0 * 2^-25 = 0.5 q -> 0 (even); 1.5 * 2^-24 = 1.5 q -> 2; 1.5 * 2^-25 = 0.75 q -> 1.
  EXPECT_EQ(f16(0x3f800000u, 0x33000000u, d), 0x0000u);
  EXPECT_EQ(f16(0x3fc00000u, 0x33800000u, d), 0x0002u);
  EXPECT_EQ(f16(0x3fc00000u, 0x33000000u, d), 0x0001u);
  // bf16 denormals: 2^-127 (scale byte 0) = 64 * 2^-133; E4M3 0x07 (7 * 2^-9) * 2^-127 =
  // 0.875 * 2^-133 -> 1 (nearest) or 0 (toward zero); 1.875 * 2^-6 * 2^-127 = 1.875 q -> 2 or 1.
  EXPECT_EQ(bf16(0x3f800000u, 0x00000000u, d), 0x0040u);
  EXPECT_EQ(bf16(0x3c600000u, 0x00000000u, d), 0x0001u);
  EXPECT_EQ(bf16(0x3c600000u, 0x00000000u, Narrow(false, false, true)), 0x0000u);
  EXPECT_EQ(bf16(0x3cf00000u, 0x00000000u, d), 0x0002u);
  EXPECT_EQ(bf16(0x3cf00000u, 0x00000000u, Narrow(false, false, true)), 0x0001u);
  // The scale byte 0 read as zero; 0xFF: NaN of the element's sign.
  EXPECT_EQ(bf16(0x3f800000u, 0x00000000u, ScaledDec(E8m0Zero::zero, E8m0Nan::nan, false, false)),
            0x0000u);
  EXPECT_EQ(f16(0x3f800000u, 0x7f800000u, d), 0x7e00u);
  EXPECT_EQ(f16(0xbf800000u, 0x7f800000u, d), 0xfe00u);
  EXPECT_EQ(bf16(0xbf800000u, 0x7fc00000u, d), 0xffc0u);
  // A NaN element: its sign and top fraction bits, quiet. Inf stays Inf.
  EXPECT_EQ(f16(0xffc00000u, 0x3f800000u, d), 0xfe00u);
  EXPECT_EQ(bf16(0x7fc00000u, 0x3f800000u, d), 0x7fc0u);
  EXPECT_EQ(f16(0xff800000u, 0x3f800000u, Narrow(true, false, false)), 0xfc00u);
  // The whole f32 as multiplier: 1.0 * 1.5 = 0x3e00; 1.0 * -2.0 = 0xc000.
  EXPECT_EQ(f16(0x3f800000u, 0x3fc00000u, d, kMul), 0x3e00u);
  EXPECT_EQ(f16(0x3f800000u, 0xc0000000u, d, kMul), 0xc000u);
  EXPECT_EQ(bf16(0x3f800000u, 0x3f810000u, d, kMul), 0x3f81u);
}

// Every byte of E4M3 and E5M2, decoded, x every scale exponent field (the rest 0, and random)
// x every 16-bit reading, into f16 and bf16: fast == oracle.
TEST(MxScaleF32To16, EveryFp8ByteEveryScaleExponentEveryReadingFastEqualsOracle) {
  std::vector<MxDecodeOptions> sets;  // the 8 narrow readings, then the E8M0 ones
  for (int f = 0; f < 8; ++f) sets.push_back(Narrow((f & 1) != 0, (f & 2) != 0, (f & 4) != 0));
  for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
    for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
      sets.push_back(ScaledDec(z, n, false, false));
    }
  }
  std::mt19937 rng(7);
  uint64_t n = 0;
  for (Mx16 dst : {Mx16::f16, Mx16::bf16}) {
    for (Fp8FormatId id : {Fp8FormatId::e4m3_ocp, Fp8FormatId::e5m2_ocp}) {
      const Fp8ToF32Table t = MakeFp8ToF32Table(GetFp8Format(id), {});
      for (uint32_t byte = 0; byte < 256; ++byte) {
        const uint32_t x = t.f32[byte];
        for (uint32_t e = 0; e < 256; ++e) {
          const uint32_t plain = e << 23, noisy = plain | (static_cast<uint32_t>(rng()) & 0x807fffffu);
          const size_t nsets = e == 0 || e == 255 ? sets.size() : 8;
          for (size_t k = 0; k < nsets; ++k) {
            ASSERT_EQ(MxScaleF32To16(x, plain, MxScaleRead::exponent, sets[k], dst),
                      OracleMxScaleF32To16(x, plain, MxScaleRead::exponent, sets[k], dst))
                << "byte 0x" << std::hex << byte << " scale 0x" << plain << " set " << k;
            ++n;
          }
          const MxDecodeOptions& o = sets[rng() % 8];  // the multiply: one reading a lane
          ASSERT_EQ(MxScaleF32To16(x, noisy, MxScaleRead::f32_multiply, o, dst),
                    OracleMxScaleF32To16(x, noisy, MxScaleRead::f32_multiply, o, dst))
              << "byte 0x" << std::hex << byte << " scale 0x" << noisy;
          ++n;
        }
      }
    }
  }
  EXPECT_EQ(n, 4u * 256 * (254 * 9 + 2 * 15));
}

// The gfx950 FP6 -> f32 conversions (v_cvt_scalef32_pk32_f32_fp6/bf6: 32 E2M3 / E3M2 fields
// times the f32 scale operand) can take the path the scaled fp8 decodes take: the field's exact
// value (MxToF32 with scale byte 127 = 2^0; every FP6 value is an f32 normal or zero) times the
// operand (MxScaleF32). Every field of both formats x every scale exponent field x every E8M0
// and overflow/denormal reading: fast == oracle, and decode-then-scale equals MxToF32's scaled
// decode of the field (two independent routes to the same bits; MxToF32's exponent_add is not
// a MxScaleF32 reading and stays off).
// FP4 E2M1 rides along: the gfx950 scaled FP4 decodes (v_cvt_scalef32_pk_f32_fp4, model/ops
// Fp4ElementF32) take this path for each of a byte's two codes.
TEST(MxScaleF32, EveryFp4Fp6FieldEveryScaleExponentEveryReadingFastEqualsOracleAndScaledDecode) {
  std::vector<MxDecodeOptions> sets;
  for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
    for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
      for (int f = 0; f < 4; ++f) sets.push_back(ScaledDec(z, n, (f & 1) != 0, (f & 2) != 0));
    }
  }
  uint64_t n = 0;
  for (const MxElemFormat* f : {&kFp4, &kFp6, &kBf6}) {
    for (uint32_t code = 0; code < (1u << f->bits); ++code) {
      const uint32_t x = MxToF32(code, 127, *f, {});
      for (uint32_t e = 0; e < 256; ++e) {
        for (const MxDecodeOptions& o : sets) {
          const uint32_t fast = MxScaleF32(x, e << 23, MxScaleRead::exponent, o);
          ASSERT_EQ(fast, OracleMxScaleF32(x, e << 23, MxScaleRead::exponent, o))
              << f->name << " code 0x" << std::hex << code << " scale byte 0x" << e;
          ASSERT_EQ(fast, MxToF32(code, e, *f, o)) << f->name << " code 0x" << std::hex << code << " scale byte 0x" << e;
          ++n;
        }
      }
    }
  }
  EXPECT_EQ(n, (16u + 2 * 64) * 256 * 24);
}

// The gfx950 scaled FP4 -> f16/bf16 decodes (v_cvt_scalef32_pk_{f16,bf16}_fp4): every FP4 code
// (its exact value) x every scale exponent field x every 16-bit reading (the 8 narrow ones on
// every field, the E8M0 ones on fields 0 and 255) and the whole-f32 multiply by a noisy operand,
// into f16 and bf16: MxScaleF32To16 == its oracle.
TEST(MxScaleF32To16, EveryFp4CodeEveryScaleExponentEveryReadingFastEqualsOracle) {
  std::vector<MxDecodeOptions> sets;
  for (int f = 0; f < 8; ++f) sets.push_back(Narrow((f & 1) != 0, (f & 2) != 0, (f & 4) != 0));
  for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
    for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
      sets.push_back(ScaledDec(z, n, false, false));
    }
  }
  std::mt19937 rng(11);
  uint64_t n = 0;
  for (Mx16 dst : {Mx16::f16, Mx16::bf16}) {
    for (uint32_t code = 0; code < 16; ++code) {
      const uint32_t x = OracleMxToF32(code, 127, kFp4, {});
      for (uint32_t e = 0; e < 256; ++e) {
        const uint32_t plain = e << 23, noisy = plain | (static_cast<uint32_t>(rng()) & 0x807fffffu);
        const size_t nsets = e == 0 || e == 255 ? sets.size() : 8;
        for (size_t k = 0; k < nsets; ++k) {
          ASSERT_EQ(MxScaleF32To16(x, plain, MxScaleRead::exponent, sets[k], dst),
                    OracleMxScaleF32To16(x, plain, MxScaleRead::exponent, sets[k], dst))
              << "code 0x" << std::hex << code << " scale 0x" << plain << " set " << k;
          ++n;
        }
        const MxDecodeOptions& o = sets[rng() % 8];
        ASSERT_EQ(MxScaleF32To16(x, noisy, MxScaleRead::f32_multiply, o, dst),
                  OracleMxScaleF32To16(x, noisy, MxScaleRead::f32_multiply, o, dst))
            << "code 0x" << std::hex << code << " scale 0x" << noisy;
        ++n;
      }
    }
  }
  EXPECT_EQ(n, 2u * 16 * (254 * 9 + 2 * 15));
}

}  // namespace
}  // namespace lanediff
