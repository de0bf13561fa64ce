// gfx1250's 8-wide RNE scaled encoders (docs/semantics.md §14.3; the rows naming op files
// model/ops/v_cvt_scalef32_pk8_fp8_f32.cc, shape Q, and v_cvt_scalef32_pk8_fp4_f32.cc, shape
// R) through the batch API: hand-derived lanes (each packing worked out beside the case), then
// the fast model against the oracle on every 16-bit value x a scale set (the f16 / bf16 rows,
// each value through one element) and on f32 binades (the f32 rows). The default run takes 16
// scales under the default readings and every 8th lane (f32) or 32nd (16-bit) under each
// alternative;
// LANEDIFF_PK8_SCALES=all (the slow entry) takes every scale byte under every reading.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// The rows reading an 8-wide tuple (8 f32, or 8 packed 16-bit floats) and a scale S1, from the
// table.
std::vector<Instr> Pk8Rows() {
  std::vector<Instr> rows;
  for (Instr instr : kAllInstrs) {
    const SrcRole r = GetInstrInfo(instr).src[0];
    if ((r == SrcRole::f32_x8 || r == SrcRole::f16x2_x4 || r == SrcRole::bf16x2_x4) &&
        GetInstrInfo(instr).src[1] == SrcRole::scale_f32) {
      rows.push_back(instr);
    }
  }
  return rows;
}

OpContext Gfx1250(Instr instr, const char* target = "gfx1250") {
  OpContext ctx;
  ctx.target = *FindTarget(target);
  ctx.instr = instr;
  return ctx;
}

std::vector<uint32_t> Encode(const OpContext& ctx, const std::vector<uint32_t>& s0, uint32_t scale,
                             bool oracle = false) {
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  const uint32_t unused = 0;
  lanes.AddWide(s0.data(), &scale, &unused, 0xdeadbeef);
  std::vector<uint32_t> out(DstWords(ctx.instr));
  const absl::Status s = oracle ? EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(out))
                                : Evaluate(ctx, lanes.view(), absl::MakeSpan(out));
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

TEST(Pk8Encode, NineRowsOnGfx1250AndGfx1251Only) {
  ASSERT_EQ(Pk8Rows().size(), 9u);
  for (Instr instr : Pk8Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    EXPECT_EQ(info.dst_words(), info.output == OutputKind::fp4 ? 1 : 2) << InstrName(instr);
    EXPECT_EQ(info.src_dwords(0), info.src[0] == SrcRole::f32_x8 ? 8 : 4) << InstrName(instr);
    for (const TargetTraits& t : AllTargets()) {
      EXPECT_EQ(t.Has(instr), t.name == "gfx1250" || t.name == "gfx1251") << InstrName(instr) << " " << t.name;
    }
  }
}

// Elements 1.0, 2.0, 0.5, 4.0, -1.0, 8.0, 0.25, 1.5 under scale 1.0 (exponent field 127):
//   E4M3 (bias 7): 0x38 0x40 0x30 0x48 0xb8 0x50 0x28 0x3c (1.5 = 0b0_0111_100)
//     -> VDST 0x48304038, VDST+1 0x3c2850b8 (element i in byte i % 4 of word i / 4);
//   E5M2 (bias 15): 0x3c 0x40 0x38 0x44 0xbc 0x48 0x34 0x3e -> 0x4438403c, 0x3e3448bc;
//   FP4 E2M1: 1.0 = 2, 2.0 = 4, 0.5 = 1, 4.0 = 6, -1.0 = 0xa, 8.0 saturates to 6.0 = 7, 0.25 is
//     the tie between 0 and 0.5 -> even 0, 1.5 = 3 -> nibbles 0x307a6142.
// The same values as f32 words, as f16 (1.0 = 0x3c00, 2.0 = 0x4000, 0.5 = 0x3800, 4.0 = 0x4400,
// -1.0 = 0xbc00, 8.0 = 0x4800, 0.25 = 0x3400, 1.5 = 0x3e00) and bf16 (0x3f80, 0x4000, 0x3f00,
// 0x4080, 0xbf80, 0x4100, 0x3e80, 0x3fc0), element 2k in the low half of dword k.
TEST(Pk8Encode, EveryElementInOrder) {
  const std::vector<uint32_t> f32 = {0x3f800000u, 0x40000000u, 0x3f000000u, 0x40800000u,
                                     0xbf800000u, 0x41000000u, 0x3e800000u, 0x3fc00000u};
  const std::vector<uint32_t> f16 = {0x40003c00u, 0x44003800u, 0x4800bc00u, 0x3e003400u};
  const std::vector<uint32_t> bf16 = {0x40003f80u, 0x40803f00u, 0x4100bf80u, 0x3fc03e80u};
  for (Instr instr : Pk8Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    const std::vector<uint32_t>& s0 = info.src[0] == SrcRole::f32_x8 ? f32 : IsPackedF16(info.src[0]) ? f16 : bf16;
    const std::vector<uint32_t> want = info.output == OutputKind::fp4 ? std::vector<uint32_t>{0x307a6142u}
                                       : info.output == OutputKind::bf8
                                           ? std::vector<uint32_t>{0x4438403cu, 0x3e3448bcu}
                                           : std::vector<uint32_t>{0x48304038u, 0x3c2850b8u};
    for (const char* target : {"gfx1250", "gfx1251"}) {
      EXPECT_EQ(Encode(Gfx1250(instr, target), s0, 0x3f800000u), want) << InstrName(instr) << target;
      EXPECT_EQ(Encode(Gfx1250(instr, target), s0, 0x3f800000u, true), want) << InstrName(instr) << target;
    }
  }
}

