// Bad input gets a clear error and changes nothing. Everything here drives
// the built `lanediff` binary as a user would, and checks three things each time: the message
// names the file (and, for text, the line) or the field at fault; the good part of the input
// is still used; and nothing on disk changed (bytes, mode and nanosecond mtime of every entry,
// and no entry added or removed).
#include <sched.h>
#include <sys/mount.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/corpus_store.h"
#include "fuzz/reliability/subprocess.h"
#include "gtest/gtest.h"
#include "proto/lanediff.pb.h"
#include "proto/text_format.h"

namespace lanediff::reliability {
namespace {

// A real corpus: findings the simulator's sr_wrap erratum produces on gfx942.
std::string MakeRealCorpus() {
  const std::string dir = MakeTempDir("bad");
  ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--inject", "sr_wrap",
                             "--targets", "gfx942", "--execs", "300", "--lanes-per-batch", "64",
                             "--seed", "3", "--quiet", "--corpus", dir});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // 1: new findings stored
  return dir;
}

// Writes into `dir` (a folder of `findings`) the broken files the test below replays, made
// from the good finding `base`: text and binary that do not parse, well-formed findings with
// out-of-range or unknown contents, too many lanes, and an unreadable file; `*locked` is a
// folder of `findings` holding a good finding, made unreadable (mode 000).
void WriteBrokenFindings(const std::string& findings, const std::string& dir,
                         const proto::Finding& base, std::string* locked) {
  // Text: unknown field on line 3; unknown enum value on line 3; cut in half; empty.
  WriteRaw(dir + "a_field.textproto", "kind: DISAGREEMENT\nsignature: \"x\"\nbogus_field: 3\n");
  WriteRaw(dir + "b_enum.textproto",
           "kind: DISAGREEMENT\ntestcase {\n  instr: v_cvt_bogus_f32\n}\n");
  const std::string full = ToText(base);
  // Cut inside the testcase message (half way could land between two top-level fields, which
  // parses): its brace is left open.
  const size_t open = full.find("testcase {");
  ASSERT_NE(open, std::string::npos) << full;
  WriteRaw(dir + "c_cut.textproto", full.substr(0, open + (full.size() - open) / 2));
  WriteRaw(dir + "d_empty.textproto", "");
  // Binary: truncated real finding; random bytes.
  std::string bin;
  base.SerializeToString(&bin);
  WriteRaw(dir + "e_cut.binpb", bin.substr(0, bin.size() - 5));
  WriteRaw(dir + "f_noise.binpb", std::string("\xff\xff\xff\xff\x0f\x01\x02", 7));
  // Well-formed protos with out-of-range or unknown contents: each must be refused with the
  // field named when replayed.
  auto variant = [&](const std::string& sig, auto edit) {
    proto::Finding f = base;
    f.set_signature(sig);
    edit(&f);
    return f;
  };
  WriteRaw(dir + "g_opsel16.textproto", ToText(variant("g_opsel16", [](proto::Finding* f) {
             f->mutable_testcase()->mutable_encoding()->clear_raw_words();
             f->mutable_testcase()->mutable_encoding()->set_opsel(16);
           })));
  WriteRaw(dir + "h_raw1.textproto", ToText(variant("h_raw1", [](proto::Finding* f) {
             auto* e = f->mutable_testcase()->mutable_encoding();
             e->Clear();
             e->add_raw_words(0xd5230005u);  // one word of a two-word VOP3
           })));
  WriteRaw(dir + "i_raw4.textproto", ToText(variant("i_raw4", [&](proto::Finding* f) {
             auto* e = f->mutable_testcase()->mutable_encoding();
             e->Clear();
             for (int i = 0; i < 4; ++i) e->add_raw_words(0);
           })));
  WriteRaw(dir + "j_target.textproto", ToText(variant("j_target", [](proto::Finding* f) {
             f->mutable_testcase()->set_target("gfx999");
           })));
  {
    // 2^20 + 1 lanes (the limit is kMaxLanesPerBatch = 2^20), binary: each empty lane is 2
    // bytes, so the file stays small. A device fault needs no expected/observed words.
    proto::Finding f = variant("k_lanes", [](proto::Finding* f) {
      f->set_kind(proto::Finding::DEVICE_FAULT);
      f->clear_expected();
      f->clear_observed();
      f->mutable_testcase()->clear_lanes();
    });
    for (int i = 0; i < (1 << 20) + 1; ++i) f.mutable_testcase()->add_lanes();
    std::string b;
    f.SerializeToString(&b);
    WriteRaw(dir + "k_lanes.binpb", b);
  }
  // Unreadable: a file and a directory holding a good finding, mode 000.
  WriteRaw(dir + "l_unreadable.textproto", full);
  ::chmod((dir + "l_unreadable.textproto").c_str(), 0);
  *locked = findings + "/gfx942/zz_locked";
  std::filesystem::create_directories(*locked);
  WriteRaw(*locked + "/m.textproto", full);
  ::chmod(locked->c_str(), 0);

}

