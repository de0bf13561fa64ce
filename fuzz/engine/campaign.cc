// RunCampaign and the library's functions around it (fuzz/engine/campaign.h); the worker it
// runs is a pipeline of stages (fuzz/engine/campaign_worker.h), and the helpers the campaign's
// files share are here (fuzz/engine/campaign_internal.h).
#include "fuzz/engine/campaign.h"

#include <chrono>
#include <cmath>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "fuzz/engine/campaign_internal.h"
#include "fuzz/engine/campaign_worker.h"
#include "fuzz/engine/lane_gen.h"
#include "fuzz/triage/buckets.h"
#include "model/base/status.h"
#include "model/base/version.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"

namespace lanediff {
namespace campaign_internal {

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The bucket of a campaign signature "<target>.<instr>.<cause>": BucketKey of
// "<instr>.<cause>" (fuzz/triage/buckets.h), the instruction and rule for a cause named by
// readings, so a reading parted on one target and not on another is one bucket.
std::string BucketOf(const std::string& signature) {
  const size_t dot = signature.find('.');
  return BucketKey(dot == std::string::npos ? signature : signature.substr(dot + 1));
}

std::set<std::string> BucketsInStore(const std::string& findings_root) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(findings_root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() == 2 && it->path().extension() == ".textproto") {
      out.insert(BucketOf(it->path().stem().string()));
    }
  }
  return out;
}

proto::StatsSample Sample(const CampaignStats& s, double secs) {
  proto::StatsSample x;
  x.set_seconds(secs);
  x.set_cases(s.execs);
  x.set_lanes(s.lanes);
  x.set_findings(s.new_findings);
  x.set_buckets(s.buckets.size());
  return x;
}

// The library's own guard for what the CLI parser already refuses (fuzz/cli/args.h).
absl::Status CheckOptions(const CampaignOptions& options) {
  if (!(options.time_seconds >= 0) || !std::isfinite(options.time_seconds)) {
    return absl::InvalidArgumentError("--time must be a finite number of seconds, 0 or more");
  }
  if (options.time_seconds == 0 && options.max_execs == 0) {
    return absl::InvalidArgumentError("give --time SECONDS or --execs N (or both)");
  }
  if (!(options.batch_timeout_seconds > 0) || !std::isfinite(options.batch_timeout_seconds)) {
    return absl::InvalidArgumentError("--timeout must be a finite number of seconds above 0");
  }
  if (options.lanes_per_batch == 0 || options.lanes_per_batch > kMaxLanes) {
    return absl::InvalidArgumentError(absl::StrCat("--lanes-per-batch must be 1..", kMaxLanes));
  }
  if (options.launch_lanes < -1 || options.launch_lanes > static_cast<int64_t>(kMaxLanesPerBatch)) {
    return absl::InvalidArgumentError(absl::StrCat("launch_lanes must be -1 (automatic), 0 (off) or up to ",
                                                   kMaxLanesPerBatch));
  }
  if (options.jobs < 1 || options.jobs > 256) {
    return absl::InvalidArgumentError("--jobs must be 1..256");
  }
  return absl::OkStatus();
}

uint64_t ConfirmationSalt(uint64_t seed, uint64_t execs, ConfirmationKind kind) {
  return (seed + 1) * 0x9e3779b97f4a7c15ull ^ execs ^ static_cast<uint64_t>(kind);
}

}  // namespace campaign_internal

proto::Provenance ModelProvenance(const std::string& target, const Hypotheses& hyp) {
  proto::Provenance p;
  p.set_runner("model");
  p.set_device("model");
  p.set_target(target);
  for (const std::string& h : HypothesisSettings(hyp)) p.add_hypotheses(h);
  p.set_lanediff_version(LANEDIFF_VERSION);
  return p;
}

std::string StoredCause(const proto::TestCase& tc, const std::string& cause,
                        std::vector<std::string>* violations) {
  absl::StatusOr<const TargetTraits*> t = FindTarget(tc.target());
  if (!t.ok()) return cause;
  absl::StatusOr<Vop3Instr> in = Vop3FromTestCase(**t, tc, HarnessDefaultRegisters());
  if (!in.ok()) return cause;
  std::vector<std::string> v = SpecViolations(**t, *in);
  if (v.empty()) return cause;
  if (violations != nullptr) *violations = std::move(v);
  return absl::StrCat("undefined_by_spec.", cause);
}

size_t AimLanes(const Mutator&, Rng& rng, const Hypotheses& hyp, proto::TestCase* tc) {
  FlatCase c = Flatten(std::move(*tc));
  const size_t aimed = AimLanes(rng, hyp, &c);
  *tc = ToProto(c);
  return aimed;
}

absl::StatusOr<CampaignStats> RunCampaign(const CampaignOptions& options,
                                          const std::atomic<bool>* stop) {
  LANEDIFF_RETURN_IF_ERROR(campaign_internal::CheckOptions(options));
  campaign_internal::Worker w(options, stop);
  return w.Run();
}

}  // namespace lanediff
