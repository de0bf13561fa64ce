#include "proto/text_format.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;

TEST(TextFormat, WordsPrintAsHexWithFloatCommentOnSrc0) {
  proto::TestCase tc;
  tc.set_target("gfx942");
  tc.set_instr(proto::v_cvt_sr_fp8_f32);
  proto::Lane* lane = tc.add_lanes();
  lane->set_src0(0x3fc00000);  // 1.5
  lane->set_src1(0xfffff000);
  const std::string text = ToText(tc);
  EXPECT_THAT(text, HasSubstr("src0: 0x3fc00000  # 1.5\n"));
  EXPECT_THAT(text, HasSubstr("src1: 0xfffff000\n"));
  EXPECT_THAT(text, HasSubstr("instr: v_cvt_sr_fp8_f32"));
}

TEST(TextFormat, RoundTripsThroughOwnPrinter) {
  proto::Finding f;
  f.set_kind(proto::Finding::DISAGREEMENT);
  f.mutable_testcase()->set_target("gfx1201");
  f.mutable_testcase()->set_mode(0x008000f0);
  f.mutable_testcase()->mutable_encoding()->add_raw_words(0xd76b4001);
  f.mutable_testcase()->add_lanes()->set_src0(0x7fc00001);
  f.add_expected(0xff);
  f.add_observed(0x7f);
  auto parsed = ParseText<proto::Finding>(ToText(f), "mem");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->SerializeAsString(), f.SerializeAsString());
}

TEST(TextFormat, ErrorNamesSourceLineAndColumn) {
  auto parsed = ParseText<proto::TestCase>("target: \"gfx942\"\n  bogus: 3\n", "cases/a.textproto");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(std::string(parsed.status().message()), HasSubstr("cases/a.textproto:2:"));
  EXPECT_THAT(std::string(parsed.status().message()), HasSubstr("bogus"));
}

TEST(TextFormat, AbsentModeIsDistinguishableFromZero) {
  auto a = ParseText<proto::TestCase>("target: \"gfx942\"", "a");
  auto b = ParseText<proto::TestCase>("target: \"gfx942\" mode: 0", "b");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(a->has_mode());
  EXPECT_TRUE(b->has_mode());
}

}  // namespace
}  // namespace lanediff
