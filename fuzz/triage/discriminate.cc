#include "fuzz/triage/discriminate.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "fuzz/engine/lane_gen.h"
#include "fuzz/engine/mutator.h"
#include "model/base/status.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// One encoding (CLAMP, MODE) with many candidate lanes.
struct Group {
  proto::TestCase tc;
  proto::TestCase header;  // tc without its lanes: what a question chosen here starts from
};

std::string SettingName(const HypothesisInfo& h, size_t v) {
  return v == 0 ? "default" : absl::StrCat(h.name, "=", h.values[v].name);
}

// Index into Discrimination::readings of rule `h` at value `v` (others at their defaults).
size_t ReadingIndex(const Discrimination& d, const HypothesisInfo& h, size_t v) {
  if (v == 0) return 0;
  const std::string name = SettingName(h, v);
  for (size_t i = 0; i < d.reading_names.size(); ++i) {
    if (d.reading_names[i] == name) return i;
  }
  return 0;
}

// Lane i's answer in a batch's words (`w` words per lane, consecutive).
LaneAnswer LaneOf(const std::vector<uint32_t>& out, size_t i, size_t w) {
  return MakeLaneAnswer(absl::MakeConstSpan(out.data() + i * w, w));
}

}  // namespace

LaneAnswer MakeLaneAnswer(absl::Span<const uint32_t> words) {
  LaneAnswer a;
  a.words = static_cast<uint8_t>(std::min<size_t>(words.size(), kMaxDstWords));
  for (size_t k = 0; k < a.words; ++k) a.word[k] = words[k];
  return a;
}

std::string FormatLaneAnswer(const LaneAnswer& a) {
  std::vector<std::string> w;
  for (size_t k = 0; k < a.words; ++k) w.push_back(absl::StrFormat("0x%08x", a.word[k]));
  return absl::StrJoin(w, " ");
}

std::vector<Hypotheses> AllCombinations(const Discrimination& d) {
  std::vector<Hypotheses> out = {Hypotheses{}};
  for (const std::string& name : d.relevant) {
    const HypothesisInfo* h = FindHypothesis(name);
    std::vector<Hypotheses> next;
    for (const Hypotheses& s : out) {
      for (size_t v = 0; v < h->values.size(); ++v) {
        Hypotheses t = s;
        h->set(&t, static_cast<uint8_t>(v));
        next.push_back(t);
      }
    }
    out = std::move(next);
  }
  return out;
}

