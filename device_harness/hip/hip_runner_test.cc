// The HIP runner without a GPU (the default CTest run): the no-GPU error says what happened,
// with the HIP error code and name, and comes back at once. Also the pure helpers.
#include "device_harness/hip/hip_runner.h"

#include <cstdlib>
#include <cstdio>
#include <cstring>

#include "device_harness/fault.h"
#include "device_harness/batch.h"
#include "device_harness/hip/fake_hip_api.h"
#include "device_harness/hip/fake_sim_kernel.h"
#include "device_harness/random_case_test_util.h"
#include "device_harness/resolve_case.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "device_harness/hip/launch_pipeline.h"
#include "device_harness/isolation/isolated_runner.h"
#include "model/base/status.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
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
  // docs/semantics.md §2: VDST[7:0] OP[25:16] ENC[31:26]; SRC0..2 = v1, v2, v3.
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

// Documented restrictions are checked before the launch, per family (docs/semantics.md §2): the
// constant bus takes 1 distinct SGPR/literal on GFX9 VOP3 and 2 on GFX10+; GFX9 VOP3 takes
// no literal. v_cvt_pk_u8_f32 v4, v1, s21, s22 is undefined by spec on GFX9 only (llvm-mc-22
// -mcpu=gfx942 refuses it: "invalid operand (violates constant bus restrictions)"),
// v_cvt_pk_u8_f32 v4, s20, s21, s22 on every family. allow_undefined runs them anyway.
TEST(CheckHipBatchTest, RefusesConstantBusViolatorsPerFamilyUnlessAllowed) {
  struct Case {
    const char* target;
    int wave;
    int limit;
    const char* family;
  };
  for (const Case& c : {Case{"gfx942", 64, 1, "GFX9"}, Case{"gfx1030", 32, 2, "GFX10"},
                        Case{"gfx1100", 32, 2, "GFX11"}, Case{"gfx1201", 32, 2, "GFX12"},
                        Case{"gfx1250", 32, 2, "GFX1250"}}) {
    absl::StatusOr<CodeObjectView> co = FindCodeObject(c.target, c.wave);
    ASSERT_TRUE(co.ok()) << co.status();
    const TargetTraits& t = *co->target;
    const uint32_t op = static_cast<uint32_t>(t.Opcode(Instr::v_cvt_pk_u8_f32));
    struct Srcs {
      uint32_t s0, s1, s2;
      int bus;  // distinct SGPRs read
    };
    for (const Srcs& src : {Srcs{257, 258, 22, 1}, Srcs{257, 22, 22, 1}, Srcs{257, 21, 22, 2}, Srcs{20, 21, 22, 3}}) {
      SCOPED_TRACE(absl::StrCat(c.target, " sources ", src.s0, " ", src.s1, " ", src.s2));
      DeviceBatch b;
      b.target = &t;
      b.instr = Instr::v_cvt_pk_u8_f32;
      b.words = Vop3(t, op);
      b.words[1] = src.s0 | src.s1 << 9 | src.s2 << 18;
      b.lanes.Add(0, 0, 0, 0);
      absl::StatusOr<Instr> r = CheckHipBatch(*co, b);
      b.allow_undefined = true;
      EXPECT_TRUE(CheckHipBatch(*co, b).ok());
      if (src.bus <= c.limit) {
        EXPECT_TRUE(r.ok()) << r.status();
        continue;
      }
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(std::string(r.status().message()),
                  HasSubstr(absl::StrCat("undefined by spec on ", c.target, ": constant bus: ", src.bus,
                                         " distinct SGPR/literal reads, ", c.family, " allows ", c.limit)));
    }
  }
}

