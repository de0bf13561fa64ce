// The part the 8-bit float -> f32 conversions share (docs/semantics.md §10.3-10.5, §10.7): which
// byte (or 16-bit word) of S0 the encoding selects, the decode options the readings and MODE
// give, and the batch loops around model/fp/fp8_decode.h. The op files choose the format.
#ifndef LANEDIFF_MODEL_OPS_UNPACK_COMMON_H_
#define LANEDIFF_MODEL_OPS_UNPACK_COMMON_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/fp/mx.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace ops {

// MODE bits the unpacking conversions read (docs/semantics.md §10.4, §10.5).
inline constexpr uint32_t kModeDenormF16InBit = 1u << 6;  // MODE[6]: f16/f64 input denormals
inline constexpr uint32_t kModeDx10ClampBit = 1u << 8;    // MODE[8]: DX10_CLAMP (GFX9)

// The MODE bits an unpacking conversion reads on `family`: MODE[6] (under
// fp8_denorm_input=flush_f16_mode) and, on GFX9, MODE[8] DX10_CLAMP (a NaN under CLAMP). GFX12
// and GFX1250 have no DX10_CLAMP field; UnpackOptions takes it as set there.
constexpr uint32_t UnpackModeBits(Family family) {
  return kModeDenormF16InBit | (family == Family::gfx9 ? kModeDx10ClampBit : 0u);
}

// The source byte (0..3) the instruction's select fields pick, from its row: byte_sel:N =
// 2*OPSEL[0] + OPSEL[1] where the family's syntax is OpSelSyntax::byte_sel_src (GFX12/GFX1250
// VOP3) or op_sel_dst_byte_sel (gfx1250's one-byte f16 decodes); OPSEL[1:0] where it is op_sel_dst3 (the gfx950 scaled decodes: AMD CDNA4 pseudocode
// and gem5 vop3_cvt.hh Inst_VOP3__V_CVT_SCALE `OPSEL & 3`); elsewhere (GFX9) the SDWA src0_sel read per the fp8_sdwa_sel reading: pseudocode
// BYTE_1..3 -> 1..3, every other select byte 0; extract BYTE_n -> n, WORD_1 -> 2, else 0.
// e32 and GFX9 VOP3 carry src0_sel = DWORD: byte 0.
int UnpackSourceByte(const OpContext& ctx);

// The 16-bit word of S0 a packed unpacking conversion (dst_bits 64, and the gfx950 scaled word
// decodes) converts: word = (S0 >> shift) & mask. OPSEL[0] where the family's syntax is
// OpSelSyntax::op_sel_dst3 (AMD CDNA4 pseudocode of V_CVT_SCALEF32_PK_*_FP8/BF8: `OPSEL[0]`
// selects the word); OPSEL[0] where it is OpSelSyntax::op_sel_word_src
// (GFX12/GFX1250 VOP3: 1 = the high word; a constant there reads 0 under
// src16_constant=low_only: mask 0, docs/semantics.md §10.11); elsewhere (GFX9) the SDWA src0_sel read per
// fp8_sdwa_sel: pseudocode (sel & 3) == 1 (BYTE_1, WORD_1) -> the high word, every other
// select the low word; extract BYTE_n -> byte n zero-extended (mask 0xff), WORD_1 -> the high
// word, else the low word. e32 and GFX9 VOP3 carry src0_sel = DWORD: the low word.
struct SourceWord {
  uint32_t shift;
  uint32_t mask;
};
SourceWord UnpackSourceWord(const OpContext& ctx);

// Fp8DecodeOptionsFor with this context's MODE, OMOD and CLAMP (`clamp_is_format`: CLAMP is
// the format bit here, so it does not clamp).
Fp8ToF32Options UnpackOptions(const OpContext& ctx, bool clamp_is_format);

// One byte of S0 -> f32 for every lane: fast (the 256-entry table) and oracle.
void UnpackByteBatch(const OpContext& ctx, const Fp8Format& format, bool clamp_is_format,
                     const LaneView& lanes, uint32_t* out);
void UnpackByteBatchOracle(const OpContext& ctx, const Fp8Format& format, bool clamp_is_format,
                           const LaneView& lanes, uint32_t* out);

// One 16-bit word of S0 -> two f32 for every lane (dst_words 2): out[2i] = cvt(low byte),
// out[2i + 1] = cvt(high byte) (VDST, VDST+1). Fast (the table) and oracle.
void UnpackPairBatch(const OpContext& ctx, const Fp8Format& format, const LaneView& lanes,
                     uint32_t* out);
void UnpackPairBatchOracle(const OpContext& ctx, const Fp8Format& format, const LaneView& lanes,
                           uint32_t* out);

// The input class of the selected word's two bytes: the rarer of the two bytes' classes
// (nan, inf, denormal, zero, normal in that order).
absl::string_view ClassifyUnpackPair(const OpContext& ctx, const Fp8Format& format,
                                     uint32_t src0);

// The input class of the selected byte: "nan", "inf", "zero", "denormal" (a subnormal byte),
// "normal".
absl::string_view ClassifyUnpackByte(const OpContext& ctx, const Fp8Format& format,
                                     uint32_t src0);

// ---- The gfx950 scaled decodes (S1 a SrcRole::scale_f32; docs/semantics.md §11) ----

// The element decode of the scaled rows: the fp8_to_f32_nan reading, nothing flushed (they read
// no MODE bit), no output modifiers.
Fp8ToF32Options ScaledElementOptions(const OpContext& ctx);

// S1 after its ABS/NEG (read only under mx_scale_read=f32_multiply).
uint32_t ScaleOperandOf(const OpContext& ctx, uint32_t src1);

// The 16-bit destination of a row whose output is OutputKind::f16 or bf16.
Mx16 RowMx16(const OpContext& ctx);

// The class of the scaled products of the selected byte (bytes 1: UnpackSourceByte) or word's
// two bytes (bytes 2: UnpackSourceWord) under the default readings, in the row's output format:
// "nan" for a scale byte 0xFF, "overflow" if one is beyond the largest finite, "denormal" if
// one is below the smallest normal, else "normal".
absl::string_view ClassifyScaledProducts(const OpContext& ctx, uint32_t src0, uint32_t src1,
                                         int bytes);

// ---- The gfx950 scaled FP4 decodes (InstrInfo::fp8_slot Fp8Slot::fp4; docs/semantics.md §11.7) ----

// The source byte of an FP4 decode: byte OPSEL[1:0] of S0 (UnpackSourceByte), two OCP MX FP4
// E2M1 codes, element 0 in bits 3:0.
uint32_t Fp4SourceByte(const OpContext& ctx, uint32_t src0);

// The exact value of FP4 E2M1 code `code` (its low 4 bits) as f32 bits: fast, MxToF32 with scale
// byte 127 (2^0; every FP4 value, 0.5 to 6.0 and zero, is an f32 normal or zero); oracle,
// OracleMxToF32 likewise (model/fp/mx_oracle.h, from the format's definition).
uint32_t Fp4ElementF32(uint32_t code);
uint32_t Fp4ElementF32Oracle(uint32_t code);

// The input class of an FP4 decode's lane: "nan" for a scale byte 0xFF; "zero" when an element
// of the byte is zero; then the products' class in the row's output format under the default
// readings: "overflow" if one is beyond the largest finite, "denormal" if one is below the
// smallest normal, else "normal" (FP4 has no NaN, infinity or subnormal-as-class worth its own
// name: its subnormal 0.5 is one of eight magnitudes).
absl::string_view ClassifyScaledFp4(const OpContext& ctx, uint32_t src0, uint32_t src1);

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_UNPACK_COMMON_H_
