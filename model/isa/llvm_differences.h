// The known, deliberate differences between this project's VOP3 decoder/printer and LLVM 22's
// disassembler (llvm-mc-22 --disassemble), kept once, here, each with its reason. The
// differential test (llvm_differential_test.cc) applies exactly these and reports anything
// else as a disagreement.
//
//   LlvmDisasmExpectation e = ExpectLlvmDisassembly(*target, words);
//   if (e.comparable) { ... e.valid, e.text are what llvm-mc-22 should answer ... }
#ifndef LANEDIFF_MODEL_ISA_LLVM_DIFFERENCES_H_
#define LANEDIFF_MODEL_ISA_LLVM_DIFFERENCES_H_

#include <span>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {

struct LlvmDifference {
  absl::string_view id;    // "disasm_drops_src12_neg_abs"
  absl::string_view what;  // what LLVM does differently
  absl::string_view why;   // why we do otherwise
};

// Every known difference.
std::span<const LlvmDifference> KnownLlvmDifferences();

// What llvm-mc-22 --disassemble should answer for `words` (an instruction of ours, at the
// start of `words`), given our decoder and the listed differences.
struct LlvmDisasmExpectation {
  bool comparable = true;  // false: a listed difference makes LLVM's answer not comparable
  bool valid = false;      // LLVM decodes the words as one instruction
  int words_used = 0;      // when valid
  std::string text;        // when valid: LLVM's text ("<mnemonic> v5, v1, v2, s3")
  std::vector<absl::string_view> applied;  // ids of the differences that shaped this
};

// What llvm-mc-22 -show-encoding prints for the instruction `in` (its assembler's echo): our
// text (PrintVop3) but for a Src0Int16 row's form suffix, which LLVM does not print
// (disasm_drops_vop1_suffix), and a Src0NoInline row's constant, which it prints as its value
// (disasm_prints_no_inline_constant_value).
std::string LlvmAsmText(const TargetTraits& target, const Vop3Instr& in);

LlvmDisasmExpectation ExpectLlvmDisassembly(const TargetTraits& target,
                                            absl::Span<const uint32_t> words);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_LLVM_DIFFERENCES_H_
