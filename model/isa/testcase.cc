#include "model/isa/testcase.h"

#include <array>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "google/protobuf/descriptor.h"
#include "model/base/status.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"

namespace lanediff {
namespace {

const proto::Source& SourceOf(const proto::Encoding& e, int i) {
  return i == 0 ? e.src0() : (i == 1 ? e.src1() : e.src2());
}
bool HasSource(const proto::Encoding& e, int i) {
  return i == 0 ? e.has_src0() : (i == 1 ? e.has_src1() : e.has_src2());
}

absl::Status CheckBits(absl::string_view field, uint32_t value, int bits) {
  if (value >> bits) {
    return absl::InvalidArgumentError(
        absl::StrCat("encoding.", field, " ", value, " exceeds ", bits, " bits"));
  }
  return absl::OkStatus();
}

}  // namespace

// The proto enum is the wire format; each row of model/instrs.def names its value. Checked at
// build time: every row's proto value exists, is spelled as the mnemonic and has the row's
// number, and the enum has no value without a row (its values are 0 and 1..kNumInstrs).
#define LANEDIFF_INSTR(mnemonic, proto_number, ...)                                    \
  static_assert(static_cast<int>(proto::mnemonic) == proto_number,                       \
                "proto::Instruction " #mnemonic " must have the number its row gives");
#include "model/instrs.def"
#undef LANEDIFF_INSTR
static_assert(proto::Instruction_MAX == kNumInstrs && proto::Instruction_MIN == 0,
              "proto::Instruction has a value with no row in model/instrs.def (or the reverse)");

namespace {
// Instr index by proto number (-1: none), and proto number by Instr.
constexpr std::array<int, kNumInstrs + 1> kInstrByProto = [] {
  std::array<int, kNumInstrs + 1> t{};
  t.fill(-1);
#define LANEDIFF_INSTR(mnemonic, proto_number, ...) \
  t[proto_number] = static_cast<int>(Instr::mnemonic);
#include "model/instrs.def"
#undef LANEDIFF_INSTR
  return t;
}();
constexpr proto::Instruction kProtoByInstr[] = {
#define LANEDIFF_INSTR(mnemonic, proto_number, ...) proto::mnemonic,
#include "model/instrs.def"
#undef LANEDIFF_INSTR
};
}  // namespace

absl::StatusOr<Instr> InstrFromProto(proto::Instruction p) {
  const int n = static_cast<int>(p);
  if (n < 0 || n > kNumInstrs || kInstrByProto[n] < 0) {
    return absl::InvalidArgumentError(absl::StrCat("instr ", n,
                                                   " is not an instruction lanediff models"));
  }
  return static_cast<Instr>(kInstrByProto[n]);
}

proto::Instruction InstrToProto(Instr instr) { return kProtoByInstr[static_cast<size_t>(instr)]; }

namespace {

// encoding.form and encoding.src0_sel (absent: the VOP3 form, DWORD) checked against the row.
absl::StatusOr<InstrForm> FormFromProto(const TargetTraits& target, Instr instr,
                                        const proto::Encoding& e) {
  const InstrForm form = e.form() == proto::FORM_E32    ? InstrForm::e32
                         : e.form() == proto::FORM_SDWA ? InstrForm::sdwa
                                                        : InstrForm::e64;
  if (e.form() != proto::FORM_E64 && e.form() != proto::FORM_E32 && e.form() != proto::FORM_SDWA) {
    return absl::InvalidArgumentError(absl::StrCat("encoding.form ", static_cast<int>(e.form()),
                                                   " is not FORM_E64, FORM_E32 or FORM_SDWA"));
  }
  if (!HasForm(target, instr, form)) {
    return absl::InvalidArgumentError(absl::StrCat("encoding.form: ", InstrName(instr), " has no ",
                                                   InstrFormName(form), " form on ", target.name,
                                                   " (SDWA: GFX9 only)"));
  }
  if (e.has_src0_sel() && (form != InstrForm::sdwa || e.src0_sel() > 7)) {
    return absl::InvalidArgumentError("encoding.src0_sel: 0..7, and only with FORM_SDWA");
  }
  return form;
}

}  // namespace

absl::StatusOr<Vop3Instr> Vop3FromTestCase(const TargetTraits& target, const proto::TestCase& tc,
                                           const RegisterConvention& conv) {
  LANEDIFF_ASSIGN_OR_RETURN(Instr instr, InstrFromProto(tc.instr()));
  if (!target.Has(instr)) {
    return absl::InvalidArgumentError(absl::StrCat("instruction ", InstrName(instr),
                                                   " does not exist on ", target.name));
  }
  const proto::Encoding& e = tc.encoding();
  if (e.raw_words_size() > 0) {
    if (e.opsel() || e.neg() || e.abs() || e.clamp() || e.omod() || e.form() != proto::FORM_E64 ||
        e.has_src0_sel()) {
      return absl::InvalidArgumentError(
          "encoding: raw_words is set, so opsel/neg/abs/clamp/omod/form/src0_sel must not be "
          "(the decoder derives them)");
    }
    std::vector<uint32_t> words(e.raw_words().begin(), e.raw_words().end());
    absl::StatusOr<DecodedVop3> d = DecodeVop3(target, words, /*allow_undefined=*/true);
    if (!d.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("encoding.raw_words: ", d.status().message()));
    }
    if (static_cast<size_t>(d->words_used) != words.size()) {
      return absl::InvalidArgumentError(absl::StrCat("encoding.raw_words: ", words.size(),
                                                     " words given, the instruction uses ",
                                                     d->words_used));
    }
    if (d->vop3.instr != instr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "encoding.raw_words encode ", InstrName(d->vop3.instr), ", but instr is ",
          InstrName(instr)));
    }
    return d->vop3;
  }
  Vop3Instr in;
  in.instr = instr;
  in.vdst = conv.vdst;
  LANEDIFF_RETURN_IF_ERROR(CheckBits("opsel", e.opsel(), 4));
  LANEDIFF_RETURN_IF_ERROR(CheckBits("neg", e.neg(), 3));
  LANEDIFF_RETURN_IF_ERROR(CheckBits("abs", e.abs(), 3));
  LANEDIFF_RETURN_IF_ERROR(CheckBits("omod", e.omod(), 2));
  in.mods.opsel = static_cast<uint8_t>(e.opsel());
  in.mods.neg = static_cast<uint8_t>(e.neg());
  in.mods.abs = static_cast<uint8_t>(e.abs());
  in.mods.clamp = e.clamp();
  in.mods.omod = static_cast<uint8_t>(e.omod());
  LANEDIFF_ASSIGN_OR_RETURN(in.form, FormFromProto(target, instr, e));
  if (e.has_src0_sel()) in.mods.src0_sel = static_cast<uint8_t>(e.src0_sel());
  const Family fam = target.family;
  for (int i = 0; i < 3; ++i) {
    const proto::Source& s = SourceOf(e, i);
    const std::string field = absl::StrCat("encoding.src", i);
    if (i >= NumSourcesRead(instr) && !HasSource(e, i)) {
      in.src[i] = 0;  // as LLVM encodes it
      continue;
    }
    switch (s.kind()) {
      case proto::SOURCE_VGPR: {
        const uint32_t reg = s.code() != 0 ? s.code() : conv.vgpr[i];
        if (reg > 255) {
          return absl::InvalidArgumentError(absl::StrCat(field, ".code ", reg, " is not a VGPR (0..255)"));
        }
        in.src[i] = static_cast<uint16_t>(kFirstVgprCode + reg);
        break;
      }
      case proto::SOURCE_SGPR: {
        const uint32_t reg = s.code() != 0 ? s.code() : conv.sgpr[i];
        absl::StatusOr<OperandInfo> info =
            reg < 512 ? DescribeOperand(fam, static_cast<uint16_t>(reg))
                      : absl::StatusOr<OperandInfo>(absl::InvalidArgumentError("too wide"));
        if (!info.ok() || info->kind != OperandKind::sgpr) {
          return absl::InvalidArgumentError(absl::StrCat(field, ".code ", reg, " is not an SGPR on ",
                                                         target.name));
        }
        in.src[i] = static_cast<uint16_t>(reg);
        break;
      }
      case proto::SOURCE_INLINE: {
        absl::StatusOr<OperandInfo> info =
            s.code() < 512 ? DescribeOperand(fam, static_cast<uint16_t>(s.code()))
                           : absl::StatusOr<OperandInfo>(absl::InvalidArgumentError("too wide"));
        if (!info.ok() || (info->kind != OperandKind::inline_int &&
                           info->kind != OperandKind::inline_float)) {
          return absl::InvalidArgumentError(
              absl::StrCat(field, ".code ", s.code(), " is not an inline constant"));
        }
        in.src[i] = static_cast<uint16_t>(s.code());
        break;
      }
      case proto::SOURCE_LITERAL: {
        if (!GetVop3Layout(fam).literal_allowed && in.form != InstrForm::e32) {
          return absl::InvalidArgumentError(absl::StrCat(
              field, ": a literal source is not possible on ", target.name, " (",
              FamilyName(fam), " VOP3 has no literal dword)"));
        }
        if (in.literal.has_value() && *in.literal != s.value()) {
          return absl::InvalidArgumentError(absl::StrFormat(
              "%s.value 0x%08x differs from an earlier literal source's 0x%08x: VOP3 has one "
              "literal dword", field, s.value(), *in.literal));
        }
        in.src[i] = kLiteralCode;
        in.literal = s.value();
        break;
      }
      default:
        return absl::InvalidArgumentError(absl::StrCat(field, ".kind ", s.kind(), " is unknown"));
    }
  }
  absl::StatusOr<std::vector<uint32_t>> words = EncodeVop3(target, in);
  if (!words.ok()) return absl::InvalidArgumentError(absl::StrCat("encoding: ", words.status().message()));
  absl::StatusOr<DecodedVop3> d = DecodeVop3(target, *words, /*allow_undefined=*/true);
  if (!d.ok()) return absl::InvalidArgumentError(absl::StrCat("encoding: ", d.status().message()));
  return in;
}

