#include "fuzz/triage/attribution.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/fault.h"
#include "fuzz/triage/classify.h"
#include "fuzz/triage/lane_causes.h"
#include "model/base/status.h"
#include "model/fp/mx.h"
#include "model/ops/input_class.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// An f32 word's two neighbours on the output grid (quantum 2^qe at its exponent: the 8-bit
// format's, widening below its smallest normal; 1.0 for u8): {toward zero, away from zero},
// the sign kept. {x, x} when x is on the grid, Inf/NaN or an f32 denormal.
std::pair<uint32_t, uint32_t> GridNeighbours(uint32_t x, const Fp8Format* f) {
  const int exp = static_cast<int>((x >> 23) & 0xffu);
  if (exp == 0 || exp == 0xff) return {x, x};
  const int e = exp - 127;
  const int qe = f != nullptr ? std::max(e, 1 - f->bias) - f->man_bits : 0;
  if (qe <= e - 23) return {x, x};  // the grid is finer than f32's here: x is on it
  const double m = std::ldexp(1.0 + (x & 0x7fffffu) / 8388608.0, e);
  const double q = std::ldexp(1.0, qe);
  const double down = std::floor(m / q) * q;  // exact: q is a power of two
  if (down == m) return {x, x};
  auto bits = [&](double v) {
    const float fv = static_cast<float>(v);  // exact: a multiple of q below 2^25 q
    uint32_t w;
    std::memcpy(&w, &fv, sizeof w);
    return (w & 0x7fffffffu) | (x & 0x80000000u);
  };
  return {bits(down), bits(down + q)};
}

// The batch's one class from its lanes' classes: the one all show, else the most frequent,
// ties in kDifferenceClasses order. Its lanes are those showing it.
Cause PickClass(const std::map<std::string, std::vector<size_t>>& by_class) {
  auto rank = [](const std::string& c) {
    for (size_t k = 0; k < std::size(kDifferenceClasses); ++k) {
      if (c == kDifferenceClasses[k]) return k;
    }
    return std::size(kDifferenceClasses);
  };
  const std::pair<const std::string, std::vector<size_t>>* best = nullptr;
  for (const auto& entry : by_class) {
    if (best == nullptr || entry.second.size() > best->second.size() ||
        (entry.second.size() == best->second.size() && rank(entry.first) < rank(best->first))) {
      best = &entry;
    }
  }
  Cause c{best->first, false, best->second, {}, {}};
  std::sort(c.lanes.begin(), c.lanes.end());
  return c;
}

bool IsStructural(const std::string& c) {
  return c == "byte_moved" || c == "unwritten_bytes_changed" ||
         c == "written_and_unwritten_bytes_changed" || c == "dst_words_swapped" ||
         c == "dst_halves_swapped";
}

// The contexts that differ from rc.ctx only in the value of the instruction's source-byte
// select, one per other value (the row says which field: byte_sel = OPSEL[1:0] where the
// family's opsel syntax is byte_sel_src, OPSEL[1:0] where it is op_sel_dst3 on a byte reader, the word OPSEL[0] where it is op_sel_word_src, else
// the GFX9 SDWA src0_sel, BYTE_0..3 = 0..3, of a source holding 8-bit codes). Empty for an instruction that selects no source byte.
std::vector<OpContext> OtherByteSelects(const OpContext& ctx) {
  const InstrInfo& info = GetInstrInfo(ctx.instr);
  std::vector<OpContext> out;
  const OpSelSyntax syntax = info.opsel_syntax[static_cast<int>(ctx.target->family)];
  // OPSEL[1:0] picks the byte under byte_sel, and under op_sel:[a,b,d] on a byte reader (the
  // gfx950 scaled decodes: byte OPSEL[1:0]).
  if (syntax == OpSelSyntax::byte_sel_src || syntax == OpSelSyntax::op_sel_dst_byte_sel ||
      (syntax == OpSelSyntax::op_sel_dst3 && info.src[0] == SrcRole::fp8_bytes)) {
    for (uint8_t sel = 0; sel < 4; ++sel) {
      if (sel == (ctx.mods.opsel & 3u)) continue;
      OpContext c = ctx;
      c.mods.opsel = static_cast<uint8_t>((ctx.mods.opsel & ~3u) | sel);
      out.push_back(c);
    }
  } else if (syntax == OpSelSyntax::scale_sel) {
    // gfx1250's scaled decodes with an E8M0 scale register: scale_sel (OPSEL[3:0]) picks the
    // scale's byte; every other value.
    for (uint8_t sel = 0; sel < 16; ++sel) {
      if (sel == (ctx.mods.opsel & 0xfu)) continue;
      OpContext c = ctx;
      c.mods.opsel = sel;
      out.push_back(c);
    }
  } else if ((syntax == OpSelSyntax::op_sel_word_src && (info.opsel_bits & 1u) != 0) ||
             syntax == OpSelSyntax::op_sel_byte_sel) {
    // The source word OPSEL[0] of a VGPR-pair writer (GFX12/GFX1250), or the f16 half of
    // gfx1250's SR encoders from f16: the other word (gfx1250's packed f16 encoders read none).
    OpContext c = ctx;
    c.mods.opsel = static_cast<uint8_t>(ctx.mods.opsel ^ 1u);
    out.push_back(c);
  } else if (info.src[0] == SrcRole::fp8_bytes) {
    for (uint8_t sel = 0; sel < 4; ++sel) {
      if (sel == ctx.mods.src0_sel) continue;
      OpContext c = ctx;
      c.mods.src0_sel = sel;
      out.push_back(c);
    }
  }
  return out;
}

// Lane i's destination words in a batch's words (DstWords per lane: a VGPR pair is 2).
absl::Span<const uint32_t> LaneWords(absl::Span<const uint32_t> words, size_t i, size_t w) {
  return words.subspan(i * w, w);
}

// The first of a lane's `w` words that differs (the last when none does: the caller has a
// differing lane).
size_t FirstDifferingWord(absl::Span<const uint32_t> expected, absl::Span<const uint32_t> observed,
                          size_t w) {
  size_t k = 0;
  while (k + 1 < w && expected[k] == observed[k]) ++k;
  return k;
}

// The exchange of a lane's elements the instruction's classes name, each its own inverse
// (LaneClassifier::Exchange applies it): the two codes of each written FP4 byte, the two fields
// of every 12-bit FP6 pair, the two bytes of a written 16-bit half of 8-bit codes
// (elements_swapped); the halves of every 16-bit float word (dst_halves_swapped); a VGPR pair's
// words (dst_words_swapped); a tuple's f32 words in reverse order (elements_reversed). nullptr:
// the instruction has none (a single f32 word, an integer word, a whole dword of codes).
const char* ExchangeClassOf(Instr instr) {
  const InstrInfo& info = GetInstrInfo(instr);
  const size_t w = static_cast<size_t>(DstWords(instr));
  if (info.output == OutputKind::fp6) return "elements_swapped";
  if (WritesF32Word(instr)) return w == 2 ? "dst_words_swapped" : w > 2 ? "elements_reversed" : nullptr;
  if (WritesSixteenBitFloats(instr)) return "dst_halves_swapped";
  if (info.write == DstWrite::dword && (info.writes_float() || info.output == OutputKind::fp4)) {
    return w == 2 ? "dst_words_swapped" : nullptr;
  }
  if (info.output == OutputKind::b32_int || info.output == OutputKind::u8_int) return nullptr;
  return "elements_swapped";
}

