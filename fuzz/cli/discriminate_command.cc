// `lanediff discriminate --targets T --instrs I [--device D]` (fuzz/triage/discriminate.h).
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/open_runner.h"
#include "fuzz/corpus/corpus_store.h"
#include "model/base/version.h"
#include "model/isa/testcase.h"
#include "proto/report.pb.h"
#include "proto/text_format.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/discriminate_table.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/triage/discriminate.h"

namespace lanediff {
namespace {

int RunDiscriminate(int argc, char** argv) {
  Args args("discriminate",
            "Print the smallest set of one-lane questions that separates every two readings\n"
            "of the same rule (hypothesis) relevant to a target and instruction: what to ask\n"
            "a new chip. Each question is asked on several lanes (every NaN byte of both signs,\n"
            "several binades). With --device, run them and say which reading of each rule the\n"
            "device follows, or that it follows none of the known readings (with the lanes\n"
            "that contradict all of them); and check the fields the spec states clearly (NEG,\n"
            "ABS, OPSEL and the selects, CLAMP, SDWA src0_sel): \"differs where the spec is\n"
            "clear: ...\". `lanediff targets --hypotheses` lists the readings; `lanediff\n"
            "fidelity` asks every row.");
  std::string target, instr, out;
  bool json = false;
  DeviceFlags dev(/*default_timeout_seconds=*/30);
  args.Flag("targets", "the one gfx target, e.g. gfx942; required", &target);
  args.Flag("instrs", "the one instruction (`lanediff targets`); required", &instr);
  dev.Declare(args, "ask this device too: " + std::string(DeviceSpecHelp()) +
              "; none: only print the questions");
  args.Flag("out", "with --device: write the verdicts as a RunRecord (lanediff report)",
            &out);
  args.Bool("json", "JSON Lines: one object per question, per rule, then the verdict "
            "(docs/json.md)", &json);
  args.Epilog("Prints a table of the relevant rules (each rule's readings, the reading the device\n"
              "follows, the questions that decide it), the questions with every reading's answer\n"
              "and the device's, and the next command to run. An answer is the lane's whole\n"
              "result: for an instruction writing a VGPR pair (dst_bits 64), VDST then VDST+1.\n"
              "exit codes: 0 ok, 1 no combination of known readings explains the device or it\n"
              "differs where the spec is clear,\n"
              "2 usage (a malformed --device included), 3 the device cannot be opened or fails.");
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = CheckOutputFile("discriminate", "--out", out); rc >= 0) return rc;
  if (dev.device == "none") dev.device.clear();
  if (int rc = dev.CheckPath("discriminate"); rc >= 0) return rc;
  const TargetTraits* t = nullptr;
  Instr i{};
  if (int rc = ParseOneTarget("discriminate", target, &t); rc >= 0) return rc;
  if (int rc = ParseOneInstr("discriminate", instr, &i); rc >= 0) return rc;
  absl::StatusOr<Discrimination> d = Discriminate(*t, i);
  if (!d.ok()) {
    std::fprintf(stderr, "lanediff discriminate: %s\n", std::string(d.status().message()).c_str());
    return kExitUsage;
  }
  if (dev.device.empty()) {
    std::fputs((json ? DiscriminationJsonLines(*d, nullptr, "", "")
                     : FormatDiscriminationTable(*d, nullptr, "", "")).c_str(), stdout);
    return kExitOk;
  }
  int rc = kExitOk;
  std::unique_ptr<Runner> runner =
      OpenCommandDevice("discriminate", dev.device, dev.Options(), stderr, &rc);
  if (runner == nullptr) return rc;
  absl::StatusOr<DeviceVerdict> v = AskDevice(*d, *runner);
  if (!v.ok()) {
    std::fprintf(stderr, "lanediff discriminate: %s\n", std::string(v.status().message()).c_str());
    return kExitEnvironment;
  }
  const std::string described = runner->Describe();
  std::string device_flags = "--device=" + ShellWord(dev.device);
  for (const std::string& e : dev.inject) absl::StrAppend(&device_flags, " --inject ", ShellWord(e));
  std::fputs((json ? DiscriminationJsonLines(*d, &*v, described, device_flags)
                   : FormatDiscriminationTable(*d, &*v, described, device_flags)).c_str(),
             stdout);
  const bool any = v->explained && v->spec.empty();
  if (!out.empty() && d->relevant.empty()) {
    // A record of no verdict is not a run record (lanediff report refuses an empty one): a row
    // no rule reaches (gfx950's PRNG step, an integer op) leaves no file, and says so.
    std::fprintf(stderr,
                 "lanediff discriminate: --out %s not written: no rule (hypothesis) reaches %s "
                 "%s, so there is no verdict to record\n",
                 out.c_str(), std::string(t->name).c_str(), std::string(InstrName(i)).c_str());
  } else if (!out.empty()) {
    // One verdict per relevant hypothesis: the value the device follows unambiguously,
    // "none" when none of its readings explains its questions, else "inconclusive".
    proto::RunRecord record;
    record.set_started(NowRfc3339());
    record.set_lanediff_version(LANEDIFF_VERSION);
    for (const std::string& name : d->relevant) {
      proto::HypothesisVerdict* hv = record.add_verdicts();
      hv->set_target(target);
      hv->set_instr(InstrToProto(i));
      hv->set_device(described);
      hv->set_hypothesis(name);
      hv->set_questions(static_cast<uint32_t>(d->questions.size()));
      hv->set_verdict("inconclusive");
      for (const std::string& f : v->none) {
        if (absl::StartsWith(f, absl::StrCat(name, ":"))) hv->set_verdict("none");
      }
      for (const std::string& f : v->follows) {
        if (absl::StartsWith(f, absl::StrCat(name, "="))) hv->set_verdict(f.substr(name.size() + 1));
      }
    }
    if (absl::Status st = WriteFileAtomic(out, ToText(record)); !st.ok()) {
      std::fprintf(stderr, "lanediff discriminate: %s\n", std::string(st.message()).c_str());
      return kExitEnvironment;
    }
  }
  return any ? kExitOk : kExitFound;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(36, "discriminate",
                          "the questions that separate the hypotheses; which one a device follows",
                          RunDiscriminate);

}  // namespace lanediff
