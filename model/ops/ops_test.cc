// The instruction semantics through the batch API: docs/semantics.md's discriminating inputs for
// every hypothesis on the targets where they matter, byte placement, modifiers, MODE; then
// properties (low seed bits, unwritten bytes) and the fast model against the oracle on a
// random + edge sample of contexts and lanes. Expected words are docs/semantics.md's bytes placed by
// hand; f32 bit patterns come from Python's struct.pack('<f', v).
#include "model/ops/ops.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "model/ops/input_class.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

using I = Instr;
constexpr I kPk = I::v_cvt_pk_u8_f32;
constexpr I kFp8 = I::v_cvt_sr_fp8_f32;
constexpr I kBf8 = I::v_cvt_sr_bf8_f32;
constexpr I kPkFp8 = I::v_cvt_pk_fp8_f32;
constexpr I kPkBf8 = I::v_cvt_pk_bf8_f32;

struct Row {
  const char* target;
  Instr instr;
  Modifiers mods;
  uint32_t mode;
  std::vector<const char*> hyps;
  uint32_t src0, src1, src2, vdst_old;
  uint32_t want;
  const char* separates;
};

OpContext Ctx(const char* target, Instr instr, Modifiers mods, uint32_t mode,
              const std::vector<const char*>& hyps) {
  OpContext ctx;
  ctx.target = *FindTarget(target);
  ctx.instr = instr;
  ctx.mods = mods;
  ctx.mode = mode;
  for (const char* h : hyps) EXPECT_TRUE(SetHypothesis(h, &ctx.hyp).ok()) << h;
  return ctx;
}

Modifiers M(uint8_t opsel = 0, uint8_t neg = 0, uint8_t abs = 0, bool clamp = false,
            uint8_t omod = 0) {
  Modifiers m;
  m.opsel = opsel;
  m.neg = neg;
  m.abs = abs;
  m.clamp = clamp;
  m.omod = omod;
  return m;
}

// The fast model and the oracle give the same word on every lane of `lanes` under `ctx`.
::testing::AssertionResult FastMatchesOracle(const OpContext& ctx, LaneBatch& lanes,
                                             const std::string& what) {
  // Every destination word of every lane (a VGPR pair: lane i's at 2i, 2i + 1).
  const size_t w = static_cast<size_t>(DstWords(ctx.instr));
  std::vector<uint32_t> fast(lanes.size() * w), slow(lanes.size() * w);
  if (!Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok() ||
      !EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok()) {
    return ::testing::AssertionFailure() << what << ": evaluation failed";
  }
  for (size_t j = 0; j < lanes.size() * w; ++j) {
    const size_t i = j / w;
    if (fast[j] == slow[j]) continue;
    return ::testing::AssertionFailure()
           << what << " " << ctx.target->name << " " << InstrName(ctx.instr) << std::hex
           << " mode=" << ctx.mode << " opsel=" << int(ctx.mods.opsel)
           << " neg=" << int(ctx.mods.neg) << " abs=" << int(ctx.mods.abs)
           << " clamp=" << ctx.mods.clamp << " lane " << lanes.src0()[i] << " "
           << lanes.src1()[i] << " word " << j % w << ": fast " << fast[j] << " oracle "
           << slow[j];
  }
  return ::testing::AssertionSuccess();
}

constexpr uint32_t kD = kDefaultMode;  // 0xf0: RNE, denormals on, FP16_OVFL off
constexpr uint32_t kOld = 0xaabbccdd;
constexpr uint32_t kS2 = 0x11223344;

