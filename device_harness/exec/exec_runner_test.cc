#include "device_harness/exec/exec_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>

#include <cerrno>
#include <cstdio>
#include <random>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/escaped_child_test_util.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/fault.h"
#include "device_harness/random_case_test_util.h"
#include "device_harness/isolation/sigstop_test_util.h"
#include "gtest/gtest.h"
#include "model/isa/testcase.h"
#include "model/ops/ops.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

const std::string kLanediff = LANEDIFF_BINARY_DIR "/fuzz/lanediff";

std::unique_ptr<Runner> Exec(const std::string& command, absl::Duration timeout = absl::Seconds(30)) {
  auto r = OpenExecRunner({.command = command, .timeout = timeout, .lanediff_path = kLanediff});
  EXPECT_TRUE(r.ok()) << r.status();
  return std::move(*r);
}

std::vector<uint32_t> Model(const proto::TestCase& tc, const Hypotheses& hyp = {}) {
  return testcases::ModelAnswer(tc, hyp);
}

proto::TestCase Random(const TargetTraits& t, Instr instr, std::mt19937& rng, int lanes) {
  return testcases::RandomCase(t, instr, rng, lanes);
}

// One random word (modifiers, MODE, selects) of 600 lanes per (target, instruction): each batch
// starts `lanediff eval` once, so the batch count is the test's cost.
TEST(ExecRunnerTest, LanediffEvalAgreesWithTheModel) {
  auto dev = Exec("lanediff eval");
  EXPECT_EQ(dev->Describe(), "exec:lanediff eval (external model; no hardware)");
  std::mt19937 rng(3);
  size_t lanes = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr i : kAllInstrs) {
      if (!t.Has(i)) continue;
      const proto::TestCase tc = Random(t, i, rng, 600);
      auto r = dev->Run(*BuildDeviceBatch(tc));
      ASSERT_TRUE(r.ok()) << r.status();
      ASSERT_EQ(r->vdst, Model(tc)) << ToText(tc);
      EXPECT_EQ(r->provenance.runner(), "exec:lanediff eval");
      lanes += r->vdst.size();
    }
  }
  std::printf("exec:lanediff eval == model on %zu lanes\n", lanes);
}

TEST(ExecRunnerTest, HypothesisFlagsPassThrough) {
  auto dev = Exec("lanediff eval --hypothesis sr_rounding=literal");
  // docs/semantics.md §6: S0=0x3FFFFFFF, S1=0xFFFFF000, fp8 OCP: 0x39 under `literal`.
  const proto::TestCase tc = *ParseText<proto::TestCase>(
      R"pb(target: "gfx1201" instr: v_cvt_sr_fp8_f32
           lanes { src0: 0x3fffffff src1: 0xfffff000 })pb", "t");
  auto r = dev->Run(*BuildDeviceBatch(tc));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->vdst, std::vector<uint32_t>{0x39});
  std::mt19937 rng(5);
  Hypotheses literal;
  ASSERT_TRUE(SetHypothesis("sr_rounding=literal", &literal).ok());
  const proto::TestCase sample = Random(**FindTarget("gfx950"), Instr::v_cvt_sr_bf8_f32, rng, 500);
  auto s = dev->Run(*BuildDeviceBatch(sample));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->vdst, Model(sample, literal));
}

TEST(ExecRunnerTest, LargeBatchDoesNotDeadlock) {
  // awk answers line by line, so its stdout fills while we are still writing its stdin.
  auto dev = Exec("awk '{print \"0x00000007\"}' #");
  proto::TestCase tc = *ParseText<proto::TestCase>(R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32)pb", "t");
  for (int i = 0; i < 200000; ++i) tc.add_lanes()->set_src0(i);
  auto r = dev->Run(*BuildDeviceBatch(tc));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->vdst.size(), 200000u);
  EXPECT_EQ(r->vdst[199999], 7u);
}

proto::TestCase Small() {
  return *ParseText<proto::TestCase>(
      R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32 lanes { src0: 0x3f800000 }
           lanes { src0: 0x40000000 } lanes { src0: 0x40400000 })pb", "t");
}

