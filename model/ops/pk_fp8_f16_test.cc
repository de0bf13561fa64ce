// gfx1250's packed f16 -> fp8/bf8 encoders v_cvt_pk_fp8_f16 / v_cvt_pk_bf8_f16 (docs/semantics.md
// §13.8), found by their fields (two packed f16 in S0, no second source, one half of VDST):
//   - hand cases, each expected value derived next to it;
//   - every 16-bit value in each half (a permutation puts each value in both halves) x OPSEL
//     {0, 1, 8, 9} x CLAMP x NEG/ABS x MODE.FP16_OVFL under the default readings, fast == oracle
//     on every lane; every other reading on every LANEDIFF_PK_FP8_F16_STRIDE-th value (97 by
//     default, 1 in the slow entry).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

std::vector<Instr> PkF16EncodeRows() {
  std::vector<Instr> out;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.src[0] == SrcRole::data_f16x2 && info.src[1] == SrcRole::unused &&
        info.write == DstWrite::half_at_opsel_3) {
      out.push_back(instr);
    }
  }
  return out;
}

const TargetTraits& Gfx1250() { return **FindTarget("gfx1250"); }

uint32_t Lane(Instr instr, uint8_t opsel, uint32_t src0, uint32_t vdst_old, bool clamp = false,
              uint8_t neg = 0) {
  OpContext ctx;
  ctx.target = &Gfx1250();
  ctx.instr = instr;
  ctx.mods.opsel = opsel;
  ctx.mods.clamp = clamp;
  ctx.mods.neg = neg;
  return EvaluateLane(ctx, src0, 0, 0, vdst_old);
}

TEST(PkFp8F16, TheTwoRowsOnGfx1250AndGfx1251) {
  const std::vector<Instr> rows = PkF16EncodeRows();
  ASSERT_EQ(rows.size(), 2u);
  for (Instr instr : rows) {
    for (const TargetTraits& t : AllTargets()) {
      const std::string name(t.name);
      EXPECT_EQ(t.Has(instr), name == "gfx1250" || name == "gfx1251") << name;
    }
  }
}

TEST(PkFp8F16, HandCases) {
  const std::vector<Instr> rows = PkF16EncodeRows();
  ASSERT_EQ(rows.size(), 2u);
  for (Instr instr : rows) {
    if (GetInstrInfo(instr).output == OutputKind::fp8) {
      // f16 1.0 (0x3c00) -> E4M3 exponent 0 + 7, fraction 0: 0x38; 2.0 (0x4000) -> 0x40; the byte
      // of S0[31:16] above the byte of S0[15:0], in the low half (OPSEL 0), 0xdead kept.
      EXPECT_EQ(Lane(instr, 0, 0x40003c00, 0xdeadbeef), 0xdead4038u);
      // OPSEL[3]: the high half, 0xbeef kept; OPSEL[0] changes nothing (0b1001 as 0b1000)
      // under pk_f16_opsel0=ignored, the default (its other readings: Opsel0Readings).
      EXPECT_EQ(Lane(instr, 0b1000, 0x40003c00, 0xdeadbeef), 0x4038beefu);
      EXPECT_EQ(Lane(instr, 0b1001, 0x40003c00, 0xdeadbeef), 0x4038beefu);
      // Ties to even: 0x3c40 = 1 + 1/16, halfway between 1.0 (0x38) and 1.125 (0x39): 0x38;
      // 0x3cc0 = 1 + 3/16, halfway between 1.125 (0x39) and 1.25 (0x3a): 0x3a.
      EXPECT_EQ(Lane(instr, 0, 0x3cc03c40, 0), 0x00003a38u);
      // Subnormal results: 0x1800 = 2^-9 is E4M3's smallest subnormal 0x01; 0x1c00 = 2^-8 0x02.
      EXPECT_EQ(Lane(instr, 0, 0x1c001800, 0), 0x00000201u);
      // NEG[0] on both f16 (mx_pk16_neg=both_halves): -1.0 -> 0xb8, -2.0 -> 0xc0.
      EXPECT_EQ(Lane(instr, 0, 0x40003c00, 0, false, 1), 0x0000c0b8u);
      // CLAMP selects UE5M3 (gfx1250_clamp=ue5m3): 1.0 is exponent 0 + 15 -> 15 << 3 = 0x78.
      EXPECT_EQ(Lane(instr, 0, 0x3c003c00, 0, true), 0x00007878u);
    } else {
      // E5M2 is f16's high byte when the low byte is 0: 1.0 -> 0x3c, 2.0 -> 0x40.
      EXPECT_EQ(Lane(instr, 0b1000, 0x40003c00, 0x12345678), 0x403c5678u);
      // Ties to even: 0x3c80 = 1.125, halfway between 1.0 (0x3c) and 1.25 (0x3d): 0x3c;
      // 0x3d80 = 1.375, halfway between 1.25 (0x3d) and 1.5 (0x3e): 0x3e.
      EXPECT_EQ(Lane(instr, 0, 0x3d803c80, 0xffff0000), 0xffff3e3cu);
      // f16 0x0001 = 2^-24, below half of E5M2's smallest subnormal 2^-16: +0 (0x00); 0x0400
      // = 2^-14 is E5M2 0x04 (exponent 1, its high byte).
      EXPECT_EQ(Lane(instr, 0, 0x04000001, 0), 0x00000400u);
      // 65504 (0x7bff) rounds past E5M2's largest 57344 (0x7b; the midpoint to 2^16 is 61440):
      // E5M2 +Inf 0x7c with MODE.FP16_OVFL clear and CLAMP read by nothing
      // (pk_fp8_clamp=ignored, the default); 0x7b under pk_fp8_clamp=saturate_finite.
      EXPECT_EQ(Lane(instr, 0, 0x7bff7bff, 0, true), 0x00007c7cu);
      OpContext ctx;
      ctx.target = &Gfx1250();
      ctx.instr = instr;
      ctx.mods.clamp = true;
      ASSERT_TRUE(SetHypothesis("pk_fp8_clamp=saturate_finite", &ctx.hyp).ok());
      EXPECT_EQ(EvaluateLane(ctx, 0x7bff7bff, 0, 0, 0), 0x00007b7bu);
      ctx.mods.clamp = false;
      EXPECT_EQ(EvaluateLane(ctx, 0x7bff7bff, 0, 0, 0), 0x00007c7cu);
    }
  }
}

