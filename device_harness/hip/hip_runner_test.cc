// The HIP runner without a GPU (the default CTest run): the no-GPU error says what happened,
// with the HIP error code and name, and comes back at once. Also the pure helpers.
#include "device_harness/hip/hip_runner.h"

#include <cstdio>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;

TEST(ProcessorFromGcnArchNameTest, StripsFeatureSuffixes) {
  EXPECT_EQ(*ProcessorFromGcnArchName("gfx942:sramecc+:xnack-"), "gfx942");
  EXPECT_EQ(*ProcessorFromGcnArchName("gfx90a:sramecc-:xnack+"), "gfx90a");
  EXPECT_EQ(*ProcessorFromGcnArchName("gfx1201"), "gfx1201");
  EXPECT_EQ(*ProcessorFromGcnArchName("gfx950:sramecc+:xnack-"), "gfx950");
  EXPECT_FALSE(ProcessorFromGcnArchName("").ok());
  EXPECT_FALSE(ProcessorFromGcnArchName("gfx").ok());
  EXPECT_FALSE(ProcessorFromGcnArchName("sm_90").ok());
  EXPECT_FALSE(ProcessorFromGcnArchName("gfx9 42").ok());
}

TEST(HipGridBlocksTest, CoversEveryLaneWithWholeWorkgroups) {
  EXPECT_EQ(HipGridBlocks(0), 0u);
  EXPECT_EQ(HipGridBlocks(1), 1u);
  EXPECT_EQ(HipGridBlocks(256), 1u);
  EXPECT_EQ(HipGridBlocks(257), 2u);
  EXPECT_EQ(HipGridBlocks(1000000), 3907u);  // 3906 * 256 = 999936 < 1e6
}

std::vector<uint32_t> Vop3(const TargetTraits& t, uint32_t op, uint32_t vdst = 4) {
  // SEMANTICS.md §2: VDST[7:0] OP[25:16] ENC[31:26]; SRC0..2 = v1, v2, v3.
  const uint32_t enc = t.family == Family::gfx9 ? 0b110100 : 0b110101;
  return {vdst | op << 16 | enc << 26, 257u | 258u << 9 | 259u << 18};
}

TEST(CheckHipBatchTest, RefusesWhatTheDeviceMustNotRun) {
  absl::StatusOr<CodeObjectView> co = FindCodeObject("gfx942", 64);
  ASSERT_TRUE(co.ok());
  const TargetTraits& t = *co->target;
  DeviceBatch b;
  b.target = &t;
  b.instr = Instr::v_cvt_sr_fp8_f32;
  b.words = Vop3(t, 676);
  b.lanes.Add(0, 0, 0, 0);
  absl::StatusOr<Instr> ok = CheckHipBatch(*co, b);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(*ok, Instr::v_cvt_sr_fp8_f32);

  DeviceBatch wrong_instr = b;
  wrong_instr.instr = Instr::v_cvt_pk_u8_f32;
  EXPECT_THAT(std::string(CheckHipBatch(*co, wrong_instr).status().message()),
              HasSubstr("the instruction words encode v_cvt_sr_fp8_f32 but the batch says v_cvt_pk_u8_f32"));
  DeviceBatch other = b;
  other.target = *FindTarget("gfx950");
  EXPECT_THAT(std::string(CheckHipBatch(*co, other).status().message()),
              HasSubstr("batch is for gfx950 but the device is gfx942"));
  DeviceBatch unknown = b;
  unknown.words = Vop3(t, 0x101);  // v_add_f32_e64 on GFX9: not an instruction lanediff knows
  EXPECT_THAT(std::string(CheckHipBatch(*co, unknown).status().message()),
              HasSubstr("refusing to splice VOP3 opcode 257"));
  DeviceBatch vdst = b;
  vdst.words = Vop3(t, 676, 7);
  EXPECT_THAT(std::string(CheckHipBatch(*co, vdst).status().message()), HasSubstr("writes v7"));
  DeviceBatch none = b;
  none.target = nullptr;
  EXPECT_FALSE(CheckHipBatch(*co, none).ok());
}

// The kernelParams pointers point at the KernelArgs fields at the offsets the kernels' metadata
// declares, in metadata order (code_object_test checks the metadata against KernelArgs).
TEST(KernelParamPointersTest, FollowTheMetadataOrderAndOffsets) {
  KernelArgs args;
  std::array<void*, 11> p = KernelParamPointers(args);
  const size_t want[11] = {0, 8, 16, 24, 32, 40, 44, 48, 52, 56, 60};
  for (size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(static_cast<char*>(p[i]) - reinterpret_cast<char*>(&args)), want[i])
        << "argument " << i;
  }
}

// Here (no AMD GPU) hipGetDeviceCount returns hipErrorNoDevice (100). On a machine with a GPU
// this test has nothing to check and says so.
TEST(HipRunnerNoGpuTest, FailsAtOnceWithTheHipErrorAndASentence) {
  const absl::Time start = absl::Now();
  absl::StatusOr<std::unique_ptr<Runner>> runner = OpenHipRunner(0);
  const absl::Duration first = absl::Now() - start;
  if (runner.ok()) {
    GTEST_SKIP() << "a HIP device is visible (" << (*runner)->Describe()
                 << "): the no-GPU path cannot be exercised here";
  }
  const std::string msg(runner.status().message());
  std::printf("OpenHipRunner(0) failed after %.1f ms: %s\n", absl::ToDoubleMilliseconds(first),
              msg.c_str());
  EXPECT_EQ(runner.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(msg, HasSubstr("no AMD GPU is visible to the HIP runtime"));
  EXPECT_THAT(msg, HasSubstr("hipGetDeviceCount failed with HIP error 100 (hipErrorNoDevice"));
  EXPECT_THAT(msg, HasSubstr("/dev/kfd"));
  // Generous bound: catches a hang, not a slow machine. The measured time is printed above.
  EXPECT_LT(first, absl::Seconds(10));

  const absl::Time again = absl::Now();
  absl::StatusOr<std::vector<HipDeviceInfo>> devices = ListHipDevices();
  const absl::Duration second = absl::Now() - again;
  std::printf("ListHipDevices() failed after %.1f ms\n", absl::ToDoubleMilliseconds(second));
  ASSERT_FALSE(devices.ok());
  EXPECT_THAT(std::string(devices.status().message()), HasSubstr("no AMD GPU is visible"));
  EXPECT_THAT(std::string(devices.status().message()), HasSubstr("hipErrorNoDevice"));
  EXPECT_LT(second, absl::Seconds(10));
}

}  // namespace
}  // namespace lanediff
