// What the tests of the scaled decodes share: one lane decoded by the fast model or the oracle
// (gfx950's 32-element FP6/BF6 decodes with an f32 scale, fp6_tuple_test.cc, too), and for
// gfx1250's decodes with an E8M0 scale register (v_cvt_scale_pk8_*: scale_pk8_test.cc,
// v_cvt_scale_pk16_*: scale_pk16_test.cc) a context with a scale_sel under one reading and the
// check that both give the hand-derived words.
//
//   ScaleDecode(ScaleDecodeCtx(instr, 6), {0x017fc038u, 0x0880007eu}, 0x7f7e7d80u)  // E4M3 to f32:
//       element 0 (0x38, 1.0) times byte 2 (0x7e, 2^-1): 0x3f000000
#ifndef LANEDIFF_MODEL_OPS_SCALE_DECODE_TEST_UTIL_H_
#define LANEDIFF_MODEL_OPS_SCALE_DECODE_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {

// A context on gfx1250 with scale_sel (OPSEL[3:0]) and, when given, one reading
// ("rule=value").
inline OpContext ScaleDecodeCtx(Instr instr, uint8_t scale_sel, const std::string& setting = "") {
  OpContext ctx;
  ctx.target = *FindTarget("gfx1250");
  ctx.instr = instr;
  ctx.mods.opsel = scale_sel;
  if (!setting.empty()) {
    EXPECT_TRUE(SetHypothesis(setting, &ctx.hyp).ok()) << setting;
  }
  return ctx;
}

// One lane: S0's dwords and the scale S1; the destination words, from the fast model
// or (oracle) the oracle.
inline std::vector<uint32_t> ScaleDecode(const OpContext& ctx, const std::vector<uint32_t>& src0,
                                         uint32_t s1, bool oracle = false) {
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  const uint32_t s2 = 0;
  lanes.AddWide(src0.data(), &s1, &s2, 0xdeadbeef);
  std::vector<uint32_t> out(OutputWords(ctx.instr, 1));
  const absl::Status s = oracle ? EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(out))
                                : Evaluate(ctx, lanes.view(), absl::MakeSpan(out));
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

// The fast model and the oracle both give `want`.
inline void ExpectScaleDecode(const OpContext& ctx, const std::vector<uint32_t>& src0, uint32_t s1,
                              const std::vector<uint32_t>& want) {
  EXPECT_EQ(ScaleDecode(ctx, src0, s1), want) << InstrName(ctx.instr);
  EXPECT_EQ(ScaleDecode(ctx, src0, s1, /*oracle=*/true), want) << InstrName(ctx.instr) << " oracle";
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_SCALE_DECODE_TEST_UTIL_H_
