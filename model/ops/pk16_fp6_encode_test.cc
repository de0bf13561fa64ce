// gfx1250's FP6/BF6 encoders of 16 elements (the rows naming op file
// model/ops/v_cvt_scalef32_pk16_fp6_f32.cc: S0 a 16-dword f32 tuple or an 8-dword tuple of
// packed f16 / bf16, the scale S1, a 3-dword VDST; docs/semantics.md §14.4) through the batch
// API: hand-derived lanes (the packing worked out beside each case, under both readings of
// mx_pk16_fp6_order), then the fast model against the oracle. The 16-bit rows: every 16-bit
// value through one element (4096 lanes of 16 distinct values per scale) x a scale set; the f32
// rows: every f32 whose low 13 fraction bits are 0 or 0x1000 (the ties of every FP6/BF6 quantum
// and the values beside them) x the same scales. The default run takes 16 scales under the
// default readings and every 8th lane under each alternative; LANEDIFF_PK16_FP6_SCALES=all (the
// slow entry) takes every scale byte under every reading.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

constexpr int kOut = 3;

// The rows with a 3-dword FP6/BF6 destination and the scale S1 (RNE), from the table (the SR
// ones, a seed S1 and the scale S2, are sr_pk16_test's).
std::vector<Instr> Pk16Fp6Rows() {
  std::vector<Instr> rows;
  for (Instr instr : kAllInstrs) {
    const InstrInfo& info = GetInstrInfo(instr);
    if (info.output == OutputKind::fp6 && info.dst_words() == kOut &&
        info.src[1] == SrcRole::scale_f32) {
      rows.push_back(instr);
    }
  }
  return rows;
}

OpContext Gfx1250(Instr instr, const std::string& setting = "") {
  OpContext ctx;
  ctx.target = *FindTarget("gfx1250");
  ctx.instr = instr;
  if (!setting.empty()) {
    EXPECT_TRUE(SetHypothesis(setting, &ctx.hyp).ok()) << setting;
  }
  return ctx;
}

// The tuple S0 of a row from its 16 elements (f32 bits, or 16-bit patterns packed two a dword,
// element 2k in bits 15:0 of dword k).
std::vector<uint32_t> Tuple(Instr instr, const std::vector<uint32_t>& elems) {
  const int n = GetInstrInfo(instr).src_dwords(0);
  std::vector<uint32_t> d(static_cast<size_t>(n), 0);
  for (int e = 0; e < 16; ++e) {
    if (n == 16) d[e] = elems[e];
    else d[e / 2] |= (elems[e] & 0xffffu) << (16 * (e % 2));
  }
  return d;
}

std::vector<uint32_t> Encode(const OpContext& ctx, const std::vector<uint32_t>& s0, uint32_t scale,
                             bool oracle = false) {
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  const uint32_t unused = 0;
  lanes.AddWide(s0.data(), &scale, &unused, 0xdeadbeef);
  std::vector<uint32_t> out(kOut);
  const absl::Status s = oracle ? EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(out))
                                : Evaluate(ctx, lanes.view(), absl::MakeSpan(out));
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

TEST(Pk16Fp6Encode, SixRowsTheirShapesAndTargets) {
  ASSERT_EQ(Pk16Fp6Rows().size(), 6u);
  for (Instr instr : Pk16Fp6Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    EXPECT_EQ(info.src_dwords(0), IsPacked16Tuple(info.src[0]) ? 8 : 16) << InstrName(instr);
    EXPECT_TRUE((*FindTarget("gfx1250"))->Has(instr)) << InstrName(instr);
    EXPECT_TRUE((*FindTarget("gfx1251"))->Has(instr)) << InstrName(instr);
    EXPECT_FALSE((*FindTarget("gfx950"))->Has(instr)) << InstrName(instr);
  }
}

// One element set at a time, scale 1.0, the element 1.0 (E2M3 0x08, E3M2 0x0c), the others +0:
// linear puts element e at bit 6e; interleaved element e < 8 at bit 12e, element 8 + e at
// bit 12e + 6. Element 5 under linear (bit 30) and element 10 under interleaved (field 5, bit
// 30) straddle VDST[0] and VDST[1]: 0x08 << 30 keeps bit 3 -> VDST[1] bit 1.
TEST(Pk16Fp6Encode, EachElementLandsInItsFieldUnderEachOrder) {
  for (Instr instr : Pk16Fp6Rows()) {
    const InstrInfo& info = GetInstrInfo(instr);
    const uint32_t one = info.src[0] == SrcRole::f32_x16  ? 0x3f800000u
                         : IsPackedF16(info.src[0])       ? 0x3c00u
                                                          : 0x3f80u;
    const uint64_t code = info.fp8_slot == Fp8Slot::bf6 ? 0x0c : 0x08;
    for (const std::string order : {"linear", "interleaved"}) {
      const OpContext ctx = Gfx1250(instr, "mx_pk16_fp6_order=" + order);
      for (int e = 0; e < 16; ++e) {
        std::vector<uint32_t> elems(16, 0);
        elems[e] = one;
        const int field = order == "linear" ? e : e < 8 ? 2 * e : 2 * (e - 8) + 1;
        const int bit = 6 * field;
        // 96 bits: code << bit split over three words.
        std::vector<uint32_t> want(kOut, 0);
        for (int b = 0; b < 6; ++b) {
          if ((code >> b) & 1) want[(bit + b) / 32] |= 1u << ((bit + b) % 32);
        }
        EXPECT_EQ(Encode(ctx, Tuple(instr, elems), 0x3f800000u), want)
            << InstrName(instr) << " " << order << " element " << e;
      }
    }
  }
}

