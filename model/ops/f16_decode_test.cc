// gfx1250's fp8/bf8 -> f16 decodes (the rows whose S0 holds 8-bit floats, with no block scale,
// and whose output is f16; docs/semantics.md §13.4, §13.6), found by their fields: the one-byte
// ones (one f16 into a half, DstWrite::half_at_opsel_3) and the packed ones (two f16, the dword):
//   - hand cases, each expected value derived next to it;
//   - one-byte: every byte in every byte position x every byte select x OPSEL[3] x MODE[6]
//     both ways x every reading of every hypothesis, fast == oracle, every lane;
//   - packed: every 16-bit word in each half x OPSEL[0] x OPSEL[3] x MODE[6] under the default
//     readings, and 256 words x four OPSEL values x MODE[6] x a constant or not under every
//     other reading.
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

std::vector<Instr> F16DecodeRows() {
  std::vector<Instr> out;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.src[0] == SrcRole::fp8_bytes && info.src[1] == SrcRole::unused &&
        info.output == OutputKind::f16 && info.write == DstWrite::half_at_opsel_3) {
      out.push_back(instr);
    }
  }
  return out;
}

// The packed ones: two f16 in the whole dword.
std::vector<Instr> PkF16DecodeRows() {
  std::vector<Instr> out;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.src[0] == SrcRole::fp8_bytes && info.src[1] == SrcRole::unused &&
        info.output == OutputKind::f16 && info.write == DstWrite::dword) {
      out.push_back(instr);
    }
  }
  return out;
}

const TargetTraits& Gfx1250() { return **FindTarget("gfx1250"); }

// One lane under `opsel` and the default readings.
uint32_t Lane(Instr instr, uint8_t opsel, uint32_t src0, uint32_t vdst_old) {
  OpContext ctx;
  ctx.target = &Gfx1250();
  ctx.instr = instr;
  ctx.mods.opsel = opsel;
  return EvaluateLane(ctx, src0, 0, 0, vdst_old);
}

TEST(F16Decode, TheTwoRowsOnGfx1250AndGfx1251) {
  const std::vector<Instr> rows = F16DecodeRows();
  ASSERT_EQ(rows.size(), 2u);
  for (Instr instr : rows) {
    for (const TargetTraits& t : AllTargets()) {
      const std::string name(t.name);
      EXPECT_EQ(t.Has(instr), name == "gfx1250" || name == "gfx1251") << name;
    }
  }
}

TEST(F16Decode, HandCases) {
  const std::vector<Instr> rows = F16DecodeRows();
  ASSERT_EQ(rows.size(), 2u);
  for (Instr instr : rows) {
    const bool e4m3 = GetInstrInfo(instr).fp8_slot == Fp8Slot::fp8;
    if (e4m3) {
      // E4M3 0x38: exponent 7 - bias 7 = 0, 1.0 -> f16 0x3c00; e32 (opsel 0): the low half, the
      // old high half 0xdead kept.
      EXPECT_EQ(Lane(instr, 0, 0x38, 0xdeadbeef), 0xdead3c00u);
      // E4M3 0xfe: -1.75 x 2^8 = -448 -> f16 sign 1, exponent 8 + 15 = 23, fraction .11:
      // 0x8000 | 23 << 10 | 0x300 = 0xdf00; byte_sel:3 (OPSEL[0] = 1, OPSEL[1] = 1 -> 3),
      // OPSEL[3]: the high half, the old low half kept.
      EXPECT_EQ(Lane(instr, 0b1011, 0xfe000000, 0xdeadbeef), 0xdf00beefu);
      // byte_sel:2 is OPSEL[0] (2*1 + 0): byte 2 of 0x00400000 is E4M3 0x40 = 2.0 -> 0x4000.
      EXPECT_EQ(Lane(instr, 0b0001, 0x00400000, 0), 0x00004000u);
    } else {
      // E5M2 is f16's high byte: 0x3c -> 0x3c00 (1.0), 0x7c -> 0x7c00 (+Inf), 0x83 -> 0x8300
      // (-3 x 2^-16, a subnormal in both), into the half OPSEL[3] selects.
      EXPECT_EQ(Lane(instr, 0, 0x3c, 0xdeadbeef), 0xdead3c00u);
      EXPECT_EQ(Lane(instr, 0b1000, 0x7c, 0xdeadbeef), 0x7c00beefu);
      // byte_sel:1 is OPSEL[1] (2*0 + 1): byte 1.
      EXPECT_EQ(Lane(instr, 0b0010, 0x8300, 0x12345678), 0x12348300u);
    }
  }
}

