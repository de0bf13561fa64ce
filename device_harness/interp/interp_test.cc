// Tests of the kernel interpreter against independent references: llvm-objdump-22 for the
// decoder, the kernel sources' .amdhsa directives (hand-derived descriptor fields) for the
// initial wave state, the model's slow oracle (EvaluateOracle) for the known-answer batches,
// and byte-patched copies of the built code objects for the planted kernel bugs.
#include "device_harness/fault.h"
#include "device_harness/interp/interp.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "device_harness/random_case_test_util.h"
#include "device_harness/resolve_case.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/base/status.h"
#include "model/isa/tables.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"

namespace lanediff::interp {
namespace {

using ::testing::HasSubstr;

std::string RunCommand(const std::string& cmd, int* exit_code) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

struct ObjdumpLine {
  uint64_t address = 0;
  std::string text;
  std::vector<uint32_t> words;
};

// llvm-objdump-22 -d of the code object: "  s_lshl_b32 s3, s2, 8   // 000000001820: 8E038802".
std::vector<ObjdumpLine> Objdump(const CodeObjectView& co) {
  const std::string path = absl::StrCat(testing::TempDir(), "/lanediff_interp_", getpid(), "_", co.target->name,
                                        "_w", co.wave_size, ".co");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(co.elf.data()),
                                              static_cast<std::streamsize>(co.elf.size()));
  int rc = -1;
  const std::string out = RunCommand(absl::StrCat(LANEDIFF_LLVM_BIN, "/llvm-objdump -d --mattr=+wavefrontsize",
                                                  co.wave_size, " ", path), &rc);
  std::remove(path.c_str());
  EXPECT_EQ(rc, 0) << out;
  std::vector<ObjdumpLine> lines;
  for (absl::string_view raw : absl::StrSplit(out, '\n')) {
    const size_t slash = raw.find("// ");
    if (slash == absl::string_view::npos) continue;
    absl::string_view rest = raw.substr(slash + 3);
    const size_t colon = rest.find(':');
    if (colon == absl::string_view::npos) continue;
    ObjdumpLine l;
    if (!absl::SimpleHexAtoi(rest.substr(0, colon), &l.address)) continue;
    l.text = std::string(absl::StripAsciiWhitespace(raw.substr(0, slash)));
    absl::string_view bytes = rest.substr(colon + 1);
    bytes = bytes.substr(0, bytes.find('<'));
    for (absl::string_view w : absl::StrSplit(bytes, ' ', absl::SkipWhitespace())) {
      uint32_t v = 0;
      if (absl::SimpleHexAtoi(w, &v)) l.words.push_back(v);
    }
    lines.push_back(l);
  }
  return lines;
}

// Every instruction of every built code object decodes to what llvm-objdump-22 prints, and
// the decoder walks the kernel from its entry to its s_endpgm in the same steps as objdump.
TEST(InterpDecoderTest, EveryInstructionOfEveryCodeObjectMatchesLlvmObjdump) {
  int checked = 0;
  for (const CodeObjectView& co : AllCodeObjects()) {
    SCOPED_TRACE(absl::StrCat(co.target->name, " wave", co.wave_size));
    absl::StatusOr<Kernel> k = LoadKernel(*co.target, co.wave_size, co.elf);
    ASSERT_TRUE(k.ok()) << k.status();
    const std::vector<ObjdumpLine> lines = Objdump(co);
    ASSERT_GT(lines.size(), 30u);
    EXPECT_EQ(lines.front().address, k->entry) << "objdump's first instruction is not the descriptor's entry";
    uint64_t pc = k->entry;
    for (const ObjdumpLine& l : lines) {
      SCOPED_TRACE(absl::StrCat("0x", absl::Hex(l.address), " ", l.text));
      ASSERT_EQ(l.address, pc) << "the decoder's instruction lengths disagree with objdump's";
      if (l.address == k->patch_site) {  // the model's decoder owns the placeholder VOP3
        absl::StatusOr<DecodedVop3> d = DecodeVop3Fields(*co.target, l.words);
        ASSERT_TRUE(d.ok()) << d.status();
        EXPECT_EQ(PrintVop3(*co.target, d->vop3), l.text);
        pc += 4u * static_cast<uint64_t>(d->words_used);
        continue;
      }
      absl::StatusOr<Inst> in = DecodeInst(co.target->family, co.wave_size, l.words, l.address);
      ASSERT_TRUE(in.ok()) << in.status();
      EXPECT_EQ(Disassemble(co.target->family, co.wave_size, *in), l.text);
      EXPECT_EQ(in->bytes, 4 * l.words.size());
      pc += in->bytes;
      ++checked;
    }
  }
  EXPECT_GT(checked, 18 * 40);
}

// An instruction the interpreter does not implement is an error naming it, never skipped:
// v_add_f32_e32 v0, v1, v2 (GFX9 VOP2 opcode 0x01: 0x02000501, llvm-mc-22 -mcpu=gfx942).
TEST(InterpDecoderTest, AnUnknownInstructionIsAnErrorNamingItsWordAndOffset) {
  const uint32_t w[] = {0x02000501};
  absl::StatusOr<Inst> in = DecodeInst(Family::gfx9, 64, w, 0x1890);
  ASSERT_FALSE(in.ok());
  EXPECT_THAT(std::string(in.status().message()), HasSubstr("0x02000501 at offset 0x1890"));
  EXPECT_THAT(std::string(in.status().message()), HasSubstr("VOP2 opcode 0x1"));
}

// The initial wave state from the descriptors the kernel sources declare (kernels/*.s
// .amdhsa_kernel): round modes 0, denorm modes 3 and 3 -> MODE[7:0] = 0xf0; GFX9-GFX11 add
// .amdhsa_dx10_clamp 1 and .amdhsa_ieee_mode 1 -> MODE[8], MODE[9] (0x3f0); GFX12+ has
// neither field (0xf0). .amdhsa_user_sgpr_count 2 with the kernarg pointer -> s[0:1]; the
// workgroup id x in s2 on GFX9-GFX11, in ttmp9 on GFX12+.
TEST(InterpKernelTest, InitialStateComesFromTheDescriptor) {
  for (const CodeObjectView& co : AllCodeObjects()) {
    SCOPED_TRACE(absl::StrCat(co.target->name, " wave", co.wave_size));
    absl::StatusOr<Kernel> k = LoadKernel(*co.target, co.wave_size, co.elf);
    ASSERT_TRUE(k.ok()) << k.status();
    const bool gfx12p = co.target->family == Family::gfx12 || co.target->family == Family::gfx1250;
    EXPECT_EQ(k->initial_mode, gfx12p ? 0xf0u : 0x3f0u);
    EXPECT_EQ(k->kernarg_sgpr, 0);
    EXPECT_EQ(k->workgroup_id_sgpr, gfx12p ? -1 : 2);
    // .amdhsa_next_free_vgpr: 84 on the tuple kernels (GFX9, GFX12.5: v0..v83), 8 elsewhere.
    const bool tuples = co.target->family == Family::gfx9 || co.target->family == Family::gfx1250;
    EXPECT_GE(k->vgprs, tuples ? 84 : 8);
    EXPECT_EQ(k->kd.kernarg_size, 64u);
  }
  // Field by field (AMDGPUUsage COMPUTE_PGM_RSRC1): round 32 = 1 [13:12], round 16/64 = 2
  // [15:14], denorm 32 = 0, denorm 16/64 = 3 [19:18], DX10 [21], IEEE [23], FP16_OVFL [26].
  const uint32_t rsrc1 = (1u << 12) | (2u << 14) | (3u << 18) | (1u << 21) | (1u << 23) | (1u << 26);
  EXPECT_EQ(InitialMode(Family::gfx9, rsrc1), 0x1u | 0x8u | 0xc0u | 0x100u | 0x200u | 0x800000u);
  EXPECT_EQ(InitialMode(Family::gfx12, rsrc1), 0x1u | 0x8u | 0xc0u | 0x800000u);
}

// The instruction under test sees the MODE the wave holds: the descriptor's bits with the
// kernel's writes over them. Asking 0x00800003 (round 3, denormals flushed, FP16_OVFL):
// gfx942 keeps DX10_CLAMP and IEEE (MODE[9:8] = 3 from the descriptor) -> 0x00800303;
// gfx1201 has neither -> 0x00800003; gfx1250's entry also sets MODE[25] -> 0x02800003.
TEST(InterpKernelTest, TheInstructionRunsUnderTheDescriptorsModeWithTheBatchsFields) {
  const struct { const char* target; int wave; uint32_t want; } cases[] = {
      {"gfx942", 64, 0x00800303u}, {"gfx1201", 32, 0x00800003u}, {"gfx1250", 32, 0x02800003u}};
  for (const auto& c : cases) {
    const TargetTraits& t = **FindTarget(c.target);
    DeviceBatch b;
    b.target = &t;
    b.instr = Instr::v_cvt_pk_u8_f32;
    Vop3Instr in;
    in.instr = b.instr;
    in.vdst = 4;
    in.src = {257, 258, 259};
    b.words = *EncodeVop3(t, in);
    b.mode = 0x00800003u;
    for (int i = 0; i < 300; ++i) b.lanes.Add(0, 0, 0, 0);
    std::vector<uint32_t> seen;
    const Evaluator record = [&seen](const DeviceBatch& w, absl::Span<uint32_t> vdst) {
      seen.push_back(w.mode);
      return ModelEvaluator({})(w, vdst);
    };
    absl::StatusOr<DeviceResult> r = RunBatch(b, c.wave, record);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_FALSE(seen.empty());
    for (uint32_t m : seen) EXPECT_EQ(m, c.want) << c.target;
    EXPECT_EQ(*r->mode_readback, c.want) << c.target;  // the kernel's s_getreg after its writes
  }
}

// A known-answer batch for one instruction: ~2 workgroups and a partial third, lanes from a
// simple generator, the model's oracle as the answer.
struct Known {
  proto::TestCase tc;
  DeviceBatch batch;
  std::vector<uint32_t> want;
};
Known MakeKnown(const TargetTraits& t, Instr instr, uint32_t n, uint32_t mode,
                const proto::Encoding& form = proto::Encoding()) {
  Known k;
  k.tc.set_target(std::string(t.name));
  k.tc.set_instr(InstrToProto(instr));
  *k.tc.mutable_encoding() = form;
  k.tc.set_mode(mode);
  uint32_t x = 0x12345678u ^ static_cast<uint32_t>(instr);
  auto next = [&x] { x ^= x << 13, x ^= x >> 17, x ^= x << 5; return x; };
  for (uint32_t i = 0; i < n; ++i) {
    proto::Lane* l = k.tc.add_lanes();
    l->set_src0(next());
    l->set_src1(next() & (i % 3 == 0 ? 0xffffffffu : 0x3u));  // byte selects and seeds
    l->set_src2(next());
    l->set_vdst_old(next());
    // A tuple source's other dwords (the row's LaneShape), after the four words.
    const LaneShape shape = GetInstrInfo(instr).lane_shape();
    for (int k2 = 1; k2 < shape.src_dwords[0]; ++k2) l->add_src0_more(next());
    for (int k2 = 1; k2 < shape.src_dwords[1]; ++k2) l->add_src1_more(next());
  }
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(k.tc);
  EXPECT_TRUE(rc.ok()) << rc.status();
  if (!rc.ok()) return k;
  k.want.resize(OutputWords(instr, n));
  EXPECT_TRUE(EvaluateOracle(rc->ctx, rc->lanes.view(), absl::MakeSpan(k.want)).ok());
  absl::StatusOr<DeviceBatch> b = BuildDeviceBatch(k.tc);
  EXPECT_TRUE(b.ok()) << b.status();
  if (b.ok()) k.batch = *b;
  return k;
}

// Every code object of every target and wave size runs every row the target has through the
// real kernel bytes, across two full workgroups and a partial third (lanes >= n masked by the
// kernel's bounds check), with the contract checked; the VDST words equal the oracle's and
// the MODE readback the batch's MODE.
TEST(InterpKernelTest, EveryCodeObjectGivesTheOraclesAnswersForEveryRow) {
  const uint32_t modes[] = {kDefaultMode, 0x00000003u, 0x008000f0u, 0x00000035u};
  int rows = 0, forms_run = 0;
  RunStats stats;
  for (const CodeObjectView& co : AllCodeObjects()) {
    const TargetTraits& t = *co.target;
    int i = 0;
    const int rows_before = rows;
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      // Every row runs on its family's kernel (gfx1250's tuple rows included: code_object.h
      // KernelCapacity); a shape a kernel does not take is InterpWideLaneTest's case.
      // Every form the row has here: VOP3 (8 bytes), VOP1 e32 (4 bytes and two s_nop 0),
      // GFX9 SDWA with a byte select.
      for (const proto::Encoding& form : testcases::EveryForm(t, instr)) {
        SCOPED_TRACE(absl::StrCat(t.name, " wave", co.wave_size, " ", InstrName(instr), " ", form.ShortDebugString()));
        const Known k = MakeKnown(t, instr, 2 * 256 + 37, modes[i++ % 4], form);
        ASSERT_FALSE(k.batch.words.empty());
        absl::StatusOr<DeviceResult> r = RunBatch(k.batch, co.wave_size, ModelEvaluator({}), {}, &stats);
        ASSERT_TRUE(r.ok()) << r.status();
        ASSERT_EQ(r->vdst.size(), k.want.size());
        for (size_t j = 0; j < k.want.size(); ++j) {
          ASSERT_EQ(r->vdst[j], k.want[j]) << "word " << j;
        }
        forms_run += form.form() != proto::FORM_E64 ? 1 : 0;
      }
      ++rows;
    }
    EXPECT_GT(rows, rows_before) << t.name << " wave" << co.wave_size << " has no row";
  }
  EXPECT_EQ(AllCodeObjects().size(), 18u);
  EXPECT_GT(forms_run, 0) << "no e32 or SDWA form ran";
  EXPECT_EQ(stats.lanes % 256, 0u);
  std::printf("interp: %d rows (%d more in e32/SDWA forms), %llu waves, %llu lanes, %llu wave instructions\n", rows,
              forms_run, static_cast<unsigned long long>(stats.waves), static_cast<unsigned long long>(stats.lanes),
              static_cast<unsigned long long>(stats.instructions));
}

