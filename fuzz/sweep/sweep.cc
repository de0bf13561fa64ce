#include "fuzz/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/batch.h"
#include "model/base/status.h"
#include "model/isa/testcase.h"

namespace lanediff {
namespace {

constexpr int kMaxExamples = 8;

// Fixed per-value hashes (splitmix64 finalizer): lane data depends only on the swept value,
// never on the shard or worker, so shards merge into exactly the unsharded result.
uint32_t Mix(uint64_t v, uint64_t salt) {
  uint64_t z = v * 0x9e3779b97f4a7c15ull + salt;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

struct ChunkOutcome {
  uint64_t mismatches = 0;
  uint64_t round_up_model = 0, round_up_device = 0;
  uint64_t oracle_checked = 0, oracle_mismatches = 0;
  std::vector<proto::Lane> examples;
  std::vector<uint32_t> expected, observed;
  std::vector<proto::Lane> oracle_examples;
  std::string fault;
};

proto::TestCase TemplateCase(const OpContext& ctx) {
  proto::TestCase tc;
  tc.set_target(std::string(ctx.target->name));
  tc.set_instr(InstrToProto(ctx.instr));
  proto::Encoding* e = tc.mutable_encoding();
  e->set_opsel(ctx.mods.opsel);
  e->set_neg(ctx.mods.neg);
  e->set_abs(ctx.mods.abs);
  e->set_clamp(ctx.mods.clamp);
  e->set_omod(ctx.mods.omod);
  tc.set_mode(ctx.mode);
  tc.add_lanes();
  return tc;
}

// The byte a seed-sweep lane writes (the byte select is uniform: OPSEL, not S1).
uint8_t SweptByte(const OpContext& ctx, uint32_t vdst) {
  return static_cast<uint8_t>(vdst >> (8 * WrittenByte(ctx.instr, ctx.mods.opsel, 0)));
}

}  // namespace

int SeedBits(const OpContext& ctx) {
  if (GetInstrInfo(ctx.instr).src[1] != SrcRole::sr_seed) return 0;  // the row: no seed
  const std::optional<Fp8Shape> shape = Fp8OutputShape(ctx);
  return shape ? 32 - static_cast<int>(shape->seed_shift) : 0;
}

absl::StatusOr<std::pair<uint64_t, uint64_t>> ShardRange(uint64_t first, uint64_t last,
                                                         absl::string_view shard) {
  if (shard.empty()) return std::make_pair(first, last);
  const size_t slash = shard.find('/');
  uint64_t i = 0, n = 0;
  if (slash == absl::string_view::npos || !absl::SimpleAtoi(shard.substr(0, slash), &i) ||
      !absl::SimpleAtoi(shard.substr(slash + 1), &n) || n == 0 || i < 1 || i > n) {
    return absl::InvalidArgumentError(
        absl::StrCat("--shard '", shard, "' is not i/n with 1 <= i <= n (e.g. 3/4)"));
  }
  const uint64_t size = (last - first) / n;
  const uint64_t lo = first + (i - 1) * size;
  const uint64_t hi = i == n ? last : lo + size;
  return std::make_pair(lo, hi);
}

std::vector<std::pair<uint32_t, double>> SrBoundarySet(const OpContext& ctx) {
  // src0 in [1, 2): the output quantum of 1.x is 2^-m (m = 3 for E4M3, 2 for E5M2), so the
  // k = 23 - m dropped mantissa bits are exactly the fractional position. Sixteen evenly spaced
  // fractions, plus the extremes one ulp from each neighbour.
  const int k = SeedBits(ctx);
  std::vector<std::pair<uint32_t, double>> out;
  for (uint32_t j = 0; j < 16; ++j) {
    const uint32_t dropped = j << (k - 4);
    out.push_back({0x3f800000u | dropped, double(j) / 16});
  }
  out.push_back({0x3f800001u, 1.0 / double(1u << k)});
  out.push_back({0x3f800000u | ((1u << k) - 1), double((1u << k) - 1) / double(1u << k)});
  return out;
}

namespace {

// What every chunk of one sweep shares: the model's context (under the MODE the kernel runs
// the instruction with, kernel_state.h; the batch asks for spec.ctx.mode), where the swept
// value goes, and the destination words per lane.
struct SweepPlan {
  const SweepSpec& spec;
  OpContext ctx;
  bool seed_sweep = false;
  // Seed sweeps: the seed sits in S1[31:seed_shift]; the bits below it must not matter.
  int seed_shift = 0;
  uint32_t low_mask = 0;
  uint8_t down_byte = 0;  // the byte a seed of 0 writes (rounds down)
  size_t words = 1;       // per lane (a VGPR pair: 2)
};

absl::StatusOr<SweepPlan> PlanSweep(const SweepSpec& spec) {
  SweepPlan p{spec, spec.ctx};
  p.ctx.mode = KernelMode(*p.ctx.target, spec.ctx.mode);
  p.seed_sweep = spec.swept == SweptOperand::kSeed;
  if (p.seed_sweep && SeedBits(p.ctx) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(InstrName(p.ctx.instr), " takes no seed"));
  }
  p.seed_shift = p.seed_sweep ? 32 - SeedBits(p.ctx) : 0;
  p.low_mask = p.seed_sweep ? (1u << p.seed_shift) - 1 : 0;
  p.down_byte = p.seed_sweep ? SweptByte(p.ctx, EvaluateLane(p.ctx, spec.src0, 0, 0, 0)) : 0;
  p.words = static_cast<size_t>(DstWords(p.ctx.instr));
  return p;
}

// The `n` lanes of the chunk whose first swept value is `lo`: lane data depends only on the
// swept value.
void FillChunk(const SweepPlan& p, uint64_t lo, uint64_t n, LaneBatch* lanes) {
  lanes->Resize(n);
  uint32_t* s0 = lanes->src0().data();
  uint32_t* s1 = lanes->src1().data();
  uint32_t* s2 = lanes->src2().data();
  uint32_t* old = lanes->vdst_old().data();
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t v = lo + i;
    if (p.seed_sweep) {
      s0[i] = p.spec.src0;
      s1[i] = (static_cast<uint32_t>(v) << p.seed_shift) | (Mix(v, 1) & p.low_mask);
      s2[i] = 0;
    } else {
      s0[i] = static_cast<uint32_t>(v);
      s1[i] = Mix(v, 1);
      s2[i] = Mix(v, 2);
    }
    old[i] = Mix(v, 3);
  }
}

proto::Lane LaneAt(const LaneView& v, uint64_t i) {
  proto::Lane lane;
  lane.set_src0(v.src0[i]);
  lane.set_src1(v.src1[i]);
  lane.set_src2(v.src2[i]);
  lane.set_vdst_old(v.vdst_old[i]);
  return lane;
}

// The device's words against the model's: mismatching lanes (counted by src0's sign and
// exponent in `by_exponent`, the first few kept) and, for seed sweeps, the lanes that rounded
// up on each side.
void CompareChunk(const SweepPlan& p, const LaneView& v, const uint32_t* expected,
                  const uint32_t* dev, ChunkOutcome* out, std::vector<uint64_t>* by_exponent) {
  const size_t words = p.words;
  if (std::memcmp(dev, expected, v.size * words * sizeof(uint32_t)) != 0) {
    for (uint64_t i = 0; i < v.size; ++i) {
      // A lane is its `words` destination words (a VGPR pair: 2), all compared.
      if (std::memcmp(dev + i * words, expected + i * words, words * 4) == 0) continue;
      ++out->mismatches;
      (*by_exponent)[((v.src0[i] >> 31) << 8) | ((v.src0[i] >> 23) & 0xff)]++;
      if (out->examples.size() < kMaxExamples) {
        out->examples.push_back(LaneAt(v, i));
        for (size_t k = 0; k < words; ++k) {
          out->expected.push_back(expected[i * words + k]);
          out->observed.push_back(dev[i * words + k]);
        }
      }
    }
  }
  if (p.seed_sweep) {
    for (uint64_t i = 0; i < v.size; ++i) {
      out->round_up_model += SweptByte(p.ctx, expected[i]) != p.down_byte;
      out->round_up_device += SweptByte(p.ctx, dev[i]) != p.down_byte;
    }
  }
}

// The exact oracle against the model on the chunk's sampled lanes (every lane, or every
// stride-th swept value; positions fixed by the swept value, not the chunk).
void CheckOracle(const SweepPlan& p, const LaneView& v, uint64_t lo, const uint32_t* expected,
                 ChunkOutcome* out) {
  if (p.spec.oracle == OracleCheck::kOff) return;
  const uint64_t stride = p.spec.oracle == OracleCheck::kEvery ? 1 : p.spec.oracle_stride;
  for (uint64_t i = (stride - lo % stride) % stride; i < v.size; i += stride) {
    // The oracle sees the seed's low bits cleared: they must not matter.
    const uint32_t src1 = p.seed_sweep ? v.src1[i] & ~p.low_mask : v.src1[i];
    uint32_t want[kMaxDstWords] = {};
    const LaneView one{&v.src0[i], &src1, &v.src2[i], &v.vdst_old[i], 1};
    (void)EvaluateOracle(p.ctx, one, absl::MakeSpan(want, p.words));
    ++out->oracle_checked;
    if (std::memcmp(want, expected + i * p.words, p.words * 4) != 0) {
      ++out->oracle_mismatches;
      if (out->oracle_examples.size() < kMaxExamples) out->oracle_examples.push_back(LaneAt(v, i));
    }
  }
}

// One chunk of `n` lanes from swept value `lo` on `runner`: fills `batch`, evaluates the
// model into `expected`, runs the device and compares. False on a fault (out->fault says it).
bool RunChunk(const SweepPlan& p, Runner& runner, uint64_t lo, uint64_t n, DeviceBatch* batch,
              std::vector<uint32_t>* expected, ChunkOutcome* out,
              std::vector<uint64_t>* by_exponent) {
  FillChunk(p, lo, n, &batch->lanes);
  expected->resize(n * p.words);
  absl::Status st = Evaluate(p.ctx, batch->lanes.view(), absl::MakeSpan(*expected));
  if (!st.ok()) {
    out->fault = std::string(st.message());
    return false;
  }
  absl::StatusOr<DeviceResult> got = runner.Run(*batch);
  if (!got.ok() || got->vdst.size() != n * p.words) {
    out->fault = got.ok() ? absl::StrCat("device returned ", got->vdst.size(), " words for ", n,
                                         " lanes of ", p.words, " words")
                          : std::string(got.status().message());
    return false;
  }
  const LaneView v = batch->lanes.view();
  CompareChunk(p, v, expected->data(), got->vdst.data(), out, by_exponent);
  CheckOracle(p, v, lo, expected->data(), out);
  return true;
}

// The sweep's result from its chunks' outcomes (in order; the first fault ends the counts)
// and the workers' mismatch histograms.
proto::SweepResult SweepResultOf(const SweepPlan& p, const std::vector<ChunkOutcome>& outcomes,
                                 const std::vector<std::vector<uint64_t>>& by_exponent) {
  const SweepSpec& spec = p.spec;
  const uint64_t chunk = spec.chunk_lanes;
  proto::SweepResult r;
  r.set_target(std::string(p.ctx.target->name));
  r.set_instr(InstrToProto(p.ctx.instr));
  r.set_mode(spec.ctx.mode);
  *r.mutable_encoding() = TemplateCase(p.ctx).encoding();
  r.set_device(spec.device_name);
  r.set_first(spec.first);
  r.set_last(spec.last);
  r.set_swept(p.seed_sweep ? "seed" : "src0");
  r.set_fraction(spec.fraction);
  r.set_setting(p.seed_sweep ? absl::StrFormat("src0=0x%08x opsel=%d mode=0x%08x", spec.src0, p.ctx.mods.opsel, spec.ctx.mode)
                             : absl::StrFormat("mode=0x%08x neg=%d abs=%d", spec.ctx.mode, p.ctx.mods.neg, p.ctx.mods.abs));
  std::vector<uint64_t> hist(512, 0);
  for (const auto& h : by_exponent) for (int i = 0; i < 512; ++i) hist[i] += h[i];
  uint64_t lanes = 0;
  for (uint64_t c = 0; c < outcomes.size(); ++c) {
    const ChunkOutcome& o = outcomes[c];
    if (!o.fault.empty()) {
      r.set_fault(absl::StrCat("chunk at ", spec.first + c * chunk, ": ", o.fault));
      break;
    }
    lanes += std::min<uint64_t>(chunk, spec.last - (spec.first + c * chunk));
    r.set_mismatches(r.mismatches() + o.mismatches);
    r.set_round_up_model(r.round_up_model() + o.round_up_model);
    r.set_round_up_device(r.round_up_device() + o.round_up_device);
    r.set_oracle_checked(r.oracle_checked() + o.oracle_checked);
    r.set_oracle_mismatches(r.oracle_mismatches() + o.oracle_mismatches);
    for (size_t i = 0; i < o.examples.size() && r.mismatch_examples_size() < kMaxExamples; ++i) {
      *r.add_mismatch_examples() = o.examples[i];
      r.add_mismatch_expected(o.expected[i]);
      r.add_mismatch_observed(o.observed[i]);
    }
    for (size_t i = 0; i < o.oracle_examples.size() && r.oracle_mismatch_examples_size() < kMaxExamples; ++i) {
      *r.add_oracle_mismatch_examples() = o.oracle_examples[i];
    }
  }
  r.set_lanes(lanes);
  if (r.mismatches() > 0) {
    for (uint64_t h : hist) r.add_mismatch_by_exponent(h);
  }
  return r;
}

}  // namespace

