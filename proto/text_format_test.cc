#include "proto/text_format.h"

#include "absl/strings/str_cat.h"
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

namespace lanediff {
namespace {

TEST(TextFormat, InvalidUtf8IsRefusedByLineAndColumn) {
  // Once binary findings with invalid UTF-8 in a string were refused, text ones
  // were not. 0xff can start no UTF-8 sequence; "\xc3\x28" is a lead byte whose continuation
  // is missing; "\xed\xa0\x80" encodes the surrogate U+D800; "\xc0\xaf" is an overlong '/'.
  proto::Finding f;
  for (const char* bad : {"\xff", "\xc3\x28", "\xed\xa0\x80", "\xc0\xaf"}) {
    const std::string text = std::string("signature: \"x\"\n# note ") + bad + "\n";
    absl::Status s = ParseTextInto(text, "f.textproto", &f);
    EXPECT_FALSE(s.ok()) << bad;
    // Line 2, column 8: "# note " is 7 bytes.
    EXPECT_THAT(std::string(s.message()), HasSubstr("f.textproto:2:8: invalid UTF-8")) << bad;
  }
  // An escape that makes invalid UTF-8 inside a string field is refused by field name.
  absl::Status s = ParseTextInto("testcase { note: \"\\377\" }", "g.textproto", &f);
  EXPECT_EQ(s.message(), "g.textproto: field testcase.note: invalid UTF-8 (text fields must be UTF-8)");
  // Valid multi-byte UTF-8 (U+00E9, U+20AC, U+1F600) is accepted.
  EXPECT_TRUE(ParseTextInto("input_class: \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", "h", &f).ok());
}

TEST(TextFormat, ParsedMemoryIsBoundedBeforeParsing) {
  // An empty Lane is 2 bytes of binary ("2a 00" inside the testcase) and
  // tens of bytes in memory. The budget is the memory of kParseBudgetLanes lanes: that many
  // lanes plus their testcase are refused before anything is parsed; 16 fewer (room for the
  // testcase, which costs less than 16 lanes) are accepted.
  const size_t lane = ParsedMessageCost(proto::Lane::descriptor());
  const size_t testcase = ParsedMessageCost(proto::TestCase::descriptor());
  ASSERT_GE(lane, sizeof(proto::Lane));
  ASSERT_LT(testcase, 16 * lane);
  EXPECT_EQ(ParseBudgetBytes(), kParseBudgetLanes * lane);
  auto binary = [](size_t lanes) {
    std::string inner;
    for (size_t i = 0; i < lanes; ++i) inner += std::string("\x2a\x00", 2);  // TestCase.lanes
    std::string varint;
    for (size_t n = inner.size(); ; n >>= 7) {
      varint.push_back(static_cast<char>((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
      if (n <= 0x7f) break;
    }
    return "\x12" + varint + inner;  // Finding.testcase
  };
  proto::Finding f;
  absl::Status over = ParseBinaryInto(binary(kParseBudgetLanes), "big.binpb", &f);
  // The count is the testcase and the lanes costed when the total first passes the budget:
  // testcase + k * lane > kParseBudgetLanes * lane at k = kParseBudgetLanes - floor(testcase /
  // lane) (testcase < 16 lanes, above), plus the testcase itself.
  const size_t passed_at = kParseBudgetLanes - testcase / lane + 1;
  EXPECT_THAT(std::string(over.message()),
              HasSubstr(absl::StrCat("big.binpb: its ", passed_at, " or more nested messages")));
  EXPECT_THAT(std::string(over.message()), HasSubstr("refused before parsing"));
  EXPECT_EQ(f.testcase().lanes_size(), 0);
  ASSERT_TRUE(ParseBinaryInto(binary(kParseBudgetLanes - 16), "ok.binpb", &f).ok());
  EXPECT_EQ(static_cast<size_t>(f.testcase().lanes_size()), kParseBudgetLanes - 16);
  // Text: each '{' costs what the message its field names costs.
  std::string text = "testcase {\n";
  for (size_t i = 0; i < kParseBudgetLanes; ++i) text += "lanes {}\n";
  text += "}\n";
  EXPECT_THAT(std::string(ParseTextInto(text, "big.textproto", &f).message()),
              HasSubstr("big.textproto: its"));
  text = "testcase {\n";
  for (size_t i = 0; i < kParseBudgetLanes - 16; ++i) text += "lanes {}\n";
  text += "}\n";
  EXPECT_TRUE(ParseTextInto(text, "ok.textproto", &f).ok());
  // Malformed binary is named as such.
  EXPECT_THAT(std::string(ParseBinaryInto("\xff\xff", "bad.binpb", &f).message()),
              HasSubstr("bad.binpb: malformed or truncated binary lanediff.proto.Finding"));
}

// Text from outside lanediff (a device's stderr or description, a fault message) may hold any
// bytes; a file ToText writes from it must load again. Expected values by hand: U+FFFD is
// EF BF BD in UTF-8; each byte that starts no valid sequence becomes one.
TEST(ExternalText, InvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(ToValidUtf8("caf\xe9"), "caf\xef\xbf\xbd");
  EXPECT_EQ(ToValidUtf8("a\xff\xfe" "b"), "a\xef\xbf\xbd\xef\xbf\xbd" "b");
  EXPECT_EQ(ToValidUtf8("\xc3\xa9t\xc3\xa9"), "\xc3\xa9t\xc3\xa9");  // valid: unchanged
  EXPECT_EQ(ToValidUtf8("x\xe2\x82"), "x\xef\xbf\xbd\xef\xbf\xbd");  // a cut 3-byte character
  EXPECT_EQ(ToValidUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
}

TEST(ExternalText, CutsNeverSplitACharacter) {
  const std::string s = "a\xc3\xa9\xe2\x82\xac" "b";  // a, e-acute (2 bytes), euro (3), b
  EXPECT_EQ(Utf8CutBefore(s, 2), 1u);  // inside e-acute: back to its start
  EXPECT_EQ(Utf8CutBefore(s, 3), 3u);
  EXPECT_EQ(Utf8CutBefore(s, 5), 3u);  // inside the euro sign
  EXPECT_EQ(Utf8CutBefore(s, 100), s.size());
  EXPECT_EQ(Utf8CutAfter(s, 2), 3u);
  EXPECT_EQ(Utf8CutAfter(s, 4), 6u);
  EXPECT_EQ(Utf8CutAfter(s, 6), 6u);
}

TEST(ExternalText, ToTextOfForeignBytesLoadsAgain) {
  proto::Finding f;
  f.set_kind(proto::Finding::DEVICE_FAULT);
  f.set_fault("exec:dev: failed; stderr: caf\xe9 \xc3");
  f.mutable_device()->set_device("dev\xff");
  f.set_repro("lanediff replay r\xe9sultats");
  const std::string text = ToText(f);
  auto back = ParseText<proto::Finding>(text, "f.textproto");
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
  EXPECT_EQ(back->fault(), "exec:dev: failed; stderr: caf\xef\xbf\xbd \xef\xbf\xbd");
  EXPECT_EQ(back->device().device(), "dev\xef\xbf\xbd");
  EXPECT_EQ(f.device().device(), "dev\xff");  // the caller's message is not changed
}

}  // namespace
}  // namespace lanediff
