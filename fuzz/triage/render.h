// Printing buckets for people and programs: `lanediff triage` lines and JSON, with one decoded
// example each (input as f32 value and hex, modifiers and MODE by name, expected vs observed
// words with the written byte decoded in its format, repro command). The JSON is documented
// in fuzz/triage/README.md.
#ifndef LANEDIFF_FUZZ_TRIAGE_RENDER_H_
#define LANEDIFF_FUZZ_TRIAGE_RENDER_H_

#include <string>

#include "fuzz/triage/buckets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// "1,234,567"
std::string Thousands(uint64_t n);

// "MODE 0x000000f0: f32 round nearest_even, f32 denormals 0b11 (in+out kept), FP16_OVFL off"
std::string DescribeMode(uint32_t mode);

// What a bucket's cause says, for people (the signature keeps the cause itself):
//   "reading fp8_nan=sign_preserving"                   one hypothesis setting
//   "equivalent readings fp8_nan in {sign_7f, sign_preserving}"  settings of one rule that
//                                                        gave the same words on every lane seen
//   "acts as if neg0=0"                                 an instruction-word or MODE field
//   "none of the known readings: nan_encoding"          a difference class: no reading or
//                                                        field explains the lanes
//   "device fault: crash"                               device_fault.*
// A cause prefixed "undefined_by_spec." is titled "undefined by spec: " and the rest.
std::string CauseTitle(const std::string& cause);

// A few indented lines decoding a finding's first differing lane (or its first lane).
std::string DecodeExample(const proto::Finding& f, const std::string& path);

// One bucket for a person: status line, then the decoded example (none for a FIXED issue).
std::string TriageText(const TriageRow& row);

// One bucket as one JSON object on one line (no trailing newline), written with the JSON
// writer every --json output uses (fuzz/cli/json_line.h): valid UTF-8 whatever a path holds.
std::string TriageJson(const TriageRow& row);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_RENDER_H_
