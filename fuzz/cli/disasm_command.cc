// `lanediff disasm`: instruction bytes to LLVM assembly, with the project's own tables.
//
//   lanediff disasm --target gfx942 <<< '[0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]'
//   v_cvt_pk_u8_f32 v5, v1, v2, s3
//
// One instruction per line: a byte list as llvm-mc prints it (`[0x05,0x00,...]`, brackets
// optional, or a whole `... ; encoding: [...]` line) or 32-bit hex words separated by spaces
// (`0xd1dd0005 0x000e0501`). Each valid line prints its text; when LLVM's assembler would
// refuse the encoding (NEG on src1, OMOD, ...) the text is followed by `; llvm refuses: ...`.
// An invalid line prints `; invalid: REASON` on stdout (so output lines match input lines) and
// `line N: REASON` on stderr; the exit code is then 1. Blank and `#` lines are skipped.
#include <cstdio>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

int RunDisasm(int argc, char** argv) {
  Args args("disasm",
            "Disassemble VOP3 instruction bytes (one instruction per line on stdin) into LLVM\n"
            "syntax, using lanediff's own tables; invalid words get the reason.");
  std::string target_name;
  args.Flag("target", "T", "gfx target, e.g. gfx942 (see `lanediff targets`)", &target_name);
  args.Epilog(
      "Input forms: [0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00] | 0xd1dd0005 0x000e0501\n"
      "Exit codes: 0 every line valid; 1 some line invalid (reported on stderr); 2 usage.");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  absl::StatusOr<const TargetTraits*> target = FindTarget(target_name);
  if (!target.ok()) {
    std::fprintf(stderr, "lanediff disasm: --target: %s\n",
                 std::string(target.status().message()).c_str());
    return kExitUsage;
  }
  int bad = 0;
  std::string line;
  for (int n = 1; std::getline(std::cin, line); ++n) {
    absl::string_view t = absl::StripAsciiWhitespace(line);
    if (t.empty() || t[0] == '#') continue;
    absl::StatusOr<std::vector<uint32_t>> words = ParseEncodingText(t);
    absl::StatusOr<DecodedVop3> d =
        words.ok() ? DecodeVop3(**target, *words) : absl::StatusOr<DecodedVop3>(words.status());
    if (d.ok() && static_cast<size_t>(d->words_used) != words->size()) {
      d = absl::InvalidArgumentError(
          absl::StrCat(words->size(), " words given, the instruction uses ", d->words_used));
    }
    if (!d.ok()) {
      const std::string why(d.status().message());
      std::printf("; invalid: %s\n", why.c_str());
      std::fprintf(stderr, "line %d: %s\n", n, why.c_str());
      ++bad;
      continue;
    }
    std::string text = PrintVop3(**target, d->vop3);
    if (!d->llvm_refuses.empty()) {
      text += " ; llvm refuses: " + absl::StrJoin(d->llvm_refuses, "; ");
    }
    std::printf("%s\n", text.c_str());
  }
  std::fflush(stdout);
  return bad ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(61, "disasm", "instruction bytes -> LLVM assembly, or why a word is invalid",
                          RunDisasm);

}  // namespace lanediff
