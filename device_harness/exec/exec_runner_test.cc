#include "device_harness/exec/exec_runner.h"

#include <random>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/fault.h"
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
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
  EXPECT_TRUE(rc.ok()) << rc.status();
  rc->ctx.hyp = hyp;
  std::vector<uint32_t> out(rc->lanes.size());
  EXPECT_TRUE(Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(out)).ok());
  return out;
}

proto::TestCase Random(const TargetTraits& t, Instr instr, std::mt19937& rng, int lanes) {
  proto::TestCase tc;
  tc.set_target(std::string(t.name));
  tc.set_instr(static_cast<proto::Instruction>(static_cast<int>(instr) + 1));
  proto::Encoding* e = tc.mutable_encoding();
  e->set_opsel(rng() % 16);
  e->set_neg(rng() % 8);
  e->set_abs(rng() % 8);
  e->set_clamp(rng() % 2);
  e->set_omod(rng() % 4);
  if (rng() % 4 == 0) {  // an SGPR source: resolved to its value on the exec pipe
    e->mutable_src0()->set_kind(proto::SOURCE_SGPR);
    e->mutable_src0()->set_value(rng());
  }
  const uint32_t modes[] = {0xf0, 0xf3, 0x8000f0, 0x00};
  tc.set_mode(modes[rng() % 4]);
  for (int i = 0; i < lanes; ++i) {
    proto::Lane* l = tc.add_lanes();
    l->set_src0(rng());
    l->set_src1(rng());
    l->set_src2(rng());
    l->set_vdst_old(rng());
  }
  return tc;
}

TEST(ExecRunnerTest, LanediffEvalAgreesWithTheModel) {
  auto dev = Exec("lanediff eval");
  EXPECT_EQ(dev->Describe(), "exec:lanediff eval (external model; no hardware)");
  std::mt19937 rng(3);
  size_t lanes = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr i : kAllInstrs) {
      if (!t.Has(i)) continue;
      for (int b = 0; b < 3; ++b) {
        const proto::TestCase tc = Random(t, i, rng, 200);
        auto r = dev->Run(*BuildDeviceBatch(tc));
        ASSERT_TRUE(r.ok()) << r.status();
        ASSERT_EQ(r->vdst, Model(tc)) << ToText(tc);
        EXPECT_EQ(r->provenance.runner(), "exec:lanediff eval");
        lanes += r->vdst.size();
      }
    }
  }
  std::printf("exec:lanediff eval == model on %zu lanes\n", lanes);
}

TEST(ExecRunnerTest, HypothesisFlagsPassThrough) {
  auto dev = Exec("lanediff eval --hypothesis sr_rounding=literal");
  // SEMANTICS.md §6: S0=0x3FFFFFFF, S1=0xFFFFF000, fp8 OCP: 0x39 under `literal`.
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
        BadCommand{"/nonexistent/model #", absl::StatusCode::kUnavailable, "exit status 127"}));

TEST(ExecRunnerTest, TimeoutKeepsStderr) {
  auto r = Exec("echo about to sleep >&2; sleep 30 #", absl::Milliseconds(300))
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
  EXPECT_EQ(ExecCommandLine({.command = "lanediff eval -x", .timeout = absl::Seconds(1), .lanediff_path = "/p/lanediff"}, *d),
            "'/p/lanediff' eval -x --target gfx1250 --instr v_cvt_sr_fp8_f32 --opsel 12 --neg 3 "
            "--abs 1 --clamp --omod 2 --mode 0x008000f3");
  EXPECT_EQ(ExecCommandLine({.command = "lanediffx", .timeout = absl::Seconds(1), .lanediff_path = ""}, *d).substr(0, 10), "lanediffx ");
}

TEST(SubprocessTest, TruncateMiddleKeepsHeadAndTail) {
  const std::string s = std::string(5000, 'a') + "END";
  const std::string t = TruncateMiddle(s, 100);
  EXPECT_TRUE(absl::StartsWith(t, std::string(50, 'a')));
  EXPECT_TRUE(absl::EndsWith(t, "END"));
  EXPECT_TRUE(absl::StrContains(t, "[... 4903 bytes elided ...]")) << t;
}

}  // namespace
}  // namespace lanediff
