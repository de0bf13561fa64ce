// Hostile input: files a lab's machines or an attacker can hand lanediff - shard
// records that do not add up, strings made to break out of a report, FIFOs and devices where
// files belong, files built to expand in memory, directories it may not read. Each case runs
// the built `lanediff` binary as a user would and checks that the offending file is named,
// the rest is still used, nothing hangs and memory stays bounded.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/reliability/subprocess.h"
#include "gtest/gtest.h"
#include "proto/file_io.h"
#include "proto/lanediff.pb.h"
#include "proto/report.pb.h"
#include "proto/text_format.h"

// Max RSS under AddressSanitizer is its shadow memory and quarantine, not lanediff's: the
// memory bound is asserted in the other builds (the refusals are checked in all).
#ifdef __has_feature
#define LANEDIFF_HOSTILE_HAS_FEATURE(x) __has_feature(x)
#else
#define LANEDIFF_HOSTILE_HAS_FEATURE(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || LANEDIFF_HOSTILE_HAS_FEATURE(address_sanitizer)
constexpr bool kAsanBuild = true;
#else
constexpr bool kAsanBuild = false;
#endif

namespace lanediff::reliability {
namespace {

// The absolute path of a tool on $PATH, or "" (Spawn execs without a PATH search).
std::string Which(const std::string& tool) {
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path ? path : "/usr/bin:/bin", ':')) {
    const std::string p = absl::StrCat(dir, "/", tool);
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

// lanediff under coreutils `timeout`: a hang ends as exit 124 and fails the test instead of
// hanging the suite. The cap is generous (a loaded machine); the cases finish in well under 1 s.
ProcResult RunCapped(const std::vector<std::string>& args, const ChildSetup& setup = nullptr) {
  std::vector<std::string> argv = {Which("timeout"), "120", LanediffPath()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv, "", setup);
}

std::string ReadAll(const std::string& path) {
  absl::StatusOr<std::string> s = ReadFile(path);
  return s.ok() ? *s : std::string(s.status().message());
}

// One sweep shard of gfx942 pk_u8 over src0 in [first, first + 100), `examples` mismatch
// examples but only `words` expected/observed words.
proto::RunRecord Shard(uint64_t first, int mismatches, int examples, int words) {
  proto::RunRecord r;
  proto::SweepResult* s = r.add_sweeps();
  s->set_target("gfx942");
  s->set_instr(proto::v_cvt_pk_u8_f32);
  s->set_setting("mode=0x000000f0");
  s->set_device("sim");
  s->set_swept("src0");
  s->set_first(first);
  s->set_last(first + 100);
  s->set_lanes(100);
  s->set_mismatches(mismatches);
  for (int i = 0; i < examples; ++i) s->add_mismatch_examples()->set_src0(0x43000000u + i);
  for (int i = 0; i < words; ++i) {
    s->add_mismatch_expected(1);
    s->add_mismatch_observed(2);
  }
  return r;
}

TEST(HostileInput, InconsistentShardRecordIsNamedAndSkippedNotMerged) {
  // Point 1: the second shard holds 3 examples but 1 expected/observed word; merging it read
  // past the end of both lists (SIGSEGV). Now it is named and skipped; the good shard stays.
  const std::string runs = MakeTempDir("shards");
  WriteRaw(runs + "/a.textproto", ToText(Shard(0, 1, 1, 1)));
  WriteRaw(runs + "/b.textproto", ToText(Shard(100, 3, 3, 1)));
  ProcResult r = RunCapped({"report", "--out", runs + "/out", runs});
  EXPECT_EQ(r.term_signal, 0) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;  // 1: an input was not loaded
  EXPECT_TRUE(absl::StrContains(
      r.err, runs + "/b.textproto: not a usable run record, skipped: sweeps[0]: 3 "
                    "mismatch_examples but 1 mismatch_expected and 1 mismatch_observed"))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "1 run record(s), 0 finding(s), 1 input(s) not loaded"))
      << r.out;
  // The good shard alone: 100 lanes, 1 mismatch.
  EXPECT_TRUE(absl::StrContains(ReadAll(runs + "/out/report.md"), "| 100 | 1 |"));
}

