// Root-cause attribution: what caused the lanes of one batch to disagree, decided on every
// disagreeing lane of the batch (not on a minimized lane), as pure functions over (test case,
// expected words, observed words).
//
// Lanes whose difference is structural (a byte moved, kept bytes changed: see DifferenceClass)
// take that class: no hypothesis moves bytes. The lanes where only the written byte differs
// are attributed lane by lane: to the fewest readings (hypothesis settings) and word or MODE
// fields that together explain them (fuzz/triage/lane_causes.h), so one batch may give several
// causes; what none explains takes one structured difference class (the rule is at Attribute
// below).
// Operand shape (modifier set), input class, MODE and target are NOT part of a cause: they are
// counted as attributes of the bucket the cause falls into (fuzz/triage/buckets.h).
//
//   LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(tc));
//   rc.ctx.hyp = model_hypotheses;
//   LANEDIFF_ASSIGN_OR_RETURN(std::vector<Cause> causes, Attribute(rc, expected, observed, relax));
//   causes[0].name   // "sr_rounding=literal", or "byte_moved", "rounded_other_way", ...
#ifndef LANEDIFF_FUZZ_TRIAGE_ATTRIBUTION_H_
#define LANEDIFF_FUZZ_TRIAGE_ATTRIBUTION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "fuzz/engine/compare.h"
#include "model/fp/fp8_format.h"
#include "device_harness/resolve_case.h"
#include "model/targets/hypotheses.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// The structured difference classes, one per lane. Checked in this order (the first that
// holds wins):
//
//   byte_moved          the result landed in another byte position: the written byte kept its
//                       old value and exactly one other byte p changed (its value may differ
//                       too). A move onto a byte that already held the value is invisible in
//                       one lane (observed == kept); Attribute adds such lanes to byte_moved
//                       when their batch shows visible moves.
//   unwritten_bytes_changed  the written byte is right, some byte that must be kept differs
//   written_and_unwritten_bytes_changed  both (e.g. a garbage word)
//   elements_swapped    (a 16-bit half writer) the kept bytes are right and the written half
//                       holds the expected two bytes in the other order, and they differ: the
//                       element order. A value class (readings are tried first): two elements
//                       can come out swapped by coincidence under a reading that changes both
//   -- only the written byte (or half) differs --
//   rounded_other_way   the observed value is the lane's other rounding candidate, from the
//                       model (RoundingCandidates): what the model gives for the same input
//                       rounded toward the other neighbour, including the neighbour beyond the
//                       largest finite (saturated, Inf or NaN as MODE and CLAMP say). Needs the
//                       candidates; without them this class is never given.
//   -- the written byte's two values decoded in the output format --
//   nan_encoding        both are NaN, encoded differently (sign or payload)
//   nan_vs_inf          one is NaN, the other +-Inf
//   sign_only           signed format, the values differ in the sign bit only (FNUZ: not
//                       zero vs 0x80, which is NaN)
//   saturated_vs_not    one is the largest finite magnitude, the other NaN/Inf (or, for u8,
//                       one is 0 or 255 and they are more than one apart)
//   special_vs_finite   one is NaN/Inf, the other finite but not the largest
//   one_code_apart      same sign (or one is zero), codes one apart, but not the model's other
//                       rounding candidate (an exact input rounded, or no candidates known)
//   zero_vs_subnormal   same sign, one is zero and the other a larger subnormal (a flush)
//   value_differs       anything else
// (u8: one_code_apart when one apart, saturated_vs_not when one is 0 or 255.)
//
// An instruction whose output is whole f32 words (the row's OutputKind::f32, DstWrite::dword:
// one selected byte of S0 decoded, or with dst_bits 64 the two bytes of a selected word into a
// VGPR pair) writes no byte position, keeps nothing and rounds nothing (an 8-bit float -> f32
// is exact), so none of the above but:
//   dst_words_swapped   (a VGPR pair) the observed pair is the expected pair with its two words
//                       exchanged, and they differ: structural, no reading swaps registers
//   elements_reversed   (a tuple of more than two words) the observed words are the expected
//                       ones in reverse order, and they are not a palindrome: element i came
//                       from field N-1-i (structural, as dst_words_swapped)
//   source_byte_moved   the observed word is the model's output for the same lane under another
//                       value of the instruction's byte select (GFX12/GFX1250 byte_sel =
//                       OPSEL[1:0], or a VGPR pair's word OPSEL[0]; GFX9 SDWA src0_sel
//                       BYTE_0..3): the wrong source byte (or word) was
//                       converted (LaneClassifier; DifferenceClassF32 cannot see it alone)
//   nan_encoding, nan_vs_inf, sign_only, special_vs_finite, zero_vs_subnormal, value_differs
//                       as above, on the two f32 words (zero_vs_subnormal: an f32 denormal;
//                       a VGPR pair: the first word of the lane that differs);
//                       an observed normal/NaN word with f32 fraction bits below the widest
//                       8-bit mantissa (3 bits: bits 19..0) is no byte's decode (a garbage
//                       word, e.g. garbage_lane): value_differs
// An instruction whose elements are 16-bit floats (OutputKind::f16 / bf16: the gfx950 scaled
// decodes, two in a dword or one in a half) gets dst_halves_swapped (a dword of two: the observed
// word is the expected one with its halves exchanged, and they differ: structural, as
// dst_words_swapped), source_byte_moved (another select's output),
// then the structural classes (byte_moved, unwritten_bytes_changed,
// written_and_unwritten_bytes_changed over its written mask), then the f32 value classes above
// of its first differing element widened exactly to f32.
// The order below is also the tie order of a batch's class (Attribute).
inline constexpr const char* kDifferenceClasses[] = {
    "byte_moved",        "unwritten_bytes_changed", "written_and_unwritten_bytes_changed",
    "elements_swapped",  "dst_words_swapped",       "elements_reversed",   "dst_halves_swapped",
    "source_byte_moved", "rounded_other_way",       "nan_encoding",
    "nan_vs_inf",        "sign_only",               "saturated_vs_not",
    "special_vs_finite", "one_code_apart",          "zero_vs_subnormal",
    "value_differs"};

