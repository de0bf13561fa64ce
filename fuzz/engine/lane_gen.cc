#include "fuzz/engine/lane_gen.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "device_harness/resolve_case.h"
#include "fuzz/engine/mutator.h"
#include "model/fp/fp8_format.h"
#include "model/isa/tables.h"
#include "model/isa/testcase.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace {

// n * 2^k as f32 bits (exact for 0 < n < 2^24 and results in f32 range).
uint32_t F32FromScaled(uint64_t n, int k) {
  if (n == 0) return 0;
  const int p = 63 - std::countl_zero(n);
  const int e = p + k;  // unbiased exponent of the leading bit
  if (e >= -126) {
    const uint64_t mant = (p <= 23 ? n << (23 - p) : n >> (p - 23)) & 0x7fffff;
    return (static_cast<uint32_t>(e + 127) << 23) | static_cast<uint32_t>(mant);
  }
  const int shift = k + 149;  // subnormal: value = m * 2^-149
  return static_cast<uint32_t>(shift >= 0 ? n << shift : n >> -shift);
}

std::vector<uint32_t> BuildSpecialF32() {
  return {
      0x00000000, 0x80000000,              // +-0
      0x00000001, 0x80000001,              // smallest denormals
      0x007fffff, 0x807fffff,              // largest denormals
      0x00400000,                          // denormal with only the top mantissa bit
      0x00800000, 0x80800000,              // smallest normals
      0x7f800000, 0xff800000,              // +-Inf
      0x7fc00000, 0xffc00000,              // canonical quiet NaNs
      0x7f800001, 0xff800001,              // signalling NaNs, payload 1
      0x7fbfffff, 0x7fc00001, 0xffffffff,  // NaN payloads
      0x7f7fffff, 0xff7fffff,              // max finite f32
      0x3f800000, 0xbf800000, 0x3f000000,  // 1, -1, 0.5
      0x3fffffff,                          // just below 2.0 (SR carry)
      0x3f840000,                          // 1 + 2^-5 (SR fp8 tie)
      0x35800000,                          // 2^-20 (fp8 subnormal SR)
  };
}

std::vector<uint32_t> BuildU8Boundary() {
  std::vector<uint32_t> v;
  for (uint64_t k : {0, 1, 2, 3, 127, 128, 129, 253, 254, 255}) {
    const uint32_t half = F32FromScaled(2 * k + 1, -1);  // k + 0.5
    v.push_back(half);
    v.push_back(half - 1);
    v.push_back(half + 1);
  }
  for (uint64_t k : {1, 128, 254, 255, 256, 257}) v.push_back(F32FromScaled(k, 0));
  v.push_back(0xbf000000);  // -0.5
  v.push_back(0xbf19999a);  // -0.6
  v.push_back(0xbecccccd);  // -0.4
  v.push_back(0x3e800000);  // 0.25 (round toward +inf -> 1)
  v.push_back(0x4301e666);  // 129.9 (round toward zero -> 129)
  v.push_back(0x437f8000);  // 255.5
  v.push_back(0x437e8000);  // 254.5
  v.push_back(0x43800000);  // 256
  v.push_back(0x4f800000);  // 2^32
  return v;
}

std::vector<uint32_t> BuildFp8Boundary(Fp8FormatId id) {
  const Fp8Format& f = GetFp8Format(id);
  const int mask = (1 << f.man_bits) - 1;
  std::vector<uint32_t> v;
  auto add = [&](uint32_t bits) {
    v.push_back(bits);
    v.push_back(bits ^ 0x80000000u);  // negatives matter for UE5M3 too
  };
  for (int c = 0; c <= f.max_finite; ++c) {
    const int e = c >> f.man_bits, m = c & mask;
    const uint64_t n = e == 0 ? static_cast<uint64_t>(m) : static_cast<uint64_t>((1 << f.man_bits) | m);
    const int k = e == 0 ? 1 - f.bias - f.man_bits : e - f.bias - f.man_bits;
    if (n != 0) add(F32FromScaled(n, k));
    const uint32_t mid = F32FromScaled(2 * n + 1, k - 1);  // halfway to the next code
    add(mid);
    add(mid - 1);
    add(mid + 1);
    if (c == f.max_finite) {
      add(F32FromScaled(2 * n + 2, k - 1));        // one whole step past max finite
      add(F32FromScaled(4 * n + 3, k - 2));        // 3/4 of the way: SR may go either way
      if (n != 0) add(F32FromScaled(n, k) + 1);    // max finite plus one f32 ulp
    }
  }
  return v;
}

std::vector<uint32_t> BuildSeeds(int first_seed_bit) {
  std::vector<uint32_t> v = {0u, 0xffffffffu, ~((1u << first_seed_bit) - 1),
                             (1u << first_seed_bit) - 1, 0x80000000u, 0x7fffffffu,
                             0xffdff000u, 0x7ffff000u};
  for (int b = 0; b < 32; ++b) v.push_back(1u << b);  // each seed bit alone; low bits too
  return v;
}

std::vector<uint32_t> BuildModes() {
  std::vector<uint32_t> v;
  for (uint32_t ovfl = 0; ovfl < 2; ++ovfl) {
    for (uint32_t denorm = 0; denorm < 16; ++denorm) {
      for (uint32_t round = 0; round < 16; ++round) {
        v.push_back(round | (denorm << 4) | (ovfl << 23));
      }
    }
  }
  return v;
}

