#include "fuzz/triage/discriminate.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "device_harness/open_runner.h"
#include "gtest/gtest.h"
#include "model/fp/fp8_format.h"
#include "device_harness/resolve_case.h"
#include "model/ops/ops.h"
#include "model/targets/pair_sample_test_util.h"

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
  std::vector<uint32_t> wa(OutputWords(instr, lanes.size())), wb(wa.size());
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

// The question's answer on lane 0 (the one it was chosen for) under `hyp` (every destination
// word of the lane: a VGPR pair's both), evaluated here (not read from Question::answers).
LaneAnswer Answer(const Question& q, const Hypotheses& hyp) {
  proto::TestCase one = q.testcase;
  one.clear_lanes();
  *one.add_lanes() = q.testcase.lanes(0);
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(one);
  EXPECT_TRUE(rc.ok()) << rc.status();
  rc->ctx.hyp = hyp;
  std::vector<uint32_t> w(OutputWords(rc->ctx.instr, 1));
  EXPECT_TRUE(Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(w)).ok());
  return MakeLaneAnswer(w);
}

// Coverage, computed from the hypothesis table: on every target, for every instruction it
// has, every two values of every rule (the others at their defaults) that the independent
// sample can tell apart are told apart by one of discriminate's questions; the pairs it
// cannot tell apart are exactly the ones discriminate reports inseparable. And no question is
// padding: each separates a pair no earlier question does.
//
// Each (target, instruction) costs about the same, so the default run takes a seeded sample of
// kPairsPerRun of them (model/targets/pair_sample_test_util.h: every target, as many rows as
// fit, a fresh sample each run unless LANEDIFF_TEST_SEED is set) and the `slow`-labelled
// fuzz_discriminate_all_pairs_test every one (LANEDIFF_TEST_PAIRS=all).
constexpr size_t kPairsPerRun = 12;
TEST(Discriminate, EveryPairOfReadingsOfEveryRuleOnEveryTarget) {
  int checked = 0, separable = 0;
  const std::vector<TargetInstr> sample =
      SamplePairs("EveryPairOfReadingsOfEveryRuleOnEveryTarget", kPairsPerRun);
  for (const TargetInstr& p : sample) {
    {
      const TargetTraits& t = *p.target;
      const Instr instr = p.instr;
      const Sample sample = MakeSample(t, instr);
      absl::StatusOr<Discrimination> d = Discriminate(t, instr);
      ASSERT_TRUE(d.ok()) << t.name << " " << InstrName(instr) << ": " << d.status();
      const std::string where = absl::StrCat(t.name, " ", InstrName(instr));
      const int separable_before = separable;
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
      // Every row with a relevant rule has two readings some input tells apart (pk_u8: its
      // rounding); a row no rule reaches (the gfx950 PRNG step, an integer op) has no pair.
      if (!d->pairs.empty()) {
        EXPECT_GT(separable, separable_before) << where << ": no pair of readings separable";
      }
      EXPECT_EQ(static_cast<size_t>(d->pairs_separated) + d->inseparable.size(), d->pairs.size())
          << where;
      for (size_t qi = 0; qi < d->questions.size(); ++qi) {
        const Question& q = d->questions[qi];
        // Lane 0 and up to kLanesPerQuestion - 1 siblings, each separating two values of a rule
        // the question asks (the others at their defaults).
        EXPECT_GE(q.testcase.lanes_size(), 1) << where;
        EXPECT_LE(q.testcase.lanes_size(), kLanesPerQuestion) << where;
        std::vector<bool> separates(q.testcase.lanes_size(), false);
        for (const std::string& rule : q.rules) {
          const HypothesisInfo* h = FindHypothesis(rule);
          for (size_t va = 0; va < h->values.size(); ++va) {
            for (size_t vb = va + 1; vb < h->values.size(); ++vb) {
              Hypotheses a, b;
              h->set(&a, static_cast<uint8_t>(va));
              h->set(&b, static_cast<uint8_t>(vb));
              auto la = ModelLanes(q.testcase, a), lb = ModelLanes(q.testcase, b);
              ASSERT_TRUE(la.ok() && lb.ok()) << where;
              for (size_t i = 0; i < separates.size(); ++i) {
                separates[i] = separates[i] || (*la)[i] != (*lb)[i];
              }
            }
          }
        }
        for (size_t lane = 1; lane < separates.size(); ++lane) {
          EXPECT_TRUE(separates[lane]) << where << " Q" << qi + 1 << " lane " << lane;
        }
        bool new_pair = false;
        for (const ReadingPair& p : d->pairs) new_pair |= p.question == static_cast<int>(qi);
        EXPECT_TRUE(new_pair || q.new_combination_pairs > 0)
            << where << " Q" << qi + 1 << " separates nothing new";
      }
    }
  }
  // Over every pair, many; a sample has at least one per pair (above).
  if (sample.size() == AllTargetInstrPairs().size()) {
    EXPECT_GT(separable, 40) << "of " << checked;
  }
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

// gfx1250's packed f16 -> fp8/bf8 rows: OPSEL[0] is asked (pk_f16_opsel0 relevant, its three
// readings told apart), and a simulator told another reading is named by it; the default one
// follows `ignored`.
TEST(Discriminate, NamesThePkF16Opsel0ReadingASimulatorFollows) {
  for (const char* row : {"v_cvt_pk_fp8_f16", "v_cvt_pk_bf8_f16"}) {
    SCOPED_TRACE(row);
    auto d = Discriminate(**FindTarget("gfx1250"), *ParseInstr(row));
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_NE(std::find(d->relevant.begin(), d->relevant.end(), "pk_f16_opsel0"),
              d->relevant.end());
    for (const char* reading : {"pk_f16_opsel0=ignored", "pk_f16_opsel0=high_half",
                                "pk_f16_opsel0=halves_swapped"}) {
      RunnerOptions ro;
      ro.hypotheses = {reading};
      auto runner = OpenRunner("sim", ro);
      ASSERT_TRUE(runner.ok()) << runner.status();
      auto v = AskDevice(*d, **runner);
      ASSERT_TRUE(v.ok()) << v.status();
      EXPECT_TRUE(v->explained) << reading << ": " << v->summary;
      EXPECT_NE(std::find(v->follows.begin(), v->follows.end(), reading), v->follows.end())
          << reading << ": " << v->summary;
    }
  }
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
  std::vector<LaneAnswer> answers;
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
  std::vector<LaneAnswer> answers;
  size_t nan_q = d->questions.size();
  for (size_t qi = 0; qi < d->questions.size(); ++qi) {
    answers.push_back(Answer(d->questions[qi], Hypotheses{}));
    const auto& r = d->questions[qi].rules;
    if (nan_q == d->questions.size() && r == std::vector<std::string>{"fp8_nan"}) nan_q = qi;
  }
  ASSERT_LT(nan_q, d->questions.size()) << "no question asks fp8_nan alone";
  answers[nan_q] = MakeLaneAnswer({0x00000011u});  // no reading gives 0x11 for a NaN input
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

// A VGPR-pair row (dst_bits 64): an answer is both words of the lane, VDST = cvt(low byte) and
// VDST+1 = cvt(high byte) of the 16-bit word the select reads (docs/semantics.md §10.1; e64:
// word 0). gfx942 decodes E4M3 FNUZ (§4: bias 8, 0x80 the only NaN, 0x7f/0xff = +-240,
// exponent field 0 subnormal).
//
// Hand derivation of the questions. fuzz/triage/discriminate.h: greedy, most pairs separated first,
// ties to the simplest candidate; groups CLAMP 0 then 1, each at MODE 0xf0, 0x8000f0, 0xf1,
// 0xf2, 0xf3, 0, 1, then (the row has GFX9 SDWA and OMOD) SDWA src0_sel 0..6 and OMOD 1..3 at
// MODE 0xf0; src0 the special floats of fuzz/engine/lane_gen.cc BuildSpecialF32 (their low words are
// 0x0000, 0x0001, 0xffff: no 0x80 byte), then b * 0x01010101 for b = 0..255, then single
// bytes and 0x48403830. Each rule has two readings: one pair each.
//  Q1 (fp8_to_f32_nan and fp8_sdwa_sel at once, the only two one lane can separate: the
//     others need MODE[6] = 0 or CLAMP, which the SDWA groups lack): the first NaN byte is
//     b = 0x80, src0 0x80808080, in SDWA src0_sel BYTE_0 (§10.5): the pseudocode reads the low
//     word (SEL[1:0] = 00 is not WORD1's 01): bytes 0x80, 0x80: sign_quiet {0xffc00000,
//     0xffc00000} (hypotheses.h lane "src0=0x80: 0xffc00000"), host_7f800001 {0x7f800001,
//     0x7f800001}; extract reads byte 0 and a zero byte: {0xffc00000, 0x00000000}: only
//     VDST+1 differs.
//  Q2 fp8_denorm_input (§10.4: flushes only with MODE[6] = 0; the first such group is CLAMP 0
//     MODE 0): specials 0x00000000, 0x80000000 hold zero bytes; 0x00000001 has byte 0x01,
//     subnormal: 1/8 * 2^(1-8) = 2^-10 = 0x3a800000, and 0x00 = +0. kept {0x3a800000, 0},
//     flush_f16_mode {0, 0}: only VDST differs.
//  Q3 fp8_to_f32_outmod (§10.5: CLAMP to [+0, 1.0]; group CLAMP 1 MODE 0xf0): 0, -0, 2^-10
//     and 0x80000001 (bytes 0x01 0x00 again) are inside [0, 1]; 0x007fffff has bytes 0xff 0xff
//     = -(1 + 7/8) * 2^(15-8) = -240 = 0xc3700000: applied {+0, +0}, ignored {0xc3700000,
//     0xc3700000}.
TEST(Discriminate, AVgprPairRowIsAskedBothWordsPerLane) {
  auto d = Discriminate(**FindTarget("gfx942"), *ParseInstr("v_cvt_pk_f32_fp8"));
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_EQ(DstWords(d->instr), 2);
  EXPECT_EQ(d->relevant, (std::vector<std::string>{"fp8_to_f32_nan", "fp8_denorm_input",
                                                   "fp8_to_f32_outmod", "fp8_sdwa_sel"}));
  struct Want {
    std::vector<std::string> rules;
    uint32_t src0, mode;
    bool clamp;
    int src0_sel;  // -1: not SDWA
    LaneAnswer by_default;
    std::map<std::string, LaneAnswer> by_reading;  // the readings that differ from the default
  };
  const std::vector<Want> want = {
      {{"fp8_to_f32_nan", "fp8_sdwa_sel"}, 0x80808080u, 0x000000f0u, false, 0,
       MakeLaneAnswer({0xffc00000u, 0xffc00000u}),
       {{"fp8_to_f32_nan=host_7f800001", MakeLaneAnswer({0x7f800001u, 0x7f800001u})},
        {"fp8_sdwa_sel=extract", MakeLaneAnswer({0xffc00000u, 0x00000000u})}}},
      {{"fp8_denorm_input"}, 0x00000001u, 0x00000000u, false, -1,
       MakeLaneAnswer({0x3a800000u, 0x00000000u}),
       {{"fp8_denorm_input=flush_f16_mode", MakeLaneAnswer({0x00000000u, 0x00000000u})}}},
      {{"fp8_to_f32_outmod"}, 0x007fffffu, 0x000000f0u, true, -1,
       MakeLaneAnswer({0x00000000u, 0x00000000u}),
       {{"fp8_to_f32_outmod=ignored", MakeLaneAnswer({0xc3700000u, 0xc3700000u})}}},
  };
  ASSERT_EQ(d->questions.size(), want.size());
  for (size_t qi = 0; qi < want.size(); ++qi) {
    const Want& w = want[qi];
    const Question& q = d->questions[qi];
    SCOPED_TRACE(absl::StrCat("Q", qi + 1));
    EXPECT_EQ(q.rules, w.rules);
    ASSERT_GE(q.testcase.lanes_size(), 1);
    EXPECT_EQ(q.testcase.lanes(0).src0(), w.src0);
    EXPECT_EQ(q.testcase.has_mode() ? q.testcase.mode() : kDefaultMode, w.mode);
    EXPECT_EQ(q.testcase.encoding().clamp(), w.clamp);
    EXPECT_EQ(q.testcase.encoding().form() == proto::FORM_SDWA, w.src0_sel >= 0);
    if (w.src0_sel >= 0) {
      EXPECT_EQ(q.testcase.encoding().src0_sel(), static_cast<uint32_t>(w.src0_sel));
    }
    for (size_t s = 0; s < d->readings.size(); ++s) {
      auto it = w.by_reading.find(d->reading_names[s]);
      const LaneAnswer& want_answer = it == w.by_reading.end() ? w.by_default : it->second;
      EXPECT_EQ(q.answers[s], want_answer) << d->reading_names[s] << ": "
                                           << FormatLaneAnswer(q.answers[s]);
    }
  }
  // Judged on both words. A device whose Q1 VDST+1 alone follows `extract` is named so.
  std::vector<LaneAnswer> answers = {want[0].by_reading.at("fp8_sdwa_sel=extract"),
                                     want[1].by_default, want[2].by_default};
  auto v = JudgeAnswers(*d, answers);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->explained) << v->summary;
  EXPECT_EQ(v->follows, (std::vector<std::string>{"fp8_denorm_input=kept",
                                                  "fp8_to_f32_outmod=applied",
                                                  "fp8_sdwa_sel=extract"}));
  // FNUZ's one NaN byte 0x80 has the sign bit: negative_quiet's 0xffc00000 is sign_quiet's
  // (hypotheses.h), so no question tells the two apart here; host_7f800001 is ruled out.
  EXPECT_EQ(v->undetermined,
            (std::vector<std::string>{"fp8_to_f32_nan: sign_quiet|negative_quiet"}));
  // A device right in VDST and wrong in VDST+1 (a word no combination gives there) follows none
  // of the known readings of the rules Q1 asks, naming both words.
  answers[0] = MakeLaneAnswer({0xffc00000u, 0x7f800001u});
  v = JudgeAnswers(*d, answers);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_FALSE(v->explained) << v->summary;
  EXPECT_EQ(v->none, (std::vector<std::string>{
                         "fp8_to_f32_nan: none of the known readings (Q1: device 0xffc00000 "
                         "0x7f800001)",
                         "fp8_sdwa_sel: none of the known readings (Q1: device 0xffc00000 "
                         "0x7f800001)"}));
  EXPECT_EQ(v->follows, (std::vector<std::string>{"fp8_denorm_input=kept",
                                                  "fp8_to_f32_outmod=applied"}));
  // One word per answer is refused for a pair row.
  answers[1] = MakeLaneAnswer({0x3a800000u});
  EXPECT_EQ(JudgeAnswers(*d, answers).status().code(), absl::StatusCode::kInvalidArgument);
}

// A simulator that follows one reading of a decode rule (RunnerOptions::hypotheses: the
// simulated model's, device_harness/open_runner.h) is named by its answers to a VGPR-pair
// row's questions, on each target with a pair row; the default simulator follows the defaults.
// A simulator with `errata` planted.
RunnerOptions Planted(std::vector<std::string> errata) {
  RunnerOptions o;
  o.inject = std::move(errata);
  return o;
}

// Is `value` of `rule` one the questions cannot tell from another value here?
bool InseparableHere(const Discrimination& d, const std::string& rule, const std::string& value) {
  for (const std::string& s : d.inseparable) {
    if (absl::StartsWith(s, rule + ": ") &&
        (absl::StrContains(s, " " + value + " ") || absl::EndsWith(s, " " + value))) {
      return true;
    }
  }
  return false;
}

// Does the verdict leave `rule` open between values one of which is `value`?
bool Undetermined(const DeviceVerdict& v, const std::string& rule, const std::string& value) {
  for (const std::string& u : v.undetermined) {
    if (!absl::StartsWith(u, rule + ": ")) continue;
    for (absl::string_view x : absl::StrSplit(u.substr(rule.size() + 2), '|')) {
      if (x == value) return true;
    }
  }
  return false;
}

TEST(Discriminate, NamesTheReadingASimulatedPairWriterFollows) {
  int checked = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr) || DstWords(instr) != 2) continue;
      // gfx1250's 8-wide SR encoders on gfx1250 only: gfx1251 runs the same op file, and each
      // target costs about 18 s user here.
      const InstrInfo& row = GetInstrInfo(instr);
      if (t.name == "gfx1251" && row.src[1] == SrcRole::sr_seed && row.src_dwords(0) > 2) continue;
      auto d = Discriminate(t, instr);
      ASSERT_TRUE(d.ok()) << d.status();
      for (const std::string& name : d->relevant) {
        const HypothesisInfo* h = FindHypothesis(name);
        for (size_t v = 1; v < h->values.size(); ++v) {
          const std::string reading = absl::StrCat(name, "=", h->values[v].name);
          SCOPED_TRACE(absl::StrCat(t.name, " ", InstrName(instr), " ", reading));
          RunnerOptions ro;
          ro.hypotheses = {reading};
          auto runner = OpenRunner("sim", ro);
          ASSERT_TRUE(runner.ok()) << runner.status();
          auto verdict = AskDevice(*d, **runner);
          ASSERT_TRUE(verdict.ok()) << verdict.status();
          EXPECT_TRUE(verdict->explained) << verdict->summary;
          EXPECT_TRUE(verdict->spec.empty()) << verdict->summary;
          if (InseparableHere(*d, name, std::string(h->values[v].name))) {
            // FNUZ: negative_quiet decodes the one NaN byte 0x80 as sign_quiet does.
            EXPECT_TRUE(Undetermined(*verdict, name, std::string(h->values[v].name))) << verdict->summary;
          } else {
            EXPECT_NE(std::find(verdict->follows.begin(), verdict->follows.end(), reading),
                      verdict->follows.end())
                << verdict->summary;
          }
          ++checked;
        }
      }
      auto clean = OpenRunner("sim", {});
      ASSERT_TRUE(clean.ok());
      auto cv = AskDevice(*d, **clean);
      ASSERT_TRUE(cv.ok()) << cv.status();
      EXPECT_EQ(cv->follows.size() + cv->undetermined.size(), d->relevant.size()) << cv->summary;
      EXPECT_TRUE(cv->spec.empty() && cv->none.empty()) << cv->summary;
    }
  }
  // gfx942 and gfx950, two rows each, four rules (fp8_to_f32_nan: three readings,
  // fp8_denorm_input, fp8_to_f32_outmod, fp8_sdwa_sel: two each): 5 non-default readings per
  // row, 20; gfx1200, gfx1201, gfx1250 and gfx1251 (the rows' gfx12/gfx1250 opcodes), two rows
  // each, three rules (fp8_to_f32_nan, fp8_denorm_input, and src16_constant, asked through
  // inline constants in the 16-bit SRC0 with op_sel:[1,0]; no SDWA, and LLVM refuses OMOD/CLAMP
  // there, model/instrs.def): 4 per row, 32; gfx950's two scaled pair decodes (dst_bits 64, S1
  // a scale): fp8_to_f32_nan (2), mx_scale_read (1), mx_scale_zero (1), mx_scale_nan (2),
  // mx_up_overflow (1), mx_denorm_out (1): 8 per row, 16; gfx950's scaled FP4 pair decode
  // (FP4 has no NaN to decode: no fp8_to_f32_nan): the five mx_ rules, 6. gfx1250's and
  // gfx1251's 8-wide fp8/bf8 encoders (a VGPR pair from a tuple, S1 a scale): fp8_nan (2),
  // mx_scale_read (1), mx_scale_zero (1), mx_scale_nan (2), mx_down_scale (1), mx_fp8_overflow or
  // mx_bf8_overflow (1), mx_denorm_in (1): 9 on the two f32 rows, and mx_pk16_neg (2) more on
  // the four 16-bit rows: 62 per target, 124. Their SR twins (a seed S1, the scale S2) read
  // those rules and mx_sr_round (1) and mx_sr_seed_step (1): 11 on the two f32 rows, 13 on the
  // four 16-bit rows, 74 on gfx1250 (asked there only).
  EXPECT_EQ(checked, 74 + 124 + 74);
}

