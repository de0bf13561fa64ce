// Tests whose exhaustive form visits every (target, instruction row) pair grow with rows x
// targets. Their default run visits a seeded sample of the pairs instead, of a fixed size, so
// its cost does not grow with the rows; the `slow`-labelled run of the same binary visits them
// all. The seed is fresh each run (a different sample each time, so that repeated runs cover
// every pair) unless LANEDIFF_TEST_SEED=N gives it, and the sample is a function of the seed
// alone: the printed seed reruns a failing sample exactly. LANEDIFF_TEST_PAIRS=all visits every
// pair.
//
// The sample covers every target (when the budget is at least the number of targets) and as
// many distinct rows as it has room for: pairs are taken in a seeded random order, first those
// whose target and row are both not yet taken, then those with a new target, then those with a
// new row, then any.
//
//   for (const TargetInstr& p : SamplePairs("discriminate", 16)) ... p.target->name, p.instr
#ifndef LANEDIFF_MODEL_TARGETS_PAIR_SAMPLE_TEST_UTIL_H_
#define LANEDIFF_MODEL_TARGETS_PAIR_SAMPLE_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/targets/targets.h"

namespace lanediff {

struct TargetInstr {
  const TargetTraits* target;
  Instr instr;
};

// Every pair, in target then row order.
inline std::vector<TargetInstr> AllTargetInstrPairs() {
  std::vector<TargetInstr> out;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr i : kAllInstrs) {
      if (t.Has(i)) out.push_back({&t, i});
    }
  }
  return out;
}

// LANEDIFF_TEST_SEED when set (decimal), else a fresh one.
inline uint64_t TestSampleSeed() {
  if (const char* s = std::getenv("LANEDIFF_TEST_SEED"); s != nullptr && *s != '\0') {
    return std::strtoull(s, nullptr, 10);
  }
  return (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
}

// Up to `budget` pairs (all of them when LANEDIFF_TEST_PAIRS=all or budget covers them all),
// in target then row order. Prints the seed, how to rerun, and the pairs taken.
// Each predicate of `must` is met by at least one pair taken (the first such in the seeded
// order), within the budget: a test that needs, say, a VGPR-pair writer always has one. `among`
// (when given) limits the pairs to those it accepts (one target's rows, for instance).
using PairTest = std::function<bool(const TargetInstr&)>;
inline std::vector<TargetInstr> SamplePairs(const char* what, size_t budget,
                                            const std::vector<PairTest>& must = {},
                                            const PairTest& among = nullptr) {
  std::vector<TargetInstr> all;
  for (const TargetInstr& p : AllTargetInstrPairs()) {
    if (!among || among(p)) all.push_back(p);
  }
  const char* mode = std::getenv("LANEDIFF_TEST_PAIRS");
  if ((mode != nullptr && std::strcmp(mode, "all") == 0) || budget >= all.size()) {
    std::printf("[sample] %s: all %zu target x instruction pairs\n", what, all.size());
    std::fflush(stdout);
    return all;
  }
  const uint64_t seed = TestSampleSeed();
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  // Fisher-Yates with the engine's raw output (std::shuffle's draws differ between standard
  // libraries; this order must not).
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  std::set<const TargetTraits*> targets;
  std::set<Instr> rows;
  std::vector<bool> taken(all.size(), false);
  size_t n = 0;
  auto take = [&](size_t i) {
    taken[i] = true;
    targets.insert(all[i].target);
    rows.insert(all[i].instr);
    ++n;
  };
  for (const auto& pred : must) {
    bool met = false;
    for (size_t i = 0; i < all.size() && !met; ++i) met = taken[i] && pred(all[i]);
    for (size_t k = 0; k < order.size() && !met && n < budget; ++k) {
      if (pred(all[order[k]])) take(order[k]), met = true;
    }
  }
  // Pass 0: target and row both new; 1: a new target; 2: a new row; 3: any.
  for (int pass = 0; pass < 4 && n < budget; ++pass) {
    for (size_t k = 0; k < order.size() && n < budget; ++k) {
      const size_t i = order[k];
      if (taken[i]) continue;
      const bool new_target = !targets.count(all[i].target), new_row = !rows.count(all[i].instr);
      const bool want[4] = {new_target && new_row, new_target, new_row, true};
      if (!want[pass]) continue;
      take(i);
    }
  }
  std::vector<TargetInstr> out;
  std::string names;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!taken[i]) continue;
    out.push_back(all[i]);
    names += " " + std::string(all[i].target->name) + "/" + std::string(InstrName(all[i].instr));
  }
  std::printf("[sample] %s: %zu of %zu target x instruction pairs, seed %llu (rerun this sample: "
              "LANEDIFF_TEST_SEED=%llu; every pair: LANEDIFF_TEST_PAIRS=all):%s\n",
              what, out.size(), all.size(), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed), names.c_str());
  std::fflush(stdout);
  return out;
}

}  // namespace lanediff

#endif  // LANEDIFF_MODEL_TARGETS_PAIR_SAMPLE_TEST_UTIL_H_
