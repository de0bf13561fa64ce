// gfx950's FP6/BF6 encoders from 32 packed 16-bit floats (SrcRole::f16x2_x16 / bf16x2_x16; the
// rows naming op file model/ops/v_cvt_scalef32_pk32_fp6_f16.cc) through the batch API
// (docs/semantics.md §11.19): hand-derived lanes (the packing worked out beside each case), then
// the fast model against the oracle on every 16-bit value x a scale set, each value through one
// element (2048 lanes of 32 distinct values per scale), for these rows and their SR twins
// (§11.20: a seed per lane). The default run takes 16 scales under the default readings and
// every 8th lane under each alternative; LANEDIFF_PK32_FP6_SCALES=all (the slow entry) takes
// every scale byte under every reading.
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

constexpr int kDwords = 16, kOut = 6;

// The rows reading a 16-dword tuple of packed 16-bit floats as S0 (not gfx1250's 8-dword ones),
// from the table: the RNE encoders (the scale in S1) or, with `sr`, their SR twins (a seed in
// S1, the scale in S2).
std::vector<Instr> Pk16TupleRows(bool sr = false) {
  std::vector<Instr> rows;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (IsPacked16Tuple(info.src[0]) && info.output == OutputKind::fp6 &&
        SrcDwords(info.src[0]) == kDwords &&
        (info.src[1] == SrcRole::sr_seed) == sr) {
      rows.push_back(instr);
    }
  }
  return rows;
}

OpContext Gfx950(Instr instr) {
  OpContext ctx;
  ctx.target = *FindTarget("gfx950");
  ctx.instr = instr;
  return ctx;
}

std::vector<uint32_t> Encode(const OpContext& ctx, const std::vector<uint32_t>& s0,
                             uint32_t scale, bool oracle = false) {
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  const uint32_t unused = 0;
  lanes.AddWide(s0.data(), &scale, &unused, 0xdeadbeef);
  std::vector<uint32_t> out(kOut);
  const absl::Status s = oracle ? EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(out))
                                : Evaluate(ctx, lanes.view(), absl::MakeSpan(out));
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

TEST(Pk32Fp6Encode, FourRowsAndTheirFormats) {
  ASSERT_EQ(Pk16TupleRows().size(), 4u);
  for (Instr instr : Pk16TupleRows()) {
    EXPECT_EQ(GetInstrInfo(instr).dst_words(), kOut) << InstrName(instr);
    EXPECT_EQ(GetInstrInfo(instr).src_dwords(0), kDwords) << InstrName(instr);
  }
}

// Every dword 0x40003c00 (f16 2.0 high, 1.0 low) under scale 1.0: field 2k = E2M3 1.0 = 0b0_01_000
// = 0x08, field 2k+1 = 2.0 = 0x10; each 12-bit pair 0x10 << 6 | 0x08 = 0x408, so the 192 bits
// repeat every 96 (3 dwords): dword 0 = 0x08 << 24 | 0x408 << 12 | 0x408 = 0x08408408, dword 1 =
// 0x8 << 28 | 0x408 << 16 | 0x408 << 4 | 0x4 = 0x84084084, dword 2 = 0x408 << 20 | 0x408 << 8 |
// 0x40 = 0x40840840. The bf16 row (1.0 = 0x3f80, 2.0 = 0x4000) gives the same words; the BF6 rows
// (E3M2 1.0 = 0b0_011_00 = 0x0c): pair 0x40c, dword 0 = 0x0c40c40c, dword 1 = 0xc40c40c4, dword 2
// = 0x40c40c40.
TEST(Pk32Fp6Encode, EveryElementInOrder) {
  const std::vector<uint32_t> fp6 = {0x08408408u, 0x84084084u, 0x40840840u,
                                     0x08408408u, 0x84084084u, 0x40840840u};
  const std::vector<uint32_t> bf6 = {0x0c40c40cu, 0xc40c40c4u, 0x40c40c40u,
                                     0x0c40c40cu, 0xc40c40c4u, 0x40c40c40u};
  for (Instr instr : Pk16TupleRows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    const uint32_t pair = IsPackedF16(info.src[0]) ? 0x40003c00u : 0x40003f80u;
    const std::vector<uint32_t>& want = info.fp8_slot == Fp8Slot::bf6 ? bf6 : fp6;
    const std::vector<uint32_t> s0(kDwords, pair);
    EXPECT_EQ(Encode(Gfx950(instr), s0, 0x3f800000u), want) << InstrName(instr);
    EXPECT_EQ(Encode(Gfx950(instr), s0, 0x3f800000u, true), want) << InstrName(instr);
    // Scale 2.0 (exponent field 128) over every element doubled: the same words.
    const uint32_t exponent_one = IsPackedF16(info.src[0]) ? 0x04000400u : 0x00800080u;
    const std::vector<uint32_t> doubled(kDwords, pair + exponent_one);
    EXPECT_EQ(Encode(Gfx950(instr), doubled, 0x40000000u), want) << InstrName(instr);
  }
}

