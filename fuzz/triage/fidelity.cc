#include "fuzz/triage/fidelity.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/fault.h"
#include "device_harness/resolve_case.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"

namespace lanediff {
namespace {

// Are every two of `values` (readings of `rule`) inseparable here (Discrimination::inseparable)?
bool AllInseparable(const Discrimination& d, const std::string& rule,
                    const std::vector<std::string>& values) {
  for (size_t a = 0; a < values.size(); ++a) {
    for (size_t b = a + 1; b < values.size(); ++b) {
      const std::string ab = absl::StrCat(rule, ": ", values[a], " == ", values[b]);
      const std::string ba = absl::StrCat(rule, ": ", values[b], " == ", values[a]);
      if (std::find(d.inseparable.begin(), d.inseparable.end(), ab) == d.inseparable.end() &&
          std::find(d.inseparable.begin(), d.inseparable.end(), ba) == d.inseparable.end()) {
        return false;
      }
    }
  }
  return true;
}

// The status of a finding (FidelityLine::status).
std::string StatusOf(const Discrimination& d, const RuleFinding& f) {
  switch (f.kind) {
    case RuleFinding::Kind::none: return "none";
    case RuleFinding::Kind::spec: return "spec";
    case RuleFinding::Kind::follows: return f.is_default ? "default" : "reading";
    case RuleFinding::Kind::undetermined:
      if (!f.is_default || AllInseparable(d, f.rule, f.values)) {
        return f.is_default ? "default" : "reading";
      }
      return "undetermined";
  }
  return "none";
}

FidelityLine LineOf(const Discrimination& d, const RuleFinding& f) {
  FidelityLine l;
  l.target = d.target;
  l.instr = d.instr;
  l.rule = f.rule;
  l.status = StatusOf(d, f);
  l.finding = f;
  if (const HypothesisInfo* h = FindHypothesis(f.rule)) l.default_value = std::string(h->values[0].name);
  l.verdict = f.kind == RuleFinding::Kind::none   ? "none"
              : f.kind == RuleFinding::Kind::spec ? f.detail
                                                  : absl::StrJoin(f.values, "|");
  if (f.lane.lanes_size() > 0) {
    absl::StatusOr<ResolvedCase> rc = ResolveTestCase(f.lane);
    if (rc.ok()) l.assembly = PrintVop3(*rc->target, rc->vop3);
  }
  return l;
}

std::string LaneText(const FidelityLine& l) {
  const proto::TestCase& tc = l.finding.lane;
  if (tc.lanes_size() == 0) return "";
  return absl::StrFormat("%s\n            src0=0x%08x src1=0x%08x MODE=0x%08x", l.assembly,
                         tc.lanes(0).src0(), tc.lanes(0).src1(),
                         tc.has_mode() ? tc.mode() : kDefaultMode);
}

}  // namespace

int Fidelity::deviations() const {
  return static_cast<int>(
      std::count_if(lines.begin(), lines.end(), [](const FidelityLine& l) { return l.deviation(); }));
}

absl::StatusOr<Fidelity> MeasureFidelity(const std::vector<const TargetTraits*>& targets,
                                         const std::vector<Instr>& instrs, Runner& runner) {
  Fidelity out;
  for (const TargetTraits* t : targets) {
    for (Instr instr : kAllInstrs) {
      if (!t->Has(instr)) continue;
      if (!instrs.empty() && std::find(instrs.begin(), instrs.end(), instr) == instrs.end()) {
        continue;
      }
      FidelityRow& row = out.rows.emplace_back();
      row.target = std::string(t->name);
      row.instr = instr;
      absl::StatusOr<Discrimination> d = Discriminate(*t, instr);
      if (!d.ok()) return d.status();
      row.questions = static_cast<int>(d->questions.size());
      row.checks = static_cast<int>(d->checks.size());
      absl::StatusOr<DeviceVerdict> v = AskDevice(*d, runner);
      if (!v.ok() && IsUnsupported(v.status())) {
        row.skipped = std::string(v.status().message());
        continue;
      }
      if (!v.ok()) {
        return absl::Status(v.status().code(), absl::StrCat(t->name, " ", InstrName(instr), ": ",
                                                            v.status().message()));
      }
      for (const RuleFinding& f : v->findings) out.lines.push_back(LineOf(*d, f));
    }
  }
  return out;
}

std::string FormatFidelity(const Fidelity& f, const std::string& device_description) {
  int asked = 0, rules = 0, none = 0, spec = 0, readings = 0;
  for (const FidelityRow& r : f.rows) asked += r.skipped.empty();
  for (const FidelityLine& l : f.lines) {
    rules += l.status != "spec";
    none += l.status == "none";
    spec += l.status == "spec";
    readings += l.status == "reading";
  }
  std::string out = absl::StrFormat(
      "fidelity of %s\n%d rows asked (%zu skipped), %d rules: %d follow a reading that is not "
      "the default, %d none of the known readings; %d fields differ where the spec is clear\n",
      device_description, asked, f.rows.size() - asked, rules, readings, none, spec);
  size_t li = 0;
  for (const FidelityRow& r : f.rows) {
    absl::StrAppend(&out, "\n", r.target, " ", InstrName(r.instr));
    if (!r.skipped.empty()) {
      absl::StrAppend(&out, ": skipped (", r.skipped, ")\n");
      continue;
    }
    absl::StrAppendFormat(&out, ": %d questions, %d spec checks\n", r.questions, r.checks);
    for (; li < f.lines.size() && f.lines[li].target == r.target && f.lines[li].instr == r.instr;
         ++li) {
      const FidelityLine& l = f.lines[li];
      const std::string what =
          l.status == "spec"   ? absl::StrCat("differs where the spec is clear: ", l.verdict)
          : l.status == "none" ? absl::StrCat("none of the known readings (default ",
                                              l.default_value, ")")
          : l.status == "default"
              ? absl::StrCat(l.verdict, " (the default)")
              : absl::StrCat(l.verdict, " (", l.status == "undetermined" ? "undetermined; " : "",
                             "default ", l.default_value, ")");
      absl::StrAppendFormat(&out, "  %-13s %-18s %s\n", l.status, l.rule, what);
      if (!l.deviation() || l.finding.lane.lanes_size() == 0) continue;
      absl::StrAppend(&out, "      lane: ", LaneText(l), "\n            device ",
                      FormatLaneAnswer(l.finding.device), ", model (defaults) ",
                      FormatLaneAnswer(l.finding.model), "\n");
    }
  }
  return out;
}

void AppendFidelity(const Fidelity& f, const std::string& device_description,
                    proto::RunRecord* record) {
  for (const FidelityLine& l : f.lines) {
    proto::FidelityLine* p = record->add_fidelity();
    p->set_target(l.target);
    p->set_instr(InstrToProto(l.instr));
    p->set_device(device_description);
    p->set_rule(l.rule);
    p->set_status(l.status);
    p->set_verdict(l.verdict);
    p->set_default_value(l.default_value);
    *p->mutable_lane() = l.finding.lane;
    p->set_assembly(l.assembly);
    for (size_t k = 0; k < l.finding.device.words; ++k) p->add_device_words(l.finding.device.word[k]);
    for (size_t k = 0; k < l.finding.model.words; ++k) p->add_model_words(l.finding.model.word[k]);
  }
}

}  // namespace lanediff
