#include "model/isa/resolve.h"

#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "model/isa/operands.h"

namespace lanediff {

absl::string_view LaneWordName(LaneWord w) {
  switch (w) {
    case LaneWord::src0: return "src0";
    case LaneWord::src1: return "src1";
    case LaneWord::src2: return "src2";
    case LaneWord::vdst_old: return "vdst_old";
  }
  return "?";
}

RegisterFile& RegisterFile::LoadVgpr(int index, LaneWord word) {
  for (int i = 0; i < num_vgprs_; ++i) {
    if (vgprs_[i].index == index) {
      vgprs_[i].word = word;
      return *this;
    }
  }
  if (num_vgprs_ == kMaxSlots) std::abort();
  vgprs_[num_vgprs_++] = {index, word};
  return *this;
}

RegisterFile& RegisterFile::LoadSgpr(int index, uint32_t value) {
  for (int i = 0; i < num_sgprs_; ++i) {
    if (sgprs_[i].index == index) {
      sgprs_[i].value = value;
      return *this;
    }
  }
  if (num_sgprs_ == kMaxSlots) std::abort();
  sgprs_[num_sgprs_++] = {index, value};
  return *this;
}

std::optional<LaneWord> RegisterFile::Vgpr(int index) const {
  for (int i = 0; i < num_vgprs_; ++i) {
    if (vgprs_[i].index == index) return vgprs_[i].word;
  }
  return std::nullopt;
}

std::optional<uint32_t> RegisterFile::Sgpr(int index) const {
  for (int i = 0; i < num_sgprs_; ++i) {
    if (sgprs_[i].index == index) return sgprs_[i].value;
  }
  return std::nullopt;
}

std::string RegisterFile::Describe() const {
  std::string out;
  for (int i = 0; i < num_vgprs_; ++i) {
    absl::StrAppend(&out, out.empty() ? "" : ", ", "v", vgprs_[i].index, " (",
                    LaneWordName(vgprs_[i].word), ")");
  }
  for (int i = 0; i < num_sgprs_; ++i) {
    absl::StrAppend(&out, out.empty() ? "" : ", ", "s", sgprs_[i].index);
  }
  return out.empty() ? "nothing" : out;
}

absl::StatusOr<SourceRoute> ResolveSource(Family family, int source, uint16_t code,
                                          std::optional<uint32_t> literal,
                                          const RegisterFile& regs) {
  absl::StatusOr<OperandInfo> info = DescribeOperand(family, code);
  if (!info.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("src", source, ": ", info.status().message()));
  }
  const auto not_loaded = [&](absl::string_view reg) {
    return absl::InvalidArgumentError(absl::StrCat("src", source, " (operand code ", code,
                                                   ") reads ", reg,
                                                   ", which is not loaded by ", regs.loader(),
                                                   " (loaded: ", regs.Describe(), ")"));
  };
  switch (info->kind) {
    case OperandKind::vgpr: {
      const std::optional<LaneWord> w = regs.Vgpr(info->index);
      if (!w.has_value()) return not_loaded(absl::StrCat("v", info->index));
      return SourceRoute{static_cast<int>(*w), 0};
    }
    case OperandKind::sgpr: {
      const std::optional<uint32_t> v = regs.Sgpr(info->index);
      if (!v.has_value()) return not_loaded(absl::StrCat("s", info->index));
      return SourceRoute{-1, *v};
    }
    case OperandKind::special:
      if (info->name == "null") return SourceRoute{-1, 0};
      return absl::InvalidArgumentError(absl::StrCat(
          "src", source, " (operand code ", code, ") reads ", info->name,
          ", a special register whose value is not set by ", regs.loader()));
    case OperandKind::inline_int:
    case OperandKind::inline_float:
      return SourceRoute{-1, info->value};
    case OperandKind::literal:
      if (!literal.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("src", source, " is the literal (operand code 255), but there is no literal dword"));
      }
      return SourceRoute{-1, *literal};
  }
  return absl::InternalError("unreachable operand kind");
}

absl::StatusOr<LaneRouting> ResolveOperands(Family family, absl::Span<const uint16_t> codes,
                                            int sources_read, std::optional<uint32_t> literal,
                                            const RegisterFile& regs) {
  LaneRouting r;
  for (int i = 0; i < static_cast<int>(r.lane_field.size()); ++i) {
    if (i >= sources_read || i >= static_cast<int>(codes.size())) continue;  // not read: 0
    absl::StatusOr<SourceRoute> s = ResolveSource(family, i, codes[i], literal, regs);
    if (!s.ok()) return s.status();
    r.lane_field[i] = s->lane_field;
    r.uniform[i] = s->uniform;
  }
  return r;
}

absl::StatusOr<LaneRouting> ResolveOperands(const TargetTraits& target, const Vop3Instr& instr,
                                            const RegisterFile& regs) {
  return ResolveOperands(target.family, instr.src, GetInstrInfo(instr.instr).sources(),
                         instr.literal, regs);
}

LaneView ResolveLanes(const LaneRouting& routing, const LaneView& raw, LaneBatch* uniform) {
  const uint32_t* fields[4] = {raw.src0, raw.src1, raw.src2, raw.vdst_old};
  std::vector<uint32_t>* fill[3] = {&uniform->src0(), &uniform->src1(), &uniform->src2()};
  const uint32_t* src[3];
  for (int i = 0; i < 3; ++i) {
    if (routing.lane_field[i] >= 0) {
      src[i] = fields[routing.lane_field[i]];  // a VGPR: the lane word itself, no copy
    } else {
      fill[i]->assign(raw.size, routing.uniform[i]);
      src[i] = fill[i]->data();
    }
  }
  return {src[0], src[1], src[2], raw.vdst_old, raw.size};
}

void ResolveLanesInto(const LaneRouting& routing, const LaneView& raw, LaneBatch* out) {
  const uint32_t* fields[4] = {raw.src0, raw.src1, raw.src2, raw.vdst_old};
  std::vector<uint32_t>* dst[3] = {&out->src0(), &out->src1(), &out->src2()};
  for (int i = 0; i < 3; ++i) {
    if (routing.lane_field[i] >= 0) {
      const uint32_t* from = fields[routing.lane_field[i]];
      dst[i]->assign(from, from + raw.size);
    } else {
      dst[i]->assign(raw.size, routing.uniform[i]);
    }
  }
  out->vdst_old().assign(raw.vdst_old, raw.vdst_old + raw.size);
}

}  // namespace lanediff
