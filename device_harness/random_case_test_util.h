// Test-only: random test cases that reach every encoding corner, and the model's answer to
// them through its own path (ResolveTestCase + Evaluate: no encoder, patcher or decoder), for
// the tests that hold a device against the model (sim, exec-serve).
//
//   std::mt19937 rng(1);
//   proto::TestCase tc = testcases::RandomCase(target, kAllInstrs[0], rng, 100);
//   EXPECT_EQ(device_answer, testcases::ModelAnswer(tc));
#ifndef LANEDIFF_DEVICE_HARNESS_RANDOM_CASE_TEST_UTIL_H_
#define LANEDIFF_DEVICE_HARNESS_RANDOM_CASE_TEST_UTIL_H_

#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "device_harness/sim/errata.h"
#include "device_harness/resolve_case.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"
#include "proto/text_format.h"

namespace lanediff {
namespace testcases {


// Values that separate behaviours (docs/semantics.md §3, §5, §6), mixed with random bits.
inline constexpr uint32_t kInteresting[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x43018000 /*129.5*/, 0x437f8000 /*255.5*/,
    0x3f000000 /*0.5*/, 0x3fc00000 /*1.5*/, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
    0x00000001, 0x80000001, 0x3fffffff, 0x3f840000, 0x35800000, 0x447a0000 /*1000*/,
    0x47887000 /*69856*/, 0x7149f2ca /*1e30*/, 0x3e800000 /*0.25*/, 0x43e00000 /*448*/,
    0x47600000 /*57344*/, 0x3f7fffff};
inline constexpr uint32_t kModes[] = {0x000000f0, 0x000000f1, 0x000000f2, 0x000000f3, 0x00000000,
                               0x008000f0, 0x008000f3, 0x000000e0};

inline uint32_t Pick(std::mt19937& rng) {
  if (rng() % 2) return kInteresting[rng() % std::size(kInteresting)];
  return rng();
}

// A random test case: any modifier bits, any MODE above, VGPR sources mostly, sometimes an
// SGPR, an inline constant or (GFX10+) a literal; at most one constant-bus source.
inline proto::TestCase RandomCase(const TargetTraits& t, Instr instr, std::mt19937& rng, int lanes) {
  proto::TestCase tc;
  tc.set_target(std::string(t.name));
  tc.set_instr(InstrToProto(instr));
  proto::Encoding* e = tc.mutable_encoding();
  e->set_opsel(rng() % 16);
  e->set_neg(rng() % 8);
  e->set_abs(rng() % 8);
  e->set_clamp(rng() % 2);
  e->set_omod(rng() % 4);
  tc.set_mode(kModes[rng() % std::size(kModes)]);
  bool bus_used = false;
  const int nsrc = GetInstrInfo(instr).sources();
  const LaneShape shape = GetInstrInfo(instr).lane_shape();
  for (int s = 0; s < nsrc; ++s) {
    proto::Source* src = s == 0 ? e->mutable_src0() : (s == 1 ? e->mutable_src1() : e->mutable_src2());
    const uint32_t r = rng() % 10;
    if (shape.src_dwords[s] > 1) continue;  // a tuple source: the harness's VGPR tuple only
    if (r == 0 && !bus_used) {
      src->set_kind(proto::SOURCE_SGPR);
      src->set_value(Pick(rng));
      bus_used = true;
    } else if (r == 1) {
      src->set_kind(proto::SOURCE_INLINE);
      src->set_code(rng() % 2 ? 128 + rng() % 81 : 240 + rng() % 9);
    } else if (r == 2 && !bus_used && t.family != Family::gfx9) {
      src->set_kind(proto::SOURCE_LITERAL);
      src->set_value(Pick(rng));
      bus_used = true;
    }
  }
  for (int i = 0; i < lanes; ++i) {
    proto::Lane* l = tc.add_lanes();
    do {
      l->set_src0(Pick(rng));
    } while (IsSignallingNan(l->src0()));  // crash/hang triggers stay out of the sample
    l->set_src1(rng() % 3 ? Pick(rng) : (rng() & 0xfffff000u) | (rng() % 4));
    l->set_src2(rng());
    l->set_vdst_old(rng());
    // A tuple source's other dwords (model/base/lanes.h LaneShape): random bits.
    for (int k = 1; k < shape.src_dwords[0]; ++k) l->add_src0_more(static_cast<uint32_t>(rng()));
    for (int k = 1; k < shape.src_dwords[1]; ++k) l->add_src1_more(static_cast<uint32_t>(rng()));
  }
  return tc;
}

// The model's answer through its own path (no encoder, patcher or decoder).
inline std::vector<uint32_t> ModelAnswer(const proto::TestCase& tc, const Hypotheses& hyp = {},
                                  bool flip_src1_sign = false) {
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
  EXPECT_TRUE(rc.ok()) << rc.status() << "\n" << ToText(tc);
  if (!rc.ok()) return {};
  rc->ctx.hyp = hyp;
  if (flip_src1_sign) {
    for (uint32_t& s1 : rc->lanes.src1()) s1 ^= 0x80000000u;
  }
  std::vector<uint32_t> out(OutputWords(rc->ctx.instr, rc->lanes.size()));
  absl::Status s = Evaluate(rc->ctx, rc->lanes.view(), absl::MakeSpan(out));
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

// Every encoding form the row has on target `t`: VOP3 (e64) first, then VOP1 e32, then GFX9
// SDWA with a byte select (src0_sel BYTE_2; on a row with SDWA destination fields, vop3.h
// SdwaHasDstSel, also dst_sel BYTE_1, UNUSED_SEXT and sext), each where HasForm says the target
// has it.
inline std::vector<proto::Encoding> EveryForm(const TargetTraits& t, Instr instr) {
  std::vector<proto::Encoding> forms(1);
  if (HasForm(t, instr, InstrForm::e32)) forms.emplace_back().set_form(proto::FORM_E32);
  if (HasForm(t, instr, InstrForm::sdwa)) {
    forms.emplace_back().set_form(proto::FORM_SDWA);
    forms.back().set_src0_sel(2);  // BYTE_2
    if (SdwaHasDstSel(instr)) {    // and where the row has them, a destination byte, SEXT fill
      forms.back().set_dst_sel(1);  // BYTE_1
      forms.back().set_dst_unused(1);
      forms.back().set_src0_sext(true);
    }
  }
  return forms;
}

}  // namespace testcases
}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_RANDOM_CASE_TEST_UTIL_H_
