// Nothing lost on faults, through the built `lanediff` binary:
//  - a finding is on disk, complete, before its "new finding:" line is printed;
//  - SIGKILL of a campaign (one process or --jobs 2) at random moments never leaves a partial
//    or corrupt finding, never changes a stored example, and a restart resumes: it dedups
//    against what is stored (no second file, no "NEW" for a stored signature) and adds its
//    counts to the stored ones;
//  - a full disk (a 64 KiB tmpfs) fails the write, says so, stores nothing partial, and the
//    same run after space is freed stores the finding;
//  - a device that crashes or hangs (the simulator's fault errata, isolated) gives
//    DEVICE_FAULT findings and the campaign runs every requested case; killing a campaign
//    while its device hangs leaves no orphan device process.
// Compiled twice: the default test and, with LANEDIFF_SOAK, the long soak (LABELS slow).
#include <sched.h>
#include <sys/syscall.h>
#include <sys/mount.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/reliability/subprocess.h"
#include "gtest/gtest.h"
#include "proto/lanediff.pb.h"
#include "proto/text_format.h"

#ifndef LANEDIFF_SOAK
#define LANEDIFF_SOAK 0
#endif

namespace lanediff::reliability {
namespace {

constexpr int kKillIterations = LANEDIFF_SOAK ? 400 : 20;

std::vector<std::string> FuzzArgs(const std::string& corpus, uint64_t seed,
                                  std::vector<std::string> extra) {
  std::vector<std::string> a = {LanediffPath(), "fuzz",    "--device=sim", "--inject",
                                "sr_wrap",      "--inject", "u8_truncate", "--inject",
                                "nan_sign",     "--inject", "byte12_swap", "--lanes-per-batch",
                                "64",           "--quiet",  "--seed",      absl::StrCat(seed),
                                "--corpus",     corpus};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// What `lanediff fuzz` printed in its summary.
struct Summary {
  uint64_t new_findings = 0, repeats = 0, cases = 0;
  std::set<std::string> new_sigs, seen_sigs;
};
Summary ParseSummary(const std::string& err) {
  Summary s;
  for (absl::string_view line : absl::StrSplit(err, '\n')) {
    absl::string_view l = absl::StripLeadingAsciiWhitespace(line);
    if (absl::ConsumePrefix(&l, "findings")) {
      std::vector<std::string> w = absl::StrSplit(absl::StripLeadingAsciiWhitespace(l), ' ');
      // "N new, M signatures seen, R repeats ..."
      if (w.size() >= 6) {
        (void)absl::SimpleAtoi(w[0], &s.new_findings);
        (void)absl::SimpleAtoi(w[5], &s.repeats);
      }
    } else if (absl::ConsumePrefix(&l, "ran")) {
      (void)absl::SimpleAtoi(
          std::string(absl::StripLeadingAsciiWhitespace(l)).substr(
              0, absl::StripLeadingAsciiWhitespace(l).find(' ')),
          &s.cases);
    } else if (absl::ConsumePrefix(&l, "NEW ")) {
      s.new_sigs.insert(std::string(absl::StripAsciiWhitespace(l)));
    } else if (absl::ConsumePrefix(&l, "seen ")) {
      s.seen_sigs.insert(std::string(absl::StripAsciiWhitespace(l)));
    }
  }
  return s;
}

// Every finding under `findings`: signature -> (path, finding). Fails the test on any file that
// does not load, or a file whose name is not its signature.
std::map<std::string, LoadedFinding> LoadAll(const std::string& findings) {
  CorpusLoad load = LoadCorpus({findings});
  for (const std::string& e : load.errors) ADD_FAILURE() << "corrupt corpus file: " << e;
  std::map<std::string, LoadedFinding> out;
  for (LoadedFinding& lf : load.findings) {
    EXPECT_TRUE(absl::EndsWith(lf.path, "/" + lf.finding.signature() + ".textproto")) << lf.path;
    EXPECT_TRUE(out.find(lf.finding.signature()) == out.end())
        << "two files for " << lf.finding.signature();
    out[lf.finding.signature()] = std::move(lf);
  }
  return out;
}

uint64_t SumCounts(const std::map<std::string, LoadedFinding>& m) {
  uint64_t n = 0;
  for (const auto& [sig, lf] : m) n += lf.finding.count();
  return n;
}

void KillGroup(pid_t pid) {
  ::kill(-pid, SIGKILL);  // the process group Spawn() made: the campaign and its workers
  ::kill(pid, SIGKILL);
}

TEST(Faults, FindingIsOnDiskBeforeItIsReported) {
  // Kill the campaign the instant its k-th "new finding:" line arrives: that finding, and every
  // earlier one, must be complete on disk.
  int checked = 0, strays = 0;
  for (int round = 0; round < 6; ++round) {
    const std::string root = MakeTempDir("durable");
    const int k = 1 + round % 3;
    Spawned s = Spawn(FuzzArgs(root, 11 + round, {"--time", "60"}));
    std::vector<std::string> sigs;
    std::string log;
    for (int i = 0; i < k; ++i) {
      bool found = false;
      log += ReadUntil(s.err, "new finding: ", 30000, &found);
      if (!found) break;
      const size_t at = log.rfind("new finding: ");
      sigs.push_back(log.substr(at + 13, log.find('\n', at) - at - 13));
    }
    KillGroup(s.pid);
    ProcResult r;
    Reap(s.pid, &r);
    ::close(s.in);
    ::close(s.out);
    ::close(s.err);
    ASSERT_EQ(r.term_signal, SIGKILL) << log;
    ASSERT_EQ(static_cast<int>(sigs.size()), k) << log;
    std::map<std::string, LoadedFinding> all = LoadAll(root + "/findings");
    for (const std::string& sig : sigs) {
      auto it = all.find(sig);
      ASSERT_NE(it, all.end()) << sig << " was reported but is not on disk\n" << log;
      EXPECT_TRUE(ValidateFinding(it->second.finding).ok()) << it->second.path;
      EXPECT_EQ(it->second.finding.count(), 1u);
      ++checked;
    }
    // The campaign was already writing its next finding: a ".tmp.*" file may be left (by
    // design: the loader skips it, a later writer to that directory removes it after 60 s).
    strays += static_cast<int>(StrayTemps(root).size());
  }
  std::printf("killed 6 campaigns right after a report line: %d reported findings, all on disk "
              "and valid; %d stray temp file(s) left by the write in flight, ignored by the "
              "loader\n", checked, strays);
}

// A /proc file's bytes, "" when its process is gone. A process that ends while the file is
// read makes libstdc++'s read throw (ESRCH, "No such process"), which is the same answer.
std::string ReadProcFile(const std::string& path) {
  try {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
    return "";
  }
}

// Fields 3 (state) and 5 (process group) of /proc/PID/stat ('\0' if it is gone).
std::pair<char, pid_t> StateAndGroup(const std::string& pid) {
  const std::string stat = ReadProcFile("/proc/" + pid + "/stat");
  const size_t paren = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos) return {'\0', 0};
  std::vector<std::string> w = absl::StrSplit(stat.substr(paren + 2), ' ');
  if (w.size() < 3) return {'\0', 0};
  return {w[0].empty() ? '\0' : w[0][0], static_cast<pid_t>(std::atol(w[2].c_str()))};
}

// Waits (at most 10 s) until no live process of group `pgid` is left: SIGKILLed workers of a
// campaign are not our children, so they cannot be reaped here (a zombie does not count).
void WaitGroupGone(pid_t pgid) {
  for (int i = 0; i < 10000; ++i) {
    bool any = false;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const auto [state, group] = StateAndGroup(name);
      any = any || (group == pgid && state != 'Z' && state != '\0');
    }
    if (!any) return;
    ::usleep(1000);
  }
}

TEST(Faults, SigkillAtRandomMomentsNeverTearsAndARestartResumes) {
  // Kills at random moments, each measured from a state the test has seen, never from a
  // guess about how fast a loaded machine starts a process: the first campaign is killed only
  // after it reported a finding (so there is something to tear), later ones at a random delay
  // from their start, possibly before they opened the corpus. A campaign killed before its
  // first finding leaves an empty corpus (perhaps no findings directory yet): that is empty,
  // not corrupt.
  const std::string root = MakeTempDir("kill");
  const std::string findings = root + "/findings";
  std::mt19937_64 rng(20261130);
  std::map<std::string, proto::Finding> stored;  // what each signature looked like last time
  int files_checked = 0, kills_with_new_files = 0, stray = 0;
  for (int i = 0; i < kKillIterations; ++i) {
    const uint64_t seed = 1 + i % 5;                     // retrace seeds: repeats hit the store
    const bool two_jobs = i % 3 == 2;
    const int delay_ms = static_cast<int>(rng() % 700);  // uniform 0..699 ms
    Spawned s = Spawn(FuzzArgs(root, seed, {"--time", "30", "--jobs", two_jobs ? "2" : "1"}));
    ::close(s.in);
    ::close(s.out);
    if (stored.empty()) {
      bool found = false;
      const std::string log = ReadUntil(s.err, "new finding: ", 60000, &found);
      if (!found) KillGroup(s.pid);
      ASSERT_TRUE(found) << "no finding within 60 s: " << log;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    KillGroup(s.pid);
    ProcResult r;
    Reap(s.pid, &r);
    ::close(s.err);
    WaitGroupGone(s.pid);
    std::map<std::string, LoadedFinding> now;
    if (std::filesystem::exists(findings) || !stored.empty()) now = LoadAll(findings);
    if (HasFailure()) FAIL() << "after kill " << i << " at " << delay_ms << " ms";
    files_checked += static_cast<int>(now.size());
    stray = static_cast<int>(StrayTemps(root).size());
    bool added = false;
    for (const auto& [sig, lf] : now) {
      auto it = stored.find(sig);
      if (it == stored.end()) {
        added = true;
        stored[sig] = lf.finding;
        continue;
      }
      // Stored examples never change; counts never go back; first_seen is kept.
      const proto::Finding& was = it->second;
      EXPECT_EQ(lf.finding.testcase().SerializeAsString(), was.testcase().SerializeAsString())
          << sig;
      EXPECT_EQ(lf.finding.observed_size(), was.observed_size()) << sig;
      EXPECT_GE(lf.finding.count(), was.count()) << sig;
      EXPECT_EQ(lf.finding.first_seen(), was.first_seen()) << sig;
      it->second = lf.finding;
    }
    EXPECT_EQ(now.size(), stored.size()) << "a stored finding disappeared after kill " << i;
    kills_with_new_files += added;
  }
  const std::map<std::string, LoadedFinding> before = LoadAll(findings);
  ASSERT_FALSE(before.empty());
  // Resume: the same seeds, uninterrupted.
  uint64_t new_total = 0, repeats_total = 0;
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    const std::map<std::string, LoadedFinding> pre = LoadAll(findings);
    ProcResult r = RunProcess(FuzzArgs(root, seed, {"--execs", "300"}));
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
    const Summary sum = ParseSummary(r.err);
    EXPECT_EQ(sum.cases, 300u) << r.err;
    const std::map<std::string, LoadedFinding> post = LoadAll(findings);
    for (const std::string& sig : sum.new_sigs) {
      EXPECT_TRUE(pre.find(sig) == pre.end()) << sig << " was stored yet reported NEW";
    }
    for (const auto& [sig, lf] : pre) {
      if (sum.seen_sigs.count(sig) != 0) {
        EXPECT_GT(post.at(sig).finding.count(), lf.finding.count()) << sig;
      }
      EXPECT_EQ(post.at(sig).finding.first_seen(), lf.finding.first_seen()) << sig;
    }
    EXPECT_EQ(post.size(), pre.size() + sum.new_findings);
    EXPECT_EQ(SumCounts(post) - SumCounts(pre), sum.new_findings + sum.repeats) << r.err;
    new_total += sum.new_findings;
    repeats_total += sum.repeats;
  }
  std::printf("%d SIGKILLs (delays 0..699 ms, 1 or 2 jobs; the first after a finding): %d finding files checked after the "
              "kills, 0 corrupt; %d kills left new files; %zu signatures stored; %d stray temp "
              "files now; restart: %llu new, %llu repeats counted onto stored findings\n",
              kKillIterations, files_checked, kills_with_new_files, before.size(), stray,
              static_cast<unsigned long long>(new_total),
              static_cast<unsigned long long>(repeats_total));
}

TEST(Faults, SigintAndSigtermFlushEveryCountAndPrintTheSummary) {
  // Ctrl-C (to the whole process group, as a terminal sends it) or SIGTERM: the campaign
  // stops between batches, writes the repeat counts it held in memory, and prints the summary;
  // afterwards the stored counts equal exactly what it reported.
  for (int sig : {SIGINT, SIGTERM}) {
    for (const char* jobs : {"1", "2"}) {
      const std::string root = MakeTempDir("sigint");
      Spawned s = Spawn(FuzzArgs(root, 3, {"--time", "60", "--jobs", jobs}));
      ::close(s.in);
      bool running = false;  // its first finding proves the handlers are installed
      const std::string head = ReadUntil(s.err, "new finding: ", 30000, &running);
      ASSERT_TRUE(running) << head;
      ::kill(-s.pid, sig);
      ProcResult r = Finish(Spawned{s.pid, -1, s.out, s.err}, "");
      r.err = head + r.err;
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << strsignal(sig) << " jobs " << jobs
                                                        << ": exit " << r.exit_code << r.err;
      EXPECT_TRUE(absl::StrContains(r.err, "interrupted: everything found so far is stored"))
          << r.err;
      const Summary sum = ParseSummary(r.err);
      EXPECT_GT(sum.cases, 0u) << r.err;
      std::map<std::string, LoadedFinding> all = LoadAll(root + "/findings");
      EXPECT_EQ(all.size(), sum.new_findings) << r.err;
      EXPECT_EQ(SumCounts(all), sum.new_findings + sum.repeats) << strsignal(sig) << " jobs "
                                                                << jobs << "\n" << r.err;
    }
  }
}

TEST(Faults, FullDiskFailsTheWriteCleanlyAndSaysSo) {
  // This test process moves to a private mount namespace and mounts a 64 KiB tmpfs: nothing
  // outside it sees the mount, and it vanishes when the process exits.
  const std::string root = MakeTempDir("enospc");
  if (::unshare(CLONE_NEWNS) != 0 ||
      ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      ::mount("tmpfs", root.c_str(), "tmpfs", 0, "size=64k") != 0) {
    // No CAP_SYS_ADMIN: the closest real substitute is RLIMIT_FSIZE (EFBIG on the same write
    // path); fuzz/corpus/corpus_store_test.cc WriteFailureMidFileLeavesOldFileAndNoTemp covers it.
    std::printf("cannot mount a tmpfs here (%s); ENOSPC not exercised, see "
                "WriteFailureMidFileLeavesOldFileAndNoTemp for the EFBIG substitute\n",
                std::strerror(errno));
    GTEST_SKIP() << "mount not permitted";
  }
  // Fill the filesystem.
  const std::string filler = root + "/filler";
  {
    const int fd = ::open(filler.c_str(), O_WRONLY | O_CREAT, 0644);
    ASSERT_GE(fd, 0);
    const std::string block(4096, 'x');
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    EXPECT_EQ(errno, ENOSPC);
    ::close(fd);
  }
  // One target and instruction: few enough findings that the freed 64 KiB holds them all.
  std::vector<std::string> args =
      FuzzArgs(root, 5, {"--execs", "200", "--targets", "gfx942", "--instrs", "v_cvt_pk_u8_f32"});
  ProcResult full = RunProcess(args);
  EXPECT_EQ(full.exit_code, 3) << full.err;
  EXPECT_TRUE(absl::StrContains(full.err, "No space left on device")) << full.err;
  EXPECT_TRUE(absl::StrContains(full.err, "the finding was NOT stored")) << full.err;
  EXPECT_TRUE(absl::StrContains(full.err, root + "/findings/")) << full.err;
  EXPECT_FALSE(absl::StrContains(full.err, "new finding:")) << "reported a finding it did not store";
  EXPECT_TRUE(StrayTemps(root).empty());
  std::map<std::string, LoadedFinding> none = LoadAll(root + "/findings");
  EXPECT_TRUE(none.empty());
  // Space freed: the same run stores its findings.
  ASSERT_EQ(::unlink(filler.c_str()), 0);
  ProcResult again = RunProcess(args);
  EXPECT_EQ(again.exit_code, 1) << again.err;
  const Summary sum = ParseSummary(again.err);
  std::map<std::string, LoadedFinding> stored = LoadAll(root + "/findings");
  EXPECT_GE(stored.size(), 1u);
  EXPECT_EQ(stored.size(), sum.new_findings);
  std::printf("64 KiB tmpfs full: exit 3 with \"%s\"; after freeing: %zu findings stored\n",
              full.err.substr(full.err.find("lanediff fuzz:"),
                              full.err.find('\n', full.err.find("lanediff fuzz:")) -
                                  full.err.find("lanediff fuzz:")).c_str(),
              stored.size());
  ::umount(root.c_str());
}

void CheckFaultCampaign(const char* erratum, const char* kind_word) {
  const std::string root = MakeTempDir(erratum);
  ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--inject", erratum,
                             "--targets", "gfx942", "--instrs", "v_cvt_sr_fp8_f32",
                             "--lanes-per-batch", "64", "--execs", "60", "--timeout",
                             "0.3", "--quiet", "--seed", "2", "--corpus", root});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const Summary sum = ParseSummary(r.err);
  EXPECT_EQ(sum.cases, 60u) << "the campaign stopped early\n" << r.err;
  std::map<std::string, LoadedFinding> all = LoadAll(root + "/findings");
  ASSERT_GE(all.size(), 1u) << r.err;
  for (const auto& [sig, lf] : all) {
    EXPECT_EQ(lf.finding.kind(), proto::Finding::DEVICE_FAULT) << lf.path;
    EXPECT_TRUE(absl::StrContains(sig, std::string(".device_fault.") + kind_word)) << sig;
    EXPECT_TRUE(absl::StrContains(lf.finding.fault(), kind_word)) << lf.finding.fault();
  }
  // And it replays: the device faults again.
  ProcResult rep = RunProcess({LanediffPath(), "replay", root + "/findings", "--device=sim",
                               "--inject", erratum, "--timeout", "0.3"});
  EXPECT_EQ(rep.exit_code, 0) << rep.out << rep.err;
  std::printf("%s: 60/60 cases run, %zu device-fault finding(s), replay reproduces\n", erratum,
              all.size());
}

