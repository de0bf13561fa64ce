#include "model/isa/resolve.h"

#include <array>
#include <cstddef>
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

namespace {

// The slot of register `index` among the first `count` of `slots` (a const or mutable array),
// or nullptr.
template <typename Slots>
auto FindSlot(Slots& slots, int count, int index) -> decltype(&slots[0]) {
  for (int i = 0; i < count; ++i) {
    if (slots[i].index == index) return &slots[i];
  }
  return nullptr;
}

// The slot of register `index`, appended (and counted) when it is not there yet; more than N
// registers is a programming error (RegisterFile's contract): a crash.
template <typename Slot, size_t N>
Slot& FindOrAppendSlot(std::array<Slot, N>& slots, int* count, int index) {
  if (Slot* s = FindSlot(slots, *count, index)) return *s;
  if (*count == static_cast<int>(N)) std::abort();
  Slot& s = slots[(*count)++];
  s.index = index;
  return s;
}

}  // namespace

RegisterFile& RegisterFile::LoadVgpr(int index, LaneWord word) {
  FindOrAppendSlot(vgprs_, &num_vgprs_, index).word = word;
  return *this;
}

RegisterFile& RegisterFile::LoadSgpr(int index, uint32_t value) {
  FindOrAppendSlot(sgprs_, &num_sgprs_, index).value = value;
  return *this;
}

RegisterFile& RegisterFile::LoadVgprTuple(int index, LaneWord word, int capacity) {
  VgprSlot& s = FindOrAppendSlot(vgprs_, &num_vgprs_, index);
  s.word = word;
  s.capacity = capacity;
  return *this;
}

std::optional<LaneWord> RegisterFile::Vgpr(int index) const { return VgprTuple(index, 1); }

std::optional<LaneWord> RegisterFile::VgprTuple(int index, int dwords) const {
  const VgprSlot* s = FindSlot(vgprs_, num_vgprs_, index);
  if (s == nullptr || (dwords == 1) != (s->capacity == 1) || dwords > s->capacity) return std::nullopt;
  return s->word;
}

std::optional<uint32_t> RegisterFile::Sgpr(int index) const {
  const SgprSlot* s = FindSlot(sgprs_, num_sgprs_, index);
  if (s == nullptr) return std::nullopt;
  return s->value;
}

std::string RegisterFile::Describe() const {
  std::string out;
  for (int i = 0; i < num_vgprs_; ++i) {
    const VgprSlot& v = vgprs_[i];
    const std::string reg = v.capacity == 1 ? absl::StrCat("v", v.index)
                                            : absl::StrCat("v[", v.index, ":", v.index + v.capacity - 1, "]");
    absl::StrAppend(&out, out.empty() ? "" : ", ", reg, " (", LaneWordName(v.word), ")");
  }
  for (int i = 0; i < num_sgprs_; ++i) {
    absl::StrAppend(&out, out.empty() ? "" : ", ", "s", sgprs_[i].index);
  }
  return out.empty() ? "nothing" : out;
}

absl::StatusOr<SourceRoute> ResolveSource(Family family, int source, uint16_t code,
                                          std::optional<uint32_t> literal,
                                          const RegisterFile& regs, bool vop1_e32, int bits,
                                          int dwords) {
  absl::StatusOr<OperandInfo> info = DescribeOperand(family, code, vop1_e32, bits);
  if (!info.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("src", source, ": ", info.status().message()));
  }
  if (dwords > 1) {
    // A tuple source (resolve.h): a VGPR tuple the executor loaded, nothing else.
    if (info->kind != OperandKind::vgpr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "src", source, " (operand code ", code, ") is a ", dwords, "-dword tuple source but names ",
          info->name.empty() ? absl::StrCat("operand code ", code) : std::string(info->name),
          ", not a VGPR: the project runs tuple sources from VGPR tuples only (LLVM 22 refuses "
          "SGPRs and constants there; what silicon reads is not documented)"));
    }
    const std::optional<LaneWord> w = regs.VgprTuple(info->index, dwords);
    if (!w.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "src", source, " (operand code ", code, ") reads the tuple v[", info->index, ":",
          info->index + dwords - 1, "], which is not loaded by ", regs.loader(), " (loaded: ",
          regs.Describe(), ")"));
    }
    return SourceRoute{static_cast<int>(*w), 0};
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
      if (bits == 16) {
        // src16_constant's default reading: the 16-bit value in both halves (resolve.h).
        return SourceRoute{-1, info->value | (info->value << 16), true};
      }
      return SourceRoute{-1, info->value};
    case OperandKind::literal:
      if (!literal.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("src", source, " is the literal (operand code 255), but there is no literal dword"));
      }
      return SourceRoute{-1, *literal, bits == 16};  // the dword as encoded
  }
  return absl::InternalError("unreachable operand kind");
}

