#include "fuzz/report/report.h"

#include "absl/strings/str_cat.h"
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

LoadedFinding Loaded(proto::Finding f) { return {"corpus/findings/" + f.signature(), std::move(f)}; }

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

TEST(Report, RunsOfDifferentIdentitiesStayApartShardsOfOneRunMerge) {
  // Same sweep, [0, 100) each: one run with sr_wrap injected, one clean run, one clean run on
  // another device. Nothing may sum their lanes. Two shards of the clean run that differ only
  // in seed and host (what shards of one run differ in) merge.
  auto run = [](std::vector<std::string> inject, const std::string& kind, uint64_t first,
                uint64_t seed, const std::string& host) {
    proto::RunRecord r;
    *r.add_sweeps() = Shard(first, first + 100, 0);
    proto::RunIdentity* id = r.mutable_identity();
    id->set_device_kind(kind);
    for (const std::string& e : inject) id->add_injected(e);
    id->set_seed(seed);
    id->set_host(host);
    return r;
  };
  auto merged = MergeSweeps({run({"sr_wrap"}, "sim", 0, 1, "a"), run({}, "sim", 0, 1, "a"),
                             run({}, "hip", 0, 1, "a")});
  ASSERT_EQ(merged.size(), 3u);
  for (const proto::SweepResult& m : merged) EXPECT_EQ(m.lanes(), 100u);
  merged = MergeSweeps({run({}, "sim", 0, 1, "a"), run({}, "sim", 100, 2, "b")});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].lanes(), 200u);
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
  data.findings.push_back({"f.textproto", f});
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
  data.findings.push_back(Loaded(PkU8Finding("gfx942.v_cvt_pk_u8_f32.tie.x<y>", "v_cvt_pk_u8_f32 v4, v1, v2, v3",
                                      "lanediff replay corpus/findings/gfx942/v_cvt_pk_u8_f32/x.textproto")));

  const std::string html = RenderHtml(data);
  EXPECT_THAT(html, HasSubstr("<table id=\"matrix\">"));
  EXPECT_THAT(html, HasSubstr("<svg id=\"sr-probability\""));
  EXPECT_THAT(html, HasSubstr("<svg id=\"src0-map\""));
  EXPECT_THAT(html, HasSubstr("class=\"series\""));  // the seed sweep became a curve
  EXPECT_THAT(html, HasSubstr("x&lt;y&gt;"));         // escaped signature
  EXPECT_THAT(html, Not(HasSubstr("http://www.w3.org/1999")));  // nothing to fetch
  EXPECT_THAT(html, Not(HasSubstr("<script src")));

  const std::string xml = RenderJUnit(data);
  // The record has no identity: one run suite, a testcase per instruction x target that ran
  // (pk_u8 on gfx942 with its 3 disagreeing sweep lanes, fp8 on gfx1201), and one bucket suite
  // with the finding's one bucket, NEW (nothing is known), as a failure.
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"runs: unknown device (not silicon)\" tests=\"2\" "
                             "failures=\"1\" errors=\"0\" skipped=\"0\">"));
  EXPECT_THAT(xml, HasSubstr("<testcase classname=\"lanediff.gfx942\" name=\"v_cvt_pk_u8_f32\""));
  EXPECT_THAT(xml, HasSubstr("<testcase classname=\"lanediff.gfx1201\" name=\"v_cvt_sr_fp8_f32\""));
  EXPECT_THAT(xml, HasSubstr("3 of 100 lanes disagree"));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"buckets: unknown device (not silicon)\" tests=\"1\" "
                             "failures=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<testsuites name=\"lanediff\" tests=\"3\" failures=\"2\">"));

  const std::string md = RenderMarkdown(data);
  EXPECT_THAT(md, HasSubstr("| v_cvt_pk_u8_f32 | not run on silicon"));
  EXPECT_THAT(md, HasSubstr("repro: `lanediff replay"));
  EXPECT_THAT(md, HasSubstr("| 100 | 3 |"));                 // sweep lanes, mismatches
  EXPECT_THAT(md, HasSubstr("| 1,048,576 | 0 |"));           // thousands separators
}

