#include "device_harness/sim/errata.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace lanediff {
namespace {

// The reach of each erratum, from the row's fields (ErratumInfo::reaches).
constexpr bool Every(const InstrInfo&) { return true; }
constexpr bool NoRow(const InstrInfo&) { return false; }
constexpr bool HasSeed(const InstrInfo& r) { return r.src[1] == SrcRole::sr_seed; }
// The scaled SR encoders: S1 a seed, S2 a block scale.
constexpr bool ScaledSr(const InstrInfo& r) { return HasSeed(r) && r.src[2] == SrcRole::scale_f32; }
// The unscaled SR rows writing an 8-bit float (sr_rounding is their rule; the scaled ones read
// mx_sr_round, the 16-bit SR rows' seed rules are sr16_*).
constexpr bool UnscaledSr(const InstrInfo& r) {
  return HasSeed(r) && r.writes_float() && !ScaledSr(r);
}
constexpr bool WritesU8(const InstrInfo& r) { return r.output == OutputKind::u8_int; }
constexpr bool WritesOneByte(const InstrInfo& r) {
  return r.write == DstWrite::byte_at_src1 || r.write == DstWrite::byte_at_opsel_3_2;
}
constexpr bool Writes8BitFloat(const InstrInfo& r) { return r.writes_float(); }
// The rows reading MODE.FP16_OVFL: the 8-bit float writers and the f32 -> f16 conversions
// (gfx950's pair and stochastic-rounding f16 rows: an f16 past 65504).
constexpr bool ReadsFp16Ovfl(const InstrInfo& r) {
  return r.writes_float() || (r.output == OutputKind::f16 && r.src[0] == SrcRole::data_f32);
}
constexpr bool ClampIsUe5m3Bit(const InstrInfo& r) { return r.fp8_slot == Fp8Slot::fp8_clamp_ue5m3; }
// S1 is a seed whose bit 31 matters and the row has no NEG[1] of its own.
// src1_neg's reach: a seed S1 without a NEG[1] of its own, or gfx1250's E8M0 scale register
// (bit 31 is its byte 3's top bit).
constexpr bool SeedWithoutNeg1(const InstrInfo& r) {
  return (HasSeed(r) && (r.neg_abs_srcs & 0b010) == 0) || r.src[1] == SrcRole::scale_e8m0_x4;
}
constexpr bool WritesHalf(const InstrInfo& r) { return r.write == DstWrite::half_at_opsel_3; }
constexpr bool ReadsSourceByte(const InstrInfo& r) { return r.src[0] == SrcRole::fp8_bytes; }
constexpr bool WritesPair(const InstrInfo& r) { return r.dst_bits == 64; }
constexpr bool DecodesToF32(const InstrInfo& r) { return r.output == OutputKind::f32; }
constexpr bool AcceptsSrc0Neg(const InstrInfo& r) { return (r.neg_abs_srcs & 0b001) != 0; }
constexpr bool ReadsScale(const InstrInfo& r) {
  return r.src[1] == SrcRole::scale_f32 || r.src[2] == SrcRole::scale_f32;
}
// The scaled encoders: two elements into a 16-bit half, S2 the scale (two f32 sources) or S1
// (two packed 16-bit floats in S0).
constexpr bool EncodesScaledPair(const InstrInfo& r) {
  return r.write == DstWrite::half_at_opsel_3 &&
         (r.src[2] == SrcRole::scale_f32 ||
          (IsPacked16(r.src[0]) && r.src[1] == SrcRole::scale_f32));
}
// The unscaled RNE 8-bit float writers (the scaled encoders' quantum moves with the scale, and
// pk_overflow is not their rule).
constexpr bool RoundsRneTo8BitFloat(const InstrInfo& r) {
  return r.writes_float() && !HasSeed(r) && !ReadsScale(r);
}
constexpr bool WritesFp4Pair(const InstrInfo& r) { return r.output == OutputKind::fp4; }
constexpr bool ReadsFp6Tuple(const InstrInfo& r) { return r.src[0] == SrcRole::fp6_x32; }
// The FP6/BF6 encoders: a tuple of 32 six-bit codes written.
constexpr bool WritesFp6Tuple(const InstrInfo& r) { return r.output == OutputKind::fp6; }
constexpr bool ReadsE8m0Register(const InstrInfo& r) { return r.src[1] == SrcRole::scale_e8m0_x4; }
// The multi-element scaled SR encoders (a seed, a scale; several FP4 or FP6/BF6 codes): their
// seed advances between elements (mx_sr_seed_step).
constexpr bool ScaledSrMultiElement(const InstrInfo& r) {
  return ScaledSr(r) && (r.output == OutputKind::fp4 || r.output == OutputKind::fp6);
}
constexpr bool WritesTwo16BitFloats(const InstrInfo& r) {
  return (r.output == OutputKind::f16 || r.output == OutputKind::bf16) && r.write == DstWrite::dword;
}

constexpr ErratumInfo kErrata[] = {
    {Erratum::sr_wrap, "sr_wrap",
     "SR seed add wraps as the literal pseudocode says (model sr_rounding=literal)",
     "unscaled SR lanes where literal and carry_truncate differ (fp8 OCP 0x3fffffff seed "
     "0xfffff000: 0x39, not 0x40); pk_u8, the scaled SR rows (mx_sr_round is theirs) and the "
     "16-bit SR rows (sr16_* are theirs) never",
     false, UnscaledSr},
    {Erratum::u8_truncate, "u8_truncate",
     "the f32 -> u8 conversion truncates toward zero (model pk_u8_rounding=truncate)",
     "pk_u8 lanes that MODE's rounding rounds up (129.5 RNE: 129, not 130); SR never", false, WritesU8},
    {Erratum::byte12_swap, "byte12_swap",
     "destination bytes 1 and 2 swapped: byte select 1 writes byte 2 and 2 writes byte 1 "
     "(pk_u8 S1[1:0], SR OPSEL[3:2])",
     "only lanes selecting byte 1 or 2, when the written byte differs from a preserved byte "
     "at those positions",
     false, WritesOneByte},
    {Erratum::nan_sign, "nan_sign", "OCP NaN output keeps its sign (model fp8_nan=sign_preserving)",
     "SR and packed 8-bit float conversions on OCP formats, NaN inputs with the sign clear "
     "(0x7f/0x7e, not 0xff/0xfe)", false, Writes8BitFloat},
    {Erratum::fp16_ovfl_ignored, "fp16_ovfl_ignored",
     "MODE.FP16_OVFL (bit 23) does nothing (model fp16_ovfl=ignored)",
     "SR and packed 8-bit float lanes, and f32 -> f16 lanes, with MODE[23]=1 whose finite value "
     "overflows after rounding", false, ReadsFp16Ovfl},
    {Erratum::gfx1250_clamp_ignored, "gfx1250_clamp_ignored",
     "gfx1250 CLAMP does not select UE5M3 (model gfx1250_clamp=ignored, A0 stepping)",
     "E4M3 conversions (SR, packed, and the fp8 -> f32 decode) with CLAMP=1 on gfx1250/gfx1251 "
     "where E4M3 and UE5M3 differ", false, ClampIsUe5m3Bit},
    {Erratum::src1_neg, "src1_neg",
     "NEG[1] honoured as float negation of the src1 word where the instruction has no NEG[1]: S1 "
     "bit 31 flipped before use",
     "only NEG[1]=1 batches; SR lanes whose result depends on seed bit 31; gfx1250's E8M0 "
     "scale-register decodes whose picked byte is byte 3; pk_u8 never; pk_fp8/pk_bf8 never "
     "(their NEG[1] negates src1 already)",
     false, SeedWithoutNeg1},
    {Erratum::half_swap, "half_swap",
     "an instruction writing a 16-bit half (OPSEL[3]) writes the other half: OPSEL[3] inverted",
     "every lane of those instructions whose two destination halves would differ", false, WritesHalf},
    {Erratum::round_odd, "round_odd",
     "the RNE 8-bit float conversions without a seed round to odd (truncate, set the last "
     "kept bit if inexact)",
     "lanes of those instructions with an inexact source (E4M3 tie 1.0625: 0x39, not 0x38)",
     false, RoundsRneTo8BitFloat},
    {Erratum::src_byte_swap, "src_byte_swap",
     "the fp8 -> f32 conversions read source byte 2 when byte 1 is selected and byte 1 when "
     "byte 2 is (GFX12/GFX1250 byte_sel, GFX9 SDWA src0_sel)",
     "lanes selecting byte 1 or 2 whose bytes 1 and 2 decode differently; e32 and GFX9 VOP3 "
     "never (they select byte 0)",
     false, ReadsSourceByte},
    {Erratum::pair_word_swap, "pair_word_swap",
     "an instruction writing a VGPR pair (dst_bits 64) writes its two words swapped: VDST gets "
     "VDST+1's word and VDST+1 VDST's",
     "every lane of those instructions whose two words differ (the packed fp8 -> f32 "
     "conversions: two bytes of the word that decode differently)",
     false, WritesPair},
    {Erratum::src0_neg_ignored, "src0_neg_ignored",
     "NEG[0] is ignored: src0 is converted as if the word's NEG[0] were 0 (a decoding fault)",
     "only NEG[0]=1 batches of the instructions accepting -x on src0; lanes whose result "
     "depends on src0's sign (SR E4M3 OCP 1.0 with NEG[0]: 0x38, not 0xb8)",
     false, AcceptsSrc0Neg},
    {Erratum::nan_decode_7fe, "nan_decode_7fe",
     "the 8-bit float -> f32 conversions write 0x7fe00000 for every NaN byte, whatever its "
     "sign (no reading of fp8_to_f32_nan or ue5m3_nan)",
     "lanes of those instructions converting a NaN byte (E4M3 OCP 0x7f: 0x7fe00000, not "
     "0x7fc00000)",
     false, DecodesToF32},
    {Erratum::garbage_lane, "garbage_lane", "lane n/2 of every batch returns VDST ^ 0xdeadbeef",
     "exactly lane n/2 of every batch", false, Every},
    {Erratum::mode_lost, "mode_lost",
     "the first MODE write is lost: MODE[7:0] stays at the default (MODE readback shows it)",
     "every batch with a non-default MODE[7:0] is a harness fault (MODE readback), not a finding", false, NoRow},
    {Erratum::crash, "crash",
     "the process aborts (SIGABRT) on a batch with a signalling-NaN src0 lane",
     "that batch is a device fault naming SIGABRT; other batches agree", true, Every},
    {Erratum::hang, "hang",
     "the process never returns from a batch with a signalling-NaN src0 lane",
     "that batch is a device fault (timeout); other batches agree", true, Every},
    {Erratum::nan_decode_negative, "nan_decode_negative",
     "every fp8/bf8 NaN byte decodes to 0xffc00000, whatever its sign (model "
     "fp8_to_f32_nan=negative_quiet)",
     "fp8/bf8 -> f32 lanes of OCP NaN bytes with the sign clear (E4M3 0x7f: 0xffc00000, not "
     "0x7fc00000); FNUZ never",
     false, ReadsSourceByte},
    {Erratum::overflow_before_round, "overflow_before_round",
     "the RNE 8-bit float conversions decide a finite overflow before rounding (model "
     "pk_overflow=before_rounding)",
     "lanes whose finite |x| is above max finite but rounds down to it (FNUZ E4M3 241.0: 0x80, "
     "not 0x7f; OCP E4M3 449.0: 0x7f, not 0x7e)",
     false, RoundsRneTo8BitFloat},
    {Erratum::nan_decode_payload, "nan_decode_payload",
     "every fp8/bf8 NaN byte decodes to 0x7fffffff, a NaN word no reading of fp8_to_f32_nan "
     "gives",
     "fp8/bf8 -> f32 lanes of every NaN byte (E4M3 0x7f/0xff, E5M2 0x7d-0x7f/0xfd-0xff, FNUZ "
     "0x80); the 16-bit float writers never",
     false, DecodesToF32},
    {Erratum::scale_mantissa, "scale_mantissa",
     "the scaled conversions multiply by the whole f32 scale operand, its mantissa, sign and "
     "NEG/ABS included (model mx_scale_read=f32_multiply)",
     "lanes of the scaled conversions whose S1 is not a positive power of two, where the "
     "product differs (E4M3 1.0 x S1 1.5: 0x3fc00000, not 0x3f800000)",
     false, ReadsScale},
    {Erratum::pk16_swap, "pk16_swap",
     "an instruction writing two 16-bit floats into one dword writes them exchanged: the high "
     "byte's element in bits 15:0, the low byte's in bits 31:16",
     "every lane of those instructions whose two elements differ (E4M3 word 0x4038 times 1.0 to "
     "f16: 0x3c004000, not 0x40003c00)",
     false, WritesTwo16BitFloats},
    {Erratum::scaled_element_swap, "scaled_element_swap",
     "the scaled pair encoders write element 0 (S0, or S0[15:0] of two packed 16-bit floats) "
     "into the high byte of their 16-bit half and element 1 into the low byte (the order of "
     "ROCm/clr's host "
     "__amd_cvt_floatx2_to_fp8x2_scale)",
     "lanes of the scaled encoders whose two bytes differ (E4M3 S0 2.0, S1 1.0, S2 2^1: "
     "0x3830, not 0x3038)",
     false, EncodesScaledPair},
    {Erratum::scaled_sr_exact_subnormal, "scaled_sr_exact_subnormal",
     "the scaled SR encoders round a subnormal result as rocjitsu's f32 SR encoder: every "
     "significand bit below the quantum kept and S1's top k bits added, zero past k = 24 (model "
     "mx_sr_round=f32_exact_subnormal)",
     "lanes of those instructions with a subnormal result where the dropped bits or the wider "
     "seed change the carry (E4M3 S0 0x3b800001, S1 0xffffffff, S2 1.0: 0x03, not 0x02)",
     false, ScaledSr},
    {Erratum::fp4_nibble_swap, "fp4_nibble_swap",
     "the scaled FP4 encoder writes element 0 (S0) into the high nibble of its byte and element "
     "1 (S1) into the low nibble",
     "lanes of the FP4 pair writers whose two codes differ (S0 1.0, S1 2.0, S2 2^0: byte 0x24, "
     "not 0x42)",
     false, WritesFp4Pair},
    {Erratum::fp6_fields_reversed, "fp6_fields_reversed",
     "the FP6/BF6 tuple decodes read the 192-bit tuple from its top: element i from field "
     "31 - i (bits 191-6i:186-6i)",
     "lanes of those instructions whose 32 results are not a palindrome (FP6 field 0 = 0x08 "
     "(1.0), the rest 0, scale 2^0: VDST 0 and VDST+31 0x3f800000, not the reverse)",
     false, ReadsFp6Tuple},
    {Erratum::fp6_interleave_swapped, "fp6_interleave_swapped",
     "the FP6/BF6 encoders write the two six-bit fields of every 12-bit pair exchanged: the "
     "interleaved ones S0's element i at bits 12i+11:12i+6 and S1's at bits 12i+5:12i, the ones "
     "from one tuple elements 2k and 2k + 1 exchanged (from 32 packed 16-bit floats: each "
     "source dword's two halves swapped; element 2k at bits 12k+11:12k+6)",
     "lanes of those instructions where some S0[i] and S1[i] give different codes (S0 1.0, S1 "
     "2.0, scale 2^0: VDST 0x08208208, not 0x08408408)",
     false, WritesFp6Tuple},
    {Erratum::sr_seed_not_advanced, "sr_seed_not_advanced",
     "the multi-element scaled SR encoders round every element with the seed S1: the seed not "
     "advanced by the PRNG step (V_PRNG_B32) between elements (model mx_sr_seed_step=same)",
     "lanes of those instructions where an element past the first rounds differently with S1 "
     "than with its stepped seed (FP4 pair {1.25, 1.25}, S1 0x80000000, S2 1.0: byte 0x33, not "
     "0x23)",
     false, ScaledSrMultiElement},
    {Erratum::scale_sel_high_bits, "scale_sel_high_bits",
     "gfx1250's decodes with an E8M0 scale register take the scale byte scale_sel >> 2 instead "
     "of scale_sel & 3 (model mx_scale_sel=high2)",
     "lanes of those instructions whose register bytes N & 3 and N >> 2 differ (E4M3 1.0, S1 "
     "0x7f7e7d80, scale_sel:6: 0x3e800000, not 0x3f000000)",
     false, ReadsE8m0Register},
};

}  // namespace

