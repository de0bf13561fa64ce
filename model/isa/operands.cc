#include "model/isa/operands.h"

#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/match.h"

namespace lanediff {
namespace {

// Inline float constants 240..248 (docs/semantics.md §2, C): f32 bit patterns and LLVM's spelling
// (llvm-mc-22 --disassemble prints 248 as 0.15915494; 1/(2pi) = 0x3e22f983).
struct InlineFloat {
  uint32_t bits;
  absl::string_view text;
};
constexpr InlineFloat kInlineFloats[9] = {
    {0x3f000000, "0.5"}, {0xbf000000, "-0.5"}, {0x3f800000, "1.0"},
    {0xbf800000, "-1.0"}, {0x40000000, "2.0"}, {0xc0000000, "-2.0"},
    {0x40800000, "4.0"}, {0xc0800000, "-4.0"}, {0x3e22f983, "0.15915494"},
};

// The same constants as f16 bit patterns, for a 16-bit operand (C: llvm-mc-22 on gfx1200 and
// gfx1250 assembles the packed fp8 -> f32 conversion's `v[2:3], 0x3800` .. `0xc400` and `0x3118` to codes 240..248
// and prints them with the f32 spellings above).
constexpr uint16_t kInlineF16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                    0xc000, 0x4400, 0xc400, 0x3118};

// The value of inline float constant `code` (240..248) in a `bits`-bit operand.
uint32_t InlineFloatBits(uint16_t code, int bits) {
  return bits == 16 ? kInlineF16[code - 240] : kInlineFloats[code - 240].bits;
}

// Special registers of codes 102..127 (docs/semantics.md §2, C; spellings from llvm-mc-22
// --disassemble). Empty: no special register at this code in this family.
absl::string_view SpecialName(Family family, uint16_t code) {
  static constexpr absl::string_view kTtmp[16] = {
      "ttmp0", "ttmp1", "ttmp2",  "ttmp3",  "ttmp4",  "ttmp5",  "ttmp6",  "ttmp7",
      "ttmp8", "ttmp9", "ttmp10", "ttmp11", "ttmp12", "ttmp13", "ttmp14", "ttmp15"};
  const bool gfx9 = family == Family::gfx9;
  const bool gfx11_plus = family != Family::gfx9 && family != Family::gfx10;
  switch (code) {
    case 102: return gfx9 ? "flat_scratch_lo" : "";
    case 103: return gfx9 ? "flat_scratch_hi" : "";
    case 104: return gfx9 ? "xnack_mask_lo" : "";
    case 105: return gfx9 ? "xnack_mask_hi" : "";
    case 106: return "vcc_lo";
    case 107: return "vcc_hi";
    case 124: return gfx11_plus ? "null" : "m0";
    // GFX9 has no register at 125 (llvm-mc-22 rejects `null` there; see llvm_differences.cc).
    case 125: return gfx9 ? "" : (gfx11_plus ? "m0" : "null");
    case 126: return "exec_lo";
    case 127: return "exec_hi";
    case 253: return "src_scc";
    default: break;
  }
  if (code >= 108 && code <= 123) return kTtmp[code - 108];
  return "";
}

int LastSgpr(Family family) { return family == Family::gfx9 ? 101 : 105; }

}  // namespace

absl::StatusOr<OperandInfo> DescribeOperand(Family family, uint16_t code, bool vop1_e32,
                                            int bits) {
  OperandInfo info;
  info.code = code;
  if (code >= kFirstVgprCode && code <= 511) {
    info.kind = OperandKind::vgpr;
    info.index = code - kFirstVgprCode;
    return info;
  }
  if (code <= LastSgpr(family)) {
    info.kind = OperandKind::sgpr;
    info.index = code;
    info.constant_bus = true;
    return info;
  }
  if (absl::string_view name = SpecialName(family, code); !name.empty()) {
    info.kind = OperandKind::special;
    info.name = name;
    if (code >= 108 && code <= 123) info.index = code - 108;
    info.constant_bus = name != "null";  // llvm-mc-22: `s1, s2, null` is accepted on GFX11
    return info;
  }
  if (code >= 128 && code <= 208) {
    info.kind = OperandKind::inline_int;
    info.value = code <= 192 ? static_cast<uint32_t>(code - 128)
                             : static_cast<uint32_t>(-static_cast<int32_t>(code - 192));
    if (bits == 16) info.value &= 0xffffu;  // -1 is 0xffff
    return info;
  }
  if (code >= 240 && code <= 248) {
    info.kind = OperandKind::inline_float;
    info.value = InlineFloatBits(code, bits);
    info.name = kInlineFloats[code - 240].text;
    return info;
  }
  if (code == kLiteralCode && (family != Family::gfx9 || vop1_e32)) {
    info.kind = OperandKind::literal;
    info.constant_bus = true;
    return info;
  }
  if (code == kLiteralCode) {
    return absl::InvalidArgumentError(
        absl::StrCat("operand code 255 (literal) is not allowed in VOP3 on ",
                     FamilyName(family), ": the family has no VOP3 literal"));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "operand code ", code, " is not a valid VOP3 source on ", FamilyName(family),
      code > 511 ? " (exceeds 9 bits)" : " (not an SGPR, special register, inline constant, "
                                         "literal or VGPR this project models)"));
}