TEST(Report, EveryStringFromAFileIsEscaped) {
  // Once sweep `swept`, verdict `hypothesis` and others were written raw, so a
  // run record could put a script into the HTML page and control bytes into the XML.
  const std::string evil = "<script>alert(1)</script>";
  ReportData data;
  proto::RunRecord r;
  proto::SweepResult s = Shard(0, 100, 0);
  s.set_swept(evil);
  s.set_setting("a|b\nc");
  s.set_fault("stopped");  // so that the sweep is named in the JUnit error message
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
  data.findings.push_back(Loaded(PkU8Finding("sig", "v_nop\n```\n<b>x</b>", "lanediff replay `x`")));
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
  EXPECT_THAT(xml, HasSubstr("campaign on d\\x1b[31m&amp;&quot;&apos; could not finish"));
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
  // The assembly (in the bucket's decoded example) holds a ``` line: its fence is four
  // backticks, so it cannot close early.
  EXPECT_THAT(md, HasSubstr("````\n    example  gfx942: v_nop\n```\n<b>x</b>\n"));
  EXPECT_THAT(md, HasSubstr("repro: `` lanediff replay `x` ``"));
}

// A campaign record as `lanediff fuzz --summary-out` writes it: identity, and coverage cells
// placing its lanes on each target x instruction.
proto::RunRecord Campaign(const std::string& kind, std::vector<std::string> inject, uint64_t seed,
                          uint64_t lanes_per_cell, double seconds) {
  proto::RunRecord r;
  proto::RunIdentity* id = r.mutable_identity();
  id->set_device_kind(kind);
  id->set_device_name(kind == "hip" ? "hip:0 AMD Instinct MI300X (gfx942)" : "sim (simulation)");
  id->set_driver(kind == "hip" ? "HIP runtime 60342134, ISA gfx942:sramecc+:xnack-" : "none (sim)");
  id->set_silicon(kind == "hip");
  for (const std::string& e : inject) id->add_injected(e);
  id->set_seed(seed);
  id->set_lanediff_version("0.1.0");
  id->set_git_commit("abc1234");
  id->set_date("2026-12-01T04:00:00Z");
  proto::CampaignSummary* c = r.add_campaigns();
  c->set_target("gfx942,gfx950");
  c->set_device(id->device_name());
  c->set_on_silicon(kind == "hip");
  c->set_seconds(seconds);
  for (const char* t : {"gfx942", "gfx950"}) {
    for (proto::Instruction i : {proto::v_cvt_pk_u8_f32, proto::v_cvt_sr_fp8_f32}) {
      proto::CoverageCell* x = c->add_coverage();
      x->set_target(t);
      x->set_instr(i);
      x->set_shape("plain");
      x->set_mode_class("nearest_even");
      x->set_lanes(lanes_per_cell);
      x->set_cases(lanes_per_cell / 1024);
    }
  }
  c->set_lanes(4 * lanes_per_cell);
  c->set_testcases(4 * lanes_per_cell / 1024);
  for (int k = 0; k <= 2; ++k) {
    proto::StatsSample* x = c->add_timeline();
    x->set_seconds(seconds * k / 2);
    x->set_lanes(2 * lanes_per_cell * k);
  }
  return r;
}

