// The packed f32 -> 16-bit float op: S0 and S1 each rounded once to nearest even into f16 (or
// bf16), S0's in VDST[15:0] and S1's in VDST[31:16] (docs/semantics.md §12). The rows naming
// this op (gfx950 only): v_cvt_pk_f16_f32 (OutputKind::f16) and v_cvt_pk_bf16_f32
// (OutputKind::bf16).
//
// AMD's pseudocode (CDNA4 ISA, V_CVT_PK_F16_F32; V_CVT_PK_BF16_F32 alike with f32_to_bf16, as
// extracted in tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py):
//
//   prev_mode = ROUND_MODE; ROUND_MODE = ROUND_NEAREST_EVEN
//   tmp[15 : 0].f16 = f32_to_f16(S0.f32); tmp[31 : 16].f16 = f32_to_f16(S1.f32)
//   D0 = tmp.b32; ROUND_MODE = prev_mode
//
// The model: each source after ABS then NEG and the MODE[4] input flush (as every f32 source
// here, docs/semantics.md §7), times OMOD's 2^k under cvt16_outmod=applied, rounded once to
// nearest even (model/fp/mx.h MxScaleF32To16 with a power-of-two scale operand; MODE's round
// field is not read); results below the smallest normal per cvt16_denorm_out, NaNs per
// cvt16_nan, f16 overflow per fp16_ovfl (MODE[23], as the fp8 family reads it), then CLAMP
// to [+0, 1.0] under cvt16_outmod=applied (a NaN gives +0 under MODE[8] DX10_CLAMP).
//
// Departures and unknowns: OMOD applied before the rounding (one rounding) rather than to the
// rounded half (they differ only where the half is a denormal or overflows; U); CLAMP's -0 gives
// +0 (U); OPSEL, S2 and the old VDST have no effect (LLVM refuses op_sel; fuzzed).
#include "model/fp/f32.h"
#include "model/fp/mx.h"
#include "model/fp/mx_oracle.h"
#include "model/ops/cvt16_common.h"
#include "model/ops/op_table.h"

