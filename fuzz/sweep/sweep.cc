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
  proto::Lane* lane = tc.add_lanes();
  const LaneShape shape = GetInstrInfo(ctx.instr).lane_shape();
  for (int k = 1; k < shape.src_dwords[0]; ++k) lane->add_src0_more(0);
  for (int k = 1; k < shape.src_dwords[1]; ++k) lane->add_src1_more(0);
  for (int k = 1; k < shape.src_dwords[2]; ++k) lane->add_src2_more(0);
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

int FirstTupleSource(const InstrInfo& row) {
  for (int s = 0; s < 3; ++s) {
    if (row.src_dwords(s) > 1) return s;
  }
  return -1;
}

SweptOperand RowSweptOperand(Instr instr) {
  const InstrInfo& row = GetInstrInfo(instr);
  if (FirstTupleSource(row) >= 0) return SweptOperand::kElement;
  if (row.src[1] != SrcRole::sr_seed) return SweptOperand::kSrc0;
  for (const TargetTraits& t : AllTargets()) {
    if (!t.Has(instr)) continue;
    OpContext ctx;
    ctx.target = &t;
    ctx.instr = instr;
    if (SeedBits(ctx) == 0) return SweptOperand::kSrc0;
  }
  return SweptOperand::kSeed;
}

const char* SweptOperandName(SweptOperand s) {
  switch (s) {
    case SweptOperand::kSrc0: return "src0";
    case SweptOperand::kSeed: return "seed";
    case SweptOperand::kElement: return "element";
  }
  return "";
}

int ElementBits(const InstrInfo& row, int src) { return SrcElementBits(row.src[src]); }

int ElementCount(const InstrInfo& row, int src) {
  return 32 * row.src_dwords(src) / ElementBits(row, src);
}

namespace {
// Whether one of the row's one-dword sources is a block scale (its exponent byte walked).
bool HasScaleSource(const InstrInfo& row) {
  for (int s = 0; s < 3; ++s) {
    if (row.src[s] == SrcRole::scale_f32 && row.src_dwords(s) == 1) return true;
  }
  return false;
}
}  // namespace

uint64_t ElementSweepSize(const InstrInfo& row, int src) {
  const int bits = ElementBits(row, src);
  if (bits >= 32) return uint64_t{1} << 32;
  return (uint64_t{1} << bits) * (HasScaleSource(row) ? 256 : 1);
}

std::vector<uint32_t> DefaultBaseLane(const InstrInfo& row) {
  std::vector<uint32_t> base;
  for (int s = 0; s < 3; ++s) {
    const int n = row.src_dwords(s);
    base.insert(base.end(), static_cast<size_t>(n), n == 1 ? 0x3f800000u : 0u);
  }
  base.push_back(0);  // vdst_old
  return base;
}

std::string DifferingWords(const uint32_t* expected, const uint32_t* observed, size_t words) {
  std::string out;
  for (size_t k = 0; k < words; ++k) {
    if (expected[k] != observed[k]) absl::StrAppend(&out, out.empty() ? "" : " ", "VDST+", k);
  }
  return out;
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
  const InstrInfo& info = GetInstrInfo(ctx.instr);
  if (info.src[0] == SrcRole::data_f16x2 && info.src[1] == SrcRole::sr_seed &&
      info.src[2] == SrcRole::unused) {
    // One f16 source (gfx1250's unscaled SR encoders, docs/semantics.md §13.5): f16 values in
    // [1, 2), whose 10 - m dropped fraction bits are the position, in both halves of S0.
    const int d = 10 - (23 - k);
    auto both = [](uint32_t h) { return h | (h << 16); };
    for (uint32_t j = 0; j < 16; ++j) {
      out.push_back({both(0x3c00u | (j << (d - 4))), double(j) / 16});
    }
    out.push_back({both(0x3c01u), 1.0 / double(1u << d)});
    out.push_back({both(0x3c00u | ((1u << d) - 1)), double((1u << d) - 1) / double(1u << d)});
    return out;
  }
  for (uint32_t j = 0; j < 16; ++j) {
    const uint32_t dropped = j << (k - 4);
    out.push_back({0x3f800000u | dropped, double(j) / 16});
  }
  out.push_back({0x3f800001u, 1.0 / double(1u << k)});
  out.push_back({0x3f800000u | ((1u << k) - 1), double((1u << k) - 1) / double(1u << k)});
  return out;
}

