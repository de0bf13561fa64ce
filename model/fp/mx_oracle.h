// The slow exact oracle for mx.h, written independently of the fast path.
//
// The fast path works on bit fields (exponent re-biasing, shifts, an encoding that carries by
// itself). The oracle takes every number apart by its format's definition into an exact dyadic
// value n * 2^k, applies the scale by a plain case table (finite, zero, infinite, NaN operands
// of a multiplication or a division), places the value in a table of every element's value
// (each decoded from the format's definition; 128-bit fixed point in units of 2^-100), and
// rounds once by definition: nearest with ties to the even code, or by adding seed steps of
// quantum / 2^seed_bits to |v| exactly and truncating the sum to the element at or below.
//
//   OracleMxToF32(0x7, 0x80, GetMxElemFormat(MxElemId::fp4_e2m1), {})     // 0x41400000 (12.0)
//   OracleToMx(0x4600, MxSource::f16, 0x7f, GetMxElemFormat(MxElemId::fp4_e2m1), {},
//              /*sr=*/false, 0, 0)                                         // 0x7 (6.0)
#ifndef LANEDIFF_MODEL_FP_MX_ORACLE_H_
#define LANEDIFF_MODEL_FP_MX_ORACLE_H_

#include <cstdint>

#include "model/fp/fp8_format.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"

namespace lanediff {

// Element code + scale byte -> f32 bits (MxToF32).
uint32_t OracleMxToF32(uint32_t code, uint32_t scale, const MxElemFormat& format,
                       const MxDecodeOptions& options);

// The source formats of the encoders, read from their own definitions (IEEE binary32, binary16,
// and bfloat16: 8 exponent bits, 7 fraction bits, bias 127).
enum class MxSource : uint8_t { f32, f16, bf16 };

// Source bits -> element code: F32ToMxRne (sr false) or F32ToMxSr (sr true, with `seed` a
// `seed_bits`-bit fraction of the quantum), after F16ToF32 / Bf16ToF32 for 16-bit sources.
uint32_t OracleToMx(uint32_t src, MxSource source, uint32_t scale, const MxElemFormat& format,
                    const MxEncodeOptions& options, bool sr, uint32_t seed, uint32_t seed_bits);

// MxScaleF32 by definition: x and the scale taken apart into exact numbers (the scale as the
// E8M0 byte of its exponent field under MxScaleRead::exponent, as the f32 it is under
// f32_multiply), multiplied by IEEE's case table, and the product placed between the two f32
// patterns around it by a binary search over the ordered positive patterns (0x7F800000 standing
// for 2^128, the first value beyond the largest), the nearer one taken, ties to the even pattern.
uint32_t OracleMxScaleF32(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                          const MxDecodeOptions& options);

// MxScaleF32To16 by definition: the same exact product, placed between the two positive f16 /
// bf16 patterns around it by a binary search over the ordered patterns (the Inf pattern
// standing for 2^(emax + 1)), rounded to the nearer (ties to the even pattern) or the lower.
uint32_t OracleMxScaleF32To16(uint32_t x, uint32_t scale_operand, MxScaleRead read,
                              const MxDecodeOptions& options, Mx16 dst);

// F32ToFp8ScaledRne by definition, for f32, f16 and bf16 source bits (the fast path takes
// F16ToF32 / Bf16ToF32 of the latter): the source and the scale taken apart into exact numbers
// (the scale by its E8M0 byte or as the f32 it is), divided or multiplied by IEEE's case table
// as an exact fraction, and placed between the format's magnitudes (each decoded from the
// format's bias and mantissa width, one past max_finite standing for the first value beyond it)
// by exact comparisons; the nearer taken, ties to the even code. Specials from the format's
// fields and `fo` by definition: a NaN gives sign|0x7F under nan_sign_7f, sign|(nan_out & 0x7F)
// under nan_sign_preserving, else nan_out; an infinity sign|max_finite under saturate_inf, else
// sign|inf_out; an overflow sign|max_finite under saturate_finite, else sign|inf_out.
// `flush_denormal_in` flushes the source format's own denormals (below 2^-126 for f32 and
// bf16, 2^-14 for f16).
uint32_t OracleToFp8Scaled(uint32_t src, MxSource source, uint32_t scale_operand,
                           const Fp8Format& format, const Fp8Options& fo,
                           const MxFp8EncodeOptions& options);

// F32ToFp8ScaledSr by definition, for f32, f16 and bf16 source bits and the seed word `s1`: the
// same exact scaled value and specials as OracleToFp8Scaled; a finite nonzero value is taken to
// the nearest value with 24 significant bits, the quantum there read off the format's two
// neighbouring magnitudes, the seed's share of that quantum added exactly (under source_grid
// after truncating to its grid; the seed width the source's fraction bits minus the format's),
// and the largest magnitude at or below the sum taken.
uint32_t OracleToFp8ScaledSr(uint32_t src, MxSource source, uint32_t s1, uint32_t scale_operand,
                             const Fp8Format& format, const Fp8Options& fo,
                             const MxFp8EncodeOptions& options);
// F32ToMxScaledRne by definition. MxScaleRead::exponent: OracleToMx with the exponent field's
// byte. f32_multiply: the source and the whole f32 operand taken apart into exact numbers, the
// quotient (or product) an exact fraction placed between the element magnitudes (decoded from
// the format's bias and mantissa width; one past max_code standing for the first value beyond)
// by exact comparisons, ties to the even code; NaN results by options.nan_in with the sign of
// the NaN source or operand (+ for 0/0, Inf/Inf, 0*Inf), infinities and overflows sign|max.
uint32_t OracleToMxScaled(uint32_t src, MxSource source, uint32_t scale_operand,
                          const MxElemFormat& format, const MxEncodeOptions& options,
                          MxScaleRead read);

// F32ToMxScaledSr by definition: OracleToMxScaled's exact scaled value and specials (the scale as
// its exponent field's E8M0 byte, with its zero and NaN readings, or as the f32 it is), then the
// stochastic rounding of OracleToFp8ScaledSr on the element's grid (its magnitudes decoded from
// the format's bias and mantissa width), a result past the largest element saturating.
uint32_t OracleToMxScaledSr(uint32_t src, MxSource source, uint32_t s1, uint32_t scale_operand,
                            const MxElemFormat& format, const MxEncodeOptions& options,
                            MxScaleRead read, MxSrRound reading);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_MX_ORACLE_H_
