// The text of a campaign: the live progress line and the end-of-campaign summary
// (ProgressLine, FormatSummary: fuzz/engine/campaign.h).
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/engine/campaign_internal.h"
#include "fuzz/triage/render.h"
#include "model/ops/input_class.h"

namespace lanediff {
namespace {

using campaign_internal::BucketOf;

std::string Rate(double n, double secs) {
  const double r = secs > 0 ? n / secs : 0;
  if (r >= 1e6) return absl::StrFormat("%.2fM", r / 1e6);
  if (r >= 1e3) return absl::StrFormat("%.1fk", r / 1e3);
  return absl::StrFormat("%.0f", r);
}

std::string CoverageLine(const CampaignStats& s) {
  std::vector<std::string> parts;
  for (int i = 0; i < kNumInputClasses; ++i) {
    if (s.classes[i] > 0) parts.push_back(kInputClasses[i]);
  }
  return absl::StrCat(parts.size(), "/", kNumInputClasses, " classes");
}

}  // namespace

namespace campaign_internal {

// The lines that announce a bucket's first new signature in a run.
std::string NewFindingLines(const std::string& signature, const std::string& path,
                            bool bucket_new) {
  return absl::StrFormat("new finding: %s\n  %s (bucket %s: %s)\n", signature, path,
                         BucketOf(signature),
                         bucket_new ? "new" : "already in the corpus on another target");
}

std::string UnconfirmedWarning(absl::string_view reason) {
  return absl::StrCat("warning: a confirmation batch could not run, so the cause it was to "
                      "confirm is stored unconfirmed (counted in the summary): ", reason, "\n");
}

}  // namespace campaign_internal

// "[  12s, 48s left] 1,234 cases (100/s) 1,264,616 lanes (98.0k/s) | 3 buckets (2 new), last
// new bucket 5s ago | 0 faults | 5/8 classes". What is left is the --time limit's, or (with
// --execs only) the cases left at the rate so far, marked "~".
std::string ProgressLine(const CampaignStats& s, double secs, double limit, uint64_t max_execs) {
  std::string left;
  if (limit > secs) {
    left = absl::StrFormat(", %.0fs left", limit - secs);
  } else if (max_execs > s.execs && s.execs > 0 && secs > 0) {
    left = absl::StrFormat(", ~%.0fs left", secs * double(max_execs - s.execs) / double(s.execs));
  }
  const std::string last_new =
      s.last_new_seconds < 0
          ? "no new bucket yet"
          : absl::StrFormat("last new bucket %.0fs ago", std::max(0.0, secs - s.last_new_seconds));
  return absl::StrFormat(
      "[%4.0fs%s] %s cases (%s/s) %s lanes (%s/s) | %zu buckets (%zu new), %s | %s faults | %s",
      secs, left, Thousands(s.execs), Rate(s.execs, secs), Thousands(s.lanes), Rate(s.lanes, secs),
      s.buckets.size(), s.new_buckets.size(), last_new, Thousands(s.device_faults),
      CoverageLine(s));
}

std::string FormatSummary(const CampaignOptions& o, const CampaignStats& s) {
  std::string out;
  absl::StrAppendFormat(&out, "lanediff fuzz summary\n");
  absl::StrAppendFormat(&out, "  device        %s\n", s.device_description);
  absl::StrAppendFormat(&out, "  comparison    %s\n", DescribeRelaxations(o.relax));
  absl::StrAppendFormat(&out, "  model         %s\n",
                        o.hypotheses.empty() ? "default hypotheses" : absl::StrJoin(o.hypotheses, " "));
  absl::StrAppendFormat(&out, "  seed          %d, %d job(s), %zu lanes per batch\n", o.seed,
                        o.jobs, o.lanes_per_batch);
  absl::StrAppendFormat(&out,
                        "  ran           %d cases, %d lanes in %.1f s: %s cases/s, %s lanes/s\n",
                        s.execs, s.lanes, s.seconds, Rate(s.execs, s.seconds),
                        Rate(s.lanes, s.seconds));
  absl::StrAppendFormat(&out,
                        "  results       %d disagreeing cases, %d device faults, %d refused, "
                        "%d invalid, %d unsupported by the device, %d environment errors "
                        "(batches that failed for a reason not the instruction's; never "
                        "findings)\n",
                        s.disagreeing, s.device_faults, s.refused, s.invalid, s.unsupported,
                        s.environment_errors);
  if (s.unconfirmed == 0) {
    absl::StrAppend(&out, "  confirmation  every confirmation batch ran\n");
  } else {
    absl::StrAppendFormat(&out,
                          "  confirmation  %d batches could not run: the causes they were to "
                          "confirm are unconfirmed%s\n",
                          s.unconfirmed,
                          s.unconfirmed_reasons.empty()
                              ? ""
                              : absl::StrCat(" (", absl::StrJoin(s.unconfirmed_reasons, "; "), ")"));
  }
  absl::StrAppendFormat(&out, "  device calls  %d (%s cases a call); %d for triage%s\n", s.device_calls,
                        s.device_calls == 0 ? "0" : absl::StrFormat("%.1f", double(s.execs) / double(s.device_calls)),
                        s.triage_device_calls,
                        s.new_findings == 0
                            ? ""
                            : absl::StrFormat(", %.1f a new finding",
                                              double(s.triage_device_calls) / double(s.new_findings)));
  absl::StrAppendFormat(&out, "  findings      %d new, %zu signatures seen, %d repeats%s\n",
                        s.new_findings, s.signatures.size(), s.repeats,
                        s.first_finding_exec == 0
                            ? ""
                            : absl::StrCat(" (first at case ", s.first_finding_exec, ")"));
  std::vector<std::string> cov;
  for (int i = 0; i < kNumInputClasses; ++i) {
    cov.push_back(absl::StrCat(kInputClasses[i], ":", s.classes[i]));
  }
  absl::StrAppendFormat(&out, "  coverage      %s (sampled lanes per input class)\n",
                        absl::StrJoin(cov, " "));
  // Each bucket once, its stored signatures (one per target) under it.
  absl::StrAppendFormat(&out, "  buckets       %zu seen, %zu new to the corpus\n", s.buckets.size(),
                        s.new_buckets.size());
  std::map<std::string, std::vector<std::string>> by_bucket;
  for (const std::string& sig : s.signatures) by_bucket[BucketOf(sig)].push_back(sig);
  for (const auto& [bucket, sigs] : by_bucket) {
    absl::StrAppendFormat(&out, "  bucket %s%s\n", bucket,
                          s.new_buckets.count(bucket) ? " (new)" : "");
    for (const std::string& sig : sigs) {
      const bool is_new = std::binary_search(s.new_signatures.begin(), s.new_signatures.end(), sig);
      absl::StrAppendFormat(&out, "    %s %s\n", is_new ? "NEW " : "seen", sig);
    }
  }
  for (const std::string& e : s.errors) absl::StrAppendFormat(&out, "  note: %s\n", e);
  return out;
}

}  // namespace lanediff