// A lane's two rounding candidates: the model's word for the input rounded toward zero
// (`down`) and away from zero (`up`). Equal when the lane's input needs no rounding.
struct RoundingPair {
  uint32_t down = 0, up = 0;
};

// Every lane's RoundingPair, from the model (rc.ctx, its hypotheses included):
//  - SR conversions (src1 is the seed): the model with the seed all zeros (truncates) and all
//    ones (rounds away from zero whenever the input is inexact);
//  - the others: the model on each f32 data source replaced by its two neighbours on the
//    output's grid (the 8-bit format's quantum at the input's exponent, subnormals' below the
//    smallest normal; 1.0 for u8), which the model converts exactly, the one beyond the largest
//    finite by the instruction's own overflow rules. Inf, NaN and f32 denormal sources stay.
absl::StatusOr<std::vector<RoundingPair>> RoundingCandidates(const ResolvedCase& rc);

// `format` is the written byte's 8-bit float format, or nullptr for an unsigned 8-bit integer
// (the pk_u8 row). `written_byte` is 0..3. `kept` is the word whose other three bytes the
// instruction keeps (old VDST or S2). expected != observed. `pair`: the lane's rounding
// candidates (nullptr: unknown, rounded_other_way is never given).
std::string DifferenceClass(const Fp8Format* format, int written_byte, uint32_t kept,
                            uint32_t expected, uint32_t observed,
                            const RoundingPair* pair = nullptr);
// The same for an instruction that may write more than one byte (`written_mask`, the row's
// WrittenMask: a 16-bit half of two elements): a single byte is DifferenceClass; otherwise
// "byte_moved" when the written part stayed as kept and the other part changed, the
// unwritten-bytes classes when bytes outside the mask differ, rounded_other_way when every
// written element is one of its two candidates, else the class of the first differing element.
std::string DifferenceClassMask(const Fp8Format* format, uint32_t written_mask, uint32_t kept,
                                uint32_t expected, uint32_t observed,
                                const RoundingPair* pair = nullptr);

// The value class of two differing f32 words (expected != observed): nan_encoding, nan_vs_inf,
// sign_only, special_vs_finite, zero_vs_subnormal or value_differs, as defined above.
std::string DifferenceClassF32(uint32_t expected, uint32_t observed);

// Whether the instruction's result is whole f32 words (its row: OutputKind::f32, DstWrite::dword;
// one word or a VGPR pair), classified by DifferenceClassF32, source_byte_moved and
// dst_words_swapped.
bool WritesF32Word(Instr instr);

// Whether the instruction's elements are 16-bit floats (its row: OutputKind::f16 or bf16, two in
// a dword or one in a half): classified by source_byte_moved (another select's output), the
// structural classes of DifferenceClassMask, then DifferenceClassF32 of the first differing
// element widened exactly to f32.
bool WritesSixteenBitFloats(Instr instr);

