// 8-bit float -> f32 (fp8_decode.h): hand-derived values for every format and option, then the
// fast table against the exact oracle on all 256 bytes under every option combination and on
// all 2^16 byte pairs (docs/semantics.md §10.3-10.5).
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/fp/oracle.h"

namespace lanediff {
namespace {

struct Row {
  Fp8FormatId format;
  uint32_t byte;
  uint32_t f32;
  const char* derivation;
};

// Default options: NaN sign_quiet, UE5M3 NaN 0x7FA3D000, denormals kept, no OMOD/CLAMP.
// Value = 2^(e - bias) * (1 + m / 2^M) for e > 0, m * 2^(1 - bias - M) for e == 0; the f32 is
// sign | (unbiased + 127) << 23 | fraction << (23 - M) after normalising.
const Row kDefaultRows[] = {
    {Fp8FormatId::e4m3_ocp, 0x38, 0x3f800000, "e=7 m=0: 2^(7-7)*1.0 = 1.0"},
    {Fp8FormatId::e4m3_ocp, 0x7e, 0x43e00000, "e=15 m=6: 2^8*1.75 = 448 (f32 exp 135, frac .75)"},
    {Fp8FormatId::e4m3_ocp, 0x01, 0x3b000000, "subnormal m=1: 2^(1-7-3) = 2^-9 (f32 exp 118)"},
    {Fp8FormatId::e4m3_ocp, 0x07, 0x3c600000, "subnormal m=7: 7*2^-9 = 1.75*2^-7 (exp 120)"},
    {Fp8FormatId::e4m3_ocp, 0x08, 0x3c800000, "e=1 m=0: 2^-6, smallest normal (exp 121)"},
    {Fp8FormatId::e4m3_ocp, 0x80, 0x80000000, "-0 keeps its sign"},
    {Fp8FormatId::e4m3_ocp, 0xfe, 0xc3e00000, "-448"},
    {Fp8FormatId::e4m3_ocp, 0x7f, 0x7fc00000, "S.1111.111 NaN: sign|0x7fc00000"},
    {Fp8FormatId::e4m3_ocp, 0xff, 0xffc00000, "negative NaN keeps the sign"},
    {Fp8FormatId::e5m2_ocp, 0x3c, 0x3f800000, "e=15 m=0: 2^(15-15) = 1.0"},
    {Fp8FormatId::e5m2_ocp, 0x7b, 0x47600000, "e=30 m=3: 2^15*1.75 = 57344 (exp 142)"},
    {Fp8FormatId::e5m2_ocp, 0x01, 0x37800000, "subnormal m=1: 2^(1-15-2) = 2^-16 (exp 111)"},
    {Fp8FormatId::e5m2_ocp, 0x7c, 0x7f800000, "S.11111.00 = +Inf"},
    {Fp8FormatId::e5m2_ocp, 0xfc, 0xff800000, "-Inf"},
    {Fp8FormatId::e5m2_ocp, 0x7d, 0x7fc00000, "S.11111.01 NaN, payload dropped"},
    {Fp8FormatId::e5m2_ocp, 0xfe, 0xffc00000, "negative NaN"},
    {Fp8FormatId::e4m3_fnuz, 0x40, 0x3f800000, "e=8 m=0: 2^(8-8) = 1.0"},
    {Fp8FormatId::e4m3_fnuz, 0x7f, 0x43700000, "e=15 m=7: 2^7*1.875 = 240 (exp 134, frac .875)"},
    {Fp8FormatId::e4m3_fnuz, 0xff, 0xc3700000, "-240"},
    {Fp8FormatId::e4m3_fnuz, 0x01, 0x3a800000, "subnormal m=1: 2^(1-8-3) = 2^-10 (exp 117)"},
    {Fp8FormatId::e4m3_fnuz, 0x00, 0x00000000, "+0, the only zero"},
    {Fp8FormatId::e4m3_fnuz, 0x80, 0xffc00000, "0x80 is the NaN; its sign bit is set"},
    {Fp8FormatId::e5m2_fnuz, 0x40, 0x3f800000, "e=16 m=0: 2^(16-16) = 1.0"},
    {Fp8FormatId::e5m2_fnuz, 0x7f, 0x47600000, "e=31 m=3: 2^15*1.75 = 57344"},
    {Fp8FormatId::e5m2_fnuz, 0x01, 0x37000000, "subnormal m=1: 2^(1-16-2) = 2^-17 (exp 110)"},
    {Fp8FormatId::e5m2_fnuz, 0x80, 0xffc00000, "the NaN"},
    {Fp8FormatId::ue5m3, 0x78, 0x3f800000, "e=15 m=0: 2^(15-15) = 1.0"},
    {Fp8FormatId::ue5m3, 0x80, 0x40000000, "e=16 m=0: 2.0 (no sign bit)"},
    {Fp8FormatId::ue5m3, 0xfe, 0x47e00000, "e=31 m=6: 2^16*1.75 = 114688 (exp 143)"},
    {Fp8FormatId::ue5m3, 0x01, 0x37000000, "subnormal m=1: 2^(1-15-3) = 2^-17"},
    {Fp8FormatId::ue5m3, 0xff, 0x7fa3d000, "NaN: comgr's hardware qNaN"},
    {Fp8FormatId::ue5m3_magnitude, 0xfe, 0x47e00000, "same grid as ue5m3"},
};

TEST(Fp8Decode, HandDerivedDefaults) {
  for (const Row& r : kDefaultRows) {
    const Fp8Format& f = GetFp8Format(r.format);
    const Fp8ToF32Table t = MakeFp8ToF32Table(f, {});
    EXPECT_EQ(Fp8ToF32(r.byte, t), r.f32) << f.name << " 0x" << std::hex << r.byte << ": "
                                          << r.derivation;
    EXPECT_EQ(OracleFp8ToF32(r.byte, f, {}), r.f32) << f.name << " 0x" << std::hex << r.byte
                                                    << " (oracle): " << r.derivation;
  }
}

TEST(Fp8Decode, OnlyTheLowByteIsRead) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(GetFp8Format(Fp8FormatId::e4m3_ocp), {});
  EXPECT_EQ(Fp8ToF32(0xabcd1238u, t), 0x3f800000u);  // byte 0x38 = 1.0
}

TEST(Fp8Decode, PairLowByteFirst) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(GetFp8Format(Fp8FormatId::e4m3_ocp), {});
  // Word 0x3840: low byte 0x40 = 2^(8-7) = 2.0 (0x40000000), high byte 0x38 = 1.0.
  EXPECT_EQ(Fp8PairToF32x2(0x3840u, t), 0x3f80000040000000ull);
  // Only the low 16 bits count: 0xffff3840 gives the same pair.
  EXPECT_EQ(Fp8PairToF32x2(0xffff3840u, t), 0x3f80000040000000ull);
}

