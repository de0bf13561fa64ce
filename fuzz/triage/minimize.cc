#include "fuzz/triage/minimize.h"

#include <algorithm>
#include <bit>

#include "absl/strings/str_cat.h"

namespace lanediff {
namespace {

class Shrinker {
 public:
  Shrinker(const StillFails& pred, const MinimizeOptions& o, MinimizeStats* s)
      : pred_(pred), opts_(o), stats_(s) {}

  // Accepts `cand` as the new best if it still fails.
  bool Try(const proto::TestCase& cand) {
    if (stats_->calls >= opts_.max_calls) {
      stats_->budget_exhausted = true;
      return false;
    }
    ++stats_->calls;
    absl::StatusOr<bool> r = pred_(cand);
    if (!r.ok()) {
      ++stats_->errors;
      return false;
    }
    if (*r) best = cand;
    return *r;
  }

  // Simplifies one 32-bit value reached by get/set on a copy of best.
  template <typename Get, typename Set>
  void ShrinkWord(Get get, Set set) {
    const uint32_t v0 = get(best);
    if (v0 == 0) return;
    auto attempt = [&](uint32_t v) {
      if (v == get(best)) return false;
      proto::TestCase c = best;
      set(&c, v);
      return Try(c);
    };
    if (attempt(0)) return;
    if (IsF32Nan(get(best))) {
      attempt(kCanonicalNan) || attempt(kCanonicalNan | 0x80000000u);
    }
    // Clear runs of low bits (the bits that must not matter), largest first.
    for (int n : {24, 16, 12, 8, 4}) {
      const uint32_t v = get(best);
      const uint32_t cleared = v & ~((1u << n) - 1);
      if (cleared != v && cleared != 0) attempt(cleared);
    }
    // Then single set bits, from the top (sign, exponent: smaller magnitude first).
    for (int b = 31; b >= 0; --b) {
      const uint32_t v = get(best);
      if ((v >> b) & 1u) attempt(v & ~(1u << b));
    }
  }

  proto::TestCase best;