// Each lane's difference class under the model's rounding candidates (8-bit outputs) or the
// model's outputs under the other byte selects (whole f32 words).
struct LaneClassifier {
  const ResolvedCase& rc;
  const InstrInfo& info;
  const Fp8Format* format;
  std::vector<RoundingPair> pairs;
  bool f32_word = false;
  std::vector<std::vector<uint32_t>> other_selects;  // per other select value, per word
  bool sixteen = false;  // 16-bit float elements (WritesSixteenBitFloats)

  static absl::StatusOr<LaneClassifier> Make(const ResolvedCase& rc) {
    const bool f32 = WritesF32Word(rc.ctx.instr);
    if (f32 || WritesSixteenBitFloats(rc.ctx.instr)) {
      LaneClassifier lc{rc, GetInstrInfo(rc.ctx.instr), nullptr, {}, f32, {}};
      lc.sixteen = !f32;
      for (const OpContext& c : OtherByteSelects(rc.ctx)) {
        std::vector<uint32_t> out(OutputWords(rc.ctx.instr, rc.lanes.size()));
        LANEDIFF_RETURN_IF_ERROR(Evaluate(c, rc.lanes.view(), absl::MakeSpan(out)));
        lc.other_selects.push_back(std::move(out));
      }
      return lc;
    }
    const std::optional<Fp8Shape> shape = Fp8OutputShape(rc.ctx);
    LANEDIFF_ASSIGN_OR_RETURN(std::vector<RoundingPair> pairs, RoundingCandidates(rc));
    return LaneClassifier{rc, GetInstrInfo(rc.ctx.instr), shape ? shape->format : nullptr,
                          std::move(pairs), false, {}};
  }
  uint32_t Kept(size_t i) const {
    const LaneView v = rc.lanes.view();
    return KeptWord(info, v.src2[i], v.vdst_old[i]);
  }
  // Lane i's class from its expected and observed destination words (one, or a VGPR pair).
  std::string Class(size_t i, absl::Span<const uint32_t> expected,
                    absl::Span<const uint32_t> observed) const {
    return Classes(i, expected, observed).front();
  }
  // Every class lane i shows, the first being its Class. One, but for a VGPR pair whose
  // observed words are both the expected pair exchanged (dst_words_swapped, read first: a
  // relation to the lane's own expected words) and another select's output
  // (source_byte_moved): a source word whose other word holds the same two bytes reversed.
  // One lane cannot tell which happened; its batch, or a confirmation batch, can (Attribute,
  // DecideClass).
  std::vector<std::string> Classes(size_t i, absl::Span<const uint32_t> expected,
                                   absl::Span<const uint32_t> observed) const {
    if (info.output == OutputKind::fp6) return {Fp6TupleClass(expected, observed)};
    if (f32_word) {
      const size_t w = expected.size();
      std::vector<std::string> out;
      if (w == 2 && expected[0] != expected[1] && observed[0] == expected[1] &&
          observed[1] == expected[0]) {
        out.push_back("dst_words_swapped");
      }
      if (w > 2 && std::equal(expected.begin(), expected.end(), observed.rbegin()) &&
          !std::equal(expected.begin(), expected.end(), expected.rbegin())) {
        out.push_back("elements_reversed");  // a tuple's words in reverse order
      }
      for (const std::vector<uint32_t>& other : other_selects) {
        const absl::Span<const uint32_t> o = LaneWords(other, i, w);
        if (o == observed && o != expected) {
          out.push_back("source_byte_moved");
          break;
        }
      }
      if (!out.empty()) return out;
      const size_t k = FirstDifferingWord(expected, observed, w);
      return {DifferenceClassF32(expected[k], observed[k])};
    }
    const uint32_t written = WrittenMask(rc.ctx.instr, rc.ctx.mods.opsel, rc.lanes.view().src1[i]);
    if (sixteen) {
      // A tuple of 16-bit pairs (gfx1250's decodes to f16/bf16: 4 or 8 words): every word's
      // halves exchanged, and some word changed by it, is dst_halves_swapped (the words whose
      // halves are equal show nothing); else the first differing word's class.
      const size_t w = std::min(expected.size(), observed.size());
      bool exchanged = w > 1, changed = false;
      for (size_t k = 0; k < w; ++k) {
        exchanged = exchanged && observed[k] == std::rotl(expected[k], 16);
        changed = changed || observed[k] != expected[k];
      }
      if (exchanged && changed) return {"dst_halves_swapped"};
      const size_t k = FirstDifferingWord(expected, observed, w);
      return {SixteenBitClass(i * w + k, written, expected[k], observed[k])};
    }
    if (info.write == DstWrite::dword && (info.writes_float() || info.output == OutputKind::fp4)) {
      return {WholeCodesClass(expected, observed)};
    }
    if (info.output == OutputKind::fp4) {  // FP4 codes: the structural classes first
      const std::string s = DifferenceClassMask(nullptr, written, Kept(i), expected[0], observed[0]);
      if (IsStructural(s)) return {s};
      return {DifferenceClassFp4(written, expected[0], observed[0], &pairs[i])};
    }
    if (info.output == OutputKind::b32_int) {  // a whole integer word: no value classes
      const std::string s = DifferenceClassMask(nullptr, written, Kept(i), expected[0], observed[0]);
      return {IsStructural(s) ? s : std::string("value_differs")};
    }
    return {DifferenceClassMask(format, written, Kept(i), expected[0], observed[0], &pairs[i])};
  }
  // Whole words of 8-bit float or FP4 codes (gfx1250's 8-wide encoders: a VGPR pair of eight
  // bytes, or one dword of eight nibbles; no kept bits): the pair's words exchanged
  // (dst_words_swapped); every byte of the first differing word changed (value_differs: the
  // word replaced, no element's class to name); else that word's class as a one-word writer's.
  std::string WholeCodesClass(absl::Span<const uint32_t> expected,
                              absl::Span<const uint32_t> observed) const {
    const size_t w = std::min(expected.size(), observed.size());
    if (w == 2 && expected[0] != expected[1] && observed[0] == expected[1] &&
        observed[1] == expected[0]) {
      return "dst_words_swapped";
    }
    const size_t k = FirstDifferingWord(expected, observed, w);
    bool every_byte = true;
    for (int b = 0; b < 32; b += 8) every_byte &= ((expected[k] ^ observed[k]) >> b & 0xffu) != 0;
    if (every_byte) return "value_differs";
    if (info.output == OutputKind::fp4) return DifferenceClassFp4(0xffffffffu, expected[k], observed[k]);
    return DifferenceClassMask(format, 0xffffffffu, 0, expected[k], observed[k]);
  }
  // A tuple of FP6 codes (OutputKind::fp6: 32 in 192 bits, 16 in 96): elements_swapped when
  // the observed bits are the expected ones with the two fields of every 12-bit pair
  // exchanged (and that changes them), else value_differs.
  static std::string Fp6TupleClass(absl::Span<const uint32_t> expected,
                                   absl::Span<const uint32_t> observed) {
    auto field = [](absl::Span<const uint32_t> w, int k) {
      const int bit = 6 * k;  // field k: bits 6k+5:6k, read bit by bit (a field may straddle)
      uint32_t c = 0;
      for (int b = 0; b < 6; ++b) c |= ((w[(bit + b) / 32] >> ((bit + b) % 32)) & 1u) << b;
      return c;
    };
    // 32 fields in 6 words, or 16 in 3 (gfx1250's 16-element encoders).
    const int fields = static_cast<int>(expected.size()) * 32 / 6;
    bool swapped = (expected.size() == 6 || expected.size() == 3) &&
                   observed.size() == expected.size(),
         changes = false;
    for (int k = 0; swapped && k < fields; k += 2) {
      swapped = field(observed, k) == field(expected, k + 1) &&
                field(observed, k + 1) == field(expected, k);
      changes |= field(expected, k) != field(expected, k + 1);
    }
    return swapped && changes ? "elements_swapped" : "value_differs";
  }
  // A 16-bit float writer's lane: its two elements exchanged (dst_halves_swapped, read first, as
  // dst_words_swapped is), another select's output (source_byte_moved), the structural
  // classes of DifferenceClassMask, else the f32 value class of the first differing element
  // widened exactly (f16, or bf16 as the top half of an f32). `word`: the word's index in the
  // batch's output (lane * words per lane + the word).
  std::string SixteenBitClass(size_t word, uint32_t written, uint32_t expected,
                              uint32_t observed) const {
    if (written == 0xffffffffu && (expected >> 16) != (expected & 0xffffu) &&
        observed == std::rotl(expected, 16)) {
      return "dst_halves_swapped";
    }
    for (const std::vector<uint32_t>& other : other_selects) {
      if (other[word] == observed && other[word] != expected) return "source_byte_moved";
    }
    const std::string s =
        DifferenceClassMask(nullptr, written, Kept(word / DstWords(info.instr)), expected, observed);
    if (IsStructural(s)) return s;
    const bool bf16 = info.output == OutputKind::bf16;
    for (uint32_t shift : {0u, 16u}) {
      const uint32_t e = (expected >> shift) & 0xffffu, o = (observed >> shift) & 0xffffu;
      if (((written >> shift) & 0xffffu) == 0 || e == o) continue;
      return DifferenceClassF32(bf16 ? Bf16ToF32(e) : F16ToF32(e), bf16 ? Bf16ToF32(o) : F16ToF32(o));
    }
    return "value_differs";
  }
  const char* ExchangeClass() const { return ExchangeClassOf(info.instr); }
  // Lane i's words with ExchangeClass's exchange applied (in place); false when lane i has no
  // such exchange (a 16-bit float writer of one half, an 8-bit writer of one byte).
  bool Exchange(size_t i, absl::Span<uint32_t> words) const {
    const char* name = ExchangeClass();
    if (name == nullptr) return false;
    const std::string_view c = name;
    if (c == "dst_words_swapped") {
      std::swap(words[0], words[1]);
      return true;
    }
    if (c == "elements_reversed") {
      std::reverse(words.begin(), words.end());
      return true;
    }
    if (info.output == OutputKind::fp6) return SwapFp6Pairs(words);
    const uint32_t written = WrittenMask(rc.ctx.instr, rc.ctx.mods.opsel, rc.lanes.view().src1[i]);
    if (sixteen) {
      if (words.size() == 1 && written != 0xffffffffu) return false;
      for (uint32_t& x : words) x = std::rotl(x, 16);
      return true;
    }
    if (info.output == OutputKind::fp4) {  // the two codes of every written byte
      for (int b = 0; b < 32; b += 8) {
        if (((written >> b) & 0xffu) == 0) continue;
        const uint32_t v = (words[0] >> b) & 0xffu;
        words[0] = (words[0] & ~(0xffu << b)) | ((((v & 0xfu) << 4) | (v >> 4)) << b);
      }
      return true;
    }
    // 8-bit codes: a written 16-bit half's two bytes
    if (std::popcount(written) != 16 || (written != 0xffffu && written != 0xffff0000u)) return false;
    const int at = written == 0xffffu ? 0 : 16;
    const uint32_t h = (words[0] >> at) & 0xffffu;
    words[0] = (words[0] & ~(0xffffu << at)) | ((((h & 0xffu) << 8) | (h >> 8)) << at);
    return true;
  }
  // A tuple of FP6 codes (32 in 6 words, 16 in 3) with the two fields of every 12-bit pair
  // exchanged (Fp6TupleClass's elements_swapped); false for another size.
  static bool SwapFp6Pairs(absl::Span<uint32_t> words) {
    if (words.size() != 6 && words.size() != 3) return false;
    auto get = [&](int k) {
      uint32_t c = 0;
      for (int b = 0; b < 6; ++b) c |= ((words[(6 * k + b) / 32] >> ((6 * k + b) % 32)) & 1u) << b;
      return c;
    };
    auto put = [&](int k, uint32_t c) {
      for (int b = 0; b < 6; ++b) {
        uint32_t& x = words[(6 * k + b) / 32];
        const uint32_t bit = 1u << ((6 * k + b) % 32);
        x = ((c >> b) & 1u) != 0 ? (x | bit) : (x & ~bit);
      }
    };
    const int fields = static_cast<int>(words.size()) * 32 / 6;
    for (int k = 0; k < fields; k += 2) {
      const uint32_t a = get(k), b = get(k + 1);
      put(k, b);
      put(k + 1, a);
    }
    return true;
  }
};

