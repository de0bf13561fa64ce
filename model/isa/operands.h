// The 9-bit VOP3 source operand codes per family (docs/semantics.md §2), as data:
// SGPRs, special registers, inline integer and float constants, the literal, VGPRs.
//
//   LANEDIFF_ASSIGN_OR_RETURN(OperandInfo op, DescribeOperand(Family::gfx11, 124));
//   op.kind == OperandKind::special && op.name == "null"
//   OperandText(Family::gfx9, 248, std::nullopt) == "0.15915494"
//   InlineConstantCode(0x3f800000) == 242                      // 1.0
//   DescribeOperand(Family::gfx10, 193)->value == 0xffffffff      // inline -1
//   DescribeOperand(Family::gfx12, 242, false, 16)->value == 0x3c00  // a 16-bit operand's 1.0
//   InlineConstantCode(0x3118, 16) == 248                           // f16 1/(2pi)
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
  // Inline constants: the operand's value: 32 bits, or for a 16-bit operand the 16-bit value
  // (an f16 pattern, an integer as 16 bits) in bits 15:0. What a 16-bit operand's 32-bit source
  // word then holds is the resolver's (resolve.h, hypothesis src16_constant).
  uint32_t value = 0;
  absl::string_view name;  // special registers and inline floats: LLVM's spelling
  // Reads the constant bus (SGPRs, special registers except null, the literal).
  bool constant_bus = false;
};

// Error when `code` is not a source operand this project models on `family`, e.g.
// "operand code 209 is not a valid VOP3 source on GFX10".
// `vop1_e32`: the operand of a 32-bit VOP1 word, which takes a literal on every family
// (GFX9 included; its VOP3 takes none). `bits`: the operand's width (InstrInfo::src_bits),
// 32 or 16.
absl::StatusOr<OperandInfo> DescribeOperand(Family family, uint16_t code, bool vop1_e32 = false,
                                            int bits = 32);

// LLVM's spelling: "v3", "s20", "vcc_lo", "null", "src_scc", "-16", "0.5", "0.15915494";
// the literal as "0x12345" or, when the value is also an inline constant, "lit(0x3f800000)"
// (so llvm-mc keeps it a literal). Unknown codes print as "/*op 209*/".
// A 16-bit operand (`bits` 16) prints its inline constants as a 32-bit one does (llvm-mc-22
// --disassemble: 0xf8 is `0.15915494`, 0xc1 `-1`), its literal as "0x1234", or "lit(0x3c00)"
// when the value is a 16-bit inline constant; a literal dword above 0xffff, which LLVM's
// assembler refuses there, as "lit(0x12345678)" (the word stays exact; LLVM prints its low 16
// bits: llvm_differences.cc disasm_truncates_literal16).
// `int16`: a 16-bit operand LLVM types as an integer (targets.h Src0Int16): a literal is
// lit(...) only when its value is an integer inline constant (`0x3c00` is plain).
std::string OperandText(Family family, uint16_t code, std::optional<uint32_t> literal,
                        bool vop1_e32 = false, int bits = 32, bool int16 = false);

// The inline-constant code whose value is `value` (integers -16..64 first, then the floats),
// or nullopt. 1/(2pi) is 0x3e22f983. `bits` 16: the value of a 16-bit operand (LLVM's
// isInlinableLiteralFP16 / 16-bit integers: 0..64 as 0x0000..0x0040, -1..-16 as
// 0xffff..0xfff0, the f16 patterns 0x3800 (0.5), 0x3c00 (1.0), 0x4000, 0x4400, their negatives
// and 0x3118 (1/(2pi))); a value above 0xffff is none. `int16`: a 16-bit operand LLVM types as
// an integer (targets.h Src0Int16): only 0..64 (llvm-mc-22 -mcpu=gfx1250 assembles `0x3c00` and
// `0xffff` to literals, `-1` and `1.0` to the inline codes 0xc1 and 0xf2, which hold 0xffff and
// 0x3c00 there, as its disassembler prints them).
std::optional<uint16_t> InlineConstantCode(uint32_t value, int bits = 32, bool int16 = false);

// Parses an LLVM register or constant spelling ("v3", "s20", "vcc_lo", "m0", "null", "scc",
// "src_scc", "ttmp5", "exec_hi", "7", "-3", "0.5", "-4.0", "0.15915494") into its code.
// Numbers that are not inline constants are an error here (the caller makes a literal).
absl::StatusOr<uint16_t> ParseOperandName(Family family, absl::string_view text);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_OPERANDS_H_
