// Hostile devices, paths and users: bytes lanediff did not make (a device's stderr, a path, a
// --reason) and processes it did not start (a device's background jobs), attacked through the
// built `lanediff` binary as a lab would. Each case checks that nothing is lost: every stored
// finding loads again, replays, and triages; the known-issues file keeps every acceptance;
// nothing a device starts outlives its batch.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/reliability/subprocess.h"
#include "gtest/gtest.h"
#include "proto/file_io.h"
#include "proto/lanediff.pb.h"
#include "proto/text_format.h"

namespace lanediff::reliability {
namespace {

void WriteScript(const std::string& path, const std::string& body) {
  WriteRaw(path, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
}

bool IsUtf8(const std::string& s) { return ValidUtf8Prefix(s) == s.size(); }

// Processes whose command line holds `needle`.
int ProcessesMentioning(const std::string& needle) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // The process may end while it is read (ESRCH): it then counts as gone.
    absl::StatusOr<std::string> cmd = ReadFile((e.path() / "cmdline").string());
    if (cmd.ok() && cmd->find(needle) != std::string::npos) ++n;
  }
  return n;
}

TEST(HostileDevice, StderrThatIsNotUtf8OrLongIsStoredAsAFindingThatLoads) {
  // Latin-1 at the head of stderr, then 9000 bytes of e-acute (2 bytes) and newlines, which the
  // 4 KiB kept are cut from: the DEVICE_FAULT finding must load, and the next campaign on the
  // corpus must run (it stopped with exit 3 on the unloadable file).
  const std::string root = MakeTempDir("dev_stderr");
  const std::string dev = root + "/device.sh";
  WriteScript(dev, "printf 'caf\\351: ' >&2\nyes '\xc3\xa9' | head -n 3000 >&2\nexit 1\n");
  for (int run = 0; run < 2; ++run) {
    ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=exec:" + dev, "--targets",
                               "gfx942", "--execs", "3", "--lanes-per-batch", "4", "--quiet",
                               "--corpus", root + "/corpus"});
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << "run " << run << ": " << r.err;
  }
  CorpusLoad load = LoadCorpus({root + "/corpus/findings"});
  for (const std::string& e : load.errors) ADD_FAILURE() << e;
  ASSERT_GE(load.findings.size(), 1u);
  for (const LoadedFinding& lf : load.findings) {
    EXPECT_EQ(lf.finding.kind(), proto::Finding::DEVICE_FAULT) << lf.path;
    EXPECT_TRUE(absl::StrContains(lf.finding.fault(), "caf\xef\xbf\xbd: ")) << lf.finding.fault();
    EXPECT_TRUE(absl::StrContains(lf.finding.fault(), "\xc3\xa9\n\xc3\xa9")) << lf.path;
  }
  ProcResult check = RunProcess({LanediffPath(), "corpus", "check", root + "/corpus"});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST(HostileDevice, BackgroundJobsOfAnExecDeviceDieWithTheirBatch) {
  // Each batch starts a background sleep (holding none of the pipes) and exits: nothing of it
  // may be left running once the campaign ends.
  const std::string root = MakeTempDir("dev_bg");
  const std::string dev = root + "/device.sh";
  // The batch ends only once the second has left the group (it writes its ready file after
  // setsid), so that it has escaped by then and must be named.
  // Durations unique to this test process, so its sleeps are told from any other's.
  const std::string in_group = absl::StrCat("2998.", ::getpid());
  const std::string escaped = absl::StrCat("2999.", ::getpid());
  WriteScript(dev, "sleep " + in_group + " </dev/null >/dev/null 2>&1 &\n"
                   "setsid sh -c ': > \"$0\"; exec sleep " + escaped + "' \"$0.ready.$$\" "
                   "</dev/null >/dev/null 2>&1 &\n"
                   "while [ ! -e \"$0.ready.$$\" ]; do sleep 0.01; done\nexit 1\n");
  ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=exec:" + dev, "--targets",
                             "gfx942", "--execs", "2", "--lanes-per-batch", "4", "--quiet",
                             "--corpus", root + "/corpus"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "outside its process group (setsid); killed:")) << r.err;
  int left = 0;
  for (int i = 0; i < 2000; ++i) {  // SIGKILLed: gone once init reaps them (bounded wait)
    const std::string sleep0("sleep\0", 6);  // cmdline: the words, each ended by NUL
    left = ProcessesMentioning(sleep0 + in_group) + ProcessesMentioning(sleep0 + escaped);
    if (left == 0) break;
    ::usleep(10000);
  }
  EXPECT_EQ(left, 0) << "background sleeps of the device outlived the campaign";
}

class LatinPathCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    corpus_ = MakeTempDir("latin") + "/r\xe9sultats";
    ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--inject", "sr_wrap",
                               "--targets", "gfx942", "--execs", "300", "--lanes-per-batch", "64",
                               "--seed", "3", "--quiet", "--corpus", corpus_});
    ASSERT_EQ(r.exit_code, 1) << r.err;  // 1: new findings stored
  }
  std::string corpus_;
};

