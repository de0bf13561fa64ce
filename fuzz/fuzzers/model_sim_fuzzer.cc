// libFuzzer: the model against the ISA simulator (no errata) on one TestCase. The simulator
// goes through encoder, code-object patcher, decoder and operand resolution before the model,
// so a disagreement here is a real bug in one of those layers: the target aborts with both
// words. Inputs: binary or text proto::TestCase; mutation is the structured mutator's.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "device_harness/open_runner.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/fuzzers/fuzz_input.h"

LANEDIFF_DEFINE_TESTCASE_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lanediff;
  static Runner* sim = [] {
    auto r = OpenRunner("sim", {});
    if (!r.ok()) {
      std::fprintf(stderr, "cannot open the simulator: %s\n", std::string(r.status().message()).c_str());
      std::abort();
    }
    return r->release();
  }();
  proto::TestCase tc;
  if (!ParseFuzzInput(data, size, &tc)) return 0;
  Rng rng(0);
  FuzzMutator().Fixup(rng, &tc);  // only valid cases are run (the resolver would refuse others)
  absl::StatusOr<BothSides> both = RunBothSides(tc, Hypotheses{}, *sim, Relaxations{});
  if (!both.ok() || !both->device_status.ok()) return 0;  // refused: nothing to compare
  if (!both->differing.empty()) {
    const size_t i = both->differing[0];
    std::fprintf(stderr, "model and simulator disagree on lane %zu: model 0x%08x, sim 0x%08x\n%s\n",
                 i, i < both->expected.size() ? both->expected[i] : 0,
                 i < both->observed.size() ? both->observed[i] : 0, tc.DebugString().c_str());
    std::abort();
  }
  return 0;
}
