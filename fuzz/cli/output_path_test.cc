#include "fuzz/cli/output_path.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

namespace fs = std::filesystem;

class OutputPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / absl::StrCat("output_path_test_", ::getpid());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string P(const std::string& rel) const { return (root_ / rel).string(); }
  fs::path root_;
};

TEST_F(OutputPathTest, FileParentsAreCreatedAndNoProbeIsLeft) {
  ASSERT_TRUE(PrepareOutputFile(P("runs/deep/sr.textproto")).ok());
  EXPECT_TRUE(fs::is_directory(P("runs/deep")));
  EXPECT_FALSE(fs::exists(P("runs/deep/sr.textproto")));  // written later, by the command
  EXPECT_TRUE(fs::is_empty(P("runs/deep")));              // the probe file is gone
  EXPECT_EQ(CheckOutputFile("t", "--out", P("a/b.txt")), -1);
  EXPECT_EQ(CheckOutputFile("t", "--out", ""), -1);  // not asked for
}

TEST_F(OutputPathTest, UnwritablePlacesFailNamingTheReason) {
  std::ofstream(P("plain")) << "x";
  // A regular file where a directory must be: works for root too (unlike chmod tests).
  absl::Status st = PrepareOutputFile(P("plain/sub/out.textproto"));
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot create directory"), absl::string_view::npos) << st;
  EXPECT_EQ(CheckOutputFile("t", "--out", P("plain/out.textproto")), 3);
  fs::create_directories(P("adir"));
  EXPECT_FALSE(PrepareOutputFile(P("adir")).ok());  // a directory is not a file
  EXPECT_FALSE(PrepareOutputDir(P("plain")).ok());   // nor a file a directory
  EXPECT_EQ(CheckOutputDir("t", "--out", P("plain")), 3);
  ASSERT_TRUE(PrepareOutputDir(P("reports/x")).ok());
  EXPECT_TRUE(fs::is_directory(P("reports/x")));
}

TEST_F(OutputPathTest, MissingInputsAreUsageErrors) {
  std::ofstream(P("here")) << "x";
  EXPECT_TRUE(CheckReadable(P("here")).ok());
  EXPECT_TRUE(CheckReadable(root_.string()).ok());
  EXPECT_EQ(CheckReadable(P("gone")).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(CheckInputPaths("t", "PATH", {P("here"), P("gone")}), 2);
  EXPECT_EQ(CheckInputPaths("t", "PATH", {P("here")}), -1);
  EXPECT_EQ(CheckDeviceSpecPath("t", "replay:" + P("gone")), 2);
  EXPECT_EQ(CheckDeviceSpecPath("t", "replay:" + P("here")), -1);
  EXPECT_EQ(CheckDeviceSpecPath("t", "sim"), -1);
}

}  // namespace
}  // namespace lanediff
