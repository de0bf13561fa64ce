#include "device_harness/batch.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/base/status.h"
#include "model/isa/operands.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

const proto::Source& SourceOf(const proto::Encoding& e, int i) {
  return i == 0 ? e.src0() : (i == 1 ? e.src1() : e.src2());
}

}  // namespace

const RegisterConvention& HarnessConvention() {
  static const RegisterConvention conv;
  return conv;
}

absl::Status CheckConvention(const TargetTraits& target, const Vop3Instr& in) {
  const RegisterConvention& conv = HarnessConvention();
  if (in.vdst != conv.vdst) {
    return absl::InvalidArgumentError(
        absl::StrCat("VDST is v", in.vdst, "; the harness kernels load vdst_old into v",
                     conv.vdst, " and read the result from there (register convention)"));
  }
  const int read = GetInstrInfo(in.instr).sources();
  for (int i = 0; i < 3; ++i) {
    const uint16_t code = in.src[i];
    // A source field the instruction does not read (the SR instructions' SRC2, a VOP1
    // instruction's SRC1/SRC2) carries no data; LLVM encodes it as 0 (s0).
    if (i >= read && code == 0) continue;
    LANEDIFF_ASSIGN_OR_RETURN(OperandInfo op, DescribeOperand(target.family, code,
                                                              in.form == InstrForm::e32));
    const std::string where = absl::StrCat("src", i, " (operand code ", code, ")");
    switch (op.kind) {
      case OperandKind::vgpr: {
        const bool loaded = op.index == conv.vdst || op.index == conv.vgpr[0] ||
                            op.index == conv.vgpr[1] || op.index == conv.vgpr[2];
        if (!loaded) {
          return absl::InvalidArgumentError(absl::StrCat(
              where, " reads v", op.index, ", which the harness does not load; use v",
              conv.vgpr[0], "..v", conv.vgpr[2], " (src0..src2) or v", conv.vdst,
              " (vdst_old)"));
        }
        break;
      }
      case OperandKind::sgpr:
        if (op.index < conv.sgpr[0] || op.index > conv.sgpr[2]) {
          return absl::InvalidArgumentError(absl::StrCat(
              where, " reads s", op.index, ", which the harness does not load; use s",
              conv.sgpr[0], "..s", conv.sgpr[2]));
        }
        break;
      case OperandKind::special:
        if (op.name != "null") {
          return absl::InvalidArgumentError(absl::StrCat(
              where, " reads ", op.name,
              ", a special register whose value the harness does not control"));
        }
        break;
      default:
        break;  // inline constants and the literal carry their own value
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDefinedBySpec(const TargetTraits& target, const Vop3Instr& instr,
                                bool allow_undefined) {
  const std::vector<std::string> undefined = SpecViolations(target, instr);
  if (undefined.empty() || allow_undefined) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("undefined by spec on ", target.name, ": ",
                                                 absl::StrJoin(undefined, "; "),
                                                 "; not run (--allow-undefined runs it)"));
}

absl::StatusOr<DeviceBatch> BuildDeviceBatch(const proto::TestCase& tc, bool allow_undefined) {
  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch b,
                            BuildDeviceBatchHeader(tc, tc.lanes_size(), allow_undefined));
  b.lanes.Resize(tc.lanes_size());
  for (int i = 0; i < tc.lanes_size(); ++i) {
    const proto::Lane& l = tc.lanes(i);
    b.lanes.src0()[i] = l.src0();
    b.lanes.src1()[i] = l.src1();
    b.lanes.src2()[i] = l.src2();
    b.lanes.vdst_old()[i] = l.vdst_old();
  }
  return b;
}

absl::StatusOr<DeviceBatch> BuildDeviceBatch(const proto::TestCase& header, const LaneView& lanes,
                                             bool allow_undefined) {
  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch b, BuildDeviceBatchHeader(header, lanes.size, allow_undefined));
  b.lanes.src0().assign(lanes.src0, lanes.src0 + lanes.size);
  b.lanes.src1().assign(lanes.src1, lanes.src1 + lanes.size);
  b.lanes.src2().assign(lanes.src2, lanes.src2 + lanes.size);
  b.lanes.vdst_old().assign(lanes.vdst_old, lanes.vdst_old + lanes.size);
  return b;
}

