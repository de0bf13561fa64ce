// --allow-undefined: words that break a documented ISA restriction - more
// distinct SGPR/literal reads than the constant bus takes (1 on GFX9 VOP3, 2 on GFX10+,
// model/isa/tables.cc) - are refused before they run unless asked for; asked for, the mutator
// generates them, the simulator runs them (the same checks as the HIP runner), and their
// findings are labelled undefined-by-spec in the finding, the signature, triage and replay.
#include <stdlib.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "device_harness/batch.h"
#include "device_harness/open_runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/mutator.h"
#include "fuzz/engine/replay.h"
#include "fuzz/triage/buckets.h"
#include "fuzz/triage/render.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

proto::TestCase Parse(const std::string& text) {
  absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(text, "test");
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

std::vector<std::string> Violations(const proto::TestCase& tc) {
  absl::StatusOr<const TargetTraits*> t = FindTarget(tc.target());
  if (!t.ok()) return {};
  absl::StatusOr<Vop3Instr> in = Vop3FromTestCase(**t, tc, HarnessDefaultRegisters());
  if (!in.ok()) return {};
  return SpecViolations(**t, *in);
}

// One violator per family. Expected VDST by hand: v_cvt_pk_u8_f32 writes u8(S0) (an exact
// integer here, so every round mode agrees) into byte S1[1:0] of S2 and keeps the rest.
struct Violator {
  const char* text;
  uint32_t vdst;  // lane 0
  const char* reason;
};
const Violator kViolators[] = {
    // gfx942: s20 = 2.0, s21 = 1 (byte 1), v3 = 0x11223344 -> 0x11220244.
    {R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
          encoding { src0 { kind: SOURCE_SGPR value: 0x40000000 } src1 { kind: SOURCE_SGPR value: 1 } }
          lanes { src2: 0x11223344 })pb",
     0x11220244, "constant bus: 2 distinct SGPR/literal reads, GFX9 allows 1"},
    // gfx1100: s20 = 3.0, s21 = 2 (byte 2), s22 = 0xaabbccdd -> 0xaa03ccdd.
    {R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
          encoding { src0 { kind: SOURCE_SGPR value: 0x40400000 } src1 { kind: SOURCE_SGPR value: 2 }
                     src2 { kind: SOURCE_SGPR value: 0xaabbccdd } }
          lanes { })pb",
     0xaa03ccdd, "constant bus: 3 distinct SGPR/literal reads, GFX11 allows 2"},
    // gfx1201: literal 10.0, s21 = 3 (byte 3), s22 = 0x11223344 -> 0x0a223344.
    {R"pb(target: "gfx1201" instr: v_cvt_pk_u8_f32
          encoding { src0 { kind: SOURCE_LITERAL value: 0x41200000 } src1 { kind: SOURCE_SGPR value: 3 }
                     src2 { kind: SOURCE_SGPR value: 0x11223344 } }
          lanes { })pb",
     0x0a223344, "constant bus: 3 distinct SGPR/literal reads, GFX12 allows 2"},
};

TEST(AllowUndefined, TheSimulatorRefusesViolatorsUnlessAllowedAndThenRunsThem) {
  absl::StatusOr<std::unique_ptr<Runner>> sim = OpenRunner("sim", {});
  ASSERT_TRUE(sim.ok()) << sim.status();
  for (const Violator& v : kViolators) {
    SCOPED_TRACE(v.text);
    const proto::TestCase tc = Parse(v.text);
    EXPECT_THAT(Violations(tc), ::testing::ElementsAre(v.reason));
    // By default the batch is never built, so nothing runs.
    absl::StatusOr<DeviceBatch> refused = BuildDeviceBatch(tc);
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.status().message(), HasSubstr(v.reason));
    // A batch not marked allow_undefined (not from BuildDeviceBatch) is refused by the device.
    absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(tc, /*allow_undefined=*/true);
    ASSERT_TRUE(b.ok()) << b.status();
    DeviceBatch unmarked = *b;
    unmarked.allow_undefined = false;
    absl::StatusOr<DeviceResult> no = (*sim)->Run(unmarked);
    ASSERT_FALSE(no.ok());
    EXPECT_THAT(no.status().message(), HasSubstr("undefined by spec"));
    absl::StatusOr<DeviceResult> r = (*sim)->Run(*b);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_THAT(r->vdst, ::testing::ElementsAre(v.vdst));
    // BothSides: the model resolves the same word to the same value.
    absl::StatusOr<BothSides> both = RunBothSides(tc, {}, **sim, {}, /*allow_undefined=*/true);
    ASSERT_TRUE(both.ok()) << both.status();
    EXPECT_THAT(both->expected, ::testing::ElementsAre(v.vdst));
    EXPECT_TRUE(both->differing.empty());
    EXPECT_FALSE(RunBothSides(tc, {}, **sim, {}).ok());
  }
}

