#include "fuzz/compare.h"

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

bool IsFp8Nan(Fp8FormatId id, uint8_t b) {
  const Fp8Format& f = GetFp8Format(id);
  if (f.fnuz) return b == 0x80;
  if (!f.is_signed) return b == 0xff;  // UE5M3
  const uint8_t mag = b & 0x7f;
  const int man_mask = (1 << f.man_bits) - 1;
  const int exp = mag >> f.man_bits;
  const int exp_max = (1 << f.exp_bits) - 1;
  if (exp != exp_max) return false;
  if (f.has_inf) return (mag & man_mask) != 0;  // E5M2: S.11111.00 is Inf
  return (mag & man_mask) == man_mask;          // E4M3FN: S.1111.111 only
}

bool LaneAgrees(const OpContext& ctx, uint32_t src1, uint32_t expected, uint32_t observed,
                const Relaxations& relax) {
  if (expected == observed) return true;
  if (!relax.any()) return false;
  const int byte = WrittenByte(ctx.instr, ctx.mods.opsel, src1);
  const uint32_t mask = 0xffu << (8 * byte);
  if ((expected & ~mask) != (observed & ~mask) && !relax.unwritten_bytes) return false;
  const uint8_t e = static_cast<uint8_t>(expected >> (8 * byte));
  const uint8_t o = static_cast<uint8_t>(observed >> (8 * byte));
  if (e == o) return true;  // only unwritten bytes differed, and that is relaxed
  if (!relax.nan_payload || ctx.target == nullptr) return false;
  const std::optional<Fp8Shape> shape = Fp8OutputShape(ctx);
  return shape && IsFp8Nan(shape->format->id, e) && IsFp8Nan(shape->format->id, o);
}

std::vector<size_t> DifferingLanes(const OpContext& ctx, const LaneView& lanes,
                                   absl::Span<const uint32_t> expected,
                                   absl::Span<const uint32_t> observed, const Relaxations& relax) {
  std::vector<size_t> out;
  const size_t n = std::min(expected.size(), observed.size());
  for (size_t i = 0; i < n; ++i) {
    const uint32_t s1 = (lanes.src1 != nullptr && i < lanes.size) ? lanes.src1[i] : 0;
    if (!LaneAgrees(ctx, s1, expected[i], observed[i], relax)) out.push_back(i);
  }
  for (size_t i = n; i < std::max(expected.size(), observed.size()); ++i) out.push_back(i);
  return out;
}

}  // namespace lanediff