// Whether lane i's device words `o` are the words `model` gives there with the instruction's
// exchange applied, the exchange changing them (two deviations: step 2b of Attribute).
bool ExchangedMatch(const LaneClassifier& lc, size_t i, absl::Span<const uint32_t> model,
                    absl::Span<const uint32_t> o) {
  std::vector<uint32_t> x(model.begin(), model.end());
  return lc.Exchange(i, absl::MakeSpan(x)) && absl::MakeConstSpan(x) != model &&
         absl::MakeConstSpan(x) == o;
}

// The classes every lane of `c` shows besides c.name (lane_classes: each differing lane's
// Classes).
std::vector<std::string> AlsoShown(const Cause& c,
                                   const std::map<size_t, std::vector<std::string>>& lane_classes) {
  std::vector<std::string> also;
  for (const char* k : kDifferenceClasses) {
    if (c.name == k) continue;
    bool every = !c.lanes.empty();
    for (size_t i : c.lanes) {
      auto it = lane_classes.find(i);
      if (it == lane_classes.end() ||
          std::find(it->second.begin(), it->second.end(), k) == it->second.end()) {
        every = false;
        break;
      }
    }
    if (every) also.push_back(k);
  }
  return also;
}


// A test case resolved under `hyp`, with the model's expected words for every lane: what each
// entry point below starts from.
struct Expectation {
  ResolvedCase rc;
  size_t w = 1;                    // destination words per lane (DstWords)
  std::vector<uint32_t> expected;  // lane i's at [i*w, i*w + w)

  // The lanes whose `observed` words differ from the expected ones.
  std::vector<size_t> Differing(absl::Span<const uint32_t> observed,
                                const Relaxations& relax) const {
    return DifferingLanes(rc.ctx, rc.lanes.view(), expected, observed, relax);
  }
};
// From a resolution the caller holds: copied, only its hypotheses changed.
absl::StatusOr<Expectation> Expect(const ResolvedCase& resolved, const Hypotheses& hyp) {
  ResolvedCase rc = resolved;
  rc.ctx.hyp = hyp;
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  std::vector<uint32_t> expected(rc.lanes.size() * w);
  LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, rc.lanes.view(), absl::MakeSpan(expected)));
  return Expectation{std::move(rc), w, std::move(expected)};
}

