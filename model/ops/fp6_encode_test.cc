// gfx950's interleaved FP6/BF6 encoders v_cvt_scalef32_2xpk16_{fp6,bf6}_f32 through the batch
// API (docs/semantics.md §11.16): hand-derived lanes (the 192-bit packing worked out beside each
// case), then the fast model against the oracle on sampled f32 elements x every scale byte under
// each reading of the hypotheses the rows read (the sampled run costs 0.05 s user in release).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

constexpr int kElems = 16, kOut = 6;

OpContext Gfx950(Instr instr) {
  OpContext ctx;
  ctx.target = *FindTarget("gfx950");
  ctx.instr = instr;
  return ctx;
}

std::vector<uint32_t> Encode(const OpContext& ctx, const std::vector<uint32_t>& s0,
                             const std::vector<uint32_t>& s1, uint32_t scale, bool oracle = false) {
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  lanes.AddWide(s0.data(), s1.data(), &scale, 0xdeadbeef);
  std::vector<uint32_t> out(kOut);
  const absl::Status s = oracle ? EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(out))
                                : Evaluate(ctx, lanes.view(), absl::MakeSpan(out));
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

// E2M3 (bias 1, 3 fraction bits): 1.0 = 0b0_01_000 = 0x08, 2.0 = 0x10. Every 12-bit pair is
// {S1 code, S0 code} = 0x10 << 6 | 0x08 = 0x408; the 192 bits repeat every 96 (3 dwords):
//   dword 0 = pair 2 low 8 bits 0x08 << 24 | 0x408 << 12 | 0x408       = 0x08408408
//   dword 1 = pair 5 low 4 bits 0x8 << 28 | 0x408 << 16 | 0x408 << 4 | pair 2 high 4 bits 0x4
//           = 0x84084084
//   dword 2 = 0x408 << 20 | 0x408 << 8 | pair 5 high 8 bits 0x40       = 0x40840840
TEST(Fp6Encode, EveryPairInterleaved) {
  const OpContext ctx = Gfx950(Instr::v_cvt_scalef32_2xpk16_fp6_f32);
  const std::vector<uint32_t> want = {0x08408408u, 0x84084084u, 0x40840840u,
                                      0x08408408u, 0x84084084u, 0x40840840u};
  EXPECT_EQ(Encode(ctx, std::vector<uint32_t>(kElems, 0x3f800000u),
                   std::vector<uint32_t>(kElems, 0x40000000u), 0x3f800000u),
            want);
  // Scale 2.0 (exponent field 128): 2.0 / 2 = 1.0 and 4.0 / 2 = 2.0, the same words.
  EXPECT_EQ(Encode(ctx, std::vector<uint32_t>(kElems, 0x40000000u),
                   std::vector<uint32_t>(kElems, 0x40800000u), 0x40000000u),
            want);
}

// E3M2 (bias 3, 2 fraction bits): 1.0 = 0b0_011_00 = 0x0c, 2.0 = 0x10; every pair 0x10 << 6 |
// 0x0c = 0x40c: dword 0 = 0x0c << 24 | 0x40c << 12 | 0x40c = 0x0c40c40c, dword 1 = 0xc << 28 |
// 0x40c << 16 | 0x40c << 4 | 0x4 = 0xc40c40c4, dword 2 = 0x40c << 20 | 0x40c << 8 | 0x40 =
// 0x40c40c40. Element 0: 1.125 (0x3f900000) halfway between 1.0 (0x0c) and 1.25 (0x0d): even
// 0x0c; 1.375 (0x3fb00000) halfway between 1.25 and 1.5 (0x0e): 0x0e -> 0x0e << 6 | 0x0c =
// 0x38c; 100.0 saturates to 28 (0x1f), -100.0 to 0x3f.
TEST(Fp6Encode, Bf6ByHand) {
  const OpContext ctx = Gfx950(Instr::v_cvt_scalef32_2xpk16_bf6_f32);
  EXPECT_EQ(Encode(ctx, std::vector<uint32_t>(kElems, 0x3f800000u),
                   std::vector<uint32_t>(kElems, 0x40000000u), 0x3f800000u),
            (std::vector<uint32_t>{0x0c40c40cu, 0xc40c40c4u, 0x40c40c40u, 0x0c40c40cu, 0xc40c40c4u,
                                   0x40c40c40u}));
  std::vector<uint32_t> a(kElems, 0), b(kElems, 0);
  a[0] = 0x3f900000u, b[0] = 0x3fb00000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u)[0], 0x38cu);
  a[0] = 0x42c80000u, b[0] = 0xc2c80000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u)[0], 0xfdfu);
}

