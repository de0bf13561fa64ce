// The scaled FP6/BF6 encoder op from 32 packed 16-bit floats: the 16-dword VGPR tuple S0
// (element 2k in bits 15:0 of dword k, element 2k+1 in bits 31:16; f16 or bf16 by the row's
// SrcRole) over the block scale S1 -> 32 six-bit codes, round to nearest even, field i at bits
// 6i+5:6i of the 6-dword VGPR tuple VDST (docs/semantics.md §11.19). The rows naming this op
// (gfx950 only): v_cvt_scalef32_pk32_fp6_f16 (SrcRole::f16x2_x16, Fp8Slot::fp6: OCP MX FP6
// E2M3), v_cvt_scalef32_pk32_bf6_f16 (f16x2_x16, Fp8Slot::bf6: OCP MX FP6 E3M2),
// v_cvt_scalef32_pk32_fp6_bf16 (bf16x2_x16, fp6) and v_cvt_scalef32_pk32_bf6_bf16 (bf16x2_x16,
// bf6).
//
// AMD's pseudocode (CDNA4 ISA, the V_CVT_SCALEF32_PK32_* entries as extracted in tinygrad/tinygrad
// tinygrad/runtime/autogen/amd/cdna/str_pcode.py), in substance:
//
//   scale = 32'U(exponent(S1.f32));
//   for pass in 0 : 31 do
//     D[pass * 6 + 5 : pass * 6] = f16_to_fp6_scale(S0[pass * 16 + 15 : pass * 16].f16, scale.u8)
//   endfor
//
// (bf16 / bf6 rows: bf16_to_fp6_scale, f16_to_bf6_scale, bf16_to_bf6_scale), so element i is the
// 16 bits at 16i of the 512-bit tuple: dword i / 2, its low half for even i. LLVM agrees: its
// intrinsic llvm.amdgcn.cvt.scalef32.pk32.fp6.f16(<32 x half>, float) -> <6 x i32> takes the
// vector in v[N:N+15] (llc-22 -mcpu=gfx950 loads a <32 x half> kernel argument's 64 bytes with
// s_load_dwordx16 and moves them unchanged into v[0:15]: element j at bits 16j+15:16j). The
// helpers are named, not defined. The model: each element widened exactly to f32
// (pk16_common.h Pk16ToF32), then model/fp/mx.h F32ToMxScaledRne as the interleaved FP6/BF6
// encoders (§11.16) and the scaled FP4 encoder from 16-bit floats (§11.11), under the same
// readings: mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in, mx_fp4_nan
// for NaN sources (FP6 has no NaN code), and mx_pk16_neg for where S0's NEG/ABS act, on every
// dword of the tuple. Infinities and overflows saturate to sign|max (0x1f). No MODE bit is read.
//
// Departures and unknowns: NEG/ABS (LLVM refuses them on both sources here) are applied as the
// scaled FP4 encoder from 16-bit floats applies them (U, fuzzed); OPSEL (LLVM has no op_sel
// here) and the old VDST: no effect (U, fuzzed).
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/fp6_tuple.h"
#include "model/ops/input_class.h"
#include "model/ops/op_table.h"
#include "model/ops/pk16_common.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {
namespace {

constexpr int kDwords = 16;    // S0's tuple: two 16-bit elements each

}  // namespace

Fp8Shape v_cvt_scalef32_pk32_fp6_f16_output(const OpContext&) { return {nullptr, 0}; }  // fp6

