// A test case resolved under the harness kernels' register layout (resolve_case.h). Expected
// words are the seed pages' / LLVM's (docs/semantics.md §2); expected lane values follow from the
// register convention (register_convention.h: v1..v3 = src0..src2, v4 = vdst_old, s20..s22 =
// SGPR sources) and the inline-constant table.
#include "device_harness/resolve_case.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

proto::TestCase Parse(absl::string_view text) {
  absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(text, "test");
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

TEST(ResolveCase, StructuredDefaultsFollowTheConvention) {
  proto::TestCase tc = Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { src2 { kind: SOURCE_SGPR value: 0x11223344 } }
    lanes { src0: 0x3f800000 src1: 2 src2: 9 vdst_old: 7 }
    lanes { src0: 0x40000000 src1: 3 src2: 9 vdst_old: 8 }
  )pb");
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  // v_cvt_pk_u8_f32 v4, v1, v2, s22 on GFX9: dword0 = 0xd1dd0004; dword1 = 0x101 | 0x102 << 9
  // | 22 << 18 = 0x101 + 0x20400 + 0x580000 = 0x005a0501.
  EXPECT_THAT(*EncodeVop3(*rc->target, rc->vop3), ElementsAre(0xd1dd0004u, 0x005a0501u));
  EXPECT_EQ(PrintVop3(*rc->target, rc->vop3), "v_cvt_pk_u8_f32 v4, v1, v2, s22");
  EXPECT_EQ(rc->ctx.mode, 0xf0u);
  EXPECT_EQ(rc->ctx.instr, Instr::v_cvt_pk_u8_f32);
  EXPECT_THAT(rc->lanes.src0(), ElementsAre(0x3f800000u, 0x40000000u));
  EXPECT_THAT(rc->lanes.src1(), ElementsAre(2u, 3u));
  EXPECT_THAT(rc->lanes.src2(), ElementsAre(0x11223344u, 0x11223344u));
  EXPECT_THAT(rc->lanes.vdst_old(), ElementsAre(7u, 8u));
}

TEST(ResolveCase, InlineLiteralAndModifiers) {
  proto::TestCase tc = Parse(R"pb(
    target: "gfx1200" instr: v_cvt_sr_fp8_f32 mode: 0x3
    encoding {
      opsel: 8 neg: 1 abs: 1
      src0 { kind: SOURCE_LITERAL value: 0x3f800000 }
      src1 { kind: SOURCE_INLINE code: 193 }
    }
    lanes { src0: 1 src1: 2 src2: 3 vdst_old: 0xaabbccdd }
  )pb");
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(rc->ctx.mode, 3u);
  EXPECT_EQ(rc->ctx.mods.opsel, 8);
  EXPECT_EQ(PrintVop3(*rc->target, rc->vop3),
            "v_cvt_sr_fp8_f32 v4, neg(abs(lit(0x3f800000))), -1 byte_sel:2");
  EXPECT_THAT(rc->lanes.src0(), ElementsAre(0x3f800000u));  // the literal, not the lane
  EXPECT_THAT(rc->lanes.src1(), ElementsAre(0xffffffffu));  // inline -1
  EXPECT_THAT(rc->lanes.vdst_old(), ElementsAre(0xaabbccddu));
}

TEST(ResolveCase, RawWordsResolveThroughTheConvention) {
  // v_cvt_pk_u8_f32 v4, v2, v1, s20 on gfx1100 with NEG[1] (LLVM refuses it; we run it):
  // dword0 = 0xd6260004, dword1 = 0x102 | 0x101 << 9 | 20 << 18 | 2 << 29 = 0x40520302.
  proto::TestCase tc = Parse(R"pb(
    target: "gfx1100" instr: v_cvt_pk_u8_f32
    encoding { raw_words: 0xd6260004 raw_words: 0x40520302 src0 { value: 0x55 } }
    lanes { src0: 10 src1: 11 src2: 12 vdst_old: 13 }
  )pb");
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(rc->ctx.mods.neg, 2);
  EXPECT_THAT(rc->lanes.src0(), ElementsAre(11u));
  EXPECT_THAT(rc->lanes.src1(), ElementsAre(10u));
  EXPECT_THAT(rc->lanes.src2(), ElementsAre(0x55u));  // s20 holds encoding.src0.value
}