absl::StatusOr<DeviceBatch> BuildDeviceBatchHeader(const proto::TestCase& tc, size_t num_lanes,
                                                   bool allow_undefined) {
  LANEDIFF_ASSIGN_OR_RETURN(const TargetTraits* target, FindTarget(tc.target()));
  if (num_lanes == 0) {
    return absl::InvalidArgumentError("test case has no lanes (need 1 to kMaxLanesPerBatch)");
  }
  if (num_lanes > kMaxLanesPerBatch) {
    return absl::InvalidArgumentError(absl::StrCat("test case has ", num_lanes,
                                                   " lanes; the limit is ", kMaxLanesPerBatch));
  }
  LANEDIFF_ASSIGN_OR_RETURN(Vop3Instr vop3, Vop3FromTestCase(*target, tc, HarnessConvention()));
  DeviceBatch b;
  b.target = target;
  b.instr = vop3.instr;
  if (tc.encoding().raw_words_size() > 0) {
    b.words.assign(tc.encoding().raw_words().begin(), tc.encoding().raw_words().end());
  } else {
    LANEDIFF_ASSIGN_OR_RETURN(b.words, EncodeVop3(*target, vop3));
  }
  {
    absl::Status conv = CheckConvention(*target, vop3);
    if (!conv.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          tc.encoding().raw_words_size() > 0 ? "encoding.raw_words: " : "encoding: ",
          conv.message()));
    }
  }
  LANEDIFF_RETURN_IF_ERROR(CheckDefinedBySpec(*target, vop3, allow_undefined));
  b.allow_undefined = allow_undefined;
  b.mode = tc.has_mode() ? tc.mode() : kDefaultMode;
  for (int i = 0; i < 3; ++i) b.sgpr_values[i] = SourceOf(tc.encoding(), i).value();
  return b;
}

absl::StatusOr<DecodedBatch> DecodeDeviceBatch(const DeviceBatch& batch,
                                               absl::Span<const uint32_t> words) {
  if (batch.target == nullptr) return absl::InvalidArgumentError("batch has no target");
  const TargetTraits& t = *batch.target;
  if (batch.lanes.size() > kMaxLanesPerBatch) {
    return absl::InvalidArgumentError(absl::StrCat("batch has ", batch.lanes.size(),
                                                   " lanes; the limit is ", kMaxLanesPerBatch));
  }
  DecodedBatch d;
  LANEDIFF_ASSIGN_OR_RETURN(d.decoded, DecodeVop3(t, words, /*allow_undefined=*/true));
  const Vop3Instr& in = d.decoded.vop3;
  LANEDIFF_RETURN_IF_ERROR(CheckDefinedBySpec(t, in, batch.allow_undefined));
  if (in.instr != batch.instr) {
    return absl::InvalidArgumentError(absl::StrCat("words decode to ", InstrName(in.instr),
                                                   " but the batch says ",
                                                   InstrName(batch.instr)));
  }
  if (static_cast<size_t>(d.decoded.words_used) != words.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the instruction uses ", d.decoded.words_used,
                                                   " words but the batch has ", words.size()));
  }
  LANEDIFF_RETURN_IF_ERROR(CheckConvention(t, in));
  d.ctx.target = &t;
  d.ctx.instr = in.instr;
  d.ctx.mods = in.mods;
  d.ctx.mode = batch.mode;

  const RegisterConvention& conv = HarnessConvention();
  const LaneView v = batch.lanes.view();
  const size_t n = v.size;
  d.resolved.Resize(n);
  std::vector<uint32_t>* dst[3] = {&d.resolved.src0(), &d.resolved.src1(), &d.resolved.src2()};
  const uint32_t* vgpr_of[3] = {v.src0, v.src1, v.src2};
  for (int s = 0; s < 3; ++s) {
    LANEDIFF_ASSIGN_OR_RETURN(OperandInfo op,
                              DescribeOperand(t.family, in.src[s], in.form == InstrForm::e32));
    if (op.kind == OperandKind::vgpr) {
      const uint32_t* lane_values = op.index == conv.vdst ? v.vdst_old : vgpr_of[op.index - conv.vgpr[0]];
      dst[s]->assign(lane_values, lane_values + n);
      continue;
    }
    uint32_t sgpr_value = 0;
    // SGPRs were checked against the convention; the SR instructions' unused SRC2 = s0 reads 0.
    if (op.kind == OperandKind::sgpr && op.index >= conv.sgpr[0] && op.index <= conv.sgpr[2]) {
      sgpr_value = batch.sgpr_values[op.index - conv.sgpr[0]];
    }
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t value,
                              ResolveOperand(t.family, in.src[s], 0, sgpr_value, in.literal,
                                             in.form == InstrForm::e32));
    dst[s]->assign(n, value);
  }
  d.resolved.vdst_old().assign(v.vdst_old, v.vdst_old + n);
  return d;
}

std::string DescribeBatch(const DeviceBatch& batch) {
  std::vector<std::string> words;
  for (uint32_t w : batch.words) words.push_back(absl::StrFormat("0x%08x", w));
  const std::string target = batch.target ? std::string(batch.target->name) : "(no target)";
  std::string text = std::string(InstrName(batch.instr));
  if (batch.target != nullptr) {
    absl::StatusOr<DecodedVop3> d = DecodeVop3(*batch.target, batch.words);
    if (d.ok()) text = PrintVop3(*batch.target, d->vop3);
  }
  return absl::StrFormat("%s %s [%s], MODE 0x%08x, %d lanes", target, text,
                         absl::StrJoin(words, " "), batch.mode, batch.lanes.size());
}

}  // namespace lanediff