TEST_F(LatinPathCorpus, FindingsLoadAndTheirReproLineReproduces) {
  CorpusLoad load = LoadCorpus({corpus_ + "/findings"});
  for (const std::string& e : load.errors) ADD_FAILURE() << e;
  ASSERT_GE(load.findings.size(), 1u);
  const std::string repro = load.findings[0].finding.repro();
  EXPECT_TRUE(IsUtf8(repro)) << repro;
  ASSERT_TRUE(absl::StartsWith(repro, "lanediff replay ")) << repro;
  // The line as a user pastes it into a shell, with this build's binary for `lanediff`.
  ProcResult r =
      RunProcess({"/bin/sh", "-c", absl::StrCat("'", LanediffPath(), "'", repro.substr(8))});
  EXPECT_EQ(r.exit_code, 0) << repro << "\n" << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "1 reproduced, 0 did not")) << r.out << r.err;
}

TEST(HostileDevice, TriageJsonOfALatin1PathIsValidUtf8) {
  // Findings stored under a plain name, then the corpus renamed to a Latin-1 one: the findings
  // load, and each line of `triage --json` (which carries the example's path) is valid JSON
  // text, the bad byte escaped as U+FFFD by the one JSON writer.
  const std::string top = MakeTempDir("latin_json");
  ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--inject", "sr_wrap",
                             "--targets", "gfx942", "--execs", "300", "--lanes-per-batch", "64",
                             "--seed", "3", "--quiet", "--corpus", top + "/plain"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string corpus = top + "/r\xe9sultats";
  std::filesystem::rename(top + "/plain", corpus);
  ProcResult t = RunProcess({LanediffPath(), "triage", "--json", corpus});
  EXPECT_EQ(t.exit_code, 1) << t.err;  // NEW buckets
  ASSERT_FALSE(t.out.empty()) << t.err;
  for (absl::string_view line : absl::StrSplit(t.out, '\n', absl::SkipEmpty())) {
    EXPECT_TRUE(IsUtf8(std::string(line))) << line;
    EXPECT_TRUE(absl::StartsWith(line, "{") && absl::EndsWith(line, "}")) << line;
    EXPECT_TRUE(absl::StrContains(line, "r\\ufffdsultats")) << line;  // the path, escaped
  }
}

TEST_F(LatinPathCorpus, AReasonThatCannotBeStoredIsRefusedBeforeAnythingIsWritten) {
  const std::string known = corpus_ + "/known_issues.textproto";
  ProcResult r = RunProcess({LanediffPath(), "triage", corpus_, "--accept",
                             "v_cvt_sr_fp8_f32.some_cause", "--reason", "caf\xe9"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "--reason holds bytes that are not UTF-8")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(known));
  ProcResult later = RunProcess({LanediffPath(), "triage", corpus_});
  EXPECT_EQ(later.exit_code, 1) << later.err;  // NEW buckets; 3 was "file unreadable"
}

TEST_F(LatinPathCorpus, ASignatureThatCannotBeStoredIsRefusedBeforeAnythingIsWritten) {
  // The signature is stored in the known-issues file as it is typed; one that is not UTF-8
  // would make that file unloadable, so it is refused (usage, exit 2) and nothing is written,
  // not even the lock file. The bad byte is \xe9 after "v_cvt_sr_fp8_f32.caf" (16 + 1 + 3 = 20
  // bytes), so the message counts it as byte 21.
  const std::string known = corpus_ + "/known_issues.textproto";
  ProcResult r = RunProcess({LanediffPath(), "triage", corpus_, "--accept",
                             "v_cvt_sr_fp8_f32.caf\xe9", "--reason", "a plain reason"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "--accept holds bytes that are not UTF-8 (byte 21)"))
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(known));
  EXPECT_FALSE(std::filesystem::exists(corpus_ + "/.known_issues.textproto.lock"));
  ProcResult later = RunProcess({LanediffPath(), "triage", corpus_});
  EXPECT_EQ(later.exit_code, 1) << later.err;  // NEW buckets; 3 would be "file unreadable"
}

TEST_F(LatinPathCorpus, ConcurrentAcceptsAreAllKept) {
  constexpr int kN = 12;
  std::vector<Spawned> running;
  for (int i = 0; i < kN; ++i) {
    running.push_back(Spawn({LanediffPath(), "triage", corpus_, "--accept",
                             absl::StrCat("v_cvt_sr_fp8_f32.cause_", i), "--reason",
                             absl::StrCat("reason ", i)}));
  }
  for (Spawned& s : running) {
    ProcResult r = Finish(s, "");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  absl::StatusOr<std::string> text = ReadFile(corpus_ + "/known_issues.textproto");
  ASSERT_TRUE(text.ok()) << text.status();
  auto known = ParseText<proto::KnownIssues>(*text, "known_issues.textproto");
  ASSERT_TRUE(known.ok()) << known.status();
  EXPECT_EQ(known->issue_size(), kN) << *text;
}

}  // namespace
}  // namespace lanediff::reliability
