// gfx1250's scaled decodes with an E8M0 scale register (shape U, docs/semantics.md §14.2):
// eight codes of S0 times the E8M0 byte of S1 that scale_sel picks -> eight f32 in the VGPR
// tuple VDST..VDST+7, or eight f16 / bf16 in VDST..VDST+3 (element 2j in bits 15:0 of VDST+j,
// 2j+1 in bits 31:16). The rows naming this op (gfx1250, gfx1251), the code format and the
// destination read from the row: v_cvt_scale_pk8_{f32,f16,bf16}_{fp8,bf8} (S0 a VGPR pair of
// eight OCP E4M3 / E5M2 bytes, SrcRole::fp8_x8, element k at bits 8k+7:8k of the 64 bits) and
// v_cvt_scale_pk8_{f32,f16,bf16}_fp4 (S0 one VGPR of eight OCP MX FP4 E2M1 nibbles,
// SrcRole::fp4_x8, element k at bits 4k+3:4k).
//
// No gfx1250 pseudocode is public. The model: each code decoded exactly as the gfx950 scaled
// decodes decode theirs (fp8_to_f32_nan for NaN bytes; FP4 has no NaN), times the scale byte
// (model/ops/scale_sel.h: mx_scale_sel, mx_up_scale), rounded once into the destination as
// gfx950's are (model/fp/mx.h MxScaleF32 / MxScaleF32To16: mx_scale_zero, mx_scale_nan,
// mx_up_overflow, mx_denorm_out, mx_up_round). The element order is LLVM's: the intrinsic
// llvm.amdgcn.cvt.scale.pk8.* takes <2 x i32> or i32 and returns <8 x ...>, element k from the
// k-th code counting from bit 0 (as gfx950's packed decodes, AMD CDNA4 pseudocode).
//
// Departures and unknowns: S2 and the old VDST: no effect (U, fuzzed); mx_scale_read is not
// read (the scale is an integer operand).
#include <cstdint>

#include "model/fp/fp8_decode.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/fp/oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/op_table.h"
#include "model/ops/scale_sel.h"
#include "model/ops/unpack_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kPk8 = 8;

bool RowFp4(const OpContext& ctx) { return GetInstrInfo(ctx.instr).fp8_slot == Fp8Slot::fp4; }

// Lane i's eight codes, element k at bits 8k+7:8k (fp8/bf8: a VGPR pair) or 4k+3:4k (FP4). A
// one-dword view of the pair (a batch laid out one dword per source) reads dword 0 twice, as
// the other tuple rows read theirs (pk16_common.h TupleDword).
uint64_t CodesOf(const LaneView& lanes, size_t i) {
  const int n = lanes.shape.src_dwords[0];
  const uint32_t* p = lanes.src0 + i * static_cast<size_t>(n);
  return p[0] | uint64_t{n == 2 ? p[1] : p[0]} << 32;
}

}  // namespace

Fp8Shape v_cvt_scale_pk8_f32_fp8_output(const OpContext&) { return {nullptr, 0}; }  // f32/16

void v_cvt_scale_pk8_f32_fp8(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const bool fp4 = RowFp4(ctx);
  const bool wide = GetInstrInfo(ctx.instr).output == OutputKind::f32;
  const Mx16 dst = RowMx16(ctx);
  uint32_t value[256];  // every code's exact f32 (scale 2^0)
  if (fp4) {
    for (uint32_t c = 0; c < 16; ++c) value[c] = Fp4ElementF32(c);
  } else {
    const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ScaledElementOptions(ctx));
    for (uint32_t c = 0; c < 256; ++c) value[c] = Fp8ToF32(c, t);
  }
  const uint32_t bits = fp4 ? 4 : 8, mask = fp4 ? 0xfu : 0xffu;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint64_t codes = CodesOf(lanes, i);
    const uint32_t scale = ScaleSelOperand(ctx.hyp, lanes.src1[i], ctx.mods.opsel);
    uint32_t x[kPk8];
    for (int k = 0; k < kPk8; ++k) x[k] = value[(codes >> (bits * k)) & mask];
    ScaledLaneStore(x, kPk8, scale, d.options, wide, dst, i, out);
  }
}

void v_cvt_scale_pk8_f32_fp8_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const bool fp4 = RowFp4(ctx);
  const OutputKind output = GetInstrInfo(ctx.instr).output;
  const Fp8ToF32Options o = ScaledElementOptions(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t scale = OracleScaleOperand(ctx.hyp, lanes.src1[i], ctx.mods.opsel);
    const int n = lanes.shape.src_dwords[0];
    for (int k = 0; k < kPk8; ++k) {
      // Element k: nibble k of the one dword (FP4), or byte k % 4 of dword k / 4 (dword 0 again
      // in a one-dword view).
      const uint32_t word = lanes.src0[i * static_cast<size_t>(n) + (n == 2 ? k / 4 : 0)];
      const uint32_t code = fp4 ? (word >> (4 * k)) & 0xfu : (word >> (8 * (k % 4))) & 0xffu;
      const uint32_t element =
          fp4 ? Fp4ElementF32Oracle(code) : OracleFp8ToF32(code, RowFp8Format(ctx), o);
      OracleScaledElementStore(element, scale, d.options, output, kPk8, i, k, out);
    }
  }
}

// From S0's first dword (four fp8/bf8 codes, or all eight FP4 codes) and the byte scale_sel 0
// picks under the default readings: "nan" for the NaN scale byte 0xFF or a NaN code, "inf" for
// an infinite code, "zero" when every code is zero, then the products in the row's output
// format: "overflow" (beyond its largest finite), "denormal" (below its smallest normal),
// "normal".
absl::string_view v_cvt_scale_pk8_f32_fp8_classify(const OpContext& ctx, uint32_t src0,
                                                   uint32_t src1) {
  const Hypotheses defaults;
  const uint32_t scale = ScaleSelOperand(defaults, src1, ctx.mods.opsel);
  if ((scale >> 23) == kE8m0Nan) return "nan";
  const bool fp4 = RowFp4(ctx);
  const bool wide = GetInstrInfo(ctx.instr).output == OutputKind::f32;
  const Mx16 dst = RowMx16(ctx);
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ScaledElementOptions(ctx));
  const uint32_t inf = wide ? 0x7f800000u : dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  const uint32_t min_normal = wide ? 0x00800000u : dst == Mx16::f16 ? 0x0400u : 0x0080u;
  bool overflow = false, denormal = false, all_zero = true, inf_code = false;
  for (int k = 0; k < (fp4 ? 8 : 4); ++k) {
    const uint32_t x = fp4 ? Fp4ElementF32(src0 >> (4 * k)) : Fp8ToF32(src0 >> (8 * k), t);
    if ((x & 0x7fffffffu) > 0x7f800000u) return "nan";
    inf_code |= (x & 0x7fffffffu) == 0x7f800000u;
    if ((x & 0x7fffffffu) == 0) continue;
    all_zero = false;
    const uint32_t r = wide ? MxScaleF32(x, scale, MxScaleRead::exponent, {}) & 0x7fffffffu
                            : MxScaleF32To16(x, scale, MxScaleRead::exponent, {}, dst) & 0x7fffu;
    overflow |= r == inf;
    denormal |= r < min_normal;
  }
  if (inf_code) return "inf";
  if (all_zero) return "zero";
  if (overflow) return "overflow";
  if (denormal) return "denormal";
  return "normal";
}

uint32_t v_cvt_scale_pk8_f32_fp8_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
