// The chip state the model depends on is held by the harness: for every target and every row
// the target has, each MODE bit the op reads (ModeBitsRead, whose truth model_mode_bits_test
// checks by flipping every other bit) is set by the batch or fixed by the code object, and the
// kernel's MODE readback is checked on it. The values themselves are checked against
// llvm-objdump-22's decoding of every descriptor in device_code_object_test.
#include "device_harness/kernel_state.h"

#include "absl/strings/str_format.h"
#include "device_harness/runner.h"
#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

TEST(KernelStateTest, EveryModeBitAnOpReadsIsSetOrFixedAndCheckedOnEveryTarget) {
  int rows = 0;
  for (const TargetTraits& t : AllTargets()) {
    const KernelModeState s = KernelModeStateFor(t);
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      const uint32_t reads = ModeBitsRead(instr, t.family);
      EXPECT_EQ(reads & ~(s.set_by_batch | s.fixed), 0u) << absl::StrFormat(
          "%s %s reads MODE bits 0x%08x that no batch sets and the code object does not fix",
          t.name, InstrName(instr), reads & ~(s.set_by_batch | s.fixed));
      EXPECT_EQ(reads & ~s.checked(), 0u) << absl::StrFormat(
          "%s %s reads MODE bits 0x%08x the readback is not checked on", t.name, InstrName(instr),
          reads & ~s.checked());
      ++rows;
    }
  }
  EXPECT_GT(rows, 40);
}

// By hand from the kernels' descriptors (kernels/gfx9.s, gfx10.s: .amdhsa_dx10_clamp 1,
// .amdhsa_ieee_mode 1, round 0, denormals 3/3) and gfx1250.s's entry write of MODE[25].
TEST(KernelStateTest, KernelModeTakesTheBatchFieldsAndTheCodeObjectsState) {
  const TargetTraits& gfx942 = **FindTarget("gfx942");
  const TargetTraits& gfx1100 = **FindTarget("gfx1100");
  const TargetTraits& gfx1201 = **FindTarget("gfx1201");
  const TargetTraits& gfx1250 = **FindTarget("gfx1250");
  EXPECT_EQ(KernelMode(gfx942, 0x000000f0), 0x000003f0u);   // DX10_CLAMP and IEEE set
  EXPECT_EQ(KernelMode(gfx942, 0x00000000), 0x00000300u);   // the batch's MODE[7:0] = 0
  EXPECT_EQ(KernelMode(gfx942, 0x008080ff), 0x008003ffu);   // MODE[15] is not the batch's
  EXPECT_EQ(KernelMode(gfx942, 0x000001f0), 0x000003f0u);   // MODE[8] asked or not: set
  EXPECT_EQ(KernelMode(gfx1100, 0x008000e3), 0x008003e3u);
  EXPECT_EQ(KernelMode(gfx1201, 0x000003f0), 0x000000f0u);  // no DX10_CLAMP/IEEE field
  EXPECT_EQ(KernelMode(gfx1250, 0x000000f0), 0x020000f0u);  // MODE[25] from the kernel entry
  for (uint32_t m : {0u, 0xf0u, 0xffffffffu, 0x00800003u}) {
    EXPECT_EQ(KernelMode(gfx942, KernelMode(gfx942, m)), KernelMode(gfx942, m));
  }
}

// The readback check covers the fixed bits: a chip reporting DX10_CLAMP clear on GFX9 is a
// harness fault naming where the bit should have come from; MODE[25] on gfx1250 is not checked.
TEST(KernelStateTest, ReadbackIsCheckedOnTheFixedBits) {
  DeviceBatch b;
  b.target = *FindTarget("gfx942");
  b.mode = kDefaultMode;
  DeviceResult r;
  r.mode_readback = 0x000003f0;
  EXPECT_TRUE(CheckModeReadback(b, r).ok());
  r.mode_readback = 0x000002f0;  // DX10_CLAMP clear
  absl::Status s = CheckModeReadback(b, r);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bits 0x00000100 are fixed by the kernel descriptor's "
                             ".amdhsa_dx10_clamp 1"),
            absl::string_view::npos)
      << s;
  b.target = *FindTarget("gfx1250");
  r.mode_readback = 0x000000f0;  // MODE[25] not shown: reported, not checked
  EXPECT_TRUE(CheckModeReadback(b, r).ok());
}

}  // namespace
}  // namespace lanediff