// The rule's question is asked on every NaN byte of both signs: on gfx1201 (OCP E4M3, NaN
// bytes 0x7f and 0xff, docs/semantics.md §4) the questions that ask fp8_to_f32_nan hold lanes
// whose selected byte is 0x7f and lanes whose byte is 0xff. A simulator that decodes every NaN
// to 0xffc00000 (erratum nan_decode_negative) is named negative_quiet: byte 0xff alone gives
// 0xffc00000 under sign_quiet too (sign|0x7fc00000 with the sign set), byte 0x7f tells them
// apart (sign_quiet 0x7fc00000, negative_quiet 0xffc00000).
TEST(Discriminate, NanDecodeAskedOnBothSignsNamesNegativeQuiet) {
  auto d = Discriminate(**FindTarget("gfx1201"), *ParseInstr("v_cvt_f32_fp8"));
  ASSERT_TRUE(d.ok()) << d.status();
  std::set<uint32_t> nan_bytes;
  for (const Question& q : d->questions) {
    if (std::find(q.rules.begin(), q.rules.end(), "fp8_to_f32_nan") == q.rules.end()) continue;
    for (const proto::Lane& l : q.testcase.lanes()) {
      // Every byte of these lanes is the same (b * 0x01010101) or only one is set.
      const uint32_t b = l.src0() & 0xffu;
      if ((b & 0x7fu) == 0x7fu && l.src0() == b * 0x01010101u) nan_bytes.insert(b);
    }
  }
  EXPECT_EQ(nan_bytes, (std::set<uint32_t>{0x7fu, 0xffu}));
  auto sim = OpenRunner("sim", Planted({"nan_decode_negative"}));
  ASSERT_TRUE(sim.ok()) << sim.status();
  auto v = AskDevice(*d, **sim);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->explained) << v->summary;
  EXPECT_NE(std::find(v->follows.begin(), v->follows.end(), "fp8_to_f32_nan=negative_quiet"),
            v->follows.end())
      << v->summary;
  EXPECT_EQ(std::find(v->follows.begin(), v->follows.end(), "fp8_to_f32_nan=sign_quiet"),
            v->follows.end())
      << v->summary;
}

