#include "model/targets/hypotheses.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

template <typename E, E Hypotheses::*Field>
uint8_t Get(const Hypotheses& h) {
  return static_cast<uint8_t>(h.*Field);
}
template <typename E, E Hypotheses::*Field>
void Set(Hypotheses* h, uint8_t v) {
  h->*Field = static_cast<E>(v);
}

// The sources, spelled once. docs/semantics.md §9 says what was read in each and when.
#define ROCJITSU_RDNA4                                                                  \
  "ROCm/rocm-systems emulation/rocjitsu RDNA4 path (lib/rocjitsu/src/rocjitsu/isa/arch/" \
  "amdgpu/shared/, written against gfx1201 results; bit-identical to these defaults on "  \
  "fuzzed lanes)"
#define ROCJITSU_CDNA                                                                 \
  "ROCm/rocm-systems emulation/rocjitsu/lib/util/include/util/data_types.h (read at " \
  "02dd3a6f), chosen for CDNA by lib/python/amdisa/codegen/execute/vector_special.py "  \
  "gen_cvt_fp8 and fp8_formats.py"
#define HIP_HOST "ROCm clr hipamd/include/hip/amd_detail/amd_hip_fp8.h cast_to_f8 (host path)"
#define TINYGRAD "tinygrad/tinygrad test/mockgpu/amd/pcode.py _f_to_u via 'f32_to_u8'"
#define GOC_RDNA4                                                                          \
  "goc RDNA4 emulator rdna4_fp8_narrow.h goc::narrow_fp8 ('RDNA4 NaN, infinity and subnormal " \
  "stochastic behavior established by GPU captures'; MIT, repository not named by the index)"
#define COMGR_E5M3                                                                          \
  "ROCm comgr comgr-hotswap-patch-f32-to-e5m3.cpp (gfx1250 B0 CLAMP emulation on A0): "     \
  "emitF32ToUE5M3, patchCvtPkFp8F32, patchCvtF32Fp8"
#define ROCJITSU_CVT_FP8                                                                   \
  "ROCm/rocm-systems emulation/rocjitsu vector_special.py gen_cvt_fp8 (_gen_pk_narrow_fp8, " \
  "_gen_pk_widen_fp8) with data_types.h (02dd3a6f)"
#define ISA_CDNA "AMD CDNA3/CDNA4 ISA guides, V_CVT_F32_FP8 / V_CVT_PK_F32_FP8 pseudocode and notes"
#define ISA_CDNA4_SCALE                                                                    \
  "AMD CDNA4 ISA pseudocode V_CVT_SCALEF32_F32_FP8/_BF8 ('scale = 32'U(exponent(S1.f32))'), as " \
  "extracted in tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py"
#define GEM5_SCALE                                                                         \
  "gem5/gem5 src/arch/amdgpu/common/dtype/mxfp.hh mxfp::scaleMul (the f32 scale's exponent " \
  "field; 0xFF gives NaN) called by src/arch/amdgpu/vega/insts/vop3_cvt.hh "                \
  "Inst_VOP3__V_CVT_SCALE::execute"
#define HIP_OCP                                                                              \
  "ROCm/clr hipamd/include/hip/amd_detail/amd_hip_ocp_host.hpp to_float (AMD's host model of " \
  "gfx950) and amd_hip_ocp_fp.hpp __amd_scale_to_float"
#define HIP_OCP_FROM                                                                         \
  "ROCm/clr hipamd/include/hip/amd_detail/amd_hip_ocp_host.hpp from_float (AMD's host model of " \
  "gfx950)"
#define LLVM_MC "llvm-mc-22 (model/isa/testdata/fp8_family_forms.txt)"
#define ISA_CDNA4_CVT16                                                                      \
  "AMD CDNA4 ISA pseudocode V_CVT_PK_F16_F32 / V_CVT_PK_BF16_F32 (f32_to_f16 / f32_to_bf16 of " \
  "S0 and S1 under a forced ROUND_NEAREST_EVEN), as extracted in tinygrad/tinygrad "          \
  "tinygrad/runtime/autogen/amd/cdna/str_pcode.py"
#define LLVM_FPTRUNC                                                                          \
  "LLVM 22 AMDGPU (llc-22 -mcpu=gfx950 selects fptrunc <2 x float> to <2 x half> / <2 x "      \
  "bfloat> as v_cvt_pk_f16_f32 / v_cvt_pk_bf16_f32, as it selects v_cvt_f16_f32, whose "       \
  "denormals follow MODE.FP_DENORM)"
#define ROCJITSU_CVT_F16_SR                                                                  \
  "ROCm/rocm-systems emulation/rocjitsu, its gfx1250 V_CVT_SR_FP8_F16 execute path as a "      \
  "review of it quotes it ('inst_.clamp ? f32_to_fp8_e5m3_sr : f32_to_fp8_e4m3_sr' on the "    \
  "widened f16)"
#define ROCJITSU_SR_PK                                                                     \
  "ROCm/rocm-systems emulation/rocjitsu lib/python/amdisa/codegen/execute/vector_special.py " \
  "gen_vector_cvt_pk, classes vector_cvt_sr_pk_f16_f32 / vector_cvt_sr_pk_bf16_f32"
#define ROCJITSU_RDNA_CONVERSION                                                  \
  "ROCm/rocm-systems emulation/rocjitsu/lib/rocjitsu/src/rocjitsu/isa/arch/amdgpu/" \
  "shared/conversion.h (read at c2cc4766, the RDNA4 path written against gfx1201 results)"

constexpr absl::string_view kNoSr =
    "gfx908 gfx90a gfx1010 gfx1030 gfx1100 gfx1150";  // targets without the SR instructions
// The same targets have none of the fp8 conversion family (pk, f32_fp8, pk_f32_fp8) either.
constexpr absl::string_view kNoFp8 =
    "gfx908 gfx90a gfx1010 gfx1030 gfx1100 gfx1150";
// Every target but gfx950 lacks the scaled conversions (TargetFeature::fp8_cvt_scale).
constexpr absl::string_view kNoMx =
    "gfx908 gfx90a gfx942 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201 gfx1250 gfx1251";
constexpr absl::string_view kNoMxReason = "no gfx950 scaled conversions: the rule does not arise";
// The targets with neither gfx950's scaled conversions nor gfx1250's.
constexpr absl::string_view kNoMxScaled =
    "gfx908 gfx90a gfx942 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201";
// A rule gfx1250's scaled conversions read as gfx950's do (docs/semantics.md §14).
constexpr absl::string_view kGfx1250Scaled =
    "U: no gfx1250 pseudocode is public; gfx950's reading is carried over to gfx1250's scaled "
    "conversions that read the rule: the 8- and 16-element encoders (v_cvt_scalef32_pk8_*, "
    "_pk16_*) read their f32 scale and element formats as gfx950's encoders do, "
    "v_cvt_scale_pk8_* and _pk16_* the E8M0 byte scale_sel picks as gfx950's decodes read their "
    "scale's exponent field (the same operands and element formats in llvm-mc-22; not measured)";
// gfx1250's 8-wide and 16-element SR encoders (v_cvt_scalef32_sr_pk8_*, docs/semantics.md
// §14.5; v_cvt_scalef32_sr_pk16_*, §14.7) round as gfx950's scaled SR encoders do.
constexpr absl::string_view kGfx1250ScaledSr =
    "U: no gfx1250 pseudocode is public; gfx950's reading is carried over to the SR encoders "
    "v_cvt_scalef32_sr_pk8_* and v_cvt_scalef32_sr_pk16_* (the same seed and scale operands and "
    "element formats in llvm-mc-22; not measured)";
// The same targets but gfx1250/gfx1251 lack the f32 -> f16/bf16 pair conversions
// (TargetFeature::gfx950_insts); gfx1250 lacks the single-f32 SR forms (kNoMx).
constexpr absl::string_view kNoCvt16 =
    "gfx908 gfx90a gfx942 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201";
constexpr absl::string_view kNoCvt16Reason =
    "no gfx950 f32 -> f16/bf16 conversions (v_cvt_pk_f16_f32 and its kin are not rows here): the "
    "rule does not arise";
// gfx1250's scaled decodes (shapes U and V, docs/semantics.md §14.2, §14.6) read the gfx950
// scale rules on the E8M0 byte scale_sel picks.
constexpr absl::string_view kGfx1250ScaledDecode =
    "U: no gfx1250 pseudocode is public; v_cvt_scale_pk8_* and _pk16_* decode with an E8M0 byte "
    "as gfx950's scaled decodes do with the exponent field of their f32 scale, so gfx950's reading is carried "
    "over (not measured)";
// The targets without gfx1250's scaled decodes with an E8M0 scale register (shapes U, V).
constexpr absl::string_view kNoShapeU =
    "gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201";
constexpr absl::string_view kNoShapeUReason =
    "no scaled decode with an E8M0 scale register: the rule does not arise";
// gfx1250's reading of a rule it shares with gfx950 (docs/semantics.md §13.1).
constexpr absl::string_view kGfx1250AsGfx950 =
    "U: no gfx1250 pseudocode is public; gfx950's documented behaviour is carried over (the same "
    "mnemonics, operands and modifiers in llvm-mc-22)";

