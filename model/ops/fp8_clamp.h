// The 8-bit float format an fp8 (E4M3) conversion writes under its CLAMP bit: on targets where
// CLAMP is a format select (TargetTraits::clamp_selects_ue5m3: gfx1250 B0), CLAMP=1 selects
// UE5M3 under the gfx1250_clamp hypothesis; everywhere else the target's fp8 format
// (docs/semantics.md §6, §10.7). Shared by the SR and the packed RNE fp8 conversions.
// RowFp8Format gives an op the format of the row it runs for (InstrInfo::fp8_slot), so one op
// file serves the fp8 and the bf8 row of a pair.
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

// The 8-bit float format ctx.instr's row converts to or from (InstrInfo::fp8_slot) under
// this context: the target's fp8 (under CLAMP for Fp8Slot::fp8_clamp_ue5m3) or bf8 format.
inline const Fp8Format& RowFp8Format(const OpContext& ctx) {
  switch (GetInstrInfo(ctx.instr).fp8_slot) {
    case Fp8Slot::fp8_clamp_ue5m3: return Fp8FormatUnderClamp(ctx);
    case Fp8Slot::bf8: return GetFp8Format(ctx.target->bf8);
    case Fp8Slot::fp8:
    case Fp8Slot::fp4:  // no 8-bit float format: the FP4/FP6 ops read model/fp/mx_format.h's
    case Fp8Slot::fp6:
    case Fp8Slot::bf6:
    case Fp8Slot::none: break;
  }
  return GetFp8Format(ctx.target->fp8);
}

// True when CLAMP is the row's format bit on this target (Fp8Slot::fp8_clamp_ue5m3 where
// TargetTraits::clamp_selects_ue5m3), whatever the gfx1250_clamp reading.
inline bool RowClampIsFormatBit(const OpContext& ctx) {
  return GetInstrInfo(ctx.instr).fp8_slot == Fp8Slot::fp8_clamp_ue5m3 &&
         ctx.target->clamp_selects_ue5m3;
}

// True when CLAMP selects the row's format here under the reading (so it does not saturate).
inline bool RowClampSelectsFormat(const OpContext& ctx) {
  return GetInstrInfo(ctx.instr).fp8_slot == Fp8Slot::fp8_clamp_ue5m3 && ClampSelectsFormat(ctx);
}

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_FP8_CLAMP_H_
