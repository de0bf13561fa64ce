#include "device_harness/batch.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

proto::TestCase Parse(const std::string& text) {
  absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(text, "test");
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

// Hand-encoded from docs/semantics.md §2 (GFX9: VDST[7:0] OP[25:16] ENC[31:26]=110100; dword1
// SRC0[8:0] SRC1[17:9] SRC2[26:18]); v1 = 257 = 0x101, v2 = 0x102, v3 = 0x103.
//   v_cvt_sr_fp8_f32 v4, v1, v2 (gfx942, opcode 676 = 0x2a4):
//     dword0 = 0xd0000000 | 0x2a4 << 16 | 4 = 0xd2a40004; dword1 = 0x101 | 0x102 << 9 = 0x00020501
//   (the seed page's v1, v2, v3 form is 01 00 a4 d2 02 07 02 00: same fields, other registers).
TEST(BuildDeviceBatchTest, EncodesWithTheHarnessRegisters) {
  auto b = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_sr_fp8_f32
    lanes { src0: 0x3fffffff src1: 0xfffff000 vdst_old: 0x11223344 }
    lanes { src0: 0x3f800000 }
  )pb"));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->words, (std::vector<uint32_t>{0xd2a40004, 0x00020501}));
  EXPECT_EQ(b->instr, Instr::v_cvt_sr_fp8_f32);
  EXPECT_EQ(b->mode, kDefaultMode);
  ASSERT_EQ(b->lanes.size(), 2u);
  EXPECT_EQ(b->lanes.src1()[0], 0xfffff000u);
  EXPECT_EQ(b->lanes.vdst_old()[0], 0x11223344u);
}

// A lane's sources take as many dwords as the row's LaneShape says: one for every row so far,
// so a lane written before the wide rows (no srcN_more) loads as it did, its batch's lanes
// are of the row's shape, and a lane giving a one-dword source more dwords is refused,
// naming the field.
TEST(BuildDeviceBatchTest, LanesHoldTheRowsDwordsPerSource) {
  auto b = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    lanes { src0: 0x3f800000 src1: 1 src2: 0x11223344 vdst_old: 7 }
  )pb"));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(b->lanes.shape() == GetInstrInfo(Instr::v_cvt_pk_u8_f32).lane_shape());
  EXPECT_TRUE(b->lanes.shape().narrow_sources());
  EXPECT_EQ(b->lanes.src2(), std::vector<uint32_t>{0x11223344u});
  auto wide = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    lanes { src0: 0x3f800000 }
    lanes { src0: 0x3f800000 src0_more: 5 src0_more: 6 }
  )pb"));
  ASSERT_FALSE(wide.ok());
  EXPECT_EQ(wide.status().message(),
            "lanes[1]: src0_more holds 2 dwords but v_cvt_pk_u8_f32's src0 is 1 dwords (its row's LaneShape): want 0");
  // The pair writer's shape: one dword per source, two VDST words (its row's dst_bits 64).
  auto pair = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_f32_fp8 lanes { src0: 0x3c3c }
  )pb"));
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(pair->lanes.shape().dst_words, 2);
}

// v_cvt_pk_u8_f32 v4, v1, s21, v3 on gfx942 (opcode 477 = 0x1dd): dword0 0xd1dd0004,
// dword1 = 0x101 | 21 << 9 | 0x103 << 18 = 0x040c2b01 (and with v2: 0x040e0501). The SGPR's value rides in sgpr_values.
TEST(BuildDeviceBatchTest, SgprSourceValueAndMode) {
  auto b = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32 mode: 0x00000003
    encoding { src1 { kind: SOURCE_SGPR code: 21 value: 0x00000002 } }
    lanes { src0: 0x43018000 }
  )pb"));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->words, (std::vector<uint32_t>{0xd1dd0004, 0x040c2b01}));
  EXPECT_EQ(b->sgpr_values[1], 2u);
  EXPECT_EQ(b->mode, 3u);
  auto d = DecodeDeviceBatch(*b, b->words);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->resolved.src1()[0], 2u);  // every lane reads the SGPR's value
}