TEST(Report, HeaderCoverageAndStatisticsPerIdentityNeverSummed) {
  // Two simulator runs with different planted errata and one silicon run,
  // each 4 cells (2 targets x 2 instructions) of 1,024,000 / 2,048,000 / 4,096,000 lanes.
  // Nothing may sum two of them.
  ReportData data;
  data.runs = {Campaign("sim", {"sr_wrap"}, 7, 1024000, 10), Campaign("sim", {}, 8, 2048000, 20),
               Campaign("hip", {}, 9, 4096000, 40)};
  const std::vector<RunGroup> groups = GroupRuns(data.runs);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_TRUE(HasCampaigns(groups[0]));
  RunGroup no_campaign = groups[0];  // a sweep-only run: its record has no campaign
  proto::RunRecord sweep_only = *no_campaign.runs[0];
  sweep_only.clear_campaigns();
  no_campaign.runs = {&sweep_only};
  EXPECT_FALSE(HasCampaigns(no_campaign));
  EXPECT_EQ(groups[0].lanes, 4096000u);
  EXPECT_EQ(groups[2].label, "silicon");
  EXPECT_EQ(groups[0].label, "simulator (not silicon), injected sr_wrap");

  const std::string html = RenderHtml(data);
  for (const char* id : {"id=\"header\"", "id=\"runs\"", "id=\"buckets\"", "id=\"coverage\"",
                         "id=\"statistics\"", "id=\"lanes-over-time\"", "id=\"matrix\""}) {
    EXPECT_THAT(html, HasSubstr(id));
  }
  // Header rows: lanes with separators; rate = lanes / seconds: 4,096,000 / 10 = 409,600.
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">4,096,000</td><td class=\"num\">409,600 lanes/s</td>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">8,192,000</td><td class=\"num\">409,600 lanes/s</td>"));
  EXPECT_THAT(html, HasSubstr("HIP runtime 60342134, ISA gfx942:sramecc+:xnack-"));
  EXPECT_THAT(html, HasSubstr("0.1.0 (commit abc1234)"));
  // Coverage per identity: the gfx942 pk_u8 cell of each run alone, never their sum.
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">1,024,000</td></tr>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">2,048,000</td></tr>"));
  EXPECT_THAT(html, Not(HasSubstr("3,072,000")));  // 1,024,000 + 2,048,000
  EXPECT_THAT(html, Not(HasSubstr("7,168,000")));  // all three
  // The matrix: silicon agrees on gfx942 (4,096,000 lanes), the simulator runs are notes apart.
  auto m = BuildMatrix(data);
  const int pk = 0;
  EXPECT_EQ(m[pk][TargetIdx("gfx942")].status, CellStatus::kAgreesOnSilicon);
  EXPECT_THAT(m[pk][TargetIdx("gfx942")].note, HasSubstr("4,096,000"));
  ReportData sim_only;
  sim_only.runs = {data.runs[0], data.runs[1]};
  const std::string note = BuildMatrix(sim_only)[pk][TargetIdx("gfx950")].note;
  EXPECT_THAT(note, HasSubstr("simulator (not silicon), injected sr_wrap: 1,024,000 lanes agree"));
  EXPECT_THAT(note, HasSubstr("simulator (not silicon): 2,048,000 lanes agree"));

  // JUnit: one suite per identity, one testcase per instruction x target in each.
  const std::string xml = RenderJUnit(data);
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"runs: silicon\" tests=\"4\" failures=\"0\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"runs: simulator (not silicon), injected sr_wrap\" tests=\"4\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"runs: simulator (not silicon)\" tests=\"4\""));
  const std::string md = RenderMarkdown(data);
  EXPECT_THAT(md, HasSubstr("| silicon | hip:0 AMD Instinct MI300X \\(gfx942\\) |"));
}