namespace {

// src0 candidates for one 8-bit format: its boundary table, plus the f32 word just below each
// subnormal-range boundary (all of its dropped bits set: where readings of subnormal SR part).
void AddFp8Candidates(Fp8FormatId id, std::vector<uint32_t>* src0) {
  const Fp8Format& f = GetFp8Format(id);
  // The smallest normal's f32 pattern: exponent 1 - bias, re-biased to f32.
  const uint32_t min_normal = static_cast<uint32_t>(128 - f.bias) << 23;
  for (uint32_t v : Fp8BoundaryValues(id)) {
    src0->push_back(v);
    const uint32_t mag = v & 0x7fffffffu;
    if (mag > 0 && mag <= min_normal) src0->push_back(v - 1);
  }
}

// The CLAMP values to ask, and the formats the written byte can take: one per CLAMP value
// where CLAMP changes it (gfx1250 fp8: UE5M3), read from the model (Fp8OutputShape), never
// from instruction names.
struct ClampShapes {
  std::vector<bool> clamps = {false};
  std::vector<Fp8Shape> shapes;
};

ClampShapes ClampsToAsk(const TargetTraits& target, Instr instr) {
  ClampShapes cs;
  OpContext ctx;
  ctx.target = &target;
  ctx.instr = instr;
  if (std::optional<Fp8Shape> plain = Fp8OutputShape(ctx)) {
    cs.shapes.push_back(*plain);
    ctx.mods.clamp = true;
    const std::optional<Fp8Shape> clamped = Fp8OutputShape(ctx);
    if (clamped && clamped->format != plain->format) {
      cs.shapes.push_back(*clamped);
      cs.clamps.push_back(true);
    } else if (target.clamp_selects_ue5m3) {
      // Where CLAMP is a format bit for one conversion (gfx1250), the others' CLAMP bit is a
      // reading of its own (pk_fp8_clamp: ignored or saturating), asked with the same format.
      cs.clamps.push_back(true);
    }
  }
  const InstrInfo& info = GetInstrInfo(instr);
  const bool float_word = info.output == OutputKind::f32 || info.output == OutputKind::f16 ||
                          info.output == OutputKind::bf16;
  if (float_word && (info.clamp_families & FamilyBit(target.family)) != 0) {
    // An f32 (or f16/bf16) result where LLVM takes CLAMP: the output clamp (or, gfx1250, the
    // format bit) is asked too.
    cs.clamps.push_back(true);
  }
  return cs;
}

// S0 candidate values, simplest first.
std::vector<uint32_t> Src0Candidates(const InstrInfo& info, const std::vector<Fp8Shape>& shapes) {
  if (IsPacked16(info.src[0])) {
    // Two packed 16-bit floats: each table value in both halves, then alone in the low half
    // (the high one +0), so each element's rule and the element order both show.
    std::vector<uint32_t> pk;
    const std::vector<uint32_t>& t = Pk16ValueTable(IsPackedF16(info.src[0]));
    for (uint32_t v : t) pk.push_back(v * 0x10001u);
    for (uint32_t v : t) pk.push_back(v);
    // Values whose fraction runs below an SR seed's grid where the result is subnormal (the
    // readings of mx_sr_round part there): f16 1.999 * 2^-9, 1.999 * 2^-8 (E4M3) and the largest
    // denormal (E5M2 over 2^1); bf16 1.99 * 2^-8 (E4M3) and 1.49 * 2^-15 (E5M2). And f16 59392
    // (0x7b40), above E5M2's largest finite 57344 and below the midpoint 61440 to 2^16, so RNE
    // gives 57344: pk_overflow's readings part there on the f16 -> bf8 encoder (E4M3's 464,
    // 0x5f40, is in the table).
    const bool f16 = IsPackedF16(info.src[0]);
    for (uint32_t v : f16 ? std::vector<uint32_t>{0x1bffu, 0x1fffu, 0x03ffu, 0x7b40u}
                          : std::vector<uint32_t>{0x3bffu, 0x383fu}) {
      pk.push_back(v * 0x10001u);
    }
    return pk;
  }
  std::vector<uint32_t> src0 = SpecialF32Values();
  // Codes to decode, not an f32: 8-bit floats (the bytes of one dword, or of a VGPR pair as
  // CompleteTupleLanes repeats the dword) or FP4 codes (the eight nibbles of gfx1250's fp4_x8).
  const bool fp8_codes = info.src[0] == SrcRole::fp8_bytes || info.src[0] == SrcRole::fp8_x8;
  const bool fp4_codes = info.src[0] == SrcRole::fp4_x8;
  if (shapes.empty() && info.src[0] != SrcRole::fp8_bytes) {
    for (uint32_t v : U8BoundaryValues()) src0.push_back(v);
  }
  // Every FP4 code in every nibble (its Inf-free extremes and zeros beside a zero scale byte:
  // mx_scale_zero).
  if (fp4_codes) {
    for (uint32_t c = 0; c < 16; ++c) src0.push_back(c * 0x11111111u);
  }
  // Every 8-bit code in every byte (whichever the select reads; the Inf and NaN codes beside a
  // zero scale byte: mx_scale_zero).
  if (fp8_codes) {
    for (uint32_t b = 0; b < 256; ++b) src0.push_back(b * 0x01010101u);
  }
  if (info.src[0] == SrcRole::fp8_bytes) {
    // And words whose bytes differ, for the selects (which byte or word is read): each of a
    // few bytes (subnormal, normal, the largest, NaN in some format) alone in bytes 1..3, then
    // four different normal bytes.
    for (uint32_t b : {0x01u, 0x38u, 0x48u, 0x7fu, 0x80u, 0xffu}) {
      for (int shift : {8, 16, 24}) src0.push_back(b << shift);
    }
    src0.push_back(0x48403830u);
  }
  for (const Fp8Shape& shape : shapes) AddFp8Candidates(shape.format->id, &src0);
  if (info.src[0] == SrcRole::data_f32 &&
      (info.output == OutputKind::f16 || info.output == OutputKind::bf16)) {
    // f32 -> f16/bf16: the denormal results (2^-24, 2^-25, 2^-127 and 2^-133 as f32
    // denormals), the f16 overflow tie 65520 and the value below 65536 a seed carries past
    // 65504, the bf16 overflow tie, the smallest f16 normal and an f16 tie at 1.0.
    for (uint32_t v : {0x33800000u, 0x33000000u, 0x00400000u, 0x00010000u, 0x477ff000u,
                       0x477fffffu, 0x7f7f8000u, 0x38800000u, 0x3f801000u, 0x3f800001u}) {
      src0.push_back(v);
    }
  }
  return src0;
}

// Block scales: 2^0 as 1.0 and as 1.5 and -3.0 (what of the f32 is read), 2^-126, 2^127, 2^1
// and 2^-1 (which way an encoder applies it), the exponent fields 0 (the 0 the candidate lists
// start with) and 0xFF as +Inf and NaN; then 2^-22, which puts E4M3 and E5M2 elements on f16's
// denormal grid (1.875 * 2^-22 = 7.5 * 2^-24: the 16-bit rounding readings part there), and
// 2^-25, which puts FP4 elements (one fraction bit) between two f16 denormals (1.5 * 2^-25 =
// 0.75 * 2^-24: nearest 1, toward zero 0); FP4 times 2^-22 lands on the grid exactly.
std::vector<uint32_t> ScaleCandidates() {
  return {0x3f800000u, 0x3fc00000u, 0xc0400000u, 0x00800000u, 0x7f000000u,
          0x7f800000u, 0x7fc00000u, 0x40000000u, 0x3f000000u, 0x34800000u,
          0x33000000u};
}

// S1 by its role in the row: seeds for a stochastic-rounding seed, block scales for a scale,
// else 0 (byte 0, or the f32 +0 a second data source converts exactly).
std::vector<uint32_t> Src1Candidates(const InstrInfo& info, const std::vector<Fp8Shape>& shapes) {
  std::vector<uint32_t> src1 = {0};
  if (!shapes.empty() && info.src[1] == SrcRole::sr_seed) {
    src1 = SeedValues(static_cast<int>(shapes[0].seed_shift));
    // The seed readings part on S1's low bits: all of them set, and the bit just below the
    // top-bits seed (the extra bit a subnormal result's wider seed takes).
    const uint32_t low = (1u << (32 - shapes[0].seed_shift)) - 1u;
    src1.push_back(low);
    src1.push_back(1u << (shapes[0].seed_shift - 1));
  }
  if (shapes.empty() && info.src[1] == SrcRole::sr_seed) {
    // A seed for a 16-bit result (13 bits for f16, 16 for bf16): all ones, the top bit, the
    // lowest top-bits seed bit of each (S1[19], S1[16]), the low bits alone, and all ones but
    // that lowest bit.
    for (uint32_t v : {0xffffffffu, 0x80000000u, 0x00080000u, 0x00010000u, 0x0000ffffu,
                       0xfff7ffffu, 0xfffeffffu}) {
      src1.push_back(v);
    }
  }
  if (info.src[1] == SrcRole::scale_f32) {
    for (uint32_t v : ScaleCandidates()) src1.push_back(v);
  }
  if (info.src[1] == SrcRole::scale_e8m0_x4) {
    // An E8M0 scale register (gfx1250's v_cvt_scale_pk8_*): four different bytes (2^1, 2^-2,
    // 2^-1, 2^0: which byte scale_sel picks, or the f32 exponent field 0xfe, mx_scale_sel), the
    // same byte everywhere: 2^1 and 2^-1 (which way it scales, mx_up_scale), the NaN byte, 2^127
    // (overflow), 2^-126 (f32 denormals), 2^-22 and 2^-25 (the 16-bit denormal grid, as
    // ScaleCandidates says).
    for (uint32_t v : {0x7f7e7d80u, 0x80808080u, 0x7e7e7e7eu, 0xffffffffu, 0xfefefefeu,
                       0x01010101u, 0x69696969u, 0x66666666u}) {
      src1.push_back(v);
    }
  }
  if (info.src[1] == SrcRole::data_f32 && info.src[2] == SrcRole::sr_seed) {
    // A second element rounded with its own seed word (the two-element SR rows, S2 the seed):
    // 1 + 2^-23 and 1 + (2^13 - 1) 2^-23, whose dropped bits a seed of all ones, or of one,
    // carries (the seed pairing readings part there).
    src1.push_back(0x3f800001u);
    src1.push_back(0x3f801fffu);
  }
  return src1;
}

// S2 by its role: block scales for a scale (the 3-source scaled encoders); for a 16-bit SR
// seed (the two-element SR rows) S1's seed table for 16-bit results and the two words that
// part the seed pairing readings (0xfff80000 and 0xffff0000: the f16 and the bf16 seed all
// ones in S2's top bits, not in its PRNG step's; 0x0000fff8: all ones in the low half only);
// else 0.
std::vector<uint32_t> Src2Candidates(const InstrInfo& info) {
  std::vector<uint32_t> src2 = {0};
  if (info.src[2] == SrcRole::scale_f32) {
    for (uint32_t v : ScaleCandidates()) src2.push_back(v);
  }
  if (info.src[2] == SrcRole::sr_seed) {
    for (uint32_t v : {0xffffffffu, 0x80000000u, 0x00080000u, 0x00010000u, 0x0000ffffu,
                       0xfff7ffffu, 0xfffeffffu, 0xfff80000u, 0xffff0000u, 0x0000fff8u}) {
      src2.push_back(v);
    }
  }
  return src2;
}

// Encodings beyond CLAMP x MODE, from the row, asked at the default MODE: each GFX9 SDWA
// src0_sel where the instruction has that form (model/isa/vop3.h HasForm), the constants of a
// 16-bit SRC0, each OMOD where LLVM takes it (InstrInfo::omod_families).
std::vector<proto::Encoding> ExtraEncodings(const TargetTraits& target, Instr instr) {
  const InstrInfo& info = GetInstrInfo(instr);
  std::vector<proto::Encoding> out;
  if (HasForm(target, instr, InstrForm::sdwa)) {
    for (uint32_t sel = 0; sel <= 6; ++sel) {
      proto::Encoding& e = out.emplace_back();
      e.set_form(proto::FORM_SDWA);
      e.set_src0_sel(sel);
    }
    if (SdwaHasDstSel(instr)) {  // each DST_SEL under SEXT fill, and a sign-extended byte
      for (uint32_t sel = 0; sel <= 5; ++sel) {
        proto::Encoding& e = out.emplace_back();
        e.set_form(proto::FORM_SDWA);
        e.set_dst_sel(sel);
        e.set_dst_unused(1);
      }
      proto::Encoding& e = out.emplace_back();
      e.set_form(proto::FORM_SDWA);
      e.set_src0_sel(3);
      e.set_src0_sext(true);
    }
  }
  // A 16-bit SRC0 (InstrInfo::src_bits) whose high word the row can select (op_sel_word_src):
  // inline constants read through op_sel:[1,0], which src16_constant's readings answer
  // differently (docs/semantics.md §10.11: 1.0 is 0x3c00 in both halves, or in the low one
  // only). Operand codes 242 (1.0), 193 (-1: 0xffff) and 240 (0.5).
  const OpSelSyntax syntax16 = info.opsel_syntax[static_cast<int>(target.family)];
  if (info.src_bits(target.family, 0) == 16 && (syntax16 == OpSelSyntax::op_sel_word_src ||
                                                syntax16 == OpSelSyntax::op_sel_byte_sel)) {
    for (uint32_t code : {242u, 193u, 240u}) {
      proto::Encoding& e = out.emplace_back();
      e.set_opsel(1);
      e.mutable_src0()->set_kind(proto::SOURCE_INLINE);
      e.mutable_src0()->set_code(code);
    }
  }
  if ((info.omod_families & FamilyBit(target.family)) != 0) {
    for (uint32_t omod = 1; omod < 4; ++omod) out.emplace_back().set_omod(omod);
  }
  // Two packed 16-bit floats in S0: NEG[0] and ABS[0], whose reach mx_pk16_neg's readings
  // answer differently (both halves, the low one, the high one).
  if (IsPacked16(info.src[0])) {
    out.emplace_back().set_neg(1);
    out.emplace_back().set_abs(1);
  }
  // One 16-bit float of such a source with a seed (the SR encoders): OPSEL[0], which
  // mx_sr16_opsel0's readings answer differently (ignored, or the high half).
  if (IsPacked16(info.src[0]) && info.src[1] == SrcRole::sr_seed) out.emplace_back().set_opsel(1);
  // Two such floats converted together into one half of VDST (gfx1250's v_cvt_pk_{fp8,bf8}_f16):
  // OPSEL[0], which pk_f16_opsel0's readings answer differently (ignored, both elements from the
  // high half, the halves swapped) on a candidate whose halves differ.
  if (IsPacked16(info.src[0]) && info.src[1] == SrcRole::unused &&
      info.write == DstWrite::half_at_opsel_3) {
    out.emplace_back().set_opsel(1);
  }
  // scale_sel:6 and :13 (gfx1250's decodes with an E8M0 scale register): bytes 2 and 1, 1 and
  // 3 under mx_scale_sel's low2 and high2.
  if (syntax16 == OpSelSyntax::scale_sel) {
    out.emplace_back().set_opsel(6);
    out.emplace_back().set_opsel(13);
  }
  return out;
}

// The question groups: every CLAMP value asked x a few MODE values, then the extra encodings
// (after the others, so that their questions come first), each over every (src0, src1) pair.
std::vector<Group> QuestionGroups(const TargetTraits& target, Instr instr,
                                  const std::vector<bool>& clamps,
                                  const std::vector<uint32_t>& src0,
                                  const std::vector<uint32_t>& src1,
                                  const std::vector<uint32_t>& src2) {
  const std::vector<uint32_t> modes = {0x000000f0, 0x008000f0, 0x000000f1, 0x000000f2,
                                       0x000000f3, 0x00000000, 0x00000001};
  std::vector<Group> groups;
  // A scaled half writer, or an unscaled one-f16 writer (gfx1250's f16 decodes), into the half
  // OPSEL[3] selects keeps the other half from the old VDST, or not (a reading): an old VDST
  // with both halves nonzero shows which.
  const InstrInfo& info = GetInstrInfo(instr);
  const uint32_t old = info.write == DstWrite::half_at_opsel_3 &&
                               (info.src[1] == SrcRole::scale_f32 || info.output == OutputKind::f16)
                           ? 0xdeadbeefu
                           : 0u;
  // One question group: the encoding `e` at MODE `mode`, over every (src0, src1, src2).
  auto add_group = [&](const proto::Encoding& e, uint32_t mode) {
    Group& g = groups.emplace_back();
    g.tc.set_target(std::string(target.name));
    g.tc.set_instr(InstrToProto(instr));
    if (e.ByteSizeLong() != 0) *g.tc.mutable_encoding() = e;  // no empty encoding field
    if (mode != kDefaultMode) g.tc.set_mode(mode);
    g.header = g.tc;
    for (uint32_t s2 : src2) {
      for (uint32_t s1 : src1) {
        for (uint32_t s0 : src0) {
          proto::Lane* l = g.tc.add_lanes();
          l->set_src0(s0);
          l->set_src1(s1);
          l->set_src2(s2);
          if (old != 0) l->set_vdst_old(old);
        }
      }
    }
    CompleteTupleLanes(&g.tc);  // a tuple source: every dword a copy of the candidate
    // One f32 tuple beside a one-dword scale (gfx1250's 16-element FP6/BF6 encoders): element 1
    // +0, so that where each element lands (mx_pk16_fp6_order) shows whenever the candidate's
    // code is not 0 (linear: field 1 is 0; interleaved: field 1 is element 8's, the candidate).
    if (info.src[0] == SrcRole::f32_x16 && SrcDwords(info.src[1]) == 1) {
      for (proto::Lane& l : *g.tc.mutable_lanes()) l.set_src0_more(0, 0);
    }
  };
  // A MODE differing from an earlier one only in bits the row does not read gives the same
  // words under every reading (ModeBitsRead, checked by model/ops/mode_bits_test.cc): asked once.
  const uint32_t read = ModeBitsRead(instr, target.family);
  std::vector<uint32_t> asked;
  for (uint32_t mode : modes) {
    if (std::none_of(asked.begin(), asked.end(), [&](uint32_t m) { return (m & read) == (mode & read); })) {
      asked.push_back(mode);
    }
  }
  for (bool clamp : clamps) {
    proto::Encoding e;
    if (clamp) e.set_clamp(true);
    for (uint32_t mode : asked) add_group(e, mode);
  }
  for (const proto::Encoding& e : ExtraEncodings(target, instr)) add_group(e, kDefaultMode);
  return groups;
}

// The model's words for every group under `hyp`: [group][lane * w + word].
using GroupWords = std::vector<std::vector<uint32_t>>;

absl::StatusOr<GroupWords> EvaluateGroups(Instr instr, const std::vector<ResolvedCase>& resolved,
                                          const Hypotheses& hyp) {
  GroupWords r(resolved.size());
  for (size_t gi = 0; gi < resolved.size(); ++gi) {
    r[gi].resize(OutputWords(instr, resolved[gi].lanes.size()));
    OpContext c = resolved[gi].ctx;
    c.hyp = hyp;
    LANEDIFF_RETURN_IF_ERROR(Evaluate(c, resolved[gi].lanes.view(), absl::MakeSpan(r[gi])));
  }
  return r;
}

// Readings: the defaults, then each non-default value of each rule. A rule is relevant when
// one of its readings changes some candidate's answer. Fills d's relevant rules, readings and
// pairs, and `out` with each reading's words (out[s] for d->readings[s]).
absl::Status FindRelevantRules(Instr instr, const std::vector<ResolvedCase>& resolved,
                               Discrimination* d, std::vector<GroupWords>* out) {
  d->readings.push_back(Hypotheses{});
  d->reading_names.push_back("default");
  LANEDIFF_ASSIGN_OR_RETURN(GroupWords base, EvaluateGroups(instr, resolved, Hypotheses{}));
  out->push_back(std::move(base));
  for (const HypothesisInfo& h : AllHypotheses()) {
    bool matters = false;
    std::vector<std::pair<Hypotheses, GroupWords>> alts;
    for (size_t v = 1; v < h.values.size(); ++v) {
      Hypotheses hyp;
      h.set(&hyp, static_cast<uint8_t>(v));
      LANEDIFF_ASSIGN_OR_RETURN(GroupWords r, EvaluateGroups(instr, resolved, hyp));
      matters = matters || r != (*out)[0];
      alts.emplace_back(hyp, std::move(r));
    }
    if (!matters) continue;
    d->relevant.emplace_back(h.name);
    for (size_t v = 1; v < h.values.size(); ++v) {
      d->readings.push_back(alts[v - 1].first);
      d->reading_names.push_back(SettingName(h, v));
      out->push_back(std::move(alts[v - 1].second));
    }
    for (size_t a = 0; a < h.values.size(); ++a) {
      for (size_t b = a + 1; b < h.values.size(); ++b) {
        d->pairs.push_back({std::string(h.name), std::string(h.values[a].name),
                            std::string(h.values[b].name), -1});
      }
    }
  }
  return absl::OkStatus();
}

// Each of d's pairs as two reading indices.
std::vector<std::pair<size_t, size_t>> PairReadings(const Discrimination& d) {
  std::vector<std::pair<size_t, size_t>> pair_idx;
  for (const ReadingPair& p : d.pairs) {
    const HypothesisInfo* h = FindHypothesis(p.rule);
    size_t va = 0, vb = 0;
    for (size_t v = 0; v < h->values.size(); ++v) {
      if (h->values[v].name == p.a) va = v;
      if (h->values[v].name == p.b) vb = v;
    }
    pair_idx.emplace_back(ReadingIndex(d, *h, va), ReadingIndex(d, *h, vb));
  }
  return pair_idx;
}

// A candidate question: one lane of one group, with its answers.
struct Cand {
  int group;
  int lane;
  std::vector<LaneAnswer> answers;  // per reading
  std::vector<LaneAnswer> combo;    // per combination of the relevant rules' values
};

// Candidates deduplicated by their answer pattern over the readings (answers renumbered by
// first appearance); the first, simplest, few candidates of each pattern are kept. A lane no
// reading changes is no candidate.
std::vector<Cand> DistinctCandidates(const std::vector<ResolvedCase>& resolved,
                                     const std::vector<GroupWords>& out, size_t w) {
  constexpr int kPerPattern = 8;
  const size_t nr = out.size();
  std::vector<Cand> cands;
  std::map<std::vector<uint32_t>, int> seen_pattern;
  for (size_t gi = 0; gi < resolved.size(); ++gi) {
    for (size_t i = 0; i < resolved[gi].lanes.size(); ++i) {
      bool differs = false;
      for (size_t s = 1; s < nr && !differs; ++s) {
        for (size_t k = 0; k < w; ++k) differs |= out[s][gi][i * w + k] != out[0][gi][i * w + k];
      }
      if (!differs) continue;
      std::vector<LaneAnswer> ans(nr);
      for (size_t s = 0; s < nr; ++s) ans[s] = LaneOf(out[s][gi], i, w);
      std::vector<uint32_t> pattern(nr);
      std::map<LaneAnswer, uint32_t> ids;
      for (size_t s = 0; s < nr; ++s) {
        pattern[s] = ids.emplace(ans[s], static_cast<uint32_t>(ids.size())).first->second;
      }
      if (++seen_pattern[pattern] > kPerPattern) continue;
      cands.push_back({static_cast<int>(gi), static_cast<int>(i), std::move(ans), {}});
    }
  }
  return cands;
}

// Every candidate's answer under every combination (Cand::combo), one batch per group.
absl::Status EvaluateCombinations(Instr instr, const std::vector<ResolvedCase>& resolved,
                                  const std::vector<Hypotheses>& combos, size_t w,
                                  std::vector<Cand>* cands) {
  for (size_t gi = 0; gi < resolved.size(); ++gi) {
    LaneBatch batch;  // this group's kept candidates
    std::vector<Cand*> members;
    const LaneView v = resolved[gi].lanes.view();
    batch.SetShape(v.shape);
    for (Cand& c : *cands) {
      if (c.group != static_cast<int>(gi)) continue;
      batch.AddLaneOf(v, c.lane);
      members.push_back(&c);
      c.combo.resize(combos.size());
    }
    if (members.empty()) continue;
    std::vector<uint32_t> words(OutputWords(instr, members.size()));
    for (size_t k = 0; k < combos.size(); ++k) {
      OpContext cc = resolved[gi].ctx;
      cc.hyp = combos[k];
      LANEDIFF_RETURN_IF_ERROR(Evaluate(cc, batch.view(), absl::MakeSpan(words)));
      for (size_t m = 0; m < members.size(); ++m) members[m]->combo[k] = LaneOf(words, m, w);
    }
  }
  return absl::OkStatus();
}

// The pairs of combinations (indices into `combos`) a robust verdict must tell apart: every
// two that differ in one rule only, and each reading against every other combination.
std::vector<std::pair<size_t, size_t>> CombinationPairs(const Discrimination& d,
                                                        const std::vector<Hypotheses>& combos) {
  std::vector<size_t> reading_combo(d.readings.size());
  for (size_t s = 0; s < d.readings.size(); ++s) {
    reading_combo[s] = static_cast<size_t>(
        std::find(combos.begin(), combos.end(), d.readings[s]) - combos.begin());
  }
  std::set<std::pair<size_t, size_t>> universe_set;
  for (size_t i = 0; i < combos.size(); ++i) {
    for (size_t j = i + 1; j < combos.size(); ++j) {
      int differing = 0;
      for (const std::string& name : d.relevant) {
        const HypothesisInfo* h = FindHypothesis(name);
        differing += h->get(combos[i]) != h->get(combos[j]);
      }
      if (differing == 1) universe_set.emplace(i, j);
    }
  }
  for (size_t s = 0; s < d.readings.size(); ++s) {
    for (size_t j = 0; j < combos.size(); ++j) {
      if (j != reading_combo[s]) {
        universe_set.emplace(std::min(reading_combo[s], j), std::max(reading_combo[s], j));
      }
    }
  }
  return std::vector<std::pair<size_t, size_t>>(universe_set.begin(), universe_set.end());
}

// Greedy set cover: first the reading pairs (what the user asked about), then the rest of
// the combination pairs. Ties go to the simplest candidate (the first).
class QuestionCover {
 public:
  QuestionCover(const TargetTraits& target, const std::vector<Group>& groups,
                const std::vector<ResolvedCase>& resolved, const std::vector<Cand>& cands,
                const std::vector<std::pair<size_t, size_t>>& universe, Discrimination* d)
      : target_(target), groups_(groups), resolved_(resolved), cands_(cands), d_(*d),
        pair_idx_(PairReadings(*d)), bitset_words_((universe.size() + 63) / 64),
        separates_(cands.size(), std::vector<uint64_t>(bitset_words_, 0)),
        covered_(bitset_words_, 0) {
    // Per candidate, the universe pairs it separates, as a bitset.
    for (size_t c = 0; c < cands.size(); ++c) {
      for (size_t u = 0; u < universe.size(); ++u) {
        if (cands[c].combo[universe[u].first] != cands[c].combo[universe[u].second]) {
          separates_[c][u / 64] |= uint64_t{1} << (u % 64);
        }
      }
    }
  }

