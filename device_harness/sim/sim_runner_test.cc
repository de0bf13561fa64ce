// The simulator against the model, and each injected erratum against its prediction.
//
// Expected values come from the model through its own path (ResolveTestCase + Evaluate: no
// encoder, patcher or decoder), from hand derivations written next to the case (docs/semantics.md's
// discriminating inputs), or from an erratum's definition applied to the model's answer.
#include "device_harness/sim/sim_runner.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "device_harness/isolation/isolated_runner.h"
#include "device_harness/open_runner.h"
#include "device_harness/random_case_test_util.h"
#include "gtest/gtest.h"
#include "model/isa/testcase.h"
#include "model/ops/ops.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

using testcases::ModelAnswer;
using testcases::RandomCase;

std::vector<uint32_t> SimAnswer(Runner& sim, const proto::TestCase& tc) {
  absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(tc);
  EXPECT_TRUE(b.ok()) << b.status() << "\n" << ToText(tc);
  if (!b.ok()) return {};
  absl::StatusOr<DeviceResult> r = sim.Run(*b);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << ToText(tc);
  if (!r.ok()) return {};
  return r->vdst;
}

std::unique_ptr<Runner> Sim(std::vector<std::string> inject = {}) {
  absl::StatusOr<std::unique_ptr<Runner>> r = OpenSimRunner({.inject = std::move(inject), .hypotheses = {}});
  EXPECT_TRUE(r.ok()) << r.status();
  return std::move(*r);
}

// A sample over every target and instruction: batches x lanes each.
std::vector<proto::TestCase> Sample(uint32_t seed, int batches, int lanes) {
  std::mt19937 rng(seed);
  std::vector<proto::TestCase> out;
  for (const TargetTraits& t : AllTargets()) {
    for (Instr i : kAllInstrs) {
      if (!t.Has(i)) continue;
      for (int b = 0; b < batches; ++b) out.push_back(RandomCase(t, i, rng, lanes));
    }
  }
  return out;
}

TEST(SimRunnerTest, SaysItIsASimulation) {
  auto sim = Sim({"byte12_swap"});
  EXPECT_TRUE(absl::StrContains(sim->Describe(), "simulation")) << sim->Describe();
  EXPECT_TRUE(absl::StrContains(sim->Describe(), "injected byte12_swap")) << sim->Describe();
  absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(
      R"pb(target: "gfx950" instr: v_cvt_sr_fp8_f32 lanes { src0: 0x3f800000 })pb", "t");
  auto b = BuildDeviceBatch(*tc);
  ASSERT_TRUE(b.ok()) << b.status();
  auto r = sim->Run(*b);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->provenance.runner(), "sim");
  EXPECT_EQ(r->provenance.device(), "simulation (no hardware)");
  EXPECT_EQ(r->provenance.target(), "gfx950");
  ASSERT_EQ(r->provenance.injected_size(), 1);
  EXPECT_EQ(r->provenance.injected(0), "byte12_swap");
  // gfx950 fp8(1.0) = 0x38 (tinygrad gfx950 hardware value, docs/semantics.md §4); vdst_old 0.
  EXPECT_EQ(r->vdst, std::vector<uint32_t>{0x38});
}

TEST(SimRunnerTest, AgreesWithTheModelOnARandomSampleOfEveryTarget) {
  auto sim = Sim();
  size_t lanes = 0, batches = 0;
  for (const proto::TestCase& tc : Sample(1, 24, 256)) {
    const std::vector<uint32_t> want = ModelAnswer(tc);
    const std::vector<uint32_t> got = SimAnswer(*sim, tc);
    ASSERT_EQ(got, want) << ToText(tc);
    lanes += got.size();
    ++batches;
  }
  std::printf("sim == model on %zu batches, %zu lanes, every target and instruction\n", batches,
              lanes);
  EXPECT_GT(lanes, 100000u);
}

// The model engineer's table tests live as corpus/seeds/<instr>/*.textproto.
TEST(SimRunnerTest, AgreesWithTheModelOnEverySeedTable) {
  namespace fs = std::filesystem;
  const fs::path seeds = fs::path(LANEDIFF_SOURCE_DIR) / "corpus" / "seeds";
  auto sim = Sim();
  int files = 0, lanes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(seeds, ec); !ec && it != fs::recursive_directory_iterator(); ++it) {
    if (!it->is_regular_file() || it->path().extension() != ".textproto") continue;
    std::ifstream in(it->path());
    std::stringstream ss;
    ss << in.rdbuf();
    absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(ss.str(), it->path().string());
    ASSERT_TRUE(tc.ok()) << tc.status();
    ASSERT_EQ(SimAnswer(*sim, *tc), ModelAnswer(*tc)) << it->path();
    ++files;
    lanes += tc->lanes_size();
  }
  std::printf("sim == model on %d seed files (%d lanes) under %s\n", files, lanes, seeds.c_str());
  // The seeds ship with the source tree: none found means the walk read nothing, not a pass.
  EXPECT_FALSE(ec) << seeds << ": " << ec.message();
  EXPECT_GT(files, 0) << "no corpus/seeds/*/*.textproto under " << seeds;
}

// --- Errata. Each test: the sim equals the erratum's prediction on every lane of a sample,
// disagrees with the default model somewhere, and only where the erratum says; plus the
// hand-derived discriminating case.

