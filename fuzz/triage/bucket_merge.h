// How a stored bucket (one proto::Finding file per signature "<target>.<instr>.<cause>")
// absorbs another sighting of the same signature, beyond count and first/last seen (which the
// store merges itself): attribute counts are summed, and a sighting whose operand shape
// (encoding fields and MODE, ignoring operand values) differs from every stored example adds
// its example, up to kMaxExtraExamples. Header-only: fuzz/corpus/corpus_store.cc depends on nothing
// but the schema.
//
//   MergeBucketFields(incoming, &stored);
#ifndef LANEDIFF_FUZZ_TRIAGE_BUCKET_MERGE_H_
#define LANEDIFF_FUZZ_TRIAGE_BUCKET_MERGE_H_

#include <string>

#include "proto/lanediff.pb.h"

namespace lanediff {

inline constexpr int kMaxExtraExamples = 3;

// Operand shape of a case: its encoding with uniform source values cleared, and its MODE.
inline std::string ExampleShape(const proto::TestCase& tc) {
  proto::Encoding e = tc.encoding();
  e.mutable_src0()->clear_value();
  e.mutable_src1()->clear_value();
  e.mutable_src2()->clear_value();
  std::string key;
  e.SerializeToString(&key);  // proto3, no maps: deterministic enough for equality
  key += "/mode";
  key += std::to_string(tc.has_mode() ? tc.mode() : 0xf0u);
  return key;
}

inline void MergeBucketFields(const proto::Finding& in, proto::Finding* stored) {
  for (const auto& [name, n] : in.attributes()) (*stored->mutable_attributes())[name] += n;
  if (stored->cause().empty()) stored->set_cause(in.cause());
  auto add = [&](const proto::TestCase& tc, const auto& expected, const auto& observed) {
    if (stored->more_examples_size() >= kMaxExtraExamples) return;
    const std::string shape = ExampleShape(tc);
    if (shape == ExampleShape(stored->testcase())) return;
    for (const proto::Finding::Example& x : stored->more_examples()) {
      if (shape == ExampleShape(x.testcase())) return;
    }
    proto::Finding::Example* x = stored->add_more_examples();
    *x->mutable_testcase() = tc;
    x->mutable_expected()->Add(expected.begin(), expected.end());
    x->mutable_observed()->Add(observed.begin(), observed.end());
  };
  if (in.kind() == stored->kind()) add(in.testcase(), in.expected(), in.observed());
  for (const proto::Finding::Example& x : in.more_examples()) {
    add(x.testcase(), x.expected(), x.observed());
  }
}

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_BUCKET_MERGE_H_
