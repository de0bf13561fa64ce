// RenderJUnit (fuzz/report/report.h): per run identity, one testcase per instruction x target
// that ran; per bucket group, one testcase per bucket (failure: NEW, REGRESSED; skipped with
// the reason: KNOWN). So a CI system's failure count is the number of new root causes.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzz/report/escape.h"
#include "fuzz/report/report.h"
#include "fuzz/report/text.h"
#include "fuzz/triage/render.h"

namespace lanediff {
namespace {

std::string InstrString(proto::Instruction i) { return proto::Instruction_Name(i); }

struct Case {
  double seconds = 0;
  uint64_t lanes = 0;
  std::vector<std::string> failures, errors, notes;
  std::string skipped;
  std::string body;  // failure text (decoded example)
};

std::string Suite(const std::string& name, const std::map<std::pair<std::string, std::string>, Case>& cases,
                  int* total_tests, int* total_failures) {
  int failures = 0, errors = 0, skipped = 0;
  std::string body;
  for (const auto& [key, c] : cases) {
    const auto& [cls, name2] = key;
    absl::StrAppend(&body, absl::StrFormat("    <testcase classname=\"%s\" name=\"%s\" time=\"%.3f\">\n",
                                           XmlEscape(cls), XmlEscape(name2), c.seconds));
    if (!c.failures.empty()) {
      ++failures;
      absl::StrAppend(&body, "      <failure message=\"", XmlEscape(absl::StrJoin(c.failures, "; ")), "\">",
                      XmlEscape(c.body), "</failure>\n");
    } else if (!c.errors.empty()) {
      ++errors;
      absl::StrAppend(&body, "      <error message=\"", XmlEscape(absl::StrJoin(c.errors, "; ")), "\"/>\n");
    } else if (!c.skipped.empty()) {
      ++skipped;
      absl::StrAppend(&body, "      <skipped message=\"", XmlEscape(c.skipped), "\"/>\n");
    }
    if (!c.notes.empty()) {
      absl::StrAppend(&body, "      <system-out>", XmlEscape(absl::StrJoin(c.notes, "\n")), "</system-out>\n");
    }
    absl::StrAppend(&body, "    </testcase>\n");
  }
  *total_tests += static_cast<int>(cases.size());
  *total_failures += failures;
  return absl::StrCat(absl::StrFormat("  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
                                      "skipped=\"%d\">\n",
                                      XmlEscape(name), cases.size(), failures, errors, skipped),
                      body, "  </testsuite>\n");
}

}  // namespace

std::string RenderJUnit(const ReportData& data) {
  std::string suites;
  int tests = 0, failures = 0;
  for (const RunGroup& g : GroupRuns(data.runs)) {
    // (classname, name) = ("lanediff.<target>", "<instr>"): one per instruction x target.
    std::map<std::pair<std::string, std::string>, Case> cases;
    auto at = [&](const std::string& target, const std::string& instr) -> Case& {
      return cases[{absl::StrCat("lanediff.", target), instr}];
    };
    std::vector<proto::RunRecord> runs;
    for (const proto::RunRecord* r : g.runs) {
      runs.push_back(*r);
      for (const proto::CampaignSummary& c : r->campaigns()) {
        if (c.coverage_size() > 0) {
          for (const proto::CoverageCell& x : c.coverage()) at(x.target(), InstrString(x.instr())).lanes += x.lanes();
        }
        // Without coverage cells (older records) the campaign's own target and instruction
        // place it; with them, its time and faults go to its first cell's testcase.
        Case& k = c.coverage_size() > 0
                      ? at(c.coverage(0).target(), InstrString(c.coverage(0).instr()))
                      : at(c.target(), c.instr() == proto::INSTRUCTION_UNSPECIFIED
                                           ? "campaign" : InstrString(c.instr()));
        if (c.coverage_size() == 0) k.lanes += c.lanes();
        k.seconds += c.seconds();
        if (!c.fault().empty()) {
          k.errors.push_back(absl::StrCat("campaign on ", c.device(), " could not finish: campaign fault: ", c.fault()));
        }
        if (c.faults() > 0) k.notes.push_back(absl::StrCat(Thousands(c.faults()), " device fault(s), triaged as buckets"));
      }
    }
    for (const proto::SweepResult& s : MergeSweeps(runs)) {
      Case& k = at(s.target(), InstrString(s.instr()));
      k.lanes += s.lanes();
      k.seconds += s.seconds();
      const std::string what = absl::StrCat("sweep ", InstrString(s.instr()), " ", s.swept(), " ", s.setting(),
                                            " on ", s.device());
      if (s.mismatches() > 0) {
        k.failures.push_back(absl::StrCat(what, ": ", Thousands(s.mismatches()), " of ", Thousands(s.lanes()),
                                          " lanes disagree"));
      }
      if (!s.fault().empty()) k.errors.push_back(absl::StrCat(what, " could not finish: ", s.fault()));
    }
    for (auto& [key, c] : cases) c.notes.insert(c.notes.begin(), absl::StrCat(Thousands(c.lanes), " lanes on ", g.label));
    const std::string name = absl::StrCat("runs: ", g.label);
    absl::StrAppend(&suites, Suite(name, cases, &tests, &failures));
  }
  for (const BucketGroup& g : GroupBuckets(data)) {
    std::map<std::pair<std::string, std::string>, Case> cases;
    for (const TriageRow& r : g.rows) {
      const std::string instr = r.signature.substr(0, r.signature.find('.'));
      Case& k = cases[{absl::StrCat("lanediff.buckets.", instr), r.signature}];
      const std::string status = BucketStatusName(r.status);
      std::string what = status;
      if (r.bucket != nullptr) {
        absl::StrAppend(&what, ": cause ", r.bucket->cause, " on ", absl::StrJoin(r.bucket->targets, ","),
                        ", seen ", Thousands(r.bucket->count), " time(s)");
      }
      if (r.status == BucketStatus::kNew || r.status == BucketStatus::kRegressed) {
        k.failures.push_back(what);
        if (r.bucket != nullptr && !r.bucket->examples.empty()) {
          k.body = DecodeExample(r.bucket->examples[0].finding, r.bucket->examples[0].path);
        }
      } else if (r.status == BucketStatus::kKnown) {
        k.skipped = absl::StrCat("KNOWN: ", r.known->reason(), r.known->link().empty() ? "" : " ",
                                 r.known->link());
      } else {
        k.notes.push_back(absl::StrCat("FIXED: known (", r.known != nullptr ? r.known->reason() : "",
                                       "), not seen by this run although its instruction ran"));
      }
    }
    absl::StrAppend(&suites, Suite(absl::StrCat("buckets: ", g.label), cases, &tests, &failures));
  }
  if (!data.incomplete.empty()) {
    ++tests;
    ++failures;
    absl::StrAppend(&suites, "  <testsuite name=\"run\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
                             "    <testcase classname=\"lanediff.run\" name=\"complete\">\n"
                             "      <failure message=\"INCOMPLETE: ", XmlEscape(data.incomplete),
                    "\"/>\n    </testcase>\n  </testsuite>\n");
  }
  for (const std::string& e : data.load_errors) {
    ++tests;
    ++failures;
    absl::StrAppend(&suites, "  <testsuite name=\"inputs\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
                             "    <testcase classname=\"lanediff.inputs\" name=\"load\">\n"
                             "      <failure message=\"", XmlEscape(e), "\"/>\n    </testcase>\n  </testsuite>\n");
  }
  return absl::StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                      absl::StrFormat("<testsuites name=\"lanediff\" tests=\"%d\" failures=\"%d\">\n", tests, failures),
                      suites, "</testsuites>\n");
}

}  // namespace lanediff
