// The self-test against the software devices, through the same code path as on a GPU: the
// simulator (in-process and isolated) and an external model (exec:lanediff eval) pass; the
// simulator with a wrong-lane or lost-MODE erratum fails with the words a user sees; the
// known answers hold agreed NaN and special lanes over two workgroups, and a harness that
// mishandles NaN lanes or drops the second workgroup fails; an RDNA GPU is checked in both
// wave sizes; the bundle replays with --device=replay:; `lanediff devices --selftest` exits
// 0 / 1 / 2.
#include "fuzz/selftest/selftest.h"

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "absl/strings/match.h"
#include "device_harness/code_object.h"
#include "model/isa/testcase.h"
#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/code_object.h"
#include "device_harness/hip/fake_sim_kernel.h"
#include "device_harness/open_runner.h"
#include "fuzz/engine/campaign.h"
#include "model/fp/f32.h"
#include "model/targets/pair_sample_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Runner> Open(const std::string& spec, std::vector<std::string> inject = {}, bool isolate = false) {
  RunnerOptions ro;
  ro.inject = std::move(inject);
  ro.isolate_sim = isolate;
  ro.lanediff_path = LANEDIFF_CLI;
  absl::StatusOr<std::unique_ptr<Runner>> r = OpenRunner(spec, ro);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? std::move(*r) : nullptr;
}

// Every known-answer batch of every target passes on the simulator; each covers every word
// variant of the instruction (modifiers, SGPR, literal on GFX10+) under two MODEs, and its
// MODE readback equals the batch's MODE.
// Every known-answer batch spans two workgroups (more than 256 lanes), repeats its first lanes
// at the second workgroup's start and ends on its first (special) lane; every row's batches
// hold special lanes (+-0, denormals, +-Inf, overflow), and NaN lanes where every reading
// agrees on some NaN input. The f32 -> E4M3 rows (v_cvt_sr_fp8_f32, v_cvt_pk_fp8_f32) are such
// rows on every target: a NaN input gives the format's NaN code, and the readings of the NaN
// output (fp8_nan: whether an OCP NaN keeps its sign) differ only for a negative NaN, so the
// positive NaN inputs (0x7fc00000, 0x7f800001, ...) are kept. The other rows have a reading that
// decides every NaN lane (pk_u8's NaN result; the fp8 -> f32 NaN's sign and quiet bit), so they
// hold none, which is what the self-test must do.
// One self-test per target serves both checks; one test case per target, so CTest's shards
// share the targets (the whole loop was one shard's 300 s under ASan+UBSan once the rows grew).
class SelfTestPerTarget : public ::testing::TestWithParam<std::string> {};