absl::StatusOr<LaneRouting> ResolveOperands(Family family, absl::Span<const uint16_t> codes,
                                            int sources_read, std::optional<uint32_t> literal,
                                            const RegisterFile& regs, bool vop1_e32,
                                            uint8_t src16, std::array<uint8_t, 3> dwords) {
  LaneRouting r;
  for (int i = 0; i < static_cast<int>(r.lane_field.size()); ++i) {
    if (i >= sources_read || i >= static_cast<int>(codes.size())) continue;  // not read: 0
    absl::StatusOr<SourceRoute> s = ResolveSource(family, i, codes[i], literal, regs, vop1_e32,
                                                  ((src16 >> i) & 1) != 0 ? 16 : 32, dwords[i]);
    if (!s.ok()) return s.status();
    r.lane_field[i] = s->lane_field;
    r.uniform[i] = s->uniform;
    if (s->constant16) r.constant16 |= static_cast<uint8_t>(1u << i);
  }
  return r;
}

absl::StatusOr<LaneRouting> ResolveOperands(const TargetTraits& target, const Vop3Instr& instr,
                                            const RegisterFile& regs) {
  const InstrInfo& info = GetInstrInfo(instr.instr);
  uint8_t src16 = 0;
  for (int i = 0; i < 3; ++i) {
    if (info.src_bits(target.family, i) == 16) src16 |= static_cast<uint8_t>(1u << i);
  }
  const LaneShape shape = info.lane_shape();
  return ResolveOperands(target.family, instr.src, info.sources(), instr.literal, regs,
                         instr.form == InstrForm::e32, src16,
                         {shape.src_dwords[0], shape.src_dwords[1], shape.src_dwords[2]});
}

LaneView ResolveLanes(const LaneRouting& routing, const LaneView& raw, LaneBatch* uniform) {
  const uint32_t* fields[4] = {raw.src0, raw.src1, raw.src2, raw.vdst_old};
  std::vector<uint32_t>* fill[3] = {&uniform->src0(), &uniform->src1(), &uniform->src2()};
  const uint32_t* src[3];
  LaneShape shape;
  shape.dst_words = raw.shape.dst_words;
  for (int i = 0; i < 3; ++i) {
    const int f = routing.lane_field[i];
    if (f >= 0) {
      src[i] = fields[f];  // a VGPR (or tuple): the lane word itself, no copy
      shape.src_dwords[i] = f < 3 ? raw.shape.src_dwords[f] : 1;
    } else {
      fill[i]->assign(raw.size, routing.uniform[i]);
      src[i] = fill[i]->data();
    }
  }
  return {src[0], src[1], src[2], raw.vdst_old, raw.size, shape};
}

void ResolveLanesInto(const LaneRouting& routing, const LaneView& raw, LaneBatch* out) {
  // ResolveLanes fills `out`'s uniform sources; the VGPR sources, which it points at `raw`,
  // are copied.
  const LaneView view = ResolveLanes(routing, raw, out);
  const uint32_t* src[3] = {view.src0, view.src1, view.src2};
  std::vector<uint32_t>* dst[3] = {&out->src0(), &out->src1(), &out->src2()};
  for (int i = 0; i < 3; ++i) {
    if (routing.lane_field[i] >= 0) dst[i]->assign(src[i], src[i] + raw.size * view.shape.src_dwords[i]);
  }
  out->SetShapeKeepingLanes(view.shape);
  out->vdst_old().assign(raw.vdst_old, raw.vdst_old + raw.size);
}

}  // namespace lanediff
