// `lanediff devices` and `lanediff record`, through the built binary: record the seed tables on
// the simulator, replay that recording into a second one, and get the same words back.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/replay/recording_io.h"
#include "device_harness/sim/errata.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

namespace fs = std::filesystem;
const std::string kLanediff = LANEDIFF_BINARY_DIR "/fuzz/lanediff";
const std::string kSeeds = LANEDIFF_SOURCE_DIR "/corpus/seeds";

SubprocessResult Lanediff(std::vector<std::string> args) {
  args.insert(args.begin(), kLanediff);
  absl::StatusOr<SubprocessResult> r = RunSubprocess(args, "", absl::Seconds(120));
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

int ExitCode(const SubprocessResult& r) { return WIFEXITED(r.wait_status) ? WEXITSTATUS(r.wait_status) : -1; }

TEST(CliTest, DevicesListsTheSimulatorAndEveryErratum) {
  SubprocessResult r = Lanediff({"devices"});
  EXPECT_EQ(ExitCode(r), 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "HIP devices")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "ISA simulator (--device=sim): a simulation, no hardware"));
  for (const ErratumInfo& e : AllErrata()) {
    EXPECT_TRUE(absl::StrContains(r.out, absl::StrCat("  ", e.name, " "))) << e.name;
  }
}

TEST(CliTest, RecordThenReplayReproducesBitForBit) {
  const fs::path dir = fs::temp_directory_path() / absl::StrCat("lanediff_cli_test_", ::getpid());
  fs::create_directories(dir);
  const std::string first = (dir / "sim.textproto").string();
  const std::string second = (dir / "replayed.pb").string();
  SubprocessResult rec = Lanediff({"record", "--device=sim", "--inject", "garbage_lane",
                                   "--out", first, kSeeds});
  ASSERT_EQ(ExitCode(rec), 0) << rec.out << rec.err;
  SubprocessResult rep =
      Lanediff({"record", "--device=replay:" + first, "--out", second, kSeeds});
  ASSERT_EQ(ExitCode(rep), 0) << rep.out << rep.err;
  auto a = ReadRecordingFile(first);
  auto b = ReadRecordingFile(second);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_GT(a->entries_size(), 0);
  ASSERT_EQ(a->entries_size(), b->entries_size());
  int lanes = 0;
  for (int i = 0; i < a->entries_size(); ++i) {
    ASSERT_EQ(a->entries(i).observation().vdst_size(), b->entries(i).observation().vdst_size());
    for (int j = 0; j < a->entries(i).observation().vdst_size(); ++j, ++lanes) {
      EXPECT_EQ(a->entries(i).observation().vdst(j), b->entries(i).observation().vdst(j));
    }
    EXPECT_EQ(b->entries(i).observation().provenance().device(), "simulation (no hardware)");
  }
  std::printf("recorded and replayed %d batches, %d lanes bit for bit\n", a->entries_size(), lanes);
  fs::remove_all(dir);
}

// `record --allow-undefined`: a case over GFX9's constant-bus limit (two SGPRs) is refused
// without the flag (exit 1, named) and recorded with it; the recording answers a replay device
// only for a batch that allows it. Expected VDST by hand: u8(2.0) = 2 into byte s21 = 1 of
// v3 = 0x11223344 -> 0x11220244.
TEST(CliTest, RecordRunsAnUndefinedBySpecWordOnlyWithAllowUndefined) {
  const fs::path dir = fs::temp_directory_path() / absl::StrCat("lanediff_cli_undef_", ::getpid());
  fs::create_directories(dir);
  const std::string tc = (dir / "bus.textproto").string();
  std::ofstream(tc) << R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
      encoding { src0 { kind: SOURCE_SGPR value: 0x40000000 } src1 { kind: SOURCE_SGPR value: 1 } }
      lanes { src2: 0x11223344 })pb";
  const std::string out = (dir / "rec.textproto").string();
  SubprocessResult no = Lanediff({"record", "--device=sim", "--out", out, tc});
  EXPECT_EQ(ExitCode(no), 1) << no.out << no.err;
  EXPECT_TRUE(absl::StrContains(no.err, "undefined by spec on gfx942: constant bus: 2 distinct "
                                        "SGPR/literal reads, GFX9 allows 1; not run (--allow-undefined runs it)"))
      << no.err;
  SubprocessResult yes = Lanediff({"record", "--device=sim", "--allow-undefined", "--out", out, tc});
  ASSERT_EQ(ExitCode(yes), 0) << yes.out << yes.err;
  auto rec = ReadRecordingFile(out);
  ASSERT_TRUE(rec.ok()) << rec.status();
  ASSERT_EQ(rec->entries_size(), 1);
  ASSERT_EQ(rec->entries(0).observation().vdst_size(), 1);
  EXPECT_EQ(rec->entries(0).observation().vdst(0), 0x11220244u);
  const std::string again = (dir / "again.textproto").string();
  EXPECT_EQ(ExitCode(Lanediff({"record", "--device=replay:" + out, "--out", again, tc})), 1);
  EXPECT_EQ(ExitCode(Lanediff({"record", "--device=replay:" + out, "--allow-undefined", "--out", again, tc})), 0);
  fs::remove_all(dir);
}

TEST(CliTest, AutoSaysSimulatorOnItsFirstLineAndHipFailsWithExitCode3) {
  const fs::path out = fs::temp_directory_path() / absl::StrCat("lanediff_cli_auto_", ::getpid(), ".pb");
  SubprocessResult hip = Lanediff({"record", "--device=hip", "--out", out.string(), kSeeds});
  if (ExitCode(hip) == 0) GTEST_SKIP() << "an AMD GPU is visible: nothing to fall back from";
  EXPECT_EQ(ExitCode(hip), 3) << hip.err;
  EXPECT_TRUE(absl::StrContains(hip.err, "no AMD GPU is visible")) << hip.err;
  SubprocessResult autodev = Lanediff({"record", "--device=auto", "--out", out.string(), kSeeds});
  EXPECT_EQ(ExitCode(autodev), 0) << autodev.err;
  EXPECT_TRUE(absl::StartsWith(autodev.out, "lanediff: --device=auto: no usable AMD GPU, so using "
                                            "the ISA simulator (a simulation, no hardware)"))
      << autodev.out;
  fs::remove(out);
}

}  // namespace
}  // namespace lanediff
