// The packed RNE op from two f16: S0's elements (bits 15:0, bits 31:16) -> two 8-bit floats,
// round to nearest even, {byte(S0[31:16]), byte(S0[15:0])} into the 16-bit half of VDST that
// OPSEL[3] selects, the other half the old VDST's (docs/semantics.md §13.8). Which half of S0
// each element reads when OPSEL[0] is set is the rule pk_f16_opsel0 (default `ignored`: the
// bit changes nothing). The rows naming this op (gfx1250/gfx1251 only): v_cvt_pk_fp8_f16 (E4M3,
// or UE5M3 under CLAMP; Fp8Slot::fp8_clamp_ue5m3) and v_cvt_pk_bf8_f16 (E5M2; Fp8Slot::bf8).
//
// No gfx1250 pseudocode is public. The model is gfx1250's packed op from two f32 sources
// (model/ops/pk_common.h) with its two f32 sources replaced by S0's two f16 widened exactly to
// f32 (every f16 is an f32 normal or zero, so one RNE rounding of the widened value is the
// rounding of the f16): the same readings (fp8_nan, fp16_ovfl with MODE.FP16_OVFL,
// gfx1250_clamp on the fp8 row, pk_fp8_clamp for a CLAMP that selects no format: the bf8 row's,
// read by nothing by default), the gfx950 scaled packed-f16 encoders' rule mx_pk16_neg for where
// S0's NEG/ABS act (both f16 by default), and pk_f16_opsel0, which selects from S0 after NEG/ABS
// (the modifiers act on S0's bits 15 and 31, then OPSEL[0] picks: nothing by default, both
// elements from S0[31:16] under `high_half`, the halves exchanged under `halves_swapped`).
//
// Departures and unknowns: OPSEL[2:1] and OMOD, which LLVM's disassembler refuses, change
// nothing (U). No MODE bit but FP16_OVFL is read: a widened f16 is never an f32 denormal
// (MODE[4] cannot act) and an f16 denormal input is kept (U, as on gfx1250's SR encoders from
// one f16).
#include <cstddef>
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/fp/mx.h"
#include "model/fp/oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/ops/pk_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

// The packed op's uniform with S0's modifiers left to the f16 (Pk16AfterAbsNeg) and no f32
// input flush (a widened f16 is never an f32 denormal).
PkUniform PkF16Uniform(const OpContext& ctx) {
  PkUniform u = DecodePk(ctx, RowFp8Format(ctx), !RowClampSelectsFormat(ctx));
  u.src[0] = u.src[1] = {0xffffffffu, 0u, true};
  return u;
}

// The oracle's own widening: the f16 taken apart and its value rebuilt as f32 fields.
uint32_t OracleHalfToF32(uint32_t h) {
  const uint32_t sign = (h / 32768u) << 31, exp = (h / 1024u) % 32u, man = h % 1024u;
  if (exp == 31) return sign | 0x7f800000u | (man << 13);
  if (exp != 0) return sign | ((exp + 112u) << 23) | (man << 13);
  if (man == 0) return sign;
  uint32_t e = 113, m = man;  // a denormal man * 2^-24: its leading bit shifted up to 2^10
  while (m < 1024u) {
    m *= 2;
    --e;
  }
  return sign | (e << 23) | ((m - 1024u) << 13);
}

// S0 after its NEG/ABS with OPSEL[0] applied under pk_f16_opsel0: element 0 in bits 15:0,
// element 1 in bits 31:16.
uint32_t SelectedPair(const OpContext& ctx, uint32_t src0) {
  const uint32_t x = Pk16AfterAbsNeg(ctx, src0, 0);
  if ((ctx.mods.opsel & 1u) == 0) return x;
  switch (ctx.hyp.pk_f16_opsel0) {
    case PkF16Opsel0::ignored: return x;
    case PkF16Opsel0::high_half: return (x >> 16) * 0x10001u;
    case PkF16Opsel0::halves_swapped: return (x >> 16) | (x << 16);
  }
  return x;
}

}  // namespace

