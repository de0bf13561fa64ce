#include "device_harness/hip/provenance.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

TEST(HipProvenanceTest, HostVersionsReadTheFilesOrSayUnknown) {
  const std::string root = ::testing::TempDir() + "/prov_" + std::to_string(::getpid());
  std::filesystem::create_directories(root + "/rocm/.info");
  std::filesystem::create_directories(root + "/amdgpu");
  std::ofstream(root + "/rocm/.info/version") << "6.4.1-120\n";
  std::ofstream(root + "/amdgpu/version") << "  6.12.12 \n";
  EXPECT_EQ(HostVersions(root + "/rocm", root + "/amdgpu"), "ROCm 6.4.1-120, amdgpu driver 6.12.12");
  EXPECT_EQ(HostVersions(root + "/none", root + "/none"),
            "ROCm unknown, amdgpu driver unknown (no version file: an in-tree driver?)");
  std::filesystem::remove_all(root);
}

TEST(HipProvenanceTest, Gfx1250SteppingSaysTranslationUnknown) {
  EXPECT_EQ(SteppingText(**FindTarget("gfx942"), 1), "asicRevision 1");
  const std::string s = SteppingText(**FindTarget("gfx1250"), 0);
  EXPECT_TRUE(absl::StartsWith(s, "asicRevision 0; A0 binary translation unknown")) << s;
  EXPECT_TRUE(absl::StrContains(SteppingText(**FindTarget("gfx1251"), 2), "translation unknown"));
}

}  // namespace
}  // namespace lanediff
