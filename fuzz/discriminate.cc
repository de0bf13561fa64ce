#include "fuzz/discriminate.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/batch.h"
#include "fuzz/mutator.h"
#include "model/base/status.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// One encoding (CLAMP, MODE) with many candidate lanes.
struct Group {
  proto::TestCase tc;
};

std::string SettingName(const Hypotheses& h, const std::vector<std::string>& relevant) {
  std::vector<std::string> parts;
  for (const std::string& s : NonDefaultHypothesisSettings(h)) {
    for (const std::string& r : relevant) {
      if (s.rfind(r + "=", 0) == 0) parts.push_back(s);
    }
  }
  return parts.empty() ? "default" : absl::StrJoin(parts, ",");
}

}  // namespace

absl::StatusOr<Discrimination> Discriminate(const TargetTraits& target, Instr instr) {
  if (!target.Has(instr)) {
    return absl::InvalidArgumentError(
        absl::StrCat(target.name, " has no ", InstrName(instr)));
  }
  Discrimination d;
  d.target = std::string(target.name);
  d.instr = instr;
  // The formats the written byte can take: one per CLAMP value where CLAMP changes it (gfx1250
  // fp8: UE5M3), read from the model (Fp8OutputShape), never from instruction names.
  OpContext ctx;
  ctx.target = &target;
  ctx.instr = instr;
  std::vector<bool> clamps = {false};
  std::vector<Fp8Shape> shapes;
  if (std::optional<Fp8Shape> plain = Fp8OutputShape(ctx)) {
    shapes.push_back(*plain);
    ctx.mods.clamp = true;
    const std::optional<Fp8Shape> clamped = Fp8OutputShape(ctx);
    if (clamped && clamped->format != plain->format) {
      shapes.push_back(*clamped);
      clamps.push_back(true);
    }
  }
  // Candidate values, simplest first.
  std::vector<uint32_t> src0 = SpecialF32Values();
  if (shapes.empty()) {
    for (uint32_t v : U8BoundaryValues()) src0.push_back(v);
  }
  for (const Fp8Shape& shape : shapes) {
    for (uint32_t v : Fp8BoundaryValues(shape.format->id)) src0.push_back(v);
  }
  std::vector<uint32_t> src1 = {0};
  if (!shapes.empty()) src1 = SeedValues(static_cast<int>(shapes[0].seed_shift));
  const std::vector<uint32_t> modes = {0x000000f0, 0x008000f0, 0x000000f1, 0x000000f2,
                                       0x000000f3, 0x00000000, 0x00000001};
  std::vector<Group> groups;
  for (bool clamp : clamps) {
    for (uint32_t mode : modes) {
      Group g;
      g.tc.set_target(d.target);
      g.tc.set_instr(InstrToProto(instr));
      if (clamp) g.tc.mutable_encoding()->set_clamp(true);
      if (mode != kDefaultMode) g.tc.set_mode(mode);
      for (uint32_t s1 : src1) {
        for (uint32_t s0 : src0) {
          proto::Lane* l = g.tc.add_lanes();
          l->set_src0(s0);
          l->set_src1(s1);
        }
      }
      groups.push_back(std::move(g));
    }
  }
  // Relevant hypotheses: an alternative value changes some answer.
  const auto all = AllHypotheses();
  std::vector<const HypothesisInfo*> relevant;
  std::vector<ResolvedCase> resolved;
  for (const Group& g : groups) {
    LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(g.tc));
    resolved.push_back(std::move(rc));
  }
  for (const HypothesisInfo& h : all) {
    bool matters = false;
    for (size_t gi = 0; gi < groups.size() && !matters; ++gi) {
      ResolvedCase& rc = resolved[gi];
      std::vector<uint32_t> a(rc.lanes.size()), b(rc.lanes.size());
      OpContext ctx = rc.ctx;
      ctx.hyp = Hypotheses{};
      LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(a)));
      for (size_t v = 1; v < h.values.size() && !matters; ++v) {
        h.set(&ctx.hyp, static_cast<uint8_t>(v));
        LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(b)));
        matters = a != b;
      }
    }
    if (matters) {
      relevant.push_back(&h);
      d.relevant.emplace_back(h.name);
    }
  }
  // Settings: the product of the relevant hypotheses' values.
  d.settings.push_back(Hypotheses{});
  for (const HypothesisInfo* h : relevant) {
    std::vector<Hypotheses> next;
    for (const Hypotheses& s : d.settings) {
      for (size_t v = 0; v < h->values.size(); ++v) {
        Hypotheses t = s;
        h->set(&t, static_cast<uint8_t>(v));
        next.push_back(t);
      }
    }
    d.settings = std::move(next);
  }
  for (const Hypotheses& s : d.settings) d.setting_names.push_back(SettingName(s, d.relevant));
  const size_t ns = d.settings.size();
  d.pairs = static_cast<int>(ns * (ns - 1) / 2);
  if (ns < 2) return d;
  // Answers of every candidate under every setting; candidates deduplicated by their answer
  // pattern's pair partition (the first, simplest, candidate of each pattern is kept).
  struct Cand {
    int group;
    int lane;
    std::vector<uint32_t> answers;
  };
  std::vector<Cand> cands;
  std::map<std::vector<uint32_t>, bool> seen_pattern;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    ResolvedCase& rc = resolved[gi];
    const size_t n = rc.lanes.size();
    std::vector<std::vector<uint32_t>> out(ns, std::vector<uint32_t>(n));
    for (size_t s = 0; s < ns; ++s) {
      OpContext ctx = rc.ctx;
      ctx.hyp = d.settings[s];
      LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(out[s])));
    }
    for (size_t i = 0; i < n; ++i) {
      std::vector<uint32_t> ans(ns);
      bool differs = false;
      for (size_t s = 0; s < ns; ++s) {
        ans[s] = out[s][i];
        differs |= ans[s] != ans[0];
      }
      if (!differs) continue;
      // Canonical pattern: answers renumbered by first appearance.
      std::vector<uint32_t> pattern(ns);
      std::map<uint32_t, uint32_t> ids;
      for (size_t s = 0; s < ns; ++s) {
        auto it = ids.emplace(ans[s], static_cast<uint32_t>(ids.size())).first;
        pattern[s] = it->second;
      }
      if (!seen_pattern.emplace(pattern, true).second) continue;
      cands.push_back({static_cast<int>(gi), static_cast<int>(i), std::move(ans)});
    }
  }
  // Greedy set cover over the pairs.
  std::vector<std::vector<bool>> separated(ns, std::vector<bool>(ns, false));
  for (;;) {
    int best = -1, best_gain = 0;
    for (size_t c = 0; c < cands.size(); ++c) {
      int gain = 0;
      for (size_t a = 0; a < ns; ++a) {
        for (size_t b = a + 1; b < ns; ++b) {
          if (!separated[a][b] && cands[c].answers[a] != cands[c].answers[b]) ++gain;
        }
      }
      if (gain > best_gain) {
        best_gain = gain;
        best = static_cast<int>(c);
      }
    }
    if (best < 0) break;
    const Cand& c = cands[best];
    for (size_t a = 0; a < ns; ++a) {
      for (size_t b = a + 1; b < ns; ++b) {
        if (c.answers[a] != c.answers[b]) separated[a][b] = true;
      }
    }
    d.pairs_separated += best_gain;
    Question q;
    q.testcase = groups[c.group].tc;
    q.testcase.clear_lanes();
    *q.testcase.add_lanes() = groups[c.group].tc.lanes(c.lane);
    q.answers = c.answers;
    q.assembly = PrintVop3(target, resolved[c.group].vop3);
    d.questions.push_back(std::move(q));
  }
  for (size_t a = 0; a < ns; ++a) {
    for (size_t b = a + 1; b < ns; ++b) {
      if (!separated[a][b]) {
        d.inseparable.push_back(absl::StrCat(d.setting_names[a], " == ", d.setting_names[b]));
      }
    }
  }
  return d;
}

