// Bucketing on the simulator: per planted erratum (every one in
// device_harness/sim/errata.h), a short fixed-seed campaign over every target and every
// instruction of model/instrs.def yields at most two buckets per instruction, only on the
// instructions the erratum touches, and the largest one names the erratum's effect. Which
// instructions and which effect are read from errata.h's description, stated at each case
// below (not from a run). A clean run yields none; two errata in one run give two buckets per
// instruction they both touch.
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "fuzz/engine/campaign.h"
#include "fuzz/corpus/corpus_store.h"
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
std::map<std::string, std::vector<Bucket>> Campaign(const std::vector<std::string>& inject,
                                                    uint64_t max_execs = 600) {
  CampaignOptions o;
  o.device = "sim";
  o.corpus = TempDir();
  o.inject = inject;
  o.lanes_per_batch = 256;
  o.progress = false;
  o.seed = 11;
  o.max_execs = max_execs;
  // hang: every batch with a signalling-NaN src0 (and every minimization step keeping one)
  // waits out the batch timeout. Only the fault errata run isolated, so only they have one; a
  // batch merely slow on a loaded machine is then a hang, a cause of its own: crash (the other
  // isolated one) may show it as its second bucket, within the two allowed.
  o.batch_timeout_seconds = 0.5;
  // Every instruction of model/instrs.def, the f32 writers (the fp8 -> f32 decodes) included:
  // attribution.cc classifies their whole f32 word (source_byte_moved, f32 value classes).
  for (Instr i : kAllInstrs) o.instrs.push_back(i);
  // The nightly's version (scripts/nightly.sh): LANEDIFF_ERRATUM_SECONDS=60 runs each campaign
  // for that long over every target and instruction, at the default 1024 lanes per batch.
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
    s += "  " + i + ": " + std::to_string(v.size()) + " bucket(s):";
    for (const Bucket& b : v) s += " " + b.cause + " x" + std::to_string(b.count);
    s += "\n";
  }
  return s;
}

struct Case {
  const char* erratum;
  std::set<std::string> instrs;  // the instructions it touches (errata.h "predicts")
  const char* cause;             // the effect, as a cause name
  uint64_t short_execs = 600;    // the default run's bound (hang: each sighting costs a timeout)
  // The effect on the f32 writers (kUnpack), where it differs from `cause`; nullptr: the same.
  const char* f32_cause = nullptr;
};

// The f32 writers v_cvt_f32_fp8 and v_cvt_f32_bf8 (one selected byte of S0 decoded, a whole
// f32 word written; byte select: GFX9 SDWA src0_sel, GFX12/GFX1250 byte_sel = OPSEL[1:0]) and
// the VGPR-pair writers v_cvt_pk_f32_fp8 and v_cvt_pk_f32_bf8 (a selected word's two bytes
// decoded into VDST, VDST+1; word select: GFX9 SDWA src0_sel, GFX12/GFX1250 OPSEL[0]).
const std::set<std::string>& kUnpackNames() {
  static const std::set<std::string> s = {"v_cvt_f32_fp8", "v_cvt_f32_bf8", "v_cvt_pk_f32_fp8",
                                          "v_cvt_pk_f32_bf8"};
  return s;
}
// The VGPR-pair writers (dst_bits 64).
const std::set<std::string> kPair = {"v_cvt_pk_f32_fp8", "v_cvt_pk_f32_bf8"};

class ErratumBuckets : public ::testing::TestWithParam<Case> {};

TEST_P(ErratumBuckets, AtMostTwoBucketsPerInstructionNamedByTheEffect) {
  const Case& c = GetParam();
  const auto buckets = Campaign({c.erratum}, c.short_execs);
  // The table the nightly's log keeps: buckets per instruction, with their counts.
  std::printf("[buckets] %s:\n%s", c.erratum, Describe(buckets).c_str());
  ASSERT_FALSE(buckets.empty()) << c.erratum << " found nothing";
  for (const auto& [instr, v] : buckets) {
    EXPECT_TRUE(c.instrs.count(instr) != 0) << instr << " is not touched by " << c.erratum;
    EXPECT_LE(v.size(), 2u) << Describe(buckets);
    const char* want = c.f32_cause != nullptr && kUnpackNames().count(instr) != 0 ? c.f32_cause
                                                                                 : c.cause;
    EXPECT_EQ(v[0].cause, want) << instr << "\n" << Describe(buckets);
  }
}

