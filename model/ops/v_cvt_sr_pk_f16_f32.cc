// The two-element stochastic-rounding f32 -> 16-bit float op of gfx1250 (docs/semantics.md
// §13.2): S0 and S1 each rounded stochastically into f16 (or bf16), S0's in VDST[15:0], S1's in
// VDST[31:16]; element 0 rounds with the seed word S2, element 1 with the word sr_pk_seed names
// (by default the PRNG step of S2, model/fp/mx.h PrngB32). The rows naming this op: v_cvt_sr_pk_f16_f32
// (OutputKind::f16) and v_cvt_sr_pk_bf16_f32 (OutputKind::bf16).
//
// No gfx1250 pseudocode is public. Each element is gfx950's v_cvt_sr_{f16,bf16}_f32 (§12.3) on
// its own source: the seed is d = 23 - M bits of the element's seed word (sr16_seed: the top
// ones by default), added just below the kept LSB of the 24-bit significand, the sum truncated;
// a carry runs into the next binade and past the largest finite to Inf; below the smallest
// normal per sr16_subnormal. NaN, output denormals and f16 overflow per cvt16_nan,
// cvt16_denorm_out and fp16_ovfl; ABS/NEG on S0 and S1 and MODE[4] on each. LLVM accepts CLAMP
// and OMOD here (gfx950's single-element forms have neither): under cvt16_outmod=applied OMOD's
// 2^k scales the exact value before its one (stochastic) rounding and CLAMP gives [+0, 1.0]
// after it, a NaN +0 (gfx1250 has no DX10_CLAMP bit), as v_cvt_pk_{f16,bf16}_f32 read them.
// Departures and unknowns: OPSEL has no effect (U, fuzzed; LLVM has no op_sel here); the MODE
// round field is not read.
#include <bit>
#include <cmath>

#include "model/fp/f32.h"
#include "model/ops/cvt16_common.h"
#include "model/ops/op_table.h"

