#include "device_harness/isolation/isolated_runner.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/fault.h"
#include "device_harness/isolation/sigstop_test_util.h"
#include "device_harness/isolation/wire.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

// A test device: answers vdst = src0 + 1, except that a lane with src0 == 0xdead0001 makes it
// abort(), 0xdead0002 makes it hang, 0xdead0003 makes it kill itself with SIGKILL (as the
// OOM killer would; SIGSEGV would be caught by ASan in sanitizer builds), and 0xdead0004
// makes it _exit(7). These faults are real: the process really dies or stops. 0xdead0006 is a
// slow batch: it creates the file g_marker (the batch has started), then takes 300 ms.
std::string g_marker;

class TestRunner : public Runner {
 public:
  std::string Describe() const override { return "test device"; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& b) override {
    DeviceResult r;
    const LaneView v = b.lanes.view();
    for (size_t i = 0; i < v.size; ++i) {
      if (v.src0[i] == 0xdead0001) std::abort();
      if (v.src0[i] == 0xdead0002) for (;;) ::pause();
      if (v.src0[i] == 0xdead0003) ::raise(SIGKILL);
      if (v.src0[i] == 0xdead0004) _exit(7);
      if (v.src0[i] == 0xdead0005) return DeviceFault("test device says the lane faulted");
      if (v.src0[i] == 0xdead0006) {
        if (FILE* f = std::fopen(g_marker.c_str(), "w")) std::fclose(f);
        ::usleep(300000);
      }
      r.vdst.push_back(v.src0[i] + 1);
    }
    r.provenance.set_runner("test");
    r.provenance.set_device(std::to_string(::getpid()));
    return r;
  }
};

RunnerFactory TestFactory() {
  return []() -> absl::StatusOr<std::unique_ptr<Runner>> { return std::make_unique<TestRunner>(); };
}

DeviceBatch Batch(std::initializer_list<uint32_t> src0) {
  DeviceBatch b;
  b.target = *FindTarget("gfx942");
  b.words = {0xd1dd0005, 0x000e0501};
  for (uint32_t s : src0) b.lanes.Add(s, 2, 3, 4);
  return b;
}

TEST(WireTest, BatchAndResultRoundTrip) {
  DeviceBatch b = Batch({1, 0x7fc00000, 0xffffffff});
  b.mode = 0x008000f3;
  b.sgpr_values = {5, 6, 7};
  b.instr = Instr::v_cvt_sr_bf8_f32;
  absl::StatusOr<DeviceBatch> again = DecodeBatch(EncodeBatch(b));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->target, b.target);
  EXPECT_EQ(again->instr, b.instr);
  EXPECT_EQ(again->words, b.words);
  EXPECT_EQ(again->mode, b.mode);
  EXPECT_EQ(again->sgpr_values, b.sgpr_values);
  EXPECT_EQ(again->lanes.src0(), b.lanes.src0());
  EXPECT_EQ(again->lanes.vdst_old(), b.lanes.vdst_old());

  std::string frame = EncodeBatch(b);
  frame.pop_back();
  EXPECT_TRUE(absl::StrContains(DecodeBatch(frame).status().message(), "truncated at field 'vdst_old'"));
  EXPECT_FALSE(again->allow_undefined);

  // allow_undefined crosses to the child (an isolated HIP runner would refuse the word
  // without it): one trailing flags word, absent when no flag is set.
  DeviceBatch undefined = b;
  undefined.allow_undefined = true;
  const std::string with_flag = EncodeBatch(undefined);
  EXPECT_EQ(with_flag.size(), EncodeBatch(b).size() + 4);
  absl::StatusOr<DeviceBatch> flagged = DecodeBatch(with_flag);
  ASSERT_TRUE(flagged.ok()) << flagged.status();
  EXPECT_TRUE(flagged->allow_undefined);
  std::string unknown_flag = with_flag;
  unknown_flag.back() = '\x80';  // little-endian: bit 31 of the flags word
  EXPECT_TRUE(absl::StrContains(DecodeBatch(unknown_flag).status().message(), "unknown batch flags 0x80000001"));

  absl::StatusOr<absl::StatusOr<DeviceResult>> fault =
      DecodeResult(EncodeResult(DeviceFault("boom")));
  ASSERT_TRUE(fault.ok());
  EXPECT_TRUE(IsDeviceFault(fault->status()));
  EXPECT_EQ(fault->status().message(), "device fault: boom");
  absl::StatusOr<absl::StatusOr<DeviceResult>> refusal =
      DecodeResult(EncodeResult(absl::InvalidArgumentError("no")));
  ASSERT_TRUE(refusal.ok());
  EXPECT_FALSE(IsDeviceFault(refusal->status()));
  EXPECT_TRUE(absl::IsInvalidArgument(refusal->status()));
}

