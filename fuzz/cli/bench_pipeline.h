// `lanediff bench --pipeline` and `--cost-model GPU`: the host's ceiling on a GPU,
// measured by running the whole campaign pipeline (generation, model, grouping, the HIP
// runner's launch path, compare) against the fake HIP runtime with a device that answers at
// once, and the cost model (fuzz/engine/cost_model.h) fed with what was measured.
#ifndef LANEDIFF_FUZZ_CLI_BENCH_PIPELINE_H_
#define LANEDIFF_FUZZ_CLI_BENCH_PIPELINE_H_

#include <string>

namespace lanediff {

// This thread's CPU time, in seconds (CLOCK_THREAD_CPUTIME_ID).
double ThreadCpuSeconds();

// Prints the pipeline bench; returns an exit code.
int RunPipelineBench(double seconds);
// Measures the host (as --pipeline does, shorter) and prints the cost model for `gpu`.
int RunCostModelBench(const std::string& gpu, int cores, double seconds);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_BENCH_PIPELINE_H_
