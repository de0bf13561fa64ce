// Speed of the kernel interpreter (not a test): lanes per second through RunBatch (the whole
// kernel per wave, the contract checks, the model's Evaluate for the patch site) and through
// the simulator alone, for one target and instruction (the first row of model/instrs.def
// unless named).
//   ninja -C build/release device_interp_bench
//   nice build/release/device_harness/device_interp_bench [target] [wave] [lanes] [instruction]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "device_harness/interp/interp.h"
#include "device_harness/sim/sim_runner.h"
#include "model/isa/vop3.h"

int main(int argc, char** argv) {
  using namespace lanediff;
  const std::string target = argc > 1 ? argv[1] : "gfx942";
  const int wave = argc > 2 ? std::atoi(argv[2]) : 64;
  const size_t lanes = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 65536;
  absl::StatusOr<const TargetTraits*> t = FindTarget(target);
  if (!t.ok()) { std::fprintf(stderr, "%s\n", std::string(t.status().message()).c_str()); return 1; }
  DeviceBatch b;
  b.target = *t;
  b.instr = kAllInstrs[0];
  if (argc > 4) {
    absl::StatusOr<Instr> instr = ParseInstr(argv[4]);
    if (!instr.ok()) { std::fprintf(stderr, "%s\n", std::string(instr.status().message()).c_str()); return 1; }
    b.instr = *instr;
  }
  Vop3Instr in;
  in.instr = b.instr;
  in.vdst = 4;
  in.src = {257, 258, 259};
  absl::StatusOr<std::vector<uint32_t>> words = EncodeVop3(**t, in);
  if (!words.ok()) { std::fprintf(stderr, "%s\n", std::string(words.status().message()).c_str()); return 1; }
  b.words = *words;
  for (size_t i = 0; i < lanes; ++i) b.lanes.Add(static_cast<uint32_t>(i * 2654435761u), static_cast<uint32_t>(i & 3), 0, 0);
  auto time = [&](const char* what, auto run) {
    const auto t0 = std::chrono::steady_clock::now();
    const absl::Status s = run();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!s.ok()) { std::fprintf(stderr, "%s: %s\n", what, std::string(s.message()).c_str()); std::exit(1); }
    std::printf("%-40s %zu lanes in %.3f s: %.3g lanes/s\n", what, lanes, sec, lanes / sec);
  };
  interp::RunStats stats;
  time("interpreter (model Evaluate at the site)", [&] {
    return interp::RunBatch(b, wave, interp::ModelEvaluator({}), {}, &stats).status();
  });
  std::printf("  %llu waves, %llu wave instructions\n", static_cast<unsigned long long>(stats.waves),
              static_cast<unsigned long long>(stats.instructions));
  absl::StatusOr<std::unique_ptr<Runner>> sim = OpenSimRunner({});
  if (!sim.ok()) return 1;
  time("interpreter (simulator at the site)", [&] {
    return interp::RunBatch(b, wave, interp::RunnerEvaluator(sim->get())).status();
  });
  time("simulator alone (--device=sim)", [&] { return (*sim)->Run(b).status(); });
  return 0;
}