TEST(BadInput, BrokenCorpusFilesAreNamedTheRestReplaysNothingRewritten) {
  const std::string root = MakeRealCorpus();
  const std::string findings = root + "/findings";
  CorpusLoad good = LoadCorpus({findings});
  ASSERT_TRUE(good.errors.empty());
  ASSERT_GE(good.findings.size(), 1u);
  const size_t n_good = good.findings.size();
  const proto::Finding base = good.findings[0].finding;
  const std::string dir = findings + "/gfx942/v_cvt_sr_fp8_f32/";  // exists: sr_wrap is SR
  std::filesystem::create_directories(dir);

  std::string locked;
  ASSERT_NO_FATAL_FAILURE(WriteBrokenFindings(findings, dir, base, &locked));

  const Tree before = Snapshot(root);
  ProcResult r = RunProcess(
      {LanediffPath(), "replay", findings, "--device=sim", "--inject", "sr_wrap"}, "",
      BecomeNobody);
  const Tree after = Snapshot(root);
  EXPECT_EQ(DescribeChanges(before, after), "");
  ASSERT_NE(r.exit_code, 125) << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // 1: some did not reproduce / malformed
  const std::string& o = r.out;
  // Every good finding still reproduces.
  EXPECT_NE(o.find(absl::StrCat(n_good, " reproduced")), std::string::npos) << o;
  for (const LoadedFinding& lf : good.findings) {
    EXPECT_NE(o.find("REPRODUCED  " + lf.path), std::string::npos) << lf.path << "\n" << o;
  }
  // Parse errors: file and line.
  EXPECT_NE(o.find(dir + "a_field.textproto:3:"), std::string::npos) << o;
  // protobuf reports an unknown enum value at the token after it (here 4:1), naming the value.
  EXPECT_NE(o.find(dir + "b_enum.textproto:4:1: Unknown enumeration value of \"v_cvt_bogus_f32\""),
            std::string::npos) << o;
  EXPECT_NE(o.find(dir + "c_cut.textproto:"), std::string::npos) << o;
  EXPECT_NE(o.find(dir + "d_empty.textproto: field signature"), std::string::npos) << o;
  EXPECT_NE(o.find(dir + "e_cut.binpb: malformed"), std::string::npos) << o;
  EXPECT_NE(o.find(dir + "f_noise.binpb: malformed"), std::string::npos) << o;
  // Out of range and unknown: the field named, next to the file.
  auto detail_of = [&](const std::string& name) {
    const size_t at = o.find("NOT-REPRO   " + dir + name);
    if (at == std::string::npos) return std::string("(no NOT-REPRO line for " + name + ")");
    const size_t eol = o.find('\n', o.find('\n', at) + 1);
    return o.substr(at, eol - at);
  };
  EXPECT_TRUE(absl::StrContains(detail_of("g_opsel16.textproto"), "encoding.opsel 16 exceeds 4 bits"))
      << detail_of("g_opsel16.textproto");
  EXPECT_TRUE(absl::StrContains(detail_of("h_raw1.textproto"), "raw_words"))
      << detail_of("h_raw1.textproto");
  EXPECT_TRUE(absl::StrContains(detail_of("i_raw4.textproto"), "raw_words"))
      << detail_of("i_raw4.textproto");
  EXPECT_TRUE(absl::StrContains(detail_of("j_target.textproto"), "gfx999"))
      << detail_of("j_target.textproto");
  // Past the lanes-per-finding limit: refused at load (proto/validate.h), before any replay.
  EXPECT_NE(o.find(dir + "k_lanes.binpb: field testcase.lanes: 1048577 lanes; the limit is 1048576"),
            std::string::npos) << o;
  // Unreadable file and directory (as nobody): named, with the system's words.
  EXPECT_NE(o.find(dir + "l_unreadable.textproto: cannot open: Permission denied"),
            std::string::npos) << o;
  EXPECT_NE(o.find(locked + ": cannot list directory: Permission denied"), std::string::npos)
      << o;

  // `corpus merge` of the same broken corpus into a fresh one: the good findings arrive, every
  // bad file is named, and the source is untouched.
  const std::string into = MakeTempDir("merge");
  ProcResult m = RunProcess({LanediffPath(), "corpus", "merge", findings, "--out", into});
  EXPECT_EQ(DescribeChanges(before, Snapshot(root)), "");
  EXPECT_TRUE(absl::StrContains(m.out + m.err, dir + "a_field.textproto:3:")) << m.out << m.err;
  EXPECT_TRUE(absl::StrContains(m.out + m.err, dir + "f_noise.binpb: malformed")) << m.out << m.err;
  CorpusLoad merged = LoadCorpus({into});
  EXPECT_TRUE(merged.errors.empty());
  // The well-formed variants (opsel 16, raw words x2, gfx999) are findings too: merge keeps
  // what it is given, replay is what refuses them; too many lanes is refused by both. (The
  // 000 file and the locked directory, which root reads, hold copies of a stored signature:
  // counts only.)
  EXPECT_EQ(merged.findings.size(), n_good + 4) << m.out << m.err;
  ::chmod(locked.c_str(), 0755);
}