TEST(F16Decode, ZeroedHalfReading) {
  for (Instr instr : F16DecodeRows()) {
    OpContext ctx;
    ctx.target = &Gfx1250();
    ctx.instr = instr;
    ctx.hyp.f16_decode_half = F16DecodeHalf::zeroed;
    // The byte 0x00 (+0 in both formats) -> f16 0x0000; the old 0xdeadbeef does not survive.
    EXPECT_EQ(EvaluateLane(ctx, 0, 0, 0, 0xdeadbeef), 0u);
    ctx.mods.opsel = 0b1000;
    EXPECT_EQ(EvaluateLane(ctx, 0, 0, 0, 0xdeadbeef), 0u);
  }
}

TEST(F16Decode, EveryByteEverySelectFastMatchesOracle) {
  LaneBatch lanes;
  // Byte b in every position (b * 0x01010101), each with a distinct old VDST.
  for (uint32_t b = 0; b < 256; ++b) lanes.Add(b * 0x01010101u, 0x5a5a5a5a, 0xa5a5a5a5, b * 2654435761u);
  int contexts = 0;
  for (Instr instr : F16DecodeRows()) {
    for (const TargetTraits& t : AllTargets()) {
      if (!t.Has(instr)) continue;
      std::vector<std::pair<const HypothesisInfo*, uint8_t>> readings = {{nullptr, 0}};
      for (const HypothesisInfo& h : AllHypotheses()) {
        for (size_t v = 1; v < h.values.size(); ++v) readings.push_back({&h, static_cast<uint8_t>(v)});
      }
      for (const auto& [h, v] : readings) {
        for (uint32_t k = 0; k < 16 * 2; ++k) {
          OpContext ctx;
          ctx.target = &t;
          ctx.instr = instr;
          ctx.mods.opsel = static_cast<uint8_t>(k % 16);
          ctx.mode = kDefaultMode ^ (k >= 16 ? 0x40u : 0u);  // MODE[6]
          if (h != nullptr) h->set(&ctx.hyp, v);
          std::vector<uint32_t> fast(lanes.size()), slow(lanes.size());
          ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
          ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
          for (size_t i = 0; i < fast.size(); ++i) {
            ASSERT_EQ(fast[i], slow[i])
                << t.name << " " << InstrName(instr) << " opsel=" << ctx.mods.opsel
                << " mode=" << ctx.mode << " " << (h ? h->name : "defaults") << " byte=" << i;
          }
          ++contexts;
        }
      }
    }
  }
  std::printf("%d contexts x 256 bytes in every position: fast == oracle\n", contexts);
  EXPECT_GT(contexts, 0);
}

TEST(PkF16Decode, TheTwoRowsOnGfx1250AndGfx1251) {
  const std::vector<Instr> rows = PkF16DecodeRows();
  ASSERT_EQ(rows.size(), 2u);
  for (Instr instr : rows) {
    for (const TargetTraits& t : AllTargets()) {
      const std::string name(t.name);
      EXPECT_EQ(t.Has(instr), name == "gfx1250" || name == "gfx1251") << name;
    }
  }
}