// GFX9 VOP3 has no literal: a raw 8-byte word naming code 255 is undefined by spec.
TEST(CheckHipBatchTest, RefusesALiteralCodeOnGfx9UnlessAllowed) {
  absl::StatusOr<CodeObjectView> co = FindCodeObject("gfx942", 64);
  ASSERT_TRUE(co.ok());
  DeviceBatch b;
  b.target = co->target;
  b.instr = Instr::v_cvt_pk_u8_f32;
  b.words = Vop3(*co->target, 477);
  b.words[1] = 255u | 258u << 9 | 259u << 18;  // src0 = literal code
  b.lanes.Add(0, 0, 0, 0);
  absl::StatusOr<Instr> r = CheckHipBatch(*co, b);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("undefined by spec on gfx942: literal (code 255): GFX9 VOP3 takes none"));
  b.allow_undefined = true;
  EXPECT_TRUE(CheckHipBatch(*co, b).ok());
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

DeviceBatch FakeBatch(uint32_t mode) {
  DeviceBatch b;
  b.target = *FindTarget("gfx942");
  b.instr = Instr::v_cvt_pk_u8_f32;
  b.words = Vop3(*b.target, 477);  // v_cvt_pk_u8_f32 v4, v1, v2, v3 (docs/semantics.md §2: op 477)
  b.mode = mode;
  for (uint32_t i = 0; i < 3; ++i) b.lanes.Add(0, 0, 0, 0x100 + i);
  return b;
}

// The runner itself refuses words that break the register convention, however the batch was
// built: v_cvt_pk_u8_f32 v4, v5, v2, v3 and v4, v1, s23, v3 on gfx942 (hand-encoded: VOP3
// dword1 = src0 | src1 << 9 | src2 << 18, VGPR n = 256 + n: v5 = 0x105, v2 = 0x102, v3 = 0x103;
// s23 = 23), and VDST v6 (dword0 = 0xd1dd0000 | 6). Nothing reaches the fake runtime.
TEST(HipRunnerTest, RefusesABatchThatBreaksTheRegisterConventionWhoeverBuiltIt) {
  FakeHip* fake = nullptr;
  absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip(&fake);
  ASSERT_TRUE(dev.ok()) << dev.status();
  fake->keep_log = true;
  const std::vector<std::pair<std::vector<uint32_t>, const char*>> bad = {
      {{0xd1dd0004u, 0x105u | (0x102u << 9) | (0x103u << 18)}, "v5"},
      {{0xd1dd0004u, 0x101u | (23u << 9) | (0x103u << 18)}, "s23"},
      {{0xd1dd0006u, 0x101u | (0x102u << 9) | (0x103u << 18)}, "VDST"},
  };
  for (const auto& [words, what] : bad) {
    DeviceBatch b = FakeBatch(kDefaultMode);
    b.words = words;
    absl::StatusOr<DeviceResult> r = (*dev)->Run(b);
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_TRUE(absl::IsInvalidArgument(r.status())) << r.status();
    EXPECT_THAT(std::string(r.status().message()), HasSubstr("refuses the batch")) << what;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(what)) << r.status();
  }
  EXPECT_EQ(fake->modules_loaded, 0);
  // The same words with v1: accepted (the encoding above is right).
  DeviceBatch good = FakeBatch(kDefaultMode);
  good.words = {0xd1dd0004u, 0x101u | (0x102u << 9) | (0x103u << 18)};
  EXPECT_TRUE((*dev)->Run(good).ok());
}

