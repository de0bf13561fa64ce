// gfx1250's FP6/BF6 decodes with an E8M0 scale register (shape V, docs/semantics.md §14.6): 16
// six-bit codes of the 3-dword VGPR tuple S0 (SrcRole::fp6_x16) times the E8M0 byte of S1 that
// scale_sel picks -> 16 f32 in the VGPR tuple VDST..VDST+15, or 16 f16 / bf16 in VDST..VDST+7
// (element 2j in bits 15:0 of VDST+j, 2j+1 in bits 31:16). The rows naming this op (gfx1250,
// gfx1251): v_cvt_scale_pk16_{f32,f16,bf16}_fp6 (Fp8Slot::fp6: OCP MX FP6 E2M3) and
// v_cvt_scale_pk16_{f32,f16,bf16}_bf6 (Fp8Slot::bf6: OCP MX BF6 E3M2); the destination from
// the row's OutputKind.
//
// No gfx1250 pseudocode is public. The model: element i is the field mx_pk16_fp6_order names,
// the same 96-bit layout gfx1250's 16-element FP6/BF6 encoders write (linear, the default:
// field i at bits 6i+5:6i, fields 5 and 10 straddling dwords; ROCm/rocm-systems rocjitsu's
// gfx1250 conversion test lays these decodes' 16 codes out that way, fill_packed_source), decoded
// exactly as gfx950's FP6/BF6 decodes decode theirs (no NaN, no infinity), times the byte
// scale_sel picks (model/ops/scale_sel.h: mx_scale_sel, mx_up_scale), rounded once into the
// destination as the shape U decodes are (model/fp/mx.h MxScaleF32 / MxScaleF32To16:
// mx_scale_zero, mx_scale_nan, mx_up_overflow, mx_denorm_out, mx_up_round).
//
// Departures and unknowns: S2 and the old VDST: no effect (U, fuzzed); mx_scale_read is not
// read (the scale is an integer operand).
#include <cstdint>

#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp6_tuple.h"
#include "model/ops/op_table.h"
#include "model/ops/scale_sel.h"
#include "model/ops/unpack_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kPk16 = 16;
constexpr int kTupleDwords = 3;

// Lane i's 96 bits as two words: bits 63:0 and 95:64. A one-dword view (a batch laid out one
// dword per source) reads dword 0 three times, as the other tuple rows read theirs.
struct Bits96 {
  uint64_t lo = 0;
  uint32_t hi = 0;
};
Bits96 TupleOf(const LaneView& lanes, size_t i) {
  const int n = lanes.shape.src_dwords[0];
  const uint32_t* p = lanes.src0 + i * static_cast<size_t>(n);
  const bool whole = n == kTupleDwords;
  return {p[0] | uint64_t{whole ? p[1] : p[0]} << 32, whole ? p[2] : p[0]};
}

// The six bits at `bit` of the 96.
uint32_t FieldAt(const Bits96& t, int bit) {
  if (bit >= 64) return (t.hi >> (bit - 64)) & 0x3fu;
  const uint64_t window = t.lo >> bit | (bit > 0 ? uint64_t{t.hi} << (64 - bit) : 0);
  return static_cast<uint32_t>(window) & 0x3fu;
}

// The oracle's element e: the field whose position under mx_pk16_fp6_order is e's, found by
// walking the 16 fields (linear: field f holds element f; interleaved: even fields hold elements
// 0..7, odd fields 8..15), read one bit at a time from the dwords by division.
uint32_t OracleElementCode(const LaneView& lanes, size_t i, int e, MxPk16Fp6Order order) {
  int field = 0;
  for (int f = 0; f < kPk16; ++f) {
    const int holds = order == MxPk16Fp6Order::linear ? f : f % 2 == 0 ? f / 2 : 8 + f / 2;
    if (holds == e) field = f;
  }
  const int n = lanes.shape.src_dwords[0];
  uint32_t code = 0;
  for (int b = 0; b < 6; ++b) {
    const int bit = 6 * field + b;
    const uint32_t word = lanes.src0[i * static_cast<size_t>(n) + (n == kTupleDwords ? bit / 32 : 0)];
    uint32_t weight = 1;
    for (int k = 0; k < bit % 32; ++k) weight *= 2;
    code += (word / weight % 2) << b;
  }
  return code;
}

}  // namespace

