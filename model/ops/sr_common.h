// The part v_cvt_sr_fp8_f32 and v_cvt_sr_bf8_f32 share: the batch loops. The op files decide
// the format, the seed bits and everything else instruction-specific, and call these.
#ifndef LANEDIFF_MODEL_OPS_SR_COMMON_H_
#define LANEDIFF_MODEL_OPS_SR_COMMON_H_

#include <cstddef>
#include <cstdint>

#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/ops/kernel.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace ops {

// Uniform across a batch of one SR instruction word.
struct SrUniform {
  const Fp8Format* format;
  Fp8Options options;
  uint32_t seed_shift;  // seed = S1 >> seed_shift (its top 23 - man_bits bits)
  uint32_t byte_shift;  // 8 * OPSEL[3:2]
  Src0Uniform src0;
  bool literal;         // sr_rounding=literal
};

// Fills the parts every SR instruction decodes the same way (SEMANTICS.md §5, §6):
// OPSEL[3:2] byte select (OPSEL[3] high), FP16_OVFL under the fp16_ovfl hypothesis, the NaN
// hypothesis, the rounding hypothesis and the src0 modifiers.
SrUniform DecodeSr(const OpContext& ctx, const Fp8Format& format, uint32_t seed_shift);

// Fast batch and oracle batch.
void SrBatch(const SrUniform& u, const LaneView& lanes, uint32_t* out);
void SrBatchOracle(const SrUniform& u, const LaneView& lanes, uint32_t* out);

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_SR_COMMON_H_
