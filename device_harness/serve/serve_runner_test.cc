#include "device_harness/serve/serve_runner.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/escaped_child_test_util.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/fault.h"
#include "device_harness/open_runner.h"
#include "device_harness/random_case_test_util.h"
#include "device_harness/serve/serve_protocol.h"
#include "gtest/gtest.h"
#include "model/isa/testcase.h"
#include "model/ops/ops.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

const std::string kLanediff = LANEDIFF_BINARY_DIR "/fuzz/lanediff";
const std::string kAdapter = LANEDIFF_SERVE_ADAPTER;

std::unique_ptr<Runner> Serve(const std::string& command,
                              absl::Duration timeout = absl::Seconds(30)) {
  auto r = OpenServeRunner({.command = command, .timeout = timeout, .lanediff_path = kLanediff});
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? std::move(*r) : nullptr;
}

using testcases::ModelAnswer;
using testcases::RandomCase;

std::string TempDir() {
  std::string t = (std::filesystem::temp_directory_path() / "lanediff_serve_XXXXXX").string();
  EXPECT_NE(::mkdtemp(t.data()), nullptr);
  return t;
}

int Lines(const std::string& path) {
  std::ifstream in(path);
  std::string l;
  int n = 0;
  while (std::getline(in, l)) ++n;
  return n;
}

// A hello naming no device, any target, any instruction, as printf(1) octal escapes: the
// length 20, "LDH1", version 1, an empty string, two empty lists.
constexpr char kHelloPrintf[] =
    "printf '\\024\\000\\000\\000LDH1\\001\\000\\000\\000\\000\\000\\000\\000"
    "\\000\\000\\000\\000\\000\\000\\000\\000'";

TEST(ServeProtocolTest, HelloAndAnswersRoundTrip) {
  ServeHello h{.device = "dev", .targets = {"gfx942"}, .instrs = {"v_cvt_pk_u8_f32"}};
  auto back = DecodeHello(EncodeHello(h));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->device, "dev");
  EXPECT_EQ(back->targets, h.targets);
  EXPECT_EQ(back->instrs, h.instrs);

  DeviceResult ok;
  ok.vdst = {1, 2, 3};
  auto a = DecodeAnswer(EncodeAnswer(7, ok), 3);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->id, 7u);
  ASSERT_TRUE(a->result.ok());
  EXPECT_EQ(a->result->vdst, ok.vdst);
  EXPECT_TRUE(absl::StrContains(DecodeAnswer(EncodeAnswer(7, ok), 2).status().message(),
                                "3 VDST words for 2 lanes"));

  auto u = DecodeAnswer(EncodeAnswer(1, Unsupported("clamp")), 0);
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(IsUnsupported(u->result.status()));
  EXPECT_FALSE(IsDeviceFault(u->result.status()));
  auto f = DecodeAnswer(EncodeAnswer(1, DeviceFault(absl::StatusCode::kDeadlineExceeded, "hung")), 0);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(IsDeviceFault(f->result.status()));
  EXPECT_EQ(f->result.status().code(), absl::StatusCode::kDeadlineExceeded);
  auto r = DecodeAnswer(EncodeAnswer(1, absl::InvalidArgumentError("wrong target")), 0);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(IsDeviceFault(r->result.status()));
  EXPECT_FALSE(IsUnsupported(r->result.status()));
  EXPECT_EQ(r->result.status().message(), "wrong target");

  std::string cut = EncodeAnswer(7, ok);
  cut.resize(cut.size() - 6);
  EXPECT_TRUE(absl::StrContains(DecodeAnswer(cut, 3).status().message(),
                                "exec-serve answer: truncated at field"));
}

