// gfx1250's scaled decodes with an E8M0 scale register, v_cvt_scale_pk8_* (shape U,
// docs/semantics.md §14.2), through the batch API: hand-derived lanes (the working beside each:
// element placement, values, the byte scale_sel picks), the registry's discriminating lanes of
// mx_scale_sel and mx_up_scale, then the fast model against the oracle on every code x every
// scale byte x every scale_sel under each reading of the scale rules. The default run gives
// each scale_sel every 16th scale byte under the defaults (every byte across the 16 selects, each
// code with each byte once) and every 64th under the other readings (2.0 s user for the file,
// release, a loaded machine); LANEDIFF_SCALE_PK8_STRIDE=1 (the slow entry) gives every select
// every byte under every reading.
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

constexpr int kPk8 = 8;

// E4M3 (bias 7) bytes, element k = byte k of the pair (dword 0 holds elements 0..3): 0x38 = 1.0,
// 0xc0 = -2.0, 0x7f = NaN, 0x01 = 2^-6 x 1/8 = 2^-9, 0x7e = 448, 0x00, 0x80 = -0, 0x08 = 2^-6.
// S1 = 0x7f7e7d80, scale_sel:0 picks byte 0 = 0x80 = 2^1: 2.0 = 0x40000000, -4.0 = 0xc0800000,
// the NaN stays the default fp8_to_f32_nan quiet NaN 0x7fc00000, 2^-8 = 0x3b800000, 896 = 1.75 x
// 2^9 = 0x44600000, 0, -0 = 0x80000000, 2^-5 = 0x3d000000. scale_sel:6 picks byte 2 = 0x7e =
// 2^-1 (1.0 -> 0x3f000000, -2.0 -> 0xbf800000); scale_sel:7 byte 3 = 0x7f = 2^0.
TEST(ScalePk8, HandDerivedFp8ToF32) {
  const std::vector<uint32_t> src0 = {0x017fc038u, 0x0880007eu};
  ExpectScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk8_f32_fp8, 0), src0, 0x7f7e7d80u,
                    {0x40000000u, 0xc0800000u, 0x7fc00000u, 0x3b800000u, 0x44600000u, 0,
                     0x80000000u, 0x3d000000u});
  const std::vector<uint32_t> sel6 =
      ScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk8_f32_fp8, 6), src0, 0x7f7e7d80u);
  EXPECT_EQ(sel6[0], 0x3f000000u);
  EXPECT_EQ(sel6[1], 0xbf800000u);
  EXPECT_EQ(ScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk8_f32_fp8, 7), src0, 0x7f7e7d80u)[0],
            0x3f800000u);
}

// FP4 E2M1 (bias 1) nibbles 2, 7, f, 1, 9, 0, 8, 4 (element k = bits 4k+3:4k: S0 = 0x48091f72)
// = 1.0, 6.0, -6.0, 0.5, -0.5, 0, -0, 2.0; scale_sel:3 picks byte 3 of 0x82000000 = 0x82 = 2^3:
// 8.0 (f16 0x4800), 48 = 1.5 x 2^5 (0x5200), -48 (0xd200), 4.0 (0x4400), -4.0 (0xc400), 0,
// -0 (0x8000), 16 (0x4c00); element 2j in bits 15:0 of VDST+j.
TEST(ScalePk8, HandDerivedFp4ToF16) {
  ExpectScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk8_f16_fp4, 3), {0x48091f72u}, 0x82000000u,
                    {0x52004800u, 0x4400d200u, 0x0000c400u, 0x4c008000u});
  // bf16: 8.0 = 0x4100, 48 = 0x4240, -48 = 0xc240, 4.0 = 0x4080, -4.0 = 0xc080, 16 = 0x4180.
  ExpectScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk8_bf16_fp4, 3), {0x48091f72u}, 0x82000000u,
                    {0x42404100u, 0x4080c240u, 0x0000c080u, 0x41808000u});
}

// The NaN scale byte 0xFF (mx_scale_nan=nan): each element a quiet NaN of its sign, bf16 0x7fc0;
// E5M2 0x3c = 1.0 and 0xbc = -1.0, the zero codes +0 give 0x7fc0 too.
TEST(ScalePk8, NanScaleByte) {
  ExpectScaleDecode(ScaleDecodeCtx(Instr::v_cvt_scale_pk8_bf16_bf8, 0), {0x0000bc3cu, 0},
                    0x000000ffu, {0xffc07fc0u, 0x7fc07fc0u, 0x7fc07fc0u, 0x7fc07fc0u});
}

