// What the tests of gfx1250's SR tuple encoders (a VGPR tuple S0, a seed S1, the scale S2:
// sr_pk8_test.cc, sr_pk16_test.cc) share: a context on gfx1250/gfx1251 under one reading, one
// lane evaluated fast and by the oracle, lanes of random tuples, the contexts of every reading of
// the mx_* rules, and the lanes that take every 16-bit value through a packed tuple.
//
//   std::vector<uint32_t> w = SrTupleLane(SrTupleCtx(instr), s0, 0x80000000u, 0x3f800000u);
#ifndef LANEDIFF_MODEL_OPS_SR_TUPLE_TEST_UTIL_H_
#define LANEDIFF_MODEL_OPS_SR_TUPLE_TEST_UTIL_H_

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {

inline OpContext SrTupleCtx(Instr instr, const std::string& reading = "",
                            const char* target = "gfx1250") {
  OpContext ctx;
  ctx.target = *FindTarget(target);
  ctx.instr = instr;
  if (!reading.empty()) {
    EXPECT_TRUE(SetHypothesis(reading, &ctx.hyp).ok()) << reading;
  }
  return ctx;
}

// One lane: S0's dwords, the seed, the scale; the destination words, fast and oracle checked
// equal.
inline std::vector<uint32_t> SrTupleLane(const OpContext& ctx, const std::vector<uint32_t>& s0,
                                         uint32_t seed, uint32_t scale) {
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  lanes.AddWide(s0.data(), &seed, &scale, 0xdeadbeefu);
  std::vector<uint32_t> fast(DstWords(ctx.instr)), oracle(fast.size());
  EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
  EXPECT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(oracle)).ok());
  EXPECT_EQ(fast, oracle) << InstrName(ctx.instr);
  return fast;
}

// `n` lanes of random tuples (a third of the dwords copies of dword 0, a third near 1.0 over the
// scale, the rest random words), random seeds, eight scales.
inline LaneBatch SrRandomTupleLanes(Instr instr, int n, uint32_t rng_seed) {
  std::mt19937 rng(rng_seed);
  constexpr uint32_t kScales[] = {0x3f800000u, 0x40000000u, 0x3e800000u, 0x00000000u,
                                  0x7f800000u, 0x3fc00000u, 0xc0400000u, 0x0a000000u};
  const InstrInfo& info = GetInstrInfo(instr);
  const int dwords = info.src_dwords(0);
  const bool pk16 = IsPacked16Tuple(info.src[0]);
  LaneBatch lanes;
  lanes.SetShape(info.lane_shape());
  std::vector<uint32_t> s0(dwords);
  for (int lane = 0; lane < n; ++lane) {
    for (int k = 0; k < dwords; ++k) {
      const uint32_t r = static_cast<uint32_t>(rng());
      const uint32_t near = pk16 ? (0x3c00u + (r >> 22)) * 0x10001u : 0x3f000000u + (r >> 9);
      s0[k] = k > 0 && r % 3 == 0 ? s0[0] : r % 3 == 1 ? near : r;
    }
    uint32_t seed = static_cast<uint32_t>(rng()), scale = kScales[rng() % 8];
    lanes.AddWide(s0.data(), &seed, &scale, static_cast<uint32_t>(rng()));
  }
  return lanes;
}

// gfx1250's and gfx1251's defaults, then each reading of every mx_* rule (and fp8_nan when
// `fp8_nan`) alone on gfx1250, with NEG/ABS bits on S0 and S2.
inline std::vector<OpContext> SrReadingContexts(Instr instr, bool fp8_nan) {
  std::vector<OpContext> contexts = {SrTupleCtx(instr), SrTupleCtx(instr, "", "gfx1251")};
  for (const HypothesisInfo& h : AllHypotheses()) {
    if (!absl::StartsWith(h.name, "mx_") && !(fp8_nan && h.name == "fp8_nan")) continue;
    for (size_t v = 1; v < h.values.size(); ++v) {
      OpContext c = SrTupleCtx(instr);
      h.set(&c.hyp, static_cast<uint8_t>(v));
      c.mods.neg = static_cast<uint8_t>(v % 2 == 0 ? 0b101 : 0b001);
      c.mods.abs = static_cast<uint8_t>(v % 3 == 0 ? 0b100 : 0);
      contexts.push_back(c);
    }
  }
  return contexts;
}

// Fast == oracle on every word of `lanes` under `ctx` (at most five differing words reported).
inline void ExpectSrFastMatchesOracle(const OpContext& ctx, const LaneBatch& lanes) {
  std::vector<uint32_t> fast(DstWords(ctx.instr) * lanes.size()), oracle(fast.size());
  ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
  ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(oracle)).ok());
  int bad = 0;
  for (size_t i = 0; i < fast.size() && bad < 5; ++i) {
    if (fast[i] == oracle[i]) continue;
    ++bad;
    ADD_FAILURE() << InstrName(ctx.instr) << " word " << i << ": fast 0x" << std::hex << fast[i]
                  << " oracle 0x" << oracle[i] << " "
                  << testing::PrintToString(NonDefaultHypothesisSettings(ctx.hyp));
  }
}

// The scale operands of the every-16-bit-value tests: 4 in the default run, every scale byte
// (exponent field) when the environment variable `env` is "all" (the slow entries).
inline std::vector<uint32_t> SrScales(const char* env) {
  const char* v = std::getenv(env);
  if (v == nullptr || std::string(v) != "all") {
    return {0x3f800000u, 0x00000000u, 0x3e000000u, 0x43000000u};
  }
  std::vector<uint32_t> scales;
  for (uint32_t e = 0; e < 256; ++e) scales.push_back(e << 23);
  return scales;
}

// Every 16-bit value through a packed tuple row: lane j holds the values 2dj .. 2dj + 2d - 1
// (d the tuple's dwords, element k = 2dj + k), a hashed seed per lane, for each scale.
inline LaneBatch SrEvery16BitLanes(Instr instr, const std::vector<uint32_t>& scales) {
  const InstrInfo& info = GetInstrInfo(instr);
  const uint32_t d = static_cast<uint32_t>(info.src_dwords(0));
  LaneBatch lanes;
  lanes.SetShape(info.lane_shape());
  std::vector<uint32_t> s0(d);
  for (uint32_t s : scales) {
    for (uint32_t j = 0; j < 0x10000u / (2 * d); ++j) {
      for (uint32_t k = 0; k < d; ++k) s0[k] = (2 * d * j + 2 * k) | (2 * d * j + 2 * k + 1) << 16;
      uint32_t seed = (j + s) * 0x9e3779b9u, scale = s;
      lanes.AddWide(s0.data(), &seed, &scale, j);
    }
  }
  return lanes;
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_SR_TUPLE_TEST_UTIL_H_
