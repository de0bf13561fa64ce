// Test support: every (format, option set) whose f32 -> 8-bit float RNE the pk instructions can
// ask for (docs/semantics.md §10.2), for the sampled and the exhaustive sweeps.
#ifndef LANEDIFF_MODEL_FP_RNE_OPTION_SETS_H_
#define LANEDIFF_MODEL_FP_RNE_OPTION_SETS_H_

#include <string>
#include <vector>

#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"

namespace lanediff {

struct RneOptionSet {
  std::string name;  // "e4m3_ocp/saturate_finite"
  Fp8FormatId format;
  Fp8Options options;
};

// Every format with: no options; saturate_finite (MODE.FP16_OVFL, or CLAMP under
// pk_fp8_clamp=saturate_finite); saturate_finite + saturate_inf (fp16_ovfl=saturate_all); and,
// for the OCP formats, the two non-canonical NaN readings. 22 sets.
inline std::vector<RneOptionSet> RneOptionSets() {
  std::vector<RneOptionSet> sets;
  for (const Fp8Format& f : kFp8Formats) {
    const std::string n(f.name);
    Fp8Options o;
    sets.push_back({n + "/default", f.id, o});
    o.saturate_finite = true;
    sets.push_back({n + "/saturate_finite", f.id, o});
    o.saturate_inf = true;
    sets.push_back({n + "/saturate_all", f.id, o});
    if (f.is_signed && !f.fnuz) {
      Fp8Options nan;
      nan.nan_sign_7f = true;
      sets.push_back({n + "/nan_sign_7f", f.id, nan});
      nan = Fp8Options{};
      nan.nan_sign_preserving = true;
      sets.push_back({n + "/nan_sign_preserving", f.id, nan});
    }
  }
  return sets;
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_RNE_OPTION_SETS_H_
