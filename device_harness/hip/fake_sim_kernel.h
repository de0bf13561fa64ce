// For tests and `lanediff bench --pipeline` only: a FakeKernel (fake_hip_api.h) that computes,
// so the HIP runner on the fake runtime answers as a correct GPU would (or as a simulated
// erratum would: `inject`). Each launch runs the words read back from the loaded module on
// the ISA simulator (sim/sim_runner.h). Needs device_harness_runners at link time.
//
//   OpenFakeHip(&fake, false, SimFakeKernel({}));      // a fake MI300X that answers right
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_FAKE_SIM_KERNEL_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_FAKE_SIM_KERNEL_H_

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "device_harness/code_object.h"
#include "device_harness/hip/fake_hip_api.h"
#include "device_harness/sim/sim_runner.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff {

// Lanes the kernel could not compute (words that do not decode, a simulator error) read this.
inline constexpr uint32_t kFakeSimError = 0xDEADDEADu;

inline FakeKernel SimFakeKernel(std::vector<std::string> inject, const char* target_name = "gfx942") {
  std::shared_ptr<Runner> sim;
  if (absl::StatusOr<std::unique_ptr<Runner>> s = OpenSimRunner({.inject = std::move(inject), .hypotheses = {}}); s.ok()) {
    sim = std::move(*s);
  }
  const TargetTraits* target = FindTarget(target_name).value_or(nullptr);
  return [sim, target](const FakeLaunch& l) {
    std::fill_n(l.out, l.in.size * l.dst_words, kFakeSimError);
    if (sim == nullptr || target == nullptr) return;
    DeviceBatch b;
    b.target = target;
    absl::StatusOr<DecodedVop3> d = DecodeVop3Fields(*target, l.words);
    if (!d.ok()) return;
    b.words.assign(l.words.begin(), l.words.begin() + d->words_used);
    absl::StatusOr<Instr> instr = CheckPatchWords(*target, b.words);
    if (!instr.ok()) return;
    b.instr = *instr;
    b.mode = l.mode;
    b.sgpr_values = l.sgpr;
    b.allow_undefined = true;  // the runner checked the batch before the launch
    b.lanes.Resize(l.in.size);
    std::copy_n(l.in.src0, l.in.size, b.lanes.src0().begin());
    std::copy_n(l.in.src1, l.in.size, b.lanes.src1().begin());
    std::copy_n(l.in.src2, l.in.size, b.lanes.src2().begin());
    std::copy_n(l.in.vdst_old, l.in.size, b.lanes.vdst_old().begin());
    absl::StatusOr<DeviceResult> r = sim->Run(b);
    const size_t w = static_cast<size_t>(DstWords(b.instr));  // words the instruction writes
    if (!r.ok() || r->vdst.size() != l.in.size * w) return;
    // As the kernels store: lane i's first dst_words words at out[i * dst_words] (a host that
    // passes the wrong width gets what a GPU would give it, not the right answer).
    for (size_t i = 0; i < l.in.size; ++i) {
      for (size_t k = 0; k < l.dst_words; ++k) l.out[i * l.dst_words + k] = k < w ? r->vdst[i * w + k] : kFakeSimError;
    }
  };
}

// The HIP runner on a fake runtime whose kernel computes (SimFakeKernel) for `target` and
// `wave_size` (that code object): "hip:0 fake gfx1100 (gfx1100, wave64)". What the GPU tests
// run on without a GPU (hip_runner_gpu_test --fake-hip) and the self-test's fake-HIP test.
inline absl::StatusOr<std::unique_ptr<Runner>> OpenComputingFakeHip(const std::string& target, int wave_size,
                                                                    FakeHip** fake = nullptr) {
  LANEDIFF_ASSIGN_OR_RETURN(CodeObjectView co, FindCodeObject(target, wave_size));
  HipDeviceInfo info;
  info.name = absl::StrCat("fake ", target);
  info.gcn_arch_name = target;
  info.wave_size = wave_size;
  info.target = target;
  info.runtime = "fake HIP runtime (device_harness/hip/fake_hip_api.h)";
  auto api = std::make_unique<FakeHip>();
  if (absl::StatusOr<const TargetTraits*> t = FindTarget(target); t.ok()) api->family = (*t)->family;
  api->kernel = SimFakeKernel({}, target.c_str());
  if (fake != nullptr) *fake = api.get();
  return OpenHipRunnerWithApi(std::move(info), co, std::move(api));
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_FAKE_SIM_KERNEL_H_
