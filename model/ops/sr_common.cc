#include "model/ops/sr_common.h"

#include "model/fp/oracle.h"
#include "model/ops/input_class.h"

namespace lanediff {
namespace ops {
namespace {

// The inner loop for one format kind and one rounding reading. Only src0's ABS/NEG are
// applied: the MODE[4] input flush cannot change an 8-bit float result (fp8.h explains; the
// oracle applies it and the cross-checks confirm).
// kFull: the readings that cost extra per lane (sr_seed=low, sr_overflow=before_rounding, Inf
// saturation) may be on; false keeps the default readings' loop as lean as before them.
template <Fp8Kind kKind, SrRounding kRounding, bool kFull>
LANEDIFF_KERNEL_INLINE void SrLoop(const Fp8Params& p, const SrUniform& u, const uint32_t* __restrict src0,
                   const uint32_t* __restrict src1, const uint32_t* __restrict old,
                   uint32_t* __restrict out, size_t n) {
  const uint32_t abs_and = u.src0.abs_and;
  const uint32_t neg_xor = u.src0.neg_xor;
  const uint32_t seed_shift = u.seed_shift;
  const uint32_t seed_mask = u.seed_mask;
  const bool seed_low = u.seed_low;
  const uint32_t byte_shift = u.byte_shift;
  const uint32_t keep = ~(0xffu << byte_shift);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t x = (src0[i] & abs_and) ^ neg_xor;
    const uint32_t seed = kFull ? (src1[i] >> seed_shift) & seed_mask : src1[i] >> seed_shift;
    uint32_t b;
    if constexpr (kRounding == SrRounding::literal) {
      b = F32ToFp8SrLiteralK<kKind, kFull>(x, seed, p);
    } else if constexpr (kRounding == SrRounding::exact_subnormal) {
      b = F32ToFp8SrExactSubnormalK<kKind>(x, src1[i], seed_low, p);
    } else {
      b = F32ToFp8SrCarryTruncateK<kKind, kFull>(x, seed, p);
    }
    out[i] = (old[i] & keep) | (b << byte_shift);
  }
}

template <Fp8Kind kKind>
LANEDIFF_KERNEL_INLINE void SrKindLoop(const Fp8Params& p, const SrUniform& u, const uint32_t* __restrict src0,
                       const uint32_t* __restrict src1, const uint32_t* __restrict old,
                       uint32_t* __restrict out, size_t n) {
  const bool full = u.seed_low || u.options.overflow_before_rounding || u.options.saturate_inf;
  switch (u.rounding) {
    case SrRounding::carry_truncate:
      return full ? SrLoop<kKind, SrRounding::carry_truncate, true>(p, u, src0, src1, old, out, n)
                  : SrLoop<kKind, SrRounding::carry_truncate, false>(p, u, src0, src1, old, out, n);
    case SrRounding::literal:
      return full ? SrLoop<kKind, SrRounding::literal, true>(p, u, src0, src1, old, out, n)
                  : SrLoop<kKind, SrRounding::literal, false>(p, u, src0, src1, old, out, n);
    case SrRounding::exact_subnormal:
      return SrLoop<kKind, SrRounding::exact_subnormal, true>(p, u, src0, src1, old, out, n);
  }
}

LANEDIFF_KERNEL
void SrKernel(Fp8Params p, const SrUniform& u, const uint32_t* __restrict src0,
              const uint32_t* __restrict src1, const uint32_t* __restrict old,
              uint32_t* __restrict out, size_t n) {
  switch (p.kind) {
    case Fp8Kind::ocp: return SrKindLoop<Fp8Kind::ocp>(p, u, src0, src1, old, out, n);
    case Fp8Kind::fnuz: return SrKindLoop<Fp8Kind::fnuz>(p, u, src0, src1, old, out, n);
    case Fp8Kind::unsigned_: return SrKindLoop<Fp8Kind::unsigned_>(p, u, src0, src1, old, out, n);
  }
}

}  // namespace

SrUniform DecodeSr(const OpContext& ctx, const Fp8Format& format, uint32_t seed_shift) {
  SrUniform u{};
  u.format = &format;
  u.options.nan_sign_preserving = ctx.hyp.fp8_nan == Fp8Nan::sign_preserving;
  u.options.nan_sign_7f = ctx.hyp.fp8_nan == Fp8Nan::sign_7f;
  const bool ovfl_bit = (ctx.mode & kModeFp16OvflBit) != 0;
  u.options.saturate_finite = ovfl_bit && ctx.hyp.fp16_ovfl != Fp16Ovfl::ignored;
  u.options.saturate_inf = ovfl_bit && ctx.hyp.fp16_ovfl == Fp16Ovfl::saturate_all;
  u.options.overflow_before_rounding = ctx.hyp.sr_overflow == SrOverflow::before_rounding;
  u.seed_low = ctx.hyp.sr_seed == SrSeed::low;
  u.seed_shift = u.seed_low ? 0u : seed_shift;
  u.seed_mask = u.seed_low ? (1u << (32u - seed_shift)) - 1u : 0xffffffffu;
  u.byte_shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  u.src0 = DecodeSrc0(ctx);
  u.rounding = ctx.hyp.sr_rounding;
  return u;
}

void SrBatch(const SrUniform& u, const LaneView& lanes, uint32_t* out) {
  const Fp8Params p = MakeFp8Params(*u.format, u.options);
  SrKernel(p, u, lanes.src0, lanes.src1, lanes.vdst_old, out, lanes.size);
}

// Written apart from the fast path: the seed width comes from the format, not the uniform.
void SrBatchOracle(const SrUniform& u, const LaneView& lanes, uint32_t* out) {
  const uint32_t width = 23u - static_cast<uint32_t>(u.format->man_bits);  // seed bits
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t x = lanes.src0[i];
    if (u.src0.abs_and != 0xffffffffu) x &= 0x7fffffffu;
    if (u.src0.neg_xor != 0) x ^= 0x80000000u;
    if (!u.src0.keep_denormals && ((x >> 23) & 0xff) == 0) x &= 0x80000000u;
    const uint32_t s1 = lanes.src1[i];
    const uint32_t seed = u.seed_low ? s1 % (1u << width) : s1 / (1u << (32u - width));
    uint32_t b = 0;
    switch (u.rounding) {
      case SrRounding::carry_truncate:
        b = OracleF32ToFp8Sr(x, seed, *u.format, u.options);
        break;
      case SrRounding::literal:
        b = OracleF32ToFp8Literal(x, seed, *u.format, u.options);
        break;
      case SrRounding::exact_subnormal:
        b = OracleF32ToFp8SrExactSubnormal(x, s1, u.seed_low, *u.format, u.options);
        break;
    }
    const uint32_t byte = u.byte_shift / 8;
    uint32_t d = lanes.vdst_old[i];
    d &= ~(0xffu << (8 * byte));
    out[i] = d | (b << (8 * byte));
  }
}

absl::string_view ClassifySr(const OpContext& ctx, const Fp8Shape& shape, uint32_t src0,
                             uint32_t src1) {
  const Src0Uniform u = DecodeSrc0(ctx);
  const uint32_t x = (src0 & u.abs_and) ^ u.neg_xor;  // modifiers, no flush
  if (absl::string_view special = SpecialInputClass(x); !special.empty()) return special;
  const uint32_t mag = x & ~kF32SignMask;
  const Fp8Format& f = *shape.format;
  if (mag > Fp8MaxFiniteF32Bits(f)) return "overflow";
  const uint32_t seed = src1 >> shape.seed_shift;
  if (F32Man(x) + seed >= (1u << 23)) return "sr_carry";
  if (IsFp8QuantumTie(x, f)) return "tie";
  return "normal";
}

}  // namespace ops
}  // namespace lanediff
