// The slow exact oracle: the same conversions as u8.h and fp8.h, written a different way so
// that cross-checking the two means something; every fast conversion has an exact oracle.
//
// The fast path works on bit fields with shift tricks. The oracle decodes every value into an
// exact fixed-point number (a 320-bit integer counting units of 2^-160, enough for every f32
// and every seed fraction), finds the neighbouring representable outputs by searching the
// format's value table (each entry decoded from the format's definition), adds the seed's exact
// fraction of one output quantum, rounds once by definition, and only then encodes specials
// and signs from a plain case analysis of docs/semantics.md §3 and §5.
//
//   OracleF32ToU8(0x43018000, RoundMode::nearest_even)                 // 130
//   OracleF32ToFp8Sr(0x3fffffff, 0xfffff, GetFp8Format(Fp8FormatId::e4m3_ocp), {})  // 0x40
//
// Inputs are the final operand bits (modifiers and MODE[4] flush already applied), as for the
// fast functions.
#ifndef LANEDIFF_MODEL_FP_ORACLE_H_
#define LANEDIFF_MODEL_FP_ORACLE_H_

#include <cstdint>

#include "model/fp/fp8.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/fp/u8.h"

namespace lanediff {

// `nan_gives_max`: the pk_u8_nan=max reading (NaN -> 255 instead of 0).
uint32_t OracleF32ToU8(uint32_t x, RoundMode rm, bool nan_gives_max = false);

// Round to nearest, ties to the even code.
uint32_t OracleF32ToFp8Rne(uint32_t x, const Fp8Format& format, const Fp8Options& options);

// Stochastic rounding under sr_rounding=carry_truncate: |x| + seed/2^k of the output quantum
// at |x| (k = 23 - man_bits), truncated to the representable value at or below.
uint32_t OracleF32ToFp8Sr(uint32_t x, uint32_t seed, const Fp8Format& format,
                          const Fp8Options& options);

// sr_rounding=literal: the pseudocode's 23-bit wrapping fraction add, then the RNE oracle.
uint32_t OracleF32ToFp8Literal(uint32_t x, uint32_t seed, const Fp8Format& format,
                               const Fp8Options& options);

// sr_rounding=exact_subnormal: like OracleF32ToFp8Sr for a normal result; for a subnormal one
// the seed is k bits of S1 (k = 23 - man_bits + binades below the smallest normal; the top k,
// or the low k when `seed_low`) as a fraction of the quantum, and k > 24 gives a zero.
uint32_t OracleF32ToFp8SrExactSubnormal(uint32_t x, uint32_t s1, bool seed_low,
                                        const Fp8Format& format, const Fp8Options& options);

// 8-bit float -> f32 (fp8_decode.h) from the byte's mathematical value: the format's
// definition gives an integer n and a power of two 2^k with |v| = n * 2^k, OMOD adds to k, CLAMP
// compares the value with 1, and the f32 is the normalised (n, k); specials by cases.
uint32_t OracleFp8ToF32(uint32_t byte, const Fp8Format& format, const Fp8ToF32Options& options);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_ORACLE_H_
