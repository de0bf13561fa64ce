// MX element <-> f32 with an E8M0 scale byte applied, the exact f16/bf16 -> f32 widenings, and
// the ISA's PRNG step (V_PRNG_B32). Integer code only (no host float arithmetic), like fp8.h; the slow
// exact oracle is mx_oracle.h.
//
//   const MxElemFormat& fp4 = GetMxElemFormat(MxElemId::fp4_e2m1);
//   MxToF32(0x7, 0x80, fp4, {})                        // 0x41400000: 6.0 * 2^(128-127) = 12.0
//   MxEncodeParams p = MakeMxEncodeParams(fp4, {});
//   F32ToMxRne(0x41400000, 0x80, p)                    // 0x7: 12.0 / 2 = 6.0
//   F32ToMxSr(0x3fa00000, 0x7f, 1u << 21, 22, p)       // 0x3: 1.25 + half a quantum -> 1.5
//   PrngB32(0x80000000)                                // 0xc5
//
// Which operand bits hold the scale, the seed and the elements, how elements pack, and how the
// seed advances between elements are instruction knowledge (model/ops); here a scale is one
// E8M0 byte, a seed the random fraction of one output quantum, an element one code.
//
// Every unclear rule is an option whose default is the OCP MX v1.0 reading; each enumerator
// names its source. Sources, by what they are:
//   OCP      OCP MX v1.0, as restated in jax-ml/ml_dtypes ml_dtypes/include/mxfloat.h,
//            microsoft/microxcaling mx/elemwise_ops.py, and the CUDA toolkit's cuda_fp4.h /
//            cuda_fp6.h / cuda_fp8.h comments.
//   HIP      ROCm/clr hipamd/include/hip/amd_detail/amd_hip_ocp_host.hpp (AMD's host model of
//            gfx950: to_float, from_float, from_float_sr) and amd_hip_ocp_fp.hpp
//            (__amd_scale_to_float).
//   rocjitsu ROCm/rocm-systems emulation/rocjitsu tests (shared_infra_test.cpp).
//   ISA      AMD CDNA4 ISA pseudocode (V_CVT_SCALEF32_*, V_PRNG_B32), as extracted in
//            tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py.
#ifndef LANEDIFF_MODEL_FP_MX_H_
#define LANEDIFF_MODEL_FP_MX_H_

#include <array>
#include <cstdint>

#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/mx_format.h"

