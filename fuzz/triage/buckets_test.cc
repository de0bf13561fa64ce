#include "fuzz/triage/buckets.h"

#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/triage/bucket_merge.h"
#include "fuzz/triage/render.h"
#include "gtest/gtest.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

const std::string kOld = std::string(LANEDIFF_SOURCE_DIR) + "/fuzz/triage/testdata/old_corpus";

const Bucket* Find(const std::vector<Bucket>& b, const std::string& sig) {
  for (const Bucket& x : b) {
    if (x.signature == sig) return &x;
  }
  return nullptr;
}

// The fixture: 27 findings written by the pre-bucket binary (testdata/README.md), 280
// sightings in all (sum of their `count:` lines: grep -h '^count' -r ... | awk).
TEST(Buckets, OldCorpusFoldsWithoutLoss) {
  CorpusLoad load = LoadCorpus({kOld + "/findings"});
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  ASSERT_EQ(load.findings.size(), 27u);
  const std::vector<Bucket> buckets = FoldIntoBuckets(load.findings);
  uint64_t count = 0;
  int findings = 0;
  for (const Bucket& b : buckets) {
    count += b.count;
    findings += b.findings;
    EXPECT_FALSE(b.examples.empty()) << b.signature;
    EXPECT_LE(b.examples.size(), kMaxBucketExamples);
    EXPECT_NE(b.cause, "unattributed") << b.signature;
    for (const std::string& t : b.targets) EXPECT_TRUE(t == "gfx950" || t == "gfx1201") << t;
  }
  EXPECT_EQ(count, 280u);
  EXPECT_EQ(findings, 27);
  EXPECT_LT(buckets.size(), 27u);  // folded: fewer buckets than files
  // The files signed "...sr_rounding=literal" fold into one bucket per instruction, both
  // targets, counts summed (fp8: 44, bf8: 59; grep -h '^count' */v_cvt_sr_fp8_f32/*literal*).
  const Bucket* fp8 = Find(buckets, "v_cvt_sr_fp8_f32.sr_rounding=literal");
  ASSERT_NE(fp8, nullptr);
  EXPECT_EQ(fp8->count, 44u);
  EXPECT_EQ(fp8->targets, (std::set<std::string>{"gfx1201", "gfx950"}));
  EXPECT_EQ(fp8->findings, 5);  // 2 on gfx1201 + 3 on gfx950
  const Bucket* bf8 = Find(buckets, "v_cvt_sr_bf8_f32.sr_rounding=literal");
  ASSERT_NE(bf8, nullptr);
  EXPECT_EQ(bf8->count, 59u);
  // gfx950 fp8 opsel4 zero: kept 0x00010000, byte 1 should get 0x00 (expected == kept), the
  // device wrote 0x00 into byte 2 (observed 0x00000000): byte_moved (attribution_test).
  const Bucket* moved = Find(buckets, "v_cvt_sr_fp8_f32.byte_moved");
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->targets.count("gfx950"), 1u);
  // Attributes: old findings count their one example's shape, class and MODE `count` times.
  EXPECT_EQ(fp8->attributes.at("shape:plain"), 44u);
}

LoadedFinding Stored(const std::string& target, proto::Instruction instr, const std::string& cause,
                     uint64_t count) {
  LoadedFinding lf;
  lf.path = absl::StrCat(target, "/", proto::Instruction_Name(instr), "/", cause, ".textproto");
  lf.finding.set_kind(proto::Finding::DISAGREEMENT);
  lf.finding.set_cause(cause);
  lf.finding.set_count(count);
  lf.finding.mutable_testcase()->set_target(target);
  lf.finding.mutable_testcase()->set_instr(instr);
  return lf;
}