std::span<const ErratumInfo> AllErrata() { return kErrata; }

const ErratumInfo& GetErratumInfo(Erratum e) { return kErrata[static_cast<int>(e)]; }

bool ErratumReaches(Erratum e, Instr instr) {
  return GetErratumInfo(e).reaches(GetInstrInfo(instr));
}

absl::StatusOr<Erratum> ParseErratum(absl::string_view name) {
  std::vector<absl::string_view> names;
  for (const ErratumInfo& e : kErrata) {
    if (e.name == name) return e.id;
    names.push_back(e.name);
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown erratum '", name,
                                                 "' for --inject; valid: ",
                                                 absl::StrJoin(names, ", ")));
}

absl::StatusOr<ErrataSet> ErrataSet::Parse(const std::vector<std::string>& names) {
  ErrataSet set;
  for (const std::string& n : names) {
    absl::StatusOr<Erratum> e = ParseErratum(n);
    if (!e.ok()) return e.status();
    set.Add(*e);
  }
  return set;
}

bool ErrataSet::HasFault() const { return Has(Erratum::crash) || Has(Erratum::hang); }

std::vector<std::string> ErrataSet::Names() const {
  std::vector<std::string> out;
  for (const ErratumInfo& e : kErrata) {
    if (Has(e.id)) out.emplace_back(e.name);
  }
  return out;
}

std::string DescribeErrata() {
  std::string out;
  for (const ErratumInfo& e : kErrata) {
    std::vector<absl::string_view> reached;
    for (Instr i : kAllInstrs) {
      if (e.reaches(GetInstrInfo(i))) reached.push_back(InstrName(i));
    }
    absl::StrAppendFormat(&out, "  %-22s %s%s\n  %-22s   predicts: %s\n  %-22s   reaches: %s\n",
                          e.name, e.description, e.fault ? " [fault: runs isolated]" : "", "",
                          e.predicts, "", reached.empty() ? "no instruction" : absl::StrJoin(reached, ", "));
  }
  return out;
}

}  // namespace lanediff
