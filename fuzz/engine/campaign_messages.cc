// Worker -> parent frames of `lanediff fuzz --jobs N` (fuzz/engine/campaign_internal.h).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "device_harness/isolation/wire.h"
#include "fuzz/engine/campaign_internal.h"
#include "model/ops/input_class.h"

namespace lanediff {
namespace campaign_internal {

void WriteAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// Worker -> parent messages: one frame each (isolation/wire.h: a length prefix, then the
// bytes), the first byte a tag and the rest its body, so that no text in a body (a seed file
// name in an error note may hold a newline) can end a message or forge another:
//   P/F counters (decimal, space-separated; F is the final set), S signature seen (at once),
//   B new signature stored ("1" or "0": its bucket is new to the corpus, then the signature, a
//   tab and its path; at once), N new signature, E error note, D device description, R device
//   driver, C coverage cell (a serialized proto::CoverageCell), U a reason a confirmation batch
//   could not run (at once, the first time the worker meets it; the parent prints it once), X fatal error ("env "/"err "
//   + text).
std::string Message(char tag, absl::string_view body) {
  return Frame(absl::StrCat(absl::string_view(&tag, 1), body.substr(0, kMaxWorkerMessage - 1)));
}

std::string EncodeStats(const CampaignStats& s, bool final) {
  std::string counters = absl::StrCat(s.execs, " ", s.lanes, " ", s.invalid, " ", s.refused, " ",
                                      s.disagreeing, " ", s.device_faults, " ", s.new_findings,
                                      " ", s.repeats);
  for (uint64_t c : s.classes) absl::StrAppend(&counters, " ", c);
  absl::StrAppend(&counters, " ", s.unsupported, " ", s.unconfirmed, " ", s.device_calls, " ",
                  s.triage_device_calls, " ", s.environment_errors);
  std::string out = Message(final ? 'F' : 'P', counters);
  if (final) {
    for (const std::string& sig : s.signatures) out += Message('S', sig);
    for (const std::string& sig : s.new_signatures) out += Message('N', sig);
    for (const std::string& e : s.errors) out += Message('E', e);
    out += Message('D', s.device_description);
    out += Message('R', s.device_driver);
    for (const proto::CoverageCell& c : s.coverage.Cells()) out += Message('C', c.SerializeAsString());
  }
  return out;
}

void DecodeMessage(absl::string_view msg, CampaignStats* s) {
  if (msg.empty()) return;
  const char tag = msg[0];
  absl::string_view rest = msg.substr(1);
  if (tag == 'P' || tag == 'F') {
    std::vector<std::string> f = absl::StrSplit(rest, ' ');
    if (f.size() < 8 + kNumInputClasses) return;
    uint64_t* fields[] = {&s->execs, &s->lanes, &s->invalid, &s->refused, &s->disagreeing,
                          &s->device_faults, &s->new_findings, &s->repeats};
    for (int i = 0; i < 8; ++i) *fields[i] = std::strtoull(f[i].c_str(), nullptr, 10);
    for (int i = 0; i < kNumInputClasses; ++i) {
      s->classes[i] = std::strtoull(f[8 + i].c_str(), nullptr, 10);
    }
    if (f.size() > 8 + kNumInputClasses) {
      s->unsupported = std::strtoull(f[8 + kNumInputClasses].c_str(), nullptr, 10);
    }
    if (f.size() > 9 + kNumInputClasses) {
      s->unconfirmed = std::strtoull(f[9 + kNumInputClasses].c_str(), nullptr, 10);
    }
    if (f.size() > 11 + kNumInputClasses) {
      s->device_calls = std::strtoull(f[10 + kNumInputClasses].c_str(), nullptr, 10);
      s->triage_device_calls = std::strtoull(f[11 + kNumInputClasses].c_str(), nullptr, 10);
    }
    if (f.size() > 12 + kNumInputClasses) {
      s->environment_errors = std::strtoull(f[12 + kNumInputClasses].c_str(), nullptr, 10);
    }
  } else if (tag == 'S') {
    s->signatures.insert(std::string(rest));
    s->buckets.insert(BucketOf(std::string(rest)));
  } else if (tag == 'R') {
    s->device_driver = std::string(rest);
  } else if (tag == 'C') {
    proto::CoverageCell c;
    if (c.ParseFromArray(rest.data(), static_cast<int>(rest.size()))) s->coverage.Add(c);
  } else if (tag == 'N') {
    s->new_signatures.push_back(std::string(rest));
  } else if (tag == 'E') {
    s->errors.push_back(std::string(rest));
  } else if (tag == 'D') {
    s->device_description = std::string(rest);
  }
}

}  // namespace campaign_internal
}  // namespace lanediff