// One NaN reading seen on three targets (the simulator's nan_sign, sign|0x7f on E4M3 and
// sign|0x7e on E5M2, fp8_nan=sign_preserving). On E4M3 (gfx950) S.1111.111 is the only NaN
// code, so sign_7f gives the same byte and the finding names both; gfx1250's UE5M3 form
// (CLAMP=1) parts them, and its finding names sign_preserving, while a gfx1250 batch without
// CLAMP named both. The readings consistent with all three are {sign_preserving}: one bucket,
// on both targets, sightings 3 + 5 + 7. A bucket keyed by the name would be two.
TEST(Buckets, ReadingsOfOneRuleFoldIntoTheReadingsEveryTargetAllows) {
  const proto::Instruction pk = proto::v_cvt_pk_fp8_f32;
  const std::vector<Bucket> buckets = FoldIntoBuckets({
      Stored("gfx950", pk, "fp8_nan=sign_7f+sign_preserving", 3),
      Stored("gfx1250", pk, "fp8_nan=sign_preserving", 5),
      Stored("gfx1250", pk, "fp8_nan=sign_7f+sign_preserving", 7),
  });
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets[0].signature, "v_cvt_pk_fp8_f32.fp8_nan=sign_preserving");
  EXPECT_EQ(buckets[0].cause, "fp8_nan=sign_preserving");
  EXPECT_EQ(buckets[0].targets, (std::set<std::string>{"gfx1250", "gfx950"}));
  EXPECT_EQ(buckets[0].count, 15u);
  EXPECT_EQ(buckets[0].findings, 3);
  // The campaign's key for all three: the instruction and the rule.
  EXPECT_EQ(BucketKey("v_cvt_pk_fp8_f32.fp8_nan=sign_7f+sign_preserving"),
            "v_cvt_pk_fp8_f32.fp8_nan");
  EXPECT_EQ(BucketKey("v_cvt_pk_fp8_f32.nan_encoding"), "v_cvt_pk_fp8_f32.nan_encoding");
}

// Readings that no target shares are different causes: sign_7f on gfx950 and canonical on
// gfx1250 stay two buckets; the two-value finding joins the one it shares a reading with
// (sign_7f: the smallest value sets group first), and another rule or a class is apart.
TEST(Buckets, ReadingsSharingNoValueStayApart) {
  const proto::Instruction pk = proto::v_cvt_pk_fp8_f32;
  const std::vector<Bucket> buckets = FoldIntoBuckets({
      Stored("gfx950", pk, "fp8_nan=sign_7f", 1),
      Stored("gfx1250", pk, "fp8_nan=canonical", 2),
      Stored("gfx942", pk, "fp8_nan=sign_7f+sign_preserving", 4),
      Stored("gfx950", pk, "fp16_ovfl=ignored", 8),
      Stored("gfx950", pk, "nan_encoding", 16),
  });
  std::vector<std::string> sigs;
  for (const Bucket& b : buckets) sigs.push_back(absl::StrCat(b.signature, " x", b.count));
  EXPECT_EQ(sigs, (std::vector<std::string>{
                      "v_cvt_pk_fp8_f32.fp16_ovfl=ignored x8",
                      "v_cvt_pk_fp8_f32.fp8_nan=canonical x2",
                      "v_cvt_pk_fp8_f32.fp8_nan=sign_7f x5",
                      "v_cvt_pk_fp8_f32.nan_encoding x16",
                  }));
}

Bucket Make(const std::string& sig, const std::string& last_seen) {
  Bucket b;
  b.signature = sig;
  b.instr = sig.substr(0, sig.find('.'));
  b.cause = sig.substr(sig.find('.') + 1);
  b.count = 1;
  b.first_seen = b.last_seen = last_seen;
  return b;
}

