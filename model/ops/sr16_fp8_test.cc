// gfx1250's unscaled SR encoders from one f16 (the rows whose S0 is SrcRole::data_f16x2 on
// gfx1250; docs/semantics.md §13.5): hand-derived lanes, then the fast model against the exact
// oracle over f16 patterns (in either half of S0) x seeds, under each reading of the rules the
// rows read, each S0 modifier, select, the CLAMP bit and MODE.FP16_OVFL.
//
// The default run takes every 61st f16 pattern; the slow entry model_ops_sr16_fp8_exhaustive_test
// sets LANEDIFF_SR16_STRIDE=1: every pattern, in each half.
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/exhaustive_util.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

const TargetTraits& Gfx1250() {
  for (const TargetTraits& t : AllTargets()) {
    if (t.name == "gfx1250") return t;
  }
  std::abort();
}

// The rows this test covers: a 16-bit float source and a seed on gfx1250, unscaled (no gfx950
// encoding).
std::vector<Instr> Rows() {
  std::vector<Instr> out;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.src[0] == SrcRole::data_f16x2 && info.src[1] == SrcRole::sr_seed &&
        Gfx1250().Has(instr) && info.writes_float()) {
      out.push_back(instr);
    }
  }
  return out;
}

uint32_t Lane(Instr instr, uint32_t s0, uint32_t s1, uint32_t old, uint8_t opsel = 0,
              const char* reading = nullptr) {
  OpContext ctx;
  ctx.target = &Gfx1250();
  ctx.instr = instr;
  ctx.mods.opsel = opsel;
  if (reading != nullptr) {
    EXPECT_TRUE(SetHypothesis(reading, &ctx.hyp).ok()) << reading;
  }
  const uint32_t fast = EvaluateLane(ctx, s0, s1, 0, old);
  EXPECT_EQ(fast, EvaluateLaneOracle(ctx, s0, s1, 0, old)) << InstrName(instr);
  return fast;
}

// By hand (docs/semantics.md §13.5). E4M3: 1.0 = 0x38, 1.125 = 0x39, 2.0 = 0x40, the subnormal
// quantum 2^-9 = 0x01. f16 0x1408 = 2^-10 (1 + 2^-7): 0.5 + 2^-8 of that quantum, fraction
// 0x81000 of 20 bits; with the seed 0x7f000 (S1 0x7f000000) the sum is 0x100000 (a carry),
// with source_grid's 7 bits (0x7e000) it is 0xff000 (none).
TEST(Sr16Fp8, HandDerived) {
  const std::vector<Instr> rows = Rows();
  ASSERT_EQ(rows.size(), 2u);
  const Instr fp8 = GetInstrInfo(rows[0]).output == OutputKind::fp8 ? rows[0] : rows[1];
  const Instr bf8 = fp8 == rows[0] ? rows[1] : rows[0];
  EXPECT_EQ(Lane(fp8, 0x1408, 0x7f000000, 0), 0x01u);
  EXPECT_EQ(Lane(fp8, 0x1408, 0x7f000000, 0, 0, "sr16_fp8_seed=source_grid"), 0x00u);
  // 1 + 2^-10 (0x3c01): dropped 2^-7 of the quantum 2^-3 = 0x02000; seed 0xfe000 carries.
  EXPECT_EQ(Lane(fp8, 0x3c01, 0xfe000000, 0), 0x39u);
  EXPECT_EQ(Lane(fp8, 0x3c01, 0xfdffffff, 0), 0x38u);
  // OPSEL[0] with byte_sel:2 (OPSEL = 0b1001): {2.0 high, 1.0 low}.
  EXPECT_EQ(Lane(fp8, 0x40003c00, 0, 0xaabbccdd, 9), 0xaa40ccddu);
  EXPECT_EQ(Lane(fp8, 0x40003c00, 0, 0xaabbccdd, 9, "sr16_fp8_opsel0=ignored"), 0xaa38ccddu);
  // E5M2: 1.0 = 0x3C, 1.25 = 0x3D; 1 + 2^-10 drops 2^-8 of the quantum 2^-2: 0x2000 of 21 bits,
  // the seed 0xff000000 >> 11 = 0x1fe000 carries.
  EXPECT_EQ(Lane(bf8, 0x3c01, 0xff000000, 0), 0x3du);
  EXPECT_EQ(Lane(bf8, 0x3c01, 0xfeffffff, 0), 0x3cu);
  // f16 +Inf (0x7C00) to E5M2 Inf 0x7C whatever the seed; NaN 0x7E00 to fp8_nan's default, the
  // canonical 0xFF (E4M3) / 0xFE (E5M2) whatever the sign (docs/semantics.md §6).
  EXPECT_EQ(Lane(bf8, 0x7c00, 0xffffffff, 0), 0x7cu);
  EXPECT_EQ(Lane(fp8, 0x7e00, 0, 0), 0xffu);
  EXPECT_EQ(Lane(bf8, 0xfe00, 0, 0), 0xfeu);
}

