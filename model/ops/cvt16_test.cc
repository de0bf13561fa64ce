// gfx950's companion instructions of the MX generation through the batch API (docs/semantics.md
// §12): v_prng_b32, v_cvt_pk_{f16,bf16}_f32 and v_cvt_sr_{f16,bf16}_f32. Hand-derived cases
// (the working beside each), then the fast model against the oracle: v_prng_b32 on every low
// 2^20 word under each select the op reads and a random sample; the f16/bf16 rows on f32 edges
// and random words under random contexts (every modifier, MODE bit and reading drawn) and on a
// stride through all 2^32 words.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

OpContext Gfx950(Instr instr) {
  OpContext ctx;
  ctx.target = *FindTarget("gfx950");
  ctx.instr = instr;
  return ctx;
}

::testing::AssertionResult FastMatchesOracle(const OpContext& ctx, LaneBatch& lanes) {
  std::vector<uint32_t> fast(lanes.size()), slow(lanes.size());
  if (!Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok() ||
      !EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok()) {
    return ::testing::AssertionFailure() << "evaluation failed";
  }
  for (size_t i = 0; i < lanes.size(); ++i) {
    if (fast[i] == slow[i]) continue;
    return ::testing::AssertionFailure()
           << InstrName(ctx.instr) << std::hex << " mode=" << ctx.mode
           << " neg=" << int(ctx.mods.neg) << " abs=" << int(ctx.mods.abs)
           << " clamp=" << ctx.mods.clamp << " omod=" << int(ctx.mods.omod)
           << " sel=" << int(ctx.mods.src0_sel) << " "
           << absl::StrJoin(HypothesisSettings(ctx.hyp), ",") << " lane " << lanes.src0()[i]
           << " " << lanes.src1()[i] << ": fast " << fast[i] << " oracle " << slow[i];
  }
  return ::testing::AssertionSuccess();
}

struct Case {
  uint8_t src0_sel;
  uint32_t in, want;
  const char* working;
};

TEST(Prng, HandDerived) {
  const std::vector<Case> cases = {
      {6, 0x40000000u, 0x80000000u, "bit 30 moves to bit 31; bit 31 was clear: no taps"},
      {6, 0xc0000000u, 0x800000c5u, "0x80000000 from the shift, bit 31 set: ^ 0xc5"},
      {6, 0x80000001u, 0x000000c7u, "2 ^ 0xc5 = 0xc7"},
      {6, 0x000000c5u, 0x0000018au, "0xc5 * 2"},
      {3, 0x80000000u, 0x00000100u, "BYTE_3 reads 0x80: 0x80 << 1 = 0x100, bit 31 of 0x80 clear"},
      {1, 0x0000ff00u, 0x000001feu, "BYTE_1 reads 0xff: 0x1fe"},
      {4, 0xffff8000u, 0x00010000u, "WORD_0 reads 0x8000 zero-extended: 0x10000"},
      {0, 0xffffff7fu, 0x000000feu, "BYTE_0 reads 0x7f: 0xfe"},
  };
  for (const Case& c : cases) {
    OpContext ctx = Gfx950(Instr::v_prng_b32);
    ctx.mods.src0_sel = c.src0_sel;
    EXPECT_EQ(EvaluateLane(ctx, c.in, 0x3f800000u, 0x11223344u, 0xdeadbeefu), c.want) << c.working;
    EXPECT_EQ(EvaluateLaneOracle(ctx, c.in, 0x3f800000u, 0x11223344u, 0xdeadbeefu), c.want)
        << "oracle: " << c.working;
  }
}

// The SDWA form (docs/semantics.md §12.1): SRC0_SEL then SRC0_SEXT, the step, then DST_SEL and
// DST_UNUSED (gem5 src/arch/amdgpu/vega/insts/inst_util.hh SDWADstVals: PAD zeros, SEXT
// "Sign-extend upper bits; pad lower bits w/ 0", PRESERVE the old VDST's bits). The old VDST is
// 0xdeadbeef in every case. prng(0xc0000000) = 0x80000000 ^ 0xc5 = 0x800000c5.
struct SdwaCase {
  uint8_t src0_sel;
  bool sext;
  uint8_t dst_sel, dst_unused;
  bool clamp;
  uint32_t in, want;
  const char* working;
};

