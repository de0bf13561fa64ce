#include "fuzz/triage/classify.h"

#include "gtest/gtest.h"
#include "model/isa/testcase.h"

namespace lanediff {
namespace {

proto::TestCase OneLane(const char* target, proto::Instruction instr, uint32_t s0, uint32_t s1) {
  proto::TestCase tc;
  tc.set_target(target);
  tc.set_instr(instr);
  proto::Lane* l = tc.add_lanes();
  l->set_src0(s0);
  l->set_src1(s1);
  return tc;
}

TEST(Classify, SrCarryExplainedByLiteralRounding) {
  // docs/semantics.md §6: fp8 OCP, S0=0x3FFFFFFF, S1=0xFFFFF000 -> 0x40 (carry_truncate, the
  // default) vs 0x39 (literal). A device answering 0x39 follows sr_rounding=literal. The
  // fraction 0x7fffff plus the seed 0xfffff carries out of 23 bits: class sr_carry.
  proto::TestCase tc = OneLane("gfx1201", proto::v_cvt_sr_fp8_f32, 0x3fffffff, 0xfffff000);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> observed = {0x00000039};
  auto c = ClassifyDisagreement(tc, *rc, observed, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->explained_by, "sr_rounding=literal");
  EXPECT_EQ(c->input_class, "sr_carry");
  EXPECT_EQ(c->signature, "gfx1201.v_cvt_sr_fp8_f32.plain.sr_carry.mode000000f0.sr_rounding=literal");
}

// A tuple lane's class is its most special element's (model/ops/input_class.h ClassifyLane),
// not its first dword's. v_cvt_scalef32_pk32_f32_fp6 (docs/semantics.md §11.14), scale
// 0x7f000000 (exponent byte 0xFE: 2^127). Dword 0 holds fields 0..4 = 0x08 (E2M3 1.0:
// 0x08 | 0x08 << 6 | ... | 0x08 << 24 = 0x08208208), each 2^127, a normal f32; field 20 (tuple
// bits 125:120, dword 3 bits 29:24) is 0x1F = 7.5, and 7.5 x 2^127 is past f32's largest
// finite, (2 - 2^-23) x 2^127: "overflow". The first dword alone says "normal".
TEST(Classify, TupleLaneTakesItsMostSpecialElement) {
  proto::TestCase tc = OneLane("gfx950", proto::v_cvt_scalef32_pk32_f32_fp6, 0x08208208, 0x7f000000);
  proto::Lane* l = tc.mutable_lanes(0);
  for (uint32_t w : {0u, 0u, 0x1f000000u, 0u, 0u}) l->add_src0_more(w);  // dwords 1..5
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> observed(32, 0);  // every word 0: differs from 2^127 in VDST+0
  auto c = ClassifyDisagreement(tc, *rc, observed, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->input_class, "overflow");
  // Field 20 back to 0: every element is 2^127 or +0; the most special is a zero element.
  l->set_src0_more(2, 0);
  rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  c = ClassifyDisagreement(tc, *rc, observed, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->input_class, "zero");
}

TEST(Classify, PkU8TieExplainedByTruncation) {
  // 129.5 -> 130 under RNE (default), 129 under truncation (docs/semantics.md §3).
  proto::TestCase tc = OneLane("gfx942", proto::v_cvt_pk_u8_f32, 0x43018000, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> observed = {0x00000081};
  auto c = ClassifyDisagreement(tc, *rc, observed, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->signature, "gfx942.v_cvt_pk_u8_f32.plain.tie.mode000000f0.pk_u8_rounding=truncate");
  // A word no hypothesis produces is unexplained; the signature says so.
  observed = {0xdeadbeef};
  c = ClassifyDisagreement(tc, *rc, observed, {});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->explained_by, "");
  EXPECT_EQ(c->signature, "gfx942.v_cvt_pk_u8_f32.plain.tie.mode000000f0.unexplained");
  // Agreement is not a disagreement.
  observed = {0x00000082};
  EXPECT_FALSE(ClassifyDisagreement(tc, *rc, observed, {}).ok());
}

TEST(Classify, ModifierSetAndModeAreInTheSignature) {
  proto::TestCase tc = OneLane("gfx942", proto::v_cvt_pk_u8_f32, 0x43018000, 0);
  tc.set_mode(0x000000f3);  // round toward zero: 129.5 -> 129 under both readings
  tc.mutable_encoding()->set_neg(2);
  tc.mutable_encoding()->set_clamp(true);
  tc.mutable_encoding()->set_opsel(4);
  tc.mutable_encoding()->mutable_src2()->set_kind(proto::SOURCE_SGPR);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(ModifierSet(tc, rc->ctx.mods), "neg2-clamp-opsel4-src2_sgpr");
  std::vector<uint32_t> observed = {0x00000080};
  auto c = ClassifyDisagreement(tc, *rc, observed, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->signature, "gfx942.v_cvt_pk_u8_f32.neg2-clamp-opsel4-src2_sgpr.tie.mode000000f3.unexplained");
  // Stable: the same inputs, the same string.
  auto again = ClassifyDisagreement(tc, *rc, observed, {});
  EXPECT_EQ(again->signature, c->signature);
}

TEST(Classify, FaultSignatureNamesKindAndClass) {
  proto::TestCase tc = OneLane("gfx942", proto::v_cvt_sr_fp8_f32, 0x7f800001, 0);
  EXPECT_EQ(FaultSignature(tc, absl::DeadlineExceededError("device fault: hang")),
            "gfx942.v_cvt_sr_fp8_f32.device_fault.hang.nan");
  EXPECT_EQ(FaultSignature(tc, absl::UnavailableError("device fault: SIGABRT")),
            "gfx942.v_cvt_sr_fp8_f32.device_fault.crash.nan");
  tc.add_lanes();
  EXPECT_EQ(FaultSignature(tc, absl::UnavailableError("x")),
            "gfx942.v_cvt_sr_fp8_f32.device_fault.crash");
}

TEST(Classify, ModeClassNamesTheFieldsThatMatter) {
  // docs/semantics.md §7: MODE[1:0] round, MODE[4] f32 input denormals, MODE[23] FP16_OVFL.
  EXPECT_EQ(ModeClass(0x000000f0), "nearest_even");       // the default: RNE, denormals kept
  EXPECT_EQ(ModeClass(0x000000f3), "toward_zero");        // MODE[1:0] = 3
  EXPECT_EQ(ModeClass(0x000000e1), "plus_inf ftz_in");    // MODE[4] = 0
  EXPECT_EQ(ModeClass(0x008000f2), "minus_inf fp16_ovfl");  // MODE[23] = 1
  EXPECT_EQ(ModeClass(0x000000fc), "nearest_even");       // MODE[3:2] (f64/f16 round) ignored
}

}  // namespace
}  // namespace lanediff
