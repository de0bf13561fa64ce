// The one-byte decode op: one 8-bit float of S0 -> f32, exactly (docs/semantics.md §10.3). The
// rows naming this op: v_cvt_f32_fp8 (E4M3, "fp8"; Fp8Slot::fp8_clamp_ue5m3) and v_cvt_f32_bf8
// (E5M2, "bf8"; Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_F32_FP8, VOP1 opcode 84; the gfx12 RDNA4 page reads alike
// with byte_sel in place of SDWA):
//
//   if SDWA_SRC0_SEL == BYTE1.b3 then
//     D0.f32 = fp8_to_f32(S0[15 : 8].fp8)
//   elsif SDWA_SRC0_SEL == BYTE2.b3 then
//     D0.f32 = fp8_to_f32(S0[23 : 16].fp8)
//   elsif SDWA_SRC0_SEL == BYTE3.b3 then
//     D0.f32 = fp8_to_f32(S0[31 : 24].fp8)
//   else
//     // BYTE0 implied
//     D0.f32 = fp8_to_f32(S0[7 : 0].fp8)
//   endif
//
// Row (model/instrs.def): VOP1 0x54 / VOP3 0x194 on GFX9 (gfx942, gfx950), VOP1 0x6c / VOP3
// 0x1ec on gfx12 and gfx1250 (llvm-mc-22 -show-encoding, model/isa/testdata/fp8_family_forms.txt:
// `v_cvt_f32_fp8_e64 v1, v2 byte_sel:3 clamp` is [0x01,0x98,0xec,0xd5,0x02,0x01,0x00,0x00] on
// gfx1250).
//
// Readings (docs/semantics.md §10.7; each a hypothesis in model/targets/hypotheses.h):
//   - Format: the target's fp8 format (TargetTraits::fp8: E4M3 FNUZ on gfx942, OCP E4M3 on
//     gfx950/gfx12/gfx1250); on gfx1250 CLAMP=1 selects UE5M3 (gfx1250_clamp; comgr
//     patchCvtF32Fp8 "UE5M3 to F32 unpack"); CLAMP never clamps there (under =ignored, the
//     A0 reading, it does nothing).
//   - Byte: 0 in e32 and GFX9 VOP3; 2*OPSEL[0] + OPSEL[1] in GFX12/GFX1250 VOP3 (byte_sel;
//     comgr "byte_sel = OPSEL[0]*2 + OPSEL[1]"). The row's opsel_syntax says which.
//   - NaN bytes (fp8_to_f32_nan, ue5m3_nan), subnormal bytes under MODE[6]
//     (fp8_denorm_input), OMOD and CLAMP (fp8_to_f32_outmod; CLAMP NaN under MODE[8]
//     DX10_CLAMP on GFX9): model/fp/fp8_decode.h with Fp8DecodeOptionsFor.
//   - NEG/ABS (LLVM refuses them; the source is not a float), OPSEL[3:2], S1, S2, the old VDST:
//     no effect (U, fuzzed).
//
// The bf8 row (CDNA4 ISA, V_CVT_F32_BF8, VOP1 opcode 85: the pseudocode above with
// bf8_to_f32): VOP1 0x55 / VOP3 0x195 on GFX9, 0x6d / 0x1ed on gfx12 and gfx1250; LLVM takes
// clamp on GFX9 only. The readings above with the target's bf8 format (TargetTraits::bf8: E5M2
// FNUZ on gfx942, OCP E5M2 elsewhere); CLAMP never selects a format (gfx1250 included: no
// UE5M3 form), so a raw CLAMP bit clamps under fp8_to_f32_outmod.
#include "model/fp/fp8_format.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_f32_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f32, not 8-bit

// Where CLAMP is the row's format bit (gfx1250, fp8 row) it is so whatever the reading (A0,
// gfx1250_clamp=ignored: it does nothing; comgr: no output clamp on this instruction there),
// so it never clamps the f32.
void v_cvt_f32_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  UnpackByteBatch(ctx, RowFp8Format(ctx), RowClampIsFormatBit(ctx), lanes, out);
}

void v_cvt_f32_fp8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  UnpackByteBatchOracle(ctx, RowFp8Format(ctx), RowClampIsFormatBit(ctx), lanes, out);
}

absl::string_view v_cvt_f32_fp8_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  return ClassifyUnpackByte(ctx, RowFp8Format(ctx), src0);
}

uint32_t v_cvt_f32_fp8_mode_bits(Family family) { return UnpackModeBits(family); }

}  // namespace ops
}  // namespace lanediff