// A VGPR-pair writer (the row's dst_bits 64) runs on the HIP path: for every code object whose
// target has a pair row, every form the target has (VOP3, VOP1 e32, GFX9 SDWA with a byte
// select), the words the runner returns (lane i's VDST at [2i], VDST+1 at [2i + 1], from the
// kernel argument shape = 2 and the fake's pair layout) equal the model's slow oracle
// (EvaluateOracle, model/ops/ops.h), lane for lane; the MODE readback at out[2n] is checked by
// Run. The first pair row of each code object, in its first form, runs more lanes than one
// launch holds (two launches: the second launch's words land at their lanes' places); every
// other (row, form) runs 1,027 lanes in one launch (every byte value in every byte of S0, as
// the two-launch batch starts), so the cost grows by a launch's 65,536 lanes per code object,
// not per row. The fake's kernel is the kernel interpreter (interp/interp.h):
// the patched code object's own bytes run, the instruction under test on the simulator (the
// fast model), so this checks the launch path, the kernel, the layout and the words, not the
// silicon.
TEST(HipRunnerTest, VgprPairWritersGiveTheOraclesWordsOnEveryTargetThatHasThem) {
  int checked = 0;
  for (const CodeObjectView& co : AllCodeObjects()) {
    const TargetTraits& t = *co.target;
    bool split_checked = false;  // this code object ran a batch of two launches
    for (Instr instr : kAllInstrs) {
      // Every pair writer of one-dword sources; gfx1250's 8-wide encoders read a source tuple
      // and run in TupleRowsGiveTheOraclesWordsThroughTheLaunchPath.
      if (DstWords(instr) != 2 || !t.Has(instr) || !GetInstrInfo(instr).lane_shape().narrow_sources()) continue;
      FakeHip* fake = nullptr;
      absl::StatusOr<std::unique_ptr<Runner>> dev = OpenComputingFakeHip(std::string(t.name), co.wave_size, &fake);
      ASSERT_TRUE(dev.ok()) << dev.status();
      for (const proto::Encoding& form : testcases::EveryForm(t, instr)) {
        SCOPED_TRACE(absl::StrCat(t.name, " wave", co.wave_size, " ", InstrName(instr), " ", form.ShortDebugString()));
        proto::TestCase tc;
        tc.set_target(std::string(t.name));
        tc.set_instr(InstrToProto(instr));
        *tc.mutable_encoding() = form;
        // Every byte value in every byte of S0; more lanes than one launch holds once per
        // code object.
        const bool split = !split_checked;
        split_checked = true;
        const uint32_t n = split ? static_cast<uint32_t>(kHipLaunchLanes) * 2 + 3 : 1027u;
        for (uint32_t i = 0; i < n; ++i) {
          proto::Lane* l = tc.add_lanes();
          const uint32_t b = i & 0xff, k = i >> 8;
          l->set_src0(b | ((b ^ k) & 0xff) << 8 | ((b + k) & 0xff) << 16 | ((b * 3 + k) & 0xff) << 24);
          l->set_vdst_old(0xa0b0c0d0u + i);
        }
        absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
        ASSERT_TRUE(rc.ok()) << rc.status();
        std::vector<uint32_t> want(OutputWords(instr, n));
        ASSERT_TRUE(EvaluateOracle(rc->ctx, rc->lanes.view(), absl::MakeSpan(want)).ok());
        absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(tc);
        ASSERT_TRUE(b.ok()) << b.status();
        const uint64_t launches = fake->launches;
        absl::StatusOr<DeviceResult> r = (*dev)->Run(*b);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_EQ(fake->launches - launches, split ? 2u : 1u);
        ASSERT_EQ(r->vdst.size(), 2u * n);
        for (size_t i = 0; i < 2u * n; ++i) {
          ASSERT_EQ(r->vdst[i], want[i]) << "lane " << i / 2 << " word " << i % 2 << " (src0 0x" << std::hex
                                         << tc.lanes(static_cast<int>(i / 2)).src0() << ")";
        }
        ++checked;
      }
      // A pair elsewhere than v[4:5] is refused before the launch, naming the pair.
      DeviceBatch other;
      other.target = &t;
      other.instr = instr;
      other.words = Vop3(t, static_cast<uint32_t>(t.Opcode(instr)), 6);
      other.lanes.Add(0, 0, 0, 0);
      absl::StatusOr<DeviceResult> refused = (*dev)->Run(other);
      ASSERT_FALSE(refused.ok());
      EXPECT_FALSE(IsUnsupported(refused.status()));
      EXPECT_THAT(std::string(refused.status().message()), HasSubstr("writes v[6:7] but the kernel stores v[4:5]"));
    }
  }
  EXPECT_GT(checked, 0) << "no VGPR-pair writer on any target: the test checks nothing";
}

