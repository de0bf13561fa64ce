// GPU tests of the HIP runner (CTest label gpu). With no AMD GPU the program prints why
// and exits 77, which CTest reports as skipped.
//
// `--fake-hip=TARGET:WAVE` runs the same tests, through the same HipRunner (patching, module
// cache, kernel arguments, MODE readback), on a computing fake HIP runtime
// (fake_hip_api.h: the "kernel" runs the model on the words patched into the module the
// launch names) instead of a GPU: device_hip_fake_gpu_test_* run so in the default test run,
// which checks the tests' own logic and expected values without a GPU (not the silicon).
//
// Expected values are the spec's confirmed rows (docs/semantics.md §3, C): v_cvt_pk_u8_f32 writes
// f32_to_u8(S0) into byte S1[1:0] of S2 and keeps S2's other three bytes; exact integers
// 0..255 convert to themselves under any reading. The MODE test uses the L row "rounding
// follows MODE.FP_ROUND": if it fails, either the kernel's MODE write is wrong or the row is,
// and both are worth knowing.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "device_harness/code_object.h"
#include "device_harness/hip/fake_sim_kernel.h"
#include "device_harness/hip/hip_runner.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

std::unique_ptr<Runner>* g_runner = nullptr;
const TargetTraits* g_target = nullptr;
int g_wave = 0;  // the wave size g_runner runs
// hip:0 with another wave size (OpenHipRunner(0, wave), or the fake's).
std::function<absl::StatusOr<std::unique_ptr<Runner>>(int wave)> g_open_wave;
FakeHip* g_fake = nullptr;  // set with --fake-hip

// VOP3 words from fields (docs/semantics.md §2), VDST = v4.
std::vector<uint32_t> PkU8Words(uint32_t src0, uint32_t src1, uint32_t src2, uint32_t neg = 0) {
  const uint32_t enc = g_target->family == Family::gfx9 ? 0b110100 : 0b110101;
  const uint32_t op = static_cast<uint32_t>(g_target->Opcode(Instr::v_cvt_pk_u8_f32));
  return {4u | op << 16 | enc << 26, src0 | src1 << 9 | src2 << 18 | neg << 29};
}

uint32_t F32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

DeviceBatch Batch(std::vector<uint32_t> words) {
  DeviceBatch b;
  b.target = g_target;
  b.instr = Instr::v_cvt_pk_u8_f32;
  b.words = std::move(words);
  b.mode = kDefaultMode;
  return b;
}

// Many waves, a lane count that is no multiple of the workgroup: every lane's own operands.
TEST(HipGpuTest, EveryLaneGetsItsOwnOperands) {
  for (size_t n : {1u, 63u, 64u, 65u, 257u, 5000u}) {
    DeviceBatch b = Batch(PkU8Words(257, 258, 259));  // v1, v2, v3
    for (size_t i = 0; i < n; ++i) {
      const uint32_t value = static_cast<uint32_t>(i % 256);
      const uint32_t byte = static_cast<uint32_t>(i / 256 % 4);
      b.lanes.Add(F32(static_cast<float>(value)), byte | 0xfffffffc, 0x11223344u + static_cast<uint32_t>(i),
                  0xdeadbeef);
    }
    absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->vdst.size(), n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t s2 = 0x11223344u + static_cast<uint32_t>(i);
      const uint32_t k = static_cast<uint32_t>(i / 256 % 4);
      const uint32_t want = (s2 & ~(0xffu << (8 * k))) | static_cast<uint32_t>(i % 256) << (8 * k);
      ASSERT_EQ(r->vdst[i], want) << "lane " << i << " of " << n;
    }
  }
}

// SGPR sources come from sgpr_values via s20..s22; inline constants need no lane data.
// One SGPR only: GFX9's constant-bus limit is 1 (two SGPRs would be undefined by spec, and
// llvm-mc refuses `v_cvt_pk_u8_f32 v4, 2.0, s21, s22` for gfx942).
TEST(HipGpuTest, SgprAndInlineConstantSources) {
  DeviceBatch b = Batch(PkU8Words(/*2.0*/ 244, /*v2*/ 258, /*s22*/ 22));
  b.sgpr_values = {0, 0, 0xaabbccdd};
  for (int i = 0; i < 100; ++i) b.lanes.Add(0, /*byte select*/ 1, 0, 0);
  absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  for (uint32_t v : r->vdst) EXPECT_EQ(v, 0xaabb02ddu);  // byte 1 of s22 replaced by 2
}