struct Tally {
  size_t lanes = 0, disagree = 0;
};

// For each case: sim answer vs `predict(tc, model_default)`; `where(tc, lane)` must hold for
// every disagreement with the default model.
template <typename Predict, typename Where>
Tally CheckErratum(const std::string& name, Predict predict, Where where) {
  auto sim = Sim({name});
  Tally t;
  for (const proto::TestCase& tc : Sample(7, 16, 128)) {
    const std::vector<uint32_t> model = ModelAnswer(tc);
    const std::vector<uint32_t> want = predict(tc, model);
    const std::vector<uint32_t> got = SimAnswer(*sim, tc);
    EXPECT_EQ(got, want) << name << "\n" << ToText(tc);
    // The answers hold DstWords words per lane (a VGPR pair: 2); `where` takes the lane.
    const size_t w = static_cast<size_t>(DstWords(*InstrFromProto(tc.instr())));
    for (size_t i = 0; i < got.size(); ++i) {
      if (i % w == 0) ++t.lanes;
      if (got[i] == model[i]) continue;
      ++t.disagree;
      EXPECT_TRUE(where(tc, i / w)) << name << " disagrees where it predicts none: lane " << i / w
                                    << "\n" << ToText(tc);
    }
  }
  std::printf("%s: %zu of %zu lanes disagree with the default model, all where predicted\n",
              name.c_str(), t.disagree, t.lanes);
  return t;
}

Hypotheses With(const char* setting) {
  Hypotheses h;
  EXPECT_TRUE(SetHypothesis(setting, &h).ok()) << setting;
  return h;
}

uint32_t RunOne(Runner& r, const std::string& text) {
  absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(text, "case");
  EXPECT_TRUE(tc.ok()) << tc.status();
  std::vector<uint32_t> v = SimAnswer(r, *tc);
  return v.empty() ? 0xffffffffu : v[0];
}

TEST(SimErrataTest, SrWrap) {
  const Hypotheses literal = With("sr_rounding=literal");
  Tally t = CheckErratum(
      "sr_wrap", [&](const proto::TestCase& tc, const auto&) { return ModelAnswer(tc, literal); },
      [](const proto::TestCase& tc, size_t) { return tc.instr() != proto::v_cvt_pk_u8_f32; });
  EXPECT_GT(t.disagree, 0u);
  // docs/semantics.md §6: fp8 OCP, S0=0x3FFFFFFF, S1=0xFFFFF000 -> 0x40 (carry) vs 0x39 (literal).
  const std::string c = R"pb(target: "gfx1201" instr: v_cvt_sr_fp8_f32
                             lanes { src0: 0x3fffffff src1: 0xfffff000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x40u);
  EXPECT_EQ(RunOne(*Sim({"sr_wrap"}), c), 0x39u);
}

TEST(SimErrataTest, U8Truncate) {
  const Hypotheses trunc = With("pk_u8_rounding=truncate");
  Tally t = CheckErratum(
      "u8_truncate", [&](const proto::TestCase& tc, const auto&) { return ModelAnswer(tc, trunc); },
      [](const proto::TestCase& tc, size_t) { return tc.instr() == proto::v_cvt_pk_u8_f32; });
  EXPECT_GT(t.disagree, 0u);
  // docs/semantics.md §3: 129.5 -> 130 (RNE) vs 129 (truncate); byte 0 of S2 = 0.
  const std::string c = R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32 lanes { src0: 0x43018000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 130u);
  EXPECT_EQ(RunOne(*Sim({"u8_truncate"}), c), 129u);
}

// Selected byte of a lane, and the word whose other bytes are kept (docs/semantics.md §3, §6).
// -1: the instruction writes no single byte (a 16-bit half).
int SelectedByte(const ResolvedCase& rc, size_t lane) {
  switch (GetInstrInfo(rc.ctx.instr).write) {
    case DstWrite::byte_at_opsel_3_2: return (rc.ctx.mods.opsel >> 2) & 3;
    case DstWrite::byte_at_src1: return rc.lanes.view().src1[lane] & 3;
    default: return -1;
  }
}
uint32_t KeptWord(const ResolvedCase& rc, size_t lane) {
  return lanediff::KeptWord(GetInstrInfo(rc.ctx.instr), rc.lanes.view().src2[lane],
                            rc.lanes.view().vdst_old[lane]);
}

