#include "fuzz/triage/lane_causes.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/triage/attribution.h"
#include "model/base/lanes.h"
#include "model/base/status.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// The MODE fields a field setting may name (docs/semantics.md §7).
struct ModeField {
  absl::string_view name;
  uint32_t mask;
  int shift;
};
constexpr ModeField kModeFields[] = {
    {"mode.round_f32", 0x3u, 0},         {"mode.round_f16", 0xcu, 2},
    {"mode.denorm_f32", 0x30u, 4},       {"mode.denorm_f16", 0xc0u, 6},
    {"mode.dx10_clamp", 0x100u, 8},      {"mode.ieee", 0x200u, 9},
    {"mode.fp16_ovfl", kModeFp16OvflBit, 23},
};

// The OPSEL bits that select a source byte or word, or a destination byte or half: their
// other values are the classes source_byte_moved and byte_moved, not field settings.
uint8_t SelectBits(const InstrInfo& info, Family family) {
  uint8_t bits = 0;
  switch (info.opsel_syntax[static_cast<int>(family)]) {
    case OpSelSyntax::byte_sel_src: bits |= 0b0011; break;
    case OpSelSyntax::op_sel_dst_byte_sel: bits |= 0b0011; break;  // the one-byte f16 decodes
    // the source word (the packed decodes; gfx1250's packed f16 encoders read no OPSEL[0])
    case OpSelSyntax::op_sel_word_src: bits |= info.opsel_bits & 0b0001; break;
    case OpSelSyntax::op_sel_byte_sel: bits |= 0b0001; break;  // S0's half (the f16 SR rows)
    case OpSelSyntax::scale_sel: bits |= 0b1111; break;  // the scale byte (gfx1250 shape U)
    // op_sel:[a,b,d] on a reader of 8-bit codes (the gfx950 scaled decodes): OPSEL[1:0] picks
    // the source byte, or OPSEL[0] the word (as attribution.cc OtherByteSelects reads it).
    case OpSelSyntax::op_sel_dst3:
      if (info.src[0] == SrcRole::fp8_bytes) bits |= info.opsel_bits & 0b0011;
      break;
    default: break;
  }
  if (info.write == DstWrite::byte_at_opsel_3_2) bits |= 0b1100;
  if (info.write == DstWrite::half_at_opsel_3) bits |= 0b1000;
  return bits;
}

std::string Field(absl::string_view field, uint32_t value) {
  return absl::StrCat(kActsAsIf, field, "=", value);
}

// A candidate cause: settings of one rule that give the same words on every lane of the batch.
struct Candidate {
  std::string rule;
  std::vector<std::string> settings;
  std::vector<uint32_t> out;    // the model's words under it
  std::vector<bool> explains;   // per lane: out matches observed
  std::vector<size_t> lanes;    // the value lanes it explains
  bool admissible = false;      // changes no agreeing lane (or only Rescued ones)
  bool noop = false;            // changes no word of the batch alone (a pair's partner only)
};

// Lanes [0, n) of `v` whose words in `out` match `observed` (DifferingLanes' complement).
std::vector<bool> Matches(const OpContext& ctx, const LaneView& v, absl::Span<const uint32_t> out,
                          absl::Span<const uint32_t> observed, const Relaxations& relax) {
  std::vector<bool> m(v.size, true);
  for (size_t i : DifferingLanes(ctx, v, out, observed, relax)) m[i] = false;
  return m;
}

// Lanes [0, n) of `v` that `lanes` lists, as a sub-batch, with their observed words.
struct SubBatch {
  LaneBatch lanes;
  std::vector<uint32_t> observed;
};
SubBatch Sub(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
             const std::vector<size_t>& lanes) {
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  const LaneView v = rc.lanes.view();
  SubBatch sb;
  sb.lanes.SetShape(v.shape);
  for (size_t i : lanes) {
    sb.lanes.AddLaneOf(v, i);
    for (size_t k = 0; k < w; ++k) sb.observed.push_back(observed[i * w + k]);
  }
  return sb;
}

absl::StatusOr<std::vector<bool>> PairMatches(const ResolvedCase& rc, const LaneBatch& sub,
                                              absl::Span<const uint32_t> sub_observed,
                                              const std::string& a, const std::string& b,
                                              const Relaxations& relax);