// Every tuple row (gfx950's, and gfx1250's and gfx1251's 8- and 16-element ones), through the
// HIP launch path into the fake's kernel interpreter: the staged arrays carry every dword of
// each lane's tuple and the shape word tells the GFX9 or GFX12.5 kernel so. Every VDST word equals the oracle's. 300 lanes per
// row and code object in one launch (0.2 s user, release); with LANEDIFF_HIP_TUPLE_SPLIT set
// (the slow entry device_hip_tuple_split_test, 3.7 s user) the first row runs 131,075 lanes in
// two launches, so the second launch's tuples must start at their lanes' places.
TEST(HipRunnerTest, TupleRowsGiveTheOraclesWordsThroughTheLaunchPath) {
  int checked = 0, gfx1250_checked = 0;
  bool split_checked = std::getenv("LANEDIFF_HIP_TUPLE_SPLIT") == nullptr;
  for (const CodeObjectView& co : AllCodeObjects()) {
    const TargetTraits& t = *co.target;
    for (Instr instr : kAllInstrs) {
      const LaneShape shape = GetInstrInfo(instr).lane_shape();
      // gfx950's and gfx1250's (gfx1251's) tuple rows: both families' kernels load tuples.
      if (shape.narrow_sources() || !t.Has(instr)) continue;
      FakeHip* fake = nullptr;
      absl::StatusOr<std::unique_ptr<Runner>> dev = OpenComputingFakeHip(std::string(t.name), co.wave_size, &fake);
      ASSERT_TRUE(dev.ok()) << dev.status();
      SCOPED_TRACE(absl::StrCat(t.name, " wave", co.wave_size, " ", InstrName(instr)));
      proto::TestCase tc;
      tc.set_target(std::string(t.name));
      tc.set_instr(InstrToProto(instr));
      const bool split = !split_checked;
      split_checked = true;
      const uint32_t n = split ? static_cast<uint32_t>(kHipLaunchLanes) * 2 + 3 : 300u;
      uint32_t x = 0x9e3779b9u;
      auto next = [&x] { x ^= x << 13, x ^= x >> 17, x ^= x << 5; return x; };
      for (uint32_t i = 0; i < n; ++i) {
        proto::Lane* l = tc.add_lanes();
        l->set_src0(next());
        // The decodes' S1 is a scale 2^0 .. 2^63 (exponent field); the interleaved encoders'
        // S1 a tuple of f32 and S2 that scale.
        const uint32_t scale = 0x3f800000u + ((i % 64) << 23);
        l->set_src1(shape.src_dwords[1] > 1 ? next() : scale);
        if (GetInstrInfo(instr).src[2] == SrcRole::scale_f32) l->set_src2(scale);
        l->set_vdst_old(0xa0b0c0d0u + i);
        for (int k = 1; k < shape.src_dwords[0]; ++k) l->add_src0_more(next());
        for (int k = 1; k < shape.src_dwords[1]; ++k) l->add_src1_more(next());
      }
      absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
      ASSERT_TRUE(rc.ok()) << rc.status();
      std::vector<uint32_t> want(OutputWords(instr, n));
      ASSERT_TRUE(EvaluateOracle(rc->ctx, rc->lanes.view(), absl::MakeSpan(want)).ok());
      absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(tc);
      ASSERT_TRUE(b.ok()) << b.status();
      const uint64_t launches = fake->launches;
      absl::StatusOr<DeviceResult> r = (*dev)->Run(*b);
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(fake->launches - launches, split ? 2u : 1u);
      ASSERT_EQ(r->vdst.size(), want.size());
      const size_t w = DstWords(instr);
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(r->vdst[i], want[i]) << "lane " << i / w << " word " << i % w;
      }
      ++checked;
      gfx1250_checked += t.family == Family::gfx1250;
    }
  }
  EXPECT_GT(checked, 0) << "no tuple row on any target: the test checks nothing";
  EXPECT_GT(gfx1250_checked, 0) << "no gfx1250 tuple row ran on the GFX12.5 kernel";
}