struct BadCommand {
  const char* command;
  absl::StatusCode code;
  const char* words;
};

class ExecFaultTest : public ::testing::TestWithParam<BadCommand> {};

TEST_P(ExecFaultTest, IsADeviceFaultWithItsStderr) {
  auto dev = Exec(GetParam().command, absl::Milliseconds(700));
  auto r = dev->Run(*BuildDeviceBatch(Small()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
  EXPECT_EQ(r.status().code(), GetParam().code) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), GetParam().words)) << r.status();
  // The runner survives: a good command on the same process still works afterwards.
  auto good = Exec("lanediff eval")->Run(*BuildDeviceBatch(Small()));
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->vdst, (std::vector<uint32_t>{1, 2, 3}));  // pk_u8 of 1.0, 2.0, 3.0, byte 0
}

// "#" ends the shell command so the appended flags are ignored by these stand-ins.
INSTANTIATE_TEST_SUITE_P(
    Commands, ExecFaultTest,
    ::testing::Values(
        BadCommand{"false #", absl::StatusCode::kUnavailable, "failed: exit status 1"},
        BadCommand{"echo model broke >&2; exit 3 #", absl::StatusCode::kUnavailable,
                   "]; stderr: model broke"},
        BadCommand{"kill -SEGV $$ #", absl::StatusCode::kUnavailable, "signal 11 (SIGSEGV"},
        BadCommand{"cat >/dev/null; echo 0x1; echo 0x2 #", absl::StatusCode::kUnavailable,
                   "printed 2 VDST words for 3 lanes (too few)"},
        BadCommand{"cat >/dev/null; for i in 1 2 3 4; do echo 0; done #",
                   absl::StatusCode::kUnavailable, "printed 4 VDST words for 3 lanes (too many)"},
        BadCommand{"echo 0x1; echo banana; echo 0x3 #", absl::StatusCode::kUnavailable,
                   "stdout line 2 'banana' is not a 32-bit hex word"},
        BadCommand{"echo 0x1; echo 0x123456789; echo 0x3 #", absl::StatusCode::kUnavailable,
                   "stdout line 2 '0x123456789' is not a 32-bit hex word"},
        BadCommand{"echo about to sleep >&2; sleep 30 #", absl::StatusCode::kDeadlineExceeded,
                   "no complete answer within 700ms (timeout); process group killed"},
        // Endless output is cut at 64 KiB + 64 bytes per lane: 65536 + 3 * 64 = 65728.
        BadCommand{"yes 0x1 #", absl::StatusCode::kUnavailable,
                   "printed more than 65728 bytes on stdout for 3 lanes"}));

TEST(ExecRunnerTest, MissingCommandIsAnEnvironmentErrorNotAFault) {
  // A command that is not there is the environment's fault (exit 3), not
  // the device's. Checked when the runner opens ...
  auto open = OpenExecRunner(
      {.command = "/nonexistent/model #", .timeout = absl::Seconds(5), .lanediff_path = ""});
  ASSERT_FALSE(open.ok());
  EXPECT_TRUE(absl::IsUnavailable(open.status())) << open.status();
  EXPECT_FALSE(IsDeviceFault(open.status())) << open.status();
  EXPECT_TRUE(absl::StrContains(open.status().message(), "'/nonexistent/model' not found"))
      << open.status();
  // ... and, for a first word the check cannot see through (quoted), by the shell's 127.
  auto r = Exec("'/nonexistent/model' #")->Run(*BuildDeviceBatch(Small()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::IsUnavailable(r.status())) << r.status();
  EXPECT_FALSE(IsDeviceFault(r.status())) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "cannot be run (exit status 127"))
      << r.status();
}