// The first discriminating lane of mx_pk16_fp6_order, as its registry entry states it: element 1
// = 1.0 on v_cvt_scalef32_pk16_fp6_f32: linear field 1 (0x08 << 6 = 0x200), interleaved field 2
// (0x08 << 12 = 0x8000).
TEST(Pk16Fp6Encode, RegistryLaneSeparatesTheOrders) {
  std::vector<uint32_t> elems(16, 0);
  elems[1] = 0x3f800000u;
  const Instr instr = Instr::v_cvt_scalef32_pk16_fp6_f32;
  EXPECT_EQ(Encode(Gfx1250(instr), Tuple(instr, elems), 0x3f800000u),
            (std::vector<uint32_t>{0x200u, 0, 0}));
  EXPECT_EQ(Encode(Gfx1250(instr, "mx_pk16_fp6_order=interleaved"), Tuple(instr, elems), 0x3f800000u),
            (std::vector<uint32_t>{0x8000u, 0, 0}));
}

// Every lane's S0 from a counter: 16-bit rows every value once per 16 elements; f32 rows the
// values (v << 13) | tie bit 12, v over 2^19 patterns (sign, exponent, 10 fraction bits), 16 a
// lane.
int CheckEveryValue(Instr instr, const std::string& setting, const std::vector<uint32_t>& scales,
                    int stride) {
  const OpContext ctx = Gfx1250(instr, setting);
  const bool f32 = GetInstrInfo(instr).src[0] == SrcRole::f32_x16;
  const uint32_t lanes_per_scale = f32 ? (1u << 20) / 16 : 65536 / 16;
  LaneBatch lanes;
  lanes.SetShape(GetInstrInfo(instr).lane_shape());
  const uint32_t unused = 0;
  for (uint32_t s : scales) {
    for (uint32_t j = 0; j < lanes_per_scale; j += static_cast<uint32_t>(stride)) {
      std::vector<uint32_t> elems(16);
      for (uint32_t e = 0; e < 16; ++e) {
        const uint32_t v = 16 * j + e;
        elems[e] = f32 ? ((v >> 1) << 13) | (v & 1u) << 12 : v;
      }
      const std::vector<uint32_t> d = Tuple(instr, elems);
      lanes.AddWide(d.data(), &s, &unused, j);
    }
  }
  std::vector<uint32_t> fast(OutputWords(instr, lanes.size())), slow(fast.size());
  EXPECT_TRUE(Evaluate(ctx, lanes.view(), absl::MakeSpan(fast)).ok());
  EXPECT_TRUE(EvaluateOracle(ctx, lanes.view(), absl::MakeSpan(slow)).ok());
  int bad = 0;
  for (size_t i = 0; i < fast.size() && bad < 5; ++i) {
    if (fast[i] == slow[i]) continue;
    ++bad;
    ADD_FAILURE() << InstrName(instr) << " " << setting << " lane " << i / kOut << " word "
                  << i % kOut << ": fast 0x" << std::hex << fast[i] << " oracle 0x" << slow[i];
  }
  return static_cast<int>(lanes.size());
}

TEST(Pk16Fp6Encode, EveryValueFastMatchesOracle) {
  const char* env = std::getenv("LANEDIFF_PK16_FP6_SCALES");
  const bool all = env != nullptr && std::string(env) == "all";
  // Scale operands: exponent fields 0 (E8M0 0x00), 1, 100..150 sampled, 254, 255 (NaN), with a
  // sign or a fraction on some (ignored under the default exponent reading).
  std::vector<uint32_t> scales = {0x00000000u, 0x00800000u, 0x32000000u, 0x38000000u, 0x3c000000u,
                                  0x3e800000u, 0x3f000000u, 0x3f800000u, 0xbfc00000u, 0x40000000u,
                                  0x40800000u, 0x43000000u, 0x47000000u, 0x4b400000u, 0x7f000000u,
                                  0x7f800000u};
  if (all) {
    scales.clear();
    for (uint32_t e = 0; e < 256; ++e) scales.push_back(e << 23 | (e & 1u) << 31 | (e & 2u) << 20);
  }
  const std::vector<std::string> others = {
      "mx_scale_read=f32_multiply", "mx_scale_zero=zero",  "mx_scale_nan=pow2_128",
      "mx_down_scale=multiply",     "mx_denorm_in=flush",  "mx_fp4_nan=pos_max",
      "mx_fp4_nan=neg_zero",        "mx_pk16_fp6_order=interleaved"};
  int lanes = 0;
  for (Instr instr : Pk16Fp6Rows()) {
    // The f32 rows' 2^20 values are 16 times the 16-bit rows' 2^16: every 16th lane by default.
    const bool f32 = GetInstrInfo(instr).src[0] == SrcRole::f32_x16;
    const int first = all ? 1 : f32 ? 16 : 1, rest = all ? 1 : f32 ? 128 : 8;
    lanes += CheckEveryValue(instr, "", scales, first);
    for (const std::string& s : others) lanes += CheckEveryValue(instr, s, scales, rest);
  }
  // Per scale: 6 rows x (4096 + 8 readings x 512) lanes = 49,152 (default run).
  EXPECT_EQ(lanes, static_cast<int>(scales.size()) * (all ? 4 * 9 * 4096 + 2 * 9 * 65536 : 49152));
}

}  // namespace
}  // namespace lanediff