TEST(Prng, SdwaHandDerived) {
  const std::vector<SdwaCase> cases = {
      {6, true, 6, 2, false, 0x40000000u, 0x80000000u, "DWORD: SEXT and DST_UNUSED do nothing"},
      {3, true, 6, 2, false, 0x80000000u, 0xffffffc5u,
       "BYTE_3 0x80 sign-extended 0xffffff80; << 1 = 0xffffff00, bit 31 set: ^ 0xc5"},
      {4, true, 6, 2, false, 0x00008000u, 0xffff00c5u,
       "WORD_0 0x8000 -> 0xffff8000; << 1 = 0xffff0000 ^ 0xc5"},
      {4, true, 6, 2, false, 0xffff7fffu, 0x0000fffeu, "WORD_0 0x7fff: sign clear, 0xfffe"},
      {6, false, 0, 0, false, 0xc0000000u, 0x000000c5u, "BYTE_0 PAD: the low byte 0xc5 alone"},
      {6, false, 0, 1, false, 0xc0000000u, 0xffffffc5u, "BYTE_0 SEXT: 0xc5's bit 7 set above"},
      {6, false, 0, 2, false, 0xc0000000u, 0xdeadbec5u, "BYTE_0 PRESERVE: 0xdeadbe00 | 0xc5"},
      {6, false, 2, 1, false, 0xc0000000u, 0xffc50000u,
       "BYTE_2 SEXT: 0xc5 at bits 23:16, ones in 31:24, zeros in 15:0"},
      {6, false, 2, 2, false, 0xc0000000u, 0xdec5beefu, "BYTE_2 PRESERVE: 0xde00beef | 0x00c50000"},
      {6, false, 5, 0, false, 0xc0000000u, 0x00c50000u, "WORD_1 PAD: the low word 0x00c5 at 31:16"},
      {6, false, 5, 1, false, 0xc0000000u, 0x00c50000u, "WORD_1 SEXT: nothing above; zeros below"},
      {6, false, 5, 2, false, 0xc0000000u, 0x00c5beefu, "WORD_1 PRESERVE: the old low word"},
      {6, false, 1, 1, false, 0x00000005u, 0x00000a00u, "BYTE_1 SEXT: 0x0a's bit 7 clear: zeros"},
      {6, false, 0, 3, false, 0xc0000000u, 0x000000c5u, "DST_UNUSED 3 read as PAD (reading)"},
      {6, false, 7, 0, false, 0xc0000000u, 0x800000c5u, "DST_SEL 7 read as DWORD (reading)"},
      {6, false, 6, 2, true, 0xc0000000u, 0x800000c5u, "CLAMP: no effect (reading)"},
      {5, true, 0, 1, true, 0x80010000u, 0xffffffc7u,
       "WORD_1 0x8001 -> 0xffff8001; << 1 = 0xffff0002 ^ 0xc5 = 0xffff00c7; BYTE_0 SEXT 0xc7"},
  };
  for (const SdwaCase& c : cases) {
    OpContext ctx = Gfx950(Instr::v_prng_b32);
    ctx.mods.src0_sel = c.src0_sel;
    ctx.mods.src0_sext = c.sext;
    ctx.mods.dst_sel = c.dst_sel;
    ctx.mods.dst_unused = c.dst_unused;
    ctx.mods.clamp = c.clamp;
    EXPECT_EQ(EvaluateLane(ctx, c.in, 0, 0, 0xdeadbeefu), c.want) << c.working;
    EXPECT_EQ(EvaluateLaneOracle(ctx, c.in, 0, 0, 0xdeadbeefu), c.want) << "oracle: " << c.working;
  }
}

// Every SDWA field combination (SRC0_SEL, SRC0_SEXT, DST_SEL, DST_UNUSED: 7 * 2 * 8 * 4) on 2^11
// random lanes with random old VDSTs, fast against oracle.
TEST(Prng, SdwaFastMatchesOracle) {
  std::mt19937 rng(23);
  LaneBatch lanes;
  for (int i = 0; i < (1 << 11); ++i) lanes.Add(rng() | (i % 2 ? 0x80808080u : 0u), 0, 0, rng());
  for (int k = 0; k < 7 * 2 * 8 * 4; ++k) {
    OpContext ctx = Gfx950(Instr::v_prng_b32);
    ctx.mods.src0_sel = static_cast<uint8_t>(k % 7);
    ctx.mods.src0_sext = (k / 7) % 2 != 0;
    ctx.mods.dst_sel = static_cast<uint8_t>((k / 14) % 8);
    ctx.mods.dst_unused = static_cast<uint8_t>(k / 112);
    ASSERT_TRUE(FastMatchesOracle(ctx, lanes)) << "dst_sel " << int(ctx.mods.dst_sel) << " dst_unused "
                                               << int(ctx.mods.dst_unused) << " sext " << ctx.mods.src0_sext;
  }
}