// Long: a data table of hand-derived cases, one row each.
const std::vector<Row>& Rows() {
  static const auto* rows = new std::vector<Row>{
      // ---- v_cvt_pk_u8_f32 (docs/semantics.md §3) -------------------------------------------
      {"gfx908", kPk, M(), kD, {}, 0x43018000, 2, kS2, kOld, 0x11823344,
       "129.5 RNE -> 130 = 0x82 into byte 2 of S2 (truncate: 0x81); VDST_old unused"},
      {"gfx908", kPk, M(), kD, {"pk_u8_rounding=truncate"}, 0x43018000, 2, kS2, kOld, 0x11813344,
       "pk_u8_rounding=truncate: 129.5 -> 129"},
      {"gfx1030", kPk, M(), kD, {}, 0x3fc00000, 0, kS2, 0, 0x11223302, "1.5 -> 2 in byte 0"},
      {"gfx1100", kPk, M(), kD, {}, 0x40200000, 1, kS2, 0, 0x11220244, "2.5 -> 2 in byte 1"},
      {"gfx1201", kPk, M(), kD, {}, 0x437e8000, 3, kS2, 0, 0xfe223344, "254.5 -> 254 in byte 3"},
      {"gfx1250", kPk, M(), kD, {}, 0x437f8000, 0xfffffffd, kS2, 0, 0x1122ff44,
       "255.5 -> 255; S1 = 0xfffffffd selects byte 1 (S1[31:2] ignored)"},
      {"gfx942", kPk, M(), kD, {}, 0xbf000000, 0, kS2, 0, 0x11223300, "-0.5 -> 0"},
      {"gfx942", kPk, M(), 0xf1, {}, 0x3e800000, 0, kS2, 0, 0x11223301,
       "MODE round toward +inf: 0.25 -> 1 (RNE 0)"},
      {"gfx942", kPk, M(), 0xf1, {"pk_u8_rounding=truncate"}, 0x3e800000, 0, kS2, 0, 0x11223300,
       "truncate ignores MODE: 0.25 -> 0"},
      {"gfx950", kPk, M(), 0xf3, {}, 0x4301e666, 0, kS2, 0, 0x11223381,
       "MODE round toward zero: 129.9 -> 129"},
      {"gfx950", kPk, M(), 0xf2, {}, 0x3fc00000, 0, kS2, 0, 0x11223301,
       "MODE round toward -inf: 1.5 -> 1"},
      {"gfx1010", kPk, M(), kD, {}, 0xffc00000, 0, kS2, 0, 0x11223300, "NaN -> 0"},
      {"gfx1010", kPk, M(), kD, {}, 0x7f800000, 0, kS2, 0, 0x112233ff, "+Inf -> 255"},
      {"gfx1010", kPk, M(), 0xf1, {}, 0x00000001, 0, kS2, 0, 0x11223301,
       "denormal kept (MODE[4]=1), round up: 1"},
      {"gfx1010", kPk, M(), 0xe1, {}, 0x00000001, 0, kS2, 0, 0x11223300,
       "denormal flushed (MODE[4]=0), round up: 0"},
      {"gfx90a", kPk, M(0, 1), kD, {}, 0x3fc00000, 0, kS2, 0, 0x11223300, "NEG: -1.5 -> 0"},
      {"gfx90a", kPk, M(0, 0, 1), kD, {}, 0xbfc00000, 0, kS2, 0, 0x11223302, "ABS: |-1.5| -> 2"},
      {"gfx90a", kPk, M(0, 1, 1), kD, {}, 0xbfc00000, 0, kS2, 0, 0x11223300,
       "ABS then NEG: -|-1.5| -> 0 (NEG then ABS would give 2)"},
      {"gfx90a", kPk, M(0xf, 6, 6, true, 3), kD, {}, 0x3fc00000, 0, kS2, 0, 0x11223302,
       "src1/src2 NEG/ABS, OPSEL, CLAMP, OMOD: no effect under the default reading"},

      // ---- SR: sr_rounding (docs/semantics.md §6) on OCP targets ------------------------------
      {"gfx1201", kFp8, M(), kD, {}, 0x3fffffff, 0xfffff000, 0, kOld, 0xaabbcc40,
       "carry_truncate: ~2.0 + all-ones seed carries to 2.0 = 0x40"},
      {"gfx1201", kFp8, M(), kD, {"sr_rounding=literal"}, 0x3fffffff, 0xfffff000, 0, kOld,
       0xaabbcc39, "literal: the 23-bit add wraps: 0x39"},
      {"gfx950", kFp8, M(), kD, {}, 0x3f840000, 0x80000000, 0, kOld, 0xaabbcc38,
       "1 + 2^-5, seed 1/2: truncate 0x38"},
      {"gfx950", kFp8, M(), kD, {"sr_rounding=literal"}, 0x3f840000, 0x80000000, 0, kOld,
       0xaabbcc39, "literal: RNE of 1.09375 -> 0x39"},
      {"gfx1200", kFp8, M(), kD, {}, 0x35800000, 0xfffff000, 0, kOld, 0xaabbcc01,
       "2^-20 with seed 0xfffff: subnormal SR -> 0x01"},
      {"gfx1200", kFp8, M(), kD, {}, 0x35800000, 0xffdff000, 0, kOld, 0xaabbcc00,
       "2^-20 with seed 0xffdff: -> 0x00"},
      {"gfx1200", kFp8, M(), kD, {"sr_rounding=literal"}, 0x35800000, 0xfffff000, 0, kOld,
       0xaabbcc00, "literal: always 0x00"},
      {"gfx950", kBf8, M(), kD, {}, 0x7f800000, 0xfffff800, 0, kOld, 0xaabbcc7c,
       "bf8 +Inf with a non-zero seed stays +Inf under carry_truncate"},
      {"gfx950", kBf8, M(), kD, {"sr_rounding=literal"}, 0x7f800000, 0xfffff800, 0, kOld,
       0xaabbccfe, "literal: Inf + noise is a NaN -> 0xfe"},
      {"gfx950", kBf8, M(), kD, {}, 0x47700000, 0x80000000, 0, kOld, 0xaabbcc7c,
       "bf8 61440 = max + half quantum, seed 1/2: carries past max -> Inf 0x7c"},
      {"gfx950", kBf8, M(), kD, {}, 0x47700000, 0x7ffff800, 0, kOld, 0xaabbcc7b,
       "bf8 61440, seed just under 1/2: truncates to max 0x7b"},
      {"gfx1201", kBf8, M(), kD, {}, 0x3f900000, 0x80000000, 0, kOld, 0xaabbcc3d,
       "bf8: 1.125 + seed 1/2 (S1[31] is the seed's top bit, 21-bit seed) -> 1.25"},
      {"gfx1201", kBf8, M(), kD, {}, 0x3f900000, 0x7ffff800, 0, kOld, 0xaabbcc3c,
       "bf8: S1[31:11] = 0x0fffff is just under 1/2 -> 1.0"},

      // ---- destination byte: OPSEL[3:2], OPSEL[3] high --------------------------------
      {"gfx1201", kFp8, M(0x4), kD, {}, 0x3f800000, 0, 0, kOld, 0xaabb38dd, "OPSEL=0b0100: byte 1"},
      {"gfx1201", kFp8, M(0x8), kD, {}, 0x3f800000, 0, 0, kOld, 0xaa38ccdd, "OPSEL=0b1000: byte 2"},
      {"gfx942", kBf8, M(0xc), kD, {}, 0x3f800000, 0, 0, kOld, 0x40bbccdd,
       "OPSEL=0b1100: byte 3; gfx942 bf8 is E5M2 FNUZ: 1.0 = 0x40"},
      {"gfx942", kFp8, M(0x3), kD, {}, 0x3f800000, 0, 0, kOld, 0xaabbcc40,
       "OPSEL[1:0] no effect: byte 0; E4M3 FNUZ 1.0 = 0x40"},

      // ---- formats and specials per target -------------------------------------------
      {"gfx942", kFp8, M(), kD, {}, 0x7fc00000, 0, 0, 0, 0x80, "FNUZ NaN -> 0x80"},
      {"gfx942", kFp8, M(), kD, {}, 0xff800000, 0, 0, 0, 0x80, "FNUZ -Inf -> 0x80"},
      {"gfx942", kFp8, M(), kD, {}, 0x80000000, 0, 0, 0, 0x00, "FNUZ -0 -> 0x00"},
      {"gfx950", kFp8, M(), kD, {}, 0x80000000, 0, 0, 0, 0x80, "OCP -0 -> 0x80"},
      {"gfx950", kFp8, M(), kD, {}, 0x7f800000, 0, 0, 0, 0x7f, "OCP E4M3 +Inf -> 0x7f"},
      {"gfx950", kFp8, M(0, 1), kD, {}, 0x3f800000, 0, 0, 0, 0xb8, "src0 NEG: -1.0 = 0xb8"},
      {"gfx950", kFp8, M(0, 0, 1), kD, {}, 0xbf800000, 0, 0, 0, 0x38, "src0 ABS: 1.0 = 0x38"},

      // ---- fp8_nan ----------------------------------------------------------------------
      {"gfx950", kFp8, M(), kD, {}, 0x7fc00000, 0, 0, 0, 0xff, "canonical: +NaN -> 0xff"},
      {"gfx950", kFp8, M(), kD, {"fp8_nan=sign_preserving"}, 0x7fc00000, 0, 0, 0, 0x7f,
       "sign_preserving: +NaN -> 0x7f"},
      {"gfx1201", kBf8, M(), kD, {"fp8_nan=sign_preserving"}, 0x7fc00000, 0, 0, 0, 0x7e,
       "bf8 sign_preserving: +NaN -> 0x7e (canonical 0xfe)"},

      // ---- fp16_ovfl (MODE[23]) -------------------------------------------------------
      {"gfx1201", kFp8, M(), 0x8000f0, {}, 0x447a0000, 0, 0, 0, 0x7e,
       "MODE[23] set, saturate_finite: 1000 -> max 0x7e"},
      {"gfx1201", kFp8, M(), 0x8000f0, {"fp16_ovfl=ignored"}, 0x447a0000, 0, 0, 0, 0x7f,
       "fp16_ovfl=ignored: 1000 -> 0x7f"},
      {"gfx1201", kFp8, M(), kD, {}, 0x447a0000, 0, 0, 0, 0x7f, "MODE[23] clear: 0x7f"},
      {"gfx1201", kFp8, M(), 0x8000f0, {}, 0x7f800000, 0, 0, 0, 0x7f,
       "saturate_finite leaves Inf alone: 0x7f"},
      {"gfx942", kFp8, M(), 0x8000f0, {}, 0xc47a0000, 0, 0, 0, 0xff,
       "FNUZ -1000, MODE[23], saturate_finite: 0xff"},
      {"gfx942", kFp8, M(), 0x8000f0, {"fp16_ovfl=ignored"}, 0xc47a0000, 0, 0, 0, 0x80,
       "FNUZ -1000, fp16_ovfl=ignored: 0x80"},
      {"gfx950", kBf8, M(), 0x8000f0, {}, 0x49742400, 0, 0, 0, 0x7b,
       "bf8 1e6, MODE[23]: 0x7b (ignored: 0x7c)"},

      // ---- v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (docs/semantics.md §10) -----------------------
      // By hand: E4M3 OCP (bias 7) 1.0 = 2^0 -> exponent 7 -> 0x38, 2.0 -> 0x40; E4M3 FNUZ
      // (bias 8) 1.0 -> 0x40, 2.0 -> 0x48; E5M2 OCP (bias 15) 1.0 -> 0x3c, 2.0 -> 0x40;
      // UE5M3 (bias 15, 3 mantissa bits) 1.0 -> 15 << 3 = 0x78, 2.0 -> 0x80.
      // {fp8(S1) << 8 | fp8(S0)} replaces the half OPSEL[3] selects; the other half is kOld's.
      {"gfx950", kPkFp8, M(), kD, {}, 0x3f800000, 0x40000000, 0, kOld, 0xaabb4038,
       "pk_fp8 OPSEL[3]=0: 1.0, 2.0 -> 0x4038 in bits [15:0]"},
      {"gfx950", kPkFp8, M(0b1000), kD, {}, 0x3f800000, 0x40000000, 0, kOld, 0x4038ccdd,
       "pk_fp8 OPSEL[3]=1: 0x4038 in bits [31:16]"},
      {"gfx942", kPkFp8, M(), kD, {}, 0x3f800000, 0x40000000, 0, kOld, 0xaabb4840,
       "pk_fp8 on gfx942 is E4M3 FNUZ: 1.0 -> 0x40, 2.0 -> 0x48"},
      {"gfx1200", kPkBf8, M(), kD, {}, 0x3f800000, 0x40000000, 0, kOld, 0xaabb403c,
       "pk_bf8 E5M2: 1.0 -> 0x3c, 2.0 -> 0x40"},
      {"gfx1250", kPkFp8, M(0, 0, 0, true), kD, {}, 0x3f800000, 0x40000000, 0, kOld, 0xaabb8078,
       "gfx1250 pk_fp8 CLAMP=1 selects UE5M3 (gfx1250_clamp=ue5m3): 1.0 -> 0x78, 2.0 -> 0x80"},
      // 1000.0 (0x447a0000) overflows E4M3 OCP (max 448 = 0x7e): RNE gives the NaN byte 0x7f
      // (OCP E4M3FN has no Inf; docs §5); MODE.FP16_OVFL=1 saturates to max finite 0x7e.
      {"gfx950", kPkFp8, M(), kD, {}, 0x447a0000, 0x3f800000, 0, kOld, 0xaabb387f,
       "pk_fp8 overflow 1000.0 -> 0x7f (NaN byte), FP16_OVFL off"},
      {"gfx950", kPkFp8, M(), kD | kModeFp16OvflBit, {}, 0x447a0000, 0x3f800000, 0, kOld,
       0xaabb387e, "pk_fp8 overflow 1000.0 with FP16_OVFL -> max finite 0x7e"},
      // -1.0 with NEG on src1 -> +1.0; ABS on src0 makes -2.0 -> 2.0.
      {"gfx950", kPkFp8, M(0, 0b10, 0b01), kD, {}, 0xc0000000, 0xbf800000, 0, kOld, 0xaabb3840,
       "pk_fp8 |S0| and -S1: -2.0 -> 0x40, -(-1.0) -> 0x38"},
      // ---- gfx1250_clamp ----------------------------------------------------------------
      {"gfx1250", kFp8, M(0, 0, 0, true), kD, {}, 0x3f800000, 0, 0, 0, 0x78,
       "gfx1250 CLAMP=1, ue5m3: 1.0 -> UE5M3 0x78"},
      {"gfx1250", kFp8, M(0, 0, 0, true), kD, {"gfx1250_clamp=ignored"}, 0x3f800000, 0, 0, 0, 0x38,
       "gfx1250_clamp=ignored (A0): E4M3 0x38"},
      {"gfx1250", kFp8, M(0, 0, 0, true), kD, {}, 0xbf800000, 0, 0, 0, 0x00,
       "UE5M3: -1.0 -> 0x00 (E4M3: 0xb8)"},
      {"gfx1250", kFp8, M(0, 0, 0, true), kD, {}, 0x49742400, 0, 0, 0, 0xfe,
       "UE5M3: 1e6 saturates to 0xfe (E4M3: 0x7f)"},
      {"gfx1251", kFp8, M(0, 0, 0, true), kD, {}, 0x7f800000, 0, 0, 0, 0xfe, "UE5M3 +Inf -> 0xfe"},
      {"gfx1250", kFp8, M(), kD, {}, 0x3f800000, 0, 0, 0, 0x38, "CLAMP=0: E4M3"},
      {"gfx1201", kFp8, M(0, 0, 0, true), kD, {}, 0x3f800000, 0, 0, 0, 0x38,
       "gfx1201: CLAMP has no effect"},
      {"gfx1250", kBf8, M(0, 0, 0, true), kD, {}, 0x3f800000, 0, 0, 0, 0x3c,
       "gfx1250 bf8: CLAMP has no effect"},
  };
  return *rows;
}

