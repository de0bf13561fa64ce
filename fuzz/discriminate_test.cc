#include "fuzz/discriminate.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "device_harness/open_runner.h"
#include "gtest/gtest.h"
#include "model/fp/fp8_format.h"
#include "device_harness/resolve_case.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace {

// An input sample built apart from discriminate's candidates, to decide which pairs of readings
// can be told apart at all. For the SR instructions: every magnitude code of each format the
// target can write, decoded from the format's fields with host doubles, and the point half a
// quantum above it, each nudged by -1..+1 f32 ulps, both signs; structured and random seeds.
// For pk_u8: the integers 0..256 and their halves, nudged likewise. Both: specials and random
// words. Contexts: MODE round modes, FP16_OVFL, denormal flush; CLAMP where it selects a format.
struct Sample {
  std::vector<uint32_t> src0, src1;
  std::vector<bool> clamps = {false};
  std::vector<uint32_t> modes;
};

Sample MakeSample(const TargetTraits& t, Instr instr) {
  Sample s;
  auto add = [&](double value) {
    const uint32_t v = std::bit_cast<uint32_t>(static_cast<float>(value));
    for (int d = -1; d <= 1; ++d) {
      s.src0.push_back(v + static_cast<uint32_t>(d));
      s.src0.push_back((v + static_cast<uint32_t>(d)) ^ 0x80000000u);
    }
  };
  std::mt19937 rng(14);
  if (GetInstrInfo(instr).writes_float()) {
    std::vector<Fp8FormatId> ids = {t.fp8, t.bf8};
    if (t.clamp_selects_ue5m3) {
      ids.push_back(Fp8FormatId::ue5m3);
      s.clamps.push_back(true);
    }
    for (Fp8FormatId id : ids) {
      const Fp8Format& f = GetFp8Format(id);
      for (int c = 1; c <= f.max_finite + 1; ++c) {
        const int e = c >> f.man_bits, m = c & ((1 << f.man_bits) - 1);
        const double value = e == 0 ? std::ldexp(m, 1 - f.bias - f.man_bits)
                                    : std::ldexp((1 << f.man_bits) + m, e - f.bias - f.man_bits);
        add(value);
        add(value * (1 + std::ldexp(1, -f.man_bits - 1)));
      }
    }
    s.src1 = {0u, 0xffffffffu, 0x00000800u, 0x00000400u, 0x000fffffu, 0x001fffffu,
              0x80000000u, 0x7fffffffu};
    s.modes = {0x000000f0u, 0x008000f0u, 0x00000000u};
  } else {
    for (int i = 0; i <= 512; ++i) add(i * 0.5);
    s.src1 = {0u, 1u, 2u, 3u};
    s.modes = {0x000000f0u, 0x000000f1u, 0x000000f2u, 0x000000f3u, 0x00000000u};
  }
  for (uint32_t v : {0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x00000001u, 0x7f7fffffu}) {
    s.src0.push_back(v);
    s.src0.push_back(v ^ 0x80000000u);
  }
  for (int i = 0; i < 1000; ++i) s.src0.push_back(rng());
  for (int i = 0; i < 2; ++i) s.src1.push_back(rng());
  return s;
}

// Does some sample lane give different words under `a` and `b` on this target/instruction?
bool SampleSeparates(const Sample& s, const TargetTraits& t, Instr instr, const Hypotheses& a,
                     const Hypotheses& b) {
  LaneBatch lanes;
  for (uint32_t s1 : s.src1) {
    for (uint32_t s0 : s.src0) lanes.Add(s0, s1, 0x11223344u, 0xaabbccddu);
  }
  std::vector<uint32_t> wa(lanes.size()), wb(lanes.size());
  for (bool clamp : s.clamps) {
    for (uint32_t mode : s.modes) {
      OpContext ctx;
      ctx.target = &t;
      ctx.instr = instr;
      ctx.mods.clamp = clamp;
      ctx.mode = mode;
      ctx.hyp = a;
      EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(wa)).ok());
      ctx.hyp = b;
      EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(wb)).ok());
      if (wa != wb) return true;
    }
  }
  return false;
}

// The question's word under `hyp`, evaluated here (not read from Question::answers).
uint32_t Answer(const Question& q, const Hypotheses& hyp) {
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(q.testcase);
  EXPECT_TRUE(rc.ok()) << rc.status();
  rc->ctx.hyp = hyp;
  uint32_t w = 0;
  EXPECT_TRUE(Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(&w, 1)).ok());
  return w;
}