// Every word below 2^20 and 2^14 random words with their top bits set or not, under every
// SDWA select (DWORD is also the e32 and e64 forms').
TEST(Prng, FastMatchesOracle) {
  std::mt19937 rng(22);
  LaneBatch lanes;
  for (uint32_t w = 0; w < (1u << 20); ++w) lanes.Add(w, 0, 0, 0);
  for (int i = 0; i < (1 << 14); ++i) lanes.Add(rng() | (i % 2 ? 0x80000000u : 0u), 0, 0, 0);
  for (uint8_t sel = 0; sel < 7; ++sel) {
    OpContext ctx = Gfx950(Instr::v_prng_b32);
    ctx.mods.src0_sel = sel;
    ASSERT_TRUE(FastMatchesOracle(ctx, lanes));
  }
}

struct PkCase {
  Instr instr;
  Modifiers mods;
  uint32_t mode;
  const char* hyp;  // "" for the defaults
  uint32_t src0, src1, want;
  const char* working;
};

Modifiers Mods(uint8_t neg, uint8_t abs, bool clamp, uint8_t omod) {
  Modifiers m;
  m.neg = neg;
  m.abs = abs;
  m.clamp = clamp;
  m.omod = omod;
  return m;
}

// f16: bias 15, 10 fraction bits (1.0 = 0x3c00, 0.5 = 0x3800, 65504 = 0x7bff); bf16: the f32's
// top half rounded (1.0 = 0x3f80). MODE 0xf0: denormals on, FP16_OVFL off; 0x1f0 adds MODE[8]
// DX10_CLAMP (GFX9 kernels run with it set).
TEST(Pk16, HandDerived) {
  const Instr f16 = Instr::v_cvt_pk_f16_f32, bf16 = Instr::v_cvt_pk_bf16_f32;
  const Modifiers none = Mods(0, 0, false, 0);
  const std::vector<PkCase> cases = {
      {f16, Mods(0b01, 0b10, false, 0), 0xf0, "", 0x3f800000, 0xc0000000, 0x4000bc00,
       "-S0 = -1.0 (0xbc00); |S1| = 2.0 (0x4000)"},
      {f16, Mods(0b01, 0b01, false, 0), 0xf0, "", 0x3f800000, 0, 0x0000bc00,
       "ABS then NEG: -|1.0| = -1.0"},
      {f16, Mods(0, 0, false, 3), 0xf0, "", 0x3f800000, 0x38800000, 0x02003800,
       "div:2: 1.0 / 2 = 0.5 (0x3800); 2^-14 / 2 = 2^-15, the denormal 0x0200"},
      {f16, Mods(0, 0, false, 3), 0xf0, "cvt16_outmod=ignored", 0x3f800000, 0x38800000,
       0x04003c00, "OMOD ignored: 1.0, 2^-14 (0x0400)"},
      {f16, Mods(0, 0, false, 2), 0xf0, "", 0x46fffe00, 0, 0x00007c00,
       "mul:4: 32767 * 4 = 131068 rounds past 65504: Inf"},
      {f16, Mods(0, 0, true, 0), 0x1f0, "", 0x7fc00000, 0x3f000000, 0x38000000,
       "CLAMP: a NaN gives +0 under DX10_CLAMP; 0.5 stays 0x3800"},
      {f16, Mods(0, 0, true, 0), 0xf0, "", 0x7fc00000, 0x80000000, 0x00007e00,
       "CLAMP without DX10_CLAMP keeps the NaN; -0 gives +0"},
      {bf16, Mods(0, 0, true, 0), 0x1f0, "", 0x40000000, 0xbf800000, 0x00003f80,
       "bf16 CLAMP: 2.0 -> 1.0 (0x3f80); -1.0 -> +0"},
      {bf16, Mods(0, 0, true, 0), 0x1f0, "cvt16_outmod=ignored", 0x40000000, 0xbf800000,
       0xbf804000, "CLAMP ignored: 2.0 (0x4000), -1.0 (0xbf80)"},
      {bf16, none, 0x8000d0, "", 0x00c00000, 0x7f7fffff, 0x7f8000c0,
       "bf16 with MODE[5] clear: 1.5 * 2^-126 is the normal 0x00c0, not flushed; the largest "
       "f32 drops 0xffff > 0x8000 and rounds up past 0x7f7f: Inf 0x7f80 (FP16_OVFL does not "
       "touch bf16)"},
      {bf16, none, 0xd0, "", 0x00400000, 0, 0x00000000,
       "bf16: 2^-127 (f32 denormal, kept by MODE[4]) is the bf16 denormal 0x0040, flushed to "
       "+0 by MODE[5] = 0"},
      {bf16, none, 0xd0, "cvt16_denorm_out=kept", 0x00400000, 0, 0x00000040,
       "cvt16_denorm_out=kept: 0x0040"},
      {bf16, none, 0xe0, "", 0x00400000, 0x80000001, 0x80000000,
       "MODE[4] = 0 flushes f32 denormal inputs to signed zeros first"},
      {f16, none, 0x8000f0, "", 0xc77ff000, 0xff800000, 0xfc00fbff,
       "FP16_OVFL: -65520 saturates to -65504 (0xfbff); -Inf stays -Inf (saturate_finite)"},
      {f16, none, 0x8000f0, "fp16_ovfl=saturate_all", 0xc77ff000, 0xff800000, 0xfbfffbff,
       "saturate_all: -Inf -> 0xfbff too"},
      {f16, none, 0xf0, "cvt16_nan=canonical", 0xffffffff, 0x7f800001, 0x7e007e00,
       "canonical NaNs whatever the sign and payload"},
      {f16, none, 0xf0, "", 0xffffffff, 0x7f800001, 0x7e00ffff,
       "payload: 0xffffffff keeps sign and top 10 fraction bits (0x3ff): 0xffff; 0x7f800001 "
       "-> quiet 0x7e00"},
  };
  for (const PkCase& c : cases) {
    OpContext ctx = Gfx950(c.instr);
    ctx.mods = c.mods;
    ctx.mode = c.mode;
    if (*c.hyp != '\0') {
      ASSERT_TRUE(SetHypothesis(c.hyp, &ctx.hyp).ok()) << c.hyp;
    }
    EXPECT_EQ(EvaluateLane(ctx, c.src0, c.src1, 0, 0xaabbccddu), c.want) << c.working;
    EXPECT_EQ(EvaluateLaneOracle(ctx, c.src0, c.src1, 0, 0xaabbccddu), c.want)
        << "oracle: " << c.working;
  }
}