// The registry's lanes (model/targets/hypotheses.cc): S0 = {0x38, 0} (E4M3 1.0), S1 =
// 0x7f7e7d80, scale_sel:6: low2 byte 2 (0x7e: 0.5), high2 byte 1 (0x7d: 0.25), f32_exponent the
// field 0xfe (2^127 = 0x7f000000). mx_up_scale: S1 = 0x80, scale_sel:0: 2.0, divide 0.5.
TEST(ScalePk8, RegistryLanes) {
  const Instr f32 = Instr::v_cvt_scale_pk8_f32_fp8;
  const std::vector<uint32_t> one = {0x38u, 0};
  EXPECT_EQ(ScaleDecode(ScaleDecodeCtx(f32, 6), one, 0x7f7e7d80u)[0], 0x3f000000u);
  EXPECT_EQ(ScaleDecode(ScaleDecodeCtx(f32, 6, "mx_scale_sel=high2"), one, 0x7f7e7d80u)[0],
            0x3e800000u);
  EXPECT_EQ(ScaleDecode(ScaleDecodeCtx(f32, 6, "mx_scale_sel=f32_exponent"), one, 0x7f7e7d80u)[0],
            0x7f000000u);
  EXPECT_EQ(ScaleDecode(ScaleDecodeCtx(f32, 0), one, 0x80u)[0], 0x40000000u);
  EXPECT_EQ(ScaleDecode(ScaleDecodeCtx(f32, 0, "mx_up_scale=divide"), one, 0x80u)[0], 0x3f000000u);
  EXPECT_EQ(ScaleDecode(ScaleDecodeCtx(f32, 0, "mx_up_scale=divide"), one, 0x80u, true)[0],
            0x3f000000u);
}

int Stride() {
  const char* s = std::getenv("LANEDIFF_SCALE_PK8_STRIDE");
  return s != nullptr && std::atoi(s) > 0 ? std::atoi(s) : 16;
}

// Every code x every scale byte x every scale_sel (at the stride), fast == oracle. A lane's scale
// register holds the byte under test at the position scale_sel's low two bits name and three
// other bytes (b ^ 0x55, b ^ 0xaa, ~b) elsewhere, so a wrong pick under any reading shows.
TEST(ScalePk8, EveryCodeEveryScaleEverySelectFastMatchesOracle) {
  const std::vector<std::string> settings = {
      "", "mx_scale_sel=high2", "mx_scale_sel=f32_exponent", "mx_up_scale=divide",
      "mx_scale_zero=zero", "mx_scale_nan=pow2_128", "mx_scale_nan=infinity",
      "mx_up_overflow=saturate", "mx_denorm_out=flush", "mx_up_round=toward_zero",
      "fp8_to_f32_nan=negative_quiet"};
  const int stride = Stride();
  int rows = 0;
  long pairs = 0;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    // Shape U: eight codes (shape V's 16 FP6/BF6 codes: scale_pk16_test.cc).
    if (info.src[1] != SrcRole::scale_e8m0_x4 || info.src[0] == SrcRole::fp6_x16) continue;
    ++rows;
    const bool fp4 = info.fp8_slot == Fp8Slot::fp4;
    const uint32_t codes = fp4 ? 16 : 256;
    for (const std::string& setting : settings) {
      for (uint8_t sel = 0; sel < 16; ++sel) {
        const OpContext ctx = ScaleDecodeCtx(instr, sel, setting);
        LaneBatch lanes;
        lanes.SetShape(info.lane_shape());
        // The other readings at a quarter of the default's bytes unless exhaustive.
        const int step = setting.empty() || stride == 1 ? stride : 4 * stride;
        for (uint32_t b = sel % step; b < 256; b += step) {
          uint32_t reg = 0;
          const uint32_t others[3] = {b ^ 0x55u, b ^ 0xaau, ~b & 0xffu};
          for (uint32_t pos = 0, o = 0; pos < 4; ++pos) {
            reg |= (pos == (sel & 3u) ? b : others[o++]) << (8 * pos);
          }
          for (uint32_t first = 0; first < codes; first += kPk8) {
            uint32_t src0[2] = {0, 0};
            for (uint32_t k = 0; k < kPk8; ++k) {
              const uint32_t c = (first + k + b) % codes;  // rotated across element positions
              if (fp4) src0[0] |= c << (4 * k);
              else src0[k / 4] |= c << (8 * (k % 4));
            }
            const uint32_t s2 = 0;
            lanes.AddWide(src0, &reg, &s2, b);
          }
          if (setting.empty()) pairs += codes;
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
  EXPECT_EQ(rows, 9);
  // Under the defaults each row saw each code with each byte once per select at the stride.
  EXPECT_EQ(pairs, 16L * (256 / stride) * (6 * 256 + 3 * 16));
}

}  // namespace
}  // namespace lanediff