  void Run() {
    while (Choose(Best([&](size_t c) { return NewReadingPairs(c); }))) {
    }
    while (Choose(Best([&](size_t c) { return NewCombinationPairs(c); }))) {
    }
  }

 private:
  // The reading pairs candidate c separates that no question does yet.
  int NewReadingPairs(size_t c) const {
    int gain = 0;
    for (size_t p = 0; p < d_.pairs.size(); ++p) {
      if (d_.pairs[p].question < 0 && Separates(c, p)) ++gain;
    }
    return gain;
  }
  // The combination pairs candidate c separates that no question does yet.
  int NewCombinationPairs(size_t c) const {
    int gain = 0;
    for (size_t b = 0; b < bitset_words_; ++b) gain += std::popcount(separates_[c][b] & ~covered_[b]);
    return gain;
  }
  bool Separates(size_t c, size_t p) const {
    return cands_[c].answers[pair_idx_[p].first] != cands_[c].answers[pair_idx_[p].second];
  }
  // The first candidate of the largest positive gain, or -1.
  template <typename Gain>
  int Best(Gain gain) const {
    int best = -1, best_gain = 0;
    for (size_t c = 0; c < cands_.size(); ++c) {
      const int g = gain(c);
      if (g > best_gain) {
        best_gain = g;
        best = static_cast<int>(c);
      }
    }
    return best;
  }
  // Candidate `best` becomes the next question; false for -1.
  bool Choose(int best) {
    if (best < 0) return false;
    const size_t c = static_cast<size_t>(best);
    Question q;
    for (size_t p = 0; p < d_.pairs.size(); ++p) {
      if (!Separates(c, p)) continue;
      if (d_.pairs[p].question < 0) {
        d_.pairs[p].question = static_cast<int>(d_.questions.size());
        ++d_.pairs_separated;
      }
      if (std::find(q.rules.begin(), q.rules.end(), d_.pairs[p].rule) == q.rules.end()) {
        q.rules.push_back(d_.pairs[p].rule);
      }
    }
    q.new_combination_pairs = NewCombinationPairs(c);
    for (size_t b = 0; b < bitset_words_; ++b) covered_[b] |= separates_[c][b];
    const Cand& cand = cands_[c];
    q.testcase = groups_[cand.group].header;
    *q.testcase.add_lanes() = groups_[cand.group].tc.lanes(cand.lane);
    q.answers = cand.answers;
    q.assembly = PrintVop3(target_, resolved_[cand.group].vop3);
    d_.questions.push_back(std::move(q));
    origins_.emplace_back(cand.group, cand.lane);
    return true;
  }