// A tuple row's one-dword source mutated to v1 (src0's register when src0 is one dword): the
// kernel loads dword i of src0's buffer into v1 whatever the shape (gfx1250.s: `global_load_b32
// v1, v5, s[4:5]`, v5 = 4i), which for v_cvt_scalef32_pk8_fp4_bf16 (src0 4 dwords a lane) is
// lane i/4's dword i%4. The interpreter's words for 100 lanes (four waves of 32) equal the
// oracle's on the same lanes with the scale, read from v2 (the default SRC1), set to that
// dword; reading the wave's own lanes instead (the evaluator's batch is one wave) changes
// lanes 32 on.
TEST(InterpKernelTest, ASourceNamingATupleLaneWordsRegisterReadsWhatTheKernelLoadedThere) {
  const TargetTraits& t = **FindTarget("gfx1250");
  const Instr instr = Instr::v_cvt_scalef32_pk8_fp4_bf16;
  const Known k = MakeKnown(t, instr, 100, kDefaultMode);
  DeviceBatch b = k.batch;
  GetVop3Layout(t.family).src1.Set(257, absl::MakeSpan(b.words));  // SRC1 = v1
  proto::TestCase tc = k.tc;
  for (int i = 0; i < tc.lanes_size(); ++i) {
    const proto::Lane& from = k.tc.lanes(i / 4);
    tc.mutable_lanes(i)->set_src1(i % 4 == 0 ? from.src0() : from.src0_more(i % 4 - 1));
  }
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
  ASSERT_TRUE(rc.ok()) << rc.status();
  std::vector<uint32_t> want(OutputWords(instr, 100));
  ASSERT_TRUE(EvaluateOracle(rc->ctx, rc->lanes.view(), absl::MakeSpan(want)).ok());
  absl::StatusOr<DeviceResult> r = RunBatch(b, 32, ModelEvaluator({}));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->vdst.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(r->vdst[i], want[i]) << "lane " << i;
}

