// One test case resolved once, for every stage that handles a disagreement or a fault after the
// batch that showed it: the model, the device batch, the comparison, attribution, the
// confirmation batch built from it (fuzz/triage/attribution.h ConfirmationCase), the finding
// and its report line all read this value instead of looking the target up by name and decoding
// the word again. A confirmation batch and each minimization candidate are ResolvedTests of
// their own, resolved once for their run and for the triage call that reads them
// (ReproducesEveryLane, DecideClass, ShowsCause take t.rc).
//
//   LANEDIFF_ASSIGN_OR_RETURN(ResolvedTest t, ResolveTest(tc, hyp));   // ResolveTestCase, once
//   LANEDIFF_ASSIGN_OR_RETURN(BothSides b, RunBothSides(t, runner, relax, allow_undefined));
//   const std::string cause = StoredCause(t, "byte_moved");            // no second decode
//   LANEDIFF_ASSIGN_OR_RETURN(bool shows, ShowsCause(t.rc, hyp, b.observed, relax, c));
//
// What it holds: the target's traits (t.rc.target), the instruction's row (t.info), the decoded
// word (t.rc.vop3, t.rc.words), every lane's operands resolved (t.rc.lanes) and as the case
// gives them (t.raw), MODE (t.rc.ctx.mode, t.rc.requested_mode), the hypotheses the model runs
// under (t.rc.ctx.hyp), and the word's documented-restriction violations.
#ifndef LANEDIFF_FUZZ_ENGINE_RESOLVED_TEST_H_
#define LANEDIFF_FUZZ_ENGINE_RESOLVED_TEST_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/resolve_case.h"
#include "device_harness/runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/engine/compare.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct ResolvedTest {
  proto::TestCase tc;                        // the case as a finding stores it
  ResolvedCase rc;                           // ResolveTestCase(tc), rc.ctx.hyp the run's hypotheses
  const InstrInfo* info = nullptr;           // the instruction's row (model/instrs.def)
  std::string instr_name;                    // its proto spelling, as signatures spell it
  LaneBatch raw;                             // the lanes as tc gives them (the device batch's)
  std::vector<std::string> spec_violations;  // model/isa/vop3.h SpecViolations; empty: defined
};

// ResolveTestCase(tc) (its errors unchanged), with the model's hypotheses set to `hyp`.
absl::StatusOr<ResolvedTest> ResolveTest(proto::TestCase tc, const Hypotheses& hyp);

// StoredCause (fuzz/engine/campaign.h) of a resolved case: `cause`, or
// "undefined_by_spec.<cause>" when t.spec_violations is not empty.
std::string StoredCause(const ResolvedTest& t, const std::string& cause);

// The finding signature "<target>.<instr>.<stored cause>" (fuzz/triage/attribution.h).
std::string SignatureOf(const ResolvedTest& t, const std::string& stored_cause);

// RunBothSides (fuzz/engine/campaign.h) from the resolution `t` already holds: the model's
// words from t.rc, the device batch from t.rc and t.raw. The result's `resolved` points into
// t.rc.lanes (valid while `t` lives).
absl::StatusOr<BothSides> RunBothSides(const ResolvedTest& t, Runner& runner, const Relaxations& relax,
                                       bool allow_undefined);

// RunBothSides of each of `ts` with as few device calls as their launches allow: the batches
// that share a launch (fuzz/engine/launch_group.h SameLaunch: the same words, MODE and SGPR
// values) run as one batch, their answers split back. A shared batch that faults is run again
// case by case, so the fault lands on the case that causes it. One result per case, in order.
std::vector<absl::StatusOr<BothSides>> RunBothSidesTogether(const std::vector<const ResolvedTest*>& ts,
                                                            Runner& runner, const Relaxations& relax,
                                                            bool allow_undefined);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_ENGINE_RESOLVED_TEST_H_