 public:
  // Per question, the group and lane it was chosen from.
  const std::vector<std::pair<int, int>>& origins() const { return origins_; }

 private:

  const TargetTraits& target_;
  const std::vector<Group>& groups_;
  const std::vector<ResolvedCase>& resolved_;
  const std::vector<Cand>& cands_;
  Discrimination& d_;
  const std::vector<std::pair<size_t, size_t>> pair_idx_;
  const size_t bitset_words_;
  std::vector<std::vector<uint64_t>> separates_;  // [candidate][universe pair / 64]
  std::vector<uint64_t> covered_;                 // by the questions so far
  std::vector<std::pair<int, int>> origins_;      // per question: group, lane
};

// Each question's sibling lanes (discriminate.h): the lanes of its group on which two readings
// of one of its rules differ, the first of each (answer pattern, src0 sign and exponent, src1
// top nibble), up to kLanesPerQuestion lanes with the chosen one.
void AddSiblingLanes(const std::vector<Group>& groups, const std::vector<GroupWords>& out,
                     const std::vector<std::pair<int, int>>& origins, size_t w,
                     Discrimination* d) {
  const std::vector<std::pair<size_t, size_t>> pair_idx = PairReadings(*d);
  for (size_t qi = 0; qi < d->questions.size(); ++qi) {
    Question& q = d->questions[qi];
    const auto [g, lead] = origins[qi];
    std::vector<std::pair<size_t, size_t>> pairs;  // the readings its rules' pairs compare
    for (size_t p = 0; p < d->pairs.size(); ++p) {
      if (std::find(q.rules.begin(), q.rules.end(), d->pairs[p].rule) != q.rules.end()) {
        pairs.push_back(pair_idx[p]);
      }
    }
    const proto::TestCase& tc = groups[g].tc;
    std::set<std::vector<uint32_t>> seen;
    auto key = [&](int i) {
      std::vector<uint32_t> k;
      std::map<LaneAnswer, uint32_t> ids;
      for (size_t s = 0; s < out.size(); ++s) {
        k.push_back(ids.emplace(LaneOf(out[s][g], i, w), ids.size()).first->second);
      }
      k.push_back(tc.lanes(i).src0() >> 23);
      k.push_back(tc.lanes(i).src1() >> 28);
      return k;
    };
    seen.insert(key(lead));
    for (int i = 0; i < tc.lanes_size() && q.testcase.lanes_size() < kLanesPerQuestion; ++i) {
      if (i == lead) continue;
      bool separates = false;
      for (const auto& [a, b] : pairs) {
        separates = separates || LaneOf(out[a][g], i, w) != LaneOf(out[b][g], i, w);
      }
      if (separates && seen.insert(key(i)).second) *q.testcase.add_lanes() = tc.lanes(i);
    }
  }
}

}  // namespace

namespace {

// Discriminate's first step, and all RelevantReadings does: the question groups of the row,
// resolved once, and which rules change some candidate's answer (d's relevant rules, readings
// and pairs; out[s]: reading s's words, filled when asked for).
struct Relevance {
  Discrimination d;
  std::vector<Group> groups;
  std::vector<ResolvedCase> resolved;
  std::vector<GroupWords> out;  // [reading][group][lane * w + word]
};

// Whether lanes a and b hold the same words but S0's (one run of QuestionGroups' innermost loop).
bool SameButSrc0(const proto::Lane& a, const proto::Lane& b) {
  auto same = [](const auto& x, const auto& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  };
  return a.src1() == b.src1() && a.src2() == b.src2() && a.vdst_old() == b.vdst_old() &&
         same(a.src1_more(), b.src1_more()) && same(a.src2_more(), b.src2_more());
}

// The relevance probe of a group whose S0 is a tuple of `dwords` dwords: each run of lanes
// differing in S0 only (the candidates, each copied into every dword, or a dword fixed by
// QuestionGroups) packed `dwords` lanes to one, dword k of a packed lane taken from the run's
// k-th lane of its chunk (a short last chunk: from its lane k mod its size). Every dword value of
// every lane stays at its own place of the tuple, in 1/dwords of the lanes.
proto::TestCase PackedTupleProbe(const proto::TestCase& tc, int dwords) {
  proto::TestCase probe = tc;
  probe.clear_lanes();
  const int n = tc.lanes_size();
  for (int run = 0; run < n;) {
    int end = run + 1;
    while (end < n && SameButSrc0(tc.lanes(run), tc.lanes(end))) ++end;
    for (int chunk = run; chunk < end; chunk += dwords) {
      const int size = std::min(dwords, end - chunk);
      proto::Lane* l = probe.add_lanes();
      *l = tc.lanes(chunk);
      for (int k = 1; k < dwords; ++k) {
        l->set_src0_more(k - 1, tc.lanes(chunk + k % size).src0_more(k - 1));
      }
    }
    run = end;
  }
  return probe;
}

// Readings: the defaults, then each non-default value of each rule (FindRelevantRules). A row
// whose S0 is a tuple is probed on its packed lanes (PackedTupleProbe): the readings of every
// rule on 1/dwords of the lanes; then, when `words`, only the relevant readings on the groups'
// own lanes (what the questions are chosen from).
absl::Status FindRelevantReadings(Instr instr, bool words, Relevance* r) {
  const int dwords = GetInstrInfo(instr).src_dwords(0);
  if (dwords <= 1) return FindRelevantRules(instr, r->resolved, &r->d, &r->out);
  std::vector<ResolvedCase> probe;
  for (const Group& g : r->groups) {
    LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(PackedTupleProbe(g.tc, dwords)));
    probe.push_back(std::move(rc));
  }
  std::vector<GroupWords> probe_out;
  LANEDIFF_RETURN_IF_ERROR(FindRelevantRules(instr, probe, &r->d, &probe_out));
  if (!words) return absl::OkStatus();
  for (const Hypotheses& hyp : r->d.readings) {
    LANEDIFF_ASSIGN_OR_RETURN(GroupWords o, EvaluateGroups(instr, r->resolved, hyp));
    r->out.push_back(std::move(o));
  }
  return absl::OkStatus();
}