// --device=interp and --device=sim give the same words and MODE readback for every row of
// every target (the default wave size's code object), without errata and with errata that act
// lane by lane (garbage_lane and mode_lost act per batch, which is per wave here).
TEST(InterpRunnerTest, AnswersAsTheSimulatorDoesOnEveryRow) {
  for (const std::vector<std::string>& inject :
       {std::vector<std::string>{}, std::vector<std::string>{"u8_truncate", "pair_word_swap", "nan_sign"}}) {
    absl::StatusOr<std::unique_ptr<Runner>> sim = OpenSimRunner({.inject = inject, .hypotheses = {}});
    absl::StatusOr<std::unique_ptr<Runner>> interp = OpenInterpRunner({.inject = inject, .hypotheses = {}});
    ASSERT_TRUE(sim.ok() && interp.ok());
    EXPECT_THAT((*interp)->Describe(), HasSubstr("interp (the harness kernel interpreted"));
    int rows = 0;
    for (const TargetTraits& t : AllTargets()) {
      for (Instr instr : kAllInstrs) {
        if (!t.Has(instr)) continue;
        SCOPED_TRACE(absl::StrCat(t.name, " ", InstrName(instr), " inject ", inject.size()));
        const Known k = MakeKnown(t, instr, 300, 0x00000031u);
        absl::StatusOr<DeviceResult> a = (*sim)->Run(k.batch), b = (*interp)->Run(k.batch);
        ASSERT_TRUE(a.ok()) << a.status();
        ASSERT_TRUE(b.ok()) << b.status();
        ASSERT_EQ(a->vdst, b->vdst);
        EXPECT_EQ(*a->mode_readback & kKernelModeMask, *b->mode_readback & kKernelModeMask);
        EXPECT_EQ(b->provenance.runner(), "interp");
        ++rows;
      }
    }
    EXPECT_GT(rows, 18);
  }
}

