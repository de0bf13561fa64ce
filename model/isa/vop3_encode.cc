// EncodeVop3: a Vop3Instr as VOP3 words, or (e32, SDWA) as VOP1 words. Layouts: tables.h.
#include "model/isa/vop3.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/base/status.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/vop3_internal.h"

namespace lanediff {
namespace {

using vop3_internal::UsesLiteral;

absl::Status CheckWidth(absl::string_view field, uint32_t value, const Vop3Field& f) {
  if (value > f.Max()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " ", value, " exceeds ", f.width, " bits"));
  }
  return absl::OkStatus();
}

// The VOP1 forms (e32, SDWA) of a VOP1 instruction: tables.h kVop1Layout, kSdwaLayout.
absl::StatusOr<std::vector<uint32_t>> EncodeVop1(const TargetTraits& target, const Vop3Instr& in) {
  const int op = target.Vop1Opcode(in.instr);
  if (op == kNoOpcode) {
    return absl::InvalidArgumentError(absl::StrCat(InstrName(in.instr), " has no VOP1 (",
                                                   InstrFormName(in.form), ") form on ",
                                                   target.name));
  }
  for (int i = 1; i < 3; ++i) {
    if (in.src[i] != 0) {
      return absl::InvalidArgumentError(absl::StrCat("src", i, " = ", in.src[i], ": the ",
                                                     InstrFormName(in.form),
                                                     " form has one source field"));
    }
  }
  const Vop1Layout& l = kVop1Layout;
  std::vector<uint32_t> words(1, 0);
  l.op.Set(static_cast<uint32_t>(op), absl::MakeSpan(words));
  l.vdst.Set(in.vdst, absl::MakeSpan(words));
  l.enc.Set(l.enc_value, absl::MakeSpan(words));
  if (in.form == InstrForm::e32) {
    if (!(in.mods == Modifiers{}) || in.mods.dst_sel != 6 || in.mods.dst_unused != 0 ||
        in.mods.src0_sext) {
      return absl::InvalidArgumentError(
          "the e32 form has no modifier or select fields (the _e64 or _sdwa forms have)");
    }
    LANEDIFF_RETURN_IF_ERROR(CheckWidth("src0", in.src[0], l.src0));
    if (in.src[0] == l.sdwa_code || in.src[0] == l.dpp_code) {
      return absl::InvalidArgumentError(absl::StrCat(
          "src0 code ", in.src[0], " in an e32 word selects the SDWA/DPP form, not an operand"));
    }
    const bool uses_literal = in.src[0] == kLiteralCode;
    if (uses_literal != in.literal.has_value()) {
      return absl::InvalidArgumentError(
          uses_literal ? "src0 is code 255 (literal) but no literal value is set"
                       : "a literal value is set but src0 is not code 255");
    }
    l.src0.Set(in.src[0], absl::MakeSpan(words));
    if (uses_literal) words.push_back(*in.literal);
    return words;
  }
  // SDWA
  if (target.family != Family::gfx9) {
    return absl::InvalidArgumentError(absl::StrCat("the SDWA form exists on GFX9 only, not on ",
                                                   target.name));
  }
  if (in.mods.opsel != 0 || ((in.mods.neg | in.mods.abs) & ~1u) != 0) {
    return absl::InvalidArgumentError(
        "the SDWA form has no OPSEL and neg/abs on src0 only");
  }
  if (in.src[0] == kLiteralCode || in.literal.has_value()) {
    return absl::InvalidArgumentError("the SDWA form takes no literal");
  }
  const SdwaLayout& d = kSdwaLayout;
  const bool vgpr = in.src[0] >= kFirstVgprCode;
  const uint32_t field = vgpr ? in.src[0] - kFirstVgprCode : in.src[0];
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("SDWA src0", field, d.src0));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("src0_sel", in.mods.src0_sel, d.src0_sel));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("dst_sel", in.mods.dst_sel, d.dst_sel));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("dst_unused", in.mods.dst_unused, d.dst_unused));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("omod", in.mods.omod, d.omod));
  l.src0.Set(l.sdwa_code, absl::MakeSpan(words));
  words.push_back(0);
  const absl::Span<uint32_t> w = absl::MakeSpan(words);
  d.src0.Set(field, w);
  d.s0.Set(vgpr ? 0 : 1, w);
  d.dst_sel.Set(in.mods.dst_sel, w);
  d.dst_unused.Set(in.mods.dst_unused, w);
  d.clamp.Set(in.mods.clamp ? 1 : 0, w);
  d.omod.Set(in.mods.omod, w);
  d.src0_sel.Set(in.mods.src0_sel, w);
  d.src0_sext.Set(in.mods.src0_sext ? 1 : 0, w);
  d.src0_neg.Set(in.mods.neg & 1, w);
  d.src0_abs.Set(in.mods.abs & 1, w);
  return words;
}

}  // namespace

absl::StatusOr<std::vector<uint32_t>> EncodeVop3(const TargetTraits& target,
                                                 const Vop3Instr& in) {
  if (!target.Has(in.instr)) {
    return absl::InvalidArgumentError(absl::StrCat("instruction ", InstrName(in.instr),
                                                   " does not exist on ", target.name));
  }
  if (in.form != InstrForm::e64) return EncodeVop1(target, in);
  if (in.mods.src0_sel != 6 || in.mods.dst_sel != 6 || in.mods.dst_unused != 0 || in.mods.src0_sext) {
    return absl::InvalidArgumentError("SDWA fields are set on a VOP3 (e64) instruction");
  }
  const Vop3Layout& l = GetVop3Layout(target.family);
  static constexpr absl::string_view kSrcNames[3] = {"src0", "src1", "src2"};
  for (int i = 0; i < 3; ++i) LANEDIFF_RETURN_IF_ERROR(CheckWidth(kSrcNames[i], in.src[i], l.src0));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("opsel", in.mods.opsel, l.opsel));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("neg", in.mods.neg, l.neg));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("abs", in.mods.abs, l.abs));
  LANEDIFF_RETURN_IF_ERROR(CheckWidth("omod", in.mods.omod, l.omod));
  const bool uses_literal = UsesLiteral(in);
  if (uses_literal && !l.literal_allowed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a source is code 255 (literal) but ", FamilyName(target.family),
        " VOP3 has no literal dword (", target.name, ")"));
  }
  if (uses_literal && !in.literal.has_value()) {
    return absl::InvalidArgumentError("a source is code 255 (literal) but no literal value is set");
  }
  if (!uses_literal && in.literal.has_value()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "literal 0x%08x is set but no source is code 255", *in.literal));
  }
  std::vector<uint32_t> words(2, 0);
  absl::Span<uint32_t> w = absl::MakeSpan(words);
  l.vdst.Set(in.vdst, w);
  l.abs.Set(in.mods.abs, w);
  l.opsel.Set(in.mods.opsel, w);
  l.clamp.Set(in.mods.clamp ? 1 : 0, w);
  l.op.Set(static_cast<uint32_t>(target.Opcode(in.instr)), w);
  l.enc.Set(l.enc_value, w);
  l.src0.Set(in.src[0], w);
  l.src1.Set(in.src[1], w);
  l.src2.Set(in.src[2], w);
  l.omod.Set(in.mods.omod, w);
  l.neg.Set(in.mods.neg, w);
  if (uses_literal) words.push_back(*in.literal);
  return words;
}

}  // namespace lanediff