// f32 edges: zeros, denormals, the f16/bf16 boundaries and their ties, infinities, NaNs.
std::vector<uint32_t> Edges() {
  std::vector<uint32_t> v = {0x00000000, 0x00000001, 0x007fffff, 0x00800000, 0x00400000,
                             0x00010000, 0x00018000, 0x33000000, 0x33000001, 0x33800000,
                             0x33c00000, 0x387fe000, 0x387ff000, 0x38800000, 0x3f800000,
                             0x3f801000, 0x3f803000, 0x3f808000, 0x3f818000, 0x3f7fffff,
                             0x477fe000, 0x477fefff, 0x477ff000, 0x47800000, 0x7f7f7fff,
                             0x7f7f8000, 0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fc00000,
                             0x7fffffff, 0x3f000000, 0x3e800000, 0x40000000};
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(v[i] | 0x80000000u);
  return v;
}

// Random contexts (modifiers, MODE bits 4, 5, 7, 8, 23 and the three cvt16 readings with
// fp16_ovfl, all drawn), each on the edges against each other and on random words, half near
// the 16-bit formats' range.
TEST(Pk16, FastMatchesOracleSample) {
  std::mt19937 rng(23);
  const std::vector<uint32_t> edges = Edges();
  for (Instr instr : {Instr::v_cvt_pk_f16_f32, Instr::v_cvt_pk_bf16_f32}) {
    for (int k = 0; k < 600; ++k) {
      OpContext ctx = Gfx950(instr);
      ctx.mods = Mods(rng() & 3, rng() & 3, rng() & 1, rng() & 3);
      ctx.mode = kDefaultMode ^ (rng() & 0x8001b0u);
      for (const HypothesisInfo& h : AllHypotheses()) {
        h.set(&ctx.hyp, static_cast<uint8_t>(rng() % h.values.size()));
      }
      LaneBatch lanes;
      for (size_t i = 0; i < edges.size(); ++i) lanes.Add(edges[i], edges[(i * 7 + k) % edges.size()], 0, 0);
      for (int i = 0; i < 128; ++i) {
        const uint32_t r = rng();
        lanes.Add(i % 2 ? r : (r & 0x81ffffffu) | 0x32000000u, rng(), 0, 0);
      }
      ASSERT_TRUE(FastMatchesOracle(ctx, lanes));
    }
  }
}