 private:
  const StillFails& pred_;
  const MinimizeOptions& opts_;
  MinimizeStats* stats_;
};

// Simplifies every lane's src0..src2 (and vdst_old) words, in that order.
void ShrinkLaneOperands(Shrinker& s, bool with_vdst_old) {
  using L = proto::Lane;
  for (int i = 0; i < s.best.lanes_size(); ++i) {
    auto lane_field = [&](uint32_t (L::*get)() const, void (L::*set)(uint32_t)) {
      s.ShrinkWord([=](const proto::TestCase& c) { return (c.lanes(i).*get)(); },
                   [=](proto::TestCase* c, uint32_t v) { (c->mutable_lanes(i)->*set)(v); });
    };
    lane_field(&L::src0, &L::set_src0);
    lane_field(&L::src1, &L::set_src1);
    lane_field(&L::src2, &L::set_src2);
    if (with_vdst_old) lane_field(&L::vdst_old, &L::set_vdst_old);
  }
}

// Step 1, one lane: hinted lanes alone (while the calls stay few), then halves (bisection),
// then each of the first 64 lanes alone.
void ShrinkToOneLane(Shrinker& s, const std::vector<size_t>& hint_lanes,
                     const MinimizeStats& stats) {
  if (s.best.lanes_size() <= 1) return;
  auto single = [&](int i) {
    proto::TestCase c = s.best;
    c.clear_lanes();
    *c.add_lanes() = s.best.lanes(i);
    return s.Try(c);
  };
  for (size_t i : hint_lanes) {
    if (static_cast<int>(i) < s.best.lanes_size() && single(static_cast<int>(i))) return;
    if (stats.calls > 8) break;
  }
  while (s.best.lanes_size() > 1) {
    const int n = s.best.lanes_size(), half = n / 2;
    proto::TestCase lo = s.best, hi = s.best;
    lo.mutable_lanes()->DeleteSubrange(half, n - half);
    hi.mutable_lanes()->DeleteSubrange(0, half);
    if (s.Try(lo) || s.Try(hi)) continue;
    break;  // the disagreement needs lanes from both halves (or lane position matters)
  }
  for (int i = 0; s.best.lanes_size() > 1 && i < s.best.lanes_size() && i < 64; ++i) {
    if (single(i)) break;
  }
}

proto::Source* MutableSource(proto::TestCase* c, int k) {
  proto::Encoding* e = c->mutable_encoding();
  return k == 0 ? e->mutable_src0() : k == 1 ? e->mutable_src1() : e->mutable_src2();
}
const proto::Source& SourceOf(const proto::TestCase& c, int k) {
  const proto::Encoding& e = c.encoding();
  return k == 0 ? e.src0() : k == 1 ? e.src1() : e.src2();
}

// Uniform source values (SGPR, literal) simplified, then each non-VGPR source back to a VGPR
// carrying the same value in every lane, else keeping the lanes' own values.
void ShrinkUniformSources(Shrinker& s) {
  for (int k = 0; k < 3; ++k) {
    const proto::SourceKind kind = SourceOf(s.best, k).kind();
    if (kind == proto::SOURCE_SGPR || kind == proto::SOURCE_LITERAL) {
      s.ShrinkWord([=](const proto::TestCase& c) { return SourceOf(c, k).value(); },
                   [=](proto::TestCase* c, uint32_t v) {
                     MutableSource(c, k)->set_value(v);
                     // A shared literal keeps one value.
                     if (SourceOf(*c, k).kind() == proto::SOURCE_LITERAL) {
                       for (int j = 0; j < 3; ++j) {
                         proto::Source* o = MutableSource(c, j);
                         if (o->kind() == proto::SOURCE_LITERAL) o->set_value(v);
                       }
                     }
                   });
    }
    // Back to a VGPR carrying the same value in every lane (an inline constant's value is
    // not known here: its lanes keep their own values, and the predicate decides).
    if (kind != proto::SOURCE_VGPR) {
      proto::TestCase c = s.best;
      const uint32_t value = SourceOf(c, k).value();
      const bool carry = SourceOf(c, k).kind() != proto::SOURCE_INLINE;
      MutableSource(&c, k)->Clear();
      if (carry) {
        for (proto::Lane& l : *c.mutable_lanes()) {
          if (k == 0) l.set_src0(value);
          if (k == 1) l.set_src1(value);
          if (k == 2) l.set_src2(value);
        }
      }
      if (!s.Try(c) && carry) {  // or a VGPR keeping the lanes' own values
        c = s.best;
        MutableSource(&c, k)->Clear();
        s.Try(c);
      }
    }
  }
}

// Sources spelled out but equal to the default go away (an SR instruction's absent src2
// encodes SRC2 = 0, as LLVM does).
void DropDefaultSources(Shrinker& s) {
  for (int k = 0; k < 3; ++k) {
    proto::TestCase c = s.best;
    proto::Encoding* e = c.mutable_encoding();
    const bool has = k == 0 ? e->has_src0() : k == 1 ? e->has_src1() : e->has_src2();
    if (!has || e->raw_words_size() > 0) continue;
    if (k == 0) e->clear_src0();
    if (k == 1) e->clear_src1();
    if (k == 2) e->clear_src2();
    s.Try(c);
  }
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
      if (s.Try(c)) continue;
      for (proto::Lane& l : *c.mutable_lanes()) {
        uint32_t v = b == 0 ? l.src0() : b == 1 ? l.src1() : l.src2();
        v = which == 0 ? v ^ 0x80000000u : v & 0x7fffffffu;
        if (b == 0) l.set_src0(v);
        if (b == 1) l.set_src1(v);
        if (b == 2) l.set_src2(v);
      }
      s.Try(c);
    }
  }
}

// Step 3, fewest modifier bits: NEG/ABS, OMOD, OPSEL and CLAMP, then the modifier bits of raw
// words.
void ShrinkModifiers(Shrinker& s) {
  // An absent encoding field is created here (empty): the minimized case always has one.
  (void)s.best.mutable_encoding();
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

absl::StatusOr<proto::TestCase> Minimize(const proto::TestCase& tc, const StillFails& still_fails,
                                         const MinimizeOptions& options, MinimizeStats* stats) {
  MinimizeStats local;
  if (stats == nullptr) stats = &local;
  *stats = {};
  ++stats->calls;
  absl::StatusOr<bool> first = still_fails(tc);
  if (!first.ok()) {
    return absl::Status(first.status().code(),
                        absl::StrCat("cannot minimize: the original case errors: ",
                                     first.status().message()));
  }
  if (!*first) {
    return absl::FailedPreconditionError(
        "cannot minimize: the original case does not disagree when re-run (flaky device?)");
  }
  Shrinker s(still_fails, options, stats);
  s.best = tc;
  // 1. One lane.
  ShrinkToOneLane(s, options.hint_lanes, *stats);
  // 2. Simpler values, lane by lane (usually one lane now), then the uniform sources; values
  // carried over from uniform sources shrink too.
  ShrinkLaneOperands(s, /*with_vdst_old=*/true);
  ShrinkUniformSources(s);
  DropDefaultSources(s);
  ShrinkLaneOperands(s, /*with_vdst_old=*/false);
  // 3. Fewest modifier bits; 4. fewest MODE bits.
  ShrinkModifiers(s);
  ShrinkMode(s);
  return s.best;
}

}  // namespace lanediff