// gfx1250's cluster-aware workgroup id (kernels/gfx1250.s): with clusters of 2 and of 4
// workgroups (ttmp9 = cluster id, ttmp6 = size - 1 and id within the cluster, IB_STS2[9:6]
// non-zero) every lane still gets its own operands and slot (the contract) and the oracle's
// answers, across 8 workgroups. gfx1200 has no clusters: refused.
TEST(InterpKernelTest, Gfx1250ClusteredWorkgroupIdsGiveTheOraclesAnswers) {
  for (uint32_t cs : {2u, 4u}) {
    const Known k = MakeKnown(**FindTarget("gfx1250"), Instr::v_cvt_pk_u8_f32, 7 * 256 + 3, kDefaultMode);
    absl::StatusOr<DeviceResult> r = RunBatch(k.batch, 32, ModelEvaluator({}), {}, nullptr, cs);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->vdst, k.want) << "clusters of " << cs;
  }
  const Known k = MakeKnown(**FindTarget("gfx1200"), Instr::v_cvt_pk_u8_f32, 300, kDefaultMode);
  EXPECT_THAT(std::string(RunBatch(k.batch, 32, ModelEvaluator({}), {}, nullptr, 2).status().message()),
              HasSubstr("gfx1250 only"));
}

// ---- Planted kernel bugs: a copy of a built code object with one word changed (the words
// from llvm-objdump-22 of the built kernels, the edits hand-encoded from the field layouts in
// isa.h), each caught with a message naming the harness fault.

std::vector<uint8_t> Plant(const CodeObjectView& co, std::vector<uint32_t> from, std::vector<uint32_t> to,
                           int occurrence = 0) {
  std::vector<uint8_t> elf(co.elf.begin(), co.elf.end());
  const size_t bytes = 4 * from.size();
  int seen = 0;
  for (size_t o = 0; o + bytes <= elf.size(); o += 4) {
    if (std::memcmp(elf.data() + o, from.data(), bytes) != 0) continue;
    if (seen++ != occurrence) continue;
    std::memcpy(elf.data() + o, to.data(), 4 * to.size());
    return elf;
  }
  ADD_FAILURE() << "word 0x" << std::hex << from[0] << " not found in " << co.target->name;
  return elf;
}

