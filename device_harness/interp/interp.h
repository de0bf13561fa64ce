// An interpreter of the harness kernels' code objects: it runs the real bytes of a
// (patched) lanediff_kernel, wave by wave, against a flat memory, so that every test run
// executes the kernel entry, the kernarg loads, the workgroup id, the bounds check, the
// global loads and stores, the MODE writes and readback and the branch structure; the
// instruction at the patch site is computed by the model (an evaluator: the model's
// Evaluate, or the simulator with its errata) under the MODE the wave holds at that point,
// on the operands read from the wave's registers.
//
//   LANEDIFF_ASSIGN_OR_RETURN(Kernel k, LoadKernel(*target, 64, elf));
//   FlatMemory mem;  mem.Add("src0", ptr, bytes, false); ...
//   LANEDIFF_RETURN_IF_ERROR(RunGrid(k, {.workgroups = 2, .workgroup_size = 256,
//                                         .kernarg = kernarg_address}, mem, ModelEvaluator({})));
//
// What it is not: a timing or hazard model beyond the few checks below, or a second opinion
// on the instruction under test (that is the model's, and silicon's).
#ifndef LANEDIFF_DEVICE_HARNESS_INTERP_INTERP_H_
#define LANEDIFF_DEVICE_HARNESS_INTERP_INTERP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "device_harness/code_object.h"
#include "device_harness/interp/isa.h"
#include "device_harness/runner.h"
#include "device_harness/sim/sim_runner.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff::interp {

// The fields of the AMDHSA kernel descriptor the interpreter uses (LLVM AMDGPUUsage,
// "Kernel Descriptor": 64 bytes; COMPUTE_PGM_RSRC1 at 48, RSRC2 at 52, kernel_code_properties
// at 56, kernel_code_entry_byte_offset at 16).
struct KernelDescriptor {
  uint32_t kernarg_size = 0;
  int64_t entry_offset = 0;  // from the descriptor's own address
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  uint16_t code_properties = 0;
};

// A loaded code object: its code, where the kernel starts, its descriptor, the patch site.
struct Kernel {
  const TargetTraits* target = nullptr;
  int wave_size = 0;
  std::vector<uint8_t> elf;  // the image (a copy)
  uint64_t text_address = 0, text_offset = 0, text_size = 0;  // the executable section
  uint64_t entry = 0;          // virtual address of the first instruction
  uint64_t patch_site = 0;     // virtual address of lanediff_patch_site
  KernelDescriptor kd;
  // From the descriptor, as the hardware sets them up (LLVM AMDGPUUsage "Initial Kernel
  // Execution State"): MODE, the user SGPR holding the kernarg pointer, the SGPR holding the
  // workgroup id x (-1: none; targets with architected SGPRs have it in ttmp9), the VGPRs
  // allocated.
  uint32_t initial_mode = 0;
  int kernarg_sgpr = -1;
  int workgroup_id_sgpr = -1;
  int vgprs = 0;
};

// Finds `<kKernelName>.kd`, reads its descriptor and checks what the interpreter sets up:
// errors name the field ("COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is 3 but the enabled user SGPRs
// take 2"). `wave_size` must agree with the descriptor's wavefront_size32 bit on GFX10+.
absl::StatusOr<Kernel> LoadKernel(const TargetTraits& target, int wave_size, absl::Span<const uint8_t> elf);

// MODE as the hardware initialises it from COMPUTE_PGM_RSRC1: FLOAT_ROUND_MODE_32 [13:12] ->
// MODE[1:0], FLOAT_ROUND_MODE_16_64 [15:14] -> [3:2], FLOAT_DENORM_MODE_32 [17:16] -> [5:4],
// FLOAT_DENORM_MODE_16_64 [19:18] -> [7:6], ENABLE_DX10_CLAMP [21] -> [8] and ENABLE_IEEE_MODE
// [23] -> [9] (GFX9-GFX11; those RSRC1 bits mean other things on GFX12+, which has neither
// MODE bit set from the descriptor), FP16_OVFL [26] -> [23].
uint32_t InitialMode(Family family, uint32_t rsrc1);

// One buffer of the flat memory. Addresses are host addresses (the fake HIP runtime's device
// pointers are host pointers); an access outside every region is an error naming the lane.
struct Region {
  std::string name;
  uint64_t base = 0;
  uint64_t size = 0;  // bytes
  bool writable = false;
};
class FlatMemory {
 public:
  void Add(std::string name, uint64_t base, uint64_t size, bool writable) {
    regions_.push_back({std::move(name), base, size, writable});
  }
  // The region holding [address, address + bytes), or nullptr.
  const Region* Find(uint64_t address, uint64_t bytes) const;
  int IndexOf(const Region* r) const { return static_cast<int>(r - regions_.data()); }
  const std::vector<Region>& regions() const { return regions_; }

 private:
  std::vector<Region> regions_;
};

