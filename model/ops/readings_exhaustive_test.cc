// Slow (LABELS slow, scripts/nightly.sh): for each non-default reading of each rule, the fast
// model against the exact oracle on EVERY f32 word of the binades where that reading acts, on
// each format it concerns: all 2^23 fractions of each such exponent, the sign and the seed S1
// from a hash of the word, the other hypotheses and MODE bits changing from block to block.
// The binades: around the smallest normal (subnormal SR), the top two (overflow), exponent 255
// (NaN and Inf) and 1.0's, chosen per rule below from what the rule decides.
//
// LANEDIFF_SWEEP_STRIDE=K visits only every K-th fraction (a quick manual run); the test
// prints what it covered.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "model/fp/fp8_format.h"
#include "model/ops/exhaustive_util.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

using Config = SweepConfig;
constexpr auto Hash = SweepHash;

// Where each rule acts, as f32 exponent fields, for a format of bias B (exp_adj = 127 - B).
enum Range : unsigned { kSubnormal = 1, kTop = 2, kSpecial = 4, kOne = 8 };

struct Reading {
  const char* setting;           // "sr_rounding=exact_subnormal"
  unsigned ranges;
  std::vector<Config> configs;   // the formats it concerns
};

const std::vector<Reading>& Readings() {
  static const auto* r = new std::vector<Reading>{
      {"sr_rounding=exact_subnormal", kSubnormal | kOne,
       {{"gfx950", Instr::v_cvt_sr_fp8_f32, false}, {"gfx950", Instr::v_cvt_sr_bf8_f32, false},
        {"gfx942", Instr::v_cvt_sr_fp8_f32, false}, {"gfx942", Instr::v_cvt_sr_bf8_f32, false},
        {"gfx1250", Instr::v_cvt_sr_fp8_f32, true}}},
      {"sr_rounding=literal", kSubnormal | kTop | kSpecial,
       {{"gfx1201", Instr::v_cvt_sr_fp8_f32, false}, {"gfx942", Instr::v_cvt_sr_bf8_f32, false}}},
      {"sr_seed=low", kSubnormal | kOne,
       {{"gfx950", Instr::v_cvt_sr_fp8_f32, false}, {"gfx950", Instr::v_cvt_sr_bf8_f32, false}}},
      {"sr_overflow=before_rounding", kTop,
       {{"gfx950", Instr::v_cvt_sr_fp8_f32, false}, {"gfx950", Instr::v_cvt_sr_bf8_f32, false},
        {"gfx942", Instr::v_cvt_sr_fp8_f32, false}, {"gfx1250", Instr::v_cvt_sr_fp8_f32, true}}},
      {"fp8_nan=sign_7f", kSpecial,
       {{"gfx950", Instr::v_cvt_sr_fp8_f32, false}, {"gfx950", Instr::v_cvt_sr_bf8_f32, false}}},
      {"fp8_nan=sign_preserving", kSpecial, {{"gfx950", Instr::v_cvt_sr_bf8_f32, false}}},
      {"fp16_ovfl=saturate_all", kTop | kSpecial,
       {{"gfx950", Instr::v_cvt_sr_fp8_f32, false}, {"gfx950", Instr::v_cvt_sr_bf8_f32, false},
        {"gfx942", Instr::v_cvt_sr_fp8_f32, false}, {"gfx1250", Instr::v_cvt_sr_fp8_f32, true}}},
      {"gfx1250_clamp=ue5m3_magnitude", kSubnormal | kTop | kSpecial | kOne,
       {{"gfx1250", Instr::v_cvt_sr_fp8_f32, true}}},
      {"pk_u8_nan=max", kSpecial, {{"gfx1100", Instr::v_cvt_pk_u8_f32, false}}},
      {"pk_overflow=before_rounding", kTop,
       {{"gfx950", Instr::v_cvt_pk_fp8_f32, false}, {"gfx950", Instr::v_cvt_pk_bf8_f32, false},
        {"gfx942", Instr::v_cvt_pk_fp8_f32, false}, {"gfx1250", Instr::v_cvt_pk_fp8_f32, true}}},
  };
  return *r;
}

