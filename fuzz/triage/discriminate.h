// `lanediff discriminate` and `lanediff fidelity`: the smallest set of questions that tells
// apart every two readings of the same rule (hypothesis) relevant to a target and instruction:
// the question list to put to a new chip. Against a device, which reading of each rule its
// answers follow, or that they follow none of the known readings, with the lanes that say so;
// and whether it differs where the spec is clear (the fields of the instruction word).
//
// A question is one test case of several lanes: the lane the greedy cover below chose (lane 0,
// the one printed) and up to kLanesPerQuestion - 1 more of the same encoding and MODE on which
// two readings of the question's rules also differ, one per (answer pattern over the readings,
// src0 sign and exponent, src1 top bits): every NaN byte of both signs for a NaN rule, several
// binades for an overflow or subnormal rule. A combination of readings explains a question
// only when it gives the device's words on every lane.
//
// Relevant rules: those with a value that changes the model's answer on at least one candidate
// input for this target/instruction. Readings: the defaults, and each value of each relevant
// rule with the other rules at their defaults. Pairs: every two values of the same relevant
// rule (docs/semantics.md lists them). Candidates: the mutator's domain tables (special
// floats, u8 boundaries, fp8/bf8 boundaries of the target's formats, the f32 word just below
// each subnormal boundary; for a source of 8-bit codes every byte in every position and words
// of different bytes) x SR seed extremes x a few MODE values x CLAMP where it matters, then,
// where the row has them, each GFX9 SDWA src0_sel and each OMOD; in order of simplicity. A row
// whose S0 is a VGPR tuple (InstrInfo::src_dwords(0) > 1: the multi-element encoders) copies
// each candidate into every dword, and is probed for relevance on packed lanes instead: each
// run of candidates packed src_dwords(0) to a lane, every candidate at its own dword of the
// tuple (1/8 or 1/16 of the lanes, the readings of every rule evaluated there); the questions
// are then chosen from the copied lanes under the relevant readings only. A packed lane rounds a
// value with its own element's seed only (an SR row's seed step) and beside other values; on
// every row of gfx942, gfx950, gfx1201 and gfx1250 the probe found the rules the copied lanes
// find (discriminate --json of every row the same, byte for byte, with and without it), and
// EveryPairOfReadings (discriminate_test.cc) fails on a pair its own sample of inputs separates
// and no question does. Greedy set cover over the pairs (ties go to the simplest candidate),
// then over what a robust verdict needs besides: every two combinations of the relevant
// rules' values that differ in one rule, and every reading against every other combination.
//
// A device may follow non-default readings of several rules at once, so the verdict checks the
// answers against every combination of the relevant rules' values, not only the readings.
//
// An answer is the lane's whole result: DstWords(instr) words (the row's dst_bits / 32), so for
// an instruction writing a VGPR pair (dst_bits 64) both VDST and VDST+1; two
// readings are told apart when either word differs, and a device's answer is judged on both.
//
//   LANEDIFF_ASSIGN_OR_RETURN(Discrimination d, Discriminate(*FindTarget("gfx942"), instr));
//   std::fputs(FormatDiscrimination(d, nullptr).c_str(), stdout);
#ifndef LANEDIFF_FUZZ_DISCRIMINATE_H_
#define LANEDIFF_FUZZ_DISCRIMINATE_H_

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "device_harness/runner.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// One lane's result: its destination words, VDST first (dst_bits 64: VDST, VDST+1).
struct LaneAnswer {
  std::array<uint32_t, kMaxDstWords> word{};  // the unused words 0
  uint8_t words = 1;                          // DstWords(instr)
  // As the memberwise order (the words in turn, then `words`), reading only the used words: the
  // unused are 0 in both. A 1-word answer compares one word, not kMaxDstWords.
  friend std::strong_ordering operator<=>(const LaneAnswer& a, const LaneAnswer& b) {
    const size_t n = std::max(a.words, b.words);
    for (size_t k = 0; k < n; ++k) {
      if (a.word[k] != b.word[k]) return a.word[k] <=> b.word[k];
    }
    return a.words <=> b.words;
  }
  friend bool operator==(const LaneAnswer& a, const LaneAnswer& b) {
    return a.words == b.words && std::equal(a.word.begin(), a.word.begin() + a.words, b.word.begin());
  }
};
// `words` (1..kMaxDstWords of them) as one answer.
LaneAnswer MakeLaneAnswer(absl::Span<const uint32_t> words);
// "0x3f800000"; a VGPR pair "0x3f800000 0x7fc00000" (VDST, then VDST+1).
std::string FormatLaneAnswer(const LaneAnswer& a);

inline constexpr int kLanesPerQuestion = 16;

struct Question {
  proto::TestCase testcase;         // lane 0: the chosen lane; then its sibling lanes
  std::vector<LaneAnswer> answers;  // lane 0's, under each reading (Discrimination order)
  std::string assembly;
  std::vector<std::string> rules;  // the rules two of whose values it separates
  // Pairs of value combinations (see above) it separates that no earlier question does.
  int new_combination_pairs = 0;
};

// Two values of one rule, and the first question that separates them (-1: none does).
struct ReadingPair {
  std::string rule;
  std::string a, b;
  int question = -1;
};