// One element at a time: S0[0] = 1.0 -> bits 5:0 = 0x08; S1[0] = 1.0 -> bits 11:6 = 0x200;
// S0[5] = 2.0 (0x10: bit 4 of the field at bit 60) -> bit 64 = dword 2 bit 0; S0[15] = 1.0 (bit
// 3 of the field at 180) -> bit 183 = dword 5 0x00800000; S1[15] = -1.0 (0x28: bits 3 and 5 of
// the field at 186) -> bits 189, 191 = dword 5 0xa0000000.
TEST(Fp6Encode, ElementPlacementByHand) {
  const OpContext ctx = Gfx950(Instr::v_cvt_scalef32_2xpk16_fp6_f32);
  std::vector<uint32_t> a(kElems, 0), b(kElems, 0);
  a[0] = 0x3f800000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u), (std::vector<uint32_t>{0x08u, 0, 0, 0, 0, 0}));
  a[0] = 0, b[0] = 0x3f800000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u), (std::vector<uint32_t>{0x200u, 0, 0, 0, 0, 0}));
  b[0] = 0, a[5] = 0x40000000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u), (std::vector<uint32_t>{0, 0, 0x1u, 0, 0, 0}));
  a[5] = 0, a[15] = 0x3f800000u, b[15] = 0xbf800000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u), (std::vector<uint32_t>{0, 0, 0, 0, 0, 0xa0800000u}));
}

// Rounding and saturation, element 0 of each source (S0 -> bits 5:0, S1 -> bits 11:6):
// 1.0625 (0x3f880000) is halfway between 1.0 (0x08) and 1.125 (0x09): even, 0x08; 1.1875
// (0x3f980000) halfway between 1.125 and 1.25 (0x0a): 0x0a -> 0x0a << 6 | 0x08 = 0x288.
// 100.0 saturates to 7.5 (0x1f), -100.0 to 0x3f -> 0xfdf. A -NaN (0xffc00000) under mx_fp4_nan's
// default (sign | max) is 0x3f, +Inf 0x1f -> 0x7ff.
TEST(Fp6Encode, RoundingSaturationNan) {
  const OpContext ctx = Gfx950(Instr::v_cvt_scalef32_2xpk16_fp6_f32);
  std::vector<uint32_t> a(kElems, 0), b(kElems, 0);
  a[0] = 0x3f880000u, b[0] = 0x3f980000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u)[0], 0x288u);
  a[0] = 0x42c80000u, b[0] = 0xc2c80000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u)[0], 0xfdfu);
  a[0] = 0xffc00000u, b[0] = 0x7f800000u;
  EXPECT_EQ(Encode(ctx, a, b, 0x3f800000u)[0], 0x7ffu);
}

// Sampled elements (near the formats' values, ties, overflows, NaN, Inf, zeros, denormals)
// x every scale byte, fast == oracle under the default and each alternative reading.
TEST(Fp6Encode, SampledElementsEveryScaleFastMatchesOracle) {
  const std::vector<std::string> settings = {
      "", "mx_scale_read=f32_multiply", "mx_scale_zero=zero", "mx_scale_nan=pow2_128",
      "mx_down_scale=multiply", "mx_denorm_in=flush", "mx_fp4_nan=pos_max", "mx_fp4_nan=neg_zero"};
  std::mt19937 rng(20261205);
  const uint32_t specials[] = {0, 0x80000000u, 0x7fc00000u, 0xffc00000u, 0x7f800000u,
                               0xff800000u, 0x00000001u, 0x807fffffu};
  int checked = 0;
  for (Instr instr : {Instr::v_cvt_scalef32_2xpk16_fp6_f32, Instr::v_cvt_scalef32_2xpk16_bf6_f32}) {
    for (const std::string& setting : settings) {
      OpContext ctx = Gfx950(instr);
      if (!setting.empty()) {
        ASSERT_TRUE(SetHypothesis(setting, &ctx.hyp).ok()) << setting;
      }
      LaneBatch lanes;
      lanes.SetShape(GetInstrInfo(instr).lane_shape());
      for (uint32_t scale = 0; scale < 256; ++scale) {
        uint32_t e[2 * kElems];
        for (uint32_t& x : e) {
          // An exponent near the scale's (the elements it can represent), a few low fraction
          // bits (ties and near-ties), or a special.
          const uint32_t r = rng();
          if (r % 8 == 0) {
            x = specials[(r >> 3) % 8];
          } else {
            const int exp = static_cast<int>(scale) + static_cast<int>((r >> 3) % 16) - 8;
            x = (r & 0x80000000u) | (static_cast<uint32_t>(std::clamp(exp, 0, 254)) << 23) |
                (rng() & 0x7f0000u) | ((r >> 8) % 4 == 0 ? 0x8000u : 0);
          }
        }
        const uint32_t s2 = scale << 23 | (scale & 1u) << 31 | (scale & 2u) << 20;
        lanes.AddWide(e, e + kElems, &s2, scale);
      }
      std::vector<uint32_t> fast(OutputWords(instr, lanes.size())), slow(fast.size());
      ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
      ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
      for (size_t i = 0; i < fast.size(); ++i) {
        ASSERT_EQ(fast[i], slow[i]) << InstrName(instr) << " " << setting << " lane " << i / kOut
                                    << " word " << i % kOut;
      }
      checked += static_cast<int>(fast.size());
    }
  }
  EXPECT_EQ(checked, 2 * 8 * 256 * kOut);
}

}  // namespace
}  // namespace lanediff
