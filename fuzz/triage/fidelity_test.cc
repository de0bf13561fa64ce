#include "fuzz/triage/fidelity.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "device_harness/open_runner.h"
#include "gtest/gtest.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// Five readings planted at once on the simulator (device_harness/sim/errata.h: each erratum
// selects one model reading), asked on gfx950 (OCP E4M3/E5M2: every row of the fp8 family and
// pk_u8) and gfx942 (FNUZ): every planted reading is reported where it applies, and nothing else
// is (no other non-default reading, no "none of the known readings", no spec field).
//   sr_wrap               sr_rounding=literal        the SR rows
//   u8_truncate           pk_u8_rounding=truncate    v_cvt_pk_u8_f32
//   nan_sign              fp8_nan=sign_preserving    the OCP 8-bit float writers (E4M3: the same
//                                                    byte as sign_7f, so "sign_preserving|sign_7f")
//   nan_decode_negative   fp8_to_f32_nan=negative_quiet  the OCP decodes (FNUZ: 0x80 decodes to
//                                                    0xffc00000 under both, so not seen there)
//   overflow_before_round pk_overflow=before_rounding    v_cvt_pk_fp8/bf8_f32
TEST(Fidelity, EveryPlantedReadingIsReportedAndNothingElse) {
  const std::map<std::string, std::string> planted = {
      {"sr_rounding", "literal"},
      {"pk_u8_rounding", "truncate"},
      {"fp8_nan", "sign_preserving"},
      {"fp8_to_f32_nan", "negative_quiet"},
      {"pk_overflow", "before_rounding"},
  };
  RunnerOptions o;
  o.inject = {"sr_wrap", "u8_truncate", "nan_sign", "nan_decode_negative", "overflow_before_round"};
  auto sim = OpenRunner("sim", o);
  ASSERT_TRUE(sim.ok()) << sim.status();
  auto f = MeasureFidelity({*FindTarget("gfx950"), *FindTarget("gfx942")}, {}, **sim);
  ASSERT_TRUE(f.ok()) << f.status();
  const std::string text = FormatFidelity(*f, (*sim)->Describe());
  std::set<std::string> seen;
  std::set<std::string> seen_on_gfx942;
  for (const FidelityLine& l : f->lines) {
    SCOPED_TRACE(absl::StrCat(l.target, " ", InstrName(l.instr), " ", l.rule, " ", l.status, " ",
                              l.verdict));
    if (!l.deviation()) continue;
    ASSERT_EQ(l.status, "reading") << text;
    ASSERT_EQ(planted.count(l.rule), 1u) << text;
    const std::vector<std::string> values = absl::StrSplit(l.verdict, '|');
    EXPECT_NE(std::find(values.begin(), values.end(), planted.at(l.rule)), values.end()) << text;
    // The lane shows it: the device's words are not the default model's.
    ASSERT_EQ(l.finding.lane.lanes_size(), 1);
    EXPECT_NE(l.finding.device, l.finding.model);
    seen.insert(l.rule);
    if (l.target == "gfx942") seen_on_gfx942.insert(l.rule);
  }
  for (const auto& [rule, value] : planted) EXPECT_EQ(seen.count(rule), 1u) << rule << "\n" << text;
  // gfx942's FNUZ formats have one NaN byte (0x80) and no OCP NaN rule: fp8_nan and
  // negative_quiet do not arise there; the other three do.
  EXPECT_EQ(seen_on_gfx942,
            (std::set<std::string>{"sr_rounding", "pk_u8_rounding", "pk_overflow"}))
      << text;
  for (const FidelityRow& r : f->rows) EXPECT_TRUE(r.skipped.empty()) << r.skipped;
  EXPECT_NE(text.find("pk_overflow"), std::string::npos) << text;
}

// Three readings and a field-decoding fault at once (half_swap: the 16-bit-half writers'
// OPSEL[3] inverted, device_harness/sim/errata.h) on gfx950: the readings are reported as
// before, the fault as OPSEL lines on the half writers (DstWrite::half_at_opsel_3) only, and the
// rules of those rows are not blamed for it (no "none of the known readings").
TEST(Fidelity, ReadingsAndAFieldFaultAtOnce) {
  RunnerOptions o;
  o.inject = {"sr_wrap", "nan_sign", "overflow_before_round", "half_swap"};
  auto sim = OpenRunner("sim", o);
  ASSERT_TRUE(sim.ok()) << sim.status();
  auto f = MeasureFidelity({*FindTarget("gfx950")}, {}, **sim);
  ASSERT_TRUE(f.ok()) << f.status();
  const std::string text = FormatFidelity(*f, (*sim)->Describe());
  std::set<std::string> readings, spec_rows;
  for (const FidelityLine& l : f->lines) {
    if (!l.deviation()) continue;
    if (l.status == "spec") {
      EXPECT_EQ(l.rule.rfind("OPSEL=", 0), 0u) << l.rule << "\n" << text;
      spec_rows.insert(std::string(InstrName(l.instr)));
      continue;
    }
    EXPECT_EQ(l.status, "reading") << l.rule << "\n" << text;
    readings.insert(absl::StrCat(l.rule, "=", l.verdict));
  }
  // The half writers gfx950 has: v_cvt_pk_fp8/bf8_f32, the scaled encoders (from two f32 and
  // from two packed 16-bit floats), the scaled one-f16 decodes and the stochastic-rounding
  // f32 -> f16/bf16 pair.
  std::set<std::string> half_writers;
  for (Instr i : kAllInstrs) {
    if (FindTarget("gfx950").value()->Has(i) &&
        GetInstrInfo(i).write == DstWrite::half_at_opsel_3) {
      half_writers.insert(std::string(InstrName(i)));
    }
  }
  EXPECT_EQ(half_writers.size(), 12u);
  EXPECT_EQ(spec_rows, half_writers) << text;
  // E4M3 rows: sign_preserving and sign_7f give the same byte (reported together).
  EXPECT_EQ(readings, (std::set<std::string>{"sr_rounding=literal", "fp8_nan=sign_preserving",
                                             "fp8_nan=sign_preserving|sign_7f",
                                             "pk_overflow=before_rounding"}))
      << text;
}

// The default simulator follows every default: no line is a deviation.
TEST(Fidelity, TheDefaultSimulatorFollowsEveryDefault) {
  auto sim = OpenRunner("sim", {});
  ASSERT_TRUE(sim.ok()) << sim.status();
  auto f = MeasureFidelity({*FindTarget("gfx1201")}, {}, **sim);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->deviations(), 0) << FormatFidelity(*f, "sim");
  EXPECT_GT(f->lines.size(), 10u);
}

}  // namespace
}  // namespace lanediff
