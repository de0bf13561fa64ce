#include "fuzz/cli/args.h"

#include <algorithm>

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
  args.Uint("jobs", "", 1, 256, &jobs);
  args.Hex("mode", "", 0xffffffff, &mode);
  args.Double("timeout", "", kTimeoutRange, &timeout);
  for (std::vector<const char*> argv : {std::vector<const char*>{"t", "--jobs", "0"},
                                        {"t", "--jobs", "257"},
                                        {"t", "--timeout", "nan"},
                                        {"t", "--timeout", "-1"},
                                        {"t", "--mode", "0x1g"}}) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(args.Parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data())), 2)
        << argv[1];
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(std::string("lanediff t: --") + (argv[1] + 2)), std::string::npos) << err;
  }
  const char* ok[] = {"t", "--jobs", "256", "--mode", "10", "--timeout", "0.5"};
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
  args.Flag("targets", "", &target);
  args.Uint("opsel", "", 15, &opsel);
  args.Bool("clamp", "", &clamp);
  args.Repeated("hypothesis", "", &hyps);
  args.Positional("PATH...", "", &pos);
  const char* argv[] = {"t", "--targets", "gfx942", "--opsel=0xc", "--clamp", "--hypothesis",
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
  args.Uint("opsel", "", 15, &opsel);
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

// The old spellings of the deprecation list (flag_table.cc) still set the new flag, with one
// line on stderr naming both.
TEST(Args, DeprecatedSpellingsWorkWithOneLine) {
  Args args("t", "test");
  std::string target;
  double timeout = 2;
  args.Flag("targets", "", &target);
  args.Double("timeout", "", kTimeoutRange, &timeout);
  const char* argv[] = {"t", "--target", "gfx942", "--batch-timeout=5"};
  testing::internal::CaptureStderr();
  EXPECT_EQ(args.Parse(4, const_cast<char**>(argv)), -1);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(target, "gfx942");
  EXPECT_EQ(timeout, 5);
  EXPECT_NE(err.find("--target is deprecated, use --targets"), std::string::npos) << err;
  EXPECT_NE(err.find("--batch-timeout is deprecated, use --timeout"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 2) << err;
  EXPECT_TRUE(args.Given("targets"));
  // A deprecated spelling of a flag this command does not take is an unknown flag.
  const char* other[] = {"t", "--summary-out", "x"};
  testing::internal::CaptureStderr();
  EXPECT_EQ(args.Parse(3, const_cast<char**>(other)), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("unknown flag --summary-out"),
            std::string::npos);
}

TEST(Args, UnknownFlagSuggestsTheClosest) {
  Args args("t", "test");
  std::string device, targets;
  uint64_t seed = 1;
  args.Flag("device", "", &device);
  args.Flag("targets", "", &targets);
  args.Uint("seed", "", 10, &seed);
  struct Case { const char* typed; const char* suggestion; };
  // Distances by hand: devcie -> device swaps two letters (1); tragets the same (1); seeed
  // drops one e (1); xyz is 3 edits from any of them, so no suggestion.
  for (Case c : {Case{"--devcie", "did you mean --device?"}, Case{"--tragets", "did you mean --targets?"},
                 Case{"--seeed=3", "did you mean --seed?"}, Case{"--xyz", nullptr}}) {
    const char* argv[] = {"t", c.typed};
    testing::internal::CaptureStderr();
    EXPECT_EQ(args.Parse(2, const_cast<char**>(argv)), 2);
    const std::string err = testing::internal::GetCapturedStderr();
    if (c.suggestion) {
      EXPECT_NE(err.find(c.suggestion), std::string::npos) << err;
    } else {
      EXPECT_EQ(err.find("did you mean"), std::string::npos) << err;
    }
  }
}

TEST(Args, EveryFlagComesFromTheTable) {
  Args args("t", "test");
  std::string x;
  uint64_t mode = 0;
  args.Flag("summary-out", "", &x);  // a deprecated spelling is not a declarable flag
  const char* argv[] = {"t"};
  testing::internal::CaptureStderr();
  EXPECT_EQ(args.Parse(1, const_cast<char**>(argv)), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find(
                "internal error: --summary-out is not in the flag table"),
            std::string::npos);
  Args wrong_kind("t", "test");
  wrong_kind.Uint("mode", "", 15, &mode);  // --mode is HEX everywhere
  testing::internal::CaptureStderr();
  EXPECT_EQ(wrong_kind.Parse(1, const_cast<char**>(argv)), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("--mode is declared as uint but the flag "
                                                        "table says hex"),
            std::string::npos);
}

TEST(Args, HelpShowsEveryDefault) {
  Args args("t", "test");
  std::string device = "auto", out;
  uint64_t jobs = 4, mode = 0xf0;
  double time = 0.5;
  args.Flag("device", "where", &device);
  args.Flag("out", "write here", &out);
  args.Uint("jobs", "workers", 1, 256, &jobs);
  args.Hex("mode", "MODE", 0xffffffff, &mode);
  args.Double("time", "how long", kDurationRange, &time);
  args.Uint("seed", "seed (default: the clock)", 99, &jobs);
  const std::string help = args.Help();
  for (const char* want : {"--device SPEC", "where (default: auto)", "write here (default: none)",
                           "workers (default: 4)", "MODE (default: 0xf0)",
                           "how long (default: 0.5)", "seed (default: the clock)\n"}) {
    EXPECT_NE(help.find(want), std::string::npos) << want << "\n" << help;
  }
}

TEST(EditDistance, CountsSwapsAsOne) {
  EXPECT_EQ(EditDistance("time", "time"), 0u);
  EXPECT_EQ(EditDistance("tiem", "time"), 1u);    // neighbours swapped
  EXPECT_EQ(EditDistance("target", "targets"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);  // the textbook case
  EXPECT_EQ(ClosestWord("swep", {"sweep", "fuzz", "eval"}), "sweep");
  EXPECT_EQ(ClosestWord("zzz", {"sweep", "fuzz", "eval"}), "");
}

}  // namespace
}  // namespace lanediff
