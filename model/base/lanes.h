// The data every layer passes around: a batch's per-lane operand words and the MODE register
// fields lanediff sets. Plain containers, no semantics: the harness (device_harness/) carries
// them without depending on the model's ops (model/ops/ops.h computes on them).
#ifndef LANEDIFF_MODEL_BASE_LANES_H_
#define LANEDIFF_MODEL_BASE_LANES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lanediff {

// MODE register fields that matter (docs/semantics.md §7).
inline constexpr uint32_t kDefaultMode = 0x000000f0;  // RNE, all denormals on, FP16_OVFL off
inline constexpr uint32_t kModeRoundF32Mask = 0x3;     // MODE[1:0]
inline constexpr uint32_t kModeDenormF32InBit = 1u << 4;
inline constexpr uint32_t kModeFp16OvflBit = 1u << 23;

// Non-owning structure-of-arrays view of a batch's resolved operands.
struct LaneView {
  const uint32_t* src0 = nullptr;
  const uint32_t* src1 = nullptr;
  const uint32_t* src2 = nullptr;
  const uint32_t* vdst_old = nullptr;
  size_t size = 0;
};

// Owning structure-of-arrays batch.
class LaneBatch {
 public:
  void Add(uint32_t src0, uint32_t src1, uint32_t src2, uint32_t vdst_old) {
    src0_.push_back(src0);
    src1_.push_back(src1);
    src2_.push_back(src2);
    vdst_old_.push_back(vdst_old);
  }
  void Resize(size_t n) {
    src0_.resize(n);
    src1_.resize(n);
    src2_.resize(n);
    vdst_old_.resize(n);
  }
  void Clear() { Resize(0); }
  size_t size() const { return src0_.size(); }
  LaneView view() const {
    return {src0_.data(), src1_.data(), src2_.data(), vdst_old_.data(), src0_.size()};
  }
  std::vector<uint32_t>& src0() { return src0_; }
  std::vector<uint32_t>& src1() { return src1_; }
  std::vector<uint32_t>& src2() { return src2_; }
  std::vector<uint32_t>& vdst_old() { return vdst_old_; }

 private:
  std::vector<uint32_t> src0_, src1_, src2_, vdst_old_;
};

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_BASE_LANES_H_