// Whether candidate `c`, which changes the agreeing lanes `broken`, still holds: every one of
// them is the device's word under c plus one other relevant setting of another rule (two
// deviations that cancel on that lane, e.g. NEG ignored and truncation on a small positive
// u8 input). Only for a few broken lanes (at most a quarter of the value lanes c explains, or
// 2): a wrong reading breaks many.
// A confirmed setting (`known`, the campaign's for this target and instruction) forgives any
// number of lanes: the device is known to follow it, so c with it is c as the device shows it
// (NEG ignored on a batch of small positive pk_u8 inputs, truncation confirmed).
bool Rescued(const ResolvedCase& rc, absl::Span<const uint32_t> observed, const Relaxations& relax,
             const Candidate& c, const std::vector<size_t>& broken,
             const std::vector<Candidate>& relevant, absl::Span<const std::string> known) {
  const SubBatch sb = Sub(rc, observed, broken);
  std::vector<bool> held(broken.size(), false);
  for (const std::string& k : known) {
    if (RuleOf(k) == c.rule) continue;
    absl::StatusOr<std::vector<bool>> m =
        PairMatches(rc, sb.lanes, sb.observed, c.settings[0], k, relax);
    if (!m.ok()) continue;
    for (size_t i = 0; i < held.size(); ++i) held[i] = held[i] || (*m)[i];
    if (std::all_of(held.begin(), held.end(), [](bool h) { return h; })) return true;
  }
  std::fill(held.begin(), held.end(), false);
  if (broken.size() > std::max<size_t>(2, c.lanes.size() / 4)) return false;
  for (const Candidate& d : relevant) {
    if (d.rule == c.rule) continue;
    absl::StatusOr<std::vector<bool>> m =
        PairMatches(rc, sb.lanes, sb.observed, c.settings[0], d.settings[0], relax);
    if (!m.ok()) continue;
    for (size_t k = 0; k < held.size(); ++k) held[k] = held[k] || (*m)[k];
    if (std::all_of(held.begin(), held.end(), [](bool h) { return h; })) return true;
  }
  return false;
}

