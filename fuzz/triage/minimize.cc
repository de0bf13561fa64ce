#include "fuzz/triage/minimize.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace lanediff {
namespace {

// An edit of a case: one simpler value of one field, one bit cleared, ...
using Edit = std::function<void(proto::TestCase*)>;

class Shrinker {
 public:
  Shrinker(const StillFailsBatch& pred, const MinimizeOptions& o, MinimizeStats* s)
      : pred_(pred), opts_(o), stats_(s) {}

  // Whether each candidate still fails: the ones not asked before in one predicate call, the
  // others from the answers kept (candidates past the budget are not asked: "no").
  std::vector<bool> Ask(const std::vector<proto::TestCase>& cands) {
    std::vector<bool> out(cands.size(), false);
    std::vector<proto::TestCase> asked;
    std::vector<std::string> keys;
    std::vector<size_t> where;
    for (size_t i = 0; i < cands.size(); ++i) {
      std::string key = cands[i].SerializeAsString();
      if (auto it = answers_.find(key); it != answers_.end()) {
        out[i] = it->second;
        continue;
      }
      if (stats_->calls + static_cast<int>(asked.size()) >= opts_.max_calls) {
        stats_->budget_exhausted = true;
        continue;
      }
      asked.push_back(cands[i]);
      keys.push_back(std::move(key));
      where.push_back(i);
    }
    if (asked.empty()) return out;
    stats_->calls += static_cast<int>(asked.size());
    std::vector<absl::StatusOr<bool>> r;
    if (alone) {
      for (const proto::TestCase& c : asked) {
        stats_->batches++;
        r.push_back(pred_({c})[0]);
      }
    } else {
      stats_->batches++;
      r = pred_(asked);
    }
    first_answer = r[0];
    for (size_t k = 0; k < asked.size(); ++k) {
      if (!r[k].ok()) ++stats_->errors;
      out[where[k]] = answers_[keys[k]] = r[k].ok() && *r[k];
    }
    return out;
  }

  // Accepts `cand` as the new best if it still fails.
  bool Try(const proto::TestCase& cand) { return TryFirst({cand}); }

  // Accepts the first of `cands` (in order of preference) that still fails as the new best;
  // all are asked in one call.
  bool TryFirst(const std::vector<proto::TestCase>& cands) {
    const std::vector<bool> ok = Ask(cands);
    for (size_t i = 0; i < cands.size(); ++i) {
      if (ok[i]) {
        best = cands[i];
        return true;
      }
    }
    return false;
  }

  // Rounds of edits of best: `groups` makes, from best, groups of alternative edits (each
  // group's in order of preference; one group per field or bit). Each edit alone is asked in
  // one call; each group's first that still fails is chosen; the chosen ones applied in group
  // order are asked as prefixes in a second call, and the longest prefix that still fails is
  // taken. When a later prefix fails, the next round starts from there. `next` (may be null),
  // the groups of the phase that follows, is asked along with each call as if this phase ended
  // there (from best with nothing chosen, from the whole chain), so the next phase's first
  // call is usually answered already.
  using Groups = std::function<std::vector<std::vector<Edit>>(const proto::TestCase&)>;
  void Rounds(const Groups& groups, const Groups& next = nullptr) {
    auto singles = [](const proto::TestCase& from, const Groups& make, std::vector<proto::TestCase>* cands,
                      std::vector<std::pair<size_t, size_t>>* owner) {
      const std::vector<std::vector<Edit>> g = make(from);
      const std::string now = from.SerializeAsString();
      for (size_t i = 0; i < g.size(); ++i) {
        for (size_t j = 0; j < g[i].size(); ++j) {
          proto::TestCase c = from;
          g[i][j](&c);
          if (c.SerializeAsString() == now) continue;  // no change
          cands->push_back(std::move(c));
          if (owner != nullptr) owner->emplace_back(i, j);
        }
      }
      return g;
    };
    for (int round = 0; round < 16; ++round) {
      std::vector<proto::TestCase> cands;
      std::vector<std::pair<size_t, size_t>> owner;  // (group, edit) of each candidate
      const std::vector<std::vector<Edit>> g = singles(best, groups, &cands, &owner);
      if (cands.empty()) return;
      const size_t mine = cands.size();
      if (next && !alone) singles(best, next, &cands, nullptr);
      std::vector<bool> ok = Ask(cands);
      ok.resize(mine);
      std::vector<const Edit*> chosen;
      for (size_t k = 0, last = SIZE_MAX; k < mine; ++k) {
        if (!ok[k] || owner[k].first == last) continue;
        last = owner[k].first;
        chosen.push_back(&g[owner[k].first][owner[k].second]);
      }
      if (chosen.empty()) return;
      std::vector<proto::TestCase> chain;
      proto::TestCase c = best;
      for (const Edit* e : chosen) {
        (*e)(&c);
        chain.push_back(c);
      }
      // The first prefix is a candidate that still failed; the others are asked together.
      best = chain[0];
      if (chain.size() == 1) return;
      std::vector<proto::TestCase> asked(chain.begin() + 1, chain.end());
      if (next && !alone) singles(chain.back(), next, &asked, nullptr);
      std::vector<bool> held = Ask(asked);
      held.resize(chain.size() - 1);
      size_t n = 0;
      while (n < held.size() && held[n]) ++n;
      best = chain[n];
      if (n == held.size()) return;
    }
  }

