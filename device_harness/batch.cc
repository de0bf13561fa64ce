#include "device_harness/batch.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/base/status.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

absl::Status CheckLaneCount(size_t num_lanes) {
  if (num_lanes == 0) {
    return absl::InvalidArgumentError("test case has no lanes (need 1 to kMaxLanesPerBatch)");
  }
  if (num_lanes > kMaxLanesPerBatch) {
    return absl::InvalidArgumentError(absl::StrCat("test case has ", num_lanes,
                                                   " lanes; the limit is ", kMaxLanesPerBatch));
  }
  return absl::OkStatus();
}

// The lanes in the row's shape (b->lanes.shape(), set by the header); a view of another shape
// is refused.
absl::Status CopyLanes(const LaneView& lanes, DeviceBatch* b) {
  if (!lanes.shape.same_sources(b->lanes.shape())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the lanes hold ", lanes.shape.src_dwords[0], "/", lanes.shape.src_dwords[1], "/",
        lanes.shape.src_dwords[2], " dwords per source but ", InstrName(b->instr), " reads ",
        b->lanes.shape().src_dwords[0], "/", b->lanes.shape().src_dwords[1], "/",
        b->lanes.shape().src_dwords[2], " (its row's LaneShape)"));
  }
  for (int s = 0; s < 3; ++s) {
    b->lanes.src(s).assign(lanes.src(s), lanes.src(s) + lanes.size * lanes.shape.src_dwords[s]);
  }
  b->lanes.vdst_old().assign(lanes.vdst_old, lanes.vdst_old + lanes.size);
  return absl::OkStatus();
}

// A proto lane holds each source's dwords as the row reads them: N - 1 in srcS_more.
absl::Status CheckLaneDwords(const proto::Lane& l, const LaneShape& shape, int lane, Instr instr) {
  const int more[3] = {l.src0_more_size(), l.src1_more_size(), l.src2_more_size()};
  for (int s = 0; s < 3; ++s) {
    if (more[s] != shape.src_dwords[s] - 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "lanes[", lane, "]: src", s, "_more holds ", more[s], " dwords but ", InstrName(instr), "'s src", s,
          " is ", static_cast<int>(shape.src_dwords[s]), " dwords (its row's LaneShape): want ",
          shape.src_dwords[s] - 1));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LaneRouting> RouteOnHarness(const TargetTraits& target, const Vop3Instr& in,
                                           const std::array<uint32_t, 3>& sgpr_values) {
  const RegisterFile regs = HarnessRegisterFile(sgpr_values);
  LANEDIFF_RETURN_IF_ERROR(CheckLayoutBeyondReadSources(target, in, regs));
  return ResolveOperands(target, in, regs);
}

absl::Status CheckConvention(const TargetTraits& target, const Vop3Instr& in) {
  return RouteOnHarness(target, in, {}).status();
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
  const LaneShape shape = b.lanes.shape();
  b.lanes.Resize(tc.lanes_size());
  for (int i = 0; i < tc.lanes_size(); ++i) {
    const proto::Lane& l = tc.lanes(i);
    LANEDIFF_RETURN_IF_ERROR(CheckLaneDwords(l, shape, i, b.instr));
    for (int s = 0; s < 3; ++s) {
      const size_t n = shape.src_dwords[s];
      uint32_t* to = &b.lanes.src(s)[static_cast<size_t>(i) * n];
      to[0] = s == 0 ? l.src0() : s == 1 ? l.src1() : l.src2();
      const auto& more = s == 0 ? l.src0_more() : s == 1 ? l.src1_more() : l.src2_more();
      for (size_t k = 1; k < n; ++k) to[k] = more[static_cast<int>(k - 1)];
    }
    b.lanes.vdst_old()[i] = l.vdst_old();
  }
  return b;
}

absl::StatusOr<DeviceBatch> BuildDeviceBatch(const proto::TestCase& header, const LaneView& lanes,
                                             bool allow_undefined) {
  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch b, BuildDeviceBatchHeader(header, lanes.size, allow_undefined));
  LANEDIFF_RETURN_IF_ERROR(CopyLanes(lanes, &b));
  return b;
}

absl::StatusOr<DeviceBatch> BuildDeviceBatch(const ResolvedCase& rc, const LaneView& lanes,
                                             bool allow_undefined) {
  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch b, BuildDeviceBatchHeader(rc, lanes.size, allow_undefined));
  LANEDIFF_RETURN_IF_ERROR(CopyLanes(lanes, &b));
  return b;
}

absl::StatusOr<DeviceBatch> BuildDeviceBatchHeader(const proto::TestCase& tc, size_t num_lanes,
                                                   bool allow_undefined) {
  LANEDIFF_ASSIGN_OR_RETURN(const TargetTraits* target, FindTarget(tc.target()));
  (void)target;  // named first: an unknown target is reported as such
  LANEDIFF_RETURN_IF_ERROR(CheckLaneCount(num_lanes));
  LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveHeader(tc));
  return BuildDeviceBatchHeader(rc, num_lanes, allow_undefined);
}

absl::StatusOr<DeviceBatch> BuildDeviceBatchHeader(const ResolvedCase& rc, size_t num_lanes,
                                                   bool allow_undefined) {
  if (rc.target == nullptr) return absl::InvalidArgumentError("resolved case has no target");
  LANEDIFF_RETURN_IF_ERROR(CheckLaneCount(num_lanes));
  // ResolveHeader resolved every source the instruction reads (rc.routing); what is left of
  // the kernels' layout is VDST and a field the instruction does not read.
  if (absl::Status conv = CheckLayoutBeyondReadSources(*rc.target, rc.vop3,
                                                       HarnessRegisterFile(rc.sgpr_values));
      !conv.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        rc.raw_words ? "encoding.raw_words: " : "encoding: ",
        conv.message()));
  }
  LANEDIFF_RETURN_IF_ERROR(CheckDefinedBySpec(*rc.target, rc.vop3, allow_undefined));
  DeviceBatch b;
  b.target = rc.target;
  b.instr = rc.vop3.instr;
  b.words = rc.words;
  b.allow_undefined = allow_undefined;
  b.mode = rc.requested_mode;
  b.sgpr_values = rc.sgpr_values;
  b.lanes.SetShape(GetInstrInfo(b.instr).lane_shape());
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
  if (const LaneShape row = GetInstrInfo(in.instr).lane_shape(); !batch.lanes.shape().same_sources(row)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the batch's lanes hold ", batch.lanes.shape().src_dwords[0], "/", batch.lanes.shape().src_dwords[1], "/",
        batch.lanes.shape().src_dwords[2], " dwords per source but ", InstrName(in.instr), "'s row reads ",
        row.src_dwords[0], "/", row.src_dwords[1], "/", row.src_dwords[2], " (LaneShape)"));
  }
  if (static_cast<size_t>(d.decoded.words_used) != words.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the instruction uses ", d.decoded.words_used,
                                                   " words but the batch has ", words.size()));
  }
  LANEDIFF_ASSIGN_OR_RETURN(const LaneRouting routing, RouteOnHarness(t, in, batch.sgpr_values));
  d.ctx.target = &t;
  d.ctx.instr = in.instr;
  d.ctx.mods = in.mods;
  d.ctx.mode = KernelMode(t, batch.mode);  // the MODE the instruction runs with (kernel_state.h)
  d.requested_mode = batch.mode;
  d.ctx.constant16_srcs = routing.constant16;  // the op reads these per src16_constant
  ResolveLanesInto(routing, batch.lanes.view(), &d.resolved);
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