// MODE round toward +inf then RNE: 0.5 -> 1 then 0. Also shows MODE does not leak.
TEST(HipGpuTest, ModeReachesTheInstruction) {
  for (uint32_t mode : {kDefaultMode | 1u, kDefaultMode, kDefaultMode | 1u}) {
    DeviceBatch b = Batch(PkU8Words(257, 258, 259));
    b.mode = mode;
    b.lanes.Add(F32(0.5f), 0, 0, 0);
    absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->vdst[0], (mode & 3) == 1 ? 1u : 0u) << "mode 0x" << std::hex << mode;
  }
}

TEST(HipGpuTest, RefusesUnknownOpcodesAndOtherTargets) {
  DeviceBatch b = Batch(PkU8Words(257, 258, 259));
  b.words[0] = (b.words[0] & ~(0x3ffu << 16)) | (0x101u << 16);
  b.lanes.Add(0, 0, 0, 0);
  EXPECT_FALSE((*g_runner)->Run(b).ok());
  DeviceBatch other = Batch(PkU8Words(257, 258, 259));
  other.target = g_target == &AllTargets()[0] ? &AllTargets()[1] : &AllTargets()[0];
  other.lanes.Add(0, 0, 0, 0);
  EXPECT_FALSE((*g_runner)->Run(other).ok());
}

// Different words in turn (A, B, A) and more distinct words than the module cache holds
// (kHipModuleCacheSize): each batch runs its own word, never a cached neighbour's.
// v_cvt_pk_u8_f32 v4, v1, v2, K with K an inline integer (code 128 + k = k, 0..64): with
// v1 = 5.0 and byte select v2 = 1, VDST = (k & ~0xff00) | 5 << 8 = k | 0x500 (k < 256).
TEST(HipGpuTest, EveryWordRunsItsOwnCodeAcrossTheModuleCache) {
  std::vector<uint32_t> ks = {2, 3, 2};  // A, B, A
  for (uint32_t k = 0; k <= kHipModuleCacheSize; ++k) ks.push_back(k);
  const int loaded_before = g_fake != nullptr ? g_fake->modules_loaded : 0;
  for (uint32_t k : ks) {
    DeviceBatch b = Batch(PkU8Words(257, 258, 128 + k));
    b.lanes.Add(F32(5.0f), 1, 0, 0);
    absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->vdst[0], k | 0x500u) << "inline constant " << k;
  }
  if (g_fake != nullptr) {  // the cache was really exceeded, and modules are unloaded again
    EXPECT_GT(g_fake->modules_loaded - loaded_before, static_cast<int>(kHipModuleCacheSize));
    EXPECT_LE(g_fake->modules_live(), kHipModuleCacheSize);
  }
}

// An SR instruction where the target has one. 1.0 with seed 0 is exact in every 8-bit float:
// E4M3 OCP (bias 7) 1.0 = 0 0111 000 = 0x38, E4M3 FNUZ (bias 8) = 0 1000 000 = 0x40; the byte
// lands in byte 0 of vdst_old 0x11223344 (OPSEL[3:2] = 0).
TEST(HipGpuTest, AnSrInstructionRuns) {
  if (!g_target->Has(Instr::v_cvt_sr_fp8_f32)) GTEST_SKIP() << g_target->name << " has no v_cvt_sr_fp8_f32";
  const uint32_t enc = g_target->family == Family::gfx9 ? 0b110100 : 0b110101;
  const uint32_t op = static_cast<uint32_t>(g_target->Opcode(Instr::v_cvt_sr_fp8_f32));
  DeviceBatch b = Batch({4u | op << 16 | enc << 26, 257u | 258u << 9});  // v4, v1, v2 (SRC2 = 0)
  b.instr = Instr::v_cvt_sr_fp8_f32;
  b.lanes.Add(F32(1.0f), 0, 0, 0x11223344u);
  absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  const bool fnuz = g_target->fp8 == Fp8FormatId::e4m3_fnuz;
  EXPECT_EQ(r->vdst[0], fnuz ? 0x11223340u : 0x11223338u);
}

