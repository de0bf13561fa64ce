// Test-case translation: the proto mapping and Vop3FromTestCase. Expected words are the seed
// pages' / LLVM's (docs/semantics.md §2). The default registers are the test's own: the model has
// no register layout (the harness's is device_harness/register_convention.h, where the
// per-lane resolution of a test case is tested: device_harness/resolve_case_test.cc).
#include "model/isa/testcase.h"

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

// v4 = VDST, v1..v3 and s20..s22 for the sources (the layout whose words the seed pages show).
constexpr DefaultRegisters kSeedLayout{4, {1, 2, 3}, {20, 21, 22}};

absl::StatusOr<Vop3Instr> FromText(absl::string_view text,
                                   const DefaultRegisters& d = kSeedLayout,
                                   std::vector<uint32_t>* words = nullptr) {
  proto::TestCase tc = Parse(text);
  absl::StatusOr<const TargetTraits*> t = FindTarget(tc.target());
  if (!t.ok()) return t.status();
  return Vop3FromTestCase(**t, tc, d, words);
}

TEST(TestCase, StructuredSourcesUseTheCallersDefaults) {
  const TargetTraits& gfx942 = **FindTarget("gfx942");
  std::vector<uint32_t> words;
  absl::StatusOr<Vop3Instr> in = FromText(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { src2 { kind: SOURCE_SGPR value: 0x11223344 } }
  )pb", kSeedLayout, &words);
  ASSERT_TRUE(in.ok()) << in.status();
  // v_cvt_pk_u8_f32 v4, v1, v2, s22 on GFX9: dword0 = 0xd1dd0004; dword1 = 0x101 | 0x102 << 9
  // | 22 << 18 = 0x101 + 0x20400 + 0x580000 = 0x005a0501. Encoded once, handed back.
  EXPECT_THAT(words, ElementsAre(0xd1dd0004u, 0x005a0501u));
  EXPECT_EQ(PrintVop3(gfx942, *in), "v_cvt_pk_u8_f32 v4, v1, v2, s22");
  // Other defaults, other registers: nothing in the model picks v1..v4.
  in = FromText(R"pb(
    target: "gfx942" instr: v_cvt_pk_u8_f32
    encoding { src2 { kind: SOURCE_SGPR value: 0x11223344 } }
  )pb", DefaultRegisters{9, {5, 6, 7}, {30, 31, 32}});
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(PrintVop3(gfx942, *in), "v_cvt_pk_u8_f32 v9, v5, v6, s32");
}

TEST(TestCase, InlineLiteralAndModifiers) {
  absl::StatusOr<Vop3Instr> in = FromText(R"pb(
    target: "gfx1200" instr: v_cvt_sr_fp8_f32 mode: 0x3
    encoding {
      opsel: 8 neg: 1 abs: 1
      src0 { kind: SOURCE_LITERAL value: 0x3f800000 }
      src1 { kind: SOURCE_INLINE code: 193 }
    }
  )pb");
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->mods.opsel, 8);
  EXPECT_EQ(in->literal, 0x3f800000u);
  EXPECT_EQ(PrintVop3(**FindTarget("gfx1200"), *in),
            "v_cvt_sr_fp8_f32 v4, neg(abs(lit(0x3f800000))), -1 byte_sel:2");
}

TEST(TestCase, RawWordsAreDecoded) {
  // v_cvt_pk_u8_f32 v4, v2, v1, s20 on gfx1100 with NEG[1] (LLVM refuses it; we run it):
  // dword0 = 0xd6260004, dword1 = 0x102 | 0x101 << 9 | 20 << 18 | 2 << 29 = 0x40520302.
  std::vector<uint32_t> words;
  absl::StatusOr<Vop3Instr> in = FromText(R"pb(
    target: "gfx1100" instr: v_cvt_pk_u8_f32
    encoding { raw_words: 0xd6260004 raw_words: 0x40520302 src0 { value: 0x55 } }
  )pb", kSeedLayout, &words);
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->mods.neg, 2);
  EXPECT_THAT(in->src, ElementsAre(258, 257, 20));
  EXPECT_THAT(words, ElementsAre(0xd6260004u, 0x40520302u));
}

