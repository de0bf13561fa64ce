// Hardening of the process boundary, through the built
// `lanediff` binary:
//  - flags out of range (NaN, 0 workers, a zero chunk, more lanes than the cap) are usage
//    errors naming the flag and the accepted range; hex flags are hex in every command; help
//    texts name only flags that exist;
//  - with --jobs 2, the worker-to-parent messages cannot be forged by a seed file name;
//  - SIGTERM to the parent alone stops every worker;
//  - the stored repro line, run by /bin/sh, reproduces, even with `$(...)` in the corpus path
//    and an exec: device with spaces, and runs nothing else;
//  - an exec: device whose command does not exist is an environment error (exit 3).
#include <signal.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/reliability/subprocess.h"
#include "gtest/gtest.h"
#include "proto/lanediff.pb.h"

namespace lanediff::reliability {
namespace {

struct BadFlag {
  std::vector<std::string> args;
  std::string words;  // expected on stderr: the flag and the accepted range
};

TEST(Process, FlagsOutOfRangeAreUsageErrorsNamingTheFlagAndRange) {
  const std::vector<std::string> sweep = {"sweep", "--targets", "gfx942", "--instrs",
                                          "v_cvt_pk_u8_f32", "--first", "0", "--last", "16"};
  auto with = [](std::vector<std::string> base, std::vector<std::string> extra) {
    base.insert(base.end(), extra.begin(), extra.end());
    return base;
  };
  const std::vector<BadFlag> cases = {
      {{"fuzz", "--device=sim", "--time", "nan"}, "--time: 'nan' is not a finite number"},
      {{"fuzz", "--device=sim", "--time", "inf"}, "--time: 'inf' is not a finite number"},
      {{"fuzz", "--device=sim", "--time", "-1"}, "--time: '-1' is out of range; accepted: [0, "},
      {{"fuzz", "--device=sim", "--execs", "1", "--timeout", "0"},
       "--timeout: '0' is out of range; accepted: (0, 86400]"},
      {{"fuzz", "--device=sim", "--execs", "1", "--timeout", "-1"},
       "--timeout: '-1' is out of range; accepted: (0, 86400]"},
      {{"fuzz", "--device=sim", "--execs", "1", "--timeout", "nan"},
       "--timeout: 'nan' is not a finite number; accepted: (0, 86400]"},
      {{"fuzz", "--device=sim", "--execs", "1", "--jobs", "0"},
       "--jobs: '0' is out of range; accepted: 1..256"},
      // The mutator's cap is 65536 lanes (fuzz/engine/mutator.h kMaxLanes): above it, no silent cap.
      {{"fuzz", "--device=sim", "--execs", "1", "--lanes-per-batch", "65537"},
       "--lanes-per-batch: '65537' is out of range; accepted: 1..65536"},
      {with(sweep, {"--chunk", "0"}), "--chunk: '0' is out of range; accepted: 1..67108864"},
      {with(sweep, {"--jobs", "0"}), "--jobs: '0' is out of range; accepted: 1..256"},
      {{"replay", "--timeout", "nan", "x"}, "--timeout: 'nan' is not a finite number"},
      {{"record", "--timeout", "0", "--out", "x", "y"}, "--timeout: '0' is out of range"},
      {{"eval", "--targets", "gfx942", "--instrs", "v_cvt_pk_u8_f32", "--mode", "0x1g"},
       "--mode: '0x1g' is not a hex number"},
  };
  for (const BadFlag& c : cases) {
    std::vector<std::string> argv = {LanediffPath()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const ProcResult r = RunProcess(argv);
    const std::string what = absl::StrJoin(c.args, " ");
    EXPECT_EQ(r.exit_code, 2) << what << "\n" << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, c.words)) << what << "\n" << r.err;
  }
}

TEST(Process, HexFlagsAreHexInEveryCommand) {
  // `--mode 10` is MODE 0x10 for sweep as for eval (it was 0x0a for sweep, 0x10 for eval).
  for (const char* mode : {"10", "0x10"}) {
    const ProcResult s = RunProcess({LanediffPath(), "sweep", "--targets", "gfx942", "--instrs",
                                     "v_cvt_pk_u8_f32", "--mode", mode, "--first", "0", "--last",
                                     "16", "--jobs", "1"});
    EXPECT_EQ(s.exit_code, 0) << s.err;
    EXPECT_TRUE(absl::StrContains(s.out + s.err, "mode=0x00000010")) << s.out << s.err;
  }
  // eval: pk_u8 of 2.5 (0x40200000) into byte 0. MODE 0x10: FP round bits [1:0] = 0, round to
  // nearest even: 2.5 -> 2. MODE 0x0a would be round bits 2 (toward -inf): also 2, so use
  // 0x0b vs 0x11 instead: "11" read as hex is 0x11 (round bits 1, toward +inf: 2.5 -> 3);
  // read as decimal it would be 0x0b (round bits 3, toward zero: 2.5 -> 2).
  const ProcResult e = RunProcess({LanediffPath(), "eval", "--targets", "gfx942", "--instrs",
                                   "v_cvt_pk_u8_f32", "--mode", "11"},
                                  "40200000 0 0 0\n");
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(e.out, "0x00000003\n") << e.err;
}

// The flags a command's --help lists ("  --name ...").
std::set<std::string> ListedFlags(const std::string& help) {
  std::set<std::string> out;
  for (absl::string_view line : absl::StrSplit(help, '\n')) {
    if (!absl::StartsWith(line, "  --")) continue;
    line.remove_prefix(4);
    out.insert(std::string(line.substr(0, line.find_first_of(" =\t"))));
  }
  return out;
}

TEST(Process, HelpTextsNameOnlyFlagsThatExist) {
  // Every "lanediff CMD ... --flag" / "`CMD --flag" mentioned in any command's help must be a
  // flag that CMD lists (`report --help` named a nonexistent `fuzz --record-run`).
  const std::vector<std::string> commands = {"targets", "devices", "eval",   "fuzz",   "replay",
                                             "discriminate", "corpus", "asm", "record", "disasm",
                                             "sweep",   "bench",   "report"};
  std::map<std::string, std::string> help;
  std::map<std::string, std::set<std::string>> flags;
  for (const std::string& c : commands) {
    const ProcResult r = RunProcess({LanediffPath(), c, "--help"});
    ASSERT_EQ(r.exit_code, 0) << c << r.err;
    help[c] = r.out;
    flags[c] = ListedFlags(r.out);
    flags[c].insert("help");
  }
  // `corpus --help` lists its verbs; their flags are in `corpus VERB --help`.
  for (const char* verb : {"merge", "check"}) {
    const ProcResult r = RunProcess({LanediffPath(), "corpus", verb, "--help"});
    ASSERT_EQ(r.exit_code, 0) << verb << r.err;
    for (const std::string& f : ListedFlags(r.out)) flags["corpus"].insert(f);
  }
  // "lanediff CMD ..." up to the end of the line or a closing backtick, or "`CMD --x`".
  const std::regex mention(
      R"((?:lanediff |`)(targets|devices|eval|fuzz|replay|discriminate|corpus|asm|record|disasm|sweep|bench|report)\b([^`\n#]*))");
  const std::regex flag_re(R"((?:^|\s)--([a-z0-9-]+))");
  int checked = 0;
  for (const auto& [c, text] : help) {
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      const std::string l(line);
      for (std::sregex_iterator it(l.begin(), l.end(), mention), end; it != end; ++it) {
        const std::string cmd = (*it)[1], rest = (*it)[2];
        for (std::sregex_iterator f(rest.begin(), rest.end(), flag_re); f != end; ++f) {
          const std::string flag = (*f)[1];
          ++checked;
          EXPECT_TRUE(flags[cmd].count(flag) != 0)
              << "`" << c << " --help` names `" << cmd << " --" << flag << "`, which `" << cmd
              << " --help` does not list: " << l;
        }
      }
    }
  }
  EXPECT_GT(checked, 5);  // the examples of fuzz, sweep and report were looked at
}