TEST(Faults, DeviceCrashIsRecordedAndTheCampaignGoesOn) { CheckFaultCampaign("crash", "crash"); }
TEST(Faults, DeviceHangIsRecordedAndTheCampaignGoesOn) { CheckFaultCampaign("hang", "hang"); }

TEST(Faults, ExternalDeviceThatDiesOrBabblesIsAFaultFinding) {
  // `--device exec:CMD` whose process exits at once (/bin/false) or echoes its input back
  // instead of answering (/bin/cat): every batch is a device fault, each kind stored once, and
  // the campaign still runs every requested case.
  for (const char* dev : {"exec:/bin/false", "exec:/bin/cat"}) {
    const std::string root = MakeTempDir("exec");
    ProcResult r = RunProcess({LanediffPath(), "fuzz", std::string("--device=") + dev,
                               "--targets", "gfx942", "--execs", "20", "--lanes-per-batch", "16",
                               "--quiet", "--corpus", root});
    EXPECT_EQ(r.exit_code, 1) << dev << "\n" << r.err;
    const Summary sum = ParseSummary(r.err);
    EXPECT_EQ(sum.cases, 20u) << dev << "\n" << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, "20 device faults")) << dev << "\n" << r.err;
    std::map<std::string, LoadedFinding> all = LoadAll(root + "/findings");
    EXPECT_GE(all.size(), 1u) << dev;
    for (const auto& [sig, lf] : all) {
      EXPECT_EQ(lf.finding.kind(), proto::Finding::DEVICE_FAULT) << lf.path;
      EXPECT_FALSE(lf.finding.fault().empty()) << lf.path;
    }
  }
}