TEST(Triage, NewKnownFixedRegressed) {
  const std::vector<Bucket> buckets = {
      Make("v_cvt_sr_fp8_f32.sr_rounding=literal", "2026-12-02T00:00:00Z"),  // seen, known
      Make("v_cvt_sr_bf8_f32.byte_moved", "2026-12-02T00:00:00Z"),           // seen, not known
      Make("v_cvt_pk_u8_f32.pk_u8_rounding=truncate", "2026-12-01T00:00:00Z"),  // old, known
      Make("v_cvt_sr_fp8_f32.nan_vs_inf", "2026-12-02T00:00:00Z"),  // seen, known, fixed
  };
  proto::KnownIssues known;
  auto add = [&](const std::string& sig, const std::string& fixed) {
    proto::KnownIssue* k = known.add_issue();
    k->set_signature(sig);
    k->set_reason("r");
    k->set_fixed(fixed);
  };
  add("v_cvt_sr_fp8_f32.sr_rounding=literal", "");
  add("v_cvt_pk_u8_f32.pk_u8_rounding=truncate", "");
  add("v_cvt_sr_fp8_f32.nan_vs_inf", "2026-12-01T12:00:00Z");
  add("v_cvt_sr_bf8_f32.sign_only", "");  // never in the corpus: FIXED if covered
  std::vector<TriageRow> rows = Triage(buckets, known, {.since = "2026-12-02T00:00:00Z", .covered_instrs = {}});
  std::vector<std::string> got;
  for (const TriageRow& r : rows) got.push_back(absl::StrCat(BucketStatusName(r.status), " ", r.signature));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "NEW v_cvt_sr_bf8_f32.byte_moved",
                     "REGRESSED v_cvt_sr_fp8_f32.nan_vs_inf",
                     "KNOWN v_cvt_sr_fp8_f32.sr_rounding=literal",
                     "FIXED v_cvt_pk_u8_f32.pk_u8_rounding=truncate",
                     "FIXED v_cvt_sr_bf8_f32.sign_only",
                 }));
  // Only v_cvt_sr_fp8_f32 covered: the pk_u8 and bf8 known issues are not judged.
  rows = Triage(buckets, known,
                {.since = "2026-12-02T00:00:00Z", .covered_instrs = {"v_cvt_sr_fp8_f32"}});
  for (const TriageRow& r : rows) EXPECT_NE(r.status, BucketStatus::kFixed) << r.signature;
}

TEST(Triage, KnownIssuesFileRoundTripsAndNamesErrors) {
  const std::string dir = ::testing::TempDir() + "/known_rt";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/known_issues.textproto";
  std::filesystem::remove(path);
  auto none = ReadKnownIssues(path);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->issue_size(), 0);
  proto::KnownIssues k;
  proto::KnownIssue* i = k.add_issue();
  i->set_signature("v_cvt_sr_fp8_f32.sr_rounding=literal");
  i->set_reason("erratum \"12\"");
  i->set_link("https://example.invalid/12");
  ASSERT_TRUE(WriteKnownIssues(path, k).ok());
  auto back = ReadKnownIssues(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->issue(0).reason(), "erratum \"12\"");
  ASSERT_TRUE(WriteFileAtomic(path, "issue { signatur: \"x\" }\n").ok());
  auto bad = ReadKnownIssues(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StrContains(bad.status().message(), path + ":1:")) << bad.status();
}

TEST(BucketMerge, SumsAttributesKeepsOneExamplePerShapeBounded) {
  proto::Finding stored;
  stored.set_kind(proto::Finding::DISAGREEMENT);
  (*stored.mutable_attributes())["shape:plain"] = 2;
  proto::Finding in = stored;
  (*in.mutable_attributes())["shape:plain"] = 3;
  (*in.mutable_attributes())["mode:000000f0"] = 1;
  MergeBucketFields(in, &stored);  // same shape (no encoding fields, MODE absent): no example
  EXPECT_EQ(stored.attributes().at("shape:plain"), 5u);
  EXPECT_EQ(stored.attributes().at("mode:000000f0"), 1u);
  EXPECT_EQ(stored.more_examples_size(), 0);
  // OPSEL 4, 8, 12 and a MODE: four other shapes, only kMaxExtraExamples (3) kept; a
  // different source value alone is not another shape.
  for (uint32_t opsel : {4u, 8u, 12u}) {
    in.mutable_testcase()->mutable_encoding()->set_opsel(opsel);
    in.add_observed(opsel);
    MergeBucketFields(in, &stored);
  }
  in.mutable_testcase()->mutable_encoding()->set_opsel(0);
  in.mutable_testcase()->set_mode(0xf1);
  MergeBucketFields(in, &stored);
  ASSERT_EQ(stored.more_examples_size(), kMaxExtraExamples);
  EXPECT_EQ(stored.more_examples(0).testcase().encoding().opsel(), 4u);
  EXPECT_EQ(stored.more_examples(2).testcase().encoding().opsel(), 12u);
  proto::Finding v = stored;
  v.clear_more_examples();
  proto::Finding in2;
  in2.set_kind(proto::Finding::DISAGREEMENT);
  in2.mutable_testcase()->mutable_encoding()->mutable_src0()->set_value(7);
  MergeBucketFields(in2, &v);
  EXPECT_EQ(v.more_examples_size(), 0);
}

