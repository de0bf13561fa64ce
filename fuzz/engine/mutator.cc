#include "fuzz/engine/mutator.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"
#include "device_harness/register_convention.h"
#include "fuzz/engine/lane_gen.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/reflection.h"
#include "model/fp/fp8_format.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
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

// Operand limits come from the ISA tables, the same ones the encoder and decoder read.
int ConstantBusLimit(Family f) { return GetVop3Layout(f).constant_bus_limit; }
bool LiteralAllowed(Family f) { return GetVop3Layout(f).literal_allowed; }

bool IsInlineCode(Family f, uint32_t code) {
  absl::StatusOr<OperandInfo> op = DescribeOperand(f, static_cast<uint16_t>(code & 0x1ff));
  return code < 512 && op.ok() &&
         (op->kind == OperandKind::inline_int || op->kind == OperandKind::inline_float);
}

// Which registers a case's sources may name: the ones the harness kernels load (their layout
// is device_harness/register_convention.h's, read through the operand resolver's RegisterFile;
// the SGPR values do not matter here). The VGPRs in register order (v1..v4 today).
const RegisterFile& HarnessRegisters() {
  static const RegisterFile regs = HarnessRegisterFile({});
  return regs;
}
const std::vector<uint32_t>& HarnessVgprs() {
  static const std::vector<uint32_t> vgprs = [] {
    std::vector<uint32_t> v;
    for (int r = 0; r < 256; ++r) {
      if (HarnessRegisters().Vgpr(r)) v.push_back(static_cast<uint32_t>(r));
    }
    return v;
  }();
  return vgprs;
}

// What the mutator may know about an instruction comes from its InstrInfo row.
const InstrInfo& Info(Instr i) { return GetInstrInfo(i); }

// Scatters the low bits of v into the set bits of mask, lowest first (BMI2 pdep).
uint32_t Deposit(uint32_t v, uint32_t mask) {
  uint32_t out = 0;
  for (uint32_t m = mask; m != 0; m &= m - 1, v >>= 1) {
    if (v & 1) out |= m & (0u - m);
  }
  return out;
}

// Unknown values (a mutated enum) map to the first instruction; Fixup then picks a valid one.
Instr FromProto(proto::Instruction i) {
  absl::StatusOr<Instr> instr = InstrFromProto(i);
  return instr.ok() ? *instr : kAllInstrs[0];
}

// One of a 32-bit field's mutations: a bit flip, +-1, or a domain value for the field.
uint32_t MutateWord(Rng& rng, uint32_t old, const LaneGen& gen, DomainField field) {
  switch (rng.Below(6)) {
    case 0:
      return old ^ (1u << rng.Below(32));
    case 1:
      return old + (rng.OneIn(2) ? 1 : -1);
    default:
      return gen.Value(rng, field);
  }
}

}  // namespace

Rng::Rng(uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t& s : s_) s = SplitMix(&x);
}

std::vector<uint32_t> SpecialF32Values() { return SpecialF32Table(); }
std::vector<uint32_t> U8BoundaryValues() { return U8BoundaryTable(); }
std::vector<uint32_t> Fp8BoundaryValues(Fp8FormatId id) { return Fp8BoundaryTable(id); }
std::vector<uint32_t> SeedValues(int first_seed_bit) { return SeedTable(first_seed_bit); }
std::vector<uint32_t> ModeValues() { return ModeTable(); }

