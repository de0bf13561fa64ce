// The fast host pipeline must not change what a campaign finds: for a fixed seed the
// same cases are generated, the same lanes aimed, the same disagreements minimized to the same
// findings. fuzz/testdata/campaign_golden.txt was recorded by this test, unchanged, built from
// the code before the pipeline was rewritten (main at eccd5ce, protobuf Lane objects on the hot
// path), with
//   LANEDIFF_WRITE_GOLDEN=$PWD/fuzz/testdata/campaign_golden.txt build/release/fuzz/fuzz_campaign_golden_test
// Each block is one campaign (simulator, planted erratum, fixed seed, --execs) or one stream of
// mutator output: its counters, then every stored finding without its timestamps, or a digest
// of the generated cases. Any change to the random stream, the generation, aiming, the model,
// the comparison or the minimizer shows up here as a difference in a named block.
//
// Re-recorded once, on purpose, when the campaign's aiming started drawing from aim tables
// (fuzz/engine/lane_gen.h AimLanes with scratch: the 4x oversampling and 18 model evaluations
// per candidate made --aim 100 cost 7.5x --aim 0; an identical stream needs those draws, so
// no faster aiming could keep it). This file is a change detector, not expected values: the
// expected ones (each planted erratum found, under its hypothesis) are the assertions of
// campaign_test.cc and the erratum tests. The procedure, which a reviewer can rerun:
//   1. build the new code; LANEDIFF_WRITE_GOLDEN=/tmp/new.txt build/release/fuzz/fuzz_campaign_golden_test
//   2. python3 scripts/golden_compare.py fuzz/testdata/campaign_golden.txt /tmp/new.txt
//      must exit 0: the mutator stream block (AimLanes without scratch: the old algorithm) and
//      every campaign without aiming or without warm tables byte-identical, and every cause
//      (hypothesis or shape) each changed campaign found before still found;
//   3. only then copy /tmp/new.txt over the golden, and say so in the commit with step 2's output.
// Step 2's output at that re-recording (against the golden of e953680): mutator stream,
// u8_truncate_aim0, byte12_swap_small, gfx1250_clamp_ignored identical; sr_wrap_default,
// nan_sign_aim100, fp16_ovfl_ignored, garbage_lane find the same causes (9/9/5/16 signatures
// for 11/8/5/17); src1_neg finds its two causes and also sr_rounding=literal and
// sr_overflow=before_rounding attributions (10 signatures for 6).
// Re-recorded again when the attribution rule (fuzz/triage/attribution.cc) and the aim
// tables met on main, by the same procedure against main's golden of that time (60a68a4):
// mutator stream, u8_truncate_aim0, byte12_swap_small, gfx1250_clamp_ignored identical;
// sr_wrap_default, nan_sign_aim100, fp16_ovfl_ignored, src1_neg, garbage_lane find the same
// causes and nothing else (9/9/5/6/16 signatures for 11/8/5/4/17; src1_neg only
// rounded_other_way).
// Re-recorded a third time for 50 M lanes/s: LaneGen::Fill draws lanes from per-case
// value pools (fuzz/engine/lane_gen.h LanePools: one Rng number per Fill, three hashes per lane), an
// aimed case or sibling draws its aim decision before its lanes and no lanes aiming overwrites,
// a cold aim call stops drawing once it has its lanes, and warm aiming copies runs of 8 table
// lanes. Same procedure against main's golden of 6207bde: every block changed (the mutator
// stream too: Generate fills its lanes with Fill), every cause still found, nothing new:
// signatures (new/old) sr_wrap_default 10/9, u8_truncate_aim0 11/12, nan_sign_aim100 9/9
// (22 disagreeing cases for 70), byte12_swap_small 23/24, fp16_ovfl_ignored 6/5,
// gfx1250_clamp_ignored 2/1, src1_neg 7/6 (rounded_other_way only), garbage_lane 13/16.
// Re-recorded a fourth time when the minimizer began asking its candidates in lists, run as
// few batches (fuzz/triage/minimize.h: one lane from the case and each lane alone together;
// every simpler value of a lane's words together, then their combination; every modifier bit
// and the MODE at once). Same procedure against main's golden of 58c135d: the mutator stream,
// nan_sign_aim100, fp16_ovfl_ignored, gfx1250_clamp_ignored, src1_neg and garbage_lane
// identical; sr_wrap_default, u8_truncate_aim0 and byte12_swap_small the same counters,
// signatures and causes, five minimized lanes other local minima (104 non-zero lane words for
// 106, 290 set bits for 289, the same modifier and MODE lines).
// Re-recorded a fifth time when the rule pk_overflow was added: every finding records every
// rule's setting, so each gained the line `hypotheses: "pk_overflow=after_rounding"` (162
// lines added, nothing else changed: same counters, signatures and causes in every block;
// golden_compare.py exit 0, the mutator stream identical).
// Re-recorded a sixth time when attribution went lane by lane (fuzz/triage/lane_causes.h):
// same procedure; mutator stream, sr_wrap_default, u8_truncate_aim0, fp16_ovfl_ignored,
// gfx1250_clamp_ignored identical; byte12_swap_small and garbage_lane the same counters and
// causes; nan_sign_aim100 the same counters, its E4M3 rows now named
// fp8_nan=sign_7f+sign_preserving (the two readings give the same byte there), the E5M2 rows
// fp8_nan=sign_preserving; src1_neg 8/7 signatures: rounded_other_way and, on a few subnormal
// lanes where the flipped seed bit gives what it gives, sr_rounding=exact_subnormal.
// Recorded again when the three changes above met (the batched minimizer, pk_overflow, lane by
// lane attribution): against the textual merge of the three recordings, every block identical
// but src1_neg, whose counters, 8 signatures and causes are the same (other minimized lanes).
// Recorded again when confirmation tried the smaller unconfirmed other causes as subsets
// (fuzz/triage/attribution.h RefutedSettings) and kept a NaN lane's seed (ConfirmationCase):
// every block identical but src1_neg, the same counters, 8 signatures and causes.
// Re-recorded when the five mx_* rules (the gfx950 scaled decodes) were added: every finding
// gained their five `hypotheses:` lines (820 lines added, nothing else changed; golden_compare.py
// exit 0: the mutator stream identical, every campaign the same counters, signatures and causes).
// Re-recorded when the rules mx_up_round and mx_f16_half (the gfx950 scaled decodes into f16 and
// bf16) were added: every finding gained their two `hypotheses:` lines (328 lines added, nothing
// else changed; golden_compare.py exit 0, the same counters, signatures and causes).
// Re-recorded when the four rules of the gfx950 scaled encoders (mx_down_scale, mx_fp8_overflow,
// mx_bf8_overflow, mx_denorm_in) were added: every finding gained their four `hypotheses:` lines
// (656 lines added, nothing removed; golden_compare.py exit 0, the same counters, signatures and
// causes in every campaign).
// Recorded again when the last two changes met: both sets of `hypotheses:` lines, nothing else
// changed (golden_compare.py exit 0).
// Re-recorded when the rule mx_sr_round (the gfx950 scaled SR encoders) was added: every finding
// gained its `hypotheses:` line (164 lines added, nothing removed; golden_compare.py exit 0, the
// same counters, signatures and causes in every campaign).
// Re-recorded when the rule mx_fp4_nan (the gfx950 scaled FP4 encoder) was added: every finding
// gained its `hypotheses:` line (164 lines added, nothing else changed; golden_compare.py exit
// 0, the same counters, signatures and causes in every campaign). Recorded again when those two
// met: both rules' `hypotheses:` lines, nothing else changed (golden_compare.py exit 0).
// Re-recorded when the three rules of gfx950's f32 -> f16/bf16 conversions (cvt16_outmod,
// cvt16_denorm_out, cvt16_nan) were added: every finding gained their three `hypotheses:` lines
// (492 lines added, nothing removed; golden_compare.py exit 0, the same counters, signatures and
// causes in every campaign).
// Re-recorded when the two rules of gfx950's stochastic-rounding f32 -> f16/bf16 conversions
// (sr16_seed, sr16_subnormal) were added: every finding gained their two `hypotheses:` lines
// (328 lines added, nothing removed; golden_compare.py exit 0, the mutator stream identical).
// Recorded again when the companions' five rules met the scaled rules' two: 820 `hypotheses:`
// lines added, nothing else changed (golden_compare.py exit 0).
// Re-recorded when the rule sr_pk_seed (gfx1250's two-element SR conversions) was added: every
// finding gained its `hypotheses:` line (164 lines added, nothing removed; golden_compare.py
// exit 0, the same counters, signatures and causes in every campaign).
// Re-recorded when the rule mx_pk16_neg (the gfx950 scaled encoders from two packed 16-bit
// floats) was added: every finding gained its `hypotheses:` line (164 lines added, nothing else
// changed; golden_compare.py exit 0, the same counters, signatures and causes in every campaign).
// Re-recorded when the rule mx_sr16_opsel0 (the gfx950 SR encoders from one 16-bit float) was
// added: 164 `hypotheses:` lines added, nothing else changed (golden_compare.py exit 0).
// Re-recorded when the rules sr16_fp8_seed and sr16_fp8_opsel0 (gfx1250's SR encoders from
// f16) were added: every finding gained two `hypotheses:` lines (328 lines added, nothing
// removed; golden_compare.py exit 0, the same counters, signatures and causes in every campaign).
// Re-recorded when the rule mx_sr_seed_step (the gfx950 multi-element SR encoders) was added:
// 164 `hypotheses:` lines added, nothing else changed (golden_compare.py exit 0).
// Re-recorded when the rule f16_decode_half (gfx1250's one-byte fp8/bf8 -> f16 decodes) was
// added: 164 `hypotheses:` lines added, nothing removed (golden_compare.py exit 0).
// Re-recorded when the rules mx_scale_sel and mx_up_scale (gfx1250's decodes with an E8M0 scale
// register, v_cvt_scale_pk8_*) and mx_pk16_fp6_order (gfx1250's FP6/BF6 encoders of 16
// elements) were added: every finding gained three `hypotheses:` lines (nothing removed;
// golden_compare.py exit 0, the same counters, signatures and causes in every campaign).
// Re-recorded when the rule pk_f16_opsel0 (OPSEL[0] of gfx1250's v_cvt_pk_{fp8,bf8}_f16) was
// added: 164 `hypotheses:` lines added, nothing else changed (golden_compare.py against the old
// file: the same counters, signatures and causes in every campaign).
#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/mutator.h"
#include "gtest/gtest.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// The instructions the golden was recorded with: instructions added later (new rows of
// model/instrs.def) would change which instruction each random case picks, so the golden pins
// these three and stays byte-identical; the new ones have their own campaign tests.
std::vector<Instr> RecordedInstrs() {
  std::vector<Instr> out;
  for (const char* name : {"v_cvt_pk_u8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"}) {
    out.push_back(*ParseInstr(name));
  }
  return out;
}