// A decode no reading gives (erratum nan_decode_payload: every NaN byte to 0x7fffffff; the
// readings give sign|0x7fc00000, 0x7f800001 or 0xffc00000): "none of the known readings" for
// fp8_to_f32_nan, with a lane, on an OCP target and a FNUZ one, one-byte and pair rows.
TEST(Discriminate, NanDecodeNoReadingHasIsNoneOfTheKnownReadings) {
  for (const char* target : {"gfx1201", "gfx942"}) {
    for (const char* instr : {"v_cvt_f32_fp8", "v_cvt_pk_f32_bf8"}) {
      SCOPED_TRACE(absl::StrCat(target, " ", instr));
      auto d = Discriminate(**FindTarget(target), *ParseInstr(instr));
      ASSERT_TRUE(d.ok()) << d.status();
      auto sim = OpenRunner("sim", Planted({"nan_decode_payload"}));
      ASSERT_TRUE(sim.ok()) << sim.status();
      auto v = AskDevice(*d, **sim);
      ASSERT_TRUE(v.ok()) << v.status();
      EXPECT_FALSE(v->explained) << v->summary;
      bool named = false;
      for (const std::string& n : v->none) {
        named = named || absl::StartsWith(n, "fp8_to_f32_nan: none of the known readings (");
      }
      EXPECT_TRUE(named) << v->summary;
      EXPECT_NE(v->summary.find("0x7fffffff"), std::string::npos) << v->summary;
      bool lane = false;
      for (const RuleFinding& f : v->findings) {
        lane = lane || (f.rule == "fp8_to_f32_nan" && f.kind == RuleFinding::Kind::none &&
                        f.lane.lanes_size() == 1 &&
                        (f.device.word[0] == 0x7fffffffu || f.device.word[1] == 0x7fffffffu));
      }
      EXPECT_TRUE(lane) << v->summary;
    }
  }
}

