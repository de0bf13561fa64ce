// v_cvt_pk_u8_f32: convert src0 (f32) to an unsigned byte and pack it into src2 at byte S1[1:0].
//
// AMD's pseudocode (the CDNA 5 ISA page for V_CVT_PK_U8_F32; the same on every
// generation that has the instruction):
//
//   tmp = (S2.u32 & 32'U(~(0xff << (S1.u32[1 : 0].u32 * 8U))));
//   tmp = (tmp | ((32'U(f32_to_u8(S0.f32)) & 255U) << (S1.u32[1 : 0].u32 * 8U)));
//   D0.u32 = tmp
//
// Where the model departs or fills gaps, and why (docs/semantics.md §3):
//   - f32_to_u8 is not defined by the page. The model rounds with MODE[1:0] (the f32 round
//     mode; L, L+ on gfx12) and clamps to [0, 255]; NaN -> 0, +Inf -> 255, negatives -> 0.
//     Hypothesis pk_u8_rounding=truncate rounds toward zero whatever MODE says (tinygrad, gem5);
//     pk_u8_nan=max gives 255 for NaN (tinygrad). docs/semantics.md §3 and §9.
//   - f32 denormal inputs are flushed to a signed zero when MODE[4] is 0 (L).
//   - src0 ABS then NEG apply to the float before converting (L). NEG/ABS on src1 and src2,
//     CLAMP, OMOD and OPSEL have no effect (U: the default reading; the fuzzer probes them).
//   - The other three bytes come from S2, never from the old VDST (C).
#include <cstddef>
#include <cstdint>

#include "model/fp/oracle.h"
#include "model/fp/u8.h"
#include "model/ops/input_class.h"
#include "model/ops/kernel.h"
#include "model/ops/op_table.h"

namespace lanediff {
namespace ops {
namespace {

RoundMode PkU8RoundMode(const OpContext& ctx) {
  if (ctx.hyp.pk_u8_rounding == PkU8Rounding::truncate) return RoundMode::toward_zero;
  return static_cast<RoundMode>(ctx.mode & kModeRoundF32Mask);
}

template <RoundMode kRm, bool kNanMax>
LANEDIFF_KERNEL_INLINE void PkU8Loop(Src0Uniform u, const uint32_t* __restrict src0,
                     const uint32_t* __restrict src1, const uint32_t* __restrict src2,
                     uint32_t* __restrict out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t x = ResolveSrc0(src0[i], u);
    const uint32_t v = kNanMax ? F32ToU8NanMaxFixed<kRm>(x) : F32ToU8Fixed<kRm>(x);
    const uint32_t shift = (src1[i] & 3u) * 8u;
    out[i] = (src2[i] & ~(0xffu << shift)) | (v << shift);
  }
}

template <bool kNanMax>
LANEDIFF_KERNEL_INLINE void PkU8ModeLoop(Src0Uniform u, RoundMode rm, const uint32_t* __restrict src0,
                         const uint32_t* __restrict src1, const uint32_t* __restrict src2,
                         uint32_t* __restrict out, size_t n) {
  switch (rm) {
    case RoundMode::nearest_even:
      return PkU8Loop<RoundMode::nearest_even, kNanMax>(u, src0, src1, src2, out, n);
    case RoundMode::toward_pos:
      return PkU8Loop<RoundMode::toward_pos, kNanMax>(u, src0, src1, src2, out, n);
    case RoundMode::toward_neg:
      return PkU8Loop<RoundMode::toward_neg, kNanMax>(u, src0, src1, src2, out, n);
    case RoundMode::toward_zero:
      return PkU8Loop<RoundMode::toward_zero, kNanMax>(u, src0, src1, src2, out, n);
  }
}

// One dispatch per batch on the round mode and the NaN reading; each case is a branch-free
// loop.
LANEDIFF_KERNEL
void PkU8Kernel(Src0Uniform u, RoundMode rm, bool nan_max, const uint32_t* __restrict src0,
                const uint32_t* __restrict src1, const uint32_t* __restrict src2,
                uint32_t* __restrict out, size_t n) {
  if (nan_max) return PkU8ModeLoop<true>(u, rm, src0, src1, src2, out, n);
  PkU8ModeLoop<false>(u, rm, src0, src1, src2, out, n);
}

}  // namespace

void v_cvt_pk_u8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  PkU8Kernel(DecodeSrc0(ctx), PkU8RoundMode(ctx), ctx.hyp.pk_u8_nan == PkU8Nan::max, lanes.src0,
             lanes.src1, lanes.src2, out, lanes.size);
}

void v_cvt_pk_u8_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const RoundMode rm = PkU8RoundMode(ctx);
  const bool nan_max = ctx.hyp.pk_u8_nan == PkU8Nan::max;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t x = lanes.src0[i];
    if (ctx.mods.abs & 1) x &= 0x7fffffffu;
    if (ctx.mods.neg & 1) x ^= 0x80000000u;
    if (!(ctx.mode & kModeDenormF32InBit) && ((x >> 23) & 0xff) == 0) x &= 0x80000000u;
    const uint32_t byte = lanes.src1[i] % 4;
    uint32_t d = lanes.src2[i];
    d &= ~(0xffu << (8 * byte));
    d |= OracleF32ToU8(x, rm, nan_max) << (8 * byte);
    out[i] = d;
  }
}

Fp8Shape v_cvt_pk_u8_f32_output(const OpContext&) { return {nullptr, 0}; }  // integer bytes

// nan, inf, zero, denormal; then overflow (a finite value above 255, which saturates under
// some round mode), tie (a positive n + 1/2 with n < 256: RNE, truncation and the round modes
// disagree), normal.
absl::string_view v_cvt_pk_u8_f32_classify(const OpContext& ctx, uint32_t src0, uint32_t) {
  const Src0Uniform u = DecodeSrc0(ctx);
  const uint32_t x = (src0 & u.abs_and) ^ u.neg_xor;  // modifiers, no flush
  if (absl::string_view special = SpecialInputClass(x); !special.empty()) return special;
  const uint32_t mag = x & ~kF32SignMask;
  if (F32Sign(x) != 0) return "normal";
  if (mag > 0x437f0000u) return "overflow";  // 255.0
  // n + 1/2 with n < 256: the bits below the units place are exactly 100..0.
  const int32_t units = 150 - static_cast<int32_t>(F32Exp(x));  // fraction bits below 1
  if (units >= 1 && units <= 24) {
    const uint32_t below = F32Significand(x) & ((1u << units) - 1u);
    if (below == (1u << (units - 1))) return "tie";
  }
  return "normal";
}

// MODE[1:0] (the round mode, under pk_u8_rounding=mode) and MODE[4] (S0 input denormals).
uint32_t v_cvt_pk_u8_f32_mode_bits(Family) { return kModeRoundF32Mask | kModeDenormF32InBit; }

}  // namespace ops
}  // namespace lanediff
