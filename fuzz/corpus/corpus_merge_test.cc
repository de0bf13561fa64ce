#include "fuzz/corpus/corpus_merge.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/corpus/corpus_store.h"
#include "gtest/gtest.h"
#include "proto/file_io.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

std::string TempDir() {
  std::string dir = ::testing::TempDir() + "corpus_merge_XXXXXX";
  EXPECT_NE(::mkdtemp(dir.data()), nullptr) << dir;
  return dir;
}

// One fp8 lane (src0 0x3fffffff, seed 0xfffff000) where the device answered `observed`.
proto::Finding MakeFinding(const std::string& sig, uint32_t observed = 0x39) {
  absl::StatusOr<proto::Finding> f = ParseText<proto::Finding>(
      absl::StrFormat("kind: DISAGREEMENT signature: \"%s\" expected: 0x40 observed: 0x%x "
                      "testcase { target: \"gfx942\" instr: v_cvt_sr_fp8_f32 "
                      "lanes { src0: 0x3fffffff src1: 0xfffff000 } }",
                      sig, observed),
      "MakeFinding");
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *f : proto::Finding();
}

// Every finding file under `root`: path relative to root -> text. Two equal snapshots are two
// byte-identical corpora.
std::map<std::string, std::string> Snapshot(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const LoadedFinding& lf : LoadCorpus({root}).findings) {
    absl::StatusOr<std::string> text = ReadFile(lf.path);
    EXPECT_TRUE(text.ok()) << text.status();
    out[lf.path.substr(root.size())] = text.ok() ? *text : "";
  }
  return out;
}

void WriteFinding(const std::string& root, const std::string& name, const proto::Finding& f) {
  const std::string dir = absl::StrCat(root, "/gfx942/v_cvt_sr_fp8_f32");
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(WriteFileAtomic(absl::StrCat(dir, "/", name), ToText(f)).ok());
}

uint64_t StoredCount(const std::string& root, const std::string& sig) {
  for (const LoadedFinding& lf : LoadCorpus({root}).findings) {
    if (lf.finding.signature() == sig) return lf.finding.count();
  }
  ADD_FAILURE() << "no finding " << sig << " under " << root;
  return 0;
}

TEST(CorpusMerge, SaturatingAddStopsAtTheMaximum) {
  EXPECT_EQ(SaturatingAdd(2, 3), 5u);
  EXPECT_EQ(SaturatingAdd(kMax, 0), kMax);
  EXPECT_EQ(SaturatingAdd(kMax, 1), kMax);       // wrapping would give 0
  EXPECT_EQ(SaturatingAdd(kMax - 1, 1), kMax);   // exactly the maximum
  EXPECT_EQ(SaturatingAdd(kMax - 1, 5), kMax);   // wrapping would give 3
}

TEST(CorpusMerge, ALegacyCountBecomesOneOriginNamedByItsFirstSighting) {
  proto::Finding f = MakeFinding("s");
  f.set_count(7);
  f.set_first_seen("2026-01-02T03:04:05Z");
  NormalizeOrigins(&f);
  ASSERT_EQ(f.origin_counts().size(), 1u);
  EXPECT_EQ(f.origin_counts().at("legacy-2026-01-02T03:04:05Z"), 7u);
  EXPECT_EQ(f.count(), 7u);
}

TEST(CorpusMerge, PerOriginMaximumThenSum) {
  // a: {m1: 3, m2: 1}, b: {m2: 4, m3: 2} -> {m1: 3, m2: max(1, 4) = 4, m3: 2}, count 9.
  proto::Finding a = MakeFinding("s"), b = MakeFinding("s");
  (*a.mutable_origin_counts())["m1"] = 3;
  (*a.mutable_origin_counts())["m2"] = 1;
  (*b.mutable_origin_counts())["m2"] = 4;
  (*b.mutable_origin_counts())["m3"] = 2;
  a.set_first_seen("2026-01-05T00:00:00Z");
  a.set_last_seen("2026-01-06T00:00:00Z");
  b.set_first_seen("2026-01-01T00:00:00Z");
  b.set_last_seen("2026-01-03T00:00:00Z");
  proto::Finding m = MergeFindings(a, b);
  EXPECT_EQ(m.count(), 9u);
  EXPECT_EQ(m.first_seen(), "2026-01-01T00:00:00Z");
  EXPECT_EQ(m.last_seen(), "2026-01-06T00:00:00Z");
  EXPECT_EQ(ToText(m), ToText(MergeFindings(b, a)));
  EXPECT_EQ(ToText(MergeFindings(m, b)), ToText(m));  // b again adds nothing
}