namespace {

// The lanes of the chunk starting at swept value `lo`: src0 (or, a seed sweep, the seed in
// S1[31:seed_shift] above hashed low bits) is the swept value; the other words are fixed
// hashes of it.
void FillLanes(const SweepSpec& spec, bool seed_sweep, int seed_shift, uint32_t low_mask,
               uint64_t lo, uint64_t n, uint32_t* s0, uint32_t* s1, uint32_t* s2, uint32_t* old) {
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t v = lo + i;
    if (seed_sweep) {
      s0[i] = spec.src0;
      s1[i] = (static_cast<uint32_t>(v) << seed_shift) | (Mix(v, 1) & low_mask);
      s2[i] = 0;
    } else {
      s0[i] = static_cast<uint32_t>(v);
      s1[i] = Mix(v, 1);
      s2[i] = Mix(v, 2);
    }
    old[i] = Mix(v, 3);
  }
}

// The lanes of an element sweep's chunk starting at `lo`: each lane the base lane with element
// spec.element of source spec.tuple_src set to the swept value's low `bits` bits (a field may
// straddle two dwords), and, for an element narrower than a dword, the exponent field of every
// scale source set to the value's next 8 bits.
void FillElementLanes(const SweepSpec& spec, const InstrInfo& row, uint64_t lo, uint64_t n,
                      LaneBatch* lanes) {
  const LaneShape shape = row.lane_shape();
  const int bits = ElementBits(row, spec.tuple_src);
  const uint64_t code_mask = bits >= 32 ? 0xffffffffu : (uint64_t{1} << bits) - 1;
  const int first_bit = spec.element * bits;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t v = lo + i;
    size_t at = 0;
    for (int s = 0; s < 3; ++s) {
      const size_t dwords = shape.src_dwords[s];
      uint32_t* d = lanes->src(s).data() + i * dwords;
      std::memcpy(d, spec.base.data() + at, dwords * 4);
      at += dwords;
      if (s == spec.tuple_src) {
        for (int b = 0; b < bits; ++b) {
          const int bit = first_bit + b;
          const uint32_t one = 1u << (bit % 32);
          d[bit / 32] = ((v >> b) & 1) ? d[bit / 32] | one : d[bit / 32] & ~one;
        }
      } else if (bits < 32 && dwords == 1 && row.src[s] == SrcRole::scale_f32) {
        d[0] = (d[0] & ~0x7f800000u) | static_cast<uint32_t>(((v & ~code_mask) >> bits) & 0xff) << 23;
      }
    }
    lanes->vdst_old()[i] = spec.base[at];
  }
}

// A chunk's lane words (laid out by `shape`), and one lane as a proto::Lane for an example.
struct ChunkLanes {
  const uint32_t *s0, *s1, *s2, *old;
  LaneShape shape;
  const uint32_t* Src(int s, uint64_t i) const {
    return (s == 0 ? s0 : s == 1 ? s1 : s2) + i * shape.src_dwords[s];
  }
  proto::Lane At(uint64_t i) const {
    proto::Lane lane;
    lane.set_src0(*Src(0, i));
    lane.set_src1(*Src(1, i));
    lane.set_src2(*Src(2, i));
    lane.set_vdst_old(old[i]);
    for (int k = 1; k < shape.src_dwords[0]; ++k) lane.add_src0_more(Src(0, i)[k]);
    for (int k = 1; k < shape.src_dwords[1]; ++k) lane.add_src1_more(Src(1, i)[k]);
    for (int k = 1; k < shape.src_dwords[2]; ++k) lane.add_src2_more(Src(2, i)[k]);
    return lane;
  }
};

