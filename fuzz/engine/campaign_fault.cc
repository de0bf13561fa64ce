// The campaign worker's fault stage: a batch the device faulted on (a crash, a hang, a HIP
// error) becomes a DEVICE_FAULT finding with fewer lanes where a bisection within a budget finds
// them (fuzz/engine/campaign_worker.h).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "fuzz/engine/campaign_worker.h"
#include "model/base/version.h"
#include "model/isa/vop3.h"

namespace lanediff {
namespace campaign_internal {

absl::Status Worker::HandleFault(const proto::TestCase& tc, const absl::Status& fault) {
  stats_.device_faults++;
  // A fault kind already stored in this run is a repeat: no second bisection.
  // Keyed by the stored cause: each HIP error code is its own cause (FaultCause).
  const std::string pre = absl::StrCat("fault:", tc.target(), ".", proto::Instruction_Name(tc.instr()),
                                       ".", StoredCause(tc, FaultCause(fault)));
  if (auto seen = pre_to_final_.find(pre); seen != pre_to_final_.end()) {
    auto k = known_.find(seen->second);
    if (k != known_.end()) k->second.unflushed++;
    stats_.repeats++;
    return absl::OkStatus();
  }
  absl::Status best_fault = fault;
  const proto::TestCase best = BisectFault(tc, &best_fault);
  return Store(FaultFinding(best, best_fault), pre);
}

proto::TestCase Worker::BisectFault(const proto::TestCase& tc, absl::Status* fault) {
  // Shrink the lanes by bisection within a budget: a crash costs little, a hang costs the
  // batch timeout per try; and never past the campaign's end.
  const int budget = fault->code() == absl::StatusCode::kDeadlineExceeded ? 6 : 24;
  proto::TestCase best = tc;
  auto out_of_time = [&] { return o_.time_seconds > 0 && Since(t0_) >= o_.time_seconds; };
  for (int calls = 0; calls < budget && best.lanes_size() > 1 && !out_of_time(); ) {
    const int n = best.lanes_size(), half = n / 2;
    bool shrunk = false;
    for (int side = 0; side < 2 && calls < budget; ++side) {
      proto::TestCase c = best;
      if (side == 0) c.mutable_lanes()->DeleteSubrange(half, n - half);
      else c.mutable_lanes()->DeleteSubrange(0, half);
      ++calls;
      absl::StatusOr<DeviceBatch> batch = BuildDeviceBatch(c, o_.allow_undefined);
      if (!batch.ok()) continue;
      absl::StatusOr<DeviceResult> r = runner_->Run(*batch);
      if (!r.ok() && IsDeviceFault(r.status())) {
        best = std::move(c);
        *fault = r.status();
        shrunk = true;
        break;
      }
    }
    if (!shrunk) break;
  }
  return best;
}

proto::Finding Worker::FaultFinding(const proto::TestCase& best, const absl::Status& fault) {
  proto::Finding f;
  f.set_kind(proto::Finding::DEVICE_FAULT);
  *f.mutable_testcase() = best;
  f.set_fault(std::string(fault.message()));  // the device's exact words
  // Resolved once, under the default hypotheses (the attributes' input class is the case's as
  // it resolves, whatever --hypothesis says). A case that does not resolve still stores, with
  // its cause from the word alone, no attributes and no assembly.
  const absl::StatusOr<ResolvedTest> t = ResolveTest(best, Hypotheses{});
  std::vector<std::string> undefined;
  if (t.ok()) {
    f.set_cause(StoredCause(*t, FaultCause(fault)));  // the input class is an attribute, not the key
    undefined = t->spec_violations;
    f.set_signature(SignatureOf(*t, f.cause()));
    if (best.lanes_size() > 0) {
      for (const std::string& a : SightingAttributes(best, t->rc, 0)) (*f.mutable_attributes())[a] = 1;
    }
  } else {
    f.set_cause(StoredCause(best, FaultCause(fault), &undefined));
    f.set_signature(CauseSignature(best.target(), proto::Instruction_Name(best.instr()), f.cause()));
  }
  for (const std::string& u : undefined) f.add_undefined_by_spec(u);
  *f.mutable_model() = ModelProvenance(best.target(), hyp_);
  proto::Provenance* dev = f.mutable_device();
  dev->set_runner(o_.device);
  dev->set_device(runner_->Describe());
  dev->set_target(best.target());
  for (const std::string& e : o_.inject) dev->add_injected(e);
  dev->set_lanediff_version(LANEDIFF_VERSION);
  if (t.ok()) f.set_assembly(PrintVop3(*t->rc.target, t->rc.vop3));
  if (store_ != nullptr) f.set_repro(Repro(store_->PathFor(f)));
  return f;
}

}  // namespace campaign_internal
}  // namespace lanediff