TEST(Ops, DiscriminatingInputs) {
  for (const Row& r : Rows()) {
    const OpContext ctx = Ctx(r.target, r.instr, r.mods, r.mode, r.hyps);
    ASSERT_TRUE(ValidateContext(ctx).ok()) << r.separates;
    EXPECT_EQ(EvaluateLane(ctx, r.src0, r.src1, r.src2, r.vdst_old), r.want)
        << r.target << " " << InstrName(r.instr) << ": " << r.separates;
    EXPECT_EQ(EvaluateLaneOracle(ctx, r.src0, r.src1, r.src2, r.vdst_old), r.want)
        << "oracle " << r.target << " " << InstrName(r.instr) << ": " << r.separates;
  }
}

// The unpacking conversion's byte selects, by hand (docs/semantics.md §10.5, §10.7). gfx942
// E4M3 FNUZ (bias 8): S0 = 0x40302010 holds 0x10 = 2^(2-8) = 2^-6 (0x3c800000) in byte 0,
// 0x20 = 2^-4 (0x3d800000), 0x30 = 2^-2 (0x3e800000), 0x40 = 2^0 (0x3f800000) in byte 3.
// SDWA src0_sel: pseudocode reads BYTE_1..3 as that byte and every other select as byte 0;
// extract reads BYTE_n as n and WORD_1 as byte 2. gfx1201 VOP3: byte = 2*OPSEL[0] + OPSEL[1].
TEST(Ops, Fp8ToF32ByteSelects) {
  const TargetTraits& gfx942 = **FindTarget("gfx942");
  const uint32_t by_byte_fnuz[4] = {0x3c800000u, 0x3d800000u, 0x3e800000u, 0x3f800000u};
  const int pseudocode[7] = {0, 1, 2, 3, 0, 0, 0}, extract[7] = {0, 1, 2, 3, 0, 2, 0};
  OpContext ctx;
  ctx.target = &gfx942;
  ctx.instr = Instr::v_cvt_f32_fp8;
  for (int sel = 0; sel < 7; ++sel) {
    ctx.mods.src0_sel = static_cast<uint8_t>(sel);
    ctx.hyp.fp8_sdwa_sel = Fp8SdwaSel::pseudocode;
    EXPECT_EQ(EvaluateLane(ctx, 0x40302010u, 0, 0, 0), by_byte_fnuz[pseudocode[sel]]) << sel;
    EXPECT_EQ(EvaluateLaneOracle(ctx, 0x40302010u, 0, 0, 0), by_byte_fnuz[pseudocode[sel]]) << sel;
    ctx.hyp.fp8_sdwa_sel = Fp8SdwaSel::extract;
    EXPECT_EQ(EvaluateLane(ctx, 0x40302010u, 0, 0, 0), by_byte_fnuz[extract[sel]]) << sel;
  }
  // gfx1201 OCP E4M3 (bias 7): 0x10 = 2^-5 (0x3d000000), 0x20 = 2^-3 (0x3e000000),
  // 0x30 = 2^-1 (0x3f000000), 0x40 = 2^1 (0x40000000).
  const TargetTraits& gfx1201 = **FindTarget("gfx1201");
  const uint32_t by_byte_ocp[4] = {0x3d000000u, 0x3e000000u, 0x3f000000u, 0x40000000u};
  OpContext g12;
  g12.target = &gfx1201;
  g12.instr = Instr::v_cvt_f32_fp8;
  for (uint8_t opsel = 0; opsel < 4; ++opsel) {
    g12.mods.opsel = opsel;
    const int byte = 2 * (opsel & 1) + (opsel >> 1);
    EXPECT_EQ(EvaluateLane(g12, 0x40302010u, 0, 0, 0), by_byte_ocp[byte]) << int(opsel);
  }
}

