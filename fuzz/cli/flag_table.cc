#include "fuzz/cli/flag_table.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace lanediff {

namespace {

using K = FlagKind;

// One row per concept. Keep the meaning command-neutral; a command's --help may say more.
constexpr FlagDef kFlags[] = {
    // What runs, and where.
    {"targets", "T[,T...]", K::kText,
     "gfx targets, comma-separated (`lanediff targets`); a command that runs one takes one"},
    {"instrs", "I[,I...]", K::kText,
     "instruction mnemonics, comma-separated; a command that runs one takes one"},
    {"device", "SPEC", K::kText, "where batches run: auto, hip, hip:N, sim, interp, exec:CMD, "
     "exec-serve:CMD, replay:PATH (`lanediff devices`)"},
    {"inject", "ERRATUM", K::kText, "simulator erratum to plant, repeatable (`lanediff devices`)"},
    {"hypothesis", "NAME=VALUE", K::kText,
     "model-side reading of an open rule, repeatable (`lanediff targets --hypotheses`)"},
    {"relax", "NAME", K::kText, "comparison relaxation: nan_payload, unwritten_bytes"},
    // Budgets and scheduling.
    {"time", "SECONDS", K::kNumber, "how long to run (a duration)"},
    {"execs", "N", K::kUint, "how many test cases to run"},
    {"timeout", "SECONDS", K::kNumber, "per-batch device timeout (a hang past it is a fault)"},
    {"start-timeout", "SECONDS", K::kNumber, "how long a HIP child may take to start"},
    {"seed", "S", K::kUint, "PRNG seed"},
    {"jobs", "N", K::kUint, "workers running in parallel"},
    {"shard", "i/n", K::kText, "this machine's share i of n of the work"},
    {"lanes-per-batch", "N", K::kUint, "lanes per test case"},
    {"aim", "PERCENT", K::kUint, "share of batches aimed where hypotheses disagree"},
    {"chunk", "N", K::kUint, "lanes per device batch of a sweep"},
    // Inputs and outputs.
    {"out", "PATH", K::kText, "where to write the command's output file or directory"},
    {"corpus", "DIR", K::kText, "a corpus root (findings/, seeds/)"},
    {"known", "FILE", K::kText, "known-issues file"},
    {"replay-dir", "DIR", K::kText, "directory of recordings to list"},
    {"json", "", K::kSwitch, "machine-readable output (docs/json.md)"},
    {"quiet", "", K::kSwitch, "no progress line"},
    {"allow-undefined", "", K::kSwitch, "also run words that break a documented ISA restriction (undefined by spec)"},
    {"verbose", "", K::kSwitch, "more detail on stderr"},
    // The instruction word and MODE.
    {"opsel", "N", K::kUint, "OPSEL field"},
    {"neg", "N", K::kUint, "NEG mask, bit 0 = src0"},
    {"abs", "N", K::kUint, "ABS mask, bit 0 = src0"},
    {"clamp", "", K::kSwitch, "set the CLAMP bit"},
    {"omod", "N", K::kUint, "OMOD field"},
    {"src0-sel", "N", K::kUint, "SDWA SRC0_SEL (0..3 BYTE_n, 4/5 WORD_n, 6 DWORD)"},
    {"dst-sel", "N", K::kUint, "SDWA DST_SEL (codes as --src0-sel)"},
    {"dst-unused", "N", K::kUint, "SDWA DST_UNUSED (0 PAD, 1 SEXT, 2 PRESERVE)"},
    {"src0-sext", "", K::kSwitch, "set SDWA SRC0_SEXT"},
    {"mode", "HEX", K::kHex, "the MODE register"},
    {"raw-mode", "", K::kSwitch, "evaluate under the MODE given, not the MODE the harness kernel runs with"},
    {"src0", "HEX", K::kHex, "one src0 value"},
    // Sweeps.
    {"all-modes", "", K::kSwitch, "every rounding mode x input-denormal setting"},
    {"first", "N", K::kUint, "start of a range"},
    {"last", "N", K::kUint, "end of a range, exclusive"},
    {"oracle", "off|sampled|every", K::kText, "how often the fast model is checked against the "
     "exact oracle"},
    {"element", "K", K::kUint, "one element of a VGPR-tuple source (0 = its lowest)"},
    {"element-src", "N", K::kUint, "the source (0..2) whose VGPR tuple an element is of"},
    {"base-lane", "HEX,HEX,...", K::kText, "a whole lane: each source's dwords, then vdst_old"},
    // Triage.
    {"accept", "SIGNATURE", K::kText, "a root cause to mark known"},
    {"reason", "TEXT", K::kText, "why an accepted cause is acceptable"},
    {"link", "URL", K::kText, "bug or erratum link"},
    {"since", "RFC3339", K::kText, "a point in time"},
    {"record-fixed", "", K::kSwitch, "write FIXED dates into the known-issues file"},
    {"incomplete", "TEXT", K::kText, "why the run the report covers did not finish"},
    // Listing and measuring.
    {"hypotheses", "", K::kSwitch, "also list the hypotheses"},
    {"hip-count", "", K::kSwitch, "print only the number of usable HIP GPUs"},
    {"selftest", "", K::kSwitch, "check the harness on a device"},
    {"campaign", "", K::kSwitch, "also measure the campaign"},
    {"campaign-time", "SECONDS", K::kNumber, "wall time per measured campaign"},
    {"pipeline", "", K::kSwitch, "measure the host pipeline against the fake HIP runtime"},
    {"cost-model", "GPU", K::kText, "a GPU whose campaign rate to predict (mi300x)"},
    {"cores", "N", K::kUint, "host cores assumed by the cost model"},
    // Encodings.
    {"bytes-only", "", K::kSwitch, "print only byte lists"},
    {"show-encoding", "", K::kSwitch, "append `; encoding: [...]` as llvm-mc does"},
};

// Old spellings, accepted until the release after 0.x that removes them.
constexpr DeprecatedFlag kDeprecated[] = {
    {"target", "targets", ""},
    {"instr", "instrs", ""},
    {"seconds", "time", ""},
    {"campaign-seconds", "campaign-time", ""},
    {"batch-timeout", "timeout", ""},
    {"summary-out", "out", ""},
    {"bundle", "out", ""},
    {"into", "out", ""},
    {"show-text", "", "asm"},
};

}  // namespace

