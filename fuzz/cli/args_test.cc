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

TEST(ParseHex, AlwaysHex) {
  EXPECT_EQ(*ParseHex("10", 0xffffffff), 0x10u);  // not ten
  EXPECT_EQ(*ParseHex("0x10", 0xffffffff), 0x10u);
  EXPECT_EQ(*ParseHex("F0", 0xffffffff), 0xf0u);
  EXPECT_FALSE(ParseHex("0x", 0xffffffff).ok());
  EXPECT_FALSE(ParseHex("12g", 0xffffffff).ok());
  EXPECT_FALSE(ParseHex("100000000", 0xffffffff).ok());
}

TEST(ParseDouble, FiniteAndInRangeOnly) {
  const DoubleRange timeout{0, 86400, true};
  EXPECT_EQ(*ParseDouble("2.5", timeout), 2.5);
  EXPECT_EQ(*ParseDouble("86400", timeout), 86400);
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "0", "-1", "86400.5", "1e999", "x", ""}) {
    EXPECT_FALSE(ParseDouble(bad, timeout).ok()) << bad;
  }
  EXPECT_EQ(ParseDouble("0", timeout).status().message(), "'0' is out of range; accepted: (0, 86400]");
  EXPECT_EQ(*ParseDouble("0", kDurationRange), 0);  // --time 0: no limit
}

TEST(Args, RangesAreUsageErrorsNamingTheFlag) {
  Args args("t", "test");
  uint64_t jobs = 1, mode = 0;
  double timeout = 2;
  args.Uint("jobs", "N", "", 1, 256, &jobs);
  args.Hex("mode", "HEX", "", 0xffffffff, &mode);
  args.Double("batch-timeout", "S", "", kTimeoutRange, &timeout);
  for (std::vector<const char*> argv : {std::vector<const char*>{"t", "--jobs", "0"},
                                        {"t", "--jobs", "257"},
                                        {"t", "--batch-timeout", "nan"},
                                        {"t", "--batch-timeout", "-1"},
                                        {"t", "--mode", "0x1g"}}) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(args.Parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data())), 2)
        << argv[1];
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(std::string("lanediff t: --") + (argv[1] + 2)), std::string::npos) << err;
  }
  const char* ok[] = {"t", "--jobs", "256", "--mode", "10", "--batch-timeout", "0.5"};
  EXPECT_EQ(args.Parse(7, const_cast<char**>(ok)), -1);
  EXPECT_EQ(jobs, 256u);
  EXPECT_EQ(mode, 0x10u);
  EXPECT_EQ(timeout, 0.5);
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
