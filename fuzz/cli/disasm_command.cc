// `lanediff disasm`: instruction bytes to LLVM assembly, with the project's own tables,
// printed exactly as `llvm-mc-22 -arch=amdgcn -mcpu=T --disassemble [-show-encoding]` prints
// them (llvm_mc_format.h):
//
//   $ lanediff disasm --targets gfx942 <<< '[0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]'
//   \t<mnemonic> v5, v1, v2, s3        (the pk_u8 row's GFX9 opcode 477 = 0x1dd)
//
// One instruction per line: a byte list as llvm-mc reads it (`[0x05,0x00,...]`, brackets
// optional, or a whole `... ; encoding: [...]` line) or, as an extension, 32-bit hex words
// separated by spaces (`0xd1dd0005 0x000e0501`). Blank and `#` lines print nothing. When
// llvm-mc-22 would answer differently (it refuses the encoding, drops bits we print, ...) the
// line ends in ` ; llvm-mc-22 ...` saying how (model/isa/llvm_differences.h). An invalid line
// prints nothing on stdout and, on stderr, llvm-mc's `<stdin>:L:C: warning: invalid
// instruction encoding` followed by a note with our reason; the exit code is then 1.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/llvm_mc_format.h"
#include "model/isa/llvm_differences.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// How llvm-mc-22 would answer `words` differently from `ours` ("" when it answers the same).
std::string LlvmComment(const TargetTraits& target, const std::vector<uint32_t>& words,
                        const DecodedVop3& d, const std::string& ours) {
  std::vector<std::string> parts;
  const LlvmDisasmExpectation e = ExpectLlvmDisassembly(target, words);
  const std::string ids = absl::StrJoin(e.applied, ", ");
  if (!e.comparable || !e.valid) {
    parts.push_back(absl::StrCat("llvm-mc-22 --disassemble refuses this encoding",
                                 ids.empty() ? "" : " (" + ids + ")"));
  } else if (e.text != ours) {
    parts.push_back(absl::StrCat("llvm-mc-22 --disassemble prints `", e.text, "`",
                                 ids.empty() ? "" : " (" + ids + ")"));
  }
  if (!d.llvm_refuses.empty()) {
    parts.push_back(absl::StrCat("llvm-mc-22 refuses to assemble: ",
                                 absl::StrJoin(d.llvm_refuses, "; ")));
  }
  return absl::StrJoin(parts, "; ");
}

int RunDisasm(int argc, char** argv) {
  Args args("disasm",
            "Disassemble VOP3 instruction bytes (one instruction per line on stdin) with\n"
            "lanediff's own tables, printing exactly what `llvm-mc-22 -arch=amdgcn -mcpu=T\n"
            "--disassemble` prints (with --show-encoding: `... -show-encoding`); invalid words\n"
            "get llvm-mc's warning and the reason.");
  std::string target_name;
  bool show_encoding = false;
  args.Flag("targets", "the one gfx target, e.g. gfx942 (`lanediff targets`); required", &target_name);
  args.Bool("show-encoding", "append `; encoding: [...]` as llvm-mc -show-encoding does",
            &show_encoding);
  args.Epilog(
      "Input forms: [0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00] | 0xd1dd0005 0x000e0501\n"
      "A word llvm-mc-22 decodes differently (or refuses) gets ` ; llvm-mc-22 ...` saying how.\n"
      "Exit codes: 0 every line valid; 1 some line invalid (reported on stderr); 2 usage.");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  const TargetTraits* target = nullptr;
  if (int rc = ParseOneTarget("disasm", target_name, &target); rc >= 0) return rc;
  int bad = 0;
  std::string line;
  for (int n = 1; std::getline(std::cin, line); ++n) {
    absl::string_view t = absl::StripAsciiWhitespace(line);
    if (t.empty() || t[0] == '#') continue;
    absl::StatusOr<std::vector<uint32_t>> words = ParseEncodingText(t);
    absl::StatusOr<DecodedVop3> d =
        words.ok() ? DecodeVop3(*target, *words) : absl::StatusOr<DecodedVop3>(words.status());
    if (d.ok() && static_cast<size_t>(d->words_used) != words->size()) {
      d = absl::InvalidArgumentError(
          absl::StrCat(words->size(), " words given, the instruction uses ", d->words_used));
    }
    if (!d.ok()) {
      // llvm-mc points at the first byte: after a leading '['.
      const size_t first = line.find_first_not_of(" \t[");
      const int col = first == std::string::npos ? 1 : static_cast<int>(first) + 1;
      std::fputs(LlvmMcDiagnostic(n, col, "warning", "invalid instruction encoding", line).c_str(),
                 stderr);
      std::fputs(LlvmMcDiagnostic(n, col, "note", d.status().message(), line).c_str(), stderr);
      ++bad;
      continue;
    }
    const std::string text = PrintVop3(*target, d->vop3);
    const std::string bytes = show_encoding ? FormatEncodingBytes(*words) : "";
    std::fputs(LlvmMcLine(text, bytes, LlvmComment(*target, *words, *d, text)).c_str(), stdout);
  }
  std::fflush(stdout);
  return bad ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(61, "disasm", "instruction bytes -> LLVM assembly as llvm-mc prints it",
                          RunDisasm);

}  // namespace lanediff
