// The stochastic-rounding f32 -> 16-bit float op: S0 rounded with the seed S1 into f16 (or
// bf16), written to the half of VDST that OPSEL[3] selects; the other half is the old VDST's
// (docs/semantics.md §12.3). The rows naming this op (gfx950 only): v_cvt_sr_f16_f32
// (OutputKind::f16) and v_cvt_sr_bf16_f32 (OutputKind::bf16).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SR_F16_F32; BF16 alike): under a forced
// ROUND_NEAREST_EVEN, `tmp = f32_to_f16_SR(S0.f32, S1.u32)` into the half OPSEL[3] selects,
// "other destination bits are preserved"; the SR helper is named, not defined. LLVM 22 ties VDST
// as an input (`vdst_in`). The model reads the helper as the unscaled SR fp8 conversion's own
// pseudocode reads (m = mantissa + S1[31:12] for 3 kept mantissa bits, the carry kept under
// sr_rounding's default, then truncated; docs/semantics.md §6): the seed is d = 23 - M bits
// (f16 13, bf16 16) taken from S1 per sr16_seed (S1[31:32-d] by default), added just below the
// kept LSB of the 24-bit significand, the sum truncated; a carry runs into the next binade and
// past the largest finite to Inf. A result in the denormal range (f16 below 2^-14; bf16 below
// 2^-126) is first truncated to the grid of the denormal quantum / 2^d, then the seed added
// there, as the fp8 default reads its subnormals (sr16_subnormal=grid), or the seed is added to
// the 24-bit significand at the normal LSB's place before the denormalising shift
// (=mantissa_add: the unscaled SR pseudocode's `mantissa + S1[31:12]` read literally), so it
// reaches only the top of the quantum. Only f16 has such results from a normal f32 (bf16's
// denormals are f32 denormals, where both readings agree).
//
// Readings shared with v_cvt_pk_{f16,bf16}_f32 (cvt16_common.h): NaN per cvt16_nan, results
// below the smallest normal per cvt16_denorm_out (after rounding), f16 overflow per fp16_ovfl
// (MODE[23]: a finite result past 65504 gives 0x7bff), ABS/NEG on S0 and MODE[4] on it.
// Departures and unknowns: OPSEL[2:0] and S2 have no effect (U, fuzzed); the MODE round field is
// not read (the pseudocode forces it).
#include "model/fp/f32.h"
#include "model/ops/cvt16_common.h"
#include "model/ops/op_table.h"

namespace lanediff {
namespace ops {
namespace {

// The seed's width and place, and the format's fields.
struct Sr16 {
  Cvt16Uniform c;
  uint32_t man_bits;   // 10 or 7
  uint32_t d;          // 23 - man_bits: seed bits
  uint32_t seed_shift, seed_mask;  // seed = (S1 >> seed_shift) & seed_mask
  int32_t e_min;       // the f32 exponent field of the format's smallest normal (113, 1)
  uint32_t inf;        // 0x7c00, 0x7f80
  bool mantissa_add;
  uint32_t half_shift;  // 16 * OPSEL[3]
};
Sr16 DecodeSr16(const OpContext& ctx) {
  Sr16 u{};
  u.c = DecodeCvt16(ctx);
  const bool f16 = u.c.dst == Mx16::f16;
  u.man_bits = f16 ? 10u : 7u;
  u.d = 23u - u.man_bits;
  u.seed_mask = (1u << u.d) - 1u;
  u.seed_shift = ctx.hyp.sr16_seed == Sr16Seed::high ? 32u - u.d : 0u;
  u.e_min = f16 ? 113 : 1;
  u.inf = f16 ? 0x7c00u : 0x7f80u;
  u.mantissa_add = ctx.hyp.sr16_subnormal == Sr16Subnormal::mantissa_add;
  u.half_shift = 16u * ((ctx.mods.opsel >> 3) & 1u);
  return u;
}

// |x| (finite, nonzero) with `seed` -> the 16-bit magnitude code: code = ((E - e_min) << M) + R
// in the normal range, R = (sig + seed) >> d (a carry to 2^(M+1) is the next binade's first
// code); below it R counts denormal quanta: (trunc(sig / 2^s) + seed) >> d with s = e_min - E,
// or under mantissa_add (sig + seed) >> (d + s).
uint32_t Sr16Magnitude(uint32_t x, uint32_t seed, const Sr16& u) {
  const int32_t e_field = static_cast<int32_t>(F32Exp(x));
  const uint64_t sig = F32Man(x) | (e_field != 0 ? 0x800000u : 0u);
  const int32_t e = e_field != 0 ? e_field : 1;
  if (e >= u.e_min) {
    const uint64_t r = (sig + seed) >> u.d;
    const uint64_t code = (static_cast<uint64_t>(e - u.e_min) << u.man_bits) + r;
    return code >= u.inf ? u.inf : static_cast<uint32_t>(code);
  }
  const int32_t s = u.e_min - e;
  if (s >= 40) return 0u;  // sig < 2^24 and seed < 2^d: nothing reaches a quantum
  if (u.mantissa_add) return static_cast<uint32_t>((sig + seed) >> (u.d + static_cast<uint32_t>(s)));
  return static_cast<uint32_t>(((sig >> s) + seed) >> u.d);
}

uint32_t Sr16Result(uint32_t x, uint32_t seed, const Sr16& u) {
  return Sr16Specials(x, u.man_bits, u.c, [&] { return Sr16Magnitude(x, seed, u); });
}

}  // namespace

Fp8Shape v_cvt_sr_f16_f32_output(const OpContext&) { return {nullptr, 0}; }  // f16/bf16

void v_cvt_sr_f16_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Sr16 u = DecodeSr16(ctx);
  const uint32_t kept = 0xffff0000u >> u.half_shift;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t x = Cvt16Source(ctx, 0, lanes.src0[i], u.c.keep_input_denormals);
    const uint32_t seed = (lanes.src1[i] >> u.seed_shift) & u.seed_mask;
    out[i] = (Sr16Result(x, seed, u) << u.half_shift) | (lanes.vdst_old[i] & kept);
  }
}