// Every single setting (hypotheses in AllHypotheses order, then FieldSettings) that changes
// the model's words somewhere (`relevant`, with per-lane matches; `admissible` set for those
// that change no agreeing lane, or only lanes Rescued). The candidates returned explain a
// value lane and are admissible; settings of one rule with equal words are joined.
absl::StatusOr<std::vector<Candidate>> Singles(
    const ResolvedCase& rc, absl::Span<const uint32_t> expected,
    absl::Span<const uint32_t> observed, const Relaxations& relax,
    const std::vector<size_t>& value_lanes, const std::vector<bool>& agreeing,
    absl::Span<const std::string> refuted, absl::Span<const std::string> known,
    std::vector<Candidate>* relevant) {
  const std::vector<std::string> settings = SingleSettings(rc.ctx);
  const LaneView v = rc.lanes.view();
  for (const std::string& s : settings) {
    if (std::find(refuted.begin(), refuted.end(), s) != refuted.end()) continue;
    OpContext ctx = rc.ctx;
    if (!ApplySetting(s, &ctx).ok()) continue;
    Candidate c{RuleOf(s), {s}, std::vector<uint32_t>(expected.size()), {}, {}, false};
    // A context the model refuses (a field value the row cannot hold) explains nothing.
    if (!Evaluate(ctx, v, absl::MakeSpan(c.out)).ok()) continue;
    if (absl::MakeConstSpan(c.out) == expected) continue;  // changes nothing on this batch
    c.explains = Matches(ctx, v, c.out, observed, relax);
    for (size_t i : value_lanes) {
      if (c.explains[i]) c.lanes.push_back(i);
    }
    relevant->push_back(std::move(c));
  }
  std::vector<Candidate> out;
  for (Candidate& c : *relevant) {
    std::vector<size_t> broken;
    for (size_t i = 0; i < v.size; ++i) {
      if (agreeing[i] && !c.explains[i]) broken.push_back(i);
    }
    c.admissible = broken.empty() || Rescued(rc, observed, relax, c, broken, *relevant, known);
    if (!c.admissible || c.lanes.empty()) continue;
    auto same = std::find_if(out.begin(), out.end(), [&](const Candidate& o) {
      return o.rule == c.rule && o.out == c.out;
    });
    if (same != out.end()) {
      same->settings.push_back(c.settings[0]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// Whether a cause in `causes` names another value of `setting`'s rule: a device follows one
// reading of a rule, so a batch names at most one (or one set of equivalent readings) per rule.
bool RuleTakenOtherwise(const std::string& setting, const std::vector<Cause>& causes) {
  const std::string rule = RuleOf(setting);
  return std::any_of(causes.begin(), causes.end(), [&](const Cause& c) {
    return !c.settings.empty() && RuleOf(c.settings[0]) == rule &&
           std::find(c.settings.begin(), c.settings.end(), setting) == c.settings.end();
  });
}

// Greedy set cover of `left` (ascending) by `cands`: the candidate explaining most lanes of
// `left` first (ties: the earlier candidate); each lane goes to the first chosen candidate that
// explains it. One reading per rule: a candidate whose rule a cause in `causes` names with
// another value, or whose rule a chosen candidate has, is passed over. Returns the chosen
// candidates' indices with their lanes; `left` keeps the rest.
std::vector<std::pair<size_t, std::vector<size_t>>> GreedyCover(
    const std::vector<Candidate>& cands, const std::vector<Cause>& causes,
    std::vector<size_t>* left) {
  std::vector<std::pair<size_t, std::vector<size_t>>> chosen;
  std::vector<bool> off(cands.size(), false);
  for (size_t k = 0; k < cands.size(); ++k) off[k] = RuleTakenOtherwise(cands[k].settings[0], causes);
  for (;;) {
    size_t best = cands.size(), best_n = 0;
    for (size_t k = 0; k < cands.size(); ++k) {
      if (off[k]) continue;
      size_t n = 0;
      for (size_t i : *left) n += cands[k].explains[i] ? 1 : 0;
      if (n > best_n) best = k, best_n = n;
    }
    if (best == cands.size()) return chosen;
    for (size_t k = 0; k < cands.size(); ++k) off[k] = off[k] || cands[k].rule == cands[best].rule;
    std::vector<size_t> taken, rest;
    for (size_t i : *left) (cands[best].explains[i] ? taken : rest).push_back(i);
    chosen.emplace_back(best, std::move(taken));
    *left = std::move(rest);
  }
}

// The model under two settings of different rules, on the lanes in `left` only (a sub-batch:
// the lanes singles left unexplained): per lane of `left`, whether it matches observed.
absl::StatusOr<std::vector<bool>> PairMatches(const ResolvedCase& rc, const LaneBatch& sub,
                                              absl::Span<const uint32_t> sub_observed,
                                              const std::string& a, const std::string& b,
                                              const Relaxations& relax) {
  OpContext ctx = rc.ctx;
  LANEDIFF_RETURN_IF_ERROR(ApplySetting(a, &ctx));
  LANEDIFF_RETURN_IF_ERROR(ApplySetting(b, &ctx));
  std::vector<uint32_t> out(sub_observed.size());
  LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, sub.view(), absl::MakeSpan(out)));
  return Matches(ctx, sub.view(), out, sub_observed, relax);
}

// Whether the model under settings a and b together changes no agreeing lane of the batch.
bool PairKeepsAgreeing(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
                       const Relaxations& relax, const std::string& a, const std::string& b,
                       const std::vector<bool>& agreeing) {
  OpContext ctx = rc.ctx;
  std::vector<uint32_t> out(observed.size());
  if (!ApplySetting(a, &ctx).ok() || !ApplySetting(b, &ctx).ok() ||
      !Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(out)).ok()) {
    return false;
  }
  const std::vector<bool> m = Matches(ctx, rc.lanes.view(), out, observed, relax);
  for (size_t i = 0; i < agreeing.size(); ++i) {
    if (agreeing[i] && !m[i]) return false;
  }
  return true;
}

// The pair (a admissible alone, b any relevant setting of another rule) explaining most lanes
// of `sb` that changes no agreeing lane (checked on the whole batch for a b not admissible
// alone: a NaN whose sign a field flipped back). n: lanes explained (0: none).
struct BestPair {
  const Candidate* a = nullptr;
  const Candidate* b = nullptr;
  std::vector<bool> matches;
  size_t n = 0;
};
BestPair FindPair(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
                  const Relaxations& relax, const std::vector<Candidate>& relevant,
                  const SubBatch& sb, const std::vector<bool>& agreeing,
                  const std::vector<Cause>& causes) {
  BestPair best;
  for (const Candidate& a : relevant) {
    if (!a.admissible || RuleTakenOtherwise(a.settings[0], causes)) continue;
    for (const Candidate& b : relevant) {
      if (&a == &b || a.rule == b.rule || (b.admissible && &b < &a)) continue;
      if (RuleTakenOtherwise(b.settings[0], causes)) continue;
      absl::StatusOr<std::vector<bool>> m =
          PairMatches(rc, sb.lanes, sb.observed, a.settings[0], b.settings[0], relax);
      if (!m.ok()) continue;
      const size_t n = static_cast<size_t>(std::count(m->begin(), m->end(), true));
      if (n <= best.n) continue;
      if (!b.admissible &&
          !PairKeepsAgreeing(rc, observed, relax, a.settings[0], b.settings[0], agreeing)) {
        continue;
      }
      best = BestPair{&a, &b, *std::move(m), n};
    }
  }
  return best;
}

// Lanes no single setting explains, tried under two settings together (FindPair), the pair
// explaining most of `left` first (greedy); a lane a pair explains goes to both its settings'
// causes (two deviations, two causes: never a third "both" cause).
absl::Status CoverByPairs(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
                          const Relaxations& relax, const std::vector<Candidate>& relevant,
                          const std::vector<bool>& agreeing, absl::Span<const std::string> known,
                          std::vector<size_t>* left, std::vector<Cause>* causes) {
  while (!left->empty()) {
    const BestPair best = FindPair(rc, observed, relax, relevant, Sub(rc, observed, *left), agreeing, *causes);
    if (best.n == 0) break;
    std::vector<size_t> taken, rest;
    for (size_t k = 0; k < left->size(); ++k) (best.matches[k] ? taken : rest).push_back((*left)[k]);
    for (const Candidate* c : {best.a, best.b}) {
      // The cause already chosen with this setting, else its equivalent readings (settings of
      // its rule with the same words on every lane) as one new cause.
      auto it = std::find_if(causes->begin(), causes->end(), [&](const Cause& x) {
        return std::find(x.settings.begin(), x.settings.end(), c->settings[0]) != x.settings.end();
      });
      if (it == causes->end()) {
        std::vector<std::string> same;
        for (const Candidate& d : relevant) {
          if (d.rule == c->rule && d.out == c->out && (&d == c || !d.noop)) same.push_back(d.settings[0]);
        }
        // Confirmed ones among them name it (as for a single, CoverValueLanes).
        std::vector<std::string> confirmed_ones;
        for (const std::string& x : same) {
          if (std::find(known.begin(), known.end(), x) != known.end()) confirmed_ones.push_back(x);
        }
        if (!confirmed_ones.empty()) same = std::move(confirmed_ones);
        std::sort(same.begin(), same.end());
        causes->push_back(Cause{CauseName(same), true, {}, {}, same});
        it = causes->end() - 1;
      }
      it->lanes.insert(it->lanes.end(), taken.begin(), taken.end());
      std::sort(it->lanes.begin(), it->lanes.end());
    }
    *left = std::move(rest);
  }
  return absl::OkStatus();
}

// Settings of one rule, applied by the first and named by all (CauseName): a known cause
// (settings the campaign confirmed, grouped by rule) or a cause chosen on this batch.
struct RuleSettings {
  std::string rule;
  std::vector<std::string> settings;
};

// The known settings (not `refuted`) as entries of CoverBySets: settings of one rule that give
// the same words on every lane of the batch are one entry (equivalent readings: confirmed
// together on E4M3, fp8_nan=sign_7f and sign_preserving), others of one rule separate ones (a
// set never holds two entries of one rule). A setting the model refuses here is left out.
std::vector<RuleSettings> KnownEntries(const ResolvedCase& rc, absl::Span<const std::string> known,
                                       absl::Span<const std::string> refuted) {
  std::vector<RuleSettings> out;
  std::vector<std::vector<uint32_t>> words;
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  for (const std::string& s : known) {
    if (std::find(refuted.begin(), refuted.end(), s) != refuted.end()) continue;
    OpContext ctx = rc.ctx;
    std::vector<uint32_t> out_words(rc.lanes.size() * w);
    if (!ApplySetting(s, &ctx).ok() || !Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(out_words)).ok()) {
      continue;
    }
    const std::string rule = RuleOf(s);
    size_t k = 0;
    while (k < out.size() && !(out[k].rule == rule && words[k] == out_words)) ++k;
    if (k == out.size()) {
      out.push_back(RuleSettings{rule, {s}});
      words.push_back(std::move(out_words));
    } else {
      out[k].settings.push_back(s);
    }
  }
  return out;
}

