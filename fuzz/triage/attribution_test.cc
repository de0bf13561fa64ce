#include "fuzz/triage/attribution.h"

#include <algorithm>
#include <map>
#include <set>

#include "device_harness/fault.h"
#include "fuzz/triage/lane_causes.h"
#include "gtest/gtest.h"
#include "model/fp/fp8_format.h"
#include "model/isa/testcase.h"

namespace lanediff {
namespace {

const Fp8Format* E4m3Ocp() { return &GetFp8Format(Fp8FormatId::e4m3_ocp); }
const Fp8Format* E5m2Ocp() { return &GetFp8Format(Fp8FormatId::e5m2_ocp); }
const Fp8Format* E4m3Fnuz() { return &GetFp8Format(Fp8FormatId::e4m3_fnuz); }

// Byte positions. Written byte 1, kept word 0x11223344: the model writes 0x38 (1.0 in E4M3)
// into byte 1 -> 0x11223844.
TEST(DifferenceClass, ByteMovedToAnotherPosition) {
  // The device wrote 0x38 into byte 2 instead (byte12_swap): 0x11383344.
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 1, 0x11223344, 0x11223844, 0x11383344), "byte_moved");
  // The fixture's case: kept 0x00010000, byte 1 gets 0x00 (expected == kept), the device
  // writes 0x00 into byte 2 -> 0x00000000. Only byte 2 differs, and that is still a move.
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 1, 0x00010000, 0x00010000, 0x00000000), "byte_moved");
}

// A 16-bit half writer (mask 0x0000ffff, kept 0xaabbccdd): the model writes {0x30, 0x38} (0.5
// and 1.0 in E4M3, S0's byte low) -> 0xaabb3038. The device writes the two bytes in the other
// order (erratum scaled_element_swap): 0xaabb3830. Equal bytes cannot be told apart; a changed
// kept half is not this class.
TEST(DifferenceClass, ElementsSwappedInAHalf) {
  EXPECT_EQ(DifferenceClassMask(E4m3Ocp(), 0x0000ffffu, 0xaabbccddu, 0xaabb3038u, 0xaabb3830u,
                                nullptr),
            "elements_swapped");
  EXPECT_EQ(DifferenceClassMask(E4m3Ocp(), 0xffff0000u, 0xaabbccddu, 0x3038ccddu, 0x3830ccddu,
                                nullptr),
            "elements_swapped");
  EXPECT_NE(DifferenceClassMask(E4m3Ocp(), 0x0000ffffu, 0xaabbccddu, 0xaabb3838u, 0xaabb3830u,
                                nullptr),
            "elements_swapped");
  EXPECT_EQ(DifferenceClassMask(E4m3Ocp(), 0x0000ffffu, 0xaabbccddu, 0xaabb3038u, 0x00003830u,
                                nullptr),
            "written_and_unwritten_bytes_changed");
}

// An FP4 byte writer (byte 0 written): the model writes {4, 2} (2.0 high, 1.0 low) = 0x42; the
// device writes the codes in the other nibble order (erratum fp4_nibble_swap): 0x24. Equal
// codes cannot be told apart. Element 0 first otherwise: 0x42 -> 0x4a is code 2 -> 0xA, the sign
// alone; 0x42 -> 0x43 is 1.0 -> 1.5, one code apart; 0x42 -> 0x47 is 1.0 -> 6.0, value_differs.
TEST(DifferenceClass, Fp4NibbleOrderAndValues) {
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc42u, 0xaabbcc24u), "elements_swapped");
  EXPECT_EQ(DifferenceClassFp4(0xff000000u, 0x42bbccddu, 0x24bbccddu), "elements_swapped");
  // A whole dword of eight codes (gfx1250's 8-wide FP4 encoder): its first differing byte, byte
  // 2 here (0x42 vs 0x24: elements 4 and 5 exchanged); byte 0 0x44 vs 0x45 (2 vs 3, one apart).
  EXPECT_EQ(DifferenceClassFp4(0xffffffffu, 0x11423344u, 0x11243344u), "elements_swapped");
  EXPECT_EQ(DifferenceClassFp4(0xffffffffu, 0x11223344u, 0x11223345u), "one_code_apart");
  EXPECT_NE(DifferenceClassFp4(0x000000ffu, 0xaabbcc44u, 0xaabbcc45u), "elements_swapped");
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc42u, 0xaabbcc4au), "sign_only");
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc42u, 0xaabbcc43u), "one_code_apart");
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc42u, 0xaabbcc47u), "value_differs");
  // An SR encoder's lane whose rounding candidates are 0x42 (down: 1.0 in the low code) and
  // 0x43 (up: 1.5): 0x43 where 0x42 is expected is the other candidate; with no candidates
  // (or equal ones) it stays one code apart; 0x44 (2.0) is neither candidate.
  const RoundingPair sr{0xaabbcc42u, 0xaabbcc43u}, exact{0xaabbcc42u, 0xaabbcc42u};
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc42u, 0xaabbcc43u, &sr), "rounded_other_way");
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc43u, 0xaabbcc42u, &sr), "rounded_other_way");
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc42u, 0xaabbcc43u, &exact), "one_code_apart");
  EXPECT_EQ(DifferenceClassFp4(0x000000ffu, 0xaabbcc42u, 0xaabbcc44u, &sr), "value_differs");
  // 0x5c: low nibble 0xC = sign + magnitude code 4 = -2.0; high nibble 5 = 3.0.
  EXPECT_EQ(Fp4ByteText(0x5c), "0x5c = fp4 -2, 3 (nibbles low first)");
}

TEST(DifferenceClass, MovesOntoAnEqualByteAndMovesWithAnotherValue) {
  // Kept 0x00380000, 0x38 written to byte 1 -> 0x00383800. Written to byte 2 instead, it
  // lands on the 0x38 already there: observed 0x00380000 == kept. Alone this lane only shows
  // byte 1 as 0x00 instead of 0x38 (0 vs 1.0): a value difference (the batch decides, below).
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 1, 0x00380000, 0x00383800, 0x00380000), "value_differs");
  // Kept 0, 0x40 expected in byte 1; 0x39 lands in byte 2 (moved and rounded differently).
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 1, 0, 0x00004000, 0x00390000), "byte_moved");
  // Kept 0, 0x38 expected in byte 1, nothing written (observed 0): no byte holds 0x38, so
  // not a move: 1.0 vs 0 in byte 1 is a value difference.
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 1, 0, 0x00003800, 0), "value_differs");
}

TEST(DifferenceClass, UnwrittenBytes) {
  // Byte 1 right (0x38), byte 3 0x11 -> 0x10.
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 1, 0x11223344, 0x11223844, 0x10223844),
            "unwritten_bytes_changed");
  // garbage_lane: the whole word XOR 0xdeadbeef.
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 1, 0x11223344, 0x11223844, 0x11223844u ^ 0xdeadbeefu),
            "written_and_unwritten_bytes_changed");
}

