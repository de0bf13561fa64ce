// ResolvedTest (fuzz/engine/resolved_test.h): one resolution serves the model, the device
// batch, the comparison and the stored cause, and gives what the proto path gives.
#include "fuzz/engine/resolved_test.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "device_harness/open_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

using ::testing::ElementsAre;

proto::TestCase Parse(const std::string& text) {
  absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(text, "test");
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

// v_cvt_pk_u8_f32 writes u8(S0) into byte S1[1:0] of S2 and keeps the other bytes.
// Lane 0: S0 = 129.5 (0x43018000: exponent 134, mantissa 0x18000), byte 0 of 0: RNE gives the
// even 130 (0x82), truncation (the simulator's u8_truncate erratum) 129 (0x81).
// Lane 1: S0 = 2.0, byte 1 of 0x11223344: 0x11220244 under either rounding.
constexpr char kTwoLanes[] = R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
    lanes { src0: 0x43018000 src1: 0 src2: 0 }
    lanes { src0: 0x40000000 src1: 1 src2: 0x11223344 })pb";

TEST(ResolvedTest, OneResolutionRunsBothSidesAsTheProtoPathDoes) {
  RunnerOptions ro;
  ro.inject = {"u8_truncate"};
  absl::StatusOr<std::unique_ptr<Runner>> sim = OpenRunner("sim", ro);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const proto::TestCase tc = Parse(kTwoLanes);
  absl::StatusOr<ResolvedTest> t = ResolveTest(tc, Hypotheses{});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->rc.target->name, "gfx942");
  EXPECT_EQ(t->instr_name, "v_cvt_pk_u8_f32");
  ASSERT_NE(t->info, nullptr);
  EXPECT_THAT(t->raw.src0(), ElementsAre(0x43018000u, 0x40000000u));
  EXPECT_TRUE(t->spec_violations.empty());
  absl::StatusOr<BothSides> b = RunBothSides(*t, **sim, Relaxations{}, /*allow_undefined=*/false);
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_TRUE(b->device_status.ok()) << b->device_status;
  EXPECT_THAT(b->expected, ElementsAre(0x82u, 0x11220244u));
  EXPECT_THAT(b->observed, ElementsAre(0x81u, 0x11220244u));
  EXPECT_THAT(b->differing, ElementsAre(0u));
  absl::StatusOr<BothSides> p = RunBothSides(tc, Hypotheses{}, **sim, Relaxations{});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->expected, b->expected);
  EXPECT_EQ(p->observed, b->observed);
  EXPECT_EQ(p->differing, b->differing);
  EXPECT_EQ(StoredCause(*t, "pk_u8_rounding=truncate"), "pk_u8_rounding=truncate");
  EXPECT_EQ(SignatureOf(*t, "pk_u8_rounding=truncate"), "gfx942.v_cvt_pk_u8_f32.pk_u8_rounding=truncate");
}

TEST(ResolvedTest, TheModelRunsUnderTheGivenHypotheses) {
  absl::StatusOr<std::unique_ptr<Runner>> sim = OpenRunner("sim", {});
  ASSERT_TRUE(sim.ok()) << sim.status();
  Hypotheses hyp;
  ASSERT_TRUE(SetHypothesis("pk_u8_rounding=truncate", &hyp).ok());
  absl::StatusOr<ResolvedTest> t = ResolveTest(Parse(kTwoLanes), hyp);
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<BothSides> b = RunBothSides(*t, **sim, Relaxations{}, /*allow_undefined=*/false);
  ASSERT_TRUE(b.ok()) << b.status();
  // The model truncates (129), the clean simulator rounds to even (130).
  EXPECT_THAT(b->expected, ElementsAre(0x81u, 0x11220244u));
  EXPECT_THAT(b->observed, ElementsAre(0x82u, 0x11220244u));
}

// Two distinct SGPR reads on GFX9 VOP3, whose constant bus takes one (model/isa/tables.cc):
// s20 = 2.0, s21 = 1 (byte 1), v3 = 0x11223344 -> 0x11220244.
TEST(ResolvedTest, AnUndefinedWordKeepsItsViolationsAndIsRunOnlyWhenAllowed) {
  absl::StatusOr<std::unique_ptr<Runner>> sim = OpenRunner("sim", {});
  ASSERT_TRUE(sim.ok()) << sim.status();
  absl::StatusOr<ResolvedTest> t = ResolveTest(Parse(R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
      encoding { src0 { kind: SOURCE_SGPR value: 0x40000000 } src1 { kind: SOURCE_SGPR value: 1 } }
      lanes { src2: 0x11223344 })pb"), Hypotheses{});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->spec_violations,
              ElementsAre("constant bus: 2 distinct SGPR/literal reads, GFX9 allows 1"));
  EXPECT_EQ(StoredCause(*t, "byte_moved"), "undefined_by_spec.byte_moved");
  EXPECT_FALSE(RunBothSides(*t, **sim, Relaxations{}, /*allow_undefined=*/false).ok());
  absl::StatusOr<BothSides> b = RunBothSides(*t, **sim, Relaxations{}, /*allow_undefined=*/true);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_THAT(b->expected, ElementsAre(0x11220244u));
  EXPECT_THAT(b->observed, ElementsAre(0x11220244u));
}

TEST(ResolvedTest, AnUnknownTargetIsNamed) {
  absl::StatusOr<ResolvedTest> t =
      ResolveTest(Parse(R"pb(target: "gfx000" instr: v_cvt_pk_u8_f32 lanes {})pb"), Hypotheses{});
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(absl::StartsWith(t.status().message(), "target: ")) << t.status();
}

}  // namespace
}  // namespace lanediff