namespace lanediff {

// ---- E8M0 scale byte readings ---------------------------------------------------------------

// What scale byte 0x00 means.
enum class E8m0Zero : uint8_t {
  pow2_m127,  // 2^-127 (OCP; ml_dtypes, microxcaling, CUDA, rocjitsu)
  // The value 0: HIP's __amd_scale_to_float builds the f32 whose exponent field is the byte,
  // so byte 0 becomes +0.0, and a unit that multiplied by that f32 would see 0.
  zero,
};

// What scale byte 0xFF means.
enum class E8m0Nan : uint8_t {
  // NaN (OCP). Decode: the result is a quiet NaN with the element's sign (HIP to_float).
  // Encode: the result is what a NaN input gives (MxNanIn), with the input's sign; under the
  // HIP default that is +-max ("down -> element NaN", HIP from_float).
  nan,
  pow2_128,  // the exponent goes on: 2^(255 - 127)
  // +Inf: HIP's __amd_scale_to_float gives the bits 0x7F800000 for byte 0xFF; a unit that
  // multiplied (or divided) by that f32 would give x * Inf (0 * Inf = NaN) or x / Inf = 0.
  infinity,
};

// E8M0 byte -> f32 bits of its value: 2^(e - 127) (byte 0 is the f32 denormal 0x00400000 under
// pow2_m127), 0xFF -> 0x7FC00000 (nan), 0x7F800000 (infinity); 2^128 (pow2_128) is beyond f32
// and also gives 0x7F800000.
uint32_t E8m0ToF32(uint32_t byte, E8m0Zero zero = E8m0Zero::pow2_m127,
                   E8m0Nan nan = E8m0Nan::nan);

// The E8M0 byte an f32 scale operand carries when only its exponent field is read (ISA:
// `scale = 32'U(exponent(S2.f32))`; HIP amd_hip_ocp_fp.hpp: "encoded in the exponent bits of an
// IEEE-754 float"): sign and mantissa are dropped, not rounded.
constexpr uint32_t E8m0FromF32Exponent(uint32_t f32) { return F32Exp(f32); }

// ---- element -> f32 -------------------------------------------------------------------------

struct MxDecodeOptions {
  E8m0Zero scale_zero = E8m0Zero::pow2_m127;
  E8m0Nan scale_nan = E8m0Nan::nan;
  // How the scale is applied. false: the element's exact value times 2^(e - 127), rounded once
  // into f32 (every product is exact in f32 except overflow: the smallest, 2^-4 * 2^-127, is
  // far above 2^-149), so f32 denormal results are kept. true: the scale's exponent is added to
  // the decoded element's f32 exponent field, which cannot produce a denormal: a result below
  // 2^-126 flushes to a zero of the element's sign (the same results as
  // flush_denormal_out; kept as its own reading because it is a different mechanism).
  bool exponent_add = false;
  // f32 denormal results become signed zeros (a MODE-controlled flush; HIP to_float rounds into
  // the destination's denormal range instead).
  bool flush_denormal_out = false;
  // A finite product beyond f32's range gives +-0x7F7FFFFF (max finite) instead of +-Inf (HIP
  // to_float: +-Inf, commented "gfx950 HW behavior"). An element times an infinite scale
  // (E8m0Nan::infinity) is +-Inf either way.
  bool saturate_overflow = false;
  // How MxScaleF32To16 rounds a product that falls between two f16/bf16 values (an element times
  // a scale lands there only below the destination's smallest normal, or under
  // MxScaleRead::f32_multiply): to nearest even (HIP to_float's round and sticky bits) or toward
  // zero (a denormalising right shift with no round bit). Not read by the f32 functions.
  bool round16_toward_zero = false;
};

// One element code (its low `bits` bits) with scale byte `scale` (its low 8 bits) -> f32 bits.
uint32_t MxToF32(uint32_t code, uint32_t scale, const MxElemFormat& format,
                 const MxDecodeOptions& options);

// ---- an exact f32 times the scale operand ---------------------------------------------------

// How the f32 scale operand of the gfx950 scaled conversions is read (hypothesis mx_scale_read).
enum class MxScaleRead : uint8_t {
  // Its exponent field, bits [30:23], as an E8M0 byte (E8m0FromF32Exponent); sign and mantissa
  // are not read (ISA: `scale = 32'U(exponent(S1.f32))`).
  exponent,
  // The whole f32: an IEEE multiplication of the element by the operand, rounded once to
  // nearest even (E8M0 readings do not apply: 0 is zero, Inf is infinite, NaN propagates).
  f32_multiply,
};

// x (f32 bits: the exact value of a decoded element, or any f32) times the scale operand, under
// `read` and the options (scale_zero, scale_nan: exponent reading only; saturate_overflow,
// flush_denormal_out: both; exponent_add is not read: flush_denormal_out gives its results).
// NaN results: x's own bits when x is a NaN (its decode decided them); sign(x) | 0x7FC00000 for
// a NaN scale byte (E8m0Nan::nan) or x * Inf with x zero is 0x7FC00000; a NaN operand under
// f32_multiply gives that operand quieted.
//
//   MxScaleF32(0x3f800000, 0x40000000, MxScaleRead::exponent, {})   // 0x40000000: 1.0 * 2^1
//   MxScaleF32(0x3f800000, 0x3fc00000, MxScaleRead::exponent, {})   // 0x3f800000: 1.5 reads as 1
//   MxScaleF32(0x3f800000, 0x00000000, MxScaleRead::exponent, {})   // 0x00400000: 2^-127
uint32_t MxScaleF32(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                    const MxDecodeOptions& options);

// ---- an exact f32 times the scale operand, into f16 or bf16 ----------------------------------

// The 16-bit destinations of the scaled decodes: IEEE binary16 (5 exponent bits, 10 fraction
// bits, bias 15) and bfloat16 (8, 7, bias 127).
enum class Mx16 : uint8_t { f16, bf16 };

// MxScaleF32's product rounded once into `dst` (not through an f32 result), in the low 16 bits.
// The same readings as MxScaleF32 (saturate_overflow gives +-0x7BFF / +-0x7F7F;
// flush_denormal_out flushes results below 2^-14 / 2^-126), and round16_toward_zero. NaN results:
// a NaN x keeps its sign and the top fraction bits that fit, quieted (f32 0x7FC00000 -> f16
// 0x7E00, bf16 0x7FC0); a NaN scale byte gives sign(x) | the quiet NaN; x * Inf with x zero the
// positive quiet NaN.
//
//   MxScaleF32To16(0x43e00000, 0x3f800000, MxScaleRead::exponent, {}, Mx16::f16)  // 0x5f00: 448
//   MxScaleF32To16(0x43e00000, 0x43800000, MxScaleRead::exponent, {}, Mx16::f16)  // 0x7c00: Inf
//   MxScaleF32To16(0x3ff00000, 0x34800000, MxScaleRead::exponent, {}, Mx16::f16)  // 0x0008
uint32_t MxScaleF32To16(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                        const MxDecodeOptions& options, Mx16 dst);

// ---- f32 -> element -------------------------------------------------------------------------

// Which way the scale is applied to the source before rounding.
enum class MxScaleDir : uint8_t {
  divide,    // x / 2^(e - 127) (OCP quantization, HIP from_float `srcExp -= scale_exp`)
  multiply,  // x * 2^(e - 127) (rocjitsu's gfx1250 test expects fp4(x * 0.5f) for scale 0.5f)
};

// What a NaN input (and, under E8m0Nan::nan, a NaN scale) gives: the formats have no NaN.
// OCP: "Conversion from NaNs is implementation-defined" (ml_dtypes comment).
enum class MxNanIn : uint8_t {
  max_keep_sign,  // sign | max_code (HIP from_float: nan<E2M1> = sign | 0x7)
  pos_max,        // +max_code (CUDA cuda_fp4.h/cuda_fp6.h: "NaN input values result in
                  // positive MAXNORM")
  neg_zero,       // the sign bit alone, -0 (ml_dtypes quiet_NaN() of float4_e2m1fn/float6_*)
  pos_zero,       // 0
};

// Infinite inputs and finite values beyond the largest element saturate to sign | max_code:
// HIP from_float (inf<> -> +-max), rocjitsu, microxcaling (clamp), ml_dtypes and CUDA
// ("saturate to MAXNORM") all agree, so that is not an option. A value that rounds to zero
// keeps its sign (-0 exists in every MX element format).
struct MxEncodeOptions {
  MxScaleDir direction = MxScaleDir::divide;
  E8m0Zero scale_zero = E8m0Zero::pow2_m127;
  E8m0Nan scale_nan = E8m0Nan::nan;
  MxNanIn nan_in = MxNanIn::max_keep_sign;
  // f32 denormal sources become signed zeros before scaling (MODE flush; HIP normalises them
  // and keeps them). Widened f16 values are f32 normals: an f16 source's own flush is the
  // caller's, before F16ToF32.
  bool flush_denormal_in = false;
};

// Folded once per batch.
struct MxEncodeParams {
  uint32_t man_bits;
  uint32_t max_code;
  uint32_t sign_bit;   // 1 << (bits - 1)
  int32_t qmin;        // log2 of the subnormal quantum: 1 - bias - M
  int32_t emax;        // binade of the largest value: (max_code >> M) - bias
  uint32_t nan_pos;    // output for a NaN with sign +
  uint32_t nan_neg;    // and with sign -
  MxEncodeOptions options;
};

MxEncodeParams MakeMxEncodeParams(const MxElemFormat& format, const MxEncodeOptions& options);

// Round to nearest, ties to even, once, from the exact value of x scaled by the scale byte.
uint32_t F32ToMxRne(uint32_t x, uint32_t scale, const MxEncodeParams& p);

// Stochastic rounding: `seed` (its low `seed_bits` bits, 0 < seed_bits <= 31) is a fraction of
// one output quantum at the scaled |x|. The scaled |x| is first truncated to a grid of
// quantum / 2^seed_bits, the seed is added there, and the sum is truncated to the quantum; a
// carry may reach the next binade or past the largest value (saturates). This is HIP
// from_float_sr's reading: the seed `>> (32 - srcManBits + dstManBits)` added to the source
// mantissa after the denormal shift, then truncated; the existing fp8 carry_truncate reading
// (fp8.h) is the same with seed_bits = 23 - M. For a normal result and seed_bits =
// MxSrSeedBits(source mantissa bits, format) the first truncation drops nothing; and since a
// quantum is a whole number of seed steps, truncating first never changes the result of
// truncating |v| + seed steps exactly (the oracle does the latter).
uint32_t F32ToMxSr(uint32_t x, uint32_t scale, uint32_t seed, uint32_t seed_bits,
                   const MxEncodeParams& p);

// HIP from_float_sr's seed width: source mantissa bits minus the element's (f32: 23, f16: 10,
// bf16: 7).
constexpr uint32_t MxSrSeedBits(int src_man_bits, const MxElemFormat& f) {
  return static_cast<uint32_t>(src_man_bits - f.man_bits);
}

// ---- f32 -> OCP fp8/bf8 with the scale operand ------------------------------------------------

// How the gfx950 scaled stochastic-rounding encoders (v_cvt_scalef32_sr_{fp8,bf8}_*) add the seed
// S1 to the scaled value (hypothesis mx_sr_round). Both readings scale first and keep the carry
// (HIP, gem5 and rocjitsu all divide by the scale before rounding); they differ in how many seed
// bits reach a value, and where.
enum class MxSrRound : uint8_t {
  // HIP from_float_sr: b = (source mantissa bits) - M seed bits, S1's top b (`seed >> (32 -
  // srcManBits + dstManBits)`), added to the scaled magnitude truncated to a grid of quantum /
  // 2^b (after the denormal shift, which drops the bits below that grid), then truncated to the
  // quantum: S1[31:12] / S1[31:11] for an f32 source (the unscaled rows' seed), S1[31:25] /
  // S1[31:24] for f16, S1[31:28] / S1[31:27] for bf16.
  source_grid,
  // ROCm/rocm-systems rocjitsu (codegen of V_CVT_SCALEF32_SR_*: the source widened to f32,
  // divided by the scale, then the unscaled f32 SR encoder f32_to_fp8_e4m3_sr /
  // f32_to_bf8_e5m2_sr): for a normal result the 23 - M top bits of S1 as for an f32 source;
  // for a subnormal one all k = 23 - M + (binades below the smallest normal) significand bits
  // below the quantum are kept and S1's top k bits added; past k = 24 the result is a signed
  // zero (the unscaled rows' sr_rounding=exact_subnormal).
  f32_exact_subnormal,
};

// How the gfx950 scaled 8-bit float encoders (v_cvt_scalef32_pk_{fp8,bf8}_*) apply the f32 scale
// operand before rounding. The special bytes (NaN, infinity, overflow, and whether infinities
// and overflows saturate) are the Fp8Params' (fp8.h), so the family readings fp8_nan and the
// scaled overflow readings reach them through Fp8Options.
struct MxFp8EncodeOptions {
  MxScaleRead read = MxScaleRead::exponent;
  MxScaleDir direction = MxScaleDir::divide;
  E8m0Zero scale_zero = E8m0Zero::pow2_m127;  // exponent reading only
  E8m0Nan scale_nan = E8m0Nan::nan;           // exponent reading only
  // f32 denormal sources become signed zeros before scaling (HIP from_float normalises them
  // and keeps them). A 16-bit source's own denormals are the caller's to flush before widening.
  bool flush_denormal_in = false;
  // How F32ToFp8ScaledSr adds the seed (F32ToFp8ScaledRne does not read it).
  MxSrRound sr_round = MxSrRound::source_grid;
};

// f32 bits x -> the OCP E4M3/E5M2 byte nearest (ties to even) to the exact value of x divided
// (or multiplied, MxFp8EncodeOptions::direction) by the scale operand, rounded once: the
// exponent field's E8M0 value under MxScaleRead::exponent (scale_zero, scale_nan for the bytes
// 0x00 and 0xFF), the whole f32 with its sign under f32_multiply (an exact quotient or product,
// rounded once into the format). Specials by IEEE's case table: x / Inf = 0, 0 / 0 and
// Inf / Inf = NaN, x / 0 = Inf, 0 * Inf = NaN, a NaN scale byte gives a NaN of x's sign; a NaN
// result is p's NaN byte, an infinite one p's infinity byte, a finite result past the largest
// finite p's overflow byte (decided after rounding).
//
//   const Fp8Params e4m3 = MakeFp8Params(GetFp8Format(Fp8FormatId::e4m3_ocp), {});
//   F32ToFp8ScaledRne(0x40000000, 0x40000000, e4m3, {})   // 0x38: 2.0 / 2^1 = 1.0
//   F32ToFp8ScaledRne(0x43e00000, 0x3f000000, e4m3, {})   // 0x7f: 448 / 2^-1 = 896 overflows
uint32_t F32ToFp8ScaledRne(uint32_t x, uint32_t scale_operand, const Fp8Params& p,
                           const MxFp8EncodeOptions& o);

// The same scaled value (and the same special bytes) rounded stochastically with the seed word
// `s1` (v_cvt_scalef32_sr_{fp8,bf8}_*): the exact scaled value is first the nearest value with a
// 24-bit significand (ties to even; exact under MxScaleRead::exponent, where the scale is a power
// of two), then the seed is added per MxFp8EncodeOptions::sr_round with `src_man_bits` the
// source's fraction width (23 f32, 10 f16, 7 bf16: x is then the widened F16ToF32 / Bf16ToF32),
// and the sum truncated to the format's quantum; a carry may reach the next binade or past the
// largest finite value (p's overflow byte, decided after rounding).
//
//   F32ToFp8ScaledSr(0x3f880000, 0x3f800000, 0x80000000, 23, e4m3, {})  // 0x39: 1.0625 + 1/16
//   F32ToFp8ScaledSr(0x3f880000, 0x3f800000, 0x7fffffff, 23, e4m3, {})  // 0x38
uint32_t F32ToFp8ScaledSr(uint32_t x, uint32_t scale_operand, uint32_t s1, uint32_t src_man_bits,
                          const Fp8Params& p, const MxFp8EncodeOptions& o);
// ---- f32 -> MX element with the f32 scale operand ------------------------------------------

// f32 bits x -> the MX element code (the gfx950 scaled FP4 encoder)
// nearest, ties to even, to x over (or times: p.options.direction) the scale operand, rounded
// once. MxScaleRead::exponent: F32ToMxRne with the exponent field's E8M0 byte (its scale_zero /
// scale_nan readings, NaN and saturation rules). f32_multiply: the whole f32 with its sign, by
// the same case table as F32ToFp8ScaledRne (its scale-byte readings do not apply): a NaN result
// is p's NaN code of the NaN's sign (x's, the operand's, or + for 0/0, Inf/Inf, 0*Inf), an
// infinite or past-the-largest result sign|max_code.
//
//   const MxEncodeParams p = MakeMxEncodeParams(GetMxElemFormat(MxElemId::fp4_e2m1), {});
//   F32ToMxScaledRne(0x40c00000, 0x40000000, MxScaleRead::exponent, p)      // 0x5: 6 / 2 = 3
//   F32ToMxScaledRne(0x40c00000, 0x40400000, MxScaleRead::f32_multiply, p)  // 0x4: 6 / 3 = 2
uint32_t F32ToMxScaledRne(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                          const MxEncodeParams& p);

// The same scaled value rounded stochastically with the seed word `s1` into the MX element (the
// gfx950 scaled SR FP4/FP6 encoders, v_cvt_scalef32_sr_pk_fp4_* and v_cvt_scalef32_sr_pk32_*):
// F32ToMxScaledRne's specials, scale cases and saturation, the seed added as F32ToFp8ScaledSr
// adds it (`reading`, with `src_man_bits` the source's fraction width: 23 f32, 10 f16, 7 bf16,
// x then the widened F16ToF32 / Bf16ToF32), a carry past the largest element saturating.
//
//   F32ToMxScaledSr(0x3fa00000, 0x3f800000, 0x80000000, 23, MxScaleRead::exponent,
//                   MxSrRound::source_grid, p)   // 0x3: 1.25 + half a quantum (0.25) -> 1.5
uint32_t F32ToMxScaledSr(uint32_t x, uint32_t scale_operand, uint32_t s1, uint32_t src_man_bits,
                         MxScaleRead read, MxSrRound reading, const MxEncodeParams& p);

// ---- 16-bit sources -------------------------------------------------------------------------

// IEEE binary16 -> f32, exact: normals re-biased (15 -> 127), denormals normalised, Inf kept,
// a NaN keeps its sign and payload (shifted up 13 bits; no quieting: the MX encoders read only
// "is NaN").
constexpr uint32_t F16ToF32(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  if (exp == 0x1fu) return sign | kF32ExpMask | (man << 13);
  if (exp != 0u) return sign | ((exp + 112u) << 23) | (man << 13);
  if (man == 0u) return sign;
  // man * 2^-24: move its top bit to bit 10 (the implicit one), one exponent step per place.
  uint32_t e = 113u;  // the exponent field of 2^-14, the f16 denormal binade's top
  while ((man & 0x400u) == 0u) {
    man <<= 1;
    --e;
  }
  return sign | (e << 23) | ((man & 0x3ffu) << 13);
}

// bfloat16 -> f32: the top half of the f32, exact for every pattern.
constexpr uint32_t Bf16ToF32(uint32_t b) { return (b & 0xffffu) << 16; }

// ---- V_PRNG_B32 -----------------------------------------------------------------------------

// V_PRNG_B32's function (ISA pseudocode: `D = (in << 1) ^ (in[31] ? 197 : 0)`, 197 = 0xC5): a
// Galois LFSR step. The SR multi-element conversions advance their seed with it between
// elements (ISA); which element gets which seed is instruction knowledge.
constexpr uint32_t PrngB32(uint32_t in) { return (in << 1) ^ ((in >> 31) != 0u ? 0xc5u : 0u); }

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_MX_H_