// Long: the registry is a data table, one entry per hypothesis with its readings and provenance.
const std::vector<HypothesisInfo>& Registry() {
  static const auto* registry = new std::vector<HypothesisInfo>{
      {"pk_u8_rounding",
       "v_cvt_pk_u8_f32: how f32 is rounded to an integer",
       {{"mode", "rounds with MODE[1:0], the f32 round mode (RNE unless changed)",
         ROCJITSU_RDNA4, "gfx1200 gfx1201 (measured)",
         "gfx1201 src0=0x43018000 (129.5): 0x82"},
        {"truncate", "always toward zero, MODE ignored",
         TINYGRAD "; gem5 src/arch/amdgpu/vega/insts/vop3.cc (a C cast); rocjitsu's CDNA path "
         "(clamp then truncate, per the notes this project keeps; not re-read)",
         "RDNA3 (tinygrad), Vega/CDNA (gem5, rocjitsu CDNA)", "gfx1100 src0=0x43018000 (129.5): 0x81 (default 0x82)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1250 gfx1251",
         "L: the ISA guides' MODE round mode applies to float->int conversions; not measured"}},
       Get<PkU8Rounding, &Hypotheses::pk_u8_rounding>,
       Set<PkU8Rounding, &Hypotheses::pk_u8_rounding>},
      {"pk_u8_nan",
       "v_cvt_pk_u8_f32: the byte a NaN input produces",
       {{"zero", "NaN gives 0", ROCJITSU_RDNA4, "gfx1200 gfx1201 (measured)",
         "gfx1100 src0=0x7fc00000: 0x00"},
        {"max", "NaN gives 255 (the host cast of a NaN; the C cast itself is undefined)",
         TINYGRAD, "RDNA3, RDNA4, CDNA (one emulator for all)",
         "gfx1100 src0=0x7fc00000: 0xff (default 0x00)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1250 gfx1251",
         "L: v_cvt_u32_f32 and friends give 0 for NaN in every ISA guide; not measured here"}},
       Get<PkU8Nan, &Hypotheses::pk_u8_nan>, Set<PkU8Nan, &Hypotheses::pk_u8_nan>},
      {"sr_rounding",
       "v_cvt_sr_*: how the seed rounds the value",
       {{"carry_truncate",
         "seed added just below the kept LSB with carry, then truncated; a subnormal result is "
         "first truncated to its quantum's 24-bit window; specials first",
         ROCJITSU_RDNA4 "; comgr PR #3275", "gfx1200 gfx1201 (measured)",
         "gfx950 fp8 src0=0x3fffffff src1=0xfffff000: 0x40"},
        {"literal",
         "the ISA pages' pseudocode word for word: 23-bit fraction add that wraps, before "
         "special handling, then RNE",
         "AMD ISA guides (CDNA3/CDNA4/RDNA4/CDNA5) V_CVT_SR_FP8_F32 pseudocode",
         "every target with the instruction (text only, no implementation)",
         "gfx950 fp8 src0=0x3fffffff src1=0xfffff000: 0x39 (default 0x40)"},
        {"exact_subnormal",
         "as carry_truncate in the normal range; a subnormal result keeps all k dropped bits "
         "(k = 23 - M + distance below the smallest normal) and adds the top k seed bits; past "
         "k = 24 the result is a signed zero whatever the seed",
         ROCJITSU_CDNA " f32_to_fp8_e4m3_sr, f32_to_bf8_e5m2_sr, detail::f32_to_fnuz_sr, "
         "f32_to_fp8_e5m3_sr",
         "gfx942 gfx950 gfx1250 (CDNA paths)",
         "gfx950 fp8 src0=0x3c7fffff src1=0x00000800: 0x08 (default 0x07)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "U: not measured; the RDNA4 measurement is carried over; rocjitsu's CDNA paths "
         "(exact_subnormal) and the pseudocode (literal) are unmeasured alternatives"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<SrRounding, &Hypotheses::sr_rounding>, Set<SrRounding, &Hypotheses::sr_rounding>},
      {"sr_seed",
       "v_cvt_sr_*: which bits of S1 are the seed",
       {{"high", "S1's top 23 - M bits (S1[31:12] for E4M3/UE5M3, S1[31:11] for E5M2)",
         "AMD ISA guides ('S1[31:12]'); " ROCJITSU_RDNA4 "; " ROCJITSU_CDNA,
         "every target with the instruction",
         "gfx950 fp8 src0=0x3f800001 src1=0x000fffff: 0x38"},
        {"low", "S1's low 23 - M bits (S1[19:0] / S1[20:0])",
         HIP_HOST ": 'rng & drop_mask'", "gfx942 gfx950 gfx12 (the host stand-in for them)",
         "gfx950 fp8 src0=0x3f800001 src1=0x000fffff: 0x39 (default 0x38)"}},
       {{"gfx942 gfx950 gfx1200 gfx1201 gfx1250 gfx1251",
         "C: the ISA pages name S1[31:12]; both emulators agree (L+ on gfx12)"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<SrSeed, &Hypotheses::sr_seed>, Set<SrSeed, &Hypotheses::sr_seed>},
      {"sr_overflow",
       "v_cvt_sr_*: is a finite overflow decided after or before rounding",
       {{"after_rounding",
         "only a value that rounds (with its seed) above the largest finite overflows",
         ROCJITSU_RDNA4 "; " ROCJITSU_CDNA, "every target with the instruction",
         "gfx950 fp8 src0=0x43e00001 src1=0: 0x7e"},
        {"before_rounding",
         "any finite |x| above the largest finite overflows, whatever the seed",
         HIP_HOST ": '(x & mask) > ifmax' before the seed is added",
         "gfx942 gfx950 gfx12 (the host stand-in for them)",
         "gfx950 fp8 src0=0x43e00001 src1=0: 0x7f (default 0x7e)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "L: both AMD emulator paths agree; HIP's host code is a stand-in, not a model"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<SrOverflow, &Hypotheses::sr_overflow>, Set<SrOverflow, &Hypotheses::sr_overflow>},
      {"fp8_nan",
       "OCP formats: the byte a NaN input produces (v_cvt_sr_* and v_cvt_pk_fp8/bf8_f32)",
       {{"canonical", "0xFF (E4M3) / 0xFE (E5M2) whatever the sign", ROCJITSU_RDNA4 "; " GOC_RDNA4,
         "gfx1200 gfx1201 (measured)", "gfx950 bf8 src0=0x7fc00000: 0xfe"},
        {"sign_preserving", "sign|0x7F (E4M3) / sign|0x7E (E5M2)",
         "no public implementation found; the quiet-NaN pattern of each format with the sign "
         "kept", "-", "gfx950 bf8 src0=0x7fc00000: 0x7e (default 0xfe)"},
        {"sign_7f", "sign|0x7F for both E4M3 and E5M2",
         ROCJITSU_CDNA " f32_to_fp8_e4m3_sr / f32_to_bf8_e5m2_sr; " HIP_HOST " ('nan = (sign "
         "<< 7) + 0x7f')",
         "gfx950 gfx1250 (rocjitsu CDNA); OCP targets (HIP)",
         "gfx950 bf8 src0=0x7fc00000: 0x7f (default 0xfe)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx950 gfx1250 gfx1251",
         "U: not measured; the RDNA4 measurement is carried over; sign_7f is what rocjitsu's "
         "CDNA path and HIP's host code compute"},
        {"gfx942", "FNUZ formats: 0x80 is the only NaN, the rule does not arise"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<Fp8Nan, &Hypotheses::fp8_nan>, Set<Fp8Nan, &Hypotheses::fp8_nan>},
      {"fp16_ovfl",
       "MODE[23] FP16_OVFL on the SR instructions and v_cvt_pk_fp8/bf8_f32",
       {{"saturate_finite", "a finite overflow gives sign|max-finite; Inf and NaN unchanged",
         ROCJITSU_RDNA4 "; " GOC_RDNA4 " ('Saturation applies only to finite inputs'); Triton "
         "rdnacvt.ll note (pk_fp8 overflow gives 0x7f without MODE[23], +-448 with it)",
         "gfx1200 gfx1201 (measured)",
         "gfx950 fp8 MODE=0x008000f0 src0=0x7f800000: 0x7f"},
        {"ignored", "the bit changes nothing",
         "rocjitsu vector_special.py gen_cvt_fp8 at 0ffdc8c6 (calls the SR helpers without "
         "the _mode variants)",
         "gfx942 gfx950 gfx1250 (that version)",
         "gfx950 fp8 MODE=0x008000f0 src0=0x43f00000: 0x7f (default 0x7e)"},
        {"saturate_all",
         "every non-NaN overflow saturates, Inf included (E4M3 sign|0x7E, E5M2 sign|0x7B, FNUZ "
         "sign|0x7F, UE5M3 0xFE)",
         ROCJITSU_CDNA " f32_to_fp8_e4m3_sr_mode, f32_to_bf8_e5m2_sr_mode, "
         "f32_to_fp8_e4m3_fnuz_sr_mode, f32_to_fp8_e5m3_sr_mode",
         "gfx942 gfx950 gfx1250 (CDNA paths)",
         "gfx950 fp8 MODE=0x008000f0 src0=0x7f800000: 0x7e (default 0x7f)"}},
       {{"gfx1200 gfx1201", "L+: the RDNA4 emulator path was measured on an RX 9070 XT"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "U: not measured; the RDNA4 measurement is carried over; rocjitsu's CDNA path "
         "saturates Inf too"},
        {kNoSr, "no SR instructions: the rule does not arise"}},
       Get<Fp16Ovfl, &Hypotheses::fp16_ovfl>, Set<Fp16Ovfl, &Hypotheses::fp16_ovfl>},
      {"gfx1250_clamp",
       "gfx1250 CLAMP on v_cvt_sr_fp8_f32, v_cvt_pk_fp8_f32 and v_cvt_f32_fp8 (UE5M3 in or out)",
       {{"ue5m3",
         "CLAMP=1 selects UE5M3: negatives give 0x00, +Inf 0xFE, NaN 0xFF, overflow 0xFE; "
         "v_cvt_f32_fp8 decodes the byte as UE5M3",
         "LLVM __builtin_amdgcn_cvt_sr_fp8_f32_e5m3 (B0 stepping); " COMGR_E5M3,
         "gfx1250 B0", "gfx1250 fp8 clamp src0=0x7f800000: 0xfe"},
        {"ignored", "CLAMP is non-functional: the result is E4M3", "AMD comgr notes (A0 stepping)",
         "gfx1250 A0", "gfx1250 fp8 clamp src0=0x3f800000: 0x38 (default 0x78)"},
        {"ue5m3_magnitude",
         "CLAMP=1 encodes |x| as UE5M3 (the sign dropped); NaN, Inf and overflow give 0xFF",
         ROCJITSU_CDNA " f32_to_fp8_e5m3_sr, f32_to_fp8_e5m3_rne (chosen by inst_.clamp in "
         "gen_cvt_fp8)",
         "gfx1250", "gfx1250 fp8 clamp src0=0xb8000000: 0x04 (default 0x00)"}},
       {{"gfx1250 gfx1251",
         "L: the LLVM _e5m3 builtin and AMD's B0 notes; not measured (the sign handling of "
         "UE5M3 on negatives is U)"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "CLAMP does not select a format here: the rule does not arise"}},
       Get<Gfx1250Clamp, &Hypotheses::gfx1250_clamp>,
       Set<Gfx1250Clamp, &Hypotheses::gfx1250_clamp>},
      {"pk_fp8_clamp",
       "v_cvt_pk_fp8/bf8_f32: CLAMP where it selects no format (LLVM refuses it there); also "
       "gfx1250's packed bf8 encoder from two f16, where LLVM takes it (docs/semantics.md §13.8)",
       {{"ignored", "the bit changes nothing",
         "AMD CDNA4 ISA guide V_CVT_PK_FP8_F32 / V_CVT_PK_BF8_F32 notes ('Round to nearest even. "
         "Ignores OMOD and clamp.'); "
         LLVM_MC " refuses clamp on both on gfx942/gfx950/gfx12 and on pk_bf8 on gfx1250; "
         ROCJITSU_CVT_FP8 " reads inst_.clamp only as gfx1250's format select; HIP/CK clip in "
         "software (fmed3) before the builtin when they want saturation",
         "gfx942 gfx950 gfx1200 gfx1201 gfx1250 gfx1251",
         "gfx950 fp8 clamp src0=0x43f00000 src1=0: 0x007f (default)"},
        {"saturate_finite", "CLAMP=1 saturates a finite overflow to sign|max-finite, like MODE[23]",
         "AMD's fp8 vocabulary: Triton's SetFP8ClampingAttr calls MODE[23] the 'FP8 clamp bit' "
         "(rdnacvt.ll note); no implementation reads the VOP3 CLAMP bit so",
         "-", "gfx950 fp8 clamp src0=0x43f00000 src1=0: 0x007e (default 0x007f)"}},
       {{"gfx950", "C (text): the CDNA4 ISA guide says the pk pair ignores OMOD and clamp"},
        {"gfx942 gfx1200 gfx1201 gfx1250 gfx1251",
         "L: an encoding LLVM refuses; the CDNA4 text carried over, no source gives the bit a "
         "meaning"},
        {kNoFp8, "no fp8 conversion instructions: the rule does not arise"}},
       Get<PkFp8Clamp, &Hypotheses::pk_fp8_clamp>, Set<PkFp8Clamp, &Hypotheses::pk_fp8_clamp>},
      {"fp8_to_f32_nan",
       "v_cvt_f32_fp8/bf8, v_cvt_pk_f32_fp8/bf8: the f32 a NaN byte gives (signed formats)",
       {{"sign_quiet", "sign|0x7FC00000 (FNUZ 0x80: 0xFFC00000); E5M2 NaN payloads dropped",
         ROCJITSU_CDNA " fp8_e4m3_ocp_to_f32, bf8_e5m2_ocp_to_f32, fp8_e4m3_fnuz_to_f32, "
         "bf8_e5m2_fnuz_to_f32 (called by gen_cvt_fp8 for every target)",
         "gfx942 gfx950 gfx1200 gfx1201 gfx1250", "gfx942 v_cvt_f32_fp8 src0=0x80: 0xffc00000"},
        {"host_7f800001", "0x7F800001 for every NaN byte, the sign dropped",
         HIP_HOST " cast_from_f8 ('ifNaN = 0x7F800001', rocBLAS-derived; the host stand-in for "
         "__builtin_amdgcn_cvt_f32_fp8)",
         "gfx942 gfx950 gfx12 (the host stand-in for them)",
         "gfx942 v_cvt_f32_fp8 src0=0x80: 0x7f800001 (default 0xffc00000)"},
        {"negative_quiet",
         "0xFFC00000 for every NaN byte whatever its sign (E4M3 0x7F and 0xFF, E5M2 0x7D-0x7F and "
         "0xFD-0xFF; FNUZ 0x80 as sign_quiet)",
         ROCJITSU_RDNA_CONVERSION " decode_fp8 (detail::kDecodedNan), marked there as an ISA "
         "discrepancy seen on gfx1201: the chip encodes every NaN as 0xFF/0xFE and decodes every "
         "NaN to 0xFFC00000",
         "gfx1201 (results the header was written against)",
         "gfx1201 v_cvt_f32_fp8 src0=0x7f: 0xffc00000 (default 0x7fc00000)"}},
       {{"gfx1200 gfx1201",
         "U, contested by L+: rocjitsu's RDNA4 conversion.h, written against gfx1201 results, "
         "states that gfx1201 decodes every NaN to 0xFFC00000 (negative_quiet); the same header's "
         "encode half (canonical 0xFF/0xFE) is the measured fp8_nan default. The registry keeps "
         "one default per rule for every target, so sign_quiet stays; a gfx1201 that follows "
         "the header shows as the finding fp8_to_f32_nan=negative_quiet, and discriminate asks "
         "E4M3 0x7F to tell the two apart"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "U: not measured; the AMD emulator's CDNA decoder against HIP's host stand-in (on "
         "gfx942's FNUZ formats negative_quiet is the same reading: 0x80 is the only NaN)"},
        {kNoFp8, "no fp8 conversion instructions: the rule does not arise"}},
       Get<Fp8ToF32Nan, &Hypotheses::fp8_to_f32_nan>,
       Set<Fp8ToF32Nan, &Hypotheses::fp8_to_f32_nan>},
      {"ue5m3_nan",
       "gfx1250 v_cvt_f32_fp8 with CLAMP=1 (UE5M3 in): the f32 the NaN byte 0xFF gives",
       {{"comgr_7fa3d000", "0x7FA3D000",
         COMGR_E5M3 " ('byte 0xFF to hardware qNaN 0x7FA3D000')", "gfx1250 B0",
         "gfx1250 v_cvt_f32_fp8 clamp src0=0xff: 0x7fa3d000"},
        {"quiet", "0x7FC00000", ROCJITSU_CDNA " fp8_e5m3_to_f32", "gfx1250",
         "gfx1250 v_cvt_f32_fp8 clamp src0=0xff: 0x7fc00000 (default 0x7fa3d000)"}},
       {{"gfx1250 gfx1251",
         "L: AMD's compiler emulates B0 silicon and names the value the hardware qNaN; not "
         "measured here"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "no UE5M3 input: the rule does not arise"}},
       Get<Ue5m3Nan, &Hypotheses::ue5m3_nan>, Set<Ue5m3Nan, &Hypotheses::ue5m3_nan>},
      {"fp8_denorm_input",
       "v_cvt_f32_fp8/bf8, v_cvt_pk_f32_fp8/bf8: does MODE flush a subnormal 8-bit input",
       {{"kept", "subnormal bytes decode exactly (every one is a normal f32); MODE ignored",
         ROCJITSU_CDNA " decoders (ldexp of the mantissa); " ISA_CDNA " (fp8_to_f32 has no MODE "
         "term)",
         "gfx942 gfx950 gfx1200 gfx1201 gfx1250", "gfx942 v_cvt_f32_fp8 MODE=0x30 src0=0x01: "
         "0x3a800000"},
        {"flush_f16_mode",
         "a subnormal byte gives a zero of its sign when MODE[6] (f16/f64 input denormals) is 0",
         COMGR_E5M3 " patchCvtF32Fp8: decodes through v_cvt_f32_f16 (byte << 7), which flushes "
         "f16 denormal inputs under that MODE",
         "gfx1250 (an emulation sequence)",
         "gfx942 v_cvt_f32_fp8 MODE=0x30 src0=0x01: 0x00000000 (default 0x3a800000)"}},
       {{"gfx942 gfx950 gfx1200 gfx1201 gfx1250 gfx1251",
         "L: the emulator and the pseudocode decode exactly; the f16 path is a software stand-in"},
        {kNoFp8, "no fp8 conversion instructions: the rule does not arise"}},
       Get<Fp8DenormInput, &Hypotheses::fp8_denorm_input>,
       Set<Fp8DenormInput, &Hypotheses::fp8_denorm_input>},
      {"fp8_to_f32_outmod",
       "v_cvt_f32_fp8/bf8, v_cvt_pk_f32_fp8/bf8: do OMOD and CLAMP act on the f32 result",
       {{"applied",
         "OMOD scales (exactly) by 2, 4 or 1/2, then CLAMP clamps to [+0, 1.0] (NaN to +0 under "
         "MODE.DX10_CLAMP), as on any f32 VOP3 result; the harness kernels always run with "
         "DX10_CLAMP set (GFX9-11 descriptors), so a NaN under CLAMP with it clear cannot be "
         "run, only evaluated (lanediff eval --raw-mode)",
         LLVM_MC " accepts clamp and mul:2/mul:4/div:2 on the e64 and SDWA forms on gfx942/gfx950 "
         "(VOP3 output modifiers of an f32 result)",
         "gfx942 gfx950", "gfx942 v_cvt_f32_fp8_e64 clamp src0=0x48: 0x3f800000"},
        {"ignored", "OMOD and CLAMP change nothing",
         ROCJITSU_CVT_FP8 " (_gen_pk_widen_fp8 reads neither)", "gfx942 gfx950 gfx12",
         "gfx942 v_cvt_f32_fp8_e64 clamp src0=0x48: 0x40000000 (default 0x3f800000)"}},
       {{"gfx942 gfx950",
         "L: LLVM encodes both as output modifiers; the emulator that ignores them is unmeasured"},
        {"gfx1200 gfx1201 gfx1250 gfx1251",
         "U: LLVM refuses OMOD and CLAMP here (gfx1250 v_cvt_f32_fp8 CLAMP is gfx1250_clamp); "
         "the rule only matters for raw encodings"},
        {kNoFp8, "no fp8 conversion instructions: the rule does not arise"}},
       Get<Fp8ToF32Outmod, &Hypotheses::fp8_to_f32_outmod>,
       Set<Fp8ToF32Outmod, &Hypotheses::fp8_to_f32_outmod>},
      {"fp8_sdwa_sel",
       "gfx9 SDWA src0_sel on v_cvt_f32_fp8/bf8 and v_cvt_pk_f32_fp8/bf8: which byte or word",
       {{"pseudocode",
         "v_cvt_f32: BYTE_1/2/3 pick that byte, every other select byte 0; v_cvt_pk_f32: "
         "SEL[1:0] == 1 (WORD_1, BYTE_1) picks the high word, else the low word",
         ISA_CDNA " ('if SDWA_SRC0_SEL == BYTE1 ... else BYTE0 implied'; 'tmp = "
         "SDWA_SRC0_SEL[1 : 0] == WORD1 ? S0[31 : 16] : S0[15 : 0]')",
         "gfx942 gfx950", "gfx942 v_cvt_f32_fp8_sdwa src0_sel:WORD_1 src0=0x00380000: 0x00000000"},
        {"extract",
         "the generic SDWA operand rule: the selected byte/word, zero-extended, then the low "
         "byte/word converted (WORD_1 reads byte 2; pk BYTE_n reads byte n and a zero byte)",
         "AMD GCN/CDNA ISA guides, SDWA section (SRC0_SEL extracts, SRC0_SEXT extends); no "
         "fp8-specific implementation",
         "gfx942 gfx950",
         "gfx942 v_cvt_f32_fp8_sdwa src0_sel:WORD_1 src0=0x00380000: 0x3f000000 (default "
         "0x00000000)"}},
       {{"gfx942 gfx950",
         "C for the selects the ISA calls legal (BYTE_n; WORD_n on pk), where both readings "
         "agree; U for the others, which LLVM also accepts"},
        {"gfx1200 gfx1201 gfx1250 gfx1251", "no SDWA on GFX12: the rule does not arise"},
        {kNoFp8, "no fp8 conversion instructions: the rule does not arise"}},
       Get<Fp8SdwaSel, &Hypotheses::fp8_sdwa_sel>, Set<Fp8SdwaSel, &Hypotheses::fp8_sdwa_sel>},
      {"src16_constant",
       "gfx12/gfx1250 v_cvt_pk_f32_fp8/bf8: what a constant in the 16-bit SRC0 reads in the word "
       "op_sel:[1,0] selects (the high half)",
       {{"replicated",
         "an inline constant's 16-bit value (f16 pattern, or integer as 16 bits) in both halves, "
         "so op_sel:[1,0] reads the same constant; a literal reads its dword as encoded (LLVM "
         "encodes a 16-bit literal with 0 above, so the high half is 0)",
         "no source for these instructions; VOP3P practice in LLVM: SIFoldOperands folds a splat "
         "f16 inline constant into a packed operand with op_sel_hi set (the hardware reads the "
         "constant in both halves), and reviews.llvm.org/D45745 ('Literal encoding needs "
         "op_sel_hi to select low 16 bit'): a literal is read as the dword encoded",
         "gfx1200 gfx1201 gfx1250 gfx1251 (by analogy with VOP3P; U)",
         "gfx1200 v_cvt_pk_f32_fp8_e64 v[2:3], 1.0 op_sel:[1,0]: reads 0x3c00, VDST 0x00000000 "
         "(byte 0x00), VDST+1 0x3fc00000 (E4M3 byte 0x3c = 1.5)"},
        {"low_only",
         "the constant's 16-bit value in bits 15:0 and 0 in bits 31:16 (an inline constant's "
         "f16 pattern or 16-bit integer; a literal's low 16 bits), so op_sel:[1,0] reads 0",
         "no source; the reading of a 16-bit operand as exactly 16 bits wide",
         "-",
         "gfx1200 v_cvt_pk_f32_fp8_e64 v[2:3], 1.0 op_sel:[1,0]: reads 0x0000, VDST 0x00000000, VDST+1 "
         "0x00000000 (default 0x3fc00000)"}},
       {{"gfx1200 gfx1201 gfx1250 gfx1251",
         "U: not measured and no source for these instructions; the VOP3P analogy only"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150",
         "no 16-bit source operand in the rows on these targets: the rule does not arise"}},
       Get<Src16Constant, &Hypotheses::src16_constant>,
       Set<Src16Constant, &Hypotheses::src16_constant>},
      {"pk_overflow",
       "v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (RNE): is a finite overflow decided after or before "
       "rounding",
       {{"after_rounding",
         "only a value that rounds to nearest even above the largest finite overflows (OCP E4M3 "
         "448 < x < 464 gives 448)",
         ROCJITSU_RDNA_CONVERSION " detail::finish_fp8 (the rounded magnitude against the "
         "largest); " ROCJITSU_CDNA " f32_to_fp8_e4m3_rne, f32_to_bf8_e5m2_rne, f32_to_fnuz_rne; "
         "AMD CDNA4 ISA guide V_CVT_PK_FP8_F32 ('Round to nearest even')",
         "gfx942 gfx950 gfx1200 gfx1201 gfx1250",
         "gfx942 v_cvt_pk_fp8_f32 src0=0x43710000 (241.0) src1=0: 0x0000007f"},
        {"before_rounding",
         "any finite |x| above the largest finite overflows, whatever RNE would round it to "
         "(FNUZ E4M3 241.0: 0x80; OCP E4M3 448 < x < 464: sign|0x7F; E5M2 above 57344: Inf)",
         HIP_HOST ": internal::cast_to_f8 compares the magnitude with ifmax, the largest finite, "
         "before it rounds, for RNE (stoch false) as for SR; the same check as sr_overflow's "
         "before_rounding",
         "gfx942 gfx950 gfx12 (the host stand-in for __builtin_amdgcn_cvt_pk_fp8_f32)",
         "gfx942 v_cvt_pk_fp8_f32 src0=0x43710000 (241.0) src1=0: 0x00000080 (default "
         "0x0000007f); gfx950 src0=0x43e08000 (449.0): 0x0000007f (default 0x0000007e)"}},
       {{"gfx1200 gfx1201",
         "L+: the RDNA4 emulator path, written against gfx1201 results, rounds first"},
        {"gfx942 gfx950 gfx1250 gfx1251",
         "L: both AMD emulator paths round first; HIP's host code is a stand-in, not a model"},
        {kNoFp8, "no fp8 conversion instructions: the rule does not arise"}},
       Get<PkOverflow, &Hypotheses::pk_overflow>, Set<PkOverflow, &Hypotheses::pk_overflow>},
      {"mx_scale_read",
       "gfx950 v_cvt_scalef32_*: what of the f32 scale operand S1 is read",
       {{"exponent",
         "its exponent field bits [30:23] as an E8M0 byte, 2^(e-127); sign, mantissa and so "
         "NEG/ABS are not read",
         ISA_CDNA4_SCALE "; " GEM5_SCALE "; " HIP_OCP " ('encoded in the exponent bits of an "
         "IEEE-754 float')",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x38 (1.0) src1=0x3fc00000 (1.5): 0x3f800000"},
        {"f32_multiply",
         "the element times the whole f32 S1 (NEG/ABS applied), one IEEE multiplication "
         "rounded to nearest even",
         "LLVM clang/docs/AMDGPUBuiltins.rst (the builtins' scale argument called a "
         "multiplicative scale factor); the generic reading of an f32 operand",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x38 src1=0x3fc00000: 0x3fc00000 (default "
         "0x3f800000)"}},
       {{"gfx950", "L: the ISA pseudocode, gem5's model and HIP's host model all read the "
                   "exponent field only"},
        {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxScaleReadH, &Hypotheses::mx_scale_read>,
       Set<MxScaleReadH, &Hypotheses::mx_scale_read>},
      {"mx_scale_zero",
       "gfx950 v_cvt_scalef32_*: the scale byte 0x00 (S1 +-0.0 or an f32 denormal)",
       {{"pow2_m127",
         "2^-127, as every other byte 2^(e-127) (OCP MX v1.0 E8M0 has no zero)",
         ISA_CDNA4_SCALE " (the exponent is the E8M0 byte); " GEM5_SCALE " (exponent 0 - 127); "
         "OCP MX v1.0 as restated by jax-ml/ml_dtypes ml_dtypes/include/mxfloat.h",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x38 (1.0) src1=0: 0x00400000 (2^-127)"},
        {"zero",
         "the value 0: the result is a zero of the element's sign (Inf * 0 = NaN)",
         HIP_OCP ": __amd_scale_to_float(0) builds +0.0, so a unit multiplying by that f32 "
         "would see 0",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x38 src1=0: 0x00000000 (default 0x00400000)"}},
       {{"gfx950", "L: the ISA reads an E8M0 byte, whose 0x00 is 2^-127 (OCP)"},
        {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxScaleZero, &Hypotheses::mx_scale_zero>, Set<MxScaleZero, &Hypotheses::mx_scale_zero>},
      {"mx_scale_nan",
       "gfx950 v_cvt_scalef32_*: the scale byte 0xFF (S1 +-Inf or NaN)",
       {{"nan",
         "NaN: the result is sign(element) | 0x7fc00000 whatever the element",
         GEM5_SCALE "; " HIP_OCP " (to_float: a NaN scale gives a NaN of the element's sign); "
         "OCP MX v1.0 (E8M0 0xFF is NaN)",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x38 (1.0) src1=0x7f800000: 0x7fc00000"},
        {"pow2_128",
         "2^128: the exponent goes on, so a nonzero element overflows and a zero stays zero",
         "the exponent field read as an unsigned 8-bit exponent with no special case (no "
         "implementation found; the literal arithmetic reading)",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x38 src1=0x7f800000: 0x7f800000 (default "
         "0x7fc00000); src0=0x00: 0x00000000 (infinity: 0x7fc00000)"},
        {"infinity",
         "+Inf: x * Inf, so a nonzero element gives +-Inf and a zero one the NaN 0x7fc00000",
         HIP_OCP ": __amd_scale_to_float(0xFF) gives the bits 0x7F800000",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x00 src1=0x7f800000: 0x7fc00000 (pow2_128 "
         "0x00000000); src0=0x38: 0x7f800000 (default 0x7fc00000)"}},
       {{"gfx950", "L: gem5 and HIP's host model give NaN; OCP's E8M0 0xFF is NaN"},
        {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxScaleNan, &Hypotheses::mx_scale_nan>, Set<MxScaleNan, &Hypotheses::mx_scale_nan>},
      {"mx_up_overflow",
       "gfx950 v_cvt_scalef32_*: a scaled result beyond the destination's largest finite (f32, "
       "f16 65504, bf16)",
       {{"infinity",
         "+-Inf",
         HIP_OCP " (to_float: +-Inf, commented 'gfx950 HW behavior')",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x7e (448) src1=0x7f000000 (2^127): 0x7f800000"},
        {"saturate",
         "+-0x7f7fffff, the largest finite f32",
         "saturation as the MX quantizers apply it to elements (microsoft/microxcaling "
         "mx/elemwise_ops.py saturate_normals); no decode implementation found",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x7e src1=0x7f000000: 0x7f7fffff (default "
         "0x7f800000); v_cvt_scalef32_pk_f16_fp8 src0=0x7e7e src1=0x43800000 (2^8): 0x7bff7bff "
         "(default 0x7c007c00); f16 and bf16 give +-0x7bff / +-0x7f7f"}},
       {{"gfx950", "L: AMD's host model names it the hardware's behaviour"}, {"gfx1250 gfx1251", kGfx1250ScaledDecode},
        {kNoMxScaled, kNoMxReason}},
       Get<MxUpOverflow, &Hypotheses::mx_up_overflow>,
       Set<MxUpOverflow, &Hypotheses::mx_up_overflow>},
      {"mx_denorm_out",
       "gfx950 v_cvt_scalef32_*: a scaled result below the destination's smallest normal "
       "(2^-126 for f32 and bf16, 2^-14 for f16)",
       {{"kept",
         "the exact f32 denormal (every fp8/bf8 element times 2^-127 is one)",
         HIP_OCP " (to_float rounds into the destination's denormal range)",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x30 (0.5) src1=0x00800000 (2^-126): 0x00400000"},
        {"flush",
         "a zero of the result's sign (as a unit adding the scale to the f32 exponent field, "
         "which has no denormals, would give)",
         "the exponent-add mechanism (gem5 mxfp::scaleMul adds the scale to the exponent field, "
         "though it clamps to the smallest normal exponent instead of flushing); MODE-style "
         "output flush",
         "gfx950",
         "gfx950 v_cvt_scalef32_f32_fp8 src0=0x30 src1=0x00800000: 0x00000000 (default "
         "0x00400000); v_cvt_scalef32_f16_fp8 src0=0x38 (1.0) src1=0x38000000 (2^-15): "
         "0x00000000 (default 0x00000200)"}},
       {{"gfx950", "L: AMD's host model keeps them"}, {"gfx1250 gfx1251", kGfx1250ScaledDecode},
        {kNoMxScaled, kNoMxReason}},
       Get<MxDenormOut, &Hypotheses::mx_denorm_out>, Set<MxDenormOut, &Hypotheses::mx_denorm_out>},
      {"mx_up_round",
       "gfx950 v_cvt_scalef32_*_{f16,bf16}_*: a scaled product between two f16/bf16 values (only "
       "below the smallest normal under the exponent reading of the scale)",
       {{"nearest_even",
         "rounded to the nearer, ties to the even value",
         HIP_OCP " (to_float: round and sticky bits into the destination's denormal range)",
         "gfx950",
         "gfx950 v_cvt_scalef32_f16_fp8 src0=0x3f (1.875) src1=0x34800000 (2^-22): 0x00000008 "
         "(7.5 * 2^-24)"},
        {"toward_zero",
         "truncated: the significand shifted right into the denormal range with no round bit",
         "a denormalising shift as an exponent-add unit would do it (no implementation found; "
         "the reading that keeps the bits that fit)",
         "gfx950",
         "gfx950 v_cvt_scalef32_f16_fp8 src0=0x3f src1=0x34800000: 0x00000007 (default "
         "0x00000008)"}},
       {{"gfx950", "L: AMD's host model rounds to nearest even"}, {"gfx1250 gfx1251", kGfx1250ScaledDecode},
        {kNoMxScaled, kNoMxReason}},
       Get<MxUpRound, &Hypotheses::mx_up_round>, Set<MxUpRound, &Hypotheses::mx_up_round>},
      {"mx_f16_half",
       "gfx950 v_cvt_scalef32_f16_fp8/bf8: the 16-bit half of VDST that OPSEL[3] does not select",
       {{"kept",
         "the old VDST's half",
         "LLVM 22 (the instruction's `vdst_in` operand tied to VDST: the old value is read); AMD "
         "CDNA4 pseudocode's comment 'OPSEL[3] controls destination hi/lo', as extracted in "
         "tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py",
         "gfx950",
         "gfx950 v_cvt_scalef32_f16_fp8 src0=0x38 (1.0) src1=0x3f800000 vdst_old=0xdeadbeef: "
         "0xdead3c00"},
        {"zeroed",
         "zero: the whole dword is written",
         "the same pseudocode's last line `D0 = tmp.b32` read literally (tmp holds the f16 in "
         "the selected half)",
         "gfx950",
         "gfx950 v_cvt_scalef32_f16_fp8 src0=0x38 src1=0x3f800000 vdst_old=0xdeadbeef: "
         "0x00003c00 (default 0xdead3c00)"}},
       {{"gfx950", "L: LLVM reads the old value; the pseudocode's comment selects a half"},
        {kNoMx, kNoMxReason}},
       Get<MxF16Half, &Hypotheses::mx_f16_half>, Set<MxF16Half, &Hypotheses::mx_f16_half>},
      {"mx_down_scale",
       "gfx950 v_cvt_scalef32_pk_{fp8,bf8}_*: which way the scale is applied before rounding",
       {{"divide",
         "the source divided by the scale, x / 2^(e-127) (the block's elements are the values "
         "over the shared scale)",
         HIP_OCP_FROM " ('srcExp -= scale_exp'); OCP MX v1.0 quantization as implemented by "
         "microsoft/microxcaling mx/mx_ops.py (elements A / 2^shared_exp)",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f32 src0=0x40000000 (2.0) src1=0 src2=0x40000000 (2^1): "
         "0x00000038 (1.0)"},
        {"multiply",
         "the source multiplied by the scale, x * 2^(e-127)",
         "ROCm/rocm-systems emulation/rocjitsu shared_infra_test.cpp (a gfx1250 scaled fp4 "
         "encode test expects fp4(x * 0.5f) for the scale 0.5f)",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f32 src0=0x40000000 src1=0 src2=0x40000000: 0x00000048 "
         "(default 0x00000038: 4.0, not 1.0)"}},
       {{"gfx950", "L: AMD's host model and the OCP quantizer divide; the multiply reading comes "
                   "from a gfx1250 emulator test"},
        {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxDownScale, &Hypotheses::mx_down_scale>, Set<MxDownScale, &Hypotheses::mx_down_scale>},
      {"mx_fp8_overflow",
       "gfx950 v_cvt_scalef32_pk_fp8_*: a scaled E4M3 result past 448, and an infinite source",
       {{"nan",
         "sign|0x7F, E4M3's NaN byte (decided after rounding: 464 rounds to 448)",
         HIP_OCP_FROM " (inf<E4M3, sat> is sign|0x7F with and without saturation); the "
         "unscaled OCP E4M3 conversions' overflow byte (fp8_format.h e4m3_ocp)",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f32 src0=0x43e00000 (448) src1=0 src2=0x3f000000 "
         "(2^-1): 0x0000007f"},
        {"saturate",
         "sign|0x7E (448), infinite sources too",
         "OCP MX v1.0 quantization as implemented by microsoft/microxcaling mx/elemwise_ops.py "
         "(saturate_normals clamps to the largest normal)",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f32 src0=0x43e00000 src1=0 src2=0x3f000000: 0x0000007e "
         "(default 0x0000007f)"}},
       {{"gfx950", "L: AMD's host model gives the NaN byte"}, {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxFp8Overflow, &Hypotheses::mx_fp8_overflow>,
       Set<MxFp8Overflow, &Hypotheses::mx_fp8_overflow>},
      {"mx_bf8_overflow",
       "gfx950 v_cvt_scalef32_pk_bf8_*: a scaled E5M2 result past 57344, and an infinite source",
       {{"infinity",
         "sign|0x7C, E5M2's Inf (decided after rounding)",
         "the unscaled gfx950 bf8 conversion's bytes (bf8(+-Inf) = 0x7c/0xfc measured on gfx950, "
         "tinygrad; fp8_format.h e5m2_ocp); " HIP_OCP_FROM " with sat=false",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_bf8_f32 src0=0x47e00000 (114688) src1=0 src2=0x3f800000 "
         "(2^0): 0x0000007c"},
        {"saturate",
         "sign|0x7B (57344), infinite sources too",
         HIP_OCP_FROM " as its scaled fp8 callers use it (amd_hip_ocp_fp.hpp "
         "__amd_cvt_floatx2_to_fp8x2_scale passes sat=true: inf<E5M2, true> is sign|0x7B); "
         "microsoft/microxcaling saturate_normals",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_bf8_f32 src0=0x47e00000 src1=0 src2=0x3f800000: 0x0000007b "
         "(default 0x0000007c)"}},
       {{"gfx950", "L: the unscaled bf8 conversion measured on gfx950 keeps Inf; HIP's host "
                   "model saturates but also saturates the unscaled one, against that measurement"},
        {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxBf8Overflow, &Hypotheses::mx_bf8_overflow>,
       Set<MxBf8Overflow, &Hypotheses::mx_bf8_overflow>},
      {"mx_denorm_in",
       "gfx950 v_cvt_scalef32_pk_{fp8,bf8}_*: denormal sources (f32 below 2^-126, f16/bf16 "
       "denormals)",
       {{"kept",
         "their exact value is scaled and rounded, whatever MODE says",
         HIP_OCP_FROM " (a denormal source is normalised before 'srcExp -= scale_exp')",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f32 src0=0x00400000 (2^-127) src1=0 src2=0 (2^-127): "
         "0x00000038 (1.0)"},
        {"flush",
         "a signed zero before scaling, as a MODE-style input flush would give",
         "the MODE.FP_DENORM input flush of the unscaled conversions (v_cvt_pk_fp8_f32 reads "
         "MODE[4]); no scaled implementation found",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f32 src0=0x00400000 src1=0 src2=0: 0x00000000 (default "
         "0x00000038)"}},
       {{"gfx950", "L: AMD's host model keeps them"}, {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxDenormIn, &Hypotheses::mx_denorm_in>, Set<MxDenormIn, &Hypotheses::mx_denorm_in>},
      {"mx_sr_round",
       "gfx950 v_cvt_scalef32_sr_{fp8,bf8}_* and the SR FP4/FP6 encoders "
       "v_cvt_scalef32_sr_pk_fp4_*, v_cvt_scalef32_sr_pk32_*, gfx1250 v_cvt_scalef32_sr_pk8_*, "
       "v_cvt_scalef32_sr_pk16_*: "
       "how many seed bits (S1's top, "
       "or each element's seed word) reach the scaled value, and on which grid (M the "
       "element's fraction bits: FP4 1, FP6 3, BF6 2)",
       {{"source_grid",
         "the scaled value truncated to quantum / 2^b after the denormal shift, S1's top b bits "
         "added, the sum truncated; b = source fraction bits - M (f32 source: S1[31:12] fp8, "
         "S1[31:11] bf8, the unscaled rows' seed)",
         HIP_OCP " from_float_sr ('srcExp -= scale_exp', then 'man += seed >> ((32 - "
         "srcEnc.ManBits) + enc.ManBits)' after the denormal shift, then truncation); gem5/gem5 "
         "src/arch/amdgpu/vega/insts/vop3_cvt.hh Inst_VOP3__V_CVT_SCALEF32_SR::execute also "
         "scales (scaleDiv) before roundStochastic",
         "gfx950",
         "gfx950 v_cvt_scalef32_sr_fp8_f32 src0=0x3b800001 (2^-8 (1 + 2^-23)) src1=0xffffffff "
         "src2=0x3f800000 (2^0): 0x00000002 (2^-8: the low bit is below the 20-bit seed grid)"},
        {"f32_exact_subnormal",
         "the source widened to f32 and divided by the scale, then the unscaled f32 SR encoder: "
         "S1's top 23 - M bits for a normal result; for a subnormal one all k significand bits "
         "below the quantum kept and S1's top k added; past k = 24 a signed zero",
         "ROCm/rocm-systems emulation/rocjitsu lib/python/amdisa/codegen/execute (its test of "
         "V_CVT_SCALEF32_SR_FP8_F16/_BF16: util::f16_to_f32 / bf16_to_f32, "
         "'read_scaled_input(index) / scale', util::f32_to_fp8_e4m3_sr_mode / "
         "f32_to_bf8_e5m2_sr_mode); " ROCJITSU_CDNA " for the f32 SR encoder",
         "gfx950",
         "gfx950 v_cvt_scalef32_sr_fp8_f32 src0=0x3b800001 src1=0xffffffff src2=0x3f800000: "
         "0x00000003 (default 0x00000002)"}},
       {{"gfx950", "L: AMD's host model of gfx950 states it; gem5 agrees that the scale comes "
                   "first; the rocjitsu reading is an emulator's reuse of its unscaled encoder"},
        {"gfx1250 gfx1251", kGfx1250ScaledSr},
        {kNoMxScaled, kNoMxReason}},
       Get<MxSrRoundH, &Hypotheses::mx_sr_round>, Set<MxSrRoundH, &Hypotheses::mx_sr_round>},
      {"mx_fp4_nan",
       "gfx950 v_cvt_scalef32_pk_fp4_f32 and the interleaved FP6/BF6 encoders "
       "v_cvt_scalef32_2xpk16_{fp6,bf6}_f32: a NaN source (and a NaN scale byte), FP4 E2M1 "
       "and FP6 E2M3 / E3M2 having no NaN code (each reading is the format's largest code or "
       "its sign bit alone, whatever the format: the CUDA toolkit's cuda_fp6.h gives positive "
       "MAXNORM for NaN as cuda_fp4.h does, ml_dtypes' float6_e2m3fn / float6_e3m2fn "
       "quiet_NaN() is the sign bit alone)",
       {{"max_keep_sign",
         "sign|0x7, the largest magnitude (6.0) with the NaN's sign",
         HIP_OCP_FROM " (nan<E2M1> is sign|0x7: 'down -> element NaN' gives +-max)",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp4_f32 src0=0xffc00000 (-NaN) src1=0 src2=0x3f800000 "
         "vdst_old=0: 0x0000000f"},
        {"pos_max",
         "+0x7 (+6.0) whatever the sign",
         "the CUDA toolkit's cuda_fp4.h ('NaN input values result in positive MAXNORM')",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp4_f32 src0=0xffc00000 src1=0 src2=0x3f800000 vdst_old=0: "
         "0x00000007 (default 0x0000000f)"},
        {"neg_zero",
         "0x8, -0, whatever the sign",
         "jax-ml/ml_dtypes ml_dtypes/include/mxfloat.h (float4_e2m1fn quiet_NaN() is 0b1000)",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp4_f32 src0=0x7fc00000 (+NaN) src1=0 src2=0x3f800000 "
         "vdst_old=0: 0x00000008 (default 0x00000007)"}},
       {{"gfx950", "L: AMD's host model of gfx950 keeps the sign at the largest magnitude; the "
                   "other two are other vendors' and a library's choices"},
        {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxFp4Nan, &Hypotheses::mx_fp4_nan>, Set<MxFp4Nan, &Hypotheses::mx_fp4_nan>},
      {"mx_pk16_neg",
       "gfx950 v_cvt_scalef32_*_{f16,bf16} with two packed 16-bit sources: where S0's NEG and ABS "
       "act (LLVM encodes one NEG[0] and one ABS[0] bit, no neg_lo/neg_hi); also gfx1250's "
       "packed f16 -> fp8/bf8 encoders (docs/semantics.md §13.8: the same operand, carried over)",
       {{"both_halves",
         "on both elements: sign bits 15 and 31",
         "AMD CDNA4 ISA pseudocode V_CVT_SCALEF32_PK_FP8_F16 and friends read S0[15:0].f16 and "
         "S0[31:16].f16, two float values, as tinygrad/tinygrad "
         "tinygrad/runtime/autogen/amd/cdna/str_pcode.py extracts it; llvm-mc-22 -mcpu=gfx950 "
         "takes `-v2` / `|v2|` on that operand (the LLVM intrinsic's type <2 x half> / <2 x "
         "bfloat>); llc-22 -mcpu=gfx950 folds no fneg into it (it emits s_xor_b32 0x80008000 "
         "before the instruction), so LLVM states nothing more",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f16 -src0 src0=0x3c003c00 (1.0, 1.0) src1=0x3f800000 "
         "(2^0) vdst_old=0: 0x0000b8b8"},
        {"low_half",
         "on element 0 only: bit 15 (a 16-bit operand's sign, as on the VOP3 f16 instructions)",
         "the VOP3 input modifiers of 16-bit float operands (AMD CDNA4 ISA guide: NEG/ABS act on "
         "the operand's type; an f16 operand's sign is bit 15); no scaled source found",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f16 -src0 src0=0x3c003c00 src1=0x3f800000 vdst_old=0: "
         "0x000038b8 (default 0x0000b8b8)"},
        {"high_half",
         "on element 1 only: bit 31 (the sign of the 32-bit operand, as on the VOP3 f32 "
         "instructions)",
         "the VOP3 input modifiers of 32-bit float operands (AMD CDNA4 ISA guide); no scaled "
         "source found",
         "gfx950",
         "gfx950 v_cvt_scalef32_pk_fp8_f16 -src0 src0=0x3c003c00 src1=0x3f800000 vdst_old=0: "
         "0x0000b838 (default 0x0000b8b8)"}},
       {{"gfx950", "U: the pseudocode reads two float halves and LLVM types the operand as a "
                   "two-element vector; nothing measured, no implementation read"},
        {"gfx1250 gfx1251", kGfx1250Scaled},
        {kNoMxScaled, kNoMxReason}},
       Get<MxPk16Neg, &Hypotheses::mx_pk16_neg>, Set<MxPk16Neg, &Hypotheses::mx_pk16_neg>},
      {"mx_sr16_opsel0",
       "gfx950 v_cvt_scalef32_sr_{fp8,bf8}_{f16,bf16}: what OPSEL[0] does (LLVM accepts and prints "
       "op_sel:[1,0,0,0] on the one 16-bit source)",
       {{"ignored",
         "nothing: S0[15:0] is the value converted",
         "gem5/gem5 src/arch/amdgpu/vega/insts/vop3_cvt.hh (the scaled SR conversions read S0's "
         "low half and note that the specification names no input select); llc-22 -mcpu=gfx950, "
         "given llvm.amdgcn.cvt.scalef32.sr.fp8.f16 of a <2 x half>'s high element, shifts it "
         "down with v_lshrrev_b32 instead of setting op_sel[0]",
         "gfx950",
         "gfx950 v_cvt_scalef32_sr_fp8_f16 op_sel:[1,0,0,0] src0=0x40003c00 (2.0 high, 1.0 low) "
         "src1=0xffffffff src2=0x3f800000 (2^0) vdst_old=0: 0x00000038"},
        {"high_half",
         "OPSEL[0] = 1 converts S0[31:16], as op_sel selects a 16-bit operand's half on the VOP3 "
         "f16 instructions",
         "the VOP3 op_sel rule of 16-bit sources (AMD CDNA4 ISA guide); llvm-mc-22 -mcpu=gfx950 "
         "encodes the bit (byte 1 0x08)",
         "gfx950",
         "gfx950 v_cvt_scalef32_sr_fp8_f16 op_sel:[1,0,0,0] src0=0x40003c00 src1=0xffffffff "
         "src2=0x3f800000 vdst_old=0: 0x00000040 (default 0x00000038)"}},
       {{"gfx950", "L: an emulator written from the specification reads the low half, and LLVM "
                   "never sets the bit for the high half"},
        {kNoMx, kNoMxReason}},
       Get<MxSr16Opsel0, &Hypotheses::mx_sr16_opsel0>,
       Set<MxSr16Opsel0, &Hypotheses::mx_sr16_opsel0>},
      {"cvt16_outmod",
       "gfx950/gfx1250 v_cvt_pk_{f16,bf16}_f32: OMOD and CLAMP (LLVM 22 accepts `clamp` and `mul:2`)",
       {{"applied",
         "the exact value times OMOD's 2^k is rounded once; CLAMP then gives [+0, 1.0] (NaN: "
         "+0 under MODE[8] DX10_CLAMP, kept without it)",
         "the VOP3 output modifiers of any float result (AMD CDNA4 ISA guide, VOP3 OMOD/CLAMP); "
         "llvm-mc-22 -mcpu=gfx950 encodes `v_cvt_pk_f16_f32 v1, -v2, |v3| clamp mul:2`",
         "gfx950",
         "gfx950 v_cvt_pk_f16_f32 src0=0x40000000 (2.0) src1=0xbf800000 (-1.0) clamp: "
         "0x00003c00"},
        {"ignored",
         "OMOD and CLAMP change nothing: each half is the source rounded once",
         "the pseudocode (" ISA_CDNA4_CVT16 ") names no output modifier",
         "gfx950",
         "gfx950 v_cvt_pk_f16_f32 src0=0x40000000 src1=0xbf800000 clamp: 0xbc004000 (default "
         "0x00003c00)"}},
       {{"gfx950", "L: LLVM encodes both fields and the VOP3 rule applies them to float results"},
        {"gfx1250 gfx1251", kGfx1250AsGfx950},
        {kNoCvt16, kNoCvt16Reason}},
       Get<Cvt16Outmod, &Hypotheses::cvt16_outmod>, Set<Cvt16Outmod, &Hypotheses::cvt16_outmod>},
      {"cvt16_denorm_out",
       "gfx950/gfx1250 f32 -> f16/bf16 conversions (v_cvt_pk_*, v_cvt_sr_*): a result below the "
       "format's smallest normal (2^-14 f16, 2^-126 bf16)",
       {{"mode",
         "flushed to a signed zero when MODE's output-denormal bit is clear (MODE[7] for f16, "
         "MODE[5] for bf16), kept when it is set",
         LLVM_FPTRUNC,
         "gfx950",
         "gfx950 v_cvt_pk_f16_f32 src0=0x33800000 (2^-24) src1=0 MODE=0x70: 0x00000000"},
        {"kept",
         "kept whatever MODE says (RNE into the denormal range)",
         ISA_CDNA4_CVT16 " (forces the round mode only, and names no flush)",
         "gfx950",
         "gfx950 v_cvt_pk_f16_f32 src0=0x33800000 src1=0 MODE=0x70: 0x00000001 (default "
         "0x00000000)"}},
       {{"gfx950", "L: LLVM uses the instruction for fptrunc, which follows the function's "
                   "denormal mode"},
        {"gfx1250 gfx1251", kGfx1250AsGfx950},
        {kNoCvt16, kNoCvt16Reason}},
       Get<Cvt16DenormOut, &Hypotheses::cvt16_denorm_out>,
       Set<Cvt16DenormOut, &Hypotheses::cvt16_denorm_out>},
      {"cvt16_nan",
       "gfx950/gfx1250 f32 -> f16/bf16 conversions (v_cvt_pk_*, v_cvt_sr_*): the 16-bit NaN an f32 NaN "
       "gives",
       {{"payload",
         "the source's sign and top fraction bits (f16: 9, bf16: 6) under the quiet bit",
         "IEEE 754-2019 6.2.3 (a NaN result should carry the operand's payload); "
         "ROCm/clr amd_hip_bf16.h __float2bfloat16 keeps the top bits of a NaN (with the quiet "
         "bit set)",
         "gfx950",
         "gfx950 v_cvt_pk_f16_f32 src0=0xff800001 (a -sNaN) src1=0: 0x0000fe00"},
        {"canonical",
         "the positive canonical quiet NaN: f16 0x7E00, bf16 0x7FC0",
         "the canonical NaN some AMD units write for a NaN result (no source found for these "
         "instructions; a reading to refute)",
         "gfx950",
         "gfx950 v_cvt_pk_f16_f32 src0=0xff800001 src1=0: 0x00007e00 (default 0x0000fe00)"}},
       {{"gfx950", "L: IEEE's recommendation and HIP's host bf16 conversion"},
        {"gfx1250 gfx1251", kGfx1250AsGfx950},
        {kNoCvt16, kNoCvt16Reason}},
       Get<Cvt16Nan, &Hypotheses::cvt16_nan>, Set<Cvt16Nan, &Hypotheses::cvt16_nan>},
      {"sr16_seed",
       "gfx950 v_cvt_sr_{f16,bf16}_f32 (gfx1250 v_cvt_sr_pk_*: of each element's seed word): which "
       "23 - M bits of S1 are the seed (f16 13, bf16 16)",
       {{"high",
         "S1[31:19] (f16) / S1[31:16] (bf16), added just below the kept LSB",
         "AMD CDNA3/CDNA4 ISA pseudocode of the SR fp8 conversions (`S1[31:12]`: the top 23 - M "
         "bits) read for the 16-bit formats; " HIP_OCP_FROM " from_float_sr ('seed >> (32 - "
         "srcManBits + dstManBits)': the top bits)",
         "gfx950",
         "gfx950 v_cvt_sr_f16_f32 src0=0x3f800001 (1 + 2^-23) src1=0xfff7ffff: 0x00003c00"},
        {"low",
         "S1[12:0] (f16) / S1[15:0] (bf16)",
         HIP_HOST " (the low bits, the sr_seed=low reading of the fp8 SR instructions)",
         "gfx950",
         "gfx950 v_cvt_sr_f16_f32 src0=0x3f800001 src1=0xfff7ffff: 0x00003c01 (default "
         "0x00003c00)"}},
       {{"gfx950", "L: the fp8 SR pseudocode and AMD's host model of gfx950 take the top bits"},
        {"gfx1250 gfx1251", kGfx1250AsGfx950},
        {kNoCvt16, kNoCvt16Reason}},
       Get<Sr16Seed, &Hypotheses::sr16_seed>, Set<Sr16Seed, &Hypotheses::sr16_seed>},
      {"sr16_subnormal",
       "gfx950 v_cvt_sr_f16_f32, gfx1250 v_cvt_sr_pk_f16_f32: a result below f16's smallest normal "
       "(2^-14)",
       {{"grid",
         "the value truncated to the grid of the denormal quantum / 2^13, the seed added there "
         "and the sum truncated: P(up) is the dropped part over the quantum",
         "the fp8 SR default (sr_rounding=carry_truncate, docs/semantics.md §6, L+ on gfx12); "
         HIP_OCP_FROM " from_float_sr (the seed added after the denormal shift)",
         "gfx950",
         "gfx950 v_cvt_sr_f16_f32 src0=0x33000000 (2^-25) src1=0x80000000 (seed 0x1000): "
         "0x00000001"},
        {"mantissa_add",
         "the seed added to the 24-bit significand at the normal LSB's place, then shifted into "
         "the denormal range and truncated: it reaches only the top of the quantum",
         "the SR pseudocode's `mantissa + S1[31:12]` read literally, before any denormal shift "
         "(AMD CDNA3/CDNA4 ISA, V_CVT_SR_FP8_F32)",
         "gfx950",
         "gfx950 v_cvt_sr_f16_f32 src0=0x33000000 src1=0x80000000: 0x00000000 (default "
         "0x00000001)"}},
       {{"gfx950", "L: the fp8 SR instructions' measured default and AMD's host model"},
        {"gfx1250 gfx1251", kGfx1250AsGfx950},
        {kNoCvt16, kNoCvt16Reason}},
       Get<Sr16Subnormal, &Hypotheses::sr16_subnormal>,
       Set<Sr16Subnormal, &Hypotheses::sr16_subnormal>},
      {"sr_pk_seed",
       "gfx1250 v_cvt_sr_pk_{f16,bf16}_f32: the seed word element 1 (S1) rounds with; element 0 "
       "(S0) rounds with S2",
       {{"prng_step",
         "v_prng_b32(S2) = (S2 << 1) ^ (S2[31] ? 0xC5 : 0), its bits then per sr16_seed",
         ROCJITSU_SR_PK " (seed_hi = util::prng_advance(seed_lo)); the CDNA4 guide's v_prng_b32 "
         "is the step gfx950's multi-element SR conversions advance their seed with",
         "gfx1250",
         "gfx1250 v_cvt_sr_pk_f16_f32 src0=src1=0x3f800001 (1 + 2^-23) src2=0xfff80000: "
         "0x3c003c01"},
        {"same",
         "S2 itself: both elements round with the one seed",
         "no source: the plain reading of one seed operand for two results (to refute)",
         "gfx1250",
         "gfx1250 v_cvt_sr_pk_f16_f32 src0=src1=0x3f800001 src2=0xfff80000: 0x3c013c01 "
         "(default 0x3c003c01)"},
        {"halves",
         "two 16-bit seeds: element i rounds with the word (S2 >> 16i) << 16",
         "no source: a 32-bit seed holds two bf16 seeds of 16 bits (to refute)",
         "gfx1250",
         "gfx1250 v_cvt_sr_pk_f16_f32 src0=src1=0x3f800001 src2=0xfff80000: 0x3c013c00 "
         "(default 0x3c003c01)"}},
       {{"gfx1250 gfx1251",
         "U: no gfx1250 pseudocode is public; rocjitsu's gfx1250 model advances the seed with "
         "the PRNG step (not measured)"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "no gfx1250 two-element SR conversion: the rule does not arise"}},
       Get<SrPkSeed, &Hypotheses::sr_pk_seed>, Set<SrPkSeed, &Hypotheses::sr_pk_seed>},
      {"sr16_fp8_seed",
       "gfx1250 v_cvt_sr_{fp8,bf8}_f16: which of S1's seed bits reach the f16 value (they differ "
       "only where the result is an fp8/bf8 subnormal)",
       {{"f32_window",
         "the f16 widened exactly to f32, then v_cvt_sr_{fp8,bf8}_f32's rule: S1's top 23 - M "
         "bits (S1[31:12] fp8, S1[31:11] bf8) added just below the kept LSB",
         ROCJITSU_CVT_F16_SR,
         "gfx1250",
         "gfx1250 v_cvt_sr_fp8_f16 src0=0x1408 (2^-10 (1 + 2^-7): 0.5 + 2^-8 of the E4M3 "
         "subnormal quantum 2^-9) src1=0x7f000000 (seed 2^19 - 2^12 of 2^20): 0x00000001"},
        {"source_grid",
         "only S1's top 10 - M bits (S1[31:25] fp8, S1[31:24] bf8): the value truncated to the "
         "quantum / 2^(10 - M), that seed added, the sum truncated",
         HIP_OCP_FROM " from_float_sr ('man += seed >> ((32 - srcEnc.ManBits) + enc.ManBits)' "
         "with the f16 source's 10 fraction bits; the gfx950 scaled rows' mx_sr_round default)",
         "gfx1250",
         "gfx1250 v_cvt_sr_fp8_f16 src0=0x1408 src1=0x7f000000: 0x00000000 (default "
         "0x00000001)"}},
       {{"gfx1250 gfx1251",
         "U: no gfx1250 pseudocode is public; rocjitsu's gfx1250 model widens the f16 and calls "
         "its f32 SR encoder (not measured)"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "no unscaled f16 -> fp8 SR conversion: the rule does not arise"}},
       Get<Sr16Fp8Seed, &Hypotheses::sr16_fp8_seed>,
       Set<Sr16Fp8Seed, &Hypotheses::sr16_fp8_seed>},
      {"sr16_fp8_opsel0",
       "gfx1250 v_cvt_sr_{fp8,bf8}_f16: what OPSEL[0] does (LLVM accepts and prints "
       "op_sel:[1,0,0] on the one 16-bit source)",
       {{"high_half",
         "OPSEL[0] = 1 converts S0[31:16]",
         "llc-22 -mcpu=gfx1250 -mattr=+real-true16, given llvm.amdgcn.cvt.sr.fp8.f16 of a <2 x "
         "half>'s element 1, emits `v_cvt_sr_fp8_f16 v2, v0.h, v1 byte_sel:2`, which llvm-mc-22 "
         "encodes with op_sel:[1,0,0] (byte 1 0x48)",
         "gfx1250",
         "gfx1250 v_cvt_sr_fp8_f16 op_sel:[1,0,0] src0=0x40003c00 (2.0 high, 1.0 low) src1=0: "
         "0x00000040"},
        {"ignored",
         "nothing: S0[15:0] is the value converted",
         "the gfx950 scaled rows' mx_sr16_opsel0 default (gem5/gem5 "
         "src/arch/amdgpu/vega/insts/vop3_cvt.hh reads S0's low half there)",
         "gfx1250",
         "gfx1250 v_cvt_sr_fp8_f16 op_sel:[1,0,0] src0=0x40003c00 src1=0: 0x00000038 (default "
         "0x00000040)"}},
       {{"gfx1250 gfx1251",
         "L: LLVM's code generator reads the high half through this bit under true16 (not "
         "measured)"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "no unscaled f16 -> fp8 SR conversion: the rule does not arise"}},
       Get<Sr16Fp8Opsel0, &Hypotheses::sr16_fp8_opsel0>,
       Set<Sr16Fp8Opsel0, &Hypotheses::sr16_fp8_opsel0>},
      {"f16_decode_half",
       "gfx1250 v_cvt_f16_{fp8,bf8}: the 16-bit half of VDST not written (e32 writes the low "
       "half, VOP3 the half OPSEL[3] selects: op_sel:[0,1])",
       {{"kept",
         "the old VDST's half",
         "llvm-mc-22 -mcpu=gfx1250 takes op_sel:[0,1] (OPSEL[3], bit 14) as a destination-half "
         "select, which reads as a 16-bit write into one half, as the gfx950 scaled one-byte "
         "decodes into f16 (mx_f16_half's default)",
         "gfx1250",
         "gfx1250 v_cvt_f16_fp8 src0=0x38 (1.0) vdst_old=0xdeadbeef: 0xdead3c00"},
        {"zeroed",
         "zero: the whole dword is written",
         "a VOP1 result written as a 32-bit VGPR (no true16 form of the destination: llvm-mc-22 "
         "refuses `v1.h` as VDST)",
         "gfx1250",
         "gfx1250 v_cvt_f16_fp8 src0=0x38 vdst_old=0xdeadbeef: 0x00003c00 (default "
         "0xdead3c00)"}},
       {{"gfx1250 gfx1251",
         "U: no gfx1250 pseudocode is public; LLVM's half select is the only evidence (not "
         "measured)"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "no unscaled fp8 -> f16 decode: the rule does not arise"}},
       Get<F16DecodeHalf, &Hypotheses::f16_decode_half>,
       Set<F16DecodeHalf, &Hypotheses::f16_decode_half>},
      {"mx_sr_seed_step",
       "gfx950 v_cvt_scalef32_sr_pk_fp4_* (2 elements) and v_cvt_scalef32_sr_pk32_* (32), "
       "gfx1250 v_cvt_scalef32_sr_pk8_* (8) and v_cvt_scalef32_sr_pk16_* (16): the seed word "
       "element i (the source's order) rounds with; element 0 "
       "rounds with S1",
       {{"prng_step",
         "element i with v_prng_b32 applied i times to S1, (s << 1) ^ (s[31] ? 0xC5 : 0) per "
         "step, sequentially from element 0; its bits then per mx_sr_round",
         "AMD CDNA4 ISA pseudocode of V_CVT_SCALEF32_SR_PK_FP4_* and V_CVT_SCALEF32_SR_PK32_* "
         "('randomVal = v_prng_b32(randomVal)' before each next element; tinygrad/tinygrad "
         "tinygrad/runtime/autogen/amd/cdna/str_pcode.py)",
         "gfx950",
         "gfx950 v_cvt_scalef32_sr_pk_fp4_f32 src0=v[0:1]={0x3fa00000,0x3fa00000} (1.25, half "
         "way between FP4 1.0 and 1.5) src1=0x80000000 src2=0x3f800000 vdst_old=0: 0x00000023 "
         "(element 0 up with S1[31] = 1, element 1 down with 0xC5)"},
        {"same",
         "S1 for every element: the seed not advanced between elements",
         "no source: the plain reading of one seed operand for several results (to refute)",
         "gfx950",
         "gfx950 v_cvt_scalef32_sr_pk_fp4_f32 src0=v[0:1]={0x3fa00000,0x3fa00000} "
         "src1=0x80000000 src2=0x3f800000 vdst_old=0: 0x00000033 (default 0x00000023)"}},
       {{"gfx950", "L: AMD's CDNA4 pseudocode states the step (not measured)"},
        {"gfx1250 gfx1251",
         "U: no gfx1250 pseudocode is public; gfx950's step is carried over to the SR "
         "encoders v_cvt_scalef32_sr_pk8_* and v_cvt_scalef32_sr_pk16_* (one seed operand for "
         "eight or sixteen results, as gfx950's multi-element SR encoders; not measured)"},
        {kNoMxScaled, kNoMxReason}},
       Get<MxSrSeedStep, &Hypotheses::mx_sr_seed_step>,
       Set<MxSrSeedStep, &Hypotheses::mx_sr_seed_step>},
      {"mx_scale_sel",
       "gfx1250 v_cvt_scale_pk8_* and v_cvt_scale_pk16_*: the E8M0 byte of the 32-bit scale "
       "operand S1 that scale_sel:N (0..15, OPSEL[3:0]) picks",
       {{"low2",
         "byte N & 3 (bits 8(N&3)+7:8(N&3)); N's bits 3:2 read by nothing",
         "llvm-mc-22 -mcpu=gfx1250 (scale_sel:0..15 in bits 11-14; every other byte select of "
         "gfx1250's conversions, byte_sel:0..3, is two bits, and the register holds four "
         "bytes); LLVM IntrinsicsAMDGPU.td (llvm.amdgcn.cvt.scale.*: an i32 scale and an "
         "immarg scale_sel in [0, 15], no semantics stated)",
         "gfx1250",
         "gfx1250 v_cvt_scale_pk8_f32_fp8 src0=v[0:1]={0x38,0} (E4M3 1.0) src1=0x7f7e7d80 "
         "scale_sel:6: VDST 0x3f000000 (byte 2, 0x7e: 2^-1)"},
        {"high2",
         "byte N >> 2: N numbers the sixteen 8-element groups of the four 32-element MX blocks "
         "whose scales the register holds",
         "OCP MX v1.0's block of 32 elements per scale (as restated by microsoft/microxcaling "
         "mx/mx_ops.py, block_size 32) with LLVM's 16 scale_sel values: four 8-element "
         "conversions per block (a reading, no implementation found)",
         "gfx1250",
         "gfx1250 v_cvt_scale_pk8_f32_fp8 src0=v[0:1]={0x38,0} src1=0x7f7e7d80 scale_sel:6: "
         "VDST 0x3e800000 (byte 1, 0x7d: 2^-2) (default 0x3f000000)"},
        {"f32_exponent",
         "the operand's f32 exponent field, bits 30:23, as on gfx950; scale_sel read by nothing",
         "gfx950's scale operand (AMD CDNA4 pseudocode `scale = 32'U(exponent(S1.f32))`, as "
         "extracted in tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py) carried "
         "over; ROCm/rocm-systems rocjitsu's gfx1250 scaled-conversion tests pass f32 scales "
         "(bit_cast(0.5f))",
         "gfx1250",
         "gfx1250 v_cvt_scale_pk8_f32_fp8 src0=v[0:1]={0x38,0} src1=0x7f7e7d80 scale_sel:6: "
         "VDST 0x7f000000 (exponent field 0xfe: 2^127) (default 0x3f000000)"}},
       {{"gfx1250 gfx1251",
         "U: no gfx1250 pseudocode is public; the two-bit byte select of gfx1250's other "
         "conversions is the nearest evidence (not measured)"},
        {kNoShapeU, kNoShapeUReason}},
       Get<MxScaleSel, &Hypotheses::mx_scale_sel>, Set<MxScaleSel, &Hypotheses::mx_scale_sel>},
      {"mx_up_scale",
       "gfx1250 v_cvt_scale_pk8_* and v_cvt_scale_pk16_*: which way the picked E8M0 byte e "
       "scales each decoded element",
       {{"multiply",
         "element times 2^(e-127) (the value of an MX block element: scale x element)",
         "OCP MX v1.0 (as restated by jax-ml/ml_dtypes ml_dtypes/include/mxfloat.h and "
         "microsoft/microxcaling mx/mx_ops.py); llvm/llvm-project mlir ROCDLOps.td names "
         "rocdl.cvt.scale.pk8 'Up-scaling'; gfx950's scaled decodes multiply (AMD CDNA4 "
         "pseudocode)",
         "gfx1250",
         "gfx1250 v_cvt_scale_pk8_f32_fp8 src0=v[0:1]={0x38,0} (E4M3 1.0) src1=0x80 scale_sel:0: "
         "VDST 0x40000000 (2.0)"},
        {"divide",
         "element divided by 2^(e-127), as the scaled encoders apply the scale (e = 0xFF stays "
         "the NaN byte; e = 0 gives 2^127, e = 254 the byte 0x00's 2^-127)",
         "the encoders' direction (mx_down_scale's default: ROCm/clr amd_hip_ocp_host.hpp "
         "from_float subtracts the scale exponent) read on the decode (to refute)",
         "gfx1250",
         "gfx1250 v_cvt_scale_pk8_f32_fp8 src0=v[0:1]={0x38,0} src1=0x80 scale_sel:0: VDST "
         "0x3f000000 (0.5) (default 0x40000000)"}},
       {{"gfx1250 gfx1251", "L: OCP MX defines a block's values as scale x element"},
        {kNoShapeU, kNoShapeUReason}},
       Get<MxUpScale, &Hypotheses::mx_up_scale>, Set<MxUpScale, &Hypotheses::mx_up_scale>},
      {"mx_pk16_fp6_order",
       "gfx1250 v_cvt_scalef32_pk16_{fp6,bf6}_*, the SR v_cvt_scalef32_sr_pk16_{fp6,bf6}_* and "
       "v_cvt_scale_pk16_*_{fp6,bf6}: where element i of the 16 sits in the 96 bits (the "
       "encoders' VDST, the decodes' S0)",
       {{"linear",
         "field i at bits 6i+5:6i (element 0 at bit 0, fields 5 and 10 straddle two dwords)",
         "ROCm/hip-fpsan tests/cvt_scalef32_pk_gfx1250_test.cpp (check_codes16: 'the contiguous "
         "little-endian packed-stream layout', host_extract6 of field i at bit 6i); ROCm/"
         "rocm-systems rocjitsu mxfp_cvt_simd_test.cpp (fill_packed_source lays the pk16 "
         "decodes' 16 codes out at bit 6i); AMD's CDNA4 pseudocode V_CVT_SCALEF32_PK32_* (field "
         "i at 6i) on gfx950",
         "gfx1250",
         "gfx1250 v_cvt_scalef32_pk16_fp6_f32 element 1 = 1.0 (0x3f800000), the others 0, "
         "src1=0x3f800000: VDST 0x00000200 0 0"},
        {"interleaved",
         "gfx950's V_CVT_SCALEF32_2XPK16 interleave over the two halves: element i < 8 at field "
         "2i, element 8 + i at field 2i + 1",
         "AMD's CDNA4 pseudocode V_CVT_SCALEF32_2XPK16_* (S0[i] at bits 12i+5:12i, S1[i] at "
         "12i+11:12i+6), the gfx950 shape with 16-element halves; no gfx1250 source found",
         "gfx1250",
         "gfx1250 v_cvt_scalef32_pk16_fp6_f32 element 1 = 1.0, the others 0, src1=0x3f800000: "
         "VDST 0x00008000 0 0 (default 0x00000200 0 0)"}},
       {{"gfx1250 gfx1251",
         "U: two AMD test suites expect the contiguous layout (neither says it ran on silicon); "
         "no gfx1250 pseudocode is public; the SR encoders' layout is taken to be the RNE ones'"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "no 16-element FP6/BF6 encoder or decode: the rule does not arise"}},
       Get<MxPk16Fp6Order, &Hypotheses::mx_pk16_fp6_order>,
       Set<MxPk16Fp6Order, &Hypotheses::mx_pk16_fp6_order>},
      {"pk_f16_opsel0",
       "gfx1250 v_cvt_pk_{fp8,bf8}_f16: what OPSEL[0] does (LLVM accepts and prints op_sel:[1,d] "
       "on the one source, a dword of two f16)",
       {{"ignored",
         "nothing: element 0 is S0[15:0], element 1 S0[31:16]",
         "S0 is the whole dword, so no half is left to select; llc-22 -mcpu=gfx1250 "
         "-mattr=+real-true16, given llvm.amdgcn.cvt.pk.fp8.f16 of a <2 x half> splat of a pair's "
         "high element or of the pair swapped, builds the operand with v_mov_b16 and never sets "
         "op_sel[0] (docs/semantics.md §13.8); a stored test of rocjitsu's generator "
         "(gen_vector_cvt_pk of V_CVT_PK_FP8_F16) asserts a true16 destination write and no "
         "true16 source read",
         "gfx1250",
         "gfx1250 v_cvt_pk_fp8_f16 op_sel:[1,0] src0=0x40003c00 (2.0 high, 1.0 low) "
         "vdst_old=0: 0x00004038"},
        {"high_half",
         "OPSEL[0] = 1 reads element 0 from S0[31:16]; element 1 reads S0[31:16] as always (both "
         "bytes from the high f16), as a VOP3P source whose op_sel_hi is implied 1",
         "the VOP3P OP_SEL / OP_SEL_HI fields of AMD's RDNA3 and RDNA4 ISA guides (OP_SEL picks "
         "the half feeding the low result, OP_SEL_HI the high one), as CLRX/CLRX-mirror's wiki "
         "GcnInstrsVop3p describes them; LLVM's SIMCCodeEmitter getImplicitOpSelHiEncoding sets "
         "OP_SEL_HI for a source a VOP3P form lacks",
         "gfx1250",
         "gfx1250 v_cvt_pk_fp8_f16 op_sel:[1,0] src0=0x40003c00 vdst_old=0: 0x00004040 "
         "(default 0x00004038)"},
        {"halves_swapped",
         "OPSEL[0] = 1 exchanges S0's halves before the conversion: element 0 from S0[31:16], "
         "element 1 from S0[15:0]",
         "none found: a 16-bit select on the whole dword read as a word swap",
         "gfx1250",
         "gfx1250 v_cvt_pk_fp8_f16 op_sel:[1,0] src0=0x40003c00 vdst_old=0: 0x00003840 "
         "(default 0x00004038)"}},
       {{"gfx1250 gfx1251",
         "U: no gfx1250 pseudocode is public and nothing is measured; LLVM's code generator "
         "builds a high-half splat or a swap with moves instead of setting the bit"},
        {"gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1150 gfx1200 gfx1201",
         "no packed f16 -> fp8/bf8 RNE conversion: the rule does not arise"}},
       Get<PkF16Opsel0, &Hypotheses::pk_f16_opsel0>,
       Set<PkF16Opsel0, &Hypotheses::pk_f16_opsel0>},
  };
  return *registry;
}

#undef ROCJITSU_RDNA4
#undef ROCJITSU_CDNA
#undef HIP_HOST
#undef TINYGRAD
#undef GOC_RDNA4
#undef COMGR_E5M3
#undef ROCJITSU_CVT_FP8
#undef ISA_CDNA
#undef LLVM_MC
#undef ROCJITSU_RDNA_CONVERSION
#undef ROCJITSU_SR_PK
#undef ROCJITSU_CVT_F16_SR
#undef ISA_CDNA4_SCALE
#undef GEM5_SCALE
#undef HIP_OCP
#undef HIP_OCP_FROM
#undef ISA_CDNA4_CVT16
#undef LLVM_FPTRUNC

void AppendJsonString(std::string* out, absl::string_view s) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppend(out, "\\u00", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendJsonField(std::string* out, absl::string_view key, absl::string_view value,
                     bool comma = true) {
  AppendJsonString(out, key);
  out->push_back(':');
  AppendJsonString(out, value);
  if (comma) out->push_back(',');
}

}  // namespace

std::span<const HypothesisInfo> AllHypotheses() { return Registry(); }

const HypothesisInfo* FindHypothesis(absl::string_view name) {
  for (const HypothesisInfo& info : Registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

absl::string_view DefaultReason(const HypothesisInfo& info, absl::string_view target) {
  for (const TargetDefault& d : info.defaults) {
    for (absl::string_view t : absl::StrSplit(d.targets, ' ', absl::SkipEmpty())) {
      if (t == target) return d.reason;
    }
  }
  return "";
}

absl::Status SetHypothesis(absl::string_view name_equals_value, Hypotheses* h) {
  const size_t eq = name_equals_value.find('=');
  std::vector<absl::string_view> names;
  for (const HypothesisInfo& info : Registry()) names.push_back(info.name);
  if (eq == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("hypothesis '", name_equals_value, "' is not NAME=VALUE; names: ",
                     absl::StrJoin(names, ", ")));
  }
  const absl::string_view name = name_equals_value.substr(0, eq);
  const absl::string_view value = name_equals_value.substr(eq + 1);
  const HypothesisInfo* info = FindHypothesis(name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown hypothesis '", name,
                                                   "'; valid: ", absl::StrJoin(names, ", ")));
  }
  std::vector<absl::string_view> values;
  for (size_t i = 0; i < info->values.size(); ++i) {
    if (info->values[i].name == value) {
      info->set(h, static_cast<uint8_t>(i));
      return absl::OkStatus();
    }
    values.push_back(info->values[i].name);
  }
  return absl::InvalidArgumentError(absl::StrCat("hypothesis ", name, " has no value '", value,
                                                 "'; valid: ", absl::StrJoin(values, ", ")));
}

std::vector<std::string> HypothesisSettings(const Hypotheses& h) {
  std::vector<std::string> out;
  for (const HypothesisInfo& info : Registry()) {
    out.push_back(absl::StrCat(info.name, "=", info.values[info.get(h)].name));
  }
  return out;
}

std::vector<std::string> NonDefaultHypothesisSettings(const Hypotheses& h) {
  std::vector<std::string> out;
  for (const HypothesisInfo& info : Registry()) {
    if (info.get(h) != 0) out.push_back(absl::StrCat(info.name, "=", info.values[info.get(h)].name));
  }
  return out;
}

Fp8Options Fp8EncodeOptionsFor(const Hypotheses& h, bool fp16_ovfl_bit, bool clamp_saturates) {
  Fp8Options o;
  o.nan_sign_preserving = h.fp8_nan == Fp8Nan::sign_preserving;
  o.nan_sign_7f = h.fp8_nan == Fp8Nan::sign_7f;
  o.saturate_finite = (fp16_ovfl_bit && h.fp16_ovfl != Fp16Ovfl::ignored) ||
                      (clamp_saturates && h.pk_fp8_clamp == PkFp8Clamp::saturate_finite);
  o.saturate_inf = fp16_ovfl_bit && h.fp16_ovfl == Fp16Ovfl::saturate_all;
  o.overflow_before_rounding = h.pk_overflow == PkOverflow::before_rounding;
  return o;
}

MxScaledEncode MxScaledEncodeFor(const Hypotheses& h, const Fp8Format& format) {
  const MxScaledDecode d = MxScaledDecodeFor(h);
  MxScaledEncode e;
  e.options.read = d.read;
  e.options.scale_zero = d.options.scale_zero;
  e.options.scale_nan = d.options.scale_nan;
  e.options.direction =
      h.mx_down_scale == MxDownScale::multiply ? MxScaleDir::multiply : MxScaleDir::divide;
  e.options.flush_denormal_in = h.mx_denorm_in == MxDenormIn::flush;
  e.options.sr_round = h.mx_sr_round == MxSrRoundH::f32_exact_subnormal
                           ? MxSrRound::f32_exact_subnormal
                           : MxSrRound::source_grid;
  e.fp8 = Fp8EncodeOptionsFor(h, /*fp16_ovfl_bit=*/false, /*clamp_saturates=*/false);
  const bool sat = format.has_inf ? h.mx_bf8_overflow == MxBf8Overflow::saturate
                                  : h.mx_fp8_overflow == MxFp8Overflow::saturate;
  e.fp8.saturate_finite = sat;
  e.fp8.saturate_inf = sat;
  e.fp8.overflow_before_rounding = false;  // pk_overflow is the unscaled pair writers' rule
  return e;
}

MxScaledElemEncode MxScaledElemEncodeFor(const Hypotheses& h) {
  const MxScaledEncode e = MxScaledEncodeFor(h, GetFp8Format(Fp8FormatId::e4m3_ocp));
  MxScaledElemEncode r;
  r.read = e.options.read;
  r.options.direction = e.options.direction;
  r.options.scale_zero = e.options.scale_zero;
  r.options.scale_nan = e.options.scale_nan;
  r.options.flush_denormal_in = e.options.flush_denormal_in;
  r.sr_round = e.options.sr_round;
  switch (h.mx_fp4_nan) {
    case MxFp4Nan::max_keep_sign: r.options.nan_in = MxNanIn::max_keep_sign; break;
    case MxFp4Nan::pos_max: r.options.nan_in = MxNanIn::pos_max; break;
    case MxFp4Nan::neg_zero: r.options.nan_in = MxNanIn::neg_zero; break;
  }
  return r;
}

MxScaledDecode MxScaledDecodeFor(const Hypotheses& h) {
  MxScaledDecode d;
  d.read = h.mx_scale_read == MxScaleReadH::f32_multiply ? MxScaleRead::f32_multiply
                                                         : MxScaleRead::exponent;
  d.options.scale_zero = h.mx_scale_zero == MxScaleZero::zero ? E8m0Zero::zero
                                                              : E8m0Zero::pow2_m127;
  switch (h.mx_scale_nan) {
    case MxScaleNan::nan: d.options.scale_nan = E8m0Nan::nan; break;
    case MxScaleNan::pow2_128: d.options.scale_nan = E8m0Nan::pow2_128; break;
    case MxScaleNan::infinity: d.options.scale_nan = E8m0Nan::infinity; break;
  }
  d.options.saturate_overflow = h.mx_up_overflow == MxUpOverflow::saturate;
  d.options.flush_denormal_out = h.mx_denorm_out == MxDenormOut::flush;
  d.options.round16_toward_zero = h.mx_up_round == MxUpRound::toward_zero;
  return d;
}

Fp8ToF32Options Fp8DecodeOptionsFor(const Hypotheses& h, bool f16_input_denormals, uint32_t omod,
                                    bool clamp, bool dx10_clamp) {
  Fp8ToF32Options o;
  switch (h.fp8_to_f32_nan) {
    case Fp8ToF32Nan::sign_quiet: o.nan = Fp8NanToF32::sign_quiet; break;
    case Fp8ToF32Nan::host_7f800001: o.nan = Fp8NanToF32::host_7f800001; break;
    case Fp8ToF32Nan::negative_quiet: o.nan = Fp8NanToF32::negative_quiet; break;
  }
  o.unsigned_nan = h.ue5m3_nan == Ue5m3Nan::quiet ? 0x7fc00000u : kUe5m3NanComgr;
  o.flush_denormals = h.fp8_denorm_input == Fp8DenormInput::flush_f16_mode && !f16_input_denormals;
  const bool outmod = h.fp8_to_f32_outmod == Fp8ToF32Outmod::applied;
  o.omod = outmod ? omod & 3u : kOmodNone;
  o.clamp = outmod && clamp;
  o.dx10_clamp = dx10_clamp;
  return o;
}

std::string DescribeHypotheses(bool json) {
  std::string out;
  if (json) out.push_back('[');
  bool first_rule = true;
  for (const HypothesisInfo& info : Registry()) {
    if (json) {
      if (!first_rule) out.push_back(',');
      out.push_back('{');
      AppendJsonField(&out, "rule", info.name);
      AppendJsonField(&out, "question", info.question);
      out.append("\"values\":[");
      for (size_t v = 0; v < info.values.size(); ++v) {
        const HypothesisValue& hv = info.values[v];
        if (v > 0) out.push_back(',');
        out.push_back('{');
        AppendJsonField(&out, "name", hv.name);
        AppendJsonField(&out, "computes", hv.computes);
        AppendJsonField(&out, "source", hv.source);
        AppendJsonField(&out, "claims", hv.targets);
        AppendJsonField(&out, "lane", hv.lane, false);
        out.push_back('}');
      }
      out.append("],\"defaults\":[");
      bool first = true;
      for (const TargetTraits& t : AllTargets()) {
        if (!first) out.push_back(',');
        first = false;
        out.push_back('{');
        AppendJsonField(&out, "target", t.name);
        AppendJsonField(&out, "value", info.values[0].name);
        AppendJsonField(&out, "reason", DefaultReason(info, t.name), false);
        out.push_back('}');
      }
      out.append("]}");
    } else {
      absl::StrAppend(&out, "\n", info.name, ": ", info.question, "\n");
      for (size_t v = 0; v < info.values.size(); ++v) {
        const HypothesisValue& hv = info.values[v];
        absl::StrAppend(&out, "  ", hv.name, v == 0 ? " (default)" : "", ": ", hv.computes,
                        "\n      source: ", hv.source, "\n      claims: ", hv.targets,
                        "\n      lane:   ", hv.lane, "\n");
      }
      absl::StrAppend(&out, "  default ", info.values[0].name, " per target:\n");
      for (const TargetDefault& d : info.defaults) {
        absl::StrAppend(&out, "    ", d.targets, ": ", d.reason, "\n");
      }
    }
    first_rule = false;
  }
  if (json) out.append("]\n");
  return out;
}

}  // namespace lanediff