TEST_P(SelfTestPerTarget, PassesOnTheSimulatorWithNanAndSpecialLanesInTwoWorkgroups) {
  std::unique_ptr<Runner> sim = Open("sim");
  ASSERT_NE(sim, nullptr);
  size_t rows = 0, rows_with_nan = 0;
  {
    const TargetTraits& t = **FindTarget(GetParam());
    absl::StatusOr<SelfTest> st = RunSelfTest(*sim, t, {.discriminate = false});
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_TRUE(st->ok()) << FormatSelfTest(*st);
    bool literal = false;
    std::map<Instr, std::pair<int, int>> per_row;  // NaN lanes, special lanes
    for (const KnownAnswer& k : st->known) {
      EXPECT_GT(k.expected.size(), 0u) << k.name;
      ASSERT_TRUE(k.mode_readback.has_value()) << k.name;
      EXPECT_EQ(*k.mode_readback & kKernelModeMask, k.testcase.mode() & kKernelModeMask) << k.name;
      literal = literal || absl::StrContains(k.name, "literal");
      EXPECT_GT(static_cast<size_t>(k.testcase.lanes_size()), kWorkgroupLanes) << k.name;
      EXPECT_EQ(static_cast<size_t>(k.testcase.lanes_size()), kSelfTestLanes) << k.name;
      const Instr instr = *InstrFromProto(k.testcase.instr());
      per_row[instr].first += k.nan_lanes;
      per_row[instr].second += k.special_lanes;
      if (k.nan_lanes + k.special_lanes > 0) {
        // The lanes of the first workgroup's start recur at the second's, and the last lane is
        // a special one (a NaN one when the batch has any): compare the inputs.
        const proto::Lane& first = k.testcase.lanes(0);
        const proto::Lane& second = k.testcase.lanes(static_cast<int>(kWorkgroupLanes));
        EXPECT_EQ(first.src0(), second.src0()) << k.name;
        EXPECT_EQ(first.src1(), second.src1()) << k.name;
        const proto::Lane& last = k.testcase.lanes(k.testcase.lanes_size() - 1);
        EXPECT_EQ(first.src0(), last.src0()) << k.name;
        EXPECT_EQ(first.src1(), last.src1()) << k.name;
      }
    }
    EXPECT_EQ(literal, t.family != Family::gfx9);  // 12-byte words where the family has them
    for (const auto& [instr, counts] : per_row) {
      SCOPED_TRACE(absl::StrCat(t.name, " ", InstrName(instr), ": ", counts.first, " NaN lanes, ", counts.second,
                                " special lanes"));
      ++rows;
      rows_with_nan += counts.first > 0;
      EXPECT_GT(counts.second, 0);
      if (instr == Instr::v_cvt_sr_fp8_f32 || instr == Instr::v_cvt_pk_fp8_f32) {
        EXPECT_GT(counts.first, 0);
      }
    }
  }
  std::printf("%s: %zu of %zu rows have agreed NaN lanes\n", GetParam().c_str(), rows_with_nan, rows);
}

