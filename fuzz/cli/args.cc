#include "fuzz/cli/args.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace lanediff {

namespace {

absl::StatusOr<uint64_t> ParseDigits(absl::string_view text, absl::string_view digits, int base,
                                     uint64_t max) {
  if (digits.empty()) return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a number"));
  uint64_t value = 0;
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else d = 99;
    if (d >= base) return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a number"));
    if (value > (UINT64_MAX - d) / base) {
      return absl::OutOfRangeError(absl::StrCat("'", text, "' is too large"));
    }
    value = value * base + d;
  }
  if (value > max) {
    return absl::OutOfRangeError(absl::StrCat("'", text, "' is above the maximum ", max,
                                              absl::StrFormat(" (0x%x)", max)));
  }
  return value;
}

// "  --flag METAVAR   help words..." with the help wrapped to 100 columns, continuation lines
// under the help's first column (a long left part gets the help on the next line).
std::string WrapHelp(const std::string& left, absl::string_view help) {
  constexpr size_t kIndent = 29, kWidth = 100;
  std::string out = left;
  size_t column = out.size();
  if (column + 1 > kIndent) {
    out += "\n";
    column = 0;
  }
  out.append(kIndent - column, ' ');
  column = kIndent;
  bool first = true;
  for (absl::string_view word : absl::StrSplit(help, ' ', absl::SkipEmpty())) {
    if (!first && column + 1 + word.size() > kWidth) {
      out += "\n";
      out.append(kIndent, ' ');
      column = kIndent;
      first = true;
    }
    if (!first) {
      out += ' ';
      ++column;
    }
    absl::StrAppend(&out, word);
    column += word.size();
    first = false;
  }
  return out + "\n";
}

}  // namespace

absl::StatusOr<uint64_t> ParseUnsigned(absl::string_view text, uint64_t max) {
  absl::string_view digits = absl::StripAsciiWhitespace(text);
  int base = 10;
  if (absl::ConsumePrefix(&digits, "0x") || absl::ConsumePrefix(&digits, "0X")) {
    base = 16;
  } else if (absl::ConsumePrefix(&digits, "0b") || absl::ConsumePrefix(&digits, "0B")) {
    base = 2;
  }
  return ParseDigits(text, digits, base, max);
}

absl::StatusOr<uint64_t> ParseHex(absl::string_view text, uint64_t max) {
  absl::string_view digits = absl::StripAsciiWhitespace(text);
  if (!absl::ConsumePrefix(&digits, "0x")) (void)absl::ConsumePrefix(&digits, "0X");
  absl::StatusOr<uint64_t> v = ParseDigits(text, digits, 16, max);
  if (absl::IsInvalidArgument(v.status())) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a hex number"));
  }
  return v;
}

absl::StatusOr<double> ParseDouble(absl::string_view text, DoubleRange range) {
  const std::string accepted =
      absl::StrFormat("accepted: %s%.10g, %.10g]", range.min_exclusive ? "(" : "[", range.min, range.max);
  double v = 0;
  if (!absl::SimpleAtod(text, &v)) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a number; ", accepted));
  }
  if (!std::isfinite(v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a finite number; ", accepted));
  }
  if (v < range.min || (range.min_exclusive && v == range.min) || v > range.max) {
    return absl::OutOfRangeError(absl::StrCat("'", text, "' is out of range; ", accepted));
  }
  return v;
}

Args::Args(std::string command, std::string summary)
    : command_(std::move(command)), summary_(std::move(summary)) {}

std::string Args::Declare(const std::string& name, FlagKind kind) {
  const FlagDef* def = FindFlagDef(name);
  if (def == nullptr) {
    if (table_error_.empty()) {
      table_error_ = absl::StrCat("--", name, " is not in the flag table (fuzz/cli/flag_table.cc)");
    }
    return "";
  }
  if (def->kind != kind && table_error_.empty()) {
    table_error_ = absl::StrCat("--", name, " is declared as ", FlagKindName(kind),
                                " but the flag table says ", FlagKindName(def->kind));
  }
  return std::string(def->metavar);
}

std::string Args::WithDefault(std::string help, const std::string& shown_default) {
  const std::string lower = absl::AsciiStrToLower(help);
  if (absl::StrContains(lower, "default") || absl::StrContains(lower, "required")) return help;
  absl::StrAppend(&help, help.empty() ? "" : " ", "(default: ", shown_default, ")");
  return help;
}