// The encoding's own errors are model/isa/testcase_test.cc's; here the layout's and the
// target's, each naming the field.
TEST(ResolveCase, ErrorsNameTheField) {
  auto err = [](absl::string_view text) {
    return std::string(ResolveTestCase(Parse(text)).status().message());
  };
  // A raw word reading v7, which the harness does not load.
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                      encoding { raw_words: 0xd6260004 raw_words: 0x040e0507 })pb"),
              HasSubstr("encoding.raw_words: src0 (operand code 263) reads v7, which is not "
                        "loaded by the harness kernels"));
  // A structured SGPR source naming a register the kernels do not load.
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                      encoding { src1 { kind: SOURCE_SGPR code: 5 value: 1 } })pb"),
              HasSubstr("encoding.src1 names s5, which the harness kernels do not load"));
  // Two SGPR sources naming s21 with different values.
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                      encoding { src0 { kind: SOURCE_SGPR code: 21 value: 1 }
                                 src1 { kind: SOURCE_SGPR code: 21 value: 2 } })pb"),
              HasSubstr("encoding.src1 reads s21 with value 0x00000002, but encoding.src0 "
                        "gives it 0x00000001"));
  // The encoding's errors pass through, named.
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32 encoding { opsel: 17 })pb"),
              HasSubstr("encoding.opsel 17 exceeds 4 bits"));
  EXPECT_THAT(err(R"pb(target: "gfx9999" instr: v_cvt_pk_u8_f32)pb"), HasSubstr("target"));
}

// Two SGPRs on GFX9 (constant bus 1) and three on GFX10+ (constant bus 2) break a documented
// restriction, but every source still has a value: the model resolves them (whether such a
// word may run is the harness's decision, device_harness/batch.h, --allow-undefined).
TEST(ResolveCase, ConstantBusViolatorsResolveSgprsThroughTheConvention) {
  proto::TestCase gfx9 = Parse(R"pb(
    target: "gfx90a" instr: v_cvt_pk_u8_f32
    encoding { src0 { kind: SOURCE_SGPR value: 0x40000000 } src1 { kind: SOURCE_SGPR value: 1 } }
    lanes { src0: 7 src1: 7 src2: 9 vdst_old: 0 }
  )pb");
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(gfx9);
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(PrintVop3(*rc->target, rc->vop3), "v_cvt_pk_u8_f32 v4, s20, s21, v3");
  EXPECT_THAT(SpecViolations(*rc->target, rc->vop3),
              ElementsAre("constant bus: 2 distinct SGPR/literal reads, GFX9 allows 1"));
  EXPECT_THAT(rc->lanes.src0(), ElementsAre(0x40000000u));  // s20 = src0.value
  EXPECT_THAT(rc->lanes.src1(), ElementsAre(1u));           // s21 = src1.value
  EXPECT_THAT(rc->lanes.src2(), ElementsAre(9u));           // v3 = lane src2
  proto::TestCase gfx11 = Parse(R"pb(
    target: "gfx1100" instr: v_cvt_pk_u8_f32
    encoding { src0 { kind: SOURCE_SGPR value: 1 } src1 { kind: SOURCE_SGPR value: 2 }
               src2 { kind: SOURCE_SGPR value: 3 } }
    lanes { }
  )pb");
  rc = ResolveTestCase(gfx11);
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_THAT(SpecViolations(*rc->target, rc->vop3),
              ElementsAre("constant bus: 3 distinct SGPR/literal reads, GFX11 allows 2"));
  EXPECT_THAT(rc->lanes.src2(), ElementsAre(3u));
}

// The kernels load s20+k from sgpr_values[k]; a structured SGPR source naming s21 puts its
// value there, whatever slot it is (the model and the device read the same s21).
TEST(ResolveCase, AnSgprSourceNamingAnotherSlotLoadsThatSlot) {
  proto::TestCase tc = Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { src0 { kind: SOURCE_SGPR code: 21 value: 0x40400000 } src1 { value: 9 } }
    lanes { src0: 1 src1: 2 src2: 3 vdst_old: 4 }
  )pb");
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(PrintVop3(*rc->target, rc->vop3), "v_cvt_pk_u8_f32 v4, s21, v2, v3");
  // s20 = src0.value (slot 0, unread), s21 = the SGPR source's value, s22 = src2.value (0).
  EXPECT_THAT(rc->sgpr_values, ElementsAre(0x40400000u, 0x40400000u, 0u));
  EXPECT_THAT(rc->lanes.src0(), ElementsAre(0x40400000u));
  EXPECT_THAT(rc->lanes.src1(), ElementsAre(2u));
  // The words are the ones encoded once: v_cvt_pk_u8_f32 v4, s21, v2, v3 on GFX9:
  // dword1 = 21 | 0x102 << 9 | 0x103 << 18 = 0x15 + 0x20400 + 0x40c0000 = 0x040e0415.
  EXPECT_THAT(rc->words, ElementsAre(0xd1dd0004u, 0x040e0415u));
  EXPECT_EQ(rc->routing.lane_field[0], -1);
  EXPECT_EQ(rc->routing.uniform[0], 0x40400000u);
  EXPECT_EQ(rc->routing.lane_field[1], 1);
}

}  // namespace
}  // namespace lanediff
