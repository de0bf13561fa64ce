#include "fuzz/corpus/corpus_store.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

std::string TempDir() {
  std::string templ = ::testing::TempDir() + "corpus_store_XXXXXX";
  char* d = ::mkdtemp(templ.data());
  EXPECT_NE(d, nullptr);
  return templ;
}

proto::Finding MakeFinding(const std::string& sig, uint32_t observed = 0x39) {
  proto::Finding f;
  f.set_kind(proto::Finding::DISAGREEMENT);
  f.set_signature(sig);
  f.mutable_testcase()->set_target("gfx942");
  f.mutable_testcase()->set_instr(proto::v_cvt_sr_fp8_f32);
  proto::Lane* lane = f.mutable_testcase()->add_lanes();
  lane->set_src0(0x3fffffff);
  lane->set_src1(0xfffff000);
  f.add_expected(0x40);
  f.add_observed(observed);
  return f;
}

void WriteRaw(const std::string& path, const std::string& data) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << data;
}

TEST(CorpusStore, NewThenDuplicateKeepsFirstExampleAndCounts) {
  const std::string root = TempDir();
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok()) << store.status();
  proto::Finding a = MakeFinding("sig_a", 0x39);
  a.set_first_seen("2026-01-01T00:00:00Z");
  a.set_last_seen("2026-01-01T00:00:00Z");
  auto r1 = store->Record(a);
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_TRUE(r1->is_new);
  EXPECT_EQ(r1->path, root + "/gfx942/v_cvt_sr_fp8_f32/sig_a.textproto");
  proto::Finding b = MakeFinding("sig_a", 0x55);  // another example, same signature
  b.set_first_seen("2026-02-01T00:00:00Z");
  b.set_last_seen("2026-02-01T00:00:00Z");
  auto r2 = store->Record(b);
  ASSERT_TRUE(r2.ok()) << r2.status();
  EXPECT_FALSE(r2->is_new);
  EXPECT_EQ(r2->count, 2u);
  CorpusLoad load = LoadCorpus({root});
  EXPECT_TRUE(load.errors.empty());
  ASSERT_EQ(load.findings.size(), 1u);
  const proto::Finding& s = load.findings[0].finding;
  EXPECT_EQ(s.observed(0), 0x39u);  // first example kept
  EXPECT_EQ(s.count(), 2u);
  EXPECT_EQ(s.first_seen(), "2026-01-01T00:00:00Z");
  EXPECT_EQ(s.last_seen(), "2026-02-01T00:00:00Z");
  // The file is the project's text format: hex words.
  auto text = ReadFile(r1->path);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("0xfffff000"), std::string::npos) << *text;
}

TEST(CorpusStore, ConcurrentWritersNeitherLoseNorDuplicate) {
  const std::string root = TempDir();
  constexpr int kWriters = 6, kEach = 25;
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto store = CorpusStore::Open(root);
      if (!store.ok()) ::_exit(10);
      for (int i = 0; i < kEach; ++i) {
        if (!store->Record(MakeFinding("shared")).ok()) ::_exit(11);
        if (!store->Record(MakeFinding(absl::StrCat("own_", w, "_", i % 5))).ok()) ::_exit(12);
      }
      ::_exit(0);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  CorpusLoad load = LoadCorpus({root});
  EXPECT_TRUE(load.errors.empty());
  ASSERT_EQ(load.findings.size(), 1u + kWriters * 5);  // one file per signature
  uint64_t total = 0;
  for (const LoadedFinding& lf : load.findings) {
    if (lf.finding.signature() == "shared") EXPECT_EQ(lf.finding.count(), uint64_t{kWriters * kEach});
    else EXPECT_EQ(lf.finding.count(), uint64_t{kEach / 5});
    total += lf.finding.count();
  }
  EXPECT_EQ(total, uint64_t{2 * kWriters * kEach});
  // No temp files left behind by writers that finished.
  for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
    EXPECT_EQ(e.path().filename().string().rfind(".tmp.", 0), std::string::npos) << e.path();
  }
}