TEST(SimErrataTest, Byte12Swap) {
  // Definition: a byte meant for position k in {1,2} lands in 3-k; the kept word's byte k stays.
  auto predict = [](const proto::TestCase& tc, const std::vector<uint32_t>& model) {
    ResolvedCase rc = *ResolveTestCase(tc);
    std::vector<uint32_t> out = model;
    for (size_t i = 0; i < out.size(); ++i) {
      const int k = SelectedByte(rc, i);
      if (k != 1 && k != 2) continue;
      const uint32_t written = (model[i] >> (8 * k)) & 0xff;
      const int other = 3 - k;
      out[i] = (KeptWord(rc, i) & ~(0xffu << (8 * other))) | (written << (8 * other));
    }
    return out;
  };
  auto where = [](const proto::TestCase& tc, size_t lane) {
    ResolvedCase rc = *ResolveTestCase(tc);
    const int k = SelectedByte(rc, lane);
    return k == 1 || k == 2;
  };
  Tally t = CheckErratum("byte12_swap", predict, where);
  EXPECT_GT(t.disagree, 0u);
  // pk_u8 of 1.0 into byte 1 of S2 = 0x44332211: model 0x44330111, swapped 0x44012211.
  const std::string c = R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                             lanes { src0: 0x3f800000 src1: 1 src2: 0x44332211 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x44330111u);
  EXPECT_EQ(RunOne(*Sim({"byte12_swap"}), c), 0x44012211u);
  // Byte 0 and 3 are untouched: the same case with src1 = 3 agrees.
  const std::string c3 = R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                              lanes { src0: 0x3f800000 src1: 3 src2: 0x44332211 })pb";
  EXPECT_EQ(RunOne(*Sim({"byte12_swap"}), c3), 0x01332211u);
  // Written byte equal to both kept bytes: no visible difference (1.0 -> 0x01).
  const std::string same = R"pb(target: "gfx1100" instr: v_cvt_pk_u8_f32
                                lanes { src0: 0x3f800000 src1: 2 src2: 0x44010111 })pb";
  EXPECT_EQ(RunOne(*Sim({"byte12_swap"}), same), RunOne(*Sim(), same));
}

// half_swap: the packed conversion's OPSEL[3] inverted. gfx950 OCP E4M3: 1.0 = 0x38,
// 2.0 = 0x40 (exponent fields 7 and 8, bias 7); OPSEL[3]=1 puts {0x40, 0x38} in [31:16].
TEST(SimErrataTest, HalfSwap) {
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_pk_fp8_f32 encoding { opsel: 8 }
                             lanes { src0: 0x3f800000 src1: 0x40000000 vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x4038ccddu);
  EXPECT_EQ(RunOne(*Sim({"half_swap"}), c), 0xaabb4038u);
  // Byte-writing instructions are untouched.
  const std::string sr = R"pb(target: "gfx950" instr: v_cvt_sr_fp8_f32 encoding { opsel: 8 }
                              lanes { src0: 0x3f800000 vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim({"half_swap"}), sr), RunOne(*Sim(), sr));
}

// round_odd: ties of the RNE packed conversion. gfx1200 OCP E4M3, quantum 1/8 in [1, 2):
// 1.0625 -> RNE 1.0 (0x38), odd 1.125 (0x39); 1.1875 -> RNE 1.25 (0x3a), odd 1.125 (0x39).
// An exact input (2.0 = 0x40) is unchanged.
TEST(SimErrataTest, RoundOdd) {
  const std::string c = R"pb(target: "gfx1200" instr: v_cvt_pk_fp8_f32
                             lanes { src0: 0x3f880000 src1: 0x3f980000 vdst_old: 0x11223344 }
                             lanes { src0: 0x40000000 src1: 0x40000000 vdst_old: 0 })pb";
  absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(c, "case");
  ASSERT_TRUE(tc.ok());
  EXPECT_EQ(SimAnswer(*Sim(), *tc), (std::vector<uint32_t>{0x11223a38u, 0x4040u}));
  EXPECT_EQ(SimAnswer(*Sim({"round_odd"}), *tc), (std::vector<uint32_t>{0x11223939u, 0x4040u}));
}

TEST(SimErrataTest, NanSign) {
  const Hypotheses sp = With("fp8_nan=sign_preserving");
  Tally t = CheckErratum(
      "nan_sign", [&](const proto::TestCase& tc, const auto&) { return ModelAnswer(tc, sp); },
      [](const proto::TestCase& tc, size_t lane) {
        ResolvedCase rc = *ResolveTestCase(tc);
        auto is_nan = [](uint32_t x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu) != 0; };
        const InstrInfo& info = GetInstrInfo(rc.ctx.instr);
        // The scaled encoders also make a NaN of a scale whose exponent field is 0xFF (S2, or
        // S1 of the encoders from packed 16-bit floats), and of a NaN in either 16-bit half of
        // such an S0 (the one-value SR rows read one of them).
        // A tuple S0 (gfx1250's 8-wide encoders): a NaN in any of its dwords.
        auto nan16 = [&](uint32_t h) {
          return IsPackedF16(info.src[0]) ? (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0
                                                    : (h & 0x7f80u) == 0x7f80u && (h & 0x7fu) != 0;
        };
        bool pk16_nan = false, f32_nan = false;
        const size_t n0 = static_cast<size_t>(info.src_dwords(0));
        for (size_t k = 0; k < n0; ++k) {
          const uint32_t s0 = rc.lanes.src0()[lane * n0 + k];
          pk16_nan |= IsPacked16(info.src[0]) && (nan16(s0 & 0xffffu) || nan16(s0 >> 16));
          f32_nan |= !IsPacked16(info.src[0]) && is_nan(s0);
        }
        const bool nan = f32_nan || pk16_nan ||
                         (info.src[1] == SrcRole::data_f32 && is_nan(rc.lanes.src1()[lane])) ||
                         (info.src[1] == SrcRole::scale_f32 &&
                          ((rc.lanes.src1()[lane] >> 23) & 0xffu) == 0xffu) ||
                         (info.src[2] == SrcRole::scale_f32 &&
                          ((rc.lanes.src2()[lane] >> 23) & 0xffu) == 0xffu);
        return info.writes_float() && !GetFp8Format(rc.target->fp8).fnuz && nan;
      });
  EXPECT_GT(t.disagree, 0u);
  // docs/semantics.md §5: OCP E4M3 NaN -> 0xFF canonical; sign-preserving: sign | 0x7F = 0x7F.
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_sr_fp8_f32 lanes { src0: 0x7fc00000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0xffu);
  EXPECT_EQ(RunOne(*Sim({"nan_sign"}), c), 0x7fu);
  // FNUZ (gfx942): 0x80 either way.
  const std::string f = R"pb(target: "gfx942" instr: v_cvt_sr_fp8_f32 lanes { src0: 0x7fc00000 })pb";
  EXPECT_EQ(RunOne(*Sim({"nan_sign"}), f), 0x80u);
}

