// The SR op's batch loops (the rows whose S1 is the seed). The op file decides the format, the
// seed bits and everything else instruction-specific, and calls these.
#ifndef LANEDIFF_MODEL_OPS_SR_COMMON_H_
#define LANEDIFF_MODEL_OPS_SR_COMMON_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/ops/kernel.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace ops {

// The MODE bits the SR conversions read: MODE[23] FP16_OVFL (the overflow readings) and MODE[4]
// f32 input denormals (S0 flushed when clear). They ignore the round mode (docs/semantics.md §7).
inline constexpr uint32_t kSrModeBits = kModeFp16OvflBit | kModeDenormF32InBit;

// Uniform across a batch of one SR instruction word.
struct SrUniform {
  const Fp8Format* format;
  Fp8Options options;
  // seed = (S1 >> seed_shift) & seed_mask: the top 23 - man_bits bits (sr_seed=high: shift
  // 9 + man_bits, mask all ones) or the low ones (sr_seed=low: shift 0, mask 2^(23-M) - 1).
  uint32_t seed_shift;
  uint32_t seed_mask;
  bool seed_low;        // sr_seed=low (the exact_subnormal reading picks its own k bits)
  uint32_t byte_shift;  // 8 * OPSEL[3:2]
  Src0Uniform src0;
  SrRounding rounding;  // the sr_rounding hypothesis
};

// Fills the parts every SR instruction decodes the same way (docs/semantics.md §5, §6):
// OPSEL[3:2] byte select (OPSEL[3] high), FP16_OVFL under the fp16_ovfl hypothesis, the NaN,
// seed, overflow and rounding hypotheses and the src0 modifiers. `seed_shift` is where the
// seed's top-bits reading starts (12 for 3-bit mantissas, 11 for 2-bit ones).
SrUniform DecodeSr(const OpContext& ctx, const Fp8Format& format, uint32_t seed_shift);

// The input class (model/ops/input_class.h) of an SR lane: nan, inf, zero, denormal, overflow
// (|src0| above the format's largest finite value), sr_carry (fraction + seed >= 2^23), tie
// (the bits below the output quantum are exactly one half of it), normal.
absl::string_view ClassifySr(const OpContext& ctx, const Fp8Shape& shape, uint32_t src0,
                             uint32_t src1);

// Fast batch and oracle batch.
void SrBatch(const SrUniform& u, const LaneView& lanes, uint32_t* out);
void SrBatchOracle(const SrUniform& u, const LaneView& lanes, uint32_t* out);

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_SR_COMMON_H_