TEST(DifferenceClass, WrittenByteDecodedInItsFormat) {
  // OCP E4M3 (S.EEEE.MMM, bias 7): 0x7f and 0xff are NaN, 0x7e = 448 the largest finite,
  // 0x38 = 1.0, 0x39 = 1.125, 0x40 = 2.0, 0x01 = 2^-9 (subnormal), 0xb8 = -1.0.
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0xff, 0x7f), "nan_encoding");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x38, 0xb8), "sign_only");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x7e, 0x7f), "saturated_vs_not");
  // Without the model's rounding candidates, zero vs the smallest subnormal is one code
  // apart. Zero vs 0x02 (2^-8, two codes up) is a flush, not a rounding.
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x00, 0x01), "one_code_apart");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x00, 0x02), "zero_vs_subnormal");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x38, 0x39), "one_code_apart");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x40, 0x39), "value_differs");
  // With them: an input between 1.0 (0x38) and 1.125 (0x39) has candidates {0x38, 0x39}; the
  // other one observed is rounded_other_way. An input between 448 (0x7e, the largest finite)
  // and the next step 480 (beyond it: NaN 0x7f without FP16_OVFL) has candidates {0x7e, 0x7f}:
  // NaN observed is the other way too, not saturated_vs_not. 0x39 from an exact 1.0
  // (candidates {0x38, 0x38}) is not.
  const RoundingPair one{0x38, 0x39}, top{0x7e, 0x7f}, exact{0x38, 0x38};
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x38, 0x39, &one), "rounded_other_way");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x39, 0x38, &one), "rounded_other_way");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x7e, 0x7f, &top), "rounded_other_way");
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 0, 0, 0x38, 0x39, &exact), "one_code_apart");
  // Written in byte 3 the same way: 0x38 vs 0x39 there.
  const RoundingPair one3{0x38ffffff, 0x39ffffff};
  EXPECT_EQ(DifferenceClass(E4m3Ocp(), 3, 0x00ffffff, 0x38ffffff, 0x39ffffff, &one3),
            "rounded_other_way");
  // OCP E5M2 (S.EEEEE.MM, bias 15): 0x7c = +Inf, 0x7d..0x7f NaN, 0x7e the canonical NaN,
  // 0x3c = 1.0, 0x7b = 57344 the largest finite.
  EXPECT_EQ(DifferenceClass(E5m2Ocp(), 0, 0, 0x7e, 0x7c), "nan_vs_inf");
  EXPECT_EQ(DifferenceClass(E5m2Ocp(), 0, 0, 0x7c, 0x3c), "special_vs_finite");
  EXPECT_EQ(DifferenceClass(E5m2Ocp(), 0, 0, 0x7b, 0x7c), "saturated_vs_not");
  // E4M3 FNUZ: 0x80 is the only NaN, 0x7f the largest finite (240).
  EXPECT_EQ(DifferenceClass(E4m3Fnuz(), 0, 0, 0x7f, 0x80), "saturated_vs_not");
  // FNUZ has no -0: a tiny negative rounds to 0x00 or to -2^-10 (0x81, the smallest
  // negative subnormal, E4M3 FNUZ bias 8: 1/8 * 2^-7): one unit apart.
  EXPECT_EQ(DifferenceClass(E4m3Fnuz(), 0, 0, 0x00, 0x81), "one_code_apart");
  // A sign flip is a sign in FNUZ too (0x38 = 1.0 vs 0xb8 = -1.0), but zero vs 0x80 is NaN.
  EXPECT_EQ(DifferenceClass(E4m3Fnuz(), 0, 0, 0x38, 0xb8), "sign_only");
  EXPECT_EQ(DifferenceClass(E4m3Fnuz(), 0, 0, 0x00, 0x80), "special_vs_finite");
}

TEST(DifferenceClass, UnsignedInteger) {
  // v_cvt_pk_u8_f32: 129.5 -> 130 (RNE) vs 129 (truncation); -5 -> 0 vs 200.
  EXPECT_EQ(DifferenceClass(nullptr, 0, 0, 130, 129), "one_code_apart");
  const RoundingPair u{129, 130};  // 129.5's neighbours
  EXPECT_EQ(DifferenceClass(nullptr, 0, 0, 130, 129, &u), "rounded_other_way");
  EXPECT_EQ(DifferenceClass(nullptr, 0, 0, 0, 200), "saturated_vs_not");
  EXPECT_EQ(DifferenceClass(nullptr, 0, 0, 10, 20), "value_differs");
}

TEST(DecodeByte, NamesValuesAndSpecials) {
  EXPECT_EQ(DecodeByte(E4m3Ocp(), 0x38), "0x38 = 1");
  EXPECT_EQ(DecodeByte(E4m3Ocp(), 0x7e), "0x7e = 448");           // 1.75 * 2^8
  EXPECT_EQ(DecodeByte(E4m3Ocp(), 0x7f), "0x7f = NaN");
  EXPECT_EQ(DecodeByte(E4m3Ocp(), 0x01), "0x01 = 0.001953125");   // 2^-9
  EXPECT_EQ(DecodeByte(E4m3Ocp(), 0xb8), "0xb8 = -1");
  EXPECT_EQ(DecodeByte(E5m2Ocp(), 0x7c), "0x7c = +Inf");
  EXPECT_EQ(DecodeByte(E5m2Ocp(), 0xfc), "0xfc = -Inf");
  EXPECT_EQ(DecodeByte(E5m2Ocp(), 0x7f), "0x7f = NaN");
  EXPECT_EQ(DecodeByte(E4m3Fnuz(), 0x80), "0x80 = NaN");
  EXPECT_EQ(DecodeByte(E4m3Fnuz(), 0x40), "0x40 = 1");            // exponent 8 - bias 8
  EXPECT_EQ(DecodeByte(nullptr, 0x80), "0x80 = 128");
}

proto::TestCase Batch(uint32_t opsel) {
  proto::TestCase tc;
  tc.set_target("gfx950");
  tc.set_instr(proto::v_cvt_sr_fp8_f32);
  tc.mutable_encoding()->set_opsel(opsel);
  return tc;
}
void AddLane(proto::TestCase* tc, uint32_t s0, uint32_t s1, uint32_t old) {
  proto::Lane* l = tc->add_lanes();
  l->set_src0(s0);
  l->set_src1(s1);
  l->set_vdst_old(old);
}

// docs/semantics.md §6 / errata.h: OCP fp8, S0=0x3fffffff S1=0xfffff000 -> 0x40 under the default
// sr_rounding=carry_truncate, 0x39 under sr_rounding=literal. S0=1.0 with seed 0 is exact:
// 0x38 under both.
TEST(Attribute, OneHypothesisExplainsEveryDisagreeingLane) {
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  AddLane(&tc, 0x3f800000, 0, 0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0x11223300);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected = {0x40, 0x38, 0x11223340};
  std::vector<uint32_t> observed = {0x39, 0x38, 0x11223339};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "sr_rounding=literal");
  EXPECT_TRUE((*causes)[0].by_hypothesis);
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 2}));
}

TEST(Attribute, TwoDeviationsInOneBatchAreTwoCauses) {
  // OPSEL[3:2] = 1: byte 1 written. Lane 0 rounds the literal way (0x39 in byte 1), lane 1
  // writes 1.0 (0x38) into byte 2 instead of byte 1, lane 2 agrees.
  proto::TestCase tc = Batch(4);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  AddLane(&tc, 0x3f800000, 0, 0);
  AddLane(&tc, 0x3f800000, 0, 0x00003800);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected = {0x00004000, 0x00003800, 0x00003800};
  std::vector<uint32_t> observed = {0x00003900, 0x00380000, 0x00003800};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 2u);
  EXPECT_EQ((*causes)[0].name, "sr_rounding=literal");
  EXPECT_EQ((*causes)[0].lanes, std::vector<size_t>{0});
  EXPECT_EQ((*causes)[1].name, "byte_moved");
  EXPECT_FALSE((*causes)[1].by_hypothesis);
  EXPECT_EQ((*causes)[1].lanes, std::vector<size_t>{1});
}

TEST(Attribute, InvisibleMovesJoinTheVisibleOnesOfTheirBatch) {
  // OPSEL byte 1; every lane writes 1.0 (0x38) into byte 2 instead. Lane 0 (kept 0) shows the
  // move; lane 1 (kept 0x00380000) does not (MovesOntoAnEqualByteAndMovesWithAnotherValue).
  proto::TestCase tc = Batch(4);
  AddLane(&tc, 0x3f800000, 0, 0);
  AddLane(&tc, 0x3f800000, 0, 0x00380000);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected = {0x00003800, 0x00383800};
  std::vector<uint32_t> observed = {0x00380000, 0x00380000};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "byte_moved");
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 1}));
}

TEST(Attribute, EachLaneIsExplainedOnItsOwnAndTheRestTakesAClass) {
  // Lane 0 answers the literal rounding (0x39, errata.h), lane 1 (1.0, exact, 0x38) answers
  // 0x39 too, which no setting gives (1.0 is exact under every rounding). Lanes are explained
  // one by one: lane 0 by sr_rounding=literal (it changes no agreeing lane: there is none),
  // lane 1 by nothing: one_code_apart (1.0 vs 1.125, exact: no other candidate), its own
  // cause with its own lane.
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  AddLane(&tc, 0x3f800000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected = {0x40, 0x38};
  std::vector<uint32_t> observed = {0x39, 0x39};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 2u);
  EXPECT_EQ((*causes)[0].name, "sr_rounding=literal");
  EXPECT_EQ((*causes)[0].lanes, std::vector<size_t>{0});
  EXPECT_EQ((*causes)[1].name, "one_code_apart");
  EXPECT_FALSE((*causes)[1].by_hypothesis);
  EXPECT_EQ((*causes)[1].lanes, std::vector<size_t>{1});
}