absl::Status RunPlanted(const CodeObjectView& co, const std::vector<uint8_t>& elf, Instr instr, uint32_t mode) {
  const Known k = MakeKnown(*co.target, instr, 256 + 77, mode);
  return RunBatch(k.batch, co.wave_size, ModelEvaluator({}), elf).status();
}

CodeObjectView Co(const char* target, int wave) {
  absl::StatusOr<CodeObjectView> co = FindCodeObject(target, wave);
  EXPECT_TRUE(co.ok()) << co.status();
  return *co;
}

TEST(InterpPlantedBugTest, TheRealKernelsPass) {
  for (const char* t : {"gfx942", "gfx1100"}) {
    const CodeObjectView co = Co(t, t[3] == '9' ? 64 : 32);
    EXPECT_TRUE(RunPlanted(co, {co.elf.begin(), co.elf.end()}, Instr::v_cvt_pk_u8_f32, 0x008000f0u).ok());
  }
}

// s_load_dwordx8 s[4:11], s[0:1], 0x0 (C00E0100 00000000) reads the pointers from offset 8:
// src1's pointer lands in s[4:5], so v1 is loaded from src1.
TEST(InterpPlantedBugTest, AWrongKernargOffsetIsCaught) {
  const CodeObjectView co = Co("gfx942", 64);
  const absl::Status s = RunPlanted(co, Plant(co, {0xC00E0100, 0x00000000}, {0xC00E0100, 0x00000008}),
                                    Instr::v_cvt_pk_u8_f32, kDefaultMode);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("harness fault"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("v1 (src0) holds src1[0]"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("wrong kernarg offset"));
}

// global_store_dword v1, v4, s[12:13] (DC708000 000C0401) gets offset:4 (DC708004): lane i's
// VDST goes to out[i + 1].
TEST(InterpPlantedBugTest, AStoreToTheWrongLaneSlotIsCaught) {
  const CodeObjectView co = Co("gfx942", 64);
  const absl::Status s = RunPlanted(co, Plant(co, {0xDC708000, 0x000C0401}, {0xDC708004, 0x000C0401}),
                                    Instr::v_cvt_pk_u8_f32, kDefaultMode);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("harness fault: lane 0 stores its result to out[1], lane 1's slot"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("wrong lane slot"));
}

// The pair's stores trade their data registers: out[2i] = v5 (DC708000 000C0501), out[2i + 1]
// = v4 (DC708004 000C0401). v_cvt_pk_f32_fp8 writes v[4:5] on gfx942.
TEST(InterpPlantedBugTest, ThePairsWordsSwappedAreCaught) {
  const CodeObjectView co = Co("gfx942", 64);
  std::vector<uint8_t> elf = Plant(co, {0xDC708000, 0x000C0401}, {0xDC708000, 0x000C0501});
  const CodeObjectView half{co.target, co.wave_size, elf};
  elf = Plant(half, {0xDC708004, 0x000C0501}, {0xDC708004, 0x000C0401});
  const absl::Status s = RunPlanted(co, elf, Instr::v_cvt_pk_f32_fp8, kDefaultMode);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("receives VDST+1 of lane 0, expected VDST+0"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("pair's words are swapped"));
}

// s_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s27 (B91B05C1: SIMM16 id 1, offset 23 at [10:6],
// size-1 0) writes offset 22 instead (B91B0581), on GFX9 and GFX11 (same SOPK word).
TEST(InterpPlantedBugTest, AModeFieldWrittenToTheWrongBitIsCaught) {
  for (const char* t : {"gfx942", "gfx1100"}) {
    const CodeObjectView co = Co(t, t[3] == '9' ? 64 : 32);
    const uint32_t setreg = 0xB91B05C1;
    const absl::Status s = RunPlanted(co, Plant(co, {setreg}, {(setreg & ~0x7c0u) | (22u << 6)}),
                                      Instr::v_cvt_pk_u8_f32, 0x008000f0u);
    ASSERT_FALSE(s.ok()) << t;
    EXPECT_THAT(std::string(s.message()), HasSubstr("harness fault: the instruction runs under MODE 0x004003f0"));
    EXPECT_THAT(std::string(s.message()), HasSubstr("a MODE field is written to the wrong bit"));
  }
}

// s_and_saveexec (gfx942: s_and_saveexec_b64 s[24:25], vcc = BE98206A; gfx1100 wave32:
// s_and_saveexec_b32 s24, vcc_lo = BE98206A) becomes s_nop 0 (BF800000): lanes >= n run.
TEST(InterpPlantedBugTest, AMissingBoundsCheckIsCaught) {
  for (const char* t : {"gfx942", "gfx1100"}) {
    const CodeObjectView co = Co(t, t[3] == '9' ? 64 : 32);
    const absl::Status s = RunPlanted(co, Plant(co, {0xBE98206A}, {0xBF800000}), Instr::v_cvt_pk_u8_f32, kDefaultMode);
    ASSERT_FALSE(s.ok()) << t;
    EXPECT_THAT(std::string(s.message()), HasSubstr("harness fault: a lane >= n accesses memory"));
    EXPECT_THAT(std::string(s.message()), HasSubstr("bounds check is missing"));
  }
}

// The descriptor is read, not assumed: gfx942's COMPUTE_PGM_RSRC2 (found by its RSRC1, RSRC2
// pair in the file) with ENABLE_SGPR_WORKGROUP_ID_X [7] cleared leaves s2 unwritten, which the
// kernel reads; with USER_SGPR_COUNT [5:1] = 3 the load refuses the descriptor.
TEST(InterpPlantedBugTest, ADescriptorThatDisagreesWithTheKernelIsCaught) {
  const CodeObjectView co = Co("gfx942", 64);
  absl::StatusOr<Kernel> k = LoadKernel(*co.target, 64, co.elf);
  ASSERT_TRUE(k.ok()) << k.status();
  const uint32_t rsrc = k->kd.rsrc2;
  const absl::Status no_id = RunPlanted(co, Plant(co, {k->kd.rsrc1, rsrc}, {k->kd.rsrc1, rsrc & ~0x80u}),
                                        Instr::v_cvt_pk_u8_f32, kDefaultMode);
  EXPECT_THAT(std::string(no_id.message()), HasSubstr("s_lshl_b32 s3, s2, 8): reads s2, which nothing has written"));
  const absl::Status count = RunPlanted(co, Plant(co, {k->kd.rsrc1, rsrc}, {k->kd.rsrc1, (rsrc & ~0x3eu) | (3u << 1)}),
                                        Instr::v_cvt_pk_u8_f32, kDefaultMode);
  EXPECT_THAT(std::string(count.message()), HasSubstr("USER_SGPR_COUNT is 3 but the enabled user SGPRs take 2"));
}

// Beyond the five: the wait for the kernarg loads removed (s_waitcnt lgkmcnt(0) = BF8CC07F
// on gfx942 -> s_nop 0) is a read of s23 (KernelArgs::shape) before its load returned: on
// GFX9 the first instruction after the wait takes its VDST words, on GFX11 the compare with 2.
TEST(InterpPlantedBugTest, AMissingWaitIsCaught) {
  const CodeObjectView co = Co("gfx942", 64);
  const absl::Status s = RunPlanted(co, Plant(co, {0xBF8CC07F}, {0xBF800000}), Instr::v_cvt_pk_u8_f32, kDefaultMode);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("s_and_b32 s31, s23, 0xff): reads s23 before the wait"));
  const CodeObjectView rdna = Co("gfx1100", 32);
  // s_waitcnt lgkmcnt(0) on gfx1100: BF89FC07.
  const absl::Status r = RunPlanted(rdna, Plant(rdna, {0xBF89FC07}, {0xBF800000}), Instr::v_cvt_pk_u8_f32, kDefaultMode);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.message()), HasSubstr("s_cmp_eq_u32 s23, 2): reads s23 before the wait"));
}

