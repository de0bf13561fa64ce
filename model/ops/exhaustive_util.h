// What the exhaustive fast-vs-oracle tests (LABELS slow) share: the fixed hash that derives
// each lane's other operands from its src0, and one (target, instruction, CLAMP) to sweep.
#ifndef LANEDIFF_MODEL_OPS_EXHAUSTIVE_UTIL_H_
#define LANEDIFF_MODEL_OPS_EXHAUSTIVE_UTIL_H_

#include <cstdint>

#include "model/targets/targets.h"

namespace lanediff {

inline uint32_t SweepHash(uint32_t x) {  // a fixed mixing function (splitmix32-style)
  x += 0x9e3779b9u;
  x = (x ^ (x >> 16)) * 0x85ebca6bu;
  x = (x ^ (x >> 13)) * 0xc2b2ae35u;
  return x ^ (x >> 16);
}

struct SweepConfig {
  const char* target;
  Instr instr;
  bool clamp;
};

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_EXHAUSTIVE_UTIL_H_
