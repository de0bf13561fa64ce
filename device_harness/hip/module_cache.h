// The HIP runner's loaded modules: a least-recently-used cache keyed by target and instruction
// words. A hit moves the entry to the front; inserting into a full cache drops exactly one
// entry, the least recently used (its destructor unloads the module). Nothing ever clears the
// whole cache: a word in use stays loaded while less recent ones go.
//
//   LruCache<ModuleKey, Module> cache(kHipModuleCacheSize);
//   if (Module* m = cache.Find(key)) return m->function();        // a hit
//   Module& m = cache.Insert(key, std::move(loaded));             // a miss: may evict one
//
// Header-only and HIP-free, so module_cache_test checks the policy with plain values.
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_MODULE_CACHE_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_MODULE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lanediff {

// What a loaded module is for: the code object's target and the words spliced into it.
struct ModuleKey {
  std::string target;
  std::vector<uint32_t> words;
  friend bool operator<(const ModuleKey& a, const ModuleKey& b) {
    return a.target != b.target ? a.target < b.target : a.words < b.words;
  }
};

template <typename Key, typename Value>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}
  LruCache(const LruCache&) = delete;
  LruCache& operator=(const LruCache&) = delete;

  // The value for `key`, now the most recently used, or nullptr (counted as a miss).
  Value* Find(const Key& key) {
    auto it = index_.find(key);
    if (it == index_.end()) {
      ++misses_;
      return nullptr;
    }
    ++hits_;
    entries_.splice(entries_.begin(), entries_, it->second);
    return &it->second->second;
  }

  // Adds `value` for `key` (not present) as the most recently used; when the cache is full,
  // first drops the least recently used entry.
  Value& Insert(const Key& key, Value value) {
    if (entries_.size() >= capacity_) {
      index_.erase(entries_.back().first);
      entries_.pop_back();
      ++evictions_;
    }
    entries_.emplace_front(key, std::move(value));
    index_[key] = entries_.begin();
    return entries_.front().second;
  }

  // Drops everything: the runner's teardown only, never to make room.
  void Clear() {
    index_.clear();
    entries_.clear();
  }

  size_t size() const { return entries_.size(); }
  size_t capacity() const { return capacity_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t evictions() const { return evictions_; }
  // Keys from most to least recently used.
  std::vector<Key> Keys() const {
    std::vector<Key> out;
    for (const auto& e : entries_) out.push_back(e.first);
    return out;
  }

 private:
  size_t capacity_;
  std::list<std::pair<Key, Value>> entries_;  // front: most recently used
  std::map<Key, typename std::list<std::pair<Key, Value>>::iterator> index_;
  uint64_t hits_ = 0, misses_ = 0, evictions_ = 0;
};

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_MODULE_CACHE_H_
