// What makes a stored Finding or a RunRecord usable: one set of rules, applied after parsing by
// every reader (the corpus store before it updates a file, `replay`, `corpus merge`, `report`).
// A message that parses but breaks a rule is named and skipped, never trusted.
//
//   absl::Status s = ValidateFinding(f);    // "field kind: 7 is not a Finding.Kind"
//   absl::Status r = ValidateRunRecord(rr); // "sweeps[2]: 3 mismatch_examples but 1 ..."
#ifndef LANEDIFF_PROTO_VALIDATE_H_
#define LANEDIFF_PROTO_VALIDATE_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/lanediff.pb.h"
#include "proto/report.pb.h"

namespace lanediff {

// Lanes one finding may hold: the per-batch limit (kMaxLanesPerBatch, device_harness/batch.h,
// which static_asserts that the two agree).
inline constexpr size_t kMaxLanesPerFinding = size_t{1} << 20;
// Destination words a lane may have in Finding.expected/observed: a VGPR tuple of up to 32
// (model/targets/targets.h kMaxDstWords: the FP6/BF6 -> f32 decodes' v[N:N+31]).
inline constexpr size_t kMaxWordsPerLane = 32;

// Entries of SweepResult.mismatch_by_exponent: sign * 256 + biased exponent.
inline constexpr int kExponentBins = 512;

// True for a signature usable as a file name: [A-Za-z0-9_.+=-], 1..200 chars, not "."-led.
bool IsValidSignature(absl::string_view signature);

// A finding is usable when: the signature is valid; kind is DISAGREEMENT or DEVICE_FAULT (not
// unspecified, not an out-of-range number such as 7); testcase.target is a name and
// testcase.instr a known instruction; operand source kinds are known; 1..kMaxLanesPerFinding
// lanes; for DISAGREEMENT as many expected as observed words, 1..kMaxWordsPerLane per lane
// (a VGPR pair: 2). The error names the
// field.
absl::Status ValidateFinding(const proto::Finding& finding);

// A run record is usable when it holds at least one sweep, campaign or verdict, and each is
// self-consistent: known instruction, a target name, as many mismatch_expected and
// mismatch_observed words as mismatch_examples, at most kExponentBins exponent bins,
// first <= last, counts no larger than the lanes they count, finite non-negative seconds
// and a fraction in [0, 1]. The error names the entry and field ("sweeps[3].first").
absl::Status ValidateRunRecord(const proto::RunRecord& record);

}  // namespace lanediff

#endif  // LANEDIFF_PROTO_VALIDATE_H_
