// The one operand resolver (resolve.h). Expected words are hand-derived from the operand-code
// table of docs/semantics.md §2 (AMD's RDNA3/CDNA3 ISA guides, "Scalar operand encoding"):
// 128 + n is the integer n (0..64), 193..208 are -1..-16, 240..248 are 0.5, -0.5, 1.0, -1.0,
// 2.0, -2.0, 4.0, -4.0, 1/(2pi) as f32 bit patterns (0.5 = 0x3f000000, -0.5 = 0xbf000000,
// 1/(2pi) = 0x3e22f983), 255 the literal dword, 256 + n vn; sn is n; 124 is null on GFX11+.
// The register file is the test's own (v5/v6/v7/v9, s30/s31): the model has no layout.
#include "model/isa/resolve.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint16_t V(int n) { return static_cast<uint16_t>(256 + n); }

RegisterFile TestRegisters() {
  RegisterFile regs("the test");
  regs.LoadVgpr(5, LaneWord::src0)
      .LoadVgpr(6, LaneWord::src1)
      .LoadVgpr(7, LaneWord::src2)
      .LoadVgpr(9, LaneWord::vdst_old)
      .LoadSgpr(30, 0xdeadbeef)
      .LoadSgpr(31, 0x00000007);
  return regs;
}

// Three lanes of raw words: src0 = 10+i, src1 = 20+i, src2 = 30+i, vdst_old = 40+i.
struct RawLanes {
  std::vector<uint32_t> s0{10, 11, 12}, s1{20, 21, 22}, s2{30, 31, 32}, old{40, 41, 42};
  LaneView view() const { return {s0.data(), s1.data(), s2.data(), old.data(), 3}; }
};

LaneBatch Resolve(const LaneRouting& r) {
  RawLanes raw;
  LaneBatch out;
  ResolveLanesInto(r, raw.view(), &out);
  return out;
}

TEST(Resolve, InlineHalfOnSrc1IsTheSameWordInEveryLane) {
  // v_cvt_pk_u8_f32 v9, v5, 0.5, v7 on gfx11: src1 = code 240 = 0.5 = 0x3f000000.
  const std::vector<uint16_t> codes = {V(5), 240, V(7)};
  absl::StatusOr<LaneRouting> r = ResolveOperands(Family::gfx11, codes, 3, {}, TestRegisters());
  ASSERT_TRUE(r.ok()) << r.status();
  LaneBatch b = Resolve(*r);
  EXPECT_THAT(b.src0(), ElementsAre(10u, 11u, 12u));  // v5 = the lane's src0 word
  EXPECT_THAT(b.src1(), ElementsAre(0x3f000000u, 0x3f000000u, 0x3f000000u));
  EXPECT_THAT(b.src2(), ElementsAre(30u, 31u, 32u));
  EXPECT_THAT(b.vdst_old(), ElementsAre(40u, 41u, 42u));
}

TEST(Resolve, InlineConstantsByCode) {
  // 128 -> 0, 192 -> 64, 193 -> -1, 208 -> -16, 241 -> -0.5, 248 -> 1/(2pi).
  const std::pair<uint16_t, uint32_t> cases[] = {{128, 0u},          {192, 64u},
                                                 {193, 0xffffffffu}, {208, 0xfffffff0u},
                                                 {241, 0xbf000000u}, {248, 0x3e22f983u}};
  for (Family f : {Family::gfx9, Family::gfx11}) {
    for (auto [code, want] : cases) {
      absl::StatusOr<SourceRoute> s = ResolveSource(f, 0, code, {}, TestRegisters());
      ASSERT_TRUE(s.ok()) << code << ": " << s.status();
      EXPECT_EQ(s->lane_field, -1) << code;
      EXPECT_EQ(s->uniform, want) << code;
    }
  }
}

TEST(Resolve, TheLiteralIsItsDword) {
  // src0 = code 255 on gfx11 with literal 0x12345678: every lane reads the literal.
  const std::vector<uint16_t> codes = {255, V(6), 193};
  absl::StatusOr<LaneRouting> r =
      ResolveOperands(Family::gfx11, codes, 3, 0x12345678u, TestRegisters());
  ASSERT_TRUE(r.ok()) << r.status();
  LaneBatch b = Resolve(*r);
  EXPECT_THAT(b.src0(), ElementsAre(0x12345678u, 0x12345678u, 0x12345678u));
  EXPECT_THAT(b.src1(), ElementsAre(20u, 21u, 22u));
  EXPECT_THAT(b.src2(), ElementsAre(0xffffffffu, 0xffffffffu, 0xffffffffu));  // inline -1
  // Code 255 without a literal dword has no value.
  absl::StatusOr<LaneRouting> none = ResolveOperands(Family::gfx11, codes, 3, {}, TestRegisters());
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(none.status().message(), HasSubstr("src0 is the literal"));
}

