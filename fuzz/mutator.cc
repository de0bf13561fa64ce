#include "fuzz/mutator.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/reflection.h"
#include "model/fp/fp8_format.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/testcase.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

uint64_t SplitMix(uint64_t* x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

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

// Operand limits come from the ISA tables, the same ones the encoder and decoder read.
int ConstantBusLimit(Family f) { return GetVop3Layout(f).constant_bus_limit; }
bool LiteralAllowed(Family f) { return GetVop3Layout(f).literal_allowed; }

bool IsInlineCode(Family f, uint32_t code) {
  absl::StatusOr<OperandInfo> op = DescribeOperand(f, static_cast<uint16_t>(code & 0x1ff));
  return code < 512 && op.ok() &&
         (op->kind == OperandKind::inline_int || op->kind == OperandKind::inline_float);
}

// What the mutator may know about an instruction comes from its InstrInfo row and, for 8-bit
// float outputs, the model's Fp8OutputShape: no instruction names here.
const InstrInfo& Info(Instr i) { return GetInstrInfo(i); }
bool HasSeed(Instr i) { return Info(i).writes_fp8; }

// Unknown values (a mutated enum) map to the first instruction; Fixup then picks a valid one.
Instr FromProto(proto::Instruction i) {
  absl::StatusOr<Instr> instr = InstrFromProto(i);
  return instr.ok() ? *instr : kAllInstrs[0];
}

// The 8-bit float format and seed position of a case (CLAMP included), if it writes one.
std::optional<Fp8Shape> ShapeOf(const TargetTraits* t, Instr instr, bool clamp) {
  if (t == nullptr || !t->Has(instr)) return std::nullopt;
  OpContext ctx;
  ctx.target = t;
  ctx.instr = instr;
  ctx.mods.clamp = clamp;
  return Fp8OutputShape(ctx);
}

const TargetTraits* TargetOf(const proto::TestCase& tc) {
  for (const TargetTraits& t : AllTargets()) {
    if (t.name == tc.target()) return &t;
  }
  return nullptr;
}

}  // namespace

Rng::Rng(uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t& s : s_) s = SplitMix(&x);
}

uint64_t Rng::Next() {
  const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = std::rotl(s_[3], 45);
  return result;
}