TEST(CorpusMerge, TheExampleKeptIsTheOneSeenFirstInEitherOrder) {
  proto::Finding early = MakeFinding("s", 0x39), late = MakeFinding("s", 0x55);
  early.set_first_seen("2026-01-01T00:00:00Z");
  late.set_first_seen("2026-02-01T00:00:00Z");
  EXPECT_EQ(MergeFindings(early, late).observed(0), 0x39u);
  EXPECT_EQ(MergeFindings(late, early).observed(0), 0x39u);
  // Seen at the same second: the smaller encoding (observed 0x39 < 0x55), in either order.
  late.set_first_seen(early.first_seen());
  EXPECT_EQ(MergeFindings(early, late).observed(0), 0x39u);
  EXPECT_EQ(MergeFindings(late, early).observed(0), 0x39u);
}

// Once a count of UINT64_MAX wrapped to a small number on the next merge or hit.
TEST(CorpusMerge, ACountAtTheMaximumNeverWraps) {
  const std::string src = TempDir(), dst = TempDir();
  auto store = CorpusStore::Open(dst);
  ASSERT_TRUE(store.ok()) << store.status();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(store->Record(MakeFinding("big")).ok());
  proto::Finding huge = MakeFinding("big");
  huge.set_count(kMax);
  huge.set_first_seen("2026-01-01T00:00:00Z");
  WriteFinding(src, "big.textproto", huge);
  ASSERT_TRUE(MergeCorpora({src}, dst).ok());
  EXPECT_EQ(StoredCount(dst, "big"), kMax);  // 5 + (2^64 - 1) wrapped to 4 before
  ASSERT_TRUE(store->Record(MakeFinding("big")).ok());
  EXPECT_EQ(StoredCount(dst, "big"), kMax);  // one more hit: still the maximum
}

// Once merging a corpus into a subdirectory of itself stored a second copy of
// every finding inside the source: loading the source then gave each finding twice.
TEST(CorpusMerge, MergingIntoASubdirectoryOfTheSourceIsRefused) {
  const std::string root = TempDir();
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store->Record(MakeFinding("one")).ok());
  absl::StatusOr<MergeStats> m = MergeCorpora({root}, root + "/merged");
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(m.status())) << m.status();
  EXPECT_NE(m.status().message().find("inside source"), absl::string_view::npos) << m.status();
  EXPECT_FALSE(std::filesystem::exists(root + "/merged"));
  EXPECT_EQ(LoadCorpus({root}).findings.size(), 1u);
  // A source inside the destination is fine: its findings are already there, nothing changes.
  const auto before = Snapshot(root);
  absl::StatusOr<MergeStats> sub = MergeCorpora({root + "/gfx942"}, root);
  ASSERT_TRUE(sub.ok()) << sub.status();
  EXPECT_EQ(sub->unchanged, 1);
  EXPECT_EQ(Snapshot(root), before);
}

// Once a second copy of a finding under another file name added its count to
// the real file on every merge of the corpus into itself (count 2 became 4, 6, 8 ...).
TEST(CorpusMerge, AStrayCopyUnderAnotherNameDoesNotInflateASelfMerge) {
  const std::string root = TempDir();
  auto store = CorpusStore::Open(root);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store->Record(MakeFinding("dup")).ok());
  auto r = store->Record(MakeFinding("dup"));
  ASSERT_TRUE(r.ok());
  std::filesystem::copy_file(r->path, DirName(r->path) + "/dup-copy.textproto");
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<MergeStats> m = MergeCorpora({root}, root);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->added + m->updated, 0);
  }
  auto text = ReadFile(r->path);
  ASSERT_TRUE(text.ok());
  auto f = ParseText<proto::Finding>(*text, r->path);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->count(), 2u);  // two hits recorded, however many merges
}