  // From now on each candidate is asked alone (one per predicate call, so each is its own
  // batch), and no answer given before is reused.
  void AskAlone() {
    alone = true;
    answers_.clear();
  }

  proto::TestCase best;
  absl::StatusOr<bool> first_answer = false;  // the last predicate call's first answer
  bool alone = false;

 private:
  std::map<std::string, bool> answers_;  // every candidate asked about (serialized) -> its answer
  const StillFailsBatch& pred_;
  const MinimizeOptions& opts_;
  MinimizeStats* stats_;
};

// A 32-bit field of a case.
struct Field {
  std::function<uint32_t(const proto::TestCase&)> get;
  std::function<void(proto::TestCase*, uint32_t)> set;
};

Edit SetTo(const Field& f, uint32_t v) {
  return [f, v](proto::TestCase* c) { f.set(c, v); };
}

// The simpler values of each field, in two phases of rounds: first one replacement per field
// (0, else the canonical NaN of either sign for a NaN, else the value with its lowest 24, 16,
// 12, 8 or 4 bits cleared, largest first), then each set bit cleared (from the top: the sign
// and exponent first, so smaller magnitudes).
void ShrinkFields(Shrinker& s, const std::vector<Field>& fields) {
  const Shrinker::Groups bits = [&](const proto::TestCase& best) {
    std::vector<std::vector<Edit>> groups;
    for (const Field& f : fields) {
      const uint32_t v = f.get(best);
      for (int b = 31; b >= 0; --b) {
        if (!((v >> b) & 1u)) continue;
        groups.push_back({[f, b](proto::TestCase* c) { f.set(c, f.get(*c) & ~(1u << b)); }});
      }
    }
    return groups;
  };
  s.Rounds([&](const proto::TestCase& best) {
    std::vector<std::vector<Edit>> groups;
    for (const Field& f : fields) {
      const uint32_t v = f.get(best);
      if (v == 0) continue;
      std::vector<Edit> alt = {SetTo(f, 0)};
      if (IsF32Nan(v) && (v & 0x7fffffffu) != kCanonicalNan) {
        alt.push_back(SetTo(f, kCanonicalNan));
        alt.push_back(SetTo(f, kCanonicalNan | 0x80000000u));
      }
      for (int n : {24, 16, 12, 8, 4}) {
        const uint32_t cleared = v & ~((1u << n) - 1);
        if (cleared != v && cleared != 0) alt.push_back(SetTo(f, cleared));
      }
      groups.push_back(std::move(alt));
    }
    return groups;
  }, bits);
  s.Rounds(bits);
}

// Simplifies every lane's src0..src2 (and vdst_old) words, a lane's words together.
void ShrinkLaneOperands(Shrinker& s, bool with_vdst_old) {
  using L = proto::Lane;
  for (int i = 0; i < s.best.lanes_size(); ++i) {
    auto lane_field = [i](uint32_t (L::*get)() const, void (L::*set)(uint32_t)) {
      return Field{[=](const proto::TestCase& c) { return (c.lanes(i).*get)(); },
                   [=](proto::TestCase* c, uint32_t v) { (c->mutable_lanes(i)->*set)(v); }};
    };
    std::vector<Field> fields = {lane_field(&L::src0, &L::set_src0), lane_field(&L::src1, &L::set_src1),
                                 lane_field(&L::src2, &L::set_src2)};
    if (with_vdst_old) fields.push_back(lane_field(&L::vdst_old, &L::set_vdst_old));
    ShrinkFields(s, fields);
  }
}

// Step 1, one lane: the original case (does it still fail?), each hinted lane alone and each of
// the first 64 lanes alone, asked together; the first lane alone that still fails (hinted lanes
// first) is taken. Else halves (bisection). When no hinted lane fails alone while the case
// does, or the case fails only alone, the device's answer depends on where a lane sits in the batch or on its neighbours
// (the simulator's garbage_lane erratum: lane n/2 of every batch), which candidates sharing a
// batch would scramble: from then on each candidate is its own batch (Shrinker::AskAlone), as
// the minimizer asked before candidates were batched. Returns false when the original case
// itself no longer fails.
bool ShrinkToOneLane(Shrinker& s, const std::vector<size_t>& hint_lanes) {
  std::vector<proto::TestCase> cands = {s.best};
  std::vector<int> order;
  auto single = [&](int i) {
    proto::TestCase c = s.best;
    c.clear_lanes();
    *c.add_lanes() = s.best.lanes(i);
    return c;
  };
  size_t hinted = 0;
  if (s.best.lanes_size() > 1) {
    for (size_t i : hint_lanes) {
      if (static_cast<int>(i) < s.best.lanes_size() && order.size() < 64) order.push_back(static_cast<int>(i));
    }
    hinted = order.size();
    for (int i = 0; i < s.best.lanes_size() && i < 64; ++i) {
      if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
    }
    for (int i : order) cands.push_back(single(i));
  }
  std::vector<bool> ok = s.Ask(cands);
  bool position = false;  // the answers depend on where a lane sits
  if (!ok[0] && cands.size() > 1) {
    // The case may fail only as its own batch (its lanes where they were): asked alone.
    s.AskAlone();
    if (!s.Ask({cands[0]})[0]) return false;
    position = true;
  }
  if (!ok[0] && !position) return false;
  const bool hint_held = hinted == 0 || std::find(ok.begin() + 1, ok.begin() + 1 + static_cast<long>(hinted), true) !=
                                            ok.begin() + 1 + static_cast<long>(hinted);
  if (position || !hint_held) {
    s.AskAlone();
    for (size_t k = 0; k < hinted && k < 8; ++k) {
      if (s.Try(cands[k + 1])) return true;
    }
  } else {
    for (size_t k = 1; k < cands.size(); ++k) {
      if (ok[k]) {
        s.best = cands[k];
        return true;
      }
    }
  }
  while (s.best.lanes_size() > 1) {
    const int n = s.best.lanes_size(), half = n / 2;
    proto::TestCase lo = s.best, hi = s.best;
    lo.mutable_lanes()->DeleteSubrange(half, n - half);
    hi.mutable_lanes()->DeleteSubrange(0, half);
    if (s.Try(lo) || s.Try(hi)) continue;
    break;  // the disagreement needs lanes from both halves (or lane position matters)
  }
  for (int i = 0; s.alone && s.best.lanes_size() > 1 && i < s.best.lanes_size() && i < 64; ++i) {
    if (s.Try(single(i))) break;
  }
  return true;
}

proto::Source* MutableSource(proto::TestCase* c, int k) {
  proto::Encoding* e = c->mutable_encoding();
  return k == 0 ? e->mutable_src0() : k == 1 ? e->mutable_src1() : e->mutable_src2();
}
const proto::Source& SourceOf(const proto::TestCase& c, int k) {
  const proto::Encoding& e = c.encoding();
  return k == 0 ? e.src0() : k == 1 ? e.src1() : e.src2();
}

// Each non-VGPR source back to a VGPR: carrying its value in every lane, or keeping the lanes'
// own values (one word: asked together; an inline constant's value is not known here, so its
// lanes keep their own values). Else its value (SGPR, literal) is simplified (each value its
// own launch) and the VGPR tried again.
void ShrinkUniformSources(Shrinker& s) {
  for (int k = 0; k < 3; ++k) {
    const proto::SourceKind kind = SourceOf(s.best, k).kind();
    if (kind == proto::SOURCE_VGPR) continue;
    auto to_vgpr = [&]() {
      proto::TestCase carried = s.best, own = s.best;
      const uint32_t value = SourceOf(carried, k).value();
      MutableSource(&carried, k)->Clear();
      MutableSource(&own, k)->Clear();
      for (proto::Lane& l : *carried.mutable_lanes()) {
        if (k == 0) l.set_src0(value);
        if (k == 1) l.set_src1(value);
        if (k == 2) l.set_src2(value);
      }
      std::vector<proto::TestCase> cands = {own};
      if (SourceOf(s.best, k).kind() != proto::SOURCE_INLINE) cands.insert(cands.begin(), carried);
      return s.TryFirst(cands);
    };
    if (to_vgpr() || (kind != proto::SOURCE_SGPR && kind != proto::SOURCE_LITERAL)) continue;
    ShrinkFields(s, {Field{[k](const proto::TestCase& c) { return SourceOf(c, k).value(); },
                           [k](proto::TestCase* c, uint32_t v) {
                             MutableSource(c, k)->set_value(v);
                             // A shared literal keeps one value.
                             if (SourceOf(*c, k).kind() == proto::SOURCE_LITERAL) {
                               for (int j = 0; j < 3; ++j) {
                                 proto::Source* o = MutableSource(c, j);
                                 if (o->kind() == proto::SOURCE_LITERAL) o->set_value(v);
                               }
                             }
                           }}});
    to_vgpr();
  }
}

// Every source spelled out goes away at once (absent: the form's default, a VGPR carrying the
// lane's value), the values of SGPR and literal sources carried into the lanes, or the lanes
// keeping their own values: the same word, asked together. True when one still fails (or no
// source is spelled out); else each source is taken in turn (ShrinkUniformSources,
// DropDefaultSources).
bool DropEverySource(Shrinker& s) {
  const proto::Encoding& e = s.best.encoding();
  if (e.raw_words_size() > 0) return false;
  if (!e.has_src0() && !e.has_src1() && !e.has_src2()) return true;
  proto::TestCase carried = s.best, own = s.best;
  for (int k = 0; k < 3; ++k) {
    const proto::Source& src = SourceOf(s.best, k);
    if (src.kind() != proto::SOURCE_SGPR && src.kind() != proto::SOURCE_LITERAL) continue;
    for (proto::Lane& l : *carried.mutable_lanes()) {
      if (k == 0) l.set_src0(src.value());
      if (k == 1) l.set_src1(src.value());
      if (k == 2) l.set_src2(src.value());
    }
  }
  for (proto::TestCase* c : {&carried, &own}) {
    proto::Encoding* m = c->mutable_encoding();
    m->clear_src0(), m->clear_src1(), m->clear_src2();
  }
  return s.TryFirst({carried, own});
}

// Sources spelled out but equal to the default go away (an SR instruction's absent src2
// encodes SRC2 = 0, as LLVM does).
void DropDefaultSources(Shrinker& s) {
  s.Rounds([](const proto::TestCase& best) {
    std::vector<std::vector<Edit>> groups;
    if (best.encoding().raw_words_size() > 0) return groups;
    const proto::Encoding& e = best.encoding();
    if (e.has_src0()) groups.push_back({[](proto::TestCase* c) { c->mutable_encoding()->clear_src0(); }});
    if (e.has_src1()) groups.push_back({[](proto::TestCase* c) { c->mutable_encoding()->clear_src1(); }});
    if (e.has_src2()) groups.push_back({[](proto::TestCase* c) { c->mutable_encoding()->clear_src2(); }});
    return groups;
  });
}

// NEG/ABS: clearing the bit alone, else clearing it and folding it into the lane values
// (NEG: flip the sign bit; ABS: clear it), so "-(-x)" becomes "x".
void ShrinkNegAbs(Shrinker& s) {
  for (int which = 0; which < 2; ++which) {
    for (int b = 2; b >= 0; --b) {
      const uint32_t bits = which == 0 ? s.best.encoding().neg() : s.best.encoding().abs();
      if (!((bits >> b) & 1u)) continue;
      proto::TestCase c = s.best;
      if (which == 0) c.mutable_encoding()->set_neg(bits & ~(1u << b));
      else c.mutable_encoding()->set_abs(bits & ~(1u << b));
      proto::TestCase folded = c;
      for (proto::Lane& l : *folded.mutable_lanes()) {
        uint32_t v = b == 0 ? l.src0() : b == 1 ? l.src1() : l.src2();
        v = which == 0 ? v ^ 0x80000000u : v & 0x7fffffffu;
        if (b == 0) l.set_src0(v);
        if (b == 1) l.set_src1(v);
        if (b == 2) l.set_src2(v);
      }
      // One word: both asked together, the bit cleared alone preferred.
      s.TryFirst({c, folded});
    }
  }
}

// Every modifier bit cleared at once (NEG, ABS, OMOD, OPSEL, CLAMP and the raw words'
// modifier bits), and with `default_mode` the default MODE too; without NEG/ABS folded into the
// lane values, and folded (-|x| becomes the value the instruction read) for each subset of the
// sources that had them, fewest first: one word and MODE, asked together. True when one of
// them still fails (or there is nothing to clear).
bool ClearEveryModifier(Shrinker& s, bool default_mode) {
  const proto::Encoding& e = s.best.encoding();
  const bool raw = e.raw_words_size() >= 2;
  if (e.neg() == 0 && e.abs() == 0 && e.omod() == 0 && e.opsel() == 0 && !e.clamp() &&
      (!raw || ((e.raw_words(0) & 0x0000ff00u) == 0 && (e.raw_words(1) & 0xf8000000u) == 0)) &&
      (!default_mode || !s.best.has_mode())) {
    return true;  // nothing to clear
  }
  proto::TestCase plain = s.best;
  (void)plain.mutable_encoding();  // the minimized case always has one
  if (default_mode) plain.clear_mode();
  proto::Encoding* p = plain.mutable_encoding();
  p->set_neg(0), p->set_abs(0), p->set_omod(0), p->set_opsel(0), p->set_clamp(false);
  if (raw) {
    p->set_raw_words(0, p->raw_words(0) & ~0x0000ff00u);
    p->set_raw_words(1, p->raw_words(1) & ~0xf8000000u);
  }
  // NEG/ABS folded into the values of each subset of the sources that have them, fewest first.
  const uint32_t had = (e.neg() | e.abs()) & 7u;
  std::vector<uint32_t> subsets;
  for (int bits = 0; bits <= 3; ++bits) {
    for (uint32_t m = 0; m < 8; ++m) {
      if ((m & ~had) == 0 && std::popcount(m) == bits) subsets.push_back(m);
    }
  }
  std::vector<proto::TestCase> cands;
  for (uint32_t m : subsets) {
    proto::TestCase folded = plain;
    for (proto::Lane& l : *folded.mutable_lanes()) {
      for (int b = 0; b < 3; ++b) {
        if (!((m >> b) & 1u)) continue;
        uint32_t v = b == 0 ? l.src0() : b == 1 ? l.src1() : l.src2();
        if ((e.abs() >> b) & 1u) v &= 0x7fffffffu;
        if ((e.neg() >> b) & 1u) v ^= 0x80000000u;
        if (b == 0) l.set_src0(v);
        if (b == 1) l.set_src1(v);
        if (b == 2) l.set_src2(v);
      }
    }
    cands.push_back(std::move(folded));
  }
  return s.TryFirst(cands);
}

// Step 3, fewest modifier bits: NEG/ABS, OMOD, OPSEL and CLAMP, then the modifier bits of raw
// words.
void ShrinkModifiers(Shrinker& s) {
  // An absent encoding field is created here (empty): the minimized case always has one.
  (void)s.best.mutable_encoding();
  if (ClearEveryModifier(s, /*default_mode=*/false)) return;
  using E = proto::Encoding;
  auto enc_field = [&](uint32_t (E::*get)() const, void (E::*set)(uint32_t), int width) {
    for (int b = width - 1; b >= 0; --b) {
      const uint32_t v = (s.best.encoding().*get)();
      if ((v >> b) & 1u) {
        proto::TestCase c = s.best;
        (c.mutable_encoding()->*set)(v & ~(1u << b));
        s.Try(c);
      }
    }
  };
  ShrinkNegAbs(s);
  enc_field(&E::omod, &E::set_omod, 2);
  enc_field(&E::opsel, &E::set_opsel, 4);
  if (s.best.encoding().clamp()) {
    proto::TestCase c = s.best;
    c.mutable_encoding()->set_clamp(false);
    s.Try(c);
  }
  // Raw words: the modifier bits ABS[10:8] OPSEL[14:11] CLAMP[15] and OMOD[60:59] NEG[63:61].
  if (s.best.encoding().raw_words_size() >= 2) {
    for (int w : {0, 1}) {
      const uint32_t mask = w == 0 ? 0x0000ff00u : 0xf8000000u;
      for (int b = 31; b >= 0; --b) {
        const uint32_t v = s.best.encoding().raw_words(w);
        if (!((mask >> b) & 1u) || !((v >> b) & 1u)) continue;
        proto::TestCase c = s.best;
        c.mutable_encoding()->set_raw_words(w, v & ~(1u << b));
        s.Try(c);
      }
    }
  }
}

// Step 4, fewest MODE bits: the default MODE first, then bit by bit toward it.
void ShrinkMode(Shrinker& s) {
  if (!s.best.has_mode()) return;
  proto::TestCase c = s.best;
  c.clear_mode();
  if (s.Try(c)) return;
  constexpr uint32_t kDefault = 0x000000f0;
  for (int b = 31; b >= 0; --b) {
    const uint32_t v = s.best.mode();
    if (((v ^ kDefault) >> b) & 1u) {
      proto::TestCase m = s.best;
      m.set_mode(v ^ (1u << b));
      if (m.mode() == kDefault) m.clear_mode();
      if (s.Try(m) && !s.best.has_mode()) break;
    }
  }
}

}  // namespace

