#include "model/ops/pk_common.h"

#include <cstddef>
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/fp/oracle.h"
#include "model/ops/input_class.h"
#include "model/ops/kernel.h"

namespace lanediff {
namespace ops {
PkUniform DecodePk(const OpContext& ctx, const Fp8Format& format, bool clamp_saturates) {
  PkUniform u{};
  u.format = &format;
  u.options = Fp8EncodeOptionsFor(ctx.hyp, (ctx.mode & kModeFp16OvflBit) != 0,
                                  clamp_saturates && ctx.mods.clamp);
  const bool keep = (ctx.mode & kModeDenormF32InBit) != 0;
  for (int i = 0; i < 2; ++i) {
    u.src[i] = {((ctx.mods.abs >> i) & 1) ? ~kF32SignMask : 0xffffffffu,
                ((ctx.mods.neg >> i) & 1) ? kF32SignMask : 0u, keep};
  }
  u.half_shift = 16u * ((ctx.mods.opsel >> 3) & 1u);
  return u;
}

namespace {

template <Fp8Kind kKind>
LANEDIFF_KERNEL_INLINE void PkLoop(const Fp8Params& p, const PkUniform& u,
                                   const uint32_t* __restrict src0,
                                   const uint32_t* __restrict src1,
                                   const uint32_t* __restrict old, uint32_t* __restrict out,
                                   size_t n) {
  const uint32_t keep = ~(0xffffu << u.half_shift);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t lo = F32ToFp8RnePkK<kKind>(ResolveSrc0(src0[i], u.src[0]), p);
    const uint32_t hi = F32ToFp8RnePkK<kKind>(ResolveSrc0(src1[i], u.src[1]), p);
    out[i] = (old[i] & keep) | (((hi << 8) | lo) << u.half_shift);
  }
}

LANEDIFF_KERNEL void PkKernel(const Fp8Params& p, const PkUniform& u, const uint32_t* src0,
                              const uint32_t* src1, const uint32_t* old, uint32_t* out,
                              size_t n) {
  switch (p.kind) {
    case Fp8Kind::ocp: return PkLoop<Fp8Kind::ocp>(p, u, src0, src1, old, out, n);
    case Fp8Kind::fnuz: return PkLoop<Fp8Kind::fnuz>(p, u, src0, src1, old, out, n);
    case Fp8Kind::unsigned_: return PkLoop<Fp8Kind::unsigned_>(p, u, src0, src1, old, out, n);
  }
}

// The oracle's own source resolution: modifiers bit by bit, then the flush.
uint32_t OracleSource(uint32_t x, int i, const OpContext& ctx) {
  if ((ctx.mods.abs >> i) & 1) x &= 0x7fffffffu;
  if ((ctx.mods.neg >> i) & 1) x ^= 0x80000000u;
  if ((ctx.mode & kModeDenormF32InBit) == 0 && ((x >> 23) & 0xff) == 0) x &= 0x80000000u;
  return x;
}

}  // namespace

void PkBatch(const PkUniform& u, const LaneView& lanes, uint32_t* out) {
  const Fp8Params p = MakeFp8Params(*u.format, u.options);
  PkKernel(p, u, lanes.src0, lanes.src1, lanes.vdst_old, out, lanes.size);
}

// Written apart from the fast path: modifiers bit by bit, the exact oracle, the halves spelled.
void PkBatchOracle(const OpContext& ctx, const Fp8Format& format, bool clamp_saturates,
                   const LaneView& lanes, uint32_t* out) {
  const PkUniform u = DecodePk(ctx, format, clamp_saturates);
  const bool high = ((ctx.mods.opsel >> 3) & 1) != 0;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t lo = OracleF32ToFp8Rne(OracleSource(lanes.src0[i], 0, ctx), format, u.options);
    const uint32_t hi = OracleF32ToFp8Rne(OracleSource(lanes.src1[i], 1, ctx), format, u.options);
    const uint32_t packed = (hi << 8) | lo;
    out[i] = high ? (lanes.vdst_old[i] & 0x0000ffffu) | (packed << 16)
                  : (lanes.vdst_old[i] & 0xffff0000u) | packed;
  }
}

absl::string_view ClassifyPk(const OpContext& ctx, const Fp8Format& f, uint32_t src0,
                             uint32_t src1) {
  auto one = [&](uint32_t raw, int i) -> absl::string_view {
    uint32_t x = raw;
    if ((ctx.mods.abs >> i) & 1) x &= ~kF32SignMask;
    if ((ctx.mods.neg >> i) & 1) x ^= kF32SignMask;
    if (absl::string_view special = SpecialInputClass(x); !special.empty()) return special;
    if ((x & ~kF32SignMask) > Fp8MaxFiniteF32Bits(f)) return "overflow";
    if (IsFp8QuantumTie(x, f)) return "tie";
    return "normal";
  };
  const absl::string_view a = one(src0, 0), b = one(src1, 1);
  return a == "normal" ? b : a;
}

}  // namespace ops
}  // namespace lanediff
