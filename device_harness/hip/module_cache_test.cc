// The module cache's policy, checked with values that record when they are dropped (a dropped
// Module is an unloaded one). Expected hits and misses are LRU's, derived by hand beside each
// case.
#include "device_harness/hip/module_cache.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::ElementsAre;

// Appends its name to `log` when destroyed (after a move, only the moved-to one does).
class Tracked {
 public:
  Tracked(std::string name, std::vector<std::string>* log) : name_(std::move(name)), log_(log) {}
  Tracked(Tracked&& o) noexcept : name_(std::move(o.name_)), log_(std::exchange(o.log_, nullptr)) {}
  Tracked& operator=(Tracked&&) = delete;
  ~Tracked() {
    if (log_ != nullptr) log_->push_back(name_);
  }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::vector<std::string>* log_;
};

ModuleKey Key(const std::string& target, uint32_t w0) { return {target, {w0, 0x040e0501u}}; }

// Looks `name`'s key up and inserts it on a miss; returns true on a hit.
bool Use(LruCache<ModuleKey, Tracked>& c, uint32_t w0, std::vector<std::string>* log) {
  const ModuleKey k = Key("gfx942", w0);
  if (c.Find(k) != nullptr) return true;
  c.Insert(k, Tracked(std::to_string(w0), log));
  return false;
}

TEST(ModuleCacheTest, ABAHitsTheSecondA) {
  std::vector<std::string> dropped;
  LruCache<ModuleKey, Tracked> c(2);
  EXPECT_FALSE(Use(c, 1, &dropped));  // A: miss
  EXPECT_FALSE(Use(c, 2, &dropped));  // B: miss
  EXPECT_TRUE(Use(c, 1, &dropped));   // A: hit (2 entries fit)
  EXPECT_EQ(c.hits(), 1u);
  EXPECT_EQ(c.misses(), 2u);
  EXPECT_TRUE(dropped.empty());
  EXPECT_EQ(c.Keys()[0].words[0], 1u);  // A is the most recent now
}

TEST(ModuleCacheTest, AFullCacheDropsOnlyTheLeastRecentlyUsed) {
  std::vector<std::string> dropped;
  LruCache<ModuleKey, Tracked> c(2);
  Use(c, 1, &dropped);                // [1]
  Use(c, 2, &dropped);                // [2 1]
  EXPECT_TRUE(Use(c, 1, &dropped));   // [1 2]: 1 refreshed
  EXPECT_FALSE(Use(c, 3, &dropped));  // full: drops 2, the least recent (not 1, the oldest insert)
  EXPECT_THAT(dropped, ElementsAre("2"));
  EXPECT_TRUE(Use(c, 1, &dropped));   // 1 stayed loaded: no clear-all
  EXPECT_TRUE(Use(c, 3, &dropped));
  EXPECT_FALSE(Use(c, 2, &dropped));  // [2 3]: drops 1 (3 was used after it)
  EXPECT_THAT(dropped, ElementsAre("2", "1"));
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c.evictions(), 2u);
}

// Cycling through one more key than fits is LRU's worst case: every access misses, each
// miss drops exactly the key about to be needed next. A working set that fits always hits
// after its first pass.
TEST(ModuleCacheTest, MoreThanCapacityMissesAsLruSaysAndAFittingSetHits) {
  std::vector<std::string> dropped;
  LruCache<ModuleKey, Tracked> c(3);
  for (int pass = 0; pass < 3; ++pass) {
    for (uint32_t w = 1; w <= 4; ++w) EXPECT_FALSE(Use(c, w, &dropped)) << "pass " << pass << " key " << w;
  }
  EXPECT_EQ(c.misses(), 12u);
  EXPECT_EQ(c.hits(), 0u);
  // 12 inserts into 3 slots: 9 drops, in insertion order 1 2 3 4 1 2 3 4 1.
  EXPECT_THAT(dropped, ElementsAre("1", "2", "3", "4", "1", "2", "3", "4", "1"));
  EXPECT_EQ(c.size(), 3u);

  std::vector<std::string> none;  // declared first: the cache's entries log into it when destroyed
  LruCache<ModuleKey, Tracked> fits(3);
  for (int pass = 0; pass < 3; ++pass) {
    for (uint32_t w = 1; w <= 3; ++w) Use(fits, w, &none);
  }
  EXPECT_EQ(fits.misses(), 3u);  // the first pass only
  EXPECT_EQ(fits.hits(), 6u);
  EXPECT_TRUE(none.empty());
}

TEST(ModuleCacheTest, TheTargetIsPartOfTheKey) {
  std::vector<std::string> dropped;
  LruCache<ModuleKey, Tracked> c(4);
  c.Insert(Key("gfx942", 1), Tracked("942", &dropped));
  EXPECT_EQ(c.Find(Key("gfx950", 1)), nullptr);  // same words, another code object
  ASSERT_NE(c.Find(Key("gfx942", 1)), nullptr);
  EXPECT_EQ(c.Find(Key("gfx942", 1))->name(), "942");
}

}  // namespace
}  // namespace lanediff