Fp8Shape v_cvt_pk_fp8_f16_output(const OpContext& ctx) { return {&RowFp8Format(ctx), 0}; }

void v_cvt_pk_fp8_f16(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const PkUniform u = PkF16Uniform(ctx);
  constexpr size_t kChunk = 256;
  uint32_t lo[kChunk], hi[kChunk];
  for (size_t base = 0; base < lanes.size; base += kChunk) {
    const size_t n = lanes.size - base < kChunk ? lanes.size - base : kChunk;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t x = SelectedPair(ctx, lanes.src0[base + i]);
      lo[i] = F16ToF32(x & 0xffffu);
      hi[i] = F16ToF32(x >> 16);
    }
    LaneView v = lanes;
    v.src0 = lo;
    v.src1 = hi;
    v.vdst_old = lanes.vdst_old + base;
    v.size = n;
    PkBatch(u, v, out + base);
  }
}

// Written apart from the fast path: the halves and their modifiers spelled per lane under
// mx_pk16_neg, then the half each element reads under pk_f16_opsel0, the widening rebuilt field
// by field, the exact RNE oracle of model/fp/oracle.h.
void v_cvt_pk_fp8_f16_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const PkUniform u = PkF16Uniform(ctx);
  const bool high = ((ctx.mods.opsel >> 3) & 1) != 0;
  const bool abs0 = (ctx.mods.abs & 1) != 0, neg0 = (ctx.mods.neg & 1) != 0;
  const bool mod_lo = ctx.hyp.mx_pk16_neg != MxPk16Neg::high_half;
  const bool mod_hi = ctx.hyp.mx_pk16_neg != MxPk16Neg::low_half;
  // Which half (0: S0[15:0], 1: S0[31:16]) element 0 and element 1 read.
  const bool sel = (ctx.mods.opsel % 2) == 1;
  const int from0 = sel && ctx.hyp.pk_f16_opsel0 != PkF16Opsel0::ignored ? 1 : 0;
  const int from1 = sel && ctx.hyp.pk_f16_opsel0 == PkF16Opsel0::halves_swapped ? 0 : 1;
  auto modified = [&](uint32_t h, bool applies) {
    if (applies && abs0) h %= 32768u;
    if (applies && neg0) h ^= 0x8000u;
    return h;
  };
  auto byte = [&](uint32_t h) { return OracleF32ToFp8Rne(OracleHalfToF32(h), f, u.options); };
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t half[2] = {modified(lanes.src0[i] % 65536u, mod_lo),
                              modified(lanes.src0[i] / 65536u, mod_hi)};
    const uint32_t b0 = byte(half[from0]);
    const uint32_t b1 = byte(half[from1]);
    const uint32_t packed = b1 * 256u + b0;
    out[i] = high ? lanes.vdst_old[i] % 65536u + packed * 65536u
                  : lanes.vdst_old[i] / 65536u * 65536u + packed;
  }
}

// The packed op's classes of the two widened f16 elements (ClassifyPk: the rarer one, element
// 0's when both are normal), an f16 denormal its own class (the widened value is an f32 normal).
absl::string_view v_cvt_pk_fp8_f16_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  const uint32_t x = SelectedPair(ctx, src0);
  for (uint32_t h : {x & 0xffffu, x >> 16}) {
    if ((h & 0x7c00u) == 0 && (h & 0x3ffu) != 0) return "denormal";
  }
  OpContext plain = ctx;
  plain.mods.abs = plain.mods.neg = 0;
  return ClassifyPk(plain, RowFp8Format(ctx), F16ToF32(x & 0xffffu), F16ToF32(x >> 16));
}

uint32_t v_cvt_pk_fp8_f16_mode_bits(Family) { return kModeFp16OvflBit; }

}  // namespace ops
}  // namespace lanediff
