// VOP3 encoding tables as data (docs/semantics.md §2): the field layout of each family,
// its constant-bus limit and literal support, and what LLVM 22's assembler accepts per target
// and instruction. Opcodes are not here: they live in TargetTraits (model/targets/targets.h).
// One table serves the encoder, the decoder, the printer and the parser.
//
//   const Vop3Layout& l = GetVop3Layout(Family::gfx9);
//   uint32_t op = l.op.Get(words);               // OP[25:16]
//   AsmRules r = GetAsmRules(*target, Instr::v_cvt_sr_fp8_f32);
//   if (r.opsel == OpSelSyntax::byte_sel) ...     // gfx12/gfx1250 byte_sel:N
#ifndef LANEDIFF_MODEL_ISA_TABLES_H_
#define LANEDIFF_MODEL_ISA_TABLES_H_

#include <array>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "model/targets/targets.h"

namespace lanediff {

// One bit field of a VOP3 instruction: `width` bits at bit `lo` of dword `word`.
struct Vop3Field {
  absl::string_view name;  // "OPSEL": spelled as AMD's layout tables spell it
  uint8_t word;            // 0 or 1
  uint8_t lo;              // lowest bit within that dword
  uint8_t width;

  uint32_t Max() const { return width == 32 ? 0xffffffffu : (1u << width) - 1; }
  uint32_t Get(absl::Span<const uint32_t> words) const {
    return (words[word] >> lo) & Max();
  }
  void Set(uint32_t value, absl::Span<uint32_t> words) const {
    words[word] = (words[word] & ~(Max() << lo)) | ((value & Max()) << lo);
  }
};

// The 64-bit VOP3 layout of one family, plus the family's operand rules.
struct Vop3Layout {
  Family family;
  uint32_t enc_value;  // ENC[31:26]: 0b110100 on GFX9, 0b110101 on GFX10+
  Vop3Field vdst, abs, opsel, clamp, op, enc;  // dword 0
  Vop3Field src0, src1, src2, omod, neg;       // dword 1
  // SGPR/special/literal reads allowed per instruction (SEMANTICS.md §2; inline constants
  // and VGPRs are free; reading the same SGPR twice, or the same literal twice, counts once).
  int constant_bus_limit;
  bool literal_allowed;  // operand code 255 + a trailing dword (GFX10+ VOP3 only)

  // Every field in bit order, for tests and documentation.
  std::array<Vop3Field, 11> Fields() const {
    return {vdst, abs, opsel, clamp, op, enc, src0, src1, src2, omod, neg};
  }
};

const Vop3Layout& GetVop3Layout(Family family);

// What LLVM 22's assembler accepts for one instruction on one target (SEMANTICS.md §2,
// second table): the instruction's row (model/instrs.def) and the family's layout, read
// together so the encoder, printer, parser and LLVM-refusal checks share one answer.
struct AsmRules {
  uint8_t neg_abs_srcs = 0b001;  // bit i: -x, |x| accepted on source i
  bool clamp = false;
  bool omod = false;             // never for these instructions
  bool literal = false;
  int constant_bus_limit = 1;  // 2: two different SGPRs (or SGPR + literal) accepted
  OpSelSyntax opsel = OpSelSyntax::none;
  // false when SRC2 carries no data: the syntax has two sources and LLVM encodes SRC2 = 0.
  bool has_src2_operand = true;
};

AsmRules GetAsmRules(const TargetTraits& target, Instr instr);

// The instruction reads no SRC2 (the field carries no data; LLVM encodes 0 there):
// InstrInfo::sources (model/targets/targets.h) is 2.
bool Src2Unused(Instr instr);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_ISA_TABLES_H_