// The kernel arguments carry the width: shape = 2 for a pair, 1 otherwise (KernelShapeWord of
// one-dword sources; what the kernels read from s23 to pick the layout); a host that sent 1 for a pair would get half the words,
// which the test above would see. Hand-derived, one lane: gfx942's fp8 is E4M3 FNUZ (bias 8),
// so byte 0x40 = 0 1000 000 = 1.0 (0x3f800000) and 0x38 = 0 0111 000 = 0.5 (0x3f000000):
// v_cvt_pk_f32_fp8 v[4:5], v1 with S0 = 0x3840 (word 0: low byte 0x40, high byte 0x38) writes
// VDST = 1.0, VDST+1 = 0.5; v_cvt_pk_u8_f32 is one word.
TEST(HipRunnerTest, ThePairWidthReachesTheKernelArguments) {
  FakeHip* fake = nullptr;
  absl::StatusOr<std::unique_ptr<Runner>> dev = OpenComputingFakeHip("gfx942", 64, &fake);
  ASSERT_TRUE(dev.ok()) << dev.status();
  std::vector<uint32_t> widths;
  // The fake's kernel is the interpreter running the kernel bytes (the kernel reads
  // the shape from s23); kernelParams[10] is the shape argument (KernelParamPointers).
  FakeCodeKernel interp = fake->code_kernel;
  fake->code_kernel = [&widths, interp](absl::Span<const uint8_t> image, unsigned blocks, unsigned threads,
                                        void** params, std::string* error) {
    widths.push_back(*static_cast<uint32_t*>(params[10]));
    return interp(image, blocks, threads, params, error);
  };
  const TargetTraits& t = **FindTarget("gfx942");
  ASSERT_TRUE(t.Has(Instr::v_cvt_pk_f32_fp8));
  ASSERT_EQ(t.fp8, Fp8FormatId::e4m3_fnuz);
  DeviceBatch pair;
  pair.target = &t;
  pair.instr = Instr::v_cvt_pk_f32_fp8;
  pair.words = Vop3(t, static_cast<uint32_t>(t.Opcode(Instr::v_cvt_pk_f32_fp8)));
  pair.words[1] = 257;  // SRC0 = v1; SRC1, SRC2 unused (0)
  pair.lanes.Add(0x3840, 0, 0, 0xdeadbeef);
  absl::StatusOr<DeviceResult> r = (*dev)->Run(pair);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->vdst, (std::vector<uint32_t>{0x3f800000u, 0x3f000000u}));
  ASSERT_TRUE((*dev)->Run(FakeBatch(0xf0)).ok());
  EXPECT_EQ(widths, (std::vector<uint32_t>{2, 1}));
}

// The computing fake runs the loaded code object's own bytes: a copy of the gfx942 kernel
// whose first s_load_dwordx8 reads the pointers from kernarg offset 8 instead of 0 (C00E0100
// 00000000 -> C00E0100 00000008, llvm-objdump-22 of the built kernel) gives a device fault
// whose HIP error string carries the interpreter's diagnosis, where the simulator-backed fake
// (which runs only the patch-site words) would have answered right.
TEST(HipRunnerTest, TheComputingFakeRunsTheKernelBytes) {
  absl::StatusOr<CodeObjectView> co = FindCodeObject("gfx942", 64);
  ASSERT_TRUE(co.ok()) << co.status();
  static std::vector<uint8_t> planted;  // the runner keeps the view: static storage
  planted.assign(co->elf.begin(), co->elf.end());
  const uint32_t from[2] = {0xC00E0100, 0x00000000}, to[2] = {0xC00E0100, 0x00000008};
  bool found = false;
  for (size_t o = 0; o + 8 <= planted.size() && !found; o += 4) {
    if (std::memcmp(planted.data() + o, from, 8) == 0) std::memcpy(planted.data() + o, to, 8), found = true;
  }
  ASSERT_TRUE(found);
  HipDeviceInfo info;
  info.name = "fake gfx942";
  info.gcn_arch_name = "gfx942";
  info.wave_size = 64;
  info.target = "gfx942";
  auto api = std::make_unique<FakeHip>();
  api->code_kernel = InterpFakeKernel({}, "gfx942", 64);
  absl::StatusOr<std::unique_ptr<Runner>> dev =
      OpenHipRunnerWithApi(info, CodeObjectView{co->target, 64, planted}, std::move(api));
  ASSERT_TRUE(dev.ok()) << dev.status();
  absl::StatusOr<DeviceResult> r = (*dev)->Run(FakeBatch(0xf0));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(IsDeviceFault(r.status())) << r.status();
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("harness fault: lane 0's v1 (src0) holds src1[0]"));
}

