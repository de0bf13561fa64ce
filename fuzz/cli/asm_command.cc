// `lanediff asm`: LLVM assembly to instruction bytes, with the project's own tables.
//
//   lanediff asm --target gfx942 <<< 'v_cvt_pk_u8_f32 v5, v1, v2, s3'
//   [0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]
//
// One instruction per line (blank lines and lines starting with `#`, `;` or `//` are
// skipped; a trailing `; comment` is ignored). Each prints its bytes as llvm-mc -show-encoding
// does. Encodings LLVM's assembler would refuse (neg on src1, omod, ...) are still encoded,
// since the fuzzer runs them; each refusal is noted on stderr. A line that does not parse or
// cannot be encoded is reported on stderr by its number and skipped; the exit code is then 1.
// `lanediff disasm` is the inverse (disasm_command.cc).
#include <cstdio>
#include <iostream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

int RunAsm(int argc, char** argv) {
  Args args("asm",
            "Assemble VOP3 instructions (LLVM syntax, one per line on stdin) into bytes,\n"
            "printed as llvm-mc -show-encoding prints them, using lanediff's own tables.");
  std::string target_name;
  bool show_text = false;
  args.Flag("target", "T", "gfx target, e.g. gfx942 (see `lanediff targets`)", &target_name);
  args.Bool("show-text", "print `TEXT ; encoding: [...]` (the canonical text) like llvm-mc",
            &show_text);
  args.Epilog(
      "Example:\n  echo 'v_cvt_sr_fp8_f32 v1, v2, v3 op_sel:[0,0,1,1]' | lanediff asm --target gfx942\n"
      "Exit codes: 0 every line assembled; 1 some line did not (reported on stderr); 2 usage.");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  absl::StatusOr<const TargetTraits*> target = FindTarget(target_name);
  if (!target.ok()) {
    std::fprintf(stderr, "lanediff asm: --target: %s\n", std::string(target.status().message()).c_str());
    return kExitUsage;
  }
  int bad = 0;
  std::string line;
  for (int n = 1; std::getline(std::cin, line); ++n) {
    absl::string_view t = absl::StripAsciiWhitespace(line);
    if (t.empty() || t[0] == '#' || t[0] == ';' || absl::StartsWith(t, "//")) continue;
    absl::StatusOr<Vop3Instr> in = ParseAsm(**target, t);
    absl::StatusOr<std::vector<uint32_t>> words =
        in.ok() ? EncodeVop3(**target, *in) : absl::StatusOr<std::vector<uint32_t>>(in.status());
    if (!words.ok()) {
      std::fprintf(stderr, "line %d: %s\n", n, std::string(words.status().message()).c_str());
      ++bad;
      continue;
    }
    const std::string bytes = FormatEncodingBytes(*words);
    if (show_text) {
      std::printf("%s ; encoding: %s\n", PrintVop3(**target, *in).c_str(), bytes.c_str());
    } else {
      std::printf("%s\n", bytes.c_str());
    }
    for (const std::string& why : LlvmRefusals(**target, *in)) {
      std::fprintf(stderr, "line %d: note: LLVM would refuse this: %s\n", n, why.c_str());
    }
  }
  std::fflush(stdout);
  return bad ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(60, "asm", "LLVM assembly -> instruction bytes (lanediff's VOP3 tables)",
                          RunAsm);

}  // namespace lanediff
