// The fast conversions against the slow exact oracle on a random + edge sample (every format,
// every option, every rounding reading). Both sides are checked against hand-derived rows in
// u8_test.cc and fp8_test.cc; here they are checked against each other where no person could
// write the rows. The exhaustive 2^32 sweep is model/ops/ops_exhaustive_test.cc (label slow).
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_format.h"
#include "model/fp/oracle.h"
#include "model/fp/u8.h"

namespace lanediff {
namespace {

// f32 values where conversions change behaviour: specials, every exponent with edge fractions,
// and the neighbourhood of every u8 integer and half and of every 8-bit float value and
// midpoint of every format.
std::vector<uint32_t> EdgeValues() {
  std::vector<uint32_t> v;
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t m : {0x000000u, 0x000001u, 0x400000u, 0x3fffffu, 0x400001u, 0x7fffffu,
                       0x080000u, 0x07ffffu, 0x100000u, 0x0fffffu, 0x200000u, 0x1fffffu}) {
      v.push_back((e << 23) | m);
    }
  }
  auto around = [&v](uint32_t bits) {
    for (int d = -2; d <= 2; ++d) v.push_back(bits + static_cast<uint32_t>(d));
  };
  for (uint32_t n = 0; n <= 256; ++n) {  // n and n + 0.5 as f32, built from the definition
    for (uint32_t twice : {2 * n, 2 * n + 1}) {
      if (twice == 0) continue;
      const int top = 31 - __builtin_clz(twice);
      around((static_cast<uint32_t>(127 + top - 1) << 23) | ((twice << (23 - top)) & 0x7fffff));
    }
  }
  for (const Fp8Format& f : kFp8Formats) {  // every code's value and the midpoints (x2 scale)
    for (uint32_t c = 1; c <= f.max_finite + 2u; ++c) {
      const uint32_t e = c >> f.man_bits, m = c & ((1u << f.man_bits) - 1);
      // value = (e ? 2^M + m : m) * 2^(max(e,1) - bias - M); in f32, normalise the integer.
      const uint32_t sig = e ? (1u << f.man_bits) + m : m;
      const int exp = static_cast<int>(e ? e : 1) - f.bias - f.man_bits;
      for (uint32_t s2 : {2 * sig, 2 * sig + 1}) {  // the value and the midpoint above it
        const int top = 31 - __builtin_clz(s2);
        around((static_cast<uint32_t>(127 + exp - 1 + top) << 23) |
               ((s2 << (23 - top)) & 0x7fffff));
      }
    }
  }
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(v[i] ^ 0x80000000u);
  return v;
}

std::vector<uint32_t> Seeds(uint32_t k, std::mt19937& rng) {
  const uint32_t top = (1u << k) - 1;
  // Extremes, one half and just below, one random: the places where a carry starts or stops.
  return {0, top, 1u << (k - 1), (1u << (k - 1)) - 1, static_cast<uint32_t>(rng()) & top};
}

// carry_truncate and literal, fast against oracle, for one value and seed.
::testing::AssertionResult SrAgrees(uint32_t x, uint32_t seed, const Fp8Format& f,
                                    const Fp8Options& o, const Fp8Params& p) {
  const uint32_t carry = F32ToFp8SrCarryTruncate(x, seed, p);
  const uint32_t carry_o = OracleF32ToFp8Sr(x, seed, f, o);
  const uint32_t lit = F32ToFp8SrLiteral(x, seed, p);
  const uint32_t lit_o = OracleF32ToFp8Literal(x, seed, f, o);
  if (carry == carry_o && lit == lit_o) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << f.name << std::hex << " x=" << x << " seed=" << seed
                                       << ": carry " << carry << " vs oracle " << carry_o
                                       << ", literal " << lit << " vs oracle " << lit_o;
}

TEST(OracleCrossCheck, U8) {
  std::mt19937 rng(1);
  std::vector<uint32_t> xs = EdgeValues();
  for (int i = 0; i < 50000; ++i) xs.push_back(rng());
  for (int rm = 0; rm < 4; ++rm) {
    for (uint32_t x : xs) {
      ASSERT_EQ(F32ToU8(x, static_cast<RoundMode>(rm)), OracleF32ToU8(x, static_cast<RoundMode>(rm)))
          << std::hex << "x=" << x << " rm=" << rm;
    }
  }
}

TEST(OracleCrossCheck, Fp8EveryFormatAndOption) {
  std::mt19937 rng(2);
  const std::vector<uint32_t> edges = EdgeValues();
  for (const Fp8Format& f : kFp8Formats) {
    const uint32_t k = 23 - f.man_bits;
    for (int opt = 0; opt < 4; ++opt) {
      const Fp8Options o{(opt & 1) != 0, (opt & 2) != 0};
      const Fp8Params p = MakeFp8Params(f, o);
      std::vector<uint32_t> xs = edges;
      for (int i = 0; i < 2000; ++i) xs.push_back(rng());
      for (uint32_t x : xs) {
        ASSERT_EQ(F32ToFp8Rne(x, p), OracleF32ToFp8Rne(x, f, o))
            << f.name << " rne x=" << std::hex << x << " opt=" << opt;
      }
      for (uint32_t x : xs) {
        for (uint32_t seed : Seeds(k, rng)) ASSERT_TRUE(SrAgrees(x, seed, f, o, p)) << opt;
      }
    }
  }
}

// The options of the readings added for the public implementations (docs/semantics.md §9):
// fp8_nan=sign_7f, fp16_ovfl=saturate_all (Inf saturates), sr_overflow=before_rounding, and
// sr_rounding=exact_subnormal with the top or low seed bits, fast against oracle.
TEST(OracleCrossCheck, Fp8PublicReadings) {
  std::mt19937 rng(3);
  const std::vector<uint32_t> edges = EdgeValues();
  Fp8Options options[5];
  options[0].nan_sign_7f = true;
  options[1].saturate_finite = options[1].saturate_inf = true;
  options[2].overflow_before_rounding = true;
  options[3] = {};
  options[4].nan_sign_7f = options[4].saturate_finite = options[4].saturate_inf = true;
  options[4].overflow_before_rounding = true;
  for (const Fp8Format& f : kFp8Formats) {
    const uint32_t k = 23 - f.man_bits;
    for (size_t oi = 0; oi < std::size(options); ++oi) {
      const Fp8Options& o = options[oi];
      const Fp8Params p = MakeFp8Params(f, o);
      std::vector<uint32_t> xs;
      for (size_t i = oi % 3; i < edges.size(); i += 3) xs.push_back(edges[i]);
      for (int i = 0; i < 500; ++i) xs.push_back(rng());
      for (uint32_t x : xs) {
        for (uint32_t seed : Seeds(k, rng)) ASSERT_TRUE(SrAgrees(x, seed, f, o, p)) << oi;
        for (uint32_t s1 : {0u, 0xffffffffu, 0x800u, 0x400u, 0x80000000u,
                            static_cast<uint32_t>(rng())}) {
          for (bool low : {false, true}) {
            ASSERT_EQ(F32ToFp8SrExactSubnormal(x, s1, low, p),
                      OracleF32ToFp8SrExactSubnormal(x, s1, low, f, o))
                << f.name << " exact x=" << std::hex << x << " s1=" << s1 << " low=" << low
                << " opt=" << oi;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace lanediff