TEST(HipFaultTest, AnErrorCodeAfterTheLaunchIsADeviceFaultWithTheHipCodeAndName) {
  FakeHip* fake = nullptr;
  absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip(&fake);
  ASSERT_TRUE(dev.ok()) << dev.status();
  absl::StatusOr<DeviceResult> good = (*dev)->Run(FakeBatch(0xf0));
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->vdst, (std::vector<uint32_t>{0x100, 0x101, 0x102}));  // the fake copies vdst_old

  absl::StatusOr<DeviceResult> bad = (*dev)->Run(FakeBatch(kFaultMode));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(IsDeviceFault(bad.status())) << bad.status();  // was a plain Unavailable: a "refusal"
  EXPECT_TRUE(NeedsFreshProcess(bad.status()));               // the isolated child will exit
  const std::string msg(bad.status().message());
  EXPECT_THAT(msg, HasSubstr("device fault: hip:0 fake MI300X (gfx942:sramecc+:xnack-, wave64): running the kernel"));
  EXPECT_THAT(msg, HasSubstr("failed with HIP error 719 (hipErrorLaunchFailure: unspecified launch failure)"));
  EXPECT_THAT(msg, HasSubstr("words d1dd0004 040e0501"));
  ASSERT_TRUE(bad.status().GetPayload(kHipErrorPayload).has_value());
  EXPECT_EQ(std::string(*bad.status().GetPayload(kHipErrorPayload)), "719");

  // The context is not trusted after a HIP error: a good batch is not run in it.
  absl::StatusOr<DeviceResult> after = (*dev)->Run(FakeBatch(0xf0));
  ASSERT_FALSE(after.ok());
  EXPECT_TRUE(IsDeviceFault(after.status()));
  EXPECT_THAT(std::string(after.status().message()), HasSubstr("an earlier batch left the HIP context unusable"));
  EXPECT_THAT(std::string(after.status().message()), HasSubstr("HIP error 719"));
  // A refusal stays a refusal (not a fault) even then.
  DeviceBatch other = FakeBatch(0xf0);
  other.target = *FindTarget("gfx950");
  EXPECT_FALSE(IsDeviceFault((*dev)->Run(other).status()));
}

// The MODE the kernel reads back is compared with the batch's: a mismatch is a harness fault
// (the instruction ran under another MODE than the model uses), not a device fault or finding.
TEST(HipModeReadbackTest, AMismatchIsAHarnessFaultNotAFinding) {
  absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip();
  ASSERT_TRUE(dev.ok()) << dev.status();
  absl::StatusOr<DeviceResult> good = (*dev)->Run(FakeBatch(kDefaultMode | 0x800000));
  ASSERT_TRUE(good.ok()) << good.status();
  ASSERT_TRUE(good->mode_readback.has_value());
  // The batch's fields, and DX10_CLAMP and IEEE (0x300) from the gfx942 descriptor.
  EXPECT_EQ(*good->mode_readback, kDefaultMode | 0x800000 | 0x300);
  EXPECT_EQ(good->vdst.size(), 3u);  // out[n] is not a lane
  absl::StatusOr<DeviceResult> lost = (*dev)->Run(FakeBatch(kLostMode));
  ASSERT_FALSE(lost.ok());
  EXPECT_FALSE(IsDeviceFault(lost.status()));
  EXPECT_EQ(lost.status().code(), absl::StatusCode::kInternal);
  // kLostMode = 0x00000001; the fake GPU kept MODE[7:0] at the default 0xf0 (over 0x300).
  EXPECT_THAT(std::string(lost.status().message()),
              HasSubstr("harness fault: MODE read back 0x000003f0 after setting 0x00000001"));
}

