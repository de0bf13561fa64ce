// The chip state every lane runs under, per target, in one place: which MODE bits each batch
// sets (DeviceBatch::mode through KernelArgs::mode), which the kernel's code object fixes for
// every batch (its kernel descriptor, loaded into MODE at dispatch, and the kernel's own entry
// writes), and which of them the kernel's MODE readback is checked on. A kernel fact, so it
// lives here beside the register convention (register_convention.h), not in model/.
//
// Every MODE bit an op reads (ModeBitsRead, model/ops/ops.h) is set by the batch or fixed and
// checked here (kernel_state_test: every target and row), so the model evaluates each lane
// under the MODE the instruction really ran with: KernelMode(target, requested).
//
//   rc.ctx.mode = KernelMode(*target, tc.mode());   // 0xf0 asked on gfx942 runs as 0x3f0
//
// The values are the kernels' (device_harness/kernels/<family>.s): every descriptor sets
// .amdhsa_float_round_mode_32/16_64 0 and .amdhsa_float_denorm_mode_32/16_64 3 (MODE[7:0] =
// 0xf0 at dispatch, then overwritten by the batch); GFX9-11 set .amdhsa_dx10_clamp 1 and
// .amdhsa_ieee_mode 1 (COMPUTE_PGM_RSRC1 ENABLE_DX10_CLAMP and ENABLE_IEEE_MODE, which the
// dispatch loads into MODE[8] DX10_CLAMP and MODE[9] IEEE; no instruction of the kernel writes
// them); GFX12 and gfx1250 descriptors have neither field (llvm-project
// llvm/include/llvm/Support/AMDHSAKernelDescriptor.h: COMPUTE_PGM_RSRC1_GFX6_GFX11 DX10_CLAMP
// and IEEE_MODE) and their MODE has no DX10_CLAMP (the model takes it as set there,
// model/ops/unpack_common.h). The gfx1250 kernel sets MODE[25] at entry as LLVM 22 does (its
// meaning is not public, so it is reported but not checked). device_code_object_test checks
// these values against llvm-objdump-22's decoding of every embedded descriptor.
#ifndef LANEDIFF_DEVICE_HARNESS_KERNEL_STATE_H_
#define LANEDIFF_DEVICE_HARNESS_KERNEL_STATE_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "model/base/lanes.h"
#include "model/targets/targets.h"

namespace lanediff {

// The MODE fields the kernels set from the batch: MODE[7:0] (round and denormal modes) and
// MODE[23] (FP16_OVFL), each with its own s_setreg from a masked copy of KernelArgs::mode.
inline constexpr uint32_t kKernelModeMask = 0x008000ffu;

inline constexpr uint32_t kModeDx10ClampField = 1u << 8;  // MODE[8] DX10_CLAMP (GFX6-11)
inline constexpr uint32_t kModeIeeeField = 1u << 9;       // MODE[9] IEEE (GFX6-11)

struct KernelModeState {
  // MODE bits each batch sets (kKernelModeMask on every family).
  uint32_t set_by_batch = kKernelModeMask;
  // MODE bits the code object fixes for every batch and the readback is checked on.
  uint32_t fixed = 0;
  // MODE as the instruction under test sees it outside set_by_batch: the descriptor's fields
  // and the kernel's entry writes (what the readback shows there).
  uint32_t entry = kDefaultMode;
  // Where `fixed` comes from, for messages and docs.
  absl::string_view fixed_from;

  // The bits the MODE readback is checked on.
  constexpr uint32_t checked() const { return set_by_batch | fixed; }
};

constexpr KernelModeState KernelModeStateFor(Family family) {
  switch (family) {
    case Family::gfx9:
    case Family::gfx10:
    case Family::gfx11:
      return {kKernelModeMask, kModeDx10ClampField | kModeIeeeField,
              kDefaultMode | kModeDx10ClampField | kModeIeeeField,
              "the kernel descriptor's .amdhsa_dx10_clamp 1 (MODE[8]) and .amdhsa_ieee_mode 1 "
              "(MODE[9])"};
    case Family::gfx12:
      return {kKernelModeMask, 0, kDefaultMode,
              "nothing: GFX12 descriptors and MODE have no DX10_CLAMP or IEEE field"};
    case Family::gfx1250:
      return {kKernelModeMask, 0, kDefaultMode | (1u << 25),
              "nothing checked: no DX10_CLAMP or IEEE field; MODE[25] is set at kernel entry as "
              "LLVM 22 does and reported, not checked"};
  }
  return {};
}
inline KernelModeState KernelModeStateFor(const TargetTraits& target) {
  return KernelModeStateFor(target.family);
}

// The MODE the instruction runs with when a batch asks for `requested`: the batch's fields
// from `requested`, every other bit as the kernel leaves it. Idempotent.
inline uint32_t KernelMode(const TargetTraits& target, uint32_t requested) {
  const KernelModeState s = KernelModeStateFor(target);
  return (requested & s.set_by_batch) | (s.entry & ~s.set_by_batch);
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_KERNEL_STATE_H_