// The cause named by `r` in `causes` (one holding any of its settings), else a new one.
Cause& CauseFor(const RuleSettings& r, std::vector<Cause>* causes) {
  auto it = std::find_if(causes->begin(), causes->end(), [&](const Cause& x) {
    return std::any_of(r.settings.begin(), r.settings.end(), [&](const std::string& s) {
      return std::find(x.settings.begin(), x.settings.end(), s) != x.settings.end();
    });
  });
  if (it != causes->end()) return *it;
  std::vector<std::string> sorted = r.settings;
  std::sort(sorted.begin(), sorted.end());
  causes->push_back(Cause{CauseName(sorted), true, {}, {}, sorted});
  return causes->back();
}

void AddLane(size_t lane, Cause* c) {
  auto at = std::lower_bound(c->lanes.begin(), c->lanes.end(), lane);
  if (at == c->lanes.end() || *at != lane) c->lanes.insert(at, lane);
}

// Whether the model under `settings` together changes no agreeing lane of the batch.
bool KeepsAgreeing(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
                   const Relaxations& relax, const std::vector<std::string>& settings,
                   const std::vector<bool>& agreeing) {
  OpContext ctx = rc.ctx;
  for (const std::string& s : settings) {
    if (!ApplySetting(s, &ctx).ok()) return false;
  }
  std::vector<uint32_t> out(observed.size());
  if (!Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(out)).ok()) return false;
  const std::vector<bool> m = Matches(ctx, rc.lanes.view(), out, observed, relax);
  for (size_t i = 0; i < agreeing.size(); ++i) {
    if (agreeing[i] && !m[i]) return false;
  }
  return true;
}

