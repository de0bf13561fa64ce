#include "fuzz/engine/replay.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"

namespace lanediff {

namespace {
ReplayOutcome Replay(const proto::Finding& f, const Hypotheses& hyp, Runner& runner,
                     const Relaxations& relax_in, bool allow_undefined);
}  // namespace

ReplayOutcome ReplayFinding(const proto::Finding& f, const Hypotheses& hyp, Runner& runner,
                            const Relaxations& relax, bool allow_undefined) {
  ReplayOutcome out = Replay(f, hyp, runner, relax, allow_undefined);
  // The label is the finding's (what was stored) or the word's (what it is now).
  std::vector<std::string> undefined(f.undefined_by_spec().begin(), f.undefined_by_spec().end());
  if (undefined.empty()) {
    absl::StatusOr<const TargetTraits*> t = FindTarget(f.testcase().target());
    absl::StatusOr<Vop3Instr> in =
        t.ok() ? Vop3FromTestCase(**t, f.testcase(), HarnessDefaultRegisters())
               : absl::StatusOr<Vop3Instr>(t.status());
    if (in.ok()) undefined = SpecViolations(**t, *in);
  }
  if (!undefined.empty()) {
    out.detail = absl::StrCat("undefined by spec (", absl::StrJoin(undefined, "; "), "): ",
                              out.detail,
                              allow_undefined || absl::StrContains(out.detail, "--allow-undefined")
                                  ? ""
                                  : "; replay it with --allow-undefined");
  }
  return out;
}

namespace {

ReplayOutcome Replay(const proto::Finding& f, const Hypotheses& hyp, Runner& runner,
                     const Relaxations& relax_in, bool allow_undefined) {
  ReplayOutcome out;
  Relaxations relax = relax_in;
  for (const std::string& name : f.relaxations()) {
    absl::StatusOr<Relaxations> r = ParseRelaxations({name});
    if (r.ok()) {
      relax.nan_payload |= r->nan_payload;
      relax.unwritten_bytes |= r->unwritten_bytes;
    }
  }
  absl::StatusOr<DeviceBatch> batch = BuildDeviceBatch(f.testcase(), allow_undefined);
  if (!batch.ok()) {
    out.detail = absl::StrCat("the stored test case no longer builds: ", batch.status().message());
    return out;
  }
  absl::StatusOr<DeviceResult> r = runner.Run(*batch);
  if (f.kind() == proto::Finding::DEVICE_FAULT) {
    if (!r.ok() && IsDeviceFault(r.status())) {
      out.reproduced = true;
      out.detail = absl::StrCat("device faulted again: ", r.status().message());
    } else if (!r.ok()) {
      out.detail = absl::StrCat("device refused the batch: ", r.status().message());
    } else {
      out.detail = "device ran the batch without a fault";
    }
    return out;
  }
  if (!r.ok()) {
    out.detail = absl::StrCat("device did not run the batch: ", r.status().message());
    return out;
  }
  const std::vector<uint32_t>& obs = r->vdst;
  if (static_cast<int>(obs.size()) != f.observed_size()) {
    out.detail = absl::StrCat("device returned ", obs.size(), " words; the finding stores ",
                              f.observed_size());
    return out;
  }
  // Words per lane: DstWords of the finding's instruction (a VGPR pair: 2).
  const absl::StatusOr<Instr> instr = InstrFromProto(f.testcase().instr());
  const int words = instr.ok() ? DstWords(*instr) : 1;
  for (int i = 0; i < f.observed_size(); ++i) {
    if (obs[i] != f.observed(i)) {
      out.detail = absl::StrFormat("lane %d%s: device now gives 0x%08x, stored 0x%08x", i / words,
                                   words > 1 ? absl::StrCat(" word ", i % words) : "", obs[i],
                                   f.observed(i));
      return out;
    }
  }
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(f.testcase());
  if (!rc.ok()) {
    out.detail = absl::StrCat("the model cannot resolve the case: ", rc.status().message());
    return out;
  }
  rc->ctx.hyp = hyp;
  std::vector<uint32_t> expected(OutputWords(rc->ctx.instr, rc->lanes.size()));
  absl::Status s = Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(expected));
  if (!s.ok()) {
    out.detail = absl::StrCat("the model refuses the case: ", s.message());
    return out;
  }
  std::vector<size_t> bad = DifferingLanes(rc->ctx, rc->lanes.view(), expected, obs, relax);
  if (bad.empty()) {
    out.detail = "device words match the stored ones, but the model now agrees with them "
                 "(model changed or different --hypothesis)";
    return out;
  }
  out.reproduced = true;
  // The first differing word of the first differing lane.
  const size_t w = static_cast<size_t>(DstWords(rc->ctx.instr));
  size_t i = bad[0] * w;
  while (i + 1 < (bad[0] + 1) * w && i < obs.size() && obs[i] == expected[i]) ++i;
  const uint32_t o = i < obs.size() ? obs[i] : 0;
  out.detail = absl::StrFormat("bit for bit: lane %d%s device 0x%08x, model 0x%08x%s", bad[0],
                               w > 1 ? absl::StrCat(" word ", i % w) : "", o, expected[i],
                               expected[i] == (i < static_cast<size_t>(f.expected_size())
                                                   ? f.expected(static_cast<int>(i))
                                                   : expected[i])
                                   ? ""
                                   : " (model's word changed since the finding was stored)");
  return out;
}

}  // namespace
}  // namespace lanediff
