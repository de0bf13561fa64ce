// The simulator's errata catalogue: plausible silicon deviations, each a named, documented
// variant that `--device=sim --inject NAME` (repeatable) applies to the simulated device.
// The semantic errata select model hypotheses or transform operands/results inside the
// simulator; the model's defaults are never changed. The fault errata make the simulator
// misbehave as a broken device would (a wrong lane, a real crash, a real hang).
//
// | name                  | what the simulated device does                                   | what it predicts against the default model |
// |-----------------------|------------------------------------------------------------------|--------------------------------------------|
// | sr_wrap               | SR add wraps as the literal pseudocode (model sr_rounding=literal)| unscaled SR lanes differ where literal != carry_truncate (e.g. S0=0x3fffffff S1=0xfffff000 fp8 OCP: 0x39 vs 0x40); pk_u8 and the scaled SR rows (their rule is mx_sr_round) never |
// | u8_truncate           | pk_u8 truncates toward zero (model pk_u8_rounding=truncate)      | pk_u8 lanes whose value rounds up under MODE's rounding (129.5 RNE: 129 vs 130); SR never |
// | byte12_swap           | byte selects 1 and 2 are exchanged: the byte meant for 1 lands in 2 and vice versa (pk_u8: S1[1:0]; SR: OPSEL[3:2]) | only lanes selecting byte 1 or 2, and only when the written byte differs from either preserved byte at those positions |
// | nan_sign              | OCP NaN keeps its sign (model fp8_nan=sign_preserving)           | SR and packed 8-bit float conversions (both read fp8_nan) on OCP formats, positive NaN inputs: 0x7f/0x7e instead of 0xff/0xfe; FNUZ and pk_u8 never |
// | fp16_ovfl_ignored     | MODE.FP16_OVFL does nothing (model fp16_ovfl=ignored)            | SR and packed 8-bit float lanes and f32 -> f16 lanes (all read MODE[23]) with MODE[23]=1 and a finite value that overflows after rounding |
// | gfx1250_clamp_ignored | gfx1250 CLAMP does not select UE5M3 (model gfx1250_clamp=ignored)| the E4M3 conversions whose CLAMP is the UE5M3 bit (Fp8Slot::fp8_clamp_ue5m3: SR, packed and the one-byte decode) with CLAMP=1 on gfx1250/gfx1251 only, where E4M3 and UE5M3 differ |
// | src1_neg              | NEG[1] honoured as a float negation of the src1 word where the row has no NEG[1]: bit 31 of S1 flipped before use | only batches with NEG[1]=1; SR lanes whose result depends on seed bit 31; pk_u8 never (S1[31] unused); pk_fp8/pk_bf8 never (NEG[1] is theirs: src1 is negated already) |
// | half_swap             | an instruction that writes a 16-bit half (InstrInfo::write half_at_opsel_3) writes the other half and keeps this one: OPSEL[3] inverted | every lane of those instructions whose two halves would differ |
// | round_odd             | the RNE packed 8-bit float conversions (float output, no seed) round to odd: an inexact value is truncated and its last kept bit set | lanes of those instructions with an inexact source whose RNE result has an even last bit or rounded up (ties: 1.0625 E4M3 -> 0x39, not 0x38) |
// | src_byte_swap         | an instruction that converts one selected byte of S0 (SrcRole::fp8_bytes) reads byte 2 when byte 1 is selected and byte 1 when byte 2 is (GFX12/GFX1250 byte_sel = OPSEL[1:0], GFX9 SDWA src0_sel BYTE_1/BYTE_2) | lanes selecting byte 1 or 2 whose bytes 1 and 2 convert differently |
// | pair_word_swap        | an instruction writing a VGPR pair (InstrInfo::dst_bits 64) writes its two words swapped: VDST gets what VDST+1 should, and back | every lane of those instructions whose two words would differ (two different bytes in the converted word) |
// | nan_decode_negative   | every fp8/bf8 NaN byte decodes to 0xffc00000 (model fp8_to_f32_nan=negative_quiet) | the fp8/bf8 -> f32 conversions on OCP formats, NaN bytes with the sign clear (E4M3 0x7f: 0xffc00000, not 0x7fc00000); FNUZ never (0x80 decodes so already) |
// | overflow_before_round | the RNE pair writers decide a finite overflow before rounding (model pk_overflow=before_rounding) | v_cvt_pk_fp8/bf8_f32 lanes whose finite |x| is above max finite but rounds down to it (FNUZ E4M3 241.0: 0x80, not 0x7f; OCP E4M3 449.0: 0x7f, not 0x7e) |
// | nan_decode_payload    | every fp8/bf8 NaN byte decodes to 0x7fffffff: a NaN word no reading gives | the fp8/bf8 -> f32 conversions, every NaN byte |
// | src0_neg_ignored      | NEG[0] is ignored: src0 is converted as if the word's NEG[0] were 0 (an instruction-word decoding fault, not a reading of a rule) | only batches with NEG[0]=1 of the instructions that accept -x on src0 (InstrInfo::neg_abs_srcs bit 0); lanes whose result depends on src0's sign (SR 1.0 E4M3 OCP with NEG[0]: 0x38, not 0xb8) |
// | nan_decode_7fe        | an 8-bit float -> f32 conversion (OutputKind::f32) writes 0x7fe00000 for every NaN it decodes, whatever the sign: a NaN word no reading of fp8_to_f32_nan or ue5m3_nan gives | lanes of those instructions whose selected byte (or either byte of a pair) is a NaN |
// | scale_mantissa        | the scaled conversions (SrcRole::scale_f32) multiply (encoders: divide) by the whole f32 scale, mantissa, sign and NEG/ABS included (model mx_scale_read=f32_multiply) | lanes of those instructions whose scale (S1, or S2 of the 3-source encoders) has a mantissa or sign bit set, or is 0/Inf/NaN, where the product differs (1.0 E4M3 x S1 1.5: 0x3fc00000, not 0x3f800000) |
// | scaled_element_swap   | the scaled pair encoders (S2 a scale, or S0 two packed 16-bit floats and S1 the scale) write element 0 (S0, or S0[15:0]) into the high byte of the half and element 1 into the low byte, ROCm/clr's host order (amd_hip_ocp_fp.hpp __amd_cvt_floatx2_to_fp8x2_scale `l << 8 \| r`) | lanes of those instructions whose two bytes differ (S0 2.0, S1 1.0, S2 2^1 E4M3: 0x3830, not 0x3038) |
// | scaled_sr_exact_subnormal | the scaled SR encoders (S1 a seed, S2 a scale) round a subnormal result as rocjitsu's f32 SR encoder does: every significand bit below the quantum kept and S1's top k bits added, zero past k = 24 (model mx_sr_round=f32_exact_subnormal) | lanes of those instructions with a subnormal result where the dropped bits or the wider seed change the carry (E4M3 S0 0x3b800001, S1 0xffffffff, S2 1.0: 0x03, not 0x02) |
// | fp4_nibble_swap       | the scaled FP4 encoder writes element 0 (S0) into the high nibble of its byte and element 1 (S1) into the low nibble | lanes of the FP4 byte writers whose two codes differ (S0 1.0, S1 2.0, S2 2^0: byte 0x24, not 0x42) |
// | fp6_fields_reversed   | the FP6/BF6 tuple decodes (SrcRole::fp6_x32) read the 192-bit tuple from its top: element i from field 31 - i (bits 191-6i:186-6i) | lanes of those instructions whose 32 results are not a palindrome (FP6 field 0 = 0x08 (1.0), the rest 0, scale 2^0: VDST 0, VDST+31 0x3f800000, not the reverse) |
// | fp6_interleave_swapped | the FP6/BF6 encoders (OutputKind::fp6) write the two fields of every 12-bit pair exchanged: the interleaved ones S0's element i at bits 12i+11:12i+6 and S1's at 12i+5:12i, the others elements 2k and 2k + 1 exchanged (from 32 packed 16-bit floats: each source dword's two halves) | lanes of those instructions where some S0[i] and S1[i] give different codes (S0 1.0, S1 2.0, scale 2^0: VDST 0x08208208, not 0x08408408) |
// | sr_seed_not_advanced  | the multi-element scaled SR encoders (a seed S1, a scale S2, FP4 or FP6/BF6 codes) round every element with S1: the seed not advanced by the PRNG step (V_PRNG_B32) between elements (model mx_sr_seed_step=same) | lanes of those instructions where some element past the first rounds differently with S1 than with its stepped seed (FP4 pair {1.25, 1.25}, S1 0x80000000, S2 1.0: byte 0x33, not 0x23) |
// | scale_sel_high_bits   | gfx1250's decodes with an E8M0 scale register (SrcRole::scale_e8m0_x4) take the scale byte scale_sel >> 2, not scale_sel & 3 (model mx_scale_sel=high2) | lanes of those instructions whose register's bytes N & 3 and N >> 2 differ under a scale_sel whose two readings differ (E4M3 1.0, S1 0x7f7e7d80, scale_sel:6: 0x3e800000, not 0x3f000000) |
// | pk16_swap             | an instruction writing two 16-bit floats into one dword (OutputKind f16/bf16, DstWrite::dword) writes them exchanged: the high byte's element in bits 15:0 | every lane of those instructions whose two elements differ (two bytes of the selected word that convert differently) |
// | garbage_lane          | one lane (index n/2) returns its VDST XOR 0xdeadbeef             | exactly lane n/2 of every batch |
// | mode_lost             | the first MODE write is lost (MODE[7:0] stays at the default), as back-to-back GFX9 s_setregs without wait states can | every batch whose MODE[7:0] is not the default is a harness fault (MODE readback mismatch), not a finding |
// | crash                 | the process calls abort() when a lane's src0 is a signalling NaN | that batch is a device fault (SIGABRT); other batches unaffected |
// | hang                  | the process never returns when a lane's src0 is a signalling NaN | that batch is a device fault (timeout); other batches unaffected |
//
// A signalling NaN is 0x7f800001..0x7fbfffff or 0xff800001..0xffbfffff.
//
// Which instructions an erratum can touch is data too: ErratumInfo::reaches, a test of the
// row's fields (model/instrs.def) that restates the "predicts" column, so a new row is covered
// without naming it anywhere (fuzz/triage/erratum_buckets_test.cc checks the buckets against it).
#ifndef LANEDIFF_DEVICE_HARNESS_SIM_ERRATA_H_
#define LANEDIFF_DEVICE_HARNESS_SIM_ERRATA_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "model/targets/targets.h"