// The most rules CoverBySets combines (2^6 - 1 sets, each on the lanes left only).
constexpr size_t kMaxSetRules = 6;

// Lanes of `left` explained by the model under a set of `rules` applied together (every
// non-empty subset of the first kMaxSetRules, each rule by its first setting), the set
// explaining most lanes left first (ties: fewer rules, then the earlier rules), a set changing
// an agreeing lane of the batch never. A lane so explained counts under each rule of the set
// it needs there (without it, the rest of the set misses the lane), or under every rule of the
// set when it needs none alone; so NEG ignored and truncation meeting on a lane name both,
// never a third cause.
void CoverBySets(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
                 const Relaxations& relax, const std::vector<RuleSettings>& rules,
                 const std::vector<bool>& agreeing, std::vector<size_t>* left,
                 std::vector<Cause>* causes) {
  const size_t r = std::min(rules.size(), kMaxSetRules);
  if (r == 0 || left->empty()) return;
  const SubBatch sb = Sub(rc, observed, *left);
  const size_t sets = size_t{1} << r;
  std::vector<std::vector<bool>> m(sets, std::vector<bool>(left->size(), false));
  std::vector<int> keeps(sets, -1);  // -1: not checked yet
  auto settings_of = [&](size_t mask) {
    std::vector<std::string> out;
    for (size_t b = 0; b < r; ++b) {
      if ((mask >> b) & 1u) out.push_back(rules[b].settings[0]);
    }
    return out;
  };
  for (size_t mask = 1; mask < sets; ++mask) {
    OpContext ctx = rc.ctx;
    bool ok = true;
    for (const std::string& s : settings_of(mask)) ok = ok && ApplySetting(s, &ctx).ok();
    std::vector<uint32_t> out(sb.observed.size());
    if (!ok || !Evaluate(ctx, sb.lanes.view(), absl::MakeSpan(out)).ok()) continue;
    m[mask] = Matches(ctx, sb.lanes.view(), out, sb.observed, relax);
  }
  // One reading per rule: no set holds two entries of one rule, nor an entry whose rule a cause
  // names with another value (`off`, grown as sets are chosen).
  size_t off = 0;
  for (size_t b = 0; b < r; ++b) {
    if (RuleTakenOtherwise(rules[b].settings[0], *causes)) off |= size_t{1} << b;
    for (size_t a = 0; a < b; ++a) {
      if (rules[a].rule != rules[b].rule) continue;
      for (size_t mask = 1; mask < sets; ++mask) {
        if (((mask >> a) & 1u) && ((mask >> b) & 1u)) keeps[mask] = 0;
      }
    }
  }
  std::vector<bool> done(left->size(), false);
  for (;;) {
    size_t best = 0, best_n = 0;
    for (size_t mask = 1; mask < sets; ++mask) {
      if (keeps[mask] == 0 || (mask & off) != 0) continue;
      size_t n = 0;
      for (size_t k = 0; k < done.size(); ++k) n += (!done[k] && m[mask][k]) ? 1 : 0;
      const bool better = n > best_n || (n == best_n && n > 0 && std::popcount(mask) < std::popcount(best));
      if (!better) continue;
      if (keeps[mask] < 0) keeps[mask] = KeepsAgreeing(rc, observed, relax, settings_of(mask), agreeing) ? 1 : 0;
      if (keeps[mask] == 1) best = mask, best_n = n;
    }
    if (best_n == 0) break;
    for (size_t a = 0; a < r; ++a) {
      for (size_t b = 0; b < r; ++b) {
        if (((best >> a) & 1u) && a != b && rules[a].rule == rules[b].rule) off |= size_t{1} << b;
      }
    }
    for (size_t k = 0; k < done.size(); ++k) {
      if (done[k] || !m[best][k]) continue;
      done[k] = true;
      size_t need = 0;
      for (size_t b = 0; b < r; ++b) {
        const size_t bit = size_t{1} << b;
        if ((best & bit) != 0 && (best == bit || !m[best ^ bit][k])) need |= bit;
      }
      if (need == 0) need = best;
      for (size_t b = 0; b < r; ++b) {
        if ((need >> b) & 1u) AddLane((*left)[k], &CauseFor(rules[b], causes));
      }
    }
  }
  std::vector<size_t> rest;
  for (size_t k = 0; k < done.size(); ++k) {
    if (!done[k]) rest.push_back((*left)[k]);
  }
  *left = std::move(rest);
}