// A 16-bit source operand (the packed fp8 -> f32 conversions' SRC0 on gfx12/gfx1250): a
// constant resolves to the src16_constant default reading, marked constant16 (resolve.h). By
// hand: 1.0 as f16 is 0x3c00, in both halves 0x3c003c00; -1 as 16 bits 0xffff, in both halves
// 0xffffffff; 1/(2pi) as f16 0x3118; the literal 0x1234 is the dword 0x00001234 as encoded.
TEST(Resolve, SixteenBitConstantsAreTheDefaultReadingAndMarked) {
  const std::pair<uint16_t, uint32_t> inline_cases[] = {
      {242, 0x3c003c00u}, {193, 0xffffffffu}, {248, 0x31183118u}, {129, 0x00010001u}};
  for (const auto& [code, want] : inline_cases) {
    const std::vector<uint16_t> codes = {code};
    absl::StatusOr<LaneRouting> r =
        ResolveOperands(Family::gfx12, codes, 1, {}, TestRegisters(), false, /*src16=*/1);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->uniform[0], want) << code;
    EXPECT_EQ(r->constant16, 1) << code;
  }
  const std::vector<uint16_t> lit = {255};
  absl::StatusOr<LaneRouting> r =
      ResolveOperands(Family::gfx12, lit, 1, 0x1234u, TestRegisters(), true, 1);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->uniform[0], 0x00001234u);
  EXPECT_EQ(r->constant16, 1);
  // Registers are not constants: a VGPR's lane word and an SGPR's value, unmarked.
  const std::vector<uint16_t> regs = {V(5)};
  r = ResolveOperands(Family::gfx12, regs, 1, {}, TestRegisters(), false, 1);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->constant16, 0);
  EXPECT_EQ(r->lane_field[0], 0);
  const std::vector<uint16_t> sgpr = {30};
  r = ResolveOperands(Family::gfx12, sgpr, 1, {}, TestRegisters(), false, 1);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->uniform[0], 0xdeadbeefu);
  EXPECT_EQ(r->constant16, 0);
  // The same code on a 32-bit operand: the f32 1.0.
  const std::vector<uint16_t> one = {242};
  r = ResolveOperands(Family::gfx12, one, 1, {}, TestRegisters());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->uniform[0], 0x3f800000u);
  EXPECT_EQ(r->constant16, 0);
}

TEST(Resolve, VgprsReadTheirLaneWordSgprsTheirValue) {
  // src0 = v9 (loaded with vdst_old), src1 = s30, src2 = v5 (src0's word).
  const std::vector<uint16_t> codes = {V(9), 30, V(5)};
  absl::StatusOr<LaneRouting> r = ResolveOperands(Family::gfx12, codes, 3, {}, TestRegisters());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->lane_field[0], static_cast<int>(LaneWord::vdst_old));
  EXPECT_EQ(r->lane_field[1], -1);
  EXPECT_EQ(r->uniform[1], 0xdeadbeefu);
  LaneBatch b = Resolve(*r);
  EXPECT_THAT(b.src0(), ElementsAre(40u, 41u, 42u));
  EXPECT_THAT(b.src1(), ElementsAre(0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu));
  EXPECT_THAT(b.src2(), ElementsAre(10u, 11u, 12u));
}

TEST(Resolve, NullReadsZeroOtherSpecialRegistersAreRefused) {
  // Code 124 is null on GFX11+ (reads 0) and m0 on GFX9/GFX10 (no value anyone sets here).
  absl::StatusOr<SourceRoute> null = ResolveSource(Family::gfx11, 2, 124, {}, TestRegisters());
  ASSERT_TRUE(null.ok()) << null.status();
  EXPECT_EQ(null->uniform, 0u);
  absl::StatusOr<SourceRoute> m0 = ResolveSource(Family::gfx9, 2, 124, {}, TestRegisters());
  ASSERT_FALSE(m0.ok());
  EXPECT_THAT(m0.status().message(),
              HasSubstr("src2 (operand code 124) reads m0, a special register whose value is "
                        "not set by the test"));
}