absl::StatusOr<ResolvedCase> ResolveTestCase(const proto::TestCase& tc,
                                             const RegisterConvention& conv) {
  LaneRouting routing;
  LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveHeader(tc, &routing, conv));
  rc.lanes.Resize(tc.lanes_size());
  for (int l = 0; l < tc.lanes_size(); ++l) {
    const proto::Lane& lane = tc.lanes(l);
    const uint32_t fields[4] = {lane.src0(), lane.src1(), lane.src2(), lane.vdst_old()};
    uint32_t v[3];
    for (int i = 0; i < 3; ++i) {
      v[i] = routing.lane_field[i] >= 0 ? fields[routing.lane_field[i]] : routing.uniform[i];
    }
    rc.lanes.src0()[l] = v[0];
    rc.lanes.src1()[l] = v[1];
    rc.lanes.src2()[l] = v[2];
    rc.lanes.vdst_old()[l] = lane.vdst_old();
  }
  return rc;
}

LaneView ResolveLanes(const LaneRouting& routing, const LaneView& raw, LaneBatch* uniform) {
  const uint32_t* fields[4] = {raw.src0, raw.src1, raw.src2, raw.vdst_old};
  std::vector<uint32_t>* fill[3] = {&uniform->src0(), &uniform->src1(), &uniform->src2()};
  const uint32_t* src[3];
  for (int i = 0; i < 3; ++i) {
    if (routing.lane_field[i] >= 0) {
      src[i] = fields[routing.lane_field[i]];  // a VGPR: the lane field itself, no copy
    } else {
      fill[i]->assign(raw.size, routing.uniform[i]);
      src[i] = fill[i]->data();
    }
  }
  return {src[0], src[1], src[2], raw.vdst_old, raw.size};
}