// An empty file parses as an empty Finding: a merge must not take it for the stored record
// (and overwrite it), but leave it untouched and say so.
TEST(CorpusMerge, AStoredFileThatIsNoFindingIsLeftUntouched) {
  const std::string src = TempDir(), dst = TempDir();
  WriteFinding(src, "s.textproto", MakeFinding("s"));
  auto store = CorpusStore::Open(dst);
  ASSERT_TRUE(store.ok());
  const std::string path = store->PathFor(MakeFinding("s"));
  std::filesystem::create_directories(DirName(path));
  ASSERT_TRUE(WriteFileAtomic(path, "").ok());
  absl::StatusOr<MergeStats> m = MergeCorpora({src}, dst);
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(absl::IsDataLoss(m.status())) << m.status();
  EXPECT_NE(m.status().message().find(path), absl::string_view::npos) << m.status();
  auto text = ReadFile(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "");
}

TEST(CorpusMerge, MergingTheSameCorpusTwiceChangesNothing) {
  const std::string a = TempDir(), dst = TempDir();
  auto sa = CorpusStore::Open(a);
  ASSERT_TRUE(sa.ok());
  ASSERT_TRUE(sa->Record(MakeFinding("one")).ok());
  ASSERT_TRUE(sa->Record(MakeFinding("one")).ok());
  ASSERT_TRUE(sa->Record(MakeFinding("two")).ok());
  absl::StatusOr<MergeStats> first = MergeCorpora({a}, dst);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->added, 2);
  const auto once = Snapshot(dst);
  absl::StatusOr<MergeStats> again = MergeCorpora({a, a}, dst);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->added + again->updated, 0);
  EXPECT_EQ(again->unchanged, 2);
  EXPECT_EQ(Snapshot(dst), once);
  EXPECT_EQ(StoredCount(dst, "one"), 2u);  // was 4 with merges that summed counts
}

// A corpus copied to another machine, hit again there, and merged back into the fleet corpus
// that already holds its first state: the fleet sees 3 + 2 hits (not 3 + 5), the first sighting
// from the first machine and the last from the second.
TEST(CorpusMerge, ACorpusMovedBetweenMachinesKeepsItsCountsAndTimes) {
  for (bool copy_origin_file : {true, false}) {
    SCOPED_TRACE(copy_origin_file ? "whole corpus copied" : "findings copied, .origin not");
    const std::string m1 = TempDir(), m2 = TempDir(), fleet = TempDir();
    auto s1 = CorpusStore::Open(m1);
    ASSERT_TRUE(s1.ok());
    for (const char* t : {"2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"}) {
      proto::Finding f = MakeFinding("moved");
      f.set_first_seen(t);
      f.set_last_seen(t);
      ASSERT_TRUE(s1->Record(f).ok());
    }
    ASSERT_TRUE(MergeCorpora({m1}, fleet).ok());
    EXPECT_EQ(StoredCount(fleet, "moved"), 3u);
    std::filesystem::copy(m1, m2,
                          std::filesystem::copy_options::recursive |
                              std::filesystem::copy_options::overwrite_existing);
    if (!copy_origin_file) std::filesystem::remove(m2 + "/.origin");
    auto s2 = CorpusStore::Open(m2);
    ASSERT_TRUE(s2.ok());
    EXPECT_EQ(*s2->Origin() == *s1->Origin(), copy_origin_file);
    for (const char* t : {"2026-02-01T00:00:00Z", "2026-02-02T00:00:00Z"}) {
      proto::Finding f = MakeFinding("moved");
      f.set_first_seen(t);
      f.set_last_seen(t);
      ASSERT_TRUE(s2->Record(f).ok());
    }
    EXPECT_EQ(StoredCount(m2, "moved"), 5u);
    ASSERT_TRUE(MergeCorpora({m2}, fleet).ok());
    ASSERT_TRUE(MergeCorpora({m1}, fleet).ok());  // the old state again: nothing new
    CorpusLoad load = LoadCorpus({fleet});
    ASSERT_EQ(load.findings.size(), 1u);
    EXPECT_EQ(load.findings[0].finding.count(), 5u);
    EXPECT_EQ(load.findings[0].finding.first_seen(), "2026-01-01T00:00:00Z");
    EXPECT_EQ(load.findings[0].finding.last_seen(), "2026-02-02T00:00:00Z");
  }
}

// Random records of signatures sig0..sig5: overlapping, per-origin and legacy counts, counts
// near the maximum, differing examples and times. Fixed seed: the same records every run.
class RandomFindings {
 public:
  explicit RandomFindings(uint64_t seed) : rng_(seed) {}

