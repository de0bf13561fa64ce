#include "fuzz/triage/attribution.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/fault.h"
#include "fuzz/classify.h"
#include "model/base/status.h"
#include "model/ops/input_class.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

uint32_t Byte(uint32_t w, int b) { return (w >> (8 * b)) & 0xffu; }

// One 8-bit float code, taken apart by the format's table row.
struct Code {
  bool nan = false, inf = false, negative = false;
  uint32_t magnitude = 0;  // code without the sign bit (all 8 bits for unsigned formats)
  bool zero = false, subnormal = false;
};

Code Take(const Fp8Format& f, uint32_t code) {
  Code c;
  c.magnitude = f.is_signed ? code & 0x7fu : code;
  c.negative = f.is_signed && (code & 0x80u) != 0;
  const uint32_t special = f.is_signed ? 0x7fu : 0xffu;  // all exponent and mantissa bits set
  if (f.fnuz) {
    c.nan = code == 0x80u;
  } else if (f.has_inf) {  // OCP E5M2: exponent all ones; mantissa 0 = Inf, else NaN
    const uint32_t inf = f.inf_out & 0x7fu;
    c.inf = c.magnitude == inf;
    c.nan = c.magnitude > inf;
  } else {
    c.nan = c.magnitude == special;
  }
  c.zero = !c.nan && c.magnitude == 0;
  c.subnormal = !c.nan && !c.inf && c.magnitude != 0 && (c.magnitude >> f.man_bits) == 0;
  return c;
}

}  // namespace

std::string DifferenceClass(const Fp8Format* format, int written_byte, uint32_t kept,
                            uint32_t expected, uint32_t observed) {
  const int w = written_byte & 3;
  const uint32_t ew = Byte(expected, w), ow = Byte(observed, w);
  const uint32_t mask = 0xffu << (8 * w);
  // Moved: byte w was left as kept, and exactly one other byte p changed (its value may
  // differ from the expected one when a second deviation changed it too).
  if (Byte(observed, w) == Byte(kept, w) && (expected & ~mask) == (kept & ~mask)) {
    int changed = 0, at = -1;
    for (int p = 0; p < 4; ++p) {
      if (Byte(observed, p) != Byte(kept, p)) ++changed, at = p;
    }
    if (changed == 1 && at != w) return "byte_moved";
  }
  if ((expected & ~mask) != (observed & ~mask)) {
    return ew == ow ? "unwritten_bytes_changed" : "written_and_unwritten_bytes_changed";
  }
  if (format == nullptr) {  // unsigned 8-bit integer
    const uint32_t d = ew > ow ? ew - ow : ow - ew;
    if (d == 1) return "rounded_other_way";
    if (ew == 0 || ow == 0 || ew == 255 || ow == 255) return "saturated_vs_not";
    return "value_differs";
  }
  const Fp8Format& f = *format;
  const Code e = Take(f, ew), o = Take(f, ow);
  if (e.nan && o.nan) return "nan_encoding";
  if ((e.nan && o.inf) || (e.inf && o.nan)) return "nan_vs_inf";
  if (f.is_signed && !f.fnuz && (ew ^ ow) == 0x80u) return "sign_only";
  const bool e_special = e.nan || e.inf, o_special = o.nan || o.inf;
  if (e_special != o_special) {
    const Code& finite = e_special ? o : e;
    return finite.magnitude == f.max_finite ? "saturated_vs_not" : "special_vs_finite";
  }
  if (e.negative == o.negative || e.zero || o.zero) {  // FNUZ: -tiny rounds to +0 (0x00)
    const uint32_t d = e.magnitude > o.magnitude ? e.magnitude - o.magnitude
                                                 : o.magnitude - e.magnitude;
    if (d == 1) return "rounded_other_way";  // zero vs the smallest subnormal included
    if ((e.zero && o.subnormal) || (e.subnormal && o.zero)) return "zero_vs_subnormal";
  }
  return "value_differs";
}

