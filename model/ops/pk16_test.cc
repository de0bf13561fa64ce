// The gfx950 scaled conversions from two packed 16-bit floats (every row whose S0 is
// SrcRole::data_f16x2 or data_bf16x2): hand-derived lanes, then the fast model against the exact
// oracle over 16-bit source patterns x scale operands x seeds, under each reading of the rules
// the rows read and each S0/S1 modifier and select.
//
// The default run takes every 97th 16-bit pattern (1.77 s user in release over the twelve rows,
// the SR FP4 encoders' two among them); the slow entry model_ops_pk16_exhaustive_test sets
// LANEDIFF_PK16_STRIDE=1: every pattern, in each half.
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "model/ops/exhaustive_util.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

const TargetTraits& Gfx950() {
  for (const TargetTraits& t : AllTargets()) {
    if (t.name == "gfx950") return t;
  }
  std::abort();
}

uint32_t Lane(Instr instr, uint32_t s0, uint32_t s1, uint32_t s2, uint32_t old, uint8_t opsel = 0,
             uint8_t neg = 0, uint8_t abs = 0, const char* reading = nullptr) {
  OpContext ctx;
  ctx.target = &Gfx950();
  ctx.instr = instr;
  ctx.mods.opsel = opsel;
  ctx.mods.neg = neg;
  ctx.mods.abs = abs;
  if (reading != nullptr) {
    EXPECT_TRUE(SetHypothesis(reading, &ctx.hyp).ok()) << reading;
  }
  const uint32_t fast = EvaluateLane(ctx, s0, s1, s2, old);
  EXPECT_EQ(fast, EvaluateLaneOracle(ctx, s0, s1, s2, old)) << InstrName(instr);
  return fast;
}

// By hand (docs/semantics.md §11.10): OCP E4M3 1.0 = 0x38, 0.5 = 0x30, -1.0 = 0xB8, -2.0 = 0xC0;
// f16 1.0 = 0x3C00, 2.0 = 0x4000; bf16 1.0 = 0x3F80, 2.0 = 0x4000.
TEST(Pk16, HandDerivedPackedFp8) {
  // {2.0 high, 1.0 low} f16 over 2^1: element 0 0.5 -> 0x30 low byte, element 1 1.0 -> 0x38.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp8_f16, 0x40003c00, 0x40000000, 0, 0xaabbccdd),
            0xaabb3830u);
  // The same bf16 pair into the high half (OPSEL[3]).
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp8_bf16, 0x40003f80, 0x40000000, 0, 0xaabbccdd, 8),
            0x3830ccddu);
  // NEG[0] on {2.0, 1.0} over 2^0: both halves -> {0xC0, 0xB8}; low only {0x40, 0xB8}; bit 31
  // only {0xC0, 0x38}.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp8_f16, 0x40003c00, 0x3f800000, 0, 0, 0, 1), 0xc0b8u);
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp8_f16, 0x40003c00, 0x3f800000, 0, 0, 0, 1, 0,
                "mx_pk16_neg=low_half"),
            0x40b8u);
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp8_f16, 0x40003c00, 0x3f800000, 0, 0, 0, 1, 0,
                "mx_pk16_neg=high_half"),
            0xc038u);
  // E5M2 (bf8): f16 Inf and -Inf over 2^0: 0x7C, 0xFC; saturated 0x7B, 0xFB.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_bf8_f16, 0xfc007c00, 0x3f800000, 0, 0), 0xfc7cu);
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_bf8_f16, 0xfc007c00, 0x3f800000, 0, 0, 0, 0, 0,
                "mx_bf8_overflow=saturate"),
            0xfb7bu);
}

// By hand (docs/semantics.md §11.11): FP4 E2M1 codes 0..7 = 0, 0.5, 1, 1.5, 2, 3, 4, 6, bit 3 the
// sign; f16 6.0 = 0x4600, 2.0 = 0x4000; bf16 3.0 = 0x4040, -0.75 = 0xBF40.
TEST(Pk16, HandDerivedPackedFp4) {
  // {6.0 high, 2.0 low} f16 over 2^1 into byte 2: element 0 1.0 -> 0x2, element 1 3.0 -> 0x5.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp4_f16, 0x46004000, 0x40000000, 0, 0x11223344, 8),
            0x11523344u);
  // NEG[0] under low_half: element 0 -1.0 -> 0xA, element 1 +3.0: byte 0x5a.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp4_f16, 0x46004000, 0x40000000, 0, 0, 0, 1, 0,
                 "mx_pk16_neg=low_half"),
            0x5au);
  // bf16 {-0.75, 3.0} over 2^1: 1.5 -> 0x3; -0.375 is nearer -0.5 than -0 -> 0x9.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_pk_fp4_bf16, 0xbf404040, 0x40000000, 0, 0), 0x93u);
}