TEST(BadInput, StoredFileThatDoesNotParseIsNeverOverwritten) {
  // A campaign that minimizes into a signature whose stored file is malformed stops with an
  // error naming the file rather than replace it (the file may be someone's hand edit).
  const std::string root = MakeRealCorpus();
  CorpusLoad load = LoadCorpus({root + "/findings"});
  ASSERT_GE(load.findings.size(), 1u);
  for (const LoadedFinding& lf : load.findings) WriteRaw(lf.path, "kind: DISAGREEMENT\nlanes {");
  const Tree before = Snapshot(root + "/findings");
  ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--inject", "sr_wrap",
                             "--targets", "gfx942", "--execs", "300", "--lanes-per-batch", "64",
                             "--seed", "3", "--quiet", "--corpus", root});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "stored finding is malformed, left untouched")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, load.findings[0].path.substr(0, root.size()))) << r.err;
  // Only lock files may appear; no finding changed.
  std::string changes = DescribeChanges(before, Snapshot(root + "/findings"));
  for (absl::string_view line : absl::StrSplit(changes, '\n', absl::SkipEmpty())) {
    EXPECT_TRUE(absl::StartsWith(line, "added ") && absl::EndsWith(line, ".lock")) << line;
  }
}

TEST(BadInput, BinaryFindingFromANewerSchemaMergesToLoadableText) {
  // Found by proto_parser_fuzzer in its first seconds (input "@k": field 8 as a varint, unknown
  // to this schema): unknown fields printed as "8: 107", which no text parser accepts, so a
  // merged binary finding from a newer lanediff became an unloadable .textproto.
  const std::string root = MakeRealCorpus();
  CorpusLoad load = LoadCorpus({root + "/findings"});
  ASSERT_GE(load.findings.size(), 1u);
  std::string bin;
  load.findings[0].finding.SerializeToString(&bin);
  bin += std::string("\x40\x6b", 2);      // field 8 (a string here) sent as a varint
  bin += std::string("\x98\x06\x01", 3);  // field 99, not in this schema
  const std::string src = MakeTempDir("newer");
  WriteRaw(src + "/newer.binpb", bin);
  proto::Finding parsed;
  ASSERT_TRUE(parsed.ParseFromString(bin));
  EXPECT_TRUE(ParseText<proto::Finding>(ToText(parsed), "printed").ok()) << ToText(parsed);
  const std::string into = MakeTempDir("newer_into");
  ProcResult m = RunProcess({LanediffPath(), "corpus", "merge", src, "--out", into});
  EXPECT_EQ(m.exit_code, 0) << m.out << m.err;
  CorpusLoad merged = LoadCorpus({into});
  EXPECT_TRUE(merged.errors.empty()) << merged.errors[0];
  ASSERT_EQ(merged.findings.size(), 1u);
  EXPECT_EQ(merged.findings[0].finding.testcase().SerializeAsString(),
            load.findings[0].finding.testcase().SerializeAsString());
}