TEST(Process, WorkerMessagesCannotBeForgedBySeedFileNames) {
  // With --jobs 2 a worker reports to the parent through a pipe. A seed that does not parse is
  // named in a note; its name below holds newlines followed by what the old line protocol read
  // as "new finding" and "fatal environment error" lines. A simulator with no erratum agrees
  // with the model: no finding, exit 0, and the name comes back whole in the note.
  const std::string root = MakeTempDir("forge");
  std::filesystem::create_directories(root + "/seeds");
  const std::string name =
      "bad\nN gfx942.v_cvt_pk_u8_f32.forged\nS gfx942.v_cvt_pk_u8_f32.forged\nX env forged\n"
      ".textproto";
  std::ofstream(root + "/seeds/" + name) << "this is { not a test case\n";
  const ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--execs", "40",
                                   "--lanes-per-batch", "16", "--jobs", "2", "--quiet",
                                   "--corpus", root});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "  NEW ")) << r.err;   // no forged new finding
  EXPECT_FALSE(absl::StrContains(r.err, "  seen ")) << r.err;  // nor a forged signature
  EXPECT_FALSE(absl::StrContains(r.err, "lanediff fuzz: forged")) << r.err;  // nor a fatal error
  EXPECT_TRUE(absl::StrContains(r.err, "findings      0 new, 0 signatures seen")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "seeds/bad\nN gfx942.v_cvt_pk_u8_f32.forged\nS ")) << r.err;
}