// By hand (docs/semantics.md §11.12): f16 1.0625 = 0x3C40 lies halfway between E4M3 1.0 (0x38)
// and 1.125 (0x39); the seed is S1's top 10 - 3 = 7 bits, half a quantum is S1 0x80000000.
TEST(Pk16, HandDerivedSr) {
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_sr_fp8_f16, 0x40003c40, 0x80000000, 0x3f800000, 0), 0x39u);
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_sr_fp8_f16, 0x40003c40, 0x7fffffff, 0x3f800000, 0), 0x38u);
  // OPSEL[0] on {2.0 high, 1.0 low}: ignored -> 1.0 = 0x38; high_half -> 2.0 = 0x40.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_sr_fp8_f16, 0x40003c00, 0, 0x3f800000, 0, 1), 0x38u);
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_sr_fp8_f16, 0x40003c00, 0, 0x3f800000, 0, 1, 0, 0,
                 "mx_sr16_opsel0=high_half"),
            0x40u);
  // bf16 1.125 = 0x3F90 into byte 3, E5M2: seed S1's top 7 - 2 = 5 bits; 0x80000000 is half.
  EXPECT_EQ(Lane(Instr::v_cvt_scalef32_sr_bf8_bf16, 0x3f90, 0x80000000, 0x3f800000, 0x11223344, 12),
            0x3d223344u);
}

// The rules a packed-16 row can read (every mx_* rule and the family's fp8_nan), each value
// once with the others at their defaults; then the modifiers and selects at the defaults.
std::vector<OpContext> Contexts(Instr instr) {
  std::vector<OpContext> out;
  OpContext base;
  base.target = &Gfx950();
  base.instr = instr;
  for (const HypothesisInfo& h : AllHypotheses()) {
    if (!absl::StartsWith(h.name, "mx_") && h.name != "fp8_nan") continue;
    for (size_t v = 1; v < h.values.size(); ++v) {
      OpContext c = base;
      h.set(&c.hyp, static_cast<uint8_t>(v));
      c.mods.neg = 1;    // S0's NEG, where the reach of mx_pk16_neg shows
      c.mods.opsel = 1;  // and OPSEL[0], mx_sr16_opsel0's (read by no other row here)
      out.push_back(c);
    }
  }
  const InstrInfo& info = GetInstrInfo(instr);
  for (uint8_t k = 0; k < 8; ++k) {
    OpContext c = base;
    c.mods.opsel = static_cast<uint8_t>(info.opsel_bits & (k % 2 == 0 ? 0b1000 : 0b1100));
    c.mods.neg = static_cast<uint8_t>((k & 2) ? (info.neg_abs_srcs & 0b101) : 0);
    c.mods.abs = static_cast<uint8_t>((k & 4) ? (info.neg_abs_srcs & 0b111) : 0);
    out.push_back(c);
  }
  return out;
}

// Scale operands: 2^0, 2^1, 2^-1, byte 0 (0.0), byte 0xFF (Inf), 2^127, 2^-24 (f16 denormals to
// 1.0), 1.5 and -3.0 (mantissa and sign), 2^23, 2^-31, 2^65.
constexpr uint32_t kScales[] = {0x3f800000, 0x40000000, 0x3f000000, 0x00000000,
                                0x7f800000, 0x7f000000, 0x33800000, 0x3fc00000,
                                0xc0400000, 0x4b000000, 0x30000000, 0x60000000};

TEST(Pk16, FastMatchesOracle) {
  const char* env = std::getenv("LANEDIFF_PK16_STRIDE");
  const uint32_t stride = env != nullptr ? static_cast<uint32_t>(std::atoi(env)) : 97u;
  ASSERT_GE(stride, 1u);
  int rows = 0;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (!IsPacked16(info.src[0]) || IsPacked16Tuple(info.src[0]) || !Gfx950().Has(instr)) {
      continue;  // one dword only; gfx1250's: sr16_fp8_test
    }
    ++rows;
    const int scale_src = info.src[1] == SrcRole::scale_f32 ? 1 : 2;
    LaneBatch lanes;
    for (uint32_t h = 0; h < 65536; h += stride) {
      for (uint32_t s : kScales) {
        const uint32_t mix = SweepHash(h ^ s);
        const uint32_t seed = SweepHash(mix);
        for (uint32_t s0 : {h | (mix << 16), (h << 16) | (mix & 0xffffu)}) {
          lanes.Add(s0, scale_src == 1 ? s : seed, scale_src == 2 ? s : 0, ~mix);
        }
      }
    }
    const LaneView view = lanes.view();
    std::vector<uint32_t> fast(view.size), oracle(view.size);
    for (const OpContext& ctx : Contexts(instr)) {
      ASSERT_TRUE(Evaluate(ctx, view, absl::MakeSpan(fast)).ok());
      ASSERT_TRUE(EvaluateOracle(ctx, view, absl::MakeSpan(oracle)).ok());
      for (size_t i = 0; i < view.size; ++i) {
        ASSERT_EQ(fast[i], oracle[i])
            << InstrName(instr) << " lane " << i << std::hex << " s0=" << view.src0[i]
            << " s1=" << view.src1[i] << " s2=" << view.src2[i]
            << " opsel=" << int(ctx.mods.opsel) << " neg=" << int(ctx.mods.neg)
            << " abs=" << int(ctx.mods.abs) << " " << testing::PrintToString(
                   NonDefaultHypothesisSettings(ctx.hyp));
      }
    }
  }
  EXPECT_GE(rows, 12);
}

}  // namespace
}  // namespace lanediff
