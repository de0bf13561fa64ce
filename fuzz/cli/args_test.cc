#include "fuzz/cli/args.h"

#include "gtest/gtest.h"

namespace lanediff {
namespace {

TEST(ParseUnsigned, Bases) {
  EXPECT_EQ(*ParseUnsigned("42", 100), 42u);
  EXPECT_EQ(*ParseUnsigned("0x2A", 100), 42u);
  EXPECT_EQ(*ParseUnsigned("0b101010", 100), 42u);
  EXPECT_FALSE(ParseUnsigned("16", 15).ok());   // OPSEL above 15
  EXPECT_FALSE(ParseUnsigned("0x", 15).ok());
  EXPECT_FALSE(ParseUnsigned("12z", 100).ok());
  EXPECT_FALSE(ParseUnsigned("99999999999999999999999", UINT64_MAX).ok());
}

TEST(Args, ParsesEveryKind) {
  Args args("t", "test");
  std::string target;
  uint64_t opsel = 0;
  bool clamp = false;
  std::vector<std::string> hyps, pos;
  args.Flag("target", "T", "", &target);
  args.Uint("opsel", "N", "", 15, &opsel);
  args.Bool("clamp", "", &clamp);
  args.Repeated("hypothesis", "H", "", &hyps);
  args.Positional("PATH...", "", &pos);
  const char* argv[] = {"t", "--target", "gfx942", "--opsel=0xc", "--clamp", "--hypothesis",
                        "a=b", "--hypothesis=c=d", "x", "--", "--y"};
  EXPECT_EQ(args.Parse(11, const_cast<char**>(argv)), -1);
  EXPECT_EQ(target, "gfx942");
  EXPECT_EQ(opsel, 12u);
  EXPECT_TRUE(clamp);
  EXPECT_EQ(hyps, (std::vector<std::string>{"a=b", "c=d"}));
  EXPECT_EQ(pos, (std::vector<std::string>{"x", "--y"}));
}

TEST(Args, UsageErrorsReturnTwo) {
  Args args("t", "test");
  uint64_t opsel = 0;
  args.Uint("opsel", "N", "", 15, &opsel);
  const char* over[] = {"t", "--opsel", "16"};
  EXPECT_EQ(args.Parse(3, const_cast<char**>(over)), 2);
  const char* unknown[] = {"t", "--nope"};
  EXPECT_EQ(args.Parse(2, const_cast<char**>(unknown)), 2);
  const char* missing[] = {"t", "--opsel"};
  EXPECT_EQ(args.Parse(2, const_cast<char**>(missing)), 2);
  const char* help[] = {"t", "--help"};
  testing::internal::CaptureStdout();
  EXPECT_EQ(args.Parse(2, const_cast<char**>(help)), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("--opsel N"), std::string::npos);
}

}  // namespace
}  // namespace lanediff