// The fast model's `expected` words against the exact oracle on every lane (kEvery) or every
// spec.oracle_stride-th swept value, into `out`. `low_mask`: the seed bits cleared for the
// oracle (0 for a src0 sweep).
void CheckOracle(const OpContext& ctx, const SweepSpec& spec, uint32_t low_mask, size_t words,
                 uint64_t lo, uint64_t n, const ChunkLanes& lanes, const uint32_t* expected,
                 ChunkOutcome* out) {
  const uint64_t stride = spec.oracle == OracleCheck::kEvery ? 1 : spec.oracle_stride;
  // Sample positions are fixed by the swept value, not the chunk.
  for (uint64_t i = (stride - lo % stride) % stride; i < n; i += stride) {
    // The oracle sees the seed's low bits cleared: they must not matter.
    const uint32_t src1 = lanes.s1[i] & ~low_mask;  // a seed is one dword
    uint32_t want[kMaxDstWords] = {};
    const LaneView one{lanes.Src(0, i), low_mask != 0 ? &src1 : lanes.Src(1, i), lanes.Src(2, i),
                       &lanes.old[i], 1, lanes.shape};
    (void)EvaluateOracle(ctx, one, absl::MakeSpan(want, words));
    ++out->oracle_checked;
    if (std::memcmp(want, expected + i * words, words * 4) != 0) {
      ++out->oracle_mismatches;
      if (out->oracle_examples.size() < kMaxExamples) out->oracle_examples.push_back(lanes.At(i));
    }
  }
}

// The lanes of a chunk whose `words` destination words (a VGPR pair: 2; a tuple: 6 to 32)
// differ, all compared: counted, the first kept as examples with every word, and their src0's
// sign and f32 exponent counted into `by_exponent` (src0 sweeps; nullptr otherwise).
void CountMismatches(const uint32_t* dev, const uint32_t* expected, size_t words, uint64_t n,
                     const ChunkLanes& lanes, std::vector<uint64_t>* by_exponent,
                     ChunkOutcome* out) {
  if (std::memcmp(dev, expected, n * words * sizeof(uint32_t)) == 0) return;
  for (uint64_t i = 0; i < n; ++i) {
    if (std::memcmp(dev + i * words, expected + i * words, words * 4) == 0) continue;
    ++out->mismatches;
    const uint32_t s0 = lanes.s0[i];
    if (by_exponent != nullptr) (*by_exponent)[((s0 >> 31) << 8) | ((s0 >> 23) & 0xff)]++;
    if (out->examples.size() < kMaxExamples) {
      out->examples.push_back(lanes.At(i));
      for (size_t k = 0; k < words; ++k) {
        out->expected.push_back(expected[i * words + k]);
        out->observed.push_back(dev[i * words + k]);
      }
    }
  }
}

// What was swept: "src0", "seed", or an element as "src0[5]" (element 5 of the tuple source).
std::string SweptName(const SweepSpec& spec) {
  switch (spec.swept) {
    case SweptOperand::kSrc0: return "src0";
    case SweptOperand::kSeed: return "seed";
    case SweptOperand::kElement: return absl::StrCat("src", spec.tuple_src, "[", spec.element, "]");
  }
  return "";
}

// What was held fixed. An element sweep: the element's width, whether the scale's exponent was
// walked, and the base lane's words (each source's dwords, then vdst_old).
std::string SweepSetting(const SweepSpec& spec, const OpContext& ctx) {
  switch (spec.swept) {
    case SweptOperand::kSrc0:
      return absl::StrFormat("mode=0x%08x neg=%d abs=%d", spec.ctx.mode, ctx.mods.neg, ctx.mods.abs);
    case SweptOperand::kSeed:
      return absl::StrFormat("src0=0x%08x opsel=%d mode=0x%08x", spec.src0, ctx.mods.opsel, spec.ctx.mode);
    case SweptOperand::kElement: break;
  }
  const InstrInfo& row = GetInstrInfo(ctx.instr);
  const int bits = ElementBits(row, spec.tuple_src);
  std::string base;
  for (uint32_t w : spec.base) absl::StrAppend(&base, base.empty() ? "" : " ", absl::Hex(w));
  return absl::StrFormat("element %d of %d (%d bits)%s mode=0x%08x neg=%d abs=%d base=%s",
                         spec.element, ElementCount(row, spec.tuple_src), bits,
                         bits < 32 && ElementSweepSize(row, spec.tuple_src) > (1u << bits)
                             ? " x every scale exponent"
                             : "",
                         spec.ctx.mode, ctx.mods.neg, ctx.mods.abs, base);
}

