// llvm-mc's output and diagnostic formats, reproduced byte for byte so `lanediff asm` and
// `lanediff disasm` can be diffed against `llvm-mc-22 -show-encoding` / `--disassemble` and
// fed to tools that parse llvm-mc. Observed with llvm-mc-22 (Debian LLVM 22.1.8):
//
//   $ echo '<mnemonic> v5, v1, v2, s3' | llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding
//   \t<mnemonic> v5, v1, v2, s3          ; encoding: [0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]
//   (<mnemonic>: the pk_u8 row, 15 characters; the comment column below counts them)
//
// The comment starts at column 40 counting the leading tab as 0 columns (LLVM's
// formatted_raw_ostream gives a tab at column 0 no width), with at least one space before it:
// an SR row's `<mnemonic> v1, v2, v3 op_sel:[0,0,1,1] ; encoding: ...` (44 characters with its
// 16-character mnemonic, 1 space).
//
//   <stdin>:2:25: error: literal operands are not supported      (the pk_u8 row's mnemonic)
//   <mnemonic> v5, v1, bogus, s3
//                      ^
//
// The column counts a tab as one character; the echoed line has its tabs expanded to 8-column
// stops and the caret is placed under the expanded text.
#ifndef LANEDIFF_FUZZ_CLI_LLVM_MC_FORMAT_H_
#define LANEDIFF_FUZZ_CLI_LLVM_MC_FORMAT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace lanediff {

// "\tTEXT\n" (llvm-mc --disassemble) when `bytes` is empty, else
// "\tTEXT<pad>; encoding: BYTES\n" (-show-encoding). `extra_comment`, when not empty, is
// appended before the newline as " ; EXTRA".
std::string LlvmMcLine(absl::string_view text, absl::string_view bytes,
                       absl::string_view extra_comment = "");

// "<stdin>:LINE:COL: KIND: MESSAGE\nSOURCE\nCARET\n"; KIND is "error", "warning" or "note".
std::string LlvmMcDiagnostic(int line, int column, absl::string_view kind,
                             absl::string_view message, absl::string_view source);

// The 1-based column of the first token `message` quotes ('...') when `source` contains it,
// else of the first non-blank character of `source` (llvm-mc points at the operand at fault;
// our messages quote it).
int ColumnOfQuotedToken(absl::string_view source, absl::string_view message);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_LLVM_MC_FORMAT_H_