// `words`: fill r.out too (Discriminate), not only the relevant rules (RelevantReadings).
absl::StatusOr<Relevance> FindRelevance(const TargetTraits& target, Instr instr, bool words) {
  if (!target.Has(instr)) {
    return absl::InvalidArgumentError(
        absl::StrCat(target.name, " has no ", InstrName(instr)));
  }
  Relevance r;
  r.d.target = std::string(target.name);
  r.d.instr = instr;
  const InstrInfo& info = GetInstrInfo(instr);
  const ClampShapes cs = ClampsToAsk(target, instr);
  r.groups = QuestionGroups(
      target, instr, cs.clamps, Src0Candidates(info, cs.shapes), Src1Candidates(info, cs.shapes),
      Src2Candidates(info));
  for (const Group& g : r.groups) {
    LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(g.tc));
    r.resolved.push_back(std::move(rc));
  }
  LANEDIFF_RETURN_IF_ERROR(FindRelevantReadings(instr, words, &r));
  return r;
}

}  // namespace

absl::StatusOr<Discrimination> RelevantReadings(const TargetTraits& target, Instr instr) {
  LANEDIFF_ASSIGN_OR_RETURN(Relevance r, FindRelevance(target, instr, /*words=*/false));
  return std::move(r.d);
}

absl::StatusOr<Discrimination> Discriminate(const TargetTraits& target, Instr instr) {
  LANEDIFF_ASSIGN_OR_RETURN(Relevance r, FindRelevance(target, instr, /*words=*/true));
  Discrimination& d = r.d;
  const std::vector<Group>& groups = r.groups;
  const std::vector<ResolvedCase>& resolved = r.resolved;
  const std::vector<GroupWords>& out = r.out;
  // Words per lane: the row's dst_bits / 32 (a VGPR pair: 2). Every answer below is a lane's
  // words, so a reading that changes either word of a pair is told apart.
  const size_t w = static_cast<size_t>(DstWords(instr));
  if (d.pairs.empty()) {
    LANEDIFF_RETURN_IF_ERROR(BuildSpecChecks(&d));
    return std::move(d);
  }
  std::vector<Cand> cands = DistinctCandidates(resolved, out, w);
  // A device may follow non-default values of several rules at once. The questions must tell
  // apart, besides the pairs above: every two combinations of the relevant rules' values that
  // differ in one rule only (the same pair of readings in every context of the others), and
  // each reading from every other combination, so that a device following one reading is
  // named unambiguously. The kept candidates are evaluated under every combination.
  const std::vector<Hypotheses> combos = AllCombinations(d);
  LANEDIFF_RETURN_IF_ERROR(EvaluateCombinations(instr, resolved, combos, w, &cands));
  QuestionCover cover(target, groups, resolved, cands, CombinationPairs(d, combos), &d);
  cover.Run();
  AddSiblingLanes(groups, out, cover.origins(), w, &d);
  for (const ReadingPair& p : d.pairs) {
    if (p.question < 0) d.inseparable.push_back(absl::StrCat(p.rule, ": ", p.a, " == ", p.b));
  }
  LANEDIFF_RETURN_IF_ERROR(BuildSpecChecks(&d));
  return std::move(d);
}

namespace {

// The model's words for every lane of a resolved case under each of `hyps`: [hyp][lane].
absl::StatusOr<std::vector<std::vector<LaneAnswer>>> ModelLanesUnder(
    const proto::TestCase& tc, const std::vector<Hypotheses>& hyps) {
  LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(tc));
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  std::vector<uint32_t> words(OutputWords(rc.ctx.instr, rc.lanes.size()));
  std::vector<std::vector<LaneAnswer>> out;
  for (const Hypotheses& hyp : hyps) {
    rc.ctx.hyp = hyp;
    LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, rc.lanes.view(), absl::MakeSpan(words)));
    std::vector<LaneAnswer>& lanes = out.emplace_back();
    lanes.reserve(rc.lanes.size());
    for (size_t i = 0; i < rc.lanes.size(); ++i) lanes.push_back(LaneOf(words, i, w));
  }
  return out;
}

// The first lane of `tc` alone (what a legality check needs).
proto::TestCase OneLaneCase(const proto::TestCase& tc) {
  proto::TestCase one = tc;
  one.clear_lanes();
  if (tc.lanes_size() > 0) *one.add_lanes() = tc.lanes(0);
  return one;
}

}  // namespace