uint64_t Rng::Below(uint64_t n) {
  // Lemire's multiply-shift with rejection: unbiased, deterministic.
  unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(Next()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

std::vector<uint32_t> SpecialF32Values() {
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

std::vector<uint32_t> U8BoundaryValues() {
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

std::vector<uint32_t> Fp8BoundaryValues(Fp8FormatId id) {
  const Fp8Format& f = GetFp8Format(id);
  const int mask = (1 << f.man_bits) - 1;
  std::vector<uint32_t> v;
  auto add = [&](uint32_t bits) {
    v.push_back(bits);
    if (f.is_signed || true) v.push_back(bits ^ 0x80000000u);  // negatives matter for UE5M3 too
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

std::vector<uint32_t> SeedValues(int first_seed_bit) {
  std::vector<uint32_t> v = {0u, 0xffffffffu, ~((1u << first_seed_bit) - 1),
                             (1u << first_seed_bit) - 1, 0x80000000u, 0x7fffffffu,
                             0xffdff000u, 0x7ffff000u};
  for (int b = 0; b < 32; ++b) v.push_back(1u << b);  // each seed bit alone; low bits too
  return v;
}

std::vector<uint32_t> ModeValues() {
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

Mutator::Mutator(MutatorConfig config) : config_(std::move(config)) {
  for (const TargetTraits& t : AllTargets()) {
    if (!config_.targets.empty() &&
        std::find(config_.targets.begin(), config_.targets.end(), std::string(t.name)) ==
            config_.targets.end()) {
      continue;
    }
    bool any = false;
    for (Instr i : kAllInstrs) {
      const bool allowed = config_.instrs.empty() ||
                           std::find(config_.instrs.begin(), config_.instrs.end(), i) !=
                               config_.instrs.end();
      any |= allowed && t.Has(i);
    }
    if (any) targets_.push_back(&t);
  }
  config_.max_lanes = std::clamp<size_t>(config_.max_lanes, 1, kMaxLanes);
  config_.min_lanes = std::clamp<size_t>(config_.min_lanes, 1, config_.max_lanes);
}

absl::Status Mutator::Check() const {
  for (const std::string& name : config_.targets) {
    if (!FindTarget(name).ok()) return FindTarget(name).status();
  }
  if (targets_.empty()) {
    return absl::InvalidArgumentError(
        "no target in --targets has any instruction in --instrs: nothing to fuzz");
  }
  return absl::OkStatus();
}

uint32_t Mutator::DomainValue(Rng& rng, const proto::TestCase& tc,
                              const std::string& field) const {
  const TargetTraits* t = TargetOf(tc);
  const Instr instr = FromProto(tc.instr());
  auto random_f32 = [&]() {
    // An exponent near the interesting range, random mantissa and sign.
    const uint32_t exp = static_cast<uint32_t>(100 + rng.Below(45));
    return (rng.Next32() & 0x807fffffu) | (exp << 23);
  };
  if (field == "mode") return rng.Pick(ModeValues());
  if (field == "src0" || field == "value") {
    switch (rng.Below(8)) {
      case 0:
        return rng.Pick(SpecialF32Values());
      case 1:
        return rng.Next32();
      case 2:
        return random_f32();
      default:
        break;
    }
    const std::optional<Fp8Shape> shape = ShapeOf(t, instr, tc.encoding().clamp());
    if (!shape) {
      const uint32_t v = rng.Pick(U8BoundaryValues());
      return rng.OneIn(4) ? (v & 0x7fffffffu) : v;
    }
    const Fp8FormatId id = shape->format->id;
    const std::vector<uint32_t>& table = [&]() -> const std::vector<uint32_t>& {
      static const auto* tables = [] {
        auto* all = new std::vector<std::vector<uint32_t>>;
        for (int i = 0; i < kNumFp8Formats; ++i) {
          all->push_back(Fp8BoundaryValues(static_cast<Fp8FormatId>(i)));
        }
        return all;
      }();
      return (*tables)[static_cast<int>(id)];
    }();
    uint32_t v = rng.Pick(table);
    if (rng.OneIn(4)) {
      // Keep the fp8-visible bits, randomize the bits the seed rounds away.
      const int man = GetFp8Format(id).man_bits;
      v = (v & ~((1u << (23 - man)) - 1)) | (rng.Next32() & ((1u << (23 - man)) - 1));
    }
    return v;
  }
  if (field == "src1") {
    const std::optional<Fp8Shape> shape = ShapeOf(t, instr, tc.encoding().clamp());
    if (!HasSeed(instr) || !shape) {
      const uint32_t k = static_cast<uint32_t>(rng.Below(4));
      return rng.OneIn(2) ? k : ((rng.Next32() & ~3u) | k);  // S1[31:2] must not matter
    }
    const int first = static_cast<int>(shape->seed_shift);
    switch (rng.Below(4)) {
      case 0:
        return rng.Next32();
      case 1:
        return rng.Pick(SeedValues(first)) | (rng.OneIn(2) ? rng.Next32() & ((1u << first) - 1) : 0);
      default:
        return rng.Pick(SeedValues(first));
    }
  }
  if (field == "src2") {
    if (Src2Unused(instr) && rng.OneIn(2)) return 0;
    const uint32_t pats[] = {0u, 0xffffffffu, 0xa5a5a5a5u, 0x01020304u, 0x80808080u};
    return rng.OneIn(2) ? pats[rng.Below(5)] : rng.Next32();
  }
  if (field == "vdst_old") {
    const uint32_t pats[] = {0u, 0xffffffffu, 0xdeadbeefu, 0x01020304u, 0x7f7f7f7fu};
    return rng.OneIn(2) ? pats[rng.Below(5)] : rng.Next32();
  }
  if (field == "opsel") return static_cast<uint32_t>(rng.Below(16));
  if (field == "neg" || field == "abs") return static_cast<uint32_t>(rng.Below(8));
  if (field == "omod") return static_cast<uint32_t>(rng.Below(4));
  if (field == "code") {
    return rng.OneIn(5) ? static_cast<uint32_t>(240 + rng.Below(9))
                        : static_cast<uint32_t>(128 + rng.Below(81));
  }
  return rng.Next32();
}

void Mutator::FillLanes(Rng& rng, proto::TestCase* tc, size_t n) const {
  tc->clear_lanes();
  for (size_t i = 0; i < n; ++i) {
    proto::Lane* lane = tc->add_lanes();
    lane->set_src0(DomainValue(rng, *tc, "src0"));
    lane->set_src1(DomainValue(rng, *tc, "src1"));
    lane->set_src2(DomainValue(rng, *tc, "src2"));
    lane->set_vdst_old(DomainValue(rng, *tc, "vdst_old"));
  }
}

std::vector<Instr> Mutator::AllowedInstrs(const TargetTraits& t) const {
  std::vector<Instr> out;
  for (Instr i : kAllInstrs) {
    const bool allowed = config_.instrs.empty() ||
                         std::find(config_.instrs.begin(), config_.instrs.end(), i) !=
                             config_.instrs.end();
    if (t.Has(i) && allowed) out.push_back(i);
  }
  return out;
}

proto::TestCase Mutator::Generate(Rng& rng) const {
  proto::TestCase tc;
  const TargetTraits* t = targets_.empty() ? &AllTargets()[0] : targets_[rng.Below(targets_.size())];
  tc.set_target(std::string(t->name));
  const std::vector<Instr> instrs = AllowedInstrs(*t);
  const Instr instr = instrs.empty() ? kAllInstrs[0] : rng.Pick(instrs);
  tc.set_instr(InstrToProto(instr));
  proto::Encoding* enc = tc.mutable_encoding();
  const auto exotic = [&]() { return static_cast<int>(rng.Below(256)) < config_.exotic_per_256; };
  if (!Info(instr).byte_select_src1) enc->set_opsel(static_cast<uint32_t>(rng.Below(4)) << 2);  // byte select
  if (exotic()) enc->set_opsel(static_cast<uint32_t>(rng.Below(16)));         // stray OPSEL bits
  if (exotic()) enc->set_neg(static_cast<uint32_t>(rng.Below(8)));
  if (exotic()) enc->set_abs(static_cast<uint32_t>(rng.Below(8)));
  if (exotic()) enc->set_clamp(true);
  if (exotic() && rng.OneIn(2)) enc->set_omod(static_cast<uint32_t>(rng.Below(4)));
  for (int k = 0; k < 3; ++k) {
    if (!exotic() || !rng.OneIn(2)) continue;
    proto::Source* s = k == 0 ? enc->mutable_src0() : k == 1 ? enc->mutable_src1() : enc->mutable_src2();
    switch (rng.Below(k == 2 && Src2Unused(instr) ? 4 : 3)) {
      case 3:  // a VGPR in the unused SRC2 field (LLVM always encodes 0 there)
        s->set_code(static_cast<uint32_t>(1 + rng.Below(4)));  // v1..v4
        continue;
      case 0:
        s->set_kind(proto::SOURCE_SGPR);
        break;
      case 1:
        s->set_kind(proto::SOURCE_INLINE);
        s->set_code(DomainValue(rng, tc, "code"));
        break;
      default:
        s->set_kind(proto::SOURCE_LITERAL);
        break;
    }
    if (s->kind() != proto::SOURCE_INLINE) s->set_value(DomainValue(rng, tc, "value"));
  }
  if (exotic()) tc.set_mode(DomainValue(rng, tc, "mode"));
  const size_t n = config_.min_lanes == config_.max_lanes
                       ? config_.max_lanes
                       : config_.min_lanes + rng.Below(config_.max_lanes - config_.min_lanes + 1);
  FillLanes(rng, &tc, n);
  Fixup(rng, &tc);
  return tc;
}

void Mutator::MutateField(Rng& rng, proto::TestCase* tc) const {
  // Reflection: walk to a random leaf of the message tree. Repeated messages (lanes) pick
  // one element; a repeated field itself can also be resized.
  Message* msg = tc;
  for (int depth = 0; depth < 4; ++depth) {
    const Descriptor* d = msg->GetDescriptor();
    const Reflection* r = msg->GetReflection();
    const FieldDescriptor* f = d->field(static_cast<int>(rng.Below(d->field_count())));
    const std::string& name = f->name();
    if (name == "note") return;
    if (f->is_repeated()) {
      const int size = r->FieldSize(*msg, f);
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (size == 0 || rng.OneIn(6)) {  // structural: add, drop or duplicate a lane
          if (name != "lanes") return;
          if (size > 1 && rng.OneIn(2)) {
            r->SwapElements(msg, f, static_cast<int>(rng.Below(size)), size - 1);
            r->RemoveLast(msg, f);
          } else {
            proto::Lane* lane = tc->add_lanes();
            if (size > 0) *lane = tc->lanes(static_cast<int>(rng.Below(size)));
            else {
              lane->set_src0(DomainValue(rng, *tc, "src0"));
              lane->set_src1(DomainValue(rng, *tc, "src1"));
            }
          }
          return;
        }
        msg = r->MutableRepeatedMessage(msg, f, static_cast<int>(rng.Below(size)));
        continue;
      }
      // Repeated scalars (raw_words): flip one bit of one word, or drop/add a word.
      if (size == 0) return;
      const int i = static_cast<int>(rng.Below(size));
      r->SetRepeatedUInt32(msg, f, i, r->GetRepeatedUInt32(*msg, f, i) ^ (1u << rng.Below(32)));
      return;
    }
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_MESSAGE:
        msg = r->MutableMessage(msg, f);
        continue;
      case FieldDescriptor::CPPTYPE_UINT32: {
        const uint32_t old = r->GetUInt32(*msg, f);
        uint32_t v;
        switch (rng.Below(6)) {
          case 0:
            v = old ^ (1u << rng.Below(32));
            break;
          case 1:
            v = old + (rng.OneIn(2) ? 1 : -1);
            break;
          default:
            v = DomainValue(rng, *tc, name);
        }
        r->SetUInt32(msg, f, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_BOOL:
        r->SetBool(msg, f, !r->GetBool(*msg, f));
        return;
      case FieldDescriptor::CPPTYPE_ENUM: {
        const auto* e = f->enum_type();
        r->SetEnumValue(msg, f, e->value(static_cast<int>(rng.Below(e->value_count())))->number());
        return;
      }
      case FieldDescriptor::CPPTYPE_STRING:
        if (name == "target" && !targets_.empty()) {
          r->SetString(msg, f, std::string(targets_[rng.Below(targets_.size())]->name));
        }
        return;
      default:
        return;
    }
  }
}

void Mutator::Mutate(Rng& rng, proto::TestCase* tc) const {
  const int n = 1 + static_cast<int>(rng.Below(4));
  for (int i = 0; i < n; ++i) {
    if (tc->lanes_size() > 4 && rng.OneIn(3)) {
      // Re-draw a random slice of lanes (big batches would otherwise barely move).
      const int size = tc->lanes_size();
      const int start = static_cast<int>(rng.Below(size));
      const int len = 1 + static_cast<int>(rng.Below(size - start));
      for (int j = start; j < start + len; ++j) {
        proto::Lane* lane = tc->mutable_lanes(j);
        lane->set_src0(DomainValue(rng, *tc, "src0"));
        lane->set_src1(DomainValue(rng, *tc, "src1"));
        if (rng.OneIn(4)) lane->set_src2(DomainValue(rng, *tc, "src2"));
        if (rng.OneIn(4)) lane->set_vdst_old(DomainValue(rng, *tc, "vdst_old"));
      }
    } else {
      MutateField(rng, tc);
    }
  }
  Fixup(rng, tc);
}

proto::TestCase Mutator::CrossOver(Rng& rng, const proto::TestCase& a,
                                   const proto::TestCase& b) const {
  proto::TestCase child = rng.OneIn(2) ? a : b;
  const proto::TestCase& other = &child == &a ? b : (rng.OneIn(2) ? a : b);
  if (rng.OneIn(2)) *child.mutable_encoding() = other.encoding();
  if (rng.OneIn(2)) {
    if (other.has_mode()) child.set_mode(other.mode());
    else child.clear_mode();
  }
  // Lanes: a prefix of one parent, then a suffix of the other.
  const int cut_a = a.lanes_size() == 0 ? 0 : static_cast<int>(rng.Below(a.lanes_size() + 1));
  const int cut_b = b.lanes_size() == 0 ? 0 : static_cast<int>(rng.Below(b.lanes_size() + 1));
  child.clear_lanes();
  for (int i = 0; i < cut_a; ++i) *child.add_lanes() = a.lanes(i);
  for (int i = cut_b; i < b.lanes_size(); ++i) *child.add_lanes() = b.lanes(i);
  Fixup(rng, &child);
  return child;
}

bool Mutator::Fixup(Rng& rng, proto::TestCase* tc) const {
  bool changed = false;
  auto set = [&](auto getter, auto setter, auto value) {
    if (getter() != value) {
      setter(value);
      changed = true;
    }
  };
  // Target.
  const TargetTraits* t = TargetOf(*tc);
  if (t == nullptr || std::find(targets_.begin(), targets_.end(), t) == targets_.end()) {
    t = targets_.empty() ? &AllTargets()[0] : targets_[rng.Below(targets_.size())];
    tc->set_target(std::string(t->name));
    changed = true;
  }
  // Instruction present on the target and allowed.
  const std::vector<Instr> instrs = AllowedInstrs(*t);
  const bool instr_ok = proto::Instruction_IsValid(tc->instr()) &&
                        tc->instr() != proto::INSTRUCTION_UNSPECIFIED &&
                        std::find(instrs.begin(), instrs.end(), FromProto(tc->instr())) !=
                            instrs.end();
  if (!instr_ok && !instrs.empty()) {
    tc->set_instr(InstrToProto(rng.Pick(instrs)));
    changed = true;
  }
  // Encoding.
  proto::Encoding* enc = tc->mutable_encoding();
  if (enc->raw_words_size() > 0) {
    if (enc->raw_words_size() < 2 || enc->raw_words_size() > 3) {
      enc->clear_raw_words();
      changed = true;
    } else {
      proto::Encoding only_words;
      *only_words.mutable_raw_words() = enc->raw_words();
      if (enc->ByteSizeLong() != only_words.ByteSizeLong()) {
        *enc = only_words;
        changed = true;
      }
    }
  }
  if (enc->raw_words_size() == 0) {
    set([&] { return enc->opsel(); }, [&](uint32_t v) { enc->set_opsel(v); }, enc->opsel() & 15u);
    set([&] { return enc->neg(); }, [&](uint32_t v) { enc->set_neg(v); }, enc->neg() & 7u);
    set([&] { return enc->abs(); }, [&](uint32_t v) { enc->set_abs(v); }, enc->abs() & 7u);
    set([&] { return enc->omod(); }, [&](uint32_t v) { enc->set_omod(v); }, enc->omod() & 3u);
    // The SR instructions' SRC2 field carries no data; a literal code there would make the
    // instruction's length ambiguous, so the unused field is never the literal.
    int bus = 0;
    bool have_literal = false;
    uint32_t literal = 0;
    for (int k = 0; k < 3; ++k) {
      // Absent sources stay absent (reading them through mutable_* would create them).
      if (!(k == 0 ? enc->has_src0() : k == 1 ? enc->has_src1() : enc->has_src2())) continue;
      proto::Source* s =
          k == 0 ? enc->mutable_src0() : k == 1 ? enc->mutable_src1() : enc->mutable_src2();
      if (!proto::SourceKind_IsValid(s->kind())) {
        s->set_kind(proto::SOURCE_VGPR);
        changed = true;
      }
      switch (s->kind()) {
        case proto::SOURCE_VGPR:
          // 0: the convention's register for this slot; else a register number, one of
          // v1..v4, which the harness loads (model/isa/testcase.h RegisterConvention).
          if (s->code() > 4 || s->value() != 0) {
            s->clear_code();
            s->clear_value();
            changed = true;
          }
          break;
        case proto::SOURCE_INLINE:
          if (!IsInlineCode(t->family, s->code())) {
            s->set_code(128 + s->code() % 81);
            changed = true;
          }
          if (s->value() != 0) {
            s->clear_value();
            changed = true;
          }
          break;
        case proto::SOURCE_LITERAL:
          if (!LiteralAllowed(t->family) || (!have_literal && bus >= ConstantBusLimit(t->family))) {
            s->set_kind(proto::SOURCE_VGPR);
            s->clear_value();
            s->clear_code();
            changed = true;
            break;
          }
          if (s->code() != 0) {
            s->clear_code();
            changed = true;
          }
          if (have_literal) {  // one literal dword per instruction: share its value
            if (s->value() != literal) {
              s->set_value(literal);
              changed = true;
            }
          } else {
            have_literal = true;
            literal = s->value();
            ++bus;
          }
          break;
        case proto::SOURCE_SGPR:
          if (bus >= ConstantBusLimit(t->family)) {
            s->set_kind(proto::SOURCE_VGPR);
            s->clear_value();
            changed = true;
            break;
          }
          if (s->code() != 0) {  // the harness chooses distinct SGPRs
            s->clear_code();
            changed = true;
          }
          ++bus;
          break;
        default:
          break;
      }
    }
    // A default (VGPR, no register named) src2 on an SR instruction is made absent, which
    // encodes SRC2 = 0 as LLVM does; a non-zero SRC2 field is only produced on purpose (an
    // SGPR, an inline constant or a named VGPR).
    if (Src2Unused(FromProto(tc->instr())) && enc->has_src2() &&
        (enc->src2().kind() == proto::SOURCE_LITERAL ||
         (enc->src2().kind() == proto::SOURCE_VGPR && enc->src2().code() == 0))) {
      enc->clear_src2();
      changed = true;
    }
  }
  // Lane count.
  const size_t n = static_cast<size_t>(tc->lanes_size());
  if (n > config_.max_lanes) {
    tc->mutable_lanes()->DeleteSubrange(static_cast<int>(config_.max_lanes),
                                        static_cast<int>(n - config_.max_lanes));
    changed = true;
  } else if (n < config_.min_lanes) {
    for (size_t i = n; i < config_.min_lanes; ++i) {
      proto::Lane* lane = tc->add_lanes();
      lane->set_src0(DomainValue(rng, *tc, "src0"));
      lane->set_src1(DomainValue(rng, *tc, "src1"));
    }
    changed = true;
  }
  if (tc->has_mode() && tc->mode() == kDefaultMode) {
    tc->clear_mode();  // absent means the default: one spelling per case
    changed = true;
  }
  return changed;
}

}  // namespace lanediff