TEST(Render, JsonObjectCarriesTheDecodedExample) {
  CorpusLoad load = LoadCorpus({kOld + "/findings/gfx950/v_cvt_sr_fp8_f32"});
  const std::vector<Bucket> buckets = FoldIntoBuckets(load.findings);
  const Bucket* b = Find(buckets, "v_cvt_sr_fp8_f32.sr_rounding=literal");
  ASSERT_NE(b, nullptr);
  TriageRow row{BucketStatus::kNew, b, nullptr, b->signature, {}};
  const std::string j = TriageJson(row);
  EXPECT_EQ(j.find('\n'), std::string::npos);
  EXPECT_TRUE(absl::StartsWith(j, "{\"status\":\"NEW\",\"signature\":\"v_cvt_sr_fp8_f32.sr_rounding=literal\""))
      << j;
  EXPECT_TRUE(absl::StrContains(j, "\"targets\":[\"gfx950\"]")) << j;
  EXPECT_TRUE(absl::StrContains(j, "\"instruction\":\"v_cvt_sr_fp8_f32\"")) << j;
  // The gfx950 examples sort by path: ...plain.inf... first. Its lane: src0 = +Inf
  // (0x7f800000). OCP E4M3 has no Inf: +Inf gives sign|0x7f (fp8_format.h inf_out), which is
  // a NaN encoding; the literal seed add turns the input into a NaN, canonical 0xff. Both
  // bytes decode as NaN (S.1111.111).
  EXPECT_TRUE(absl::StrContains(j, "\"src0\":\"0x7f800000\"")) << j;
  EXPECT_TRUE(absl::StrContains(j, "\"expected_byte\":\"0x7f = NaN\"")) << j;
  EXPECT_TRUE(absl::StrContains(j, "\"observed_byte\":\"0xff = NaN\"")) << j;
  EXPECT_TRUE(absl::StrContains(j, "\"src0_value\":\"inf\"")) << j;
  EXPECT_TRUE(absl::StrContains(j, "\"repro\":\"lanediff replay ")) << j;
  EXPECT_EQ(Thousands(4378853376u), "4,378,853,376");
  EXPECT_EQ(Thousands(999), "999");
}

// A decode's example (render.h DecodeExample) shows its source as 8-bit codes and its result as
// an f32 word, not as bytes: gfx950 v_cvt_f32_bf8 of byte 0x7d (OCP E5M2 S.11111.01: a NaN).
// 0x7fc00000 is exponent 0xff, fraction 0x400000 (bit 22 set: quiet); 0x7fffffff fraction
// 0x7fffff, quiet as well: the two NaN words differ by their fraction alone.
TEST(Render, AnF32DecodeShowsItsCodesAndItsNanWords) {
  auto f = ParseText<proto::Finding>(R"pb(
    testcase { target: "gfx950" instr: v_cvt_f32_bf8 lanes { src0: 0x7d } }
    expected: 0x7fc00000 observed: 0x7fffffff)pb", "finding");
  ASSERT_TRUE(f.ok()) << f.status();
  const std::string text = DecodeExample(*f, "f.textproto");
  EXPECT_TRUE(absl::StrContains(
      text, "src0 0x0000007d (8-bit float codes, bytes low first: 7d 00 00 00)")) << text;
  EXPECT_TRUE(absl::StrContains(text, "expected 0x7fc00000 = NaN (quiet, fraction 0x400000)  "
                                      "observed 0x7fffffff = NaN (quiet, fraction 0x7fffff)"))
      << text;
}