std::vector<uint32_t> Exponents(unsigned ranges, const OpContext& ctx) {
  std::vector<uint32_t> e;
  std::optional<Fp8Shape> shape = Fp8OutputShape(ctx);
  const int bias = shape ? shape->format->bias : 127;
  const uint32_t min_normal = static_cast<uint32_t>(128 - bias);  // f32 field of 2^(1-B)
  if (ranges & kSubnormal) {
    for (uint32_t k = 0; k <= 6; ++k) e.push_back(min_normal - k);
  }
  if (ranges & kTop) {
    const Fp8Format& f = *shape->format;
    const uint32_t top = static_cast<uint32_t>(f.max_finite >> f.man_bits) + 127u -
                         static_cast<uint32_t>(bias);
    e.push_back(top);
    e.push_back(top + 1);
  }
  if (ranges & kSpecial) e.push_back(255);
  if (ranges & kOne) e.push_back(127);
  return e;
}

TEST(ReadingsExhaustive, EveryWordOfEachReadingsBinadesFastMatchesOracle) {
  uint32_t stride = 1;
  if (const char* env = std::getenv("LANEDIFF_SWEEP_STRIDE")) {
    stride = std::max<uint32_t>(1, static_cast<uint32_t>(std::strtoul(env, nullptr, 0)));
  }
  struct Job {
    const Reading* reading;
    Config config;
    uint32_t exponent;
  };
  std::vector<Job> jobs;
  for (const Reading& r : Readings()) {
    for (const Config& c : r.configs) {
      OpContext ctx;
      ctx.target = *FindTarget(c.target);
      ctx.instr = c.instr;
      ctx.mods.clamp = c.clamp;
      for (uint32_t e : Exponents(r.ranges, ctx)) jobs.push_back({&r, c, e});
    }
  }
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> mismatches{0}, lanes_done{0};
  std::mutex report_mu;
  std::vector<std::string> reports;
  constexpr uint32_t kBlock = 1u << 16;
  auto worker = [&] {
    LaneBatch lanes;
    std::vector<uint32_t> fast, slow;
    for (size_t j; (j = next.fetch_add(1)) < jobs.size();) {
      const Job& job = jobs[j];
      for (uint32_t base = 0; base < (1u << 23); base += kBlock) {
        lanes.Clear();
        for (uint32_t i = 0; i < kBlock; i += stride) {
          const uint32_t frac = base + i;
          const uint32_t h = Hash(frac ^ (job.exponent << 23));
          lanes.Add((h & 0x80000000u) | (job.exponent << 23) | frac, Hash(h), h, Hash(~h));
        }
        OpContext ctx;
        ctx.target = *FindTarget(job.config.target);
        ctx.instr = job.config.instr;
        ctx.mods.clamp = job.config.clamp;
        const uint32_t hb = Hash(base ^ static_cast<uint32_t>(j * 7919u));
        ctx.mods.opsel = hb & 0xc;
        ctx.mode = (hb >> 4 & 3) | (hb >> 6 & 1 ? 0xf0u : 0xe0u) | (hb >> 7 & 1 ? 0x800000u : 0u);
        for (const HypothesisInfo& info : AllHypotheses()) {
          info.set(&ctx.hyp, static_cast<uint8_t>((hb >> (8 + info.name.size() % 9)) %
                                                  info.values.size()));
        }
        EXPECT_TRUE(SetHypothesis(job.reading->setting, &ctx.hyp).ok());
        fast.resize(lanes.size());
        slow.resize(lanes.size());
        ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
        ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
        for (size_t i = 0; i < lanes.size(); ++i) {
          if (fast[i] == slow[i]) continue;
          if (mismatches.fetch_add(1) < 20) {
            std::lock_guard<std::mutex> lock(report_mu);
            reports.push_back(absl::StrCat(
                job.reading->setting, " ", job.config.target, " ", InstrName(job.config.instr),
                " mode=0x", absl::Hex(ctx.mode), " hyp=",
                absl::StrJoin(NonDefaultHypothesisSettings(ctx.hyp), ","), ": src0=0x",
                absl::Hex(lanes.src0()[i], absl::kZeroPad8), " src1=0x",
                absl::Hex(lanes.src1()[i], absl::kZeroPad8), " fast=0x",
                absl::Hex(fast[i], absl::kZeroPad8), " oracle=0x",
                absl::Hex(slow[i], absl::kZeroPad8)));
          }
        }
        lanes_done += lanes.size();
      }
    }
  };
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  std::printf("%zu (reading, format, binade) sweeps, stride %u: %llu lanes%s\n", jobs.size(),
              stride, static_cast<unsigned long long>(lanes_done.load()),
              stride == 1 ? " (every fraction of every binade)" : " (PARTIAL)");
  for (const std::string& r : reports) ADD_FAILURE() << r;
  EXPECT_EQ(mismatches.load(), 0u);
}

}  // namespace
}  // namespace lanediff
