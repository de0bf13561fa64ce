#include "fuzz/triage/minimize.h"

#include "gtest/gtest.h"

namespace lanediff {
namespace {

proto::TestCase Batch(int n) {
  proto::TestCase tc;
  tc.set_target("gfx942");
  tc.set_instr(proto::v_cvt_sr_fp8_f32);
  for (int i = 0; i < n; ++i) {
    proto::Lane* l = tc.add_lanes();
    l->set_src0(0x3f800000);  // 1.0
    l->set_src1(0x12345678 + i);
    l->set_src2(0xa5a5a5a5);
    l->set_vdst_old(0xdeadbeef);
  }
  return tc;
}

bool AnyNan(const proto::TestCase& tc) {
  for (const auto& l : tc.lanes()) {
    if (IsF32Nan(l.src0())) return true;
  }
  return false;
}

TEST(Minimize, ShrinksToOneLaneAndTheCanonicalNan) {
  proto::TestCase tc = Batch(100);
  tc.mutable_lanes(37)->set_src0(0xffc12345);  // a negative NaN with a payload
  MinimizeStats stats;
  auto r = Minimize(tc, [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); },
                    {}, &stats);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->lanes_size(), 1);
  EXPECT_EQ(r->lanes(0).src0(), kCanonicalNan);
  // Fields the predicate ignores become 0.
  EXPECT_EQ(r->lanes(0).src1(), 0u);
  EXPECT_EQ(r->lanes(0).src2(), 0u);
  EXPECT_EQ(r->lanes(0).vdst_old(), 0u);
  EXPECT_LT(stats.calls, 200);
}

TEST(Minimize, HintedLaneIsTriedFirst) {
  proto::TestCase tc = Batch(1000);
  tc.mutable_lanes(999)->set_src0(0x7f800001);
  MinimizeStats stats;
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); };
  auto r = Minimize(tc, pred, {.hint_lanes = {999}}, &stats);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lanes_size(), 1);
}

TEST(Minimize, FewestModifierAndModeBitsAndSmallestValue) {
  proto::TestCase tc = Batch(4);
  tc.mutable_lanes(2)->set_src0(0xc0490fdb);  // -3.14159
  proto::Encoding* e = tc.mutable_encoding();
  e->set_neg(7);
  e->set_abs(5);
  e->set_omod(3);
  e->set_clamp(true);
  e->set_opsel(0b1101);
  tc.set_mode(0x008000f3);
  // Disagrees when NEG[1] is set, a lane's src0 is negative and MODE rounds toward zero.
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> {
    if (!(c.encoding().neg() & 2)) return false;
    if (!c.has_mode() || (c.mode() & 3) != 3) return false;
    for (const auto& l : c.lanes()) {
      if (l.src0() & 0x80000000u) return true;
    }
    return false;
  };
  auto r = Minimize(tc, pred);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->lanes_size(), 1);
  EXPECT_EQ(r->lanes(0).src0(), 0x80000000u);  // only the sign bit: -0
  EXPECT_EQ(r->encoding().neg(), 2u);
  EXPECT_EQ(r->encoding().abs(), 0u);
  EXPECT_EQ(r->encoding().omod(), 0u);
  EXPECT_EQ(r->encoding().opsel(), 0u);
  EXPECT_FALSE(r->encoding().clamp());
  EXPECT_EQ(r->mode(), 0x000000f3u);  // FP16_OVFL dropped, denormal bits back to default
}

TEST(Minimize, DeterministicAndRefusesNonFailingInput) {
  proto::TestCase tc = Batch(50);
  tc.mutable_lanes(10)->set_src0(0x7fa00001);
  tc.mutable_lanes(30)->set_src0(0xffffffff);
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); };
  auto a = Minimize(tc, pred), b = Minimize(tc, pred);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->SerializeAsString(), b->SerializeAsString());
  auto none = Minimize(Batch(3), pred);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Minimize, SourceKindsGoBackToVgprs) {
  proto::TestCase tc = Batch(1);
  tc.mutable_lanes(0)->set_src0(0x7fc00000);
  tc.mutable_encoding()->mutable_src1()->set_kind(proto::SOURCE_SGPR);
  tc.mutable_encoding()->mutable_src1()->set_value(0xffffffff);
  auto pred = [](const proto::TestCase& c) -> absl::StatusOr<bool> { return AnyNan(c); };
  auto r = Minimize(tc, pred);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->encoding().src1().kind(), proto::SOURCE_VGPR);
}

}  // namespace
}  // namespace lanediff