// By the definition, with exact integers: |x| = sig * 2^k (k = E - 150) in units of the seed's
// grid g = quantum / 2^d, where the quantum is 2^(max(E, e_min) - 127 - M); the seeded sum is
// floor(|x| / g) + seed (grid), or under mantissa_add the seed in units of the f32 significand's
// LSB, sig + seed, over the quantum; the result counts quanta from zero: below 2^(M+1) quanta of the lowest binade the count is the
// code; above, each binade doubles the quantum.
void v_cvt_sr_f16_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const bool f16 = GetInstrInfo(ctx.instr).output == OutputKind::f16;
  const uint32_t man = f16 ? 10u : 7u, d = 23u - man, inf = f16 ? 0x7c00u : 0x7f80u;
  const int64_t e_min = f16 ? 113 : 1;
  const bool high = ctx.hyp.sr16_seed == Sr16Seed::high;
  const bool mantissa_add = ctx.hyp.sr16_subnormal == Sr16Subnormal::mantissa_add;
  const bool ovfl = f16 && ctx.mode / 0x800000u % 2u == 1u && ctx.hyp.fp16_ovfl != Fp16Ovfl::ignored;
  const bool flush = ctx.hyp.cvt16_denorm_out == Cvt16DenormOut::mode &&
                     ctx.mode / (f16 ? 0x80u : 0x20u) % 2u == 0u;
  const bool hi_half = ctx.mods.opsel / 8u % 2u == 1u;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t x = lanes.src0[i];
    if (ctx.mods.abs % 2u == 1u) x %= 0x80000000u;
    if (ctx.mods.neg % 2u == 1u) x ^= 0x80000000u;
    if (ctx.mode / 0x10u % 2u == 0u && x / 0x800000u % 0x100u == 0u) x = x / 0x80000000u * 0x80000000u;
    const uint32_t e_field = x / 0x800000u % 0x100u, frac = x % 0x800000u;
    const uint32_t sign = x / 0x80000000u * 0x8000u;
    const uint32_t seed = high ? lanes.src1[i] / (1u << (32u - d)) : lanes.src1[i] % (1u << d);
    uint32_t r;
    if (e_field == 0xffu && frac != 0u) {  // quieted, the top fraction bits kept
      r = ctx.hyp.cvt16_nan == Cvt16Nan::canonical
              ? inf + (1u << (man - 1))
              : sign + inf + (frac / (1u << d) | (1u << (man - 1)));
    } else if (e_field == 0xffu) {
      r = sign + inf;
      if (ovfl && ctx.hyp.fp16_ovfl == Fp16Ovfl::saturate_all) r -= 1u;
    } else if (x % 0x80000000u == 0u) {
      r = sign;
    } else {
      const int64_t e = e_field == 0u ? 1 : e_field;
      const uint64_t sig = frac + (e_field == 0u ? 0u : 0x800000u);
      // |x| / g = sig * 2^(e - 150) / 2^(max(e, e_min) - 150) = sig / 2^(max(e, e_min) - e).
      const int64_t s = e >= e_min ? 0 : e_min - e;
      uint64_t count;  // quanta of the binade's grid
      if (s >= 62) {
        count = 0;
      } else if (mantissa_add) {  // sig + seed < 2^25: nothing reaches 2^(d + s) past 2^62
        count = d + s >= 62 ? 0 : (sig + seed) / (uint64_t{1} << (d + s));
      } else {
        count = (sig / (uint64_t{1} << s) + seed) / (uint64_t{1} << d);
      }
      const uint64_t base = e >= e_min ? static_cast<uint64_t>(e - e_min) * (uint64_t{1} << man) : 0u;
      uint64_t m = base + count;
      if (m >= inf) m = ovfl ? inf - 1u : inf;
      if (flush && m < (uint64_t{1} << man)) m = 0;
      r = sign + static_cast<uint32_t>(m);
    }
    const uint32_t old = lanes.vdst_old[i];
    out[i] = hi_half ? r * 0x10000u + old % 0x10000u : old / 0x10000u * 0x10000u + r;
  }
}

// S0's class (cvt16_common.h Cvt16Class, after ABS/NEG), where a finite normal whose seeded sum
// carries into the next binade is "sr_carry".
absl::string_view v_cvt_sr_f16_f32_classify(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  const Sr16 u = DecodeSr16(ctx);
  const uint32_t x = ApplySrcModifiers(src0, ctx.mods.abs & 1u, ctx.mods.neg & 1u);
  const absl::string_view c = Cvt16Class(x, u.c.dst);
  if (c != "normal") return c;
  const uint32_t seed = (src1 >> u.seed_shift) & u.seed_mask;
  return (((F32Man(x) | 0x800000u) + seed) >> 24) != 0 ? "sr_carry" : "normal";
}

uint32_t v_cvt_sr_f16_f32_mode_bits(Family) { return kCvt16ModeBits; }

}  // namespace ops
}  // namespace lanediff
