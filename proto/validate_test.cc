#include "proto/validate.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"

namespace lanediff {
namespace {

proto::SweepResult GoodSweep() {
  proto::SweepResult s;
  s.set_target("gfx942");
  s.set_instr(proto::v_cvt_pk_u8_f32);
  s.set_first(0);
  s.set_last(100);
  s.set_lanes(100);
  s.set_mismatches(1);
  s.add_mismatch_examples()->set_src0(7);
  s.add_mismatch_expected(1);
  s.add_mismatch_observed(2);
  return s;
}

std::string Why(const proto::RunRecord& r) { return std::string(ValidateRunRecord(r).message()); }

TEST(Validate, RunRecordRules) {
  proto::RunRecord r;
  EXPECT_EQ(Why(r), "holds no sweeps, campaigns, verdicts or fidelity lines (an empty record)");
  *r.add_sweeps() = GoodSweep();
  EXPECT_TRUE(ValidateRunRecord(r).ok()) << Why(r);
  // Three examples but one expected and one observed word (a truncated
  // shard record) made the shard merge read past the end of two lists.
  r.mutable_sweeps(0)->set_mismatches(3);
  r.mutable_sweeps(0)->add_mismatch_examples();
  r.mutable_sweeps(0)->add_mismatch_examples();
  EXPECT_EQ(Why(r), "sweeps[0]: 3 mismatch_examples but 1 mismatch_expected and 1 "
                    "mismatch_observed words (N of each per example, 1 <= N <= 32)");
  // Two words per example (a VGPR pair's, or a tuple's N) are whole lanes: accepted; 4 words
  // for 3 examples are not.
  for (int i = 0; i < 5; ++i) {
    r.mutable_sweeps(0)->add_mismatch_expected(1);
    r.mutable_sweeps(0)->add_mismatch_observed(2);
  }
  EXPECT_TRUE(ValidateRunRecord(r).ok()) << Why(r);
  r.mutable_sweeps(0)->mutable_mismatch_expected()->RemoveLast();
  r.mutable_sweeps(0)->mutable_mismatch_observed()->RemoveLast();
  r.mutable_sweeps(0)->mutable_mismatch_expected()->RemoveLast();
  r.mutable_sweeps(0)->mutable_mismatch_observed()->RemoveLast();
  EXPECT_FALSE(ValidateRunRecord(r).ok());
  r.mutable_sweeps(0)->clear_mismatch_expected();
  r.mutable_sweeps(0)->clear_mismatch_observed();
  r.mutable_sweeps(0)->add_mismatch_expected(1);
  r.mutable_sweeps(0)->add_mismatch_observed(2);
  struct Case {
    void (*edit)(proto::SweepResult*);
    const char* says;
  };
  const Case cases[] = {
      {[](proto::SweepResult* s) { s->set_instr(static_cast<proto::Instruction>(200)); },
       "sweeps[0]: field instr: 200 is not a known instruction"},
      {[](proto::SweepResult* s) { s->set_target("<script>"); },
       "sweeps[0]: field target: missing or not a gfx name"},
      {[](proto::SweepResult* s) { s->mutable_mismatch_by_exponent()->Resize(513, 0); },
       "sweeps[0]: field mismatch_by_exponent: 513 entries; there are 512 (sign x exponent)"},
      {[](proto::SweepResult* s) { s->set_first(101); },
       "sweeps[0]: fields first/last: first 101 is after last 100"},
      {[](proto::SweepResult* s) { s->set_mismatches(101); },
       "sweeps[0]: field mismatches: 101 of only 100 lanes"},
      {[](proto::SweepResult* s) { s->set_fraction(std::nan("")); },
       "sweeps[0]: field fraction: not in [0, 1]"},
      {[](proto::SweepResult* s) { s->set_seconds(-1); },
       "sweeps[0]: field seconds: not a finite, non-negative number"},
  };
  for (const Case& c : cases) {
    proto::RunRecord one;
    *one.add_sweeps() = GoodSweep();
    c.edit(one.mutable_sweeps(0));
    EXPECT_EQ(Why(one), c.says);
  }
  proto::RunRecord v;
  v.add_verdicts()->set_target("gfx942");
  EXPECT_EQ(Why(v), "verdicts[0]: field instr: 0 is not a known instruction");
  // A record of `lanediff fidelity --out` alone is a record; its lines name target and row.
  proto::RunRecord f;
  proto::FidelityLine* line = f.add_fidelity();
  line->set_target("gfx1201");
  line->set_instr(proto::v_cvt_f32_fp8);
  EXPECT_TRUE(ValidateRunRecord(f).ok()) << Why(f);
  line->set_target("<b>");
  EXPECT_EQ(Why(f), "fidelity[0]: field target: missing or not a gfx name");
}

TEST(Validate, CampaignOverSeveralTargetsAndInstructions) {
  // `lanediff fuzz --summary-out` over every target and instruction writes the targets as a
  // comma list and no single instruction; its coverage cells place the lanes. Before, report
  // refused such a record ("field target: missing or not a gfx name").
  proto::RunRecord r;
  proto::CampaignSummary* c = r.add_campaigns();
  c->set_target("gfx942,gfx950");
  EXPECT_TRUE(ValidateRunRecord(r).ok()) << Why(r);
  proto::CoverageCell* cell = c->add_coverage();
  cell->set_target("gfx942");
  cell->set_instr(proto::v_cvt_pk_u8_f32);
  EXPECT_TRUE(ValidateRunRecord(r).ok()) << Why(r);
  cell->set_instr(proto::INSTRUCTION_UNSPECIFIED);
  EXPECT_EQ(Why(r), "campaigns[0].coverage[0]: field instr: 0 is not a known instruction");
  cell->set_instr(proto::v_cvt_pk_u8_f32);
  c->add_timeline()->set_seconds(std::nan(""));
  EXPECT_EQ(Why(r), "campaigns[0].timeline[0]: field seconds: not a finite, non-negative number");
  c->clear_timeline();
  c->set_target("gfx942,<b>");
  EXPECT_EQ(Why(r), "campaigns[0]: field target: missing or not a gfx name (or a comma list of them)");
}

TEST(Validate, FindingEnumsAndLanes) {
  proto::Finding f;
  f.set_signature("s");
  f.set_kind(static_cast<proto::Finding::Kind>(7));  // an open enum's unknown value
  f.mutable_testcase()->set_target("gfx942");
  f.mutable_testcase()->set_instr(proto::v_cvt_pk_u8_f32);
  f.mutable_testcase()->add_lanes();
  EXPECT_EQ(ValidateFinding(f).message(),
            "field kind: 7 is not a Finding.Kind (1 DISAGREEMENT, 2 DEVICE_FAULT)");
  f.set_kind(proto::Finding::DEVICE_FAULT);
  EXPECT_TRUE(ValidateFinding(f).ok());
  f.mutable_testcase()->mutable_encoding()->mutable_src1()->set_kind(
      static_cast<proto::SourceKind>(4));
  EXPECT_EQ(ValidateFinding(f).message(), "field testcase.encoding.src1.kind: 4 is not a SourceKind");
}

}  // namespace
}  // namespace lanediff
