// Re-running stored findings: does the device still give, bit for bit, the words stored in
// the finding (and does the model still disagree with them)? A stored device fault reproduces
// when the device faults again.
//
//   CorpusLoad load = LoadCorpus({"corpus/findings"});
//   for (const LoadedFinding& lf : load.findings) {
//     ReplayOutcome r = ReplayFinding(lf.finding, hyp, *runner);
//     std::printf("%s %s\n", r.reproduced ? "REPRODUCED" : "GONE", r.detail.c_str());
//   }
#ifndef LANEDIFF_FUZZ_REPLAY_H_
#define LANEDIFF_FUZZ_REPLAY_H_

#include <string>

#include "device_harness/runner.h"
#include "fuzz/engine/compare.h"
#include "model/targets/hypotheses.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct ReplayOutcome {
  bool reproduced = false;
  std::string detail;  // one line: what differed, or what the device said
};

// `relax` applies to the model-vs-device check; the stored-vs-now device check is always
// bit for bit. Relaxations stored in the finding are added to `relax`. A finding on a word
// that is undefined by spec (Finding.undefined_by_spec; one the batch builder refuses) runs
// only with `allow_undefined` (--allow-undefined); its detail then starts "undefined by spec
// (REASONS): ", and without it names --allow-undefined.
ReplayOutcome ReplayFinding(const proto::Finding& finding, const Hypotheses& hyp,
                            Runner& runner, const Relaxations& relax,
                            bool allow_undefined = false);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPLAY_H_
