#include "device_harness/replay/replay_runner.h"

#include <unistd.h>

#include <filesystem>
#include <random>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "device_harness/replay/recording_io.h"
#include "proto/file_io.h"
#include "device_harness/sim/sim_runner.h"
#include "gtest/gtest.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

namespace fs = std::filesystem;

class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / absl::StrCat("lanediff_replay_test_", ::getpid(), "_",
                                                    ::testing::UnitTest::GetInstance()->random_seed(),
                                                    "_", counter_++);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A recording of random batches answered by the simulator with an erratum injected, so
  // that replay cannot pass by recomputing the default model.
  proto::Recording Record(int batches, std::vector<proto::TestCase>* cases) {
    auto sim = OpenSimRunner({.inject = {"garbage_lane", "byte12_swap"}, .hypotheses = {}});
    EXPECT_TRUE(sim.ok());
    std::mt19937 rng(11);
    proto::Recording rec;
    const char* targets[] = {"gfx942", "gfx950", "gfx1100", "gfx1201", "gfx1250"};
    for (int b = 0; b < batches; ++b) {
      proto::TestCase tc;
      tc.set_target(targets[b % 5]);
      tc.set_instr(b % 2 ? proto::v_cvt_sr_fp8_f32 : proto::v_cvt_pk_u8_f32);
      if (tc.target() == "gfx1100") tc.set_instr(proto::v_cvt_pk_u8_f32);
      tc.mutable_encoding()->set_opsel(rng() % 16);
      tc.set_mode(b % 3 ? 0xf0 : 0x8000f3);
      if (b % 4 == 0) {
        tc.mutable_encoding()->mutable_src0()->set_kind(proto::SOURCE_SGPR);
        tc.mutable_encoding()->mutable_src0()->set_value(rng());
      }
      for (int i = 0; i < 64; ++i) {
        proto::Lane* l = tc.add_lanes();
        l->set_src0(rng());
        l->set_src1(rng());
        l->set_src2(rng());
        l->set_vdst_old(rng());
      }
      auto r = (*sim)->Run(*BuildDeviceBatch(tc));
      EXPECT_TRUE(r.ok()) << r.status();
      proto::Recording::Entry* e = rec.add_entries();
      *e->mutable_testcase() = tc;
      e->mutable_observation()->mutable_vdst()->Assign(r->vdst.begin(), r->vdst.end());
      *e->mutable_observation()->mutable_provenance() = r->provenance;
      cases->push_back(tc);
    }
    return rec;
  }

  fs::path dir_;
  static inline int counter_ = 0;
};

TEST_F(ReplayTest, ReproducesARecordingBitForBitTextAndBinary) {
  std::vector<proto::TestCase> cases;
  const proto::Recording rec = Record(20, &cases);
  for (const char* name : {"rec.textproto", "rec.pb"}) {
    const std::string path = (dir_ / name).string();
    ASSERT_TRUE(WriteRecording(rec, path).ok());
    auto dev = OpenReplayRunner(path);
    ASSERT_TRUE(dev.ok()) << dev.status();
    EXPECT_TRUE(absl::StrContains((*dev)->Describe(), "20 recorded batches")) << (*dev)->Describe();
    for (int i = 0; i < rec.entries_size(); ++i) {
      auto r = (*dev)->Run(*BuildDeviceBatch(cases[i]));
      ASSERT_TRUE(r.ok()) << r.status();
      ASSERT_EQ(r->vdst, std::vector<uint32_t>(rec.entries(i).observation().vdst().begin(),
                                               rec.entries(i).observation().vdst().end()))
          << name << " entry " << i;
      EXPECT_EQ(r->provenance.runner(), absl::StrCat("replay:", path, " recorded by sim"));
      EXPECT_EQ(r->provenance.device(), "simulation (no hardware)");
    }
  }
  // A sub-batch (one lane, as the minimizer makes) is answered too, from lane-level keys.
  auto dev = OpenReplayRunner(dir_.string());  // the directory: both files, same answers
  ASSERT_TRUE(dev.ok()) << dev.status();
  proto::TestCase one = cases[3];
  one.clear_lanes();
  *one.add_lanes() = cases[3].lanes(32);
  auto r = (*dev)->Run(*BuildDeviceBatch(one));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->vdst, std::vector<uint32_t>{rec.entries(3).observation().vdst(32)});
}

TEST_F(ReplayTest, MissingRecordingIsANamedError) {
  std::vector<proto::TestCase> cases;
  const std::string path = (dir_ / "rec.textproto").string();
  ASSERT_TRUE(WriteRecording(Record(5, &cases), path).ok());
  auto dev = OpenReplayRunner(path);
  ASSERT_TRUE(dev.ok()) << dev.status();

  proto::TestCase other_mode = cases[0];
  other_mode.set_mode(0x000000f1);
  auto r = (*dev)->Run(*BuildDeviceBatch(other_mode));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::IsNotFound(r.status()));
  EXPECT_FALSE(IsDeviceFault(r.status()));
  EXPECT_TRUE(absl::StrContains(r.status().message(), "has no recording of gfx942 v_cvt_pk_u8_f32"))
      << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "MODE 0x000000f1, 64 lanes")) << r.status();

  proto::TestCase one_lane_changed = cases[1];
  one_lane_changed.mutable_lanes(5)->set_src0(one_lane_changed.lanes(5).src0() ^ 1);
  auto l = (*dev)->Run(*BuildDeviceBatch(one_lane_changed));
  ASSERT_FALSE(l.ok());
  EXPECT_TRUE(absl::StrContains(l.status().message(), "1 of 64 lanes not recorded, first lane 5"))
      << l.status();

  EXPECT_TRUE(absl::IsNotFound(OpenReplayRunner((dir_ / "nope").string()).status()));
}

TEST_F(ReplayTest, FaultsReplayAndConflictsAreRefused) {
  std::vector<proto::TestCase> cases;
  proto::Recording rec = Record(2, &cases);
  rec.mutable_entries(1)->mutable_observation()->clear_vdst();
  rec.mutable_entries(1)->mutable_observation()->set_fault("device fault: GPU hang");
  const std::string path = (dir_ / "rec.textproto").string();
  ASSERT_TRUE(WriteRecording(rec, path).ok());
  auto dev = OpenReplayRunner(path);
  ASSERT_TRUE(dev.ok()) << dev.status();
  auto r = (*dev)->Run(*BuildDeviceBatch(cases[1]));
  EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "GPU hang")) << r.status();

  proto::Recording conflict = rec;
  *conflict.add_entries() = rec.entries(0);
  conflict.mutable_entries(2)->mutable_observation()->set_vdst(0, rec.entries(0).observation().vdst(0) ^ 1);
  ASSERT_TRUE(WriteRecording(conflict, path).ok());
  auto c = OpenReplayRunner(path);
  ASSERT_FALSE(c.ok());
  EXPECT_TRUE(absl::StrContains(c.status().message(), "entry 3 lane 0")) << c.status();
  EXPECT_TRUE(absl::StrContains(c.status().message(), "the recordings disagree")) << c.status();
}

TEST_F(ReplayTest, BadFileIsNamed) {
  const std::string path = (dir_ / "bad.textproto").string();
  ASSERT_TRUE(WriteFileAtomic(path, "entries { testcase { bogus: 1 } }\n").ok());
  auto r = OpenReplayRunner(path);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "bad.textproto:1:")) << r.status();
}

}  // namespace
}  // namespace lanediff