// Merges one class cause into another whose name every one of its lanes also shows (see
// Attribute); false when no such pair is left.
bool MergeOneAlsoShown(std::vector<Cause>* causes,
                       const std::map<size_t, std::vector<std::string>>& lane_classes) {
  for (size_t a = 0; a < causes->size(); ++a) {
    const Cause& from = (*causes)[a];
    if (from.by_hypothesis || from.also.empty()) continue;
    for (size_t b = 0; b < causes->size(); ++b) {
      Cause& into = (*causes)[b];
      if (b == a || into.by_hypothesis) continue;
      if (std::find(from.also.begin(), from.also.end(), into.name) == from.also.end()) continue;
      into.lanes.insert(into.lanes.end(), from.lanes.begin(), from.lanes.end());
      std::sort(into.lanes.begin(), into.lanes.end());
      into.also = AlsoShown(into, lane_classes);
      causes->erase(causes->begin() + static_cast<std::ptrdiff_t>(a));
      return true;
    }
  }
  return false;
}

// Every class each of `lanes` shows (LaneClassifier::Classes), by lane: `expected` and
// `observed` are the batch's words, DstWords per lane.
std::map<size_t, std::vector<std::string>> ClassesOf(const LaneClassifier& lc,
                                                     const std::vector<size_t>& lanes,
                                                     absl::Span<const uint32_t> expected,
                                                     absl::Span<const uint32_t> observed) {
  const size_t w = static_cast<size_t>(DstWords(lc.rc.ctx.instr));
  std::map<size_t, std::vector<std::string>> out;
  for (size_t i : lanes) {
    out[i] = lc.Classes(i, LaneWords(expected, i, w), LaneWords(observed, i, w));
  }
  return out;
}

// Attribute's step 1: the differing lanes sorted into structural classes (no hypothesis moves
// a byte or touches a kept byte) and value lanes (only the written byte, or half, differs).
struct SortedLanes {
  std::map<std::string, std::vector<size_t>> structural;
  std::vector<size_t> value_lanes;
  std::map<size_t, std::vector<std::string>> lane_classes;  // every class each lane shows
};

SortedLanes SortDifferingLanes(const LaneClassifier& lc, const std::vector<size_t>& differing,
                               absl::Span<const uint32_t> expected,
                               absl::Span<const uint32_t> observed) {
  SortedLanes s;
  s.lane_classes = ClassesOf(lc, differing, expected, observed);
  for (size_t i : differing) {
    const std::string& c = s.lane_classes[i].front();
    if (IsStructural(c)) {
      s.structural[c].push_back(i);
    } else {
      s.value_lanes.push_back(i);
    }
  }
  // In a batch that shows visible moves, a lane whose move is invisible moved too.
  if (s.structural.count("byte_moved") != 0) {
    const size_t w = static_cast<size_t>(DstWords(lc.rc.ctx.instr));
    std::vector<size_t> rest;
    for (size_t i : s.value_lanes) {
      // Nothing visible written (observed == kept): it may have moved onto an equal byte, or
      // written a value equal to the old one; one lane cannot tell, its batch can.
      if (w == 1 && observed[i] == lc.Kept(i)) {
        s.structural["byte_moved"].push_back(i);
      } else {
        rest.push_back(i);
      }
    }
    s.value_lanes = std::move(rest);
  }
  return s;
}

// A lane whose words are its expected ones exchanged (dst_words_swapped, dst_halves_swapped)
// that a reading the batch's value lanes are owed to reproduces word for word joins that
// cause: the exchange was the reading's coincidence (+0 and -0 decoded under a scale of -0 read
// with its sign come out reversed). Lanes no such reading reproduces stay structural.
absl::Status JoinExchangedLanes(const ResolvedCase& rc, absl::Span<const uint32_t> observed,
                                SortedLanes* sorted, std::vector<Cause>* causes) {
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  const LaneView v = rc.lanes.view();
  std::vector<uint32_t> out(v.size * w);
  for (const char* c : {"dst_words_swapped", "dst_halves_swapped"}) {
    auto it = sorted->structural.find(c);
    if (it == sorted->structural.end()) continue;
    for (Cause& cause : *causes) {
      if (!cause.by_hypothesis) continue;
      for (const std::string& setting : cause.settings) {
        OpContext ctx = rc.ctx;
        if (!ApplySetting(setting, &ctx).ok()) continue;
        LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, v, absl::MakeSpan(out)));
        std::vector<size_t>& lanes = it->second;
        for (auto l = lanes.begin(); l != lanes.end();) {
          if (LaneWords(out, *l, w) != LaneWords(observed, *l, w)) {
            ++l;
            continue;
          }
          cause.lanes.insert(std::upper_bound(cause.lanes.begin(), cause.lanes.end(), *l), *l);
          l = lanes.erase(l);
        }
      }
    }
    if (it->second.empty()) sorted->structural.erase(it);
  }
  return absl::OkStatus();
}

// Adds `lanes` (ascending) to cause c's, each once.
void AddLanes(const std::vector<size_t>& lanes, Cause* c) {
  std::vector<size_t> merged;
  std::set_union(c->lanes.begin(), c->lanes.end(), lanes.begin(), lanes.end(),
                 std::back_inserter(merged));
  c->lanes = std::move(merged);
}

