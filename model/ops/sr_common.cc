#include "model/ops/sr_common.h"

#include "model/fp/oracle.h"

namespace lanediff {
namespace ops {
namespace {

// The inner loop for one format kind and one rounding reading. Only src0's ABS/NEG are
// applied: the MODE[4] input flush cannot change an 8-bit float result (fp8.h explains; the
// oracle applies it and the cross-checks confirm).
template <Fp8Kind kKind, bool kLiteral>
inline void SrLoop(const Fp8Params& p, const SrUniform& u, const uint32_t* __restrict src0,
                   const uint32_t* __restrict src1, const uint32_t* __restrict old,
                   uint32_t* __restrict out, size_t n) {
  const uint32_t abs_and = u.src0.abs_and;
  const uint32_t neg_xor = u.src0.neg_xor;
  const uint32_t seed_shift = u.seed_shift;
  const uint32_t byte_shift = u.byte_shift;
  const uint32_t keep = ~(0xffu << byte_shift);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t x = (src0[i] & abs_and) ^ neg_xor;
    const uint32_t seed = src1[i] >> seed_shift;
    const uint32_t b = kLiteral ? F32ToFp8SrLiteralK<kKind>(x, seed, p)
                                : F32ToFp8SrCarryTruncateK<kKind>(x, seed, p);
    out[i] = (old[i] & keep) | (b << byte_shift);
  }
}

LANEDIFF_KERNEL
void SrKernel(bool literal, Fp8Params p, const SrUniform& u, const uint32_t* __restrict src0,
              const uint32_t* __restrict src1, const uint32_t* __restrict old,
              uint32_t* __restrict out, size_t n) {
  switch (p.kind) {
    case Fp8Kind::ocp:
      return literal ? SrLoop<Fp8Kind::ocp, true>(p, u, src0, src1, old, out, n)
                     : SrLoop<Fp8Kind::ocp, false>(p, u, src0, src1, old, out, n);
    case Fp8Kind::fnuz:
      return literal ? SrLoop<Fp8Kind::fnuz, true>(p, u, src0, src1, old, out, n)
                     : SrLoop<Fp8Kind::fnuz, false>(p, u, src0, src1, old, out, n);
    case Fp8Kind::unsigned_:
      return literal ? SrLoop<Fp8Kind::unsigned_, true>(p, u, src0, src1, old, out, n)
                     : SrLoop<Fp8Kind::unsigned_, false>(p, u, src0, src1, old, out, n);
  }
}

}  // namespace

SrUniform DecodeSr(const OpContext& ctx, const Fp8Format& format, uint32_t seed_shift) {
  SrUniform u{};
  u.format = &format;
  u.options.nan_sign_preserving = ctx.hyp.fp8_nan == Fp8Nan::sign_preserving;
  u.options.saturate_finite = (ctx.mode & kModeFp16OvflBit) != 0 &&
                              ctx.hyp.fp16_ovfl == Fp16Ovfl::saturate_finite;
  u.seed_shift = seed_shift;
  u.byte_shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  u.src0 = DecodeSrc0(ctx);
  u.literal = ctx.hyp.sr_rounding == SrRounding::literal;
  return u;
}

void SrBatch(const SrUniform& u, const LaneView& lanes, uint32_t* out) {
  const Fp8Params p = MakeFp8Params(*u.format, u.options);
  SrKernel(u.literal, p, u, lanes.src0, lanes.src1, lanes.vdst_old, out, lanes.size);
}

void SrBatchOracle(const SrUniform& u, const LaneView& lanes, uint32_t* out) {
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t x = lanes.src0[i];
    if (u.src0.abs_and != 0xffffffffu) x &= 0x7fffffffu;
    if (u.src0.neg_xor != 0) x ^= 0x80000000u;
    if (!u.src0.keep_denormals && ((x >> 23) & 0xff) == 0) x &= 0x80000000u;
    const uint32_t seed = lanes.src1[i] >> u.seed_shift;
    const uint32_t b = u.literal ? OracleF32ToFp8Literal(x, seed, *u.format, u.options)
                                 : OracleF32ToFp8Sr(x, seed, *u.format, u.options);
    const uint32_t byte = u.byte_shift / 8;
    uint32_t d = lanes.vdst_old[i];
    d &= ~(0xffu << (8 * byte));
    out[i] = d | (b << (8 * byte));
  }
}

}  // namespace ops
}  // namespace lanediff