// The packed fp8 -> f32 conversion on gfx1200 (OCP E4M3, bias 7), VOP3 op_sel:[a,d]: OPSEL[0]
// selects S0's word, VDST = cvt(its low byte), VDST+1 = cvt(its high byte). By hand:
// 0x40 = 2^1 (0x40000000), 0x30 = 2^-1 (0x3f000000), 0x20 = 2^-3 (0x3e000000),
// 0x10 = 2^-5 (0x3d000000), 0x3c = 1.5 (0x3fc00000), 0x00 = +0.
// A constant in the 16-bit SRC0 (OpContext::constant16_srcs) is resolved to the src16_constant
// default reading (resolve.h: inline 1.0 -> 0x3c003c00); under low_only its high word reads 0.
TEST(Ops, PairWordSelectAndSixteenBitConstants) {
  const TargetTraits& gfx1200 = **FindTarget("gfx1200");
  OpContext ctx;
  ctx.target = &gfx1200;
  ctx.instr = Instr::v_cvt_pk_f32_fp8;
  LaneBatch lanes;
  lanes.Add(0x40302010u, 0, 0, 0);
  std::vector<uint32_t> out(2);
  auto run = [&](uint8_t opsel) {
    ctx.mods.opsel = opsel;
    EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(out)).ok());
    return std::pair<uint32_t, uint32_t>(out[0], out[1]);
  };
  EXPECT_EQ(run(0), std::make_pair(0x3d000000u, 0x3e000000u));  // word 0x2010
  EXPECT_EQ(run(1), std::make_pair(0x3f000000u, 0x40000000u));  // word 0x4030
  EXPECT_EQ(run(8), run(0));  // OPSEL[3] (op_sel:[0,1]) selects nothing here
  // Inline 1.0 in the 16-bit SRC0: lane word 0x3c003c00.
  lanes = LaneBatch();
  lanes.Add(0x3c003c00u, 0, 0, 0);
  ctx.constant16_srcs = 1;
  EXPECT_EQ(run(0), std::make_pair(0x00000000u, 0x3fc00000u));  // replicated, low word
  EXPECT_EQ(run(1), std::make_pair(0x00000000u, 0x3fc00000u));  // replicated, high word
  ASSERT_TRUE(SetHypothesis("src16_constant=low_only", &ctx.hyp).ok());
  EXPECT_EQ(run(0), std::make_pair(0x00000000u, 0x3fc00000u));  // the low word as before
  EXPECT_EQ(run(1), std::make_pair(0x00000000u, 0x00000000u));  // the high word is 0
  ctx.constant16_srcs = 0;  // a VGPR holding the same word: the hypothesis does not apply
  EXPECT_EQ(run(1), std::make_pair(0x00000000u, 0x3fc00000u));
  ctx.constant16_srcs = 1;
  std::vector<uint32_t> slow(2);
  ctx.mods.opsel = 1;
  ASSERT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
  EXPECT_EQ(slow, std::vector<uint32_t>({0u, 0u}));
}