// Attribute's step 2b: the value lanes nothing explains (`unexplained`) whose device words,
// with the instruction's exchange undone (LaneClassifier::Exchange), readings explain: the
// device exchanged the elements of a result a reading gave (an FP4 byte's nibbles swapped on a
// scale read as a whole f32). CoverValueLanes again, on those lanes only (the batch's other
// disagreeing lanes neither tried nor agreeing), the settings chosen on the batch known beside
// `known` and the other values of their rules refuted (one reading per rule). Each lane so
// explained counts for each setting it needs and for the exchange's class (two deviations, two
// causes, as a pair's); it leaves `unexplained`, and its class in `lane_classes` is the
// exchange's. A lane the exchange alone explains stays (its class names the exchange).
absl::Status CoverExchangedLanes(const LaneClassifier& lc, absl::Span<const uint32_t> expected,
                                 absl::Span<const uint32_t> observed, const Relaxations& relax,
                                 absl::Span<const std::string> refuted,
                                 absl::Span<const std::string> known,
                                 const std::vector<size_t>& differing, SortedLanes* sorted,
                                 std::vector<size_t>* unexplained, std::vector<Cause>* causes) {
  const char* exchange = lc.ExchangeClass();
  if (exchange == nullptr) return absl::OkStatus();
  const ResolvedCase& rc = lc.rc;
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  std::vector<uint32_t> undone(observed.begin(), observed.end());
  std::vector<size_t> lanes;  // the exchange changes their words, not back to the expected ones
  for (size_t i : *unexplained) {
    const absl::Span<uint32_t> x = absl::MakeSpan(undone).subspan(i * w, w);
    if (!lc.Exchange(i, x) || x == LaneWords(observed, i, w) || x == LaneWords(expected, i, w)) {
      std::copy_n(observed.begin() + static_cast<std::ptrdiff_t>(i * w), w, x.begin());
      continue;
    }
    lanes.push_back(i);
  }
  if (lanes.empty()) return absl::OkStatus();
  std::vector<bool> excluded(rc.lanes.size(), false);
  for (size_t i : differing) excluded[i] = true;
  for (size_t i : lanes) excluded[i] = false;
  std::vector<std::string> known_here(known.begin(), known.end()), refuted_here(refuted.begin(), refuted.end());
  const std::vector<std::string> singles = SingleSettings(rc.ctx);
  for (const Cause& c : *causes) {
    const std::vector<std::string> own = c.settings.empty() ? SettingsOfCause(c.name) : c.settings;
    if (!c.by_hypothesis || own.empty()) continue;
    known_here.insert(known_here.end(), own.begin(), own.end());
    for (const std::string& s : singles) {
      if (RuleOf(s) == RuleOf(own[0]) && std::find(own.begin(), own.end(), s) == own.end()) {
        refuted_here.push_back(s);
      }
    }
  }
  std::vector<size_t> left;
  LANEDIFF_ASSIGN_OR_RETURN(std::vector<Cause> more,
                            CoverValueLanes(rc, expected, undone, relax, lanes, excluded,
                                            refuted_here, known_here, &left));
  std::vector<size_t> explained;
  std::set_difference(lanes.begin(), lanes.end(), left.begin(), left.end(),
                      std::back_inserter(explained));
  if (explained.empty()) return absl::OkStatus();
  for (Cause& m : more) {  // a setting of a rule already named joins that cause
    const std::string rule = RuleOf(SettingsOfCause(m.name).front());
    auto same = std::find_if(causes->begin(), causes->end(), [&](const Cause& c) {
      return c.by_hypothesis && RuleOf(SettingsOfCause(c.name).front()) == rule;
    });
    if (same == causes->end()) {
      causes->push_back(std::move(m));
    } else {
      AddLanes(m.lanes, &*same);
    }
  }
  causes->push_back(Cause{exchange, false, explained, {}, {}});
  for (size_t i : explained) sorted->lane_classes[i] = {exchange};
  std::vector<size_t> rest;
  std::set_difference(unexplained->begin(), unexplained->end(), explained.begin(), explained.end(),
                      std::back_inserter(rest));
  *unexplained = std::move(rest);
  return absl::OkStatus();
}

// Class causes of one name (the exchange of step 2b and the batch's class) are one cause.
void MergeSameNamedClasses(std::vector<Cause>* causes) {
  for (size_t a = 0; a < causes->size(); ++a) {
    for (size_t b = a + 1; b < causes->size();) {
      Cause& into = (*causes)[a];
      const Cause& from = (*causes)[b];
      if (into.by_hypothesis || from.by_hypothesis || into.name != from.name) {
        ++b;
        continue;
      }
      AddLanes(from.lanes, &into);
      causes->erase(causes->begin() + static_cast<std::ptrdiff_t>(b));
    }
  }
}

// Whether Attribute, with the `known` settings, names `cause` on the batch `e`.
absl::StatusOr<bool> NamedByAttribute(const Expectation& e, absl::Span<const uint32_t> observed,
                                      const Relaxations& relax, const Cause& cause,
                                      absl::Span<const std::string> known) {
  LANEDIFF_ASSIGN_OR_RETURN(const std::vector<Cause> named,
                            Attribute(e.rc, e.expected, observed, relax, {}, known));
  return std::any_of(named.begin(), named.end(), [&](const Cause& c) { return c.name == cause.name; });
}

}  // namespace

absl::StatusOr<std::vector<RoundingPair>> RoundingCandidates(const ResolvedCase& rc) {
  const size_t n = rc.lanes.size();
  std::vector<RoundingPair> pairs(n);
  const InstrInfo& info = GetInstrInfo(rc.ctx.instr);
  LaneBatch down = rc.lanes, up = rc.lanes;
  if (info.src[1] == SrcRole::sr_seed) {  // the seed decides the direction
    std::fill(down.src1().begin(), down.src1().end(), 0u);
    std::fill(up.src1().begin(), up.src1().end(), 0xffffffffu);
  } else {
    const std::optional<Fp8Shape> shape = Fp8OutputShape(rc.ctx);
    const Fp8Format* format = shape ? shape->format : nullptr;
    if (!shape && info.output != OutputKind::u8_int) return pairs;  // no grid known
    std::vector<uint32_t>* dn[2] = {&down.src0(), &down.src1()};
    std::vector<uint32_t>* un[2] = {&up.src0(), &up.src1()};
    for (int k = 0; k < 2; ++k) {
      if (info.src[k] != SrcRole::data_f32) continue;
      for (size_t i = 0; i < n; ++i) {
        std::tie((*dn[k])[i], (*un[k])[i]) = GridNeighbours((*dn[k])[i], format);
      }
    }
  }
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  std::vector<uint32_t> d(n * w), u(n * w);
  LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, down.view(), absl::MakeSpan(d)));
  LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, up.view(), absl::MakeSpan(u)));
  for (size_t i = 0; i < n; ++i) pairs[i] = RoundingPair{d[i * w], u[i * w]};
  return pairs;
}

absl::StatusOr<std::vector<Cause>> Attribute(const ResolvedCase& rc,
                                             absl::Span<const uint32_t> expected,
                                             absl::Span<const uint32_t> observed,
                                             const Relaxations& relax,
                                             absl::Span<const std::string> refuted,
                                             absl::Span<const std::string> known) {
  const LaneView v = rc.lanes.view();
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));  // words per lane
  if (expected.size() != v.size * w || observed.size() != v.size * w) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "attribution: %d lanes of %d words but %d expected and %d observed words", v.size, w,
        expected.size(), observed.size()));
  }
  const std::vector<size_t> differing = DifferingLanes(rc.ctx, v, expected, observed, relax);
  if (differing.empty()) return std::vector<Cause>();
  LANEDIFF_ASSIGN_OR_RETURN(const LaneClassifier lc, LaneClassifier::Make(rc));

  // 1. Structural differences first: no hypothesis moves a byte or touches a kept byte.
  SortedLanes sorted = SortDifferingLanes(lc, differing, expected, observed);
  // 2. The value differences: the smallest set of alternative hypothesis settings.
  std::vector<Cause> causes;
  if (!sorted.value_lanes.empty()) {
    std::vector<bool> structural(v.size, false);
    for (const auto& [c, lanes] : sorted.structural) {
      for (size_t i : lanes) structural[i] = true;
    }
    std::vector<size_t> unexplained;
    LANEDIFF_ASSIGN_OR_RETURN(causes, CoverValueLanes(rc, expected, observed, relax,
                                                      sorted.value_lanes, structural, refuted,
                                                      known, &unexplained));
    if (!unexplained.empty()) {  // 2b. an exchange of the elements a reading gave
      LANEDIFF_RETURN_IF_ERROR(CoverExchangedLanes(lc, expected, observed, relax, refuted, known,
                                                   differing, &sorted, &unexplained, &causes));
    }
    if (!unexplained.empty()) {  // 3. what nothing explains: one value class
      std::map<std::string, std::vector<size_t>> by_class;
      for (size_t i : unexplained) {
        by_class[lc.Class(i, LaneWords(expected, i, w), LaneWords(observed, i, w))].push_back(i);
      }
      causes.push_back(PickClass(by_class));
    }
    LANEDIFF_RETURN_IF_ERROR(JoinExchangedLanes(rc, observed, &sorted, &causes));
  }
  if (!sorted.structural.empty()) causes.push_back(PickClass(sorted.structural));
  MergeSameNamedClasses(&causes);
  // A class cause whose every lane also shows another class cause of the batch is that cause:
  // the batch's other lanes tell which of the lane's classes happened (a class explaining
  // every lane wins over one explaining some).
  for (Cause& c : causes) {
    if (!c.by_hypothesis) c.also = AlsoShown(c, sorted.lane_classes);
  }
  while (MergeOneAlsoShown(&causes, sorted.lane_classes)) {
  }
  // Most lanes first; ties: hypotheses first, then by first lane (deterministic).
  std::sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) {
    if (a.lanes.size() != b.lanes.size()) return a.lanes.size() > b.lanes.size();
    if (a.by_hypothesis != b.by_hypothesis) return a.by_hypothesis;
    return a.lanes.front() < b.lanes.front();
  });
  return causes;
}

