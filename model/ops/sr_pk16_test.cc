// gfx1250's 16-element SR FP6/BF6 encoders (docs/semantics.md §14.7; the rows naming op file
// model/ops/v_cvt_scalef32_sr_pk16_fp6_f32.cc, shape T) through the batch API: hand-derived
// lanes showing the seed step between the sixteen elements (rule mx_sr_seed_step) under both
// field orders (rule mx_pk16_fp6_order), then the fast model against the exact oracle on random
// tuples under every reading of every mx_* rule, and on every 16-bit value (the f16 / bf16 rows,
// each value through one element, hashed seeds) over a scale set: 4 scales in the default run,
// every scale byte under LANEDIFF_SR_PK16_SCALES=all (the slow entry).
//
// The seed words by hand from S1 with V_PRNG_B32's step s -> (s << 1) ^ (s[31] ? 0xC5 : 0)
// (model/ops/sr_seed_step.h, AMD CDNA4 pseudocode, carried over to gfx1250):
//   S1 = 0x80000000: element 0 0x80000000, element k >= 1 0xC5 << (k - 1) (at most 0x314000 for
//   k = 15: only element 0 has bit 31 set);
//   S1 = 0x40000000: 0x40000000, 0x80000000, then 0xC5 << (k - 2): only element 1;
//   S1 = 0x00800000: element k 0x00800000 << k for k <= 8 (0x80000000 at k = 8), then 0xC5 <<
//   (k - 9): only element 8.
// A value exactly half a quantum above a code rounds up iff its seed word's bit 31 is set (the
// seed's top bits are a fraction of the quantum, mx_sr_round=source_grid; the dropped bits are 1
// then zeros whatever the source's fraction width).
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/ops/sr_tuple_test_util.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// The rows writing 16 FP6/BF6 codes (3 dwords) from one tuple with a seed S1 and a scale S2.
std::vector<Instr> SrPk16Rows() {
  std::vector<Instr> rows;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.output == OutputKind::fp6 && info.dst_words() == 3 &&
        info.src[1] == SrcRole::sr_seed && info.src[2] == SrcRole::scale_f32) {
      rows.push_back(instr);
    }
  }
  return rows;
}

TEST(SrPk16, SixRowsOnGfx1250AndGfx1251Only) {
  ASSERT_EQ(SrPk16Rows().size(), 6u);
  for (Instr instr : SrPk16Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    EXPECT_EQ(info.src_dwords(0), info.src[0] == SrcRole::f32_x16 ? 16 : 8) << InstrName(instr);
    for (const TargetTraits& t : AllTargets()) {
      EXPECT_EQ(t.Has(instr), t.name == "gfx1250" || t.name == "gfx1251")
          << InstrName(instr) << " " << t.name;
    }
  }
}