// A batch through the fast function equals, lane by lane, the slow oracle run on that lane
// alone (every destination word), for every row on every target that has it: the fast path's
// batch-wide tables and caches change nothing a single lane would get from the oracle.
TEST(Ops, BatchEqualsOracleLaneByLane) {
  std::mt19937 rng(3);
  int pairs = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      OpContext ctx;
      ctx.target = &t;
      ctx.instr = instr;
      ctx.mode = kD;
      ASSERT_TRUE(ValidateContext(ctx).ok()) << t.name << " " << InstrName(instr);
      // Lanes laid out as the row reads them (a tuple source: every dword random).
      const LaneShape shape = GetInstrInfo(instr).lane_shape();
      LaneBatch lanes;
      lanes.SetShape(shape);
      for (int i = 0; i < 1000; ++i) {
        uint32_t w[3][kMaxSrcDwords];
        for (int s = 0; s < 3; ++s) {
          for (int k = 0; k < shape.src_dwords[s]; ++k) w[s][k] = rng();
        }
        lanes.AddWide(w[0], w[1], w[2], rng());
      }
      const size_t words = DstWords(instr);
      std::vector<uint32_t> out(OutputWords(instr, lanes.size()));
      ASSERT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(out)).ok());
      const LaneView all = lanes.view();
      for (size_t i = 0; i < lanes.size(); ++i) {
        const uint32_t old = lanes.vdst_old()[i];
        LaneView lane{all.src0 + i * shape.src_dwords[0], all.src1 + i * shape.src_dwords[1],
                      all.src2 + i * shape.src_dwords[2], &old, 1, shape};
        std::vector<uint32_t> one(words);
        ASSERT_TRUE(EvaluateOracle(ctx, lane, absl::MakeSpan(one)).ok());
        for (size_t w = 0; w < words; ++w) {
          ASSERT_EQ(out[i * words + w], one[w])
              << t.name << " " << InstrName(instr) << " lane " << i << " word " << w;
        }
      }
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 0);
}