// Processes whose command line mentions `needle`.
std::vector<pid_t> ProcessesMentioning(const std::string& needle) {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmd = ReadProcFile((e.path() / "cmdline").string());
    if (cmd.find(needle) != std::string::npos) out.push_back(std::stoi(name));
  }
  return out;
}

TEST(Faults, KillingACampaignWhileItsDeviceHangsLeavesNoOrphan) {
  const std::string root = MakeTempDir("orphan");
  // Long batch timeout: after a second the isolated device child is almost surely hung.
  Spawned s = Spawn({LanediffPath(), "fuzz", "--device=sim", "--inject", "hang", "--targets",
                     "gfx942", "--instrs", "v_cvt_sr_fp8_f32", "--lanes-per-batch", "64",
                     "--time", "60", "--timeout", "60", "--quiet", "--corpus", root});
  // Wait (up to 20 s on a loaded machine) for the isolated device child to exist, then (up to
  // 60 s) for the state this test means to interrupt: the device child hung in pause() on a
  // hanging batch (its /proc/PID/syscall names the system call it is blocked in).
  std::vector<pid_t> alive;
  for (int i = 0; i < 200 && alive.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    alive = ProcessesMentioning(root);
  }
  bool hung = false;
#ifdef SYS_pause
  for (int i = 0; i < 6000 && !hung; ++i) {
    for (pid_t p : ProcessesMentioning(root)) {
      if (p == s.pid) continue;
      // A process that is gone reads as "": it is not the hung child then.
      std::istringstream syscall(ReadProcFile("/proc/" + std::to_string(p) + "/syscall"));
      long nr = -1;
      hung = hung || ((syscall >> nr) && nr == SYS_pause);
    }
    if (!hung) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
#else
  ::kill(s.pid, SIGKILL);
  ProcResult killed;
  Reap(s.pid, &killed);
  GTEST_SKIP() << "this platform has no pause() system call to recognise the hung child by";
#endif
  // The state this test interrupts was never reached: killing now would test something else.
  EXPECT_TRUE(hung) << "the device child was not seen hung in pause() within the wait";
  ::kill(s.pid, SIGKILL);  // only the campaign itself: its device child must follow it
  ProcResult r;
  Reap(s.pid, &r);
  std::vector<pid_t> left;
  for (int i = 0; i < 40; ++i) {
    left = ProcessesMentioning(root);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_GE(alive.size(), 2u) << "expected the campaign and its isolated device child";
  EXPECT_TRUE(left.empty()) << left.size() << " orphan(s), first pid " << left[0];
  for (pid_t p : left) ::kill(p, SIGKILL);
  ::close(s.in);
  ::close(s.out);
  ::close(s.err);
}

}  // namespace
}  // namespace lanediff::reliability
