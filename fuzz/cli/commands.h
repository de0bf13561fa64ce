// The `lanediff` subcommands. Each lives in its own file, fuzz/cli/<name>_command.cc, and
// registers itself:
//
//   int RunEval(int argc, char** argv);   // argv[0] is the subcommand's name
//   LANEDIFF_REGISTER_COMMAND(20, "eval", "the model as a pipe", RunEval);
//
// The number orders `lanediff --help`. Command files are compiled straight into the lanediff
// executable (fuzz/CMakeLists.txt globs cli/*_command.cc), so registration cannot be dropped
// by the linker.
//
// Exit codes shared by every command:
//   0 success; 1 the command ran and found something (a disagreement, a bad input line, a
//   finding that no longer reproduces); 2 usage error (a missing or unreadable input path
//   too); 3 a device or environment error (no GPU, a device fault the command cannot continue
//   past, an unwritable corpus or output path). Paths: fuzz/cli/output_path.h.
#ifndef LANEDIFF_FUZZ_CLI_COMMANDS_H_
#define LANEDIFF_FUZZ_CLI_COMMANDS_H_

#include <vector>

#include "absl/strings/string_view.h"

namespace lanediff {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFound = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitEnvironment = 3;

struct Command {
  int order;
  absl::string_view name;
  absl::string_view summary;
  int (*run)(int argc, char** argv);
};

// Every registered subcommand, sorted by order.
std::vector<Command> AllCommands();

// Used by LANEDIFF_REGISTER_COMMAND; returns true.
bool RegisterCommand(const Command& command);

#define LANEDIFF_REGISTER_COMMAND(order, name, summary, fn) \
  static const bool lanediff_registered_command_ =          \
      ::lanediff::RegisterCommand({order, name, summary, fn})

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_COMMANDS_H_