// Lanes of `left` explained by the model under the entries of `sets` (the known settings and
// those chosen on this batch) together with one more setting, of a rule neither they nor a
// cause of the batch has (not `refuted`): a deviation no lane of the batch shows alone or with
// one other, because every lane showing it shows two more (a uniform literal source whose NEG
// is ignored and whose literal SR add carries it past the largest finite, where FP16_OVFL
// ignored then gives Inf: three causes on every such lane). Each setting is tried by
// CoverBySets with it first; the one explaining most lanes left is taken (ties: the earlier,
// SingleSettings order), joins `sets`, and the rest is tried again.
void CoverBySetsAndOne(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
                       const Relaxations& relax, absl::Span<const std::string> refuted,
                       const std::vector<bool>& agreeing, std::vector<RuleSettings>* sets,
                       std::vector<size_t>* left, std::vector<Cause>* causes) {
  const std::vector<std::string> singles = SingleSettings(rc.ctx);
  while (!left->empty()) {
    size_t best_n = 0;
    const std::string* best = nullptr;
    for (const std::string& s : singles) {
      const std::string rule = RuleOf(s);
      if (std::find(refuted.begin(), refuted.end(), s) != refuted.end() ||
          RuleTakenOtherwise(s, *causes) ||
          std::any_of(sets->begin(), sets->end(), [&](const RuleSettings& r) { return r.rule == rule; })) {
        continue;
      }
      std::vector<RuleSettings> with = {RuleSettings{rule, {s}}};
      with.insert(with.end(), sets->begin(), sets->end());
      std::vector<size_t> trial = *left;
      std::vector<Cause> trial_causes = *causes;
      CoverBySets(rc, observed, relax, with, agreeing, &trial, &trial_causes);
      if (left->size() - trial.size() > best_n) best_n = left->size() - trial.size(), best = &s;
    }
    if (best == nullptr) return;
    std::vector<RuleSettings> with = {RuleSettings{RuleOf(*best), {*best}}};
    with.insert(with.end(), sets->begin(), sets->end());
    CoverBySets(rc, observed, relax, with, agreeing, left, causes);
    sets->push_back(std::move(with.front()));
  }
}

}  // namespace

std::vector<std::string> SingleSettings(const OpContext& ctx) {
  std::vector<std::string> settings;
  for (const HypothesisInfo& h : AllHypotheses()) {
    const uint8_t base = h.get(ctx.hyp);
    for (size_t value = 0; value < h.values.size(); ++value) {
      if (value != base) settings.push_back(absl::StrCat(h.name, "=", h.values[value].name));
    }
  }
  for (std::string& f : FieldSettings(ctx)) settings.push_back(std::move(f));
  return settings;
}