// Isolated (how HIP always runs): the child sends the fault and exits, the parent forks a fresh
// child (a fresh HIP context) for the next batch, which then runs.
TEST(HipFaultTest, TheIsolatedChildExitsAfterAFaultAndTheNextBatchGetsAFreshOne) {
  absl::StatusOr<std::unique_ptr<IsolatedRunner>> dev =
      IsolatedRunner::Start([] { return OpenFakeHip(); }, {.timeout = absl::Seconds(60)});
  ASSERT_TRUE(dev.ok()) << dev.status();
  ASSERT_TRUE((*dev)->Run(FakeBatch(0xf0)).ok());
  EXPECT_EQ((*dev)->children_started(), 1);
  absl::StatusOr<DeviceResult> bad = (*dev)->Run(FakeBatch(kFaultMode));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(IsDeviceFault(bad.status()));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("HIP error 719 (hipErrorLaunchFailure"));
  absl::StatusOr<DeviceResult> next = (*dev)->Run(FakeBatch(0xf0));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->vdst, (std::vector<uint32_t>{0x100, 0x101, 0x102}));
  EXPECT_EQ((*dev)->children_started(), 2);
}

// allow_undefined reaches the isolated child (wire.h batch flags): a constant-bus violator on
// GFX9 (v_cvt_pk_u8_f32 v4, v1, s21, s22: two SGPRs, GFX9 allows one) is refused by default
// and runs when asked, as HIP always runs isolated.
TEST(HipFaultTest, AllowUndefinedRunsAConstantBusViolatorInTheIsolatedChild) {
  absl::StatusOr<std::unique_ptr<IsolatedRunner>> dev =
      IsolatedRunner::Start([] { return OpenFakeHip(); }, {.timeout = absl::Seconds(60)});
  ASSERT_TRUE(dev.ok()) << dev.status();
  DeviceBatch b = FakeBatch(0xf0);
  b.words[1] = 257u | 21u << 9 | 22u << 18;  // SRC0 = v1, SRC1 = s21, SRC2 = s22
  absl::StatusOr<DeviceResult> refused = (*dev)->Run(b);
  ASSERT_FALSE(refused.ok());
  EXPECT_FALSE(IsDeviceFault(refused.status()));
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("undefined by spec on gfx942: constant bus: 2 distinct SGPR/literal reads, GFX9 allows 1"));
  b.allow_undefined = true;
  absl::StatusOr<DeviceResult> ran = (*dev)->Run(b);
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(ran->vdst, (std::vector<uint32_t>{0x100, 0x101, 0x102}));  // the fake copies vdst_old
}

TEST(HipLaunchRangesTest, EveryLaunchHas64KLanesWhenTheBatchHas) {
  using R = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(HipLaunchRanges(0), R{});
  EXPECT_EQ(HipLaunchRanges(1), (R{{0, 1}}));
  EXPECT_EQ(HipLaunchRanges(65536), (R{{0, 65536}}));
  EXPECT_EQ(HipLaunchRanges(131071), (R{{0, 131071}}));  // 131071 / 65536 = 1 launch
  EXPECT_EQ(HipLaunchRanges(131072), (R{{0, 65536}, {65536, 131072}}));
  // 3 * 65536 + 5 = 196613 lanes: 3 launches of 65537, 65538, 65538 (n * i / 3 boundaries).
  EXPECT_EQ(HipLaunchRanges(196613), (R{{0, 65537}, {65537, 131075}, {131075, 196613}}));
  EXPECT_EQ(HipLaunchRanges(size_t{1} << 20).size(), 16u);
}

DeviceBatch LanesBatch(size_t n, uint32_t op = 477) {
  DeviceBatch b;
  b.target = *FindTarget("gfx942");
  b.instr = op == 477 ? Instr::v_cvt_pk_u8_f32 : Instr::v_cvt_sr_fp8_f32;
  b.words = Vop3(*b.target, op);
  for (uint32_t i = 0; i < n; ++i) b.lanes.Add(i, 0, 0, 0x10000000u + i);
  return b;
}

