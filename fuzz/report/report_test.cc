#include "fuzz/report/report.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

int TargetIdx(absl::string_view name) {
  for (size_t i = 0; i < AllTargets().size(); ++i) {
    if (AllTargets()[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

proto::SweepResult Shard(uint64_t first, uint64_t last, uint64_t mismatches) {
  proto::SweepResult s;
  s.set_target("gfx942");
  s.set_instr(proto::v_cvt_pk_u8_f32);
  s.set_setting("mode=0x000000f0");
  s.set_device("sim");
  s.set_swept("src0");
  s.set_first(first);
  s.set_last(last);
  s.set_lanes(last - first);
  s.set_mismatches(mismatches);
  if (mismatches) {
    s.mutable_mismatch_by_exponent()->Resize(512, 0);
    s.set_mismatch_by_exponent(134, mismatches);  // all at 128.0 <= |src0| < 256.0
    for (uint64_t i = 0; i < mismatches && i < 8; ++i) {
      s.add_mismatch_examples()->set_src0(static_cast<uint32_t>(first + i));
      s.add_mismatch_expected(1);
      s.add_mismatch_observed(2);
    }
  }
  return s;
}

proto::Finding PkU8Finding(const std::string& signature, const std::string& assembly,
                           const std::string& repro) {
  proto::Finding f;
  f.set_kind(proto::Finding::DISAGREEMENT);
  f.set_signature(signature);
  f.set_assembly(assembly);
  f.set_repro(repro);
  f.mutable_testcase()->set_target("gfx942");
  f.mutable_testcase()->set_instr(proto::v_cvt_pk_u8_f32);
  return f;
}

TEST(Report, ShardsMergeToTheUnshardedResult) {
  // Four shards of [0, 400), the second and fourth with mismatches, given out of order.
  proto::RunRecord a, b;
  *a.add_sweeps() = Shard(300, 400, 5);
  *a.add_sweeps() = Shard(0, 100, 0);
  *b.add_sweeps() = Shard(100, 200, 6);
  *b.add_sweeps() = Shard(200, 300, 0);
  auto merged = MergeSweeps({a, b});
  ASSERT_EQ(merged.size(), 1u);
  const proto::SweepResult& m = merged[0];
  EXPECT_EQ(m.first(), 0u);
  EXPECT_EQ(m.last(), 400u);
  EXPECT_EQ(m.lanes(), 400u);
  EXPECT_EQ(m.mismatches(), 11u);
  EXPECT_EQ(m.mismatch_by_exponent(134), 11u);
  // The first eight examples of the whole range, in range order: 100..105 then 300, 301.
  ASSERT_EQ(m.mismatch_examples_size(), 8);
  EXPECT_EQ(m.mismatch_examples(0).src0(), 100u);
  EXPECT_EQ(m.mismatch_examples(5).src0(), 105u);
  EXPECT_EQ(m.mismatch_examples(6).src0(), 300u);
  EXPECT_EQ(m.mismatch_examples(7).src0(), 301u);
}

TEST(Report, DifferentSettingsStayApart) {
  proto::RunRecord r;
  *r.add_sweeps() = Shard(0, 10, 0);
  proto::SweepResult other = Shard(0, 10, 0);
  other.set_setting("mode=0x000000f3");
  *r.add_sweeps() = other;
  EXPECT_EQ(MergeSweeps({r}).size(), 2u);
}

TEST(Report, MatrixCells) {
  ReportData data;
  proto::RunRecord r;
  proto::CampaignSummary* silicon = r.add_campaigns();
  silicon->set_target("gfx1201");
  silicon->set_instr(proto::v_cvt_sr_fp8_f32);
  silicon->set_device("hip");
  silicon->set_on_silicon(true);
  silicon->set_lanes(1000);
  proto::CampaignSummary* sim = r.add_campaigns();
  sim->set_target("gfx942");
  sim->set_instr(proto::v_cvt_pk_u8_f32);
  sim->set_device("sim");
  sim->set_lanes(500);
  data.runs.push_back(r);
  proto::Finding f;
  f.mutable_testcase()->set_target("gfx950");
  f.mutable_testcase()->set_instr(proto::v_cvt_sr_bf8_f32);
  data.findings.push_back(f);
  auto m = BuildMatrix(data);
  const int pk = 0, fp8 = 1, bf8 = 2;
  EXPECT_EQ(m[fp8][TargetIdx("gfx1201")].status, CellStatus::kAgreesOnSilicon);
  EXPECT_EQ(m[pk][TargetIdx("gfx942")].status, CellStatus::kNotRun);  // simulated only
  EXPECT_THAT(m[pk][TargetIdx("gfx942")].note, HasSubstr("500"));
  EXPECT_EQ(m[bf8][TargetIdx("gfx950")].status, CellStatus::kDisagrees);
  EXPECT_EQ(m[fp8][TargetIdx("gfx1100")].status, CellStatus::kNotSupported);  // RDNA3: no SR
  EXPECT_EQ(m[pk][TargetIdx("gfx1100")].status, CellStatus::kNotRun);
}

TEST(Report, RenderingsCarryMatrixPlotsAndFindings) {
  ReportData data;
  proto::RunRecord r;
  *r.add_sweeps() = Shard(0, 100, 3);
  proto::SweepResult seed;
  seed.set_target("gfx1201");
  seed.set_instr(proto::v_cvt_sr_fp8_f32);
  seed.set_swept("seed");
  seed.set_device("sim");
  seed.set_lanes(1 << 20);
  seed.set_round_up_model(1 << 18);
  seed.set_round_up_device(1 << 19);
  seed.set_fraction(0.25);
  *r.add_sweeps() = seed;
  data.runs.push_back(r);
  data.findings.push_back(PkU8Finding("gfx942.v_cvt_pk_u8_f32.tie.x<y>", "v_cvt_pk_u8_f32 v4, v1, v2, v3",
                                      "lanediff replay corpus/findings/gfx942/v_cvt_pk_u8_f32/x.textproto"));

  const std::string html = RenderHtml(data);
  EXPECT_THAT(html, HasSubstr("<table id=\"matrix\">"));
  EXPECT_THAT(html, HasSubstr("<svg id=\"sr-probability\""));
  EXPECT_THAT(html, HasSubstr("<svg id=\"pk-u8-map\""));
  EXPECT_THAT(html, HasSubstr("class=\"series\""));  // the seed sweep became a curve
  EXPECT_THAT(html, HasSubstr("x&lt;y&gt;"));         // escaped signature
  EXPECT_THAT(html, Not(HasSubstr("http://www.w3.org/1999")));  // nothing to fetch
  EXPECT_THAT(html, Not(HasSubstr("<script src")));

  const std::string xml = RenderJUnit(data);
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"gfx942\" tests=\"2\" failures=\"2\">"));
  EXPECT_THAT(xml, HasSubstr("3 of 100 lanes disagree"));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"gfx1201\" tests=\"1\" failures=\"0\">"));

  const std::string md = RenderMarkdown(data);
  EXPECT_THAT(md, HasSubstr("| v_cvt_pk_u8_f32 | not run on silicon"));
  EXPECT_THAT(md, HasSubstr("repro: `lanediff replay"));
}