std::vector<std::string> FieldSettings(const OpContext& ctx) {
  const InstrInfo& info = GetInstrInfo(ctx.instr);
  const Family family = ctx.target->family;
  std::vector<std::string> out;
  for (int i = 0; i < 3; ++i) {
    if (((info.neg_abs_srcs >> i) & 1u) == 0) continue;
    out.push_back(Field(absl::StrCat("neg", i), ((ctx.mods.neg >> i) & 1u) ^ 1u));
    out.push_back(Field(absl::StrCat("abs", i), ((ctx.mods.abs >> i) & 1u) ^ 1u));
  }
  const uint8_t opsel = info.opsel_bits & ~SelectBits(info, family);
  for (int k = 0; k < 4; ++k) {
    if (((opsel >> k) & 1u) != 0) {
      out.push_back(Field(absl::StrCat("opsel", k), ((ctx.mods.opsel >> k) & 1u) ^ 1u));
    }
  }
  if ((info.clamp_families & FamilyBit(family)) != 0) {
    out.push_back(Field("clamp", ctx.mods.clamp ? 0u : 1u));
  }
  if ((info.omod_families & FamilyBit(family)) != 0) {
    for (uint32_t o = 0; o < 4; ++o) {
      if (o != ctx.mods.omod) out.push_back(Field("omod", o));
    }
  }
  const uint32_t read = ModeBitsRead(ctx.instr, family);
  for (const ModeField& m : kModeFields) {
    if ((read & m.mask) == 0) continue;
    const uint32_t cur = (ctx.mode & m.mask) >> m.shift;
    for (uint32_t val = 0; val <= (m.mask >> m.shift); ++val) {
      if (val != cur) out.push_back(Field(m.name, val));
    }
  }
  return out;
}

std::string RuleOf(absl::string_view setting) {
  return std::string(setting.substr(0, setting.find('=')));
}

absl::Status ApplySetting(absl::string_view setting, OpContext* ctx) {
  if (!absl::StartsWith(setting, kActsAsIf)) return SetHypothesis(setting, &ctx->hyp);
  const size_t eq = setting.find('=');
  uint32_t value = 0;
  if (eq == absl::string_view::npos || !absl::SimpleAtoi(setting.substr(eq + 1), &value)) {
    return absl::InvalidArgumentError(absl::StrCat("field setting '", setting,
                                                   "' is not acts_as_if.FIELD=NUMBER"));
  }
  const absl::string_view field = setting.substr(kActsAsIf.size(), eq - kActsAsIf.size());
  auto set_bit = [&](uint8_t* bits, absl::string_view prefix) {
    int k = 0;
    if (!absl::SimpleAtoi(field.substr(prefix.size()), &k) || k < 0 || k > 3 || value > 1) {
      return false;
    }
    *bits = static_cast<uint8_t>((*bits & ~(1u << k)) | (value << k));
    return true;
  };
  bool ok = false;
  if (absl::StartsWith(field, "neg")) {
    ok = set_bit(&ctx->mods.neg, "neg");
  } else if (absl::StartsWith(field, "abs")) {
    ok = set_bit(&ctx->mods.abs, "abs");
  } else if (absl::StartsWith(field, "opsel")) {
    ok = set_bit(&ctx->mods.opsel, "opsel");
  } else if (field == "clamp") {
    ok = value <= 1;
    ctx->mods.clamp = value != 0;
  } else if (field == "omod") {
    ok = value <= 3;
    ctx->mods.omod = static_cast<uint8_t>(value);
  } else {
    for (const ModeField& m : kModeFields) {
      if (field != m.name || value > (m.mask >> m.shift)) continue;
      ctx->mode = (ctx->mode & ~m.mask) | (value << m.shift);
      ok = true;
    }
  }
  if (!ok) return absl::InvalidArgumentError(absl::StrCat("unknown field setting '", setting, "'"));
  return absl::OkStatus();
}

std::string CauseName(std::vector<std::string> settings) {
  if (settings.empty()) return "";
  std::vector<std::string> values;
  for (const std::string& s : settings) values.push_back(s.substr(s.find('=') + 1));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return absl::StrCat(RuleOf(settings[0]), "=", absl::StrJoin(values, "+"));
}

std::vector<std::string> SettingsOfCause(absl::string_view name) {
  const size_t eq = name.find('=');
  if (eq == absl::string_view::npos) return {};
  std::vector<std::string> out;
  for (absl::string_view v : absl::StrSplit(name.substr(eq + 1), '+')) {
    out.push_back(absl::StrCat(name.substr(0, eq), "=", v));
  }
  return out;
}