TEST(HostileInput, ReportsEscapeEveryStringAndTheJUnitPassesXmllint) {
  // Point 2. Strings from run records and findings, with markup, control characters (valid
  // UTF-8, written as escapes in the text files) and, through a file name, invalid UTF-8.
  const std::string xmllint = Which("xmllint");
  ASSERT_FALSE(xmllint.empty()) << "xmllint not installed (scripts/setup.sh installs libxml2-utils)";
  const std::string dir = MakeTempDir("escape");
  const std::string runs = dir + "/runs", corpus = dir + "/corpus";
  std::filesystem::create_directories(runs);
  std::filesystem::create_directories(corpus);
  proto::RunRecord rec = Shard(0, 0, 0, 0);
  rec.mutable_sweeps(0)->set_swept("<script>alert(1)</script>");
  rec.mutable_sweeps(0)->set_device("\x01\x1b[31m]]><!--");
  proto::HypothesisVerdict* v = rec.add_verdicts();
  v->set_target("gfx942");
  v->set_instr(proto::v_cvt_pk_u8_f32);
  v->set_hypothesis("<img src=x onerror=alert(2)>");
  v->set_verdict("\x7f\x08&amp;");
  WriteRaw(runs + "/rec.textproto", ToText(rec));
  WriteRaw(runs + "/bad\x01\xff<x>.textproto", "not a record\n");  // named in every report
  proto::Finding f;
  f.set_kind(proto::Finding::DEVICE_FAULT);
  f.set_signature("evil");
  f.set_input_class("\x02<script>alert(3)</script>");
  f.set_assembly("v_nop\n```\n<b onmouseover=alert(4)>");
  f.set_repro("lanediff replay '$(touch /tmp/x)' \x03");
  f.mutable_testcase()->set_target("gfx942");
  f.mutable_testcase()->set_instr(proto::v_cvt_pk_u8_f32);
  f.mutable_testcase()->add_lanes();
  WriteRaw(corpus + "/evil.textproto", ToText(f));
  // A text finding with invalid UTF-8 (in a comment) is refused like a binary one is.
  WriteRaw(corpus + "/latin1.textproto", ToText(f) + "# caf\xe9\n");
  ProcResult r = RunCapped({"report", "--out", dir + "/out", "--corpus", corpus, runs});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, corpus + "/latin1.textproto:")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "invalid UTF-8 (byte 0xe9)")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "1 run record(s), 1 finding(s), 2 input(s) not loaded"))
      << r.out;
  ProcResult lint = RunProcess({xmllint, "--noout", dir + "/out/report.xml"});
  EXPECT_EQ(lint.exit_code, 0) << lint.err;
  const std::string xml = ReadAll(dir + "/out/report.xml");
  EXPECT_TRUE(absl::StrContains(xml, "bad\\x01\\xff&lt;x&gt;.textproto")) << xml;
  const std::string html = ReadAll(dir + "/out/report.html");
  for (const char* raw : {"<script", "<img", "<b ", "\x01", "\x02", "\x03", "\x1b", "\xff"}) {
    EXPECT_FALSE(absl::StrContains(html, raw)) << "raw " << raw << " in report.html";
  }
  EXPECT_TRUE(absl::StrContains(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_TRUE(absl::StrContains(html, "&lt;img src=x onerror=alert(2)&gt;"));
  const std::string md = ReadAll(dir + "/out/report.md");
  EXPECT_TRUE(absl::StrContains(md, "\\<script\\>alert\\(1\\)\\</script\\>")) << md;
  // The assembly is shown in the bucket's decoded example (fuzz/triage/render.h), in a fence
  // longer than the ``` it holds.
  EXPECT_TRUE(absl::StrContains(md, "````\n    example  gfx942: v_nop\n```\n<b onmouseover=alert(4)>\n"))
      << md;
  for (const char* raw : {"\x01", "\x02", "\x03", "\x1b", "\xff"}) {
    EXPECT_FALSE(absl::StrContains(md, raw)) << "raw control byte in report.md";
  }
}

TEST(HostileInput, FifosAndDevicesAreRefusedByNameNeverWaitedOn) {
  // Point 10: a FIFO made `report` and `--device=replay:` block for ever; `replay` of a FIFO
  // or /dev/null, or of a directory holding one, exited 0 having read nothing.
  const std::string dir = MakeTempDir("fifo");
  const std::string fifo = dir + "/p.textproto", holder = dir + "/d", empty = dir + "/empty";
  std::filesystem::create_directories(holder);
  std::filesystem::create_directories(empty);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((holder + "/q").c_str(), 0644), 0);  // no lanediff suffix: named anyway
  const std::string fifo_says = fifo + ": not a regular file (FIFO), refused";
  const std::string held_says = holder + "/q: not a regular file (FIFO), refused";
  const std::string null_says = "/dev/null: not a regular file (character device), refused";
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"report", "--out", dir + "/o1", fifo}, 1, fifo_says},
      {{"report", "--out", dir + "/o2", holder}, 1, held_says},
      {{"report", "--out", dir + "/o3", "--corpus", holder}, 1, held_says},
      {{"replay", "--device=sim", fifo}, 1, fifo_says},
      {{"replay", "--device=sim", "/dev/null"}, 1, null_says},
      {{"replay", "--device=sim", holder}, 1, held_says},
      {{"replay", "--device=sim", empty}, 1, "nothing was replayed"},
      {{"replay", "--device=replay:" + fifo, empty}, 3, fifo_says},
      {{"replay", "--device=replay:/dev/null", empty}, 3, null_says},
      {{"replay", "--device=replay:" + holder, empty}, 3, held_says},
      {{"fuzz", "--device=replay:" + fifo, "--execs", "1"}, 3, fifo_says},
  };
  for (const Case& c : cases) {
    ProcResult r = RunCapped(c.args);
    const std::string cmd = absl::StrJoin(c.args, " ");
    EXPECT_NE(r.exit_code, 124) << cmd << ": hung (killed by timeout)";
    EXPECT_EQ(r.exit_code, c.exit_code) << cmd << "\n" << r.out << r.err;
    EXPECT_TRUE(absl::StrContains(r.out + r.err, c.says)) << cmd << "\n" << r.out << r.err;
  }
}