// A stride through all 2^32 words (2^20 lanes, S0 and S1 walking apart) under the defaults.
TEST(Pk16, FastMatchesOracleStride) {
  for (Instr instr : {Instr::v_cvt_pk_f16_f32, Instr::v_cvt_pk_bf16_f32}) {
    const OpContext ctx = Gfx950(instr);
    LaneBatch lanes;
    for (uint32_t i = 0; i < (1u << 19); ++i) lanes.Add(i * 8191u, ~(i * 4099u), 0, 0);
    ASSERT_TRUE(FastMatchesOracle(ctx, lanes));
  }
}


struct SrCase {
  Instr instr;
  uint8_t opsel;
  uint32_t mode;
  const char* hyp;  // "" for the defaults
  uint32_t src0, src1, old, want;
  const char* working;
};

// f16 keeps sig >> 13 of the 24-bit significand, bf16 sig >> 16; the seed S1[31:19] (f16) or
// S1[31:16] (bf16) is added first and the sum truncated; code = ((E - e_min) << M) + quanta,
// e_min = 113 (f16), 1 (bf16).
TEST(Sr16, HandDerived) {
  const Instr f16 = Instr::v_cvt_sr_f16_f32, bf16 = Instr::v_cvt_sr_bf16_f32;
  const std::vector<SrCase> cases = {
      {f16, 0, 0xf0, "", 0x3f801fff, 0xffffffff, 0, 0x00003c01,
       "1 + 2^-10 - 2^-23: 0x801fff + 0x1fff = 0x803ffe, >> 13 = 0x401"},
      {f16, 0, 0xf0, "", 0x3f801fff, 0x00000000, 0, 0x00003c00, "seed 0: truncated, 0x400"},
      {f16, 8, 0xf0, "", 0x33a00000, 0xc0000000, 0xaaaabbbb, 0x0002bbbb,
       "2^-24 + 2^-26 (E 103, s = 10): 0xa00000 >> 10 = 0x2800, + seed 0x1800 = 0x4000, >> 13 = "
       "2 quanta; high half, the low half the old VDST's"},
      {f16, 8, 0xf0, "", 0x33a00000, 0xbff80000, 0xaaaabbbb, 0x0001bbbb,
       "seed 0x17ff: 0x3fff >> 13 = 1"},
      {f16, 8, 0xf0, "sr16_subnormal=mantissa_add", 0x33a00000, 0xc0000000, 0xaaaabbbb,
       0x0001bbbb, "mantissa_add: (0xa00000 + 0x1800) >> 23 = 1"},
      {f16, 0, 0xe0, "", 0x00000001, 0xffffffff, 0xaaaabbbb, 0xaaaa0000,
       "MODE[4] = 0: the f32 denormal is +0 before the seed"},
      {f16, 0, 0xf0, "", 0x00000001, 0xffffffff, 0xaaaabbbb, 0xaaaa0000,
       "MODE[4] = 1: 2^-149 is far below a quantum: (0 + 0x1fff) >> 13 = 0"},
      {f16, 0, 0x8000f0, "fp16_ovfl=saturate_all", 0xff800000, 0, 0, 0x0000fbff,
       "saturate_all with FP16_OVFL: -Inf -> -65504"},
      {bf16, 0, 0xf0, "", 0x3f80ffff, 0x00010000, 0, 0x00003f81,
       "bf16: 0x80ffff + 1 = 0x810000, >> 16 = 0x81"},
      {bf16, 0, 0xd0, "", 0x00400000, 0xffffffff, 0, 0x00000000,
       "bf16: 2^-127 (0x00400000 + 0xffff) >> 16 = 0x40, a denormal flushed by MODE[5] = 0"},
      {bf16, 0, 0xd0, "cvt16_denorm_out=kept", 0x00400000, 0xffffffff, 0, 0x00000040,
       "kept: 0x0040"},
  };
  for (const SrCase& c : cases) {
    OpContext ctx = Gfx950(c.instr);
    ctx.mods.opsel = c.opsel;
    ctx.mode = c.mode;
    if (*c.hyp != '\0') {
      ASSERT_TRUE(SetHypothesis(c.hyp, &ctx.hyp).ok()) << c.hyp;
    }
    EXPECT_EQ(EvaluateLane(ctx, c.src0, c.src1, 0, c.old), c.want) << c.working;
    EXPECT_EQ(EvaluateLaneOracle(ctx, c.src0, c.src1, 0, c.old), c.want) << "oracle: " << c.working;
  }
}