TEST(CorpusStore, SigkilledWritersNeverLeaveTornFiles) {
  // Each round a child records findings in a loop and writes a byte to a pipe after each
  // record. The parent waits for the state it means to interrupt, "recording again after
  // round + 1 records", then SIGKILLs it: mid-write at a different point each round, and never
  // before the first record, however loaded the machine (a fixed 5 ms sleep found 0 findings
  // on a busy 2-core box).
  const std::string root = TempDir();
  for (int round = 0; round < 8; ++round) {
    int p[2];
    ASSERT_EQ(::pipe(p), 0);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(p[0]);
      auto store = CorpusStore::Open(root);
      for (int i = 0;; ++i) {
        (void)store->Record(MakeFinding(absl::StrCat("k", i % 7)));
        if (::write(p[1], "r", 1) != 1) _exit(1);
      }
    }
    ::close(p[1]);
    int records = 0;
    char c;
    while (records < round + 1 && ::read(p[0], &c, 1) == 1) ++records;
    ::kill(pid, SIGKILL);
    int status;
    ::waitpid(pid, &status, 0);
    ::close(p[0]);
    ASSERT_EQ(records, round + 1) << "the writer died before its records";
  }
  CorpusLoad load = LoadCorpus({root});
  EXPECT_TRUE(load.errors.empty()) << load.errors[0];
  EXPECT_GE(load.findings.size(), 1u);
  // A restart resumes: recording again works and counts continue.
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok());
  auto r = store->Record(MakeFinding("k0"));
  ASSERT_TRUE(r.ok()) << r.status();
}

TEST(CorpusStore, BadFilesAreReportedByNameAndLineAndNotRewritten) {
  const std::string root = TempDir();
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store->Record(MakeFinding("good")).ok());
  const std::string dir = root + "/gfx942/v_cvt_sr_fp8_f32/";
  const std::string bad_text = "kind: DISAGREEMENT\nsignature: \"x\"\nbogus_field: 3\n";
  WriteRaw(dir + "bad.textproto", bad_text);
  std::string full = ToText(MakeFinding("trunc"));
  WriteRaw(dir + "trunc.textproto", full.substr(0, full.size() / 2));
  std::string bin;
  MakeFinding("bin").SerializeToString(&bin);
  WriteRaw(dir + "ok.binpb", bin);
  WriteRaw(dir + "cut.binpb", bin.substr(0, bin.size() - 3));
  WriteRaw(dir + "nosig.textproto", "kind: DISAGREEMENT\n");
  CorpusLoad load = LoadCorpus({root});
  ASSERT_EQ(load.findings.size(), 2u);  // good + ok.binpb
  ASSERT_EQ(load.errors.size(), 4u);
  std::string all;
  for (const auto& e : load.errors) all += e + "\n";
  EXPECT_NE(all.find(dir + "bad.textproto:3:"), std::string::npos) << all;
  EXPECT_NE(all.find(dir + "trunc.textproto:"), std::string::npos) << all;
  EXPECT_NE(all.find(dir + "cut.binpb: malformed"), std::string::npos) << all;
  EXPECT_NE(all.find(dir + "nosig.textproto: field signature"), std::string::npos) << all;
  auto still = ReadFile(dir + "bad.textproto");
  ASSERT_TRUE(still.ok());
  EXPECT_EQ(*still, bad_text);
  // Recording onto a malformed stored file refuses and leaves it alone.
  WriteRaw(dir + "broken.textproto", "kind: DISAGREEMENT\nsignature: \"broken\"\nlanes {");
  auto r = store->Record(MakeFinding("broken"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(*ReadFile(dir + "broken.textproto"),
            "kind: DISAGREEMENT\nsignature: \"broken\"\nlanes {");
}

TEST(CorpusStore, StoredFileThatParsesButIsNoFindingIsNeverOverwritten) {
  // An empty file parses (as an empty Finding), and so does one with
  // `kind: 7`; before the fix the next Record() overwrote either with the new example.
  const std::string root = TempDir();
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok()) << store.status();
  const proto::Finding f = MakeFinding("sig_v");
  const std::string path = store->PathFor(f);
  std::string kind7 = ToText(f);
  const size_t at = kind7.find("kind: DISAGREEMENT");
  ASSERT_NE(at, std::string::npos) << kind7;
  kind7.replace(at, 18, "kind: 7");  // a number the enum does not define (proto3 accepts it)
  const struct {
    std::string contents, says;
  } cases[] = {{"", "field signature"}, {kind7, "field kind: 7 is not a Finding.Kind"}};
  for (const auto& c : cases) {
    WriteRaw(path, c.contents);
    auto r = store->Record(f);
    ASSERT_FALSE(r.ok()) << c.says;
    EXPECT_TRUE(absl::IsDataLoss(r.status())) << r.status();
    EXPECT_THAT(std::string(r.status().message()),
                ::testing::AllOf(::testing::HasSubstr("left untouched"), ::testing::HasSubstr(path),
                                 ::testing::HasSubstr(c.says)));
    std::ifstream in(path, std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), c.contents);
  }
}