absl::StatusOr<proto::SweepResult> RunSweep(
    const SweepSpec& spec, const std::vector<Runner*>& runners,
    const std::function<void(const SweepProgress&)>& progress) {
  LANEDIFF_RETURN_IF_ERROR(ValidateContext(spec.ctx));
  if (runners.empty()) return absl::InvalidArgumentError("RunSweep needs at least one runner");
  if (spec.last <= spec.first) return absl::InvalidArgumentError("empty sweep range");
  LANEDIFF_ASSIGN_OR_RETURN(const SweepPlan plan, PlanSweep(spec));
  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch batch_template, BuildDeviceBatch(TemplateCase(spec.ctx)));

  const uint64_t total = spec.last - spec.first;
  const uint64_t chunk = spec.chunk_lanes;
  const uint64_t num_chunks = (total + chunk - 1) / chunk;
  std::vector<ChunkOutcome> outcomes(num_chunks);
  std::vector<std::vector<uint64_t>> by_exponent(runners.size(), std::vector<uint64_t>(512, 0));
  std::atomic<uint64_t> next_chunk{0}, done{0}, mismatches{0};
  std::atomic<bool> failed{false};

  // Each worker takes the next chunk until none is left or one has failed.
  auto worker = [&](size_t w) {
    DeviceBatch batch = batch_template;
    std::vector<uint32_t> expected;
    for (;;) {
      const uint64_t c = next_chunk.fetch_add(1);
      if (c >= num_chunks || failed.load()) return;
      const uint64_t lo = spec.first + c * chunk;
      const uint64_t n = std::min<uint64_t>(chunk, spec.last - lo);
      if (!RunChunk(plan, *runners[w], lo, n, &batch, &expected, &outcomes[c], &by_exponent[w])) {
        failed = true;
        return;
      }
      mismatches += outcomes[c].mismatches;
      done += n;
    }
  };

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::vector<std::thread> threads;
  for (size_t w = 0; w < runners.size(); ++w) threads.emplace_back(worker, w);
  if (progress) {
    double last_report = 0;
    while (done.load() < total && !failed.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (elapsed() - last_report >= 1.0) {
        last_report = elapsed();
        progress({done.load(), total, mismatches.load(), elapsed()});
      }
    }
  }
  for (std::thread& t : threads) t.join();
  proto::SweepResult r = SweepResultOf(plan, outcomes, by_exponent);
  r.set_seconds(elapsed());
  return r;
}

}  // namespace lanediff