// An element sweep's spec against its row: a tuple source, an element it has, a base lane of
// the row's words, a range within ElementSweepSize.
absl::Status CheckElementSpec(const SweepSpec& spec) {
  const InstrInfo& row = GetInstrInfo(spec.ctx.instr);
  if (spec.tuple_src < 0 || spec.tuple_src > 2 || row.src_dwords(spec.tuple_src) < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "element sweeps walk a VGPR-tuple source: src", spec.tuple_src, " of ", row.name,
        " is one dword", FirstTupleSource(row) < 0 ? " (the row has no tuple source)" : ""));
  }
  if (spec.element < 0 || spec.element >= ElementCount(row, spec.tuple_src)) {
    return absl::InvalidArgumentError(absl::StrCat("element ", spec.element, " of src",
                                                   spec.tuple_src, ": the tuple has elements 0..",
                                                   ElementCount(row, spec.tuple_src) - 1));
  }
  if (spec.base.size() != static_cast<size_t>(row.lane_shape().lane_words())) {
    return absl::InvalidArgumentError(absl::StrCat("a base lane of ", row.name, " is ",
                                                   row.lane_shape().lane_words(),
                                                   " words (each source's dwords, then vdst_old), not ",
                                                   spec.base.size()));
  }
  if (spec.last > ElementSweepSize(row, spec.tuple_src)) {
    return absl::InvalidArgumentError(absl::StrCat("range end ", spec.last, " is beyond ",
                                                   ElementSweepSize(row, spec.tuple_src)));
  }
  return absl::OkStatus();
}