TEST(CorpusStore, OutOfRangeKindIsRefusedInTextAndBinary) {
  // `kind: 7` parses (proto3 enums are open) but is no Finding.Kind.
  const std::string root = TempDir();
  proto::Finding f = MakeFinding("sig_k");
  f.set_kind(static_cast<proto::Finding::Kind>(7));
  WriteRaw(root + "/k.textproto", ToText(f));
  WriteRaw(root + "/k.binpb", f.SerializeAsString());
  CorpusLoad load = LoadCorpus({root});
  EXPECT_TRUE(load.findings.empty());
  ASSERT_EQ(load.errors.size(), 2u);
  EXPECT_EQ(load.errors[0], root + "/k.binpb: field kind: 7 is not a Finding.Kind (1 DISAGREEMENT, 2 DEVICE_FAULT)");
  EXPECT_EQ(load.errors[1], root + "/k.textproto: field kind: 7 is not a Finding.Kind (1 DISAGREEMENT, 2 DEVICE_FAULT)");
  auto store = CorpusStore::Open(root + "/store");
  ASSERT_TRUE(store.ok());
  EXPECT_FALSE(store->Record(f).ok());
}

TEST(CorpusStore, SpecialFilesAndUnreadableDirectoriesAreNamed) {
  // A FIFO (whatever its name) is refused by name, without
  // blocking on open; the walk goes past it and loads the rest.
  const std::string root = TempDir();
  WriteRaw(root + "/a/good.textproto", ToText(MakeFinding("sig_g")));
  ASSERT_EQ(::mkfifo((root + "/a/pipe.textproto").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((root + "/a/pipe").c_str(), 0644), 0);
  CorpusLoad load = LoadCorpus({root, root + "/a/pipe.textproto", "/dev/null"});
  ASSERT_EQ(load.findings.size(), 1u);
  EXPECT_THAT(load.errors, ::testing::ElementsAre(
                               root + "/a/pipe: not a regular file (FIFO), refused",
                               root + "/a/pipe.textproto: not a regular file (FIFO), refused",
                               root + "/a/pipe.textproto: not a regular file (FIFO), refused",
                               "/dev/null: not a regular file (character device), refused"));
}

TEST(CorpusStore, BinaryFindingWithUnknownFieldsMergesToValidText) {
  // Found by proto_parser_fuzzer: a binary finding carrying fields this schema does not know
  // printed as "9: 0x..." text that no parser reads back. The store must drop them.
  const std::string src = TempDir(), dst = TempDir();
  std::string bin;
  MakeFinding("unknown").SerializeToString(&bin);
  bin += std::string("\xc8\x3e\x05", 3);  // field 1001, varint 5: unknown to this schema
  WriteRaw(src + "/x.binpb", bin);
  auto merged = MergeCorpora({src}, dst);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(merged->added, 1);
  CorpusLoad load = LoadCorpus({dst});
  EXPECT_TRUE(load.errors.empty()) << load.errors[0];
  EXPECT_EQ(load.findings.size(), 1u);
}

TEST(CorpusStore, MergeJoinsWithoutDuplicates) {
  const std::string a = TempDir(), b = TempDir(), dst = TempDir();
  auto sa = CorpusStore::Open(a), sb = CorpusStore::Open(b);
  ASSERT_TRUE(sa->Record(MakeFinding("one")).ok());
  ASSERT_TRUE(sa->Record(MakeFinding("two")).ok());
  ASSERT_TRUE(sb->Record(MakeFinding("two")).ok());
  ASSERT_TRUE(sb->Record(MakeFinding("three")).ok());
  auto m = MergeCorpora({a, b}, dst);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->added, 3);
  EXPECT_EQ(m->updated, 1);
  CorpusLoad load = LoadCorpus({dst});
  ASSERT_EQ(load.findings.size(), 3u);
  for (const auto& lf : load.findings) {
    EXPECT_EQ(lf.finding.count(), lf.finding.signature() == "two" ? 2u : 1u);
  }
  // Merging a corpus into itself changes nothing.
  auto self = MergeCorpora({dst}, dst);
  ASSERT_TRUE(self.ok());
  EXPECT_EQ(LoadCorpus({dst}).findings[2].finding.count(), 2u);
}