absl::StatusOr<std::vector<Cause>> AttributeCase(const proto::TestCase& tc, const Hypotheses& hyp,
                                                 absl::Span<const uint32_t> observed,
                                                 const Relaxations& relax) {
  LANEDIFF_ASSIGN_OR_RETURN(const ResolvedCase rc, ResolveTestCase(tc));
  LANEDIFF_ASSIGN_OR_RETURN(const Expectation e, Expect(rc, hyp));
  return Attribute(e.rc, e.expected, observed, relax);
}

absl::StatusOr<bool> ShowsCause(const proto::TestCase& tc, const Hypotheses& hyp,
                                absl::Span<const uint32_t> observed, const Relaxations& relax,
                                const Cause& cause) {
  LANEDIFF_ASSIGN_OR_RETURN(const ResolvedCase rc, ResolveTestCase(tc));
  return ShowsCause(rc, hyp, observed, relax, cause);
}

absl::StatusOr<bool> ShowsCause(const ResolvedCase& rc, const Hypotheses& hyp,
                                absl::Span<const uint32_t> observed, const Relaxations& relax,
                                const Cause& cause, absl::Span<const std::string> known) {
  LANEDIFF_ASSIGN_OR_RETURN(const Expectation e, Expect(rc, hyp));
  if (observed.size() != e.expected.size()) return false;
  if (cause.by_hypothesis) {
    // One of its settings gives the device's word on a disagreeing lane and changes no
    // agreeing one (its candidacy in CoverValueLanes), whatever else explains that lane.
    const std::vector<size_t> differing = e.Differing(observed, relax);
    if (differing.empty()) return false;
    const LaneView v = e.rc.lanes.view();
    std::vector<uint32_t> out(e.expected.size());
    // Every lane the model under `ctx` misses must be a disagreeing one; some disagreeing one
    // it must reproduce.
    auto shows = [&](const OpContext& ctx) {
      if (!Evaluate(ctx, v, absl::MakeSpan(out)).ok()) return false;
      const std::vector<size_t> missed = DifferingLanes(ctx, v, out, observed, relax);
      return missed.size() < differing.size() &&
             std::includes(differing.begin(), differing.end(), missed.begin(), missed.end());
    };
    const std::vector<std::string> own =
        cause.settings.empty() ? SettingsOfCause(cause.name) : cause.settings;
    for (const std::string& s : own) {
      OpContext ctx = e.rc.ctx;
      if (ApplySetting(s, &ctx).ok() && shows(ctx)) return true;
    }
    // A lane the cause shares with another (a pair in CoverValueLanes): s with one more
    // setting t, where t alone does not show it (s is needed).
    for (const std::string& s : own) {
      OpContext with_s = e.rc.ctx;
      if (!ApplySetting(s, &with_s).ok()) continue;
      for (const std::string& t : SingleSettings(e.rc.ctx)) {
        OpContext ctx = with_s, t_alone = e.rc.ctx;
        if (RuleOf(t) == RuleOf(s) || !ApplySetting(t, &ctx).ok() ||
            !ApplySetting(t, &t_alone).ok()) {
          continue;
        }
        if (shows(ctx) && !shows(t_alone)) return true;
      }
    }
    // Else as Attribute names it: with the known settings, or beside an exchange (step 2b).
    if (known.empty() && ExchangeClassOf(e.rc.ctx.instr) == nullptr) return false;
    return NamedByAttribute(e, observed, relax, cause, known);
  }
  LANEDIFF_ASSIGN_OR_RETURN(const LaneClassifier lc, LaneClassifier::Make(e.rc));
  for (const auto& [i, all] : ClassesOf(lc, e.Differing(observed, relax), e.expected, observed)) {
    if (std::find(all.begin(), all.end(), cause.name) != all.end()) return true;
  }
  // An exchange shown beside a reading (Attribute's step 2b): no lane's class names it.
  const char* exchange = ExchangeClassOf(e.rc.ctx.instr);
  if (exchange == nullptr || cause.name != exchange) return false;
  return NamedByAttribute(e, observed, relax, cause, known);
}

absl::StatusOr<std::string> DecideClass(const proto::TestCase& conf, const Hypotheses& hyp,
                                        absl::Span<const std::string> candidates,
                                        absl::Span<const uint32_t> observed,
                                        const Relaxations& relax) {
  LANEDIFF_ASSIGN_OR_RETURN(const ResolvedCase rc, ResolveTestCase(conf));
  return DecideClass(rc, hyp, candidates, observed, relax);
}

absl::StatusOr<std::string> DecideClass(const ResolvedCase& conf, const Hypotheses& hyp,
                                        absl::Span<const std::string> candidates,
                                        absl::Span<const uint32_t> observed,
                                        const Relaxations& relax) {
  LANEDIFF_ASSIGN_OR_RETURN(const Expectation e, Expect(conf, hyp));
  if (observed.size() != e.expected.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "DecideClass: %d lanes of %d words but %d observed words", e.rc.lanes.size(), e.w,
        observed.size()));
  }
  LANEDIFF_ASSIGN_OR_RETURN(const LaneClassifier lc, LaneClassifier::Make(e.rc));
  std::map<std::string, std::vector<size_t>> by_class;
  for (const std::string& c : candidates) by_class[c];
  for (const auto& [i, classes] :
       ClassesOf(lc, e.Differing(observed, relax), e.expected, observed)) {
    for (const std::string& c : classes) {
      if (auto it = by_class.find(c); it != by_class.end()) it->second.push_back(i);
    }
  }
  const Cause best = by_class.empty() ? Cause{} : PickClass(by_class);
  return best.lanes.empty() ? std::string() : best.name;
}