TEST(Attribute, RoundingTheOtherWayIsOneClassAcrossTheLargestFinite) {
  // gfx950 OCP E4M3 (largest finite 0x7e = 448, quantum 32 in [256, 512)), MODE default
  // (FP16_OVFL off: a finite overflow is NaN, 0x7f).
  //  lane 0: 464 = 0x43e80000, seed 0: truncated to 448 (0x7e); the other way is 480, beyond
  //          the largest finite: 0x7f. The device answers 0x7f.
  //  lane 1: 2.015625 = 0x40010000 (quantum 0.25 in [2, 4)), seed 0xfffff000 rounds up to
  //          2.25 (0x41); the other way is 2.0 (0x40). The device answers 0x40.
  //  lane 2: 1.0, exact, agrees.
  //  lane 3: 456 = 0x43e40000, seed 0: truncated to 448 (0x7e), and the device agrees. Under
  //          sr_overflow=before_rounding 456 > 448 would overflow (0x7f), as 464 does: lane 3
  //          keeps that reading from explaining lane 0 (it would change an agreeing lane).
  // Both differing lanes are their other rounding candidate: one cause, rounded_other_way
  // (not saturated_vs_not for lane 0).
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x43e80000, 0, 0);
  AddLane(&tc, 0x40010000, 0xfffff000, 0);
  AddLane(&tc, 0x3f800000, 0, 0);
  AddLane(&tc, 0x43e40000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  auto pairs = RoundingCandidates(*rc);
  ASSERT_TRUE(pairs.ok()) << pairs.status();
  EXPECT_EQ((*pairs)[0].down, 0x7eu);
  EXPECT_EQ((*pairs)[0].up, 0x7fu);
  EXPECT_EQ((*pairs)[1].down, 0x40u);
  EXPECT_EQ((*pairs)[1].up, 0x41u);
  EXPECT_EQ((*pairs)[2].down, 0x38u);
  EXPECT_EQ((*pairs)[2].up, 0x38u);
  std::vector<uint32_t> expected = {0x7e, 0x41, 0x38, 0x7e};
  std::vector<uint32_t> observed = {0x7f, 0x40, 0x38, 0x7e};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "rounded_other_way");
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 1}));
}

// Whole f32 words (the fp8 -> f32 decodes): the value classes on the f32 encodings.
// E4M3 OCP 0x38 = 2^(7-7) = 1.0 -> 0x3f800000; 0x40 = 2^(8-7) = 2.0 -> 0x40000000; 0xb8 = -1.0
// -> 0xbf800000; 0x7e = 1.75 * 2^8 = 448 -> 0x43e00000 (exponent 135 = 0x87, mantissa 0.75).
TEST(DifferenceClassF32, ValueClassesOnF32Words) {
  EXPECT_EQ(DifferenceClassF32(0x7fc00000, 0xffc00000), "nan_encoding");  // +qNaN vs -qNaN
  EXPECT_EQ(DifferenceClassF32(0x7fc00000, 0x7f800000), "nan_vs_inf");    // qNaN vs +Inf
  EXPECT_EQ(DifferenceClassF32(0x3f800000, 0xbf800000), "sign_only");     // 1.0 vs -1.0
  EXPECT_EQ(DifferenceClassF32(0x00000000, 0x80000000), "sign_only");     // +0 vs -0
  EXPECT_EQ(DifferenceClassF32(0x43e00000, 0x7f800000), "special_vs_finite");  // 448 vs +Inf
  EXPECT_EQ(DifferenceClassF32(0x7fc00000, 0x43e00000), "special_vs_finite");  // NaN vs 448
  // +0 vs the smallest f32 denormal 2^-149 (a flush); -0 vs a positive denormal is not.
  EXPECT_EQ(DifferenceClassF32(0x00000000, 0x00000001), "zero_vs_subnormal");
  EXPECT_EQ(DifferenceClassF32(0x80000000, 0x00000001), "value_differs");
  EXPECT_EQ(DifferenceClassF32(0x3f800000, 0x40000000), "value_differs");  // 1.0 vs 2.0
  // One f32 ulp apart is not a rounding here (an 8-bit float -> f32 is exact).
  EXPECT_EQ(DifferenceClassF32(0x3f800000, 0x3f800001), "value_differs");
  // A garbage word (garbage_lane: old VDST 0x12345678 ^ 0xdeadbeef = 0xcc99e897, a finite
  // -8.1e7 whose fraction has bits below bit 20) against a NaN (E4M3 0x7f -> 0x7fc00000):
  // no byte decodes to it, so not special_vs_finite but value_differs. 448 (0x43e00000,
  // fraction 0x600000: bits 22..21 only) is a decoded value: special_vs_finite.
  EXPECT_EQ(DifferenceClassF32(0x7fc00000, 0x12345678u ^ 0xdeadbeefu), "value_differs");
  EXPECT_EQ(DifferenceClassF32(0x7fc00000, 0x43e00000), "special_vs_finite");
  // A NaN with a payload below bit 20 (0x7f800001) is no decoded NaN either.
  EXPECT_EQ(DifferenceClassF32(0x3f800000, 0x7f800001), "value_differs");
}

proto::TestCase Decode(const char* target, uint32_t opsel) {
  proto::TestCase tc;
  tc.set_target(target);
  tc.set_instr(proto::v_cvt_f32_fp8);
  tc.mutable_encoding()->set_opsel(opsel);
  return tc;
}

// src_byte_swap on gfx1250 (OCP E4M3): byte_sel:1 (= 2*OPSEL[0] + OPSEL[1]: OPSEL = 0b10)
// selects byte 1, the device converts byte 2.
//  lane 0: S0 = 0x00403800: byte 1 = 0x38 (1.0) expected 0x3f800000; byte 2 = 0x40 (2.0)
//          observed 0x40000000. Alone: value_differs (1.0 vs 2.0).
//  lane 1: S0 = 0x00383800: bytes 1 and 2 both 1.0: agrees.
//  lane 2: S0 = 0x00b83800: byte 2 = 0xb8 (-1.0) observed 0xbf800000. Alone: sign_only.
// Both differing lanes equal the model under byte_sel:2 (OPSEL = 0b01): source_byte_moved,
// the cause of the batch (no hypothesis selects another byte on gfx1250).
TEST(Attribute, F32WordFromAnotherSourceByteIsSourceByteMoved) {
  proto::TestCase tc = Decode("gfx1250", 0b10);
  AddLane(&tc, 0x00403800, 0, 0);
  AddLane(&tc, 0x00383800, 0, 0);
  AddLane(&tc, 0x00b83800, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> expected = {0x3f800000, 0x3f800000, 0x3f800000};
  const std::vector<uint32_t> observed = {0x40000000, 0x3f800000, 0xbf800000};
  EXPECT_EQ(DifferenceClassF32(expected[0], observed[0]), "value_differs");
  EXPECT_EQ(DifferenceClassF32(expected[2], observed[2]), "sign_only");
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "source_byte_moved");
  EXPECT_FALSE((*causes)[0].by_hypothesis);
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 2}));
  // The class alone, lane by lane (ShowsCause, the minimizer's predicate).
  auto shows = ShowsCause(tc, rc->ctx.hyp, observed, {}, (*causes)[0]);
  ASSERT_TRUE(shows.ok()) << shows.status();
  EXPECT_TRUE(*shows);
}

// A word exchange that is a reading's coincidence: gfx950 v_cvt_scalef32_pk_f32_fp8 (two E4M3
// bytes of S0's low word to a VGPR pair, S1 the f32 scale), a device that reads the scale as
// mx_scale_read=f32_multiply (model/targets/hypotheses.cc: the element times the whole f32 S1,
// one IEEE multiplication) where the default reads its exponent byte only.
//  lane 0: S0 = 0x00008000: bytes +0 (0x00) and -0 (0x80); S1 = -0.0 (0x80000000, exponent 0:
//          2^-127 by default). Expected +0, -0: {0x00000000, 0x80000000}. Under f32_multiply
//          the signs multiply: +0 * -0 = -0, -0 * -0 = +0: {0x80000000, 0x00000000}, the
//          expected words exchanged (dst_words_swapped by itself).
//  lane 1: S0 = 0x00003838: 1.0, 1.0; S1 = 1.5 (0x3fc00000, exponent 127: 2^0 by default).
//          Expected {0x3f800000, 0x3f800000}; under f32_multiply 1.5: {0x3fc00000, 0x3fc00000}.
// The batch: one cause, the reading, on both lanes. Lane 0 alone: the exchange (no value lane
// names a reading to join).
TEST(Attribute, AnExchangeAReadingReproducesJoinsThatReading) {
  proto::TestCase tc;
  tc.set_target("gfx950");
  tc.set_instr(proto::v_cvt_scalef32_pk_f32_fp8);
  AddLane(&tc, 0x00008000, 0x80000000, 0);
  AddLane(&tc, 0x00003838, 0x3fc00000, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> expected = {0x00000000, 0x80000000, 0x3f800000, 0x3f800000};
  const std::vector<uint32_t> observed = {0x80000000, 0x00000000, 0x3fc00000, 0x3fc00000};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "mx_scale_read=f32_multiply");
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 1}));
  tc.mutable_lanes()->DeleteSubrange(1, 1);
  auto alone_rc = ResolveTestCase(tc);
  ASSERT_TRUE(alone_rc.ok()) << alone_rc.status();
  auto alone = Attribute(*alone_rc, {0x00000000, 0x80000000}, {0x80000000, 0x00000000}, {});
  ASSERT_TRUE(alone.ok()) << alone.status();
  ASSERT_EQ(alone->size(), 1u);
  EXPECT_EQ((*alone)[0].name, "dst_words_swapped");
}