namespace lanediff {
namespace ops {
namespace {

// OMOD (none, *2, *4, /2) as the f32 scale operand whose exponent field is the E8M0 byte of
// 2^k: x times it is exact, so the one rounding is the conversion's.
constexpr uint32_t kOmodScale[4] = {0x3f800000u, 0x40000000u, 0x40800000u, 0x3f000000u};

struct PkUniform {
  Cvt16Uniform c;
  uint32_t scale;
  bool clamp;
  bool dx10;
};
PkUniform DecodePk16(const OpContext& ctx) {
  const bool outmod = ctx.hyp.cvt16_outmod == Cvt16Outmod::applied;
  return {DecodeCvt16(ctx), kOmodScale[outmod ? ctx.mods.omod & 3u : 0u],
          outmod && ctx.mods.clamp,
          ctx.target->family != Family::gfx9 || (ctx.mode & kCvt16Dx10ClampBit) != 0};
}

// CLAMP on a 16-bit result: [+0, 1.0]; a NaN gives +0 under DX10_CLAMP.
uint32_t Clamp16(uint32_t r, Mx16 dst, bool dx10) {
  const uint32_t inf = dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  const uint32_t one = dst == Mx16::f16 ? 0x3c00u : 0x3f80u;
  if ((r & 0x7fffu) > inf) return dx10 ? 0u : r;
  if ((r & 0x8000u) != 0) return 0u;
  return r > one ? one : r;
}

uint32_t Half(const OpContext& ctx, const PkUniform& u, int i, uint32_t word) {
  const uint32_t x = Cvt16Source(ctx, i, word, u.c.keep_input_denormals);
  uint32_t r = MxScaleF32To16(x, u.scale, MxScaleRead::exponent, u.c.options, u.c.dst);
  r = Cvt16Finish(x, r, u.c);
  return u.clamp ? Clamp16(r, u.c.dst, u.dx10) : r;
}

}  // namespace

Fp8Shape v_cvt_pk_f16_f32_output(const OpContext&) { return {nullptr, 0}; }  // f16/bf16

void v_cvt_pk_f16_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const PkUniform u = DecodePk16(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    out[i] = Half(ctx, u, 0, lanes.src0[i]) | (Half(ctx, u, 1, lanes.src1[i]) << 16);
  }
}

// By the definitions, one source at a time: the exact oracle rounds, then the readings are
// applied as their descriptions read (model/targets/hypotheses.cc).
void v_cvt_pk_f16_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out) {
  const bool f16 = GetInstrInfo(ctx.instr).output == OutputKind::f16;
  const bool outmod = ctx.hyp.cvt16_outmod == Cvt16Outmod::applied;
  const uint32_t omod = outmod ? ctx.mods.omod % 4u : 0u;
  const uint32_t scale = omod == 0 ? 0x3f800000u : omod == 1 ? 0x40000000u
                         : omod == 2 ? 0x40800000u : 0x3f000000u;
  const bool ovfl = f16 && ctx.mode / 0x800000u % 2u == 1u && ctx.hyp.fp16_ovfl != Fp16Ovfl::ignored;
  MxDecodeOptions o;
  o.saturate_overflow = ovfl;
  o.flush_denormal_out = ctx.hyp.cvt16_denorm_out == Cvt16DenormOut::mode &&
                         ctx.mode / (f16 ? 0x80u : 0x20u) % 2u == 0u;
  const uint32_t inf = f16 ? 0x7c00u : 0x7f80u, one = f16 ? 0x3c00u : 0x3f80u;
  for (size_t i = 0; i < lanes.size; ++i) {
    uint32_t r[2];
    for (int k = 0; k < 2; ++k) {
      uint32_t x = k == 0 ? lanes.src0[i] : lanes.src1[i];
      if ((ctx.mods.abs >> k) % 2u == 1u) x %= 0x80000000u;
      if ((ctx.mods.neg >> k) % 2u == 1u) x ^= 0x80000000u;
      if (ctx.mode / 0x10u % 2u == 0u && x / 0x800000u % 0x100u == 0u) x = x / 0x80000000u * 0x80000000u;
      const bool nan = x % 0x80000000u > 0x7f800000u;
      r[k] = OracleMxScaleF32To16(x, scale, MxScaleRead::exponent, o, f16 ? Mx16::f16 : Mx16::bf16);
      if (nan && ctx.hyp.cvt16_nan == Cvt16Nan::canonical) r[k] = f16 ? 0x7e00u : 0x7fc0u;
      if (ovfl && ctx.hyp.fp16_ovfl == Fp16Ovfl::saturate_all && r[k] % 0x8000u == inf) r[k] -= 1u;
      if (outmod && ctx.mods.clamp) {
        const bool dx10 = ctx.target->family != Family::gfx9 || ctx.mode / 0x100u % 2u == 1u;
        if (r[k] % 0x8000u > inf) {
          if (dx10) r[k] = 0;
        } else if (r[k] >= 0x8000u) {
          r[k] = 0;
        } else if (r[k] > one) {
          r[k] = one;
        }
      }
    }
    out[i] = r[1] * 0x10000u + r[0];
  }
}

// The rarer of the two sources' classes (cvt16_common.h Cvt16Class, after ABS/NEG).
absl::string_view v_cvt_pk_f16_f32_classify(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  const Mx16 dst = RowMx16Out(ctx);
  const uint32_t a = ApplySrcModifiers(src0, ctx.mods.abs & 1u, ctx.mods.neg & 1u);
  const uint32_t b = ApplySrcModifiers(src1, (ctx.mods.abs >> 1) & 1u, (ctx.mods.neg >> 1) & 1u);
  return RarerCvt16Class(Cvt16Class(a, dst), Cvt16Class(b, dst));
}

uint32_t v_cvt_pk_f16_f32_mode_bits(Family family) {
  return kCvt16ModeBits | (family == Family::gfx9 ? kCvt16Dx10ClampBit : 0u);
}

}  // namespace ops
}  // namespace lanediff