// Coverage, computed from the hypothesis table: on every target, for every instruction it
// has, every two values of every rule (the others at their defaults) that the independent
// sample can tell apart are told apart by one of discriminate's questions; the pairs it
// cannot tell apart are exactly the ones discriminate reports inseparable. And no question is
// padding: each separates a pair no earlier question does.
TEST(Discriminate, EveryPairOfReadingsOfEveryRuleOnEveryTarget) {
  int checked = 0, separable = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      if (DstWords(instr) > 1) {  // not covered yet: refused with a reason
        EXPECT_EQ(Discriminate(t, instr).status().code(), absl::StatusCode::kUnimplemented);
        continue;
      }
      const Sample sample = MakeSample(t, instr);
      absl::StatusOr<Discrimination> d = Discriminate(t, instr);
      ASSERT_TRUE(d.ok()) << t.name << " " << InstrName(instr) << ": " << d.status();
      const std::string where = absl::StrCat(t.name, " ", InstrName(instr));
      for (const HypothesisInfo& h : AllHypotheses()) {
        for (size_t va = 0; va < h.values.size(); ++va) {
          for (size_t vb = va + 1; vb < h.values.size(); ++vb) {
            Hypotheses a, b;
            h.set(&a, static_cast<uint8_t>(va));
            h.set(&b, static_cast<uint8_t>(vb));
            const std::string pair =
                absl::StrCat(h.name, ": ", h.values[va].name, " == ", h.values[vb].name);
            ++checked;
            const bool questions_separate = std::any_of(
                d->questions.begin(), d->questions.end(),
                [&](const Question& q) { return Answer(q, a) != Answer(q, b); });
            const bool reported_inseparable =
                std::find(d->inseparable.begin(), d->inseparable.end(), pair) !=
                d->inseparable.end();
            if (SampleSeparates(sample, t, instr, a, b)) {
              ++separable;
              EXPECT_TRUE(questions_separate) << where << ": no question separates " << pair;
              EXPECT_FALSE(reported_inseparable) << where << ": " << pair;
            } else {
              EXPECT_FALSE(questions_separate && reported_inseparable) << where << ": " << pair;
              // A pair of a relevant rule that no input separates is reported, not hidden.
              const bool relevant = std::find(d->relevant.begin(), d->relevant.end(),
                                              std::string(h.name)) != d->relevant.end();
              if (relevant && !questions_separate) {
                EXPECT_TRUE(reported_inseparable) << where << ": " << pair;
              }
            }
          }
        }
      }
      EXPECT_EQ(static_cast<size_t>(d->pairs_separated) + d->inseparable.size(), d->pairs.size())
          << where;
      for (size_t qi = 0; qi < d->questions.size(); ++qi) {
        const Question& q = d->questions[qi];
        EXPECT_EQ(q.testcase.lanes_size(), 1) << where;
        bool new_pair = false;
        for (const ReadingPair& p : d->pairs) new_pair |= p.question == static_cast<int>(qi);
        EXPECT_TRUE(new_pair || q.new_combination_pairs > 0)
            << where << " Q" << qi + 1 << " separates nothing new";
      }
    }
  }
  EXPECT_GT(separable, 40) << "of " << checked;
}

