// The `lanediff` subcommands. Each lives in its own file, fuzz/cli/<name>_command.cc, and
// takes (argc, argv) with argv[0] the subcommand's name; it returns the process exit code.
//
// Exit codes shared by every command:
//   0 success; 1 the command ran and found something (a disagreement, a bad lane, a
//   non-reproducing finding); 2 usage error; 3 a device or environment error (no GPU, a
//   device fault the command cannot continue past, an unwritable corpus).
#ifndef LANEDIFF_FUZZ_CLI_COMMANDS_H_
#define LANEDIFF_FUZZ_CLI_COMMANDS_H_

#include <span>
#include "absl/strings/string_view.h"

namespace lanediff {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFound = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitEnvironment = 3;

struct Command {
  absl::string_view name;
  absl::string_view summary;
  int (*run)(int argc, char** argv);
};

// Every subcommand, in the order `lanediff --help` lists them.
std::span<const Command> AllCommands();

int RunTargetsCommand(int argc, char** argv);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_COMMANDS_H_
