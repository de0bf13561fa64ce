// Root-cause attribution: what caused the lanes of one batch to disagree, decided on every
// disagreeing lane of the batch (not on a minimized lane), as pure functions over (test case,
// expected words, observed words).
//
// A cause is either
//   - a model hypothesis setting ("sr_rounding=literal") under which the model reproduces the
//     device on the lanes it is given, and breaks no lane that agreed under the model's own
//     hypotheses. Several settings are chosen greedily (most lanes first), so two deviations
//     in one batch give two causes, not a third "both" cause; or
//   - a structured difference class computed from expected vs observed alone (see
//     DifferenceClass), for lanes no hypothesis setting explains.
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
#include "model/isa/testcase.h"

namespace lanediff {

// The structured difference classes, one per lane, from the written byte's position and format
// alone. Checked in this order (the first that holds wins):
//
//   byte_moved          the result landed in another byte position: observed = the unwritten
//                       word with byte p (p != written byte) set to the expected result byte
//   unwritten_bytes_changed  the written byte is right, some byte that must be kept differs
//   written_and_unwritten_bytes_changed  both (e.g. a garbage word)
//   -- only the written byte differs: its two values are decoded in the output format --
//   nan_encoding        both are NaN, encoded differently (sign or payload)
//   nan_vs_inf          one is NaN, the other +-Inf
//   sign_only           signed format, the values differ in the sign bit only
//   saturated_vs_not    one is the largest finite magnitude, the other NaN/Inf (or, for u8,
//                       one is 0 or 255 and they are more than one apart)
//   special_vs_finite   one is NaN/Inf, the other finite but not the largest
//   zero_vs_subnormal   same sign, one is zero and the other a subnormal
//   rounded_other_way   same sign, magnitudes one unit in the last place apart
//   value_differs       anything else
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

// The cause of a device fault: "device_fault_crash", "device_fault_hang" or "device_fault".
std::string FaultCause(const absl::Status& fault);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_ATTRIBUTION_H_
