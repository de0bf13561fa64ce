// Nightly (LABELS slow): F32ToFp8Rne against the exact oracle on all 2^32 f32 words, for every
// format and option set the pk instructions can ask for (rne_option_sets.h: 22 sets).
//
// Each set's default-option sibling is swept in full through the oracle. A non-default set only
// changes NaN, Inf and overflow outputs (every option of Fp8Options is about those), so for it
// the oracle runs on every word whose magnitude is above the format's largest finite value or
// is Inf/NaN; on every other word the fast result must equal the fast default result, which the
// full sweep has checked against the oracle. That halves the oracle calls without skipping a
// word.
//
// LANEDIFF_SWEEP_STRIDE=K visits every K-th block of 2^16 words (spread over the range) for a
// quick manual run, starting at block LANEDIFF_SWEEP_OFFSET (default 0; runs with offsets 0..K-1
// together cover everything); LANEDIFF_SWEEP_THREADS=N sets the threads (default 2). The test
// prints what it covered.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/fp/oracle.h"
#include "model/fp/rne_option_sets.h"

namespace lanediff {
namespace {

uint32_t EnvOr(const char* name, uint32_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && std::atoi(v) > 0 ? static_cast<uint32_t>(std::atoi(v)) : fallback;
}

// The f32 bit pattern of a format's largest finite magnitude, from its fields.
uint32_t MaxFiniteBits(const Fp8Format& f) {
  const uint32_t e = f.max_finite >> f.man_bits, m = f.max_finite & ((1u << f.man_bits) - 1u);
  return ((e - static_cast<uint32_t>(f.bias) + 127u) << 23) | (m << (23 - f.man_bits));
}

TEST(Fp8RneExhaustive, EveryF32EveryOptionSetMatchesOracle) {
  const uint32_t stride = EnvOr("LANEDIFF_SWEEP_STRIDE", 1);
  const uint32_t threads = EnvOr("LANEDIFF_SWEEP_THREADS", 2);
  const uint32_t offset = EnvOr("LANEDIFF_SWEEP_OFFSET", 0) % stride;
  const std::vector<RneOptionSet> sets = RneOptionSets();
  std::atomic<uint64_t> words{0}, oracle_calls{0}, mismatches{0};
  std::atomic<uint32_t> next_block{offset};
  std::vector<std::string> first_failures(threads);
  auto worker = [&](uint32_t id) {
    uint64_t w = 0, calls = 0;
    for (;;) {
      const uint32_t block = next_block.fetch_add(stride);
      if (block >= 65536u) break;
      for (const RneOptionSet& s : sets) {
        const Fp8Format& f = GetFp8Format(s.format);
        const Fp8Params p = MakeFp8Params(f, s.options);
        const Fp8Params d = MakeFp8Params(f, {});
        const bool is_default = !s.options.saturate_finite && !s.options.saturate_inf &&
                                !s.options.nan_sign_7f && !s.options.nan_sign_preserving;
        const uint32_t limit = MaxFiniteBits(f);
        for (uint32_t lo = 0; lo < 65536u; ++lo) {
          const uint32_t x = (block << 16) | lo;
          const uint32_t fast = F32ToFp8Rne(x, p);
          uint32_t expect;
          if (is_default || (x & 0x7fffffffu) > limit) {
            expect = OracleF32ToFp8Rne(x, f, s.options);
            ++calls;
          } else {
            expect = F32ToFp8Rne(x, d);
          }
          ++w;
          if (fast != expect && mismatches.fetch_add(1) == 0) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s x=0x%08x: fast 0x%02x, expected 0x%02x",
                          s.name.c_str(), x, fast, expect);
            first_failures[id] = buf;
          }
        }
      }
    }
    words += w;
    oracle_calls += calls;
  };
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < threads; ++t) pool.emplace_back(worker, t);
  for (std::thread& t : pool) t.join();
  for (const std::string& s : first_failures) {
    if (!s.empty()) ADD_FAILURE() << s;
  }
  std::printf("fp8 RNE exhaustive: %zu option sets, stride %u, offset %u, %llu words, %llu oracle "
              "calls, %llu mismatches\n",
              sets.size(), stride, offset, static_cast<unsigned long long>(words.load()),
              static_cast<unsigned long long>(oracle_calls.load()),
              static_cast<unsigned long long>(mismatches.load()));
  EXPECT_EQ(mismatches.load(), 0u);
  EXPECT_EQ(words.load(),
            static_cast<uint64_t>((65536u - offset + stride - 1) / stride) * 65536u * sets.size());
}

}  // namespace
}  // namespace lanediff