std::string DifferenceClassMask(const Fp8Format* format, uint32_t mask, uint32_t kept,
                                uint32_t expected, uint32_t observed) {
  int bytes = 0, first = -1;
  for (int p = 0; p < 4; ++p) {
    if (((mask >> (8 * p)) & 0xffu) == 0) continue;
    ++bytes;
    if (first < 0) first = p;
  }
  if (bytes <= 1) return DifferenceClass(format, first < 0 ? 0 : first, kept, expected, observed);
  if ((observed & mask) == (kept & mask) && (expected & ~mask) == (kept & ~mask) &&
      (observed & ~mask) != (kept & ~mask)) {
    return "byte_moved";
  }
  if ((expected & ~mask) != (observed & ~mask)) {
    return (expected & mask) == (observed & mask) ? "unwritten_bytes_changed"
                                                  : "written_and_unwritten_bytes_changed";
  }
  for (int p = 0; p < 4; ++p) {
    const uint32_t m = 0xffu << (8 * p);
    if ((mask & m) == 0 || (expected & m) == (observed & m)) continue;
    return DifferenceClass(format, p, kept, (expected & m) | (kept & ~m), (observed & m) | (kept & ~m));
  }
  return "value_differs";
}

std::string DecodeByte(const Fp8Format* format, uint8_t byte) {
  if (format == nullptr) return absl::StrFormat("0x%02x = %d", byte, byte);
  const Fp8Format& f = *format;
  const Code c = Take(f, byte);
  if (c.nan) return absl::StrFormat("0x%02x = NaN", byte);
  if (c.inf) return absl::StrFormat("0x%02x = %sInf", byte, c.negative ? "-" : "+");
  const int exp_field = static_cast<int>(c.magnitude >> f.man_bits);
  const int man = static_cast<int>(c.magnitude & ((1u << f.man_bits) - 1));
  // value = (exp ? 1 + man/2^m : man/2^m) * 2^(max(exp,1) - bias)
  const double frac = (exp_field ? 1.0 : 0.0) + man / static_cast<double>(1 << f.man_bits);
  double v = frac;
  for (int e = std::max(exp_field, 1) - f.bias; e > 0; --e) v *= 2;
  for (int e = std::max(exp_field, 1) - f.bias; e < 0; ++e) v /= 2;
  if (c.negative) v = -v;
  return absl::StrFormat("0x%02x = %.9g", byte, v);
}

