// A small command-line parser shared by every `lanediff` subcommand, so that each command's
// flags, defaults and --help text are declared in one place.
//
//   Args args("eval", "Run the model as a pipe: lanes on stdin, VDST words on stdout.");
//   std::string target;
//   bool clamp = false;
//   std::vector<std::string> hyps;
//   args.Flag("target", "T", "gfx target, e.g. gfx942 (see `lanediff targets`)", &target);
//   args.Bool("clamp", "set the CLAMP bit", &clamp);
//   args.Repeated("hypothesis", "NAME=VALUE", "select a hypothesis (repeatable)", &hyps);
//   if (int rc = args.Parse(argc, argv); rc >= 0) return rc;   // --help or a bad flag
//
// Accepts --name VALUE and --name=VALUE. Integers accept decimal, 0x hex and 0b binary.
#ifndef LANEDIFF_FUZZ_CLI_ARGS_H_
#define LANEDIFF_FUZZ_CLI_ARGS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace lanediff {

// Parses "42", "0x2a", "0b101010" into an unsigned integer no larger than `max`.
absl::StatusOr<uint64_t> ParseUnsigned(absl::string_view text, uint64_t max);

class Args {
 public:
  Args(std::string command, std::string summary);

  void Flag(std::string name, std::string metavar, std::string help, std::string* out);
  void Uint(std::string name, std::string metavar, std::string help, uint64_t max,
            uint64_t* out);
  void Double(std::string name, std::string metavar, std::string help, double* out);
  void Bool(std::string name, std::string help, bool* out);
  void Repeated(std::string name, std::string metavar, std::string help,
                std::vector<std::string>* out);
  // Positional arguments (after flags, or after --).
  void Positional(std::string metavar, std::string help, std::vector<std::string>* out);
  // Extra text after the flag list in --help (examples, exit codes).
  void Epilog(std::string text) { epilog_ = std::move(text); }

  // Returns -1 when parsing succeeded and the command should run; otherwise the exit code
  // to return now (0 after --help, 2 after a usage error, reported on stderr).
  int Parse(int argc, char** argv);

  std::string Help() const;
  // One line per flag, `--NAME<TAB>METAVAR<TAB>HELP` (METAVAR empty for a switch), --help
  // last: what hidden `lanediff COMMAND --list-flags` prints for scripts/gen_cli_docs.sh
  // (shell completions generated from these very tables).
  std::string ListFlags() const;

 private:
  struct Spec {
    std::string name, metavar, help;
    bool is_bool = false;
    std::function<std::string(absl::string_view)> set;  // returns an error or ""
  };
  std::string command_, summary_, epilog_;
  std::vector<Spec> specs_;
  std::string positional_metavar_, positional_help_;
  std::vector<std::string>* positional_ = nullptr;
};

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_ARGS_H_
