// The fp8 family's readings -> model/fp options (Fp8EncodeOptionsFor, Fp8DecodeOptionsFor), rule
// by rule, and one lane per new rule computed through model/fp with the mapped options
// (docs/semantics.md §10.7), each against the value derived by hand beside it.
#include <cstdint>

#include "gtest/gtest.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/fp/oracle.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace {

Hypotheses With(const char* setting) {
  Hypotheses h;
  EXPECT_TRUE(SetHypothesis(setting, &h).ok()) << setting;
  return h;
}

TEST(Fp8Readings, EncodeOptions) {
  const Hypotheses d;
  Fp8Options o = Fp8EncodeOptionsFor(d, false, false);
  EXPECT_FALSE(o.saturate_finite || o.saturate_inf || o.nan_sign_7f || o.nan_sign_preserving);
  o = Fp8EncodeOptionsFor(d, true, false);  // MODE[23] under fp16_ovfl=saturate_finite
  EXPECT_TRUE(o.saturate_finite);
  EXPECT_FALSE(o.saturate_inf);
  o = Fp8EncodeOptionsFor(d, false, true);  // CLAMP under pk_fp8_clamp=ignored: nothing
  EXPECT_FALSE(o.saturate_finite);
  o = Fp8EncodeOptionsFor(With("pk_fp8_clamp=saturate_finite"), false, true);
  EXPECT_TRUE(o.saturate_finite);
  o = Fp8EncodeOptionsFor(With("fp16_ovfl=saturate_all"), true, false);
  EXPECT_TRUE(o.saturate_finite && o.saturate_inf);
  o = Fp8EncodeOptionsFor(With("fp16_ovfl=ignored"), true, false);
  EXPECT_FALSE(o.saturate_finite || o.saturate_inf);
  EXPECT_TRUE(Fp8EncodeOptionsFor(With("fp8_nan=sign_7f"), false, false).nan_sign_7f);
  EXPECT_TRUE(
      Fp8EncodeOptionsFor(With("fp8_nan=sign_preserving"), false, false).nan_sign_preserving);
}

TEST(Fp8Readings, EncodeLanes) {
  const Fp8Format& e4m3 = GetFp8Format(Fp8FormatId::e4m3_ocp);
  // 480 (0x43f00000) is past E4M3's max 448: 0x7F (NaN) unless saturated to 0x7E.
  EXPECT_EQ(F32ToFp8Rne(0x43f00000, MakeFp8Params(e4m3, Fp8EncodeOptionsFor({}, false, true))),
            0x7fu);
  EXPECT_EQ(F32ToFp8Rne(0x43f00000, MakeFp8Params(e4m3, Fp8EncodeOptionsFor(
                                                            With("pk_fp8_clamp=saturate_finite"),
                                                            false, true))),
            0x7eu);
}

TEST(Fp8Readings, DecodeOptions) {
  const Hypotheses d;
  Fp8ToF32Options o = Fp8DecodeOptionsFor(d, false, kOmodMul2, true, true);
  EXPECT_EQ(o.nan, Fp8NanToF32::sign_quiet);
  EXPECT_EQ(o.unsigned_nan, kUe5m3NanComgr);
  EXPECT_FALSE(o.flush_denormals);  // fp8_denorm_input=kept ignores MODE[6]
  EXPECT_EQ(o.omod, kOmodMul2);
  EXPECT_TRUE(o.clamp);
  o = Fp8DecodeOptionsFor(With("fp8_to_f32_outmod=ignored"), true, kOmodMul2, true, true);
  EXPECT_EQ(o.omod, kOmodNone);
  EXPECT_FALSE(o.clamp);
  EXPECT_TRUE(Fp8DecodeOptionsFor(With("fp8_denorm_input=flush_f16_mode"), false, 0, false, true)
                  .flush_denormals);
  EXPECT_FALSE(Fp8DecodeOptionsFor(With("fp8_denorm_input=flush_f16_mode"), true, 0, false, true)
                   .flush_denormals);
  EXPECT_EQ(Fp8DecodeOptionsFor(With("fp8_to_f32_nan=host_7f800001"), true, 0, false, true).nan,
            Fp8NanToF32::host_7f800001);
  EXPECT_EQ(Fp8DecodeOptionsFor(With("ue5m3_nan=quiet"), true, 0, false, true).unsigned_nan,
            0x7fc00000u);
}

