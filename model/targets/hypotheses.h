// Named, selectable readings of the rules docs/semantics.md marks likely or unknown.
//
// Each hypothesis (a rule) has a name, a set of values (the first is the default: the
// best-evidenced reading) and, per value, its provenance: which public source computes it
// (repository, path, function), what it computes in one sentence, the targets that source
// claims, and one lane on which it differs from the default. Semantics read the fields of
// `Hypotheses`; the registry below is the one place that names them for people and command
// lines. docs/semantics.md explains every rule and reading at length.
//
//   Hypotheses h;                                     // every default
//   LANEDIFF_RETURN_IF_ERROR(SetHypothesis("sr_rounding=literal", &h));
//   HypothesisSettings(h)  // {"pk_u8_rounding=mode", "sr_rounding=literal", ...}
//
// Enumerators only ever get appended: a value's index is stored in nothing, but its name is in
// corpus files and repro command lines.
#ifndef LANEDIFF_MODEL_TARGETS_HYPOTHESES_H_
#define LANEDIFF_MODEL_TARGETS_HYPOTHESES_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/mx.h"

namespace lanediff {

// v_cvt_pk_u8_f32 rounding: MODE.FP_ROUND (default) or truncation toward zero.
enum class PkU8Rounding : uint8_t { mode, truncate };
// v_cvt_pk_u8_f32 on a NaN input: 0 (default) or 255.
enum class PkU8Nan : uint8_t { zero, max };
// SR instructions: seed added with carry then truncated (default), the literal pseudocode, or
// carry-truncate whose subnormal range keeps every dropped bit and adds as many seed bits.
enum class SrRounding : uint8_t { carry_truncate, literal, exact_subnormal };
// SR instructions: which bits of S1 are the seed: the top ones (default) or the low ones.
enum class SrSeed : uint8_t { high, low };
// SR instructions: a finite overflow is decided after rounding (default) or before it.
enum class SrOverflow : uint8_t { after_rounding, before_rounding };
// OCP NaN output: canonical 0xFF/0xFE whatever the sign (default), sign|0x7F/sign|0x7E, or
// sign|0x7F for both formats.
enum class Fp8Nan : uint8_t { canonical, sign_preserving, sign_7f };
// MODE.FP16_OVFL: finite overflow saturates (default), the bit is ignored, or Inf saturates too.
enum class Fp16Ovfl : uint8_t { saturate_finite, ignored, saturate_all };
// gfx1250 CLAMP on v_cvt_sr_fp8_f32, v_cvt_pk_fp8_f32 (and, decoding, v_cvt_f32_fp8): selects
// UE5M3 (B0, default), is ignored (A0), or selects an UE5M3 that encodes |x| and gives 0xFF for
// Inf, NaN and overflow.
enum class Gfx1250Clamp : uint8_t { ue5m3, ignored, ue5m3_magnitude };
// v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 CLAMP where it selects no format (LLVM refuses it there):
// no effect (default), or it saturates a finite overflow like MODE.FP16_OVFL.
enum class PkFp8Clamp : uint8_t { ignored, saturate_finite };
// fp8/bf8 -> f32 of a NaN byte: sign|0x7fc00000 (default), 0x7f800001 whatever the sign, or
// 0xffc00000 whatever the sign.
enum class Fp8ToF32Nan : uint8_t { sign_quiet, host_7f800001, negative_quiet };
// UE5M3 (gfx1250 v_cvt_f32_fp8 CLAMP=1) NaN byte 0xFF -> f32: 0x7fa3d000 (default) or 0x7fc00000.
enum class Ue5m3Nan : uint8_t { comgr_7fa3d000, quiet };
// fp8/bf8 -> f32 of a subnormal byte: exact (default), or flushed to a signed zero when MODE's
// f16/f64 input-denormal bit (MODE[6]) is clear.
enum class Fp8DenormInput : uint8_t { kept, flush_f16_mode };
// fp8/bf8 -> f32 VOP3/SDWA OMOD and CLAMP (gfx9, where LLVM accepts them): applied to the f32
// result as on any f32 VOP3 result (default), or ignored.
enum class Fp8ToF32Outmod : uint8_t { applied, ignored };
// gfx9 SDWA src0_sel on v_cvt_f32_fp8 / v_cvt_pk_f32_fp8: the ISA pseudocode (default: BYTE_1..3
// pick a byte, every other select byte 0; SEL[1:0] == 1 picks the high word), or the generic SDWA
// operand extraction (the selected byte/word zero-extended, then the low byte/word read).
enum class Fp8SdwaSel : uint8_t { pseudocode, extract };
// A 16-bit source operand (InstrInfo::src0_16bit: v_cvt_pk_f32_fp8/bf8 SRC0 on GFX12/GFX1250)
// that is a constant: the 32-bit word the instruction's op_sel then selects a half of. An
// inline constant's 16-bit value in both halves and the literal dword as encoded (default), or
// only the 16-bit value in bits 15:0 and 0 above, for an inline constant and a literal alike.
enum class Src16Constant : uint8_t { replicated, low_only };
// v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (round to nearest even): a finite overflow is decided
// after rounding (default) or before it (any finite |x| above the largest finite overflows).
enum class PkOverflow : uint8_t { after_rounding, before_rounding };
// gfx950 scaled conversions (v_cvt_scalef32_*): what of the f32 scale operand is read: its
// exponent field as an E8M0 byte (default) or the whole f32 as a multiplier.
enum class MxScaleReadH : uint8_t { exponent, f32_multiply };
// The scale byte 0x00 (an f32 scale whose exponent field is 0: +-0.0 and denormals): 2^-127
// (default) or the value 0.
enum class MxScaleZero : uint8_t { pow2_m127, zero };
// The scale byte 0xFF (an f32 scale that is Inf or NaN): NaN (default), 2^128, or +Inf.
enum class MxScaleNan : uint8_t { nan, pow2_128, infinity };
// A scaled result beyond f32's range: +-Inf (default) or +-max finite.
enum class MxUpOverflow : uint8_t { infinity, saturate };
// A scaled f32 result below 2^-126: kept as an f32 denormal (default) or flushed to a signed zero.
enum class MxDenormOut : uint8_t { kept, flush };
// A scaled f16/bf16 result between two f16/bf16 values: rounded to nearest even (default) or
// toward zero.
enum class MxUpRound : uint8_t { nearest_even, toward_zero };
// v_cvt_scalef32_f16_fp8/bf8: the destination half OPSEL[3] does not select: the old VDST's
// (default) or zero (the whole dword written).
enum class MxF16Half : uint8_t { kept, zeroed };
// The gfx950 scaled encoders (v_cvt_scalef32_pk_{fp8,bf8}_*): which way the scale goes before
// rounding: the source divided by 2^(e-127) (default) or multiplied by it.
enum class MxDownScale : uint8_t { divide, multiply };
// A scaled E4M3 result past 448 (and an infinite source): sign|0x7F, the NaN byte (default), or
// saturated to sign|0x7E.
enum class MxFp8Overflow : uint8_t { nan, saturate };
// A scaled E5M2 result past 57344 (and an infinite source): sign|0x7C, Inf (default), or
// saturated to sign|0x7B.
enum class MxBf8Overflow : uint8_t { infinity, saturate };
// Denormal sources of the scaled encoders (f32 below 2^-126; f16 and bf16 denormals): kept
// exactly (default) or flushed to a signed zero before scaling.
enum class MxDenormIn : uint8_t { kept, flush };
// How the gfx950 scaled SR encoders (v_cvt_scalef32_sr_{fp8,bf8}_*) add the seed S1 to the
// scaled value (model/fp/mx.h MxSrRound): HIP's source-width seed on the scaled grid (default),
// or rocjitsu's f32 SR encoder on the scaled f32 (exact_subnormal below the smallest normal).
enum class MxSrRoundH : uint8_t { source_grid, f32_exact_subnormal };
// gfx950 v_cvt_scalef32_pk_fp4_f32: what a NaN source (or a NaN scale byte) gives, FP4 having no
// NaN: sign|0x7 (default), +0x7, or 0x8 (-0).
enum class MxFp4Nan : uint8_t { max_keep_sign, pos_max, neg_zero };
// The gfx950 scaled conversions from two packed 16-bit floats (SrcRole::data_f16x2 /
// data_bf16x2): where S0's one ABS/NEG bit pair acts: on both halves' sign bits 15 and 31
// (default), on the low half's bit 15 only, or on bit 31 only (the sign of the 32-bit operand).
enum class MxPk16Neg : uint8_t { both_halves, low_half, high_half };
// The gfx950 scaled SR encoders from one 16-bit float (v_cvt_scalef32_sr_{fp8,bf8}_{f16,bf16}):
// what OPSEL[0] (LLVM accepts and prints op_sel:[1,0,0,0]) does: nothing, S0[15:0] is read
// (default), or it selects S0[31:16].
enum class MxSr16Opsel0 : uint8_t { ignored, high_half };
// gfx950 v_cvt_pk_{f16,bf16}_f32 (VOP3, where LLVM accepts clamp and omod): OMOD scales the exact
// value before its one rounding and CLAMP clamps each 16-bit result to [+0, 1.0] (default, as on
// any float VOP3 result), or both are ignored.
enum class Cvt16Outmod : uint8_t { applied, ignored };
// gfx950 f32 -> f16/bf16 conversions (v_cvt_pk_{f16,bf16}_f32, v_cvt_sr_{f16,bf16}_f32): a
// result below the format's smallest normal is flushed to a signed zero when MODE's output
// denormal bit for the format is clear (MODE[7] f16, MODE[5] bf16; default), or kept whatever
// MODE says.
enum class Cvt16DenormOut : uint8_t { mode, kept };
// The same conversions' NaN result: the source's sign and top payload bits, quieted (default), or
// the positive canonical quiet NaN (f16 0x7E00, bf16 0x7FC0).
enum class Cvt16Nan : uint8_t { payload, canonical };
// gfx950 v_cvt_sr_{f16,bf16}_f32: which 23 - M bits of S1 are the seed (f16 13, bf16 16): the
// top ones, S1[31:19] / S1[31:16] (default, as the fp8 SR instructions' S1[31:12]), or the low
// ones.
enum class Sr16Seed : uint8_t { high, low };
// The same instructions' results below the smallest normal: the value truncated to the grid of
// the denormal quantum / 2^(23 - M) and the seed added there (default, as sr_rounding's default
// reads the fp8 subnormals), or the seed added to the 24-bit significand at the normal LSB's
// place before the denormalising shift (the pseudocode's mantissa add read literally).
enum class Sr16Subnormal : uint8_t { grid, mantissa_add };
// gfx1250 v_cvt_sr_pk_{f16,bf16}_f32: the seed word each of the two elements rounds with (its
// bits then per sr16_seed). Element 0 takes S2; element 1 takes v_prng_b32(S2) (default:
// rocjitsu's model advances the seed so), S2 itself (`same`), or the two halves of S2 as two
// seeds, element i's word (S2 >> 16i) << 16 (`halves`).
enum class SrPkSeed : uint8_t { prng_step, same, halves };
// gfx1250 v_cvt_sr_{fp8,bf8}_f16: the seed bits that reach the f16 value: the f32 instruction's
// 23 - M top bits of S1 on the value widened to f32 (default), or only the top 10 - M of them,
// the f16 source's own fraction grid.
enum class Sr16Fp8Seed : uint8_t { f32_window, source_grid };
// gfx1250 v_cvt_sr_{fp8,bf8}_f16: what OPSEL[0] (op_sel:[1,0,0]) does: selects S0[31:16]
// (default), or nothing (S0[15:0] is converted).
enum class Sr16Fp8Opsel0 : uint8_t { high_half, ignored };
// gfx1250's one-byte fp8/bf8 -> f16 decodes: the 16-bit half of VDST that is not written (the
// e32 form writes the low half, VOP3 the half OPSEL[3] selects): the old VDST's (default) or
// zero (the whole dword written).
enum class F16DecodeHalf : uint8_t { kept, zeroed };
// The gfx950 multi-element scaled SR encoders (v_cvt_scalef32_sr_pk_fp4_*: 2 elements,
// v_cvt_scalef32_sr_pk32_*: 32): the seed word element i rounds with (model/ops/sr_seed_step.h).
// Element 0 takes S1; each next element the PRNG step of the previous one's, v_prng_b32^i(S1)
// (default: AMD's CDNA4 pseudocode), or S1 itself for every element (`same`: the seed not
// advanced).
enum class MxSrSeedStep : uint8_t { prng_step, same };
// gfx1250's scaled decodes with an E8M0 scale register (v_cvt_scale_pk8_*, docs/semantics.md
// §14.1): which E8M0 byte of the 32-bit scale operand scale_sel (0..15, OPSEL[3:0]) picks: byte
// scale_sel & 3 (default), byte scale_sel >> 2, or none: the operand's f32 exponent field
// (bits 30:23) whatever scale_sel says.
enum class MxScaleSel : uint8_t { low2, high2, f32_exponent };
// The same decodes: which way the E8M0 byte e scales an element: multiplied by 2^(e-127)
// (default), or divided by it.
enum class MxUpScale : uint8_t { multiply, divide };
// gfx1250's FP6/BF6 encoders of 16 elements (v_cvt_scalef32_pk16_*): where element i lands in
// the 96-bit VDST: field i at bits 6i+5:6i (default), or gfx950's 2XPK16 interleave over the
// two halves (element i < 8 at field 2i, element 8 + i at field 2i + 1).
enum class MxPk16Fp6Order : uint8_t { linear, interleaved };
// gfx1250 v_cvt_pk_{fp8,bf8}_f16 (two f16 packed in S0): what OPSEL[0] (LLVM accepts and prints
// op_sel:[1,d]) does: nothing (default), it selects S0[31:16] for element 0 as a VOP3P op_sel bit
// with op_sel_hi 1 (both elements from the high f16), or it swaps S0's halves.
enum class PkF16Opsel0 : uint8_t { ignored, high_half, halves_swapped };

struct Hypotheses {
  PkU8Rounding pk_u8_rounding = PkU8Rounding::mode;
  PkU8Nan pk_u8_nan = PkU8Nan::zero;
  SrRounding sr_rounding = SrRounding::carry_truncate;
  SrSeed sr_seed = SrSeed::high;
  SrOverflow sr_overflow = SrOverflow::after_rounding;
  Fp8Nan fp8_nan = Fp8Nan::canonical;
  Fp16Ovfl fp16_ovfl = Fp16Ovfl::saturate_finite;
  Gfx1250Clamp gfx1250_clamp = Gfx1250Clamp::ue5m3;
  PkFp8Clamp pk_fp8_clamp = PkFp8Clamp::ignored;
  Fp8ToF32Nan fp8_to_f32_nan = Fp8ToF32Nan::sign_quiet;
  Ue5m3Nan ue5m3_nan = Ue5m3Nan::comgr_7fa3d000;
  Fp8DenormInput fp8_denorm_input = Fp8DenormInput::kept;
  Fp8ToF32Outmod fp8_to_f32_outmod = Fp8ToF32Outmod::applied;
  Fp8SdwaSel fp8_sdwa_sel = Fp8SdwaSel::pseudocode;
  Src16Constant src16_constant = Src16Constant::replicated;
  PkOverflow pk_overflow = PkOverflow::after_rounding;
  MxScaleReadH mx_scale_read = MxScaleReadH::exponent;
  MxScaleZero mx_scale_zero = MxScaleZero::pow2_m127;
  MxScaleNan mx_scale_nan = MxScaleNan::nan;
  MxUpOverflow mx_up_overflow = MxUpOverflow::infinity;
  MxDenormOut mx_denorm_out = MxDenormOut::kept;
  MxUpRound mx_up_round = MxUpRound::nearest_even;
  MxF16Half mx_f16_half = MxF16Half::kept;
  MxDownScale mx_down_scale = MxDownScale::divide;
  MxFp8Overflow mx_fp8_overflow = MxFp8Overflow::nan;
  MxBf8Overflow mx_bf8_overflow = MxBf8Overflow::infinity;
  MxDenormIn mx_denorm_in = MxDenormIn::kept;
  MxSrRoundH mx_sr_round = MxSrRoundH::source_grid;
  MxFp4Nan mx_fp4_nan = MxFp4Nan::max_keep_sign;
  MxPk16Neg mx_pk16_neg = MxPk16Neg::both_halves;
  MxSr16Opsel0 mx_sr16_opsel0 = MxSr16Opsel0::ignored;
  Cvt16Outmod cvt16_outmod = Cvt16Outmod::applied;
  Cvt16DenormOut cvt16_denorm_out = Cvt16DenormOut::mode;
  Cvt16Nan cvt16_nan = Cvt16Nan::payload;
  Sr16Seed sr16_seed = Sr16Seed::high;
  Sr16Subnormal sr16_subnormal = Sr16Subnormal::grid;
  SrPkSeed sr_pk_seed = SrPkSeed::prng_step;
  Sr16Fp8Seed sr16_fp8_seed = Sr16Fp8Seed::f32_window;
  Sr16Fp8Opsel0 sr16_fp8_opsel0 = Sr16Fp8Opsel0::high_half;
  F16DecodeHalf f16_decode_half = F16DecodeHalf::kept;
  MxSrSeedStep mx_sr_seed_step = MxSrSeedStep::prng_step;
  MxScaleSel mx_scale_sel = MxScaleSel::low2;
  MxUpScale mx_up_scale = MxUpScale::multiply;
  MxPk16Fp6Order mx_pk16_fp6_order = MxPk16Fp6Order::linear;
  PkF16Opsel0 pk_f16_opsel0 = PkF16Opsel0::ignored;

