// The unscaled SR op from one f16: the f16 of S0 that OPSEL[0] selects (S0[15:0], or S0[31:16]
// under the rule sr16_fp8_opsel0's default), after its ABS then NEG (bit 15 of the 16-bit
// value), rounded stochastically with the seed S1 -> one 8-bit float into the byte of VDST that
// OPSEL[3:2] selects, the other bytes the old VDST's (docs/semantics.md §13.5). The rows naming
// this op (gfx1250/gfx1251 only): v_cvt_sr_fp8_f16 (E4M3, or UE5M3 under CLAMP;
// Fp8Slot::fp8_clamp_ue5m3) and v_cvt_sr_bf8_f16 (E5M2; Fp8Slot::bf8).
//
// No gfx1250 pseudocode is public. The model widens the f16 exactly to f32 (every f16 is an f32
// normal or zero) and runs the f32 SR instructions' core (model/ops/sr_common.h, shared with
// the op of the f32 -> fp8/bf8 SR rows) on it, under their readings (sr_rounding, sr_seed, sr_overflow, fp8_nan,
// fp16_ovfl, gfx1250_clamp), so S1's top 23 - M bits reach the value (sr16_fp8_seed=f32_window,
// rocjitsu's reading); under sr16_fp8_seed=source_grid only the top 10 - M of them do (HIP's
// from_float_sr with a 16-bit source): S1 is masked before the core, which then truncates the
// value on the quantum / 2^(10 - M) grid (the two agree wherever the result is normal).
//
// Departures and unknowns: OPSEL[1] (LLVM accepts and prints op_sel:[0,1,0]) changes nothing
// (U, fuzzed). MODE[4] cannot act (a widened f16 is never an f32 denormal); no MODE bit but
// FP16_OVFL is read (f16 input denormals are kept: U).
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
#include "model/ops/sr_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

// What every lane of a batch shares: the half OPSEL[0] selects, S0's modifiers on the f16 sign,
// and the mask sr16_fp8_seed puts on S1.
struct Sr16Lanes {
  uint32_t half_shift;  // 0 or 16
  uint32_t abs_and;     // on the 16-bit value
  uint32_t neg_xor;
  uint32_t seed_mask;   // on S1
};

// S1's bits the seed reading leaves: all; or under source_grid the top 10 - M of the 23 - M
// seed bits sr_seed extracts (S1[31:25] fp8 / S1[31:24] bf8 for the high seed, S1[19:13] /
// S1[20:13] for the low one).
uint32_t SeedMask(const OpContext& ctx, const Fp8Format& format) {
  if (ctx.hyp.sr16_fp8_seed != Sr16Fp8Seed::source_grid) return 0xffffffffu;
  const uint32_t dropped = 10u - static_cast<uint32_t>(format.man_bits);  // 7 or 8
  const uint32_t width = 23u - static_cast<uint32_t>(format.man_bits);    // 20 or 21
  if (ctx.hyp.sr_seed == SrSeed::low) return ((1u << dropped) - 1u) << (width - dropped);
  return ~((1u << (32u - dropped)) - 1u);
}

Sr16Lanes DecodeSr16(const OpContext& ctx, const Fp8Format& format) {
  Sr16Lanes l{};
  l.half_shift =
      ctx.hyp.sr16_fp8_opsel0 == Sr16Fp8Opsel0::high_half ? 16u * (ctx.mods.opsel & 1u) : 0u;
  l.abs_and = (ctx.mods.abs & 1u) != 0 ? 0x7fffu : 0xffffu;
  l.neg_xor = (ctx.mods.neg & 1u) != 0 ? 0x8000u : 0u;
  l.seed_mask = SeedMask(ctx, format);
  return l;
}

// The seed position of the f32 core: S1[31:12] (E4M3, and UE5M3 under CLAMP) or S1[31:11].
uint32_t SeedShift(const OpContext& ctx) {
  return GetInstrInfo(ctx.instr).fp8_slot == Fp8Slot::bf8 ? 11 : 12;
}

// The core's uniform with S0's modifiers already applied to the f16 and no input flush.
SrUniform CoreUniform(const OpContext& ctx) {
  SrUniform u = DecodeSr(ctx, RowFp8Format(ctx), SeedShift(ctx));
  u.src0 = {0xffffffffu, 0u, true};
  return u;
}