namespace {

// One field setting of the instruction word the spec states clearly, with the other settings
// of the same field (SpecCheck::alternatives).
struct FieldSetting {
  std::string name;
  proto::Encoding encoding;
  std::vector<std::pair<std::string, proto::Encoding>> alternatives;
};

std::string OpselName(uint32_t v) {
  return absl::StrFormat("OPSEL=0b%d%d%d%d", (v >> 3) & 1, (v >> 2) & 1, (v >> 1) & 1, v & 1);
}

// The SDWA destination fields of a row whose SDWA form has them (vop3.h SdwaHasDstSel): each
// DST_SEL (PAD fill), each DST_UNUSED (at BYTE_1) and SRC0_SEXT (at src0_sel BYTE_3).
void AddSdwaDstSettings(std::vector<FieldSetting>* out) {
  auto sdwa = [](uint32_t sel, uint32_t unused) {
    proto::Encoding e;
    e.set_form(proto::FORM_SDWA);
    e.set_dst_sel(sel);
    e.set_dst_unused(unused);
    return e;
  };
  for (uint32_t sel = 0; sel <= 6; ++sel) {
    FieldSetting& f = out->emplace_back();
    f.name = absl::StrCat("SDWA dst_sel=", sel);
    f.encoding = sdwa(sel, 0);
    for (uint32_t u = 0; u <= 6; ++u) {
      if (u != sel) f.alternatives.emplace_back(absl::StrCat("SDWA dst_sel=", u), sdwa(u, 0));
    }
  }
  for (uint32_t unused = 0; unused <= 2; ++unused) {
    FieldSetting& f = out->emplace_back();
    f.name = absl::StrCat("SDWA dst_unused=", unused);
    f.encoding = sdwa(1, unused);
    for (uint32_t u = 0; u <= 2; ++u) {
      if (u != unused) f.alternatives.emplace_back(absl::StrCat("SDWA dst_unused=", u), sdwa(1, u));
    }
  }
  FieldSetting& sext = out->emplace_back();
  sext.name = "SDWA src0_sext";
  sext.encoding.set_form(proto::FORM_SDWA);
  sext.encoding.set_src0_sel(3);
  sext.encoding.set_src0_sext(true);
  proto::Encoding plain = sext.encoding;
  plain.clear_src0_sext();
  sext.alternatives = {{"SDWA src0_sext=0", plain}};
}

// NEG[i] and ABS[i] for each source, each OPSEL value, CLAMP, and each SDWA src0_sel (and the
// destination fields, AddSdwaDstSettings) where the row has the SDWA form. Whether a setting is legal on the row, and whether it changes the
// answer, is for BuildSpecChecks to find out.
std::vector<FieldSetting> FieldSettings(const TargetTraits& target, Instr instr) {
  std::vector<FieldSetting> out;
  const proto::Encoding plain;
  for (uint32_t i = 0; i < 3; ++i) {
    FieldSetting& neg = out.emplace_back();
    neg.name = absl::StrCat("NEG[", i, "]");
    neg.encoding.set_neg(1u << i);
    neg.alternatives = {{absl::StrCat(neg.name, "=0"), plain}};
    FieldSetting& abs = out.emplace_back();
    abs.name = absl::StrCat("ABS[", i, "]");
    abs.encoding.set_abs(1u << i);
    abs.alternatives = {{absl::StrCat(abs.name, "=0"), plain}};
  }
  for (uint32_t v = 0; v < 16; ++v) {  // 0 too: a device that selects on OPSEL=0 as if set
    FieldSetting& f = out.emplace_back();
    f.name = OpselName(v);
    if (v != 0) f.encoding.set_opsel(v);
    for (uint32_t u = 0; u < 16; ++u) {
      if (u == v) continue;
      proto::Encoding e;
      if (u != 0) e.set_opsel(u);
      f.alternatives.emplace_back(OpselName(u), e);
    }
  }
  FieldSetting& clamp = out.emplace_back();
  clamp.name = "CLAMP";
  clamp.encoding.set_clamp(true);
  clamp.alternatives = {{"CLAMP=0", plain}};
  if (HasForm(target, instr, InstrForm::sdwa)) {
    auto sdwa = [](uint32_t sel) {
      proto::Encoding e;
      e.set_form(proto::FORM_SDWA);
      e.set_src0_sel(sel);
      return e;
    };
    for (uint32_t sel = 0; sel <= 6; ++sel) {
      FieldSetting& f = out.emplace_back();
      f.name = absl::StrCat("SDWA src0_sel=", sel);
      f.encoding = sdwa(sel);
      for (uint32_t u = 0; u <= 6; ++u) {
        if (u != sel) f.alternatives.emplace_back(absl::StrCat("SDWA src0_sel=", u), sdwa(u));
      }
    }
    if (SdwaHasDstSel(instr)) AddSdwaDstSettings(&out);
  }
  return out;
}

// The lanes of `all` (its encoding the field setting's; `own`: the defaults' words there;
// `header`: all's fields without its lanes) where
// some other setting of the field gives other words (`alternatives`: the defaults' words under
// each) and every reading gives the defaults' words: up to kLanesPerQuestion in lane order, one
// per (answer, src0 sign and exponent, src1 top nibble). The other readings are evaluated only
// on lanes where the field matters and whose key is new, kChunk lanes at a time, until enough
// are found: a scaled row has tens of thousands of candidate lanes, a check needs a few.
absl::StatusOr<std::vector<int>> CheckLanes(const proto::TestCase& header,
                                            const proto::TestCase& all,
                                            const std::vector<Hypotheses>& readings,
                                            const std::vector<LaneAnswer>& own,
                                            const std::vector<const std::vector<LaneAnswer>*>& alternatives) {
  constexpr size_t kChunk = 1024;
  const std::vector<Hypotheses> others(readings.begin() + 1, readings.end());
  std::vector<int> lanes;
  std::set<std::tuple<LaneAnswer, uint32_t, uint32_t>> seen;
  auto key = [&](int i) {
    return std::make_tuple(own[i], all.lanes(i).src0() >> 23, all.lanes(i).src1() >> 28);
  };
  proto::TestCase chunk;  // all's fields, a chunk of its lanes
  int next = 0;
  while (next < all.lanes_size() && lanes.size() < kLanesPerQuestion) {
    chunk = header;
    std::vector<int> at;
    for (; next < all.lanes_size() && at.size() < kChunk; ++next) {
      bool matters = false;
      for (const std::vector<LaneAnswer>* alt : alternatives) {
        matters = matters || (*alt)[next] != own[next];
      }
      if (!matters || seen.contains(key(next))) continue;
      at.push_back(next);
      *chunk.add_lanes() = all.lanes(next);
    }
    if (at.empty()) break;
    std::vector<std::vector<LaneAnswer>> m;
    if (!others.empty()) {
      LANEDIFF_ASSIGN_OR_RETURN(m, ModelLanesUnder(chunk, others));
    }
    for (size_t k = 0; k < at.size() && lanes.size() < kLanesPerQuestion; ++k) {
      bool agree = true;
      for (const std::vector<LaneAnswer>& r : m) agree = agree && r[k] == own[at[k]];
      if (agree && seen.insert(key(at[k])).second) lanes.push_back(at[k]);
    }
  }
  return lanes;
}

}  // namespace

absl::Status BuildSpecChecks(Discrimination* d) {
  const TargetTraits* target = *FindTarget(d->target);
  const InstrInfo& info = GetInstrInfo(d->instr);
  const ClampShapes cs = ClampsToAsk(*target, d->instr);
  // The row at the default MODE, no field set and no lane; `all` adds every candidate lane. Each
  // field setting below sets all's encoding in place: `all` is never copied (it holds every
  // combination of the sources' candidates, thousands of lanes on a scaled row).
  proto::TestCase header;
  header.set_target(d->target);
  header.set_instr(InstrToProto(d->instr));
  proto::TestCase all = header;
  // A second f32 data source takes signed values too, so that its NEG and ABS change something:
  // +-0, +-1.0, -449.0 (above OCP E4M3's largest finite, 448).
  // A seed's value matters to no field: two seeds (the seed table's first, and the bit just
  // below the top-bits seed) keep the check lanes few.
  std::vector<uint32_t> src1 = Src1Candidates(info, cs.shapes);
  if (info.src[1] == SrcRole::data_f32) {
    src1 = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0xc3e08000u};
  } else if (info.src[1] == SrcRole::sr_seed && src1.size() > 2) {
    src1 = {src1.front(), src1.back()};
  }
  for (uint32_t s2 : Src2Candidates(info)) {
    for (uint32_t s1 : src1) {
      for (uint32_t s0 : Src0Candidates(info, cs.shapes)) {
        proto::Lane* l = all.add_lanes();
        l->set_src0(s0);
        l->set_src1(s1);
        l->set_src2(s2);
      }
    }
  }
  CompleteTupleLanes(&all);  // a tuple source: every dword a copy of the candidate
  if (all.lanes_size() == 0) return absl::OkStatus();
  // The defaults' words under one encoding of the lanes (nullptr: the row cannot encode it, or
  // the word is undefined by spec), each encoding evaluated once.
  std::map<std::string, std::optional<std::vector<LaneAnswer>>> by_encoding;
  auto defaults_under = [&](const proto::Encoding& e) -> const std::vector<LaneAnswer>* {
    auto [it, fresh] = by_encoding.try_emplace(e.SerializeAsString());
    if (fresh) {
      proto::TestCase one = header;  // the first lane alone: is the word legal?
      *one.mutable_encoding() = e;
      *one.add_lanes() = all.lanes(0);
      *all.mutable_encoding() = e;
      absl::StatusOr<std::vector<std::vector<LaneAnswer>>> w;
      if (BuildDeviceBatch(one).ok()) w = ModelLanesUnder(all, {Hypotheses{}});
      if (w.ok()) it->second = std::move((*w)[0]);
    }
    return it->second.has_value() ? &*it->second : nullptr;
  };
  for (const FieldSetting& f : FieldSettings(*target, d->instr)) {
    const std::vector<LaneAnswer>* own = defaults_under(f.encoding);
    if (own == nullptr) continue;
    // The other settings of the field the row can encode, and the defaults' words under each.
    std::vector<std::pair<std::string, proto::Encoding>> alternatives;
    std::vector<const std::vector<LaneAnswer>*> alt_words;  // in by_encoding
    bool matters = false;
    for (const auto& alt : f.alternatives) {
      const std::vector<LaneAnswer>* w = defaults_under(alt.second);
      if (w == nullptr) continue;
      alternatives.push_back(alt);
      alt_words.push_back(w);
      matters = matters || *w != *own;
    }
    if (!matters) continue;  // no lane where the field changes the defaults' words
    *header.mutable_encoding() = f.encoding;
    *all.mutable_encoding() = f.encoding;
    const absl::StatusOr<std::vector<int>> lanes =
        CheckLanes(header, all, d->readings, *own, alt_words);
    if (!lanes.ok() || lanes->empty()) continue;
    SpecCheck& c = d->checks.emplace_back();
    c.field = f.name;
    c.testcase = header;
    for (int i : *lanes) *c.testcase.add_lanes() = all.lanes(i);
    LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(OneLaneCase(c.testcase)));
    c.assembly = PrintVop3(*target, rc.vop3);
    c.alternatives = std::move(alternatives);
  }
  return absl::OkStatus();
}

namespace {

// Lane `i` of `tc` as a test case of its own.
proto::TestCase OneLane(const proto::TestCase& tc, int i) {
  proto::TestCase one = tc;
  one.clear_lanes();
  *one.add_lanes() = tc.lanes(i);
  return one;
}

// "Q3" for lane 0 (the printed one), "Q3 lane 5 (src0=0x7f7f7f7f src1=0x00000000)" otherwise.
std::string LaneName(const std::string& q, const proto::TestCase& tc, int i) {
  if (i == 0) return q;
  return absl::StrFormat("%s lane %d (src0=0x%08x src1=0x%08x)", q, i, tc.lanes(i).src0(),
                         tc.lanes(i).src1());
}

// The answers' shapes: one list per question (1..lanes words of DstWords each), one per check.
absl::Status CheckShapes(const Discrimination& d,
                         const std::vector<std::vector<LaneAnswer>>& device_lanes,
                         const std::vector<std::vector<LaneAnswer>>& check_lanes) {
  if (device_lanes.size() != d.questions.size()) {
    return absl::InvalidArgumentError(absl::StrCat(device_lanes.size(), " answers for ",
                                                   d.questions.size(), " questions"));
  }
  if (!check_lanes.empty() && check_lanes.size() != d.checks.size()) {
    return absl::InvalidArgumentError(absl::StrCat(check_lanes.size(), " check answers for ",
                                                   d.checks.size(), " spec checks"));
  }
  const size_t w = static_cast<size_t>(DstWords(d.instr));
  for (size_t qi = 0; qi < device_lanes.size(); ++qi) {
    if (device_lanes[qi].empty() ||
        device_lanes[qi].size() > static_cast<size_t>(d.questions[qi].testcase.lanes_size())) {
      return absl::InvalidArgumentError(absl::StrCat("question ", qi + 1, ": ",
                                                     device_lanes[qi].size(), " lanes answered"));
    }
    for (const LaneAnswer& a : device_lanes[qi]) {
      if (a.words != w) {
        return absl::InvalidArgumentError(absl::StrCat(
            "question ", qi + 1, ": an answer of ", static_cast<int>(a.words), " words; ",
            InstrName(d.instr), " writes ", w, " per lane"));
      }
    }
  }
  return absl::OkStatus();
}

// Judges the rules on the questions' lanes (DeviceVerdict's follows, undetermined, none and
// their findings).
class RuleJudge {
 public:
  RuleJudge(const Discrimination& d, const std::vector<Hypotheses>& combos,
            const std::vector<std::vector<std::vector<LaneAnswer>>>& model,
            const std::vector<std::vector<LaneAnswer>>& device)
      : d_(d), combos_(combos), model_(model), device_(device) {}