TEST(IsolatedRunnerTest, AnswersInAChildProcess) {
  auto r = IsolatedRunner::Start(TestFactory());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)->Describe(), "isolated test device");
  auto out = (*r)->Run(Batch({1, 2, 41}));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->vdst, (std::vector<uint32_t>{2, 3, 42}));
  EXPECT_NE(out->provenance.device(), std::to_string(::getpid()));  // ran elsewhere
  EXPECT_EQ((*r)->children_started(), 1);
}

struct FaultCase {
  uint32_t trigger;
  absl::StatusCode code;
  const char* words;
};

class IsolatedFaultTest : public ::testing::TestWithParam<FaultCase> {};

TEST_P(IsolatedFaultTest, FaultIsReportedAndTheNextBatchWorks) {
  auto r = IsolatedRunner::Start(TestFactory(), {.timeout = absl::Milliseconds(300), .start_timeout = absl::Seconds(20)});
  ASSERT_TRUE(r.ok()) << r.status();
  auto first = (*r)->Run(Batch({10}));
  ASSERT_TRUE(first.ok());
  const pid_t before = (*r)->child_pid();
  auto bad = (*r)->Run(Batch({1, GetParam().trigger, 3}));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(IsDeviceFault(bad.status())) << bad.status();
  EXPECT_EQ(bad.status().code(), GetParam().code) << bad.status();
  EXPECT_TRUE(absl::StrContains(bad.status().message(), GetParam().words)) << bad.status();
  // The result observed before the fault is still the caller's, and a fresh child answers.
  EXPECT_EQ(first->vdst, std::vector<uint32_t>{11});
  auto next = (*r)->Run(Batch({99}));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->vdst, std::vector<uint32_t>{100});
  EXPECT_EQ((*r)->children_started(), 2);
  EXPECT_NE((*r)->child_pid(), before);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, IsolatedFaultTest,
    ::testing::Values(
        FaultCase{0xdead0001, absl::StatusCode::kUnavailable, "crash: child pid"},
        FaultCase{0xdead0001, absl::StatusCode::kUnavailable, "signal 6 (SIGABRT: Aborted)"},
        FaultCase{0xdead0002, absl::StatusCode::kDeadlineExceeded, "hang: no answer within 300ms (timeout)"},
        FaultCase{0xdead0003, absl::StatusCode::kUnavailable, "signal 9 (SIGKILL: Killed)"},
        FaultCase{0xdead0004, absl::StatusCode::kUnavailable, "exit status 7"}));

TEST(IsolatedRunnerTest, ARunnerFaultStatusCrossesThePipeAndTheChildLives) {
  auto r = IsolatedRunner::Start(TestFactory());
  ASSERT_TRUE(r.ok());
  auto bad = (*r)->Run(Batch({0xdead0005}));
  EXPECT_TRUE(IsDeviceFault(bad.status()));
  EXPECT_EQ(bad.status().message(), "device fault: test device says the lane faulted");
  EXPECT_TRUE((*r)->Run(Batch({1})).ok());
  EXPECT_EQ((*r)->children_started(), 1);
}

// A helper process runs one slow (300 ms) batch with a 1.5 s timeout and is stopped for 2.5 s
// in its middle (sigstop_test_util.h): 'O' when the answer came back right, 'H' a hang.
char SlowBatchStoppedMidway(bool whole_group, const std::string& tag) {
  g_marker = absl::StrCat(::testing::TempDir(), "/", tag, "_", ::getpid());
  std::remove(g_marker.c_str());
  const char c = RunStoppedMidway(g_marker, whole_group, absl::Milliseconds(2500), [] {
    auto r = IsolatedRunner::Start(TestFactory(), {.timeout = absl::Milliseconds(1500)});
    if (!r.ok()) return 'S';
    auto out = (*r)->Run(Batch({0xdead0006}));
    if (out.ok()) return out->vdst == std::vector<uint32_t>{0xdead0007} ? 'O' : 'W';
    return absl::IsDeadlineExceeded(out.status()) ? 'H' : 'E';
  });
  std::remove(g_marker.c_str());
  return c;
}