// The instructions (model/instrs.def): byte writers v_cvt_pk_u8_f32 (byte select in S1[1:0]),
// v_cvt_sr_fp8_f32 and v_cvt_sr_bf8_f32 (OPSEL[3:2], seed in S1); half writers
// v_cvt_pk_fp8_f32 and v_cvt_pk_bf8_f32 (OPSEL[3], two f32 data sources, RNE, no seed).
const std::set<std::string> kSr = {"v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"};
const std::set<std::string> kPkFloat = {"v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32"};
const std::set<std::string> kFloat8 = {"v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32", "v_cvt_pk_fp8_f32",
                                       "v_cvt_pk_bf8_f32"};
const std::set<std::string> kBytes = {"v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"};
const std::set<std::string> kUnpack = kUnpackNames();
const std::set<std::string> kAll = {"v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32",
                                    "v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32", "v_cvt_f32_fp8",
                                    "v_cvt_f32_bf8", "v_cvt_pk_f32_fp8", "v_cvt_pk_f32_bf8"};

INSTANTIATE_TEST_SUITE_P(
    Sim, ErratumBuckets,
    ::testing::Values(
        // errata.h: "SR add wraps as the literal pseudocode (model sr_rounding=literal)"; the
        // SR instructions only ("pk_u8 never"; the packed float conversions and the f32
        // writers have no seed).
        Case{"sr_wrap", kSr, "sr_rounding=literal"},
        // "pk_u8 truncates toward zero (model pk_u8_rounding=truncate)"; "SR never"; the f32
        // writers round nothing.
        Case{"u8_truncate", {"v_cvt_pk_u8_f32"}, "pk_u8_rounding=truncate"},
        // "OCP NaN keeps its sign (model fp8_nan=sign_preserving)": every instruction that
        // writes an OCP 8-bit float, SR and packed (the packed ones read fp8_nan too,
        // model/ops/pk_common.cc); pk_u8 never; the f32 writers never (fp8_nan is the NaN an
        // 8-bit output is given; their NaN input reading is fp8_to_f32_nan, untouched).
        Case{"nan_sign", kFloat8, "fp8_nan=sign_preserving"},
        // "MODE.FP16_OVFL does nothing (model fp16_ovfl=ignored)": the 8-bit float conversions,
        // which read MODE[23] (SR and packed); an f32 decode never overflows: untouched.
        Case{"fp16_ovfl_ignored", kFloat8, "fp16_ovfl=ignored"},
        // "gfx1250 CLAMP does not select UE5M3 (model gfx1250_clamp=ignored)": the E4M3
        // conversions, SR, packed and the decode v_cvt_f32_fp8 (errata.cc: "the fp8 -> f32
        // decode"; model/ops/v_cvt_f32_fp8.cc reads CLAMP as the UE5M3 bit there), on
        // gfx1250/gfx1251; the hypothesis reproduces every lane, so it is named. Not
        // v_cvt_f32_bf8 (no UE5M3 select: its row has no gfx1250 clamp).
        Case{"gfx1250_clamp_ignored", {"v_cvt_sr_fp8_f32", "v_cvt_pk_fp8_f32", "v_cvt_f32_fp8"},
             "gfx1250_clamp=ignored"},
        // "byte selects 1 and 2 are exchanged": the byte writers; the result lands in the
        // other byte. Half writers and the f32 writers never ("writes no single byte to
        // swap": DstWrite::dword).
        Case{"byte12_swap", kBytes, "byte_moved"},
        // "NEG[1] honoured as a float negation ... bit 31 of S1 flipped": on SR that is seed bit
        // 31, so stochastic rounding goes the other way (the other neighbour, the one beyond
        // the largest finite included); pk_u8 never (S1[31] unused), pk_fp8/bf8 never (NEG[1]
        // is theirs); the f32 writers never (S1 unused).
        Case{"src1_neg", kSr, "rounded_other_way"},
        // "writes the other half and keeps this one: OPSEL[3] inverted": the half writers; the
        // result moved to the other half. Not the f32 writers (DstWrite::dword).
        Case{"half_swap", kPkFloat, "byte_moved"},
        // "the RNE packed 8-bit float conversions round to odd": the half writers; where odd
        // and RNE differ, the result is the input's other neighbour: rounded_other_way. The
        // f32 writers read no f32 input: untouched.
        Case{"round_odd", kPkFloat, "rounded_other_way"},
        // "src_byte_swap: an instruction that converts one selected byte of S0
        // (SrcRole::fp8_bytes) reads byte 2 when byte 1 is selected and byte 1 when byte 2
        // is": the f32 writers only; the observed word is the model's under the other byte
        // select: source_byte_moved. The pair writer too: its GFX9 SDWA src0_sel BYTE_1 picks
        // the high word and BYTE_2 the low one (fp8_sdwa_sel=pseudocode), so swapped selects
        // read the other word, again the model's under the other select.
        Case{"src_byte_swap", kUnpack, "source_byte_moved"},
        // "writes its two words swapped": the VGPR-pair writers only; the observed pair is the
        // expected one exchanged: dst_words_swapped.
        Case{"pair_word_swap", kPair, "dst_words_swapped"},
        // "one lane returns its VDST XOR 0xdeadbeef": every instruction, every byte changes;
        // an f32 writer writes every byte (no kept byte to see), so there the garbage word is
        // an f32 value that differs: value_differs (the pair writer: its VDST word).
        Case{"garbage_lane", kAll, "written_and_unwritten_bytes_changed", 600, "value_differs"},
        // "abort() when a lane's src0 is a signalling NaN": every instruction (the f32
        // writers' src0 words are drawn too), a device fault.
        Case{"crash", kAll, "device_fault.crash"},
        // "never returns when a lane's src0 is a signalling NaN": every instruction, a hang.
        Case{"hang", kAll, "device_fault.hang", 24}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.erratum); });

