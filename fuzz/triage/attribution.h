// Root-cause attribution: what caused the lanes of one batch to disagree, decided on every
// disagreeing lane of the batch (not on a minimized lane), as pure functions over (test case,
// expected words, observed words).
//
// Lanes whose difference is structural (a byte moved, kept bytes changed: see DifferenceClass)
// take that class: no hypothesis moves bytes. For the lanes where only the written byte
// differs, the cause is the smallest set of alternative hypothesis settings (one, else two)
// under which the model reproduces every one of them and breaks no lane that agreed; with a
// pair, each lane goes to the setting that explains it alone (to both if it needs both). When no
// such set exists, each lane gets its structured difference class. A setting that explains
// some lanes by coincidence but not the others is therefore never named.
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
#include "fuzz/compare.h"
#include "model/fp/fp8_format.h"
#include "device_harness/resolve_case.h"
#include "model/targets/hypotheses.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// The structured difference classes, one per lane, from the written byte's position and format
// alone. Checked in this order (the first that holds wins):
//
//   byte_moved          the result landed in another byte position: the written byte kept its
//                       old value and exactly one other byte p changed (its value may differ
//                       too). A move onto a byte that already held the value is invisible in
//                       one lane (observed == kept); Attribute adds such lanes to byte_moved
//                       when their batch shows visible moves.
//   unwritten_bytes_changed  the written byte is right, some byte that must be kept differs
//   written_and_unwritten_bytes_changed  both (e.g. a garbage word)
//   -- only the written byte differs: its two values are decoded in the output format --
//   nan_encoding        both are NaN, encoded differently (sign or payload)
//   nan_vs_inf          one is NaN, the other +-Inf
//   sign_only           signed format, the values differ in the sign bit only
//   saturated_vs_not    one is the largest finite magnitude, the other NaN/Inf (or, for u8,
//                       one is 0 or 255 and they are more than one apart)
//   special_vs_finite   one is NaN/Inf, the other finite but not the largest
//   rounded_other_way   same sign (or one is zero), codes one unit in the last place apart
//                       (zero vs the smallest subnormal included)
//   zero_vs_subnormal   same sign, one is zero and the other a larger subnormal (a flush)
//   value_differs       anything else
// (u8: rounded_other_way when one apart, saturated_vs_not when one is 0 or 255.)
inline constexpr const char* kDifferenceClasses[] = {
    "byte_moved",        "unwritten_bytes_changed", "written_and_unwritten_bytes_changed",
    "nan_encoding",      "nan_vs_inf",              "sign_only",
    "saturated_vs_not",  "special_vs_finite",       "zero_vs_subnormal",
    "rounded_other_way", "value_differs"};

// `format` is the written byte's 8-bit float format, or nullptr for an unsigned 8-bit integer
// (v_cvt_pk_u8_f32). `written_byte` is 0..3. `kept` is the word whose other three bytes the
// instruction keeps (old VDST or S2). expected != observed.
std::string DifferenceClass(const Fp8Format* format, int written_byte, uint32_t kept,
                            uint32_t expected, uint32_t observed);
// The same for an instruction that may write more than one byte (`written_mask`, the row's
// WrittenMask: a 16-bit half of two elements): a single byte is DifferenceClass; otherwise
// "byte_moved" when the written part stayed as kept and the other part changed, the
// unwritten-bytes classes when bytes outside the mask differ, else the class of the first
// differing element.
std::string DifferenceClassMask(const Fp8Format* format, uint32_t written_mask, uint32_t kept,
                                uint32_t expected, uint32_t observed);

// "0x7f = NaN", "0x38 = 1", "0x7c = +Inf", "0x80 = 128" (u8): one byte decoded in `format`
// (nullptr: unsigned integer).
std::string DecodeByte(const Fp8Format* format, uint8_t byte);

struct Cause {
  std::string name;          // hypothesis setting or difference class
  bool by_hypothesis = false;
  std::vector<size_t> lanes;  // the disagreeing lanes it accounts for, ascending
};

// Every disagreeing lane of `rc` (model side under rc.ctx.hyp; `expected` its words,
// `observed` the device's) attributed to a cause. Causes are ordered by lane count, largest
// first; empty when no lane disagrees.
absl::StatusOr<std::vector<Cause>> Attribute(const ResolvedCase& rc,
                                             absl::Span<const uint32_t> expected,
                                             absl::Span<const uint32_t> observed,
                                             const Relaxations& relax);

// Resolves `tc`, runs the model under `hyp` and attributes `observed` (one word per lane).
absl::StatusOr<std::vector<Cause>> AttributeCase(const proto::TestCase& tc, const Hypotheses& hyp,
                                                 absl::Span<const uint32_t> observed,
                                                 const Relaxations& relax);

// Whether a (smaller) case still shows `cause`: for a hypothesis cause, Attribute names it; for
// a difference class, some disagreeing lane has that DifferenceClass (one lane alone cannot be
// told from a coincidental hypothesis, so the class is checked lane by lane). The minimizer's
// predicate.
absl::StatusOr<bool> ShowsCause(const proto::TestCase& tc, const Hypotheses& hyp,
                                absl::Span<const uint32_t> observed, const Relaxations& relax,
                                const Cause& cause);

// The store signature of a cause: "<target>.<instr>.<cause>" (a bucket is "<instr>.<cause>"
// over all targets; fuzz/triage/buckets.h).
std::string CauseSignature(absl::string_view target, absl::string_view instr,
                           absl::string_view cause);

// The attributes a sighting adds to its bucket's histogram, from lane `lane` of the case:
// "shape:<modifier set>" (fuzz/classify.h ModifierSet), "class:<input class>",
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