TEST(SimErrataTest, Fp16OvflIgnored) {
  const Hypotheses ign = With("fp16_ovfl=ignored");
  Tally t = CheckErratum(
      "fp16_ovfl_ignored", [&](const proto::TestCase& tc, const auto&) { return ModelAnswer(tc, ign); },
      [](const proto::TestCase& tc, size_t) {
        return tc.instr() != proto::v_cvt_pk_u8_f32 && (tc.mode() & (1u << 23));
      });
  EXPECT_GT(t.disagree, 0u);
  // docs/semantics.md §5: gfx12 E4M3, 1000.0 overflows: 0x7F by default, 0x7E with FP16_OVFL=1.
  const std::string c = R"pb(target: "gfx1201" instr: v_cvt_sr_fp8_f32 mode: 0x008000f0
                             lanes { src0: 0x447a0000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x7eu);
  EXPECT_EQ(RunOne(*Sim({"fp16_ovfl_ignored"}), c), 0x7fu);
}

TEST(SimErrataTest, Gfx1250ClampIgnored) {
  const Hypotheses ign = With("gfx1250_clamp=ignored");
  Tally t = CheckErratum(
      "gfx1250_clamp_ignored",
      [&](const proto::TestCase& tc, const auto&) { return ModelAnswer(tc, ign); },
      [](const proto::TestCase& tc, size_t) {
        // CLAMP selects UE5M3 for the E4M3 conversions on gfx1250 (docs/semantics.md §10.7,
        // §13.5) and the byte the fp8 -> f32 decode reads (UE5M3 in, §10.3): the rows whose
        // format slot is Fp8Slot::fp8_clamp_ue5m3.
        return GetInstrInfo(*InstrFromProto(tc.instr())).fp8_slot == Fp8Slot::fp8_clamp_ue5m3 &&
               tc.encoding().clamp() &&
               (*FindTarget(tc.target()))->clamp_selects_ue5m3;
      });
  EXPECT_GT(t.disagree, 0u);
  // 1.0: UE5M3 (bias 15) exponent 15 -> 0b01111'000 = 0x78; OCP E4M3 (bias 7) -> 0x38.
  const std::string c = R"pb(target: "gfx1250" instr: v_cvt_sr_fp8_f32 encoding { clamp: true }
                             lanes { src0: 0x3f800000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x78u);
  EXPECT_EQ(RunOne(*Sim({"gfx1250_clamp_ignored"}), c), 0x38u);
}

// src_byte_swap: an instruction converting one selected byte of S0 reads byte 2 for 1 and 1 for
// 2. Prediction by definition: the model's answer with the select swapped (GFX12 byte_sel =
// 2*OPSEL[0] + OPSEL[1], so OPSEL[0] and OPSEL[1] trade places; SDWA BYTE_1 <-> BYTE_2).
TEST(SimErrataTest, SrcByteSwap) {
  auto swapped = [](proto::TestCase tc) {
    if (GetInstrInfo(*InstrFromProto(tc.instr())).src[0] != SrcRole::fp8_bytes) return tc;
    proto::Encoding* e = tc.mutable_encoding();
    e->set_opsel((e->opsel() & 0b1100) | ((e->opsel() & 1) << 1) | ((e->opsel() >> 1) & 1));
    if (e->src0_sel() == 1 || e->src0_sel() == 2) e->set_src0_sel(e->src0_sel() ^ 3);
    return tc;
  };
  Tally t = CheckErratum(
      "src_byte_swap",
      [&](const proto::TestCase& tc, const auto&) { return ModelAnswer(swapped(tc)); },
      [](const proto::TestCase& tc, size_t) {
        // The byte selects exist only where OPSEL[1:0] or src0_sel differ from their swap.
        const uint32_t o = tc.encoding().opsel() & 3;
        return GetInstrInfo(*InstrFromProto(tc.instr())).src[0] == SrcRole::fp8_bytes &&
               (o == 1 || o == 2 || tc.encoding().src0_sel() == 1 || tc.encoding().src0_sel() == 2);
      });
  EXPECT_GT(t.disagree, 0u);
  // gfx1201 byte_sel:2 (OPSEL[0]) of 0x00380000: byte 2 = 0x38 = OCP E4M3 2^(7-7) = 1.0; the
  // swapped select reads byte 1 = 0x00 = +0.
  const std::string c = R"pb(target: "gfx1201" instr: v_cvt_f32_fp8 encoding { opsel: 1 }
                             lanes { src0: 0x00380000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x3f800000u);
  EXPECT_EQ(RunOne(*Sim({"src_byte_swap"}), c), 0u);
  // gfx942 SDWA src0_sel:BYTE_1 of 0x00004000: byte 1 = 0x40 = FNUZ E4M3 2^(8-8) = 1.0.
  const std::string w = R"pb(target: "gfx942" instr: v_cvt_f32_fp8
                             encoding { form: FORM_SDWA src0_sel: 1 }
                             lanes { src0: 0x00004000 })pb";
  EXPECT_EQ(RunOne(*Sim(), w), 0x3f800000u);
  EXPECT_EQ(RunOne(*Sim({"src_byte_swap"}), w), 0u);
}