  proto::Finding Make(int sig) {
    proto::Finding f = MakeFinding(absl::StrCat("sig", sig), 0x30 + static_cast<uint32_t>(Pick(4)));
    f.set_first_seen(kTimes[Pick(4)]);
    f.set_last_seen(std::max(f.first_seen(), std::string(kTimes[Pick(4)])));
    const uint64_t big = rng_() % 5 == 0 ? kMax - Pick(3) : 1 + Pick(9);
    if (rng_() % 4 == 0) {
      f.set_count(big);  // a finding stored before per-origin counts
      return f;
    }
    for (const char* origin : kOrigins) {
      if (rng_() % 2) (*f.mutable_origin_counts())[origin] = rng_() % 2 ? big : 1 + Pick(9);
    }
    if (f.origin_counts().empty()) f.set_count(1);
    NormalizeOrigins(&f);
    return f;
  }

  // A corpus directory holding some of the six signatures.
  void Corpus(const std::string& root) {
    for (int s = 0; s < 6; ++s) {
      if (rng_() % 3 == 0) continue;  // this corpus has not seen signature s
      WriteFinding(root, absl::StrCat("sig", s, rng_() % 2 ? ".textproto" : ".txtpb"), Make(s));
    }
  }

 private:
  size_t Pick(size_t n) { return static_cast<size_t>(rng_() % n); }
  static constexpr const char* kTimes[] = {"", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z",
                                           "2026-03-01T12:00:00Z"};
  static constexpr const char* kOrigins[] = {"0000000000000001", "00000000000000a2",
                                             "legacy-2026-01-01T00:00:00Z", "ffffffffffffffff"};
  std::mt19937_64 rng_;
};

// Property, record by record: MergeFindings is commutative, associative and idempotent.
TEST(CorpusMerge, MergeFindingsIsCommutativeAssociativeAndIdempotent) {
  RandomFindings gen(20261201);
  for (int trial = 0; trial < 2000; ++trial) {
    SCOPED_TRACE(absl::StrCat("trial ", trial));
    const proto::Finding a = gen.Make(0), b = gen.Make(0), c = gen.Make(0);
    const std::string ab = ToText(MergeFindings(a, b));
    ASSERT_EQ(ToText(MergeFindings(b, a)), ab);
    ASSERT_EQ(ToText(MergeFindings(MergeFindings(a, b), b)), ab);
    ASSERT_EQ(ToText(MergeFindings(MergeFindings(a, b), c)),
              ToText(MergeFindings(a, MergeFindings(b, c))));
  }
}

// Property, corpus by corpus on disk: merging into an empty corpus gives byte-identical results
// for A then B, B then A and both at once; A again changes nothing; (A + B) + C == A + (B + C).
TEST(CorpusMerge, CorpusMergeIsIdempotentCommutativeAndAssociativeOnRandomCorpora) {
  RandomFindings gen(42);
  for (int trial = 0; trial < 4; ++trial) {
    SCOPED_TRACE(absl::StrCat("trial ", trial));
    const std::string a = TempDir(), b = TempDir(), c = TempDir();
    gen.Corpus(a);
    gen.Corpus(b);
    gen.Corpus(c);
    const std::string ab = TempDir(), ba = TempDir(), both = TempDir(), bc = TempDir(),
                      ab_c = TempDir(), a_bc = TempDir();
    ASSERT_TRUE(MergeCorpora({a}, ab).ok());
    ASSERT_TRUE(MergeCorpora({b}, ab).ok());
    ASSERT_TRUE(MergeCorpora({b}, ba).ok());
    ASSERT_TRUE(MergeCorpora({a}, ba).ok());
    ASSERT_TRUE(MergeCorpora({a, b}, both).ok());
    const auto snap = Snapshot(ab);
    EXPECT_FALSE(snap.empty());
    EXPECT_EQ(Snapshot(ba), snap);
    EXPECT_EQ(Snapshot(both), snap);
    absl::StatusOr<MergeStats> again = MergeCorpora({a}, ab);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->added + again->updated, 0);
    EXPECT_EQ(Snapshot(ab), snap);
    ASSERT_TRUE(MergeCorpora({ab, c}, ab_c).ok());
    ASSERT_TRUE(MergeCorpora({b, c}, bc).ok());
    ASSERT_TRUE(MergeCorpora({a, bc}, a_bc).ok());
    EXPECT_EQ(Snapshot(ab_c), Snapshot(a_bc));
    for (const std::string& d : {a, b, c, ab, ba, both, bc, ab_c, a_bc}) {
      std::filesystem::remove_all(d);
    }
  }
}

}  // namespace
}  // namespace lanediff