  // Does combination c give the device's words on every answered lane of question qi?
  bool Matches(size_t qi, size_t c) const {
    for (size_t i = 0; i < device_[qi].size(); ++i) {
      if (model_[qi][c][i] != device_[qi][i]) return false;
    }
    return true;
  }
  std::vector<bool> Consistent(const std::vector<size_t>& qs) const {
    std::vector<bool> ok(combos_.size(), true);
    for (size_t c = 0; c < combos_.size(); ++c) {
      for (size_t qi : qs) ok[c] = ok[c] && Matches(qi, c);
    }
    return ok;
  }
  std::vector<size_t> QuestionsOf(const std::string& rule) const {
    std::vector<size_t> qs;
    for (size_t qi = 0; qi < d_.questions.size(); ++qi) {
      const std::vector<std::string>& r = d_.questions[qi].rules;
      if (std::find(r.begin(), r.end(), rule) != r.end()) qs.push_back(qi);
    }
    return qs;
  }

  void Judge(const std::string& name, const std::vector<bool>& ok, const std::vector<size_t>& qs,
             DeviceVerdict* v) const {
    const HypothesisInfo* h = FindHypothesis(name);
    RuleFinding f;
    f.rule = name;
    for (size_t vi = 0; vi < h->values.size(); ++vi) {
      for (size_t c = 0; c < combos_.size(); ++c) {
        if (ok[c] && h->get(combos_[c]) == vi) {
          f.values.emplace_back(h->values[vi].name);
          f.is_default = f.is_default || vi == 0;
          break;
        }
      }
    }
    if (f.values.size() == 1) {
      f.kind = RuleFinding::Kind::follows;
      v->follows.push_back(absl::StrCat(name, "=", f.values[0]));
    } else if (!f.values.empty()) {
      f.kind = RuleFinding::Kind::undetermined;
      v->undetermined.push_back(absl::StrCat(name, ": ", absl::StrJoin(f.values, "|")));
    } else {
      f.kind = RuleFinding::Kind::none;
      std::vector<std::string> lanes = UnexplainedLanes(qs, &f);
      if (lanes.empty()) lanes.push_back("no single lane: the combination of answers");
      f.detail = absl::StrJoin(lanes, ", ");
      v->none.push_back(absl::StrCat(name, ": none of the known readings (", f.detail, ")"));
    }
    if (f.kind != RuleFinding::Kind::none) ShowingLane(qs, &f);
    v->findings.push_back(std::move(f));
  }

 private:
  // The lanes of `qs` whose device words no combination gives; the first becomes f's lane.
  std::vector<std::string> UnexplainedLanes(const std::vector<size_t>& qs, RuleFinding* f) const {
    std::vector<std::string> lanes;
    for (size_t qi : qs) {
      for (size_t i = 0; i < device_[qi].size(); ++i) {
        bool given = false;
        for (size_t c = 0; c < combos_.size() && !given; ++c) given = model_[qi][c][i] == device_[qi][i];
        if (given) continue;
        const proto::TestCase& tc = d_.questions[qi].testcase;
        lanes.push_back(absl::StrFormat("%s: device %s",
                                        LaneName(absl::StrCat("Q", qi + 1), tc, static_cast<int>(i)),
                                        FormatLaneAnswer(device_[qi][i])));
        if (f->lane.lanes_size() == 0) SetLane(qi, i, f);
      }
    }
    return lanes;
  }
  // The first lane of the rule's questions where the device departs from the defaults (the
  // rule's first lane when it follows them).
  void ShowingLane(const std::vector<size_t>& qs, RuleFinding* f) const {
    for (size_t qi : qs) {
      for (size_t i = 0; i < device_[qi].size(); ++i) {
        if (model_[qi][0][i] != device_[qi][i]) return SetLane(qi, i, f);
      }
    }
    if (!qs.empty()) SetLane(qs[0], 0, f);
  }
  void SetLane(size_t qi, size_t i, RuleFinding* f) const {
    f->lane = OneLane(d_.questions[qi].testcase, static_cast<int>(i));
    f->device = device_[qi][i];
    f->model = model_[qi][0][i];  // combos_[0]: every rule at its default
  }

  const Discrimination& d_;
  const std::vector<Hypotheses>& combos_;
  const std::vector<std::vector<std::vector<LaneAnswer>>>& model_;  // [question][combo][lane]
  const std::vector<std::vector<LaneAnswer>>& device_;              // [question][lane]
};

// One spec check against the device's words under `hyp` (the readings the device follows):
// "" when they agree, else what differs ("acts as if NEG[0]=0", or the first lane).
absl::StatusOr<std::string> JudgeCheck(const SpecCheck& check, const Hypotheses& hyp,
                                       const std::vector<LaneAnswer>& device, RuleFinding* f) {
  LANEDIFF_ASSIGN_OR_RETURN(auto model, ModelLanesUnder(check.testcase, {hyp, Hypotheses{}}));
  if (model[0] == device) return std::string();
  f->kind = RuleFinding::Kind::spec;
  f->rule = check.field;
  for (size_t i = 0; i < device.size(); ++i) {
    if (model[0][i] == device[i]) continue;
    f->lane = OneLane(check.testcase, static_cast<int>(i));
    f->device = device[i];
    f->model = model[1][i];
    break;
  }
  for (const auto& [name, encoding] : check.alternatives) {
    proto::TestCase alt = check.testcase;
    *alt.mutable_encoding() = encoding;
    absl::StatusOr<std::vector<std::vector<LaneAnswer>>> m = ModelLanesUnder(alt, {hyp});
    if (m.ok() && (*m)[0] == device) return absl::StrCat("acts as if ", name);
  }
  const proto::Lane& l = f->lane.lanes(0);
  return absl::StrFormat("lane src0=0x%08x src1=0x%08x: device %s, spec %s", l.src0(), l.src1(),
                         FormatLaneAnswer(f->device), FormatLaneAnswer(f->model));
}

}  // namespace

absl::StatusOr<std::vector<LaneAnswer>> ModelLanes(const proto::TestCase& tc,
                                                   const Hypotheses& hyp) {
  LANEDIFF_ASSIGN_OR_RETURN(auto lanes, ModelLanesUnder(tc, {hyp}));
  return lanes[0];
}

absl::StatusOr<DeviceVerdict> JudgeAnswers(const Discrimination& d,
                                           const std::vector<LaneAnswer>& device_answers) {
  std::vector<std::vector<LaneAnswer>> lanes;
  for (const LaneAnswer& a : device_answers) lanes.push_back({a});
  return JudgeAnswers(d, lanes);
}