// gfx950 v_prng_b32's SDWA destination fields through the simulator (the word encoded, decoded
// back, the model run; docs/semantics.md §12.1). prng(0xc0000000) = 0x80000000 ^ 0xc5 =
// 0x800000c5; the old VDST is 0xdeadbeef.
TEST(SimRunnerTest, PrngSdwaDestinationFields) {
  auto run = [](absl::string_view enc, uint32_t src0) {
    return RunOne(*Sim(), absl::StrFormat(R"pb(target: "gfx950" instr: v_prng_b32
                                                encoding { form: FORM_SDWA %s }
                                                lanes { src0: 0x%08x vdst_old: 0xdeadbeef })pb",
                                          enc, src0));
  };
  // dst_unused absent: PRESERVE (LLVM's default): 0xdeadbeef with byte 2 = 0xc5.
  EXPECT_EQ(run("dst_sel: 2", 0xc0000000u), 0xdec5beefu);
  // BYTE_0, SEXT: 0xc5's bit 7 fills bits 31:8.
  EXPECT_EQ(run("dst_sel: 0 dst_unused: 1", 0xc0000000u), 0xffffffc5u);
  // BYTE_3 of 0x80000000 sign-extended: 0xffffff80; << 1 = 0xffffff00 ^ 0xc5.
  EXPECT_EQ(run("src0_sel: 3 src0_sext: true", 0x80000000u), 0xffffffc5u);
}

// pair_word_swap: "an instruction writing a VGPR pair (dst_bits 64) writes its two words
// swapped" (errata.h): the model's pair exchanged, only on the pair writers.
TEST(SimErrataTest, PairWordSwap) {
  Tally t = CheckErratum(
      "pair_word_swap",
      [](const proto::TestCase& tc, std::vector<uint32_t> model) {
        if (DstWords(*InstrFromProto(tc.instr())) == 2) {
          for (size_t i = 0; i + 1 < model.size(); i += 2) std::swap(model[i], model[i + 1]);
        }
        return model;
      },
      [](const proto::TestCase& tc, size_t) { return DstWords(*InstrFromProto(tc.instr())) == 2; });
  EXPECT_GT(t.disagree, 0u);
  // gfx942 e32 of 0x00003840 (FNUZ E4M3): VDST = cvt(0x40) = 2^(8-8) = 1.0, VDST+1 = cvt(0x38)
  // = 2^(7-8) = 0.5; swapped: 0.5 in VDST.
  const std::string c = R"pb(target: "gfx942" instr: v_cvt_pk_f32_fp8 encoding { form: FORM_E32 }
                             lanes { src0: 0x00003840 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x3f800000u);
  EXPECT_EQ(RunOne(*Sim({"pair_word_swap"}), c), 0x3f000000u);
}

// The same errata on the gfx12 pair (VOP3 op_sel:[1,0] = OPSEL[0], the high word). gfx1200
// OCP E4M3 (bias 7), S0 = 0x40302010: the high word 0x4030 gives VDST = cvt(0x30) = 2^-1
// (0x3f000000), VDST+1 = cvt(0x40) = 2.0; the low word 0x2010 gives VDST = cvt(0x10) = 2^-5
// (0x3d000000). pair_word_swap puts 2.0 (0x40000000) in VDST; src_byte_swap moves OPSEL[0] to
// OPSEL[1], which the pair does not read: the low word is converted (a wrong half).
TEST(SimErrataTest, Gfx12PairErrata) {
  const std::string c = R"pb(target: "gfx1200" instr: v_cvt_pk_f32_fp8 encoding { opsel: 1 }
                             lanes { src0: 0x40302010 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x3f000000u);
  EXPECT_EQ(RunOne(*Sim({"pair_word_swap"}), c), 0x40000000u);
  EXPECT_EQ(RunOne(*Sim({"src_byte_swap"}), c), 0x3d000000u);
}

TEST(SimErrataTest, Src1Neg) {
  Tally t = CheckErratum(
      "src1_neg",
      [&](const proto::TestCase& tc, const auto& model) {
        // errata.h: only where the row has no NEG[1] of its own (model/instrs.def neg_abs_srcs
        // bit 1: the pair writers negate src1 already), so those never change.
        const bool own_neg1 = (GetInstrInfo(*InstrFromProto(tc.instr())).neg_abs_srcs & 2) != 0;
        return (tc.encoding().neg() & 2) && !own_neg1 ? ModelAnswer(tc, {}, /*flip_src1_sign=*/true)
                                                      : model;
      },
      [](const proto::TestCase& tc, size_t) {
        // The rows whose S1 is a seed (the SR rows, 8-bit and 16-bit results, and the scaled SR
        // encoders), the interleaved FP6 encoders (S1[0] an f32 element, negated), and gfx1250's
        // E8M0 scale register (bit 31: byte 3's top bit).
        const SrcRole s1 = GetInstrInfo(*InstrFromProto(tc.instr())).src[1];
        return (s1 == SrcRole::sr_seed || s1 == SrcRole::f32_x16 || s1 == SrcRole::scale_e8m0_x4) &&
               (tc.encoding().neg() & 2);
      });
  EXPECT_GT(t.disagree, 0u);
  // gfx950 fp8, S0 = 1+2^-5 (0x3f840000): the dropped part is 1/4 of the E4M3 ULP. Seed
  // 0x7ffff000 (top 20 bits 0x7ffff, just under 1/2 ULP): 3/4 ULP, truncated -> 1.0 = 0x38.
  // With bit 31 flipped the seed is 0xfffff000 (just under 1 ULP): carries -> 0x39.
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_sr_fp8_f32 encoding { neg: 2 }
                             lanes { src0: 0x3f840000 src1: 0x7ffff000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x38u);
  EXPECT_EQ(RunOne(*Sim({"src1_neg"}), c), 0x39u);
}

