// The data every layer passes around: a batch's per-lane operand words and the MODE register
// fields lanediff sets. Plain containers, no semantics: the harness (device_harness/) carries
// them without depending on the model's ops (model/ops/ops.h computes on them).
#ifndef LANEDIFF_MODEL_BASE_LANES_H_
#define LANEDIFF_MODEL_BASE_LANES_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace lanediff {

// MODE register fields that matter (docs/semantics.md §7).
inline constexpr uint32_t kDefaultMode = 0x000000f0;  // RNE, all denormals on, FP16_OVFL off
inline constexpr uint32_t kModeRoundF32Mask = 0x3;     // MODE[1:0]
inline constexpr uint32_t kModeDenormF32InBit = 1u << 4;
inline constexpr uint32_t kModeFp16OvflBit = 1u << 23;

// How many 32-bit words a lane moves: each source's dwords (a VGPR tuple of N registers,
// e.g. 6 for 32 packed FP6 fields) and the words of the destination (VDST, VDST+1, ...). The
// instruction's row says it (InstrInfo::lane_shape, model/targets/targets.h); vdst_old is
// always one word (VDST's old value; a wide row writes every word whole). Arrays of a batch
// keep a lane's words consecutive: source s of lane i at [i * src_dwords[s], ... + N), its
// result at [i * dst_words, ... + M).
struct LaneShape {
  uint8_t src_dwords[3] = {1, 1, 1};
  uint8_t dst_words = 1;
  // One dword per source: every row but the wide ones.
  constexpr bool narrow_sources() const {
    return src_dwords[0] == 1 && src_dwords[1] == 1 && src_dwords[2] == 1;
  }
  // The same dwords per source (what a batch's lanes hold; the VDST words are the row's).
  constexpr bool same_sources(const LaneShape& o) const {
    return src_dwords[0] == o.src_dwords[0] && src_dwords[1] == o.src_dwords[1] &&
           src_dwords[2] == o.src_dwords[2];
  }
  // The words of one lane a device is given: every source's dwords and vdst_old.
  constexpr int lane_words() const { return src_dwords[0] + src_dwords[1] + src_dwords[2] + 1; }
  friend constexpr bool operator==(const LaneShape& a, const LaneShape& b) {
    return a.src_dwords[0] == b.src_dwords[0] && a.src_dwords[1] == b.src_dwords[1] &&
           a.src_dwords[2] == b.src_dwords[2] && a.dst_words == b.dst_words;
  }
};

// Non-owning structure-of-arrays view of a batch's resolved operands: `size` lanes, source s
// holding size * shape.src_dwords[s] words (LaneShape's layout).
struct LaneView {
  const uint32_t* src0 = nullptr;
  const uint32_t* src1 = nullptr;
  const uint32_t* src2 = nullptr;
  const uint32_t* vdst_old = nullptr;
  size_t size = 0;
  LaneShape shape{};
  const uint32_t* src(int s) const { return s == 0 ? src0 : s == 1 ? src1 : src2; }
  // Lane i's first dword of source s (its whole word for a one-dword source).
  uint32_t first(int s, size_t i) const { return src(s)[i * shape.src_dwords[s]]; }
};

// Owning structure-of-arrays batch. Add/Resize with the default shape are the one-dword
// batches every narrow row uses; SetShape first for a wide row's. Only the shape's source
// dwords lay the lanes out; its dst_words is the row's, kept for whoever sizes results.
class LaneBatch {
 public:
  // One lane: each source's first dword (a wide source's other dwords 0) and vdst_old.
  void Add(uint32_t src0, uint32_t src1, uint32_t src2, uint32_t vdst_old) {
    const uint32_t first[3] = {src0, src1, src2};
    for (int s = 0; s < 3; ++s) {
      std::vector<uint32_t>& v = src(s);
      v.push_back(first[s]);
      if (shape_.src_dwords[s] > 1) v.resize(v.size() + shape_.src_dwords[s] - 1, 0);
    }
    vdst_old_.push_back(vdst_old);
  }
  // Appends lane i of `v` (every dword of each source); v's sources have this batch's shape.
  void AddLaneOf(const LaneView& v, size_t i) {
    AddWide(v.src0 + i * shape_.src_dwords[0], v.src1 + i * shape_.src_dwords[1],
            v.src2 + i * shape_.src_dwords[2], v.vdst_old[i]);
  }
  // Appends a copy of lane j (every dword of each source).
  void AddCopyOf(size_t j) {
    for (int s = 0; s < 3; ++s) {
      std::vector<uint32_t>& v = src(s);
      const size_t n = shape_.src_dwords[s];
      v.reserve(v.size() + n);  // exactly one lane more: a doubled capacity would stay pooled
      for (size_t k = 0; k < n; ++k) v.push_back(v[j * n + k]);
    }
    vdst_old_.reserve(vdst_old_.size() + 1);
    vdst_old_.push_back(vdst_old_[j]);
  }
  // Removes lane j by moving the last lane into its place.
  void RemoveSwappingLast(size_t j) {
    const size_t last = size() - 1;
    for (int s = 0; s < 3; ++s) {
      std::vector<uint32_t>& v = src(s);
      const size_t n = shape_.src_dwords[s];
      for (size_t k = 0; k < n; ++k) std::swap(v[j * n + k], v[last * n + k]);
    }
    std::swap(vdst_old_[j], vdst_old_[last]);
    Resize(last);
  }
  // A wide lane: each source's dwords (spans of shape().src_dwords[s] words) and vdst_old.
  void AddWide(const uint32_t* src0, const uint32_t* src1, const uint32_t* src2, uint32_t vdst_old) {
    src0_.insert(src0_.end(), src0, src0 + shape_.src_dwords[0]);
    src1_.insert(src1_.end(), src1, src1 + shape_.src_dwords[1]);
    src2_.insert(src2_.end(), src2, src2 + shape_.src_dwords[2]);
    vdst_old_.push_back(vdst_old);
  }
  // Sets the words per lane of each source (the lanes already held are dropped when those
  // change) and the row's VDST words.
  void SetShape(const LaneShape& shape) {
    const bool same = shape.same_sources(shape_);
    shape_ = shape;
    if (!same) Resize(0);
  }
  // Sets the shape over words already laid out for it (ResolveLanesInto fills the arrays first).
  void SetShapeKeepingLanes(const LaneShape& shape) { shape_ = shape; }
  const LaneShape& shape() const { return shape_; }
  void Resize(size_t n) {
    src0_.resize(n * shape_.src_dwords[0]);
    src1_.resize(n * shape_.src_dwords[1]);
    src2_.resize(n * shape_.src_dwords[2]);
    vdst_old_.resize(n);
  }
  void Clear() { Resize(0); }
  size_t size() const { return vdst_old_.size(); }
  LaneView view() const {
    return {src0_.data(), src1_.data(), src2_.data(), vdst_old_.data(), vdst_old_.size(), shape_};
  }
  std::vector<uint32_t>& src0() { return src0_; }
  std::vector<uint32_t>& src1() { return src1_; }
  std::vector<uint32_t>& src2() { return src2_; }
  std::vector<uint32_t>& src(int s) { return s == 0 ? src0_ : s == 1 ? src1_ : src2_; }
  std::vector<uint32_t>& vdst_old() { return vdst_old_; }

 private:
  LaneShape shape_{};
  std::vector<uint32_t> src0_, src1_, src2_, vdst_old_;
};

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_BASE_LANES_H_