std::string TempDir() {
  std::string templ = ::testing::TempDir() + "golden_XXXXXX";
  EXPECT_NE(::mkdtemp(templ.data()), nullptr);
  return templ;
}

struct Run {
  const char* name;
  const char* erratum;
  int aim;
  size_t lanes;
  uint64_t execs;
  uint64_t seed;
};

constexpr Run kRuns[] = {
    {"sr_wrap_default", "sr_wrap", 50, 1024, 120, 1},
    {"u8_truncate_aim0", "u8_truncate", 0, 256, 300, 2},
    {"nan_sign_aim100", "nan_sign", 100, 512, 150, 3},
    {"byte12_swap_small", "byte12_swap", 50, 16, 600, 4},
    {"fp16_ovfl_ignored", "fp16_ovfl_ignored", 50, 1024, 200, 5},
    {"gfx1250_clamp_ignored", "gfx1250_clamp_ignored", 50, 64, 400, 6},
    {"src1_neg", "src1_neg", 50, 128, 300, 7},
    {"garbage_lane", "garbage_lane", 50, 2048, 60, 8},
};

// FNV-1a over bytes: a digest that is the same on every platform.
uint64_t Fnv(uint64_t h, const std::string& bytes) {
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string Digest(const proto::TestCase& tc) {
  // Text format names every field, so two cases print alike only if they are alike.
  return absl::StrCat(tc.target(), " ", proto::Instruction_Name(tc.instr()), " ",
                      tc.encoding().ShortDebugString(), " mode=", tc.has_mode() ? tc.mode() : 0xf0,
                      " lanes=", tc.lanes_size());
}

std::string LaneText(const proto::TestCase& tc) {
  std::string s;
  for (const proto::Lane& l : tc.lanes()) {
    absl::StrAppendFormat(&s, "%08x %08x %08x %08x\n", l.src0(), l.src1(), l.src2(), l.vdst_old());
  }
  return s;
}

std::string CampaignBlock(const Run& r) {
  const std::string dir = TempDir();
  CampaignOptions o;
  o.device = "sim";
  o.corpus = dir;
  o.inject = {r.erratum};
  o.aim_percent = r.aim;
  o.lanes_per_batch = r.lanes;
  o.max_execs = r.execs;
  o.seed = r.seed;
  o.progress = false;
  o.instrs = RecordedInstrs();
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  EXPECT_TRUE(s.ok()) << s.status();
  if (!s.ok()) return "failed\n";
  std::string out = absl::StrFormat(
      "== campaign %s: --inject %s --aim %d --lanes-per-batch %d --execs %d --seed %d\n", r.name,
      r.erratum, r.aim, r.lanes, r.execs, r.seed);
  absl::StrAppendFormat(&out,
                        "execs %d lanes %d invalid %d refused %d disagreeing %d faults %d new %d "
                        "repeats %d\nclasses",
                        s->execs, s->lanes, s->invalid, s->refused, s->disagreeing,
                        s->device_faults, s->new_findings, s->repeats);
  for (uint64_t c : s->classes) absl::StrAppend(&out, " ", c);
  out += "\n";
  for (const std::string& sig : s->signatures) absl::StrAppend(&out, "signature ", sig, "\n");
  CorpusLoad load = LoadCorpus({dir + "/findings"});
  EXPECT_TRUE(load.errors.empty()) << absl::StrJoin(load.errors, "\n");
  for (const LoadedFinding& lf : load.findings) {
    proto::Finding f = lf.finding;
    f.clear_first_seen();
    f.clear_last_seen();
    f.clear_repro();  // names the temporary directory
    f.clear_origin_counts();  // keyed by the corpus's random id (<corpus>/.origin)
    f.mutable_model()->clear_lanediff_version();
    f.mutable_device()->clear_lanediff_version();
    absl::StrAppend(&out, "-- finding\n", ToText(f));
  }
  return out;
}

// The mutator's own stream, without the model or a device: 300 generated, mutated, crossed and
// aimed cases at 1024 lanes; each case's header in full and a digest of its lanes.
std::string MutatorBlock() {
  MutatorConfig config;
  config.min_lanes = config.max_lanes = 1024;
  config.instrs = RecordedInstrs();
  Mutator m(config);
  Rng rng(42);
  std::vector<proto::TestCase> pool;
  std::string out = "== mutator stream: seed 42, 1024 lanes, 300 cases\n";
  for (int i = 0; i < 300; ++i) {
    proto::TestCase tc;
    const uint64_t r = rng.Below(10);
    if (pool.empty() || r < 4) {
      tc = m.Generate(rng);
    } else if (r < 8) {
      tc = pool[rng.Below(pool.size())];
      m.Mutate(rng, &tc);
    } else {
      const size_t pa = rng.Below(pool.size());  // sequenced: the first parent is drawn first
      const size_t pb = rng.Below(pool.size());
      tc = m.CrossOver(rng, pool[pa], pool[pb]);
    }
    size_t aimed = 0;
    if (rng.OneIn(2)) aimed = AimLanes(m, rng, Hypotheses{}, &tc);
    absl::StrAppendFormat(&out, "%d %s aimed=%d lanes=%016x\n", i, Digest(tc), aimed,
                          Fnv(0xcbf29ce484222325ull, LaneText(tc)));
    if (pool.size() < 64) pool.push_back(tc);
    else pool[i % 64] = tc;
  }
  return out;
}

std::string Everything() {
  std::string out = MutatorBlock();
  for (const Run& r : kRuns) out += CampaignBlock(r);
  return out;
}

TEST(CampaignGolden, FixedSeedFindingsAreTheRecordedOnes) {
  const std::string actual = Everything();
  if (const char* w = std::getenv("LANEDIFF_WRITE_GOLDEN"); w != nullptr && *w != '\0') {
    std::ofstream(w) << actual;
    GTEST_SKIP() << "wrote " << w;
  }
  const std::string path = std::string(LANEDIFF_SOURCE_DIR) + "/fuzz/testdata/campaign_golden.txt";
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path << " is missing";
  std::stringstream golden;
  golden << in.rdbuf();
  // Compare block by block so a failure names the campaign that changed.
  std::istringstream a(actual), g(golden.str());
  std::string la, lg, block = "(start)";
  int line = 0;
  while (true) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_g = static_cast<bool>(std::getline(g, lg));
    ++line;
    if (!more_a && !more_g) break;
    if (more_g && lg.rfind("== ", 0) == 0) block = lg;
    ASSERT_EQ(more_a ? la : "(end)", more_g ? lg : "(end)")
        << path << ":" << line << " in block " << block;
  }
}

}  // namespace
}  // namespace lanediff