absl::StatusOr<DeviceVerdict> AskDevice(const Discrimination& d, Runner& runner) {
  DeviceVerdict v;
  const size_t ns = d.settings.size();
  v.all_consistent.assign(ns, true);
  for (size_t qi = 0; qi < d.questions.size(); ++qi) {
    const Question& q = d.questions[qi];
    LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch batch, BuildDeviceBatch(q.testcase));
    absl::StatusOr<DeviceResult> r = runner.Run(batch);
    if (!r.ok()) {
      return absl::Status(r.status().code(), absl::StrCat("question ", qi + 1, ": ",
                                                          r.status().message()));
    }
    if (r->vdst.size() != 1) {
      return absl::InternalError(absl::StrCat("question ", qi + 1, ": device returned ",
                                              r->vdst.size(), " words for one lane"));
    }
    v.device_answers.push_back(r->vdst[0]);
    std::vector<bool> cons(ns);
    for (size_t s = 0; s < ns; ++s) {
      cons[s] = q.answers[s] == r->vdst[0];
      v.all_consistent[s] = v.all_consistent[s] && cons[s];
    }
    v.consistent.push_back(std::move(cons));
  }
  // Per relevant hypothesis: the values held by every consistent setting.
  const auto all = AllHypotheses();
  int consistent_count = 0;
  for (size_t s = 0; s < ns; ++s) consistent_count += v.all_consistent[s];
  if (consistent_count == 0) {
    v.summary = "the device matches no setting of the relevant hypotheses: a behaviour the "
                "model does not offer (see the per-question answers)";
    return v;
  }
  for (const std::string& name : d.relevant) {
    const HypothesisInfo* h = nullptr;
    for (const HypothesisInfo& x : all) {
      if (x.name == name) h = &x;
    }
    std::vector<bool> values(h->values.size(), false);
    for (size_t s = 0; s < ns; ++s) {
      if (v.all_consistent[s]) values[h->get(d.settings[s])] = true;
    }
    if (std::count(values.begin(), values.end(), true) == 1) {
      const size_t val = std::find(values.begin(), values.end(), true) - values.begin();
      v.follows.push_back(absl::StrCat(name, "=", h->values[val].name));
    }
  }
  v.summary = absl::StrCat("the device follows: ",
                           v.follows.empty() ? "(undetermined)" : absl::StrJoin(v.follows, " "));
  return v;
}

