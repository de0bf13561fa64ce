// The confirmation batch of fuzz/triage/attribution.h: ConfirmationCase.
#include "fuzz/triage/attribution.h"

#include <algorithm>
#include <cstdint>

#include "device_harness/resolve_case.h"
#include "model/base/status.h"
#include "model/ops/ops.h"

namespace lanediff {

absl::StatusOr<proto::TestCase> ConfirmationCase(const proto::TestCase& tc, uint64_t salt) {
  LANEDIFF_ASSIGN_OR_RETURN(const ResolvedCase rc, ResolveTestCase(tc));
  return ConfirmationCase(tc, rc, salt);
}

absl::StatusOr<proto::TestCase> ConfirmationCase(const proto::TestCase& tc, const ResolvedCase& rc,
                                                 uint64_t salt) {
  const InstrInfo& info = GetInstrInfo(rc.ctx.instr);
  if (tc.lanes_size() == 0) return absl::InvalidArgumentError("confirmation of a case with no lanes");
  uint64_t state = salt;
  auto next = [&state]() {  // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
  };
  proto::TestCase out = tc;
  out.clear_lanes();
  out.set_note("confirmation batch (fuzz/triage/attribution.h ConfirmationCase)");
  // Lane j keeps the batch's data words when j % 4 == 0; otherwise a data word (Inf, NaN and
  // denormals kept) gets a new 23-bit mantissa under its sign: random (j odd), or random high
  // bits, then a one, then zeros from a random position down (j % 4 == 2: ties of every
  // quantum); j % 4 == 3 also a random exponent. So roundings, ties, carries and wrapping adds
  // of every kind occur, whatever range the batch's inputs were in.
  auto redraw = [&next](uint32_t x, int j) {
    const uint32_t exp = (x >> 23) & 0xffu;
    if (j % 4 == 0 || exp == 0 || exp == 0xff) return x;
    uint32_t m = next() & 0x7fffffu;
    if (j % 4 == 2) {
      const uint32_t k = next() % 23u;  // the one at bit k, zeros below
      m = (m & ~((2u << k) - 1u)) | (1u << k);
    }
    if (j % 4 == 3) {  // and a new exponent: 2^-17 .. 2^18, every 8-bit format's range
      return (x & 0x80000000u) | ((110u + next() % 36u) << 23) | m;
    }
    return (x & 0xff800000u) | m;
  };
  // Uniform sources (SGPR, literal, inline constant) fix one value for every lane: src0 and
  // src1 become VGPRs fed per lane, from the value each lane read (rc.lanes). Words given
  // verbatim (raw_words) stay as they are.
  const bool rewrite = tc.encoding().raw_words_size() == 0;
  // (A source field is touched only when rewritten: an absent one, e.g. a VOP1/SDWA word's
  // src1, stays absent, which the one-source forms require.)
  for (int k = 0; k < 2 && rewrite; ++k) {
    if (info.src[k] == SrcRole::data_f32 || info.src[k] == SrcRole::sr_seed ||
        info.src[k] == SrcRole::byte_select || info.src[k] == SrcRole::fp8_bytes ||
        (IsPacked16(info.src[k]) && !IsPacked16Tuple(info.src[k]))) {
      proto::Source* src = k == 0 ? out.mutable_encoding()->mutable_src0()
                                  : out.mutable_encoding()->mutable_src1();
      src->Clear();
      src->set_kind(proto::SOURCE_VGPR);
    }
  }
  const LaneView v = rc.lanes.view();
  const int n = std::min(1024, std::max(256, tc.lanes_size()));
  for (int j = 0; j < n; ++j) {
    const size_t i = static_cast<size_t>(j % tc.lanes_size());
    proto::Lane l = tc.lanes(static_cast<int>(i));
    if (rewrite) l.set_src0(v.first(0, i)), l.set_src1(v.first(1, i));
    if (info.src[0] == SrcRole::data_f32) l.set_src0(redraw(l.src0(), j));
    // Two packed 16-bit floats: each finite nonzero-exponent half a new fraction under its sign
    // and exponent, but for a quarter of the lanes.
    if (IsPacked16(info.src[0]) && j % 4 != 0) {
      const bool f16 = IsPackedF16(info.src[0]);
      const uint32_t exp_mask = f16 ? 0x7c00u : 0x7f80u, man_mask = f16 ? 0x3ffu : 0x7fu;
      const uint32_t fresh = next();
      uint32_t x = l.src0();
      for (int h = 0; h < 2; ++h) {
        const uint32_t half = (x >> (16 * h)) & 0xffffu;
        const uint32_t e = half & exp_mask;
        if (e == 0 || e == exp_mask) continue;
        const uint32_t m = (fresh >> (16 * h)) & man_mask;
        x = (x & ~(man_mask << (16 * h))) | (m << (16 * h));
      }
      l.set_src0(x);
    }
    // 8-bit codes (an f32 writer's S0): new bytes but for a quarter, as for data words, so a
    // coincidence of the batch's bytes (a uniform S0) is not repeated.
    if (info.src[0] == SrcRole::fp8_bytes && j % 4 != 0) l.set_src0(next());
    // A src1 that is not data (a seed, a byte select): a new random word, but where the lane
    // keeps a NaN data word of the batch: a NaN's literal SR add wraps to Inf under a few seeds
    // only, which a random seed does not find. (Other lanes keep no seed: a reading that
    // matched the batch's lanes by coincidence must match fresh ones.)
    const bool nan = (l.src0() & 0x7fffffffu) > 0x7f800000u;
    if (info.src[1] == SrcRole::data_f32) {
      l.set_src1(redraw(l.src1(), j));
    } else {
      const uint32_t fresh = next();  // drawn either way: the other lanes' draws stay as they were
      // A block scale in S1 is kept, as S2's is: a NaN or infinite scale byte makes the NaN
      // results a NaN reading shows, which a fresh word almost never repeats.
      const bool scale = info.src[1] == SrcRole::scale_f32;
      if (!scale && (j % 4 != 0 || !nan || info.src[0] != SrcRole::data_f32)) l.set_src1(fresh);
    }
    *out.add_lanes() = l;
  }
  return out;
}

}  // namespace lanediff