namespace {

// A device that decodes the plain word's OPSEL (no field set) as another value (its plain-word
// check "acts as if OPSEL=X") does so on every word: the questions and the other checks are
// then judged as if each word whose OPSEL is 0 said X. `opsel` is X; nullopt: no rewrite.
proto::TestCase Rewritten(const proto::TestCase& tc, std::optional<uint32_t> opsel) {
  const proto::Encoding& e = tc.encoding();
  if (!opsel || e.opsel() != 0 || e.form() != proto::FORM_E64 || e.raw_words_size() > 0) return tc;
  proto::TestCase out = tc;
  out.mutable_encoding()->set_opsel(*opsel);
  return out;
}

// The rules, judged on every question's lanes (rewritten by `opsel`) under every combination:
// v's explained, follows, undetermined, none and rule findings. Returns the first combination
// that explains every answer (the defaults when none does).
absl::StatusOr<Hypotheses> JudgeRules(const Discrimination& d,
                                      const std::vector<Hypotheses>& combos,
                                      std::optional<uint32_t> opsel, DeviceVerdict* v) {
  std::vector<std::vector<std::vector<LaneAnswer>>> model;  // [question][combo][lane]
  for (const Question& q : d.questions) {
    LANEDIFF_ASSIGN_OR_RETURN(auto m, ModelLanesUnder(Rewritten(q.testcase, opsel), combos));
    model.push_back(std::move(m));
  }
  const RuleJudge judge(d, combos, model, v->device_lanes);
  std::vector<size_t> all_q(d.questions.size());
  for (size_t i = 0; i < all_q.size(); ++i) all_q[i] = i;
  const std::vector<bool> all_ok = judge.Consistent(all_q);
  v->explained = std::find(all_ok.begin(), all_ok.end(), true) != all_ok.end();
  for (const std::string& name : d.relevant) {
    // With every answer explained, judge each rule on all of them; otherwise on the rule's
    // own questions, so that one unexplained rule does not hide what the others follow.
    const std::vector<size_t> qs = judge.QuestionsOf(name);
    judge.Judge(name, v->explained ? all_ok : judge.Consistent(qs), qs, v);
  }
  const auto first_ok = std::find(all_ok.begin(), all_ok.end(), true);
  return first_ok == all_ok.end() ? combos[0] : combos[first_ok - all_ok.begin()];
}

// The spec checks under `hyp` (the check lanes are ones where every reading agrees): v's spec
// and its findings. Every check but the plain word's is rewritten by `opsel`. *plain_opsel: the
// OPSEL the plain word's check acts as if it had, when it fails so.
absl::Status JudgeChecks(const Discrimination& d, const Hypotheses& hyp,
                         std::optional<uint32_t> opsel, DeviceVerdict* v,
                         std::optional<uint32_t>* plain_opsel) {
  for (size_t ci = 0; ci < v->check_lanes.size(); ++ci) {
    if (v->check_lanes[ci].empty()) continue;  // not asked (the device cannot run it)
    SpecCheck check = d.checks[ci];
    const bool plain = check.testcase.encoding().ByteSizeLong() == 0;
    if (!plain) check.testcase = Rewritten(check.testcase, opsel);
    RuleFinding f;
    LANEDIFF_ASSIGN_OR_RETURN(std::string detail,
                              JudgeCheck(check, hyp, v->check_lanes[ci], &f));
    if (detail.empty()) continue;
    if (plain) {
      for (const auto& [name, e] : check.alternatives) {
        if (detail == absl::StrCat("acts as if ", name)) *plain_opsel = e.opsel();
      }
    }
    // The lane as the device ran it (the model words stay the rewritten word's).
    if (f.lane.lanes_size() > 0) *f.lane.mutable_encoding() = d.checks[ci].testcase.encoding();
    f.detail = detail;
    v->spec.push_back(absl::StrCat(d.checks[ci].field, ": ", detail));
    v->findings.push_back(std::move(f));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DeviceVerdict> JudgeAnswers(
    const Discrimination& d, const std::vector<std::vector<LaneAnswer>>& device_lanes,
    const std::vector<std::vector<LaneAnswer>>& check_lanes) {
  LANEDIFF_RETURN_IF_ERROR(CheckShapes(d, device_lanes, check_lanes));
  DeviceVerdict v;
  v.device_lanes = device_lanes;
  v.check_lanes = check_lanes;
  for (const auto& lanes : device_lanes) v.device_answers.push_back(lanes[0]);
  const std::vector<Hypotheses> combos = AllCombinations(d);
  const DeviceVerdict blank = v;
  LANEDIFF_ASSIGN_OR_RETURN(Hypotheses hyp, JudgeRules(d, combos, std::nullopt, &v));
  std::optional<uint32_t> plain_opsel;
  LANEDIFF_RETURN_IF_ERROR(JudgeChecks(d, hyp, std::nullopt, &v, &plain_opsel));
  std::string as_if;
  if (plain_opsel.has_value()) {
    // The device reads the plain word's OPSEL as *plain_opsel: judged again as if every word
    // with OPSEL 0 had it, so that the one decoding fault is not also every rule's.
    v = blank;
    LANEDIFF_ASSIGN_OR_RETURN(hyp, JudgeRules(d, combos, plain_opsel, &v));
    std::optional<uint32_t> unused;
    LANEDIFF_RETURN_IF_ERROR(JudgeChecks(d, hyp, plain_opsel, &v, &unused));
    as_if = absl::StrCat(" (judged as if every word with OPSEL 0 had OPSEL ", *plain_opsel, ")");
  }
  v.summary = absl::StrCat(
      "the device follows", as_if, ": ",
      v.follows.empty() ? "(nothing determined)" : absl::StrJoin(v.follows, " "));
  if (!v.undetermined.empty()) {
    absl::StrAppend(&v.summary, "; undetermined: ", absl::StrJoin(v.undetermined, "; "));
  }
  if (!v.none.empty()) absl::StrAppend(&v.summary, "; ", absl::StrJoin(v.none, "; "));
  if (!v.spec.empty()) {
    absl::StrAppend(&v.summary, "; differs where the spec is clear: ", absl::StrJoin(v.spec, "; "));
  }
  return v;
}

namespace {

// Every lane of `tc` on `runner`: one LaneAnswer per lane. `what` names the case in errors.
absl::StatusOr<std::vector<LaneAnswer>> RunLanes(const proto::TestCase& tc, Instr instr,
                                                 const std::string& what, Runner& runner) {
  const size_t w = static_cast<size_t>(DstWords(instr));  // per lane (a VGPR pair: 2)
  LANEDIFF_ASSIGN_OR_RETURN(DeviceBatch batch, BuildDeviceBatch(tc));
  absl::StatusOr<DeviceResult> r = runner.Run(batch);
  if (!r.ok()) {
    // The device's status with the case named; its payloads kept (an "unsupported" answer
    // stays one: device_harness/fault.h IsUnsupported).
    absl::Status s(r.status().code(), absl::StrCat(what, ": ", r.status().message()));
    r.status().ForEachPayload(
        [&s](absl::string_view url, const absl::Cord& payload) { s.SetPayload(url, payload); });
    return s;
  }
  const size_t n = static_cast<size_t>(tc.lanes_size());
  if (r->vdst.size() != w * n) {
    return absl::InternalError(absl::StrCat(what, ": device returned ", r->vdst.size(),
                                            " words for ", n, " lanes of ", InstrName(instr),
                                            ", which writes ", w, " per lane"));
  }
  std::vector<LaneAnswer> out;
  for (size_t i = 0; i < n; ++i) out.push_back(LaneOf(r->vdst, i, w));
  return out;
}

}  // namespace

absl::StatusOr<DeviceVerdict> AskDevice(const Discrimination& d, Runner& runner) {
  std::vector<std::vector<LaneAnswer>> answers, checks;
  for (size_t qi = 0; qi < d.questions.size(); ++qi) {
    LANEDIFF_ASSIGN_OR_RETURN(std::vector<LaneAnswer> a,
                              RunLanes(d.questions[qi].testcase, d.instr,
                                       absl::StrCat("question ", qi + 1), runner));
    answers.push_back(std::move(a));
  }
  for (const SpecCheck& c : d.checks) {
    absl::StatusOr<std::vector<LaneAnswer>> a =
        RunLanes(c.testcase, d.instr, absl::StrCat("spec check ", c.field), runner);
    if (!a.ok() && !IsUnsupported(a.status())) return a.status();
    checks.push_back(a.ok() ? *std::move(a) : std::vector<LaneAnswer>{});
  }
  return JudgeAnswers(d, answers, checks);
}

std::string FormatDiscrimination(const Discrimination& d, const DeviceVerdict* verdict) {
  std::string out = absl::StrFormat("%s %s: %zu relevant rules (%s), %zu readings, %zu pairs\n",
                                    d.target, InstrName(d.instr), d.relevant.size(),
                                    absl::StrJoin(d.relevant, ", "), d.readings.size(),
                                    d.pairs.size());
  absl::StrAppendFormat(&out, "%zu questions separate %d of %zu pairs of readings of the same rule\n",
                        d.questions.size(), d.pairs_separated, d.pairs.size());
  for (size_t qi = 0; qi < d.questions.size(); ++qi) {
    const Question& q = d.questions[qi];
    const proto::Lane& l = q.testcase.lanes(0);
    absl::StrAppendFormat(&out, "\nQ%zu  %s   src0=0x%08x src1=0x%08x MODE=0x%08x   (asks %s)\n",
                          qi + 1, q.assembly, l.src0(), l.src1(),
                          q.testcase.has_mode() ? q.testcase.mode() : kDefaultMode,
                          absl::StrJoin(q.rules, ", "));
    std::map<LaneAnswer, std::vector<std::string>> by_answer;
    for (size_t s = 0; s < d.readings.size(); ++s) {
      by_answer[q.answers[s]].push_back(d.reading_names[s]);
    }
    for (const auto& [answer, names] : by_answer) {
      absl::StrAppendFormat(&out, "    %s  %s%s\n", FormatLaneAnswer(answer),
                            absl::StrJoin(names, " | "),
                            verdict != nullptr && verdict->device_answers[qi] == answer
                                ? "   <- device"
                                : "");
    }
    if (verdict != nullptr && by_answer.count(verdict->device_answers[qi]) == 0) {
      absl::StrAppendFormat(&out, "    %s  (no single reading)   <- device\n",
                            FormatLaneAnswer(verdict->device_answers[qi]));
    }
  }
  for (const std::string& s : d.inseparable) {
    absl::StrAppendFormat(&out, "\nno candidate input separates %s (the two compute the same here)\n", s);
  }
  if (verdict != nullptr) absl::StrAppendFormat(&out, "\n%s\n", verdict->summary);
  return out;
}

}  // namespace lanediff
