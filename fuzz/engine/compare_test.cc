#include "fuzz/engine/compare.h"

#include <utility>

#include "gtest/gtest.h"

namespace lanediff {
namespace {

OpContext Ctx(const char* target, Instr instr) {
  OpContext ctx;
  ctx.target = *FindTarget(target);
  ctx.instr = instr;
  return ctx;
}

TEST(Compare, StrictByDefaultEveryBitCounts) {
  OpContext ctx = Ctx("gfx1201", Instr::v_cvt_sr_fp8_f32);
  Relaxations strict;
  EXPECT_TRUE(LaneAgrees(ctx, 0, 0x12345678, 0x12345678, strict));
  EXPECT_FALSE(LaneAgrees(ctx, 0, 0x000000ff, 0x0000007f, strict));  // two NaNs, payload differs
  EXPECT_FALSE(LaneAgrees(ctx, 0, 0x100000ff, 0x000000ff, strict));  // preserved byte differs
  EXPECT_FALSE(LaneAgrees(ctx, 0, 0x00000000, 0x80000000, strict));  // top bit alone
  EXPECT_EQ(DescribeRelaxations(strict), "strict (every bit of every lane)");
}

TEST(Compare, NanPayloadOnlyEqualsNaNsOfTheOutputFormat) {
  Relaxations r = *ParseRelaxations({"nan_payload"});
  // OCP E4M3 (gfx1201 fp8): NaN is S.1111.111 -> 0x7f, 0xff. 0x7e is 448, not a NaN.
  OpContext fp8 = Ctx("gfx1201", Instr::v_cvt_sr_fp8_f32);
  EXPECT_TRUE(LaneAgrees(fp8, 0, 0xff, 0x7f, r));
  EXPECT_FALSE(LaneAgrees(fp8, 0, 0xff, 0x7e, r));
  // OCP E5M2 (bf8): S.11111.00 is Inf (0x7c), 01/10/11 are NaN.
  OpContext bf8 = Ctx("gfx1201", Instr::v_cvt_sr_bf8_f32);
  EXPECT_TRUE(LaneAgrees(bf8, 0, 0xfe, 0x7d, r));
  EXPECT_FALSE(LaneAgrees(bf8, 0, 0xfe, 0x7c, r));
  // FNUZ (gfx942): 0x80 is the only NaN.
  OpContext fnuz = Ctx("gfx942", Instr::v_cvt_sr_fp8_f32);
  EXPECT_FALSE(LaneAgrees(fnuz, 0, 0x80, 0xff, r));
  // Byte 2 (OPSEL[3:2] = 2) is the written one; bytes elsewhere must still match.
  fp8.mods.opsel = 0b1000;
  EXPECT_TRUE(LaneAgrees(fp8, 0, 0x11ff2233, 0x117f2233, r));
  EXPECT_FALSE(LaneAgrees(fp8, 0, 0x11ff2233, 0x127f2233, r));
  // pk_u8 writes an integer: no NaN there.
  OpContext pk = Ctx("gfx942", Instr::v_cvt_pk_u8_f32);
  EXPECT_FALSE(LaneAgrees(pk, 0, 0xff, 0x7f, r));
  EXPECT_EQ(DescribeRelaxations(r), "relaxed: nan_payload");
}

TEST(Compare, UnwrittenBytesIgnoresOnlyTheOtherBytes) {
  Relaxations r = *ParseRelaxations({"unwritten_bytes"});
  OpContext pk = Ctx("gfx942", Instr::v_cvt_pk_u8_f32);
  // S1[1:0] = 1: byte 1 is written.
  EXPECT_TRUE(LaneAgrees(pk, 1, 0xaaaa82bb, 0x00008200, r));
  EXPECT_FALSE(LaneAgrees(pk, 1, 0x00008200, 0x00008300, r));
  EXPECT_FALSE(LaneAgrees(pk, 0, 0xaaaa82bb, 0x00008200, r));  // byte 0 written, differs
}

TEST(Compare, ParsesListsAndRejectsUnknownNames) {
  auto r = ParseRelaxations({"nan_payload,unwritten_bytes"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(RelaxationNames(*r), (std::vector<std::string>{"nan_payload", "unwritten_bytes"}));
  auto bad = ParseRelaxations({"nan"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("nan_payload"), std::string::npos);
}

TEST(Compare, DifferingLanesListsEachBadLaneAndLengthMismatch) {
  OpContext pk = Ctx("gfx942", Instr::v_cvt_pk_u8_f32);
  std::vector<uint32_t> s1 = {0, 0, 0};
  LaneView v{nullptr, s1.data(), nullptr, nullptr, 3};
  std::vector<uint32_t> e = {1, 2, 3}, o = {1, 5, 3};
  EXPECT_EQ(DifferingLanes(pk, v, e, o, {}), (std::vector<size_t>{1}));
  std::vector<uint32_t> shorter = {1, 2};
  EXPECT_EQ(DifferingLanes(pk, v, e, shorter, {}), (std::vector<size_t>{2}));
}

// A VGPR pair (the row's dst_bits 64): two words per lane, lane i's at 2i and 2i + 1; a lane
// differs when either word does, and the lane (not the word) is reported.
TEST(Compare, AVgprPairLaneDiffersWhenEitherWordDoes) {
  OpContext pair = Ctx("gfx942", Instr::v_cvt_pk_f32_fp8);
  ASSERT_EQ(DstWords(pair.instr), 2);
  std::vector<uint32_t> s1 = {0, 0, 0};
  LaneView v{nullptr, s1.data(), nullptr, nullptr, 3};
  const std::vector<uint32_t> e = {0x3f800000, 0x3f000000, 1, 2, 3, 4};
  EXPECT_TRUE(DifferingLanes(pair, v, e, e, {}).empty());
  std::vector<uint32_t> second_word = e;
  second_word[3] ^= 1;  // lane 1, VDST+1
  EXPECT_EQ(DifferingLanes(pair, v, e, second_word, {}), (std::vector<size_t>{1}));
  std::vector<uint32_t> swapped = e;
  std::swap(swapped[0], swapped[1]);  // lane 0's words exchanged
  EXPECT_EQ(DifferingLanes(pair, v, e, swapped, {}), (std::vector<size_t>{0}));
  // One word short: the last lane is incomplete, so it differs.
  const std::vector<uint32_t> short_one(e.begin(), e.end() - 1);
  EXPECT_EQ(DifferingLanes(pair, v, e, short_one, {}), (std::vector<size_t>{2}));
}

}  // namespace
}  // namespace lanediff
