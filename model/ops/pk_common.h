// The part the packed RNE 8-bit float conversions share: two f32 sources to two 8-bit floats
// (round to nearest even), packed into the 16-bit half of VDST that OPSEL[3] selects, the other
// half kept from the old VDST. The op files choose the format and call these.
#ifndef LANEDIFF_MODEL_OPS_PK_COMMON_H_
#define LANEDIFF_MODEL_OPS_PK_COMMON_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/ops/kernel.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace ops {

// The MODE bits the RNE pair writers read: MODE[23] FP16_OVFL and MODE[4] f32 input denormals
// (always RNE: the round mode is not read, docs/semantics.md §7).
inline constexpr uint32_t kPkModeBits = kModeFp16OvflBit | kModeDenormF32InBit;

// Uniform across a batch: the format, the readings (Fp8EncodeOptionsFor: fp8_nan, MODE.FP16_OVFL
// under fp16_ovfl, CLAMP under pk_fp8_clamp), each source's ABS/NEG and flush, and the half.
struct PkUniform {
  const Fp8Format* format;
  Fp8Options options;
  Src0Uniform src[2];
  uint32_t half_shift;  // 16 * OPSEL[3]
};
// `clamp_saturates`: CLAMP saturates a finite overflow under the pk_fp8_clamp reading (false
// where CLAMP is a format select instead, ClampSelectsFormat in fp8_clamp.h).
PkUniform DecodePk(const OpContext& ctx, const Fp8Format& format, bool clamp_saturates);

// Fast batch and oracle batch.
void PkBatch(const PkUniform& u, const LaneView& lanes, uint32_t* out);
void PkBatchOracle(const OpContext& ctx, const Fp8Format& format, bool clamp_saturates,
                   const LaneView& lanes, uint32_t* out);

// The input class of the source with the rarer class (S0's when both are normal): nan, inf,
// zero, denormal, overflow (|x| above the format's largest finite value), tie (the bits below
// the output quantum are exactly one half of it), normal.
absl::string_view ClassifyPk(const OpContext& ctx, const Fp8Format& format, uint32_t src0,
                             uint32_t src1);

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_PK_COMMON_H_