// S1[11:0] (fp8) / S1[10:0] (bf8) never matter; the unwritten bytes are always the old VDST's
// (SR) or S2's (pk_u8).
TEST(Ops, LowSeedBitsAndUnwrittenBytes) {
  std::mt19937 rng(4);
  for (const TargetTraits& t : AllTargets()) {
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      for (uint8_t opsel = 0; opsel < 16; ++opsel) {
        OpContext ctx;
        ctx.target = &t;
        ctx.instr = instr;
        ctx.mods.opsel = opsel;
        ctx.mods.clamp = (opsel & 1) != 0;
        for (int i = 0; i < 300; ++i) {
          const uint32_t s0 = rng(), s1 = rng(), s2 = rng(), old = rng();
          const uint32_t out = EvaluateLane(ctx, s0, s1, s2, old);
          if (instr == kPk) {
            const uint32_t mask = 0xffu << (8 * (s1 & 3));
            EXPECT_EQ(out & ~mask, s2 & ~mask) << t.name;
            continue;
          }
          if (GetInstrInfo(instr).write == DstWrite::dword &&
              GetInstrInfo(instr).src[0] != SrcRole::fp8_bytes) {
            // gfx950 v_prng_b32 (S0 only) and v_cvt_pk_{f16,bf16}_f32 (S0 and S1), by
            // docs/semantics.md §12: S2, the old VDST and OPSEL have no effect; gfx1250's
            // two-element SR rows (§13.2) read S2, the seed, and the interleaved FP6 encoders
            // (§11.16) S2, the scale; neither reads the old VDST or OPSEL. gfx1250's decodes with
            // an E8M0 scale register (§14.2) read OPSEL as scale_sel, not S2 or the old VDST.
            const bool reads_s1 = GetInstrInfo(instr).src[1] != SrcRole::unused;
            const bool reads_s2 = GetInstrInfo(instr).src[2] != SrcRole::unused;
            const bool scale_sel = GetInstrInfo(instr).opsel_syntax[static_cast<int>(t.family)] ==
                                   OpSelSyntax::scale_sel;
            OpContext no_opsel = ctx;
            no_opsel.mods.opsel = scale_sel ? opsel : 0;
            EXPECT_EQ(EvaluateLane(no_opsel, s0, reads_s1 ? s1 : static_cast<uint32_t>(rng()),
                                   reads_s2 ? s2 : static_cast<uint32_t>(rng()), rng()),
                      out)
                << t.name << " " << InstrName(instr) << " opsel=" << int(opsel);
            continue;
          }
          if (GetInstrInfo(instr).write == DstWrite::dword) {
            // The unpacking conversions: an f32 from one byte of S0, by hand from
            // docs/semantics.md §10.5: byte 2*OPSEL[0] + OPSEL[1] on gfx12/gfx1250 VOP3, byte 0
            // on GFX9 VOP3 (no SDWA here). S1, S2, the old VDST and S0's other bytes: no effect.
            // The packed ones (dst_bits 64; EvaluateLane gives VDST, the low byte of the word):
            // word OPSEL[0] on gfx12/gfx1250 (op_sel:[1,0]), so byte 2*OPSEL[0].
            // The scaled ones (S1 a scale_f32: gfx950 v_cvt_scalef32_f32_*): byte OPSEL[1:0]
            // (op_sel:[a,b,d]: AMD CDNA4 pseudocode `OPSEL[1:0].u2`), and S1 is read; their
            // word readers (a VGPR pair, or two 16-bit floats) read word OPSEL[0] (the
            // pseudocode's `OPSEL[0]`); the FP4 ones (two codes in a byte) read byte OPSEL[1:0]
            // (the pseudocode's `OPSEL[1:0]` of V_CVT_SCALEF32_PK_*_FP4). gfx1250's unscaled
            // packed decodes into two f16 (§13.7) read word OPSEL[0] (op_sel:[1,0]).
            const bool pair = GetInstrInfo(instr).dst_bits == 64;
            const bool scaled = GetInstrInfo(instr).src[1] == SrcRole::scale_f32;
            const bool fp4 = GetInstrInfo(instr).fp8_slot == Fp8Slot::fp4;
            const OutputKind kind = GetInstrInfo(instr).output;
            const bool word = (scaled && !fp4 &&
                               (pair || kind == OutputKind::f16 || kind == OutputKind::bf16)) ||
                              (!scaled && kind == OutputKind::f16);
            const int byte = scaled                   ? opsel & 3
                             : t.family == Family::gfx9 ? 0
                             : pair                   ? 2 * (opsel & 1)
                                                      : 2 * (opsel & 1) + ((opsel >> 1) & 1);
            const uint32_t keep = word ? 0xffffu << (16 * (opsel & 1)) : 0xffu << (8 * byte);
            const uint32_t s0b = (s0 & keep) | (static_cast<uint32_t>(rng()) & ~keep);
            const uint32_t s1b = scaled ? s1 : static_cast<uint32_t>(rng());
            EXPECT_EQ(EvaluateLane(ctx, s0b, s1b, rng(), rng()), out)
                << t.name << " " << InstrName(instr) << " opsel=" << int(opsel);
            continue;
          }
          if (GetInstrInfo(instr).write == DstWrite::half_at_opsel_3) {
            // The packed conversions: the half OPSEL[3] selects is written (by hand: OPSEL[3]
            // = 1 -> bits [31:16]), the other half is the old VDST's; no seed.
            const uint32_t mask = (opsel & 8) ? 0xffff0000u : 0x0000ffffu;
            EXPECT_EQ(out & ~mask, old & ~mask) << t.name << " opsel=" << int(opsel);
            continue;
          }
          const uint32_t mask = 0xffu << (8 * (opsel >> 2));
          EXPECT_EQ(out & ~mask, old & ~mask) << t.name << " opsel=" << int(opsel);
          const bool bf8 = GetInstrInfo(instr).fp8_slot == Fp8Slot::bf8;
          const uint32_t low = bf8 ? 0x7ffu : 0xfffu;
          const uint32_t s1b = (s1 & ~low) | (rng() & low);
          EXPECT_EQ(EvaluateLane(ctx, s0, s1b, s2, old), out)
              << t.name << " " << InstrName(instr) << std::hex << " s0=" << s0 << " s1=" << s1;
          // ...and the lowest bit that does matter can: flipping the seed's LSB changes the
          // result for some value (checked on a value whose dropped bits are all ones).
        }
        if (GetInstrInfo(instr).src[1] == SrcRole::sr_seed && GetInstrInfo(instr).writes_float()) {
          // The seed's lowest bit (S1[12] fp8, S1[11] bf8) is live: 1.0 + (all dropped bits
          // set) rounds up with seed 1 and not with seed 0. The scaled SR rows read S2 as the
          // block scale: 0x3f800000 (2^0) there, so the value stays 1.0 + the dropped bits.
          // A 16-bit source (SrcRole::data_f16x2 / data_bf16x2, S0[15:0]): the seed is S1's top
          // (fraction bits - M) bits, its lowest S1[22 + M] (f16) / S1[25 + M] (bf16); the value
          // 1.0 with every fraction bit below the format's set.
          const bool fp8 = GetInstrInfo(instr).fp8_slot != Fp8Slot::bf8;
          // (gfx1250's 8-wide SR encoders' 4-dword tuples: each dword one of these pairs.)
          const SrcRole role = Packed16Pair(GetInstrInfo(instr).src[0]);
          const uint32_t m = fp8 ? 3u : 2u;
          uint32_t lsb = fp8 ? 1u << 12 : 1u << 11;
          uint32_t x = fp8 ? 0x3f8fffffu : 0x3f9fffffu;
          // (In both halves: gfx1250's unscaled f16 rows read S0[31:16] under OPSEL[0].)
          if (role == SrcRole::data_f16x2) {
            lsb = 1u << (22 + m), x = 0x3c00u | ((1u << (10 - m)) - 1u), x |= x << 16;
          }
          if (role == SrcRole::data_bf16x2) lsb = 1u << (25 + m), x = 0x3f80u | ((1u << (7 - m)) - 1u);
          const uint32_t s2 = GetInstrInfo(instr).src[2] == SrcRole::scale_f32 ? 0x3f800000u : 0;
          EXPECT_NE(EvaluateLane(ctx, x, lsb, s2, 0), EvaluateLane(ctx, x, 0, s2, 0)) << t.name;
        }
      }
    }
  }
}