// One element set at a time: element 2k (dword k, bits 15:0) = f16 1.0 lands at bits 12k+5:12k,
// element 2k+1 (bits 31:16) at bits 12k+11:12k+6 (E2M3 code 0x08 there, every other field 0).
TEST(Pk32Fp6Encode, ElementIAtBits6I) {
  const OpContext ctx = Gfx950(Instr::v_cvt_scalef32_pk32_fp6_f16);
  for (int e = 0; e < 2 * kDwords; ++e) {
    std::vector<uint32_t> s0(kDwords, 0);
    s0[e / 2] = 0x3c00u << (16 * (e % 2));
    std::vector<uint32_t> want(kOut, 0);
    const int bit = 6 * e + 3;  // 0x08 = bit 3 of the field
    want[bit / 32] = 1u << (bit % 32);
    EXPECT_EQ(Encode(ctx, s0, 0x3f800000u), want) << "element " << e;
    EXPECT_EQ(Encode(ctx, s0, 0x3f800000u, true), want) << "element " << e;
  }
}

// NEG[0] (LLVM refuses it; fuzzed) under mx_pk16_neg, every dword f16 1.0 : 1.0, scale 1.0.
// Each 12-bit pair: both_halves -1.0 (E2M3 0b1_01_000 = 0x28) twice: 0x28 | 0x28 << 6 = 0xa28;
// low_half 0x28 | 0x08 << 6 = 0x228; high_half 0x08 | 0x28 << 6 = 0xa08. The 192 bits repeat
// every 96 as in EveryElementInOrder: bits 63:0 = pairs 0..4 at 12k and pair 5's low 4 bits at
// 60, dword 2 = pair 5 >> 4 | pair 6 << 8 | pair 7 << 20.
TEST(Pk32Fp6Encode, NegUnderEachPk16Reading) {
  struct Case {
    const char* setting;
    uint32_t pair;
  };
  for (const Case& c : {Case{"mx_pk16_neg=both_halves", 0xa28u}, Case{"mx_pk16_neg=low_half", 0x228u},
                        Case{"mx_pk16_neg=high_half", 0xa08u}}) {
    OpContext ctx = Gfx950(Instr::v_cvt_scalef32_pk32_fp6_f16);
    ASSERT_TRUE(SetHypothesis(c.setting, &ctx.hyp).ok());
    ctx.mods.neg = 1;
    const uint64_t p = c.pair;
    const uint64_t lo = p | p << 12 | p << 24 | p << 36 | p << 48 | (p & 0xf) << 60;
    const uint32_t hi = static_cast<uint32_t>(p >> 4 | p << 8 | p << 20);
    const std::vector<uint32_t> want = {static_cast<uint32_t>(lo), static_cast<uint32_t>(lo >> 32), hi,
                                        static_cast<uint32_t>(lo), static_cast<uint32_t>(lo >> 32), hi};
    const std::vector<uint32_t> s0(kDwords, 0x3c003c00u);
    EXPECT_EQ(Encode(ctx, s0, 0x3f800000u), want) << c.setting;
    EXPECT_EQ(Encode(ctx, s0, 0x3f800000u, true), want) << c.setting;
  }
}