TEST(CorpusStore, UnwritableRootFailsCleanly) {
  const std::string root = TempDir();
  WriteRaw(root + "/file", "x");
  auto store = CorpusStore::Open(root + "/file/findings");  // a component is a file
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find(root + "/file/findings"), std::string::npos)
      << store.status();
  if (::geteuid() != 0) {
    const std::string ro = root + "/ro";
    ::mkdir(ro.c_str(), 0555);
    auto s2 = CorpusStore::Open(ro);
    EXPECT_EQ(s2.status().code(), absl::StatusCode::kPermissionDenied) << s2.status();
  } else {
    std::printf("note: running as root, so mode 0555 does not stop writes; the read-only case "
                "is covered by the file-in-path case above\n");
  }
}

TEST(CorpusStore, WriteFailureMidFileLeavesOldFileAndNoTemp) {
  // RLIMIT_FSIZE makes write() fail part-way (EFBIG), the way a full disk (ENOSPC) does.
  const std::string root = TempDir();
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store->Record(MakeFinding("big")).ok());
  const std::string path = root + "/gfx942/v_cvt_sr_fp8_f32/big.textproto";
  const std::string before = *ReadFile(path);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {64, 64};
    ::setrlimit(RLIMIT_FSIZE, &rl);
    absl::Status st = WriteFileAtomic(path, std::string(4096, 'x'));
    if (st.ok()) ::_exit(20);
    if (st.message().find(path) == absl::string_view::npos) ::_exit(21);
    if (st.message().find("write failed") == absl::string_view::npos) ::_exit(22);
    ::_exit(0);
  }
  int status;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(*ReadFile(path), before);
  for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
    EXPECT_EQ(e.path().filename().string().rfind(".tmp.", 0), std::string::npos) << e.path();
  }
}

TEST(CorpusStore, ALockFileThatIsASymlinkIsNeverFollowed) {
  // A symlink planted where a signature's lock file belongs (a merge destination another user
  // can write to): the store refuses it by name and creates nothing at its target.
  const std::string root = TempDir();
  const std::string target = TempDir() + "/planted";
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok()) << store.status();
  const proto::Finding f = MakeFinding("sig_link");
  const std::string dir = std::filesystem::path(store->PathFor(f)).parent_path().string();
  std::filesystem::create_directories(dir);
  std::filesystem::create_symlink(target, dir + "/.sig_link.lock");
  auto r = store->Record(f);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), ".sig_link.lock: lock file is a symbolic link"))
      << r.status();
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(target))) << target;
  auto m = store->Merge(f);
  EXPECT_FALSE(m.ok());
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(target))) << target;
}

}  // namespace
}  // namespace lanediff