// src0_neg_ignored: "NEG[0] is ignored: src0 is converted as if the word's NEG[0] were 0"
// (errata.h), on the rows accepting -x on src0 (model/instrs.def neg_abs_srcs bit 0): the
// model's answer for the same case with NEG[0] cleared.
TEST(SimErrataTest, Src0NegIgnored) {
  auto accepts = [](const proto::TestCase& tc) {
    return (GetInstrInfo(*InstrFromProto(tc.instr())).neg_abs_srcs & 1) != 0;
  };
  Tally t = CheckErratum(
      "src0_neg_ignored",
      [&](const proto::TestCase& tc, const auto& model) {
        if (!(tc.encoding().neg() & 1) || !accepts(tc)) return model;
        proto::TestCase cleared = tc;
        cleared.mutable_encoding()->set_neg(tc.encoding().neg() & ~1u);
        return ModelAnswer(cleared);
      },
      [&](const proto::TestCase& tc, size_t) { return (tc.encoding().neg() & 1) && accepts(tc); });
  EXPECT_GT(t.disagree, 0u);
  // gfx950 OCP E4M3 (bias 7), S0 = 1.0, seed 0 (exact, no rounding): 1.0 = 2^(7-7) = 0x38;
  // with NEG[0] the model converts -1.0 = 0xb8, the erratum 1.0 = 0x38.
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_sr_fp8_f32 encoding { neg: 1 }
                             lanes { src0: 0x3f800000 src1: 0 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0xb8u);
  EXPECT_EQ(RunOne(*Sim({"src0_neg_ignored"}), c), 0x38u);
}

// nan_decode_7fe: "the 8-bit float -> f32 conversions write 0x7fe00000 for every NaN byte"
// (errata.h): the model's answer with each NaN word of an f32 writer replaced.
TEST(SimErrataTest, NanDecode7fe) {
  auto is_nan = [](uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu) != 0; };
  auto f32_writer = [](const proto::TestCase& tc) {
    return GetInstrInfo(*InstrFromProto(tc.instr())).output == OutputKind::f32;
  };
  Tally t = CheckErratum(
      "nan_decode_7fe",
      [&](const proto::TestCase& tc, std::vector<uint32_t> model) {
        if (!f32_writer(tc)) return model;
        for (uint32_t& w : model) w = is_nan(w) ? 0x7fe00000u : w;
        return model;
      },
      [&](const proto::TestCase& tc, size_t) { return f32_writer(tc); });
  EXPECT_GT(t.disagree, 0u);
  // gfx1200 OCP E4M3: byte 0x7f is NaN (S.1111.111), decoded 0x7fc00000 by the default
  // reading (sign|0x7fc00000); the erratum writes 0x7fe00000.
  const std::string c = R"pb(target: "gfx1200" instr: v_cvt_f32_fp8 encoding { form: FORM_E32 }
                             lanes { src0: 0x0000007f })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x7fc00000u);
  EXPECT_EQ(RunOne(*Sim({"nan_decode_7fe"}), c), 0x7fe00000u);
}

// gfx950 OCP E4M3 byte 0x38 = 1.0 times S1: by default only S1's exponent field is read (1.5 and
// -1.5 read as 2^0, 2.0 with NEG[1] as 2^1); the erratum multiplies by the whole f32.
TEST(SimErrataTest, ScaleMantissa) {
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_scalef32_f32_fp8
                             lanes { src0: 0x00000038 src1: 0x3fc00000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x3f800000u);
  EXPECT_EQ(RunOne(*Sim({"scale_mantissa"}), c), 0x3fc00000u);
  const std::string neg = R"pb(target: "gfx950" instr: v_cvt_scalef32_f32_bf8 encoding { neg: 2 }
                               lanes { src0: 0x0000003c src1: 0x40000000 })pb";
  EXPECT_EQ(RunOne(*Sim(), neg), 0x40000000u);                     // 1.0 * 2^1
  EXPECT_EQ(RunOne(*Sim({"scale_mantissa"}), neg), 0xc0000000u);  // 1.0 * -2.0
  // A positive power of two reads alike either way: 1.0 * 2.0.
  const std::string pow2 = R"pb(target: "gfx950" instr: v_cvt_scalef32_f32_fp8
                                lanes { src0: 0x00000038 src1: 0x40000000 })pb";
  EXPECT_EQ(RunOne(*Sim({"scale_mantissa"}), pow2), 0x40000000u);
}

