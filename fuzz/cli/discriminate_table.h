// What `lanediff discriminate` prints: a table of the relevant rules (rule, its readings with
// the default marked `*`, the verdict, the questions that decide it), the questions with the
// model's answer under each reading (and the device's), and the next command to run; every
// line at most 100 columns. With --json, the same as JSON Lines (docs/json.md).
#ifndef LANEDIFF_FUZZ_CLI_DISCRIMINATE_TABLE_H_
#define LANEDIFF_FUZZ_CLI_DISCRIMINATE_TABLE_H_

#include <string>
#include <vector>

#include "fuzz/triage/discriminate.h"

namespace lanediff {

inline constexpr size_t kMaxColumns = 100;

// The per-rule verdict: the value followed, "a|b" (undetermined between them), "none" (no
// known reading), "inconclusive", or "-" without a device.
std::string RuleVerdict(const std::string& rule, const DeviceVerdict* verdict);

// The command to run next (`command`, one line, shell words) and why (`why`). `device` is the
// device's flags as given ("--device=sim --inject nan_sign", each word shell-quoted), "" when
// no device was asked.
struct NextStep {
  std::string why, command;
};
NextStep NextCommand(const Discrimination& d, const DeviceVerdict* verdict,
                     const std::string& device);

// `command` as shell lines of at most `width` columns: `  WORD WORD \`, continuation lines
// indented further; never splits a quoted word.
std::string WrapCommand(const std::string& command, size_t width = kMaxColumns);

// The text form: header, rule table, questions, verdict line, next command.
std::string FormatDiscriminationTable(const Discrimination& d, const DeviceVerdict* verdict,
                                      const std::string& device_description,
                                      const std::string& device);

// The JSON Lines form: one "question" object per question, one "rule" object per rule, one
// "verdict" object last.
std::string DiscriminationJsonLines(const Discrimination& d, const DeviceVerdict* verdict,
                                    const std::string& device_description,
                                    const std::string& device);

// `s` as one shell word: as it is when it holds only safe characters, else single-quoted.
std::string ShellWord(const std::string& s);

// `text` wrapped into lines of at most `width` columns: the first starts with `first`, the
// others with `indent` spaces; words are never split (a word longer than a line stands alone).
std::string WrapWords(const std::string& first, const std::string& text, size_t indent,
                      size_t width = kMaxColumns);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_DISCRIMINATE_TABLE_H_