std::vector<std::string> TargetNames() {
  std::vector<std::string> names;
  for (const TargetTraits& t : AllTargets()) names.emplace_back(t.name);
  return names;
}
INSTANTIATE_TEST_SUITE_P(EveryTarget, SelfTestPerTarget, ::testing::ValuesIn(TargetNames()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The isolated simulator (one child for every batch) is checked on every row; the external
// model starts one `lanediff eval` per batch (under ASan+UBSan about 0.45 CPU s each, most of
// this test's time), so it is checked on a seeded sample of the rows (known answers and
// questions), a VGPR-pair writer and a seeded row always among them
// (model/targets/pair_sample_test_util.h; a fresh sample each run unless LANEDIFF_TEST_SEED is
// set, every row with LANEDIFF_TEST_PAIRS=all).
constexpr size_t kExecDiscriminateRows = 3;
TEST(SelfTestTest, PassesOnTheIsolatedSimulatorAndAnExternalModelWithTheDiscriminatePass) {
  const TargetTraits& t = **FindTarget("gfx942");
  // gfx942 has every instruction its family's row gives it an opcode for (llvm-mc-22
  // accepts each), the VGPR-pair writers (dst_bits 64) included.
  size_t has = 0, pairs = 0;
  for (Instr i : kAllInstrs) has += t.Has(i), pairs += t.Has(i) && DstWords(i) == 2;
  EXPECT_GE(has, 3u);
  EXPECT_GE(pairs, 1u);
  std::vector<Instr> sampled;
  for (const TargetInstr& p : SamplePairs(
           "exec discriminate rows on gfx942", kExecDiscriminateRows,
           {[](const TargetInstr& p) { return DstWords(p.instr) == 2; },
            [](const TargetInstr& p) { return GetInstrInfo(p.instr).src[1] == SrcRole::sr_seed; }},
           [&](const TargetInstr& p) { return p.target == &t; })) {
    sampled.push_back(p.instr);
  }
  for (const std::string spec : {"sim", "exec:lanediff eval"}) {
    SCOPED_TRACE(spec);
    std::unique_ptr<Runner> dev = Open(spec, {}, /*isolate=*/true);
    ASSERT_NE(dev, nullptr);
    SelfTestOptions options;
    if (spec != "sim") options.instrs = sampled;
    absl::StatusOr<SelfTest> st = RunSelfTest(*dev, t, options);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_TRUE(st->ok()) << FormatSelfTest(*st);
    // One discriminate pass and some known answers per row checked.
    const size_t rows = spec == "sim" ? has : sampled.size();
    EXPECT_EQ(st->discriminate.size(), rows);
    std::set<std::string> known_rows;
    for (const KnownAnswer& k : st->known) known_rows.insert(k.name.substr(0, k.name.find(' ')));
    EXPECT_EQ(known_rows.size(), rows);
    EXPECT_THAT(FormatSelfTest(*st), HasSubstr("self-test passed"));
  }
}

// A device that gets one lane wrong, or loses a MODE write, fails the self-test, saying so.
TEST(SelfTestTest, FailsWhenTheDeviceIsWrongAndSaysWhatItSaw) {
  const TargetTraits& t = **FindTarget("gfx1201");
  std::unique_ptr<Runner> garbage = Open("sim", {"garbage_lane"});
  absl::StatusOr<SelfTest> g = RunSelfTest(*garbage, t, {.discriminate = false});
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_FALSE(g->ok());
  const std::string text = FormatSelfTest(*g);
  EXPECT_THAT(text, HasSubstr("self-test FAILED: the harness is wrong on this GPU"));
  EXPECT_THAT(text, HasSubstr("WRONG v_cvt_pk_u8_f32 v1, v2, v3, MODE 0x000000f0"));
  EXPECT_THAT(text, HasSubstr("expected 0x"));

  std::unique_ptr<Runner> lost = Open("sim", {"mode_lost"});
  absl::StatusOr<SelfTest> l = RunSelfTest(*lost, t, {.discriminate = false});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_FALSE(l->ok());
  // The default MODE reads back right; the other MODE loses its MODE[7:0] write.
  EXPECT_THAT(FormatSelfTest(*l), HasSubstr("ok    v_cvt_pk_u8_f32 v1, v2, v3, MODE 0x000000f0"));
  EXPECT_THAT(FormatSelfTest(*l), HasSubstr("ERROR v_cvt_pk_u8_f32 v1, v2, v3, MODE 0x008000ff: harness fault: "
                                            "MODE read back 0x008000f0 after setting 0x008000ff"));
}

// A runner that answers every lane right but those whose f32 src0 VGPR is a NaN (the
// instructions with an f32 source, 8-byte words: the lane's own src0), whose VDST it flips: a
// harness that mishandles NaN.
class NanLaneFault : public Runner {
 public:
  explicit NanLaneFault(std::unique_ptr<Runner> inner) : inner_(std::move(inner)) {}
  std::string Describe() const override { return "NaN-lane fault"; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& b) override {
    absl::StatusOr<DeviceResult> r = inner_->Run(b);
    if (!r.ok() || GetInstrInfo(b.instr).src[0] != SrcRole::data_f32 || b.words.size() > 2 ||
        b.sgpr_values != std::array<uint32_t, 3>{}) {
      return r;
    }
    const size_t w = r->vdst.size() / b.lanes.size();
    for (size_t i = 0; i < b.lanes.size(); ++i) {
      const bool src1_nan = GetInstrInfo(b.instr).src[1] == SrcRole::data_f32 && F32IsNan(b.lanes.view().src1[i]);
      if (F32IsNan(b.lanes.view().src0[i]) || src1_nan) r->vdst[i * w] ^= 1u;
    }
    return r;
  }

 private:
  std::unique_ptr<Runner> inner_;
};

// Planted harness faults the NaN lanes and the second workgroup catch: NaN lanes answered
// wrong (every other lane right) fail every batch with NaN lanes, on those lanes; a
// fake HIP runtime whose kernel runs only the first workgroup fails every batch, from lane 256.
TEST(SelfTestTest, CatchesAHarnessThatMishandlesNanLanesOrDropsTheSecondWorkgroup) {
  const TargetTraits& t = **FindTarget("gfx942");
  NanLaneFault nan_fault(Open("sim"));
  absl::StatusOr<SelfTest> st = RunSelfTest(nan_fault, t, {.discriminate = false});
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_FALSE(st->ok());
  size_t wrong = 0;
  for (const KnownAnswer& k : st->known) {
    const bool f32_source = GetInstrInfo(*InstrFromProto(k.testcase.instr())).src[0] == SrcRole::data_f32;
    if (!f32_source || absl::StrContains(k.name, "literal") || absl::StrContains(k.name, "SGPR")) {
      EXPECT_TRUE(k.ok()) << k.name;
      continue;
    }
    // Every lane ClassifyInput calls NaN has a NaN source, so is flipped: those batches fail.
    if (k.nan_lanes > 0) {
      EXPECT_FALSE(k.ok()) << k.name;
      EXPECT_GE(k.wrong_lanes, k.nan_lanes) << k.name;
    }
    wrong += !k.ok();
  }
  EXPECT_GT(wrong, 0u);
  EXPECT_THAT(FormatSelfTest(*st), HasSubstr("self-test FAILED: the harness is wrong on this GPU"));

  FakeHip* fake = nullptr;
  absl::StatusOr<std::unique_ptr<Runner>> hip = OpenComputingFakeHip("gfx1201", 32, &fake);
  ASSERT_TRUE(hip.ok()) << hip.status();
  FakeCodeKernel all = fake->code_kernel;
  fake->code_kernel = [all](absl::Span<const uint8_t> image, unsigned blocks, unsigned threads, void** params,
                            std::string* error) {
    EXPECT_GE(blocks, 2u);  // the self-test's batches need two workgroups
    return all(image, 1, threads, params, error);
  };
  absl::StatusOr<SelfTest> one = RunSelfTest(**hip, **FindTarget("gfx1201"), {.discriminate = false});
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_FALSE(one->ok());
  for (const KnownAnswer& k : one->known) {
    if (k.unsupported()) continue;
    EXPECT_FALSE(k.ok()) << k.name;
    // Lanes 0..255 right, lane 256 the first wrong (or the MODE readback, stored past the
    // last lane, missing: a harness fault).
    if (k.status.ok()) {
      EXPECT_THAT(k.first_wrong, HasSubstr(absl::StrCat("lane ", kWorkgroupLanes, ":"))) << k.name;
    }
  }
}

// An RDNA GPU named without a wave size is checked with both code objects, each its own
// self-test (what `devices --selftest --device=hip:N` runs); a GFX9 GPU, an explicit wave
// size and the other devices once.
TEST(SelfTestTest, AnRdnaGpuIsCheckedInBothWaveSizes) {
  const TargetTraits& rdna = **FindTarget("gfx1201");
  EXPECT_THAT(SelfTestDeviceSpecs("hip:1", rdna), ::testing::ElementsAre("hip:1", "hip:1:wave64"));
  EXPECT_THAT(SelfTestDeviceSpecs("hip", rdna), ::testing::ElementsAre("hip", "hip:0:wave64"));
  EXPECT_THAT(SelfTestDeviceSpecs("hip:0:wave64", rdna), ::testing::ElementsAre("hip:0:wave64"));
  EXPECT_THAT(SelfTestDeviceSpecs("sim", rdna), ::testing::ElementsAre("sim"));
  EXPECT_THAT(SelfTestDeviceSpecs("hip:0", **FindTarget("gfx942")), ::testing::ElementsAre("hip:0"));
  for (const std::string& spec : SelfTestDeviceSpecs("hip:0", rdna)) {
    SCOPED_TRACE(spec);
    const int wave = absl::EndsWith(spec, "wave64") ? 64 : 32;
    absl::StatusOr<std::unique_ptr<Runner>> hip = OpenComputingFakeHip("gfx1201", wave);
    ASSERT_TRUE(hip.ok()) << hip.status();
    EXPECT_THAT((*hip)->Describe(), HasSubstr(absl::StrCat("wave", wave)));
    absl::StatusOr<SelfTest> st = RunSelfTest(**hip, rdna, {.discriminate = false});
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_TRUE(st->ok()) << FormatSelfTest(*st);
    EXPECT_THAT(st->device, HasSubstr(absl::StrCat("wave", wave)));
  }
}

// A VGPR-pair writer (dst_bits 64) is checked on both words of every lane: its known answers
// hold two words a lane and pass on the simulator; the simulator with its two words swapped
// (errata.h pair_word_swap: VDST gets VDST+1's word and back, every other instruction right)
// fails them, and only them, naming the word.
TEST(SelfTestTest, AVgprPairWriterIsCheckedOnBothWords) {
  const TargetTraits& t = **FindTarget("gfx942");
  std::unique_ptr<Runner> sim = Open("sim");
  absl::StatusOr<SelfTest> st = RunSelfTest(*sim, t);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_TRUE(st->ok()) << FormatSelfTest(*st);
  size_t pair_cases = 0;
  for (const KnownAnswer& k : st->known) {
    absl::StatusOr<Instr> instr = InstrFromProto(k.testcase.instr());
    ASSERT_TRUE(instr.ok());
    if (DstWords(*instr) != 2) continue;
    ++pair_cases;
    EXPECT_EQ(k.expected.size(), 2u * k.testcase.lanes_size()) << k.name;
    EXPECT_EQ(k.observed, k.expected) << k.name;
  }
  EXPECT_GT(pair_cases, 0u);
  size_t pair_verdicts = 0;
  for (const std::string& d : st->discriminate) {
    for (Instr i : kAllInstrs) {
      if (t.Has(i) && DstWords(i) == 2 && absl::StartsWith(d, absl::StrCat(InstrName(i), ": "))) {
        ++pair_verdicts;
        // gfx942's FNUZ NaN 0x80 decodes to 0xffc00000 under sign_quiet and negative_quiet
        // alike: the two are one reading there, and the default simulator follows it.
        EXPECT_THAT(d, HasSubstr("fp8_to_f32_nan: sign_quiet|negative_quiet")) << d;
      }
    }
  }
  EXPECT_EQ(pair_verdicts, 2u);  // v_cvt_pk_f32_fp8 and v_cvt_pk_f32_bf8 on gfx942

  std::unique_ptr<Runner> swapped = Open("sim", {"pair_word_swap"});
  absl::StatusOr<SelfTest> sw = RunSelfTest(*swapped, t, {.discriminate = false});
  ASSERT_TRUE(sw.ok()) << sw.status();
  EXPECT_FALSE(sw->ok());
  for (const KnownAnswer& k : sw->known) {
    absl::StatusOr<Instr> instr = InstrFromProto(k.testcase.instr());
    ASSERT_TRUE(instr.ok());
    if (DstWords(*instr) == 1) {
      EXPECT_TRUE(k.ok()) << k.name << ": " << k.first_wrong;
    } else if (!k.ok()) {
      EXPECT_THAT(k.first_wrong, HasSubstr(" VDST")) << k.name;
    }
  }
  EXPECT_THAT(FormatSelfTest(*sw), HasSubstr("WRONG v_cvt_pk_f32_fp8 v1, v2, v3, MODE 0x000000f0"));
}

std::string TempPath(const std::string& name) {
  return absl::StrCat(testing::TempDir(), "/lanediff_selftest_", getpid(), "_", name);
}

// The bundle is one file: the report as comments, then a recording that replays every
// known-answer batch with the same answers. Checked on a seeded sample of gfx1250's rows (its
// whole self-test, about 67 rows with the discriminate pass, took 67 s user in release), a
// VGPR-tuple writer (several words a lane) and a row with an SR seed source always among them
// (model/targets/pair_sample_test_util.h: a fresh sample each run unless LANEDIFF_TEST_SEED is
// set, every row with LANEDIFF_TEST_PAIRS=all).
constexpr size_t kSampledRows = 6;
bool HasSeedSource(Instr i) {
  const std::array<SrcRole, 3>& src = GetInstrInfo(i).src;
  return std::find(src.begin(), src.end(), SrcRole::sr_seed) != src.end();
}
// kSampledRows of target t's rows (`what` names the sample in the seed line it prints), a
// VGPR-tuple writer and a row with an SR seed source among them.
SelfTestOptions SampledRows(const char* what, const TargetTraits& t) {
  SelfTestOptions options;
  for (const TargetInstr& p : SamplePairs(
           what, kSampledRows,
           {[](const TargetInstr& p) { return DstWords(p.instr) > 1; },
            [](const TargetInstr& p) { return HasSeedSource(p.instr); }},
           [&](const TargetInstr& p) { return p.target == &t; })) {
    options.instrs.push_back(p.instr);
  }
  const std::vector<Instr>& rows = options.instrs;
  EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [](Instr i) { return DstWords(i) > 1; }));
  EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), HasSeedSource));
  return options;
}
TEST(SelfTestTest, TheBundleReplaysWithDeviceReplay) {
  const TargetTraits& t = **FindTarget("gfx1250");
  const SelfTestOptions options = SampledRows("bundle rows on gfx1250", t);
  std::unique_ptr<Runner> sim = Open("sim");
  absl::StatusOr<SelfTest> st = RunSelfTest(*sim, t, options);
  ASSERT_TRUE(st.ok()) << st.status();
  const std::string path = TempPath("bundle.textproto");
  std::ofstream(path) << SelfTestBundle(*st);
  std::unique_ptr<Runner> replay = Open("replay:" + path);
  ASSERT_NE(replay, nullptr);
  for (const KnownAnswer& k : st->known) {
    absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(k.testcase);
    ASSERT_TRUE(b.ok()) << b.status();
    absl::StatusOr<DeviceResult> r = replay->Run(*b);
    ASSERT_TRUE(r.ok()) << k.name << ": " << r.status();
    EXPECT_EQ(r->vdst, k.observed) << k.name;
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("# self-test of sim"));
  EXPECT_THAT(text.str(), HasSubstr("amdgcn-amd-amdhsa--gfx1250"));
  EXPECT_THAT(text.str(), HasSubstr("MODE read back 0x"));
  EXPECT_THAT(text.str(), HasSubstr("# self-test passed"));
  std::remove(path.c_str());
}

