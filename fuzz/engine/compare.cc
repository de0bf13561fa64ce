#include "fuzz/engine/compare.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace lanediff {

std::vector<std::string> AllRelaxationNames() { return {"nan_payload", "unwritten_bytes"}; }

absl::StatusOr<Relaxations> ParseRelaxations(const std::vector<std::string>& names) {
  Relaxations r;
  for (const std::string& list : names) {
    for (absl::string_view name : absl::StrSplit(list, ',', absl::SkipEmpty())) {
      if (name == "nan_payload") {
        r.nan_payload = true;
      } else if (name == "unwritten_bytes") {
        r.unwritten_bytes = true;
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("unknown relaxation '", name,
                         "'; valid: ", absl::StrJoin(AllRelaxationNames(), ", ")));
      }
    }
  }
  return r;
}

std::vector<std::string> RelaxationNames(const Relaxations& r) {
  std::vector<std::string> out;
  if (r.nan_payload) out.push_back("nan_payload");
  if (r.unwritten_bytes) out.push_back("unwritten_bytes");
  return out;
}

std::string DescribeRelaxations(const Relaxations& r) {
  if (!r.any()) return "strict (every bit of every lane)";
  return absl::StrCat("relaxed: ", absl::StrJoin(RelaxationNames(r), ","));
}

bool LaneAgrees(const OpContext& ctx, uint32_t src1, uint32_t expected, uint32_t observed,
                const Relaxations& relax) {
  if (expected == observed) return true;
  if (!relax.any()) return false;
  // The bits the lane writes and their element format come from the instruction's row and
  // op (model/instrs.def, OutputIsNan): compare knows no instruction and no format.
  const uint32_t mask = WrittenMask(ctx.instr, ctx.mods.opsel, src1);
  if ((expected & ~mask) != (observed & ~mask) && !relax.unwritten_bytes) return false;
  for (int byte = 0; byte < 4; ++byte) {
    if (((mask >> (8 * byte)) & 0xffu) == 0) continue;
    const uint8_t e = static_cast<uint8_t>(expected >> (8 * byte));
    const uint8_t o = static_cast<uint8_t>(observed >> (8 * byte));
    if (e == o) continue;  // this element agrees
    if (!relax.nan_payload || ctx.target == nullptr) return false;
    if (!OutputIsNan(ctx, e) || !OutputIsNan(ctx, o)) return false;
  }
  return true;
}

std::vector<size_t> DifferingLanes(const OpContext& ctx, const LaneView& lanes,
                                   absl::Span<const uint32_t> expected,
                                   absl::Span<const uint32_t> observed, const Relaxations& relax) {
  std::vector<size_t> out;
  // A lane's result is DstWords consecutive words (a VGPR pair: VDST, VDST+1); it agrees when
  // every one of them does, each by LaneAgrees.
  const size_t w = static_cast<size_t>(DstWords(ctx.instr));
  const size_t n = std::min(expected.size(), observed.size()) / w;
  const size_t lanes_seen = (std::max(expected.size(), observed.size()) + w - 1) / w;
  if (!relax.any()) {
    // Strict: whole words. Blocks of 64 words are OR-reduced first (vectorized, no branch per
    // word); only a block with a difference is walked word by word, each differing word
    // reporting its lane once. No allocation when equal.
    constexpr size_t kBlock = 64;
    const uint32_t* e = expected.data();
    const uint32_t* o = observed.data();
    const size_t words = n * w;
    for (size_t b = 0; b < words; b += kBlock) {
      const size_t end = std::min(words, b + kBlock);
      uint32_t diff = 0;
      for (size_t i = b; i < end; ++i) diff |= e[i] ^ o[i];
      if (diff == 0) continue;
      for (size_t i = b; i < end; ++i) {
        if (e[i] != o[i] && (out.empty() || out.back() != i / w)) out.push_back(i / w);
      }
    }
    for (size_t i = n; i < lanes_seen; ++i) out.push_back(i);
    return out;
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t s1 = (lanes.src1 != nullptr && i < lanes.size) ? lanes.src1[i] : 0;
    for (size_t k = 0; k < w; ++k) {
      if (!LaneAgrees(ctx, s1, expected[i * w + k], observed[i * w + k], relax)) {
        out.push_back(i);
        break;
      }
    }
  }
  for (size_t i = n; i < lanes_seen; ++i) out.push_back(i);
  return out;
}

}  // namespace lanediff