TEST(ExecRunnerTest, AnswerCompleteAcrossASigstopIsNoHang) {
  // No hang: lanediff is stopped for 2.5 s while its exec device (its own process
  // group, so it runs on) answers; the timeout is 1.5 s. The complete answer is taken.
  const std::string marker = absl::StrCat(::testing::TempDir(), "/exec_marker_", ::getpid());
  std::remove(marker.c_str());
  const std::string cmd =
      absl::StrCat(": > '", marker, "'; sleep 0.2; cat >/dev/null; printf '1\\n2\\n3\\n' #");
  const char c = RunStoppedMidway(marker, /*whole_group=*/false, absl::Milliseconds(2500), [&] {
    auto r = Exec(cmd, absl::Milliseconds(1500))->Run(*BuildDeviceBatch(Small()));
    if (r.ok()) return r->vdst == std::vector<uint32_t>{1, 2, 3} ? 'O' : 'W';
    return absl::IsDeadlineExceeded(r.status()) ? 'H' : 'E';
  });
  std::remove(marker.c_str());
  EXPECT_EQ(c, 'O') << "H: a false hang; E: another error; ?: the command never started";
}

TEST(ExecRunnerTest, TimeoutKeepsStderr) {
  // The timeout leaves a loaded machine seconds to start the shell and write the line.
  auto r = Exec("echo about to sleep >&2; sleep 30 #", absl::Seconds(3))
               ->Run(*BuildDeviceBatch(Small()));
  EXPECT_TRUE(absl::StrContains(r.status().message(), "stderr: about to sleep")) << r.status();
}

TEST(ExecRunnerTest, FlagsAndCommandLine) {
  proto::TestCase tc = *ParseText<proto::TestCase>(
      R"pb(target: "gfx1250" instr: v_cvt_sr_fp8_f32 mode: 0x008000f3
           encoding { opsel: 12 neg: 3 abs: 1 clamp: true omod: 2 } lanes {})pb", "t");
  auto b = BuildDeviceBatch(tc);
  ASSERT_TRUE(b.ok()) << b.status();
  auto d = DecodeDeviceBatch(*b, b->words);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(ExecCommandLine({.command = "lanediff eval -x", .timeout = absl::Seconds(1), .lanediff_path = "/p/lane diff"}, *d),
            "'/p/lane diff' eval -x --targets gfx1250 --instrs v_cvt_sr_fp8_f32 --opsel 12 --neg 3 "
            "--abs 1 --clamp --omod 2 --mode 0x008000f3");
  EXPECT_EQ(ExecCommandLine({.command = "lanediffx", .timeout = absl::Seconds(1), .lanediff_path = ""}, *d).substr(0, 10), "lanediffx ");
}

TEST(SubprocessTest, ShellQuoteRoundTripsThroughSh) {
  // Each word, quoted, comes back from /bin/sh byte for byte and runs nothing.
  const std::vector<std::string> words = {"plain-word_1.2:/x=y", "a b", "it's", "$(touch x)",
                                          "`x`", "", "tab\tnew\nline", "\\ \"q\" *"};
  for (const std::string& w : words) {
    auto r = RunSubprocess({"/bin/sh", "-c", "printf %s " + ShellQuote(w)}, "", absl::Seconds(30));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->out, w) << ShellQuote(w);
  }
  EXPECT_EQ(ShellQuote("plain-word"), "plain-word");  // readable when nothing needs quoting
  EXPECT_EQ(ShellJoin({"a", "b c"}), "a 'b c'");
}

TEST(SubprocessTest, DeathOfTheCallerKillsTheCommandsWholeGroup) {
  // No orphan: a helper runs `sh -c 'sleep 600 & echo $! > PIDFILE; wait'` and is
  // SIGKILLed once the pid file exists. The guard kills the command's whole group, the
  // backgrounded grandchild included: nothing is orphaned.
  const std::string pidfile = absl::StrCat(::testing::TempDir(), "/orphan_pid_", ::getpid());
  std::remove(pidfile.c_str());
  const pid_t helper = ::fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    (void)RunSubprocess({"/bin/sh", "-c", "sleep 600 & echo $! > '" + pidfile + ".tmp'; mv '" +
                                              pidfile + ".tmp' '" + pidfile + "'; wait"},
                        "", absl::Seconds(600));
    _exit(0);
  }
  std::string pid_text;
  for (int i = 0; i < 60000 && pid_text.empty(); ++i) {
    if (FILE* f = std::fopen(pidfile.c_str(), "r")) {
      char buf[32] = {};
      if (std::fgets(buf, sizeof buf, f) != nullptr) pid_text = buf;
      std::fclose(f);
    }
    if (pid_text.empty()) ::usleep(1000);
  }
  ASSERT_FALSE(pid_text.empty()) << "the command never started";
  const pid_t sleeper = static_cast<pid_t>(std::stol(pid_text));
  ::kill(helper, SIGKILL);
  int st = 0;
  ::waitpid(helper, &st, 0);
  const bool gone = GoneSoon(sleeper, 30);
  if (!gone) ::kill(sleeper, SIGKILL);
  std::remove(pidfile.c_str());
  EXPECT_TRUE(gone) << "sleep 600 (pid " << sleeper << ") outlived lanediff";
}

