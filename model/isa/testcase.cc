#include "model/isa/testcase.h"

#include <array>
#include <utility>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "google/protobuf/descriptor.h"
#include "model/base/status.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"

namespace lanediff {

const proto::Source& SourceOf(const proto::Encoding& e, int i) {
  return i == 0 ? e.src0() : (i == 1 ? e.src1() : e.src2());
}
bool HasSource(const proto::Encoding& e, int i) {
  return i == 0 ? e.has_src0() : (i == 1 ? e.has_src1() : e.has_src2());
}

namespace {

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
// number. The numbers may leave gaps (helpers append rows with numbers handed out beforehand);
// that the enum has no value without a row is checked through its descriptor
// (testcase_test.cc EveryProtoInstructionHasARow).
#define LANEDIFF_INSTR(mnemonic, proto_number, ...)                                    \
  static_assert(static_cast<int>(proto::mnemonic) == proto_number,                       \
                "proto::Instruction " #mnemonic " must have the number its row gives");
#include "model/instrs.def"
#undef LANEDIFF_INSTR
static_assert(proto::Instruction_MAX >= kNumInstrs && proto::Instruction_MIN == 0,
              "proto::Instruction has fewer values than model/instrs.def has rows");

namespace {
// Instr index by proto number (-1: none), and proto number by Instr.
constexpr std::array<int, proto::Instruction_MAX + 1> kInstrByProto = [] {
  std::array<int, proto::Instruction_MAX + 1> t{};
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
  if (n < 0 || n > proto::Instruction_MAX || kInstrByProto[n] < 0) {
    return absl::InvalidArgumentError(absl::StrCat("instr ", n,
                                                   " is not an instruction lanediff models"));
  }
  return static_cast<Instr>(kInstrByProto[n]);
}

proto::Instruction InstrToProto(Instr instr) { return kProtoByInstr[static_cast<size_t>(instr)]; }

namespace {

// encoding.form and its SDWA fields (absent: the VOP3 form, DWORD, the row's DST_UNUSED) checked
// against the row.
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
  if ((e.has_dst_sel() && (form != InstrForm::sdwa || e.dst_sel() > 7)) ||
      (e.has_dst_unused() && (form != InstrForm::sdwa || e.dst_unused() > 3)) ||
      (e.has_src0_sext() && form != InstrForm::sdwa)) {
    return absl::InvalidArgumentError(
        "encoding.dst_sel (0..7), dst_unused (0..3), src0_sext: only with FORM_SDWA");
  }
  return form;
}

// The SDWA dword's selects and sext from encoding (checked by FormFromProto); absent fields are
// LLVM's defaults for the row (SdwaDefaultDstUnused).
void SdwaFieldsFromProto(const proto::Encoding& e, Vop3Instr* in) {
  if (e.has_src0_sel()) in->mods.src0_sel = static_cast<uint8_t>(e.src0_sel());
  if (in->form != InstrForm::sdwa) return;
  in->mods.dst_sel = static_cast<uint8_t>(e.has_dst_sel() ? e.dst_sel() : kSdwaDword);
  in->mods.dst_unused = static_cast<uint8_t>(e.has_dst_unused() ? e.dst_unused()
                                                                : SdwaDefaultDstUnused(in->instr));
  in->mods.src0_sext = e.src0_sext();
}

}  // namespace

absl::StatusOr<Vop3Instr> Vop3FromTestCase(const TargetTraits& target, const proto::TestCase& tc,
                                           const DefaultRegisters& defaults,
                                           std::vector<uint32_t>* words_out) {
  LANEDIFF_ASSIGN_OR_RETURN(Instr instr, InstrFromProto(tc.instr()));
  if (!target.Has(instr)) {
    return absl::InvalidArgumentError(absl::StrCat("instruction ", InstrName(instr),
                                                   " does not exist on ", target.name));
  }
  const proto::Encoding& e = tc.encoding();
  if (e.raw_words_size() > 0) {
    if (e.opsel() || e.neg() || e.abs() || e.clamp() || e.omod() || e.form() != proto::FORM_E64 ||
        e.has_src0_sel() || e.has_dst_sel() || e.has_dst_unused() || e.has_src0_sext()) {
      return absl::InvalidArgumentError(
          "encoding: raw_words is set, so opsel/neg/abs/clamp/omod/form/SDWA fields must not be "
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
    if (words_out != nullptr) *words_out = std::move(words);
    return d->vop3;
  }
  Vop3Instr in;
  in.instr = instr;
  in.vdst = defaults.vdst;
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
  SdwaFieldsFromProto(e, &in);
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
        const bool tuple = GetInstrInfo(instr).src_dwords(i) > 1;
        const uint32_t reg = s.code() != 0 ? s.code() : tuple ? defaults.tuple[i] : defaults.vgpr[i];
        if (reg > 255) {
          return absl::InvalidArgumentError(absl::StrCat(field, ".code ", reg, " is not a VGPR (0..255)"));
        }
        in.src[i] = static_cast<uint16_t>(kFirstVgprCode + reg);
        break;
      }
      case proto::SOURCE_SGPR: {
        const uint32_t reg = s.code() != 0 ? s.code() : defaults.sgpr[i];
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
  if (words_out != nullptr) *words_out = *std::move(words);
  return in;
}

void CompleteTupleLanes(proto::TestCase* tc) {
  absl::StatusOr<Instr> instr = InstrFromProto(tc->instr());
  if (!instr.ok()) return;
  const LaneShape shape = GetInstrInfo(*instr).lane_shape();
  if (shape.narrow_sources()) return;
  for (proto::Lane& l : *tc->mutable_lanes()) {
    const uint32_t first[3] = {l.src0(), l.src1(), l.src2()};
    google::protobuf::RepeatedField<uint32_t>* more[3] = {l.mutable_src0_more(), l.mutable_src1_more(),
                                                         l.mutable_src2_more()};
    for (int s = 0; s < 3; ++s) {
      if (shape.src_dwords[s] == 1 || !more[s]->empty()) continue;
      for (int k = 1; k < shape.src_dwords[s]; ++k) more[s]->Add(first[s]);
    }
  }
}

}  // namespace lanediff