// The Python adapter of device_harness/README.md: one process for every batch, answers equal to
// the model where it implements the case, "unsupported" (not a fault) where it does not.
TEST(ServeRunnerTest, PythonAdapterServesAWholeRunInOneProcess) {
  const std::string dir = TempDir();
  const std::string log = dir + "/starts";
  auto dev = Serve(absl::StrCat("echo started >> ", log, "; exec python3 ", kAdapter));
  ASSERT_NE(dev, nullptr);
  EXPECT_TRUE(absl::StrContains(dev->Describe(), "example_adapter.py")) << dev->Describe();

  // Hand-derived (docs/semantics.md §3, round to nearest even): 129.5 = 0x43018000 -> 130 = 0x82
  // into byte 1 of 0x11223344 -> 0x11228244; 2.5 = 0x40200000 -> 2 into byte 0 of
  // 0xaabbccdd -> 0xaabbcc02; NaN 0xffc00000 -> 0 into byte 3 of 0x01020304 -> 0x00020304.
  const proto::TestCase hand = *ParseText<proto::TestCase>(
      R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
           lanes { src0: 0x43018000 src1: 1 src2: 0x11223344 }
           lanes { src0: 0x40200000 src1: 0 src2: 0xaabbccdd }
           lanes { src0: 0xffc00000 src1: 3 src2: 0x01020304 })pb", "t");
  auto h = dev->Run(*BuildDeviceBatch(hand));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->vdst, (std::vector<uint32_t>{0x11228244, 0xaabbcc02, 0x00020304}));
  EXPECT_EQ(h->provenance.runner(), absl::StrCat("exec-serve:echo started >> ", log,
                                                 "; exec python3 ", kAdapter));

  std::mt19937 rng(11);
  int answered = 0, unsupported = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (int b = 0; b < 4; ++b) {
      const proto::TestCase tc = RandomCase(t, Instr::v_cvt_pk_u8_f32, rng, 300);
      auto r = dev->Run(*BuildDeviceBatch(tc));
      const bool implemented = (tc.mode() & 3) == 0 && ((tc.encoding().neg() | tc.encoding().abs()) & 1) == 0;
      if (!implemented) {
        ASSERT_FALSE(r.ok()) << ToText(tc);
        EXPECT_TRUE(IsUnsupported(r.status())) << r.status();
        EXPECT_FALSE(IsDeviceFault(r.status())) << r.status();
        ++unsupported;
        continue;
      }
      ASSERT_TRUE(r.ok()) << r.status() << "\n" << ToText(tc);
      EXPECT_EQ(r->vdst, ModelAnswer(tc)) << ToText(tc);
      ++answered;
    }
  }
  // An instruction the hello does not list: unsupported without asking the adapter.
  const proto::TestCase sr = RandomCase(**FindTarget("gfx950"), Instr::v_cvt_sr_fp8_f32, rng, 10);
  auto s = dev->Run(*BuildDeviceBatch(sr));
  EXPECT_TRUE(IsUnsupported(s.status())) << s.status();
  EXPECT_TRUE(absl::StrContains(s.status().message(), "v_cvt_sr_fp8_f32 is not one")) << s.status();
  EXPECT_GT(answered, 0);
  EXPECT_GT(unsupported, 0);
  EXPECT_EQ(Lines(log), 1) << "the adapter was started more than once";
  std::printf("python adapter: %d batches answered, %d unsupported, 1 process\n", answered,
              unsupported);
  std::filesystem::remove_all(dir);
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// device_harness/README.md shows the adapter in full: it must be the file the tests run.
TEST(ServeRunnerTest, ReadmeShowsTheAdapterTheTestsRun) {
  const std::filesystem::path root =
      std::filesystem::path(kAdapter).parent_path().parent_path().parent_path();
  const std::string adapter = Slurp(kAdapter);
  const std::string readme = Slurp((root / "device_harness" / "README.md").string());
  ASSERT_FALSE(adapter.empty());
  EXPECT_TRUE(absl::StrContains(readme, absl::StrCat("```python\n", adapter, "```")))
      << "device_harness/README.md's exec-serve adapter differs from " << kAdapter;
}

// The per-batch timeout runs from the request: a device slower to start than the timeout is
// no hang. (If it ran from process start, the first batch would time out.)
TEST(ServeRunnerTest, TimeoutRunsFromTheRequestNotFromStart) {
  auto dev = Serve(absl::StrCat("sleep 2; exec python3 ", kAdapter), absl::Seconds(1));
  ASSERT_NE(dev, nullptr);
  const proto::TestCase tc = *ParseText<proto::TestCase>(
      R"pb(target: "gfx1201" instr: v_cvt_pk_u8_f32 lanes { src0: 0x3f800000 })pb", "t");
  auto r = dev->Run(*BuildDeviceBatch(tc));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->vdst, std::vector<uint32_t>{1});  // 1.0 -> 1 into byte 0 of 0
}

