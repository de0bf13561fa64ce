// For tests and `lanediff bench --pipeline` only: kernels for the fake HIP runtime
// (fake_hip_api.h) that compute, so the HIP runner on the fake runtime answers as a correct
// GPU would (or as a simulated erratum would: `inject`).
//  - InterpFakeKernel (a FakeCodeKernel): the kernel interpreter (interp/interp.h) runs the
//    whole loaded code object - kernarg packing from kernelParams, grid and block sizes as
//    passed, the kernel's own loads, bounds check, MODE writes and stores - with the patch
//    site's instruction computed by the simulator, and the harness kernels' contract checked.
//    Needs device_interp at link time. OpenComputingFakeHip uses it.
//  - SimFakeKernel (a FakeKernel): the words read back from the loaded module run on the ISA
//    simulator (sim/sim_runner.h) directly, no kernel bytes (faster: the pipeline bench uses
//    it). Needs device_harness_runners.
//
//   OpenFakeHip(&fake, false, SimFakeKernel({}));      // a fake MI300X that answers right
#ifndef LANEDIFF_DEVICE_HARNESS_HIP_FAKE_SIM_KERNEL_H_
#define LANEDIFF_DEVICE_HARNESS_HIP_FAKE_SIM_KERNEL_H_

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "device_harness/code_object.h"
#include "device_harness/hip/fake_hip_api.h"
#include "device_harness/interp/interp.h"
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

// The kernel interpreter as the fake runtime's kernel for `target` in `wave_size`: packs
// kernelParams at the kernel arguments' offsets (KernelArgs, as kernels/metadata.s declares
// them), gives the interpreter the buffers the arguments point at (src0..src2, vdst_old: n
// words each; out: n * dst_words + 1) and the kernarg segment, runs `blocks` workgroups of
// `threads` work-items with the contract checked, and the patch site's instruction on the
// simulator with `inject`'s errata. A failure is hipErrorIllegalAddress (an access outside
// every buffer) or hipErrorLaunchFailure, with the interpreter's message in `error`.
inline FakeCodeKernel InterpFakeKernel(std::vector<std::string> inject, const std::string& target_name,
                                       int wave_size) {
  std::shared_ptr<Runner> sim;
  if (absl::StatusOr<std::unique_ptr<Runner>> s = OpenSimRunner({.inject = std::move(inject), .hypotheses = {}}); s.ok()) {
    sim = std::move(*s);
  }
  const TargetTraits* target = FindTarget(target_name).value_or(nullptr);
  return [sim, target, wave_size](absl::Span<const uint8_t> image, unsigned blocks, unsigned threads, void** params,
                                  std::string* error) -> int {
    if (sim == nullptr || target == nullptr) {
      *error = "no simulator or target";
      return kHipErrorLaunchFailure;
    }
    // hipModuleLaunchKernel copies each kernelParams[i] to argument i's offset (size from the
    // metadata): pointers 8 bytes, the rest 4.
    static constexpr size_t kOffsets[11] = {0, 8, 16, 24, 32, 40, 44, 48, 52, 56, 60};
    KernelArgs args;
    auto* raw = reinterpret_cast<uint8_t*>(&args);
    for (size_t i = 0; i < 11; ++i) std::memcpy(raw + kOffsets[i], params[i], i < 5 ? 8 : 4);
    const uint64_t n = args.n, w = std::max<uint32_t>(1, args.shape & 0xff);
    interp::FlatMemory mem;
    mem.Add("kernarg", reinterpret_cast<uintptr_t>(&args), sizeof(args), false);
    const char* names[4] = {"src0", "src1", "src2", "vdst_old"};
    const uint64_t ptrs[4] = {args.src0, args.src1, args.src2, args.vdst_old};
    const LaneShape shape = LaneShapeOfWord(args.shape);
    for (int i = 0; i < 4; ++i) mem.Add(names[i], ptrs[i], 4 * n * (i < 3 ? shape.src_dwords[i] : 1), false);
    mem.Add("out", args.out, 4 * (n * w + 1), true);
    absl::StatusOr<interp::Kernel> k = interp::LoadKernel(*target, wave_size, image);
    absl::Status s = k.status();
    if (s.ok()) {
      interp::GridLaunch g;
      g.workgroups = blocks;
      g.workgroup_size = threads;
      g.kernarg = reinterpret_cast<uintptr_t>(&args);
      g.contract = interp::Contract{args};
      s = interp::RunGrid(*k, g, mem, interp::RunnerEvaluator(sim.get()));
    }
    if (s.ok()) return 0;
    *error = std::string(s.message());
    return s.code() == absl::StatusCode::kOutOfRange ? kHipErrorIllegalAddress : kHipErrorLaunchFailure;
  };
}

// The HIP runner on a fake runtime whose kernel computes (InterpFakeKernel) for `target` and
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
  api->code_kernel = InterpFakeKernel({}, target, wave_size);
  if (fake != nullptr) *fake = api.get();
  return OpenHipRunnerWithApi(std::move(info), co, std::move(api));
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_HIP_FAKE_SIM_KERNEL_H_