TEST(Discriminate, RelevantRulesFollowTheFormats) {
  // gfx942's formats are FNUZ: the OCP NaN rule does not arise there (docs/semantics.md §5);
  // gfx1250's CLAMP rule arises only for fp8; pk_u8 has only its own two rules.
  auto fnuz = Discriminate(**FindTarget("gfx942"), Instr::v_cvt_sr_fp8_f32);
  ASSERT_TRUE(fnuz.ok());
  EXPECT_EQ(fnuz->relevant, (std::vector<std::string>{"sr_rounding", "sr_seed", "sr_overflow",
                                                      "fp16_ovfl"}));
  auto g1250 = Discriminate(**FindTarget("gfx1250"), Instr::v_cvt_sr_fp8_f32);
  ASSERT_TRUE(g1250.ok());
  EXPECT_NE(std::find(g1250->relevant.begin(), g1250->relevant.end(), "gfx1250_clamp"),
            g1250->relevant.end());
  auto pk = Discriminate(**FindTarget("gfx1100"), Instr::v_cvt_pk_u8_f32);
  ASSERT_TRUE(pk.ok());
  EXPECT_EQ(pk->relevant, (std::vector<std::string>{"pk_u8_rounding", "pk_u8_nan"}));
  // On E4M3 the two sign-keeping NaN readings both give sign|0x7f: reported, not hidden.
  auto e4m3 = Discriminate(**FindTarget("gfx950"), Instr::v_cvt_sr_fp8_f32);
  ASSERT_TRUE(e4m3.ok());
  EXPECT_EQ(e4m3->inseparable,
            (std::vector<std::string>{"fp8_nan: sign_preserving == sign_7f"}));
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
    EXPECT_TRUE(v->explained) << e.erratum << ": " << v->summary;
    EXPECT_NE(std::find(v->follows.begin(), v->follows.end(), e.follows), v->follows.end())
        << e.erratum << ": " << v->summary;
    // The default-behaving simulator follows every default instead.
    auto clean = OpenRunner("sim", {});
    auto cv = AskDevice(*d, **clean);
    ASSERT_TRUE(cv.ok());
    EXPECT_EQ(std::find(cv->follows.begin(), cv->follows.end(), e.follows), cv->follows.end());
    EXPECT_EQ(cv->follows.size(), d->relevant.size()) << cv->summary;
  }
}

// A device that follows several non-default readings at once (rocjitsu's CDNA path on gfx950
// bf8 computes three) is judged on every combination, so each rule is named. The answers are
// the model's under that combination: this checks the judging, not the semantics.
TEST(Discriminate, SeveralNonDefaultReadingsAtOnce) {
  auto d = Discriminate(**FindTarget("gfx950"), Instr::v_cvt_sr_bf8_f32);
  ASSERT_TRUE(d.ok());
  Hypotheses cdna;
  for (const char* s : {"sr_rounding=exact_subnormal", "fp8_nan=sign_7f", "fp16_ovfl=saturate_all"}) {
    ASSERT_TRUE(SetHypothesis(s, &cdna).ok());
  }
  std::vector<uint32_t> answers;
  for (const Question& q : d->questions) answers.push_back(Answer(q, cdna));
  auto v = JudgeAnswers(*d, answers);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->explained);
  for (const char* s : {"sr_rounding=exact_subnormal", "fp8_nan=sign_7f", "fp16_ovfl=saturate_all",
                        "sr_seed=high", "sr_overflow=after_rounding"}) {
    EXPECT_NE(std::find(v->follows.begin(), v->follows.end(), s), v->follows.end())
        << s << ": " << v->summary;
  }
}

// A device whose answer on a NaN question is a byte no reading gives: that rule follows "none
// of the known readings", naming the lane; the other rules are still judged on their own lanes.
TEST(Discriminate, NoneOfTheKnownReadingsNamesTheLane) {
  auto d = Discriminate(**FindTarget("gfx950"), Instr::v_cvt_sr_bf8_f32);
  ASSERT_TRUE(d.ok());
  std::vector<uint32_t> answers;
  size_t nan_q = d->questions.size();
  for (size_t qi = 0; qi < d->questions.size(); ++qi) {
    answers.push_back(Answer(d->questions[qi], Hypotheses{}));
    const auto& r = d->questions[qi].rules;
    if (nan_q == d->questions.size() && r == std::vector<std::string>{"fp8_nan"}) nan_q = qi;
  }
  ASSERT_LT(nan_q, d->questions.size()) << "no question asks fp8_nan alone";
  answers[nan_q] = 0x00000011;  // no reading gives 0x11 for a NaN input
  auto v = JudgeAnswers(*d, answers);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->explained);
  ASSERT_EQ(v->none.size(), 1u) << v->summary;
  EXPECT_EQ(v->none[0], absl::StrCat("fp8_nan: none of the known readings (Q", nan_q + 1,
                                     ": device 0x00000011)"));
  EXPECT_NE(std::find(v->follows.begin(), v->follows.end(), "sr_rounding=carry_truncate"),
            v->follows.end())
      << v->summary;
  const std::string text = FormatDiscrimination(*d, &*v);
  EXPECT_NE(text.find("none of the known readings"), std::string::npos) << text;
}

}  // namespace
}  // namespace lanediff