constexpr uint32_t kSrc2Patterns[] = {0u, 0xffffffffu, 0xa5a5a5a5u, 0x01020304u, 0x80808080u};
constexpr uint32_t kVdstPatterns[] = {0u, 0xffffffffu, 0xdeadbeefu, 0x01020304u, 0x7f7f7f7fu};

uint32_t PickFrom(Rng& rng, const std::vector<uint32_t>& v) { return v[rng.Below(v.size())]; }

// Scale operands (SrcRole::scale_f32): exponent fields 100..154 around 2^0 with the rest 0 or
// random (the sign and mantissa some readings see), and the edge scales.
std::vector<uint32_t> ScaleExponents() {
  std::vector<uint32_t> v;
  for (uint32_t e = 100; e < 155; ++e) v.push_back(e << 23);
  return v;
}
const std::vector<uint32_t>& ScaleEdges() {
  static const std::vector<uint32_t> v = {0x00000000u, 0x80000000u, 0x00400000u, 0x00800000u,
                                          0x7f000000u, 0x7f7fffffu, 0x7f800000u, 0xff800000u,
                                          0x7fc00000u, 0x3f800000u, 0x3fc00000u, 0xbf800000u};
  return v;
}
// Scale registers of E8M0 bytes (SrcRole::scale_e8m0_x4): each byte 100..154 around 2^0, the
// same in all four bytes or four different ones (so that the byte scale_sel picks matters), and
// the edge registers (the bytes 0x00, 0xFF, 0xFE, 0x7F in every and in one position).
std::vector<uint32_t> E8m0Registers() {
  std::vector<uint32_t> v;
  for (uint32_t e = 100; e < 155; ++e) {
    v.push_back(e * 0x01010101u);
    v.push_back(e | (154u - e + 100u) << 8 | ((e + 17u) % 55u + 100u) << 16 |
                ((e + 31u) % 55u + 100u) << 24);
  }
  return v;
}
const std::vector<uint32_t>& E8m0RegisterEdges() {
  static const std::vector<uint32_t> v = {0x00000000u, 0xffffffffu, 0xfefefefeu, 0x7f7f7f7fu,
                                          0x7f7f7f00u, 0x7f7fff7fu, 0x7ffe7f7fu, 0x007f7f7fu,
                                          0x3f800000u, 0x7f7e7d80u};
  return v;
}

}  // namespace

// 16-bit float values for packed sources, both signs: zero, the smallest and largest denormal,
// the smallest normal, 2^-9 and 2^-8 (E4M3's smallest denormal and twice it), 0.75, 1.0 and the
// value after it, 1.5, 5, 6 (FP4's largest), 448 and 464 (E4M3's largest and its overflow tie),
// 57344 (E5M2's largest), the largest finite, Inf, a quiet and a signalling NaN.
const std::vector<uint32_t>& Pk16ValueTable(bool f16) {
  static const auto* tables = [] {
    auto* both = new std::array<std::vector<uint32_t>, 2>;
    const std::vector<uint32_t> h = {0x0000, 0x0001, 0x03ff, 0x0400, 0x1800, 0x1c00, 0x3a00,
                                     0x3c00, 0x3c01, 0x3e00, 0x4500, 0x4600, 0x5f00, 0x5f40,
                                     0x7b00, 0x7bff, 0x7c00, 0x7e00, 0x7c01};
    const std::vector<uint32_t> b = {0x0000, 0x0001, 0x007f, 0x0080, 0x3b00, 0x3b80, 0x3f40,
                                     0x3f80, 0x3f81, 0x3fc0, 0x40a0, 0x40c0, 0x43e0, 0x43e8,
                                     0x4760, 0x7f7f, 0x7f80, 0x7fc0, 0x7f81};
    for (uint32_t v : h) (*both)[0].push_back(v), (*both)[0].push_back(v | 0x8000u);
    for (uint32_t v : b) (*both)[1].push_back(v), (*both)[1].push_back(v | 0x8000u);
    return both;
  }();
  return (*tables)[f16 ? 0 : 1];
}

const std::vector<uint32_t>& SpecialF32Table() {
  static const std::vector<uint32_t> t = BuildSpecialF32();
  return t;
}
const std::vector<uint32_t>& U8BoundaryTable() {
  static const std::vector<uint32_t> t = BuildU8Boundary();
  return t;
}
const std::vector<uint32_t>& Fp8BoundaryTable(Fp8FormatId id) {
  static const auto* tables = [] {
    auto* all = new std::array<std::vector<uint32_t>, kNumFp8Formats>;
    for (int i = 0; i < kNumFp8Formats; ++i) {
      (*all)[i] = BuildFp8Boundary(static_cast<Fp8FormatId>(i));
    }
    return all;
  }();
  return (*tables)[static_cast<int>(id)];
}
const std::vector<uint32_t>& SeedTable(int first_seed_bit) {
  static const auto* tables = [] {
    auto* all = new std::array<std::vector<uint32_t>, 32>;
    for (int i = 0; i < 32; ++i) (*all)[i] = BuildSeeds(i);
    return all;
  }();
  return (*tables)[first_seed_bit & 31];
}
const std::vector<uint32_t>& ModeTable() {
  static const std::vector<uint32_t> t = BuildModes();
  return t;
}