TEST(BuildDeviceBatchTest, RawWordsVerbatimAndConventionChecked) {
  auto ok = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { raw_words: 0xd1dd0004 raw_words: 0x040e0501 }
    lanes { src0: 0x3f800000 }
  )pb"));
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->words, (std::vector<uint32_t>{0xd1dd0004, 0x040e0501}));

  // VDST v5 (dword0 low byte 5): the kernel reads the result from v4.
  auto vdst5 = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { raw_words: 0xd1dd0005 raw_words: 0x040e0501 }
    lanes { src0: 0x3f800000 }
  )pb"));
  ASSERT_FALSE(vdst5.ok());
  EXPECT_TRUE(absl::StrContains(vdst5.status().message(), "VDST is v5")) << vdst5.status();

  // src2 = s3 (code 3): the harness loads s20..s22 only (the seed page's example word).
  auto s3 = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { raw_words: 0xd1dd0004 raw_words: 0x000e0501 }
    lanes { src0: 0x3f800000 }
  )pb"));
  ASSERT_FALSE(s3.ok());
  EXPECT_TRUE(absl::StrContains(s3.status().message(), "src2 (operand code 3) reads s3"))
      << s3.status();
  EXPECT_TRUE(absl::StrContains(s3.status().message(), "encoding.raw_words")) << s3.status();

  // v7 as src0 (code 263 = 0x107).
  auto v7 = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { raw_words: 0xd1dd0004 raw_words: 0x040e0507 }
    lanes { src0: 0x3f800000 }
  )pb"));
  ASSERT_FALSE(v7.ok());
  EXPECT_TRUE(absl::StrContains(v7.status().message(), "reads v7")) << v7.status();
}

