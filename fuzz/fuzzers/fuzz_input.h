// Shared by the libFuzzer entry points: a fuzz input is a binary proto::TestCase (what the
// custom mutator writes) or, failing that, a text one (so seed corpora can be readable text
// protos such as corpus/seeds/*/*.textproto).
#ifndef LANEDIFF_FUZZ_FUZZERS_FUZZ_INPUT_H_
#define LANEDIFF_FUZZ_FUZZERS_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/stubs/logging.h"
#include "fuzz/engine/mutator.h"
#include "proto/lanediff.pb.h"
#include "proto/text_format.h"

namespace lanediff {

inline constexpr size_t kFuzzMaxLanes = 64;

inline bool ParseFuzzInput(const uint8_t* data, size_t size, proto::TestCase* tc) {
  // Invalid UTF-8 in string fields is an ordinary rejected input here, not worth a log line.
  static const bool quiet = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
  }();
  (void)quiet;
  if (tc->ParseFromArray(data, static_cast<int>(size))) return true;
  return ParseTextInto(absl::string_view(reinterpret_cast<const char*>(data), size), "fuzz input",
                       tc)
      .ok();
}

inline const Mutator& FuzzMutator() {
  static const Mutator* m = [] {
    MutatorConfig c;
    c.max_lanes = kFuzzMaxLanes;
    return new Mutator(c);
  }();
  return *m;
}

// Serializes into data[0..max_size); drops lanes until it fits. Returns the size.
inline size_t WriteFuzzInput(proto::TestCase* tc, uint8_t* data, size_t max_size) {
  std::string out;
  for (;;) {
    out = tc->SerializeAsString();
    if (out.size() <= max_size || tc->lanes_size() <= 1) break;
    tc->mutable_lanes()->DeleteSubrange(tc->lanes_size() / 2, tc->lanes_size() - tc->lanes_size() / 2);
  }
  if (out.size() > max_size) return 0;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

}  // namespace lanediff

// The structured mutator behind libFuzzer's custom-mutator hooks.
#define LANEDIFF_DEFINE_TESTCASE_MUTATOR()                                                   \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,     \
                                            unsigned int seed) {                             \
    lanediff::Rng rng(seed);                                                                 \
    lanediff::proto::TestCase tc;                                                            \
    if (!lanediff::ParseFuzzInput(data, size, &tc) || rng.OneIn(16)) {                       \
      tc = lanediff::FuzzMutator().Generate(rng);                                            \
    } else {                                                                                 \
      lanediff::FuzzMutator().Mutate(rng, &tc);                                              \
    }                                                                                        \
    return lanediff::WriteFuzzInput(&tc, data, max_size);                                    \
  }                                                                                          \
  extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* d1, size_t s1, const uint8_t* d2, \
                                              size_t s2, uint8_t* out, size_t max_out,       \
                                              unsigned int seed) {                           \
    lanediff::Rng rng(seed);                                                                 \
    lanediff::proto::TestCase a, b;                                                          \
    if (!lanediff::ParseFuzzInput(d1, s1, &a)) a = lanediff::FuzzMutator().Generate(rng);    \
    if (!lanediff::ParseFuzzInput(d2, s2, &b)) b = lanediff::FuzzMutator().Generate(rng);    \
    lanediff::proto::TestCase c = lanediff::FuzzMutator().CrossOver(rng, a, b);              \
    return lanediff::WriteFuzzInput(&c, out, max_out);                                       \
  }

#endif  // LANEDIFF_FUZZ_FUZZERS_FUZZ_INPUT_H_