// The same on GFX9 (gfx950, OCP E4M3): the SDWA form with src0_sel = BYTE_1 (1), the device
// reading byte 2; the other select values are src0_sel BYTE_0, BYTE_2, BYTE_3.
TEST(Attribute, Gfx9SdwaSourceByteMoved) {
  proto::TestCase tc = Decode("gfx950", 0);
  tc.mutable_encoding()->set_form(proto::FORM_SDWA);
  tc.mutable_encoding()->set_src0_sel(1);
  AddLane(&tc, 0x00403800, 0, 0);  // byte 1 = 1.0 expected, byte 2 = 2.0 observed
  AddLane(&tc, 0x00383800, 0, 0);  // agrees
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> expected = {0x3f800000, 0x3f800000};
  const std::vector<uint32_t> observed = {0x40000000, 0x3f800000};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "source_byte_moved");
  EXPECT_EQ((*causes)[0].lanes, std::vector<size_t>{0});
}

// A VGPR pair (v_cvt_pk_f32_fp8, gfx950 OCP E4M3: 0x38 = 1.0 = 0x3f800000, 0x40 = 2.0 =
// 0x40000000), SDWA src0_sel BYTE_1, which fp8_sdwa_sel=pseudocode reads as the high word
// (docs/semantics.md §10.5); the device reads the low word (src_byte_swap: BYTE_2, the low
// word), or the high word into swapped registers (pair_word_swap).
//  lane A: S0 = 0x38404038: high word 0x3840 -> (2.0, 1.0) expected; low word 0x4038 ->
//          (1.0, 2.0): both the expected pair exchanged AND select 0's output (the other word
//          holds the same two bytes reversed): one lane cannot tell which.
//  lane B: S0 = 0x38400038: expected (2.0, 1.0); low word 0x0038 -> (1.0, 0): only another
//          select's output: source_byte_moved.
//  lane C: S0 = 0x38383838: every word (1.0, 1.0): agrees.
proto::TestCase PairSdwa(std::initializer_list<uint32_t> s0s) {
  proto::TestCase tc;
  tc.set_target("gfx950");
  tc.set_instr(proto::v_cvt_pk_f32_fp8);
  tc.mutable_encoding()->set_form(proto::FORM_SDWA);
  tc.mutable_encoding()->set_src0_sel(1);
  for (uint32_t s0 : s0s) AddLane(&tc, s0, 0, 0);
  return tc;
}

TEST(Attribute, AnAmbiguousPairLaneJoinsTheClassEveryLaneShows) {
  const proto::TestCase tc = PairSdwa({0x38404038, 0x38400038, 0x38383838});
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> expected = {0x40000000, 0x3f800000, 0x40000000, 0x3f800000,
                                          0x3f800000, 0x3f800000};
  const std::vector<uint32_t> observed = {0x3f800000, 0x40000000, 0x3f800000, 0x00000000,
                                          0x3f800000, 0x3f800000};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);  // not dst_words_swapped for lane A besides
  EXPECT_EQ((*causes)[0].name, "source_byte_moved");
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 1}));
  EXPECT_TRUE((*causes)[0].also.empty());
  // Lane A alone (with C): the batch cannot tell; the structural class is read first and the
  // other is carried for a confirmation batch to decide.
  const proto::TestCase only_a = PairSdwa({0x38404038, 0x38383838});
  auto rca = ResolveTestCase(only_a);
  ASSERT_TRUE(rca.ok());
  const std::vector<uint32_t> ea(expected.begin(), expected.begin() + 2), ec = {0x3f800000, 0x3f800000};
  std::vector<uint32_t> e2 = ea, o2(observed.begin(), observed.begin() + 2);
  e2.insert(e2.end(), ec.begin(), ec.end());
  o2.insert(o2.end(), ec.begin(), ec.end());
  auto amb = Attribute(*rca, e2, o2, {});
  ASSERT_TRUE(amb.ok()) << amb.status();
  ASSERT_EQ(amb->size(), 1u);
  EXPECT_EQ((*amb)[0].name, "dst_words_swapped");
  EXPECT_EQ((*amb)[0].also, std::vector<std::string>{"source_byte_moved"});
  // ShowsCause sees either class on lane A (the minimizer keeps the lane for both).
  for (const char* name : {"dst_words_swapped", "source_byte_moved"}) {
    auto shows = ShowsCause(only_a, Hypotheses{}, o2, {}, Cause{name, false, {0}, {}, {}});
    ASSERT_TRUE(shows.ok());
    EXPECT_TRUE(*shows) << name;
  }
}

// The confirmation batch (new S0 bytes) decides lane A's batch: answered as a device reading
// the low word (the model under src0_sel BYTE_2), it is source_byte_moved; answered with the
// high word's two f32 exchanged, dst_words_swapped.
TEST(DecideClass, AConfirmationBatchTellsTheAmbiguousClasses) {
  const proto::TestCase tc = PairSdwa({0x38404038, 0x38383838});
  auto conf = ConfirmationCase(tc, 5);
  ASSERT_TRUE(conf.ok()) << conf.status();
  auto rc = ResolveTestCase(*conf);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<std::string> both = {"dst_words_swapped", "source_byte_moved"};
  std::vector<uint32_t> dev(2 * rc->lanes.size());
  OpContext low = rc->ctx;
  low.mods.src0_sel = 2;
  ASSERT_TRUE(Evaluate(low, rc->lanes.view(), absl::MakeSpan(dev)).ok());
  auto moved = DecideClass(*conf, Hypotheses{}, both, dev, {});
  ASSERT_TRUE(moved.ok()) << moved.status();
  EXPECT_EQ(*moved, "source_byte_moved");
  ASSERT_TRUE(Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(dev)).ok());
  // No lane disagrees: no evidence.
  auto none = DecideClass(*conf, Hypotheses{}, both, dev, {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, "");
  for (size_t i = 0; i < rc->lanes.size(); ++i) std::swap(dev[2 * i], dev[2 * i + 1]);
  auto swapped = DecideClass(*conf, Hypotheses{}, both, dev, {});
  ASSERT_TRUE(swapped.ok()) << swapped.status();
  EXPECT_EQ(*swapped, "dst_words_swapped");
}

// A VOP1 word's confirmation (SDWA: one source field) keeps src1 absent, so it still encodes,
// and a uniform S0 of 8-bit codes (the inline constant 36 = operand 164) gets new bytes.
TEST(Confirmation, OneSourceFormKeepsOneSourceAndRedrawsTheBytes) {
  proto::TestCase tc = PairSdwa({0, 0, 0, 0});
  tc.mutable_encoding()->mutable_src0()->set_kind(proto::SOURCE_INLINE);
  tc.mutable_encoding()->mutable_src0()->set_code(164);
  auto conf = ConfirmationCase(tc, 9);
  ASSERT_TRUE(conf.ok()) << conf.status();
  EXPECT_FALSE(conf->encoding().has_src1());
  EXPECT_EQ(conf->encoding().src0().kind(), proto::SOURCE_VGPR);
  std::set<uint32_t> s0s;
  for (const proto::Lane& l : conf->lanes()) s0s.insert(l.src0());
  EXPECT_EQ(conf->lanes(0).src0(), 36u);  // every fourth lane keeps the batch's word
  EXPECT_GT(s0s.size(), 150u);            // 192 draws of 32 bits
}