TEST(IsolatedRunnerTest, SigstopOfTheWholeCampaignIsNoHang) {
  // No hang: the campaign (the helper and its isolated child) is stopped in the
  // middle of the batch, then continued. The device was not running meanwhile: its answer,
  // 300 ms of its own time later, is no hang. (Measured in wall-clock time, the deadline had
  // passed when the helper woke: a false "hang" fault.)
  EXPECT_EQ(SlowBatchStoppedMidway(/*whole_group=*/true, "sigstop_group"), 'O')
      << "H: a false hang; E: another error; ?: the batch never started";
}

TEST(IsolatedRunnerTest, AnswerCompleteWhenTheTimeoutExpiresIsTaken) {
  // Only the parent is stopped, past the timeout; the child answers meanwhile. The answer is
  // complete in the pipe when the parent wakes: it is read, not called a hang.
  EXPECT_EQ(SlowBatchStoppedMidway(/*whole_group=*/false, "sigstop_parent"), 'O')
      << "H: a false hang; E: another error; ?: the batch never started";
}

TEST(WireTest, PopFrameTakesWholeFramesOnly) {
  std::string buf = Frame("one") + Frame(std::string("t\nwo\0", 5));
  const std::string second = Frame("three");
  buf += second.substr(0, 5);  // length + one byte of "three"
  auto a = PopFrame(&buf);
  ASSERT_TRUE(a.ok() && a->has_value());
  EXPECT_EQ(**a, "one");
  auto b = PopFrame(&buf);
  ASSERT_TRUE(b.ok() && b->has_value());
  EXPECT_EQ(**b, std::string("t\nwo\0", 5));  // a newline inside a body is just a byte
  auto c = PopFrame(&buf);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->has_value());  // incomplete: left in the buffer
  buf += second.substr(5);
  auto d = PopFrame(&buf);
  ASSERT_TRUE(d.ok() && d->has_value());
  EXPECT_EQ(**d, "three");
  EXPECT_TRUE(buf.empty());
  std::string huge = Frame(std::string(100, 'x'));
  EXPECT_EQ(PopFrame(&huge, 99).status().code(), absl::StatusCode::kDataLoss);
}

TEST(IsolatedRunnerTest, ChildIgnoresCtrlC) {
  auto r = IsolatedRunner::Start(TestFactory());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(::kill((*r)->child_pid(), SIGINT), 0);
  auto out = (*r)->Run(Batch({5}));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->vdst, std::vector<uint32_t>{6});
  EXPECT_EQ((*r)->children_started(), 1);
}

TEST(IsolatedRunnerTest, FactoryErrorIsReturnedByStart) {
  auto r = IsolatedRunner::Start([]() -> absl::StatusOr<std::unique_ptr<Runner>> {
    return absl::FailedPreconditionError("hipErrorNoDevice (100): no AMD GPU is visible");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status()));
  EXPECT_EQ(r.status().message(), "hipErrorNoDevice (100): no AMD GPU is visible");
}

TEST(IsolatedRunnerTest, FactoryThatCrashesIsADeviceFault) {
  auto r = IsolatedRunner::Start([]() -> absl::StatusOr<std::unique_ptr<Runner>> { std::abort(); });
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(IsDeviceFault(r.status()));
  EXPECT_TRUE(absl::StrContains(r.status().message(), "SIGABRT")) << r.status();
}

TEST(DescribeWaitStatusTest, NamesSignalsAndExitCodes) {
  EXPECT_EQ(DescribeWaitStatus(9), "signal 9 (SIGKILL: Killed)");  // raw wait status: signal 9
  EXPECT_EQ(DescribeWaitStatus(3 << 8), "exit status 3");
}

}  // namespace
}  // namespace lanediff