// The sweep's result from its chunks' outcomes (the first fault ends the counted range) and
// the per-worker histograms of mismatching src0 exponents.
proto::SweepResult SweepResultOf(const SweepSpec& spec, const OpContext& ctx,
                                 const std::vector<ChunkOutcome>& outcomes,
                                 const std::vector<std::vector<uint64_t>>& by_exponent) {
  const uint64_t chunk = spec.chunk_lanes;
  const uint64_t num_chunks = outcomes.size();
  proto::SweepResult r;
  r.set_target(std::string(ctx.target->name));
  r.set_instr(InstrToProto(ctx.instr));
  r.set_mode(spec.ctx.mode);
  *r.mutable_encoding() = TemplateCase(ctx).encoding();
  r.set_device(spec.device_name);
  r.set_first(spec.first);
  r.set_last(spec.last);
  r.set_swept(SweptName(spec));
  r.set_fraction(spec.fraction);
  r.set_setting(SweepSetting(spec, ctx));
  std::vector<uint64_t> hist(512, 0);
  for (const auto& h : by_exponent) for (int i = 0; i < 512; ++i) hist[i] += h[i];
  uint64_t lanes = 0;
  for (uint64_t c = 0; c < num_chunks; ++c) {
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
    // Each example keeps every destination word of its lane (a pair's 2, a tuple's N).
    const size_t words = o.examples.empty() ? 1 : o.expected.size() / o.examples.size();
    for (size_t i = 0; i < o.examples.size() && r.mismatch_examples_size() < kMaxExamples; ++i) {
      *r.add_mismatch_examples() = o.examples[i];
      for (size_t k = 0; k < words; ++k) {
        r.add_mismatch_expected(o.expected[i * words + k]);
        r.add_mismatch_observed(o.observed[i * words + k]);
      }
    }
    for (size_t i = 0; i < o.oracle_examples.size() && r.oracle_mismatch_examples_size() < kMaxExamples; ++i) {
      *r.add_oracle_mismatch_examples() = o.oracle_examples[i];
    }
  }
  r.set_lanes(lanes);
  if (r.mismatches() > 0 && spec.swept != SweptOperand::kElement) {  // src0's f32 exponents
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
  const bool element_sweep = spec.swept == SweptOperand::kElement;
  if (element_sweep && spec.base.empty()) {
    SweepSpec with_base = spec;
    with_base.base = DefaultBaseLane(GetInstrInfo(spec.ctx.instr));
    return RunSweep(with_base, runners, progress);
  }
  if (element_sweep) {
    LANEDIFF_RETURN_IF_ERROR(CheckElementSpec(spec));
  } else if (!GetInstrInfo(spec.ctx.instr).lane_shape().narrow_sources()) {
    // src0 and seed sweeps walk a one-dword source; a tuple row walks one element of its tuple.
    return absl::InvalidArgumentError(absl::StrCat(
        InstrName(spec.ctx.instr), " reads a VGPR-tuple source: sweep one element of it "
        "(SweptOperand::kElement, lanediff sweep --element K)"));
  }
  // The model evaluates under the MODE the kernel runs the instruction with (kernel_state.h);
  // the batch asks for spec.ctx.mode.
  OpContext ctx = spec.ctx;
  ctx.mode = KernelMode(*ctx.target, spec.ctx.mode);
  const bool seed_sweep = spec.swept == SweptOperand::kSeed;
  if (seed_sweep && SeedBits(ctx) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(InstrName(ctx.instr), " takes no seed"));
  }
  // Seed sweeps: the seed sits in S1[31:seed_shift]; the bits below it must not matter.
  const int seed_shift = seed_sweep ? 32 - SeedBits(ctx) : 0;
  const uint32_t low_mask = seed_sweep ? (1u << seed_shift) - 1 : 0;
  const uint8_t down_byte = seed_sweep ? SweptByte(ctx, EvaluateLane(ctx, spec.src0, 0, 0, 0)) : 0;
  const size_t words = static_cast<size_t>(DstWords(ctx.instr));  // per lane (a VGPR pair: 2)

  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch batch_template, BuildDeviceBatch(TemplateCase(spec.ctx)));

  const uint64_t total = spec.last - spec.first;
  const uint64_t chunk = spec.chunk_lanes;
  const uint64_t num_chunks = (total + chunk - 1) / chunk;
  std::vector<ChunkOutcome> outcomes(num_chunks);
  std::vector<std::vector<uint64_t>> by_exponent(runners.size(), std::vector<uint64_t>(512, 0));
  std::atomic<uint64_t> next_chunk{0}, done{0}, mismatches{0};
  std::atomic<bool> failed{false};

  auto worker = [&](size_t w) {
    DeviceBatch batch = batch_template;
    std::vector<uint32_t> expected;
    for (;;) {
      const uint64_t c = next_chunk.fetch_add(1);
      if (c >= num_chunks || failed.load()) return;
      ChunkOutcome& out = outcomes[c];
      const uint64_t lo = spec.first + c * chunk;
      const uint64_t n = std::min<uint64_t>(chunk, spec.last - lo);
      batch.lanes.Resize(n);
      uint32_t* s0 = batch.lanes.src0().data();
      uint32_t* s1 = batch.lanes.src1().data();
      uint32_t* s2 = batch.lanes.src2().data();
      uint32_t* old = batch.lanes.vdst_old().data();
      if (element_sweep) {
        FillElementLanes(spec, GetInstrInfo(ctx.instr), lo, n, &batch.lanes);
      } else {
        FillLanes(spec, seed_sweep, seed_shift, low_mask, lo, n, s0, s1, s2, old);
      }
      expected.resize(n * words);
      absl::Status st = Evaluate(ctx, batch.lanes.view(), absl::MakeSpan(expected));
      if (!st.ok()) {
        out.fault = std::string(st.message());
        failed = true;
        return;
      }
      absl::StatusOr<DeviceResult> got = runners[w]->Run(batch);
      if (!got.ok() || got->vdst.size() != n * words) {
        out.fault = got.ok() ? absl::StrCat("device returned ", got->vdst.size(), " words for ", n,
                                            " lanes of ", words, " words")
                             : std::string(got.status().message());
        failed = true;
        return;
      }
      const uint32_t* dev = got->vdst.data();
      const ChunkLanes lanes{s0, s1, s2, old, batch.lanes.shape()};
      CountMismatches(dev, expected.data(), words, n, lanes,
                      element_sweep ? nullptr : &by_exponent[w], &out);
      if (seed_sweep) {
        for (uint64_t i = 0; i < n; ++i) {
          out.round_up_model += SweptByte(ctx, expected[i]) != down_byte;
          out.round_up_device += SweptByte(ctx, dev[i]) != down_byte;
        }
      }
      if (spec.oracle != OracleCheck::kOff) {
        CheckOracle(ctx, spec, seed_sweep ? low_mask : 0, words, lo, n, lanes, expected.data(), &out);
      }
      mismatches += out.mismatches;
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

  proto::SweepResult r = SweepResultOf(spec, ctx, outcomes, by_exponent);
  r.set_seconds(elapsed());
  return r;
}

}  // namespace lanediff