absl::StatusOr<std::vector<Cause>> Attribute(const ResolvedCase& rc,
                                             absl::Span<const uint32_t> expected,
                                             absl::Span<const uint32_t> observed,
                                             const Relaxations& relax) {
  const LaneView v = rc.lanes.view();
  if (expected.size() != v.size || observed.size() != v.size) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "attribution: %d lanes but %d expected and %d observed words", v.size, expected.size(),
        observed.size()));
  }
  const std::vector<size_t> differing = DifferingLanes(rc.ctx, v, expected, observed, relax);
  if (differing.empty()) return std::vector<Cause>();
  const InstrInfo& info = GetInstrInfo(rc.ctx.instr);
  const std::optional<Fp8Shape> shape = Fp8OutputShape(rc.ctx);
  const Fp8Format* format = shape ? shape->format : nullptr;
  auto kept = [&](size_t i) { return KeptWord(info, v.src2[i], v.vdst_old[i]); };
  auto written = [&](size_t i) { return WrittenMask(rc.ctx.instr, rc.ctx.mods.opsel, v.src1[i]); };

  // Structural differences first: no hypothesis moves a byte or touches a kept byte.
  std::map<std::string, Cause> by_class;
  std::vector<size_t> value_lanes;  // only the written byte differs
  for (size_t i : differing) {
    std::string c = DifferenceClassMask(format, written(i), kept(i), expected[i], observed[i]);
    if (c == "byte_moved" || c == "unwritten_bytes_changed" ||
        c == "written_and_unwritten_bytes_changed") {
      by_class[c].lanes.push_back(i);
    } else {
      value_lanes.push_back(i);
    }
  }
  // In a batch that shows visible moves, a lane whose move is invisible moved too.
  if (by_class.count("byte_moved") != 0) {
    std::vector<size_t> rest;
    for (size_t i : value_lanes) {
      // Nothing visible written (observed == kept): it may have moved onto an equal byte, or
      // written a value equal to the old one; one lane cannot tell, its batch can.
      if (observed[i] == kept(i)) {
        by_class["byte_moved"].lanes.push_back(i);
      } else {
        rest.push_back(i);
      }
    }
    value_lanes = std::move(rest);
  }

  // The value differences: the smallest set of alternative hypothesis settings (one, else
  // two) under which the model reproduces every one of them and breaks no lane that agreed.
  std::vector<Cause> causes;
  if (!value_lanes.empty()) {
    std::vector<bool> agreed(v.size, true);
    for (size_t i : differing) agreed[i] = false;
    struct Setting {
      const HypothesisInfo* h;
      uint8_t value;
      std::string name;
      std::vector<bool> explains;  // per lane: the model under this setting matches observed
      bool consistent = true;      // breaks no agreeing lane
    };
    std::vector<Setting> settings;
    std::vector<uint32_t> out(v.size);
    auto evaluate = [&](const OpContext& ctx, std::vector<bool>* explains,
                        bool* consistent) -> absl::Status {
      LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, v, absl::MakeSpan(out)));
      explains->assign(v.size, true);
      *consistent = true;
      for (size_t i : DifferingLanes(ctx, v, out, observed, relax)) {
        (*explains)[i] = false;
        if (agreed[i]) *consistent = false;
      }
      return absl::OkStatus();
    };
    auto all = [&](const std::vector<bool>& e) {
      for (size_t i : value_lanes) {
        if (!e[i]) return false;
      }
      return true;
    };
    bool done = false;
    for (const HypothesisInfo& h : AllHypotheses()) {
      const uint8_t base = h.get(rc.ctx.hyp);
      for (size_t value = 0; value < h.values.size() && !done; ++value) {
        if (value == base) continue;
        Setting st{&h, static_cast<uint8_t>(value), absl::StrCat(h.name, "=", h.values[value].name),
                   {}, true};
        OpContext ctx = rc.ctx;
        h.set(&ctx.hyp, st.value);
        LANEDIFF_RETURN_IF_ERROR(evaluate(ctx, &st.explains, &st.consistent));
        if (st.consistent && all(st.explains)) {
          causes.push_back(Cause{st.name, true, value_lanes});
          done = true;
        }
        settings.push_back(std::move(st));
      }
    }
    for (size_t a = 0; a < settings.size() && !done; ++a) {
      for (size_t b = a + 1; b < settings.size() && !done; ++b) {
        if (settings[a].h == settings[b].h) continue;
        OpContext ctx = rc.ctx;
        settings[a].h->set(&ctx.hyp, settings[a].value);
        settings[b].h->set(&ctx.hyp, settings[b].value);
        std::vector<bool> both;
        bool consistent = true;
        LANEDIFF_RETURN_IF_ERROR(evaluate(ctx, &both, &consistent));
        if (!consistent || !all(both)) continue;
        // Each lane goes to the setting that explains it alone; a lane that needs both counts
        // for both (two deviations, two causes: never a third "both" cause).
        Cause ca{settings[a].name, true, {}}, cb{settings[b].name, true, {}};
        for (size_t i : value_lanes) {
          const bool by_a = settings[a].explains[i], by_b = settings[b].explains[i];
          if (by_a || !by_b) ca.lanes.push_back(i);
          if (by_b || !by_a) cb.lanes.push_back(i);
        }
        for (Cause* c : {&ca, &cb}) {
          if (!c->lanes.empty()) causes.push_back(std::move(*c));
        }
        done = true;
      }
    }
    if (!done) {  // no hypothesis set explains them all: structured difference classes
      for (size_t i : value_lanes) {
        by_class[DifferenceClassMask(format, written(i), kept(i), expected[i], observed[i])]
            .lanes.push_back(i);
      }
    }
  }
  for (auto& [name, c] : by_class) {
    if (c.lanes.empty()) continue;
    c.name = name;
    std::sort(c.lanes.begin(), c.lanes.end());
    causes.push_back(std::move(c));
  }
  // Most lanes first; ties: hypotheses first, then by first lane (deterministic).
  std::sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) {
    if (a.lanes.size() != b.lanes.size()) return a.lanes.size() > b.lanes.size();
    if (a.by_hypothesis != b.by_hypothesis) return a.by_hypothesis;
    return a.lanes.front() < b.lanes.front();
  });
  return causes;
}