TEST(ServeRunnerTest, HangCrashAndGarbageAreDeviceFaults) {
  const proto::TestCase tc = *ParseText<proto::TestCase>(
      R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32 lanes { src0: 0x3f800000 })pb", "t");
  {  // says hello, then never answers
    auto dev = Serve(absl::StrCat(kHelloPrintf, "; exec sleep 600"), absl::Seconds(1));
    ASSERT_NE(dev, nullptr);
    auto r = dev->Run(*BuildDeviceBatch(tc));
    EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
    EXPECT_EQ(r.status().code(), absl::StatusCode::kDeadlineExceeded) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "no answer within 1s of the request"))
        << r.status();
  }
  {  // says hello, then dies
    auto dev = Serve(absl::StrCat(kHelloPrintf, "; echo dying >&2; exit 3"));
    ASSERT_NE(dev, nullptr);
    auto r = dev->Run(*BuildDeviceBatch(tc));
    EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "exit status 3")) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "stderr: dying")) << r.status();
    // The next batch starts a fresh process (which dies the same way).
    auto again = dev->Run(*BuildDeviceBatch(tc));
    EXPECT_TRUE(IsDeviceFault(again.status())) << again.status();
  }
  {  // answers with bytes that are not a frame of the protocol
    auto dev = Serve(absl::StrCat(kHelloPrintf, "; head -c 4 >/dev/null; echo 0x00000001; sleep 600"));
    ASSERT_NE(dev, nullptr);
    auto r = dev->Run(*BuildDeviceBatch(tc));
    EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "malformed answer")) << r.status();
  }
}

TEST(ServeRunnerTest, NoHelloIsAnEnvironmentError) {
  auto eval = OpenServeRunner({.command = "echo 0x00000001", .timeout = absl::Seconds(5), .lanediff_path = ""});
  ASSERT_FALSE(eval.ok());
  EXPECT_EQ(eval.status().code(), absl::StatusCode::kUnavailable);
  auto missing = OpenServeRunner({.command = "/nonexistent/device", .timeout = absl::Seconds(5), .lanediff_path = ""});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(missing.status().message(),
                                "--device=exec-serve:/nonexistent/device: command "
                                "'/nonexistent/device' not found")) << missing.status();
  auto empty = OpenRunner("exec-serve:", {});
  EXPECT_TRUE(absl::StrContains(empty.status().message(), "needs a command")) << empty.status();
}

// `lanediff serve-device` behind exec-serve: the simulator's answers, through a shell (as ssh
// would start it), equal the model's on every target and instruction.
TEST(ServeDeviceTest, SimBehindAShellAgreesWithTheModel) {
  auto dev = Serve(absl::StrCat("sh -c '", kLanediff, " serve-device --device=sim'"));
  ASSERT_NE(dev, nullptr);
  EXPECT_TRUE(absl::StrContains(dev->Describe(), "sim (simulation")) << dev->Describe();
  std::mt19937 rng(13);
  for (const TargetTraits& t : AllTargets()) {
    for (Instr i : kAllInstrs) {
      if (!t.Has(i)) continue;
      const proto::TestCase tc = RandomCase(t, i, rng, 100);
      auto r = dev->Run(*BuildDeviceBatch(tc));
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(r->vdst, ModelAnswer(tc)) << ToText(tc);
      EXPECT_TRUE(absl::StartsWith(r->provenance.device(), "sim")) << r->provenance.device();
    }
  }
}

// The largest batch a device takes (kMaxLanesPerBatch lanes: a 32 MiB request, each lane sent
// resolved and raw) crosses to serve-device and back. 1.0 converts to 1 in byte 0 of src2 = 0.
TEST(ServeDeviceTest, LargestBatchCrosses) {
  auto dev = Serve("lanediff serve-device --device=sim");
  ASSERT_NE(dev, nullptr);
  const proto::TestCase one = *ParseText<proto::TestCase>(
      R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32 lanes { src0: 0x3f800000 })pb", "t");
  absl::StatusOr<DeviceBatch> batch = BuildDeviceBatch(one);
  ASSERT_TRUE(batch.ok()) << batch.status();
  batch->lanes.Resize(kMaxLanesPerBatch);
  for (uint32_t& s0 : batch->lanes.src0()) s0 = 0x3f800000;
  auto r = dev->Run(*batch);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->vdst.size(), kMaxLanesPerBatch);
  EXPECT_EQ(std::count(r->vdst.begin(), r->vdst.end(), 1u), static_cast<long>(kMaxLanesPerBatch));
}

