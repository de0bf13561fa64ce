// The campaign worker's last stage: a finding stored (durable before it is reported), its
// repeats counted and flushed, the `new finding:` line, the repro line
// (fuzz/engine/campaign_worker.h).
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device_harness/exec/subprocess.h"
#include "fuzz/engine/campaign_worker.h"
#include "model/base/status.h"

namespace lanediff {
namespace campaign_internal {

// A signature seen for the first time in this run: its bucket counts as seen, and a worker of
// --jobs tells the parent at once (the parent's live line counts the buckets).
void Worker::Saw(const std::string& signature) {
  if (!stats_.signatures.insert(signature).second) return;
  stats_.buckets.insert(BucketOf(signature));
  if (o_.progress_fd >= 0) WriteAll(o_.progress_fd, Message('S', signature));
}

// Whether the store already holds a finding of `f`'s bucket on some target (before `f`).
bool Worker::BucketInStore(const proto::Finding& f) const {
  return buckets_before_ != nullptr && buckets_before_->count(BucketOf(f.signature())) != 0;
}

// A new signature is on disk: its bucket's first one in this run is printed (once per run,
// whatever the targets and workers). A worker of --jobs leaves the printing to the parent,
// which alone knows what the other workers printed.
void Worker::ReportNew(const std::string& signature, const std::string& path, bool bucket_new) {
  if (o_.progress_fd >= 0) {
    WriteAll(o_.progress_fd, Message('B', absl::StrCat(bucket_new ? "1" : "0", signature, "\t", path)));
    return;
  }
  const std::string bucket = BucketOf(signature);
  if (!printed_.insert(bucket).second) return;
  if (bucket_new) {
    stats_.new_buckets.insert(bucket);
    stats_.last_new_seconds = Since(t0_);
  }
  if (progress_shown_) std::fprintf(stderr, "\r\x1b[K");
  std::fprintf(stderr, "%s", NewFindingLines(signature, path, bucket_new).c_str());
}

std::string Worker::Repro(const std::string& path) const {
  // Every word shell-quoted: the line is meant to be pasted into a shell, and a corpus path
  // or an exec: device command may hold spaces, quotes or `$(...)`.
  std::vector<std::string> w = {o_.repro_prefix, "replay", path, "--device=" + o_.device};
  for (const std::string& e : o_.inject) w.insert(w.end(), {"--inject", e});
  for (const std::string& h : o_.hypotheses) w.insert(w.end(), {"--hypothesis", h});
  for (const std::string& x : RelaxationNames(o_.relax)) w.insert(w.end(), {"--relax", x});
  if (o_.allow_undefined) w.insert(w.end(), {"--allow-undefined"});
  return ShellJoin(w);
}

absl::Status Worker::Store(proto::Finding f, const std::string& pre_signature) {
  const std::string now = NowRfc3339();
  f.set_first_seen(now);
  f.set_last_seen(now);
  f.set_count(1);
  for (const std::string& x : RelaxationNames(o_.relax)) f.add_relaxations(x);
  if (pre_to_final_.size() < kMaxPreSignatures) pre_to_final_[pre_signature] = f.signature();
  Saw(f.signature());
  auto it = known_.find(f.signature());
  if (it != known_.end()) {  // minimized into a signature already stored in this run
    it->second.unflushed++;
    for (const auto& [a, n] : f.attributes()) it->second.attrs[a] += n;
    stats_.repeats++;
    return absl::OkStatus();
  }
  bool is_new = true;
  std::string path = "(not stored: no --corpus)";
  const bool bucket_new = !BucketInStore(f);
  if (store_ != nullptr) {
    // Durable before it is reported.
    LANEDIFF_ASSIGN_OR_RETURN(RecordOutcome r, store_->Record(f));
    is_new = r.is_new;
    path = r.path;
  }
  if (known_.size() < kMaxSignatures) known_[f.signature()] = Known{f, 0, {}, {}, {}};
  if (is_new) {
    if (stats_.new_findings == 0) stats_.first_finding_exec = stats_.execs;
    stats_.new_findings++;
    stats_.new_signatures.push_back(f.signature());
    ReportNew(f.signature(), path, bucket_new);
    if (o_.on_new_finding) o_.on_new_finding(f, store_ != nullptr ? path : "");
  } else {
    stats_.repeats++;
  }
  return absl::OkStatus();
}

void Worker::FlushCounts() {
  if (store_ == nullptr) return;
  for (auto& [sig, k] : known_) {
    if (k.unflushed == 0) continue;
    proto::Finding f = k.finding;
    f.set_count(k.unflushed);
    f.clear_attributes();
    *f.mutable_more_examples() = k.extras.more_examples();
    for (const auto& [a, n] : k.attrs) (*f.mutable_attributes())[a] = n;
    f.set_first_seen("");
    f.set_last_seen(NowRfc3339());
    absl::StatusOr<RecordOutcome> r = store_->Record(f);
    if (!r.ok()) Note(std::string(r.status().message()));
    else k.unflushed = 0, k.attrs.clear(), k.extras.clear_more_examples();
  }
}

}  // namespace campaign_internal
}  // namespace lanediff