void KeepUnexplainedLanes(const proto::TestCase& tc, const Cause& cause,
                          absl::Span<const uint32_t> expected, absl::Span<const uint32_t> observed,
                          proto::Finding* f) {
  if (cause.by_hypothesis || cause.lanes.empty() || tc.lanes_size() == 0) return;
  const size_t w = expected.size() / static_cast<size_t>(tc.lanes_size());
  proto::Finding::Example* x = f->mutable_unexplained();
  *x->mutable_testcase() = tc;
  x->mutable_testcase()->clear_lanes();
  for (size_t i : cause.lanes) {
    if (static_cast<size_t>(x->testcase().lanes_size()) >= kMaxUnexplainedLanes) break;
    if (i >= static_cast<size_t>(tc.lanes_size()) || (i + 1) * w > observed.size()) break;
    *x->mutable_testcase()->add_lanes() = tc.lanes(static_cast<int>(i));
    for (size_t k = 0; k < w; ++k) {
      x->add_expected(expected[i * w + k]);
      x->add_observed(observed[i * w + k]);
    }
  }
}

absl::StatusOr<std::vector<Cause>> CoverValueLanes(const ResolvedCase& rc,
                                                   absl::Span<const uint32_t> expected,
                                                   absl::Span<const uint32_t> observed,
                                                   const Relaxations& relax,
                                                   const std::vector<size_t>& value_lanes,
                                                   const std::vector<bool>& structural,
                                                   absl::Span<const std::string> refuted,
                                                   absl::Span<const std::string> known,
                                                   std::vector<size_t>* unexplained) {
  const size_t n = rc.lanes.size();
  std::vector<bool> agreeing(n, true);
  for (size_t i = 0; i < n; ++i) agreeing[i] = !structural[i];
  for (size_t i : value_lanes) agreeing[i] = false;
  std::vector<size_t> left = value_lanes;
  std::vector<Cause> causes;
  // The causes the device is known to have first, alone and together.
  std::vector<RuleSettings> sets = KnownEntries(rc, known, refuted);
  CoverBySets(rc, observed, relax, sets, agreeing, &left, &causes);
  if (left.empty()) {
    *unexplained = {};
    return causes;
  }
  std::vector<std::string> known_first;
  for (const RuleSettings& r : sets) known_first.push_back(r.settings[0]);
  std::vector<Candidate> relevant;
  LANEDIFF_ASSIGN_OR_RETURN(std::vector<Candidate> singles,
                            Singles(rc, expected, observed, relax, value_lanes, agreeing, refuted,
                                    known_first, &relevant));
  for (auto& [k, lanes] : GreedyCover(singles, causes, &left)) {
    RuleSettings r{singles[k].rule, singles[k].settings};
    // Readings equivalent on this batch of which some are confirmed: the confirmed ones name it
    // (the confirmation batch parted them; confirmed together, both name it as before).
    std::vector<std::string> confirmed_ones;
    for (const std::string& x : r.settings) {
      if (std::find(known.begin(), known.end(), x) != known.end()) confirmed_ones.push_back(x);
    }
    if (!confirmed_ones.empty()) r.settings = std::move(confirmed_ones);
    Cause& c = CauseFor(r, &causes);
    for (size_t i : lanes) AddLane(i, &c);
    if (std::none_of(sets.begin(), sets.end(),
                     [&](const RuleSettings& x) { return x.settings[0] == r.settings[0]; })) {
      sets.push_back(std::move(r));
    }
  }
  // The lanes left, under the known causes and the batch's chosen ones together.
  if (!left.empty() && sets.size() >= 2) {
    CoverBySets(rc, observed, relax, sets, agreeing, &left, &causes);
  }
  if (!left.empty()) {
    // A setting that changes nothing alone may change a lane with another (truncation on a
    // batch whose every pk_u8 source is negated to zero, with NEG ignored): each is a pair's
    // partner too, admissible alone (it changes no agreeing lane). Only lanes left this far
    // try them, so it costs nothing on a batch the rest explains.
    const std::vector<uint32_t> same_words(expected.begin(), expected.end());
    for (const std::string& s : SingleSettings(rc.ctx)) {
      if (std::find(refuted.begin(), refuted.end(), s) != refuted.end()) continue;
      if (std::any_of(relevant.begin(), relevant.end(), [&](const Candidate& c) { return c.settings[0] == s; })) continue;
      OpContext ctx = rc.ctx;
      if (!ApplySetting(s, &ctx).ok()) continue;
      relevant.push_back(Candidate{RuleOf(s), {s}, same_words, {}, {}, true, true});
    }
    LANEDIFF_RETURN_IF_ERROR(CoverByPairs(rc, observed, relax, relevant, agreeing, known, &left, &causes));
  }
  // The lanes left, under the known and chosen settings together with one more.
  if (!left.empty() && !sets.empty()) {
    CoverBySetsAndOne(rc, observed, relax, refuted, agreeing, &sets, &left, &causes);
  }
  *unexplained = std::move(left);
  return causes;
}

}  // namespace lanediff
