// The VGPR-pair writers (rows with dst_bits 64: one 16-bit word of S0, two 8-bit floats, to two
// f32; not the scaled ones, see below), exhaustively over their input: every one of the 2^16 byte pairs of the selected word,
// fast (the 256-entry table, model/fp/fp8_decode.h) against the exact oracle (OracleFp8ToF32,
// model/fp/oracle.h), both destination words of every lane. Per target that has the row:
//   - every select (SDWA src0_sel 0..6 on GFX9; OPSEL[0] where the row's syntax is the word
//     select), each OMOD, CLAMP both ways, MODE[6] and MODE[8] both ways, default readings;
//   - every value of every hypothesis (the others at their defaults), on a rotating select and
//     modifier set.
// The word is put in both halves of S0 (w << 16 | w), so every select converts all 2^16 pairs
// (GFX9 extract BYTE_n: byte n of it, zero-extended).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

struct PairTally {
  uint64_t words = 0;
  int contexts = 0;
};

::testing::AssertionResult AllPairs(const OpContext& ctx, const LaneBatch& lanes, PairTally* run) {
  const size_t w = static_cast<size_t>(DstWords(ctx.instr));
  std::vector<uint32_t> fast(lanes.size() * w), slow(lanes.size() * w);
  if (!Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok() ||
      !EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok()) {
    return ::testing::AssertionFailure() << "evaluation failed";
  }
  for (size_t j = 0; j < fast.size(); ++j) {
    if (fast[j] == slow[j]) continue;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "%s %s src0_sel=%d opsel=%d omod=%d clamp=%d mode=0x%x: src0=0x%08x word %zu "
                  "fast=0x%08x oracle=0x%08x",
                  std::string(ctx.target->name).c_str(), std::string(InstrName(ctx.instr)).c_str(),
                  ctx.mods.src0_sel, ctx.mods.opsel, ctx.mods.omod, ctx.mods.clamp, ctx.mode,
                  lanes.view().src0[j / w], j % w, fast[j], slow[j]);
    return ::testing::AssertionFailure() << buf;
  }
  run->words += fast.size();
  ++run->contexts;
  return ::testing::AssertionSuccess();
}

void SetSelect(const TargetTraits& t, uint32_t k, OpContext* ctx) {
  const OpSelSyntax s = GetInstrInfo(ctx->instr).opsel_syntax[static_cast<int>(t.family)];
  if (s == OpSelSyntax::op_sel_word_src) {
    ctx->mods.opsel = static_cast<uint8_t>(k & 1);
  } else {
    ctx->mods.src0_sel = static_cast<uint8_t>(k % 7);
  }
}

TEST(PairExhaustive, EveryBytePairFastMatchesOracle) {
  LaneBatch lanes;
  for (uint32_t w = 0; w < 65536; ++w) lanes.Add((w << 16) | w, 0x5a5a5a5a, 0xa5a5a5a5, w * 2654435761u);
  PairTally run;
  int rows = 0, row_targets = 0;
  for (Instr instr : kAllInstrs) {
    if (GetInstrInfo(instr).dst_bits != 64) continue;
    // The scaled pair decodes (S1 a block scale, gfx950) are not here: their arithmetic is
    // checked fast == oracle on every byte x every scale exponent x every reading by
    // model/fp/mx_test.cc (MxScaleF32), which this word-only input (one S1) would repeat at
    // many times the cost.
    // Nor gfx1250's 8-wide SR encoders (a tuple S0, the scale S2): sr_pk8_test.cc's.
    if (GetInstrInfo(instr).src[1] == SrcRole::scale_f32 ||
        GetInstrInfo(instr).src[2] == SrcRole::scale_f32) {
      continue;
    }
    ++rows;
    for (const TargetTraits& t : AllTargets()) {
      if (!t.Has(instr)) continue;
      ++row_targets;
      // Every select x OMOD x CLAMP x MODE[6]/[8], default readings.
      for (uint32_t k = 0; k < 7 * 4 * 2 * 2; ++k) {
        OpContext ctx;
        ctx.target = &t;
        ctx.instr = instr;
        SetSelect(t, k % 7, &ctx);
        ctx.mods.omod = static_cast<uint8_t>((k / 7) % 4);
        ctx.mods.clamp = (k / 28) % 2 != 0;
        ctx.mode = kDefaultMode ^ ((k / 56) % 2 ? 0x140u : 0u);  // MODE[6], MODE[8]
        ASSERT_TRUE(AllPairs(ctx, lanes, &run));
      }
      // Every value of every reading, on a rotating select and modifier set.
      uint32_t k = 0;
      for (const HypothesisInfo& h : AllHypotheses()) {
        for (size_t v = 0; v < h.values.size(); ++v, ++k) {
          OpContext ctx;
          ctx.target = &t;
          ctx.instr = instr;
          SetSelect(t, k, &ctx);
          ctx.mods.omod = static_cast<uint8_t>(k % 4);
          ctx.mods.clamp = k % 3 == 0;
          ctx.mode = kDefaultMode ^ (k % 2 ? 0x140u : 0u);
          h.set(&ctx.hyp, static_cast<uint8_t>(v));
          // Every other context: S0 a constant in a 16-bit operand (src16_constant applies).
          ctx.constant16_srcs = static_cast<uint8_t>((k >> 1) & 1);
          ASSERT_TRUE(AllPairs(ctx, lanes, &run)) << h.name << "=" << h.values[v].name;
        }
      }
    }
  }
  std::printf("%d pair rows on %d (row, target) pairs, %d contexts x 2^16 byte pairs: %llu words, "
              "fast == oracle\n", rows, row_targets, run.contexts,
              static_cast<unsigned long long>(run.words));
  EXPECT_GT(rows, 0);
  // Both pair rows on gfx942, gfx950, gfx1200, gfx1201, gfx1250, gfx1251 (model/instrs.def).
  EXPECT_EQ(row_targets, 12);
  EXPECT_GT(run.contexts, 0);
}

}  // namespace
}  // namespace lanediff
