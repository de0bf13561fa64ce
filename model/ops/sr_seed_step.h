// The seed word each element of a gfx950 multi-element scaled SR encoder rounds with (rule
// mx_sr_seed_step, docs/semantics.md §11.17): stated once here for every such op file (the
// two-element FP4 encoders, the 32-element FP6/BF6 encoders, from f32 or from 16-bit floats).
//
// AMD's CDNA4 pseudocode (V_CVT_SCALEF32_SR_PK_FP4_F32 and V_CVT_SCALEF32_SR_PK32_*, as extracted
// in tinygrad/tinygrad tinygrad/runtime/autogen/amd/cdna/str_pcode.py) rounds element 0 with the
// seed S1 and sets `randomVal = V_PRNG_B32(randomVal)` before each next element, sequentially.
//
//   uint32_t s = S1;                                  // element 0
//   for (int i = 0; i < n; ++i, s = MxSrNextSeed(s, reading)) Round(element[i], s);
//   MxSrElementSeed(0x80000000, 1, MxSrSeedStep::prng_step)   // 0xc5
#ifndef LANEDIFF_MODEL_OPS_SR_SEED_STEP_H_
#define LANEDIFF_MODEL_OPS_SR_SEED_STEP_H_

#include <cstdint>

#include "model/fp/mx.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

// The seed word of the element after the one that rounded with `seed`.
constexpr uint32_t MxSrNextSeed(uint32_t seed, MxSrSeedStep reading) {
  return reading == MxSrSeedStep::same ? seed : PrngB32(seed);
}

// The seed word element `element` (0-based) rounds with, from the seed operand `s1`.
constexpr uint32_t MxSrElementSeed(uint32_t s1, int element, MxSrSeedStep reading) {
  for (int i = 0; i < element; ++i) s1 = MxSrNextSeed(s1, reading);
  return s1;
}

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_SR_SEED_STEP_H_