void v_cvt_scalef32_pk32_fp6_f16(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxEncodeParams p = MakeMxEncodeParams(RowFp6Format(ctx), e.options);
  const SrcRole role = GetInstrInfo(ctx.instr).src[0];
  const bool flush = e.options.flush_denormal_in;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t s = SourceAfterAbsNeg(ctx, lanes.src1[i], 1);
    // The 192 bits as three 64-bit words; the 12-bit pair of dword k at bit 12k straddles two
    // when k is 5 or 10.
    uint64_t bits[3] = {0, 0, 0};
    for (int k = 0; k < kDwords; ++k) {
      const uint32_t x = Pk16AfterAbsNeg(ctx, TupleDword(lanes, 0, i, k), 0);
      const uint64_t pair = F32ToMxScaledRne(Pk16ToF32(x, role, flush), s, e.read, p) |
                            uint64_t{F32ToMxScaledRne(Pk16ToF32(x >> 16, role, flush), s, e.read, p)} << 6;
      const int at = 12 * k, w = at / 64, sh = at % 64;
      bits[w] |= pair << sh;
      if (sh > 52) bits[w + 1] |= pair >> (64 - sh);
    }
    uint32_t* d = out + i * kFp6TupleDwords;
    for (int w = 0; w < kFp6TupleDwords; ++w) d[w] = static_cast<uint32_t>(bits[w / 2] >> (32 * (w % 2)));
  }
}

// Written apart from the fast path: each element's 16 bits taken at bit 16 * pass of the tuple,
// modifiers bit by bit per reading, the exact oracle on the 16-bit pattern itself, every output
// bit placed one at a time from the pseudocode's offset pass * 6.
void v_cvt_scalef32_pk32_fp6_f16_oracle(const OpContext& ctx, const LaneView& lanes,
                                        uint32_t* out) {
  const MxScaledElemEncode e = MxScaledElemEncodeFor(ctx.hyp);
  const MxElemFormat& f = RowFp6Format(ctx);
  const MxSource source = Pk16Source(GetInstrInfo(ctx.instr).src[0]);
  const bool abs0 = (ctx.mods.abs & 1) != 0, neg0 = (ctx.mods.neg & 1) != 0;
  // mx_pk16_neg: NEG[0]/ABS[0] reach the even elements (a dword's bits 15:0) unless the reading
  // is high_half, the odd ones (bits 31:16) unless it is low_half.
  auto modified = [&](int pass) {
    return pass % 2 == 0 ? ctx.hyp.mx_pk16_neg != MxPk16Neg::high_half
                         : ctx.hyp.mx_pk16_neg != MxPk16Neg::low_half;
  };
  // mx_denorm_in=flush on the 16-bit pattern (f16: exponent bits 14:10 zero; bf16: bits 14:7).
  const uint32_t exp_field = source == MxSource::f16 ? 0x7c00u : 0x7f80u;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t* d = out + i * kFp6TupleDwords;
    for (int w = 0; w < kFp6TupleDwords; ++w) d[w] = 0;
    uint32_t s = lanes.src1[i];
    if ((ctx.mods.abs >> 1) & 1) s &= 0x7fffffffu;
    if ((ctx.mods.neg >> 1) & 1) s ^= 0x80000000u;
    const size_t n = lanes.shape.src_dwords[0];
    for (int pass = 0; pass < 2 * kDwords; ++pass) {
      const size_t dword = static_cast<size_t>(pass / 2) < n ? static_cast<size_t>(pass / 2) : 0;
      uint32_t h = (lanes.src0[i * n + dword] >> (16 * (pass % 2))) & 0xffffu;
      if (modified(pass) && abs0) h &= 0x7fffu;
      if (modified(pass) && neg0) h ^= 0x8000u;
      if (e.options.flush_denormal_in && (h & exp_field) == 0) h &= 0x8000u;
      const uint32_t code = OracleToMxScaled(h, source, s, f, e.options, e.read);
      for (int b = 0; b < 6; ++b) {
        const int bit = pass * 6 + b;
        d[bit / 32] |= ((code >> b) & 1u) << (bit % 32);
      }
    }
  }
}

// The rarer class of the tuple's first two elements (dword 0) after their modifiers
// (ClassifyPk16Source; the classifier is given the tuple's first dword).
absl::string_view v_cvt_scalef32_pk32_fp6_f16_classify(const OpContext& ctx, uint32_t src0,
                                                       uint32_t) {
  return ClassifyPk16Source(ctx, src0);
}

uint32_t v_cvt_scalef32_pk32_fp6_f16_mode_bits(Family) { return 0; }

}  // namespace ops
}  // namespace lanediff