// Every 16-bit value through one element (lane j's element e = the value 32j + e), each scale of
// the set, fast == oracle; `stride` keeps every stride-th lane.
int CheckEveryValue(Instr instr, const std::string& setting, const std::vector<uint32_t>& scales,
                    int stride) {
  OpContext ctx = Gfx950(instr);
  if (!setting.empty()) {
    EXPECT_TRUE(SetHypothesis(setting, &ctx.hyp).ok()) << setting;
  }
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(instr).lane_shape());
  const bool sr = GetInstrInfo(instr).src[1] == SrcRole::sr_seed;
  const uint32_t unused = 0;
  for (uint32_t s : scales) {
    for (uint32_t j = 0; j < 65536 / 32; j += static_cast<uint32_t>(stride)) {
      uint32_t d[kDwords];
      for (uint32_t k = 0; k < kDwords; ++k) d[k] = (32 * j + 2 * k) | (32 * j + 2 * k + 1) << 16;
      const uint32_t seed = (j + 1) * 0x9e3779b9u ^ s;  // a different seed word per lane
      if (sr) lanes.AddWide(d, &seed, &s, j);
      else lanes.AddWide(d, &s, &unused, j);
    }
  }
  std::vector<uint32_t> fast(OutputWords(instr, lanes.size())), slow(fast.size());
  EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
  EXPECT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
  int bad = 0;
  for (size_t i = 0; i < fast.size() && bad < 5; ++i) {
    if (fast[i] == slow[i]) continue;
    ++bad;
    ADD_FAILURE() << InstrName(instr) << " " << setting << " lane " << i / kOut << " word "
                  << i % kOut << ": fast 0x" << std::hex << fast[i] << " oracle 0x" << slow[i];
  }
  return static_cast<int>(lanes.size());
}

TEST(Pk32Fp6Encode, EveryValueFastMatchesOracle) {
  const char* env = std::getenv("LANEDIFF_PK32_FP6_SCALES");
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
      "mx_scale_read=f32_multiply", "mx_scale_zero=zero", "mx_scale_nan=pow2_128",
      "mx_down_scale=multiply",     "mx_denorm_in=flush", "mx_fp4_nan=pos_max",
      "mx_fp4_nan=neg_zero"};
  // The SR twins read two rules more: how a seed meets an element, and how it steps. Their
  // default run keeps every 4th lane under the default readings and every 32nd under the others.
  const std::vector<std::string> sr_others = {"mx_sr_round=f32_exact_subnormal",
                                              "mx_sr_seed_step=same"};
  int lanes = 0;
  for (bool sr : {false, true}) {
    const int first = all || !sr ? 1 : 4, rest = all ? 1 : sr ? 32 : 8;
    for (Instr instr : Pk16TupleRows(sr)) {
      lanes += CheckEveryValue(instr, "", scales, first);
      for (const std::string& s : others) lanes += CheckEveryValue(instr, s, scales, rest);
      for (const std::string& s : sr ? sr_others : std::vector<std::string>{}) {
        lanes += CheckEveryValue(instr, s, scales, rest);
      }
    }
  }
  // Per scale: 4 RNE rows x (2048 + 7 readings x 2048 / rest) + 4 SR rows x (2048 / first + 9 x
  // 2048 / rest).
  const int per_scale = all ? 4 * 2048 * 8 + 4 * 2048 * 10 : 4 * (2048 + 7 * 256) + 4 * (512 + 9 * 64);
  EXPECT_EQ(Pk16TupleRows(true).size(), 4u);
  EXPECT_EQ(lanes, per_scale * static_cast<int>(scales.size()));
}

}  // namespace
}  // namespace lanediff