std::optional<uint16_t> InlineConstantCode(uint32_t value, int bits, bool int16) {
  if (bits == 16 && value > 0xffffu) return std::nullopt;
  // Integers 0..64 and -16..-1, as a `bits`-bit two's complement value.
  const int32_t s = bits == 16 ? static_cast<int16_t>(static_cast<uint16_t>(value))
                               : static_cast<int32_t>(value);
  if (s >= 0 && s <= 64) return static_cast<uint16_t>(128 + s);
  // A 16-bit integer operand: 0..64 only (llvm-mc-22 reads `0xffff` as the number 65535, a
  // literal; `-1` is spelled so).
  if (int16) {
    return value <= 64 ? std::optional<uint16_t>(static_cast<uint16_t>(128 + value)) : std::nullopt;
  }
  if (s >= -16 && s <= -1) return static_cast<uint16_t>(192 - s);
  for (uint16_t code = 240; code <= 248; ++code) {
    if (InlineFloatBits(code, bits) == value) return code;
  }
  return std::nullopt;
}

std::string OperandText(Family family, uint16_t code, std::optional<uint32_t> literal,
                        bool vop1_e32, int bits, bool int16) {
  absl::StatusOr<OperandInfo> info = DescribeOperand(family, code, vop1_e32, bits);
  if (!info.ok()) return absl::StrCat("/*op ", code, "*/");
  switch (info->kind) {
    case OperandKind::vgpr: return absl::StrCat("v", info->index);
    case OperandKind::sgpr: return absl::StrCat("s", info->index);
    case OperandKind::special: return std::string(info->name);
    case OperandKind::inline_int:
      return absl::StrCat(bits == 16 ? static_cast<int16_t>(info->value)
                                     : static_cast<int32_t>(info->value));
    case OperandKind::inline_float: return std::string(info->name);
    case OperandKind::literal:
      if (!literal.has_value()) return "/*missing literal*/";
      // llvm-mc-22 prints a literal whose value is also an inline constant as lit(0x...),
      // so that assembling the text keeps it a literal.
      // A 16-bit operand's literal above 0xffff (LLVM refuses it) is spelled lit(...) too.
      if (InlineConstantCode(*literal, bits, int16).has_value() ||
          (bits == 16 && *literal > 0xffffu)) {
        return absl::StrFormat("lit(0x%x)", *literal);
      }
      return absl::StrFormat("0x%x", *literal);
  }
  return "?";
}

absl::StatusOr<uint16_t> ParseOperandName(Family family, absl::string_view text) {
  const std::string t = absl::AsciiStrToLower(text);
  auto number_after = [&](absl::string_view prefix, int max) -> int {
    if (!absl::StartsWith(t, prefix) || t.size() == prefix.size()) return -1;
    int n = 0;
    if (!absl::SimpleAtoi(absl::string_view(t).substr(prefix.size()), &n)) return -1;
    if (t[prefix.size()] == '+' || t[prefix.size()] == '-') return -1;
    return n >= 0 && n <= max ? n : -2;
  };
  if (int n = number_after("v", 255); n >= 0) return static_cast<uint16_t>(kFirstVgprCode + n);
  if (int n = number_after("s", LastSgpr(family)); n >= 0) return static_cast<uint16_t>(n);
  if (int n = number_after("s", 1000); n >= 0) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "': ", FamilyName(family),
                                                   " VOP3 reads SGPRs s0..s", LastSgpr(family)));
  }
  if (t == "scc") return static_cast<uint16_t>(253);
  for (uint16_t code = 102; code <= 127; ++code) {
    if (SpecialName(family, code) == t) return code;
  }
  if (SpecialName(family, 253) == t) return static_cast<uint16_t>(253);
  for (int i = 0; i < 9; ++i) {
    if (kInlineFloats[i].text == t) return static_cast<uint16_t>(240 + i);
  }
  int64_t n = 0;
  if (absl::SimpleAtoi(t, &n) && n >= -16 && n <= 64) {
    return *InlineConstantCode(static_cast<uint32_t>(static_cast<int32_t>(n)));
  }
  return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a register or inline "
                                                 "constant on ", FamilyName(family)));
}

}  // namespace lanediff