TEST(BadInput, BrokenSeedFilesAreNamedAndTheCampaignRuns) {
  // <corpus>/seeds/ feeds the mutation pool; a seed that does not parse is named (file and
  // line) in the summary, the good seeds are used, and no seed file is touched.
  const std::string root = MakeTempDir("seeds");
  const std::string seeds = root + "/seeds/v_cvt_pk_u8_f32";
  std::filesystem::create_directories(seeds);
  std::filesystem::copy_file(std::string(LANEDIFF_SOURCE_DIR) +
                                 "/corpus/seeds/v_cvt_pk_u8_f32/round_toward_zero.textproto",
                             seeds + "/good.textproto");
  WriteRaw(seeds + "/bad.textproto", "target: \"gfx942\"\nno_such_field: 1\n");
  WriteRaw(seeds + "/cut.textproto", "target: \"gfx942\"\nlanes {\n  src0: 0x3f8");
  const Tree before = Snapshot(root + "/seeds");
  ProcResult r = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--targets", "gfx942",
                             "--execs", "20", "--lanes-per-batch", "16", "--quiet", "--corpus",
                             root});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, seeds + "/bad.textproto:2:")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, seeds + "/cut.textproto:")) << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, seeds + "/good.textproto")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "ran           20 cases")) << r.err;
  EXPECT_EQ(DescribeChanges(before, Snapshot(root + "/seeds")), "");
}

TEST(BadInput, SymlinkLoopInACorpusLoadsEachFileOnce) {
  // A link to an ancestor (here findings/gfx942/loop -> ..) and a second link to one file:
  // every finding is loaded, replayed and merged once, not once per path that reaches it
  // (before the fix: 8x each, and `corpus merge` multiplied the counts).
  const std::string root = MakeRealCorpus();
  const std::string findings = root + "/findings";
  CorpusLoad real = LoadCorpus({findings});
  ASSERT_TRUE(real.errors.empty());
  ASSERT_GE(real.findings.size(), 1u);
  uint64_t real_count = 0;
  for (const LoadedFinding& lf : real.findings) real_count += lf.finding.count();
  std::filesystem::create_directory_symlink("..", findings + "/gfx942/loop");
  std::filesystem::create_symlink(real.findings[0].path, findings + "/alias.textproto");
  const Tree before = Snapshot(root);
  CorpusLoad load = LoadCorpus({findings});
  EXPECT_EQ(load.findings.size(), real.findings.size());
  ProcResult r = RunProcess(
      {LanediffPath(), "replay", findings, "--device=sim", "--inject", "sr_wrap"});
  EXPECT_TRUE(absl::StrContains(r.out, absl::StrCat(real.findings.size(), " reproduced, 0 did not")))
      << r.out;
  const std::string into = MakeTempDir("loop_into");
  ProcResult m = RunProcess({LanediffPath(), "corpus", "merge", findings, "--out", into});
  CorpusLoad merged = LoadCorpus({into});
  EXPECT_EQ(merged.findings.size(), real.findings.size()) << m.out << m.err;
  uint64_t merged_count = 0;
  for (const LoadedFinding& lf : merged.findings) merged_count += lf.finding.count();
  EXPECT_EQ(merged_count, real_count) << m.out << m.err;
  EXPECT_EQ(DescribeChanges(before, Snapshot(root)), "");
}

