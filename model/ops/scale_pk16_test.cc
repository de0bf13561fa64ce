// gfx1250's FP6/BF6 decodes with an E8M0 scale register, v_cvt_scale_pk16_* (shape V,
// docs/semantics.md §14.6), through the batch API: hand-derived lanes (the working beside each:
// where each field sits in the 96 bits, values, the byte scale_sel picks, the field order under
// both readings of mx_pk16_fp6_order), then the fast model against the oracle on every code x
// every scale byte x every scale_sel under each reading of the rules these rows read. The
// default run gives each scale_sel every 4th scale byte under the defaults and every 16th under
// the other readings; LANEDIFF_SCALE_PK16_STRIDE=1 (the slow entry) gives every select every
// byte under every reading.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/ops/scale_decode_test_util.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

constexpr int kPk16 = 16;

// OCP MX FP6 E2M3 (bias 1; exponent 0: m/8): 0x08 = 1.0, 0x28 = -1.0, 0x1f = 7.5 (the largest),
// 0x01 = 0.125, 0x10 = 2.0, 0x3f = -7.5, 0x20 = -0, 0x00, 0x09 = 1.125, 0x07 = 0.875 (a
// subnormal), 0x18 = 4.0, 0x02 = 0.25, 0x08, 0x00, 0x00, 0x30 = -2.0 as fields 0..15 at bits
// 6i+5:6i: dword 0 = 0x08 | 0x28 << 6 | 0x1f << 12 | 0x01 << 18 | 0x10 << 24 | (0x3f & 3) << 30
// = 0xd005fa08 (field 5 straddles: its top 4 bits 0xf are bits 3:0 of dword 1), dword 1 =
// 0x81c9020f (field 10 = 0x18: low 4 bits 0x8 at 31:28, top 2 bits 0 in dword 2), dword 2 =
// 0xc0000809 (field 15 = 0x30 at 95:90). S1 = 0x7f7e7d80: scale_sel:0 picks byte 0 = 0x80 = 2^1:
// 2.0, -2.0, 15.0 (0x41700000), 0.25, 4.0, -15.0, -0, 0, 2.25 (0x40100000), 1.75 (0x3fe00000),
// 8.0, 0.5, 2.0, 0, 0, -4.0. scale_sel:6 picks byte 2 = 0x7e = 2^-1: 1.0 -> 0.5 (0x3f000000).
const std::vector<uint32_t> kFp6Tuple = {0xd005fa08u, 0x81c9020fu, 0xc0000809u};

TEST(ScalePk16, HandDerivedFp6ToF32Linear) {
  ExpectScaleDecode(
      ScaleDecodeCtx(Instr::v_cvt_scale_pk16_f32_fp6, 0), kFp6Tuple, 0x7f7e7d80u,
      {0x40000000u, 0xc0000000u, 0x41700000u, 0x3e800000u, 0x40800000u, 0xc1700000u, 0x80000000u, 0,
       0x40100000u, 0x3fe00000u, 0x41000000u, 0x3f000000u, 0x40000000u, 0, 0, 0xc0800000u});
  EXPECT_EQ(
      ScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk16_f32_fp6, 6), kFp6Tuple, 0x7f7e7d80u)[0],
      0x3f000000u);
}

// mx_pk16_fp6_order=interleaved reads element i < 8 from field 2i and element 8 + i from field
// 2i + 1: the same tuple gives fields 0, 2, 4, ..., 14 then 1, 3, ..., 15, times 2^1.
TEST(ScalePk16, HandDerivedFp6ToF32Interleaved) {
  ExpectScaleDecode(
      ScaleDecodeCtx(Instr::v_cvt_scale_pk16_f32_fp6, 0, "mx_pk16_fp6_order=interleaved"),
      kFp6Tuple, 0x7f7e7d80u,
      {0x40000000u, 0x41700000u, 0x40800000u, 0x80000000u, 0x40100000u, 0x41000000u, 0x40000000u, 0,
       0xc0000000u, 0x3e800000u, 0xc1700000u, 0, 0x3fe00000u, 0x3f000000u, 0, 0xc0800000u});
}

// OCP MX BF6 E3M2 (bias 3; exponent 0: m/4 x 2^-2): fields 0x0c = 1.0, 0x2c = -1.0, 0x1f = 28
// (the largest), 0x01 = 2^-4, 0x00, 0x20 = -0, 0x3f = -28, 0x0d = 1.25, the rest 0: dword 0 =
// 0x0c | 0x2c << 6 | 0x1f << 12 | 0x01 << 18 = 0x0005fb0c, dword 1 = 0x20 >> 2 | 0x3f << 4 |
// 0x0d << 10 = 0x000037f8, dword 2 = 0. scale_sel:9 picks byte 1 (low2) of 0x008c0000 | 0x8c00
// = 0x8c = 2^13: 8192 (f16 0x7000, bf16 0x4600), -8192 (0xf000 / 0xc600), 28 x 2^13 = 229376 =
// 1.75 x 2^17, beyond f16's 65504: +Inf 0x7c00 (mx_up_overflow=infinity), bf16 0x4860; 2^9
// (0x6000 / 0x4400), 0, -0 (0x8000), -Inf 0xfc00 / bf16 0xc860, 10240 = 1.25 x 2^13 (0x7100 /
// 0x4620); element 2j in bits 15:0 of VDST+j.
TEST(ScalePk16, HandDerivedBf6To16) {
  const std::vector<uint32_t> src0 = {0x0005fb0cu, 0x000037f8u, 0};
  ExpectScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk16_f16_bf6, 9), src0, 0x008c8c00u,
                    {0xf0007000u, 0x60007c00u, 0x80000000u, 0x7100fc00u, 0, 0, 0, 0});
  ExpectScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk16_bf16_bf6, 9), src0, 0x008c8c00u,
                    {0xc6004600u, 0x44004860u, 0x80000000u, 0x4620c860u, 0, 0, 0, 0});
}

