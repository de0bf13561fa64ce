// Private to the campaign's files (fuzz/campaign*.cc): the helpers more than one of them uses.
// Not part of the library's interface (fuzz/engine/campaign.h is).
//   campaign.cc           the worker: next case, both sides, grouping rounds, findings, progress
//   campaign_messages.cc  worker -> parent frames of --jobs (encode, decode)
//   campaign_jobs.cc      --jobs N: forking the workers, merging their counters and findings
//   campaign_summary.cc   the live progress line and the end-of-campaign summary
#ifndef LANEDIFF_FUZZ_CAMPAIGN_INTERNAL_H_
#define LANEDIFF_FUZZ_CAMPAIGN_INTERNAL_H_

#include <chrono>
#include <cstdint>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "fuzz/engine/campaign.h"

namespace lanediff {
namespace campaign_internal {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t0);

// "<instr>.<cause>" of a campaign signature "<target>.<instr>.<cause>" (fuzz/triage/).
std::string BucketOf(const std::string& signature);
// The buckets of the findings under `findings_root` (<target>/<instr>/<signature>.textproto);
// none when the folder does not exist yet.
std::set<std::string> BucketsInStore(const std::string& findings_root);

// The lines that announce a bucket's first new signature in a run (campaign_summary.cc).
std::string NewFindingLines(const std::string& signature, const std::string& path, bool bucket_new);

// The timeline point of `s` at `secs`.
proto::StatsSample Sample(const CampaignStats& s, double secs);

// The library's own guard for what the CLI parser already refuses (fuzz/cli/args.h).
absl::Status CheckOptions(const CampaignOptions& options);

// The salt of the confirmation batch (fuzz/triage/attribution.h ConfirmationCase) of the case
// a campaign seeded `seed` handles after `execs` cases. A hypothesis confirmation and a class
// decision of the same case draw different batches (`kind`).
enum class ConfirmationKind : uint64_t { hypothesis = 0, difference_class = 0x5bd1e995u };
uint64_t ConfirmationSalt(uint64_t seed, uint64_t execs, ConfirmationKind kind);

// The stderr line for a confirmation batch that could not run, `reason` the device's words
// (or why the batch could not be built): printed once per distinct reason per run.
std::string UnconfirmedWarning(absl::string_view reason);

// Worker -> parent messages (campaign_messages.cc; the frame format is described there).
inline constexpr uint32_t kMaxWorkerMessage = 1 << 20;
void WriteAll(int fd, const std::string& s);
std::string Message(char tag, absl::string_view body);
std::string EncodeStats(const CampaignStats& s, bool final);
void DecodeMessage(absl::string_view msg, CampaignStats* s);

}  // namespace campaign_internal
}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CAMPAIGN_INTERNAL_H_