  friend bool operator==(const Hypotheses&, const Hypotheses&) = default;
};

// One reading of a rule, with where it comes from.
struct HypothesisValue {
  absl::string_view name;
  absl::string_view computes;    // what it computes, one sentence
  absl::string_view source;      // repository, path, function (and the version read), or evidence
  absl::string_view targets;     // the targets that source claims
  absl::string_view lane;        // one discriminating lane, with its answer here and the default's
};

// Why the default is the default on some targets.
struct TargetDefault {
  absl::string_view targets;  // "gfx1200 gfx1201"
  absl::string_view reason;   // the evidence, with its confidence (C, L+, L, U)
};

struct HypothesisInfo {
  absl::string_view name;         // "sr_rounding"
  absl::string_view question;     // what it decides, in one line
  std::vector<HypothesisValue> values;  // values[0] is the default
  std::vector<TargetDefault> defaults;  // why values[0] on which targets (every target listed)
  uint8_t (*get)(const Hypotheses&);
  void (*set)(Hypotheses*, uint8_t);
};

// Every hypothesis, in a fixed order.
std::span<const HypothesisInfo> AllHypotheses();

// The entry named `name`, or nullptr.
const HypothesisInfo* FindHypothesis(absl::string_view name);

// The reason the default holds on `target` ("" if the table has none: a bug the tests catch).
absl::string_view DefaultReason(const HypothesisInfo& info, absl::string_view target);

// Applies "name=value". Errors list the valid names, or the valid values of that name.
absl::Status SetHypothesis(absl::string_view name_equals_value, Hypotheses* h);

// "name=value" for every hypothesis, in registry order.
std::vector<std::string> HypothesisSettings(const Hypotheses& h);

// Only the settings that differ from the defaults ("" if none): for repro command lines.
std::vector<std::string> NonDefaultHypothesisSettings(const Hypotheses& h);

// What the fp8 conversion family's arithmetic (model/fp) needs from the readings, for one batch
// (docs/semantics.md §10.7 says which instruction calls which function with these).
//
// f32 -> 8-bit float (v_cvt_pk_fp8_f32, v_cvt_pk_bf8_f32; the same fields as the SR
// instructions): `fp16_ovfl_bit` is MODE[23]; `clamp_saturates` is the CLAMP bit when it selects
// no format (every target but gfx1250 v_cvt_pk_fp8_f32 with gfx1250_clamp != ignored).
Fp8Options Fp8EncodeOptionsFor(const Hypotheses& h, bool fp16_ovfl_bit, bool clamp_saturates);

// 8-bit float -> f32 (v_cvt_f32_fp8/bf8, v_cvt_pk_f32_fp8/bf8): `f16_input_denormals` is MODE[6];
// `omod` the VOP3/SDWA OMOD field and `clamp` the CLAMP bit when it selects no format (0/false
// in e32 and wherever the encoding has none); `dx10_clamp` MODE[8] on GFX9 (true on GFX12).
Fp8ToF32Options Fp8DecodeOptionsFor(const Hypotheses& h, bool f16_input_denormals, uint32_t omod,
                                    bool clamp, bool dx10_clamp);

// The gfx950 scaled 8-bit float -> f32 conversions (v_cvt_scalef32_f32_fp8/bf8): how the scale
// operand is read and applied (model/fp/mx.h MxScaleF32; docs/semantics.md §11).
struct MxScaledDecode {
  MxScaleRead read = MxScaleRead::exponent;
  MxDecodeOptions options;
};
MxScaledDecode MxScaledDecodeFor(const Hypotheses& h);

// The gfx950 scaled 8-bit float encoders (v_cvt_scalef32_pk_{fp8,bf8}_*, model/fp/mx.h
// F32ToFp8ScaledRne): the scale readings (mx_scale_read, mx_scale_zero, mx_scale_nan,
// mx_down_scale, mx_denorm_in) and the format's special bytes: fp8_nan for NaNs (the family
// reading, MODE not read), mx_fp8_overflow (E4M3) or mx_bf8_overflow (E5M2) for infinite sources
// and overflows; the SR encoders (F32ToFp8ScaledSr) also mx_sr_round.
struct MxScaledEncode {
  MxFp8EncodeOptions options;
  Fp8Options fp8;
};
MxScaledEncode MxScaledEncodeFor(const Hypotheses& h, const Fp8Format& format);

// How the gfx950 scaled MX element encoders (FP4, FP6/BF6) read their scale and options
// (model/fp/mx.h F32ToMxScaledRne, F32ToMxScaledSr): the scale readings as MxScaledEncodeFor's
// (mx_scale_read, mx_scale_zero, mx_scale_nan, mx_down_scale, mx_denorm_in), mx_fp4_nan for
// NaNs and, for the SR encoders, mx_sr_round. Infinite sources and overflows saturate to
// sign|max under every reading (mx.h).
struct MxScaledElemEncode {
  MxScaleRead read = MxScaleRead::exponent;
  MxEncodeOptions options;
  MxSrRound sr_round = MxSrRound::source_grid;
};
MxScaledElemEncode MxScaledElemEncodeFor(const Hypotheses& h);

// The table for `lanediff targets --hypotheses`: per rule, its values with their provenance
// and the default per target with its reason. `json` gives the same as one JSON array.
std::string DescribeHypotheses(bool json);

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_TARGETS_HYPOTHESES_H_