TEST(BuildDeviceBatchTest, Validation) {
  auto no_target = BuildDeviceBatch(Parse(R"pb(target: "gfx999" instr: v_cvt_pk_u8_f32 lanes {})pb"));
  EXPECT_TRUE(absl::StrContains(no_target.status().message(), "unknown target 'gfx999'"));
  auto not_on_target =
      BuildDeviceBatch(Parse(R"pb(target: "gfx1100" instr: v_cvt_sr_fp8_f32 lanes {})pb"));
  EXPECT_FALSE(not_on_target.ok());
  EXPECT_TRUE(absl::StrContains(not_on_target.status().message(), "gfx1100"))
      << not_on_target.status();
  auto no_lanes = BuildDeviceBatch(Parse(R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32)pb"));
  EXPECT_TRUE(absl::StrContains(no_lanes.status().message(), "no lanes"));
  proto::TestCase big = Parse(R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32)pb");
  for (size_t i = 0; i <= kMaxLanesPerBatch; ++i) big.add_lanes();
  auto too_many = BuildDeviceBatch(big);
  EXPECT_TRUE(absl::StrContains(too_many.status().message(), "1048577 lanes; the limit is 1048576"))
      << too_many.status();
}

TEST(DescribeBatchTest, NamesTargetAssemblyWordsModeAndLanes) {
  auto b = BuildDeviceBatch(Parse(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32 lanes {} lanes {} lanes {}
  )pb"));
  ASSERT_TRUE(b.ok());
  const std::string text = DescribeBatch(*b);
  EXPECT_TRUE(absl::StrContains(text, "gfx942 v_cvt_pk_u8_f32 v4, v1, v2, v3")) << text;
  EXPECT_TRUE(absl::StrContains(text, "[0xd1dd0004 0x040e0501]")) << text;
  EXPECT_TRUE(absl::StrContains(text, "MODE 0x000000f0, 3 lanes")) << text;
}

// Words that break a documented restriction, one per family (model/isa/tables.cc: constant bus
// 1 on GFX9 VOP3, 2 on GFX10+; GFX9 VOP3 takes no literal): refused before any device sees
// them unless allow_undefined, which builds the batch and marks it so (the runners check the
// mark again). gfx942 v_cvt_pk_u8_f32 v4, s20, s21, v3: dword1 = 20 | 21 << 9 | 0x103 << 18
// = 0x040c2a14.
TEST(BuildDeviceBatchTest, UndefinedBySpecIsRefusedUnlessAllowedPerFamily) {
  struct Case {
    const char* text;
    const char* reason;
  };
  const Case cases[] = {
      {R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
            encoding { src0 { kind: SOURCE_SGPR value: 0x40000000 } src1 { kind: SOURCE_SGPR value: 1 } }
            lanes { src2: 0x11223344 })pb",
       "undefined by spec on gfx942: constant bus: 2 distinct SGPR/literal reads, GFX9 allows 1"},
      {R"pb(target: "gfx90a" instr: v_cvt_pk_u8_f32
            encoding { src0 { kind: SOURCE_SGPR value: 1 } src2 { kind: SOURCE_SGPR value: 2 } }
            lanes { })pb",
       "undefined by spec on gfx90a: constant bus: 2 distinct SGPR/literal reads, GFX9 allows 1"},
      {R"pb(target: "gfx1030" instr: v_cvt_pk_u8_f32
            encoding { src0 { kind: SOURCE_SGPR value: 1 } src1 { kind: SOURCE_SGPR value: 2 }
                       src2 { kind: SOURCE_SGPR value: 3 } }
            lanes { })pb",
       "undefined by spec on gfx1030: constant bus: 3 distinct SGPR/literal reads, GFX10 allows 2"},
      {R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
            encoding { src0 { kind: SOURCE_SGPR value: 1 } src1 { kind: SOURCE_SGPR value: 2 }
                       src2 { kind: SOURCE_SGPR value: 3 } }
            lanes { })pb",
       "undefined by spec on gfx1100: constant bus: 3 distinct SGPR/literal reads, GFX11 allows 2"},
      {R"pb(target: "gfx1201" instr: v_cvt_pk_u8_f32
            encoding { src0 { kind: SOURCE_LITERAL value: 0x40000000 } src1 { kind: SOURCE_SGPR value: 2 }
                       src2 { kind: SOURCE_SGPR value: 3 } }
            lanes { })pb",
       "undefined by spec on gfx1201: constant bus: 3 distinct SGPR/literal reads, GFX12 allows 2"},
      {R"pb(target: "gfx1250" instr: v_cvt_sr_fp8_f32
            encoding { src0 { kind: SOURCE_LITERAL value: 0x40000000 } src1 { kind: SOURCE_SGPR value: 2 }
                       src2 { kind: SOURCE_SGPR value: 3 } }
            lanes { })pb",
       // The SR instructions read two sources: SRC2 = s22 is no read (SpecViolations counts
       // the sources read), so this word is defined.
       nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const proto::TestCase tc = Parse(c.text);
    auto refused = BuildDeviceBatch(tc);
    auto allowed = BuildDeviceBatch(tc, /*allow_undefined=*/true);
    ASSERT_TRUE(allowed.ok()) << allowed.status();
    EXPECT_TRUE(allowed->allow_undefined);
    if (c.reason == nullptr) {
      EXPECT_TRUE(refused.ok()) << refused.status();
      continue;
    }
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(refused.status().message(), c.reason)) << refused.status();
    EXPECT_TRUE(absl::StrContains(refused.status().message(), "--allow-undefined runs it"));
    // A software device decodes the allowed batch only when the batch carries the mark.
    EXPECT_TRUE(DecodeDeviceBatch(*allowed, allowed->words).ok());
    DeviceBatch unmarked = *allowed;
    unmarked.allow_undefined = false;
    auto d = DecodeDeviceBatch(unmarked, unmarked.words);
    ASSERT_FALSE(d.ok());
    EXPECT_TRUE(absl::StrContains(d.status().message(), c.reason)) << d.status();
  }
  auto gfx942 = BuildDeviceBatch(Parse(cases[0].text), true);
  ASSERT_TRUE(gfx942.ok());
  EXPECT_EQ(gfx942->words, (std::vector<uint32_t>{0xd1dd0004, 0x040c2a14}));
  EXPECT_EQ(gfx942->sgpr_values[0], 0x40000000u);
  EXPECT_EQ(gfx942->sgpr_values[1], 1u);
  // GFX9 literal (SRC1 = 255 in an 8-byte word: 0x101 | 255 << 9 | 0x103 << 18): no operand
  // value exists for the model or a software device, so it is refused even when allowed;
  // only the HIP runner runs such a word, given a DeviceBatch marked allow_undefined
  // (hip_runner_test RefusesALiteralCodeOnGfx9UnlessAllowed).
  const proto::TestCase lit = Parse(R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
      encoding { raw_words: 0xd1dd0004 raw_words: 0x040dff01 } lanes { })pb");
  for (bool allow : {false, true}) {
    auto b = BuildDeviceBatch(lit, allow);
    ASSERT_FALSE(b.ok());
    EXPECT_TRUE(absl::StrContains(b.status().message(), "code 255 (literal) is not allowed in VOP3 on GFX9"))
        << b.status();
  }
}

}  // namespace
}  // namespace lanediff
