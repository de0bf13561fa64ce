#include "model/targets/targets.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;

// Expected opcodes: docs/semantics.md §1 table (C: LLVM 22 llvm-mc).
TEST(Targets, OpcodesPerGeneration) {
  struct Row { const char* name; int pk; int fp8; int bf8; };
  const Row rows[] = {
      {"gfx908", 477, -1, -1},  {"gfx90a", 477, -1, -1},  {"gfx942", 477, 676, 677},
      {"gfx950", 477, 676, 677}, {"gfx1010", 350, -1, -1}, {"gfx1030", 350, -1, -1},
      {"gfx1100", 550, -1, -1}, {"gfx1150", 550, -1, -1}, {"gfx1200", 550, 875, 876},
      {"gfx1201", 550, 875, 876}, {"gfx1250", 550, 875, 876}, {"gfx1251", 550, 875, 876},
  };
  ASSERT_EQ(AllTargets().size(), std::size(rows));
  for (const Row& r : rows) {
    auto t = FindTarget(r.name);
    ASSERT_TRUE(t.ok()) << r.name;
    EXPECT_EQ((*t)->Opcode(Instr::v_cvt_pk_u8_f32), r.pk) << r.name;
    EXPECT_EQ((*t)->Opcode(Instr::v_cvt_sr_fp8_f32), r.fp8) << r.name;
    EXPECT_EQ((*t)->Opcode(Instr::v_cvt_sr_bf8_f32), r.bf8) << r.name;
  }
}

// docs/semantics.md §3 and §6: pk_u8 writes byte S1[1:0] and takes the others from S2; the SR
// instructions write byte OPSEL[3:2], keep the old VDST's other bytes and read no SRC2.
TEST(Targets, InstrInfoRowsFollowTheSpec) {
  for (Instr i : kAllInstrs) EXPECT_EQ(GetInstrInfo(i).instr, i) << InstrName(i);
  const InstrInfo& pk = GetInstrInfo(Instr::v_cvt_pk_u8_f32);
  EXPECT_EQ(pk.sources(), 3);
  EXPECT_EQ(pk.write, DstWrite::byte_at_src1);
  EXPECT_EQ(pk.kept, KeptFrom::src2);
  EXPECT_FALSE(pk.writes_float());
  for (Instr sr : {Instr::v_cvt_sr_fp8_f32, Instr::v_cvt_sr_bf8_f32}) {
    EXPECT_EQ(GetInstrInfo(sr).sources(), 2);
    EXPECT_EQ(GetInstrInfo(sr).write, DstWrite::byte_at_opsel_3_2);
    EXPECT_EQ(GetInstrInfo(sr).kept, KeptFrom::vdst_old);
    EXPECT_EQ(GetInstrInfo(sr).src[1], SrcRole::sr_seed);
    EXPECT_TRUE(GetInstrInfo(sr).writes_float());
  }
  // pk_u8: byte S1[1:0] = 2 whatever OPSEL says; SR: byte OPSEL[3:2] = 2 whatever S1 says.
  EXPECT_EQ(WrittenMask(Instr::v_cvt_pk_u8_f32, /*opsel=*/0b1100, /*src1=*/0xfffffff6), 0x00ff0000u);
  EXPECT_EQ(WrittenMask(Instr::v_cvt_sr_bf8_f32, /*opsel=*/0b1011, /*src1=*/0xfffffff6), 0x00ff0000u);
}

TEST(Targets, FormatsFollowHipHeaders) {
  EXPECT_EQ((*FindTarget("gfx942"))->fp8, Fp8FormatId::e4m3_fnuz);
  EXPECT_EQ((*FindTarget("gfx942"))->bf8, Fp8FormatId::e5m2_fnuz);
  EXPECT_EQ((*FindTarget("gfx950"))->fp8, Fp8FormatId::e4m3_ocp);
  EXPECT_EQ((*FindTarget("gfx1201"))->bf8, Fp8FormatId::e5m2_ocp);
  EXPECT_TRUE((*FindTarget("gfx1250"))->clamp_selects_ue5m3);
  EXPECT_FALSE((*FindTarget("gfx1201"))->clamp_selects_ue5m3);
}

