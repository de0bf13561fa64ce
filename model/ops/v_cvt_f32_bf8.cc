// v_cvt_f32_bf8: one 8-bit float (E5M2, "bf8") of S0 -> f32, exactly (docs/semantics.md §10.3).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_F32_BF8, VOP1 opcode 85; the gfx12 RDNA4 page reads alike
// with byte_sel in place of SDWA):
//
//   if SDWA_SRC0_SEL == BYTE1.b3 then
//     D0.f32 = bf8_to_f32(S0[15 : 8].bf8)
//   elsif SDWA_SRC0_SEL == BYTE2.b3 then
//     D0.f32 = bf8_to_f32(S0[23 : 16].bf8)
//   elsif SDWA_SRC0_SEL == BYTE3.b3 then
//     D0.f32 = bf8_to_f32(S0[31 : 24].bf8)
//   else
//     // BYTE0 implied
//     D0.f32 = bf8_to_f32(S0[7 : 0].bf8)
//   endif
//
// Row (model/instrs.def): VOP1 0x55 / VOP3 0x195 on GFX9, 0x6d / 0x1ed on gfx12 and gfx1250
// (model/isa/testdata/fp8_family_forms.txt; LLVM takes clamp on GFX9 only).
//
// Readings as for the E4M3 unpacking conversion (docs/semantics.md §10.7), with the target's
// bf8 format (TargetTraits::bf8: E5M2 FNUZ on gfx942, OCP E5M2 elsewhere); CLAMP never selects
// a format here (gfx1250 included: no UE5M3 form), so a raw CLAMP bit clamps under
// fp8_to_f32_outmod.
#include "model/fp/fp8_format.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_f32_bf8_output(const OpContext&) { return {nullptr, 0}; }  // f32, not 8-bit

void v_cvt_f32_bf8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  UnpackByteBatch(ctx, GetFp8Format(ctx.target->bf8), false, lanes, out);
}

void v_cvt_f32_bf8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  UnpackByteBatchOracle(ctx, GetFp8Format(ctx.target->bf8), false, lanes, out);
}

absl::string_view v_cvt_f32_bf8_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  return ClassifyUnpackByte(ctx, GetFp8Format(ctx.target->bf8), src0);
}

uint32_t v_cvt_f32_bf8_mode_bits(Family family) { return UnpackModeBits(family); }

}  // namespace ops
}  // namespace lanediff
