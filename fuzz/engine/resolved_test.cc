#include "fuzz/engine/resolved_test.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "fuzz/engine/campaign_internal.h"
#include "fuzz/triage/attribution.h"
#include "model/base/status.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"

namespace lanediff {

absl::StatusOr<ResolvedTest> ResolveTest(proto::TestCase tc, const Hypotheses& hyp) {
  ResolvedTest t;
  LANEDIFF_ASSIGN_OR_RETURN(t.rc, ResolveTestCase(tc));
  t.rc.ctx.hyp = hyp;
  t.info = &GetInstrInfo(t.rc.ctx.instr);
  t.instr_name = proto::Instruction_Name(tc.instr());
  t.raw.Resize(tc.lanes_size());
  for (int l = 0; l < tc.lanes_size(); ++l) {
    const proto::Lane& lane = tc.lanes(l);
    t.raw.src0()[l] = lane.src0();
    t.raw.src1()[l] = lane.src1();
    t.raw.src2()[l] = lane.src2();
    t.raw.vdst_old()[l] = lane.vdst_old();
  }
  t.spec_violations = SpecViolations(*t.rc.target, t.rc.vop3);
  t.tc = std::move(tc);
  return t;
}

std::string StoredCause(const ResolvedTest& t, const std::string& cause) {
  if (t.spec_violations.empty()) return cause;
  return absl::StrCat("undefined_by_spec.", cause);
}

std::string SignatureOf(const ResolvedTest& t, const std::string& stored_cause) {
  return CauseSignature(t.tc.target(), t.instr_name, stored_cause);
}

absl::StatusOr<BothSides> RunBothSides(const ResolvedTest& t, Runner& runner, const Relaxations& relax,
                                       bool allow_undefined) {
  BothSides b;
  b.ctx = t.rc.ctx;
  b.resolved = t.rc.lanes.view();
  b.expected.resize(OutputWords(b.ctx.instr, t.rc.lanes.size()));
  LANEDIFF_RETURN_IF_ERROR(Evaluate(b.ctx, b.resolved, absl::MakeSpan(b.expected)));
  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch batch, BuildDeviceBatch(t.rc, t.raw.view(), allow_undefined));
  campaign_internal::FinishBothSides(runner.Run(batch), relax, &b);
  return b;
}

}  // namespace lanediff