// ---- Wide lanes (model/base/lanes.h LaneShape): the GFX9 and GFX12.5 kernels load
// multi-dword sources as VGPR tuples (src0 from v36, src1 from v68) and store up to 32 VDST
// words per lane. To reach every shape a kernel takes, not only its rows', the batch runs a one-dword row's words at the site with a wide
// shape (RunBatchAs, GridLaunch::shape) and an evaluator of the test's own: word k of a
// lane's result is WideWord of its operands, which the test checks the VDST against. What is
// checked is the movement: every dword loaded into the register the convention names, every
// word stored to out[i * M + k], the contract's messages when a planted kernel gets it wrong.

// Word k of lane j's result: every source dword of the lane takes part, so a dword loaded into
// the wrong register or from the wrong lane changes it.
uint32_t WideWord(const LaneView& v, size_t j, int k) {
  uint32_t h = 0x9e3779b9u * static_cast<uint32_t>(k + 1) ^ v.vdst_old[j];
  for (int s = 0; s < 3; ++s) {
    const int n = v.shape.src_dwords[s];
    for (int d = 0; d < n; ++d) h = (h ^ v.src(s)[j * n + d]) * 0x01000193u + static_cast<uint32_t>(d);
  }
  return h;
}

Evaluator WideEvaluator() {
  return [](const DeviceBatch& b, absl::Span<uint32_t> vdst) {
    const LaneView v = b.lanes.view();
    const int m = v.shape.dst_words;
    if (vdst.size() != v.size * m) return absl::InternalError("wide evaluator: output size");
    for (size_t j = 0; j < v.size; ++j) {
      for (int k = 0; k < m; ++k) vdst[j * m + k] = WideWord(v, j, k);
    }
    return absl::OkStatus();
  };
}

// A batch of `n` lanes of `shape` whose words are v_cvt_pk_u8_f32's (the site's instruction).
DeviceBatch WideBatch(const TargetTraits& t, const LaneShape& shape, uint32_t n, uint32_t mode) {
  DeviceBatch b = MakeKnown(t, Instr::v_cvt_pk_u8_f32, 1, mode).batch;
  b.lanes.SetShape(shape);
  b.lanes.Clear();
  uint32_t x = 0x2545f491u;
  auto next = [&x] { x ^= x << 13, x ^= x >> 17, x ^= x << 5; return x; };
  std::vector<uint32_t> s[3];
  for (uint32_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      s[k].resize(shape.src_dwords[k]);
      for (uint32_t& w : s[k]) w = next();
    }
    b.lanes.AddWide(s[0].data(), s[1].data(), s[2].data(), next());
  }
  return b;
}