// Every element half a quantum above a code, scale 1.0 (exponent field 127):
//   E2M3 1.0625 (f32 0x3F880000, f16 0x3C40, bf16 0x3F88) between 1.0 (0x08) and 1.125 (0x09);
//   E3M2 1.125 (0x3F900000, 0x3C80, 0x3F90) between 1.0 (0x0C) and 1.25 (0x0D).
// All sixteen down: E2M3 0x08 in every field = bits 6k+3: VDST 0x08208208 0x82082082 0x20820820;
// E3M2 0x0C = bits 6k+2, 6k+3 (field 5's bit 2 is bit 32, VDST[1] bit 0): 0x0C30C30C 0xC30C30C3
// 0x30C30C30. An element up sets bit 6F of its field F (the code's bit 0). S1 0x80000000:
// element 0 up (field 0 under both orders, bit 0); S1 0x40000000: element 1 (linear field 1, bit
// 6; interleaved field 2, bit 12); S1 0x00800000: element 8 (linear field 8, bit 48 = VDST[1] bit
// 16; interleaved field 1, bit 6).
// mx_sr_seed_step=same from 0x80000000: every element up, bits 6k too: E2M3 0x49249249
// 0x92492492 0x24924924, E3M2 0x4D34D34D 0xD34D34D3 0x34D34D34.
TEST(SrPk16, SeedStepOverSixteenElementsUnderBothOrders) {
  struct Want {
    uint32_t f32, f16, bf16;  // the element
    std::vector<uint32_t> down, same;
  };
  const Want fp6 = {0x3f880000u, 0x3c40u, 0x3f88u, {0x08208208u, 0x82082082u, 0x20820820u},
                    {0x49249249u, 0x92492492u, 0x24924924u}};
  const Want bf6 = {0x3f900000u, 0x3c80u, 0x3f90u, {0x0c30c30cu, 0xc30c30c3u, 0x30c30c30u},
                    {0x4d34d34du, 0xd34d34d3u, 0x34d34d34u}};
  struct Case {
    uint32_t seed;
    int linear_bit, interleaved_bit;
  };
  const Case cases[] = {{0x80000000u, 0, 0}, {0x40000000u, 6, 12}, {0x00800000u, 48, 6}};
  for (Instr instr : SrPk16Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    const Want& w = info.fp8_slot == Fp8Slot::bf6 ? bf6 : fp6;
    const std::vector<uint32_t> s0 =
        info.src[0] == SrcRole::f32_x16 ? std::vector<uint32_t>(16, w.f32)
        : IsPackedF16(info.src[0])      ? std::vector<uint32_t>(8, w.f16 * 0x10001u)
                                        : std::vector<uint32_t>(8, w.bf16 * 0x10001u);
    for (const char* target : {"gfx1250", "gfx1251"}) {
      for (const Case& c : cases) {
        for (const std::string order : {"linear", "interleaved"}) {
          std::vector<uint32_t> want = w.down;
          const int bit = order == "linear" ? c.linear_bit : c.interleaved_bit;
          want[bit / 32] |= 1u << (bit % 32);
          EXPECT_EQ(SrTupleLane(SrTupleCtx(instr, "mx_pk16_fp6_order=" + order, target), s0, c.seed,
                         0x3f800000u),
                    want)
              << InstrName(instr) << " " << target << " " << order << " seed " << c.seed;
        }
      }
      EXPECT_EQ(SrTupleLane(SrTupleCtx(instr, "mx_sr_seed_step=same", target), s0, 0x80000000u,
                     0x3f800000u),
                w.same)
          << InstrName(instr) << " " << target;
    }
  }
}

// Random tuples (sr_tuple_test_util.h SrRandomTupleLanes), random seeds, eight scales, each
// reading of every mx_* rule alone, NEG/ABS bits on S0 and S2: fast == oracle on every row.
TEST(SrPk16, RandomTuplesFastMatchesOracle) {
  for (Instr instr : SrPk16Rows()) {
    const LaneBatch lanes = SrRandomTupleLanes(instr, 300, 7);
    for (const OpContext& ctx : SrReadingContexts(instr, false)) {
      ExpectSrFastMatchesOracle(ctx, lanes);
    }
  }
}

// Every 16-bit value through the f16 / bf16 rows (lane j holds the values 16j .. 16j+15, element
// k = 16j + k: 4,096 lanes), a hashed seed per lane, under the default readings: fast == oracle.
TEST(SrPk16, Every16BitValueFastMatchesOracle) {
  const std::vector<uint32_t> scales = SrScales("LANEDIFF_SR_PK16_SCALES");
  int rows = 0;
  for (Instr instr : SrPk16Rows()) {
    if (GetInstrInfo(instr).src[0] == SrcRole::f32_x16) continue;
    ++rows;
    ExpectSrFastMatchesOracle(SrTupleCtx(instr), SrEvery16BitLanes(instr, scales));
  }
  EXPECT_EQ(rows, 4);
}

}  // namespace
}  // namespace lanediff