// Random contexts (OPSEL, NEG/ABS, MODE bits and every reading drawn) on the edges with edge and
// random seeds, and on random words near the formats' range.
TEST(Sr16, FastMatchesOracleSample) {
  std::mt19937 rng(25);
  const std::vector<uint32_t> edges = Edges();
  const uint32_t seeds[] = {0u, 0xffffffffu, 0x80000000u, 0x00080000u, 0x00010000u, 0x0000ffffu};
  for (Instr instr : {Instr::v_cvt_sr_f16_f32, Instr::v_cvt_sr_bf16_f32}) {
    for (int k = 0; k < 600; ++k) {
      OpContext ctx = Gfx950(instr);
      ctx.mods = Mods(rng() & 1, rng() & 1, false, 0);
      ctx.mods.opsel = static_cast<uint8_t>(rng() & 15);
      ctx.mode = kDefaultMode ^ (rng() & 0x8000b0u);
      for (const HypothesisInfo& h : AllHypotheses()) {
        h.set(&ctx.hyp, static_cast<uint8_t>(rng() % h.values.size()));
      }
      LaneBatch lanes;
      for (size_t i = 0; i < edges.size(); ++i) {
        lanes.Add(edges[i], i % 2 ? seeds[(i / 2 + k) % 6] : rng(), 0, rng());
      }
      for (int i = 0; i < 128; ++i) {
        const uint32_t r = rng();
        lanes.Add(i % 2 ? r : (r & 0x81ffffffu) | 0x32000000u, rng(), 0, rng());
      }
      ASSERT_TRUE(FastMatchesOracle(ctx, lanes));
    }
  }
}

// A stride through all 2^32 words with random seeds, under the defaults.
TEST(Sr16, FastMatchesOracleStride) {
  std::mt19937 rng(26);
  for (Instr instr : {Instr::v_cvt_sr_f16_f32, Instr::v_cvt_sr_bf16_f32}) {
    const OpContext ctx = Gfx950(instr);
    LaneBatch lanes;
    for (uint32_t i = 0; i < (1u << 19); ++i) lanes.Add(i * 8191u, rng(), 0, rng());
    ASSERT_TRUE(FastMatchesOracle(ctx, lanes));
  }
}


// gfx1250's two-element SR rows (docs/semantics.md §13.2): element 0 (S0) rounds with S2,
// element 1 (S1) with v_prng_b32(S2) by default; f16 keeps sig >> 13 after adding the top 13
// bits of the element's seed word.
std::vector<Instr> SrPkRows() {
  std::vector<Instr> v;
  for (Instr i : kAllInstrs) {
    const InstrInfo& r = GetInstrInfo(i);
    if (r.src[2] == SrcRole::sr_seed && r.src[0] == SrcRole::data_f32) v.push_back(i);
  }
  return v;
}

OpContext Gfx1250(Instr instr) {
  OpContext ctx;
  ctx.target = *FindTarget("gfx1250");
  ctx.instr = instr;
  return ctx;
}

struct SrPkCase {
  uint8_t omod;
  bool clamp;
  const char* hyp;  // "" for the defaults
  uint32_t src0, src1, src2, want;
  const char* working;
};