absl::Status RunWide(const CodeObjectView& co, absl::Span<const uint8_t> elf, const LaneShape& shape, uint32_t n,
                     std::vector<uint32_t>* vdst = nullptr) {
  const DeviceBatch b = WideBatch(*co.target, shape, n, 0x008000f0u);
  LANEDIFF_ASSIGN_OR_RETURN(DeviceResult r, RunBatchAs(b, shape, co.wave_size, WideEvaluator(), elf));
  if (vdst != nullptr) *vdst = r.vdst;
  std::vector<uint32_t> want(static_cast<size_t>(n) * shape.dst_words);
  LANEDIFF_RETURN_IF_ERROR(WideEvaluator()(b, absl::MakeSpan(want)));
  if (r.vdst != want) return absl::InternalError("VDST differs from the evaluator's words");
  return absl::OkStatus();
}

// Every GFX9 code object moves the shapes of the gfx950 block-scaled conversions (6 -> 32:
// pk32_f32_fp6; 16+16 -> 6: 2xpk16_fp6_f32; 1 -> 2; 32 -> 6) and the kernel's capacity
// (32 and 16 source dwords, 32 VDST words) across two full workgroups and a partial third.
TEST(InterpWideLaneTest, TheGfx9KernelMovesEveryShapeItTakes) {
  const LaneShape shapes[] = {{{6, 1, 1}, 32}, {{16, 16, 1}, 6}, {{1, 1, 1}, 2}, {{32, 1, 1}, 6}, {{32, 16, 1}, 32}};
  for (const char* t : {"gfx908", "gfx942", "gfx950"}) {
    const CodeObjectView co = Co(t, 64);
    for (const LaneShape& shape : shapes) {
      std::vector<uint32_t> vdst;
      const absl::Status s = RunWide(co, co.elf, shape, 549, &vdst);
      EXPECT_TRUE(s.ok()) << t << " " << int{shape.src_dwords[0]} << "/" << int{shape.src_dwords[1]} << " -> "
                          << int{shape.dst_words} << ": " << s;
      EXPECT_EQ(vdst.size(), size_t{549} * shape.dst_words);
    }
  }
  // The other families' kernels take one dword per source and at most a pair.
  const CodeObjectView rdna = Co("gfx1100", 32);
  const absl::Status s = RunWide(rdna, rdna.elf, {{6, 1, 1}, 32}, 64);
  EXPECT_THAT(std::string(s.message()), HasSubstr("kernel does not take 6/1/1 source dwords and 32 VDST words"));
  EXPECT_TRUE(IsUnsupported(s)) << s;
}

// The GFX12.5 kernel (gfx1250, gfx1251; wave32) moves the shapes of gfx1250's tuple rows (2 ->
// 8: v_cvt_scale_pk8_f32_fp8; 1 -> 4: _pk8_f16_fp4; 8 -> 2: v_cvt_scalef32_pk8_fp8_f32; 4 ->
// 1: _pk8_fp4_f16; 16 -> 3: _pk16_fp6_f32; 8 -> 3: _pk16_fp6_f16) and the GFX9 kernel's
// capacity (32 and 16 source dwords, 32 VDST words: code_object.h KernelCapacity) across
// workgroups of 256 lanes and a partial one. A tuple in src2 no kernel takes: "unsupported".
TEST(InterpWideLaneTest, TheGfx1250KernelMovesEveryShapeItTakes) {
  const LaneShape shapes[] = {{{2, 1, 1}, 8}, {{1, 1, 1}, 4},  {{8, 1, 1}, 2},
                              {{4, 1, 1}, 1}, {{16, 1, 1}, 3}, {{8, 1, 1}, 3}, {{32, 16, 1}, 32}};
  for (const char* t : {"gfx1250", "gfx1251"}) {
    const CodeObjectView co = Co(t, 32);
    for (const LaneShape& shape : shapes) {
      std::vector<uint32_t> vdst;
      const absl::Status s = RunWide(co, co.elf, shape, 549, &vdst);
      EXPECT_TRUE(s.ok()) << t << " " << int{shape.src_dwords[0]} << "/" << int{shape.src_dwords[1]} << " -> "
                          << int{shape.dst_words} << ": " << s;
      EXPECT_EQ(vdst.size(), size_t{549} * shape.dst_words);
    }
  }
  const CodeObjectView co = Co("gfx1250", 32);
  const absl::Status s = RunWide(co, co.elf, {{1, 1, 2}, 1}, 64);
  EXPECT_THAT(std::string(s.message()), HasSubstr("GFX1250 kernel does not take 1/1/2 source dwords and 1 VDST words"));
  EXPECT_TRUE(IsUnsupported(s)) << s;
}

