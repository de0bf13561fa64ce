// gfx950's FP6/BF6 tuple decodes v_cvt_scalef32_pk32_f32_{fp6,bf6} through the batch API
// (docs/semantics.md §11.14): hand-derived lanes (the working beside each: field placement across
// dword boundaries, values, the scale's exponent field), then the fast model against the oracle
// on every FP6 code x every E8M0 scale byte, under each reading of the scale hypotheses (64
// codes x 256 scales x 2 formats x 6 settings: 0.2 s user in release, so the default run is
// exhaustive).
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/ops/scale_decode_test_util.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

constexpr int kTuple = 6, kFields = 32;

OpContext Gfx950(Instr instr) {
  OpContext ctx;
  ctx.target = *FindTarget("gfx950");
  ctx.instr = instr;
  return ctx;
}

// The tuple with field k = codes[k] (bits 6k+5:6k of the 192 bits, dword 0 bit 0 the lowest),
// written bit by bit.
std::vector<uint32_t> Pack(const std::vector<uint32_t>& codes) {
  std::vector<uint32_t> t(kTuple, 0);
  for (int k = 0; k < kFields; ++k) {
    for (int b = 0; b < 6; ++b) {
      const int bit = 6 * k + b;
      t[bit / 32] |= ((codes[k] >> b) & 1u) << (bit % 32);
    }
  }
  return t;
}

// The packing itself, by hand: field 5 (bits 35:30) = 0x1f puts 0b11 in dword 0 bits 31:30 and
// 0b0111 in dword 1 bits 3:0; field 10 (bits 65:60) = 0x1f puts 0xf in dword 1 bits 31:28 and
// 0b01 in dword 2 bits 1:0; field 31 (bits 191:186) = 0x21 is dword 5 = 0x84000000.
TEST(Fp6Tuple, PackingByHand) {
  std::vector<uint32_t> c(kFields, 0);
  c[5] = 0x1f;
  c[10] = 0x1f;
  c[31] = 0x21;
  EXPECT_EQ(Pack(c), (std::vector<uint32_t>{0xc0000000u, 0xf0000007u, 0x1u, 0, 0, 0x84000000u}));
}

// E2M3 (bias 1): 0x08 = 1.0, 0x1f = 7.5, 0x01 = 0.125, 0x21 = -0.125, 0x20 = -0. E3M2 (bias 3):
// 0x0c = 1.0, 0x1f = 28.0, 0x01 = 0.0625. S1 3.0 (exponent field 128) scales by 2.
TEST(Fp6Tuple, HandDerivedFieldsAndScales) {
  std::vector<uint32_t> c(kFields, 0);
  c[0] = 0x08, c[5] = 0x1f, c[16] = 0x01, c[31] = 0x21;
  std::vector<uint32_t> want(kFields, 0);
  want[0] = 0x40000000u;   // 1.0 x 2
  want[5] = 0x41700000u;   // 7.5 x 2 = 15.0 = 1.875 x 2^3
  want[16] = 0x3e800000u;  // 0.125 x 2 = 0.25
  want[31] = 0xbe800000u;  // -0.25
  EXPECT_EQ(ScaleDecode(Gfx950(Instr::v_cvt_scalef32_pk32_f32_fp6), Pack(c), 0x40400000u), want);
  c.assign(kFields, 0);
  c[0] = 0x0c, c[21] = 0x1f, c[26] = 0x01;
  want.assign(kFields, 0);
  want[0] = 0x40000000u;   // 1.0 x 2
  want[21] = 0x42600000u;  // 28 x 2 = 56 = 1.75 x 2^5
  want[26] = 0x3e000000u;  // 0.0625 x 2 = 0.125
  EXPECT_EQ(ScaleDecode(Gfx950(Instr::v_cvt_scalef32_pk32_f32_bf6), Pack(c), 0x40400000u), want);
  // Scale byte 0xFF: a quiet NaN of each element's sign (field 3 = -0: 0xffc00000).
  c.assign(kFields, 0);
  c[3] = 0x20;
  want.assign(kFields, 0x7fc00000u);
  want[3] = 0xffc00000u;
  EXPECT_EQ(ScaleDecode(Gfx950(Instr::v_cvt_scalef32_pk32_f32_fp6), Pack(c), 0x7f800000u), want);
}