TEST(SubprocessTest, TruncateMiddleKeepsHeadAndTail) {
  const std::string s = std::string(5000, 'a') + "END";
  const std::string t = TruncateMiddle(s, 100);
  EXPECT_TRUE(absl::StartsWith(t, std::string(50, 'a')));
  EXPECT_TRUE(absl::EndsWith(t, "END"));
  EXPECT_TRUE(absl::StrContains(t, "[... 4903 bytes elided ...]")) << t;
}

TEST(SubprocessTest, NothingTheCommandStartedOutlivesTheCall) {
  // A background job in the command's group, and one that left it with setsid: both are gone
  // when RunSubprocess returns (bounded wait: init reaps them), and the second is named.
  const std::string dir = ::testing::TempDir();
  const std::string bg = absl::StrCat(dir, "/bg_pid_", ::getpid());
  const std::string ss = absl::StrCat(dir, "/setsid_pid_", ::getpid());
  // The command ends only once the second has left the group (its pid file is written after
  // setsid), so that one has escaped when the command ends.
  std::remove(ss.c_str());
  auto r = RunSubprocess(
      {"/bin/sh", "-c",
       "sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '" + bg + "'; " + SetsidSleeperFirst(ss) +
           "echo done"},
      "", absl::Seconds(60));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->exited_ok()) << r->HowItEnded();
  EXPECT_EQ(r->out, "done\n");
  const pid_t a = ReadPid(bg), b = ReadPid(ss);
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  const bool a_gone = GoneSoon(a), b_gone = GoneSoon(b);
  if (!a_gone) ::kill(a, SIGKILL);
  if (!b_gone) ::kill(b, SIGKILL);
  EXPECT_TRUE(a_gone) << "background sleep 300 (pid " << a << ") outlived the call";
  EXPECT_TRUE(b_gone) << "setsid sleep 301 (pid " << b << ") outlived the call";
  // Named by pid and name ("setsid", or "sleep" once setsid(1) has exec'd it).
  EXPECT_TRUE(absl::StartsWith(r->escaped, absl::StrCat(b, " "))) << r->escaped;
  EXPECT_FALSE(absl::StrContains(r->escaped, absl::StrCat(a, " "))) << r->escaped;
}

// A device that first starts `sleep 301` outside its process group (SetsidSleeperFirst), then
// does `then` (the batch file lanediff appends is commented out).
std::string EscapeThen(const std::string& pidfile, const std::string& then) {
  return SetsidSleeperFirst(pidfile) + then + " #";
}

// Runs one batch on `device` that ends in a DeviceFault saying `fault`; the setsid child it
// started is gone afterwards and is named in lanediff's warning.
void KilledBatchLeavesNothing(const std::string& pidfile, const std::string& device,
                              absl::Duration timeout, const std::string& fault) {
  ::testing::internal::CaptureStderr();
  auto r = Exec(device, timeout)->Run(*BuildDeviceBatch(Small()));
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), fault)) << r.status();
  const pid_t escaped = ReadPid(pidfile);
  std::remove(pidfile.c_str());
  ASSERT_GT(escaped, 0) << "the device never started its setsid child";
  const bool gone = GoneSoon(escaped);
  if (!gone) ::kill(escaped, SIGKILL);
  EXPECT_TRUE(gone) << "setsid sleep 301 (pid " << escaped << ") outlived the killed batch";
  EXPECT_TRUE(absl::StrContains(warnings, absl::StrCat("outside its process group (setsid); "
                                                       "killed: ", escaped, " ")))
      << warnings;
}

