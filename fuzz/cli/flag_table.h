// lanediff's flag vocabulary: every flag any subcommand takes, one spelling per concept, with
// its kind (what its value parses as), metavar and meaning. Commands declare flags through
// Args (args.h), which takes the metavar and kind from here and refuses a name that is not
// here, so a second spelling of a concept cannot appear in one command without appearing in
// this table, where flag_vocabulary_test.py looks for it.
//
// Old spellings live in the deprecation list: they keep working for one release (the parser
// maps them to the new name and prints one `deprecated` line on stderr). `lanediff help flags`
// prints both tables; the man page carries them (scripts/gen_cli_docs.sh).
#ifndef LANEDIFF_FUZZ_CLI_FLAG_TABLE_H_
#define LANEDIFF_FUZZ_CLI_FLAG_TABLE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace lanediff {

enum class FlagKind {
  kText,    // a string (Args::Flag) or a repeatable string (Args::Repeated)
  kUint,    // decimal, 0x hex or 0b binary, range-checked (Args::Uint)
  kHex,     // hexadecimal whatever the digits, 0x optional (Args::Hex)
  kNumber,  // a finite floating-point number, range-checked (Args::Double)
  kSwitch,  // present or absent, or =true/=false (Args::Bool)
};

struct FlagDef {
  absl::string_view name;     // without the dashes
  absl::string_view metavar;  // empty for a switch
  FlagKind kind;
  absl::string_view meaning;  // the concept, the same in every command
};

struct DeprecatedFlag {
  absl::string_view old_name;
  absl::string_view new_name;  // empty: accepted and ignored
  absl::string_view only_in;   // with an empty new_name: the one command that accepts it
};

absl::Span<const FlagDef> FlagTable();
absl::Span<const DeprecatedFlag> DeprecatedFlags();

// nullptr when `name` is not in the table (deprecated names are not).
const FlagDef* FindFlagDef(absl::string_view name);
// nullptr when `name` is no deprecated spelling.
const DeprecatedFlag* FindDeprecatedFlag(absl::string_view name);

absl::string_view FlagKindName(FlagKind kind);

// The text `lanediff help flags` prints: the vocabulary, then the deprecated spellings.
std::string FlagVocabularyText();
// For scripts and the vocabulary test: `flag<TAB>NAME<TAB>KIND<TAB>METAVAR` per flag, then
// `deprecated<TAB>OLD<TAB>NEW` per old spelling.
std::string FlagVocabularyList();

// Levenshtein distance (insertions, deletions, substitutions), for did-you-mean.
size_t EditDistance(absl::string_view a, absl::string_view b);
// The candidate closest to `word` when it is close enough to be a likely typo (distance at
// most 1 for words up to 4 letters, else 2 or a third of the length), else "".
std::string ClosestWord(absl::string_view word, absl::Span<const std::string> candidates);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_FLAG_TABLE_H_