struct OptRow {
  Fp8FormatId format;
  uint32_t byte;
  Fp8ToF32Options options;
  uint32_t f32;
  const char* derivation;
};

Fp8ToF32Options Nan(Fp8NanToF32 n) {
  Fp8ToF32Options o;
  o.nan = n;
  return o;
}
Fp8ToF32Options UnsignedNan(uint32_t bits) {
  Fp8ToF32Options o;
  o.unsigned_nan = bits;
  return o;
}
Fp8ToF32Options Flush() {
  Fp8ToF32Options o;
  o.flush_denormals = true;
  return o;
}
Fp8ToF32Options Omod(uint32_t omod) {
  Fp8ToF32Options o;
  o.omod = omod;
  return o;
}
Fp8ToF32Options Clamp(bool dx10) {
  Fp8ToF32Options o;
  o.clamp = true;
  o.dx10_clamp = dx10;
  return o;
}

TEST(Fp8Decode, HandDerivedOptions) {
  const OptRow rows[] = {
      {Fp8FormatId::e4m3_ocp, 0xff, Nan(Fp8NanToF32::host_7f800001), 0x7f800001,
       "HIP host cast_from_f8: fNaN = 0x7F800001 whatever the sign"},
      {Fp8FormatId::e4m3_fnuz, 0x80, Nan(Fp8NanToF32::host_7f800001), 0x7f800001,
       "HIP host: FNUZ 0x80 -> fNaN"},
      {Fp8FormatId::e5m2_ocp, 0xfc, Nan(Fp8NanToF32::host_7f800001), 0xff800000,
       "Inf is not a NaN: -Inf either way"},
      {Fp8FormatId::ue5m3, 0xff, UnsignedNan(0x7fc00000), 0x7fc00000,
       "ue5m3_nan=quiet (rocjitsu fp8_e5m3_to_f32)"},
      {Fp8FormatId::ue5m3, 0xff, Nan(Fp8NanToF32::host_7f800001), 0x7fa3d000,
       "the signed-format NaN reading does not touch UE5M3"},
      {Fp8FormatId::e4m3_ocp, 0x81, Flush(), 0x80000000, "-2^-9 subnormal flushed to -0"},
      {Fp8FormatId::e4m3_fnuz, 0x87, Flush(), 0x80000000,
       "FNUZ -7*2^-10 flushed: an f32 -0 (the f32 has a -0 even if FNUZ does not)"},
      {Fp8FormatId::e4m3_ocp, 0x08, Flush(), 0x3c800000, "2^-6 is normal: kept"},
      {Fp8FormatId::e4m3_ocp, 0x38, Omod(kOmodMul2), 0x40000000, "1.0 * 2 = 2.0"},
      {Fp8FormatId::e4m3_ocp, 0x38, Omod(kOmodMul4), 0x40800000, "1.0 * 4 = 4.0"},
      {Fp8FormatId::e4m3_ocp, 0x38, Omod(kOmodDiv2), 0x3f000000, "1.0 / 2 = 0.5"},
      {Fp8FormatId::e5m2_fnuz, 0x01, Omod(kOmodDiv2), 0x36800000,
       "2^-17 / 2 = 2^-18 (exp 109): still a normal f32"},
      {Fp8FormatId::ue5m3, 0xfe, Omod(kOmodMul4), 0x48e00000, "114688 * 4 = 458752 (exp 145)"},
      {Fp8FormatId::e4m3_ocp, 0x80, Omod(kOmodMul2), 0x80000000, "-0 * 2 = -0"},
      {Fp8FormatId::e5m2_ocp, 0x7c, Omod(kOmodDiv2), 0x7f800000, "Inf / 2 = Inf"},
      {Fp8FormatId::e4m3_ocp, 0x40, Clamp(true), 0x3f800000, "2^(8-7) = 2.0 clamps to 1.0"},
      {Fp8FormatId::e4m3_ocp, 0x30, Clamp(true), 0x3f000000, "e=6: 0.5 stays"},
      {Fp8FormatId::e4m3_ocp, 0xb8, Clamp(true), 0x00000000, "-1.0 clamps to +0"},
      {Fp8FormatId::e4m3_ocp, 0x80, Clamp(true), 0x00000000, "-0 clamps to +0"},
      {Fp8FormatId::e4m3_ocp, 0x7f, Clamp(true), 0x00000000, "NaN with DX10_CLAMP: +0"},
      {Fp8FormatId::e4m3_ocp, 0x7f, Clamp(false), 0x7fc00000, "NaN without DX10_CLAMP: NaN"},
      {Fp8FormatId::e5m2_ocp, 0x7c, Clamp(true), 0x3f800000, "+Inf clamps to 1.0"},
      {Fp8FormatId::e5m2_ocp, 0xfc, Clamp(false), 0x00000000, "-Inf clamps to +0"},
  };
  for (const OptRow& r : rows) {
    const Fp8Format& f = GetFp8Format(r.format);
    EXPECT_EQ(Fp8ToF32(r.byte, MakeFp8ToF32Table(f, r.options)), r.f32)
        << f.name << " 0x" << std::hex << r.byte << ": " << r.derivation;
    EXPECT_EQ(OracleFp8ToF32(r.byte, f, r.options), r.f32)
        << f.name << " 0x" << std::hex << r.byte << " (oracle): " << r.derivation;
  }
  // OMOD then CLAMP: 0.5 * 4 = 2.0 clamps to 1.0.
  Fp8ToF32Options o = Omod(kOmodMul4);
  o.clamp = true;
  EXPECT_EQ(Fp8ToF32(0x30, MakeFp8ToF32Table(GetFp8Format(Fp8FormatId::e4m3_ocp), o)),
            0x3f800000u);
}