// A campaign checks the known answers first (on hardware by default; here forced on the
// simulator): a device that gets them wrong stops it before any finding, with what it saw.
TEST(SelfTestTest, ACampaignStopsWhenTheKnownAnswersAreWrong) {
  CampaignOptions o;
  o.targets = {"gfx942"};
  o.device = "sim";
  o.inject = {"garbage_lane"};
  o.max_execs = 5;
  o.progress = false;
  o.corpus = TempPath("corpus");
  std::filesystem::create_directories(o.corpus);
  o.known_answer_check = CampaignOptions::KnownAnswerCheck::always;
  absl::StatusOr<CampaignStats> bad = RunCampaign(o, nullptr);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("the harness is wrong on this GPU"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("/selftest-gfx942.textproto"));
  EXPECT_TRUE(std::filesystem::exists(o.corpus + "/selftest-gfx942.textproto"));
  o.inject.clear();  // a right device passes the check and the campaign runs
  absl::StatusOr<CampaignStats> good = RunCampaign(o, nullptr);
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->execs, 5u);
  std::filesystem::remove_all(o.corpus);
}

// The self-test through the HIP runner itself (patching, module cache, kernel arguments, MODE
// readback), on the computing fake HIP runtime (device_harness/hip/fake_hip_api.h) instead of
// a GPU: what `devices --selftest --device=hip` runs, for a GFX9, an RDNA (both wave sizes) and
// the gfx1250 code object; the bundle replays; a campaign on a "hip:" device checks the known
// answers by default and runs. (The silicon itself: device_hip_selftest_gpu_test, label gpu.)
TEST(SelfTestTest, PassesThroughTheHipRunnerOnAFakeHipRuntime) {
  for (auto [target, wave] : std::vector<std::pair<const char*, int>>{
           {"gfx942", 64}, {"gfx1201", 32}, {"gfx1201", 64}, {"gfx1250", 32}}) {
    SCOPED_TRACE(absl::StrCat(target, " wave", wave));
    absl::StatusOr<std::unique_ptr<Runner>> hip = OpenComputingFakeHip(target, wave);
    ASSERT_TRUE(hip.ok()) << hip.status();
    // The discriminate pass once (it is the same questions through the same runner). On
    // gfx1250 a sample of its rows (SampledRows): the whole target through the interpreted
    // kernel took most of this test's 58 s user in release; that every row of every target
    // runs on its kernel is InterpKernelTest.EveryCodeObjectGivesTheOraclesAnswersForEveryRow's.
    const TargetTraits& t = **FindTarget(target);
    SelfTestOptions options =
        t.name == "gfx1250" ? SampledRows("fake HIP rows on gfx1250", t) : SelfTestOptions{};
    options.discriminate = t.name == "gfx942";
    absl::StatusOr<SelfTest> st = RunSelfTest(**hip, t, options);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_TRUE(st->ok()) << FormatSelfTest(*st);
    for (const KnownAnswer& k : st->known) {
      // Every batch runs (KernelArgs::shape): the pair writers' and the tuple rows' too, on the
      // GFX9 and GFX12.5 kernels (code_object.h KernelCapacity), so none is "unsupported".
      EXPECT_FALSE(k.unsupported()) << k.name << ": " << k.status;
      ASSERT_TRUE(k.mode_readback.has_value()) << k.name;
    }
    const std::string path = TempPath("hip_bundle.textproto");
    std::ofstream(path) << SelfTestBundle(*st);
    std::unique_ptr<Runner> replay = Open("replay:" + path);
    ASSERT_NE(replay, nullptr);
    options.discriminate = false;
    absl::StatusOr<SelfTest> again = RunSelfTest(*replay, t, options);
    ASSERT_TRUE(again.ok()) << again.status();
    // Every batch that ran replays right (an unsupported one was not run, so not recorded).
    ASSERT_EQ(again->known.size(), st->known.size());
    for (size_t i = 0; i < st->known.size(); ++i) {
      if (st->known[i].unsupported()) continue;  // not run, so not in the bundle's answers
      EXPECT_TRUE(again->known[i].ok()) << again->known[i].name << ": "
                                        << again->known[i].status << again->known[i].first_wrong;
    }
    std::remove(path.c_str());
  }
  CampaignOptions o;
  o.targets = {"gfx942"};
  o.device = "hip";
  o.max_execs = 3;
  o.progress = false;
  o.open_runner = [](const RunnerOptions&) { return OpenComputingFakeHip("gfx942", 64); };
  absl::StatusOr<CampaignStats> run = RunCampaign(o, nullptr);  // known answers checked first
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->execs, 3u);
  EXPECT_EQ(run->disagreeing, 0u);  // the fake computes what the model computes
}