TEST(Targets, UnknownNamesListChoices) {
  auto t = FindTarget("gfx940");  // not a processor in LLVM 22
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("gfx942"));
  auto i = ParseInstr("v_cvt_pk_u8");
  ASSERT_FALSE(i.ok());
  EXPECT_THAT(std::string(i.status().message()), HasSubstr("v_cvt_pk_u8_f32"));
}

TEST(Hypotheses, DefaultsAreFirstValues) {
  Hypotheses h;
  for (const HypothesisInfo& info : AllHypotheses()) EXPECT_EQ(info.get(h), 0) << info.name;
  EXPECT_TRUE(NonDefaultHypothesisSettings(h).empty());
}

TEST(Hypotheses, SetAndReport) {
  Hypotheses h;
  ASSERT_TRUE(SetHypothesis("sr_rounding=literal", &h).ok());
  EXPECT_EQ(h.sr_rounding, SrRounding::literal);
  EXPECT_THAT(NonDefaultHypothesisSettings(h), ::testing::ElementsAre("sr_rounding=literal"));
  auto bad_value = SetHypothesis("sr_rounding=rne", &h);
  EXPECT_THAT(std::string(bad_value.message()), HasSubstr("carry_truncate, literal"));
  auto bad_name = SetHypothesis("nope=1", &h);
  EXPECT_THAT(std::string(bad_name.message()), HasSubstr("pk_u8_rounding"));
  EXPECT_FALSE(SetHypothesis("sr_rounding", &h).ok());
}

// Every value carries its provenance, and every rule says why its default holds on every
// target, so `lanediff targets --hypotheses` never prints an empty field.
TEST(Hypotheses, EveryValueHasProvenanceAndEveryTargetADefaultReason) {
  for (const HypothesisInfo& info : AllHypotheses()) {
    EXPECT_EQ(FindHypothesis(info.name), &info);
    ASSERT_GE(info.values.size(), 2u) << info.name;
    for (size_t v = 0; v < info.values.size(); ++v) {
      const HypothesisValue& hv = info.values[v];
      EXPECT_FALSE(hv.computes.empty()) << info.name << "=" << hv.name;
      EXPECT_FALSE(hv.source.empty()) << info.name << "=" << hv.name;
      EXPECT_FALSE(hv.targets.empty()) << info.name << "=" << hv.name;
      EXPECT_THAT(std::string(hv.lane), HasSubstr("0x")) << info.name << "=" << hv.name;
      // A non-default value's lane says what the default gives there.
      if (v > 0) {
        EXPECT_THAT(std::string(hv.lane), HasSubstr("(default 0x")) << hv.name;
      }
    }
    for (const TargetTraits& t : AllTargets()) {
      EXPECT_FALSE(DefaultReason(info, t.name).empty()) << info.name << " on " << t.name;
    }
  }
  const std::string text = DescribeHypotheses(false);
  EXPECT_THAT(text, HasSubstr("exact_subnormal"));
  EXPECT_THAT(text, HasSubstr("data_types.h"));
  EXPECT_THAT(text, HasSubstr("amd_hip_fp8.h"));
  EXPECT_THAT(text, HasSubstr("tinygrad"));
  // The JSON form: one array, brackets and braces balanced outside strings, every rule there.
  const std::string json = DescribeHypotheses(true);
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json.front(), '[');
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    EXPECT_GE(depth, 0) << i;
  }
  EXPECT_EQ(depth, 0);
  EXPECT_FALSE(in_string);
  for (const HypothesisInfo& info : AllHypotheses()) {
    EXPECT_THAT(json, HasSubstr(absl::StrCat("\"rule\":\"", info.name, "\"")));
  }
}

}  // namespace
}  // namespace lanediff
