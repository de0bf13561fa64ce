#include "device_harness/resolve_case.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/kernel_state.h"
#include "model/base/status.h"
#include "model/isa/operands.h"

namespace lanediff {

absl::StatusOr<std::array<uint32_t, 3>> CaseSgprValues(const proto::TestCase& tc,
                                                       const Vop3Instr& vop3) {
  const proto::Encoding& e = tc.encoding();
  std::array<uint32_t, 3> values{};
  for (int i = 0; i < 3; ++i) values[i] = SourceOf(e, i).value();
  if (e.raw_words_size() > 0) return values;
  const RegisterConvention& conv = HarnessConvention();
  std::array<int, 3> named_by{-1, -1, -1};  // which source put its value into slot k
  for (int i = 0; i < 3; ++i) {
    if (!HasSource(e, i) || SourceOf(e, i).kind() != proto::SOURCE_SGPR) continue;
    const uint16_t reg = vop3.src[i];  // an SGPR's operand code is its number
    int slot = -1;
    for (int k = 0; k < 3; ++k) {
      if (conv.sgpr[k] == reg) slot = k;
    }
    if (slot < 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "encoding.src%d names s%d, which the harness kernels do not load (they load s%d..s%d)",
          i, reg, conv.sgpr[0], conv.sgpr[2]));
    }
    const uint32_t v = SourceOf(e, i).value();
    if (named_by[slot] >= 0 && values[slot] != v) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "encoding.src%d reads s%d with value 0x%08x, but encoding.src%d gives it 0x%08x", i,
          reg, v, named_by[slot], values[slot]));
    }
    named_by[slot] = i;
    values[slot] = v;
  }
  return values;
}

absl::StatusOr<ResolvedCase> ResolveHeader(const proto::TestCase& tc, LaneRouting* routing) {
  ResolvedCase rc;
  absl::StatusOr<const TargetTraits*> target = FindTarget(tc.target());
  if (!target.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("target: ", target.status().message()));
  }
  rc.target = *target;
  LANEDIFF_ASSIGN_OR_RETURN(rc.vop3,
                            Vop3FromTestCase(*rc.target, tc, HarnessDefaultRegisters(), &rc.words));
  rc.raw_words = tc.encoding().raw_words_size() > 0;
  rc.ctx.target = rc.target;
  rc.ctx.instr = rc.vop3.instr;
  rc.ctx.mods = rc.vop3.mods;
  // The model evaluates under the MODE the kernel runs the instruction with: the case's MODE in
  // the fields a batch sets, the code object's state elsewhere (kernel_state.h). A stored MODE
  // whose DX10_CLAMP/IEEE bits are clear (every corpus written before they were taken from the
  // descriptor) therefore runs, on the model as on the chip, with them set.
  rc.requested_mode = tc.has_mode() ? tc.mode() : kDefaultMode;
  rc.ctx.mode = KernelMode(*rc.target, rc.requested_mode);
  LANEDIFF_ASSIGN_OR_RETURN(rc.sgpr_values, CaseSgprValues(tc, rc.vop3));
  absl::StatusOr<LaneRouting> r =
      ResolveOperands(*rc.target, rc.vop3, HarnessRegisterFile(rc.sgpr_values));
  if (!r.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        rc.raw_words ? "encoding.raw_words: " : "encoding: ",
        r.status().message()));
  }
  rc.routing = *r;
  rc.ctx.constant16_srcs = rc.routing.constant16;  // the op reads these per src16_constant
  if (routing != nullptr) *routing = rc.routing;
  return rc;
}

absl::StatusOr<LaneBatch> RawLanesOf(const proto::TestCase& tc, Instr instr) {
  LaneBatch raw;
  // Laid out as the row reads its lanes: a tuple source's dwords past the first from srcS_more
  // (model/base/lanes.h LaneShape), which must hold exactly N - 1 of them.
  const LaneShape shape = GetInstrInfo(instr).lane_shape();
  raw.SetShape(shape);
  raw.Resize(tc.lanes_size());
  for (int l = 0; l < tc.lanes_size(); ++l) {
    const proto::Lane& lane = tc.lanes(l);
    const uint32_t first[3] = {lane.src0(), lane.src1(), lane.src2()};
    const google::protobuf::RepeatedField<uint32_t>* more[3] = {&lane.src0_more(), &lane.src1_more(),
                                                               &lane.src2_more()};
    for (int s = 0; s < 3; ++s) {
      const int n = shape.src_dwords[s];
      if (more[s]->size() != n - 1) {
        return absl::InvalidArgumentError(absl::StrCat("lanes[", l, "]: src", s, "_more holds ", more[s]->size(),
                                                       " dwords but ", InstrName(instr), "'s src", s, " is ",
                                                       n, " dwords (its row's LaneShape): want ", n - 1));
      }
      raw.src(s)[static_cast<size_t>(l) * n] = first[s];
      for (int k = 1; k < n; ++k) raw.src(s)[static_cast<size_t>(l) * n + k] = more[s]->Get(k - 1);
    }
    raw.vdst_old()[l] = lane.vdst_old();
  }
  return raw;
}

absl::StatusOr<ResolvedCase> ResolveTestCase(const proto::TestCase& tc) {
  LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveHeader(tc));
  LANEDIFF_ASSIGN_OR_RETURN(LaneBatch raw, RawLanesOf(tc, rc.vop3.instr));
  ResolveLanesInto(rc.routing, raw.view(), &rc.lanes);
  return rc;
}

}  // namespace lanediff