TEST(Fp8Readings, DecodeLanes) {
  const Fp8Format& fnuz = GetFp8Format(Fp8FormatId::e4m3_fnuz);
  const Fp8Format& ue5m3 = GetFp8Format(Fp8FormatId::ue5m3);
  auto dec = [](const Fp8Format& f, const Fp8ToF32Options& o, uint32_t b) {
    return Fp8ToF32(b, MakeFp8ToF32Table(f, o));
  };
  // FNUZ 0x80 is the NaN: sign_quiet 0xffc00000, host 0x7f800001.
  EXPECT_EQ(dec(fnuz, Fp8DecodeOptionsFor({}, true, 0, false, true), 0x80), 0xffc00000u);
  EXPECT_EQ(dec(fnuz, Fp8DecodeOptionsFor(With("fp8_to_f32_nan=host_7f800001"), true, 0, false,
                                          true), 0x80),
            0x7f800001u);
  // UE5M3 0xFF: comgr 0x7fa3d000, rocjitsu 0x7fc00000.
  EXPECT_EQ(dec(ue5m3, Fp8DecodeOptionsFor({}, true, 0, false, true), 0xff), 0x7fa3d000u);
  EXPECT_EQ(dec(ue5m3, Fp8DecodeOptionsFor(With("ue5m3_nan=quiet"), true, 0, false, true), 0xff),
            0x7fc00000u);
  // FNUZ 0x01 = 2^(1-8-3) = 2^-10 (0x3a800000); flushed with MODE[6] clear under flush_f16_mode.
  EXPECT_EQ(dec(fnuz, Fp8DecodeOptionsFor({}, false, 0, false, true), 0x01), 0x3a800000u);
  EXPECT_EQ(dec(fnuz, Fp8DecodeOptionsFor(With("fp8_denorm_input=flush_f16_mode"), false, 0,
                                          false, true), 0x01),
            0x00000000u);
  // FNUZ 0x48 = 2^(9-8) = 2.0: CLAMP gives 1.0 (applied) or 2.0 (ignored).
  EXPECT_EQ(dec(fnuz, Fp8DecodeOptionsFor({}, true, 0, true, true), 0x48), 0x3f800000u);
  EXPECT_EQ(dec(fnuz, Fp8DecodeOptionsFor(With("fp8_to_f32_outmod=ignored"), true, 0, true,
                                          true), 0x48),
            0x40000000u);
}

// pk_overflow=before_rounding (HIP's host cast_to_f8 compares |x| with the largest finite
// before rounding), for the RNE pair writers, fast path and exact oracle alike:
//  FNUZ E4M3 (bias 8): largest finite 0x7f = 1.875 * 2^7 = 240; the next code would be 256, so
//    241.0 (0x43710000) rounds to 240 (0x7f) under RNE, but 241 > 240 overflows before
//    rounding: FNUZ has no Inf, an overflow is the NaN 0x80.
//  OCP E4M3 (bias 7): largest finite 0x7e = 1.75 * 2^8 = 448, quantum 32 at that binade, so the
//    midpoint to the next value (480, the NaN code 0x7f) is 464: 449.0 (0x43e08000) rounds to
//    448 (0x7e); before rounding it overflows to the E4M3 overflow byte sign|0x7f (0x7f; -449.0
//    0xc3e08000: 0xff).
//  OCP E5M2 (bias 15): largest finite 0x7b = 1.75 * 2^15 = 57344, quantum 8192, midpoint 61440:
//    0x476fffff (61439.996) rounds to 57344 (0x7b); before rounding it is the Inf 0x7c.
//  Exactly max finite (240.0 = 0x43700000) is no overflow either way.
TEST(Fp8Readings, PkOverflowBeforeRounding) {
  const Hypotheses before = With("pk_overflow=before_rounding");
  EXPECT_TRUE(Fp8EncodeOptionsFor(before, false, false).overflow_before_rounding);
  EXPECT_FALSE(Fp8EncodeOptionsFor({}, false, false).overflow_before_rounding);
  struct Lane {
    Fp8FormatId format;
    uint32_t x, after, before;
  };
  for (const Lane& l : {Lane{Fp8FormatId::e4m3_fnuz, 0x43710000u, 0x7fu, 0x80u},
                        Lane{Fp8FormatId::e4m3_fnuz, 0x43700000u, 0x7fu, 0x7fu},
                        Lane{Fp8FormatId::e4m3_ocp, 0x43e08000u, 0x7eu, 0x7fu},
                        Lane{Fp8FormatId::e4m3_ocp, 0xc3e08000u, 0xfeu, 0xffu},
                        Lane{Fp8FormatId::e5m2_ocp, 0x476fffffu, 0x7bu, 0x7cu}}) {
    const Fp8Format& f = GetFp8Format(l.format);
    const Fp8Options a = Fp8EncodeOptionsFor({}, false, false);
    const Fp8Options b = Fp8EncodeOptionsFor(before, false, false);
    const Fp8Params pa = MakeFp8Params(f, a), pb = MakeFp8Params(f, b);
    SCOPED_TRACE(testing::Message() << f.name << " 0x" << std::hex << l.x);
    EXPECT_EQ(OracleF32ToFp8Rne(l.x, f, a), l.after);
    EXPECT_EQ(OracleF32ToFp8Rne(l.x, f, b), l.before);
    switch (pb.kind) {
      case Fp8Kind::ocp:
        EXPECT_EQ(F32ToFp8RnePkK<Fp8Kind::ocp>(l.x, pa), l.after);
        EXPECT_EQ(F32ToFp8RnePkK<Fp8Kind::ocp>(l.x, pb), l.before);
        break;
      case Fp8Kind::fnuz:
        EXPECT_EQ(F32ToFp8RnePkK<Fp8Kind::fnuz>(l.x, pa), l.after);
        EXPECT_EQ(F32ToFp8RnePkK<Fp8Kind::fnuz>(l.x, pb), l.before);
        break;
      case Fp8Kind::unsigned_: break;
    }
  }
}

