// A small command-line parser shared by every `lanediff` subcommand, so that each command's
// flags, defaults and --help text are declared in one place.
//
//   Args args("eval", "Run the model as a pipe: lanes on stdin, VDST words on stdout.");
//   std::string target;
//   bool clamp = false;
//   std::vector<std::string> hyps;
//   args.Flag("targets", "the gfx target, e.g. gfx942 (see `lanediff targets`)", &target);
//   args.Bool("clamp", "set the CLAMP bit", &clamp);
//   args.Repeated("hypothesis", "select a hypothesis (repeatable)", &hyps);
//   if (int rc = args.Parse(argc, argv); rc >= 0) return rc;   // --help or a bad flag
//
// Every flag name must be in the vocabulary (flag_table.h), which gives its metavar and kind:
// a name that is not there, or a kind that does not match (`Hex` for a uint flag), makes every
// Parse fail with an internal error naming the flag, so no command ships a private spelling.
// --help shows each value flag's default: the value *out holds when the flag is declared,
// unless the help text already says `default`.
// Old spellings from the table's deprecation list are accepted with one line on stderr. An
// unknown flag is a usage error that suggests the closest flag (edit distance).
//
// Accepts --name VALUE and --name=VALUE. Integers accept decimal, 0x hex and 0b binary; Hex
// flags are always hexadecimal (`--mode 10` is 0x10), `0x` optional. Every number is checked
// against the flag's accepted range (a NaN, an infinity or 0 workers is a usage error naming
// the flag and the range), so no command needs its own checks:
//
//   args.Uint("jobs", "worker processes", 1, 256, &jobs);          // 1..256
//   args.Double("timeout", "per batch", {0, 86400, true}, &timeout);  // (0, 86400]
#ifndef LANEDIFF_FUZZ_CLI_ARGS_H_
#define LANEDIFF_FUZZ_CLI_ARGS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/cli/flag_table.h"

namespace lanediff {

// Parses "42", "0x2a", "0b101010" into an unsigned integer no larger than `max`.
absl::StatusOr<uint64_t> ParseUnsigned(absl::string_view text, uint64_t max);
// Parses "10" (= 16), "0x10", "f0" into an unsigned integer no larger than `max`: hex always.
absl::StatusOr<uint64_t> ParseHex(absl::string_view text, uint64_t max);

// The accepted values of a floating-point flag: finite, in [min, max], or (min, max] when
// min_exclusive. NaN and infinities are never accepted.
struct DoubleRange {
  double min = 0;
  double max = 1e8;
  bool min_exclusive = false;
};
// "'nan' is not a finite number; accepted: (0, 86400]": an error, or OK with the value.
absl::StatusOr<double> ParseDouble(absl::string_view text, DoubleRange range);

// Time flags: any duration (--time: 0 = no limit) and a positive timeout (--timeout).
inline constexpr DoubleRange kDurationRange{0, 1e8, false};
inline constexpr DoubleRange kTimeoutRange{0, 86400, true};

// For a plural list flag (--targets, --instrs) in a command that runs one item: -1 when `value`
// names at most one, else 2 after "lanediff COMMAND: FLAG takes one item here, got 'a,b'".
int RequireOne(absl::string_view command, absl::string_view flag, absl::string_view value);

class Args {
 public:
  Args(std::string command, std::string summary);

  void Flag(std::string name, std::string help, std::string* out);
  void Uint(std::string name, std::string help, uint64_t max, uint64_t* out);
  // min..max inclusive ("--jobs 0" with min 1 is a usage error).
  void Uint(std::string name, std::string help, uint64_t min, uint64_t max, uint64_t* out);
  // Hexadecimal whatever the digits (`0x` optional), at most `max`.
  void Hex(std::string name, std::string help, uint64_t max, uint64_t* out);
  void Double(std::string name, std::string help, DoubleRange range, double* out);
  void Bool(std::string name, std::string help, bool* out);
  void Repeated(std::string name, std::string help, std::vector<std::string>* out);
  // Positional arguments (after flags, or after --).
  void Positional(std::string metavar, std::string help, std::vector<std::string>* out);
  // Extra text after the flag list in --help (examples, exit codes).
  void Epilog(std::string text) { epilog_ = std::move(text); }

  // Returns -1 when parsing succeeded and the command should run; otherwise the exit code
  // to return now (0 after --help, 2 after a usage error, reported on stderr).
  int Parse(int argc, char** argv);

  // Whether the last Parse saw --NAME (under its own or a deprecated spelling).
  bool Given(absl::string_view name) const;

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
  // A flag whose value `parse` (string_view -> StatusOr<T>) turns into *out; its error's
  // message is the usage error. `shown_default` is appended to the help as "(default: X)".
  template <typename T, typename ParseFn>
  void Parsed(std::string name, FlagKind kind, std::string help, std::string shown_default,
              T* out, ParseFn parse);
  // The table's metavar for `name`, or "" after recording a table error.
  std::string Declare(const std::string& name, FlagKind kind);
  static std::string WithDefault(std::string help, const std::string& shown_default);
  const Spec* Find(absl::string_view name) const;

  std::string command_, summary_, epilog_;
  std::string table_error_;
  std::vector<std::string> given_;  // a flag declared against the vocabulary
  std::vector<Spec> specs_;
  std::string positional_metavar_, positional_help_;
  std::vector<std::string>* positional_ = nullptr;
};

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_ARGS_H_
