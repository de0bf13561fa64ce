// The scaled SR op: one f32 (S0) over the block scale S2, rounded stochastically with the seed
// S1 -> one 8-bit float into the byte of VDST that OPSEL[3:2] selects, the other bytes the old
// VDST's (docs/semantics.md §11.8). The rows naming this op (gfx950 only):
// v_cvt_scalef32_sr_fp8_f32 (OCP E4M3, Fp8Slot::fp8) and v_cvt_scalef32_sr_bf8_f32 (OCP E5M2,
// Fp8Slot::bf8).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_SCALEF32_SR_FP8_F32, as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py; the BF8 entry reads alike with bf8):
//
//   scale = 32'U(exponent(S2.f32));
//   tmp = f32_to_fp8_sr_scale(S0.f32, S1.u32, scale.u8);
//   dstbyte = OPSEL[3 : 2].i32 * 8;
//   VGPR[laneId][VDST.u32][dstbyte + 7 : dstbyte].b8 = tmp;
//   // Other destination bits are preserved
//
// f32_to_fp8_sr_scale is named but not defined there. The model (model/fp/mx.h
// F32ToFp8ScaledSr): S0 after its ABS then NEG, scaled exactly as the RNE encoders scale
// (mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in), then the seed added
// and the sum truncated per mx_sr_round (S1[31:12] for E4M3, S1[31:11] for E5M2 on a normal
// result under both readings); special and overflow bytes as the RNE encoders' (fp8_nan,
// mx_fp8_overflow or mx_bf8_overflow). No MODE bit is read.
//
// Departures and unknowns: NEG/ABS on S2 (LLVM accepts them) change nothing under the default
// exponent reading; LLVM refuses NEG/ABS on the seed; OPSEL[1:0] (accepted and printed) and
// OMOD/CLAMP (refused) have no effect (U, fuzzed). rocjitsu's scaled SR encoder reads
// MODE.FP16_OVFL; no reading of that is modelled (the HIP host model reads no MODE).
#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
// The seed position reported for the lane generator and triage: the f32 fraction bits the
// format drops (S1[31:12] E4M3, S1[31:11] E5M2).
Fp8Shape v_cvt_scalef32_sr_fp8_f32_output(const OpContext& ctx) {
  const Fp8Format& f = RowFp8Format(ctx);
  return {&f, static_cast<uint32_t>(9 + f.man_bits)};
}

void v_cvt_scalef32_sr_fp8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const Fp8Params p = MakeFp8Params(f, e.fp8);
  const uint32_t shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
  const uint32_t keep = ~(0xffu << shift);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t b =
        F32ToFp8ScaledSr(SourceAfterAbsNeg(ctx, lanes.src0[i], 0),
                         SourceAfterAbsNeg(ctx, lanes.src2[i], 2), lanes.src1[i], 23, p, e.options);
    out[i] = (lanes.vdst_old[i] & keep) | (b << shift);
  }
}

// Written apart from the fast path: modifiers bit by bit, the exact oracle, the byte spelled.
void v_cvt_scalef32_sr_fp8_f32_oracle(const OpContext& ctx, const LaneView& lanes,
                                      uint32_t* out) {
  const Fp8Format& f = RowFp8Format(ctx);
  const MxScaledEncode e = MxScaledEncodeFor(ctx.hyp, f);
  const uint32_t byte = (ctx.mods.opsel / 4) % 4;
  auto mods = [&](uint32_t x, int i) {
    if ((ctx.mods.abs >> i) & 1) x &= 0x7fffffffu;
    if ((ctx.mods.neg >> i) & 1) x ^= 0x80000000u;
    return x;
  };
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t b = OracleToFp8ScaledSr(mods(lanes.src0[i], 0), MxSource::f32, lanes.src1[i],
                                           mods(lanes.src2[i], 2), f, e.fp8, e.options);
    uint32_t d = lanes.vdst_old[i];
    d &= ~(0xffu << (8 * byte));
    out[i] = d | (b << (8 * byte));
  }
}

// The class of S0 after its modifiers: nan, inf, zero, denormal, normal. Neither the seed nor
// the scale is seen here.
absl::string_view v_cvt_scalef32_sr_fp8_f32_classify(const OpContext& ctx, uint32_t src0,
                                                     uint32_t) {
  const absl::string_view special = SpecialInputClass(SourceAfterAbsNeg(ctx, src0, 0));
  return special.empty() ? "normal" : special;
}

uint32_t v_cvt_scalef32_sr_fp8_f32_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