// The NaN scale byte 0xFF (mx_scale_nan=nan): each element a quiet NaN of its sign. FP6 fields
// 0x08 (1.0), 0x28 (-1.0), the rest +0: bf16 0x7fc0, 0xffc0, then 0x7fc0 (a zero code too).
TEST(ScalePk16, NanScaleByte) {
  ExpectScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk16_bf16_fp6, 3), {0x00000a08u, 0, 0},
                    0xff000000u,
                    {0xffc07fc0u, 0x7fc07fc0u, 0x7fc07fc0u, 0x7fc07fc0u, 0x7fc07fc0u, 0x7fc07fc0u,
                     0x7fc07fc0u, 0x7fc07fc0u});
}

int Stride() {
  const char* s = std::getenv("LANEDIFF_SCALE_PK16_STRIDE");
  return s != nullptr && std::atoi(s) > 0 ? std::atoi(s) : 4;
}

// One lane per 16 codes: fields first..first+15 (mod 64), rotated by the scale byte so that each
// code visits several positions, packed at bits 6i+5:6i.
void AddLanes(LaneBatch* lanes, uint32_t reg, uint32_t b) {
  for (uint32_t first = 0; first < 64; first += kPk16) {
    uint32_t src0[3] = {0, 0, 0};
    for (int k = 0; k < kPk16; ++k) {
      const uint64_t c = (first + static_cast<uint32_t>(k) + b) % 64;
      const int bit = 6 * k;
      src0[bit / 32] |= static_cast<uint32_t>(c << (bit % 32));
      if (bit % 32 > 26) src0[bit / 32 + 1] |= static_cast<uint32_t>(c >> (32 - bit % 32));
    }
    const uint32_t s2 = 0;
    lanes->AddWide(src0, &reg, &s2, b);
  }
}

// Every code x every scale byte x every scale_sel (at the stride), fast == oracle. A lane's scale
// register holds the byte under test at the position scale_sel's low two bits name and three
// other bytes (b ^ 0x55, b ^ 0xaa, ~b) elsewhere, so a wrong pick under any reading shows.
TEST(ScalePk16, EveryCodeEveryScaleEverySelectFastMatchesOracle) {
  const std::vector<std::string> settings = {
      "", "mx_scale_sel=high2", "mx_scale_sel=f32_exponent", "mx_up_scale=divide",
      "mx_scale_zero=zero", "mx_scale_nan=pow2_128", "mx_scale_nan=infinity",
      "mx_up_overflow=saturate", "mx_denorm_out=flush", "mx_up_round=toward_zero",
      "mx_pk16_fp6_order=interleaved"};
  const int stride = Stride();
  int rows = 0;
  long pairs = 0;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.src[0] != SrcRole::fp6_x16) continue;
    ++rows;
    for (const std::string& setting : settings) {
      const int step = setting.empty() || stride == 1 ? stride : 4 * stride;
      for (uint8_t sel = 0; sel < 16; ++sel) {
        const OpContext ctx = ScaleDecodeCtx(instr, sel, setting);
        LaneBatch lanes;
        lanes.SetShape(info.lane_shape());
        for (uint32_t b = sel % step; b < 256; b += step) {
          uint32_t reg = 0;
          const uint32_t others[3] = {b ^ 0x55u, b ^ 0xaau, ~b & 0xffu};
          for (uint32_t pos = 0, o = 0; pos < 4; ++pos) {
            reg |= (pos == (sel & 3u) ? b : others[o++]) << (8 * pos);
          }
          AddLanes(&lanes, reg, b);
          if (setting.empty()) pairs += 64;
        }
        std::vector<uint32_t> fast(OutputWords(instr, lanes.size())), slow(fast.size());
        ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
        ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
        for (size_t i = 0; i < fast.size(); ++i) {
          ASSERT_EQ(fast[i], slow[i]) << InstrName(instr) << " " << setting << " scale_sel:"
                                      << int{sel} << " word " << i;
        }
      }
    }
  }
  EXPECT_EQ(rows, 6);
  // Under the defaults each row saw each of the 64 codes with each byte of the stride per select.
  EXPECT_EQ(pairs, 6L * 16 * (256 / stride) * 64);
}

}  // namespace
}  // namespace lanediff
