#include <cstdio>

#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

int RunTargets(int argc, char** argv) {
  Args args("targets",
            "Print every gfx target lanediff models: generation, VOP3 family, wave sizes,\n"
            "8-bit float formats of the SR instructions and each instruction's opcode.\n"
            "With --hypotheses, also every named hypothesis, its values and their evidence.");
  bool hypotheses = false;
  args.Bool("hypotheses", "also list the hypotheses (first value is the default)", &hypotheses);
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  std::fputs(DescribeTargets().c_str(), stdout);
  if (hypotheses) {
    std::printf("\nhypotheses (--hypothesis NAME=VALUE; first value is the default):\n");
    for (const HypothesisInfo& h : AllHypotheses()) {
      std::printf("  %.*s: %.*s\n", static_cast<int>(h.name.size()), h.name.data(),
                  static_cast<int>(h.question.size()), h.question.data());
      for (const HypothesisValue& v : h.values) {
        std::printf("    %-16.*s %.*s\n", static_cast<int>(v.name.size()), v.name.data(),
                    static_cast<int>(v.provenance.size()), v.provenance.data());
      }
    }
  }
  return kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(10, "targets", "list every target, its instructions and formats; the hypotheses",
                          RunTargets);

}  // namespace lanediff
