#include "fuzz/cli/model_flags.h"

#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"

namespace lanediff {
namespace {

int UsageError(absl::string_view command, absl::string_view flag, const absl::Status& s) {
  std::fprintf(stderr, "lanediff %s: %s: %s\n", std::string(command).c_str(),
               std::string(flag).c_str(), std::string(s.message()).c_str());
  return kExitUsage;
}

}  // namespace

int ParseOneTarget(absl::string_view command, absl::string_view value, const TargetTraits** out) {
  if (int rc = RequireOne(command, "--targets", value); rc >= 0) return rc;
  absl::StatusOr<const TargetTraits*> t = FindTarget(value);
  if (!t.ok()) return UsageError(command, "--targets", t.status());
  *out = *t;
  return -1;
}

int ParseOneInstr(absl::string_view command, absl::string_view value, Instr* out) {
  if (int rc = RequireOne(command, "--instrs", value); rc >= 0) return rc;
  absl::StatusOr<Instr> i = ParseInstr(value);
  if (!i.ok()) return UsageError(command, "--instrs", i.status());
  *out = *i;
  return -1;
}

int ParseTargetList(absl::string_view command, absl::string_view value,
                    std::vector<std::string>* out) {
  for (absl::string_view t : absl::StrSplit(value, ',', absl::SkipEmpty())) {
    absl::StatusOr<const TargetTraits*> tt = FindTarget(t);
    if (!tt.ok()) return UsageError(command, "--targets", tt.status());
    out->emplace_back(t);
  }
  return -1;
}

int ParseInstrList(absl::string_view command, absl::string_view value, std::vector<Instr>* out) {
  for (absl::string_view i : absl::StrSplit(value, ',', absl::SkipEmpty())) {
    absl::StatusOr<Instr> instr = ParseInstr(i);
    if (!instr.ok()) return UsageError(command, "--instrs", instr.status());
    out->push_back(*instr);
  }
  return -1;
}

std::string ExampleInstr(bool (*is)(const InstrInfo& row)) {
  for (Instr i : kAllInstrs) {
    if (is(GetInstrInfo(i))) return std::string(InstrName(i));
  }
  return "";
}

bool RowIsSeeded(const InstrInfo& row) { return row.src[1] == SrcRole::sr_seed; }
bool RowIsSeededFp8(const InstrInfo& row) {
  return RowIsSeeded(row) && row.output == OutputKind::fp8;
}

int ApplyHypothesisFlags(absl::string_view command, const std::vector<std::string>& settings,
                         Hypotheses* out) {
  for (const std::string& h : settings) {
    if (absl::Status s = SetHypothesis(h, out); !s.ok()) return UsageError(command, "--hypothesis", s);
  }
  return -1;
}

}  // namespace lanediff
