// The 9-bit VOP3 source operand codes per family (docs/semantics.md §2), as data:
// SGPRs, special registers, inline integer and float constants, the literal, VGPRs.
//
//   LANEDIFF_ASSIGN_OR_RETURN(OperandInfo op, DescribeOperand(Family::gfx11, 124));
//   op.kind == OperandKind::special && op.name == "null"
//   OperandText(Family::gfx9, 248, std::nullopt) == "0.15915494"
//   InlineConstantCode(0x3f800000) == 242                      // 1.0
//   DescribeOperand(Family::gfx10, 193)->value == 0xffffffff      // inline -1
// What a source reads in each lane (registers, constants, the literal): resolve.h.
//
// Codes the project does not model (209-239, 249-252, 254 and on GFX9 code 125 and 255) are
// errors: the device harness cannot give them a defined value. See llvm_differences.cc for
// the ones LLVM's disassembler still prints.
#ifndef LANEDIFF_MODEL_ISA_OPERANDS_H_
#define LANEDIFF_MODEL_ISA_OPERANDS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "model/targets/targets.h"

namespace lanediff {

inline constexpr uint16_t kLiteralCode = 255;
inline constexpr uint16_t kFirstVgprCode = 256;

enum class OperandKind : uint8_t {
  sgpr,          // s0..s101 (GFX9), s0..s105 (GFX10+)
  special,       // vcc_lo/hi, ttmp0-15, m0, null, exec_lo/hi, flat_scratch, xnack_mask, scc
  inline_int,    // 128..208: 0..64, -1..-16
  inline_float,  // 240..248: 0.5 -0.5 1 -1 2 -2 4 -4 1/(2pi)
  literal,       // 255 (GFX10+): the trailing dword
  vgpr,          // 256..511: v0..v255
};

struct OperandInfo {
  OperandKind kind = OperandKind::sgpr;
  uint16_t code = 0;
  int index = 0;        // SGPR / VGPR / ttmp number
  uint32_t value = 0;   // inline constants: the 32-bit value the operand reads
  absl::string_view name;  // special registers and inline floats: LLVM's spelling
  // Reads the constant bus (SGPRs, special registers except null, the literal).
  bool constant_bus = false;
};

// Error when `code` is not a source operand this project models on `family`, e.g.
// "operand code 209 is not a valid VOP3 source on GFX10".
absl::StatusOr<OperandInfo> DescribeOperand(Family family, uint16_t code);

// LLVM's spelling: "v3", "s20", "vcc_lo", "null", "src_scc", "-16", "0.5", "0.15915494";
// the literal as "0x12345" or, when the value is also an inline constant, "lit(0x3f800000)"
// (so llvm-mc keeps it a literal). Unknown codes print as "/*op 209*/".
std::string OperandText(Family family, uint16_t code, std::optional<uint32_t> literal);

// The inline-constant code whose value is `value` (integers -16..64 first, then the floats),
// or nullopt. 1/(2pi) is 0x3e22f983.
std::optional<uint16_t> InlineConstantCode(uint32_t value);

// Parses an LLVM register or constant spelling ("v3", "s20", "vcc_lo", "m0", "null", "scc",
// "src_scc", "ttmp5", "exec_hi", "7", "-3", "0.5", "-4.0", "0.15915494") into its code.
// Numbers that are not inline constants are an error here (the caller makes a literal).
absl::StatusOr<uint16_t> ParseOperandName(Family family, absl::string_view text);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_OPERANDS_H_
