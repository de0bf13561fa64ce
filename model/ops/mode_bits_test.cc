// Each op's declared MODE bits (ModeBitsRead, model/ops/op_table.h) are all it reads: flipping
// any other bit of OpContext::mode leaves every lane unchanged, for every target and row, every
// value of every hypothesis, and modifier fields drawn at random. The harness relies on this:
// it holds only the declared bits (device_harness/kernel_state.h), so an undeclared read would
// be a MODE bit no batch sets and no readback sees.
#include <cstdint>
#include <random>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// Lanes that reach every special case: each byte value in every byte of S0 (8-bit float
// NaN/Inf/denormal bytes and f16 words), f32 specials, denormals and overflowing values.
LaneBatch InterestingLanes() {
  LaneBatch lanes;
  std::mt19937 rng(7);
  for (uint32_t b = 0; b < 256; ++b) {
    lanes.Add(b | (b << 8) | (b << 16) | (b << 24), rng(), rng(), rng());
    lanes.Add(b * 0x01010101u ^ 0x00ff00ffu, rng(), rng(), rng());
  }
  for (uint32_t x : {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00400000u,
                     0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffc00001u,
                     0x3f800000u, 0x437f8000u, 0x43e00001u, 0x47800000u, 0x7f7fffffu,
                     0x3c7fffffu, 0x3fffffffu, 0x4f800000u}) {
    for (int k = 0; k < 4; ++k) lanes.Add(x, rng(), rng(), rng());
  }
  return lanes;
}

std::vector<uint32_t> EvalAll(const OpContext& ctx, const LaneBatch& lanes) {
  std::vector<uint32_t> out(OutputWords(ctx.instr, lanes.size()));
  const absl::Status s = Evaluate(ctx, lanes.view(), absl::MakeSpan(out));
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

TEST(ModeBitsTest, NoOpReadsAModeBitItDoesNotDeclare) {
  const LaneBatch lanes = InterestingLanes();
  std::mt19937 rng(11);
  int checked = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      const uint32_t declared = ModeBitsRead(instr, t.family);
      // Every hypothesis value once, the others at their defaults; then random modifiers.
      std::vector<Hypotheses> readings = {Hypotheses{}};
      for (const HypothesisInfo& h : AllHypotheses()) {
        for (size_t v = 1; v < h.values.size(); ++v) {
          Hypotheses x;
          h.set(&x, static_cast<uint8_t>(v));
          readings.push_back(x);
        }
      }
      for (size_t r = 0; r < readings.size(); ++r) {
        const Hypotheses& hyp = readings[r];
        for (int draw = 0; draw < 3; ++draw) {
          OpContext ctx;
          ctx.target = &t;
          ctx.instr = instr;
          ctx.hyp = hyp;
          ctx.mods.opsel = static_cast<uint8_t>(rng() & 15);
          ctx.mods.neg = static_cast<uint8_t>(rng() & 7);
          ctx.mods.abs = static_cast<uint8_t>(rng() & 7);
          ctx.mods.clamp = (rng() & 1) != 0;
          ctx.mods.omod = static_cast<uint8_t>(rng() & 3);
          // Base MODEs: the default, and every declared bit flipped from it.
          for (uint32_t base : {kDefaultMode, kDefaultMode ^ declared}) {
            ctx.mode = base;
            const std::vector<uint32_t> want = EvalAll(ctx, lanes);
            // Under the default readings every undeclared bit is flipped alone; under another
            // reading all of them at once first, and one at a time only if that changed a word
            // (to name the bit). The rows x readings product made bit-by-bit everywhere cost
            // 20 s in Release with 52 rows.
            if (r != 0) {
              OpContext all = ctx;
              all.mode = base ^ ~declared;
              if (EvalAll(all, lanes) == want) {
                ++checked;
                continue;
              }
            }
            for (int bit = 0; bit < 32; ++bit) {
              if ((declared >> bit) & 1u) continue;
              OpContext other = ctx;
              other.mode = base ^ (1u << bit);
              ASSERT_EQ(EvalAll(other, lanes), want) << absl::StrFormat(
                  "%s %s reads MODE[%d], which its op file does not declare (declared 0x%08x); "
                  "hypotheses %s, base MODE 0x%08x",
                  t.name, InstrName(instr), bit, declared,
                  absl::StrJoin(HypothesisSettings(hyp), " "), base);
            }
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// The declarations themselves, from the op files' reads (docs/semantics.md §7): a hand list, so
// a change to a declaration is a change to this test too.
TEST(ModeBitsTest, DeclarationsAreTheDocumentedFields) {
  constexpr uint32_t kRound = 0x3, kDenormF32 = 1u << 4, kDenormF16 = 1u << 6,
                     kDx10Clamp = 1u << 8, kFp16Ovfl = 1u << 23;
  EXPECT_EQ(ModeBitsRead(Instr::v_cvt_pk_u8_f32, Family::gfx9), kRound | kDenormF32);
  EXPECT_EQ(ModeBitsRead(Instr::v_cvt_sr_fp8_f32, Family::gfx12), kFp16Ovfl | kDenormF32);
  EXPECT_EQ(ModeBitsRead(Instr::v_cvt_pk_bf8_f32, Family::gfx9), kFp16Ovfl | kDenormF32);
  EXPECT_EQ(ModeBitsRead(Instr::v_cvt_f32_fp8, Family::gfx9), kDenormF16 | kDx10Clamp);
  EXPECT_EQ(ModeBitsRead(Instr::v_cvt_pk_f32_bf8, Family::gfx9), kDenormF16 | kDx10Clamp);
  EXPECT_EQ(ModeBitsRead(Instr::v_cvt_f32_fp8, Family::gfx12), kDenormF16);
  EXPECT_EQ(ModeBitsRead(Instr::v_cvt_pk_f32_fp8, Family::gfx1250), kDenormF16);
}

}  // namespace
}  // namespace lanediff
