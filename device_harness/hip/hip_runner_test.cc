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