TEST(ExecRunnerTest, ABatchKilledForATimeoutLeavesNoSetsidChild) {
  // The kill on timeout goes through the guard, which names and kills the escaped child (a
  // kill of the whole group at once took the guard with it, and the child survived unnamed).
  // 5 s: the device's start (a few processes) must come before the timeout on a busy machine.
  const std::string pidfile = absl::StrCat(::testing::TempDir(), "/hang_setsid_", ::getpid());
  std::remove(pidfile.c_str());
  KilledBatchLeavesNothing(pidfile, EscapeThen(pidfile, "exec sleep 300"), absl::Seconds(5),
                           "(timeout); process group killed");
}

TEST(ExecRunnerTest, ABatchKilledForFloodingStdoutLeavesNoSetsidChild) {
  const std::string pidfile = absl::StrCat(::testing::TempDir(), "/flood_setsid_", ::getpid());
  std::remove(pidfile.c_str());
  KilledBatchLeavesNothing(pidfile, EscapeThen(pidfile, "exec yes"), absl::Seconds(60),
                           "bytes on stdout for 3 lanes");
}

TEST(SubprocessTest, ShellQuoteGivesBackBytesThatAreNotUtf8AsUtf8Text) {
  // A Latin-1 file name: the quoted form is ASCII (it is stored in text files) and /bin/sh
  // gives back the exact bytes.
  for (const std::string w : {"r\xe9sultats", "\xff", "a'\xe9'b", "x\xc3"}) {
    const std::string q = ShellQuote(w);
    EXPECT_EQ(ValidUtf8Prefix(q), q.size()) << q;
    auto r = RunSubprocess({"/bin/sh", "-c", "printf %s " + q}, "", absl::Seconds(30));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->out, w) << q;
  }
  EXPECT_EQ(ShellQuote("caf\xc3\xa9 x"), "'caf\xc3\xa9 x'");  // valid UTF-8 stays as it is
}

TEST(ExecRunnerTest, StderrThatIsNotUtf8OrIsCutBecomesValidUtf8) {
  // Latin-1 stderr: the byte becomes U+FFFD in the fault message (which a finding stores).
  auto latin1 = Exec("printf 'caf\\351\\n' >&2; exit 1 #")->Run(*BuildDeviceBatch(Small()));
  ASSERT_FALSE(latin1.ok());
  const std::string m(latin1.status().message());
  EXPECT_EQ(ValidUtf8Prefix(m), m.size()) << m;
  EXPECT_TRUE(absl::StrContains(m, "stderr: caf\xef\xbf\xbd")) << m;
  // 3000 lines of U+00E9 (2 bytes) and a newline: 9000 bytes, cut to 4096 in the middle.
  // The tail starts at byte 9000 - 2048 = 6952 = 3 * 2317 + 1, the second byte of an e-acute:
  // a byte-exact cut would split it. Neither cut may, so no U+FFFD appears.
  auto longer = Exec("yes '\303\251' | head -n 3000 >&2; exit 1 #")->Run(*BuildDeviceBatch(Small()));
  ASSERT_FALSE(longer.ok());
  const std::string l(longer.status().message());
  EXPECT_EQ(ValidUtf8Prefix(l), l.size());
  EXPECT_TRUE(absl::StrContains(l, "bytes elided")) << l.substr(0, 300);
  EXPECT_FALSE(absl::StrContains(l, "\xef\xbf\xbd")) << "a character was split";
}

TEST(SubprocessTest, TruncateMiddleCutsOnCharacterBoundaries) {
  std::string s;
  for (int i = 0; i < 100; ++i) s += "\xe2\x82\xac";  // the euro sign, 3 bytes: 300 bytes
  const std::string t = TruncateMiddle(s, 100);   // half = 50 = 3 * 16 + 2: inside a character
  EXPECT_EQ(ValidUtf8Prefix(t), t.size());
  EXPECT_TRUE(absl::StartsWith(t, s.substr(0, 48)));  // 16 whole characters
  EXPECT_TRUE(absl::StrContains(t, "[... 204 bytes elided ...]")) << t;  // 300 - 48 - 48
}

}  // namespace
}  // namespace lanediff