// The fast model against the oracle over random contexts (every target, instruction,
// modifier field, MODE bit that matters and hypothesis) and random + edge lanes.
TEST(Ops, FastMatchesOracleSample) {
  std::mt19937 rng(5);
  const uint32_t edges[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                            0xffc00001, 0x00000001, 0x807fffff, 0x3f800000, 0x3fffffff,
                            0x43018000, 0x437f8000, 0x43e80000, 0x47700000, 0x47f00000,
                            0x35800000, 0x3a800000, 0x37000000, 0x7f7fffff, 0x3f840000};
  int contexts = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      for (int c = 0; c < 24; ++c) {
        OpContext ctx;
        ctx.target = &t;
        ctx.instr = instr;
        ctx.mods = M(rng() & 15, rng() & 7, rng() & 7, rng() & 1, rng() & 3);
        ctx.mode = (rng() & 0x8000ff);
        for (const HypothesisInfo& h : AllHypotheses()) {
          h.set(&ctx.hyp, static_cast<uint8_t>(rng() % h.values.size()));
        }
        LaneBatch lanes;
        for (uint32_t e : edges) {
          lanes.Add(e, rng(), rng(), rng());
          lanes.Add(e, 0xfffff800, rng(), rng());
        }
        for (int i = 0; i < 256; ++i) {
          const uint32_t r = rng();
          // Half the lanes near 1.0 .. 2^17 where the formats live, half anywhere.
          const uint32_t s0 = i % 2 ? r : (r & 0x81ffffff) | 0x38000000;
          lanes.Add(s0, rng(), rng(), rng());
        }
        ASSERT_TRUE(FastMatchesOracle(ctx, lanes, "random hypotheses"));
        ++contexts;
      }
    }
  }
  EXPECT_GT(contexts, 400);
}

// Every value of every hypothesis, on every target and instruction that has it, with the other
// hypotheses at their defaults: the fast model against the oracle on edge lanes, the words
// just around each 8-bit code's boundaries and random lanes, with MODE.FP16_OVFL and CLAMP both
// ways. FastMatchesOracleSample mixes values at random; this one misses none.
TEST(Ops, FastMatchesOracleForEveryReading) {
  std::mt19937 rng(14);
  const uint32_t edges[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                            0xffc00001, 0x00000001, 0x3c7fffff, 0x3bffffff, 0x387fffff,
                            0x3a000000, 0xba000000, 0x43e00001, 0xc3e00001, 0x43f00000,
                            0x47f00000, 0xb8000000, 0x3f800001, 0x43018000, 0x477fe000};
  const uint32_t seeds[] = {0x0, 0xffffffff, 0x800, 0x400, 0xfffff, 0x1fffff, 0x80000000};
  int contexts = 0;
  for (const HypothesisInfo& h : AllHypotheses()) {
    for (size_t v = 0; v < h.values.size(); ++v) {
      for (const TargetTraits& t : AllTargets()) {
        for (Instr instr : kAllInstrs) {
          if (!t.Has(instr)) continue;
          for (uint32_t variant = 0; variant < 2; ++variant) {
            OpContext ctx;
            ctx.target = &t;
            ctx.instr = instr;
            ctx.mods = M(rng() & 15, rng() & 1, rng() & 1, variant == 1);
            ctx.mode = (variant == 1 ? 0x800000u : 0u) | (rng() & 0xf3);
            h.set(&ctx.hyp, static_cast<uint8_t>(v));
            LaneBatch lanes;
            for (uint32_t e : edges) {
              for (uint32_t s : seeds) lanes.Add(e, s, rng(), rng());
            }
            for (int i = 0; i < 128; ++i) {
              const uint32_t r = rng();
              lanes.Add(i % 2 ? r : (r & 0x81ffffff) | 0x38000000, rng(), rng(), rng());
            }
            ASSERT_TRUE(FastMatchesOracle(
                ctx, lanes, std::string(h.name) + "=" + std::string(h.values[v].name)));
            ++contexts;
          }
        }
      }
    }
  }
  EXPECT_GT(contexts, 800);
}

// The unpacking conversions, exhaustively over their input: every byte value in every byte
// position of S0, for every select (OPSEL[1:0]; SDWA src0_sel 0..6), OMOD, CLAMP, MODE[6]/[8]
// and every value of every hypothesis, on every target: fast == oracle.
TEST(Ops, Fp8ToF32EveryByteFastMatchesOracle) {
  size_t lanes_checked = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr) || GetInstrInfo(instr).src[0] != SrcRole::fp8_bytes) continue;
      LaneBatch lanes;
      for (uint32_t b = 0; b < 256; ++b) {
        for (int pos = 0; pos < 4; ++pos) {
          lanes.Add((b << (8 * pos)) | (0x5a5a5a5au & ~(0xffu << (8 * pos))), 0, 0, 0);
        }
      }
      // The scaled decodes (S1 a block scale) read no OMOD, CLAMP or MODE bit (LLVM refuses the
      // first two; their mode_bits are 0): every OPSEL[1:0] select only (their exact product
      // is checked on every byte x scale exponent x reading in model/fp/mx_test.cc).
      const uint32_t contexts = GetInstrInfo(instr).src[1] == SrcRole::scale_f32 ? 4 : 16;
      for (const HypothesisInfo& h : AllHypotheses()) {
        for (size_t v = 0; v < h.values.size(); ++v) {
          for (uint32_t k = 0; k < contexts; ++k) {  // every select, OMOD, both CLAMP and MODE
            OpContext ctx;
            ctx.target = &t;
            ctx.instr = instr;
            ctx.mods.opsel = static_cast<uint8_t>(k & 3);
            ctx.mods.src0_sel = static_cast<uint8_t>(k % 7);
            ctx.mods.omod = static_cast<uint8_t>((k >> 2) & 3);
            ctx.mods.clamp = ((k ^ (k >> 3)) & 1) != 0;
            ctx.mode = kDefaultMode ^ ((k >> 3) & 1 ? 0x140u : 0u);  // MODE[6], MODE[8]
            h.set(&ctx.hyp, static_cast<uint8_t>(v));
            ASSERT_TRUE(FastMatchesOracle(ctx, lanes, std::string(h.name)));
            lanes_checked += lanes.size();
          }
        }
      }
    }
  }
  EXPECT_GT(lanes_checked, 500000u);
}

