#include "device_harness/sim/sim_runner.h"

#include <unistd.h>

#include <bit>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/batch.h"
#include "device_harness/code_object.h"
#include "model/base/status.h"
#include "model/base/version.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace {

constexpr uint32_t kGarbageXor = 0xdeadbeef;
constexpr uint32_t kNanDecode7fe = 0x7fe00000;  // erratum nan_decode_7fe's NaN word

// Erratum round_odd: an instruction whose row writes 8-bit floats from f32 data sources with no
// seed (RNE) rounds to odd instead. Emulated on the inputs: an f32 whose bits below the output
// quantum are not all zero has them cleared and the quantum's bit set, so that RNE returns
// exactly the truncated value with its last bit forced to 1. Normal and subnormal outputs
// alike (the quantum widens below the smallest normal); specials and f32 denormals unchanged.
void RoundToOddInputs(const OpContext& ctx, LaneBatch* lanes) {
  const InstrInfo& info = GetInstrInfo(ctx.instr);
  const std::optional<Fp8Shape> shape = Fp8OutputShape(ctx);
  // Not the scaled encoders (S2 a scale): their quantum depends on the scale.
  if (!shape || info.src[1] == SrcRole::sr_seed || info.src[2] == SrcRole::scale_f32) return;
  const Fp8Format& f = *shape->format;
  std::vector<uint32_t>* words[2] = {&lanes->src0(), &lanes->src1()};
  for (int k = 0; k < 2; ++k) {
    if (info.src[k] != SrcRole::data_f32) continue;
    for (uint32_t& x : *words[k]) {
      const int32_t exp = static_cast<int32_t>((x >> 23) & 0xff);
      if (exp == 0 || exp == 0xff) continue;
      const int32_t f_exp = exp - (127 - f.bias);
      const int32_t t = (23 - f.man_bits) + (f_exp < 1 ? 1 - f_exp : 0);
      if (t >= 23) continue;
      const uint32_t below = (1u << t) - 1u;
      if ((x & below) != 0) x = (x & ~below) | (1u << t);
    }
  }
}


class SimRunner : public Runner {
 public:
  SimRunner(ErrataSet errata, Hypotheses base) : errata_(errata), base_(base) {
    hyp_ = base_;
    if (errata_.Has(Erratum::sr_wrap)) hyp_.sr_rounding = SrRounding::literal;
    if (errata_.Has(Erratum::u8_truncate)) hyp_.pk_u8_rounding = PkU8Rounding::truncate;
    if (errata_.Has(Erratum::nan_sign)) hyp_.fp8_nan = Fp8Nan::sign_preserving;
    if (errata_.Has(Erratum::fp16_ovfl_ignored)) hyp_.fp16_ovfl = Fp16Ovfl::ignored;
    if (errata_.Has(Erratum::gfx1250_clamp_ignored)) hyp_.gfx1250_clamp = Gfx1250Clamp::ignored;
    if (errata_.Has(Erratum::nan_decode_negative)) {
      hyp_.fp8_to_f32_nan = Fp8ToF32Nan::negative_quiet;
    }
    if (errata_.Has(Erratum::overflow_before_round)) hyp_.pk_overflow = PkOverflow::before_rounding;
    if (errata_.Has(Erratum::scale_mantissa)) hyp_.mx_scale_read = MxScaleReadH::f32_multiply;
    if (errata_.Has(Erratum::scaled_sr_exact_subnormal)) {
      hyp_.mx_sr_round = MxSrRoundH::f32_exact_subnormal;
    }
    if (errata_.Has(Erratum::sr_seed_not_advanced)) hyp_.mx_sr_seed_step = MxSrSeedStep::same;
    if (errata_.Has(Erratum::scale_sel_high_bits)) hyp_.mx_scale_sel = MxScaleSel::high2;
  }