namespace lanediff {
namespace ops {
namespace {

// The seed words of the two elements from S2 (sr_pk_seed).
struct SeedWords {
  uint32_t w0, w1;
};
SeedWords PkSeeds(SrPkSeed h, uint32_t s2) {
  switch (h) {
    case SrPkSeed::same: return {s2, s2};
    case SrPkSeed::halves: return {s2 << 16, s2 & 0xffff0000u};
    case SrPkSeed::prng_step: break;
  }
  return {s2, PrngB32(s2)};
}

struct SrPk {
  Cvt16Uniform c;
  uint32_t man_bits, d, inf, one;
  int32_t e_min;     // the f32 exponent field of the format's smallest normal (113, 1)
  int32_t omod_k;    // OMOD's 2^k under cvt16_outmod=applied, else 0
  bool clamp;        // CLAMP under cvt16_outmod=applied
  bool high_seed;    // sr16_seed=high
  bool mantissa_add;  // sr16_subnormal=mantissa_add
};
SrPk DecodeSrPk(const OpContext& ctx) {
  SrPk u{};
  u.c = DecodeCvt16(ctx);
  const bool f16 = u.c.dst == Mx16::f16;
  u.man_bits = f16 ? 10u : 7u;
  u.d = 23u - u.man_bits;
  u.inf = f16 ? 0x7c00u : 0x7f80u;
  u.one = f16 ? 0x3c00u : 0x3f80u;
  u.e_min = f16 ? 113 : 1;
  const bool outmod = ctx.hyp.cvt16_outmod == Cvt16Outmod::applied;
  constexpr int32_t kOmodK[4] = {0, 1, 2, -1};
  u.omod_k = outmod ? kOmodK[ctx.mods.omod & 3u] : 0;
  u.clamp = outmod && ctx.mods.clamp;
  u.high_seed = ctx.hyp.sr16_seed == Sr16Seed::high;
  u.mantissa_add = ctx.hyp.sr16_subnormal == Sr16Subnormal::mantissa_add;
  return u;
}

// |x| * 2^k (x finite, nonzero) with `seed` -> the magnitude code. The value is sig * 2^(e - 150)
// with e = the exponent field (1 for an f32 denormal) + k. Normalized (sig << t, e - t: an f32
// denormal scaled up by OMOD may land in bf16's normal range), a normal result is
// ((e - t - e_min) << M) + ((sig << t) + seed) >> d; below the smallest normal R counts
// denormal quanta: (trunc(sig * 2^(e - e_min)) + seed) >> d on the grid (quantum / 2^d), or
// under mantissa_add, where the source's LSB is finer than that grid (e < e_min),
// (sig + seed) >> (d + e_min - e).
uint32_t SrPkMagnitude(uint32_t x, uint32_t seed, const SrPk& u) {
  const int32_t e_field = static_cast<int32_t>(F32Exp(x));
  const uint64_t sig = F32Man(x) | (e_field != 0 ? 0x800000u : 0u);
  const int32_t e = (e_field != 0 ? e_field : 1) + u.omod_k;
  const int32_t t = std::countl_zero(static_cast<uint32_t>(sig)) - 8;  // to bit 23
  if (e - t >= u.e_min) {
    const uint64_t binade = static_cast<uint64_t>(e - t - u.e_min);  // below 2^9
    const uint64_t code = (binade << u.man_bits) + (((sig << t) + seed) >> u.d);
    return code >= u.inf ? u.inf : static_cast<uint32_t>(code);
  }
  if (e >= u.e_min) return static_cast<uint32_t>(((sig << (e - u.e_min)) + seed) >> u.d);
  const int32_t s = u.e_min - e;
  if (s >= 40) return 0u;  // sig < 2^24 and seed < 2^d: nothing reaches a quantum
  if (u.mantissa_add) return static_cast<uint32_t>((sig + seed) >> (u.d + static_cast<uint32_t>(s)));
  return static_cast<uint32_t>(((sig >> s) + seed) >> u.d);
}

// One element: the f32 x (modifiers applied) with its seed word -> the 16-bit result.
uint32_t SrPkElement(uint32_t x, uint32_t word, const SrPk& u) {
  const uint32_t seed = u.high_seed ? word >> (32u - u.d) : word & ((1u << u.d) - 1u);
  const uint32_t r = Sr16Specials(x, u.man_bits, u.c, [&] { return SrPkMagnitude(x, seed, u); });
  if (!u.clamp) return r;
  if ((r & 0x7fffu) > u.inf || (r & 0x8000u) != 0) return 0u;  // NaN, negatives: +0
  return r > u.one ? u.one : r;
}

}  // namespace

Fp8Shape v_cvt_sr_pk_f16_f32_output(const OpContext&) { return {nullptr, 0}; }  // f16/bf16

void v_cvt_sr_pk_f16_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const SrPk u = DecodeSrPk(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const SeedWords w = PkSeeds(ctx.hyp.sr_pk_seed, lanes.src2[i]);
    const uint32_t a = Cvt16Source(ctx, 0, lanes.src0[i], u.c.keep_input_denormals);
    const uint32_t b = Cvt16Source(ctx, 1, lanes.src1[i], u.c.keep_input_denormals);
    out[i] = SrPkElement(a, w.w0, u) | (SrPkElement(b, w.w1, u) << 16);
  }
}

namespace {

// The oracle's element, by the definition of stochastic rounding on exact values: v = |x| 2^k
// (exact in a long double: 24 significant bits), lo the largest code whose value is at most v
// (found by bisection over the codes' values, each exact), the quantum q the value step from lo
// to the next code; the result rounds up to lo + 1 iff floor((v - lo) / q * 2^d) + seed >= 2^d,
// or under mantissa_add where the source's LSB is finer than the denormal grid (e + k < e_min)
// iff (v - lo) + seed * 2^(e + k - 150) >= q.
long double CodeValue(uint64_t c, uint32_t man, int64_t e_min) {
  const uint64_t binade = c >> man, frac = c % (uint64_t{1} << man);
  if (binade == 0) return std::ldexp(static_cast<long double>(frac), static_cast<int>(e_min - 127 - man));
  return std::ldexp(static_cast<long double>(frac + (uint64_t{1} << man)),
                    static_cast<int>(static_cast<int64_t>(binade) + e_min - 1 - 127 - man));
}

uint32_t OracleElement(const OpContext& ctx, uint32_t x, uint32_t word) {
  const bool f16 = GetInstrInfo(ctx.instr).output == OutputKind::f16;
  const uint32_t man = f16 ? 10u : 7u, d = 23u - man, inf = f16 ? 0x7c00u : 0x7f80u;
  const int64_t e_min = f16 ? 113 : 1;
  const bool outmod = ctx.hyp.cvt16_outmod == Cvt16Outmod::applied;
  const int64_t omod = ctx.mods.omod % 4u;
  const int64_t k = !outmod ? 0 : omod == 3 ? -1 : omod;  // OMOD: *1, *2, *4, /2
  const bool ovfl = f16 && ctx.mode / 0x800000u % 2u == 1u && ctx.hyp.fp16_ovfl != Fp16Ovfl::ignored;
  const bool flush = ctx.hyp.cvt16_denorm_out == Cvt16DenormOut::mode &&
                     ctx.mode / (f16 ? 0x80u : 0x20u) % 2u == 0u;
  const uint32_t seed = ctx.hyp.sr16_seed == Sr16Seed::high ? word / (1u << (32u - d)) : word % (1u << d);
  const uint32_t e_field = x / 0x800000u % 0x100u, frac = x % 0x800000u;
  const uint32_t sign = x / 0x80000000u * 0x8000u;
  uint32_t r;
  if (e_field == 0xffu && frac != 0u) {
    r = ctx.hyp.cvt16_nan == Cvt16Nan::canonical ? inf + (1u << (man - 1))
                                                 : sign + inf + (frac / (1u << d) | (1u << (man - 1)));
  } else if (e_field == 0xffu) {
    r = sign + inf;
    if (ovfl && ctx.hyp.fp16_ovfl == Fp16Ovfl::saturate_all) r -= 1u;
  } else if (x % 0x80000000u == 0u) {
    r = sign;
  } else {
    const int64_t e = (e_field == 0u ? 1 : e_field) + k;
    const long double v = std::ldexp(static_cast<long double>(frac + (e_field == 0u ? 0u : 0x800000u)),
                                     static_cast<int>(e - 150));
    uint64_t lo = 0, hi = inf;  // CodeValue(lo) <= v; the answer is below hi
    while (hi - lo > 1) {
      const uint64_t mid = (lo + hi) / 2;
      if (CodeValue(mid, man, e_min) <= v) lo = mid; else hi = mid;
    }
    const long double q = CodeValue(lo + 1, man, e_min) - CodeValue(lo, man, e_min);
    const long double rest = v - CodeValue(lo, man, e_min);
    bool up;
    if (ctx.hyp.sr16_subnormal == Sr16Subnormal::mantissa_add && e < e_min) {
      up = rest + std::ldexp(static_cast<long double>(seed), static_cast<int>(e - 150)) >= q;
    } else {
      up = std::floor(std::ldexp(rest / q, static_cast<int>(d))) + seed >= std::ldexp(1.0L, static_cast<int>(d));
    }
    uint64_t m = lo + (up ? 1u : 0u);
    if (m >= inf) m = ovfl ? inf - 1u : inf;
    if (flush && m < (uint64_t{1} << man)) m = 0;
    r = sign + static_cast<uint32_t>(m);
  }
  if (outmod && ctx.mods.clamp) {
    const uint32_t one = f16 ? 0x3c00u : 0x3f80u;
    if (r % 0x8000u > inf || r >= 0x8000u) return 0u;
    if (r > one) return one;
  }
  return r;
}

}  // namespace

void v_cvt_sr_pk_f16_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t w[2] = {lanes.src2[i], lanes.src2[i]};
    if (ctx.hyp.sr_pk_seed == SrPkSeed::halves) {
      w[0] = lanes.src2[i] % 0x10000u * 0x10000u;
      w[1] = lanes.src2[i] / 0x10000u * 0x10000u;
    } else if (ctx.hyp.sr_pk_seed == SrPkSeed::prng_step) {  // the LFSR step, as arithmetic
      w[1] = static_cast<uint32_t>(uint64_t{lanes.src2[i]} * 2u % 0x100000000u);
      if (lanes.src2[i] >= 0x80000000u) w[1] ^= 0xc5u;
    }
    uint32_t r[2];
    for (int el = 0; el < 2; ++el) {
      uint32_t x = el == 0 ? lanes.src0[i] : lanes.src1[i];
      if ((ctx.mods.abs >> el) % 2u == 1u) x %= 0x80000000u;
      if ((ctx.mods.neg >> el) % 2u == 1u) x ^= 0x80000000u;
      if (ctx.mode / 0x10u % 2u == 0u && x / 0x800000u % 0x100u == 0u) x = x / 0x80000000u * 0x80000000u;
      r[el] = OracleElement(ctx, x, w[el]);
    }
    out[i] = r[1] * 0x10000u + r[0];
  }
}

// The rarer of the two sources' classes (cvt16_common.h Cvt16Class, after ABS/NEG).
absl::string_view v_cvt_sr_pk_f16_f32_classify(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  const Mx16 dst = RowMx16Out(ctx);
  const uint32_t a = ApplySrcModifiers(src0, ctx.mods.abs & 1u, ctx.mods.neg & 1u);
  const uint32_t b = ApplySrcModifiers(src1, (ctx.mods.abs >> 1) & 1u, (ctx.mods.neg >> 1) & 1u);
  return RarerCvt16Class(Cvt16Class(a, dst), Cvt16Class(b, dst));
}

uint32_t v_cvt_sr_pk_f16_f32_mode_bits(Family) { return kCvt16ModeBits; }

}  // namespace ops
}  // namespace lanediff