namespace {

// Whether each lane of `lanes` (where s, applied in `with_s`, misses the device) shows s
// together with one more deviation: some single setting t of a rule neither s nor the others
// (`taken`) set gives the device's word there applied with s, or that word with the lane's
// elements exchanged (ExchangedMatch: the exchange of step 2b beside). On a confirmation
// batch, whose lanes are drawn afresh, such a lane holds a cause the first batch did not show
// (its one source was uniform): NEG ignored was refuted on a gfx1250 SR conversion by lanes
// whose redrawn seeds also showed the literal SR add.
bool EachShowsAnotherBeside(const Expectation& e, const LaneClassifier& lc, const OpContext& with_s,
                            const std::string& s, const std::vector<std::string>& taken,
                            std::vector<size_t> lanes, absl::Span<const uint32_t> observed,
                            const Relaxations& relax) {
  const LaneView v = e.rc.lanes.view();
  std::vector<uint32_t> both(e.expected.size());
  for (const std::string& t : SingleSettings(with_s)) {
    const std::string rule = RuleOf(t);
    if (rule == RuleOf(s) || std::find(taken.begin(), taken.end(), rule) != taken.end()) continue;
    OpContext ctx = with_s;
    if (!ApplySetting(t, &ctx).ok() || !Evaluate(ctx, v, absl::MakeSpan(both)).ok()) continue;
    const std::vector<size_t> miss = DifferingLanes(ctx, v, both, observed, relax);
    std::vector<size_t> rest;  // the lanes t does not explain with s, nor with the exchange
    for (size_t i : lanes) {
      if (std::binary_search(miss.begin(), miss.end(), i) &&
          !ExchangedMatch(lc, i, LaneWords(both, i, e.w), LaneWords(observed, i, e.w))) {
        rest.push_back(i);
      }
    }
    if (rest.size() < lanes.size()) lanes = std::move(rest);
    if (lanes.empty()) return true;
  }
  return false;
}

// For each of one cause's settings `own` (equivalent readings): whether, with the settings in
// `others` applied (ctx; their rules `taken`), it matters on some lane of the confirmation
// batch `e` and the device (`observed`) gives its words on every lane where it matters
// (structural lanes excepted), or, on a lane where it does not, its words with one more
// deviation (EachShowsAnotherBeside) while on one lane at least its own. It matters on a lane
// where its words differ from the others' alone or from another setting of `own` (the lanes
// that part equivalent readings).
absl::StatusOr<std::vector<bool>> HoldsWithOthers(const Expectation& e, const LaneClassifier& lc,
                                                  const OpContext& others,
                                                  const std::vector<std::string>& own,
                                                  const std::vector<std::string>& taken,
                                                  absl::Span<const uint32_t> observed,
                                                  const Relaxations& relax) {
  const LaneView v = e.rc.lanes.view();
  std::vector<uint32_t> without(e.expected.size());
  LANEDIFF_RETURN_IF_ERROR(Evaluate(others, v, absl::MakeSpan(without)));
  std::vector<std::vector<uint32_t>> with(own.size(), std::vector<uint32_t>(e.expected.size()));
  std::vector<bool> ran(own.size(), false);
  std::vector<std::vector<bool>> misses(own.size(), std::vector<bool>(v.size, false));
  for (size_t k = 0; k < own.size(); ++k) {
    OpContext ctx = others;
    LANEDIFF_RETURN_IF_ERROR(ApplySetting(own[k], &ctx));
    ran[k] = Evaluate(ctx, v, absl::MakeSpan(with[k])).ok();
    if (!ran[k]) continue;
    for (size_t i : DifferingLanes(ctx, v, with[k], observed, relax)) misses[k][i] = true;
  }
  std::vector<bool> holds(own.size(), false);
  for (size_t k = 0; k < own.size(); ++k) {
    if (!ran[k]) continue;
    bool shown = false, with_base = false;
    std::vector<size_t> against;
    for (size_t i = 0; i < v.size && !with_base; ++i) {
      const absl::Span<const uint32_t> wi = LaneWords(with[k], i, e.w);
      const bool differs = wi != LaneWords(without, i, e.w);
      bool here = differs;
      for (size_t j = 0; j < own.size() && !here; ++j) here = ran[j] && wi != LaneWords(with[j], i, e.w);
      if (!here) continue;
      if (!misses[k][i]) {
        shown = true;
        continue;
      }
      const absl::Span<const uint32_t> ex = LaneWords(e.expected, i, e.w), o = LaneWords(observed, i, e.w);
      if (ex != o && IsStructural(lc.Class(i, ex, o))) continue;
      // The device's words are s's with the lane's elements exchanged, not the others' so
      // exchanged: s shows there beside the exchange (Attribute's step 2b).
      if (ExchangedMatch(lc, i, wi, o) && !ExchangedMatch(lc, i, LaneWords(without, i, e.w), o)) {
        shown = true;
        continue;
      }
      // The device gives the others' word where s changes it: s is not followed there.
      with_base = differs && LaneWords(without, i, e.w) == o;
      against.push_back(i);
    }
    if (!shown || with_base) continue;
    OpContext with_s = others;
    holds[k] = against.empty() ||
               (ApplySetting(own[k], &with_s).ok() &&
                EachShowsAnotherBeside(e, lc, with_s, own[k], taken, against, observed, relax));
  }
  return holds;
}

// Per lane of `v`: whether `out` gives the device's words there.
std::vector<bool> MatchesDevice(const OpContext& ctx, const LaneView& v,
                                absl::Span<const uint32_t> out, absl::Span<const uint32_t> observed,
                                const Relaxations& relax) {
  std::vector<bool> m(v.size, true);
  for (size_t i : DifferingLanes(ctx, v, out, observed, relax)) m[i] = false;
  return m;
}

absl::StatusOr<bool> OutdoneByAnother(const Expectation& e, const OpContext& others,
                                      const std::string& s, const std::vector<std::string>& taken,
                                      absl::Span<const uint32_t> observed,
                                      const Relaxations& relax) {
  const LaneView v = e.rc.lanes.view();
  std::vector<uint32_t> without(e.expected.size()), with_s(e.expected.size());
  LANEDIFF_RETURN_IF_ERROR(Evaluate(others, v, absl::MakeSpan(without)));
  OpContext ctx_s = others;
  LANEDIFF_RETURN_IF_ERROR(ApplySetting(s, &ctx_s));
  LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx_s, v, absl::MakeSpan(with_s)));
  const std::vector<bool> s_matches = MatchesDevice(ctx_s, v, with_s, observed, relax);
  const std::vector<bool> base_matches = MatchesDevice(others, v, without, observed, relax);
  std::vector<size_t> matters;
  for (size_t i = 0; i < v.size; ++i) {
    if (LaneWords(with_s, i, e.w) != LaneWords(without, i, e.w)) matters.push_back(i);
  }
  for (const std::string& t : SingleSettings(others)) {
    const std::string rule = RuleOf(t);
    if (rule == RuleOf(s) || std::find(taken.begin(), taken.end(), rule) != taken.end()) continue;
    OpContext ctx_t = others;
    std::vector<uint32_t> with_t(e.expected.size());
    if (!ApplySetting(t, &ctx_t).ok() || !Evaluate(ctx_t, v, absl::MakeSpan(with_t)).ok()) continue;
    const std::vector<bool> t_matches = MatchesDevice(ctx_t, v, with_t, observed, relax);
    if (!std::all_of(matters.begin(), matters.end(), [&](size_t i) { return t_matches[i]; })) continue;
    for (size_t i = 0; i < v.size; ++i) {
      if (t_matches[i] && !s_matches[i] && !base_matches[i]) return true;
    }
  }
  return false;
}

