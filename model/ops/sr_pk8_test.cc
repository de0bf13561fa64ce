// gfx1250's 8-wide SR scaled encoders (docs/semantics.md §14.5; the rows naming op files
// model/ops/v_cvt_scalef32_sr_pk8_fp8_f32.cc and v_cvt_scalef32_sr_pk8_fp4_f32.cc, shape T)
// through the batch API: hand-derived lanes showing the seed step between the eight elements
// (rule mx_sr_seed_step) and the element order, then the fast model against the exact oracle on
// random tuples under every reading of every mx_* rule and fp8_nan, and on every 16-bit value
// (the f16 / bf16 rows, each value through one element, random seeds) over a scale set: 4 scales
// in the default run, every scale byte under LANEDIFF_SR_PK8_SCALES=all (the slow entry).
//
// The seed words by hand from S1 with V_PRNG_B32's step s -> (s << 1) ^ (s[31] ? 0xC5 : 0)
// (model/ops/sr_seed_step.h, AMD CDNA4 pseudocode, carried over to gfx1250):
//   S1 = 0x80000000: elements 0..7 0x80000000, 0xC5, 0x18A, 0x314, 0x628, 0xC50, 0x18A0, 0x3140
//   (only element 0 has bit 31 set);
//   S1 = 0x40000000: 0x40000000, 0x80000000, 0xC5, 0x18A, ... (only element 1 has bit 31 set).
// A value exactly half a quantum above a code rounds up iff its seed word's bit 31 is set (the
// seed's top bits are a fraction of the quantum, mx_sr_round=source_grid; the dropped bits are 1
// then zeros whatever the source's fraction width).
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/ops/sr_tuple_test_util.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// The rows reading an 8-wide tuple, a seed S1 and a scale S2, from the table.
std::vector<Instr> SrPk8Rows() {
  std::vector<Instr> rows;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    const SrcRole r = info.src[0];
    if ((r == SrcRole::f32_x8 || r == SrcRole::f16x2_x4 || r == SrcRole::bf16x2_x4) &&
        info.src[1] == SrcRole::sr_seed && info.src[2] == SrcRole::scale_f32) {
      rows.push_back(instr);
    }
  }
  return rows;
}

TEST(SrPk8, NineRowsOnGfx1250AndGfx1251Only) {
  ASSERT_EQ(SrPk8Rows().size(), 9u);
  for (Instr instr : SrPk8Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    EXPECT_EQ(info.dst_words(), info.output == OutputKind::fp4 ? 1 : 2) << InstrName(instr);
    EXPECT_EQ(info.src_dwords(0), info.src[0] == SrcRole::f32_x8 ? 8 : 4) << InstrName(instr);
    for (const TargetTraits& t : AllTargets()) {
      EXPECT_EQ(t.Has(instr), t.name == "gfx1250" || t.name == "gfx1251")
          << InstrName(instr) << " " << t.name;
    }
  }
}

// Every element half a quantum above a code, under scale 1.0 (exponent field 127):
//   E4M3 1.0625 (f32 0x3F880000, f16 0x3C40, bf16 0x3F88) between 1.0 (0x38) and 1.125 (0x39);
//   E5M2 1.125 (0x3F900000, 0x3C80, 0x3F90) between 1.0 (0x3C) and 1.25 (0x3D);
//   FP4 1.25 (0x3FA00000, 0x3D00, 0x3FA0) between 1.0 (code 2) and 1.5 (code 3).
// S1 0x80000000: element 0 up, 1..7 down: E4M3 VDST 0x38383839, VDST+1 0x38383838; E5M2
// 0x3C3C3C3D, 0x3C3C3C3C; FP4 0x22222223. mx_sr_seed_step=same: all up (0x39393939 twice,
// 0x3D3D3D3D twice, 0x33333333). S1 0x40000000: element 1 up only: E4M3 0x38383938, E5M2
// 0x3C3C3D3C, FP4 0x22222232.
TEST(SrPk8, SeedStepOverEightElements) {
  struct Want {
    uint32_t f32, f16, bf16;                 // the element
    std::vector<uint32_t> e0, same, e1;      // S1 0x80000000, same, S1 0x40000000
  };
  const Want fp8 = {0x3f880000u, 0x3c40u, 0x3f88u, {0x38383839u, 0x38383838u},
                    {0x39393939u, 0x39393939u}, {0x38383938u, 0x38383838u}};
  const Want bf8 = {0x3f900000u, 0x3c80u, 0x3f90u, {0x3c3c3c3du, 0x3c3c3c3cu},
                    {0x3d3d3d3du, 0x3d3d3d3du}, {0x3c3c3d3cu, 0x3c3c3c3cu}};
  const Want fp4 = {0x3fa00000u, 0x3d00u, 0x3fa0u, {0x22222223u}, {0x33333333u}, {0x22222232u}};
  for (Instr instr : SrPk8Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    const Want& w = info.output == OutputKind::fp4 ? fp4 : info.output == OutputKind::bf8 ? bf8 : fp8;
    const std::vector<uint32_t> s0 = info.src[0] == SrcRole::f32_x8 ? std::vector<uint32_t>(8, w.f32)
                                     : IsPackedF16(info.src[0]) ? std::vector<uint32_t>(4, w.f16 * 0x10001u)
                                                                : std::vector<uint32_t>(4, w.bf16 * 0x10001u);
    for (const char* target : {"gfx1250", "gfx1251"}) {
      EXPECT_EQ(SrTupleLane(SrTupleCtx(instr, "", target), s0, 0x80000000u, 0x3f800000u), w.e0)
          << InstrName(instr) << " " << target;
      EXPECT_EQ(SrTupleLane(SrTupleCtx(instr, "mx_sr_seed_step=same", target), s0, 0x80000000u,
                            0x3f800000u),
                w.same)
          << InstrName(instr) << " " << target;
      EXPECT_EQ(SrTupleLane(SrTupleCtx(instr, "", target), s0, 0x40000000u, 0x3f800000u), w.e1)
          << InstrName(instr) << " " << target;
    }
  }
}