void Args::Flag(std::string name, std::string help, std::string* out) {
  std::string metavar = Declare(name, FlagKind::kText);
  help = WithDefault(std::move(help), out->empty() ? "none" : *out);
  specs_.push_back({std::move(name), std::move(metavar), std::move(help), false,
                    [out](absl::string_view v) {
                      *out = std::string(v);
                      return std::string();
                    }});
}

template <typename T, typename ParseFn>
void Args::Parsed(std::string name, FlagKind kind, std::string help, std::string shown_default,
                  T* out, ParseFn parse) {
  std::string metavar = Declare(name, kind);
  help = WithDefault(std::move(help), shown_default);
  specs_.push_back({std::move(name), std::move(metavar), std::move(help), false,
                    [out, parse](absl::string_view v) {
                      absl::StatusOr<T> parsed = parse(v);
                      if (!parsed.ok()) return std::string(parsed.status().message());
                      *out = *parsed;
                      return std::string();
                    }});
}

void Args::Uint(std::string name, std::string help, uint64_t max, uint64_t* out) {
  Parsed(std::move(name), FlagKind::kUint, std::move(help), absl::StrCat(*out), out,
         [max](absl::string_view v) { return ParseUnsigned(v, max); });
}

void Args::Uint(std::string name, std::string help, uint64_t min, uint64_t max, uint64_t* out) {
  Parsed(std::move(name), FlagKind::kUint, std::move(help), absl::StrCat(*out), out,
         [min, max](absl::string_view v) -> absl::StatusOr<uint64_t> {
           absl::StatusOr<uint64_t> parsed = ParseUnsigned(v, UINT64_MAX);
           if (parsed.ok() && *parsed >= min && *parsed <= max) return parsed;
           return absl::OutOfRangeError(absl::StrCat(
               parsed.ok() ? absl::StrCat("'", v, "' is out of range")
                           : std::string(parsed.status().message()),
               "; accepted: ", min, "..", max));
         });
}

void Args::Hex(std::string name, std::string help, uint64_t max, uint64_t* out) {
  Parsed(std::move(name), FlagKind::kHex, std::move(help), absl::StrFormat("0x%x", *out), out,
         [max](absl::string_view v) { return ParseHex(v, max); });
}

void Args::Double(std::string name, std::string help, DoubleRange range, double* out) {
  Parsed(std::move(name), FlagKind::kNumber, std::move(help), absl::StrFormat("%g", *out), out,
         [range](absl::string_view v) { return ParseDouble(v, range); });
}

void Args::Bool(std::string name, std::string help, bool* out) {
  std::string metavar = Declare(name, FlagKind::kSwitch);
  if (*out) help = WithDefault(std::move(help), "on");
  specs_.push_back({std::move(name), std::move(metavar), std::move(help), true,
                    [out](absl::string_view v) {
                      if (v.empty() || v == "true" || v == "1") *out = true;
                      else if (v == "false" || v == "0") *out = false;
                      else return absl::StrCat("'", v, "' is not true or false");
                      return std::string();
                    }});
}

void Args::Repeated(std::string name, std::string help, std::vector<std::string>* out) {
  std::string metavar = Declare(name, FlagKind::kText);
  help = WithDefault(std::move(help), out->empty() ? "none" : absl::StrJoin(*out, ","));
  specs_.push_back({std::move(name), std::move(metavar), std::move(help), false,
                    [out](absl::string_view v) {
                      out->emplace_back(v);
                      return std::string();
                    }});
}

bool Args::Given(absl::string_view name) const {
  for (const std::string& g : given_) {
    if (g == name) return true;
  }
  return false;
}

int RequireOne(absl::string_view command, absl::string_view flag, absl::string_view value) {
  if (!absl::StrContains(value, ',')) return -1;
  std::fprintf(stderr, "lanediff %s: %s takes one item here, got '%s'\n",
               std::string(command).c_str(), std::string(flag).c_str(),
               std::string(value).c_str());
  return 2;
}