// The store of VDST+5 (global_store_dword v1, v9, s[12:13] offset:20 = DC708014 000C0901)
// goes one slot on (offset:24 = DC708018): lane 0's word 5 lands in out[6].
TEST(InterpWideLaneTest, AStoreOneSlotOffIsCaught) {
  const CodeObjectView co = Co("gfx950", 64);
  const absl::Status s = RunWide(co, Plant(co, {0xDC708014, 0x000C0901}, {0xDC708018, 0x000C0901}), {{6, 1, 1}, 32}, 300);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("harness fault: out[6] receives VDST+5 of lane 0, expected VDST+6"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("a store one slot off"));
}

// The src0 tuple's first dword loaded through the src1 pointer (global_load_dword v36, v8,
// s[4:5] = DC508000 24040008 -> SADDR s[6:7] = 24060008), with src1 as wide as src0 so the
// load stays in a buffer.
TEST(InterpWideLaneTest, AWrongKernargPointerForATupleIsCaught) {
  const CodeObjectView co = Co("gfx950", 64);
  const absl::Status s = RunWide(co, Plant(co, {0xDC508000, 0x24040008}, {0xDC508000, 0x24060008}), {{6, 6, 1}, 32}, 300);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("lane 0's v36 (src0 dword 0) holds src1[0], expected src0[0]"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("wrong kernarg offset, buffer pointer or lane offset"));
}

// The tuple's lane offset taken with src1's stride (v_mul_u32_u24_e32 v8, s18, v0 = 10100012
// -> s19 = 10100013; src1 is one dword, 4 bytes a lane): lane 1 loads from src0[1].
TEST(InterpWideLaneTest, AWrongTupleStrideIsCaught) {
  const CodeObjectView co = Co("gfx950", 64);
  const absl::Status s = RunWide(co, Plant(co, {0x10100012}, {0x10100013}), {{6, 1, 1}, 32}, 300);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("lane 1's v36 (src0 dword 0) holds src0[1], expected src0[6]"));
}

// The same on gfx1250 (v_mul_u32_u24_e32 v8, s18, v0 = 16100012 -> s19 = 16100013),
// with v_cvt_scalef32_pk8_fp8_f32's shape: lane 1 loads its first dword from src0[1], not [8].
TEST(InterpWideLaneTest, AWrongTupleStrideIsCaughtOnGfx1250) {
  const CodeObjectView co = Co("gfx1250", 32);
  const absl::Status s = RunWide(co, Plant(co, {0x16100012}, {0x16100013}), {{8, 1, 1}, 2}, 300);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("lane 1's v36 (src0 dword 0) holds src0[1], expected src0[8]"));
}

// gfx1250's store of VDST+2 (global_store_b32 v1, v6, s[12:13] offset:8 = EE06800C 03000000
// 00000801, llvm-mc-22) one slot on (offset:12 = ... 00000C01), with
// v_cvt_scalef32_pk16_fp6_f32's shape (16 -> 3): lane 0's word 2 lands at byte 0 * 12 + 12,
// out[3], the first word of lane 1's slot.
TEST(InterpWideLaneTest, AStoreOneSlotOffIsCaughtOnGfx1250) {
  const CodeObjectView co = Co("gfx1250", 32);
  const absl::Status s = RunWide(co, Plant(co, {0xEE06800C, 0x03000000, 0x00000801}, {0xEE06800C, 0x03000000, 0x00000C01}),
                                 {{16, 1, 1}, 3}, 300);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("lane 0 stores its result to out[3], lane 1's slot"));
}

// KernelArgs::shape is the host's promise of the buffers' layout: a kernarg shape that is not
// the site's lane shape is refused before any wave runs.
TEST(InterpWideLaneTest, AShapeWordThatDisagreesIsRefused) {
  const CodeObjectView co = Co("gfx950", 64);
  absl::StatusOr<Kernel> k = LoadKernel(*co.target, 64, co.elf);
  ASSERT_TRUE(k.ok()) << k.status();
  KernelArgs args;
  args.shape = KernelShapeWord({{6, 1, 1}, 32});
  FlatMemory mem;
  mem.Add("kernarg", reinterpret_cast<uintptr_t>(&args), sizeof(args), false);
  GridLaunch g;
  g.kernarg = reinterpret_cast<uintptr_t>(&args);
  g.contract = Contract{args};
  const absl::Status s = RunGrid(*k, g, mem, WideEvaluator());
  EXPECT_THAT(std::string(s.message()), HasSubstr("KernelArgs::shape is 0x00000520 but the instruction moves 0x00000001"));
}

// gfx1250: the s_nop 0 between a MODE s_setreg and s_set_vgpr_msb (BF800000 BF860000) removed
// (the s_setreg_imm32 at the entry followed directly by s_set_vgpr_msb 0).
TEST(InterpPlantedBugTest, Gfx1250VgprMsbHazardIsCaught) {
  const CodeObjectView co = Co("gfx1250", 32);
  const absl::Status s = RunPlanted(co, Plant(co, {0xB9800641, 0x00000001, 0xBF800000, 0xBF860000},
                                              {0xBF800000, 0xB9800641, 0x00000001, 0xBF860000}),
                                    Instr::v_cvt_pk_u8_f32, kDefaultMode);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("s_set_vgpr_msb right after an s_setreg of MODE"));
}

}  // namespace
}  // namespace lanediff::interp