// gfx950 scaled E4M3 encoder, S2 2^1: S0 2.0 / 2 = 1.0 = 0x38 and S1 1.0 / 2 = 0.5 = 0x30 (OCP
// E4M3, bias 7). The model writes {0x30, 0x38} into the low half (S0 in the low byte); the
// erratum trades the two bytes; OPSEL[3] = 1 writes the high half, vdst_old's low half kept.
TEST(SimErrataTest, ScaledElementSwap) {
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_scalef32_pk_fp8_f32
                             lanes { src0: 0x40000000 src1: 0x3f800000 src2: 0x40000000
                                     vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0xaabb3038u);
  EXPECT_EQ(RunOne(*Sim({"scaled_element_swap"}), c), 0xaabb3830u);
  const std::string high = R"pb(target: "gfx950" instr: v_cvt_scalef32_pk_fp8_f32
                                encoding { opsel: 8 }
                                lanes { src0: 0x40000000 src1: 0x3f800000 src2: 0x40000000
                                        vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim({"scaled_element_swap"}), high), 0x3830ccddu);
  // The unscaled pair writer is not reached: 2.0 = 0x40 low, 1.0 = 0x38 high.
  const std::string plain = R"pb(target: "gfx950" instr: v_cvt_pk_fp8_f32
                                 lanes { src0: 0x40000000 src1: 0x3f800000 })pb";
  EXPECT_EQ(RunOne(*Sim({"scaled_element_swap"}), plain), 0x00003840u);
}

// gfx950 scaled SR E4M3 encoder, S2 2^0, OPSEL[3:2] = 2 (byte 2): S0 2^-8 (1 + 2^-23) is 2 +
// 2^-22 subnormal quanta (2^-9). The model (mx_sr_round=source_grid) drops the 2^-22 below the
// 20-bit seed grid; S1's 20 top one bits fall a step short of a quantum: 0x02. The erratum keeps
// the 22 bits below the quantum and adds S1's top 22: they carry, 0x03. The unscaled SR row
// (sr_rounding, not mx_sr_round) is not reached: 1.0 + 2^-23 with the same seed, 0x39.
TEST(SimErrataTest, ScaledSrExactSubnormal) {
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_scalef32_sr_fp8_f32
                             encoding { opsel: 8 }
                             lanes { src0: 0x3b800001 src1: 0xffffffff src2: 0x3f800000
                                     vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0xaa02ccddu);
  EXPECT_EQ(RunOne(*Sim({"scaled_sr_exact_subnormal"}), c), 0xaa03ccddu);
  const std::string plain = R"pb(target: "gfx950" instr: v_cvt_sr_fp8_f32
                                 lanes { src0: 0x3f800001 src1: 0xffffffff })pb";
  EXPECT_EQ(RunOne(*Sim({"scaled_sr_exact_subnormal"}), plain), 0x00000039u);
}

// gfx950 scaled FP4 encoder, S2 2^0: S0 1.0 = code 2 and S1 2.0 = code 4 (FP4 E2M1: 0, 0.5, 1,
// 1.5, 2, ...). The model writes {4, 2} = 0x42 into byte 0 (S0 in the low nibble); the erratum
// trades the nibbles (0x24); OPSEL[3:2] = 2 writes byte 2, the other bytes kept. The scaled fp8
// encoder is not reached: 1.0 = 0x38 low, 2.0 = 0x40 high.
TEST(SimErrataTest, Fp4NibbleSwap) {
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_scalef32_pk_fp4_f32
                             lanes { src0: 0x3f800000 src1: 0x40000000 src2: 0x3f800000
                                     vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0xaabbcc42u);
  EXPECT_EQ(RunOne(*Sim({"fp4_nibble_swap"}), c), 0xaabbcc24u);
  const std::string byte2 = R"pb(target: "gfx950" instr: v_cvt_scalef32_pk_fp4_f32
                                 encoding { opsel: 8 }
                                 lanes { src0: 0x3f800000 src1: 0x40000000 src2: 0x3f800000
                                         vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim({"fp4_nibble_swap"}), byte2), 0xaa24ccddu);
  const std::string fp8 = R"pb(target: "gfx950" instr: v_cvt_scalef32_pk_fp8_f32
                               lanes { src0: 0x3f800000 src1: 0x40000000 src2: 0x3f800000
                                       vdst_old: 0xaabbccdd })pb";
  EXPECT_EQ(RunOne(*Sim({"fp4_nibble_swap"}), fp8), 0xaabb4038u);
}

// gfx950 pk_f16_fp8, word 0 = 0x4038: low byte 0x38 (E4M3 1.0) -> f16 0x3c00 in bits 15:0, high
// byte 0x40 (2.0) -> 0x4000 in bits 31:16 (S1 1.0); pk16_swap exchanges the two elements. A
// word of two equal bytes reads alike either way.
TEST(SimErrataTest, Pk16Swap) {
  const std::string c = R"pb(target: "gfx950" instr: v_cvt_scalef32_pk_f16_fp8
                             lanes { src0: 0x00004038 src1: 0x3f800000 })pb";
  EXPECT_EQ(RunOne(*Sim(), c), 0x40003c00u);
  EXPECT_EQ(RunOne(*Sim({"pk16_swap"}), c), 0x3c004000u);
  const std::string same = R"pb(target: "gfx950" instr: v_cvt_scalef32_pk_bf16_bf8
                                lanes { src0: 0x00003c3c src1: 0x3f800000 })pb";
  EXPECT_EQ(RunOne(*Sim({"pk16_swap"}), same), 0x3f803f80u);  // E5M2 1.0 twice: bf16 0x3f80
}

