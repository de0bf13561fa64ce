#include "model/ops/input_class.h"

#include <algorithm>
#include <iterator>

#include "model/ops/op_table.h"

namespace lanediff {

// Each instruction's classes are its op file's <mnemonic>_classify.
absl::string_view ClassifyInput(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  return ops::GetOp(ctx.instr).classify(ctx, src0, src1);
}

namespace {

// The rank of a class in ClassifyLane's order, most special first.
int SpecialRank(absl::string_view c) {
  static constexpr absl::string_view kOrder[] = {"nan", "inf",      "overflow", "denormal",
                                                 "tie", "sr_carry", "zero",     "normal"};
  for (int r = 0; r < static_cast<int>(std::size(kOrder)); ++r) {
    if (c == kOrder[r]) return r;
  }
  return static_cast<int>(std::size(kOrder));  // a class outside the list ranks last
}

// The 32 bits of lane i's source s starting at bit `bit` of its dwords (zeros past the end).
uint32_t TupleWindow(const LaneView& v, int s, size_t i, int bit) {
  const int n = v.shape.src_dwords[s];
  const uint32_t* p = v.src(s) + i * static_cast<size_t>(n);
  const int w = bit / 32;
  const uint64_t pair = (w < n ? p[w] : 0) | (w + 1 < n ? uint64_t{p[w + 1]} << 32 : 0);
  return static_cast<uint32_t>(pair >> (bit % 32));
}

}  // namespace

absl::string_view ClassifyLane(const OpContext& ctx, const LaneView& v, size_t i) {
  if (v.shape.narrow_sources()) return ClassifyInput(ctx, v.first(0, i), v.first(1, i));
  const InstrInfo& row = GetInstrInfo(ctx.instr);
  int elements = 1;  // the most elements any tuple source has
  for (int s = 0; s < 2; ++s) {
    const int n = v.shape.src_dwords[s];
    if (n > 1) elements = std::max(elements, 32 * n / SrcElementBits(row.src[s]));
  }
  absl::string_view best;
  for (int e = 0; e < elements; ++e) {
    uint32_t w[2];
    for (int s = 0; s < 2; ++s) {
      const int n = v.shape.src_dwords[s], bits = SrcElementBits(row.src[s]);
      w[s] = n > 1 && e < 32 * n / bits ? TupleWindow(v, s, i, e * bits) : v.first(s, i);
    }
    const absl::string_view c = ClassifyInput(ctx, w[0], w[1]);
    if (best.empty() || SpecialRank(c) < SpecialRank(best)) best = c;
  }
  return best;
}

}  // namespace lanediff