// The whole path of README.md's ssh example (Devices), with a local shell for ssh: a campaign
// against `serve-device --device=sim --inject byte12_swap` finds the erratum (exit 1, a new
// finding).
TEST(ServeDeviceTest, CampaignThroughAShellFindsTheErratum) {
  const std::string dir = TempDir();
  auto r = RunSubprocess(
      {kLanediff, "fuzz", "--quiet", "--seed", "1", "--execs", "400", "--corpus", dir + "/corpus",
       absl::StrCat("--device=exec-serve:sh -c \"", kLanediff,
                    " serve-device --device=sim --inject byte12_swap\"")},
      "", absl::Seconds(600));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(WIFEXITED(r->wait_status) && WEXITSTATUS(r->wait_status) == 1)
      << r->HowItEnded() << "\n" << r->out << r->err;
  const std::string all = r->out + r->err;
  EXPECT_TRUE(absl::StrContains(all, "device        exec-serve:sh -c")) << all;
  EXPECT_TRUE(absl::StrContains(all, "injected byte12_swap")) << all;  // the hello's device
  EXPECT_TRUE(absl::StrContains(all, ", 0 device faults, 0 refused")) << all;
  EXPECT_FALSE(absl::StrContains(all, "findings      0 new")) << all;
  std::filesystem::remove_all(dir);
}

// The end-to-end run: a whole campaign against the Python adapter, in one
// process, its "unsupported" cases counted (not faults, not refusals that stop the run), and
// no disagreement on the cases it implements (it computes what the model computes).
TEST(ServeRunnerTest, CampaignAgainstThePythonAdapterCountsUnsupported) {
  const std::string dir = TempDir();
  const std::string log = dir + "/starts";
  auto r = RunSubprocess(
      {kLanediff, "fuzz", "--quiet", "--seed", "2", "--execs", "300", "--corpus", dir + "/corpus",
       absl::StrCat("--device=exec-serve:echo started >> ", log, "; exec python3 ", kAdapter)},
      "", absl::Seconds(600));
  ASSERT_TRUE(r.ok()) << r.status();
  const std::string all = r->out + r->err;
  EXPECT_TRUE(WIFEXITED(r->wait_status) && WEXITSTATUS(r->wait_status) == 0)
      << r->HowItEnded() << "\n" << all;
  EXPECT_TRUE(absl::StrContains(all, "ran           300 cases")) << all;
  EXPECT_TRUE(absl::StrContains(all, "0 disagreeing cases, 0 device faults, 0 refused")) << all;
  EXPECT_FALSE(absl::StrContains(all, " 0 unsupported by the device")) << all;
  EXPECT_TRUE(absl::StrContains(all, " unsupported by the device")) << all;
  EXPECT_EQ(Lines(log), 1) << "the adapter was started more than once";
  std::filesystem::remove_all(dir);
}

// The device's words (its hello's description, a fault message, a refusal) may hold any bytes:
// they reach lanediff's findings and run records as valid UTF-8 (U+FFFD for a bad byte).
TEST(ServeProtocolTest, TextFromTheDeviceIsMadeUtf8) {
  auto h = DecodeHello(EncodeHello({.device = "gpu\xff", .targets = {}, .instrs = {}}));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->device, "gpu\xef\xbf\xbd");
  auto f = DecodeAnswer(EncodeAnswer(1, DeviceFault("caf\xe9")), 0);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(absl::EndsWith(f->result.status().message(), ": caf\xef\xbf\xbd"))
      << f->result.status();
  auto u = DecodeAnswer(EncodeAnswer(1, Unsupported("\xc3")), 0);
  ASSERT_TRUE(u.ok()) << u.status();
  EXPECT_TRUE(absl::StrContains(u->result.status().message(), "\xef\xbf\xbd"));
}

// The same hello as kHelloPrintf, naming the device with one byte 0xff: length 21.
constexpr char kHelloFfPrintf[] =
    "printf '\\025\\000\\000\\000LDH1\\001\\000\\000\\000\\001\\000\\000\\000\\377"
    "\\000\\000\\000\\000\\000\\000\\000\\000'";

TEST(ServeRunnerTest, HelloDescriptionThatIsNotUtf8IsDescribedAsUtf8) {
  auto dev = Serve(absl::StrCat(kHelloFfPrintf, "; exec cat >/dev/null"));
  ASSERT_NE(dev, nullptr);
  const std::string d = dev->Describe();
  EXPECT_EQ(ValidUtf8Prefix(d), d.size()) << d;
  EXPECT_TRUE(absl::EndsWith(d, ": \xef\xbf\xbd")) << d;
}