// Element order: 1.0, 2.0, 0.5, 4.0, -1.0, 8.0, 0.25, 1.5 over scale 2.0 (exponent field 128,
// divided): 0.5, 1.0, 0.25, 2.0, -0.5, 4.0, 0.125, 0.75, seed S1 0xFFFFFFFF. Its words (the step
// above): 0xFFFFFFFF, 0xFFFFFF3B, 0xFFFFFEB3, 0xFFFFFDA3, 0xFFFFFB83, 0xFFFFF7C3, 0xFFFFEF43,
// 0xFFFFDE43: each one's top 22 bits (the f32 -> FP4 seed, S1[31:10]) at least 0x3FFFFB, just
// under one quantum. E4M3 (bias 7): every value exact, the seed adds less than a quantum to a
// zero remainder: 0x30 0x38 0x28 0x40 0xb0 0x48 0x20 0x34 -> VDST 0x40283830, VDST+1 0x342048b0.
// FP4 E2M1 (0, 0.5, 1, 1.5, 2, 3, 4, 6): 0.5 = 1, 1.0 = 2, 2.0 = 4, -0.5 = 9, 4.0 = 6 exact;
// 0.25 (half the subnormal quantum 0.5) + the seed's almost one quantum: up to 0.5 = 1; 0.125 (a
// quarter) likewise up to 1; 0.75 (0.5 + half a quantum): up to 1.0 = 2 -> nibbles from element
// 7 down 2,1,6,9,4,1,2,1: 0x21694121.
TEST(SrPk8, ElementOrder) {
  const std::vector<uint32_t> f32 = {0x3f800000u, 0x40000000u, 0x3f000000u, 0x40800000u,
                                     0xbf800000u, 0x41000000u, 0x3e800000u, 0x3fc00000u};
  auto lane = [](Instr instr, const std::vector<uint32_t>& s0) {
    return SrTupleLane(SrTupleCtx(instr), s0, 0xffffffffu, 0x40000000u);
  };
  EXPECT_EQ(lane(Instr::v_cvt_scalef32_sr_pk8_fp8_f32, f32),
            (std::vector<uint32_t>{0x40283830u, 0x342048b0u}));
  EXPECT_EQ(lane(Instr::v_cvt_scalef32_sr_pk8_fp4_f32, f32), std::vector<uint32_t>{0x21694121u});
  // The same values as f16, element 2k in the low half of dword k.
  const std::vector<uint32_t> f16 = {0x40003c00u, 0x44003800u, 0x4800bc00u, 0x3e003400u};
  EXPECT_EQ(lane(Instr::v_cvt_scalef32_sr_pk8_fp8_f16, f16),
            (std::vector<uint32_t>{0x40283830u, 0x342048b0u}));
}

// Random tuples (sr_tuple_test_util.h SrRandomTupleLanes), random seeds, eight scales, each
// reading of every mx_* rule and fp8_nan alone, NEG/ABS bits on S0 and S2: fast == oracle on
// every row.
TEST(SrPk8, RandomTuplesFastMatchesOracle) {
  for (Instr instr : SrPk8Rows()) {
    const LaneBatch lanes = SrRandomTupleLanes(instr, 400, 5);
    for (const OpContext& ctx : SrReadingContexts(instr, true)) {
      ExpectSrFastMatchesOracle(ctx, lanes);
    }
  }
}

// Every 16-bit value through the f16 / bf16 rows (lane j holds the values 8j .. 8j+7, element k
// = 8j + k: 8,192 lanes), a hashed seed per lane, under the default readings: fast == oracle.
TEST(SrPk8, Every16BitValueFastMatchesOracle) {
  const std::vector<uint32_t> scales = SrScales("LANEDIFF_SR_PK8_SCALES");
  int rows = 0;
  for (Instr instr : SrPk8Rows()) {
    if (GetInstrInfo(instr).src[0] == SrcRole::f32_x8) continue;
    ++rows;
    ExpectSrFastMatchesOracle(SrTupleCtx(instr), SrEvery16BitLanes(instr, scales));
  }
  EXPECT_EQ(rows, 6);
}

}  // namespace
}  // namespace lanediff