// fp8_to_f32_nan=negative_quiet (rocjitsu's RDNA4 decode_fp8): every NaN byte, either sign, to
// 0xffc00000. E4M3 NaN bytes are S.1111.111 (0x7f, 0xff); E5M2's S.11111.xx with xx != 0
// (0x7d..0x7f, 0xfd..0xff); FNUZ's only NaN is 0x80. sign_quiet gives 0x7fc00000 for the
// positive ones; both give 0xffc00000 for the negative ones and for FNUZ 0x80. Table and
// oracle alike; a finite byte is unchanged (0x38 = 1.0 in E4M3: 0x3f800000).
TEST(Fp8Readings, NegativeQuietDecodesEveryNanByte) {
  const Fp8ToF32Options o =
      Fp8DecodeOptionsFor(With("fp8_to_f32_nan=negative_quiet"), true, 0, false, true);
  EXPECT_EQ(o.nan, Fp8NanToF32::negative_quiet);
  const Fp8ToF32Options q = Fp8DecodeOptionsFor({}, true, 0, false, true);
  struct Lane {
    Fp8FormatId format;
    uint32_t byte, sign_quiet, negative_quiet;
  };
  for (const Lane& l : {Lane{Fp8FormatId::e4m3_ocp, 0x7f, 0x7fc00000u, 0xffc00000u},
                        Lane{Fp8FormatId::e4m3_ocp, 0xff, 0xffc00000u, 0xffc00000u},
                        Lane{Fp8FormatId::e5m2_ocp, 0x7d, 0x7fc00000u, 0xffc00000u},
                        Lane{Fp8FormatId::e5m2_ocp, 0xfe, 0xffc00000u, 0xffc00000u},
                        Lane{Fp8FormatId::e4m3_fnuz, 0x80, 0xffc00000u, 0xffc00000u},
                        Lane{Fp8FormatId::e4m3_ocp, 0x38, 0x3f800000u, 0x3f800000u}}) {
    const Fp8Format& f = GetFp8Format(l.format);
    SCOPED_TRACE(testing::Message() << f.name << " 0x" << std::hex << l.byte);
    EXPECT_EQ(Fp8ToF32(l.byte, MakeFp8ToF32Table(f, q)), l.sign_quiet);
    EXPECT_EQ(Fp8ToF32(l.byte, MakeFp8ToF32Table(f, o)), l.negative_quiet);
    EXPECT_EQ(OracleFp8ToF32(l.byte, f, q), l.sign_quiet);
    EXPECT_EQ(OracleFp8ToF32(l.byte, f, o), l.negative_quiet);
  }
}

}  // namespace
}  // namespace lanediff