// A VGPR-pair writer (the row's dst_bits 64) where the target has one: both words come back,
// lane i's VDST at [2i] and VDST+1 at [2i + 1], across waves, and MODE still reads back (the
// kernels' readback moves to out[2n]). v_cvt_pk_f32_fp8 v[4:5], v1 (VOP3; SRC1, SRC2 unused)
// with S0 = 0x3840 + lane-dependent high half: word 0's low byte 0x40 and high byte 0x38 in
// the target's fp8 format (exact in every reading): E4M3 FNUZ (bias 8) 0x40 = 1.0, 0x38 = 0.5;
// E4M3 OCP (bias 7) 0x40 = 2.0, 0x38 = 1.0. The high half of S0 is not read (no word select).
TEST(HipGpuTest, AVgprPairWriterStoresBothWords) {
  if (!g_target->Has(Instr::v_cvt_pk_f32_fp8)) GTEST_SKIP() << g_target->name << " has no v_cvt_pk_f32_fp8";
  const uint32_t enc = g_target->family == Family::gfx9 ? 0b110100 : 0b110101;
  const uint32_t op = static_cast<uint32_t>(g_target->Opcode(Instr::v_cvt_pk_f32_fp8));
  DeviceBatch b = Batch({4u | op << 16 | enc << 26, 257u});  // v[4:5], v1
  b.instr = Instr::v_cvt_pk_f32_fp8;
  b.mode = 0x008000f3u;  // not the default: the readback at out[2n] must be this
  const uint32_t n = 300;
  for (uint32_t i = 0; i < n; ++i) b.lanes.Add(0x3840u | i << 16, 0, 0, 0xdeadbeef);
  absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->vdst.size(), 2u * n);
  const bool fnuz = g_target->fp8 == Fp8FormatId::e4m3_fnuz;
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(r->vdst[2 * i], fnuz ? F32(1.0f) : F32(2.0f)) << "lane " << i << " VDST";
    ASSERT_EQ(r->vdst[2 * i + 1], fnuz ? F32(0.5f) : F32(1.0f)) << "lane " << i << " VDST+1";
  }
  ASSERT_TRUE(r->mode_readback.has_value());
  EXPECT_EQ(*r->mode_readback & kKernelModeMask, b.mode);
}

// A 12-byte word (GFX10+: VOP3 with a literal): v_cvt_pk_u8_f32 v4, 5.0 (literal 0x40a00000),
// v2, v3 with byte select 0: VDST = (0x11223344 & ~0xff) | 5 = 0x11223305.
TEST(HipGpuTest, ATwelveByteLiteralWordRuns) {
  if (g_target->family == Family::gfx9) GTEST_SKIP() << "GFX9 VOP3 takes no literal";
  std::vector<uint32_t> w = PkU8Words(255, 258, 259);
  w.push_back(0x40a00000u);
  DeviceBatch b = Batch(w);
  b.lanes.Add(0, 0, 0x11223344u, 0);
  absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->vdst[0], 0x11223305u);
}

// The MODE the kernel reads back is the batch's (Run would refuse a mismatch as a harness
// fault; this shows the readback is there and right) for every value of the fields we set.
TEST(HipGpuTest, ModeReadsBack) {
  for (uint32_t mode : {0x000000f0u, 0x000000f3u, 0x008000f0u, 0x000000ffu, 0x00800000u}) {
    DeviceBatch b = Batch(PkU8Words(257, 258, 259));
    b.mode = mode;
    b.lanes.Add(0, 0, 0, 0);
    absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->mode_readback.has_value());
    EXPECT_EQ(*r->mode_readback & kKernelModeMask, mode) << std::hex << *r->mode_readback;
  }
}