TEST(Report, BucketsByStatusWithDecodedExamplesAndJUnitFailuresPerNewBucket) {
  // The pre-bucket corpus fixture (fuzz/triage/testdata/old_corpus, 27 findings from the
  // simulator) with one of its causes accepted as known.
  ReportData data;
  CorpusLoad load = LoadCorpus({std::string(LANEDIFF_SOURCE_DIR) + "/fuzz/triage/testdata/old_corpus/findings"});
  ASSERT_TRUE(load.errors.empty());
  data.findings = load.findings;
  proto::KnownIssue* k = data.known.add_issue();
  k->set_signature("v_cvt_sr_fp8_f32.sr_rounding=literal");
  k->set_reason("planted <sr_wrap>");
  k->set_link("https://bugs.example/12");
  const std::vector<BucketGroup> groups = GroupBuckets(data);
  int fresh = 0, known = 0, buckets = 0;
  for (const BucketGroup& g : groups) {
    for (const TriageRow& r : g.rows) {
      ++buckets;
      fresh += r.status == BucketStatus::kNew;
      known += r.status == BucketStatus::kKnown;
    }
  }
  EXPECT_EQ(known, 1);
  EXPECT_GE(fresh, 1);
  EXPECT_LT(buckets, 27);  // folded

  const std::string html = RenderHtml(data);
  EXPECT_THAT(html, HasSubstr("<span class=\"status KNOWN\">KNOWN</span><code>v_cvt_sr_fp8_f32.sr_rounding=literal</code>"));
  EXPECT_THAT(html, HasSubstr("known: planted &lt;sr_wrap&gt;"));
  EXPECT_THAT(html, HasSubstr("class=\"verdict red\""));  // something NEW
  // Decoded: the fp8 example of the known bucket shows its bytes decoded (fuzz/triage/render.h).
  EXPECT_THAT(html, HasSubstr("<pre class=\"example\">"));
  EXPECT_THAT(html, HasSubstr("(byte 0: 0x"));
  EXPECT_THAT(html, HasSubstr("repro "));
  EXPECT_THAT(html, HasSubstr("simulator (not silicon)"));

  const std::string xml = RenderJUnit(data);
  // One failure per NEW bucket, the known one skipped with its reason.
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("tests=\"", buckets, "\" failures=\"", fresh, "\" errors=\"0\" skipped=\"1\"")));
  EXPECT_THAT(xml, HasSubstr("<skipped message=\"KNOWN: planted &lt;sr_wrap&gt; https://bugs.example/12\"/>"));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<testsuites name=\"lanediff\" tests=\"", buckets, "\" failures=\"", fresh, "\">")));

  const std::string md = RenderMarkdown(data);
  EXPECT_THAT(md, HasSubstr("#### KNOWN `v_cvt_sr_fp8_f32.sr_rounding=literal`"));
  EXPECT_THAT(md, HasSubstr("- known: planted \\<sr\\_wrap\\>"));
}

}  // namespace
}  // namespace lanediff

namespace lanediff {
namespace {

// `lanediff fidelity --out` lines: the HTML report's fidelity section lists the lines that are
// not the default (with their lane and words, escaped) and counts the others.
TEST(Report, FidelitySectionListsTheDeviationsAndCountsTheDefaults) {
  ReportData data;
  proto::RunRecord r;
  proto::FidelityLine* d = r.add_fidelity();
  d->set_target("gfx1201");
  d->set_instr(proto::v_cvt_f32_fp8);
  d->set_rule("fp8_to_f32_nan");
  d->set_status("reading");
  d->set_verdict("negative_quiet");
  d->set_default_value("sign_quiet");
  d->set_assembly("v_cvt_f32_fp8_e64 v4, v1");
  d->mutable_lane()->add_lanes()->set_src0(0x7f7f7f7fu);
  d->add_device_words(0xffc00000u);
  d->add_model_words(0x7fc00000u);
  proto::FidelityLine* ok = r.add_fidelity();
  ok->set_target("gfx1201");
  ok->set_instr(proto::v_cvt_f32_fp8);
  ok->set_rule("<fp8_denorm_input>");
  ok->set_status("default");
  data.runs.push_back(r);
  const std::string html = RenderHtml(data);
  EXPECT_THAT(html, HasSubstr("<section id=\"fidelity-section\"><h2>Fidelity</h2>"));
  EXPECT_THAT(html, HasSubstr("<p>1 rules follow the default reading or are undetermined"));
  EXPECT_THAT(html, HasSubstr("<td>fp8_to_f32_nan</td><td>reading</td><td>negative_quiet</td>"
                              "<td>sign_quiet</td>"));
  EXPECT_THAT(html, HasSubstr("src0=0x7f7f7f7f src1=0x00000000 MODE=0x000000f0"));
  EXPECT_THAT(html, HasSubstr("<td>0xffc00000</td><td>0x7fc00000</td>"));
  EXPECT_THAT(html, Not(HasSubstr("fp8_denorm_input")));  // a default line is only counted
  ReportData none;
  EXPECT_THAT(RenderHtml(none), HasSubstr("<p>No fidelity run.</p>"));
}

}  // namespace
}  // namespace lanediff