// Computes the instruction at the patch site for the active lanes of one wave: `batch` holds
// the words, the MODE the wave holds, s20..s22 and the lanes' v1..v4 (the register convention
// of register_convention.h); fill vdst with DstWords(batch.instr) words per lane.
using Evaluator = std::function<absl::Status(const DeviceBatch& batch, absl::Span<uint32_t> vdst)>;
// The model's fast evaluation (model/ops Evaluate) under `hyp`: the same decode and operand
// resolution as the simulator (DecodeDeviceBatch).
Evaluator ModelEvaluator(const Hypotheses& hyp);
// A runner (the simulator, with its injected errata) answers the batch.
Evaluator RunnerEvaluator(Runner* runner);

// The harness kernels' contract (code_object.h KernelArgs), checked as the kernel runs when
// given: every lane i < n runs the instruction with v1..v4 loaded from src0[i], src1[i],
// src2[i], vdst_old[i] (a source of N > 1 dwords: dword k of its tuple from src_s[i * N + k])
// and MODE[7:0], MODE[23] as `mode` asks; a lane >= n never runs it; out[i * M + k] (M the
// VDST words, KernelArgs::shape) receives word k of lane i's result and nothing else; out[n *
// M] the MODE readback. A breach is a "harness fault" error naming what is wrong
// (wrong kernarg offset, wrong lane slot, pair words swapped, a store one slot off, MODE
// field, bounds check).
struct Contract {
  KernelArgs args;
};

struct GridLaunch {
  uint32_t workgroups = 1;      // grid x, in workgroups
  uint32_t workgroup_size = 256;
  uint64_t kernarg = 0;         // address of the kernarg segment (in a region of the memory)
  std::optional<Contract> contract;
  // The lane shape of the instruction at the patch site (model/base/lanes.h): which registers
  // it reads and writes (register_convention.h SourceVgpr, VDST v[4:4+M-1]). Unset: its row's
  // (InstrInfo::lane_shape); RunBatchAs passes the shape it is given. With a contract,
  // KernelArgs::shape must be its KernelShapeWord.
  std::optional<LaneShape> shape;
  // gfx1250 workgroup clusters of this many workgroups along x (0: no clusters, as
  // hipModuleLaunchKernel launches). With clusters the hardware puts the cluster id in ttmp9,
  // the cluster size x - 1 in ttmp6[15:12], the workgroup's id within its cluster in
  // ttmp6[3:0], and a non-zero IB_STS2[9:6] (the layout kernels/gfx1250.s reads, as LLVM 22
  // computes the workgroup id; the interpreter sets 1 there).
  uint32_t cluster_size = 0;
};

struct RunStats {
  uint64_t waves = 0;
  uint64_t instructions = 0;  // wave instructions executed
  uint64_t lanes = 0;         // work-items launched
};

// Runs every wave of the grid, one after another. Errors name the workgroup, wave, offset and
// instruction ("workgroup 1 wave 3 at 0x18d4 global_store_dword v1, v4, s[12:13]: lane 17 ...").
absl::Status RunGrid(const Kernel& kernel, const GridLaunch& launch, const FlatMemory& memory,
                     const Evaluator& evaluate, RunStats* stats = nullptr);

// The whole HIP launch of one batch as lanediff's runners make it (one lane per work-item,
// ceil(n / 256) workgroups of 256), on exactly sized buffers: the patched code object for
// `words`, the batch's lanes and MODE, with the contract checked. Returns VDST (n *
// DstWords words) and the MODE readback (CheckModeReadback applied). `elf` overrides the
// built code object (a planted-bug copy in the tests).
absl::StatusOr<DeviceResult> RunBatch(const DeviceBatch& batch, int wave_size, const Evaluator& evaluate,
                                      absl::Span<const uint8_t> elf = {}, RunStats* stats = nullptr,
                                      uint32_t cluster_size = 0);
// The same with the patch site's lane shape given (the lanes must hold its source dwords):
// KernelArgs::shape, the buffers and the registers the evaluator reads and writes follow it,
// not the row of the words at the site. A test runs the GFX9 kernel's tuple loads and stores
// this way with an evaluator of its own.
absl::StatusOr<DeviceResult> RunBatchAs(const DeviceBatch& batch, const LaneShape& shape, int wave_size,
                                        const Evaluator& evaluate, absl::Span<const uint8_t> elf = {},
                                        RunStats* stats = nullptr, uint32_t cluster_size = 0);

// `--device=interp`: every batch runs through RunBatch on the target's default wave size's
// code object, the patch site computed by the simulator (`options`: its errata and
// hypotheses), the contract checked. Refuses what the simulator refuses (DecodeDeviceBatch:
// the register convention, a documented restriction unless batch.allow_undefined). Errata
// apply per wave (garbage_lane flips one lane of every wave's batch, not of the whole batch).
absl::StatusOr<std::unique_ptr<Runner>> OpenInterpRunner(const SimOptions& options);

}  // namespace lanediff::interp

#endif  // LANEDIFF_DEVICE_HARNESS_INTERP_INTERP_H_