// One lane under one reading of pk_f16_opsel0 (and of mx_pk16_neg).
uint32_t LaneUnder(Instr instr, const char* opsel0, uint8_t opsel, uint32_t src0, uint32_t vdst_old,
                   uint8_t neg = 0, const char* pk16_neg = "mx_pk16_neg=both_halves") {
  OpContext ctx;
  ctx.target = &Gfx1250();
  ctx.instr = instr;
  ctx.mods.opsel = opsel;
  ctx.mods.neg = neg;
  EXPECT_TRUE(SetHypothesis(opsel0, &ctx.hyp).ok()) << opsel0;
  EXPECT_TRUE(SetHypothesis(pk16_neg, &ctx.hyp).ok()) << pk16_neg;
  return EvaluateLane(ctx, src0, 0, 0, vdst_old);
}

// pk_f16_opsel0 (docs/semantics.md §13.8), each reading by hand. S0 = 0x40003c00: 2.0 in
// S0[31:16], 1.0 in S0[15:0]. E4M3: 1.0 = 0x38 (exponent 0 + bias 7, fraction 0), 2.0 = 0x40;
// E5M2 (f16's high byte when the low byte is 0): 1.0 = 0x3c, 2.0 = 0x40. The result half is
// {byte(element 1), byte(element 0)}.
TEST(PkFp8F16, Opsel0Readings) {
  const Instr fp8 = Instr::v_cvt_pk_fp8_f16, bf8 = Instr::v_cvt_pk_bf8_f16;
  const char* kIgnored = "pk_f16_opsel0=ignored";
  const char* kHigh = "pk_f16_opsel0=high_half";
  const char* kSwapped = "pk_f16_opsel0=halves_swapped";
  // ignored: OPSEL[0] = 1 reads as 0: element 0 1.0, element 1 2.0 -> 0x4038 in the low half.
  EXPECT_EQ(LaneUnder(fp8, kIgnored, 0b0001, 0x40003c00, 0xdeadbeef), 0xdead4038u);
  // high_half: element 0 reads S0[31:16] too: both 2.0 -> 0x4040; OPSEL[0] = 0 selects nothing
  // (0x4038 as the default), and with OPSEL[3] the pair lands in the high half, 0xbeef kept.
  EXPECT_EQ(LaneUnder(fp8, kHigh, 0b0001, 0x40003c00, 0xdeadbeef), 0xdead4040u);
  EXPECT_EQ(LaneUnder(fp8, kHigh, 0b0000, 0x40003c00, 0xdeadbeef), 0xdead4038u);
  EXPECT_EQ(LaneUnder(fp8, kHigh, 0b1001, 0x40003c00, 0xdeadbeef), 0x4040beefu);
  // halves_swapped: element 0 2.0 (0x40), element 1 1.0 (0x38) -> 0x3840.
  EXPECT_EQ(LaneUnder(fp8, kSwapped, 0b0001, 0x40003c00, 0xdeadbeef), 0xdead3840u);
  EXPECT_EQ(LaneUnder(fp8, kSwapped, 0b1001, 0x40003c00, 0xdeadbeef), 0x3840beefu);
  // The bf8 row alike, old VDST 0x12345678: 0x403c, 0x4040, 0x3c40 into the low half.
  EXPECT_EQ(LaneUnder(bf8, kIgnored, 0b0001, 0x40003c00, 0x12345678), 0x1234403cu);
  EXPECT_EQ(LaneUnder(bf8, kHigh, 0b0001, 0x40003c00, 0x12345678), 0x12344040u);
  EXPECT_EQ(LaneUnder(bf8, kSwapped, 0b0001, 0x40003c00, 0x12345678), 0x12343c40u);
  // NEG/ABS act on S0's bits before OPSEL[0] selects. NEG[0] under mx_pk16_neg=low_half flips
  // bit 15 only: S0 becomes 0x4000bc00 (-1.0 low). high_half reads 0x4000 for both elements:
  // 0x4040 (the negated half unread); halves_swapped: element 0 0x4000 (0x40), element 1
  // 0xbc00 = -1.0 (sign | 0x38 = 0xb8): 0xb840; ignored: element 0 -1.0 (0xb8), element 1 2.0
  // (0x40): 0x40b8.
  const char* kLow = "mx_pk16_neg=low_half";
  EXPECT_EQ(LaneUnder(fp8, kHigh, 0b0001, 0x40003c00, 0, 1, kLow), 0x00004040u);
  EXPECT_EQ(LaneUnder(fp8, kSwapped, 0b0001, 0x40003c00, 0, 1, kLow), 0x0000b840u);
  EXPECT_EQ(LaneUnder(fp8, kIgnored, 0b0001, 0x40003c00, 0, 1, kLow), 0x000040b8u);
}