Mutator::Mutator(MutatorConfig config) : config_(std::move(config)) {
  for (const TargetTraits& t : AllTargets()) {
    const bool listed = config_.targets.empty() ||
                        std::find(config_.targets.begin(), config_.targets.end(),
                                  std::string(t.name)) != config_.targets.end();
    if (listed && !AllowedInstrs(t).empty()) targets_.push_back(&t);
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
  return LaneGen(tc).Value(rng, DomainFieldNamed(field));
}

void Mutator::FillLanes(Rng& rng, proto::TestCase* tc, size_t n) const {
  tc->clear_lanes();
  FlatCase c = Flatten(std::move(*tc));
  LaneGen(c.header).Fill(rng, &c.lanes, n);
  *tc = ToProto(c);
}

bool Mutator::InstrAllowed(Instr i) const {
  return config_.instrs.empty() ||
         std::find(config_.instrs.begin(), config_.instrs.end(), i) != config_.instrs.end();
}

std::vector<Instr> Mutator::AllowedInstrs(const TargetTraits& t) const {
  std::vector<Instr> out;
  for (Instr i : kAllInstrs) {
    if (t.Has(i) && InstrAllowed(i)) out.push_back(i);
  }
  return out;
}

namespace {

// The case's target has its instruction in a VOP1 form (e32), so Encoding.form and .src0_sel
// mean something.
bool HasVop1Forms(const proto::TestCase& tc) {
  const TargetTraits* t = TargetNamed(tc.target());
  if (t == nullptr) return false;
  if (!proto::Instruction_IsValid(tc.instr())) return false;
  if (tc.instr() == proto::INSTRUCTION_UNSPECIFIED) return false;
  absl::StatusOr<Instr> instr = InstrFromProto(tc.instr());
  return instr.ok() && HasForm(*t, *instr, InstrForm::e32);
}

// The case's instruction has an SDWA form with a destination select on its target (vop3.h
// SdwaHasDstSel), so Encoding.dst_sel, .dst_unused and .src0_sext mean something.
bool HasSdwaDstSel(const proto::TestCase& tc) {
  if (!HasVop1Forms(tc)) return false;
  const Instr instr = *InstrFromProto(tc.instr());
  return HasForm(*TargetNamed(tc.target()), instr, InstrForm::sdwa) && SdwaHasDstSel(instr);
}

// The VOP1 forms (model/isa/vop3.h HasForm): a form the instruction lacks becomes e64; e32 has
// no modifier fields and one source; SDWA (src0_sel; dst_sel, dst_unused and src0_sext where
// the row has them, vop3.h SdwaHasDstSel) no OPSEL, NEG/ABS or literal. True if
// anything changed.
bool FixupForm(const TargetTraits& t, Instr instr, proto::Encoding* enc) {
  const proto::Encoding before = *enc;
  const InstrForm form = enc->form() == proto::FORM_E32    ? InstrForm::e32
                         : enc->form() == proto::FORM_SDWA ? InstrForm::sdwa
                                                           : InstrForm::e64;
  if (!proto::Form_IsValid(enc->form()) || !HasForm(t, instr, form)) enc->clear_form();
  if (enc->form() != proto::FORM_SDWA) enc->clear_src0_sel();
  if (enc->form() != proto::FORM_SDWA || !SdwaHasDstSel(instr)) {
    enc->clear_dst_sel();
    enc->clear_dst_unused();
    enc->clear_src0_sext();
  }
  if (enc->form() != proto::FORM_E64) {
    enc->clear_opsel();
    enc->clear_neg();
    enc->clear_abs();
    enc->clear_src1();
    enc->clear_src2();
    if (enc->form() == proto::FORM_E32) {
      enc->clear_clamp();
      enc->clear_omod();
    }
    if (enc->src0_sel() > 6) enc->set_src0_sel(enc->src0_sel() % 7);
    if (enc->dst_sel() > 6) enc->set_dst_sel(enc->dst_sel() % 7);
    if (enc->dst_unused() > 2) enc->set_dst_unused(enc->dst_unused() % 3);
    if (enc->form() == proto::FORM_SDWA && enc->src0().kind() == proto::SOURCE_LITERAL) {
      enc->clear_src0();
    }
  }
  return enc->SerializeAsString() != before.SerializeAsString();
}

}  // namespace

proto::TestCase Mutator::Generate(Rng& rng) const { return ToProto(GenerateFlat(rng)); }

FlatCase Mutator::GenerateFlat(Rng& rng, bool draw_lanes) const {
  FlatCase c;
  proto::TestCase& tc = c.header;
  const TargetTraits* t = targets_.empty() ? &AllTargets()[0] : targets_[rng.Below(targets_.size())];
  tc.set_target(std::string(t->name));
  const std::vector<Instr> instrs = AllowedInstrs(*t);
  const Instr instr = instrs.empty() ? kAllInstrs[0] : rng.Pick(instrs);
  tc.set_instr(InstrToProto(instr));
  proto::Encoding* enc = tc.mutable_encoding();
  const auto exotic = [&]() { return static_cast<int>(rng.Below(256)) < config_.exotic_per_256; };
  if (const uint32_t bits = Info(instr).opsel_bits; bits != 0) {  // the selects it owns
    enc->set_opsel(Deposit(static_cast<uint32_t>(rng.Below(1u << std::popcount(bits))), bits));
  }
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
        s->set_code(HarnessVgprs()[rng.Below(HarnessVgprs().size())]);  // one the kernels load
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
  // A VOP1 instruction: two thirds of its cases in its other forms (e32; SDWA on GFX9).
  if (HasForm(*t, instr, InstrForm::e32) && rng.Below(3) != 0) {
    const bool sdwa = HasForm(*t, instr, InstrForm::sdwa) && rng.OneIn(2);
    enc->set_form(sdwa ? proto::FORM_SDWA : proto::FORM_E32);
    if (sdwa) enc->set_src0_sel(static_cast<uint32_t>(rng.Below(7)));
    if (sdwa && SdwaHasDstSel(instr)) {  // and its destination select, fill, sext and clamp
      enc->set_dst_sel(static_cast<uint32_t>(rng.Below(7)));
      enc->set_dst_unused(static_cast<uint32_t>(rng.Below(3)));
      enc->set_src0_sext(rng.OneIn(2));
      enc->set_clamp(rng.OneIn(2));
    }
    FixupForm(*t, instr, enc);
  }
  if (exotic()) tc.set_mode(DomainValue(rng, tc, "mode"));
  const size_t n = config_.min_lanes == config_.max_lanes
                       ? config_.max_lanes
                       : config_.min_lanes + rng.Below(config_.max_lanes - config_.min_lanes + 1);
  if (draw_lanes) {
    LaneGen(tc).Fill(rng, &c.lanes, n);
  } else {
    c.lanes.Resize(n);
  }
  FixupFlat(rng, &c);
  return c;
}

void Mutator::MutateLanes(Rng& rng, FlatCase* c) const {
  // What reflection over a repeated Lane field would do, on the flat lanes: a structural
  // change (drop one, or duplicate one), else one field of one lane.
  LaneBatch& lanes = c->lanes;
  const size_t size = lanes.size();
  std::vector<uint32_t>* words[4] = {&lanes.src0(), &lanes.src1(), &lanes.src2(),
                                     &lanes.vdst_old()};
  if (size == 0 || rng.OneIn(6)) {  // structural: add, drop or duplicate a lane
    if (size > 1 && rng.OneIn(2)) {
      lanes.RemoveSwappingLast(rng.Below(size));
    } else if (size > 0) {
      lanes.AddCopyOf(rng.Below(size));
    } else {
      const LaneGen gen(c->header);
      const uint32_t s0 = gen.Value(rng, DomainField::kSrc0);
      const uint32_t s1 = gen.Value(rng, DomainField::kSrc1);
      lanes.Add(s0, s1, 0, 0);
      if (!lanes.shape().narrow_sources()) gen.FillTupleDwords(rng, &lanes, 0);
    }
    return;
  }
  const size_t i = rng.Below(size);
  const Descriptor* d = proto::Lane::descriptor();
  // The draw is over the four one-dword words (src0, src1, src2, vdst_old: Lane's first four
  // fields). srcN_more, a wide row's tuple dwords, come after them and no flat case holds
  // them, so a fixed seed's stream is what it was before they existed
  // (fuzz/testdata/campaign_golden.txt).
  const FieldDescriptor* f = d->field(static_cast<int>(rng.Below(4)));
  const int w = LaneWordNamed(f->name());
  if (w < 0) return;  // a Lane field that is not one of the four words (none today)
  // A wide source: one of its dwords (a further draw only for a wide row's tuple).
  const size_t dwords = w < 3 ? lanes.shape().src_dwords[w] : 1;
  const size_t k = dwords > 1 ? rng.Below(dwords) : 0;
  uint32_t& word = (*words[w])[i * dwords + k];
  word = MutateWord(rng, word, LaneGen(c->header), DomainFieldNamed(f->name()));
}

void Mutator::MutateField(Rng& rng, FlatCase* c) const {
  // Reflection: walk to a random leaf of the message tree. The repeated lanes live outside
  // the header (MutateLanes); a repeated scalar field can have one bit flipped.
  proto::TestCase* tc = &c->header;
  Message* msg = tc;
  for (int depth = 0; depth < 4; ++depth) {
    const Descriptor* d = msg->GetDescriptor();
    const Reflection* r = msg->GetReflection();
    int fields = d->field_count();
    if (d == proto::Encoding::descriptor()) {
      // Encoding's fields form and src0_sel exist only for a VOP1 instruction's cases, the
      // last three (dst_sel, dst_unused, src0_sext) only for an SDWA form with a destination
      // select: for the others the draw is over the fields before them, as before they existed
      // (so a fixed seed's stream is unchanged: fuzz/testdata/campaign_golden.txt).
      if (!HasVop1Forms(*tc)) fields -= 5;
      else if (!HasSdwaDstSel(*tc)) fields -= 3;
    }
    const FieldDescriptor* f = d->field(static_cast<int>(rng.Below(fields)));
    const std::string& name = f->name();
    if (name == "note") return;
    if (f->is_repeated()) {
      if (msg == tc && name == "lanes") {
        MutateLanes(rng, c);
        return;
      }
      const int size = r->FieldSize(*msg, f);
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        // Another repeated message: only its elements' fields are mutated.
        if (size == 0 || rng.OneIn(6)) return;
        msg = r->MutableRepeatedMessage(msg, f, static_cast<int>(rng.Below(size)));
        continue;
      }
      // Repeated scalars (raw_words): flip one bit of one word.
      if (size == 0) return;
      const int i = static_cast<int>(rng.Below(size));
      r->SetRepeatedUInt32(msg, f, i, r->GetRepeatedUInt32(*msg, f, i) ^ (1u << rng.Below(32)));
      return;
    }
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_MESSAGE:
        msg = r->MutableMessage(msg, f);
        continue;
      case FieldDescriptor::CPPTYPE_UINT32:
        r->SetUInt32(msg, f, MutateWord(rng, r->GetUInt32(*msg, f), LaneGen(*tc),
                                        DomainFieldNamed(name)));
        return;
      case FieldDescriptor::CPPTYPE_BOOL:
        r->SetBool(msg, f, !r->GetBool(*msg, f));
        return;
      case FieldDescriptor::CPPTYPE_ENUM: {
        const auto* e = f->enum_type();
        if (e == proto::Instruction_descriptor() && !config_.instrs.empty()) {
          // --instrs: UNSPECIFIED or one of the allowed instructions, in enum order (Fixup
          // repairs UNSPECIFIED), so that instructions outside the set take no draws.
          std::vector<int> values = {proto::INSTRUCTION_UNSPECIFIED};
          for (Instr i : kAllInstrs) {
            if (InstrAllowed(i)) values.push_back(InstrToProto(i));
          }
          r->SetEnumValue(msg, f, values[rng.Below(values.size())]);
          return;
        }
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
  FlatCase c = Flatten(std::move(*tc));
  MutateFlat(rng, &c);
  *tc = ToProto(c);
}

void Mutator::MutateFlat(Rng& rng, FlatCase* c) const {
  const int n = 1 + static_cast<int>(rng.Below(4));
  for (int i = 0; i < n; ++i) {
    if (c->size() > 4 && rng.OneIn(3)) {
      // Re-draw a random slice of lanes (big batches would otherwise barely move).
      const size_t size = c->size();
      const size_t start = rng.Below(size);
      const size_t len = 1 + rng.Below(size - start);
      const LaneGen gen(c->header);
      LaneBatch& l = c->lanes;
      const LaneShape& sh = l.shape();
      for (size_t j = start; j < start + len; ++j) {
        l.src0()[j * sh.src_dwords[0]] = gen.Value(rng, DomainField::kSrc0);
        l.src1()[j * sh.src_dwords[1]] = gen.Value(rng, DomainField::kSrc1);
        if (rng.OneIn(4)) l.src2()[j * sh.src_dwords[2]] = gen.Value(rng, DomainField::kSrc2);
        if (rng.OneIn(4)) l.vdst_old()[j] = gen.Value(rng, DomainField::kVdstOld);
      }
      if (!sh.narrow_sources()) gen.FillTupleDwords(rng, &l, start);
    } else {
      MutateField(rng, c);
    }
  }
  FixupFlat(rng, c);
}

proto::TestCase Mutator::CrossOver(Rng& rng, const proto::TestCase& a,
                                   const proto::TestCase& b) const {
  return ToProto(CrossOverFlat(rng, Flatten(a), Flatten(b)));
}

FlatCase Mutator::CrossOverFlat(Rng& rng, const FlatCase& a, const FlatCase& b) const {
  FlatCase child;
  child.header = rng.OneIn(2) ? a.header : b.header;
  const proto::TestCase& other = rng.OneIn(2) ? a.header : b.header;
  if (rng.OneIn(2)) *child.header.mutable_encoding() = other.encoding();
  if (rng.OneIn(2)) {
    if (other.has_mode()) child.header.set_mode(other.mode());
    else child.header.clear_mode();
  }
  // Lanes: a prefix of one parent, then a suffix of the other.
  const size_t cut_a = a.size() == 0 ? 0 : rng.Below(a.size() + 1);
  const size_t cut_b = b.size() == 0 ? 0 : rng.Below(b.size() + 1);
  // The child's lanes: at most the row's lane cap of them (FixupLaneCount would keep that many
  // from the front), taken first, so that a wide child is never laid out whole.
  const LaneShape shape = RowShapeOf(child.header);
  const size_t cap = WideLaneCap(shape, config_.max_lanes);
  const size_t take_a = std::min(cut_a, cap);
  const size_t take_b = std::min(b.size() - cut_b, cap - take_a);
  // Parents of another row shape: the lanes taken, laid out as the child's row reads them.
  LaneBatch ra, rb;
  const LaneBatch* pa = &a.lanes;
  const LaneBatch* pb = &b.lanes;
  size_t from_b_lane = cut_b;
  if (!a.lanes.shape().same_sources(shape)) {
    ra = a.lanes;
    ra.Resize(take_a);
    ReshapeLanes(shape, &ra);
    pa = &ra;
  }
  if (!b.lanes.shape().same_sources(shape)) {
    const LaneView whole_b = b.lanes.view();
    rb.SetShape(whole_b.shape);
    for (size_t i = cut_b; i < cut_b + take_b; ++i) rb.AddLaneOf(whole_b, i);
    ReshapeLanes(shape, &rb);
    pb = &rb;
    from_b_lane = 0;
  }
  const LaneView va = pa->view(), vb = pb->view();
  child.lanes.SetShape(shape);
  child.lanes.Resize(take_a + take_b);
  const uint32_t* from_a[4] = {va.src0, va.src1, va.src2, va.vdst_old};
  const uint32_t* from_b[4] = {vb.src0, vb.src1, vb.src2, vb.vdst_old};
  std::vector<uint32_t>* to[4] = {&child.lanes.src0(), &child.lanes.src1(), &child.lanes.src2(),
                                  &child.lanes.vdst_old()};
  for (int w = 0; w < 4; ++w) {
    const size_t n = w < 3 ? shape.src_dwords[w] : 1;
    std::copy(from_a[w], from_a[w] + take_a * n, to[w]->begin());
    std::copy(from_b[w] + from_b_lane * n, from_b[w] + (from_b_lane + take_b) * n,
              to[w]->begin() + take_a * n);
  }
  FixupFlat(rng, &child);
  return child;
}

bool Mutator::Fixup(Rng& rng, proto::TestCase* tc) const {
  FlatCase c = Flatten(std::move(*tc));
  const bool changed = FixupFlat(rng, &c);
  *tc = ToProto(c);
  return changed;
}

namespace {

// raw_words only as 2 or 3 words, and not mixed with any other Encoding field.
bool FixupRawWords(proto::Encoding* enc) {
  if (enc->raw_words_size() == 0) return false;
  if (enc->raw_words_size() < 2 || enc->raw_words_size() > 3) {
    enc->clear_raw_words();
    return true;
  }
  proto::Encoding only_words;
  *only_words.mutable_raw_words() = enc->raw_words();
  if (enc->ByteSizeLong() == only_words.ByteSizeLong()) return false;
  *enc = only_words;
  return true;
}

// The modifier fields at their widths: OPSEL 4 bits, NEG/ABS 3, OMOD 2.
bool FixupFieldWidths(proto::Encoding* enc) {
  bool changed = false;
  auto fit = [&changed](uint32_t value, uint32_t mask, auto set) {
    if ((value & mask) != value) {
      set(value & mask);
      changed = true;
    }
  };
  fit(enc->opsel(), 15u, [enc](uint32_t v) { enc->set_opsel(v); });
  fit(enc->neg(), 7u, [enc](uint32_t v) { enc->set_neg(v); });
  fit(enc->abs(), 7u, [enc](uint32_t v) { enc->set_abs(v); });
  fit(enc->omod(), 3u, [enc](uint32_t v) { enc->set_omod(v); });
  return changed;
}

// What the sources fixed so far use of the constant bus, and the one literal dword.
struct ConstantBus {
  int used = 0;
  int limit = 0;
  bool have_literal = false;
  uint32_t literal = 0;
};

// A VGPR source: 0 (the convention's register for this slot), else a register number, one the
// harness kernels load (device_harness/register_convention.h); no value.
bool FixupVgprSource(proto::Source* s) {
  if ((s->code() == 0 || HarnessRegisters().Vgpr(static_cast<int>(s->code()))) &&
      s->value() == 0) {
    return false;
  }
  s->clear_code();
  s->clear_value();
  return true;
}

// An inline constant: a valid inline code of the family, no value.
bool FixupInlineSource(Family family, proto::Source* s) {
  bool changed = false;
  if (!IsInlineCode(family, s->code())) {
    s->set_code(128 + s->code() % 81);
    changed = true;
  }
  if (s->value() != 0) {
    s->clear_value();
    changed = true;
  }
  return changed;
}

// A literal: only where the family has one and the bus has room (else a VGPR), no code, a
// 16-bit source's value in 16 bits, and one literal dword per instruction (a second literal
// source shares the first one's value).
bool FixupLiteralSource(Family family, int src_bits, ConstantBus* bus, proto::Source* s) {
  if (!LiteralAllowed(family) || (!bus->have_literal && bus->used >= bus->limit)) {
    s->set_kind(proto::SOURCE_VGPR);
    s->clear_value();
    s->clear_code();
    return true;
  }
  bool changed = false;
  if (s->code() != 0) {
    s->clear_code();
    changed = true;
  }
  // A 16-bit source operand (InstrInfo::src_bits) takes a 16-bit literal, as LLVM's
  // assembler does: its low half (a wider dword only comes from raw words).
  if (src_bits == 16 && s->value() > 0xffffu) {
    s->set_value(s->value() & 0xffffu);
    changed = true;
  }
  if (bus->have_literal) {  // one literal dword per instruction: share its value
    if (s->value() != bus->literal) {
      s->set_value(bus->literal);
      changed = true;
    }
  } else {
    bus->have_literal = true;
    bus->literal = s->value();
    ++bus->used;
  }
  return changed;
}

// An SGPR: only where the bus has room (else a VGPR); no register named (the harness chooses
// distinct SGPRs).
bool FixupSgprSource(ConstantBus* bus, proto::Source* s) {
  if (bus->used >= bus->limit) {
    s->set_kind(proto::SOURCE_VGPR);
    s->clear_value();
    return true;
  }
  ++bus->used;
  if (s->code() == 0) return false;
  s->clear_code();
  return true;
}

// A default (VGPR, no register named) SRC2 the instruction does not read (the SR
// instructions', a VOP1 instruction's e64 form's) is made absent, which encodes 0 as LLVM
// does; a non-zero field there is only produced on purpose (an SGPR, an inline constant or
// a named VGPR). An unread source (SRC1 of a VOP1 instruction too) is never the literal: no
// literal dword is fetched for it, and Vop3FromTestCase refuses the case ("literal ... is
// set but no source is code 255").
bool ClearUnreadSources(Instr instr, proto::Encoding* enc) {
  bool changed = false;
  for (int k = Info(instr).sources(); k < 3; ++k) {
    if (!(k == 1 ? enc->has_src1() : enc->has_src2())) continue;
    const proto::Source& s = k == 1 ? enc->src1() : enc->src2();
    if (s.kind() == proto::SOURCE_LITERAL ||
        (k == 2 && s.kind() == proto::SOURCE_VGPR && s.code() == 0)) {
      if (k == 1) enc->clear_src1();
      else enc->clear_src2();
      changed = true;
    }
  }
  return changed;
}

}  // namespace

const TargetTraits* Mutator::FixupTarget(Rng& rng, proto::TestCase* tc, bool* changed) const {
  const TargetTraits* t = TargetNamed(tc->target());
  if (t == nullptr || std::find(targets_.begin(), targets_.end(), t) == targets_.end()) {
    t = targets_.empty() ? &AllTargets()[0] : targets_[rng.Below(targets_.size())];
    tc->set_target(std::string(t->name));
    *changed = true;
  }
  return t;
}

bool Mutator::FixupInstr(Rng& rng, const TargetTraits& t, proto::TestCase* tc) const {
  const std::vector<Instr> instrs = AllowedInstrs(t);
  const bool instr_ok = proto::Instruction_IsValid(tc->instr()) &&
                        tc->instr() != proto::INSTRUCTION_UNSPECIFIED &&
                        std::find(instrs.begin(), instrs.end(), FromProto(tc->instr())) !=
                            instrs.end();
  if (instr_ok || instrs.empty()) return false;
  tc->set_instr(InstrToProto(rng.Pick(instrs)));
  return true;
}

bool Mutator::FixupSources(const TargetTraits& t, Instr instr, proto::Encoding* enc) const {
  bool changed = false;
  // The SR instructions' SRC2 field carries no data; a literal code there would make the
  // instruction's length ambiguous, so the unused field is never the literal.
  ConstantBus bus;
  // With allow_undefined every source may read the constant bus (3 > every family's limit).
  bus.limit = config_.allow_undefined ? 3 : ConstantBusLimit(t.family);
  for (int k = 0; k < 3; ++k) {
    // Absent sources stay absent (reading them through mutable_* would create them).
    if (!(k == 0 ? enc->has_src0() : k == 1 ? enc->has_src1() : enc->has_src2())) continue;
    proto::Source* s =
        k == 0 ? enc->mutable_src0() : k == 1 ? enc->mutable_src1() : enc->mutable_src2();
    if (!proto::SourceKind_IsValid(s->kind())) {
      s->set_kind(proto::SOURCE_VGPR);
      changed = true;
    }
    if (Info(instr).src_dwords(k) > 1) {
      // A tuple source: the harness's tuple (code 0 names it), nothing else resolves
      // (model/isa/resolve.h ResolveSource).
      if (s->kind() != proto::SOURCE_VGPR || s->code() != 0 || s->value() != 0) {
        s->set_kind(proto::SOURCE_VGPR);
        s->clear_code();
        s->clear_value();
        changed = true;
      }
      continue;
    }
    switch (s->kind()) {
      case proto::SOURCE_VGPR:
        changed |= FixupVgprSource(s);
        break;
      case proto::SOURCE_INLINE:
        changed |= FixupInlineSource(t.family, s);
        break;
      case proto::SOURCE_LITERAL:
        changed |= FixupLiteralSource(t.family, Info(instr).src_bits(t.family, k), &bus, s);
        break;
      case proto::SOURCE_SGPR:
        changed |= FixupSgprSource(&bus, s);
        break;
      default:
        break;
    }
  }
  return ClearUnreadSources(instr, enc) || changed;
}

bool Mutator::FixupLaneCount(Rng& rng, FlatCase* c) const {
  const size_t n = c->size();
  const size_t max_lanes = WideLaneCap(c->lanes.shape(), config_.max_lanes);
  const size_t min_lanes = std::min(config_.min_lanes, max_lanes);
  if (n > max_lanes) {
    c->lanes.Resize(max_lanes);
    // A copy holds exactly the kept lanes: a narrow case re-laid out as a wide row (ReshapeLanes)
    // grew its vectors to every lane's tuple first, and the pool would keep that capacity.
    LaneBatch kept = c->lanes;
    c->lanes = std::move(kept);
    return true;
  }
  if (n >= min_lanes) return false;
  const LaneGen gen(c->header);
  for (std::vector<uint32_t>* w : {&c->lanes.src0(), &c->lanes.src1(), &c->lanes.src2(),
                                   &c->lanes.vdst_old()}) {
    w->reserve(min_lanes);  // exact: a doubled capacity would stay in the pool
  }
  for (size_t i = n; i < min_lanes; ++i) {
    const uint32_t s0 = gen.Value(rng, DomainField::kSrc0);
    const uint32_t s1 = gen.Value(rng, DomainField::kSrc1);
    c->lanes.Add(s0, s1, 0, 0);
  }
  if (!c->lanes.shape().narrow_sources()) gen.FillTupleDwords(rng, &c->lanes, n);
  return true;
}

bool Mutator::FixupFlat(Rng& rng, FlatCase* c) const {
  proto::TestCase* tc = &c->header;
  bool changed = false;
  const TargetTraits* t = FixupTarget(rng, tc, &changed);
  changed |= FixupInstr(rng, *t, tc);  // present on the target and allowed
  const Instr instr = FromProto(tc->instr());
  // The lanes laid out as the row reads them (another row's tuple shape: its dwords redrawn),
  // the row's lane cap first (FixupLaneCount) so that a wide row's lanes are never laid out
  // past it.
  const LaneShape shape = GetInstrInfo(instr).lane_shape();
  if (const size_t cap = WideLaneCap(shape, config_.max_lanes);
      !c->lanes.shape().same_sources(shape) && c->size() > cap) {
    c->lanes.Resize(cap);
  }
  if (ReshapeLanes(shape, &c->lanes)) {
    changed = true;
    if (!shape.narrow_sources()) LaneGen(*tc).FillTupleDwords(rng, &c->lanes, 0);
  }
  proto::Encoding* enc = tc->mutable_encoding();
  changed |= FixupRawWords(enc);
  if (enc->raw_words_size() == 0) {
    changed |= FixupForm(*t, instr, enc);
    changed |= FixupFieldWidths(enc);
    changed |= FixupSources(*t, instr, enc);
  }
  changed |= FixupLaneCount(rng, c);
  if (tc->has_mode() && tc->mode() == kDefaultMode) {
    tc->clear_mode();  // absent means the default: one spelling per case
    changed = true;
  }
  return changed;
}

}  // namespace lanediff
