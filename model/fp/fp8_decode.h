// 8-bit float -> f32 for every format in fp8_format.h (docs/semantics.md §10.3-10.5): the
// arithmetic of the four unpacking conversions (fp8/bf8 -> f32, one byte or a pair).
//
// The result depends on nothing but the byte once the per-batch choices are fixed (format,
// NaN reading, input denormal flush, OMOD, CLAMP), so a batch builds a 256-entry table from the
// format's description once (MakeFp8ToF32Table, 256 steps) and every lane is one load:
//
//   Fp8ToF32Table t = MakeFp8ToF32Table(GetFp8Format(Fp8FormatId::e4m3_ocp), {});
//   Fp8ToF32(0x38, t)              // 0x3f800000: e4m3_ocp 0x38 = 2^(7-7) * 1.0 = 1.0
//   Fp8PairToF32x2(0x3840, t)      // low f32 = fp8(0x40) = 2.0, high f32 = fp8(0x38) = 1.0
//
// Every finite 8-bit float value is a normal f32 (the smallest, 2^-17, and with OMOD /2 2^-18,
// are far above 2^-126), so neither MODE's f32 output-denormal bit nor rounding can change a
// result: the conversion is exact. Which byte or word of the operand is converted is
// instruction knowledge (model/ops); the slow oracle is OracleFp8ToF32 in oracle.h.
#ifndef LANEDIFF_MODEL_FP_FP8_DECODE_H_
#define LANEDIFF_MODEL_FP_FP8_DECODE_H_

#include <array>
#include <cstdint>

#include "model/fp/fp8_format.h"

namespace lanediff {

// The f32 a NaN byte decodes to (hypothesis fp8_to_f32_nan; UE5M3 has its own, ue5m3_nan).
enum class Fp8NanToF32 : uint8_t {
  sign_quiet,  // (sign << 31) | 0x7fc00000; FNUZ 0x80 has the sign bit: 0xffc00000
  host_7f800001,  // 0x7f800001 for every NaN byte, the sign dropped (HIP's host cast_from_f8)
  negative_quiet,  // 0xffc00000 for every NaN byte, whatever its sign (rocjitsu's RDNA4 path)
};

// VOP3 OMOD field values (dword 1 bits [28:27]).
inline constexpr uint32_t kOmodNone = 0, kOmodMul2 = 1, kOmodMul4 = 2, kOmodDiv2 = 3;

// UE5M3 NaN (0xFF) as f32 under ue5m3_nan=comgr_7fa3d000 (AMD comgr's B0 emulation of
// fp8 -> f32 conversion with CLAMP=1 writes this "hardware qNaN").
inline constexpr uint32_t kUe5m3NanComgr = 0x7fa3d000u;

struct Fp8ToF32Options {
  Fp8NanToF32 nan = Fp8NanToF32::sign_quiet;
  // f32 written for the unsigned formats' NaN byte 0xFF (ue5m3_nan).
  uint32_t unsigned_nan = kUe5m3NanComgr;
  // Subnormal bytes decode to a zero of their sign (fp8_denorm_input=flush_f16_mode with MODE's
  // f16 input-denormal bit clear).
  bool flush_denormals = false;
  // Output modifiers (hypothesis fp8_to_f32_outmod=applied): OMOD scales by 2, 4 or 1/2
  // (exact here); then CLAMP clamps to [+0, 1.0]: negatives and -0 give +0, above 1 gives 1.0;
  // a NaN gives +0 when `dx10_clamp` (MODE.DX10_CLAMP) and stays NaN otherwise.
  uint32_t omod = kOmodNone;
  bool clamp = false;
  bool dx10_clamp = true;
};

struct Fp8ToF32Table {
  std::array<uint32_t, 256> f32;
};

// The table of all 256 bytes, computed from the format's fields (exponent and mantissa widths,
// bias, max finite, FNUZ/Inf/sign flags) and the options.
Fp8ToF32Table MakeFp8ToF32Table(const Fp8Format& format, const Fp8ToF32Options& options);

// One byte (the low 8 bits of `byte`) to f32 bits.
inline uint32_t Fp8ToF32(uint32_t byte, const Fp8ToF32Table& t) { return t.f32[byte & 0xffu]; }

// The two bytes of a 16-bit word to two f32: the low byte's in bits [31:0] (the first VGPR of
// the pair), the high byte's in bits [63:32].
inline uint64_t Fp8PairToF32x2(uint32_t word, const Fp8ToF32Table& t) {
  return static_cast<uint64_t>(t.f32[word & 0xffu]) |
         (static_cast<uint64_t>(t.f32[(word >> 8) & 0xffu]) << 32);
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_FP_FP8_DECODE_H_