// The fields the spec states clearly. v_cvt_pk_fp8_f32 writes the 16-bit half OPSEL[3]
// selects (docs/semantics.md §10.1); the simulator erratum half_swap inverts OPSEL[3], so the
// check with OPSEL[3] = 1 gets the words the model gives with OPSEL = 0: "acts as if
// OPSEL=0b0000", and the check with OPSEL = 0 those of OPSEL[3] = 1. The default simulator passes every check, and the checks include NEG[0] and
// ABS[0] (v_cvt_pk_fp8_f32 negates and takes |x| of S0, model/instrs.def neg_abs_srcs).
TEST(Discriminate, SpecChecksNameAFieldDecodedWrong) {
  auto d = Discriminate(**FindTarget("gfx950"), *ParseInstr("v_cvt_pk_fp8_f32"));
  ASSERT_TRUE(d.ok()) << d.status();
  std::set<std::string> fields;
  for (const SpecCheck& c : d->checks) fields.insert(c.field);
  for (const char* f : {"NEG[0]", "ABS[0]", "NEG[1]", "ABS[1]", "OPSEL=0b0000", "OPSEL=0b1000"}) {
    EXPECT_EQ(fields.count(f), 1u) << f;
  }
  auto clean = OpenRunner("sim", {});
  ASSERT_TRUE(clean.ok());
  auto cv = AskDevice(*d, **clean);
  ASSERT_TRUE(cv.ok()) << cv.status();
  EXPECT_TRUE(cv->spec.empty()) << cv->summary;
  auto sim = OpenRunner("sim", Planted({"half_swap"}));
  ASSERT_TRUE(sim.ok());
  auto v = AskDevice(*d, **sim);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_NE(std::find(v->spec.begin(), v->spec.end(), "OPSEL=0b1000: acts as if OPSEL=0b0000"),
            v->spec.end())
      << v->summary;
  // And the plain word (OPSEL = 0, the low half) is checked too: it writes the high half.
  EXPECT_NE(std::find(v->spec.begin(), v->spec.end(), "OPSEL=0b0000: acts as if OPSEL=0b1000"),
            v->spec.end())
      << v->summary;
  EXPECT_NE(v->summary.find("differs where the spec is clear: "), std::string::npos);
  // That one decoding fault is not also every rule's: the rules are judged as if every word
  // with OPSEL 0 had OPSEL[3] set, and follow their defaults; NEG and ABS pass likewise.
  EXPECT_TRUE(v->explained) << v->summary;
  EXPECT_TRUE(v->none.empty()) << v->summary;
  EXPECT_EQ(v->follows.size(), d->relevant.size()) << v->summary;
  for (const std::string& s : v->spec) EXPECT_EQ(s.rfind("OPSEL=", 0), 0u) << s;
}

}  // namespace
}  // namespace lanediff