// The scale divides by default (mx_down_scale=divide): f32 2.0 in every element over scale 2.0
// (exponent field 128) is 1.0 (E4M3 0x38 in every byte); under mx_down_scale=multiply it is 4.0
// (0x48). A mantissa on the scale (3.0 = 0x40400000, exponent field 128) is not read by default.
TEST(Pk8Encode, ScaleDirectionAndExponentRead) {
  const OpContext ctx = Gfx1250(Instr::v_cvt_scalef32_pk8_fp8_f32);
  const std::vector<uint32_t> twos(8, 0x40000000u);
  EXPECT_EQ(Encode(ctx, twos, 0x40000000u), (std::vector<uint32_t>{0x38383838u, 0x38383838u}));
  EXPECT_EQ(Encode(ctx, twos, 0x40400000u, true), (std::vector<uint32_t>{0x38383838u, 0x38383838u}));
  OpContext mul = ctx;
  ASSERT_TRUE(SetHypothesis("mx_down_scale=multiply", &mul.hyp).ok());
  EXPECT_EQ(Encode(mul, twos, 0x40000000u), (std::vector<uint32_t>{0x48484848u, 0x48484848u}));
  EXPECT_EQ(Encode(mul, twos, 0x40000000u, true), (std::vector<uint32_t>{0x48484848u, 0x48484848u}));
}

// NaN elements +NaN, -NaN alternating: E4M3 per fp8_nan, canonical (gfx1250's default) 0xff
// whatever the sign, sign_7f 0x7f / 0xff; FP4 per mx_fp4_nan: max_keep_sign (default) gives 0x7 /
// 0xf, pos_max 0x7, neg_zero 0x8.
TEST(Pk8Encode, NanElements) {
  std::vector<uint32_t> nan(8);
  for (int k = 0; k < 8; ++k) nan[k] = k % 2 == 0 ? 0x7fc00000u : 0xffc00000u;
  OpContext fp8 = Gfx1250(Instr::v_cvt_scalef32_pk8_fp8_f32);
  EXPECT_EQ(Encode(fp8, nan, 0x3f800000u), (std::vector<uint32_t>{0xffffffffu, 0xffffffffu}));
  ASSERT_TRUE(SetHypothesis("fp8_nan=sign_7f", &fp8.hyp).ok());
  EXPECT_EQ(Encode(fp8, nan, 0x3f800000u), (std::vector<uint32_t>{0xff7fff7fu, 0xff7fff7fu}));
  EXPECT_EQ(Encode(fp8, nan, 0x3f800000u, true), (std::vector<uint32_t>{0xff7fff7fu, 0xff7fff7fu}));
  struct Case {
    const char* setting;
    uint32_t word;
  };
  for (const Case& c : {Case{"mx_fp4_nan=max_keep_sign", 0xf7f7f7f7u}, Case{"mx_fp4_nan=pos_max", 0x77777777u},
                        Case{"mx_fp4_nan=neg_zero", 0x88888888u}}) {
    OpContext ctx = Gfx1250(Instr::v_cvt_scalef32_pk8_fp4_f32);
    ASSERT_TRUE(SetHypothesis(c.setting, &ctx.hyp).ok());
    EXPECT_EQ(Encode(ctx, nan, 0x3f800000u), std::vector<uint32_t>{c.word}) << c.setting;
    EXPECT_EQ(Encode(ctx, nan, 0x3f800000u, true), std::vector<uint32_t>{c.word}) << c.setting;
  }
}