absl::Span<const FlagDef> FlagTable() { return kFlags; }
absl::Span<const DeprecatedFlag> DeprecatedFlags() { return kDeprecated; }

const FlagDef* FindFlagDef(absl::string_view name) {
  for (const FlagDef& f : kFlags) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const DeprecatedFlag* FindDeprecatedFlag(absl::string_view name) {
  for (const DeprecatedFlag& d : kDeprecated) {
    if (d.old_name == name) return &d;
  }
  return nullptr;
}

absl::string_view FlagKindName(FlagKind kind) {
  switch (kind) {
    case K::kText: return "text";
    case K::kUint: return "uint";
    case K::kHex: return "hex";
    case K::kNumber: return "number";
    case K::kSwitch: return "switch";
  }
  return "?";
}

std::string FlagVocabularyText() {
  std::string out =
      "lanediff's flags: one spelling per concept, the same in every command. Numbers (N) are\n"
      "decimal, 0x hex or 0b binary; HEX values are hexadecimal, 0x optional; SECONDS take\n"
      "fractions. Lists (T[,T...]) accept one item. `lanediff COMMAND --help` shows which flags\n"
      "a command takes, with their defaults.\n\n";
  for (const FlagDef& f : kFlags) {
    std::string left = absl::StrCat("  --", f.name, f.metavar.empty() ? "" : " ", f.metavar);
    absl::StrAppend(&out, absl::StrFormat("%-28s %s\n", left, f.meaning));
  }
  absl::StrAppend(&out, "\ndeprecated spellings (accepted for one release, with a note on stderr):\n");
  for (const DeprecatedFlag& d : kDeprecated) {
    absl::StrAppend(&out, absl::StrFormat("  --%-25s %s\n", d.old_name,
                                          d.new_name.empty()
                                              ? absl::StrCat("ignored (", d.only_in, ")")
                                              : absl::StrCat("--", d.new_name)));
  }
  return out;
}

std::string FlagVocabularyList() {
  std::string out;
  for (const FlagDef& f : kFlags) {
    absl::StrAppend(&out, "flag\t", f.name, "\t", FlagKindName(f.kind), "\t", f.metavar, "\n");
  }
  for (const DeprecatedFlag& d : kDeprecated) {
    absl::StrAppend(&out, "deprecated\t", d.old_name, "\t", d.new_name, "\n");
  }
  return out;
}

size_t EditDistance(absl::string_view a, absl::string_view b) {
  // Optimal string alignment: a swap of two neighbours ("tiem") counts as one edit.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string ClosestWord(absl::string_view word, absl::Span<const std::string> candidates) {
  const size_t allowed = word.size() <= 4 ? 1 : std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_distance = allowed + 1;
  for (const std::string& c : candidates) {
    const size_t dist = EditDistance(word, c);
    if (dist < best_distance) {
      best_distance = dist;
      best = c;
    }
  }
  return best;
}

}  // namespace lanediff