int RunCli(const std::string& args, std::string* out) {
  FILE* p = popen(absl::StrCat(LANEDIFF_CLI, " ", args, " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(SelfTestTest, DevicesSelftestCommandExitCodesAndBundle) {
  const std::string bundle = TempPath("cli_bundle.textproto");
  std::string out;
  EXPECT_EQ(RunCli(absl::StrCat("devices --selftest --device=sim --targets gfx942 --out ", bundle), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("self-test passed"));
  EXPECT_THAT(out, HasSubstr(absl::StrCat("bundle: ", bundle)));
  std::unique_ptr<Runner> replay = Open("replay:" + bundle);
  EXPECT_NE(replay, nullptr);
  out.clear();
  EXPECT_EQ(RunCli("devices --selftest --device='exec:lanediff eval' --targets gfx1100", &out), 0) << out;
  out.clear();
  EXPECT_EQ(RunCli("devices --selftest --device=sim --inject garbage_lane --targets gfx942", &out), 1) << out;
  EXPECT_THAT(out, HasSubstr("the harness is wrong on this GPU"));
  out.clear();
  EXPECT_EQ(RunCli("devices --selftest --device=sim", &out), 2) << out;
  EXPECT_THAT(out, HasSubstr("--targets T is needed"));
  out.clear();
  EXPECT_EQ(RunCli("devices --selftest --device=sim --targets gfx942 --start-timeout soon", &out), 2) << out;
  EXPECT_THAT(out, HasSubstr("--start-timeout: 'soon' is not a number; accepted: (0, 86400]"));
  std::remove(bundle.c_str());
}

}  // namespace
}  // namespace lanediff
