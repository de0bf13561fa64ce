// `lanediff asm`: LLVM assembly to instruction bytes, with the project's own tables, printed
// exactly as `llvm-mc-22 -arch=amdgcn -mcpu=T -show-encoding` prints them (llvm_mc_format.h):
//
//   $ lanediff asm --targets gfx942 <<< '<mnemonic> v5, v1, v2, s3'      # the pk_u8 row
//   \t<mnemonic> v5, v1, v2, s3          ; encoding: [0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]
//
// Lines as llvm-mc treats them: a blank line prints an empty line; a line starting with `;`,
// `//` or `#` prints nothing; a trailing `; comment` or `// comment` is dropped. A line that
// does not parse or cannot be encoded prints nothing on stdout and llvm-mc's diagnostic on
// stderr (`<stdin>:LINE:COL: error: ...`, the line, a caret); the exit code is then 1.
// Encodings LLVM's assembler refuses (neg on src1, omod, ...) are still encoded, since the
// fuzzer runs them; their line ends in ` ; llvm-mc-22 refuses: REASON` so a diff against
// llvm-mc shows why. `lanediff disasm` is the inverse (disasm_command.cc).
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/llvm_mc_format.h"
#include "model/isa/llvm_differences.h"
#include "model/isa/tables.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// Why llvm-mc-22 would refuse `line` (which we parsed as `in`): the encoding's own reasons,
// and a gfx12/gfx1250 byte select (SR destination, unpacking source) spelled op_sel:, which LLVM
// only accepts as byte_sel:N.
std::vector<std::string> Refusals(const TargetTraits& target, const Vop3Instr& in,
                                  absl::string_view line) {
  std::vector<std::string> why = LlvmRefusals(target, in);
  const OpSelSyntax syntax = GetAsmRules(target, in.instr).opsel;
  if ((syntax == OpSelSyntax::byte_sel || syntax == OpSelSyntax::byte_sel_src) &&
      absl::StrContains(line, "op_sel:")) {
    why.push_back(absl::StrCat("op_sel: spelling (", target.name, " takes byte_sel:N)"));
  }
  // op_sel:[a,b,c] beside byte_sel:N: llvm-mc-22 takes them in that order only.
  if ((syntax == OpSelSyntax::op_sel_byte_sel || syntax == OpSelSyntax::op_sel_dst_byte_sel) &&
      absl::StrContains(line, "op_sel:") && absl::StrContains(line, "byte_sel:") &&
      line.find("byte_sel:") < line.find("op_sel:")) {
    why.push_back("byte_sel:N before op_sel: (llvm-mc-22 takes op_sel:[...] first)");
  }
  // LLVM's disassembler prints sext(...) on the fp8 decodes' SDWA form, its assembler refuses it
  // there; a row with SDWA destination operands (SdwaHasDstSel) takes it.
  if (in.mods.src0_sext && !SdwaHasDstSel(in.instr)) {
    // A std::string made once: g++ 12 -O3 warns (-Warray-bounds, a false positive) on the
    // literal's inlined copy into a temporary here.
    static const std::string kSext =
        "sext() spelling: LLVM's assembler takes no sext() on this SDWA form";
    why.push_back(kSext);
  }
  return why;
}

int RunAsm(int argc, char** argv) {
  Args args("asm",
            "Assemble VOP3 instructions (LLVM syntax, one per line on stdin) with lanediff's own\n"
            "tables, printing exactly what `llvm-mc-22 -arch=amdgcn -mcpu=T -show-encoding`\n"
            "prints, errors included (`<stdin>:LINE:COL: error: ...`).");
  std::string target_name;
  bool bytes_only = false;
  args.Flag("targets", "the one gfx target, e.g. gfx942 (`lanediff targets`); required", &target_name);
  args.Bool("bytes-only", "print only each instruction's byte list `[0x05,0x00,...]`",
            &bytes_only);
  // The example's instruction: the first SR row (op_sel:[a,b,c,d] on gfx942).
  args.Epilog(absl::StrCat(
      "Example:\n"
      "  echo '", ExampleInstr(RowIsSeeded), " v1, v2, v3 op_sel:[0,0,1,1]' | lanediff asm --targets gfx942\n"
      "  diff <(lanediff asm --targets gfx942 < f.s) <(llvm-mc-22 -arch=amdgcn -mcpu=gfx942 \\\n"
      "      -show-encoding < f.s)    # differs only on lines marked `; llvm-mc-22 refuses:`\n"
      "An encoding llvm-mc-22 would refuse (NEG on src1, OMOD, ...) is still assembled; its line\n"
      "ends in ` ; llvm-mc-22 refuses: REASON`.\n"
      "Exit codes: 0 every line assembled; 1 some line did not (diagnostic on stderr); 2 usage."));
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  const TargetTraits* target = nullptr;
  if (int rc = ParseOneTarget("asm", target_name, &target); rc >= 0) return rc;
  int bad = 0;
  std::string line;
  for (int n = 1; std::getline(std::cin, line); ++n) {
    absl::string_view t = absl::StripAsciiWhitespace(line);
    if (t.empty()) {
      if (!bytes_only) std::fputs("\n", stdout);  // llvm-mc echoes a blank line
      continue;
    }
    if (t[0] == '#' || t[0] == ';' || absl::StartsWith(t, "//")) continue;
    absl::StatusOr<Vop3Instr> in = ParseAsm(*target, t);
    absl::StatusOr<std::vector<uint32_t>> words =
        in.ok() ? EncodeVop3(*target, *in) : absl::StatusOr<std::vector<uint32_t>>(in.status());
    if (!words.ok()) {
      const std::string msg(words.status().message());
      std::fputs(LlvmMcDiagnostic(n, ColumnOfQuotedToken(line, msg), "error", msg, line).c_str(),
                 stderr);
      ++bad;
      continue;
    }
    const std::string bytes = FormatEncodingBytes(*words);
    const std::vector<std::string> refusals = Refusals(*target, *in, t);
    const std::string comment =
        refusals.empty() ? "" : absl::StrCat("llvm-mc-22 refuses: ", absl::StrJoin(refusals, "; "));
    if (bytes_only) {
      std::printf("%s%s%s\n", bytes.c_str(), comment.empty() ? "" : " ; ", comment.c_str());
    } else {
      std::fputs(LlvmMcLine(LlvmAsmText(*target, *in), bytes, comment).c_str(), stdout);
    }
  }
  std::fflush(stdout);
  return bad ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(60, "asm", "LLVM assembly -> instruction bytes, printed as llvm-mc does",
                          RunAsm);

}  // namespace lanediff