const TargetTraits* TargetNamed(absl::string_view name) {
  for (const TargetTraits& t : AllTargets()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

LaneShape RowShapeOf(const proto::TestCase& header) {
  absl::StatusOr<Instr> instr = InstrFromProto(header.instr());
  return instr.ok() ? GetInstrInfo(*instr).lane_shape() : LaneShape{};
}

FlatCase Flatten(proto::TestCase tc) {
  FlatCase c;
  const int n = tc.lanes_size();
  const LaneShape shape = RowShapeOf(tc);
  c.lanes.SetShape(shape);
  c.lanes.Resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const proto::Lane& l = tc.lanes(i);
    const uint32_t first[3] = {l.src0(), l.src1(), l.src2()};
    const google::protobuf::RepeatedField<uint32_t>* more[3] = {&l.src0_more(), &l.src1_more(),
                                                               &l.src2_more()};
    for (int s = 0; s < 3; ++s) {
      // dword k of a wide source: srcS_more[k - 1] when the lane holds it, else 0 (a lane
      // written for another row: Fixup redraws nothing, the model reads what is there).
      const size_t w = shape.src_dwords[s];
      c.lanes.src(s)[i * w] = first[s];
      for (size_t k = 1; k < w; ++k) {
        c.lanes.src(s)[i * w + k] = static_cast<int>(k) <= more[s]->size() ? more[s]->Get(static_cast<int>(k) - 1) : 0;
      }
    }
    c.lanes.vdst_old()[i] = l.vdst_old();
  }
  tc.clear_lanes();
  c.header = std::move(tc);
  return c;
}

proto::TestCase ToProto(const FlatCase& c) {
  proto::TestCase tc = c.header;
  const LaneView v = c.lanes.view();
  tc.mutable_lanes()->Reserve(static_cast<int>(v.size));
  for (size_t i = 0; i < v.size; ++i) {
    proto::Lane* l = tc.add_lanes();
    l->set_src0(v.first(0, i));
    l->set_src1(v.first(1, i));
    l->set_src2(v.first(2, i));
    l->set_vdst_old(v.vdst_old[i]);
    google::protobuf::RepeatedField<uint32_t>* more[3] = {l->mutable_src0_more(), l->mutable_src1_more(),
                                                         l->mutable_src2_more()};
    for (int s = 0; s < 3; ++s) {
      const size_t w = v.shape.src_dwords[s];
      for (size_t k = 1; k < w; ++k) more[s]->Add(v.src(s)[i * w + k]);
    }
  }
  return tc;
}

bool ReshapeLanes(const LaneShape& shape, LaneBatch* lanes) {
  if (lanes->shape().same_sources(shape)) {
    lanes->SetShape(shape);
    return false;
  }
  const LaneView v = lanes->view();
  LaneBatch out;  // sized once, exactly: the pool of earlier cases keeps a case's capacity
  out.SetShape(shape);
  out.Resize(v.size);
  for (int s = 0; s < 3; ++s) {
    // Each source's first dword, and a wide source's others where the old lane had them (0
    // where it did not).
    const size_t from = v.shape.src_dwords[s], to = shape.src_dwords[s];
    std::vector<uint32_t>& words = out.src(s);
    for (size_t i = 0; i < v.size; ++i) {
      for (size_t k = 0; k < std::min(from, to); ++k) words[i * to + k] = v.src(s)[i * from + k];
    }
  }
  std::copy(v.vdst_old, v.vdst_old + v.size, out.vdst_old().begin());
  *lanes = std::move(out);
  return true;
}

DomainField DomainFieldNamed(absl::string_view name) {
  if (name == "src0" || name == "value") return DomainField::kSrc0;
  if (name == "src1") return DomainField::kSrc1;
  if (name == "src2") return DomainField::kSrc2;
  if (name == "vdst_old") return DomainField::kVdstOld;
  if (name == "mode") return DomainField::kMode;
  if (name == "opsel") return DomainField::kOpsel;
  if (name == "neg" || name == "abs") return DomainField::kNegAbs;
  if (name == "omod") return DomainField::kOmod;
  if (name == "code") return DomainField::kCode;
  return DomainField::kOther;
}

int LaneWordNamed(absl::string_view name) {
  if (name == "src0") return 0;
  if (name == "src1") return 1;
  if (name == "src2") return 2;
  if (name == "vdst_old") return 3;
  return -1;
}

LaneGen::LaneGen(const proto::TestCase& header) {
  const TargetTraits* t = TargetNamed(header.target());
  target_ = t;
  // Unknown values (a mutated enum) map to the first instruction; Fixup then picks a valid one.
  absl::StatusOr<Instr> instr = InstrFromProto(header.instr());
  instr_ = instr.ok() ? *instr : kAllInstrs[0];
  src2_unused_ = Src2Unused(instr_);
  has_seed_ = GetInstrInfo(instr_).src[1] == SrcRole::sr_seed;
  seed16_ = has_seed_ && (GetInstrInfo(instr_).output == OutputKind::f16 ||
                          GetInstrInfo(instr_).output == OutputKind::bf16);
  src1_data_ = GetInstrInfo(instr_).src[1] == SrcRole::data_f32;
  src1_scale_ = GetInstrInfo(instr_).src[1] == SrcRole::scale_f32;
  src2_scale_ = GetInstrInfo(instr_).src[2] == SrcRole::scale_f32;
  src1_e8m0_ = GetInstrInfo(instr_).src[1] == SrcRole::scale_e8m0_x4;
  pk16_ = !IsPacked16(GetInstrInfo(instr_).src[0])   ? 0
          : IsPackedF16(GetInstrInfo(instr_).src[0]) ? 1
                                                     : 2;
  if (t == nullptr || !t->Has(instr_)) return;
  // The 8-bit float format and seed position of the case (CLAMP included), if it writes one.
  OpContext ctx;
  ctx.target = t;
  ctx.instr = instr_;
  ctx.mods.clamp = header.encoding().clamp();
  const std::optional<Fp8Shape> shape = Fp8OutputShape(ctx);
  if (!shape) return;
  fp8_table_ = &Fp8BoundaryTable(shape->format->id);
  fp8_low_mask_ = (1u << (23 - shape->format->man_bits)) - 1;
  if (has_seed_) {
    const int first = static_cast<int>(shape->seed_shift);
    seed_table_ = &SeedTable(first);
    seed_low_mask_ = (1u << first) - 1;
  }
}

// Src0..VdstOld: one value as Mutator::DomainValue draws it (Value; Fill uses the pools instead).
[[gnu::always_inline]] inline uint32_t LaneGen::Src0(Rng& rng) const {
  if (pk16_ != 0) {
    const std::vector<uint32_t>& t = Pk16ValueTable(pk16_ == 1);
    switch (rng.Below(4)) {
      case 0: {
        const uint32_t one = pk16_ == 1 ? 0x3c00u : 0x3f80u;
        const uint32_t random = pk16_ == 1 ? 0x8bff8bffu : 0x807f807fu;
        return (one * 0x10001u & ~random) | (rng.Next32() & random);
      }
      case 1:
        return rng.Next32();
      default: {
        const uint32_t lo = PickFrom(rng, t);
        return (PickFrom(rng, t) << 16) | lo;
      }
    }
  }
  switch (rng.Below(8)) {
    case 0:
      return PickFrom(rng, SpecialF32Table());
    case 1:
      return rng.Next32();
    case 2: {
      // An exponent near the interesting range, random mantissa and sign.
      const uint32_t exp = static_cast<uint32_t>(100 + rng.Below(45));
      return (rng.Next32() & 0x807fffffu) | (exp << 23);
    }
    default:
      break;
  }
  if (fp8_table_ == nullptr) {
    const uint32_t v = PickFrom(rng, U8BoundaryTable());
    return rng.OneIn(4) ? (v & 0x7fffffffu) : v;
  }
  uint32_t v = PickFrom(rng, *fp8_table_);
  // Keep the fp8-visible bits, randomize the bits the seed rounds away.
  if (rng.OneIn(4)) v = (v & ~fp8_low_mask_) | (rng.Next32() & fp8_low_mask_);
  return v;
}

[[gnu::always_inline]] inline uint32_t LaneGen::Src1(Rng& rng) const {
  if (src1_data_) return Src0(rng);  // a second f32 data source: the same interesting values
  if (src1_scale_) return ScaleOperandValue(rng);
  if (src1_e8m0_) return E8m0RegisterValue(rng);
  if (seed16_) {
    // A seed for a 16-bit result (no 8-bit format, so no seed table): all ones, zero, or any
    // word (its top and low bits both random).
    const uint64_t pick = rng.Below(4);
    return pick == 0 ? 0xffffffffu : pick == 1 ? 0u : rng.Next32();
  }
  if (seed_table_ == nullptr) {
    const uint32_t k = static_cast<uint32_t>(rng.Below(4));
    return rng.OneIn(2) ? k : ((rng.Next32() & ~3u) | k);  // S1[31:2] must not matter
  }
  switch (rng.Below(4)) {
    case 0:
      return rng.Next32();
    case 1: {
      // The table pick is drawn before the coin (the order the stream was recorded in).
      const uint32_t seed = PickFrom(rng, *seed_table_);
      return seed | (rng.OneIn(2) ? rng.Next32() & seed_low_mask_ : 0);
    }
    default:
      return PickFrom(rng, *seed_table_);
  }
}

uint32_t LaneGen::ScaleOperandValue(Rng& rng) const {
  switch (rng.Below(9)) {
    case 0: case 1: case 2: case 3:
      return (100u + static_cast<uint32_t>(rng.Below(55))) << 23;
    case 4: case 5:
      return ((100u + static_cast<uint32_t>(rng.Below(55))) << 23) | (rng.Next32() & 0x807fffffu);
    case 6: case 7:
      return PickFrom(rng, ScaleEdges());
    default:
      return rng.Next32();
  }
}

uint32_t LaneGen::E8m0RegisterValue(Rng& rng) const {
  switch (rng.Below(6)) {
    case 0: case 1: case 2: case 3: return PickFrom(rng, E8m0Registers());
    case 4: return PickFrom(rng, E8m0RegisterEdges());
    default: return rng.Next32();
  }
}

[[gnu::always_inline]] inline uint32_t LaneGen::Src2(Rng& rng) const {
  if (src2_unused_ && rng.OneIn(2)) return 0;
  if (src2_scale_) return ScaleOperandValue(rng);
  return rng.OneIn(2) ? kSrc2Patterns[rng.Below(5)] : rng.Next32();
}

[[gnu::always_inline]] inline uint32_t LaneGen::VdstOld(Rng& rng) const {
  return rng.OneIn(2) ? kVdstPatterns[rng.Below(5)] : rng.Next32();
}

uint32_t LaneGen::Value(Rng& rng, DomainField field) const {
  switch (field) {
    case DomainField::kSrc0:
      return Src0(rng);
    case DomainField::kSrc1:
      return Src1(rng);
    case DomainField::kSrc2:
      return Src2(rng);
    case DomainField::kVdstOld:
      return VdstOld(rng);
    case DomainField::kMode:
      return PickFrom(rng, ModeTable());
    case DomainField::kOpsel:
      return static_cast<uint32_t>(rng.Below(16));
    case DomainField::kNegAbs:
      return static_cast<uint32_t>(rng.Below(8));
    case DomainField::kOmod:
      return static_cast<uint32_t>(rng.Below(4));
    case DomainField::kCode:
      return rng.OneIn(5) ? static_cast<uint32_t>(240 + rng.Below(9))
                          : static_cast<uint32_t>(128 + rng.Below(81));
    case DomainField::kOther:
      break;
  }
  return rng.Next32();
}

namespace {

// A pool entry: `base`, with the bits of `mask` random.
constexpr uint64_t Entry(uint32_t base, uint32_t mask) {
  return (static_cast<uint64_t>(mask) << 32) | base;
}

// One of DomainValue's choices for a word: with probability weight / (sum of the weights), one
// of `entries`, each as likely as the others.
struct Choice {
  int weight;
  std::vector<uint64_t> entries;
};

Choice Table(int weight, const std::vector<uint32_t>& values, uint32_t and_mask = ~0u, uint32_t random_bits = 0) {
  Choice c{weight, {}};
  for (uint32_t v : values) c.entries.push_back(Entry(v & and_mask & ~random_bits, random_bits));
  return c;
}

// The smallest pool (2^8 .. 2^14 entries) in which every choice gets its share of the entries
// (rounded down, the remainder to the largest shares) and every entry of every choice at
// least one of them; entries of a choice repeat in order over its share.
WordPool BuildPool(const std::vector<Choice>& choices) {
  int total = 0;
  for (const Choice& c : choices) total += c.weight;
  int bits = 8;
  for (; bits < 14; ++bits) {
    bool fits = true;
    for (const Choice& c : choices) {
      fits &= (static_cast<size_t>(1) << bits) * static_cast<size_t>(c.weight) / static_cast<size_t>(total) >= c.entries.size();
    }
    if (fits) break;
  }
  const size_t size = static_cast<size_t>(1) << bits;
  std::vector<size_t> share(choices.size());
  size_t given = 0;
  for (size_t i = 0; i < choices.size(); ++i) {
    share[i] = size * static_cast<size_t>(choices[i].weight) / static_cast<size_t>(total);
    given += share[i];
  }
  for (size_t i = 0; given < size; i = (i + 1) % choices.size()) {  // the rounding remainder
    if (choices[i].weight > 0) {
      ++share[i];
      ++given;
    }
  }
  WordPool p;
  p.bits = bits;
  p.entries.reserve(size);
  for (size_t i = 0; i < choices.size(); ++i) {
    for (size_t j = 0; j < share[i]; ++j) p.entries.push_back(choices[i].entries[j % choices[i].entries.size()]);
  }
  return p;
}

struct PoolKey {
  const void* fp8_table;
  uint32_t fp8_low_mask;
  const void* seed_table;
  uint32_t seed_low_mask;
  bool src1_data, src2_unused, src1_scale, src2_scale, src1_e8m0;
  uint8_t pk16;  // S0 two packed 16-bit floats: 0 no, 1 f16, 2 bf16
  friend auto operator<=>(const PoolKey&, const PoolKey&) = default;
};


std::vector<uint32_t> Exponents() {  // 100..144: near the interesting range
  std::vector<uint32_t> v;
  for (uint32_t e = 100; e < 145; ++e) v.push_back(e << 23);
  return v;
}

// Two packed 16-bit floats (SrcRole::data_f16x2 / data_bf16x2), as LaneGen::Src0 draws them:
// half the time a pair of table values, a quarter each half's exponent near 1.0's with a random
// fraction and sign, a quarter a random word.
std::vector<Choice> Pk16Choices(bool f16) {
  const std::vector<uint32_t>& t = Pk16ValueTable(f16);
  std::vector<uint32_t> pairs;
  for (uint32_t hi : t) {
    for (uint32_t lo : t) pairs.push_back((hi << 16) | lo);
  }
  const uint32_t one = f16 ? 0x3c00u : 0x3f80u;
  const uint32_t random = f16 ? 0x8bff8bffu : 0x807f807fu;  // sign, fraction, low exponent bits
  return {Table(16, pairs), Table(8, {one * 0x10001u}, ~0u, random), Table(8, {0u}, ~0u, ~0u)};
}

// Src0's choices, in eighths as LaneGen::Src0 draws them (weights in 1/32).
std::vector<Choice> Src0Choices(const PoolKey& k) {
  if (k.pk16 != 0) return Pk16Choices(k.pk16 == 1);
  std::vector<Choice> c = {Table(4, SpecialF32Table()), Table(4, {0u}, ~0u, ~0u),
                           Table(4, Exponents(), ~0u, 0x807fffffu)};
  if (k.fp8_table == nullptr) {  // a u8 boundary, a quarter of them made positive
    c.push_back(Table(15, U8BoundaryTable()));
    c.push_back(Table(5, U8BoundaryTable(), 0x7fffffffu));
  } else {  // an 8-bit boundary, a quarter with the bits the format rounds away random
    const auto& t = *static_cast<const std::vector<uint32_t>*>(k.fp8_table);
    c.push_back(Table(15, t));
    c.push_back(Table(5, t, ~0u, k.fp8_low_mask));
  }
  return c;
}

const std::vector<uint32_t> kSrc2PatternTable(std::begin(kSrc2Patterns), std::end(kSrc2Patterns));
const std::vector<uint32_t> kVdstPatternTable(std::begin(kVdstPatterns), std::end(kVdstPatterns));

// A block scale operand's pool, as LaneGen::ScaleOperandValue draws them.
WordPool ScalePool() {
  return BuildPool({Table(4, ScaleExponents()), Table(2, ScaleExponents(), ~0u, 0x807fffffu),
                    Table(2, ScaleEdges()), Table(1, {0u}, ~0u, ~0u)});
}

std::unique_ptr<LanePools> BuildPools(const PoolKey& k) {
  auto p = std::make_unique<LanePools>();
  p->word[0] = BuildPool(Src0Choices(k));
  if (k.src1_data) {
    p->word[1] = p->word[0];  // a second f32 data source: the same interesting values
  } else if (k.src1_scale) {
    p->word[1] = ScalePool();
  } else if (k.src1_e8m0) {  // as LaneGen::E8m0RegisterValue draws them
    p->word[1] = BuildPool({Table(4, E8m0Registers()), Table(1, E8m0RegisterEdges()),
                            Table(1, {0u}, ~0u, ~0u)});
  } else if (k.seed_table == nullptr) {  // S1[1:0] a byte select, S1[31:2] must not matter
    p->word[1] = BuildPool({Table(1, {0, 1, 2, 3}), Table(1, {0, 1, 2, 3}, ~0u, ~3u)});
  } else {  // in eighths as LaneGen::Src1 draws them
    const auto& t = *static_cast<const std::vector<uint32_t>*>(k.seed_table);
    std::vector<Choice> c = {Table(2, {0u}, ~0u, ~0u), Table(5, t)};
    Choice low{1, {}};  // seed | random & low: the low bits ORed, as Src1 does
    for (uint32_t v : t) low.entries.push_back(Entry(v, k.seed_low_mask));
    c.push_back(low);
    p->word[1] = BuildPool(c);
  }
  if (k.src2_scale) {
    p->word[2] = ScalePool();
  } else if (k.src2_unused) {
    p->word[2] = BuildPool({Table(2, {0u}), Table(1, kSrc2PatternTable), Table(1, {0u}, ~0u, ~0u)});
  } else {
    p->word[2] = BuildPool({Table(1, kSrc2PatternTable), Table(1, {0u}, ~0u, ~0u)});
  }
  p->word[3] = BuildPool({Table(1, kVdstPatternTable), Table(1, {0u}, ~0u, ~0u)});
  return p;
}

// The splitmix64 finalizer: a counter hashed into 64 independent-looking bits.
[[gnu::always_inline]] inline uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

[[gnu::always_inline]] inline uint32_t Draw(uint64_t e, uint32_t random) {
  return static_cast<uint32_t>(e) | (random & static_cast<uint32_t>(e >> 32));
}

}  // namespace

const LanePools& LaneGen::Pools() const {
  if (pools_ != nullptr) return *pools_;
  static std::mutex mu;
  static auto* all = new std::map<PoolKey, std::unique_ptr<LanePools>>;
  const PoolKey key{fp8_table_, fp8_low_mask_, seed_table_, seed_low_mask_, src1_data_, src2_unused_,
                    src1_scale_, src2_scale_, src1_e8m0_, pk16_};
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<LanePools>& p = (*all)[key];
  if (p == nullptr) p = BuildPools(key);
  pools_ = p.get();
  return *pools_;
}

void LaneGen::Fill(Rng& rng, LaneBatch* lanes, size_t n) const {
  lanes->Resize(n);
  FillFrom(rng, lanes, 0);
}

void LaneGen::FillFrom(Rng& rng, LaneBatch* lanes, size_t from) const {
  if (from >= lanes->size()) return;
  const size_t n = lanes->size() - from;
  if (lanes->shape().narrow_sources()) {
    FillInto(rng, lanes->src0().data() + from, lanes->src1().data() + from, lanes->src2().data() + from,
             lanes->vdst_old().data() + from, n);
    return;
  }
  // A wide row: the four words drawn as for a narrow row into scratch, then each lane's first
  // dwords from them and every other tuple dword drawn (FillTupleDwords).
  std::vector<uint32_t> w[4];
  for (std::vector<uint32_t>& x : w) x.resize(n);
  FillInto(rng, w[0].data(), w[1].data(), w[2].data(), w[3].data(), n);
  for (size_t i = 0; i < n; ++i) {
    for (int s = 0; s < 3; ++s) lanes->src(s)[(from + i) * lanes->shape().src_dwords[s]] = w[s][i];
    lanes->vdst_old()[from + i] = w[3][i];
  }
  FillTupleDwords(rng, lanes, from);
}

namespace {

// 16-bit values at the FP6 E2M3 / BF6 E3M2 edges under a scale of 2^0, both signs: the largest
// code (7.5, 28), the tie above it (7.75, 30) and past it (8, 32), the smallest subnormal (0.125,
// 0.0625), the ties below and above it (0.0625 / 0.1875; 0.03125 / 0.09375). IEEE binary16 or
// bfloat16 patterns.
const std::vector<uint32_t>& Fp6Edges16(bool f16) {
  static const auto* tables = [] {
    auto* both = new std::array<std::vector<uint32_t>, 2>;
    const std::vector<uint32_t> h = {0x4780, 0x47c0, 0x4800, 0x3000, 0x2c00, 0x3200,
                                     0x4f00, 0x4f80, 0x5000, 0x2800, 0x2e00};
    const std::vector<uint32_t> b = {0x40f0, 0x40f8, 0x4100, 0x3e00, 0x3d80, 0x3e40,
                                     0x41e0, 0x41f0, 0x4200, 0x3d00, 0x3dc0};
    for (uint32_t v : h) (*both)[0].push_back(v), (*both)[0].push_back(v | 0x8000u);
    for (uint32_t v : b) (*both)[1].push_back(v), (*both)[1].push_back(v | 0x8000u);
    return both;
  }();
  return (*tables)[f16 ? 0 : 1];
}

}  // namespace

// A tuple's dwords past the first, per lane and source. Codes of a packed format (every bit
// pattern valid): a copy of the first dword (one lane in four), random bits with one dword 0
// (one in four: a run of zero codes), else random bits. Packed 16-bit floats (SrcRole::f16x2_x16
// / bf16x2_x16): a copy of the first dword (one lane in four), else per dword a word of S0's pool
// (three in four: table pairs, near 1.0, random) or two FP6/BF6 edge values (Fp6Edges16).
void LaneGen::FillTupleDwords(Rng& rng, LaneBatch* lanes, size_t from) const {
  constexpr uint64_t kStep = 0x9e3779b97f4a7c15ull;
  uint64_t ctr = rng.Next();
  for (int s = 0; s < 3; ++s) {
    const size_t w = lanes->shape().src_dwords[s];
    if (w == 1) continue;
    uint32_t* d = lanes->src(s).data();
    if (s == 0 && pk16_ != 0) {
      FillPk16TupleDwords(ctr, d, w, from, lanes->size());
      continue;
    }
    for (size_t i = from; i < lanes->size(); ++i) {
      const uint64_t pick = Mix(ctr += kStep);
      for (size_t k = 1; k < w; ++k) {
        const uint64_t h = Mix(ctr += kStep);
        const uint32_t bits = static_cast<uint32_t>(h);
        d[i * w + k] = (pick & 3) == 0 ? d[i * w] : (pick & 3) == 1 && (h >> 32) % w == k ? 0 : bits;
      }
    }
  }
}

void LaneGen::FillPk16TupleDwords(uint64_t& ctr, uint32_t* d, size_t w, size_t from,
                                  size_t n) const {
  constexpr uint64_t kStep = 0x9e3779b97f4a7c15ull;
  const WordPool& pool = Pools().word[0];
  const uint64_t mask = (uint64_t{1} << pool.bits) - 1;
  const std::vector<uint32_t>& edges = Fp6Edges16(pk16_ == 1);
  for (size_t i = from; i < n; ++i) {
    const uint64_t pick = Mix(ctr += kStep);
    for (size_t k = 1; k < w; ++k) {
      const uint64_t h = Mix(ctr += kStep);
      const uint32_t lo = edges[(h >> 40) % edges.size()], hi = edges[(h >> 52) % edges.size()];
      d[i * w + k] = (pick & 3) == 0   ? d[i * w]
                     : (h & 3) == 0 ? (hi << 16) | lo
                                    : Draw(pool.entries[(h >> 2) & mask], static_cast<uint32_t>(h >> 32));
    }
  }
}

// Per lane: three hashes of a counter (h0: the four pool indices, 16 bits each; h1, h2: the
// random bits of the four words), four loads, four stores. No branch, no rejection.
void LaneGen::FillInto(Rng& rng, uint32_t* s0, uint32_t* s1, uint32_t* s2, uint32_t* vd,
                       size_t n) const {
  const LanePools& p = Pools();
  const uint64_t* e0 = p.word[0].entries.data();
  const uint64_t* e1 = p.word[1].entries.data();
  const uint64_t* e2 = p.word[2].entries.data();
  const uint64_t* e3 = p.word[3].entries.data();
  const uint64_t m0 = (uint64_t{1} << p.word[0].bits) - 1, m1 = (uint64_t{1} << p.word[1].bits) - 1,
                 m2 = (uint64_t{1} << p.word[2].bits) - 1, m3 = (uint64_t{1} << p.word[3].bits) - 1;
  constexpr uint64_t kStep = 0x9e3779b97f4a7c15ull;
  uint64_t ctr = rng.Next();
  for (size_t i = 0; i < n; ++i) {
    const uint64_t h0 = Mix(ctr += kStep);
    const uint64_t h1 = Mix(ctr += kStep);
    const uint64_t h2 = Mix(ctr += kStep);
    s0[i] = Draw(e0[h0 & m0], static_cast<uint32_t>(h1));
    s1[i] = Draw(e1[(h0 >> 16) & m1], static_cast<uint32_t>(h1 >> 32));
    s2[i] = Draw(e2[(h0 >> 32) & m2], static_cast<uint32_t>(h2));
    vd[i] = Draw(e3[(h0 >> 48) & m3], static_cast<uint32_t>(h2 >> 32));
  }
}

void AimTable::Add(uint32_t s0, uint32_t s1, uint32_t s2, uint32_t vd) {
  if (size() < kAimTableLanes) {
    words.insert(words.end(), {s0, s1, s2, vd});
    return;
  }
  uint32_t* w = &words[4 * next];
  w[0] = s0;
  w[1] = s1;
  w[2] = s2;
  w[3] = vd;
  next = (next + 1) % kAimTableLanes;
}

namespace {

// Lanes [from, n) of `l` from `table` in runs of kAimRunLanes consecutive table lanes (wrapping
// at its end), each run from a random place.
[[gnu::noinline]] void PickFromTable(Rng& rng, const AimTable& table, LaneBatch* l, size_t from) {
  const uint32_t* w = table.words.data();
  const uint64_t size = table.size();
  const size_t n = l->size();
  uint32_t* s0 = l->src0().data();
  uint32_t* s1 = l->src1().data();
  uint32_t* s2 = l->src2().data();
  uint32_t* vd = l->vdst_old().data();
  Rng r = rng;
  // The run starts of up to 64 runs are drawn and their cache lines prefetched first, then
  // the runs copied: the tables of a campaign do not fit the cache, and a copy loop waiting on
  // each run's miss in turn ran at 9 ns a lane.
  constexpr size_t kRunsAhead = 64;
  uint64_t start[kRunsAhead];
  for (size_t i = from; i < n;) {
    const size_t runs = std::min(kRunsAhead, (n - i + kAimRunLanes - 1) / kAimRunLanes);
    for (size_t k = 0; k < runs; ++k) {
      start[k] = r.Below(size);
      const uint32_t* first = w + 4 * start[k];
      __builtin_prefetch(first);
      __builtin_prefetch(w + 4 * std::min(start[k] + kAimRunLanes - 1, size - 1));
    }
    for (size_t k = 0; k < runs; ++k) {
      uint64_t lane_index = start[k];
      for (size_t j = 0; j < kAimRunLanes && i < n; ++j, ++i) {
        const uint32_t* lane = w + 4 * lane_index;
        s0[i] = lane[0];
        s1[i] = lane[1];
        s2[i] = lane[2];
        vd[i] = lane[3];
        lane_index = lane_index + 1 == size ? 0 : lane_index + 1;
      }
    }
  }
  rng = r;
}

}  // namespace

AimHeader::AimHeader(const proto::TestCase& header) : gen(header), rc(ResolveHeader(header, &routing)) {}

size_t AimLanes(Rng& rng, const Hypotheses& hyp, FlatCase* c, AimScratch* scratch) {
  if (c->size() == 0) return 0;
  return AimLanes(rng, hyp, AimHeader(c->header), c, scratch);
}

size_t AimLanes(Rng& rng, const Hypotheses& hyp, const AimHeader& h, FlatCase* c, AimScratch* scratch) {
  const size_t n = c->size();
  // A tuple row aims nothing (its aim table and candidates are one-dword lanes): every lane is
  // drawn (LaneGen::FillFrom from 0).
  if (n == 0 || !c->lanes.shape().narrow_sources()) return 0;
  const LaneGen& gen = h.gen;
  const LaneRouting& routing = h.routing;
  // A case that does not resolve aims nothing (and draws nothing).
  std::optional<OpContext> base_ctx;
  if (h.rc.ok()) {
    base_ctx = h.rc->ctx;
    base_ctx->hyp = hyp;
  }
  AimScratch local;
  AimScratch& k = scratch != nullptr ? *scratch : local;
  // The aim table of this case's LaneGen (none without scratch: the stream as it always was).
  AimTable* table = nullptr;
  if (scratch != nullptr) {
    if (!(k.hyp == hyp)) {
      k.tables.clear();
      k.hyp = hyp;
    }
    auto it = k.tables.find(gen.Key());
    if (it != k.tables.end()) {
      table = &it->second;
    } else if (k.tables.size() < kMaxAimTables) {
      table = &k.tables[gen.Key()];
    }
  }
  const bool warm = table != nullptr && table->size() >= kAimWarmLanes;
  // The candidates are drawn, evaluated and kept in chunks that stay in L1/L2 (16 bytes a
  // lane), in the order one big batch would have had; once n are kept (or the case does not
  // resolve) no more are drawn.
  constexpr size_t kChunk = 2048;
  LaneBatch& cand = k.cand;
  LaneBatch& uniform = k.uniform;
  std::vector<uint32_t>& base = k.base;
  std::vector<uint32_t>& alt = k.alt;
  std::vector<uint8_t>& keep = k.keep;
  size_t out = 0;
  bool ok = base_ctx.has_value();
  LaneBatch& l = c->lanes;
  const size_t total = warm ? (n + 15) / 16 : n * 4;
  for (size_t done = 0; done < total && ok && out < n; done += kChunk) {
    const size_t m = std::min(kChunk, total - done);
    gen.Fill(rng, &cand, m);
    const LaneView view = ResolveLanes(routing, cand.view(), &uniform);
    const size_t words = static_cast<size_t>(DstWords(base_ctx->instr));  // a VGPR pair: 2
    base.resize(m * words);
    alt.resize(m * words);
    if (!Evaluate(*base_ctx, view, absl::MakeSpan(base)).ok()) {
      ok = false;
      continue;
    }
    keep.assign(m, 0);
    for (const HypothesisInfo& info : AllHypotheses()) {
      for (size_t v = 0; v < info.values.size(); ++v) {
        if (v == info.get(hyp)) continue;
        OpContext ctx = *base_ctx;
        info.set(&ctx.hyp, static_cast<uint8_t>(v));
        if (!Evaluate(ctx, view, absl::MakeSpan(alt)).ok()) continue;
        for (size_t i = 0; i < m * words; ++i) keep[i / words] |= alt[i] != base[i];
      }
    }
    for (size_t i = 0; i < m && out < n; ++i) {
      if (!keep[i]) continue;
      const uint32_t s0 = cand.src0()[i], s1 = cand.src1()[i], s2 = cand.src2()[i],
                     vd = cand.vdst_old()[i];
      l.src0()[out] = s0;
      l.src1()[out] = s1;
      l.src2()[out] = s2;
      l.vdst_old()[out] = vd;
      if (table != nullptr) table->Add(s0, s1, s2, vd);
      ++out;
    }
  }
  if (!warm || !ok) return out;
  // The rest from the table: runs of kAimRunLanes lanes from random places.
  PickFromTable(rng, *table, &l, out);
  return n;
}

}  // namespace lanediff