// Into f16, two per dword (element 2j low, 2j+1 high): 1.0 x 2 = 0x4000 in VDST[15:0]; 7.5 x 2 =
// 15.0 = 1.875 x 2^3 (exponent 18, fraction 0x380) = 0x4b80 in VDST+2[31:16]; -0.125 x 2 =
// -0.25 = 0xb400 in VDST+15[31:16]. Scale 2^15 (exponent field 142): 7.5 x 2^15 = 245760 is past
// f16's 65504: +Inf 0x7c00; 1.0 x 2^15 = 0x7800.
TEST(Fp6Tuple, HandDerivedSixteenBitWords) {
  const OpContext ctx = Gfx950(Instr::v_cvt_scalef32_pk32_f16_fp6);
  std::vector<uint32_t> c(kFields, 0);
  c[0] = 0x08, c[5] = 0x1f, c[31] = 0x21;
  std::vector<uint32_t> want(kFields / 2, 0);
  want[0] = 0x00004000u;
  want[2] = 0x4b800000u;
  want[15] = 0xb4000000u;
  EXPECT_EQ(ScaleDecode(ctx, Pack(c), 0x40400000u), want);
  EXPECT_EQ(ScaleDecode(ctx, Pack(c), 0x40400000u, /*oracle=*/true), want);
  c.assign(kFields, 0);
  c[0] = 0x1f, c[1] = 0x08;
  want.assign(kFields / 2, 0);
  want[0] = 0x78007c00u;
  EXPECT_EQ(ScaleDecode(ctx, Pack(c), 0x47000000u), want);
}

// Every code x every scale byte (each pair once: 64 codes in two lanes per scale, rotated by the
// scale across the field positions), fast == oracle, under the default and each alternative
// scale reading.
TEST(Fp6Tuple, EveryCodeEveryScaleFastMatchesOracle) {
  const std::vector<std::string> settings = {
      "", "mx_scale_read=f32_multiply", "mx_scale_zero=zero", "mx_scale_nan=pow2_128",
      "mx_up_overflow=saturate", "mx_denorm_out=flush"};
  int checked = 0, rows = 0;
  for (Instr instr : kAllInstrs) {
    if (GetInstrInfo(instr).src[0] != SrcRole::fp6_x32) continue;
    for (const std::string& setting : settings) {
      OpContext ctx = Gfx950(instr);
      if (!setting.empty()) {
        ASSERT_TRUE(SetHypothesis(setting, &ctx.hyp).ok()) << setting;
      }
      LaneBatch lanes;
      lanes.SetShape(GetInstrInfo(instr).lane_shape());
      for (uint32_t scale = 0; scale < 256; ++scale) {
        // Two lanes per scale hold the 64 codes once, rotated by the scale so that each code
        // visits many field positions (straddling ones too) across the scales.
        for (uint32_t half = 0; half < 2; ++half) {
          std::vector<uint32_t> c(kFields);
          for (int k = 0; k < kFields; ++k) c[k] = (32 * half + k + scale) & 0x3fu;
          const std::vector<uint32_t> t = Pack(c);
          // The scale's sign and a mantissa bit ride along (read only by f32_multiply).
          const uint32_t s1 = scale << 23 | (scale & 1u) << 31 | (scale & 2u) << 20, s2 = 0;
          lanes.AddWide(t.data(), &s1, &s2, scale);
        }
      }
      std::vector<uint32_t> fast(OutputWords(instr, lanes.size())), slow(fast.size());
      ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
      ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
      for (size_t i = 0; i < fast.size(); ++i) {
        ASSERT_EQ(fast[i], slow[i]) << InstrName(instr) << " " << setting << " lane " << i / kFields
                                    << " word " << i % kFields;
      }
      checked += static_cast<int>(lanes.size()) * kFields;  // (code, scale) pairs: each once
      rows += setting.empty() ? 1 : 0;
    }
  }
  EXPECT_EQ(checked, rows * 6 * 64 * 256);
  EXPECT_GE(rows, 3);
}

}  // namespace
}  // namespace lanediff
