// Acceptance for issue 15 on the simulator: per planted erratum, a short fixed-seed campaign
// over every target and instruction yields at most two buckets per instruction, and the
// largest one names the erratum's effect (the erratum table in device_harness/sim/errata.h
// says what each does; the expected cause below is read from it, not from a run). A clean run
// yields none; two errata in one run give two buckets per instruction they both touch.
#include <stdlib.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "fuzz/campaign.h"
#include "fuzz/corpus_store.h"
#include "fuzz/triage/buckets.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

std::string TempDir() {
  std::string templ = ::testing::TempDir() + "erratum_buckets_XXXXXX";
  EXPECT_NE(::mkdtemp(templ.data()), nullptr);
  return templ;
}

// instruction -> buckets (largest count first)
std::map<std::string, std::vector<Bucket>> Campaign(const std::vector<std::string>& inject) {
  CampaignOptions o;
  o.device = "sim";
  o.corpus = TempDir();
  o.inject = inject;
  o.lanes_per_batch = 256;
  o.progress = false;
  o.seed = 11;
  o.max_execs = 600;
  // The instructions that write one byte, which the expectations below name (the 16-bit-half
  // writers are covered by fuzz/campaign_test.cc's half_swap and round_odd cases, the f32
  // writers by its src_byte_swap and gfx1250_clamp_ignored cases).
  for (Instr i : kAllInstrs) {
    const DstWrite w = GetInstrInfo(i).write;
    if (w == DstWrite::byte_at_src1 || w == DstWrite::byte_at_opsel_3_2) o.instrs.push_back(i);
  }
  // The nightly's version (scripts/nightly.sh): LANEDIFF_ERRATUM_SECONDS=60 runs each campaign
  // for that long over every target and those instructions, at the default 1024 lanes per batch.
  if (const char* secs = std::getenv("LANEDIFF_ERRATUM_SECONDS"); secs != nullptr && std::atof(secs) > 0) {
    o.max_execs = 0;
    o.time_seconds = std::atof(secs);
    o.lanes_per_batch = 1024;
  }
  auto stats = RunCampaign(o, nullptr);
  EXPECT_TRUE(stats.ok()) << stats.status();
  CorpusLoad load = LoadCorpus({o.corpus + "/findings"});
  EXPECT_TRUE(load.errors.empty());
  std::map<std::string, std::vector<Bucket>> by_instr;
  if (load.findings.empty()) return by_instr;
  for (Bucket& b : FoldIntoBuckets(load.findings)) by_instr[b.instr].push_back(std::move(b));
  for (auto& [i, v] : by_instr) {
    std::sort(v.begin(), v.end(), [](const Bucket& a, const Bucket& b) { return a.count > b.count; });
  }
  return by_instr;
}

std::string Describe(const std::map<std::string, std::vector<Bucket>>& m) {
  std::string s;
  for (const auto& [i, v] : m) {
    for (const Bucket& b : v) s += b.signature + " x" + std::to_string(b.count) + "\n";
  }
  return s;
}

struct Case {
  const char* erratum;
  std::set<std::string> instrs;  // the instructions it touches (errata.h "predicts")
  const char* cause;             // the effect, as a cause name
};

class ErratumBuckets : public ::testing::TestWithParam<Case> {};

TEST_P(ErratumBuckets, AtMostTwoBucketsPerInstructionNamedByTheEffect) {
  const Case& c = GetParam();
  const auto buckets = Campaign({c.erratum});
  ASSERT_FALSE(buckets.empty()) << c.erratum << " found nothing";
  for (const auto& [instr, v] : buckets) {
    EXPECT_TRUE(c.instrs.count(instr) != 0) << instr << " is not touched by " << c.erratum;
    EXPECT_LE(v.size(), 2u) << Describe(buckets);
    EXPECT_EQ(v[0].cause, c.cause) << Describe(buckets);
  }
}

const std::set<std::string> kSr = {"v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"};
const std::set<std::string> kAll = {"v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"};

INSTANTIATE_TEST_SUITE_P(
    Sim, ErratumBuckets,
    ::testing::Values(
        // Each hypothesis-selecting erratum is that hypothesis (errata.h, sim_runner.cc).
        Case{"sr_wrap", kSr, "sr_rounding=literal"},
        Case{"u8_truncate", {"v_cvt_pk_u8_f32"}, "pk_u8_rounding=truncate"},
        Case{"nan_sign", kSr, "fp8_nan=sign_preserving"},
        Case{"fp16_ovfl_ignored", kSr, "fp16_ovfl=ignored"},
        Case{"gfx1250_clamp_ignored", {"v_cvt_sr_fp8_f32"}, "gfx1250_clamp=ignored"},
        // Byte selects 1 and 2 exchanged: the result lands in the other byte.
        Case{"byte12_swap", kAll, "byte_moved"},
        // Seed bit 31 flipped: stochastic rounding goes the other way (one ulp).
        Case{"src1_neg", kSr, "rounded_other_way"},
        // One lane XOR 0xdeadbeef: every byte changes.
        Case{"garbage_lane", kAll, "written_and_unwritten_bytes_changed"},
        // abort() on a signalling-NaN src0: a device fault, one bucket per instruction.
        // (hang costs the batch timeout per try and mode_lost is a harness fault, refused
        // before any finding: neither is a bucket to count here.)
        Case{"crash", kAll, "device_fault.crash"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.erratum); });

TEST(ErratumBuckets, CleanRunYieldsNone) { EXPECT_TRUE(Campaign({}).empty()); }

TEST(ErratumBuckets, TwoErrataGiveTwoBuckets) {
  // sr_wrap and nan_sign both touch the SR instructions: two causes each, never a third
  // combined one, and nothing on v_cvt_pk_u8_f32.
  const auto buckets = Campaign({"sr_wrap", "nan_sign"});
  ASSERT_EQ(buckets.size(), 2u) << Describe(buckets);
  for (const auto& [instr, v] : buckets) {
    std::set<std::string> causes;
    for (const Bucket& b : v) causes.insert(b.cause);
    EXPECT_EQ(causes, (std::set<std::string>{"sr_rounding=literal", "fp8_nan=sign_preserving"}))
        << Describe(buckets);
  }
}

}  // namespace
}  // namespace lanediff
