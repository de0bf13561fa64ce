// Nightly (LABELS slow): the fast model against the exact oracle on every one of the 2^32 src0
// bit patterns, for pk_u8 and for the SR instructions in each of the five 8-bit formats. The
// uniform parts (MODE round mode and bits 4/23, hypotheses, modifiers, OPSEL) change from one
// block of 2^16 src0 values to the next, so every src0 meets every format and the variations
// are spread over the whole range; src1 (the seed), src2 and vdst_old come from a hash of src0.
//
// For a quick manual run, LANEDIFF_SWEEP_STRIDE=K visits only every K-th block of 2^16 (spread
// over the whole range) and LANEDIFF_SWEEP_BLOCKS=N stops after N blocks; the test prints what
// it covered. With neither set (the nightly run), every block.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/exhaustive_util.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

using Config = SweepConfig;
constexpr auto Hash = SweepHash;

// Every 8-bit format: gfx942 E4M3/E5M2 FNUZ, gfx1201 OCP E4M3/E5M2, gfx1250 CLAMP UE5M3.
const Config kConfigs[] = {
    {"gfx1201", Instr::v_cvt_pk_u8_f32, false}, {"gfx942", Instr::v_cvt_sr_fp8_f32, false},
    {"gfx942", Instr::v_cvt_sr_bf8_f32, false}, {"gfx1201", Instr::v_cvt_sr_fp8_f32, false},
    {"gfx1201", Instr::v_cvt_sr_bf8_f32, false}, {"gfx1250", Instr::v_cvt_sr_fp8_f32, true},
};

OpContext BlockContext(const Config& c, uint32_t block) {
  OpContext ctx;
  ctx.target = *FindTarget(c.target);
  ctx.instr = c.instr;
  const uint32_t h = Hash(block * 7919u + static_cast<uint32_t>(c.instr));
  ctx.mods.clamp = c.clamp;
  ctx.mods.opsel = h & 0xf;
  ctx.mods.neg = (h >> 4) & 7;
  ctx.mods.abs = (h >> 7) & 1;  // ABS rarely: it folds half the range onto the other half
  ctx.mode = ((h >> 8) & 3) | ((h >> 10) & 1 ? 0xf0u : 0xe0u) | ((h >> 11) & 1 ? 0x800000u : 0u);
  for (const HypothesisInfo& info : AllHypotheses()) {
    info.set(&ctx.hyp, static_cast<uint8_t>((h >> 16) % info.values.size()));
    // Different hypotheses get different bits of the hash.
    const uint32_t shift = static_cast<uint32_t>(info.name.size()) % 7;
    info.set(&ctx.hyp, static_cast<uint8_t>(((h >> (16 + shift)) & 0xff) % info.values.size()));
  }
  return ctx;
}

TEST(OpsExhaustive, EverySrc0FastMatchesOracle) {
  uint32_t stride = 1;
  if (const char* env = std::getenv("LANEDIFF_SWEEP_STRIDE")) {
    stride = static_cast<uint32_t>(std::strtoul(env, nullptr, 0));
    if (stride == 0) stride = 1;
  }
  uint64_t blocks = ((1u << 16) + stride - 1) / stride;  // blocks visited
  if (const char* env = std::getenv("LANEDIFF_SWEEP_BLOCKS")) {
    blocks = std::min<uint64_t>(blocks, std::strtoull(env, nullptr, 0));
  }
  std::atomic<uint32_t> next{0};
  std::atomic<uint64_t> mismatches{0}, lanes_done{0};
  std::mutex report_mu;
  std::vector<std::string> reports;
  auto worker = [&] {
    LaneBatch lanes;
    lanes.Resize(1u << 16);
    std::vector<uint32_t> fast(1u << 16), slow(1u << 16);
    for (uint32_t visit; (visit = next.fetch_add(1)) < blocks;) {
      const uint32_t block = visit * stride;
      for (uint32_t i = 0; i < (1u << 16); ++i) {
        const uint32_t s0 = (block << 16) | i;
        lanes.src0()[i] = s0;
        lanes.src1()[i] = Hash(s0);
        lanes.src2()[i] = Hash(s0 ^ 0x5555u);
        lanes.vdst_old()[i] = Hash(s0 ^ 0xaaaau);
      }
      for (const Config& c : kConfigs) {
        const OpContext ctx = BlockContext(c, block);
        ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
        ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
        for (uint32_t i = 0; i < (1u << 16); ++i) {
          if (fast[i] == slow[i]) continue;
          if (mismatches.fetch_add(1) < 20) {
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "%s %s mode=0x%x opsel=%d neg=%d abs=%d clamp=%d: src0=0x%08x "
                          "src1=0x%08x fast=0x%08x oracle=0x%08x",
                          c.target, std::string(InstrName(c.instr)).c_str(), ctx.mode,
                          ctx.mods.opsel, ctx.mods.neg, ctx.mods.abs, ctx.mods.clamp,
                          lanes.src0()[i], lanes.src1()[i], fast[i], slow[i]);
            std::lock_guard<std::mutex> lock(report_mu);
            reports.push_back(buf);
          }
        }
        lanes_done += 1u << 16;
      }
    }
  };
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  std::printf("covered %llu of 65536 blocks of 2^16 src0 values (stride %u) x %zu configs: "
              "%llu lanes%s\n",
              static_cast<unsigned long long>(blocks), stride, std::size(kConfigs),
              static_cast<unsigned long long>(lanes_done.load()),
              blocks == (1u << 16) ? " (all 2^32 src0 values)" : " (PARTIAL sweep)");
  for (const std::string& r : reports) ADD_FAILURE() << r;
  EXPECT_EQ(mismatches.load(), 0u);
}

}  // namespace
}  // namespace lanediff