absl::StatusOr<std::vector<Cause>> AttributeCase(const proto::TestCase& tc, const Hypotheses& hyp,
                                                 absl::Span<const uint32_t> observed,
                                                 const Relaxations& relax) {
  LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(tc));
  rc.ctx.hyp = hyp;
  std::vector<uint32_t> expected(rc.lanes.size());
  LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, rc.lanes.view(), absl::MakeSpan(expected)));
  return Attribute(rc, expected, observed, relax);
}

absl::StatusOr<bool> ShowsCause(const proto::TestCase& tc, const Hypotheses& hyp,
                                absl::Span<const uint32_t> observed, const Relaxations& relax,
                                const Cause& cause) {
  LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(tc));
  rc.ctx.hyp = hyp;
  const LaneView v = rc.lanes.view();
  std::vector<uint32_t> expected(v.size);
  LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, v, absl::MakeSpan(expected)));
  if (observed.size() != v.size) return false;
  if (cause.by_hypothesis) {
    LANEDIFF_ASSIGN_OR_RETURN(std::vector<Cause> causes, Attribute(rc, expected, observed, relax));
    for (const Cause& c : causes) {
      if (c.name == cause.name) return true;
    }
    return false;
  }
  const InstrInfo& info = GetInstrInfo(rc.ctx.instr);
  const std::optional<Fp8Shape> shape = Fp8OutputShape(rc.ctx);
  for (size_t i : DifferingLanes(rc.ctx, v, expected, observed, relax)) {
    const uint32_t kept = KeptWord(info, v.src2[i], v.vdst_old[i]);
    const uint32_t mask = WrittenMask(rc.ctx.instr, rc.ctx.mods.opsel, v.src1[i]);
    if (DifferenceClassMask(shape ? shape->format : nullptr, mask, kept, expected[i], observed[i]) ==
        cause.name) {
      return true;
    }
  }
  return false;
}

std::string CauseSignature(absl::string_view target, absl::string_view instr,
                           absl::string_view cause) {
  return absl::StrCat(target, ".", instr, ".", cause);
}

std::vector<std::string> SightingAttributes(const proto::TestCase& tc, const ResolvedCase& rc,
                                            size_t lane) {
  std::vector<std::string> out = {absl::StrCat("shape:", ModifierSet(tc, rc.ctx.mods))};
  const LaneView v = rc.lanes.view();
  if (lane < v.size) {
    out.push_back(absl::StrCat("class:", ClassifyInput(rc.ctx, v.src0[lane], v.src1[lane])));
  }
  out.push_back(absl::StrFormat("mode:%08x", rc.ctx.mode));
  return out;
}

std::string FaultCause(const absl::Status& fault) {
  if (std::optional<int> hip = HipErrorOf(fault)) return absl::StrCat("device_fault.hip_error_", *hip);
  switch (fault.code()) {
    case absl::StatusCode::kDeadlineExceeded:
      return "device_fault.hang";
    case absl::StatusCode::kUnavailable:
      return "device_fault.crash";
    default:
      return "device_fault.fault";
  }
}

}  // namespace lanediff
