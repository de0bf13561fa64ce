// Helpers shared by the op files: the decoded uniform parts of a batch and a multiversioning
// attribute for the inner loops.
#ifndef LANEDIFF_MODEL_OPS_KERNEL_H_
#define LANEDIFF_MODEL_OPS_KERNEL_H_

#include <cstdint>

#include "model/fp/f32.h"
#include "model/ops/ops.h"

// Inner loops are compiled three times, for AVX-512F, AVX2 and the baseline x86-64, and the
// loader picks one at run time (GNU ifunc): AVX2 brings the per-lane variable shifts these
// loops need, AVX-512F wider vectors, masks and 32 registers; the binary still runs on any
// x86-64. Elsewhere (or under ASan, or with LANEDIFF_NO_MULTIVERSION) one baseline copy.
#if defined(__x86_64__) && defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(LANEDIFF_NO_MULTIVERSION)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define LANEDIFF_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#else
#define LANEDIFF_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef LANEDIFF_KERNEL
#define LANEDIFF_KERNEL
#endif
// For the loops and dispatch helpers a LANEDIFF_KERNEL calls: forced inline, so that each
// clone compiles them for its own target (a helper left out of line is compiled once, for the
// baseline, and the clones gain nothing: measured 8x slower with `lanediff bench`).
#define LANEDIFF_KERNEL_INLINE inline __attribute__((always_inline))

namespace lanediff {
namespace ops {

// src0 as the float modifiers leave it: x' = (x & abs_and) ^ neg_xor, then the MODE[4]
// input-denormal flush.
struct Src0Uniform {
  uint32_t abs_and;
  uint32_t neg_xor;
  bool keep_denormals;
};
inline Src0Uniform DecodeSrc0(const OpContext& ctx) {
  return {(ctx.mods.abs & 1) ? ~kF32SignMask : 0xffffffffu,
          (ctx.mods.neg & 1) ? kF32SignMask : 0u, (ctx.mode & kModeDenormF32InBit) != 0};
}
inline uint32_t ResolveSrc0(uint32_t x, const Src0Uniform& u) {
  return FlushInputDenormal((x & u.abs_and) ^ u.neg_xor, u.keep_denormals);
}

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_KERNEL_H_
