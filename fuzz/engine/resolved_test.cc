#include "fuzz/engine/resolved_test.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "fuzz/engine/campaign_internal.h"
#include "fuzz/engine/launch_group.h"
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
  LANEDIFF_ASSIGN_OR_RETURN(t.raw, RawLanesOf(tc, t.rc.ctx.instr));
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

std::vector<absl::StatusOr<BothSides>> RunBothSidesTogether(const std::vector<const ResolvedTest*>& ts,
                                                            Runner& runner, const Relaxations& relax,
                                                            bool allow_undefined) {
  std::vector<absl::StatusOr<BothSides>> out(ts.size());
  std::vector<BothSides> both(ts.size());
  std::vector<DeviceBatch> batches;
  std::vector<size_t> index;  // batches -> ts
  for (size_t i = 0; i < ts.size(); ++i) {
    const ResolvedTest& t = *ts[i];
    BothSides& b = both[i];
    b.ctx = t.rc.ctx;
    b.resolved = t.rc.lanes.view();
    b.expected.resize(OutputWords(b.ctx.instr, t.rc.lanes.size()));
    absl::Status model = Evaluate(b.ctx, b.resolved, absl::MakeSpan(b.expected));
    absl::StatusOr<DeviceBatch> batch = model.ok() ? BuildDeviceBatch(t.rc, t.raw.view(), allow_undefined)
                                                   : absl::StatusOr<DeviceBatch>(model);
    if (!batch.ok()) {
      out[i] = batch.status();
      continue;
    }
    batches.push_back(*std::move(batch));
    index.push_back(i);
  }
  for (LaunchGroup& g : GroupLaunches(std::move(batches), kMaxLanesPerBatch)) {
    absl::StatusOr<DeviceResult> r = runner.Run(g.batch);
    if (r.ok() && r->vdst.size() != OutputWords(g.batch.instr, g.batch.lanes.size())) {  // no slice would be right
      r = DeviceFault(absl::StrCat(runner.Describe(), " answered ", r->vdst.size(), " VDST words for ",
                                   g.batch.lanes.size(), " lanes"));
    }
    if (r.ok()) {
      std::vector<DeviceResult> per = SplitResult(g, *std::move(r));
      for (size_t k = 0; k < g.cases.size(); ++k) {
        campaign_internal::FinishBothSides(std::move(per[k]), relax, &both[index[g.cases[k]]]);
      }
    } else if (IsDeviceFault(r.status()) && g.cases.size() > 1) {
      for (size_t k : g.cases) {
        const size_t i = index[k];
        out[i] = RunBothSides(*ts[i], runner, relax, allow_undefined);
      }
      continue;
    } else {
      for (size_t k : g.cases) campaign_internal::FinishBothSides(r.status(), relax, &both[index[k]]);
    }
    for (size_t k : g.cases) out[index[k]] = std::move(both[index[k]]);
  }
  return out;
}

}  // namespace lanediff