// RDNA runs wave64 code objects too (hipModuleLaunchKernel takes the wave size from the code
// object's descriptor; --device=hip:N:wave64 selects them): lanes across wave64 waves get
// their own operands. (When hip:0 itself runs wave64 this runs wave32 the same way.)
TEST(HipGpuTest, Wave64OnRdna) {
  if (g_target->family == Family::gfx9 || g_target->family == Family::gfx1250) {
    GTEST_SKIP() << g_target->name << " has one wave size";
  }
  absl::StatusOr<std::unique_ptr<Runner>> w64 = g_open_wave(g_wave == 64 ? 32 : 64);
  ASSERT_TRUE(w64.ok()) << w64.status();
  DeviceBatch b = Batch(PkU8Words(257, 258, 259));
  for (uint32_t i = 0; i < 130; ++i) b.lanes.Add(F32(static_cast<float>(i)), 0, 0x11223300u, 0);
  absl::StatusOr<DeviceResult> r = (*w64)->Run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  for (uint32_t i = 0; i < 130; ++i) ASSERT_EQ(r->vdst[i], 0x11223300u | i) << "lane " << i;
}

TEST(HipGpuTest, ProvenanceNamesTheDevice) {
  DeviceBatch b = Batch(PkU8Words(257, 258, 259));
  b.lanes.Add(0, 0, 0, 0);
  absl::StatusOr<DeviceResult> r = (*g_runner)->Run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->provenance.runner(), "hip");
  EXPECT_FALSE(r->provenance.device().empty());
  EXPECT_EQ(r->provenance.target().substr(0, g_target->name.size()), std::string(g_target->name));
  EXPECT_EQ(r->provenance.stepping().rfind("asicRevision ", 0), 0u) << r->provenance.stepping();
  std::printf("ran on %s; %s; %s\n", (*g_runner)->Describe().c_str(), r->provenance.driver().c_str(),
              r->provenance.stepping().c_str());
}

}  // namespace
}  // namespace lanediff

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::string fake;  // --fake-hip=TARGET:WAVE
  for (int i = 1; i < argc; ++i) {
    if (absl::StartsWith(argv[i], "--fake-hip=")) fake = argv[i] + 11;
  }
  absl::StatusOr<std::unique_ptr<lanediff::Runner>> runner;
  std::string target;
  if (!fake.empty()) {
    const size_t colon = fake.find(':');
    int wave = 0;
    if (colon == std::string::npos || !absl::SimpleAtoi(fake.substr(colon + 1), &wave)) {
      std::printf("--fake-hip=%s: want TARGET:WAVE, e.g. gfx1100:32\n", fake.c_str());
      return 2;
    }
    target = fake.substr(0, colon);
    runner = lanediff::OpenComputingFakeHip(target, wave, &lanediff::g_fake);
    lanediff::g_wave = wave;
    lanediff::g_open_wave = [target](int w) { return lanediff::OpenComputingFakeHip(target, w); };
    std::printf("no GPU: the HIP runner on the computing fake HIP runtime, %s wave%d\n",
                target.c_str(), wave);
  } else {
    absl::StatusOr<std::vector<lanediff::HipDeviceInfo>> devices = lanediff::ListHipDevices();
    if (!devices.ok()) {
      std::printf("SKIPPED: %s\n", std::string(devices.status().message()).c_str());
      return 77;
    }
    for (const lanediff::HipDeviceInfo& d : *devices) {
      std::printf("hip:%d %s (%s, wave%d) %s\n", d.index, d.name.c_str(), d.gcn_arch_name.c_str(),
                  d.wave_size, d.unsupported.empty() ? d.target.c_str() : d.unsupported.c_str());
    }
    runner = lanediff::OpenHipRunner(0);
    target = (*devices)[0].target;
    lanediff::g_wave = (*devices)[0].wave_size;
    lanediff::g_open_wave = [](int w) { return lanediff::OpenHipRunner(0, w); };
  }
  if (!runner.ok()) {
    std::printf("FAILED to open hip:0: %s\n", std::string(runner.status().message()).c_str());
    return 1;
  }
  lanediff::g_runner = &*runner;
  lanediff::g_target = *lanediff::FindTarget(target);
  return RUN_ALL_TESTS();
}