TEST(BadInput, UnknownNamesAndOutOfRangeFlagsAreUsageErrors) {
  const std::string root = MakeTempDir("flags");
  const std::string corpus = root + "/c";
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"fuzz", "--targets", "gfx999", "--execs", "1"}, "unknown target 'gfx999'"},
      {{"fuzz", "--instrs", "v_cvt_bogus_f32", "--execs", "1"},
       "unknown instruction 'v_cvt_bogus_f32'"},
      {{"fuzz", "--lanes-per-batch", "1048577", "--execs", "1"}, "lanes-per-batch"},
      {{"fuzz", "--jobs", "257", "--execs", "1"}, "jobs"},
      {{"fuzz", "--device=sim", "--inject", "no_such_erratum", "--execs", "1"},
       "unknown erratum 'no_such_erratum'"},
      {{"fuzz", "--hypothesis", "sr_rounding=bogus", "--execs", "1"}, "sr_rounding"},
      {{"eval", "--targets", "gfx999", "--instrs", "v_cvt_pk_u8_f32"}, "unknown target 'gfx999'"},
      {{"eval", "--targets", "gfx942", "--instrs", "v_bogus"}, "unknown instruction 'v_bogus'"},
      {{"eval", "--targets", "gfx942", "--instrs", "v_cvt_pk_u8_f32", "--opsel", "16"}, "opsel"},
      {{"replay", "--device=sim", "--inject", "no_such_erratum", root}, "no_such_erratum"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv = {LanediffPath()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    if (c.args[0] == "fuzz") {
      argv.push_back("--corpus");
      argv.push_back(corpus);
    }
    ProcResult r = RunProcess(argv);
    const std::string cmd = absl::StrJoin(c.args, " ");
    EXPECT_TRUE(r.exit_code == 2 || r.exit_code == 3) << cmd << " exit " << r.exit_code << "\n"
                                                      << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, c.says)) << cmd << "\n" << r.err;
    EXPECT_FALSE(std::filesystem::exists(corpus + "/findings"))
        << cmd << " created the corpus before refusing";
  }
}

TEST(BadInput, EvalReportsBadLinesByNumberAndAnswersTheRest) {
  // Lines 2 (a 3 MiB token spanning several 1 MiB reads), 4 (a NUL byte), 5 (four words, one
  // of nine digits) are bad; 1, 3 and 6 are good. The good lines' answers must be the same
  // as when they are sent alone.
  const std::string good1 = "3f800000 0 0 0\n", good3 = "0x40490fdb 1 2 3\n",
                    good6 = "7fc00000 0 0 ffffffff";
  std::string in = good1;
  in += std::string(3 << 20, 'f') + " 0 0 0\n";
  in += good3;
  in += std::string("3f800000 0\0 0 0\n", 16);
  in += "123456789 0 0 0\n";
  in += good6;
  const std::vector<std::string> argv = {LanediffPath(), "eval", "--targets", "gfx942", "--instrs",
                                         "v_cvt_pk_u8_f32"};
  ProcResult mixed = RunProcess(argv, in);
  ProcResult alone = RunProcess(argv, good1 + good3 + good6);
  EXPECT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(mixed.exit_code, 1) << mixed.err;
  // One output row per input row: the bad rows become error rows in place.
  const std::vector<std::string> rows = absl::StrSplit(mixed.out, '\n');
  const std::vector<std::string> good = absl::StrSplit(alone.out, '\n');
  ASSERT_EQ(rows.size(), 7u) << mixed.out.substr(0, 2000);
  ASSERT_EQ(good.size(), 4u) << alone.out;
  EXPECT_EQ(rows[0], good[0]);
  EXPECT_EQ(rows[2], good[1]);
  EXPECT_EQ(rows[5], good[2]);
  EXPECT_TRUE(absl::StartsWith(rows[1], "error: line 2: ")) << rows[1].substr(0, 200);
  EXPECT_TRUE(absl::StartsWith(rows[3], "error: line 4: ")) << rows[3];
  EXPECT_TRUE(absl::StartsWith(rows[4], "error: line 5: ")) << rows[4];
  EXPECT_LT(mixed.out.size(), 4096u) << "an error row echoes the whole 3 MiB line";
  for (const char* line : {"line 2:", "line 4:", "line 5:"}) {
    EXPECT_TRUE(absl::StrContains(mixed.err, line)) << line << " in " << mixed.err.substr(0, 2000);
  }
  for (const char* line : {"line 1:", "line 3:", "line 6:"}) {
    EXPECT_FALSE(absl::StrContains(mixed.err, line)) << line;
  }
  EXPECT_LT(mixed.err.size(), 4096u) << "the error echoes the whole 3 MiB line";
}

