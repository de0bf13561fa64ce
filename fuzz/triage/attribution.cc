#include "fuzz/triage/attribution.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/base/status.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

uint32_t Byte(uint32_t w, int b) { return (w >> (8 * b)) & 0xffu; }
uint32_t SetByte(uint32_t w, int b, uint32_t v) {
  return (w & ~(0xffu << (8 * b))) | ((v & 0xffu) << (8 * b));
}

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
  for (int p = 0; p < 4; ++p) {
    if (p != w && SetByte(kept, p, ew) == observed && Byte(observed, w) == Byte(kept, w)) {
      return "byte_moved";
    }
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
  if (e.negative == o.negative) {
    if ((e.zero && o.subnormal) || (e.subnormal && o.zero)) return "zero_vs_subnormal";
    const uint32_t d = e.magnitude > o.magnitude ? e.magnitude - o.magnitude
                                                 : o.magnitude - e.magnitude;
    if (d == 1) return "rounded_other_way";
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
  std::vector<bool> open(v.size, false);
  for (size_t i : differing) open[i] = true;
  size_t remaining = differing.size();
  std::vector<Cause> causes;

  // Per alternative hypothesis setting: which disagreeing lanes it explains, and whether it
  // breaks a lane that agreed (then it is not the device's behaviour).
  struct Candidate {
    std::string name;
    std::vector<bool> explains;
  };
  std::vector<Candidate> candidates;
  std::vector<uint32_t> out(v.size);
  for (const HypothesisInfo& h : AllHypotheses()) {
    const uint8_t base = h.get(rc.ctx.hyp);
    for (size_t value = 0; value < h.values.size(); ++value) {
      if (value == base) continue;
      OpContext ctx = rc.ctx;
      h.set(&ctx.hyp, static_cast<uint8_t>(value));
      LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, v, absl::MakeSpan(out)));
      const std::vector<size_t> still = DifferingLanes(ctx, v, out, observed, relax);
      Candidate c{absl::StrCat(h.name, "=", h.values[value].name), open};
      bool breaks = false;
      for (size_t i : still) {
        if (!open[i]) breaks = true;
        c.explains[i] = false;
      }
      if (!breaks) candidates.push_back(std::move(c));
    }
  }
  // Greedy cover: the setting explaining most of what is left, until none explains a lane.
  while (remaining > 0) {
    size_t best = candidates.size(), best_n = 0;
    for (size_t k = 0; k < candidates.size(); ++k) {
      size_t n = 0;
      for (size_t i = 0; i < v.size; ++i) n += open[i] && candidates[k].explains[i];
      if (n > best_n) best = k, best_n = n;
    }
    if (best_n == 0) break;
    Cause c{candidates[best].name, true, {}};
    for (size_t i = 0; i < v.size; ++i) {
      if (open[i] && candidates[best].explains[i]) {
        c.lanes.push_back(i);
        open[i] = false;
      }
    }
    remaining -= c.lanes.size();
    causes.push_back(std::move(c));
  }
  // What no setting explains: structured difference classes.
  if (remaining > 0) {
    const InstrInfo& info = GetInstrInfo(rc.ctx.instr);
    const std::optional<Fp8Shape> shape = Fp8OutputShape(rc.ctx);
    const Fp8Format* format = shape ? shape->format : nullptr;
    std::map<std::string, Cause> by_class;
    for (size_t i = 0; i < v.size; ++i) {
      if (!open[i]) continue;
      const uint32_t kept = info.keeps_vdst_old ? v.vdst_old[i] : v.src2[i];
      const int byte = WrittenByte(rc.ctx.instr, rc.ctx.mods.opsel, v.src1[i]);
      std::string name = DifferenceClass(format, byte, kept, expected[i], observed[i]);
      Cause& c = by_class[name];
      c.name = name;
      c.lanes.push_back(i);
    }
    for (auto& [name, c] : by_class) causes.push_back(std::move(c));
  }
  // Most lanes first; ties: hypotheses first, then by first lane (deterministic).
  std::sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) {
    if (a.lanes.size() != b.lanes.size()) return a.lanes.size() > b.lanes.size();
    if (a.by_hypothesis != b.by_hypothesis) return a.by_hypothesis;
    return a.lanes.front() < b.lanes.front();
  });
  return causes;
}

std::string FaultCause(const absl::Status& fault) {
  switch (fault.code()) {
    case absl::StatusCode::kDeadlineExceeded:
      return "device_fault_hang";
    case absl::StatusCode::kUnavailable:
      return "device_fault_crash";
    default:
      return "device_fault";
  }
}

}  // namespace lanediff