  std::string Describe() const override {
    std::string s = "sim (simulation of the ISA; no hardware)";
    std::vector<std::string> hyps = NonDefaultHypothesisSettings(base_);
    if (!hyps.empty()) absl::StrAppend(&s, " hypotheses ", absl::StrJoin(hyps, ","));
    if (!errata_.empty()) absl::StrAppend(&s, " injected ", absl::StrJoin(errata_.Names(), ","));
    return s;
  }

  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    if (batch.target == nullptr) return absl::InvalidArgumentError("batch has no target");
    const TargetTraits& t = *batch.target;
    if (batch.words.empty() || batch.words.size() > 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("batch has ", batch.words.size(), " words; an instruction is 1 to 3"));
    }
    // The HIP path up to the launch: patch the very words into this target's kernel and read
    // back what landed at the patch site.
    LANEDIFF_ASSIGN_OR_RETURN(CodeObjectView co, FindCodeObject(t.name, t.DefaultWaveSize()));
    LANEDIFF_ASSIGN_OR_RETURN(std::vector<uint8_t> elf, PatchCodeObject(co, batch.words));
    LANEDIFF_ASSIGN_OR_RETURN(PatchSiteWords site, ReadPatchSite(elf));
    for (size_t k = batch.words.size(); k < site.size(); ++k) {
      if (site[k] != kSNop0) {
        return absl::InternalError(absl::StrFormat(
            "patched %s code object: patch-site dword %d is 0x%08x, expected s_nop 0 (0x%08x)",
            t.name, k, site[k], kSNop0));
      }
    }
    const absl::Span<const uint32_t> landed(site.data(), batch.words.size());
    LANEDIFF_ASSIGN_OR_RETURN(DecodedBatch d, DecodeDeviceBatch(batch, landed));
    OpContext ctx = d.ctx;
    ctx.hyp = hyp_;
    LaneBatch& lanes = d.resolved;
    const size_t n = lanes.size();

    if (errata_.HasFault()) {
      for (uint32_t s0 : lanes.src0()) {
        if (!IsSignallingNan(s0)) continue;
        if (errata_.Has(Erratum::crash)) std::abort();
        for (;;) ::pause();  // hang
      }
    }
    // An instruction whose row lists NEG[1] (neg_abs_srcs bit 1: v_cvt_pk_fp8/bf8_f32) negates
    // src1 already; the erratum is NEG[1] honoured where the row has none.
    if (errata_.Has(Erratum::src1_neg) && (ctx.mods.neg & 0b010) &&
        (GetInstrInfo(ctx.instr).neg_abs_srcs & 0b010) == 0) {
      for (uint32_t& s1 : lanes.src1()) s1 ^= 0x80000000u;
    }
    if (errata_.Has(Erratum::src0_neg_ignored) && (GetInstrInfo(ctx.instr).neg_abs_srcs & 0b001)) {
      ctx.mods.neg &= static_cast<uint8_t>(~0b001u);
    }
    if (errata_.Has(Erratum::byte12_swap)) {
      switch (GetInstrInfo(ctx.instr).write) {
        case DstWrite::byte_at_opsel_3_2: {
          const int byte = (ctx.mods.opsel >> 2) & 3;
          if (byte == 1 || byte == 2) {
            ctx.mods.opsel = static_cast<uint8_t>((ctx.mods.opsel & 0b0011) | ((byte ^ 3) << 2));
          }
          break;
        }
        case DstWrite::byte_at_src1:
          for (uint32_t& s1 : lanes.src1()) {
            const uint32_t byte = s1 & 3;
            if (byte == 1 || byte == 2) s1 ^= 3;
          }
          break;
        case DstWrite::half_at_opsel_3:
        case DstWrite::dword: break;  // writes no single byte to swap
      }
    }
    if (errata_.Has(Erratum::src_byte_swap) &&
        GetInstrInfo(ctx.instr).src[0] == SrcRole::fp8_bytes) {
      // byte_sel = 2*OPSEL[0] + OPSEL[1]: bytes 1 (0b10) and 2 (0b01) trade places when the
      // two bits do; the SDWA select codes BYTE_1 = 1 and BYTE_2 = 2 likewise.
      const uint8_t o = ctx.mods.opsel;
      ctx.mods.opsel = static_cast<uint8_t>((o & 0b1100) | ((o & 1) << 1) | ((o >> 1) & 1));
      if (ctx.mods.src0_sel == 1 || ctx.mods.src0_sel == 2) ctx.mods.src0_sel ^= 3;
    }
    if (errata_.Has(Erratum::half_swap) &&
        GetInstrInfo(ctx.instr).write == DstWrite::half_at_opsel_3) {
      ctx.mods.opsel ^= 0b1000;
    }
    if (errata_.Has(Erratum::round_odd)) RoundToOddInputs(ctx, &lanes);
    DeviceResult r;
    const size_t words = static_cast<size_t>(DstWords(ctx.instr));  // per lane (a VGPR pair: 2)
    r.vdst.resize(n * words);
    LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, lanes.view(), absl::MakeSpan(r.vdst)));
    ApplyResultErrata(ctx, n, words, r.vdst);
    // The kernel's MODE readback, emulated: the fields the kernel sets from the batch, over
    // what the code object fixes (kernel_state.h: DX10_CLAMP and IEEE set on GFX9-11);
    // mode_lost loses the first MODE write (MODE[7:0] stays at the default), as back-to-back
    // s_setregs without wait states can on GFX9.
    const uint32_t set = errata_.Has(Erratum::mode_lost) ? (batch.mode & ~0xffu) | (kDefaultMode & 0xffu) : batch.mode;
    r.mode_readback = KernelMode(t, set);
    LANEDIFF_RETURN_IF_ERROR(CheckModeReadback(batch, r));

    r.provenance.set_runner("sim");
    r.provenance.set_device(std::string(kSimDeviceName));
    r.provenance.set_target(std::string(t.name));
    r.provenance.set_lanediff_version(LANEDIFF_VERSION);
    for (const std::string& h : HypothesisSettings(base_)) r.provenance.add_hypotheses(h);
    for (const std::string& e : errata_.Names()) r.provenance.add_injected(e);
    return r;
  }

 private:
  // The errata that change the model's result words (n lanes of `words` each) after Evaluate.
  void ApplyResultErrata(const OpContext& ctx, size_t n, size_t words,
                         std::vector<uint32_t>& vdst) const {
    if (errata_.Has(Erratum::scaled_element_swap) &&
        ErratumReaches(Erratum::scaled_element_swap, ctx.instr)) {
      // The two bytes of the written half trade places; the kept half stays.
      const uint32_t shift = 16u * ((ctx.mods.opsel >> 3) & 1u);
      for (uint32_t& w : vdst) {
        const uint32_t half = (w >> shift) & 0xffffu;
        const uint32_t swapped = ((half & 0xffu) << 8) | (half >> 8);
        w = (w & ~(0xffffu << shift)) | (swapped << shift);
      }
    }
    if (errata_.Has(Erratum::fp4_nibble_swap) &&
        ErratumReaches(Erratum::fp4_nibble_swap, ctx.instr)) {
      // The two nibbles of the written byte trade places; the kept bytes stay.
      const uint32_t shift = 8u * ((ctx.mods.opsel >> 2) & 3u);
      for (uint32_t& w : vdst) {
        const uint32_t b = (w >> shift) & 0xffu;
        w = (w & ~(0xffu << shift)) | ((((b & 0xfu) << 4) | (b >> 4)) << shift);
      }
    }
    if (errata_.Has(Erratum::fp6_fields_reversed) &&
        ErratumReaches(Erratum::fp6_fields_reversed, ctx.instr)) {
      // Element i from field 31 - i: each lane's result words in reverse order.
      for (size_t i = 0; i < n; ++i) std::reverse(vdst.begin() + i * words, vdst.begin() + (i + 1) * words);
    }
    if (errata_.Has(Erratum::fp6_interleave_swapped) &&
        ErratumReaches(Erratum::fp6_interleave_swapped, ctx.instr)) {
      for (size_t i = 0; i < n; ++i) SwapFp6Interleave(absl::MakeSpan(vdst).subspan(i * words, words));
    }
    if (errata_.Has(Erratum::pair_word_swap) && words == 2) {
      for (size_t i = 0; i < n; ++i) std::swap(vdst[2 * i], vdst[2 * i + 1]);
    }
    if (errata_.Has(Erratum::pk16_swap) && ErratumReaches(Erratum::pk16_swap, ctx.instr)) {
      for (uint32_t& w : vdst) w = std::rotl(w, 16);
    }
    // nan_decode_payload, nan_decode_7fe: every f32 NaN an 8-bit float decode wrote (exponent all
    // ones, fraction not 0) becomes one fixed word that no reading gives.
    const uint32_t nan_word = errata_.Has(Erratum::nan_decode_payload) ? 0x7fffffffu
                              : errata_.Has(Erratum::nan_decode_7fe)   ? kNanDecode7fe
                                                                       : 0u;
    if (nan_word != 0 && GetInstrInfo(ctx.instr).output == OutputKind::f32) {
      for (uint32_t& w : vdst) {
        if ((w & 0x7f800000u) == 0x7f800000u && (w & 0x007fffffu) != 0) w = nan_word;
      }
    }
    if (errata_.Has(Erratum::garbage_lane) && n > 0) vdst[(n / 2) * words] ^= kGarbageXor;
  }

  ErrataSet errata_;
  Hypotheses base_;  // the simulated model's hypotheses, before errata
  Hypotheses hyp_;   // with the hypothesis-selecting errata applied
};

}  // namespace

absl::StatusOr<std::unique_ptr<Runner>> OpenSimRunner(const SimOptions& options) {
  LANEDIFF_ASSIGN_OR_RETURN(ErrataSet errata, ErrataSet::Parse(options.inject));
  Hypotheses hyp;
  for (const std::string& h : options.hypotheses) LANEDIFF_RETURN_IF_ERROR(SetHypothesis(h, &hyp));
  return std::unique_ptr<Runner>(new SimRunner(errata, hyp));
}

}  // namespace lanediff