// garbage_lane on an f32 writer (gfx950, e64, byte 0): S0 = 0x38 -> 1.0 = 0x3f800000, old VDST
// 0, observed 0 ^ 0xdeadbeef = 0xdeadbeef (sign 1, exponent 0xbd: a finite -6.3e18). No other
// byte select gives it (bytes 1..3 are 0: +0.0): value_differs, not a byte class.
TEST(Attribute, GarbageF32WordIsValueDiffers) {
  proto::TestCase tc = Decode("gfx950", 0);
  AddLane(&tc, 0x38, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> expected = {0x3f800000};
  const std::vector<uint32_t> observed = {0xdeadbeef};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "value_differs");
}

// A tuple of 16-bit pairs with its halves exchanged in every word: gfx1250
// v_cvt_scale_pk8_bf16_fp4, S0 0x01000000 (FP4 E2M1 nibble 6 = 0x1 = 0.5, the others +0),
// S1 0 (scale_sel:0 picks byte 0x00: 2^-127 under mx_scale_zero=pow2_m127). Element 6 =
// 0.5 * 2^-127 = 2^-128 = 2^-126 * 0.25: the bf16 denormal with fraction 0.25 * 2^7 = 0x20, in
// the low half of word 3 (element 2j in bits 15:0 of word j): expected 0 0 0 0x00000020. The
// device exchanges every word's halves: word 3 reads 0x00200000, words 0-2 (both halves +0)
// show nothing. The lane is dst_halves_swapped, not the value class of word 0 (unchanged).
TEST(Attribute, ATupleOfSixteenBitPairsWithItsHalvesExchangedIsOneClass) {
  proto::TestCase tc;
  tc.set_target("gfx1250");
  tc.set_instr(proto::v_cvt_scale_pk8_bf16_fp4);
  AddLane(&tc, 0x01000000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected(4);
  ASSERT_TRUE(Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(expected)).ok());
  EXPECT_EQ(expected, (std::vector<uint32_t>{0, 0, 0, 0x00000020}));
  const std::vector<uint32_t> observed = {0, 0, 0, 0x00200000};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "dst_halves_swapped");
}

// gfx1250_clamp_ignored on the decode: gfx1250, CLAMP=1, byte_sel:0. The default reading
// (gfx1250_clamp=ue5m3) decodes UE5M3 (5 exponent bits, bias 15, no sign): 0x78 = 01111.000 =
// 2^(15-15) = 1.0 -> 0x3f800000. Ignored, CLAMP selects nothing: OCP E4M3, 0x78 = 0.1111.000 =
// 2^(15-7) = 256 -> 0x43800000 (exponent 127 + 8 = 0x87). 0x00 is 0 in both. The model under
// gfx1250_clamp=ignored reproduces every lane: the hypothesis is the cause.
TEST(Attribute, Gfx1250ClampIgnoredOnTheDecodeIsTheHypothesis) {
  proto::TestCase tc = Decode("gfx1250", 0);
  tc.mutable_encoding()->set_clamp(true);
  AddLane(&tc, 0x78, 0, 0);
  AddLane(&tc, 0x00, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected(2);
  ASSERT_TRUE(Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(expected)).ok());
  EXPECT_EQ(expected, (std::vector<uint32_t>{0x3f800000, 0}));
  const std::vector<uint32_t> observed = {0x43800000, 0};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "gfx1250_clamp=ignored");
  EXPECT_TRUE((*causes)[0].by_hypothesis);
}

TEST(RoundingCandidates, PackedConversionsUseTheOutputGrid) {
  // v_cvt_pk_u8_f32 (gfx942), byte select 0: 129.5 (0x43018000) has neighbours 129 and 130;
  // 7.0 is exact. src2 (kept bytes) 0.
  proto::TestCase tc;
  tc.set_target("gfx942");
  tc.set_instr(proto::v_cvt_pk_u8_f32);
  for (uint32_t s0 : {0x43018000u, 0x40e00000u}) {
    proto::Lane* l = tc.add_lanes();
    l->set_src0(s0);
  }
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  auto pairs = RoundingCandidates(*rc);
  ASSERT_TRUE(pairs.ok()) << pairs.status();
  EXPECT_EQ((*pairs)[0].down, 129u);
  EXPECT_EQ((*pairs)[0].up, 130u);
  EXPECT_EQ((*pairs)[1].down, 7u);
  EXPECT_EQ((*pairs)[1].up, 7u);
}

TEST(Confirmation, SecondBatchKeepsTheWordAndRedrawsTheLanes) {
  proto::TestCase tc = Batch(4);
  tc.set_mode(0x008000f0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0x11223344);
  AddLane(&tc, 0x40010000, 0, 0x55667788);
  auto conf = ConfirmationCase(tc, 7);
  ASSERT_TRUE(conf.ok()) << conf.status();
  EXPECT_EQ(conf->target(), tc.target());
  EXPECT_EQ(conf->instr(), tc.instr());
  EXPECT_EQ(conf->encoding().opsel(), 4u);
  EXPECT_EQ(conf->mode(), 0x008000f0u);
  ASSERT_EQ(conf->lanes_size(), 256);
  std::set<uint32_t> seeds, mantissas;
  for (int j = 0; j < 256; ++j) {
    const proto::Lane& l = conf->lanes(j);
    const proto::Lane& base = tc.lanes(j % 2);
    // src0: the batch's in every fourth lane, the others with a new mantissa under its sign
    // and exponent; VDST kept.
    if (j % 4 == 0) {
      EXPECT_EQ(l.src0(), base.src0());
    }
    if (j % 4 != 3) {
      EXPECT_EQ(l.src0() & 0xff800000u, base.src0() & 0xff800000u);
    }
    EXPECT_EQ(l.src0() & 0x80000000u, base.src0() & 0x80000000u);
    EXPECT_EQ(l.vdst_old(), base.vdst_old());
    seeds.insert(l.src1());
    if (j % 2 == 1) mantissas.insert(l.src0() & 0x7fffffu);
  }
  EXPECT_GT(seeds.size(), 250u);      // random seeds (256 draws of 32 bits)
  EXPECT_GT(mantissas.size(), 120u);  // 128 draws of 23 bits
  // Uniform sources become VGPRs fed per lane: an SGPR src0 holding 2.0 and the inline
  // constant 0 (operand code 128) as the seed.
  proto::TestCase uni = tc;
  uni.mutable_encoding()->mutable_src0()->set_kind(proto::SOURCE_SGPR);
  uni.mutable_encoding()->mutable_src0()->set_value(0x40000000);
  uni.mutable_encoding()->mutable_src1()->set_kind(proto::SOURCE_INLINE);
  uni.mutable_encoding()->mutable_src1()->set_code(128);
  auto conf_uni = ConfirmationCase(uni, 7);
  ASSERT_TRUE(conf_uni.ok()) << conf_uni.status();
  EXPECT_EQ(conf_uni->encoding().src0().kind(), proto::SOURCE_VGPR);
  EXPECT_EQ(conf_uni->encoding().src1().kind(), proto::SOURCE_VGPR);
  EXPECT_EQ(conf_uni->lanes(0).src0(), 0x40000000u);
  std::set<uint32_t> s0s;
  for (const proto::Lane& l : conf_uni->lanes()) s0s.insert(l.src0());
  EXPECT_GT(s0s.size(), 100u);
  // A lane whose data word is a NaN keeps its seed where it keeps the word (every fourth
  // lane): a NaN whose literal SR add wraps to Inf does so under a few seeds only. The finite
  // lane's seed is new there too.
  proto::TestCase special = Batch(4);
  AddLane(&special, 0xfffffff8, 0x00004000, 0);  // the inline constant -8 read as f32: a NaN
  AddLane(&special, 0x3f800000, 0x00004000, 0);
  auto conf_special = ConfirmationCase(special, 7);
  ASSERT_TRUE(conf_special.ok()) << conf_special.status();
  for (int j = 0; j < conf_special->lanes_size(); ++j) {
    const proto::Lane& l = conf_special->lanes(j);
    if (j % 2 == 0) {
      EXPECT_EQ(l.src0(), 0xfffffff8u) << j;  // NaN kept in every lane
    }
    if (j % 4 == 0) {
      EXPECT_EQ(l.src1(), 0x00004000u) << j;
    } else {  // a finite lane (j odd), or the NaN lane's redrawn half (j % 4 == 2)
      EXPECT_NE(l.src1(), 0x00004000u) << j;
    }
  }
  // Deterministic in the salt.
  auto again = ConfirmationCase(tc, 7);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->DebugString(), conf->DebugString());
}

