#include "fuzz/engine/mutator.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

bool Contains(const std::vector<uint32_t>& v, uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(MutatorTables, HoldHandDerivedBoundaries) {
  // 129.5 = 1.01171875 * 2^7: exponent 134 (0x86), mantissa 0.01171875 * 2^23 = 0x18000.
  EXPECT_TRUE(Contains(U8BoundaryValues(), 0x43018000));
  EXPECT_TRUE(Contains(U8BoundaryValues(), 0x437f8000));  // 255.5
  EXPECT_TRUE(Contains(U8BoundaryValues(), 0xbf000000));  // -0.5
  EXPECT_TRUE(Contains(U8BoundaryValues(), 0x3fc00000));  // 1.5
  // OCP E4M3: max finite 448 = 1.75 * 2^8 = 0x43e00000; the RNE overflow threshold is
  // halfway to 480 (the next step): 464 = 1.8125 * 2^8 = 0x43e80000.
  const auto e4m3 = Fp8BoundaryValues(Fp8FormatId::e4m3_ocp);
  EXPECT_TRUE(Contains(e4m3, 0x43e00000));
  EXPECT_TRUE(Contains(e4m3, 0x43e80000));
  EXPECT_TRUE(Contains(e4m3, 0xc3e80000));  // and its negative
  // Smallest E4M3 subnormal 2^-9 = 0x3b000000; half of it, 2^-10 = 0x3a800000.
  EXPECT_TRUE(Contains(e4m3, 0x3b000000));
  EXPECT_TRUE(Contains(e4m3, 0x3a800000));
  // FNUZ E4M3 max 240 = 1.875 * 2^7 = 0x43700000, threshold 248 = 0x43780000.
  const auto fnuz = Fp8BoundaryValues(Fp8FormatId::e4m3_fnuz);
  EXPECT_TRUE(Contains(fnuz, 0x43700000));
  EXPECT_TRUE(Contains(fnuz, 0x43780000));
  // OCP E5M2 max 57344 = 1.75 * 2^15 = 0x47600000; 61440 = 0x47700000 (bf8 gives 0x7c on gfx950).
  const auto e5m2 = Fp8BoundaryValues(Fp8FormatId::e5m2_ocp);
  EXPECT_TRUE(Contains(e5m2, 0x47600000));
  EXPECT_TRUE(Contains(e5m2, 0x47700000));
  // 1 + 2^-4 (halfway between E4M3 1.0 and 1.125) = 0x3f880000.
  EXPECT_TRUE(Contains(e4m3, 0x3f880000));
  const auto seeds = SeedValues(12);
  for (int b = 12; b < 32; ++b) EXPECT_TRUE(Contains(seeds, 1u << b)) << b;
  EXPECT_TRUE(Contains(seeds, 0xfffff000));
  EXPECT_TRUE(Contains(seeds, 0x00000fff));  // the low bits that must not matter
  const auto modes = ModeValues();
  EXPECT_EQ(modes.size(), 512u);
  EXPECT_TRUE(Contains(modes, 0x008000f0));  // FP16_OVFL with the default fields
  EXPECT_TRUE(Contains(modes, 0x00000003));  // round toward zero, denormals flushed
  EXPECT_TRUE(Contains(SpecialF32Values(), 0x7f800001));  // signalling NaN
}

// Checks the invariants Fixup promises.
void ExpectValid(const proto::TestCase& tc, const MutatorConfig& c) {
  auto t = FindTarget(tc.target());
  ASSERT_TRUE(t.ok()) << tc.target();
  if (!c.targets.empty()) {
    EXPECT_NE(std::find(c.targets.begin(), c.targets.end(), tc.target()), c.targets.end());
  }
  ASSERT_NE(tc.instr(), proto::INSTRUCTION_UNSPECIFIED);
  const Instr instr = *ParseInstr(proto::Instruction_Name(tc.instr()));
  EXPECT_TRUE((*t)->Has(instr)) << tc.target() << " " << proto::Instruction_Name(tc.instr());
  EXPECT_GE(static_cast<size_t>(tc.lanes_size()), c.min_lanes);
  EXPECT_LE(static_cast<size_t>(tc.lanes_size()), c.max_lanes);
  const proto::Encoding& e = tc.encoding();
  if (e.raw_words_size() > 0) {
    EXPECT_TRUE(e.raw_words_size() == 2 || e.raw_words_size() == 3);
    return;
  }
  EXPECT_LE(e.opsel(), 15u);
  EXPECT_LE(e.neg(), 7u);
  EXPECT_LE(e.abs(), 7u);
  EXPECT_LE(e.omod(), 3u);
  int bus = 0, literals = 0;
  uint32_t literal = 0;
  for (const proto::Source* s : {&e.src0(), &e.src1(), &e.src2()}) {
    if (s->kind() == proto::SOURCE_SGPR) ++bus;
    if (s->kind() == proto::SOURCE_LITERAL) {
      EXPECT_NE((*t)->family, Family::gfx9) << "GFX9 VOP3 has no literal";
      if (literals++ == 0) {
        ++bus;
        literal = s->value();
      } else {
        EXPECT_EQ(s->value(), literal);
      }
    }
    if (s->kind() == proto::SOURCE_INLINE) {
      EXPECT_TRUE((s->code() >= 128 && s->code() <= 208) || (s->code() >= 240 && s->code() <= 248));
    }
  }
  EXPECT_LE(bus, (*t)->family == Family::gfx9 ? 1 : 2);
  // A source the instruction does not read is never the literal (no dword is fetched for it;
  // Vop3FromTestCase refuses such a case).
  for (int k = GetInstrInfo(instr).sources(); k < 3; ++k) {
    EXPECT_NE((k == 1 ? e.src1() : e.src2()).kind(), proto::SOURCE_LITERAL)
        << InstrName(instr) << " src" << k;
  }
}

TEST(Mutator, EveryGeneratedMutatedAndCrossedCaseIsValid) {
  MutatorConfig c;
  c.max_lanes = 16;
  c.exotic_per_256 = 128;
  Mutator m(c);
  ASSERT_TRUE(m.Check().ok());
  Rng rng(7);
  proto::TestCase prev = m.Generate(rng);
  for (int i = 0; i < 3000; ++i) {
    proto::TestCase tc = m.Generate(rng);
    ExpectValid(tc, m.config());
    m.Mutate(rng, &tc);
    ExpectValid(tc, m.config());
    proto::TestCase child = m.CrossOver(rng, tc, prev);
    ExpectValid(child, m.config());
    prev = tc;
    if (HasFatalFailure()) return;
  }
}

TEST(Mutator, FixupRepairsBadCases) {
  MutatorConfig c;
  c.targets = {"gfx942"};
  c.max_lanes = 4;
  Mutator m(c);
  Rng rng(1);
  proto::TestCase tc;
  tc.set_target("gfx1201");                    // not allowed here
  tc.set_instr(proto::INSTRUCTION_UNSPECIFIED);
  tc.mutable_encoding()->set_opsel(0x35);      // above 15
  tc.mutable_encoding()->mutable_src0()->set_kind(proto::SOURCE_LITERAL);  // none on GFX9
  tc.mutable_encoding()->mutable_src1()->set_kind(proto::SOURCE_SGPR);
  tc.mutable_encoding()->mutable_src2()->set_kind(proto::SOURCE_SGPR);  // bus limit 1 on GFX9
  for (int i = 0; i < 10; ++i) tc.add_lanes();  // above max_lanes
  EXPECT_TRUE(m.Fixup(rng, &tc));
  EXPECT_EQ(tc.target(), "gfx942");
  EXPECT_NE(tc.instr(), proto::INSTRUCTION_UNSPECIFIED);
  EXPECT_EQ(tc.encoding().opsel(), 5u);
  EXPECT_EQ(tc.encoding().src0().kind(), proto::SOURCE_VGPR);
  EXPECT_EQ(tc.encoding().src1().kind(), proto::SOURCE_SGPR);
  EXPECT_EQ(tc.encoding().src2().kind(), proto::SOURCE_VGPR);
  EXPECT_EQ(tc.lanes_size(), 4);
  ExpectValid(tc, m.config());
  EXPECT_FALSE(m.Fixup(rng, &tc));  // idempotent
  // gfx1201 has no v_cvt_sr_* ... it does; gfx1100 does not: the instruction is replaced.
  MutatorConfig c2;
  c2.targets = {"gfx1100"};
  Mutator m2(c2);
  proto::TestCase sr;
  sr.set_target("gfx1100");
  sr.set_instr(proto::v_cvt_sr_fp8_f32);
  sr.add_lanes();
  m2.Fixup(rng, &sr);
  EXPECT_EQ(sr.instr(), proto::v_cvt_pk_u8_f32);
}

TEST(Mutator, DeterministicGivenSeed) {
  MutatorConfig c;
  c.max_lanes = 8;
  Mutator m(c);
  auto run = [&](uint64_t seed) {
    Rng rng(seed);
    std::string all;
    proto::TestCase tc = m.Generate(rng);
    for (int i = 0; i < 200; ++i) {
      m.Mutate(rng, &tc);
      all += tc.SerializeAsString();
    }
    return all;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
}

TEST(Mutator, ReachesRefusedModifiersAndEveryOpselByte) {
  MutatorConfig c;
  c.targets = {"gfx942"};
  c.instrs = {Instr::v_cvt_sr_fp8_f32};
  c.max_lanes = 1;
  Mutator m(c);
  Rng rng(3);
  std::vector<bool> opsel(16);
  bool neg_src1 = false, abs_src2 = false, omod = false, clamp = false, mode_ovfl = false;
  for (int i = 0; i < 5000; ++i) {
    proto::TestCase tc = m.Generate(rng);
    m.Mutate(rng, &tc);
    opsel[tc.encoding().opsel()] = true;
    neg_src1 |= (tc.encoding().neg() & 2) != 0;
    abs_src2 |= (tc.encoding().abs() & 4) != 0;
    omod |= tc.encoding().omod() != 0;
    clamp |= tc.encoding().clamp();
    mode_ovfl |= tc.has_mode() && (tc.mode() & (1u << 23));
  }
  for (int i = 0; i < 16; ++i) EXPECT_TRUE(opsel[i]) << i;
  EXPECT_TRUE(neg_src1 && abs_src2 && omod && clamp && mode_ovfl);
}

// The packed fp8 -> f32 conversions on gfx12/gfx1250, whose SRC0 is a 16-bit operand
// (model/instrs.def src0_16bit): the mutator reaches both forms, the word select OPSEL[0], an
// inline constant and a literal in SRC0, and every literal it makes fits 16 bits (as LLVM's
// assembler requires there).
TEST(Mutator, SixteenBitSourceFormsAndConstants) {
  MutatorConfig c;
  c.targets = {"gfx1200", "gfx1250"};
  c.instrs = {Instr::v_cvt_pk_f32_fp8, Instr::v_cvt_pk_f32_bf8};
  c.max_lanes = 1;
  c.exotic_per_256 = 128;
  Mutator m(c);
  ASSERT_TRUE(m.Check().ok());
  Rng rng(11);
  bool e32 = false, e64 = false, high_word = false, inline_src = false, literal_src = false;
  for (int i = 0; i < 5000; ++i) {
    proto::TestCase tc = m.Generate(rng);
    m.Mutate(rng, &tc);
    ExpectValid(tc, m.config());
    if (HasFatalFailure()) return;
    const proto::Encoding& e = tc.encoding();
    if (e.raw_words_size() > 0) continue;
    e32 |= e.form() == proto::FORM_E32;
    e64 |= e.form() == proto::FORM_E64;
    high_word |= e.form() == proto::FORM_E64 && (e.opsel() & 1) != 0;
    inline_src |= e.src0().kind() == proto::SOURCE_INLINE;
    if (e.src0().kind() == proto::SOURCE_LITERAL) {
      literal_src = true;
      EXPECT_LE(e.src0().value(), 0xffffu) << tc.target();
    }
  }
  EXPECT_TRUE(e32 && e64 && high_word && inline_src && literal_src)
      << e32 << e64 << high_word << inline_src << literal_src;
}

TEST(Rng, BelowIsInRangeAndSplitsEvenly) {
  Rng rng(0);
  std::vector<int> hist(3);
  for (int i = 0; i < 30000; ++i) hist[rng.Below(3)]++;
  for (int h : hist) EXPECT_NEAR(h, 10000, 500);
}

}  // namespace
}  // namespace lanediff
