// The 6-dword tuple of 32 FP6/BF6 fields the gfx950 FP6 decodes read as S0 (SrcRole::fp6_x32;
// field k at bits 6k+5:6k of the 192 bits, dword 0 bit 0 the lowest: AMD's CDNA4 pseudocode for
// V_CVT_SCALEF32_PK32_*), shared by the op files of the rows whose S0 has that role; and the
// 3-dword tuple of 16 fields gfx1250's 16-element encoders write (v_cvt_scalef32_pk16_* and
// v_cvt_scalef32_sr_pk16_*, docs/semantics.md §14.4 and §14.7), its field order per
// mx_pk16_fp6_order.
//
//   Pk16Fp6Field(8, MxPk16Fp6Order::interleaved)   // 1: element 8 at bits 11:6
#ifndef LANEDIFF_MODEL_OPS_FP6_TUPLE_H_
#define LANEDIFF_MODEL_OPS_FP6_TUPLE_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "model/base/lanes.h"
#include "model/fp/mx_format.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace ops {

inline constexpr int kFp6Fields = 32;
inline constexpr int kFp6TupleDwords = 6;
using Fp6Tuple = std::array<uint32_t, kFp6TupleDwords>;

// The row's field format: OCP MX BF6 E3M2 for Fp8Slot::bf6, else FP6 E2M3.
inline const MxElemFormat& RowFp6Format(const OpContext& ctx) {
  return GetMxElemFormat(GetInstrInfo(ctx.instr).fp8_slot == Fp8Slot::bf6 ? MxElemId::bf6_e3m2
                                                                          : MxElemId::fp6_e2m3);
}

// Lane i's tuple: the view's 6 dwords (LaneShape, as the harness lays a lane out); a view of
// one-dword sources (EvaluateLane, tables of single words) holds only dword 0, which is then
// every dword, as CompleteTupleLanes completes such a lane (model/isa/testcase.h).
inline Fp6Tuple Fp6TupleOf(const LaneView& lanes, size_t i) {
  const int n = lanes.shape.src_dwords[0];
  const uint32_t* p = lanes.src0 + i * static_cast<size_t>(n);
  Fp6Tuple t;
  for (int k = 0; k < kFp6TupleDwords; ++k) t[k] = n == kFp6TupleDwords ? p[k] : p[0];
  return t;
}

// Field k: the dword pair it sits in, shifted.
inline uint32_t Fp6Field(const Fp6Tuple& t, int k) {
  const int bit = 6 * k, w = bit / 32;
  const uint64_t pair = t[w] | (w + 1 < kFp6TupleDwords ? uint64_t{t[w + 1]} << 32 : 0);
  return static_cast<uint32_t>(pair >> (bit % 32)) & 0x3fu;
}

// The oracle's field: bit b of field k is bit 6k+b of the tuple, read one bit at a time.
inline uint32_t Fp6FieldOracle(const Fp6Tuple& t, int k) {
  uint32_t code = 0;
  for (int b = 0; b < 6; ++b) {
    const int bit = 6 * k + b;
    code |= ((t[bit / 32] >> (bit % 32)) & 1u) << b;
  }
  return code;
}

inline constexpr int kPk16Fp6Elements = 16;
inline constexpr int kPk16Fp6Dwords = 3;  // 96 bits

// gfx1250's 16 FP6/BF6 codes in 96 bits (the encoders' VDST, OutputKind::fp6 with dst_bits 96;
// the decodes' S0, SrcRole::fp6_x16): the field element e sits in under mx_pk16_fp6_order
// (`linear`: field e; `interleaved`: element e < 8 at field 2e, element 8 + e at field 2e + 1).
constexpr int Pk16Fp6Field(int e, MxPk16Fp6Order order) {
  return order == MxPk16Fp6Order::linear ? e
         : e < kPk16Fp6Elements / 2      ? 2 * e
                                         : 2 * (e - kPk16Fp6Elements / 2) + 1;
}
static_assert(Pk16Fp6Field(1, MxPk16Fp6Order::interleaved) == 2);
static_assert(Pk16Fp6Field(8, MxPk16Fp6Order::interleaved) == 1);

// The fast paths' 96 bits as a 64-bit and a 32-bit word (fields 5 and 10 straddle dwords).
struct Pk16Fp6Bits {
  uint64_t lo = 0, hi = 0;

  void Put(int field, uint64_t code) {
    const int at = 6 * field;
    if (at < 64) lo |= code << at;
    if (at > 58) hi |= at < 64 ? code >> (64 - at) : code << (at - 64);
  }
  void Store(uint32_t* d) const {
    d[0] = static_cast<uint32_t>(lo);
    d[1] = static_cast<uint32_t>(lo >> 32);
    d[2] = static_cast<uint32_t>(hi);
  }
};

// The oracles' placement of element `pass`'s code in the 3 dwords `d`: each bit one at a time
// from the field's offset under each order's own formula (linear: bit 6 * pass; interleaved:
// the first half at 12 * pass, the second at 12 * (pass - 8) + 6).
inline void Pk16Fp6PlaceOracle(uint32_t* d, int pass, MxPk16Fp6Order order, uint32_t code) {
  const int base = order == MxPk16Fp6Order::linear ? 6 * pass
                   : pass < 8                      ? 12 * pass
                                                   : 12 * (pass - 8) + 6;
  for (int b = 0; b < 6; ++b) {
    const int bit = base + b;
    d[bit / 32] |= ((code >> b) & 1u) << (bit % 32);
  }
}

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_FP6_TUPLE_H_