namespace lanediff {

enum class Erratum : uint8_t {
  sr_wrap,
  u8_truncate,
  byte12_swap,
  nan_sign,
  fp16_ovfl_ignored,
  gfx1250_clamp_ignored,
  src1_neg,
  half_swap,
  round_odd,
  src_byte_swap,
  pair_word_swap,
  src0_neg_ignored,
  nan_decode_7fe,
  garbage_lane,
  mode_lost,
  crash,
  hang,
  nan_decode_negative,
  overflow_before_round,
  nan_decode_payload,
  scale_mantissa,
  pk16_swap,
  scaled_element_swap,
  scaled_sr_exact_subnormal,
  fp4_nibble_swap,
  fp6_fields_reversed,
  fp6_interleave_swapped,
  sr_seed_not_advanced,
  scale_sel_high_bits,
};

struct ErratumInfo {
  Erratum id;
  absl::string_view name;
  absl::string_view description;  // what the simulated device does, one line
  absl::string_view predicts;     // where it disagrees with the default model, one line
  bool fault;                     // crashes or hangs the process: run isolated
  // The rows it can change a finding on (false for every row: it makes no finding, e.g. a
  // harness fault); stated from the row's fields, never its name.
  bool (*reaches)(const InstrInfo& row);
};

// The catalogue, in the enum's order (the table above lists the three last ones before
// garbage_lane, with the other semantic errata).
std::span<const ErratumInfo> AllErrata();

// Looks a name up; the error lists every valid name.
absl::StatusOr<Erratum> ParseErratum(absl::string_view name);
const ErratumInfo& GetErratumInfo(Erratum e);
// GetErratumInfo(e).reaches(GetInstrInfo(instr)).
// fp6_interleave_swapped's effect on one lane's 6 VDST words (192 bits) or 3 (96 bits, gfx1250's
// 16-element encoders): the two six-bit fields of each 12-bit pair k (bits 12k+5:12k and
// 12k+11:12k+6) exchanged. Other widths: unchanged.
inline void SwapFp6Interleave(absl::Span<uint32_t> w) {
  if (w.size() != 6 && w.size() != 3) return;  // 32 codes, or gfx1250's 16
  uint32_t out[6] = {};
  const int n = static_cast<int>(w.size());
  for (int bit = 0; bit < 32 * n; ++bit) {
    const int from = bit % 12 < 6 ? bit + 6 : bit - 6;
    out[bit / 32] |= ((w[from / 32] >> (from % 32)) & 1u) << (bit % 32);
  }
  for (int k = 0; k < n; ++k) w[k] = out[k];
}

bool ErratumReaches(Erratum e, Instr instr);

// A set of injected errata.
class ErrataSet {
 public:
  // Parses names (repeats allowed); the error names the bad one.
  static absl::StatusOr<ErrataSet> Parse(const std::vector<std::string>& names);
  void Add(Erratum e) { bits_ |= 1u << static_cast<int>(e); }
  bool Has(Erratum e) const { return (bits_ >> static_cast<int>(e)) & 1u; }
  bool empty() const { return bits_ == 0; }
  bool HasFault() const;  // crash or hang
  std::vector<std::string> Names() const;  // catalogue order

 private:
  uint32_t bits_ = 0;
};

// The catalogue as a table for `lanediff devices` and --help.
std::string DescribeErrata();

// 0x7f800001..0x7fbfffff or 0xff800001..0xffbfffff: what triggers crash and hang.
constexpr bool IsSignallingNan(uint32_t w) {
  return (w & 0x7f800000u) == 0x7f800000u && (w & 0x00400000u) == 0 && (w & 0x007fffffu) != 0;
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_SIM_ERRATA_H_