// "0x7f = NaN", "0x38 = 1", "0x7c = +Inf", "0x80 = 128" (u8): one byte decoded in `format`
// (nullptr: unsigned integer).
std::string DecodeByte(const Fp8Format* format, uint8_t byte);
// The value class of a byte of two FP4 codes (OutputKind::fp4) whose kept bytes are right:
// elements_swapped (the written byte holds the expected two codes in the other nibble order,
// and they differ), else of the first differing code (element 0 first): sign_only (the sign
// bit alone), one_code_apart (same sign or one a zero, magnitudes one apart), value_differs.
// With the lane's rounding candidates (`pair`, the SR encoders': RoundingCandidates), before
// the value classes: rounded_other_way when every differing code is the other candidate of its
// element. FP4 has no NaN or Inf, so no NaN/Inf class arises. A mask of several bytes (a whole
// dword of eight codes) is read at its first written byte that differs.
std::string DifferenceClassFp4(uint32_t written_mask, uint32_t expected, uint32_t observed,
                               const RoundingPair* pair = nullptr);
// A byte of two OCP MX FP4 E2M1 codes (OutputKind::fp4), element 0 (the low nibble) first:
// 0x5c -> "0x5c = fp4 -2, 3 (nibbles low first)".
std::string Fp4ByteText(uint8_t byte);

struct Cause {
  // A reading or field: CauseName(settings) ("fp8_nan=sign_preserving",
  // "fp8_nan=sign_7f+sign_preserving", "acts_as_if.neg0=0"); else a difference class
  // (fuzz/triage/README.md titles it "none of the known readings").
  std::string name;
  bool by_hypothesis = false;  // named by settings (hypothesis readings or fields), not a class
  std::vector<size_t> lanes;  // the disagreeing lanes it accounts for, ascending
  // A difference class only: the other classes every one of its lanes also shows (a VGPR pair
  // whose observed words are both the expected ones exchanged and another select's: a source
  // word whose other word holds the same two bytes reversed). Non-empty: the batch cannot tell
  // them apart, a confirmation batch decides (DecideClass).
  std::vector<std::string> also;
  // by_hypothesis: the equivalent settings naming it (fuzz/triage/lane_causes.h), sorted: one
  // rule's values that give the same words on every lane of the batch.
  std::vector<std::string> settings;
};

// Every disagreeing lane of `rc` (model side under rc.ctx.hyp; `expected` its words,
// `observed` the device's) attributed to a cause. Causes are ordered by lane count, largest
// first; empty when no lane disagrees. `refuted`: hypothesis settings ("name=value") a
// confirmation batch has refuted (ConfirmationCase); never named. `known`: settings a
// confirmation batch has confirmed on this target and instruction; they explain first (step 2).
//
// The rule (fuzz/triage/README.md, "Attribution"):
//  1. Structural lanes (byte_moved, the unwritten-bytes classes, the word and half exchanges)
//     take one class: the most frequent among them, ties in kDifferenceClasses order; an
//     exchanged lane a reading chosen in step 2 reproduces word for word joins that reading.
//  2. The other disagreeing lanes ("value lanes") are attributed lane by lane to settings
//     (CoverValueLanes, fuzz/triage/lane_causes.h): first to the `known` settings, alone and
//     together (the set explaining most first); then a hypothesis value or an instruction-word /
//     MODE field value (FieldSettings) explains a lane when the model under it gives the
//     device's word there; it is a candidate only if it changes no agreeing lane. Settings of
//     one rule giving the same words on every lane are one candidate (equivalent readings).
//     The fewest candidates covering the value lanes are chosen greedily (most lanes first,
//     ties: hypotheses in AllHypotheses order, then fields), one reading per rule; lanes no
//     single candidate explains are tried under sets of the known and chosen settings, then
//     under pairs of candidates of different rules (each lane to each setting it needs).
//     Lanes still left whose words, with the instruction's exchange of elements undone, settings
//     explain (the same cover on those lanes, the batch's chosen settings known, one reading per
//     rule) count for those settings and for the exchange's class (elements_swapped,
//     dst_halves_swapped, dst_words_swapped, elements_reversed): two deviations, two causes.
//  3. The value lanes nothing explains take one class: the one all of them show, else the most
//     frequent, ties in kDifferenceClasses order. Its Cause lists the lanes that show it.
//  4. A lane showing two classes (a VGPR pair: dst_words_swapped and source_byte_moved) counts
//     under its first; a class cause whose every lane also shows another class cause of the
//     batch joins it. What the batch cannot tell stays in Cause::also (DecideClass).
absl::StatusOr<std::vector<Cause>> Attribute(const ResolvedCase& rc,
                                             absl::Span<const uint32_t> expected,
                                             absl::Span<const uint32_t> observed,
                                             const Relaxations& relax,
                                             absl::Span<const std::string> refuted = {},
                                             absl::Span<const std::string> known = {});