// Launch i + 1 is queued (its operands copied on the copy stream, its kernel on the compute
// stream) before the host first waits for launch i: two launches in flight, and every async
// copy is from or to page-locked memory (hipHostMalloc).
TEST(HipLaunchPipelineTest, TwoLaunchesInFlightThroughPinnedBuffers) {
  FakeHip* fake = nullptr;
  absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip(&fake);
  ASSERT_TRUE(dev.ok()) << dev.status();
  fake->keep_log = true;
  const size_t n = 4 * kHipLaunchLanes + 5;
  const DeviceBatch b = LanesBatch(n);
  absl::StatusOr<DeviceResult> r = (*dev)->Run(b);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->vdst.size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(r->vdst[i], 0x10000000u + i) << "lane " << i;  // the fake copies vdst_old
  EXPECT_EQ(fake->launches, 4u);
  EXPECT_EQ(fake->pageable_copies, 0);
  EXPECT_EQ(fake->host_mallocs, 4);  // two slots, an input and an output buffer each, once
  // Handles in HipLaunchPipeline::Init's order: stream1 = copy, stream2 = compute; slot A's
  // events h2d_done = event3, d2h_done = event4; slot B's event5, event6. 4 launches of
  // 262149 lanes end at n * i / 4: 65537, 131074, 196611, 262149 (sizes 65537 x 3, 65538).
  std::vector<std::string> order;
  for (const std::string& e : fake->log) {
    if (absl::StartsWith(e, "h2d") || absl::StartsWith(e, "launch") || absl::StartsWith(e, "wait")) order.push_back(e);
  }
  const std::vector<std::string> want = {
      "h2d stream1", "launch 65537 stream2",   // launch 1 (slot A)
      "h2d stream1", "launch 65537 stream2",   // launch 2 (slot B) queued while 1 runs
      "wait event4",                           // the host waits for launch 1 only now
      "h2d stream1", "launch 65537 stream2",   // launch 3 reuses slot A
      "wait event6",
      "h2d stream1", "launch 65538 stream2",   // launch 4
      "wait event4", "wait event6"};
  EXPECT_EQ(order, want);
  // The compute stream waits for each copy's event before the kernel.
  EXPECT_NE(std::find(fake->log.begin(), fake->log.end(), "streamwait event3 stream2"), fake->log.end());
}

// The runner keeps its context for every batch: streams and pinned buffers are made once,
// modules come from the LRU cache (A, B, A loads two), and a smaller batch reuses the buffers.
TEST(HipLaunchPipelineTest, TheContextStreamsBuffersAndModulesAreReused) {
  FakeHip* fake = nullptr;
  absl::StatusOr<std::unique_ptr<Runner>> dev = OpenFakeHip(&fake);
  ASSERT_TRUE(dev.ok()) << dev.status();
  const uint32_t ops[] = {477, 676, 477, 477, 676};  // pk_u8, sr_fp8, pk_u8, ...
  for (uint32_t op : ops) {
    absl::StatusOr<DeviceResult> r = (*dev)->Run(LanesBatch(op == 477 ? 3 * kHipLaunchLanes : 1000, op));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  EXPECT_EQ(fake->streams_created, 2);
  EXPECT_EQ(fake->host_mallocs, 4);
  EXPECT_EQ(fake->modules_loaded, 2);
  EXPECT_EQ(fake->modules_unloaded, 0);
}

// The isolated child (how HIP runs) is one process for the whole campaign: many batches, one
// child, one HIP context.
TEST(HipLaunchPipelineTest, TheIsolatedChildServesEveryBatchWithOneContext) {
  absl::StatusOr<std::unique_ptr<IsolatedRunner>> dev =
      IsolatedRunner::Start([] { return OpenFakeHip(); }, {.timeout = absl::Seconds(60)});
  ASSERT_TRUE(dev.ok()) << dev.status();
  const pid_t pid = (*dev)->child_pid();
  for (int i = 0; i < 20; ++i) {
    absl::StatusOr<DeviceResult> r = (*dev)->Run(LanesBatch(i % 2 == 0 ? 100 : kHipLaunchLanes + 1, i % 3 == 0 ? 676 : 477));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  EXPECT_EQ((*dev)->children_started(), 1);
  EXPECT_EQ((*dev)->child_pid(), pid);
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