TEST(Ops, ValidateContextErrors) {
  OpContext ctx;
  EXPECT_FALSE(ValidateContext(ctx).ok());
  ctx = Ctx("gfx908", kFp8, M(), kD, {});
  absl::Status s = ValidateContext(ctx);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.message(), "gfx908 has no v_cvt_sr_fp8_f32")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "v_cvt_pk_u8_f32")) << s;
  ctx = Ctx("gfx942", kFp8, M(16), kD, {});
  EXPECT_TRUE(absl::StrContains(ValidateContext(ctx).message(), "opsel")) << ValidateContext(ctx);
  ctx = Ctx("gfx942", kFp8, M(0, 8), kD, {});
  EXPECT_FALSE(ValidateContext(ctx).ok());
  ctx = Ctx("gfx942", kFp8, M(0, 0, 0, false, 4), kD, {});
  EXPECT_FALSE(ValidateContext(ctx).ok());
  ctx = Ctx("gfx942", kFp8, M(), kD, {});
  LaneBatch lanes;
  lanes.Add(0, 0, 0, 0);
  std::vector<uint32_t> out(2);
  EXPECT_FALSE(Evaluate(ctx, lanes.view(), absl::MakeSpan(out)).ok());
  EXPECT_FALSE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(out)).ok());
}

TEST(InputClass, PerInstruction) {
  const OpContext pk = Ctx("gfx1201", kPk, M(), kD, {});
  EXPECT_EQ(ClassifyInput(pk, 0x7fc00000, 0), "nan");
  EXPECT_EQ(ClassifyInput(pk, 0xff800000, 0), "inf");
  EXPECT_EQ(ClassifyInput(pk, 0x80000000, 0), "zero");
  EXPECT_EQ(ClassifyInput(pk, 0x00000001, 0), "denormal");
  EXPECT_EQ(ClassifyInput(pk, 0x437f0001, 0), "overflow");  // just above 255
  EXPECT_EQ(ClassifyInput(pk, 0x437f0000, 0), "normal");    // 255 exactly
  EXPECT_EQ(ClassifyInput(pk, 0x43018000, 0), "tie");       // 129.5
  EXPECT_EQ(ClassifyInput(pk, 0x3f000000, 0), "tie");       // 0.5
  EXPECT_EQ(ClassifyInput(pk, 0x437f8000, 0), "overflow");  // 255.5: above 255 first
  EXPECT_EQ(ClassifyInput(pk, 0x4301e666, 0), "normal");    // 129.9
  EXPECT_EQ(ClassifyInput(pk, 0xbf000000, 0), "normal");    // -0.5: negative
  const OpContext neg = Ctx("gfx1201", kPk, M(0, 1), kD, {});
  EXPECT_EQ(ClassifyInput(neg, 0xbf000000, 0), "tie");  // NEG makes it +0.5

  const OpContext fp8 = Ctx("gfx1201", kFp8, M(), kD, {});
  EXPECT_EQ(ClassifyInput(fp8, 0x43e00000, 0), "normal");    // 448 = max
  EXPECT_EQ(ClassifyInput(fp8, 0x43e00001, 0), "overflow");  // just above
  EXPECT_EQ(ClassifyInput(fp8, 0x3fffffff, 0xfffff000), "sr_carry");
  EXPECT_EQ(ClassifyInput(fp8, 0x3fffffff, 0x00000fff), "normal");  // low bits are no seed
  EXPECT_EQ(ClassifyInput(fp8, 0x3f880000, 0), "tie");       // 1.0625: half of 0.125
  EXPECT_EQ(ClassifyInput(fp8, 0x3a800000, 0), "tie");       // 2^-10: half the subnormal quantum
  EXPECT_EQ(ClassifyInput(fp8, 0x3f840000, 0x80000000), "normal");
  const OpContext fnuz = Ctx("gfx942", kFp8, M(), kD, {});
  EXPECT_EQ(ClassifyInput(fnuz, 0x43e00000, 0), "overflow");  // 448 > 240
  const OpContext ue = Ctx("gfx1250", kFp8, M(0, 0, 0, true), kD, {});
  EXPECT_EQ(ClassifyInput(ue, 0x47e00000, 0), "normal");      // 114688 = UE5M3 max
  EXPECT_EQ(ClassifyInput(ue, 0x47e00001, 0), "overflow");
  const OpContext bf8 = Ctx("gfx950", kBf8, M(), kD, {});
  EXPECT_EQ(ClassifyInput(bf8, 0x47600000, 0), "normal");    // 57344 = max
  EXPECT_EQ(ClassifyInput(bf8, 0x47700000, 0), "overflow");  // 61440
  EXPECT_EQ(ClassifyInput(bf8, 0x3f900000, 0), "tie");       // 1.125: half of 0.25
  EXPECT_EQ(ClassifyInput(bf8, 0x3f800000, 0xfffff800), "normal");
  EXPECT_EQ(ClassifyInput(bf8, 0x3fe00000, 0xfffff800), "normal");    // 0x600000 + 0x1fffff
  EXPECT_EQ(ClassifyInput(bf8, 0x3ff00000, 0xfffff800), "sr_carry");  // 0x700000 + 0x1fffff
}

}  // namespace
}  // namespace lanediff