long MaxRssKb() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

TEST(ServeRunnerTest, EndlessStderrAtShutdownIsBounded) {
  // At shutdown (stdin closed) the device prints on stderr without end: the 2 s grace period
  // drains it, keeping only its tail; lanediff's peak memory does not grow by what it read
  // (hundreds of MiB in 2 s when every byte was kept).
  const long before = MaxRssKb();
  {
    auto dev = Serve(absl::StrCat(kHelloPrintf, "; cat >/dev/null; exec yes "
                                  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx >&2"));
    ASSERT_NE(dev, nullptr);
  }  // Stop: stdin closed, 2 s of stderr, then the group is killed
  const long grown_kb = MaxRssKb() - before;
  EXPECT_LT(grown_kb, 64 * 1024) << "peak RSS grew by " << grown_kb << " KiB during shutdown";
}

TEST(ServeRunnerTest, NothingTheDeviceStartedOutlivesIt) {
  const std::string dir = TempDir();
  const std::string bg = dir + "/bg", ss = dir + "/ss";
  {
    auto dev = Serve(absl::StrCat(kHelloPrintf, "; sleep 300 </dev/null >/dev/null 2>&1 & echo $! > ",
                                  bg, "; setsid sleep 301 </dev/null >/dev/null 2>&1 & echo $! > ",
                                  ss, "; exec cat >/dev/null"));
    ASSERT_NE(dev, nullptr);
  }  // a normal end: stdin closed, the device exits by itself
  for (const std::string& file : {bg, ss}) {
    const pid_t pid = ReadPid(file);
    ASSERT_GT(pid, 0) << file;
    const bool gone = GoneSoon(pid);
    if (!gone) ::kill(pid, SIGKILL);
    EXPECT_TRUE(gone) << file << ": pid " << pid << " outlived the exec-serve device";
  }
  std::filesystem::remove_all(dir);
}

// A device that starts `sleep 301` outside its process group (setsid; its pid file is written
// after setsid, and the device says hello only once it exists), then answers the first request
// with `then`. Its batch is a DeviceFault saying `fault`; afterwards the setsid child is gone
// and lanediff's warning names it: the kill goes through the guard, where a kill of the whole
// group at once took the guard with it and the child survived unnamed.
void KilledDeviceLeavesNothing(const std::string& then, const std::string& fault) {
  const std::string dir = TempDir();
  const std::string ss = dir + "/ss";
  const proto::TestCase tc = *ParseText<proto::TestCase>(
      R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32 lanes { src0: 0x3f800000 })pb", "t");
  {
    auto dev = Serve(absl::StrCat(SetsidSleeperFirst(ss), kHelloPrintf, "; ", then),
                     absl::Seconds(1));
    ASSERT_NE(dev, nullptr);
    ::testing::internal::CaptureStderr();
    auto r = dev->Run(*BuildDeviceBatch(tc));
    const std::string warnings = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), fault)) << r.status();
    const pid_t pid = ReadPid(ss);
    ASSERT_GT(pid, 0) << "the device never started its setsid child";
    const bool gone = GoneSoon(pid);
    if (!gone) ::kill(pid, SIGKILL);
    EXPECT_TRUE(gone) << "setsid sleep 301 (pid " << pid << ") outlived the killed device";
    EXPECT_TRUE(absl::StrContains(warnings, absl::StrCat("outside its process group (setsid); "
                                                         "killed: ", pid, " ")))
        << warnings;
  }
  std::filesystem::remove_all(dir);
}

TEST(ServeRunnerTest, ADeviceKilledForATimeoutLeavesNoSetsidChild) {
  KilledDeviceLeavesNothing("exec sleep 600", "(timeout); process group killed");
}

TEST(ServeRunnerTest, ADeviceKilledForFloodingItsAnswerLeavesNoSetsidChild) {
  // Once the request has begun (so the flood cannot come with the hello), endless "y\n":
  // "y\ny\n" read as a length prefix is 0x0a790a79 bytes, far past the answer's limit.
  KilledDeviceLeavesNothing("head -c 4 >/dev/null; exec yes", "malformed answer");
}

}  // namespace
}  // namespace lanediff
