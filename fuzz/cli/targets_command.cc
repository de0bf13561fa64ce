#include <cstdio>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "device_harness/sim/errata.h"
#include "fuzz/report/plots.h"
#include "fuzz/sweep/sweep.h"
#include "model/base/lanes.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

// One object per row of model/instrs.def, everything scripts need to know about it (the
// nightly's sweeps, the report's figures, the simulator errata that reach it), computed from
// the row: {"name":..,"op":..,"proto_number":N,"sweep":"seed"|"src0"|"element" (a tuple
// source: one element of it, `sweep --element`; then also "element_src":S,"elements":N,
// "element_bits":B),"all_modes":bool,"src0_map":bool,"errata":[..]}.
std::string RowsJson() {
  std::string out = "[";
  for (Instr i : kAllInstrs) {
    const InstrInfo& row = GetInstrInfo(i);
    // What `lanediff sweep` walks (fuzz/sweep/sweep.h RowSweptOperand); --all-modes varies
    // MODE[1:0] and MODE[4], worth it only for an op that reads one on some family.
    const int tuple = FirstTupleSource(row);
    bool reads_swept_mode = false;
    for (int f = 0; f < kNumFamilies; ++f) {
      if (ModeBitsRead(i, static_cast<Family>(f)) & (kModeRoundF32Mask | kModeDenormF32InBit)) {
        reads_swept_mode = true;
      }
    }
    absl::StrAppend(&out, i == kAllInstrs.front() ? "" : ",", "{\"name\":\"", row.name,
                    "\",\"op\":\"", row.op, "\",\"proto_number\":", row.proto_number,
                    ",\"sweep\":\"", SweptOperandName(RowSweptOperand(i)),
                    "\"", tuple < 0 ? "" : absl::StrCat(
                        ",\"element_src\":", tuple, ",\"elements\":",
                        ElementCount(row, tuple), ",\"element_bits\":", ElementBits(row, tuple)),
                    ",\"all_modes\":", reads_swept_mode ? "true" : "false",
                    ",\"src0_map\":", PlotsSrc0Map(row) ? "true" : "false", ",\"errata\":[");
    bool first = true;
    for (const ErratumInfo& e : AllErrata()) {
      if (!e.reaches(row)) continue;
      absl::StrAppend(&out, first ? "" : ",", "\"", e.name, "\"");
      first = false;
    }
    out.append("]}");
  }
  return out + "]";
}

// {"targets":[{"name":..,"generation":..,"family":..,"fp8":..,"bf8":..,"instructions":[..]}],
//  "rows":[...] (RowsJson), "hypotheses":[...]} (DescribeHypotheses(true) for the last).
std::string TargetsJson() {
  std::string out = "{\"targets\":[";
  bool first = true;
  for (const TargetTraits& t : AllTargets()) {
    absl::StrAppend(&out, first ? "" : ",", "{\"name\":\"", t.name, "\",\"generation\":\"",
                    t.generation, "\",\"family\":\"", FamilyName(t.family), "\"");
    const bool has_sr = t.fp8_conversion;
    absl::StrAppend(&out, ",\"fp8\":\"", has_sr ? GetFp8Format(t.fp8).name : "", "\",\"bf8\":\"",
                    has_sr ? GetFp8Format(t.bf8).name : "", "\",\"instructions\":[");
    bool first_instr = true;
    for (Instr i : kAllInstrs) {
      if (!t.Has(i)) continue;
      absl::StrAppend(&out, first_instr ? "" : ",", "\"", InstrName(i), "\"");
      first_instr = false;
    }
    out.append("]}");
    first = false;
  }
  // One line (JSON Lines, docs/json.md): DescribeHypotheses ends its array with a newline.
  absl::StrAppend(&out, "],\"rows\":", RowsJson(), ",\"hypotheses\":",
                  absl::StripTrailingAsciiWhitespace(DescribeHypotheses(true)), "}\n");
  return out;
}

int RunTargets(int argc, char** argv) {
  Args args("targets",
            "Print every gfx target lanediff models: generation, VOP3 family, wave sizes,\n"
            "8-bit float formats of the SR instructions and each instruction's opcode.\n"
            "With --hypotheses, also every named hypothesis (rule): its readings, each with\n"
            "its source (repository, path, function), what it computes, the targets the\n"
            "source claims and one lane that tells it from the default; then the default on\n"
            "each target and why. docs/semantics.md explains them at length.");
  bool hypotheses = false, json = false;
  args.Bool("hypotheses", "also list the hypotheses (first value is the default)", &hypotheses);
  args.Bool("json", "targets, instruction rows and hypotheses as one JSON object on one line "
            "(docs/json.md)", &json);
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (json) {
    std::fputs(TargetsJson().c_str(), stdout);
    return kExitOk;
  }
  std::fputs(DescribeTargets().c_str(), stdout);
  if (hypotheses) {
    std::printf("\nhypotheses (--hypothesis NAME=VALUE; the first value is the default):\n");
    std::fputs(DescribeHypotheses(false).c_str(), stdout);
  }
  return kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(10, "targets", "list every target, its instructions and formats; the hypotheses",
                          RunTargets);

}  // namespace lanediff