TEST(PkF16Decode, HandCases) {
  const std::vector<Instr> rows = PkF16DecodeRows();
  ASSERT_EQ(rows.size(), 2u);
  for (Instr instr : rows) {
    const bool e4m3 = GetInstrInfo(instr).fp8_slot == Fp8Slot::fp8;
    if (e4m3) {
      // Word 0x3840: the low byte E4M3 0x40 (exponent 8 - 7 = 1: 2.0 -> f16 0x4000) into bits
      // 15:0, the high byte 0x38 (1.0 -> 0x3c00) into bits 31:16; the old VDST is not kept.
      EXPECT_EQ(Lane(instr, 0, 0xdead3840, 0x12345678), 0x3c004000u);
      // op_sel:[1,0] (OPSEL[0]): the high word 0x01fe. 0xfe = -1.75 x 2^8 = -448 -> f16 sign 1,
      // exponent 8 + 15 = 23, fraction .11: 0x8000 | 23 << 10 | 0x300 = 0xdf00; 0x01 = the
      // smallest subnormal 2^-3 x 2^-6 = 2^-9 -> f16 exponent -9 + 15 = 6: 6 << 10 = 0x1800.
      EXPECT_EQ(Lane(instr, 0b0001, 0x01fe0000, 0), 0x1800df00u);
      // OPSEL[3] (op_sel:[0,1]) is read by nothing: the low word 0x3840 as above.
      EXPECT_EQ(Lane(instr, 0b1000, 0x00003840, 0), 0x3c004000u);
    } else {
      // E5M2 is f16's high byte: word 0x3c7c -> 0x7c00 (+Inf) low, 0x3c00 (1.0) high.
      EXPECT_EQ(Lane(instr, 0, 0x00003c7c, 0xdeadbeef), 0x3c007c00u);
      // The high word 0x8300: low byte 0x00 -> +0, high byte 0x83 -> 0x8300 (-3 x 2^-16).
      EXPECT_EQ(Lane(instr, 0b1001, 0x83000000, 0xdeadbeef), 0x83000000u);
    }
  }
}

// Fast == oracle on every lane of `lanes` under `ctx`.
void ExpectFastMatchesOracle(const OpContext& ctx, const LaneBatch& lanes, const char* what) {
  std::vector<uint32_t> fast(lanes.size()), slow(lanes.size());
  ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
  ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
  for (size_t i = 0; i < fast.size(); ++i) {
    ASSERT_EQ(fast[i], slow[i]) << ctx.target->name << " " << InstrName(ctx.instr)
                                << " opsel=" << int{ctx.mods.opsel} << " mode=" << ctx.mode
                                << " " << what << " lane=" << i;
  }
}

TEST(PkF16Decode, EveryWordFastMatchesOracle) {
  LaneBatch words;
  // Word w in the low half, the word 0xffff - w in the high half: every word in each half.
  for (uint32_t w = 0; w < 0x10000u; ++w) words.Add(w | (0xffffu - w) << 16, 0, 0, w * 2654435761u);
  int contexts = 0;
  for (Instr instr : PkF16DecodeRows()) {
    for (uint32_t k = 0; k < 8; ++k) {
      OpContext ctx;
      ctx.target = &Gfx1250();
      ctx.instr = instr;
      ctx.mods.opsel = static_cast<uint8_t>((k & 1) | (k & 2) << 2);  // OPSEL[0], OPSEL[3]
      ctx.mode = kDefaultMode ^ (k >= 4 ? 0x40u : 0u);                // MODE[6]
      ExpectFastMatchesOracle(ctx, words, "defaults");
      ++contexts;
    }
  }
  LaneBatch some;
  for (uint32_t b = 0; b < 256; ++b) some.Add(b * 0x00010101u ^ 0x5a00a500u, 0, 0, ~b);
  for (Instr instr : PkF16DecodeRows()) {
    for (const HypothesisInfo& h : AllHypotheses()) {
      for (size_t v = 1; v < h.values.size(); ++v) {  // the defaults: above
        for (uint32_t k = 0; k < 4 * 2 * 2; ++k) {
          // OPSEL: none, the high word, OPSEL[2:1] (read by nothing), the high word + OPSEL[3].
          static constexpr uint8_t kOpsel[4] = {0b0000, 0b0001, 0b0110, 0b1001};
          OpContext ctx;
          ctx.target = &Gfx1250();
          ctx.instr = instr;
          ctx.mods.opsel = kOpsel[k % 4];
          ctx.mode = kDefaultMode ^ ((k / 4) % 2 != 0 ? 0x40u : 0u);
          ctx.constant16_srcs = static_cast<uint8_t>(k / 8);  // a constant in SRC0 or not
          h.set(&ctx.hyp, static_cast<uint8_t>(v));
          ExpectFastMatchesOracle(ctx, some, std::string(h.name).c_str());
          ++contexts;
        }
      }
    }
  }
  std::printf("%d contexts: fast == oracle\n", contexts);
  EXPECT_GT(contexts, 0);
}

}  // namespace
}  // namespace lanediff