// Every byte, every format, every combination of options: table == oracle.
TEST(Fp8Decode, AllBytesEveryOptionMatchOracle) {
  size_t checked = 0;
  for (const Fp8Format& f : kFp8Formats) {
    for (int combo = 0; combo < 128; ++combo) {
      Fp8ToF32Options o;
      o.nan = (combo & 1) ? Fp8NanToF32::host_7f800001 : Fp8NanToF32::sign_quiet;
      o.unsigned_nan = (combo & 2) ? 0x7fc00000u : kUe5m3NanComgr;
      o.flush_denormals = (combo & 4) != 0;
      o.omod = static_cast<uint32_t>(combo >> 3) & 3u;
      o.clamp = (combo & 32) != 0;
      o.dx10_clamp = (combo & 64) != 0;
      const Fp8ToF32Table t = MakeFp8ToF32Table(f, o);
      for (uint32_t b = 0; b < 256; ++b) {
        ASSERT_EQ(Fp8ToF32(b, t), OracleFp8ToF32(b, f, o))
            << f.name << " byte 0x" << std::hex << b << " combo " << std::dec << combo;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 6u * 128u * 256u);
}

// Every 16-bit word, every format: the pair function == two oracle bytes, low byte first.
TEST(Fp8Decode, AllBytePairsMatchOracle) {
  for (const Fp8Format& f : kFp8Formats) {
    const Fp8ToF32Table t = MakeFp8ToF32Table(f, {});
    std::vector<uint32_t> oracle(256);
    for (uint32_t b = 0; b < 256; ++b) oracle[b] = OracleFp8ToF32(b, f, {});
    for (uint32_t w = 0; w < 65536; ++w) {
      const uint64_t expect = oracle[w & 0xff] | (static_cast<uint64_t>(oracle[w >> 8]) << 32);
      ASSERT_EQ(Fp8PairToF32x2(w, t), expect) << f.name << " word 0x" << std::hex << w;
    }
  }
}

// Every finite decoded value is a normal f32 (or zero), with OMOD /2 too: MODE's f32 output
// denormal handling cannot change any result (docs/semantics.md §10.4).
TEST(Fp8Decode, NoResultIsAnF32Denormal) {
  for (const Fp8Format& f : kFp8Formats) {
    Fp8ToF32Options o;
    o.omod = kOmodDiv2;
    const Fp8ToF32Table t = MakeFp8ToF32Table(f, o);
    for (uint32_t b = 0; b < 256; ++b) {
      const uint32_t x = Fp8ToF32(b, t);
      EXPECT_FALSE(((x >> 23) & 0xff) == 0 && (x & 0x7fffff) != 0) << f.name << std::hex << b;
    }
  }
}

}  // namespace
}  // namespace lanediff