TEST(Report, EveryStringFromAFileIsEscaped) {
  // Issue 11 point 2: sweep `swept`, verdict `hypothesis` and others were written raw, so a
  // run record could put a script into the HTML page and control bytes into the XML.
  const std::string evil = "<script>alert(1)</script>";
  ReportData data;
  proto::RunRecord r;
  proto::SweepResult s = Shard(0, 100, 0);
  s.set_swept(evil);
  s.set_setting("a|b\nc");
  *r.add_sweeps() = s;
  proto::HypothesisVerdict* v = r.add_verdicts();
  v->set_target("gfx942");
  v->set_instr(proto::v_cvt_pk_u8_f32);
  v->set_hypothesis("<img src=x onerror=alert(2)>");
  v->set_verdict("x\x01y");
  proto::CampaignSummary* c = r.add_campaigns();
  c->set_target("gfx942");
  c->set_instr(proto::v_cvt_pk_u8_f32);
  c->set_device("d\x1b[31m&\"'");
  c->set_fault("\xff\xfe bytes");  // not UTF-8 (cannot come from a loaded file, but a name can)
  data.runs.push_back(r);
  data.findings.push_back(PkU8Finding("sig", "v_nop\n```\n<b>x</b>", "lanediff replay `x`"));
  data.load_errors.push_back("bad\x02name.textproto: \xef\xbf\xbf");  // U+FFFF: not XML

  const std::string html = RenderHtml(data);
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, Not(HasSubstr("<b>")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(html, HasSubstr("&lt;img src=x onerror=alert(2)&gt;"));
  EXPECT_THAT(html, HasSubstr("x\\x01y"));  // a control byte shown as \xNN, never raw

  const std::string xml = RenderJUnit(data);
  // Hand-derived: ESC -> \x1b, & -> &amp;, " -> &quot;, ' -> &apos;; 0xff 0xfe start no UTF-8
  // character -> \xff\xfe; U+FFFF (ef bf bf) is not an XML character -> \xef\xbf\xbf.
  EXPECT_THAT(xml, HasSubstr("campaign v_cvt_pk_u8_f32 on d\\x1b[31m&amp;&quot;&apos;"));
  EXPECT_THAT(xml, HasSubstr("campaign fault: \\xff\\xfe bytes"));
  EXPECT_THAT(xml, HasSubstr("bad\\x02name.textproto: \\xef\\xbf\\xbf"));
  EXPECT_THAT(xml, HasSubstr("sweep v_cvt_pk_u8_f32 &lt;script&gt;"));
  for (char ch : xml) {
    const unsigned char u = static_cast<unsigned char>(ch);
    EXPECT_TRUE(u >= 0x20 || u == '\n' || u == '\t' || u == '\r') << "raw control byte " << int(u);
    EXPECT_LT(u, 0x80) << "this input yields ASCII-only XML";
  }

  const std::string md = RenderMarkdown(data);
  // Outside code blocks every '<' is backslash-escaped (Markdown then shows it as text).
  std::string text = md;
  text.erase(text.find("````\n"), text.rfind("\n````") - text.find("````\n"));
  for (size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at + 1)) {
    EXPECT_EQ(text[at - 1], '\\') << text.substr(at, 20);
  }
  EXPECT_THAT(md, HasSubstr("\\<script\\>alert\\(1\\)\\</script\\>"));
  EXPECT_THAT(md, HasSubstr("\\<img src=x onerror=alert\\(2\\)\\>"));
  EXPECT_THAT(md, HasSubstr("| a\\|b c |"));  // one table row: the line end became a space
  // The assembly holds a ``` line: its fence is four backticks, so it cannot close early.
  EXPECT_THAT(md, HasSubstr("````\nv_nop\n```\n<b>x</b>\n````"));
  EXPECT_THAT(md, HasSubstr("repro: `` lanediff replay `x` ``"));
}

}  // namespace
}  // namespace lanediff