// The oracle's own widening: the f16 taken apart and its value rebuilt as f32 fields.
uint32_t OracleF16ToF32(uint32_t h) {
  const uint32_t sign = (h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return sign | 0x7f800000u | (man << 13);
  if (exp != 0) return sign | ((exp + 112u) << 23) | (man << 13);
  if (man == 0) return sign;
  int e = -14;  // a denormal man * 2^-24: normalise its leading bit to 2^10
  uint32_t m = man;
  while ((m & 0x400u) == 0) {
    m <<= 1;
    --e;
  }
  return sign | (static_cast<uint32_t>(e + 127) << 23) | ((m & 0x3ffu) << 13);
}

}  // namespace

Fp8Shape v_cvt_sr_fp8_f16_output(const OpContext& ctx) {
  return {&RowFp8Format(ctx), SeedShift(ctx)};
}

void v_cvt_sr_fp8_f16(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const SrUniform u = CoreUniform(ctx);
  const Sr16Lanes l = DecodeSr16(ctx, *u.format);
  constexpr size_t kChunk = 256;
  uint32_t x[kChunk], seed[kChunk];
  for (size_t base = 0; base < lanes.size; base += kChunk) {
    const size_t n = lanes.size - base < kChunk ? lanes.size - base : kChunk;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t h = (((lanes.src0[base + i] >> l.half_shift) & l.abs_and) ^ l.neg_xor);
      x[i] = F16ToF32(h & 0xffffu);
      seed[i] = lanes.src1[base + i] & l.seed_mask;
    }
    LaneView v = lanes;
    v.src0 = x;
    v.src1 = seed;
    v.src2 = lanes.src2 + base;
    v.vdst_old = lanes.vdst_old + base;
    v.size = n;
    SrBatch(u, v, out + base);
  }
}

// Written apart from the fast path: the half, the modifiers and the seed bits spelled per lane,
// the widening rebuilt field by field, the exact SR oracle of model/fp/oracle.h.
void v_cvt_sr_fp8_f16_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const SrUniform u = CoreUniform(ctx);
  const bool high = ctx.hyp.sr16_fp8_opsel0 == Sr16Fp8Opsel0::high_half && (ctx.mods.opsel & 1);
  const uint32_t width = 23u - static_cast<uint32_t>(f.man_bits);
  const uint32_t kept = ctx.hyp.sr16_fp8_seed == Sr16Fp8Seed::source_grid
                            ? 10u - static_cast<uint32_t>(f.man_bits)
                            : width;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t h = high ? lanes.src0[i] / 65536u : lanes.src0[i] % 65536u;
    if (ctx.mods.abs & 1) h &= 0x7fffu;
    if (ctx.mods.neg & 1) h ^= 0x8000u;
    const uint32_t s1 = lanes.src1[i];
    uint32_t seed = u.seed_low ? s1 % (1u << width) : s1 / (1u << (32u - width));
    seed -= seed % (1u << (width - kept));  // only the top `kept` of the width bits
    const uint32_t x = OracleF16ToF32(h);
    uint32_t b = 0;
    switch (u.rounding) {
      case SrRounding::carry_truncate: b = OracleF32ToFp8Sr(x, seed, f, u.options); break;
      case SrRounding::literal: b = OracleF32ToFp8Literal(x, seed, f, u.options); break;
      case SrRounding::exact_subnormal: {
        // This reading reads S1 itself (up to 24 bits below the quantum): S1 whole, or under
        // source_grid only the kept seed bits of it.
        uint32_t word = s1;
        if (kept != width) word = u.seed_low ? seed : seed << (32u - width);
        b = OracleF32ToFp8SrExactSubnormal(x, word, u.seed_low, f, u.options);
        break;
      }
    }
    const uint32_t byte = (ctx.mods.opsel >> 2) & 3u;
    out[i] = (lanes.vdst_old[i] & ~(0xffu << (8 * byte))) | (b << (8 * byte));
  }
}

// The SR classes of the widened f16 (ClassifySr; S0 judged after its half and modifiers), an
// f16 denormal its own class (the widened value is an f32 normal).
absl::string_view v_cvt_sr_fp8_f16_classify(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  const Fp8Format& f = RowFp8Format(ctx);
  const Sr16Lanes l = DecodeSr16(ctx, f);
  const uint32_t h = ((src0 >> l.half_shift) & l.abs_and) ^ l.neg_xor;
  if ((h & 0x7c00u) == 0 && (h & 0x3ffu) != 0) return "denormal";  // an f16 denormal
  OpContext plain = ctx;
  plain.mods.abs = plain.mods.neg = 0;
  return ClassifySr(plain, v_cvt_sr_fp8_f16_output(ctx), F16ToF32(h & 0xffffu),
                    src1 & l.seed_mask);
}

uint32_t v_cvt_sr_fp8_f16_mode_bits(Family) { return kModeFp16OvflBit; }

}  // namespace ops
}  // namespace lanediff
