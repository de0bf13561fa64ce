// How two records of one signature combine, as a fleet needs it: merging corpora is
// idempotent (merging the same corpus twice changes nothing), commutative and associative
// (A then B == B then A == both at once), and a corpus moved between machines keeps its
// first/last seen and counts.
//
// The count is a grow-only counter per origin (a CRDT "G-counter"): each corpus has an id
// (<corpus>/.origin, made by CorpusStore::Open), its own hits add to its entry of
// Finding.origin_counts, and a merge keeps the larger value per entry; count is the sum,
// saturating at UINT64_MAX. A stray copy of a finding under another name, or the same corpus
// merged again, brings the same entries and changes nothing. first_seen is the earliest,
// last_seen the latest; the stored example is the one first seen (ties: the smaller encoding),
// whichever order the records arrive in.
//
//   proto::Finding both = MergeFindings(stored, incoming);   // == MergeFindings(incoming, stored)
//   AddHits(&stored, store_origin, 1);                       // a campaign saw it again
#ifndef LANEDIFF_FUZZ_CORPUS_MERGE_H_
#define LANEDIFF_FUZZ_CORPUS_MERGE_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// a + b, or UINT64_MAX when it would wrap.
uint64_t SaturatingAdd(uint64_t a, uint64_t b);

// Gives a finding written before origin_counts existed its count as one entry,
// "legacy-<first_seen>" (count 0 counts as 1), and sets count to the saturating sum of the
// entries. A finding that has entries keeps them; only count is recomputed.
void NormalizeOrigins(proto::Finding* f);

// `n` more hits from `origin` (after NormalizeOrigins).
void AddHits(proto::Finding* f, absl::string_view origin, uint64_t n);

// The two records of one signature joined: see the top of this file.
proto::Finding MergeFindings(const proto::Finding& a, const proto::Finding& b);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CORPUS_MERGE_H_
