#include "fuzz/discriminate.h"

#include <algorithm>

#include "device_harness/open_runner.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

TEST(Discriminate, EveryPairSeparatedOnTheFourTargets) {
  for (const char* t : {"gfx942", "gfx950", "gfx1201", "gfx1250"}) {
    for (Instr i : kAllInstrs) {
      auto d = Discriminate(**FindTarget(t), i);
      ASSERT_TRUE(d.ok()) << t << " " << InstrName(i) << ": " << d.status();
      EXPECT_GE(d->relevant.size(), 1u) << t << " " << InstrName(i);
      EXPECT_EQ(d->pairs_separated, d->pairs) << t << " " << InstrName(i);
      EXPECT_TRUE(d->inseparable.empty()) << t << " " << InstrName(i) << ": " << d->inseparable[0];
      // Every question is one lane, and it separates at least one pair (no padding).
      for (const Question& q : d->questions) {
        EXPECT_EQ(q.testcase.lanes_size(), 1);
        EXPECT_NE(std::count(q.answers.begin(), q.answers.end(), q.answers[0]),
                  static_cast<long>(q.answers.size()));
      }
    }
  }
  // gfx942's formats are FNUZ: the OCP NaN question does not arise there (SEMANTICS.md §5);
  // gfx1250's CLAMP hypothesis arises only for fp8.
  auto fnuz = Discriminate(**FindTarget("gfx942"), Instr::v_cvt_sr_fp8_f32);
  EXPECT_EQ(fnuz->relevant, (std::vector<std::string>{"sr_rounding", "fp16_ovfl"}));
  auto g1250 = Discriminate(**FindTarget("gfx1250"), Instr::v_cvt_sr_fp8_f32);
  EXPECT_NE(std::find(g1250->relevant.begin(), g1250->relevant.end(), "gfx1250_clamp"),
            g1250->relevant.end());
}

struct Expect {
  const char* target;
  Instr instr;
  const char* erratum;
  const char* follows;
};

TEST(Discriminate, NamesTheHypothesisOfEachSimulatedErratum) {
  const Expect cases[] = {
      {"gfx942", Instr::v_cvt_sr_fp8_f32, "sr_wrap", "sr_rounding=literal"},
      {"gfx942", Instr::v_cvt_pk_u8_f32, "u8_truncate", "pk_u8_rounding=truncate"},
      {"gfx950", Instr::v_cvt_sr_bf8_f32, "nan_sign", "fp8_nan=sign_preserving"},
      {"gfx1201", Instr::v_cvt_sr_fp8_f32, "fp16_ovfl_ignored", "fp16_ovfl=ignored"},
      {"gfx1250", Instr::v_cvt_sr_fp8_f32, "gfx1250_clamp_ignored", "gfx1250_clamp=ignored"},
  };
  for (const Expect& e : cases) {
    auto d = Discriminate(**FindTarget(e.target), e.instr);
    ASSERT_TRUE(d.ok());
    RunnerOptions ro;
    ro.inject = {e.erratum};
    auto runner = OpenRunner("sim", ro);
    ASSERT_TRUE(runner.ok()) << runner.status();
    auto v = AskDevice(*d, **runner);
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_NE(std::find(v->follows.begin(), v->follows.end(), e.follows), v->follows.end())
        << e.erratum << ": " << v->summary;
    // The default-behaving simulator follows every default instead.
    auto clean = OpenRunner("sim", {});
    auto cv = AskDevice(*d, **clean);
    ASSERT_TRUE(cv.ok());
    EXPECT_EQ(std::find(cv->follows.begin(), cv->follows.end(), e.follows), cv->follows.end());
  }
}

}  // namespace
}  // namespace lanediff