absl::StatusOr<proto::TestCase> Minimize(const proto::TestCase& tc, const StillFailsBatch& still_fails,
                                         const MinimizeOptions& options, MinimizeStats* stats) {
  MinimizeStats local;
  if (stats == nullptr) stats = &local;
  *stats = {};
  // A predicate that answers fewer candidates than asked: the rest are errors.
  StillFailsBatch pred = [&](const std::vector<proto::TestCase>& cands) {
    std::vector<absl::StatusOr<bool>> r = still_fails(cands);
    while (r.size() < cands.size()) r.push_back(absl::InternalError("the predicate gave no answer for this candidate"));
    if (r.size() > cands.size()) r.erase(r.begin() + static_cast<long>(cands.size()), r.end());
    return r;
  };
  Shrinker s(pred, options, stats);
  s.best = tc;
  // 1. One lane (the original case asked with each lane alone).
  if (!ShrinkToOneLane(s, options.hint_lanes)) {
    const absl::StatusOr<bool>& first = s.first_answer;
    if (!first.ok()) {
      return absl::Status(first.status().code(),
                          absl::StrCat("cannot minimize: the original case errors: ",
                                       first.status().message()));
    }
    return absl::FailedPreconditionError(
        "cannot minimize: the original case does not disagree when re-run (flaky device?)");
  }
  // 2. Plain sources (VGPRs; the values of uniform sources carried into the lanes, where they
  // shrink with the rest), then simpler values, lane by lane (usually one lane now).
  if (!DropEverySource(s)) {
    ShrinkUniformSources(s);
    DropDefaultSources(s);
  }
  ShrinkLaneOperands(s, /*with_vdst_old=*/true);
  // 3. Fewest modifier bits; 4. fewest MODE bits: first both at once (one word and MODE: the
  // candidates of ClearEveryModifier with the default MODE, one launch), then each.
  (void)s.best.mutable_encoding();  // an absent encoding field is created: the minimized case always has one
  if (ClearEveryModifier(s, /*default_mode=*/true)) return s.best;
  ShrinkModifiers(s);
  ShrinkMode(s);
  return s.best;
}

absl::StatusOr<proto::TestCase> Minimize(const proto::TestCase& tc, const StillFails& still_fails,
                                         const MinimizeOptions& options, MinimizeStats* stats) {
  StillFailsBatch each = [&](const std::vector<proto::TestCase>& cands) {
    std::vector<absl::StatusOr<bool>> r;
    for (const proto::TestCase& c : cands) r.push_back(still_fails(c));
    return r;
  };
  return Minimize(tc, each, options, stats);
}

}  // namespace lanediff