TEST(Confirmation, OnlyAHypothesisThatReproducesEveryLaneIsConfirmed) {
  // The confirmation batch answered as a device with sr_rounding=literal would (the model under
  // that reading standing in for it): literal reproduces it, sr_seed=low does not (random
  // seeds: low and high 20 bits differ), and neither does the default.
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  AddLane(&tc, 0x3f800000, 0, 0);  // 1.0, exact: 0x38 under both
  auto conf = ConfirmationCase(tc, 3);
  ASSERT_TRUE(conf.ok());
  Hypotheses literal;
  ASSERT_TRUE(SetHypothesis("sr_rounding=literal", &literal).ok());
  auto rc = ResolveTestCase(*conf);
  ASSERT_TRUE(rc.ok());
  rc->ctx.hyp = literal;
  std::vector<uint32_t> device(rc->lanes.size());
  ASSERT_TRUE(Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(device)).ok());
  const std::vector<std::string> lit = {"sr_rounding=literal"}, low = {"sr_seed=low"};
  EXPECT_TRUE(*ReproducesEveryLane(*conf, Hypotheses{}, lit, device, {}));
  EXPECT_FALSE(*ReproducesEveryLane(*conf, Hypotheses{}, low, device, {}));
  // The refuted setting is never named by Attribute.
  auto orig = ResolveTestCase(tc);
  ASSERT_TRUE(orig.ok());
  std::vector<uint32_t> expected = {0x40, 0x38}, observed = {0x39, 0x38};  // errata.h lane 0
  auto named = Attribute(*orig, expected, observed, {});
  ASSERT_TRUE(named.ok());
  ASSERT_EQ(named->size(), 1u);
  EXPECT_EQ((*named)[0].name, "sr_rounding=literal");
  auto refuted = Attribute(*orig, expected, observed, {}, lit);
  ASSERT_TRUE(refuted.ok());
  ASSERT_EQ(refuted->size(), 1u);
  EXPECT_FALSE((*refuted)[0].by_hypothesis);
}

TEST(Attribute, TwoHypothesesInOneBatchAreTwoCausesNotThree) {
  // Lane 0 rounds the literal way (0x39 for 0x40, errata.h); lane 1, a positive quiet NaN, keeps
  // its sign on OCP E4M3 (fp8_nan=sign_preserving: 0x7f instead of the canonical 0xff,
  // errata.h; fp8_nan=sign_7f gives sign|0x7f too, E4M3's only NaN code: the two readings are
  // one cause, named by both, values sorted). No single setting explains both lanes: one
  // cause each.
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  AddLane(&tc, 0x7fc00000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected = {0x40, 0xff};
  std::vector<uint32_t> observed = {0x39, 0x7f};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 2u);
  EXPECT_EQ((*causes)[0].name, "sr_rounding=literal");
  EXPECT_EQ((*causes)[0].lanes, std::vector<size_t>{0});
  EXPECT_EQ((*causes)[1].name, "fp8_nan=sign_7f+sign_preserving");
  EXPECT_EQ((*causes)[1].settings,
            (std::vector<std::string>{"fp8_nan=sign_7f", "fp8_nan=sign_preserving"}));
  EXPECT_EQ((*causes)[1].lanes, std::vector<size_t>{1});
}

TEST(Attribute, ACoincidentalHypothesisThatBreaksAnAgreeingLaneIsNotTheCause) {
  // Lane 0 answers 0x39 (what sr_rounding=literal gives), but lane 1, the very same input,
  // agrees with the default (0x40): literal would break lane 1, so it is not the device's
  // rounding. Lane 0 falls back to its difference class: 0x40 (2.0) vs 0x39 (1.125), seven
  // codes apart: value_differs.
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected = {0x40, 0x40};
  std::vector<uint32_t> observed = {0x39, 0x40};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "value_differs");
}

// A field of the word as a cause: gfx950 v_cvt_sr_fp8_f32 (OCP E4M3, bias 7) with NEG[0]=1 on
// a device that ignores NEG[0] (sim erratum src0_neg_ignored). 1.0 -> -1.0 = 0xb8 expected,
// 0x38 observed; 2.0 -> 0xc0 expected, 0x40 observed; a quiet NaN is the canonical 0xff either
// way (agrees). The model with NEG[0] cleared gives every lane: acts_as_if.neg0=0.
TEST(Attribute, AFieldOfTheWordIsACause) {
  proto::TestCase tc = Batch(0);
  tc.mutable_encoding()->set_neg(1);
  AddLane(&tc, 0x3f800000, 0, 0);
  AddLane(&tc, 0x40000000, 0, 0);
  AddLane(&tc, 0x7fc00000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> expected = {0xb8, 0xc0, 0xff};
  std::vector<uint32_t> observed = {0x38, 0x40, 0xff};
  auto causes = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 1u);
  EXPECT_EQ((*causes)[0].name, "acts_as_if.neg0=0");
  EXPECT_TRUE((*causes)[0].by_hypothesis);
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 1}));
  // The row accepts -x on src0 only (neg_abs_srcs 0b001): neg0 and abs0 are its sign fields.
  const std::vector<std::string> fields = FieldSettings(rc->ctx);
  EXPECT_NE(std::find(fields.begin(), fields.end(), "acts_as_if.neg0=0"), fields.end());
  EXPECT_NE(std::find(fields.begin(), fields.end(), "acts_as_if.abs0=1"), fields.end());
  EXPECT_EQ(std::find(fields.begin(), fields.end(), "acts_as_if.neg1=1"), fields.end());
  OpContext ctx = rc->ctx;
  ASSERT_TRUE(ApplySetting("acts_as_if.neg0=0", &ctx).ok());
  EXPECT_EQ(ctx.mods.neg, 0);
  ASSERT_TRUE(ApplySetting("acts_as_if.mode.fp16_ovfl=1", &ctx).ok());
  EXPECT_EQ(ctx.mode & (1u << 23), 1u << 23);
  EXPECT_FALSE(ApplySetting("acts_as_if.bogus=1", &ctx).ok());
  EXPECT_FALSE(ApplySetting("acts_as_if.neg0=2", &ctx).ok());
}

