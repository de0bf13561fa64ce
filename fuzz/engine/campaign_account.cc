// The campaign worker's accounting stage: each case's outcome (invalid, unsupported, an
// environment error, refused, a fault, a disagreement) counted, a fault or a disagreement
// handed to its stage, the case kept in the pool (fuzz/engine/campaign_worker.h).
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "device_harness/fault.h"
#include "fuzz/engine/campaign_worker.h"
#include "fuzz/triage/classify.h"
#include "model/base/status.h"
#include "model/ops/input_class.h"

namespace lanediff {
namespace campaign_internal {
namespace {

int ClassIndex(absl::string_view c) {
  for (int i = 0; i < kNumInputClasses; ++i) {
    if (c == kInputClasses[i]) return i;
  }
  return kNumInputClasses - 1;
}

// The driver / ISA string of the device that answered: the driver as it says (HIP: runtime
// and driver versions) with the ISA it reports (HIP: "gfx942:sramecc+:xnack-"); a device
// without a driver (simulator, exec, replay) is "none (<runner>)".
std::string DriverOf(const proto::Provenance& p) {
  if (p.driver().empty()) return absl::StrCat("none (", p.runner().empty() ? "?" : p.runner(), ")");
  return p.target().empty() ? p.driver() : absl::StrCat(p.driver(), ", ISA ", p.target());
}

}  // namespace

// Counts one case's outcome (invalid, unsupported, refused, fault, disagreement) and keeps it
// in the pool when asked. A non-OK return stops the campaign (the store failed, or every case
// is invalid, or the device refuses everything).
absl::Status Worker::Account(FlatCase& c, absl::StatusOr<BothSides> both, bool keep_in_pool,
                             uint64_t* consecutive_refusals) {
  if (!both.ok()) {  // the case itself is invalid (resolver, batch builder)
    stats_.invalid++;
    if (o_.verbose || stats_.invalid <= 3) Note(std::string(both.status().message()));
    if (stats_.invalid > 1000 && stats_.execs == 0) {
      return absl::InternalError(absl::StrCat(
          "every generated case was refused as invalid; first reason: ", stats_.errors[0]));
    }
    return absl::OkStatus();
  }
  stats_.execs++;
  if (IsUnsupported(both->device_status)) {  // the device cannot run it: counted, no finding
    if (stats_.unsupported++ < 3) Note(std::string(both->device_status.message()));
    Progress(false);
    return absl::OkStatus();
  }
  // Not the instruction's failure: counted, never stored; a few in a row stop the campaign
  // (only the first case of a round moves the count: its siblings share its launch).
  if (IsEnvironmentError(both->device_status)) {
    stats_.environment_errors++;
    if (stats_.environment_errors <= 3) Note(std::string(both->device_status.message()));
    if (keep_in_pool && ++environment_errors_in_a_row_ >= kEnvironmentErrorsInARow) {
      return absl::FailedPreconditionError(absl::StrCat(
          "stopped: ", environment_errors_in_a_row_,
          " environment errors in a row (failures that are not the instruction's; nothing was "
          "stored for them); last: ", both->device_status.message()));
    }
    Progress(false);
    return absl::OkStatus();
  }
  if (keep_in_pool) environment_errors_in_a_row_ = 0;
  stats_.lanes += c.size();
  stats_.coverage.Add(c.header.target(), c.header.instr(), ModifierSet(c.header, both->ctx.mods),
                      ModeClass(both->ctx.mode), c.size());
  if (stats_.device_driver.empty() && both->device_status.ok()) {
    stats_.device_driver = DriverOf(both->device_provenance);
  }
  if (!both->device_status.ok()) {
    return AccountDeviceError(c, both->device_status, consecutive_refusals);
  }
  (*consecutive_refusals) = 0;
  // Input-class coverage: a sample of lanes.
  {
    OpContext ctx = both->ctx;
    ctx.hyp = Hypotheses{};  // as the case resolves, whatever --hypothesis says
    const LaneView v = both->resolved;
    for (size_t i = 0; i < v.size && i < 64; ++i) {
      stats_.classes[ClassIndex(ClassifyLane(ctx, v, i))]++;
    }
  }
  if (!both->differing.empty()) {
    absl::Status s = HandleDisagreement(ToProto(c), *both);  // protobuf at the edge only
    if (!s.ok()) return s;
  }
  if (keep_in_pool) KeepInPool(c);
  Progress(false);
  return absl::OkStatus();
}

// A device fault is stored (HandleFault); any other refusal is counted, and 50 in a row stop.
absl::Status Worker::AccountDeviceError(const FlatCase& c, const absl::Status& device_status,
                                        uint64_t* consecutive_refusals) {
  if (IsDeviceFault(device_status)) {
    (*consecutive_refusals) = 0;
    absl::Status s = HandleFault(ToProto(c), device_status);
    if (!s.ok()) return s;  // the store failed: nothing may be lost silently
  } else {
    stats_.refused++;
    if (++(*consecutive_refusals) >= 50) {
      return absl::UnavailableError(absl::StrCat(
          "the device refused 50 batches in a row; last: ", device_status.message()));
    }
    if (stats_.refused <= 3) Note(std::string(device_status.message()));
  }
  Progress(false);
  return absl::OkStatus();
}

void Worker::KeepInPool(FlatCase& c) {
  if (pool_.size() < kPoolSize) {
    pool_.push_back(std::move(c));
  } else {
    pool_[pool_next_++ % kPoolSize] = std::move(c);
  }
}

}  // namespace campaign_internal
}  // namespace lanediff