TEST(Resolve, UnloadedRegistersAndUnknownCodesAreErrorsNamingTheSource) {
  absl::StatusOr<SourceRoute> v8 = ResolveSource(Family::gfx11, 1, V(8), {}, TestRegisters());
  ASSERT_FALSE(v8.ok());
  EXPECT_EQ(v8.status().message(),
            "src1 (operand code 264) reads v8, which is not loaded by the test (loaded: v5 "
            "(src0), v6 (src1), v7 (src2), v9 (vdst_old), s30, s31)");
  absl::StatusOr<SourceRoute> s3 = ResolveSource(Family::gfx11, 0, 3, {}, TestRegisters());
  ASSERT_FALSE(s3.ok());
  EXPECT_THAT(s3.status().message(), HasSubstr("src0 (operand code 3) reads s3, which is not loaded"));
  absl::StatusOr<SourceRoute> bad = ResolveSource(Family::gfx10, 0, 209, {}, TestRegisters());
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("src0: operand code 209"));
}

TEST(Resolve, SourcesTheInstructionDoesNotReadResolveToZero) {
  // Two sources read (the SR instructions): the SRC2 field is not looked at, even v200.
  const std::vector<uint16_t> codes = {V(5), V(6), V(200)};
  absl::StatusOr<LaneRouting> r = ResolveOperands(Family::gfx12, codes, 2, {}, TestRegisters());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->lane_field[2], -1);
  EXPECT_EQ(r->uniform[2], 0u);
  EXPECT_THAT(Resolve(*r).src2(), ElementsAre(0u, 0u, 0u));
}

// The boundary: NEG, ABS, OPSEL (byte_sel, op_sel), CLAMP and OMOD are the op's, so the
// routing of an instruction does not depend on them. -0.5 stays 0xbf000000 with NEG[0] set.
TEST(Resolve, ModifiersAreNotTheResolversJob) {
  const TargetTraits& t = **FindTarget("gfx1201");
  Vop3Instr plain;
  plain.instr = Instr::v_cvt_sr_fp8_f32;
  plain.vdst = 9;
  plain.src = {241, V(6), 0};
  Vop3Instr mods = plain;
  mods.mods.neg = 0b111;
  mods.mods.abs = 0b111;
  mods.mods.opsel = 0b1111;
  mods.mods.clamp = true;
  mods.mods.omod = 3;
  absl::StatusOr<LaneRouting> a = ResolveOperands(t, plain, TestRegisters());
  absl::StatusOr<LaneRouting> b = ResolveOperands(t, mods, TestRegisters());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(a->uniform[0], 0xbf000000u);
  // The SR instruction reads two sources (its row): SRC2 = 0 (s0, not loaded) is not read.
  EXPECT_EQ(a->lane_field[2], -1);
}

TEST(Resolve, ResolveLanesPointsIntoTheRawLanesForVgprs) {
  const std::vector<uint16_t> codes = {V(6), 240, V(9)};
  absl::StatusOr<LaneRouting> r = ResolveOperands(Family::gfx11, codes, 3, {}, TestRegisters());
  ASSERT_TRUE(r.ok());
  RawLanes raw;
  LaneBatch uniform;
  const LaneView v = ResolveLanes(*r, raw.view(), &uniform);
  EXPECT_EQ(v.src0, raw.s1.data());  // no copy for a VGPR
  EXPECT_EQ(v.src2, raw.old.data());
  EXPECT_EQ(v.vdst_old, raw.old.data());
  ASSERT_EQ(v.size, 3u);
  EXPECT_EQ(v.src1[2], 0x3f000000u);
}

TEST(RegisterFile, LoadingAgainReplaces) {
  RegisterFile regs("x");
  regs.LoadSgpr(20, 1).LoadSgpr(20, 2).LoadVgpr(1, LaneWord::src0).LoadVgpr(1, LaneWord::src2);
  EXPECT_EQ(regs.Sgpr(20), 2u);
  EXPECT_EQ(regs.Vgpr(1), LaneWord::src2);
  EXPECT_EQ(regs.Vgpr(2), std::nullopt);
  EXPECT_EQ(regs.Describe(), "v1 (src2), s20");
}

}  // namespace
}  // namespace lanediff