// The mutator keeps a violator only when allowed (Fixup runs on seeds and after every
// mutation), and generates them only then. Never a GFX9 literal: it has no value to compute.
TEST(AllowUndefined, TheMutatorMakesViolatorsOnlyWhenAllowed) {
  for (const Violator& v : kViolators) {
    SCOPED_TRACE(v.text);
    const proto::TestCase tc = Parse(v.text);
    for (bool allow : {false, true}) {
      Mutator m({.targets = {tc.target()}, .instrs = {}, .min_lanes = 1, .max_lanes = 4,
                 .exotic_per_256 = 48, .allow_undefined = allow});
      Rng rng(1);
      proto::TestCase fixed = tc;
      m.Fixup(rng, &fixed);
      EXPECT_EQ(Violations(fixed).empty(), !allow);
    }
  }
  for (const char* target : {"gfx942", "gfx1030", "gfx1201"}) {
    SCOPED_TRACE(target);
    for (bool allow : {false, true}) {
      Mutator m({.targets = {target}, .instrs = {Instr::v_cvt_pk_u8_f32}, .min_lanes = 1,
                 .max_lanes = 1, .exotic_per_256 = 256, .allow_undefined = allow});
      Rng rng(5);
      int violators = 0, gfx9_literals = 0;
      proto::TestCase tc = m.Generate(rng);
      for (int i = 0; i < 3000; ++i) {
        proto::TestCase g = m.Generate(rng);
        m.Mutate(rng, &tc);
        for (const proto::TestCase* c : {&g, &tc}) {
          if (!Violations(*c).empty()) ++violators;
          // Never refused for what the mutator was told to avoid.
          absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(*c, allow);
          EXPECT_FALSE(!b.ok() && absl::StrContains(b.status().message(), "undefined by spec"))
              << b.status() << "\n" << ToText(*c);
          for (const proto::Source* s : {&c->encoding().src0(), &c->encoding().src1(), &c->encoding().src2()}) {
            gfx9_literals += s->kind() == proto::SOURCE_LITERAL && absl::StartsWith(target, "gfx9");
          }
        }
      }
      std::printf("%s allow_undefined=%d: %d of 6000 cases break the constant bus\n", target, allow,
                  violators);
      if (allow) {
        EXPECT_GT(violators, 0);
      } else {
        EXPECT_EQ(violators, 0);
      }
      EXPECT_EQ(gfx9_literals, 0);
    }
  }
}

std::string TempDir() {
  std::string templ = ::testing::TempDir() + "campaign_undef_XXXXXX";
  EXPECT_NE(::mkdtemp(templ.data()), nullptr);
  return templ;
}

// A campaign on the simulator with a planted wrong lane (garbage_lane: every batch disagrees)
// and violator seeds: with --allow-undefined it runs them and labels their findings; replay
// runs them only when allowed again; triage shows the label. Without it they never run.
TEST(AllowUndefined, FindingsOnViolatorsAreLabelledAndReplayOnlyWhenAllowed) {
  for (bool allow : {true, false}) {
    SCOPED_TRACE(allow ? "allowed" : "default");
    const std::string dir = TempDir();
    ASSERT_EQ(::mkdir((dir + "/seeds").c_str(), 0755), 0);
    for (int i = 0; i < 2; ++i) {  // gfx942 and gfx1100
      std::ofstream(dir + "/seeds/violator" + std::to_string(i) + ".textproto") << kViolators[i].text;
    }
    CampaignOptions o;
    o.device = "sim";
    o.inject = {"garbage_lane"};
    o.targets = {"gfx942", "gfx1100"};
    o.instrs = {Instr::v_cvt_pk_u8_f32};
    o.corpus = dir;
    o.lanes_per_batch = 8;
    o.progress = false;
    o.seed = 3;
    o.max_execs = 80;
    o.aim_percent = 0;
    o.allow_undefined = allow;
    absl::StatusOr<CampaignStats> stats = RunCampaign(o, nullptr);
    ASSERT_TRUE(stats.ok()) << stats.status();
    CorpusLoad load = LoadCorpus({dir + "/findings"});
    ASSERT_TRUE(load.errors.empty());
    ASSERT_FALSE(load.findings.empty());
    int labelled = 0;
    for (const LoadedFinding& lf : load.findings) {
      const proto::Finding& f = lf.finding;
      SCOPED_TRACE(f.signature());
      const std::vector<std::string> v = Violations(f.testcase());
      const bool undefined = absl::StartsWith(f.cause(), "undefined_by_spec.");
      EXPECT_EQ(undefined, !f.undefined_by_spec().empty());
      if (!undefined) {
        EXPECT_TRUE(v.empty());
        continue;
      }
      ++labelled;
      EXPECT_THAT(f.signature(), HasSubstr(".undefined_by_spec."));
      EXPECT_THAT(std::vector<std::string>(f.undefined_by_spec().begin(), f.undefined_by_spec().end()),
                  ::testing::ElementsAreArray(v));
      EXPECT_THAT(f.repro(), HasSubstr("--allow-undefined"));
      RunnerOptions ro;
      ro.inject = {"garbage_lane"};
      absl::StatusOr<std::unique_ptr<Runner>> sim = OpenRunner("sim", ro);
      ASSERT_TRUE(sim.ok());
      ReplayOutcome no = ReplayFinding(f, {}, **sim, {});
      EXPECT_FALSE(no.reproduced);
      EXPECT_THAT(no.detail, StartsWith("undefined by spec (constant bus: "));
      EXPECT_THAT(no.detail, HasSubstr("(--allow-undefined runs it)"));
      ReplayOutcome yes = ReplayFinding(f, {}, **sim, {}, /*allow_undefined=*/true);
      EXPECT_TRUE(yes.reproduced) << yes.detail;
      EXPECT_THAT(yes.detail, StartsWith("undefined by spec (constant bus: "));
      EXPECT_THAT(DecodeExample(f, lf.path), HasSubstr("    undefined-by-spec: constant bus: "));
    }
    std::printf("allow_undefined=%d: %zu findings, %d labelled undefined-by-spec\n", allow,
                load.findings.size(), labelled);
    if (allow) {
      EXPECT_GT(labelled, 0);
      bool bucket = false;
      for (const Bucket& b : FoldIntoBuckets(load.findings)) {
        bucket |= absl::StartsWith(b.signature, "v_cvt_pk_u8_f32.undefined_by_spec.");
      }
      EXPECT_TRUE(bucket);  // its own bucket, apart from the defined words' ones
    } else {
      EXPECT_EQ(labelled, 0);
    }
  }
}

}  // namespace
}  // namespace lanediff