// Settings confirmed before explain first, together: gfx942 v_cvt_pk_u8_f32 with NEG[0]=1 (byte
// select 0, kept word 0) on a device that ignores NEG[0] and truncates (sim errata
// src0_neg_ignored, u8_truncate). Expected (-x, RNE, clamped to 0..255) vs observed (x
// truncated):
//   lane 0: 129.5 -> -129.5 -> 0;   device 129 (0x81): NEG ignored and truncation both needed
//           (RNE gives 130, tie to even; truncation alone of -129.5 gives 0)
//   lane 1: 0.75  -> 0;             device trunc(0.75) = 0: agrees; NEG ignored alone gives 1
//   lane 2: 5.0   -> 0;             device 5: NEG ignored alone gives it
//   lane 3: -3.0  -> 3;             device -3 -> 0: NEG ignored gives it, and so does ABS[0]=1
//           (-|-3| = -3 -> 0), a coincidence on a negative input
// Truncation changes no word of this batch alone (every lane exact or clamped).
// Alone, acts_as_if.neg0=0 breaks the agreeing lane 1, so ABS takes lane 3 and lanes 0 and 2
// need a pair with a setting that changes nothing alone. With neg0=0 and truncation known,
// the two together explain lanes 0, 2, 3 and keep lane 1: lane 0 needs both, lanes 2 and 3
// NEG ignored only; no field coincidence is named.
TEST(Attribute, KnownSettingsExplainFirstTogether) {
  proto::TestCase tc;
  tc.set_target("gfx942");
  tc.set_instr(proto::v_cvt_pk_u8_f32);
  tc.mutable_encoding()->set_neg(1);
  for (uint32_t s0 : {0x43018000u, 0x3f400000u, 0x40a00000u, 0xc0400000u}) tc.add_lanes()->set_src0(s0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> expected = {0, 0, 0, 3};
  const std::vector<uint32_t> observed = {0x81, 0, 5, 0};
  auto alone = Attribute(*rc, expected, observed, {});
  ASSERT_TRUE(alone.ok()) << alone.status();
  std::set<std::string> names;
  for (const Cause& c : *alone) names.insert(c.name);
  EXPECT_EQ(names, (std::set<std::string>{"acts_as_if.abs0=1", "acts_as_if.neg0=0",
                                           "pk_u8_rounding=truncate"}));
  const std::vector<std::string> known = {"acts_as_if.neg0=0", "pk_u8_rounding=truncate"};
  auto causes = Attribute(*rc, expected, observed, {}, {}, known);
  ASSERT_TRUE(causes.ok()) << causes.status();
  ASSERT_EQ(causes->size(), 2u);
  EXPECT_EQ((*causes)[0].name, "acts_as_if.neg0=0");
  EXPECT_EQ((*causes)[0].lanes, (std::vector<size_t>{0, 2, 3}));
  EXPECT_EQ((*causes)[1].name, "pk_u8_rounding=truncate");
  EXPECT_EQ((*causes)[1].lanes, (std::vector<size_t>{0}));
}

// Three deviations on one lane, one of them shown by no lane alone. gfx1201
// v_cvt_sr_bf8_f32 (OCP E5M2, bias 15: 0x7b = 57344 the largest finite, 0x7c = +Inf, 0x3c =
// 1.0), NEG[0] set, MODE[23] FP16_OVFL set (overflow saturates). The seed is S1's top 21 bits
// (E5M2 drops 21 of f32's 23 fraction bits): 0xfffff800 -> 0x1fffff. Lane 0, src0 0x47500001
// (53248.0039): the model negates it; carry_truncate adds the seed below the kept LSB,
// (0x47500001 - (112 << 23)) + 0x1fffff = 0x0f700000, >> 21 = 0x7b, so -57344 = 0xfb. The
// device ignores NEG[0], adds the seed literally (fraction 0x500001 + 0x1fffff = 0x700000:
// 0x47700000 = 61440, halfway between 57344 and 65536, RNE to the even code 0x7c: overflow),
// and ignores FP16_OVFL: +Inf 0x7c. Each alone and each pair misses: neg0=0 gives 0x7b,
// literal 0xfb (saturated), fp16_ovfl=ignored 0xfb (no overflow without the literal add);
// neg0=0 with literal 0x7b, neg0=0 with fp16_ovfl=ignored 0x7b, literal with fp16_ovfl=ignored
// -Inf 0xfc. Lane 1, src0 1.0, seed 0: model -1.0 = 0xbc, device +1.0 = 0x3c (neg0=0 alone).
// With neg0=0 and literal known, the three together give lane 0: it counts for all three
// (without any one of them the other two miss it), not for a class.
TEST(Attribute, KnownSettingsAndOneMoreExplainALaneOfThreeDeviations) {
  proto::TestCase tc;
  tc.set_target("gfx1201");
  tc.set_instr(proto::v_cvt_sr_bf8_f32);
  tc.mutable_encoding()->set_neg(1);
  tc.set_mode(0x008000f0);
  proto::Lane* l0 = tc.add_lanes();
  l0->set_src0(0x47500001);
  l0->set_src1(0xfffff800);
  tc.add_lanes()->set_src0(0x3f800000);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> expected = {0xfb, 0xbc};
  const std::vector<uint32_t> observed = {0x7c, 0x3c};
  const std::vector<std::string> known = {"acts_as_if.neg0=0", "sr_rounding=literal"};
  auto causes = Attribute(*rc, expected, observed, {}, {}, known);
  ASSERT_TRUE(causes.ok()) << causes.status();
  std::map<std::string, std::vector<size_t>> lanes;
  for (const Cause& c : *causes) lanes[c.name] = c.lanes;
  EXPECT_EQ(lanes, (std::map<std::string, std::vector<size_t>>{
                       {"acts_as_if.neg0=0", {0, 1}},
                       {"fp16_ovfl=ignored", {0}},
                       {"sr_rounding=literal", {0}},
                   }));
}

// Equivalent readings: one name whatever the order they showed in, values sorted.
TEST(CauseName, EquivalentReadingsSortedAndBack) {
  EXPECT_EQ(CauseName({"fp8_nan=sign_preserving", "fp8_nan=sign_7f"}),
            "fp8_nan=sign_7f+sign_preserving");
  EXPECT_EQ(CauseName({"fp8_nan=sign_7f", "fp8_nan=sign_preserving"}),
            "fp8_nan=sign_7f+sign_preserving");
  EXPECT_EQ(CauseName({"sr_seed=low"}), "sr_seed=low");
  EXPECT_EQ(SettingsOfCause("fp8_nan=sign_7f+sign_preserving"),
            (std::vector<std::string>{"fp8_nan=sign_7f", "fp8_nan=sign_preserving"}));
  EXPECT_EQ(SettingsOfCause("acts_as_if.neg0=0"), std::vector<std::string>{"acts_as_if.neg0=0"});
  EXPECT_TRUE(SettingsOfCause("nan_encoding").empty());
}

// A confirmation batch narrows equivalent readings to the one the device follows. gfx950
// v_cvt_sr_bf8_f32 (OCP E5M2): a positive quiet NaN is the canonical 0xfe by default,
// sign|0x7e = 0x7e under fp8_nan=sign_preserving, sign|0x7f = 0x7f under sign_7f. The device
// answers 0x7e: sign_7f is refuted, sign_preserving not. 1.0 (0x3c) agrees: neither matters.
TEST(RefutedSettings, AConfirmationBatchPartsEquivalentReadings) {
  proto::TestCase tc = Batch(0);
  tc.set_instr(proto::v_cvt_sr_bf8_f32);
  AddLane(&tc, 0x7fc00000, 0, 0);
  AddLane(&tc, 0x3f800000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const Cause both{"fp8_nan=sign_7f+sign_preserving", true, {0}, {},
                   {"fp8_nan=sign_7f", "fp8_nan=sign_preserving"}};
  auto refuted = RefutedSettings(*rc, Hypotheses{}, {both}, std::vector<uint32_t>{0x7e, 0x3c}, {});
  ASSERT_TRUE(refuted.ok()) << refuted.status();
  EXPECT_EQ(*refuted, std::vector<std::string>{"fp8_nan=sign_7f"});
  // A device that follows the default there refutes both; so does a batch that never makes
  // them matter (no NaN lane): a setting is confirmed only where fresh lanes show it.
  refuted = RefutedSettings(*rc, Hypotheses{}, {both}, std::vector<uint32_t>{0xfe, 0x3c}, {});
  ASSERT_TRUE(refuted.ok());
  EXPECT_EQ(refuted->size(), 2u);
  proto::TestCase plain = Batch(0);
  plain.set_instr(proto::v_cvt_sr_bf8_f32);
  AddLane(&plain, 0x3f800000, 0, 0);
  auto prc = ResolveTestCase(plain);
  ASSERT_TRUE(prc.ok());
  refuted = RefutedSettings(*prc, Hypotheses{}, {both}, std::vector<uint32_t>{0x3c}, {});
  ASSERT_TRUE(refuted.ok());
  EXPECT_EQ(refuted->size(), 2u);
}

// A small cause named by a coincidence must not refute a large true one checked beside it, and
// is itself checked beside every larger one (RefutedSettings' others). Device: the literal SR
// add on gfx950 fp8 (OCP E4M3), no other deviation. Lane 0: S0=0x3fffffff S1=0xfffff000 gives
// 0x39 under sr_rounding=literal, 0x40 under the default (the errata.h sr_wrap example);
// lane 1: S0=1.0, seed 0 is exact, 0x38 under both. The bogus cause acts_as_if.neg0=1 negates
// S0: 0xb9 and 0xb8 with the literal add, so it changes both lanes and matches neither.
TEST(RefutedSettings, ASmallCoincidenceDoesNotRefuteALargerCause) {
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x3fffffff, 0xfffff000, 0);
  AddLane(&tc, 0x3f800000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> observed = {0x39, 0x38};
  const Cause literal{"sr_rounding=literal", true, {0, 1, 2, 3, 4, 5, 6, 7}, {}, {"sr_rounding=literal"}};
  Cause bogus{"acts_as_if.neg0=1", true, {0}, {}, {"acts_as_if.neg0=1"}};
  std::vector<std::string> confirmed;
  auto refuted = RefutedSettings(*rc, Hypotheses{}, {literal, bogus}, observed, {}, &confirmed);
  ASSERT_TRUE(refuted.ok()) << refuted.status();
  EXPECT_EQ(*refuted, std::vector<std::string>{"acts_as_if.neg0=1"});
  EXPECT_EQ(confirmed, std::vector<std::string>{"sr_rounding=literal"});
  // Named on more lanes than the literal add, the bogus cause is always among its others, so
  // both are refuted, as before subsets were tried; confirmed, the same.
  bogus.lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  refuted = RefutedSettings(*rc, Hypotheses{}, {literal, bogus}, observed, {});
  ASSERT_TRUE(refuted.ok());
  EXPECT_EQ(refuted->size(), 2u);
  bogus.lanes = {0};
  const std::vector<std::string> known = {"acts_as_if.neg0=1"};
  refuted = RefutedSettings(*rc, Hypotheses{}, {literal, bogus}, observed, {}, nullptr, known);
  ASSERT_TRUE(refuted.ok());
  EXPECT_EQ(refuted->size(), 2u);
}

// A field named on a batch of one sign, checked on a confirmation batch of both. gfx942
// v_cvt_pk_u8_f32, NEG[0] and ABS[0] set (the model converts -|x|: every lane 0), byte 0,
// src2 0. The device ignores NEG[0] and truncates: |x| truncated. Lanes -3.0, 5.0, -2.75,
// 1.5: device 3, 5, 2, 1. ABS cleared (acts_as_if.abs0=0: -x) gives 3, 0, 3 (2 with
// truncation), 0: with truncation (confirmed) it matters on lanes 0 and 2 only and gives the
// device's words there, so it held before. NEG ignored (|x|) gives the device's words on those
// two lanes too and on lanes 1 and 3, which ABS cleared misses: outdone, it is refuted, and
// truncation (it matters on lane 2: 2.75 -> 3 rounded, 2 truncated) still holds.
TEST(RefutedSettings, AFieldThatAnotherExplainsWithMoreLanesIsNotConfirmed) {
  proto::TestCase tc;
  tc.set_target("gfx942");
  tc.set_instr(proto::v_cvt_pk_u8_f32);
  tc.mutable_encoding()->set_neg(1);
  tc.mutable_encoding()->set_abs(1);
  for (uint32_t s0 : {0xc0400000u, 0x40a00000u, 0xc0300000u, 0x3fc00000u}) tc.add_lanes()->set_src0(s0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const std::vector<uint32_t> observed = {3, 5, 2, 1};
  const Cause abs{"acts_as_if.abs0=0", true, {0, 2}, {}, {"acts_as_if.abs0=0"}};
  const Cause trunc{"pk_u8_rounding=truncate", true, {2}, {}, {"pk_u8_rounding=truncate"}};
  const std::vector<std::string> known = {"pk_u8_rounding=truncate"};
  std::vector<std::string> held;
  auto refuted = RefutedSettings(*rc, Hypotheses{}, {abs, trunc}, observed, {}, &held, known);
  ASSERT_TRUE(refuted.ok()) << refuted.status();
  EXPECT_EQ(*refuted, (std::vector<std::string>{"acts_as_if.abs0=0"}));
  EXPECT_EQ(held, (std::vector<std::string>{"pk_u8_rounding=truncate"}));
  // NEG ignored itself holds there: nothing else gives the device's words on lanes 1 and 3.
  const Cause neg{"acts_as_if.neg0=0", true, {0, 1, 2, 3}, {}, {"acts_as_if.neg0=0"}};
  refuted = RefutedSettings(*rc, Hypotheses{}, {neg, trunc}, observed, {}, nullptr, known);
  ASSERT_TRUE(refuted.ok()) << refuted.status();
  EXPECT_TRUE(refuted->empty()) << (*refuted)[0];
}

// A confirmation batch's fresh lanes may show a cause the first batch did not (its one source
// was uniform). gfx1201 v_cvt_sr_bf8_f32 (OCP E5M2, derivation as in
// KnownSettingsAndOneMoreExplainALaneOfThreeDeviations), NEG[0] set, MODE 0xf0 (FP16_OVFL
// clear: overflow gives Inf). NEG ignored is checked alone (the first batch named nothing
// else). Lane 0, 1.0 with seed 0: model -1.0 = 0xbc, device 0x3c, NEG ignored gives it. Lane
// 1, 53248.0039 with seed 0xfffff800: model 0xfb; the device, NEG ignored and the literal add,
// 0x47700000 rounded to even, code 0x7c beyond the largest finite: +Inf 0x7c. NEG ignored
// alone gives 0x7b (carry_truncate), with sr_rounding=literal 0x7c: the lane shows it with one
// more deviation, so it holds. A lane 2.0 with seed 0 where the device gives the model's 0xc0
// (-2.0) refutes it: there it changes the word and the device does not follow.
TEST(RefutedSettings, AFreshLaneShowingAnotherCauseBesideDoesNotRefute) {
  proto::TestCase tc;
  tc.set_target("gfx1201");
  tc.set_instr(proto::v_cvt_sr_bf8_f32);
  tc.mutable_encoding()->set_neg(1);
  tc.set_mode(0xf0);
  tc.add_lanes()->set_src0(0x3f800000);
  proto::Lane* l1 = tc.add_lanes();
  l1->set_src0(0x47500001);
  l1->set_src1(0xfffff800);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  const Cause neg{"acts_as_if.neg0=0", true, {0}, {}, {"acts_as_if.neg0=0"}};
  std::vector<std::string> held;
  auto refuted = RefutedSettings(*rc, Hypotheses{}, {neg}, std::vector<uint32_t>{0x3c, 0x7c}, {}, &held);
  ASSERT_TRUE(refuted.ok()) << refuted.status();
  EXPECT_TRUE(refuted->empty());
  EXPECT_EQ(held, (std::vector<std::string>{"acts_as_if.neg0=0"}));
  tc.add_lanes()->set_src0(0x40000000);
  rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  refuted = RefutedSettings(*rc, Hypotheses{}, {neg}, std::vector<uint32_t>{0x3c, 0x7c, 0xc0}, {});
  ASSERT_TRUE(refuted.ok()) << refuted.status();
  EXPECT_EQ(*refuted, (std::vector<std::string>{"acts_as_if.neg0=0"}));
}

TEST(Attribute, AgreeingBatchHasNoCauseAndSizesAreChecked) {
  proto::TestCase tc = Batch(0);
  AddLane(&tc, 0x3f800000, 0, 0);
  auto rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> w = {0x38};
  auto causes = Attribute(*rc, w, w, {});
  ASSERT_TRUE(causes.ok());
  EXPECT_TRUE(causes->empty());
  std::vector<uint32_t> two = {0x38, 0x38};
  EXPECT_FALSE(Attribute(*rc, w, two, {}).ok());
}

TEST(FaultCause, KindFromStatusCode) {
  EXPECT_EQ(FaultCause(absl::DeadlineExceededError("x")), "device_fault.hang");
  EXPECT_EQ(FaultCause(absl::UnavailableError("x")), "device_fault.crash");
  EXPECT_EQ(FaultCause(absl::InternalError("x")), "device_fault.fault");
}

// Each HIP error code is its own cause: the messages are the HIP runner's
// (device_harness/hip/hip_runner.cc HipErrorText: "<doing> failed with HIP error N (name...)",
// made a DeviceFaultLostContext, code kAborted).
TEST(FaultCause, EachHipErrorCodeIsItsOwnCause) {
  const absl::Status launch = DeviceFaultLostContext(
      "hip:0 fake MI300X (gfx942, wave64): running the kernel (hipStreamSynchronize after "
      "launching 64 lanes of v_cvt_pk_u8_f32 words d1dd0004 040e0501) failed with HIP error 719 "
      "(hipErrorLaunchFailure: unspecified launch failure)");
  const absl::Status illegal = DeviceFaultLostContext(
      "hip:0: copying 260 bytes of VDST and the MODE readback back from the device failed with "
      "HIP error 700 (hipErrorIllegalAddress)");
  EXPECT_EQ(FaultCause(launch), "device_fault.hip_error_719");
  EXPECT_EQ(FaultCause(illegal), "device_fault.hip_error_700");
  EXPECT_NE(FaultCause(launch), FaultCause(illegal));
  // Not a HIP error: the kind alone (a crash's stderr may quote HIP, but a crash is a crash).
  EXPECT_EQ(FaultCause(DeviceFaultLostContext("the context went away")), "device_fault.fault");
  EXPECT_EQ(FaultCause(DeviceFault("child died of SIGSEGV; stderr: HIP error 719 (x)")),
            "device_fault.crash");
  EXPECT_EQ(FaultCause(DeviceFaultLostContext("HIP error (no number)")), "device_fault.fault");
  // Not a device fault at all: never a HIP cause.
  EXPECT_EQ(FaultCause(absl::AbortedError("failed with HIP error 719 (x)")), "device_fault.fault");
}

}  // namespace
}  // namespace lanediff