TEST(SrPk, HandDerivedF16) {
  const std::vector<SrPkCase> cases = {
      {0, false, "", 0x3f800001, 0x3f800001, 0xfff80000, 0x3c003c01,
       "1 + 2^-23: low 13 bits 1; element 0 seed 0xfff80000 >> 19 = 0x1fff: 1 + 0x1fff carries, "
       "0x3c01; element 1 seed prng(0xfff80000) = 0xfff000c5, >> 19 = 0x1ffe: no carry, 0x3c00"},
      {0, false, "sr_pk_seed=same", 0x3f800001, 0x3f800001, 0xfff80000, 0x3c013c01,
       "same: element 1 with 0x1fff too"},
      {0, false, "sr_pk_seed=halves", 0x3f800001, 0x3f800001, 0xfff80000, 0x3c013c00,
       "halves: element 0's word 0xfff80000 << 16 = 0 (0x3c00), element 1's 0xfff80000 (0x3c01)"},
      {1, true, "", 0x3f000000, 0x3f400000, 0, 0x3c003c00,
       "mul:2 clamp: 0.5 * 2 = 1.0; 0.75 * 2 = 1.5 clamped to 1.0"},
      {1, true, "cvt16_outmod=ignored", 0x3f000000, 0x3f400000, 0, 0x3a003800,
       "ignored: 0.5 = 0x3800, 0.75 = 1.5 * 2^-1 = 0x3a00"},
      {3, false, "", 0x38800000, 0, 0xffffffff, 0x00000200,
       "div:2: 2^-14 / 2 = 2^-15, the f16 denormal 0x200, exact whatever the seed"},
      {0, false, "", 0x477fe001, 0, 0xffffffff, 0x00007c00,
       "65504 + 2^-8 (low 13 bits 1) + seed 0x1fff carries past 0x7bff: +Inf (FP16_OVFL clear)"},
      {0, true, "", 0x7fc00000, 0xbf800000, 0, 0x00000000,
       "clamp: NaN -> +0 (no DX10_CLAMP bit outside GFX9), -1.0 -> +0"},
  };
  for (const SrPkCase& c : cases) {
    OpContext ctx = Gfx1250(Instr::v_cvt_sr_pk_f16_f32);
    ctx.mode = 0xf0;
    ctx.mods.omod = c.omod;
    ctx.mods.clamp = c.clamp;
    if (*c.hyp != '\0') {
      ASSERT_TRUE(SetHypothesis(c.hyp, &ctx.hyp).ok()) << c.hyp;
    }
    EXPECT_EQ(EvaluateLane(ctx, c.src0, c.src1, c.src2, 0xaabbccdd), c.want) << c.working;
    EXPECT_EQ(EvaluateLaneOracle(ctx, c.src0, c.src1, c.src2, 0xaabbccdd), c.want)
        << "oracle: " << c.working;
  }
}

// Random contexts (NEG/ABS, CLAMP, OMOD, MODE bits and every reading drawn) on the edges with
// edge and random seeds, and on random words near the formats' range.
TEST(SrPk, FastMatchesOracleSample) {
  std::mt19937 rng(27);
  const std::vector<uint32_t> edges = Edges();
  const uint32_t seeds[] = {0u, 0xffffffffu, 0x80000000u, 0x00080000u, 0x00010000u, 0x0000ffffu};
  for (Instr instr : SrPkRows()) {
    for (int k = 0; k < 300; ++k) {
      OpContext ctx = Gfx1250(instr);
      ctx.mods = Mods(rng() & 3, rng() & 3, rng() & 1, rng() & 3);
      ctx.mode = kDefaultMode ^ (rng() & 0x8000b0u);
      for (const HypothesisInfo& h : AllHypotheses()) {
        h.set(&ctx.hyp, static_cast<uint8_t>(rng() % h.values.size()));
      }
      LaneBatch lanes;
      for (size_t i = 0; i < edges.size(); ++i) {
        lanes.Add(edges[i], edges[(i * 7 + k) % edges.size()], i % 2 ? seeds[(i / 2 + k) % 6] : rng(),
                  rng());
      }
      for (int i = 0; i < 64; ++i) {
        const uint32_t r = rng();
        lanes.Add(i % 2 ? r : (r & 0x81ffffffu) | 0x32000000u, rng(), rng(), rng());
      }
      ASSERT_TRUE(FastMatchesOracle(ctx, lanes));
    }
  }
}

// A stride through all 2^32 words with random seeds, under the defaults.
TEST(SrPk, FastMatchesOracleStride) {
  std::mt19937 rng(28);
  for (Instr instr : SrPkRows()) {
    const OpContext ctx = Gfx1250(instr);
    LaneBatch lanes;
    for (uint32_t i = 0; i < (1u << 17); ++i) lanes.Add(i * 32771u, ~(i * 16411u), rng(), rng());
    ASSERT_TRUE(FastMatchesOracle(ctx, lanes));
  }
}

}  // namespace
}  // namespace lanediff