std::string FormatDiscrimination(const Discrimination& d, const DeviceVerdict* verdict) {
  std::string out = absl::StrFormat("%s %s: %zu relevant hypotheses (%s), %zu settings, %d pairs\n",
                                    d.target, InstrName(d.instr), d.relevant.size(),
                                    absl::StrJoin(d.relevant, ", "), d.settings.size(), d.pairs);
  absl::StrAppendFormat(&out, "%zu questions separate %d of %d pairs\n", d.questions.size(),
                        d.pairs_separated, d.pairs);
  for (size_t qi = 0; qi < d.questions.size(); ++qi) {
    const Question& q = d.questions[qi];
    const proto::Lane& l = q.testcase.lanes(0);
    absl::StrAppendFormat(&out, "\nQ%zu  %s   src0=0x%08x src1=0x%08x MODE=0x%08x\n", qi + 1,
                          q.assembly, l.src0(), l.src1(),
                          q.testcase.has_mode() ? q.testcase.mode() : kDefaultMode);
    std::map<uint32_t, std::vector<std::string>> by_answer;
    for (size_t s = 0; s < d.settings.size(); ++s) {
      by_answer[q.answers[s]].push_back(d.setting_names[s]);
    }
    for (const auto& [word, names] : by_answer) {
      absl::StrAppendFormat(&out, "    0x%08x  %s%s\n", word, absl::StrJoin(names, " | "),
                            verdict != nullptr && verdict->device_answers[qi] == word
                                ? "   <- device"
                                : "");
    }
    if (verdict != nullptr && by_answer.count(verdict->device_answers[qi]) == 0) {
      absl::StrAppendFormat(&out, "    0x%08x  (no setting)   <- device\n",
                            verdict->device_answers[qi]);
    }
  }
  for (const std::string& s : d.inseparable) {
    absl::StrAppendFormat(&out, "\nno input separates: %s\n", s);
  }
  if (verdict != nullptr) absl::StrAppendFormat(&out, "\n%s\n", verdict->summary);
  return out;
}

}  // namespace lanediff