absl::StatusOr<ResolvedCase> ResolveHeader(const proto::TestCase& tc, LaneRouting* routing,
                                           const RegisterConvention& conv) {
  ResolvedCase rc;
  absl::StatusOr<const TargetTraits*> target = FindTarget(tc.target());
  if (!target.ok()) return absl::InvalidArgumentError(absl::StrCat("target: ", target.status().message()));
  rc.target = *target;
  LANEDIFF_ASSIGN_OR_RETURN(rc.vop3, Vop3FromTestCase(*rc.target, tc, conv));
  rc.ctx.target = rc.target;
  rc.ctx.instr = rc.vop3.instr;
  rc.ctx.mods = rc.vop3.mods;
  rc.ctx.mode = tc.has_mode() ? tc.mode() : kDefaultMode;

  const Family fam = rc.target->family;
  const proto::Encoding& e = tc.encoding();
  const bool raw = e.raw_words_size() > 0;
  // Uniform registers the harness loads: structured sources name their own SGPR and value;
  // for raw words the convention's s20..s22 hold Encoding.src0..src2.value.
  std::map<uint16_t, uint32_t> sgpr_values;
  for (int i = 0; i < 3; ++i) {
    const proto::Source& s = SourceOf(e, i);
    if (raw) {
      sgpr_values[conv.sgpr[i]] = s.value();
    } else if (s.kind() == proto::SOURCE_SGPR && HasSource(e, i)) {
      const uint16_t reg = rc.vop3.src[i];
      auto [it, inserted] = sgpr_values.emplace(reg, s.value());
      if (!inserted && it->second != s.value()) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "encoding.src%d reads s%d with value 0x%08x, but another source gives it 0x%08x", i,
            reg, s.value(), it->second));
      }
    }
  }
  // Which lane field feeds each source: by VGPR number through the convention.
  std::array<int, 3> lane_field{};  // 0..2 src, 3 vdst_old, -1 not a VGPR
  std::array<uint32_t, 3> uniform{};
  for (int i = 0; i < 3; ++i) {
    const uint16_t code = rc.vop3.src[i];
    lane_field[i] = -1;
    if (i >= NumSourcesRead(rc.vop3.instr)) continue;  // SR SRC2: read nothing
    LANEDIFF_ASSIGN_OR_RETURN(OperandInfo info,
                              DescribeOperand(fam, code, rc.vop3.form == InstrForm::e32));
    if (info.kind == OperandKind::vgpr) {
      for (int j = 0; j < 3; ++j) {
        if (info.index == conv.vgpr[j]) lane_field[i] = j;
      }
      if (info.index == conv.vdst) lane_field[i] = 3;
      if (lane_field[i] < 0) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "src%d reads v%d, which the register convention (v%d v%d v%d sources, v%d "
            "vdst_old) does not load", i, info.index, conv.vgpr[0], conv.vgpr[1], conv.vgpr[2],
            conv.vdst));
      }
    } else if (info.kind == OperandKind::sgpr) {
      auto it = sgpr_values.find(code);
      if (it == sgpr_values.end()) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "src%d reads s%d, which the test case does not load", i, code));
      }
      uniform[i] = it->second;
    } else if (info.kind == OperandKind::special) {
      if (info.name != "null") {
        return absl::InvalidArgumentError(absl::StrCat(
            "src", i, " reads ", info.name, ", whose value the test case cannot set"));
      }
      uniform[i] = 0;
    } else {
      LANEDIFF_ASSIGN_OR_RETURN(uniform[i], ResolveOperand(fam, code, 0, 0, rc.vop3.literal,
                                                            rc.vop3.form == InstrForm::e32));
    }
  }
  routing->lane_field = lane_field;
  routing->uniform = uniform;
  return rc;
}

}  // namespace lanediff