// Makes `dir` read-only for this child: a private mount namespace with a read-only bind mount
// of `dir` onto itself (root may ignore permission bits, not a read-only mount: EROFS). If
// the kernel refuses (no CAP_SYS_ADMIN), falls back to uid nobody and mode 0555. Writes which
// one it used to stderr.
bool MakeReadOnly(const std::string& dir) {
  if (::unshare(CLONE_NEWNS) == 0 && ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
      ::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0 &&
      ::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0) {
    std::fprintf(stderr, "read-only by: bind mount\n");
    return true;
  }
  ::chmod(dir.c_str(), 0555);
  std::fprintf(stderr, "read-only by: uid nobody and mode 0555\n");
  return BecomeNobody();
}

TEST(BadInput, ReadOnlyCorpusRefusesToFuzzButStillReplays) {
  const std::string root = MakeRealCorpus();
  const Tree before = Snapshot(root);
  auto ro = [&] { return MakeReadOnly(root); };
  ProcResult f = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--inject", "sr_wrap",
                             "--targets", "gfx942", "--execs", "50", "--lanes-per-batch", "64",
                             "--quiet", "--corpus", root},
                            "", ro);
  std::printf("%s", f.err.substr(0, f.err.find('\n') + 1).c_str());
  EXPECT_EQ(f.exit_code, 3) << f.err;  // environment error, before any case is run
  EXPECT_TRUE(absl::StrContains(f.err, root + "/findings")) << f.err;
  EXPECT_TRUE(absl::StrContains(f.err, "Read-only file system") ||
              absl::StrContains(f.err, "Permission denied"))
      << f.err;
  ProcResult r = RunProcess(
      {LanediffPath(), "replay", root + "/findings", "--device=sim", "--inject", "sr_wrap"}, "", ro);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, " 0 did not, 0 malformed")) << r.out;
  ::chmod(root.c_str(), 0755);
  EXPECT_EQ(DescribeChanges(before, Snapshot(root)), "");
}

TEST(BadInput, FileWhereTheCorpusDirectoryShouldBe) {
  const std::string root = MakeTempDir("file");
  WriteRaw(root + "/findings", "not a directory\n");
  ProcResult f = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--execs", "5", "--quiet",
                             "--corpus", root});
  EXPECT_EQ(f.exit_code, 3) << f.err;
  EXPECT_TRUE(absl::StrContains(f.err, root + "/findings")) << f.err;
  // And a corpus path under /proc (a filesystem that cannot hold files).
  ProcResult p = RunProcess({LanediffPath(), "fuzz", "--device=sim", "--execs", "5", "--quiet",
                             "--corpus", "/proc/self/lanediff_corpus"});
  EXPECT_EQ(p.exit_code, 3) << p.err;
  EXPECT_TRUE(absl::StrContains(p.err, "/proc/self/lanediff_corpus/findings")) << p.err;
}

}  // namespace
}  // namespace lanediff::reliability