TEST(Process, EachBucketIsPrintedOncePerRun) {
  // One root cause shows on several targets (one signature each) and, with --jobs 2, in both
  // workers: its `new finding:` line is printed once, by the parent, for the whole run. The
  // summary names each bucket once too ("  bucket <instr>.<cause>").
  for (const char* jobs : {"1", "2"}) {
    const std::string root = MakeTempDir("once");
    const ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--inject", "sr_wrap",
                                     "--inject", "byte12_swap", "--execs", "400",
                                     "--lanes-per-batch", "64", "--jobs", jobs, "--quiet",
                                     "--corpus", root});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    std::map<std::string, int> printed, summarized;
    std::set<std::string> signatures;
    for (absl::string_view line : absl::StrSplit(r.err, '\n')) {
      if (absl::ConsumePrefix(&line, "new finding: ")) {
        ++printed[std::string(line.substr(line.find('.') + 1))];
      } else if (absl::ConsumePrefix(&line, "  bucket ")) {
        ++summarized[std::string(line.substr(0, line.find(' ')))];
      } else if (absl::ConsumePrefix(&line, "    NEW  ")) {
        signatures.insert(std::string(line));
      }
    }
    ASSERT_FALSE(printed.empty()) << r.err;
    for (const auto& [bucket, n] : printed) EXPECT_EQ(n, 1) << bucket << " with --jobs " << jobs;
    for (const auto& [bucket, n] : summarized) EXPECT_EQ(n, 1) << bucket << " with --jobs " << jobs;
    EXPECT_EQ(printed.size(), summarized.size()) << r.err;
    EXPECT_GT(signatures.size(), printed.size()) << "no bucket spanned two targets: " << r.err;
  }
}