// The settings RefutedSettings applies beside a setting of `rule` (of cause c): the first
// setting of every cause of another rule, in the order of `causes`. `fixed`: those always
// applied: the confirmed ones (`known`) and those of a cause with at least as many lanes on
// the batch as c; `free`: the rest, a cause smaller than c that may be a coincidence (it is
// tried in and out).
void OtherSettings(absl::Span<const Cause> causes, const Cause& c, absl::string_view rule,
                   absl::Span<const std::string> known, std::vector<std::string>* fixed,
                   std::vector<std::string>* free) {
  for (const Cause& d : causes) {
    const std::vector<std::string> ds = d.settings.empty() ? SettingsOfCause(d.name) : d.settings;
    if (!d.by_hypothesis || ds.empty() || RuleOf(ds[0]) == rule) continue;
    if (std::find(fixed->begin(), fixed->end(), ds[0]) != fixed->end() ||
        std::find(free->begin(), free->end(), ds[0]) != free->end()) {
      continue;
    }
    const bool confirmed = std::find(known.begin(), known.end(), ds[0]) != known.end();
    (confirmed || d.lanes.size() >= c.lanes.size() ? fixed : free)->push_back(ds[0]);
  }
}

// The subsets of `others` RefutedSettings tries, largest first: every subset while there are
// at most kMaxSubsetOthers, else all of them and all but one.
constexpr size_t kMaxSubsetOthers = 6;
std::vector<std::vector<std::string>> SubsetsLargestFirst(const std::vector<std::string>& others) {
  std::vector<std::vector<std::string>> out;
  const size_t n = others.size();
  if (n > kMaxSubsetOthers) {
    out.push_back(others);
    for (size_t skip = 0; skip < n; ++skip) {
      std::vector<std::string> s;
      for (size_t i = 0; i < n; ++i) {
        if (i != skip) s.push_back(others[i]);
      }
      out.push_back(std::move(s));
    }
    return out;
  }
  for (int size = static_cast<int>(n); size >= 0; --size) {
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
      if (std::popcount(mask) != size) continue;
      std::vector<std::string> s;
      for (size_t i = 0; i < n; ++i) {
        if ((mask >> i) & 1u) s.push_back(others[i]);
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> RefutedSettings(const ResolvedCase& conf,
                                                         const Hypotheses& hyp,
                                                         absl::Span<const Cause> causes,
                                                         absl::Span<const uint32_t> observed,
                                                         const Relaxations& relax,
                                                         std::vector<std::string>* confirmed,
                                                         absl::Span<const std::string> known) {
  LANEDIFF_ASSIGN_OR_RETURN(const Expectation e, Expect(conf, hyp));
  if (observed.size() != e.expected.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "RefutedSettings: %d lanes of %d words but %d observed words", e.rc.lanes.size(), e.w,
        observed.size()));
  }
  LANEDIFF_ASSIGN_OR_RETURN(const LaneClassifier lc, LaneClassifier::Make(e.rc));
  std::vector<std::string> refuted;
  for (const Cause& c : causes) {
    if (!c.by_hypothesis) continue;
    const std::vector<std::string> own = c.settings.empty() ? SettingsOfCause(c.name) : c.settings;
    if (own.empty()) continue;
    std::vector<bool> holds(own.size(), false);
    std::vector<std::string> fixed, free;
    OtherSettings(causes, c, RuleOf(own[0]), known, &fixed, &free);
    for (const std::vector<std::string>& subset : SubsetsLargestFirst(free)) {
      if (std::all_of(holds.begin(), holds.end(), [](bool h) { return h; })) break;
      OpContext others = e.rc.ctx;
      for (const std::string& d : fixed) LANEDIFF_RETURN_IF_ERROR(ApplySetting(d, &others));
      for (const std::string& d : subset) LANEDIFF_RETURN_IF_ERROR(ApplySetting(d, &others));
      std::vector<std::string> taken;
      for (const std::string& d : fixed) taken.push_back(RuleOf(d));
      for (const std::string& d : subset) taken.push_back(RuleOf(d));
      LANEDIFF_ASSIGN_OR_RETURN(std::vector<bool> held,
                                HoldsWithOthers(e, lc, others, own, taken, observed, relax));
      for (size_t k = 0; k < own.size(); ++k) {
        if (!held[k] || holds[k] || !absl::StartsWith(own[k], kActsAsIf)) continue;
        LANEDIFF_ASSIGN_OR_RETURN(const bool outdone,
                                  OutdoneByAnother(e, others, own[k], taken, observed, relax));
        held[k] = !outdone;
      }
      for (size_t k = 0; k < own.size(); ++k) holds[k] = holds[k] || held[k];
    }
    for (size_t k = 0; k < own.size(); ++k) {
      if (!holds[k]) {
        refuted.push_back(own[k]);
      } else if (confirmed != nullptr) {
        confirmed->push_back(own[k]);
      }
    }
  }
  return refuted;
}

absl::StatusOr<bool> ReproducesEveryLane(const proto::TestCase& tc, const Hypotheses& hyp,
                                         absl::Span<const std::string> settings,
                                         absl::Span<const uint32_t> observed,
                                         const Relaxations& relax) {
  LANEDIFF_ASSIGN_OR_RETURN(const ResolvedCase rc, ResolveTestCase(tc));
  return ReproducesEveryLane(rc, hyp, settings, observed, relax);
}

absl::StatusOr<bool> ReproducesEveryLane(const ResolvedCase& rc, const Hypotheses& hyp,
                                         absl::Span<const std::string> settings,
                                         absl::Span<const uint32_t> observed,
                                         const Relaxations& relax) {
  LANEDIFF_ASSIGN_OR_RETURN(const Expectation e, Expect(rc, hyp));
  if (observed.size() != e.expected.size()) return false;
  const LaneView v = e.rc.lanes.view();
  OpContext ctx = e.rc.ctx;
  for (const std::string& s : settings) LANEDIFF_RETURN_IF_ERROR(SetHypothesis(s, &ctx.hyp));
  std::vector<uint32_t> under(e.expected.size());
  LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, v, absl::MakeSpan(under)));
  const std::vector<size_t> missed = DifferingLanes(ctx, v, under, observed, relax);
  if (missed.empty()) return true;
  LANEDIFF_ASSIGN_OR_RETURN(const LaneClassifier lc, LaneClassifier::Make(e.rc));
  for (size_t i : missed) {  // structural lanes are no hypothesis's to reproduce
    const absl::Span<const uint32_t> ex = LaneWords(e.expected, i, e.w),
                                     o = LaneWords(observed, i, e.w);
    if (ex == o || !IsStructural(lc.Class(i, ex, o))) {
      return false;
    }
  }
  return true;
}

std::string CauseSignature(absl::string_view target, absl::string_view instr,
                           absl::string_view cause) {
  return absl::StrCat(target, ".", instr, ".", cause);
}

std::vector<std::string> SightingAttributes(const proto::TestCase& tc, const ResolvedCase& rc,
                                            size_t lane) {
  std::vector<std::string> out = {absl::StrCat("shape:", ModifierSet(tc, rc.ctx.mods))};
  const LaneView v = rc.lanes.view();
  if (lane < v.size) {
    out.push_back(absl::StrCat("class:", ClassifyLane(rc.ctx, v, lane)));
  }
  out.push_back(absl::StrFormat("mode:%08x", rc.requested_mode));
  return out;
}

std::string FaultCause(const absl::Status& fault) {
  if (std::optional<int> hip = HipErrorOf(fault)) return absl::StrCat("device_fault.hip_error_", *hip);
  switch (fault.code()) {
    case absl::StatusCode::kDeadlineExceeded:
      return "device_fault.hang";
    case absl::StatusCode::kUnavailable:
      return "device_fault.crash";
    default:
      return "device_fault.fault";
  }
}

}  // namespace lanediff
