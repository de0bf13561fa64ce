// The model flags several commands read the same way: the one --targets and --instrs of a
// command that runs on one of each (asm, disasm, eval, sweep, discriminate), the comma lists of
// one that runs on several (fuzz, fidelity), and the repeated
// --hypothesis name=value (fuzz, replay, eval, sweep). One wording for their errors:
// "lanediff COMMAND: --targets: MESSAGE", exit 2 (commands.h kExitUsage).
//
//   const TargetTraits* target = nullptr;
//   if (int rc = ParseOneTarget("sweep", target_name, &target); rc >= 0) return rc;
//   if (int rc = ApplyHypothesisFlags("sweep", hyps, &ctx.hyp); rc >= 0) return rc;
#ifndef LANEDIFF_FUZZ_CLI_MODEL_FLAGS_H_
#define LANEDIFF_FUZZ_CLI_MODEL_FLAGS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {

// --targets naming one target (RequireOne, then FindTarget): -1 with *out set, else 2 after
// the error on stderr (a list, or an unknown name with the valid ones).
int ParseOneTarget(absl::string_view command, absl::string_view value, const TargetTraits** out);
// --instrs naming one instruction (RequireOne, then ParseInstr): -1 with *out set, else 2.
int ParseOneInstr(absl::string_view command, absl::string_view value, Instr* out);
// A comma list for --targets or --instrs (empty entries skipped), each name checked (FindTarget,
// ParseInstr) and appended to *out: -1, else 2 after the first bad name's error.
int ParseTargetList(absl::string_view command, absl::string_view value,
                    std::vector<std::string>* out);
int ParseInstrList(absl::string_view command, absl::string_view value, std::vector<Instr>* out);
// The mnemonic of the first row of model/instrs.def that `is` holds ("" when none does): help
// texts take their example instruction from the rows at run time, never a typed name.
std::string ExampleInstr(bool (*is)(const InstrInfo& row));
// Row tests for ExampleInstr: S1 is the SR seed; the same and the output is an fp8 (E4M3) byte.
bool RowIsSeeded(const InstrInfo& row);
bool RowIsSeededFp8(const InstrInfo& row);
// Every --hypothesis name=value applied to *out in order (SetHypothesis): -1, else 2 after
// the first bad one's error (which lists the valid names or values).
int ApplyHypothesisFlags(absl::string_view command, const std::vector<std::string>& settings,
                         Hypotheses* out);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_MODEL_FLAGS_H_
