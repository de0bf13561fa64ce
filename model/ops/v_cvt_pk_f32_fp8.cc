// The pair decode op: one 16-bit word of S0 (two 8-bit floats) -> two f32 in a VGPR pair,
// exactly (docs/semantics.md §10.1, §10.3). The rows naming this op: v_cvt_pk_f32_fp8 (E4M3,
// "fp8"; Fp8Slot::fp8) and v_cvt_pk_f32_bf8 (E5M2, "bf8"; Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_PK_F32_FP8, VOP1 opcode 86):
//
//   tmp = SDWA_SRC0_SEL[1 : 0] == WORD1.b2 ? S0[31 : 16] : S0[15 : 0];
//   D0[31 : 0].f32 = fp8_to_f32(tmp[7 : 0].fp8);
//   D0[63 : 32].f32 = fp8_to_f32(tmp[15 : 8].fp8)
//
// Row (model/instrs.def): VOP1 0x56 / VOP3 0x196 on GFX9 (gfx942, gfx950; llvm-mc-22
// -show-encoding, model/isa/testdata/fp8_family_forms.txt: `v_cvt_pk_f32_fp8_sdwa v[2:3], v1
// src0_sel:WORD_1` is [0xf9,0xac,0x04,0x7e,0x01,0x06,0x05,0x00] on gfx942). The destination is
// dst_bits 64: lane i's VDST word at out[2i], VDST+1 at out[2i + 1].
//
// Readings (docs/semantics.md §10.5, §10.7; each a hypothesis in model/targets/hypotheses.h):
//   - Format: the target's fp8 format (TargetTraits::fp8: E4M3 FNUZ on gfx942, OCP E4M3 on
//     gfx950). No UE5M3 select: LLVM refuses CLAMP on gfx1250 for this instruction.
//   - Word: the low word in e32 and GFX9 VOP3; GFX9 SDWA src0_sel per fp8_sdwa_sel
//     (pseudocode: SEL[1:0] == 01, i.e. BYTE_1 or WORD_1, the high word; extract: BYTE_n is
//     byte n zero-extended, WORD_1 the high word); unpack_common.h UnpackSourceWord.
//   - NaN bytes (fp8_to_f32_nan), subnormal bytes under MODE[6] (fp8_denorm_input), OMOD and
//     CLAMP on each word (fp8_to_f32_outmod; CLAMP NaN under MODE[8] DX10_CLAMP): as the
//     one-byte E4M3 decode, model/fp/fp8_decode.h with Fp8DecodeOptionsFor.
//   - NEG/ABS (LLVM refuses them), OPSEL, S1, S2, the old VDST pair: no effect (U, fuzzed).
//
// The bf8 row (CDNA4 ISA, V_CVT_PK_F32_BF8, VOP1 opcode 87: the pseudocode above with
// bf8_to_f32): VOP1 0x57 / VOP3 0x197 on GFX9 (llvm-mc-22: `v_cvt_pk_f32_bf8_sdwa v[2:3], v1
// src0_sel:WORD_1` is [0xf9,0xae,0x04,0x7e,0x01,0x06,0x05,0x00] on gfx942); the readings above
// with the target's bf8 format (TargetTraits::bf8: E5M2 FNUZ on gfx942, OCP E5M2 on gfx950;
// OCP E5M2 has Inf, S.11111.00).
#include "model/fp/fp8_format.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"

namespace lanediff {
namespace ops {

Fp8Shape v_cvt_pk_f32_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f32, not 8-bit

void v_cvt_pk_f32_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  UnpackPairBatch(ctx, RowFp8Format(ctx), lanes, out);
}

void v_cvt_pk_f32_fp8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  UnpackPairBatchOracle(ctx, RowFp8Format(ctx), lanes, out);
}

absl::string_view v_cvt_pk_f32_fp8_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  return ClassifyUnpackPair(ctx, RowFp8Format(ctx), src0);
}

uint32_t v_cvt_pk_f32_fp8_mode_bits(Family family) { return UnpackModeBits(family); }

}  // namespace ops
}  // namespace lanediff
