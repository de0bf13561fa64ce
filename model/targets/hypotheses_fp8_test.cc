// The fp8 family's readings -> model/fp options (Fp8EncodeOptionsFor, Fp8DecodeOptionsFor), rule
// by rule, and one lane per new rule computed through model/fp with the mapped options
// (docs/semantics.md §10.7), each against the value derived by hand beside it.
#include <cstdint>

#include "gtest/gtest.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
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

}  // namespace
}  // namespace lanediff
