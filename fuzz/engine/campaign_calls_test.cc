// A slow external device pays its start-up once per batch (`exec:` starts its command for each
// one), so the campaign must ask it few times: rounds of many cases sharing a launch
// (kExecLaunchLanes), and a finding costs a handful of device calls (the confirmation batches
// of a disagreement in one call, minimization candidates that share a launch in one call, the
// re-run). The device here sleeps 50 ms, then runs `lanediff eval` with six readings
// planted, so findings happen on several rows and targets. Bounded by work (a fixed number of
// cases), never by time: the assertions are counts.
#include <stdlib.h>

#include <fstream>
#include <string>
#include <vector>

#include "fuzz/engine/campaign.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

constexpr char kSlowDevice[] =
    "exec:sleep 0.05; " LANEDIFF_BINARY_DIR
    "/fuzz/lanediff eval --hypothesis pk_u8_rounding=truncate --hypothesis sr_rounding=literal"
    " --hypothesis fp8_nan=sign_preserving --hypothesis cvt16_nan=canonical"
    " --hypothesis mx_pk16_fp6_order=interleaved --hypothesis mx_scale_sel=high2";

TEST(CampaignCalls, SlowExecDeviceGetsRoundsOfCasesAndFindingsCostFewCalls) {
  CampaignOptions o;
  o.device = kSlowDevice;
  o.progress = false;
  o.seed = 2;
  o.max_execs = 640;
  // No corpus: each new signature is minimized once (no extra examples of other shapes), so
  // the calls for triage divided by the new findings is the calls a finding costs.
  std::vector<proto::Finding> found;
  o.on_new_finding = [&](const proto::Finding& f, const std::string&) { found.push_back(f); };
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->execs, 640u);
  EXPECT_EQ(s->device_faults, 0u);
  ASSERT_GE(s->new_findings, 3u) << "the planted readings give findings";
  ASSERT_EQ(found.size(), s->new_findings);
  // Steady state: rounds of 64 cases (kExecLaunchLanes at 1,024 lanes a case), one call each:
  // 640 cases are 10 rounds (an invalid first case makes a round of one, without a call).
  const uint64_t round_calls = s->device_calls - s->triage_device_calls;
  EXPECT_LE(round_calls, 10u);
  EXPECT_GE(s->execs, 32 * round_calls) << "cases per round call";
  // Per new finding: one confirmation call (both kinds together), the minimization (one lane,
  // the sources, two or three for the values, the modifier bits and MODE together: about 6)
  // and the re-run. The minimizer as it was asked one candidate per call: about 34 a finding.
  EXPECT_LE(s->triage_device_calls, 12 * s->new_findings)
      << s->triage_device_calls << " device calls for " << s->new_findings << " new findings";
  // As good as before: one lane each.
  for (const proto::Finding& f : found) {
    EXPECT_EQ(f.testcase().lanes_size(), 1) << f.signature();
  }
  std::printf("%llu cases, %llu device calls (%llu for triage), %llu new findings\n",
              static_cast<unsigned long long>(s->execs), static_cast<unsigned long long>(s->device_calls),
              static_cast<unsigned long long>(s->triage_device_calls),
              static_cast<unsigned long long>(s->new_findings));
}

// A round too large for the per-batch timeout is a hang of the round, not of a case: its cases
// run again one a batch, and later rounds are a quarter as large. The device answers as the
// model does but takes longer than any timeout on more than 4,096 lanes.
TEST(CampaignCalls, RoundsShrinkWhenARoundOutlastsTheTimeout) {
  const std::string dir = ::testing::TempDir() + "calls_shrink_XXXXXX";
  std::string d = dir;
  ASSERT_NE(::mkdtemp(d.data()), nullptr);
  const std::string script = d + "/device.sh";
  {
    std::ofstream f(script);
    f << "f=\"" << d << "/in.$$\"; cat > \"$f\"\n"
      << "if [ \"$(wc -l < \"$f\")\" -gt 4096 ]; then sleep 60; fi\n"
      << LANEDIFF_BINARY_DIR "/fuzz/lanediff eval \"$@\" < \"$f\"; s=$?; rm -f \"$f\"; exit $s\n";
  }
  CampaignOptions o;
  o.device = "exec:sh " + script;
  o.progress = false;
  o.seed = 2;
  o.max_execs = 16;
  o.launch_lanes = 8 * 1024;  // rounds of 8 cases of 1,024 lanes: the first one hangs
  o.batch_timeout_seconds = 5;
  absl::StatusOr<CampaignStats> s = RunCampaign(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->execs, 16u);
  EXPECT_EQ(s->device_faults, 0u) << "the round's hang is nobody's finding";
  EXPECT_EQ(s->disagreeing, 0u);
  // The round of 8 (1 call, a hang), its 8 cases again alone (8), then rounds of 2 cases
  // (2,048 lanes) for the other 8 cases (4): 13.
  EXPECT_LE(s->device_calls, 13u);
  EXPECT_GE(s->device_calls, 9u);
}

}  // namespace
}  // namespace lanediff