uint32_t Stride() {
  const char* s = std::getenv("LANEDIFF_PK_FP8_F16_STRIDE");
  return s != nullptr && std::atoi(s) > 0 ? static_cast<uint32_t>(std::atoi(s)) : 97u;
}

// Every 16-bit value h (stepping by `stride`) in the low half, and the permuted value
// h * 0x9e37 + 0x1234 (an odd multiplier: every value once) in the high half.
LaneBatch Lanes(uint32_t stride) {
  LaneBatch lanes;
  for (uint32_t h = 0; h < 65536; h += stride) {
    const uint32_t hi = (h * 0x9e37u + 0x1234u) & 0xffffu;
    lanes.Add(h | (hi << 16), 0x5a5a5a5a, 0xa5a5a5a5, h * 2654435761u);
  }
  return lanes;
}

int CheckContexts(const TargetTraits& t, Instr instr, const HypothesisInfo* h, uint8_t v,
                  const LaneBatch& lanes) {
  int contexts = 0;
  for (uint32_t k = 0; k < 64; ++k) {
    OpContext ctx;
    ctx.target = &t;
    ctx.instr = instr;
    ctx.mods.opsel = static_cast<uint8_t>((k & 1) | ((k & 2) << 2));  // OPSEL 0, 1, 8, 9
    ctx.mods.clamp = (k & 4) != 0;
    ctx.mods.neg = static_cast<uint8_t>((k >> 3) & 1);
    ctx.mods.abs = static_cast<uint8_t>((k >> 4) & 1);
    ctx.mode = kDefaultMode ^ ((k & 32) != 0 ? kModeFp16OvflBit : 0u);
    if (h != nullptr) h->set(&ctx.hyp, v);
    std::vector<uint32_t> fast(lanes.size()), slow(lanes.size());
    EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
    EXPECT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
    for (size_t i = 0; i < fast.size(); ++i) {
      if (fast[i] != slow[i]) {
        ADD_FAILURE() << t.name << " " << InstrName(instr) << " k=" << k << " "
                      << (h ? h->name : "defaults") << " src0=" << lanes.view().src0[i]
                      << " fast=" << fast[i] << " oracle=" << slow[i];
        return contexts;
      }
    }
    ++contexts;
  }
  return contexts;
}

TEST(PkFp8F16, EveryF16InEachHalfFastMatchesOracle) {
  const LaneBatch every = Lanes(1), strided = Lanes(Stride());
  int contexts = 0;
  for (Instr instr : PkF16EncodeRows()) {
    contexts += CheckContexts(Gfx1250(), instr, nullptr, 0, every);
    for (const HypothesisInfo& h : AllHypotheses()) {
      for (size_t v = 1; v < h.values.size(); ++v) {
        contexts += CheckContexts(Gfx1250(), instr, &h, static_cast<uint8_t>(v), strided);
      }
    }
  }
  std::printf("%d contexts (stride %u under the other readings): fast == oracle\n", contexts,
              Stride());
  EXPECT_GT(contexts, 0);
}

}  // namespace
}  // namespace lanediff