// A binary file of `count` empty submessages of field `field` (2 bytes each on the wire),
// inside `outer` when non-zero: about 56 bytes each once parsed.
std::string EmptyMessages(int field, size_t count, int outer) {
  std::string inner;
  inner.reserve(2 * count);
  for (size_t i = 0; i < count; ++i) {
    inner.push_back(static_cast<char>(field << 3 | 2));
    inner.push_back(0);
  }
  if (outer == 0) return inner;
  std::string out(1, static_cast<char>(outer << 3 | 2));
  for (size_t n = inner.size();; n >>= 7) {
    out.push_back(static_cast<char>((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
    if (n <= 0x7f) break;
  }
  return out + inner;
}

TEST(HostileInput, FilesBuiltToExpandAreRefusedBeforeParsingAndMemoryStaysBounded) {
  // Point 9: three 20 MB binary findings of empty lanes (10 million each) took ~560 MB of
  // memory each once parsed; `replay` of them ran out of memory on a small machine. Now each
  // is refused after counting its messages on the wire, without parsing.
  const std::string dir = MakeTempDir("expand");
  for (const char* name : {"a.binpb", "b.binpb", "c.binpb"}) {
    WriteRaw(absl::StrCat(dir, "/", name), EmptyMessages(5, 10'000'000, 2));  // testcase.lanes
  }
  ProcResult r = RunProcess({LanediffPath(), "replay", "--device=sim", dir});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  for (const char* name : {"a.binpb", "b.binpb", "c.binpb"}) {
    EXPECT_TRUE(absl::StrContains(r.out, absl::StrCat(dir, "/", name, ": its ")) &&
                absl::StrContains(r.out, "refused before parsing"))
        << r.out;
  }
  // Reading the files is the only cost: well under the ~1.7 GB the parsed lanes would take.
  std::printf("replay of 3 x 20 MB expanding findings: max RSS %ld KiB\n", r.max_rss_kb);
  if (kAsanBuild) {
    std::printf("ASan build: the RSS bound is asserted in the Release and gcc builds\n");
  } else {
    EXPECT_LT(r.max_rss_kb, 256 * 1024) << "max RSS " << r.max_rss_kb << " KiB";
  }

  // The same for run records (empty sweeps), and the file-size limit, checked before reading:
  // a sparse file one byte over it costs no disk.
  const std::string runs = MakeTempDir("expand_runs");
  // Empty sweeps: each costs several lanes' worth, so fewer of them reach the budget.
  const size_t sweeps = ParseBudgetBytes() / ParsedMessageCost(proto::SweepResult::descriptor()) + 1;
  WriteRaw(runs + "/sweeps.binpb", EmptyMessages(4, sweeps, 0));
  const std::string big = runs + "/big.binpb";
  WriteRaw(big, "");
  std::filesystem::resize_file(big, kMaxReadFileBytes + 1);
  ProcResult rep = RunCapped({"report", "--out", runs + "/out", runs});
  EXPECT_EQ(rep.exit_code, 1) << rep.err;
  EXPECT_TRUE(absl::StrContains(rep.err, absl::StrCat(runs, "/sweeps.binpb: its ", sweeps,
                                                      " or more nested messages")))
      << rep.err;
  EXPECT_TRUE(absl::StrContains(
      rep.err, absl::StrCat(big, ": ", kMaxReadFileBytes + 1, " bytes, larger than the limit of ",
                            kMaxReadFileBytes, " bytes for a lanediff file, refused")))
      << rep.err;

  // A device that answers without end: /dev/zero as a recording.
  ProcResult z = RunCapped({"replay", "--device=replay:/dev/zero", dir});
  EXPECT_EQ(z.exit_code, 3) << z.err;
  EXPECT_TRUE(absl::StrContains(z.err, "/dev/zero: not a regular file (character device)")) << z.err;
}

TEST(HostileInput, UnreadableDirectoriesAreNamedAndTheRestIsRead) {
  // Point 11: `report` aborted (uncaught filesystem_error, exit 134) on an unreadable
  // subdirectory; an unreadable seed directory silently ended the seed walk.
  const std::string runs = MakeTempDir("unreadable");
  std::filesystem::create_directories(runs + "/a_locked");
  WriteRaw(runs + "/a_locked/in.textproto", ToText(Shard(0, 0, 0, 0)));
  WriteRaw(runs + "/z.textproto", ToText(Shard(0, 0, 0, 0)));
  ::chmod((runs + "/a_locked").c_str(), 0);
  ::chmod(runs.c_str(), 0777);  // nobody writes the report beside them
  ProcResult r = RunCapped({"report", "--out", runs + "/out", runs}, BecomeNobody);
  ::chmod((runs + "/a_locked").c_str(), 0755);
  EXPECT_EQ(r.term_signal, 0) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, runs + "/a_locked: cannot list directory: Permission denied"))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "1 run record(s)")) << r.out;

  const std::string root = MakeTempDir("seeds_unreadable");
  std::filesystem::create_directories(root + "/seeds/a");
  std::filesystem::create_directories(root + "/seeds/b");
  std::filesystem::copy_file(std::string(LANEDIFF_SOURCE_DIR) +
                                 "/corpus/seeds/v_cvt_pk_u8_f32/round_toward_zero.textproto",
                             root + "/seeds/a/good.textproto");
  WriteRaw(root + "/seeds/b/bad.textproto", "no_such_field: 1\n");
  ::chmod((root + "/seeds/a").c_str(), 0);
  ::chmod(root.c_str(), 0777);
  ProcResult f = RunCapped({"fuzz", "--device=sim", "--targets", "gfx942", "--execs", "5",
                            "--lanes-per-batch", "4", "--quiet", "--corpus", root},
                           BecomeNobody);
  ::chmod((root + "/seeds/a").c_str(), 0755);
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_TRUE(absl::StrContains(f.err, root + "/seeds/a: cannot list directory: Permission denied"))
      << f.err;
  // The walk went on past it: the seed in b/ was read (and named, as it does not parse).
  EXPECT_TRUE(absl::StrContains(f.err, root + "/seeds/b/bad.textproto:1:")) << f.err;
}

}  // namespace
}  // namespace lanediff::reliability
