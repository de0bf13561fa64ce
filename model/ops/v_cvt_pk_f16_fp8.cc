// The unscaled packed decode op into f16: one 16-bit word of S0 (two 8-bit floats) -> two f16
// in VDST, the low byte's in bits 15:0 (docs/semantics.md §13.4, §13.7). The rows naming this op
// (gfx1250 and gfx1251 only): v_cvt_pk_f16_fp8 (OCP E4M3, Fp8Slot::fp8) and v_cvt_pk_f16_bf8
// (OCP E5M2, Fp8Slot::bf8).
//
// No pseudocode is public for gfx1250. The model puts the packed fp8 -> f32 decode's word select
// in front of the one-byte fp8 -> f16 decode (docs/semantics.md §13.6):
//   - the word: the low word in e32; OPSEL[0] in VOP3 (op_sel:[1,0]: the high word), a constant
//     there under src16_constant (unpack_common.h UnpackSourceWord, as the packed fp8 -> f32
//     decode);
//   - each byte decoded exactly to f32 under the one-byte decode's readings (fp8_to_f32_nan,
//     fp8_denorm_input with MODE[6]; UnpackOptions: OMOD and CLAMP too, which LLVM refuses
//     here, U), then into f16 as the gfx950 scaled decodes into f16 put their product there
//     (model/fp/mx.h MxScaleF32To16 with the scale 2^0): every OCP E4M3 and E5M2 value is an f16,
//     so nothing rounds under the default readings; a NaN keeps its sign and top fraction bits,
//     quieted.
// The whole dword is written (two f16), so f16_decode_half does not apply.
//
// Departures and unknowns: OPSEL[3] (accepted by LLVM, op_sel:[a,1]), OPSEL[2:1], NEG/ABS, S1, S2:
// no effect (U, fuzzed), as on the packed fp8 -> f32 decode.
#include <array>

#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/fp/oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/op_table.h"
#include "model/ops/unpack_common.h"

namespace lanediff {
namespace ops {
namespace {

constexpr uint32_t kScaleOne = 0x3f800000u;  // the scale operand 1.0: E8M0 byte 127, 2^0

}  // namespace

Fp8Shape v_cvt_pk_f16_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f16

void v_cvt_pk_f16_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), UnpackOptions(ctx, false));
  std::array<uint16_t, 256> f16{};
  for (uint32_t b = 0; b < 256; ++b) {
    f16[b] = static_cast<uint16_t>(
        MxScaleF32To16(Fp8ToF32(b, t), kScaleOne, MxScaleRead::exponent, {}, Mx16::f16));
  }
  const SourceWord w = UnpackSourceWord(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t word = (lanes.src0[i] >> w.shift) & w.mask;
    out[i] = f16[word & 0xffu] | static_cast<uint32_t>(f16[(word >> 8) & 0xffu]) << 16;
  }
}

void v_cvt_pk_f16_fp8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Options o = UnpackOptions(ctx, false);
  const SourceWord w = UnpackSourceWord(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t word = (lanes.src0[i] >> w.shift) & w.mask;
    uint32_t halves[2];
    for (int k = 0; k < 2; ++k) {
      const uint32_t byte = k == 0 ? word % 0x100u : word / 0x100u % 0x100u;
      halves[k] = OracleMxScaleF32To16(OracleFp8ToF32(byte, RowFp8Format(ctx), o), kScaleOne,
                                       MxScaleRead::exponent, {}, Mx16::f16);
    }
    out[i] = halves[1] * 0x10000u + halves[0];
  }
}

absl::string_view v_cvt_pk_f16_fp8_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  return ClassifyUnpackPair(ctx, RowFp8Format(ctx), src0);
}

uint32_t v_cvt_pk_f16_fp8_mode_bits(Family family) { return UnpackModeBits(family); }

}  // namespace ops
}  // namespace lanediff