Fp8Shape v_cvt_scale_pk16_f32_fp6_output(const OpContext&) { return {nullptr, 0}; }  // f32/16

void v_cvt_scale_pk16_f32_fp6(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const bool wide = GetInstrInfo(ctx.instr).output == OutputKind::f32;
  const Mx16 dst = wide ? Mx16::f16 : RowMx16(ctx);
  uint32_t value[64];  // every code's exact f32 (scale 2^0)
  for (uint32_t c = 0; c < 64; ++c) value[c] = MxToF32(c, 127, RowFp6Format(ctx), {});
  int at[kPk16];  // element e's bit offset in the 96
  for (int e = 0; e < kPk16; ++e) at[e] = 6 * Pk16Fp6Field(e, ctx.hyp.mx_pk16_fp6_order);
  for (size_t i = 0; i < lanes.size; ++i) {
    const Bits96 t = TupleOf(lanes, i);
    const uint32_t scale = ScaleSelOperand(ctx.hyp, lanes.src1[i], ctx.mods.opsel);
    uint32_t x[kPk16];
    for (int e = 0; e < kPk16; ++e) x[e] = value[FieldAt(t, at[e])];
    ScaledLaneStore(x, kPk16, scale, d.options, wide, dst, i, out);
  }
}

void v_cvt_scale_pk16_f32_fp6_oracle(const OpContext& ctx, const LaneView& lanes,
                                     uint32_t* out) {
  const MxScaledDecode d = MxScaledDecodeFor(ctx.hyp);
  const OutputKind output = GetInstrInfo(ctx.instr).output;
  const MxElemFormat& f = RowFp6Format(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t scale = OracleScaleOperand(ctx.hyp, lanes.src1[i], ctx.mods.opsel);
    for (int e = 0; e < kPk16; ++e) {
      const uint32_t code = OracleElementCode(lanes, i, e, ctx.hyp.mx_pk16_fp6_order);
      const uint32_t element = OracleMxToF32(code, 127, f, {});
      OracleScaledElementStore(element, scale, d.options, output, kPk16, i, e, out);
    }
  }
}

// From S0's first dword (what the classifier is given: fields 0..4, the five whole ones) and the
// byte scale_sel picks under the default readings: "nan" for the NaN scale byte 0xFF, "zero"
// when the five are zero, then their products in the row's output format: "overflow" (beyond its
// largest finite), "denormal" (below its smallest normal), "normal".
absl::string_view v_cvt_scale_pk16_f32_fp6_classify(const OpContext& ctx, uint32_t src0,
                                                    uint32_t src1) {
  const Hypotheses defaults;
  const uint32_t scale = ScaleSelOperand(defaults, src1, ctx.mods.opsel);
  if ((scale >> 23) == kE8m0Nan) return "nan";
  const bool wide = GetInstrInfo(ctx.instr).output == OutputKind::f32;
  const Mx16 dst = wide ? Mx16::f16 : RowMx16(ctx);
  const uint32_t inf = wide ? 0x7f800000u : dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  const uint32_t min_normal = wide ? 0x00800000u : dst == Mx16::f16 ? 0x0400u : 0x0080u;
  bool overflow = false, denormal = false, all_zero = true;
  for (int k = 0; k < 5; ++k) {
    const uint32_t code = (src0 >> (6 * k)) & 0x3fu;
    if ((code & 0x1fu) == 0) continue;
    all_zero = false;
    const uint32_t x = MxToF32(code, 127, RowFp6Format(ctx), {});
    const uint32_t r = wide ? MxScaleF32(x, scale, MxScaleRead::exponent, {}) & 0x7fffffffu
                            : MxScaleF32To16(x, scale, MxScaleRead::exponent, {}, dst) & 0x7fffu;
    overflow |= r == inf;
    denormal |= r < min_normal;
  }
  if (all_zero) return "zero";
  if (overflow) return "overflow";
  if (denormal) return "denormal";
  return "normal";
}

uint32_t v_cvt_scale_pk16_f32_fp6_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