// The readings these rows read, each alone and the seed readings together.
const char* const kReadings[] = {
    nullptr,
    "sr16_fp8_seed=source_grid",
    "sr16_fp8_opsel0=ignored",
    "sr_rounding=literal",
    "sr_rounding=exact_subnormal",
    "sr_seed=low",
    "sr_overflow=before_rounding",
    "fp8_nan=sign_preserving",
    "fp8_nan=sign_7f",
    "fp16_ovfl=ignored",
    "fp16_ovfl=saturate_all",
    "gfx1250_clamp=ignored",
    "gfx1250_clamp=ue5m3_magnitude",
};

std::vector<OpContext> Contexts(Instr instr) {
  std::vector<OpContext> out;
  for (const char* reading : kReadings) {
    for (const char* second : {static_cast<const char*>(nullptr), "sr_seed=low",
                               "sr_rounding=exact_subnormal", "sr_rounding=literal"}) {
      if (second != nullptr && (reading == nullptr || std::string(reading) !=
                                                          "sr16_fp8_seed=source_grid")) {
        continue;
      }
      for (int k = 0; k < 6; ++k) {
        OpContext c;
        c.target = &Gfx1250();
        c.instr = instr;
        if (reading != nullptr) {
          EXPECT_TRUE(SetHypothesis(reading, &c.hyp).ok());
        }
        if (second != nullptr) {
          EXPECT_TRUE(SetHypothesis(second, &c.hyp).ok());
        }
        c.mods.opsel = static_cast<uint8_t>(k == 1 ? 0b1001 : k == 2 ? 0b0110 : k == 5 ? 0b1111 : 0);
        c.mods.neg = static_cast<uint8_t>(k == 3 || k == 5 ? 1 : 0);
        c.mods.abs = static_cast<uint8_t>(k == 4 || k == 5 ? 1 : 0);
        c.mods.clamp = k >= 4;  // the raw CLAMP bit (LLVM refuses the modifier)
        if (k % 2 == 1) c.mode |= kModeFp16OvflBit;
        out.push_back(c);
      }
    }
  }
  return out;
}

TEST(Sr16Fp8, FastMatchesOracle) {
  const char* env = std::getenv("LANEDIFF_SR16_STRIDE");
  const uint32_t stride = env != nullptr ? static_cast<uint32_t>(std::atoi(env)) : 61u;
  ASSERT_GE(stride, 1u);
  for (Instr instr : Rows()) {
    LaneBatch lanes;
    for (uint32_t h = 0; h < 65536; h += stride) {
      const uint32_t mix = SweepHash(h);
      for (uint32_t seed : {0u, 0xffffffffu, 0x7f000000u, 0x80000000u, SweepHash(mix)}) {
        for (uint32_t s0 : {h | (mix << 16), (h << 16) | (mix & 0xffffu)}) {
          lanes.Add(s0, seed, 0, ~mix);
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
            << " s1=" << view.src1[i] << " opsel=" << int(ctx.mods.opsel)
            << " neg=" << int(ctx.mods.neg) << " abs=" << int(ctx.mods.abs)
            << " clamp=" << ctx.mods.clamp << " mode=" << ctx.mode << " "
            << testing::PrintToString(NonDefaultHypothesisSettings(ctx.hyp));
      }
    }
  }
}

}  // namespace
}  // namespace lanediff