// A rule the spec states clearly: one field of the instruction word set (NEG, ABS, OPSEL and
// so the byte or word select, CLAMP, an SDWA src0_sel; OPSEL = 0 too), asked on lanes where
// another setting of the field changes the model's answer and every reading of every relevant
// rule agrees (so that no hypothesis is asked again). BuildSpecChecks makes them. A device whose
// plain word (no field set) acts as if it had OPSEL X is judged again as if every word with
// OPSEL 0 had X (JudgeAnswers), so that one decoding fault is reported once, not as every
// rule's "none of the known readings".
struct SpecCheck {
  std::string field;           // "NEG[0]", "ABS[1]", "OPSEL=0b1000", "CLAMP", "SDWA src0_sel=1"
  proto::TestCase testcase;    // the field set; up to kLanesPerQuestion lanes
  std::string assembly;
  // Other settings of the same field, each as the encoding it makes (the field cleared first):
  // what "acts as if" names when the device's words are the model's under one of them.
  std::vector<std::pair<std::string, proto::Encoding>> alternatives;
};

struct Discrimination {
  std::string target;
  Instr instr;
  std::vector<std::string> relevant;     // rule names
  std::vector<Hypotheses> readings;      // [0] the defaults, then one non-default value each
  std::vector<std::string> reading_names;  // "default", "fp8_nan=sign_7f", ...
  std::vector<ReadingPair> pairs;        // every pair of values of every relevant rule
  std::vector<Question> questions;
  int pairs_separated = 0;
  std::vector<std::string> inseparable;  // "fp8_nan: sign_preserving == sign_7f"
  std::vector<SpecCheck> checks;         // the rules the spec states clearly
};

absl::StatusOr<Discrimination> Discriminate(const TargetTraits& target, Instr instr);

// Discriminate's first step only: the relevant rules, readings and reading pairs (each pair's
// question -1), no questions and no spec checks. What AllCombinations needs, in a fifth of
// Discriminate's time (the self-test's known answers of every row of every target, release,
// /usr/bin/time: 7.4 s user with Discriminate, 1.7 s with this).
absl::StatusOr<Discrimination> RelevantReadings(const TargetTraits& target, Instr instr);

// Every combination of the values of `d`'s relevant rules (the defaults included).
std::vector<Hypotheses> AllCombinations(const Discrimination& d);

// One rule's verdict, with one lane that reproduces it: what `discriminate` prints per rule and
// `fidelity` tabulates per (target, row).
struct RuleFinding {
  enum class Kind : uint8_t {
    follows,       // one reading explains the rule's questions (values[0])
    undetermined,  // several do (values): the questions cannot tell them apart here
    none,          // none of the known readings
    spec,          // a field of the word the spec states clearly, not applied as stated
  };
  Kind kind = Kind::follows;
  std::string rule;                 // hypothesis name, or the field ("NEG[0]")
  std::vector<std::string> values;  // follows: the one; undetermined: those that explain it
  bool is_default = false;          // follows/undetermined: the default is among values
  std::string detail;               // none/spec: "acts as if NEG[0]=0", the lanes no reading gives
  proto::TestCase lane;             // one lane that shows it (empty lanes when none is needed)
  LaneAnswer device, model;         // on that lane: the device's words and the default model's
};

struct DeviceVerdict {
  std::vector<LaneAnswer> device_answers;  // per question, lane 0
  std::vector<std::vector<LaneAnswer>> device_lanes;  // [question][lane]
  std::vector<std::vector<LaneAnswer>> check_lanes;   // [spec check][lane]
  // Some combination of the relevant rules' values explains every answer.
  bool explained = false;
  std::vector<std::string> follows;       // "sr_rounding=literal": unambiguous rules
  std::vector<std::string> undetermined;  // "fp16_ovfl: saturate_finite|saturate_all"
  // "fp8_nan: none of the known readings (Q2: device 0x00000011)" (a VGPR pair: both words):
  // rules whose own questions
  // no combination of values explains, with the lanes no reading gives.
  std::vector<std::string> none;
  // "NEG[0]: acts as if NEG[0]=0 (lane src0=0x3f800000: device 0x38, spec 0xb8)": each field
  // whose check the device's words contradict (printed "differs where the spec is clear: ...").
  std::vector<std::string> spec;
  std::vector<RuleFinding> findings;  // per relevant rule, then per failed spec check
  std::string summary;                // one line
};

// Runs every question and spec check on `runner`; errors name the question and the device's
// words.
absl::StatusOr<DeviceVerdict> AskDevice(const Discrimination& d, Runner& runner);

// The verdict for answers obtained elsewhere: per question, the words of its first lanes
// (DstWords(d.instr) words each; lane 0 at least), and per spec check its lanes' words (empty:
// the checks were not asked).
absl::StatusOr<DeviceVerdict> JudgeAnswers(
    const Discrimination& d, const std::vector<std::vector<LaneAnswer>>& device_lanes,
    const std::vector<std::vector<LaneAnswer>>& check_lanes = {});
// Lane 0 of each question only (the form older callers gave).
absl::StatusOr<DeviceVerdict> JudgeAnswers(const Discrimination& d,
                                           const std::vector<LaneAnswer>& device_answers);

// The spec checks of `d`'s target and row (fills d->checks); `d` holds its readings already.
absl::Status BuildSpecChecks(Discrimination* d);

// The model's words for every lane of `tc` under `hyp`, one LaneAnswer per lane.
absl::StatusOr<std::vector<LaneAnswer>> ModelLanes(const proto::TestCase& tc,
                                                   const Hypotheses& hyp);

std::string FormatDiscrimination(const Discrimination& d, const DeviceVerdict* verdict);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_DISCRIMINATE_H_
