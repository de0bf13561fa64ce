// `lanediff fidelity --device=DEV`: for every (target, row) the device runs, which reading of
// each rule it follows, where it differs where the spec is clear, and what matches no known
// reading, each with one lane that shows it. Built on discriminate (discriminate.h): the same
// questions, spec checks and per-rule verdict (RuleFinding), asked row by row.
//
//   LANEDIFF_ASSIGN_OR_RETURN(Fidelity f, MeasureFidelity({gfx950}, {}, *runner));
//   std::fputs(FormatFidelity(f, runner->Describe()).c_str(), stdout);
#ifndef LANEDIFF_FUZZ_TRIAGE_FIDELITY_H_
#define LANEDIFF_FUZZ_TRIAGE_FIDELITY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/runner.h"
#include "fuzz/triage/discriminate.h"
#include "model/targets/targets.h"
#include "proto/report.pb.h"

namespace lanediff {

// One rule (or spec field) of one (target, row).
struct FidelityLine {
  std::string target;
  Instr instr{};
  // "default": the device follows the rule's default (or readings the questions cannot tell
  // from it here); "reading": another known reading (several when equivalent here, "a|b");
  // "undetermined": the answers leave the default and another open; "none": none of the known
  // readings; "spec": a field of the word not applied as the spec states.
  std::string status;
  std::string rule;           // hypothesis name, or the field ("NEG[0]")
  std::string verdict;        // "literal", "sign_preserving|sign_7f", "none", or what differs
  std::string default_value;  // the rule's default ("" for a spec field)
  RuleFinding finding;        // with its lane, the device's words and the default model's
  std::string assembly;       // the lane's instruction word, as LLVM prints it
  bool deviation() const { return status != "default" && status != "undetermined"; }
};

// A (target, row) asked, or skipped with the reason (the device cannot run the row).
struct FidelityRow {
  std::string target;
  Instr instr{};
  std::string skipped;  // "" when asked
  int questions = 0, checks = 0;
};

struct Fidelity {
  std::vector<FidelityRow> rows;
  std::vector<FidelityLine> lines;  // rows' order; per row its rules, then its spec fields
  int deviations() const;
};

// Every (target, row) with the row among `instrs` (empty: every row), in targets' order then
// model/instrs.def's. A row whose first batch the device answers "unsupported"
// (device_harness/fault.h IsUnsupported) is skipped and says so; any other device error stops.
absl::StatusOr<Fidelity> MeasureFidelity(const std::vector<const TargetTraits*>& targets,
                                         const std::vector<Instr>& instrs, Runner& runner);

// The text: a header, then per row its rules (the deviations with their lane).
std::string FormatFidelity(const Fidelity& f, const std::string& device_description);

// The lines as RunRecord.fidelity entries (`lanediff report` shows them in the HTML report).
void AppendFidelity(const Fidelity& f, const std::string& device_description,
                    proto::RunRecord* record);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_FIDELITY_H_
