// The 8-bit float format an fp8 (E4M3) conversion writes under its CLAMP bit: on targets where
// CLAMP is a format select (TargetTraits::clamp_selects_ue5m3: gfx1250 B0), CLAMP=1 selects
// UE5M3 under the gfx1250_clamp hypothesis; everywhere else the target's fp8 format
// (docs/semantics.md §6, §10.7). Shared by the SR and the packed RNE fp8 conversions.
#ifndef LANEDIFF_MODEL_OPS_FP8_CLAMP_H_
#define LANEDIFF_MODEL_OPS_FP8_CLAMP_H_

#include "model/fp/fp8_format.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace ops {

// True when CLAMP is the format bit here (so it does not saturate).
inline bool ClampSelectsFormat(const OpContext& ctx) {
  return ctx.target->clamp_selects_ue5m3 && ctx.hyp.gfx1250_clamp != Gfx1250Clamp::ignored;
}

inline const Fp8Format& Fp8FormatUnderClamp(const OpContext& ctx) {
  Fp8FormatId id = ctx.target->fp8;
  if (ctx.mods.clamp && ctx.target->clamp_selects_ue5m3) {
    switch (ctx.hyp.gfx1250_clamp) {
      case Gfx1250Clamp::ue5m3: id = Fp8FormatId::ue5m3; break;
      case Gfx1250Clamp::ignored: break;
      case Gfx1250Clamp::ue5m3_magnitude: id = Fp8FormatId::ue5m3_magnitude; break;
    }
  }
  return GetFp8Format(id);
}

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_FP8_CLAMP_H_