// Fast == oracle over a batch of lanes built by `fill(j, dwords)`; returns the lane count.
template <typename Fill>
int Check(Instr instr, const std::string& setting, const std::vector<uint32_t>& scales, uint32_t n,
          int stride, Fill fill) {
  OpContext ctx = Gfx1250(instr);
  if (!setting.empty()) {
    EXPECT_TRUE(SetHypothesis(setting, &ctx.hyp).ok()) << setting;
  }
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(instr).lane_shape());
  const uint32_t unused = 0;
  for (uint32_t s : scales) {
    for (uint32_t j = 0; j < n; j += static_cast<uint32_t>(stride)) {
      uint32_t d[8];
      fill(j, d);
      lanes.AddWide(d, &s, &unused, j);
    }
  }
  const int w = DstWords(instr);
  std::vector<uint32_t> fast(OutputWords(instr, lanes.size())), slow(fast.size());
  EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
  EXPECT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
  int bad = 0;
  for (size_t i = 0; i < fast.size() && bad < 5; ++i) {
    if (fast[i] == slow[i]) continue;
    ++bad;
    ADD_FAILURE() << InstrName(instr) << " " << setting << " lane " << i / w << " word " << i % w
                  << ": fast 0x" << std::hex << fast[i] << " oracle 0x" << slow[i];
  }
  return static_cast<int>(lanes.size());
}

TEST(Pk8Encode, EveryValueFastMatchesOracle) {
  const char* env = std::getenv("LANEDIFF_PK8_SCALES");
  const bool all = env != nullptr && std::string(env) == "all";
  // Scale operands: exponent fields 0 (E8M0 0x00), 1, 100..150 sampled, 254, 255 (NaN), with a
  // sign or a fraction on some (ignored under the default exponent reading).
  std::vector<uint32_t> scales = {0x00000000u, 0x00800000u, 0x32000000u, 0x38000000u, 0x3c000000u,
                                  0x3e800000u, 0x3f000000u, 0x3f800000u, 0xbfc00000u, 0x40000000u,
                                  0x40800000u, 0x43000000u, 0x47000000u, 0x4b400000u, 0x7f000000u,
                                  0x7f800000u};
  if (all) {
    scales.clear();
    for (uint32_t e = 0; e < 256; ++e) scales.push_back(e << 23 | (e & 1u) << 31 | (e & 2u) << 20);
  }
  const std::vector<std::string> others = {
      "mx_scale_read=f32_multiply", "mx_scale_zero=zero",     "mx_scale_nan=pow2_128",
      "mx_scale_nan=infinity",      "mx_down_scale=multiply", "mx_denorm_in=flush",
      "mx_fp4_nan=pos_max",         "mx_fp4_nan=neg_zero",    "mx_fp8_overflow=saturate",
      "mx_bf8_overflow=saturate",   "mx_pk16_neg=low_half",   "fp8_nan=sign_7f"};
  // 16-bit rows: lane j holds the values 8j .. 8j+7 (element k = 8j + k), 8,192 lanes per scale.
  auto pk16 = [](uint32_t j, uint32_t* d) {
    for (uint32_t k = 0; k < 4; ++k) d[k] = (8 * j + 2 * k) | (8 * j + 2 * k + 1) << 16;
  };
  // f32 rows: per binade e (0..255) and sign, 16 fractions (0, the tie and its neighbours at each
  // FP8 / FP4 rounding position, all ones, a hashed one), 8 per lane: 1,024 lanes per scale.
  auto f32 = [](uint32_t j, uint32_t* d) {
    static constexpr uint32_t kFractions[16] = {0x000000u, 0x080000u, 0x07ffffu, 0x080001u,
                                                0x100000u, 0x0fffffu, 0x100001u, 0x200000u,
                                                0x1fffffu, 0x200001u, 0x400000u, 0x600000u,
                                                0x7fffffu, 0x000001u, 0x3c0000u, 0x2aaaabu};
    for (uint32_t k = 0; k < 8; ++k) {
      const uint32_t v = 8 * j + k, e = (v / 16) % 256, sign = v / 4096;
      d[k] = sign << 31 | e << 23 | (k == 7 ? (v * 0x9e3779b9u) & 0x7fffffu : kFractions[v % 16]);
    }
  };
  int lanes = 0;
  for (Instr instr : Pk8Rows()) {
    const bool f = GetInstrInfo(instr).src[0] == SrcRole::f32_x8;
    const uint32_t n = f ? 1024 : 8192;
    const int rest = all ? 1 : f ? 8 : 32;
    lanes += f ? Check(instr, "", scales, n, 1, f32) : Check(instr, "", scales, n, 1, pk16);
    for (const std::string& s : others) {
      lanes += f ? Check(instr, s, scales, n, rest, f32) : Check(instr, s, scales, n, rest, pk16);
    }
  }
  // Per scale: 3 f32 rows x (1024 + 12 x 1024 / rest) + 6 16-bit rows x (8192 + 12 x 8192 / rest).
  const int per_scale = all ? 3 * 1024 * 13 + 6 * 8192 * 13 : 3 * (1024 + 12 * 128) + 6 * (8192 + 12 * 256);
  EXPECT_EQ(lanes, per_scale * static_cast<int>(scales.size()));
}

}  // namespace
}  // namespace lanediff