TEST(TestCase, ErrorsNameTheField) {
  auto err = [](absl::string_view text) { return std::string(FromText(text).status().message()); };
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                      encoding { src1 { kind: SOURCE_INLINE code: 300 } })pb"),
              HasSubstr("encoding.src1.code 300 is not an inline constant"));
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32 encoding { opsel: 17 })pb"),
              HasSubstr("encoding.opsel 17 exceeds 4 bits"));
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_sr_fp8_f32)pb"),
              HasSubstr("instruction v_cvt_sr_fp8_f32 does not exist on gfx1100"));
  EXPECT_THAT(err(R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
                      encoding { src0 { kind: SOURCE_LITERAL value: 5 } })pb"),
              HasSubstr("encoding.src0: a literal source is not possible on gfx942"));
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                      encoding { src0 { kind: SOURCE_LITERAL value: 5 }
                                 src1 { kind: SOURCE_LITERAL value: 6 } })pb"),
              HasSubstr("one literal dword"));
  EXPECT_THAT(err(R"pb(target: "gfx1100" instr: v_cvt_sr_fp8_f32
                      encoding { raw_words: 0xd6260004 raw_words: 0x040e0501 })pb"),
              HasSubstr("does not exist on gfx1100"));
  EXPECT_THAT(err(R"pb(target: "gfx1200" instr: v_cvt_sr_fp8_f32
                      encoding { raw_words: 0xd6260004 raw_words: 0x040e0501 })pb"),
              HasSubstr("raw_words encode v_cvt_pk_u8_f32, but instr is v_cvt_sr_fp8_f32"));
}

// FORM_SDWA's destination fields (v_prng_b32 on gfx950, vop3.h SdwaHasDstSel): absent, LLVM's
// defaults (dst_sel DWORD, dst_unused PRESERVE = 2, no sext), so a case written before the
// fields existed means what `v_prng_b32_sdwa v4, v1` means; set, as given; refused outside SDWA.
TEST(TestCase, SdwaDestinationFields) {
  absl::StatusOr<Vop3Instr> in = FromText(R"pb(
    target: "gfx950" instr: v_prng_b32 encoding { form: FORM_SDWA src0_sel: 1 }
  )pb");
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->mods.dst_sel, 6);
  EXPECT_EQ(in->mods.dst_unused, 2);
  EXPECT_FALSE(in->mods.src0_sext);
  EXPECT_EQ(*in, *ParseAsm(**FindTarget("gfx950"), "v_prng_b32_sdwa v4, v1 src0_sel:BYTE_1"));
  in = FromText(R"pb(
    target: "gfx950" instr: v_prng_b32
    encoding { form: FORM_SDWA dst_sel: 5 dst_unused: 1 src0_sext: true clamp: true }
  )pb");
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(PrintVop3(**FindTarget("gfx950"), *in),
            "v_prng_b32_sdwa v4, sext(v1) clamp dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:DWORD");
  // The fp8 decodes' SDWA form: dst_unused absent is 0, as LLVM encodes it there.
  in = FromText(R"pb(target: "gfx942" instr: v_cvt_f32_fp8 encoding { form: FORM_SDWA })pb");
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->mods.dst_unused, 0);
  EXPECT_THAT(std::string(FromText(R"pb(target: "gfx950" instr: v_prng_b32
                                        encoding { form: FORM_E32 dst_sel: 1 })pb").status().message()),
              HasSubstr("only with FORM_SDWA"));
}

TEST(TestCase, ProtoMappingRoundTrips) {
  for (Instr i : kAllInstrs) {
    absl::StatusOr<Instr> back = InstrFromProto(InstrToProto(i));
    ASSERT_TRUE(back.ok()) << InstrName(i);
    EXPECT_EQ(*back, i);
  }
  EXPECT_FALSE(InstrFromProto(proto::INSTRUCTION_UNSPECIFIED).ok());
}

// The enum's numbers may leave gaps (testcase.cc), but every value it has names a row, and the
// row's number is the value's.
TEST(TestCase, EveryProtoInstructionHasARow) {
  const google::protobuf::EnumDescriptor* d = proto::Instruction_descriptor();
  int values = 0;
  for (int k = 0; k < d->value_count(); ++k) {
    const int n = d->value(k)->number();
    if (n == proto::INSTRUCTION_UNSPECIFIED) continue;
    ++values;
    absl::StatusOr<Instr> i = InstrFromProto(static_cast<proto::Instruction>(n));
    ASSERT_TRUE(i.ok()) << d->value(k)->name() << " = " << n << " has no row";
    EXPECT_EQ(InstrName(*i), d->value(k)->name());
  }
  EXPECT_EQ(values, kNumInstrs);
}

}  // namespace
}  // namespace lanediff