// A batch alone cannot tell a hypothesis from another deviation that changes the same lanes
// (under src1_neg, sr_seed=low reproduced every lane of batches whose seeds do not separate
// the two). The campaign therefore confirms a hypothesis cause on a second batch from the same
// device: ConfirmationCase(tc, salt) is tc (same word, MODE, target) with its lanes re-drawn
// (256 to 1024): a quarter keep tc's data words; the others keep each data word's sign (and
// exponent, but for a quarter: random in 2^-17..2^18) under a new mantissa (random, or a tie
// of a random quantum; Inf, NaN, denormals kept); 8-bit codes (an f32 writer's S0) new random
// words but for a quarter; src0 and src1 become per-lane VGPRs (a uniform SGPR, literal or
// inline constant included) and a src1 that is not data (a seed, a byte select) is a new
// random word, but where a lane keeps a NaN data word of tc (there the lane is tc's own: a
// NaN's literal SR add wraps to Inf under a few seeds only); src2 and VDST kept; a source field the word lacks (a VOP1/SDWA
// word's src1) stays absent. Deterministic in `salt`.
// (sr_rounding=literal, a wrapping add then RNE, equals a seed offset by one half, i.e.
// src1_neg, on every lane whose add neither wraps nor ties: the new mantissas make both occur.)
// `rc` is ResolveTestCase(tc), which the caller already holds (the lanes each source read).
absl::StatusOr<proto::TestCase> ConfirmationCase(const proto::TestCase& tc, const ResolvedCase& rc,
                                                 uint64_t salt);
// The same, resolving `tc` first.
absl::StatusOr<proto::TestCase> ConfirmationCase(const proto::TestCase& tc, uint64_t salt);

// The settings among `causes`' (Cause::settings of each cause named by settings) that a
// confirmation batch `conf` (ConfirmationCase, run on the same device: `observed`) refutes.
// Setting s of a cause is checked with other settings applied ("the others"): the first setting
// of every other cause of another rule. Those in `known` (the settings the campaign has
// confirmed on this target and instruction) and those of a cause with at least as many lanes
// on the batch as s's are always applied; of the rest (smaller causes, which may be
// coincidences), every subset is tried, largest first (while there are at most six; else all
// and all but one). Under given others, the lanes where s matters are those where the model
// under the others plus s differs from the model under the others alone, or from the others
// plus another setting of the same cause (equivalent readings part there); s holds there when
// on every one of them (structural lanes excepted) the device's word is the model's under the
// others plus s, and on one at least s matters; a lane where the device's word is neither the
// others' nor theirs plus s does not count against s when theirs plus s plus one more single
// setting (of a rule neither sets) gives it (the fresh lanes show a cause the batch did not),
// while one where it is the others' word does. s is refuted when it holds under no subset: a
// setting is named only on fresh lanes where it matters, and a small unconfirmed cause named by
// a coincidence (a CLAMP that selects another format, matching 7 lanes of a batch where nearly
// every lane disagrees) does not refute the large true ones checked beside it, while a small
// cause is still checked beside every larger one. A field setting ("acts_as_if.*") that holds
// under given others is still refuted there when a single setting of a rule they do not set
// gives the device's words on every lane where the field matters and on a disagreeing lane
// the field misses (ABS cleared on the negative lanes, where NEG ignored also explains the
// positive ones). `confirmed` (if not null) receives the settings not refuted. So equivalent
// readings that part on the confirmation lanes are narrowed to the one the device follows,
// and a reading that a second cause of the device would hide is still checked where it alone
// decides. conf.ctx.hyp is not read: `hyp` stands in its place.
absl::StatusOr<std::vector<std::string>> RefutedSettings(const ResolvedCase& conf,
                                                         const Hypotheses& hyp,
                                                         absl::Span<const Cause> causes,
                                                         absl::Span<const uint32_t> observed,
                                                         const Relaxations& relax,
                                                         std::vector<std::string>* confirmed = nullptr,
                                                         absl::Span<const std::string> known = {});

