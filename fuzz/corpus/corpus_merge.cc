#include "fuzz/corpus/corpus_merge.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace lanediff {
namespace {

// The example a record carries: everything but the counters and times, encoded with map
// entries in key order, so equal examples compare equal.
std::string ExampleBytes(const proto::Finding& f) {
  proto::Finding e = f;
  e.clear_count();
  e.clear_origin_counts();
  e.clear_first_seen();
  e.clear_last_seen();
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  e.SerializeToCodedStream(&coded);
  coded.Trim();
  return out;
}

// True if `a`'s example is the one to keep: seen first (an unknown time is never earlier), then
// the smaller encoding.
bool KeepsExample(const proto::Finding& a, const proto::Finding& b) {
  if (a.first_seen() != b.first_seen()) {
    if (a.first_seen().empty()) return false;
    if (b.first_seen().empty()) return true;
    return a.first_seen() < b.first_seen();
  }
  return ExampleBytes(a) <= ExampleBytes(b);
}

}  // namespace

uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

void NormalizeOrigins(proto::Finding* f) {
  auto& origins = *f->mutable_origin_counts();
  if (origins.empty()) {
    origins[absl::StrCat("legacy-", f->first_seen())] = std::max<uint64_t>(1, f->count());
  }
  uint64_t sum = 0;
  for (const auto& [origin, n] : origins) sum = SaturatingAdd(sum, n);
  f->set_count(sum);
}

void AddHits(proto::Finding* f, absl::string_view origin, uint64_t n) {
  uint64_t& mine = (*f->mutable_origin_counts())[std::string(origin)];
  mine = SaturatingAdd(mine, n);
  NormalizeOrigins(f);
}

proto::Finding MergeFindings(const proto::Finding& a, const proto::Finding& b) {
  proto::Finding na = a, nb = b;
  NormalizeOrigins(&na);
  NormalizeOrigins(&nb);
  proto::Finding out = KeepsExample(na, nb) ? na : nb;
  const proto::Finding& other = KeepsExample(na, nb) ? nb : na;
  auto& origins = *out.mutable_origin_counts();
  for (const auto& [origin, n] : other.origin_counts()) {
    uint64_t& mine = origins[origin];
    mine = std::max(mine, n);
  }
  if (out.first_seen().empty() ||
      (!other.first_seen().empty() && other.first_seen() < out.first_seen())) {
    out.set_first_seen(other.first_seen());
  }
  if (other.last_seen() > out.last_seen()) out.set_last_seen(other.last_seen());
  NormalizeOrigins(&out);
  return out;
}

}  // namespace lanediff