TEST(SimErrataTest, GarbageLane) {
  Tally t = CheckErratum(
      "garbage_lane",
      [](const proto::TestCase&, const std::vector<uint32_t>& model) {
        std::vector<uint32_t> out = model;
        out[out.size() / 2] ^= 0xdeadbeef;
        return out;
      },
      [](const proto::TestCase& tc, size_t lane) { return lane == tc.lanes_size() / 2u; });
  // Exactly one lane per batch.
  EXPECT_EQ(t.disagree, t.lanes / 128);
}

// crash and hang are real: they abort or stop the process, so they run isolated.
proto::TestCase TriggerCase(bool trigger) {
  proto::TestCase tc = *ParseText<proto::TestCase>(
      R"pb(target: "gfx942" instr: v_cvt_pk_u8_f32
           lanes { src0: 0x3f800000 } lanes { src0: 0x40000000 })pb", "t");
  if (trigger) tc.mutable_lanes(1)->set_src0(0x7f800001);  // a signalling NaN
  return tc;
}

// The kernel's MODE readback, emulated: the batch's MODE fields read back as set; with
// mode_lost the MODE[7:0] write is lost and a batch with a non-default MODE[7:0] is a harness
// fault (not a device fault, not a finding), on the in-process and the isolated simulator.
TEST(SimErrataTest, ModeLostIsAHarnessFaultThroughTheModeReadback) {
  proto::TestCase tc = TriggerCase(false);
  tc.set_mode(0x008000f1);  // round toward +inf, FP16_OVFL
  absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(tc);
  ASSERT_TRUE(b.ok()) << b.status();
  absl::StatusOr<DeviceResult> ok = Sim()->Run(*b);
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_TRUE(ok->mode_readback.has_value());
  // 0x008000f1 in the batch's fields, DX10_CLAMP and IEEE (0x300) from the descriptor.
  EXPECT_EQ(*ok->mode_readback, 0x008003f1u);
  for (bool isolate : {false, true}) {
    absl::StatusOr<std::unique_ptr<Runner>> dev =
        OpenRunner("sim", {.inject = {"mode_lost"}, .hypotheses = {}, .timeout = absl::Seconds(30), .isolate_sim = isolate, .lanediff_path = ""});
    ASSERT_TRUE(dev.ok()) << dev.status();
    absl::StatusOr<DeviceResult> lost = (*dev)->Run(*b);
    ASSERT_FALSE(lost.ok());
    EXPECT_FALSE(IsDeviceFault(lost.status()));
    // 0x008000f1 with MODE[7:0] lost: 0xf0 (the default) in the low byte, over 0x300.
    EXPECT_TRUE(absl::StrContains(lost.status().message(),
                                  "harness fault: MODE read back 0x008003f0 after setting 0x008000f1"))
        << lost.status();
    tc.set_mode(0x008000f0);  // MODE[7:0] at the default: nothing lost to see
    absl::StatusOr<DeviceBatch> same = BuildDeviceBatch(tc);
    EXPECT_TRUE((*dev)->Run(*same).ok());
    tc.set_mode(0x008000f1);
  }
}

TEST(SimErrataTest, CrashIsSurvivedWhenIsolated) {
  RunnerOptions opt;
  opt.inject = {"crash"};
  auto dev = OpenRunner("sim", opt);
  ASSERT_TRUE(dev.ok()) << dev.status();
  EXPECT_TRUE(absl::StartsWith((*dev)->Describe(), "isolated sim")) << (*dev)->Describe();
  const proto::TestCase good = TriggerCase(false);
  auto first = (*dev)->Run(*BuildDeviceBatch(good));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->vdst, ModelAnswer(good));
  auto bad = (*dev)->Run(*BuildDeviceBatch(TriggerCase(true)));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(IsDeviceFault(bad.status()));
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "signal 6 (SIGABRT: Aborted)"))
      << bad.status();
  auto next = (*dev)->Run(*BuildDeviceBatch(good));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->vdst, ModelAnswer(good));
}

TEST(SimErrataTest, HangIsSurvivedWhenIsolated) {
  RunnerOptions opt;
  opt.inject = {"hang"};
  opt.timeout = absl::Milliseconds(500);
  auto dev = OpenRunner("sim", opt);
  ASSERT_TRUE(dev.ok()) << dev.status();
  auto bad = (*dev)->Run(*BuildDeviceBatch(TriggerCase(true)));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(IsDeviceFault(bad.status()));
  EXPECT_TRUE(absl::IsDeadlineExceeded(bad.status())) << bad.status();
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "no answer within 500ms (timeout)"))
      << bad.status();
  const proto::TestCase good = TriggerCase(false);
  auto next = (*dev)->Run(*BuildDeviceBatch(good));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->vdst, ModelAnswer(good));
}

TEST(SimErrataTest, UnknownErratumIsNamed) {
  auto r = OpenSimRunner({.inject = {"bogus"}, .hypotheses = {}});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "unknown erratum 'bogus'"));
  EXPECT_TRUE(absl::StrContains(r.status().message(), "byte12_swap"));
}

}  // namespace
}  // namespace lanediff
