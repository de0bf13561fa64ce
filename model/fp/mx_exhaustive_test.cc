// Nightly (LABELS slow): the MX encoders against the exact oracle on every f16 and every bf16
// pattern x every scale byte x every element format x every option set (96, mx.h), round to
// nearest even and stochastic rounding (HIP's seed width for the source; the seed ends, one half
// and just below it, one random). mx_test.cc runs the default options on a scale set, and every
// option set on a sample, in the default label.
//
// LANEDIFF_SWEEP_STRIDE=K checks every K-th source pattern (default 1: all) for a quick manual
// run; the test prints what it covered.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"

namespace lanediff {
namespace {

uint32_t Stride() {
  const char* s = std::getenv("LANEDIFF_SWEEP_STRIDE");
  const long v = s != nullptr ? std::strtol(s, nullptr, 10) : 1;
  return v >= 1 ? static_cast<uint32_t>(v) : 1u;
}

std::vector<MxEncodeOptions> AllEncodeOptions() {
  std::vector<MxEncodeOptions> v;
  for (MxScaleDir d : {MxScaleDir::divide, MxScaleDir::multiply}) {
    for (E8m0Zero z : {E8m0Zero::pow2_m127, E8m0Zero::zero}) {
      for (E8m0Nan n : {E8m0Nan::nan, E8m0Nan::pow2_128, E8m0Nan::infinity}) {
        for (MxNanIn in : {MxNanIn::max_keep_sign, MxNanIn::pos_max, MxNanIn::neg_zero,
                           MxNanIn::pos_zero}) {
          for (bool flush : {false, true}) {
            MxEncodeOptions o;
            o.direction = d;
            o.scale_zero = z;
            o.scale_nan = n;
            o.nan_in = in;
            o.flush_denormal_in = flush;
            v.push_back(o);
          }
        }
      }
    }
  }
  return v;
}

TEST(MxEncodeExhaustive, EverySixteenBitSourceEveryScaleEveryOptionSet) {
  const uint32_t stride = Stride();
  std::mt19937 rng(5);
  uint64_t n = 0;
  for (MxSource source : {MxSource::f16, MxSource::bf16}) {
    const int src_man = source == MxSource::f16 ? 10 : 7;
    for (const MxEncodeOptions& o : AllEncodeOptions()) {
      for (const MxElemFormat& f : kMxElemFormats) {
        const MxEncodeParams p = MakeMxEncodeParams(f, o);
        const uint32_t bits = MxSrSeedBits(src_man, f);
        const uint32_t top = (1u << bits) - 1u;
        for (uint32_t scale = 0; scale < 256; ++scale) {
          const uint32_t seeds[] = {0u, top, 1u << (bits - 1u), (1u << (bits - 1u)) - 1u,
                                    static_cast<uint32_t>(rng()) & top};
          for (uint32_t h = 0; h < 0x10000u; h += stride) {
            const uint32_t x = source == MxSource::f16 ? F16ToF32(h) : Bf16ToF32(h);
            ASSERT_EQ(F32ToMxRne(x, scale, p), OracleToMx(h, source, scale, f, o, false, 0, 0))
                << f.name << " src 0x" << std::hex << h << " scale 0x" << scale;
            for (uint32_t seed : seeds) {
              ASSERT_EQ(F32ToMxSr(x, scale, seed, bits, p),
                        OracleToMx(h, source, scale, f, o, true, seed, bits))
                  << f.name << " SR src 0x" << std::hex << h << " scale 0x" << scale
                  << " seed 0x" << seed;
            }
            n += 6;
          }
        }
      }
    }
  }
  std::printf("checked %llu conversions (source stride %u)\n",
              static_cast<unsigned long long>(n), stride);
}

}  // namespace
}  // namespace lanediff
