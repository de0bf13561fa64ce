// `lanediff fidelity --device=DEV [--targets T,...] [--instrs I,...]` (fuzz/triage/fidelity.h).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/open_runner.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/json_line.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/triage/fidelity.h"
#include "model/base/version.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

std::vector<std::string> Hex(const LaneAnswer& a) {
  std::vector<std::string> out;
  for (size_t k = 0; k < a.words; ++k) out.push_back(absl::StrFormat("0x%08x", a.word[k]));
  return out;
}

std::string FidelityJsonLines(const Fidelity& f, const std::string& device) {
  std::string out;
  std::vector<std::string> skipped;
  for (const FidelityRow& r : f.rows) {
    if (!r.skipped.empty()) {
      skipped.push_back(absl::StrCat(r.target, " ", InstrName(r.instr), ": ", r.skipped));
    }
  }
  for (const FidelityLine& l : f.lines) {
    JsonLine j;
    j.Str("type", "rule")
        .Str("target", l.target)
        .Str("instr", InstrName(l.instr))
        .Str("rule", l.rule)
        .Str("status", l.status)
        .Str("verdict", l.verdict)
        .Str("default", l.default_value)
        .Bool("deviation", l.deviation());
    const proto::TestCase& tc = l.finding.lane;
    if (tc.lanes_size() > 0) {
      j.Str("assembly", l.assembly)
          .Str("src0", absl::StrFormat("0x%08x", tc.lanes(0).src0()))
          .Str("src1", absl::StrFormat("0x%08x", tc.lanes(0).src1()))
          .Str("mode", absl::StrFormat("0x%08x", tc.has_mode() ? tc.mode() : kDefaultMode))
          .Strs("device_words", Hex(l.finding.device))
          .Strs("model_words", Hex(l.finding.model));
    }
    absl::StrAppend(&out, j.Text(), "\n");
  }
  int asked = 0;
  for (const FidelityRow& r : f.rows) asked += r.skipped.empty();
  absl::StrAppend(&out,
                  JsonLine()
                      .Str("type", "summary")
                      .Str("device", device)
                      .Uint("rows", static_cast<uint64_t>(asked))
                      .Strs("skipped", skipped)
                      .Uint("lines", f.lines.size())
                      .Uint("deviations", static_cast<uint64_t>(f.deviations()))
                      .Text(),
                  "\n");
  return out;
}

// --targets (default: what the device runs: CampaignTargets) and --instrs: -1, else an exit code.
int ParseRows(const DeviceFlags& dev, const std::string& targets, const std::string& instrs,
              std::vector<const TargetTraits*>* ts, std::vector<Instr>* is) {
  std::vector<std::string> requested;
  if (int rc = ParseTargetList("fidelity", targets, &requested); rc >= 0) return rc;
  if (int rc = ParseInstrList("fidelity", instrs, is); rc >= 0) return rc;
  absl::StatusOr<std::vector<std::string>> chosen =
      CampaignTargets(dev.device, dev.Options(), requested);
  if (!chosen.ok()) {
    std::fprintf(stderr, "lanediff fidelity: --device=%s: %s\n", dev.device.c_str(),
                 std::string(chosen.status().message()).c_str());
    return chosen.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage
                                                                        : kExitEnvironment;
  }
  if (chosen->empty()) {
    for (const TargetTraits& t : AllTargets()) ts->push_back(&t);
  }
  for (const std::string& t : *chosen) ts->push_back(*FindTarget(t));
  return -1;
}

int RunFidelity(int argc, char** argv) {
  Args args("fidelity",
            "For every (target, row) the device runs, which reading of each rule it follows,\n"
            "where it differs where the spec is clear (NEG, ABS, OPSEL and the byte or word\n"
            "selects, CLAMP, SDWA src0_sel) and what matches none of the known readings, each\n"
            "with one lane that shows it: the per-instruction fidelity report of an emulator or\n"
            "a chip. It asks discriminate's questions (`lanediff discriminate`) row by row.");
  std::string targets, instrs, out;
  bool json = false;
  DeviceFlags dev(/*default_timeout_seconds=*/30);
  args.Flag("targets", "comma list of gfx targets (default: every target the device runs)",
            &targets);
  args.Flag("instrs", "comma list of instructions (default: every row of each target)", &instrs);
  dev.Declare(args);
  args.Flag("out", "also write the lines as a RunRecord (`lanediff report` puts them in the "
            "HTML report's fidelity section)", &out);
  args.Bool("json", "JSON Lines: one object per rule of each row, then a summary (docs/json.md)",
            &json);
  args.Epilog(
      "Each line: status, rule, verdict. status is default (the rule's default, or readings\n"
      "the questions cannot tell from it here), reading (another known reading; a|b when the\n"
      "two give the same words here), undetermined, none (none of the known readings) or spec\n"
      "(a field of the word not applied as the spec states). A line that is not default or\n"
      "undetermined shows its lane: the word, src0, src1, MODE, the device's and the default\n"
      "model's words; `lanediff eval` and `lanediff discriminate` take it from there.\n"
      "example: lanediff fidelity --device=sim --inject nan_sign --targets gfx950\n"
      "exit codes: 0 the device follows every default, 1 some line is reading, none or spec,\n"
      "2 usage (a malformed --device included), 3 the device cannot be opened or fails.");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = CheckOutputFile("fidelity", "--out", out); rc >= 0) return rc;
  if (int rc = dev.CheckPath("fidelity"); rc >= 0) return rc;
  std::vector<const TargetTraits*> ts;
  std::vector<Instr> is;
  if (int rc = ParseRows(dev, targets, instrs, &ts, &is); rc >= 0) return rc;
  int rc = kExitOk;
  std::unique_ptr<Runner> runner =
      OpenCommandDevice("fidelity", dev.device, dev.Options(), stderr, &rc);
  if (runner == nullptr) return rc;
  absl::StatusOr<Fidelity> f = MeasureFidelity(ts, is, *runner);
  if (!f.ok()) {
    std::fprintf(stderr, "lanediff fidelity: %s\n", std::string(f.status().message()).c_str());
    return kExitEnvironment;
  }
  const std::string described = runner->Describe();
  std::fputs((json ? FidelityJsonLines(*f, described) : FormatFidelity(*f, described)).c_str(),
             stdout);
  if (!out.empty()) {
    proto::RunRecord record;
    record.set_started(NowRfc3339());
    record.set_lanediff_version(LANEDIFF_VERSION);
    AppendFidelity(*f, described, &record);
    if (absl::Status st = WriteFileAtomic(out, ToText(record)); !st.ok()) {
      std::fprintf(stderr, "lanediff fidelity: %s\n", std::string(st.message()).c_str());
      return kExitEnvironment;
    }
  }
  return f->deviations() > 0 ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(36, "fidelity",
                          "which reading of each rule a device follows, per target and row",
                          RunFidelity);

}  // namespace lanediff
