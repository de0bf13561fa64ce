// Named, selectable readings of the rules ../shared/SEMANTICS.md marks likely or unknown.
//
// Each hypothesis has a name, a set of values (the first is the default: the best-evidenced
// reading) and, per value, its provenance. Semantics read the fields of `Hypotheses`; the
// registry below is the one place that names them for people and command lines.
//
//   Hypotheses h;                                     // every default
//   LANEDIFF_RETURN_IF_ERROR(SetHypothesis("sr_rounding=literal", &h));
//   HypothesisSettings(h)  // {"pk_u8_rounding=mode", "sr_rounding=literal", ...}
#ifndef LANEDIFF_MODEL_TARGETS_HYPOTHESES_H_
#define LANEDIFF_MODEL_TARGETS_HYPOTHESES_H_

#include <cstdint>
#include <span>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace lanediff {

// v_cvt_pk_u8_f32 rounding: MODE.FP_ROUND (default) or truncation toward zero.
enum class PkU8Rounding : uint8_t { mode, truncate };
// SR instructions: seed added with carry then truncated (default), or the literal pseudocode.
enum class SrRounding : uint8_t { carry_truncate, literal };
// OCP NaN output: canonical 0xFF/0xFE whatever the sign (default), or keeping the sign.
enum class Fp8Nan : uint8_t { canonical, sign_preserving };
// MODE.FP16_OVFL: finite overflow saturates to max finite (default), or the bit is ignored.
enum class Fp16Ovfl : uint8_t { saturate_finite, ignored };
// gfx1250 CLAMP on v_cvt_sr_fp8_f32: selects UE5M3 (B0, default) or is ignored (A0).
enum class Gfx1250Clamp : uint8_t { ue5m3, ignored };

struct Hypotheses {
  PkU8Rounding pk_u8_rounding = PkU8Rounding::mode;
  SrRounding sr_rounding = SrRounding::carry_truncate;
  Fp8Nan fp8_nan = Fp8Nan::canonical;
  Fp16Ovfl fp16_ovfl = Fp16Ovfl::saturate_finite;
  Gfx1250Clamp gfx1250_clamp = Gfx1250Clamp::ue5m3;

  friend bool operator==(const Hypotheses&, const Hypotheses&) = default;
};

struct HypothesisValue {
  absl::string_view name;
  absl::string_view provenance;
};

struct HypothesisInfo {
  absl::string_view name;         // "sr_rounding"
  absl::string_view question;     // what it decides, in one line
  std::vector<HypothesisValue> values;  // values[0] is the default
  uint8_t (*get)(const Hypotheses&);
  void (*set)(Hypotheses*, uint8_t);
};

// Every hypothesis, in a fixed order.
std::span<const HypothesisInfo> AllHypotheses();

// Applies "name=value". Errors list the valid names, or the valid values of that name.
absl::Status SetHypothesis(absl::string_view name_equals_value, Hypotheses* h);

// "name=value" for every hypothesis, in registry order.
std::vector<std::string> HypothesisSettings(const Hypotheses& h);

// Only the settings that differ from the defaults ("" if none): for repro command lines.
std::vector<std::string> NonDefaultHypothesisSettings(const Hypotheses& h);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_TARGETS_HYPOTHESES_H_
