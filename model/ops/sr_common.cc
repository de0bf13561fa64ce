#include "model/ops/sr_common.h"

#include "model/fp/oracle.h"

namespace lanediff {
namespace ops {
namespace {

template <bool kLiteral>
inline void SrLoop(const Fp8Params& p, const SrUniform& u, const uint32_t* __restrict src0,
                   const uint32_t* __restrict src1, const uint32_t* __restrict old,
                   uint32_t* __restrict out, size_t n) {
  const Src0Uniform s0 = u.src0;
  const uint32_t seed_shift = u.seed_shift;
  const uint32_t byte_shift = u.byte_shift;
  const uint32_t keep = ~(0xffu << byte_shift);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t x = ResolveSrc0(src0[i], s0);
    const uint32_t seed = src1[i] >> seed_shift;
    const uint32_t b = kLiteral ? F32ToFp8SrLiteral(x, seed, p) : F32ToFp8SrCarryTruncate(x, seed, p);
    out[i] = (old[i] & keep) | (b << byte_shift);
  }
}

LANEDIFF_KERNEL
void SrCarryKernel(Fp8Params p, const SrUniform& u, const uint32_t* __restrict src0,
                   const uint32_t* __restrict src1, const uint32_t* __restrict old,
                   uint32_t* __restrict out, size_t n) {
  SrLoop<false>(p, u, src0, src1, old, out, n);
}

LANEDIFF_KERNEL
void SrLiteralKernel(Fp8Params p, const SrUniform& u, const uint32_t* __restrict src0,
                     const uint32_t* __restrict src1, const uint32_t* __restrict old,
                     uint32_t* __restrict out, size_t n) {
  SrLoop<true>(p, u, src0, src1, old, out, n);
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
  if (u.literal) {
    SrLiteralKernel(p, u, lanes.src0, lanes.src1, lanes.vdst_old, out, lanes.size);
  } else {
    SrCarryKernel(p, u, lanes.src0, lanes.src1, lanes.vdst_old, out, lanes.size);
  }
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
