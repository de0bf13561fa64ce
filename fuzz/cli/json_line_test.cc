#include "fuzz/cli/json_line.h"

#include <cmath>

#include "gtest/gtest.h"

namespace lanediff {
namespace {

// Expected strings written by hand from RFC 8259 section 7 (the two-character escapes, \u00XX
// for other control characters) and RFC 3629 (what is valid UTF-8).
TEST(JsonString, EscapesWhatJsonRequires) {
  EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonString("l1\nl2\tx\r"), "\"l1\\nl2\\tx\\r\"");
  EXPECT_EQ(JsonString(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(JsonString(std::string("\0", 1)), "\"\\u0000\"");
}

TEST(JsonString, KeepsUtf8AndReplacesWhatIsNot) {
  EXPECT_EQ(JsonString("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");          // é, €, U+1F600 kept
  EXPECT_EQ(JsonString("\xff"), "\"\\ufffd\"");                        // never a UTF-8 byte
  EXPECT_EQ(JsonString("\xc3"), "\"\\ufffd\"");                        // truncated sequence
  EXPECT_EQ(JsonString("\xc0\xaf"), "\"\\ufffd\\ufffd\"");             // overlong '/'
  EXPECT_EQ(JsonString("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a surrogate, U+D800
}

TEST(JsonLine, BuildsOneObject) {
  JsonLine inner;
  inner.Uint("n", 2);
  JsonLine j;
  j.Str("type", "x")
      .Uint("count", 18446744073709551615u)
      .Num("p", 0.5)
      .Num("bad", std::nan(""))
      .Bool("ok", true)
      .Strs("t", {"a", "b"})
      .Raw("inner", inner.Text());
  EXPECT_EQ(j.Text(),
            "{\"type\":\"x\",\"count\":18446744073709551615,\"p\":0.5,\"bad\":null,"
            "\"ok\":true,\"t\":[\"a\",\"b\"],\"inner\":{\"n\":2}}");
  EXPECT_EQ(JsonLine().Text(), "{}");
}

}  // namespace
}  // namespace lanediff