// Whether the model with `settings` ("name=value") over `hyp` reproduces `observed` on every
// lane of `rc` (structural lanes excepted, as in Attribute). rc.ctx.hyp is not read: `hyp`
// stands in its place.
absl::StatusOr<bool> ReproducesEveryLane(const ResolvedCase& rc, const Hypotheses& hyp,
                                         absl::Span<const std::string> settings,
                                         absl::Span<const uint32_t> observed,
                                         const Relaxations& relax);
// The same, resolving `tc` first.
absl::StatusOr<bool> ReproducesEveryLane(const proto::TestCase& tc, const Hypotheses& hyp,
                                         absl::Span<const std::string> settings,
                                         absl::Span<const uint32_t> observed,
                                         const Relaxations& relax);

// The class among `candidates` (a class cause's name and its `also`) that the lanes of a
// confirmation batch `conf` (ConfirmationCase of the same case, run on the same device:
// `observed`) decide: the one every disagreeing lane shows, else the one most show, ties in
// kDifferenceClasses order. Empty when no lane of `conf` disagrees (no evidence). `conf` is the
// confirmation batch resolved (ResolveTestCase); its ctx.hyp is not read: `hyp` stands in its
// place.
absl::StatusOr<std::string> DecideClass(const ResolvedCase& conf, const Hypotheses& hyp,
                                        absl::Span<const std::string> candidates,
                                        absl::Span<const uint32_t> observed,
                                        const Relaxations& relax);
// The same, resolving `conf` first.
absl::StatusOr<std::string> DecideClass(const proto::TestCase& conf, const Hypotheses& hyp,
                                        absl::Span<const std::string> candidates,
                                        absl::Span<const uint32_t> observed,
                                        const Relaxations& relax);

// Resolves `tc`, runs the model under `hyp` and attributes `observed` (one word per lane).
absl::StatusOr<std::vector<Cause>> AttributeCase(const proto::TestCase& tc, const Hypotheses& hyp,
                                                 absl::Span<const uint32_t> observed,
                                                 const Relaxations& relax);

// Whether a (smaller) case still shows `cause`: for a cause named by settings, one of them
// (alone, else with one more setting of another rule, as a pair explains a lane) gives the
// device's word on some disagreeing lane and changes no agreeing lane; for
// a difference class, some disagreeing lane has that DifferenceClass (one lane alone cannot be
// told from a coincidental hypothesis, so the class is checked lane by lane). `known`: the
// settings the campaign has confirmed on this target and instruction (Attribute's); a cause
// named by settings also shows where Attribute with them names it, as it did on the batch the
// cause came from (a setting whose lanes meet a confirmed cause's everywhere changes agreeing
// lanes alone: SR +Inf made NaN by the literal add and its sign kept by another reading). On an
// instruction with an exchange of elements (Attribute's step 2b), a cause named by settings, or
// the exchange's class, also shows where Attribute names it, known settings or none: a lane
// whose elements the device exchanged after a reading shows both and neither alone. The
// minimizer's predicate, which holds the candidate resolved (`rc`, ResolveTestCase; its
// ctx.hyp is not read: `hyp` stands in its place).
absl::StatusOr<bool> ShowsCause(const ResolvedCase& rc, const Hypotheses& hyp,
                                absl::Span<const uint32_t> observed, const Relaxations& relax,
                                const Cause& cause, absl::Span<const std::string> known = {});
// The same, resolving `tc` first.
absl::StatusOr<bool> ShowsCause(const proto::TestCase& tc, const Hypotheses& hyp,
                                absl::Span<const uint32_t> observed, const Relaxations& relax,
                                const Cause& cause);

// The store signature of a cause: "<target>.<instr>.<cause>" (a bucket is "<instr>.<cause>"
// over all targets; fuzz/triage/buckets.h).
std::string CauseSignature(absl::string_view target, absl::string_view instr,
                           absl::string_view cause);

// The attributes a sighting adds to its bucket's histogram, from lane `lane` of the case:
// "shape:<modifier set>" (fuzz/triage/classify.h ModifierSet), "class:<input class>",
// "mode:<MODE, 8 hex digits>".
std::vector<std::string> SightingAttributes(const proto::TestCase& tc, const ResolvedCase& rc,
                                            size_t lane);

// The cause of a device fault: "device_fault.crash", "device_fault.hang", for a HIP error
// "device_fault.hip_error_<code>" (each code its own cause: a 719 launch failure and a 700
// illegal address are different bugs; device_harness/fault.h HipErrorOf), else
// "device_fault.fault".
std::string FaultCause(const absl::Status& fault);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_ATTRIBUTION_H_