const Args::Spec* Args::Find(absl::string_view name) const {
  for (const Spec& s : specs_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

void Args::Positional(std::string metavar, std::string help, std::vector<std::string>* out) {
  positional_metavar_ = std::move(metavar);
  positional_help_ = std::move(help);
  positional_ = out;
}

std::string Args::Help() const {
  std::string out = absl::StrCat("usage: lanediff ", command_, " [flags]");
  if (positional_) absl::StrAppend(&out, " ", positional_metavar_);
  absl::StrAppend(&out, "\n\n", summary_, "\n\nflags:\n");
  for (const Spec& s : specs_) {
    std::string left = absl::StrCat("  --", s.name, s.metavar.empty() ? "" : " ", s.metavar);
    absl::StrAppend(&out, WrapHelp(left, s.help));
  }
  absl::StrAppend(&out, absl::StrFormat("%-28s %s\n", "  --help", "print this text"));
  if (positional_) {
    absl::StrAppend(&out, "\n", absl::StrFormat("  %-26s %s\n", positional_metavar_, positional_help_));
  }
  if (!epilog_.empty()) absl::StrAppend(&out, "\n", epilog_, "\n");
  return out;
}

std::string Args::ListFlags() const {
  std::string out;
  for (const Spec& s : specs_) absl::StrAppend(&out, "--", s.name, "\t", s.metavar, "\t", s.help, "\n");
  absl::StrAppend(&out, "--help\t\tprint this text\n");
  return out;
}

int Args::Parse(int argc, char** argv) {
  if (!table_error_.empty()) {
    std::fprintf(stderr, "lanediff %s: internal error: %s\n", command_.c_str(),
                 table_error_.c_str());
    return 2;
  }
  bool only_positional = false;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (!only_positional && (arg == "--help" || arg == "-h")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (!only_positional && arg == "--list-flags") {  // hidden: for the completion generator
      std::fputs(ListFlags().c_str(), stdout);
      return 0;
    }
    if (!only_positional && arg == "--") {
      only_positional = true;
      continue;
    }
    if (only_positional || !absl::StartsWith(arg, "--")) {
      if (!positional_) {
        std::fprintf(stderr, "lanediff %s: unexpected argument '%s' (see --help)\n",
                     command_.c_str(), argv[i]);
        return 2;
      }
      positional_->emplace_back(arg);
      continue;
    }
    absl::string_view body = arg.substr(2);
    absl::string_view name = body, value;
    bool has_value = false;
    if (size_t eq = body.find('='); eq != absl::string_view::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    const Spec* spec = Find(name);
    if (!spec) {
      const DeprecatedFlag* old = FindDeprecatedFlag(name);
      if (old != nullptr && old->new_name.empty() && old->only_in == command_) {
        std::fprintf(stderr, "lanediff %s: --%s is deprecated and does nothing\n",
                     command_.c_str(), std::string(name).c_str());
        continue;  // a switch: no value to skip
      }
      if (old != nullptr && !old->new_name.empty() && (spec = Find(old->new_name)) != nullptr) {
        std::fprintf(stderr, "lanediff %s: --%s is deprecated, use --%s (the old spelling goes "
                     "in the next release)\n", command_.c_str(), std::string(name).c_str(),
                     spec->name.c_str());
      }
    }
    if (!spec) {
      std::vector<std::string> names;
      for (const Spec& s : specs_) names.push_back(s.name);
      names.push_back("help");
      std::string best = ClosestWord(name, names);
      if (best.empty()) {  // a typo of an old spelling: suggest its new one
        std::vector<std::string> old_names;
        for (const DeprecatedFlag& d : DeprecatedFlags()) {
          if (!d.new_name.empty() && Find(d.new_name) != nullptr) old_names.emplace_back(d.old_name);
        }
        const std::string old_best = ClosestWord(name, old_names);
        if (!old_best.empty()) best = std::string(FindDeprecatedFlag(old_best)->new_name);
      }
      std::fprintf(stderr, "lanediff %s: unknown flag --%s%s (see lanediff help %s)\n",
                   command_.c_str(), std::string(name).c_str(),
                   best.empty() ? "" : absl::StrCat("; did you mean --", best, "?").c_str(),
                   command_.c_str());
      return 2;
    }
    if (!has_value && !spec->is_bool) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "lanediff %s: --%s needs a value (%s)\n", command_.c_str(),
                     spec->name.c_str(), spec->metavar.c_str());
        return 2;
      }
      value = argv[++i];
    }
    given_.push_back(spec->name);
    std::string error = spec->set(value);
    if (!error.empty()) {
      std::fprintf(stderr, "lanediff %s: --%s: %s\n", command_.c_str(), spec->name.c_str(),
                   error.c_str());
      return 2;
    }
  }
  return -1;
}

}  // namespace lanediff