// mode_lost: "every batch whose MODE[7:0] is not the default is a harness fault (MODE readback
// mismatch), not a finding" (errata.h): no bucket at all.
TEST(ErratumBuckets, ModeLostIsAHarnessFaultNotABucket) {
  EXPECT_TRUE(Campaign({"mode_lost"}).empty());
}

TEST(ErratumBuckets, CleanRunYieldsNone) { EXPECT_TRUE(Campaign({}).empty()); }

TEST(ErratumBuckets, TwoErrataGiveTwoBuckets) {
  // sr_wrap touches the SR instructions, nan_sign every OCP 8-bit float writer (the cases
  // above): two causes on each SR instruction, never a third combined one; nan_sign's alone on
  // the packed float ones; nothing on v_cvt_pk_u8_f32.
  const auto buckets = Campaign({"sr_wrap", "nan_sign"});
  ASSERT_FALSE(buckets.empty());
  for (const auto& [instr, v] : buckets) {
    std::set<std::string> causes;
    for (const Bucket& b : v) causes.insert(b.cause);
    if (kSr.count(instr) != 0) {
      EXPECT_EQ(causes, (std::set<std::string>{"sr_rounding=literal", "fp8_nan=sign_preserving"}))
          << Describe(buckets);
    } else {
      EXPECT_TRUE(kPkFloat.count(instr) != 0) << Describe(buckets);
      EXPECT_EQ(causes, (std::set<std::string>{"fp8_nan=sign_preserving"})) << Describe(buckets);
    }
  }
  EXPECT_EQ(buckets.count("v_cvt_sr_fp8_f32") + buckets.count("v_cvt_sr_bf8_f32"), 2u)
      << Describe(buckets);
}

}  // namespace
}  // namespace lanediff