// gfx1250's FP6 decodes show their 3-dword tuple source as its 16 six-bit codes, field k at bits
// 6k+5:6k: the tuple of corpus/seeds/v_cvt_scale_pk16_f32_fp6 (fields 0x08 0x28 0x1f 0x01 0x10
// 0x3f 0x20 0x00 0x09 0x07 0x18 0x02 0x08 0x00 0x00 0x30; field 5 straddles dwords 0 and 1,
// field 10 dwords 1 and 2), and the first differing word, VDST+5.
TEST(Render, AnFp6TupleDecodeShowsItsSixteenCodes) {
  auto f = ParseText<proto::Finding>(R"pb(
    testcase {
      target: "gfx1250"
      instr: v_cvt_scale_pk16_f32_fp6
      lanes { src0: 0xd005fa08 src0_more: 0x81c9020f src0_more: 0xc0000809 src1: 0x7f7e7d80 }
    }
    expected: [ 0, 0, 0, 0, 0, 0xc1700000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 ]
    observed: [ 0, 0, 0, 0, 0, 0xc0f00000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 ])pb", "finding");
  ASSERT_TRUE(f.ok()) << f.status();
  const std::string text = DecodeExample(*f, "f.textproto");
  EXPECT_TRUE(absl::StrContains(text, "src0 0xd005fa08 (FP6 codes of the 3-dword tuple, field 0 "
                                      "first: 08 28 1f 01 10 3f 20 00 09 07 18 02 08 00 00 30)"))
      << text;
  EXPECT_TRUE(absl::StrContains(text, "VDST+5 expected 0xc1700000 = -15")) << text;
}

// A tuple of FP6/BF6 codes (render.h DecodeExample) shows its first differing six-bit field,
// read across the two words it straddles: gfx1250 v_cvt_scalef32_sr_pk16_fp6_f32, every field
// E2M3 0x08 (1.0; bits 6k+3: 0x08208208 0x82082082 0x20820820), observed VDST+1 bit 0 set: bit
// 32 is field 5's bit 2 (field 5 at bits 35:30: VDST bits 31:30 00, VDST+1 bits 3:0 0010 ->
// 0x08; observed 0011 -> 0x0c = 1.5, E2M3 exponent 1 fraction 4/8).
TEST(Render, AnFp6TupleShowsItsFirstDifferingField) {
  auto f = ParseText<proto::Finding>(R"pb(
    testcase {
      target: "gfx1250" instr: v_cvt_scalef32_sr_pk16_fp6_f32 encoding {}
      lanes {
        src0: 0x3f880000 src1: 0 src2: 0x3f800000
        src0_more: [ 0x3f880000, 0x3f880000, 0x3f880000, 0x3f880000, 0x3f880000, 0x3f880000,
                     0x3f880000, 0x3f880000, 0x3f880000, 0x3f880000, 0x3f880000, 0x3f880000,
                     0x3f880000, 0x3f880000, 0x3f880000 ]
      }
    }
    expected: [ 0x08208208, 0x82082082, 0x20820820 ]
    observed: [ 0x08208208, 0x82082083, 0x20820820 ])pb", "finding");
  ASSERT_TRUE(f.ok()) << f.status();
  const std::string text = DecodeExample(*f, "f.textproto");
  EXPECT_TRUE(absl::StrContains(text, "VDST+1 expected 0x82082082 (field 5: 0x08 = 1)  observed "
                                      "0x82082083 (field 5: 0x0c = 1.5)"))
      << text;
}

// What a cause says (render.h CauseTitle): a reading, equivalent readings, a field, or none of
// the known readings for a difference class.
TEST(Render, CauseTitleSaysWhatExplainsTheLanes) {
  EXPECT_EQ(CauseTitle("sr_seed=low"), "reading sr_seed=low");
  EXPECT_EQ(CauseTitle("fp8_nan=sign_7f+sign_preserving"),
            "equivalent readings fp8_nan in {sign_7f, sign_preserving}");
  EXPECT_EQ(CauseTitle("acts_as_if.neg0=0"), "acts as if neg0=0");
  EXPECT_EQ(CauseTitle("nan_encoding"), "none of the known readings: nan_encoding");
  EXPECT_EQ(CauseTitle("device_fault.crash"), "device fault: crash");
  EXPECT_EQ(CauseTitle("undefined_by_spec.rounded_other_way"),
            "undefined by spec: none of the known readings: rounded_other_way");
}

}  // namespace
}  // namespace lanediff