TEST(Process, SigtermToTheParentAloneStopsEveryWorker) {
  // SIGTERM to the parent of --jobs 2 only (as `kill PID` or a service manager sends it): the
  // workers stop too, flush their counts, and the summary is printed, long before --time 600.
  const std::string root = MakeTempDir("term");
  Spawned s = Spawn({LanediffPath(), "fuzz", "--device=sim", "--inject", "sr_wrap", "--inject",
                     "u8_truncate", "--lanes-per-batch", "64", "--quiet", "--time", "600",
                     "--jobs", "2", "--corpus", root});
  ::close(s.in);
  bool running = false;  // a finding proves the workers run (and the handlers are installed)
  std::string log = ReadUntil(s.err, "new finding: ", 60000, &running);
  ASSERT_TRUE(running) << log;
  ASSERT_EQ(::kill(s.pid, SIGTERM), 0);
  bool stopped = false;
  log += ReadUntil(s.err, "interrupted: everything found so far is stored", 120000, &stopped);
  if (!stopped) ::kill(-s.pid, SIGKILL);
  ProcResult r = Finish(Spawned{s.pid, -1, s.out, s.err}, "");
  log += r.err;
  EXPECT_TRUE(stopped) << "the workers ran on after SIGTERM to the parent\n" << log;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << "exit " << r.exit_code << "\n" << log;
  // No worker is left: the process group is empty once the parent is reaped.
  EXPECT_NE(::kill(-s.pid, 0), 0) << "a worker outlived the campaign";
}

// The unescaped text of the `repro: "..."` line of a stored finding.
std::string StoredRepro(const std::string& findings_dir) {
  CorpusLoad load = LoadCorpus({findings_dir});
  for (const std::string& e : load.errors) ADD_FAILURE() << e;
  if (load.findings.empty()) return "";
  return load.findings[0].finding.repro();
}

TEST(Process, StoredReproLineRunsThroughAShellAndReproduces) {
  // The README's exec example as the device (a space-separated command), and a corpus path
  // with a space and `$(touch PWNED)`. The stored line, run by /bin/sh from an empty directory
  // with `lanediff` on PATH, must reproduce the finding and create no PWNED file.
  const std::string base = MakeTempDir("repro");
  const std::string corpus = base + "/my corpus $(touch PWNED)";
  std::filesystem::create_directories(corpus);
  const std::string work = base + "/cwd";
  std::filesystem::create_directories(work);
  const ProcResult f = RunProcess(
      {LanediffPath(), "fuzz", "--device=exec:lanediff eval --hypothesis sr_rounding=literal",
       "--targets", "gfx942", "--instrs", "v_cvt_sr_fp8_f32", "--lanes-per-batch", "4",
       "--execs", "1", "--quiet", "--corpus", corpus});
  ASSERT_EQ(f.exit_code, 1) << f.err;  // sr_rounding=literal vs the default: a new finding
  const std::string repro = StoredRepro(corpus + "/findings");
  ASSERT_FALSE(repro.empty());
  const std::string dir = std::filesystem::path(LanediffPath()).parent_path().string();
  const ProcResult r = RunProcess(
      {"/bin/sh", "-c", absl::StrCat("cd '", work, "' && PATH='", dir, "':\"$PATH\" && ", repro)});
  EXPECT_EQ(r.exit_code, 0) << repro << "\n" << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "1 reproduced, 0 did not")) << repro << "\n" << r.out;
  EXPECT_FALSE(std::filesystem::exists(work + "/PWNED")) << "the repro line ran a command";
  EXPECT_FALSE(std::filesystem::exists(base + "/PWNED")) << "the repro line ran a command";
}

TEST(Process, ExecDeviceThatDoesNotExistIsAnEnvironmentError) {
  // Not a pile of device-fault findings: exit 3 naming the command, nothing stored; the same
  // with --jobs 2.
  for (const char* jobs : {"1", "2"}) {
    const std::string root = MakeTempDir("noexec");
    const ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=exec:/nonexistent/model",
                                     "--execs", "20", "--quiet", "--jobs", jobs, "--corpus",
                                     root});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, "'/nonexistent/model' not found")) << r.err;
    EXPECT_TRUE(LoadCorpus({root + "/findings"}).findings.empty());
  }
}

}  // namespace
}  // namespace lanediff::reliability
