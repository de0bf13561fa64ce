// Tests of the built code objects and the patcher, against independent tools: llvm-mc-22
// produces the instruction words, llvm-objdump-22 disassembles what the binary embeds, and a
// hand encoder below builds raw words from the docs/semantics.md §2 field layout (checked against
// the golden words there). objdump drops some modifier bits (model/isa/llvm_differences.cc), so
// every check compares the bytes objdump prints, not only its text.
#include "device_harness/code_object.h"
#include "device_harness/kernel_state.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "device_harness/register_convention.h"
#include "model/isa/vop3.h"
#include "model/targets/pair_sample_test_util.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

using ::testing::HasSubstr;

// ---------------------------------------------------------------------------------------------
// Independent helpers.

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout and stderr
};

CommandResult RunCommand(const std::string& cmd) {
  CommandResult r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string Tool(absl::string_view name) { return absl::StrCat(LANEDIFF_LLVM_BIN, "/", name); }

std::string WriteTemp(absl::string_view name, absl::Span<const uint8_t> bytes) {
  const std::string path = absl::StrCat(testing::TempDir(), "/lanediff_co_test_", getpid(), "_", name);
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

// A VOP3 word from its fields (docs/semantics.md §2): dword0 VDST[7:0] ABS[10:8] OPSEL[14:11]
// CLAMP[15] OP[25:16] ENC[31:26]; dword1 SRC0[40:32] SRC1[49:41] SRC2[58:50] OMOD[60:59]
// NEG[63:61].
struct Fields {
  uint32_t vdst = 4, abs = 0, opsel = 0, clamp = 0, op = 0, src0 = 257, src1 = 258, src2 = 259,
           omod = 0, neg = 0;
};
std::vector<uint32_t> HandEncode(Family family, const Fields& f) {
  const uint32_t enc = family == Family::gfx9 ? 0b110100 : 0b110101;
  return {f.vdst | f.abs << 8 | f.opsel << 11 | f.clamp << 15 | f.op << 16 | enc << 26,
          f.src0 | f.src1 << 9 | f.src2 << 18 | f.omod << 27 | f.neg << 29};
}

// One disassembled instruction: address, text, and the dwords objdump printed.
struct Line {
  uint64_t address = 0;
  std::string text;
  std::vector<uint32_t> words;
};
struct Disassembly {
  std::vector<Line> lines;
  std::map<std::string, uint64_t> labels;
};

Disassembly ParseObjdump(const std::string& out) {
  Disassembly d;
  for (absl::string_view raw : absl::StrSplit(out, '\n')) {
    std::string line(absl::StripAsciiWhitespace(raw));
    // "0000000000001878 <lanediff_patch_site>:"
    if (absl::EndsWith(line, ">:")) {
      const size_t lt = line.find(" <");
      uint64_t addr = 0;
      if (lt != std::string::npos && absl::SimpleHexAtoi(line.substr(0, lt), &addr)) {
        d.labels[line.substr(lt + 2, line.size() - lt - 4)] = addr;
      }
      continue;
    }
    // "v_cvt_pk_u8_f32 v4, v1, v2, v3     // 000000001878: D1DD0004 040E0501"
    const size_t slash = line.find("// ");
    if (slash == std::string::npos) continue;
    std::string rest = line.substr(slash + 3);
    const size_t colon = rest.find(':');
    if (colon == std::string::npos) continue;
    Line l;
    if (!absl::SimpleHexAtoi(rest.substr(0, colon), &l.address)) continue;
    l.text = std::string(absl::StripAsciiWhitespace(line.substr(0, slash)));
    std::string bytes = rest.substr(colon + 1);
    const size_t lt = bytes.find('<');  // branch targets: "BFA50023 <lanediff_patch_site+0x34>"
    if (lt != std::string::npos) bytes = bytes.substr(0, lt);
    for (absl::string_view w : absl::StrSplit(bytes, ' ', absl::SkipWhitespace())) {
      uint32_t v = 0;
      if (absl::SimpleHexAtoi(w, &v)) l.words.push_back(v);
    }
    d.lines.push_back(l);
  }
  return d;
}

std::string MattrFor(int wave) { return absl::StrCat("--mattr=+wavefrontsize", wave); }

Disassembly Objdump(const CodeObjectView& co, absl::Span<const uint8_t> bytes,
                    absl::string_view tag) {
  const std::string path =
      WriteTemp(absl::StrCat(co.target->name, "_w", co.wave_size, "_", tag, ".co"), bytes);
  CommandResult r = RunCommand(absl::StrCat(Tool("llvm-objdump"), " -d ", MattrFor(co.wave_size), " ", path));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::remove(path.c_str());
  return ParseObjdump(r.out);
}

// Objdump of several variants of one code object in one llvm-objdump process (its start-up is
// most of a call's time): the output has a "PATH:\tfile format ..." header per file, in order.
std::vector<Disassembly> ObjdumpEach(const CodeObjectView& co,
                                     const std::vector<std::vector<uint8_t>>& variants,
                                     absl::string_view tag) {
  std::vector<std::string> paths;
  for (size_t i = 0; i < variants.size(); ++i) {
    paths.push_back(WriteTemp(absl::StrCat(co.target->name, "_w", co.wave_size, "_", tag, i, ".co"),
                              variants[i]));
  }
  CommandResult r = RunCommand(absl::StrCat(Tool("llvm-objdump"), " -d ", MattrFor(co.wave_size),
                                            " ", absl::StrJoin(paths, " ")));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::vector<Disassembly> out;
  for (size_t i = 0; i < paths.size(); ++i) {
    const size_t from = r.out.find(paths[i] + ":\tfile format");
    const size_t to = i + 1 < paths.size() ? r.out.find(paths[i + 1] + ":\tfile format") : r.out.size();
    EXPECT_TRUE(from != std::string::npos && to != std::string::npos && from < to)
        << "llvm-objdump's output has no section for " << paths[i] << ":\n" << r.out;
    out.push_back(from < to && to != std::string::npos ? ParseObjdump(r.out.substr(from, to - from))
                                                      : Disassembly{});
    std::remove(paths[i].c_str());
  }
  return out;
}

// llvm-mc's encoding of each line of `text` on `target`.
std::vector<std::vector<uint32_t>> Assemble(absl::string_view target, int wave,
                                            const std::vector<std::string>& lines) {
  std::string src;
  for (const std::string& l : lines) absl::StrAppend(&src, l, "\n");
  const std::string path = absl::StrCat(testing::TempDir(), "/lanediff_mc_", getpid(), ".s");
  std::ofstream(path) << src;
  CommandResult r = RunCommand(absl::StrCat(Tool("llvm-mc"), " -triple=amdgcn-amd-amdhsa -mcpu=", target,
                                     " ", MattrFor(wave), " -show-encoding ", path));
  std::remove(path.c_str());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::vector<std::vector<uint32_t>> out;
  for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
    const size_t e = line.find("encoding: [");
    if (e == absl::string_view::npos) continue;
    absl::string_view list = line.substr(e + 11);
    list = list.substr(0, list.find(']'));
    std::vector<uint8_t> bytes;
    for (absl::string_view b : absl::StrSplit(list, ',')) {
      uint32_t v = 0;
      EXPECT_TRUE(absl::SimpleHexAtoi(absl::StripAsciiWhitespace(b), &v)) << line;
      bytes.push_back(static_cast<uint8_t>(v));
    }
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    out.push_back(words);
  }
  EXPECT_EQ(out.size(), lines.size()) << r.out;
  return out;
}

const Line* LineAt(const Disassembly& d, uint64_t addr) {
  for (const Line& l : d.lines) {
    if (l.address == addr) return &l;
  }
  return nullptr;
}

size_t IndexOf(const Disassembly& d, uint64_t addr) {
  for (size_t i = 0; i < d.lines.size(); ++i) {
    if (d.lines[i].address == addr) return i;
  }
  return d.lines.size();
}

// Finds `needles` in order among lines[begin, end); returns the index after the last match,
// or SIZE_MAX with the first missing needle in *missing.
size_t FindInOrder(const Disassembly& d, size_t begin, size_t end,
                   const std::vector<std::string>& needles, std::string* missing) {
  size_t i = begin;
  for (const std::string& n : needles) {
    while (i < end && d.lines[i].text != n) ++i;
    if (i == end) {
      *missing = n;
      return SIZE_MAX;
    }
    ++i;
  }
  return i;
}

// ---------------------------------------------------------------------------------------------

TEST(HandEncoderTest, MatchesSemanticsGoldenWords) {
  // docs/semantics.md §2: gfx9 `v_cvt_pk_u8_f32 v5, v1, v2, s3` = 05 00 dd d1 01 05 0e 00.
  Fields f{.vdst = 5, .op = 477, .src0 = 257, .src1 = 258, .src2 = 3};
  EXPECT_EQ(HandEncode(Family::gfx9, f), (std::vector<uint32_t>{0xd1dd0005, 0x000e0501}));
  // gfx12 `v_cvt_sr_fp8_f32 v1, v2, v3` = 01 00 6b d7 02 07 02 00.
  Fields g{.vdst = 1, .op = 875, .src0 = 258, .src1 = 259, .src2 = 0};
  EXPECT_EQ(HandEncode(Family::gfx12, g), (std::vector<uint32_t>{0xd76b0001, 0x00020702}));
}

TEST(CodeObjectRegistryTest, EveryTargetAndWaveSizeHasACodeObject) {
  size_t expected = 0;
  for (const TargetTraits& t : AllTargets()) {
    for (int wave : {32, 64}) {
      const bool supported = wave == 32 ? t.wave32 : t.wave64;
      absl::StatusOr<CodeObjectView> co = FindCodeObject(t.name, wave);
      if (!supported) {
        EXPECT_FALSE(co.ok()) << t.name << " wave" << wave << " is not a wave size of the target";
        continue;
      }
      ++expected;
      ASSERT_TRUE(co.ok()) << co.status();
      EXPECT_EQ(co->target, &t);
      EXPECT_EQ(co->wave_size, wave);
      EXPECT_GT(co->elf.size(), 1000u);
    }
  }
  EXPECT_EQ(AllCodeObjects().size(), expected);
  for (const CodeObjectView& co : AllCodeObjects()) EXPECT_NE(co.target, nullptr);
}

TEST(CodeObjectRegistryTest, ErrorsNameTheProblem) {
  absl::StatusOr<CodeObjectView> co = FindCodeObject("gfx942", 32);
  ASSERT_FALSE(co.ok());
  EXPECT_THAT(co.status().message(), HasSubstr("no wave32 device kernel for gfx942; built: wave64"));
  EXPECT_THAT(FindCodeObject("gfx1234", 32).status().message(), HasSubstr("unknown target 'gfx1234'"));
}

TEST(CodeObjectTest, EmbeddedBytesEqualTheBuiltFiles) {
  for (const CodeObjectView& co : AllCodeObjects()) {
    const std::string path =
        absl::StrCat(LANEDIFF_CODE_OBJECT_DIR, "/", co.target->name, "_w", co.wave_size, ".co");
    std::ifstream f(path, std::ios::binary);
    ASSERT_TRUE(f) << path;
    std::string file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(file.size(), co.elf.size()) << path;
    EXPECT_TRUE(file.size() == co.elf.size() && std::memcmp(file.data(), co.elf.data(), file.size()) == 0)
        << path;
  }
}

// The placeholder at every patch site is the first row of model/instrs.def (CMake fills it in,
// device_harness/CMakeLists.txt) as `<mnemonic> v4, v1, v2, v3` then `s_nop 0`, with the
// family's opcode of that row (today v_cvt_pk_u8_f32: docs/semantics.md §1).
TEST(CodeObjectTest, PatchSiteHoldsThePlaceholder) {
  for (const CodeObjectView& co : AllCodeObjects()) {
    SCOPED_TRACE(absl::StrCat(co.target->name, " wave", co.wave_size));
    absl::StatusOr<PatchSiteWords> w = ReadPatchSite(co.elf);
    ASSERT_TRUE(w.ok()) << w.status();
    std::vector<uint32_t> want = HandEncode(
        co.target->family, Fields{.op = static_cast<uint32_t>(co.target->Opcode(kAllInstrs.front()))});
    EXPECT_EQ((*w)[0], want[0]);
    EXPECT_EQ((*w)[1], want[1]);
    EXPECT_EQ((*w)[2], kSNop0);
  }
}

// gfx1250: the hardware entry sequence current LLVM requires, first in the kernel.
void ExpectGfx1250Prologue(const CodeObjectView& co, const Disassembly& d) {
  // The hardware entry sequence current LLVM requires (llvm-project #216897; the MC
  // prologue check): these three instructions first, in this order.
  ASSERT_GE(d.lines.size(), 3u);
  EXPECT_EQ(d.lines[0].text, "s_mov_b64 s[64:65], 0");
  EXPECT_EQ(d.lines[1].text, "v_nop");
  EXPECT_EQ(d.lines[2].text, "global_prefetch_b8 v0, s[64:65] scope:SCOPE_SE");
  // And by the embedded bytes, not only objdump's text (which can drop bits): the three
  // instructions are llvm-mc-22's encoding of the sequence, one after the other from the
  // kernel's first byte. llvm-mc-22 does not require the prologue itself, so this is the
  // check.
  const std::vector<std::vector<uint32_t>> want =
      Assemble(co.target->name, co.wave_size,
               {"s_mov_b64 s[64:65], 0", "v_nop",
                "global_prefetch_b8 v0, s[64:65] scope:SCOPE_SE th:TH_LOAD_RT"});
  ASSERT_EQ(want.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(d.lines[i].words, want[i]) << d.lines[i].text;
  EXPECT_EQ(d.lines[1].address, d.lines[0].address + 4 * want[0].size());
  EXPECT_EQ(d.lines[2].address, d.lines[1].address + 4 * want[1].size());
}

// Every MODE write (s_setreg) guarded as its family needs: on gfx1250 two v_nop before, s_nop 0
// and s_set_vgpr_msb 0 after; on GFX12+ s_wait_alu before a write from an SGPR.
void ExpectModeWritesGuarded(Family fam, const Disassembly& d) {
  // gfx1250: every MODE write is followed by s_nop 0 and s_set_vgpr_msb 0 (the VGPR-MSB note
  // in kernels/gfx1250.s); other families have no s_set_vgpr_msb.
  for (size_t i = 0; i < d.lines.size(); ++i) {
    if (!absl::StartsWith(d.lines[i].text, "s_setreg")) continue;
    if (fam == Family::gfx1250) {
      ASSERT_LT(i + 2, d.lines.size());
      EXPECT_EQ(d.lines[i + 1].text, "s_nop 0") << "after " << d.lines[i].text;
      EXPECT_EQ(d.lines[i + 2].text, "s_set_vgpr_msb 0") << "after " << d.lines[i].text;
    }
    // gfx1250 A0: two v_nop right before every MODE write (kernels/gfx1250.s).
    const size_t nops = fam == Family::gfx1250 ? 2 : 0;
    ASSERT_GE(i, nops + 1);
    for (size_t k = 1; k <= nops; ++k) EXPECT_EQ(d.lines[i - k].text, "v_nop") << "before " << d.lines[i].text;
    if (fam == Family::gfx12 || fam == Family::gfx1250) {
      if (d.lines[i].text.find("), s") != std::string::npos) {
        EXPECT_EQ(d.lines[i - 1 - nops].text, "s_wait_alu depctr_sa_sdst(0)") << "before " << d.lines[i].text;
      }
    }
  }
}

// The one-word path's branch (after the site at `at`) skips exactly the store of v5 and lands
// on s_endpgm. The tuple kernels' (GFX9, GFX12.5) stores of VDST+k (k = 1..31) each follow a
// compare of M with k and a branch to s_endpgm: store k goes to offset 4k from v[4+k].
void ExpectBranchSkipsPairStore(const Disassembly& d, size_t at, const std::string& store, bool tuples) {
  if (tuples) {
    int k = 1;
    for (size_t i = at + 2; i + 2 < d.lines.size(); ++i) {
      if (!absl::StartsWith(d.lines[i].text, "s_cmp_eq_u32 s28, ")) continue;
      EXPECT_EQ(d.lines[i].text, absl::StrCat("s_cmp_eq_u32 s28, ", k));
      EXPECT_TRUE(absl::StartsWith(d.lines[i + 1].text, "s_cbranch_scc1")) << d.lines[i + 1].text;
      EXPECT_EQ(d.lines[i + 2].text, absl::StrCat(store, " v1, v", 4 + k, ", s[12:13] offset:", 4 * k));
      const uint64_t target = d.lines[i + 1].address + 4 + 4 * static_cast<int16_t>(d.lines[i + 1].words[0] & 0xffffu);
      EXPECT_EQ(target, d.lines.back().address) << "the branch after VDST+" << k - 1 << " ends the kernel";
      EXPECT_EQ(d.lines.back().text, "s_endpgm");
      ++k;
    }
    EXPECT_EQ(k, 32) << "stores of VDST+1 .. VDST+31";
    return;
  }
  for (size_t i = at + 2; i + 2 < d.lines.size(); ++i) {
    if (!absl::StartsWith(d.lines[i].text, "s_cbranch_scc1")) continue;
    EXPECT_EQ(d.lines[i + 1].text, store + " v1, v5, s[12:13] offset:4");
    EXPECT_EQ(d.lines[i + 2].text, "s_endpgm");
    // SOPP SIMM16: the branch target is PC + 4 + 4 * simm16 (skip the 8-byte store).
    EXPECT_EQ(d.lines[i + 2].address, d.lines[i].address + 4 + 4 * (d.lines[i].words[0] & 0xffffu));
  }
}

// Between the site and the last store nothing writes v4 or v5 (the result; on the tuple
// kernels, GFX9 and GFX12.5, v4..v35), nor v0 (the lane index the store offset comes from); v1
// is written once, by the offset itself; the MODE readback and its offset go to v6, v7 (tuple
// kernels: v2, v3, sources dead by then).
void ExpectResultUntouchedAfterSite(const Disassembly& d, size_t at, bool tuples) {
  int v1_writes = 0;
  for (size_t i = at + 2; i < d.lines.size(); ++i) {
    const std::string& t = d.lines[i].text;
    if (!absl::StartsWith(t, "v_") || t == "v_nop") continue;
    const std::string dst = t.substr(t.find(' ') + 1, t.find(',') - t.find(' ') - 1);
    EXPECT_TRUE(dst == (tuples ? "v2" : "v6") || dst == (tuples ? "v3" : "v7") || dst == "v1") << t;
    v1_writes += dst == "v1";
  }
  EXPECT_EQ(v1_writes, 1);
}

// s23 = KernelArgs::shape. GFX10-GFX12: s31 = log2 of a lane's bytes in out (3: a pair,
// else 2). The tuple kernels (GFX9, GFX12.5): s31 = 4M (M = shape[7:0]), s16/s17 = src0/src1
// dwords - 1, s18/s19 their bytes per lane (`add` is s_add_i32, GFX12's s_add_co_i32); after
// the lane loads of v1..v4 each tuple (v36.., v68..) is loaded from its lane offset (i times
// those bytes, v8 / v9) unless the source is one dword. Inserted into `before` after the three
// kernarg loads and (tuple kernels) after the load of v4.
void AddShapeLines(std::vector<std::string>* before, const std::string& load, bool tuples,
                   const std::string& add) {
  const std::vector<std::string> shape_lines =
      tuples ? std::vector<std::string>{"s_and_b32 s31, s23, 0xff", "s_lshl_b32 s31, s31, 2",
                                        "s_bfe_u32 s16, s23, 0x80008", "s_bfe_u32 s17, s23, 0x80010",
                                        add + " s18, s16, 1", "s_lshl_b32 s18, s18, 2",
                                        add + " s19, s17, 1", "s_lshl_b32 s19, s19, 2"}
             : std::vector<std::string>{"s_cmp_eq_u32 s23, 2", "s_cselect_b32 s31, 3, 2"};
  before->insert(before->begin() + 3, shape_lines.begin(), shape_lines.end());
  if (!tuples) return;
  const std::vector<std::string> tuple_lines = {
      "s_cmp_eq_u32 s16, 0", "v_mul_u32_u24_e32 v8, s18, v0", load + " v36, v8, s[4:5]",
      load + " v37, v8, s[4:5] offset:4", load + " v67, v8, s[4:5] offset:124",
      "s_cmp_eq_u32 s17, 0", "v_mul_u32_u24_e32 v9, s19, v0", load + " v68, v9, s[6:7]",
      load + " v83, v9, s[6:7] offset:60"};
  const auto at_loads = std::find(before->begin(), before->end(), load + " v4, v5, s[10:11]");
  before->insert(at_loads + 1, tuple_lines.begin(), tuple_lines.end());
}

// The tuple kernels (GFX9, GFX12.5) after the site: the readback's offset n * 4M
// (s_mul_i32), readback and offset in v2, v3; MODE restored; the lane's offset i * 4M; VDST+k
// for k < M (ExpectBranchSkipsPairStore).
std::vector<std::string> TupleLinesAfterSite(const std::string& mode, const std::string& store) {
  return {"s_getreg_b32 s29, hwreg(" + mode + ")",
          "s_mul_i32 s30, s14, s31",
          "v_mov_b32_e32 v2, s29",
          "v_mov_b32_e32 v3, s30",
          "s_and_b32 s28, s26, 0xff",
          "s_bfe_u32 s27, s26, 0x10017",
          "s_setreg_b32 hwreg(" + mode + ", 0, 8), s28",
          "s_setreg_b32 hwreg(" + mode + ", 23, 1), s27",
          "v_mul_u32_u24_e32 v1, s31, v0",
          store + " v1, v4, s[12:13]",
          store + " v3, v2, s[12:13]",
          "s_and_b32 s28, s23, 0xff",
          "s_cmp_eq_u32 s28, 1",
          store + " v1, v5, s[12:13] offset:4",
          store + " v1, v35, s[12:13] offset:124",
          "s_endpgm"};
}

// What llvm-objdump-22 shows around the patch site of every embedded code object.
TEST(CodeObjectTest, ObjdumpShowsTheKernelAroundThePatchSite) {
  for (const CodeObjectView& co : AllCodeObjects()) {
    SCOPED_TRACE(absl::StrCat(co.target->name, " wave", co.wave_size));
    absl::StatusOr<PatchSite> site = FindPatchSite(co.elf);
    ASSERT_TRUE(site.ok()) << site.status();
    Disassembly d = Objdump(co, co.elf, "plain");
    ASSERT_EQ(d.labels.count("lanediff_kernel"), 1u);
    ASSERT_EQ(d.labels.count("lanediff_patch_site"), 1u);
    EXPECT_EQ(d.labels["lanediff_patch_site"], site->address);
    const size_t at = IndexOf(d, site->address);
    ASSERT_LT(at, d.lines.size()) << "no instruction starts at the patch site";
    const size_t kernel = IndexOf(d, d.labels["lanediff_kernel"]);
    ASSERT_EQ(kernel, 0u);

    const Family fam = co.target->family;
    const bool gfx9 = fam == Family::gfx9, gfx10 = fam == Family::gfx10;
    const bool tuples = KernelCapacity(fam).dst_words > 2;  // a kernel that stores VDST tuples
    const bool gfx12plus = fam == Family::gfx12 || fam == Family::gfx1250;
    const std::string mode = gfx12plus ? "HW_REG_WAVE_MODE" : "HW_REG_MODE";
    const std::string load = gfx9 || gfx10 ? "global_load_dword" : "global_load_b32";
    const std::string store = gfx9 || gfx10 ? "global_store_dword" : "global_store_b32";
    const std::string sload8 = gfx9 || gfx10 ? "s_load_dwordx8" : "s_load_b256";
    const std::string sload4 = gfx9 || gfx10 ? "s_load_dwordx4" : "s_load_b128";
    const std::string loadwait = gfx12plus ? "s_wait_loadcnt 0x0" : "s_waitcnt vmcnt(0)";
    const std::string saveexec = co.wave_size == 64 ? "s_and_saveexec_b64 s[24:25], vcc"
                                                    : "s_and_saveexec_b32 s24, vcc_lo";
    const std::string cmp = co.wave_size == 64 ? "v_cmp_gt_u32_e32 vcc, s14, v0"
                                               : "v_cmp_gt_u32_e32 vcc_lo, s14, v0";
    // Before the site: kernel arguments at the KernelArgs offsets, bounds check, lane loads
    // into v1..v4 (RegisterConvention), MODE saved and set from s15 (KernelArgs::mode).
    std::vector<std::string> before = {
        // GFX10/11 objdump prints a zero offset with no SGPR offset as "null" (SOFFSET=null).
        sload8 + " s[4:11], s[0:1], " + (fam == Family::gfx10 || fam == Family::gfx11 ? "null" : "0x0"),
        sload4 + " s[12:15], s[0:1], 0x20",
        sload4 + " s[20:23], s[0:1], 0x30",
        cmp,
        saveexec,
        load + " v1, v5, s[4:5]",
        load + " v2, v5, s[6:7]",
        load + " v3, v5, s[8:9]",
        load + " v4, v5, s[10:11]",
        "s_getreg_b32 s26, hwreg(" + mode + ")",
        "s_and_b32 s28, s15, 0xff",
        "s_bfe_u32 s27, s15, 0x10017",
        "s_setreg_b32 hwreg(" + mode + ", 0, 8), s28",
        "s_setreg_b32 hwreg(" + mode + ", 23, 1), s27",
        loadwait,
    };
    AddShapeLines(&before, load, tuples, gfx9 ? "s_add_i32" : "s_add_co_i32");
    if (fam == Family::gfx1250) {
      before.insert(before.begin(), "s_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 25, 1), 1");
      ExpectGfx1250Prologue(co, d);
    }
    ExpectModeWritesGuarded(fam, d);
    std::string missing;
    EXPECT_NE(FindInOrder(d, 0, at, before, &missing), SIZE_MAX) << "missing before the site: " << missing;
    // Nothing between the MODE write and the site but waits and s_nop.
    for (size_t i = 0; i < at; ++i) {
      if (absl::StartsWith(d.lines[i].text, "s_setreg_b32 hwreg(" + mode + ", 23, 1)")) {
        for (size_t j = i + 1; j < at; ++j) {
          EXPECT_TRUE(absl::StartsWith(d.lines[j].text, "s_nop") ||
                      absl::StartsWith(d.lines[j].text, "s_wait") ||
                      d.lines[j].text == "s_set_vgpr_msb 0")
              << d.lines[j].text;
        }
      }
    }
    // At the site: the placeholder (8 bytes) and s_nop 0, bytes as printed.
    EXPECT_EQ(d.lines[at].text, absl::StrCat(InstrName(kAllInstrs.front()), " v4, v1, v2, v3"));
    absl::StatusOr<PatchSiteWords> w = ReadPatchSite(co.elf);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(d.lines[at].words, (std::vector<uint32_t>{(*w)[0], (*w)[1]}));
    ASSERT_LT(at + 1, d.lines.size());
    EXPECT_EQ(d.lines[at + 1].address, site->address + 8);
    EXPECT_EQ(d.lines[at + 1].text, "s_nop 0");
    EXPECT_EQ(d.lines[at + 1].words, (std::vector<uint32_t>{kSNop0}));
    // After: MODE read back, MODE restored from s26, the lane's offset in out recomputed from
    // v0 into v1 (i << s31: i * 4, or i * 8 for a pair), v4 stored to out[i * dst_words]
    // (s[12:13]) and the readback to out[n * dst_words] (byte offset n << s31, n = s14 =
    // KernelArgs::n); then, unless one word (s31 = 2), v5 to out[2i + 1]; end.
    std::vector<std::string> after = tuples ? TupleLinesAfterSite(mode, store) : std::vector<std::string>{
        "s_getreg_b32 s29, hwreg(" + mode + ")",  // MODE readback, to out[n * dst_words]
        "s_lshl_b32 s30, s14, s31",
        "v_mov_b32_e32 v6, s29",
        "v_mov_b32_e32 v7, s30",
        "s_and_b32 s28, s26, 0xff",
        "s_bfe_u32 s27, s26, 0x10017",
        "s_setreg_b32 hwreg(" + mode + ", 0, 8), s28",
        "s_setreg_b32 hwreg(" + mode + ", 23, 1), s27",
        "v_lshlrev_b32_e32 v1, s31, v0",
        store + " v1, v4, s[12:13]",
        store + " v7, v6, s[12:13]",
        "s_cmp_eq_u32 s31, 2",
        std::string("s_cbranch_scc1 ") + (gfx12plus ? "3" : "2"),  // over the store of v5 (12 bytes on GFX12+, else 8)
        store + " v1, v5, s[12:13] offset:4",
        "s_endpgm",
    };
    const size_t end = FindInOrder(d, at + 2, d.lines.size(), after, &missing);
    EXPECT_NE(end, SIZE_MAX) << "missing after the site: " << missing;
    ExpectBranchSkipsPairStore(d, at, store, tuples);
    ExpectResultUntouchedAfterSite(d, at, tuples);
  }
}

// ---------------------------------------------------------------------------------------------
// LLVM as the hazard oracle. For every code object and every instruction of its target, llc-22
// compiles IR that does what the kernel does around the MODE writes (save MODE, write
// MODE[7:0] then MODE[23] from the `mode` argument, the instruction on loaded values, write
// them back from the saved copy, store), and the hand-written kernel must have at least the
// wait states LLVM's hazard recognizer puts at each of those gaps, and every hazard
// instruction it emits there (v_nop, s_wait_alu / s_waitcnt_depctr, s_set_vgpr_msb). A VGPR-pair
// writer's IR stores both words (<2 x float>, one 64-bit store of the pair), and the kernel's
// gap from the instruction to its store of v5 (VDST+1) must cover llc's to that store too. A
// tuple row's IR takes vector operands and stores the whole result vector (TupleOracleIr), and
// the kernel's gaps from the instruction to its store of every VDST word, and from the last
// load of a register the instruction reads to the instruction, must cover llc's.

// The kernel's MODE writes as llvm.amdgcn.s.setreg / s.getreg immediates (SIMM16 = id[5:0] |
// offset[10:6] | (size - 1)[15:11], HW_REG_MODE = 1): MODE[7:0] = 1 | 7 << 11 = 14337,
// MODE[23] = 1 | 23 << 6 = 1473, all of MODE = 1 | 31 << 11 = 63489.
constexpr char kOracleIr[] = R"(
declare void @llvm.amdgcn.s.setreg(i32 immarg, i32)
declare i32 @llvm.amdgcn.s.getreg(i32 immarg)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c,
                             ptr addrspace(1) %out, i32 %mode) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %id
  %pb = getelementptr i32, ptr addrspace(1) %b, i32 %id
  %pc = getelementptr i32, ptr addrspace(1) %c, i32 %id
  %x = load float, ptr addrspace(1) %pa
  %y = load i32, ptr addrspace(1) %pb
  %z = load i32, ptr addrspace(1) %pc
  %saved = call i32 @llvm.amdgcn.s.getreg(i32 63489)
  %m0 = and i32 %mode, 255
  %m1s = lshr i32 %mode, 23
  %m1 = and i32 %m1s, 1
  call void @llvm.amdgcn.s.setreg(i32 14337, i32 %m0)
  call void @llvm.amdgcn.s.setreg(i32 1473, i32 %m1)
  %r = @CALL@
  %s0 = and i32 %saved, 255
  %s1s = lshr i32 %saved, 23
  %s1 = and i32 %s1s, 1
  call void @llvm.amdgcn.s.setreg(i32 14337, i32 %s0)
  call void @llvm.amdgcn.s.setreg(i32 1473, i32 %s1)
  @STORE@
  ret void
}
)";

// The scaled SR encoders (S1 a seed, S2 a block scale), as LLVM declares them
// (llvm.amdgcn.cvt.scalef32.sr.{fp8,bf8}.f32: i32 old first, then float src, i32 seed, float
// scale, i32 byte select; llc-22 -mcpu=gfx950 emits the instruction from it); from one 16-bit
// float (llvm.amdgcn.cvt.scalef32.sr.fp8.f16(i32 old, half src, i32 seed, float scale, i32
// byte); bf16: bfloat) S0 is %x16e, Pk16Prelude's element 0; the SR FP4 encoders from two
// (llvm.amdgcn.cvt.scalef32.sr.pk.fp4.f16(i32 old, <2 x half> src, i32 seed, float scale, i32
// byte); bf16: <2 x bfloat>; llc-22 -mcpu=gfx950 emits v_cvt_scalef32_sr_pk_fp4_f16 from it)
// take the vector %x16. gfx1250's unscaled SR encoders from one f16
// (llvm.amdgcn.cvt.sr.fp8.f16(half src, i32 seed, i32 old, i32 byte); llc-22 -mcpu=gfx1250 emits
// the instruction from it): the same element as the scaled ones. Other rows: unchanged.
void ScaledSrCall(const InstrInfo& info, std::vector<std::string>* types,
                  std::vector<std::string>* args) {
  if (info.src[0] == SrcRole::data_f16x2 && info.src[1] == SrcRole::sr_seed &&
      info.src[2] == SrcRole::unused) {
    *types = {"half", "i32", "i32", "i32 immarg"};
    *args = {"half %x16e", "i32 %y", "i32 %z", "i32 0"};
    return;
  }
  if (info.src[1] != SrcRole::sr_seed || info.src[2] != SrcRole::scale_f32) return;
  *types = {"i32", "float", "i32", "float", "i32 immarg"};
  *args = {"i32 %y", "float %x", "i32 %y", "float %zf", "i32 0"};
  if (IsPacked16(info.src[0])) {
    const bool bf16 = info.src[0] == SrcRole::data_bf16x2;
    const bool both = info.output == OutputKind::fp4;  // two elements: the vector
    (*types)[1] = both ? (bf16 ? "<2 x bfloat>" : "<2 x half>") : (bf16 ? "bfloat" : "half");
    (*args)[1] = (*types)[1] + (both ? " %x16" : " %x16e");
  }
}

// The scaled pair encoders (two elements and a block scale into a 16-bit half): their
// intrinsic's types and arguments into `types`, `args` (true), or false for another row. Two f32:
// llvm.amdgcn.cvt.scalef32.pk.{fp8,bf8}.f32(<2 x i16> old, float, float, float scale, i1 word)
// -> <2 x i16>. Two packed 16-bit floats (llc-22 -mcpu=gfx950 emits v_cvt_scalef32_pk_fp8_f16
// from llvm.amdgcn.cvt.scalef32.pk.fp8.f16(<2 x i16> old, <2 x half> src, float scale, i1 word);
// bf16: <2 x bfloat>): S0 is %x16, Pk16Prelude's bitcast.
bool ScaledPairCall(const InstrInfo& info, std::vector<std::string>* types,
                    std::vector<std::string>* args) {
  const bool pk16 = IsPacked16(info.src[0]) && info.src[1] != SrcRole::unused;  // not gfx1250's unscaled
  if (info.write != DstWrite::half_at_opsel_3 || (info.src[2] != SrcRole::scale_f32 && !pk16)) {
    return false;
  }
  if (!pk16) {
    *types = {"<2 x i16>", "float", "float", "float", "i1 immarg"};
    *args = {"<2 x i16> %zv", "float %x", "float %yf", "float %zf", "i1 false"};
    return true;
  }
  const std::string src16 = info.src[0] == SrcRole::data_bf16x2 ? "<2 x bfloat>" : "<2 x half>";
  *types = {"<2 x i16>", src16, "float", "i1 immarg"};
  *args = {"<2 x i16> %zv", src16 + " %x16", "float %yf", "i1 false"};
  return true;
}

// S0 of two packed 16-bit floats as the intrinsic's vector (%x16) and its element 0 (%x16e, the
// one value of the SR encoders), or "" for another row.
std::string Pk16Prelude(const InstrInfo& info) {
  if (!IsPacked16(info.src[0])) return "";
  const char* vec = info.src[0] == SrcRole::data_bf16x2 ? "<2 x bfloat>" : "<2 x half>";
  return absl::StrCat("%x16 = bitcast float %x to ", vec, "\n  %x16e = extractelement ", vec,
                      " %x16, i32 0\n  ");
}

// The oracle IR's f32 and i32 views of its loaded words, before the call.
constexpr char kOracleCasts[] =
    "%yf = bitcast i32 %y to float\n  %zf = bitcast i32 %z to float\n  %xi = bitcast float %x to i32\n  ";

std::vector<std::string> LlcLines(const CodeObjectView& co, Instr instr, const std::string& ir);

// The IR vector type of a VGPR-tuple source (an FP6 tuple: <6 x i32>; 16 f32: <16 x float>;
// packed 16-bit floats: <32 x half>, or gfx1250's <16 x half>) or destination (32 f32: <32 x
// float>; 32 f16 / bf16 in 16 dwords: <32 x half> / <32 x bfloat>; FP6 codes: <6 x i32>, or
// gfx1250's <3 x i32>), as LLVM's IntrinsicsAMDGPU.td declares the FP6/BF6 conversions; "" for
// a role or output this test does not spell.
std::string TupleSrcType(const InstrInfo& info, int s) {
  // gfx950's 32 FP6/BF6 codes (<6 x i32>), gfx1250's 16 (llvm.amdgcn.cvt.scale.pk16.*: <3 x
  // i32>; llc-22 -mcpu=gfx1250 emits `v_cvt_scale_pk16_f32_fp6 v[0:15], v[24:26], s3
  // scale_sel:13` from `<16 x float> @llvm.amdgcn.cvt.scale.pk16.f32.fp6(<3 x i32>, i32, i32
  // immarg)`).
  if (info.src[s] == SrcRole::fp6_x32 || info.src[s] == SrcRole::fp6_x16) {
    return absl::StrCat("<", info.src_dwords(s), " x i32>");
  }
  if (info.src[s] == SrcRole::f32_x16) return absl::StrCat("<", info.src_dwords(s), " x float>");
  // Packed 16-bit floats: 32 in 16 dwords, or gfx1250's 16 in 8 and 8 in 4 (llc-22 lays
  // <32 x half> element j at bits 16j+15:16j; llc-22 -mcpu=gfx1250 takes <16 x half> /
  // <16 x bfloat> in v[N:N+7] and <8 x half> / <8 x bfloat> in v[N:N+3]).
  if (IsPacked16Tuple(info.src[s])) {
    return absl::StrCat("<", 2 * info.src_dwords(s), IsPackedF16(info.src[s]) ? " x half>" : " x bfloat>");
  }
  // gfx1250's eight fp8/bf8 codes in a VGPR pair (LLVM's llvm.amdgcn.cvt.scale.pk8.*: <2 x i32>).
  if (info.src[s] == SrcRole::fp8_x8) return "<2 x i32>";
  // gfx1250's 8-wide encoders from f32: <8 x float> (llc-22 -mcpu=gfx1250 emits
  // `v_cvt_scalef32_pk8_fp8_f32 v[16:17], v[0:7], s2` from llvm.amdgcn.cvt.scalef32.pk8.fp8.f32(
  // <8 x float>, float) -> <2 x i32>, `v_cvt_scalef32_pk8_fp4_f16 v0, v[12:15], s2` from
  // llvm.amdgcn.cvt.scalef32.pk8.fp4.f16(<8 x half>, float) -> i32).
  if (info.src[s] == SrcRole::f32_x8) return "<8 x float>";
  return "";
}
std::string TupleDstType(const InstrInfo& info) {
  const int w = info.dst_words();
  switch (info.output) {
    case OutputKind::f32: return absl::StrCat("<", w, " x float>");
    case OutputKind::f16: return absl::StrCat("<", 2 * w, " x half>");
    case OutputKind::bf16: return absl::StrCat("<", 2 * w, " x bfloat>");
    case OutputKind::fp6: return absl::StrCat("<", w, " x i32>");
    // gfx1250's 8-wide encoders: eight bytes in a <2 x i32>, eight FP4 codes in an i32.
    case OutputKind::fp8:
    case OutputKind::bf8: return info.src_dwords(0) > 1 && w == 2 ? "<2 x i32>" : "";
    case OutputKind::fp4: return info.src_dwords(0) > 2 && w == 1 ? "i32" : "";
    default: return "";
  }
}

// A row with a VGPR tuple (a source of more than one dword, or more than two VDST words).
bool IsTupleRow(const InstrInfo& info) {
  return !info.lane_shape().narrow_sources() || info.dst_words() > 2;
}

// The oracle IR of a tuple row: its intrinsic takes the sources in order, each tuple a vector
// loaded (before the MODE writes) from the source's buffer at the lane's index, each scale a
// float, and returns the destination vector, stored whole. llc-22 -mcpu=gfx950 emits
// `v_cvt_scalef32_pk32_f32_fp6 v[0:31], v[32:37], s6` from `<32 x float>
// @llvm.amdgcn.cvt.scalef32.pk32.f32.fp6(<6 x i32>, float)`, the f16 / bf16 decodes from
// `<32 x half>` / `<32 x bfloat>` ones, and `v_cvt_scalef32_2xpk16_fp6_f32 v[0:5], v[0:15],
// v[16:31], ...` from `<6 x i32> @llvm.amdgcn.cvt.scalef32.2xpk16.fp6.f32(<16 x float>,
// <16 x float>, float)`; from 32 packed 16-bit floats `<6 x i32>
// @llvm.amdgcn.cvt.scalef32.pk32.fp6.f16(<32 x half>, float)` and, with a seed,
// `@llvm.amdgcn.cvt.scalef32.sr.pk32.fp6.f16(<32 x half>, i32, float)` (llc-22 -mcpu=gfx950:
// `v_cvt_scalef32_sr_pk32_fp6_f16 v[16:21], v[0:15], s20, v23`; bf16: <32 x bfloat>). "" for a
// row with a role or output TupleSrcType / TupleDstType do not spell, or a one-dword source that
// is neither a scale nor a seed (that row is not checked here).
std::string TupleOracleIr(const InstrInfo& info, const std::string& fn) {
  const std::string ret = TupleDstType(info);
  if (ret.empty()) return "";
  const char* const kBuf[3] = {"%a", "%b", "%c"};
  const char* const kScale[3] = {"%x", "%yf", "%zf"};
  const char* const kSeed[3] = {"%xi", "%y", "%z"};
  std::string loads;
  std::vector<std::string> types, args;
  for (int i = 0; i < info.sources(); ++i) {
    if (info.src_dwords(i) > 1) {
      const std::string t = TupleSrcType(info, i);
      if (t.empty()) return "";
      absl::StrAppend(&loads, "%pt", i, " = getelementptr ", t, ", ptr addrspace(1) ", kBuf[i],
                      ", i32 %id\n  %t", i, " = load ", t, ", ptr addrspace(1) %pt", i, "\n  ");
      types.push_back(t);
      args.push_back(absl::StrCat(t, " %t", i));
    } else if (info.src[i] == SrcRole::scale_f32) {
      types.push_back("float");
      args.push_back(absl::StrCat("float ", kScale[i]));
    } else if (info.src[i] == SrcRole::sr_seed || info.src[i] == SrcRole::fp4_x8 ||
               info.src[i] == SrcRole::scale_e8m0_x4) {
      // The SR encoders' i32 seed; gfx1250's eight FP4 codes (i32) and E8M0 scale register.
      types.push_back("i32");
      args.push_back(absl::StrCat("i32 ", kSeed[i]));
    } else {
      return "";
    }
  }
  // gfx1250's decodes with an E8M0 scale register take scale_sel as an immediate last
  // (llvm.amdgcn.cvt.scale.pk8.f32.fp8(<2 x i32>, i32, i32 immarg) -> <8 x float>; llc-22
  // -mcpu=gfx1250 emits `v_cvt_scale_pk8_f32_fp8 v[0:7], v[8:9], s2` from it).
  if (info.src[1] == SrcRole::scale_e8m0_x4) {
    types.push_back("i32 immarg");
    args.push_back("i32 0");
  }
  const std::string call = absl::StrCat("%rv = call ", ret, " ", fn, "(", absl::StrJoin(args, ", "), ")");
  const std::string store = absl::StrCat("%po = getelementptr ", ret, ", ptr addrspace(1) %out, i32 %id\n  store ",
                                         ret, " %rv, ptr addrspace(1) %po");
  return absl::StrCat("declare ", ret, " ", fn, "(", absl::StrJoin(types, ", "), ")\n",
                      absl::StrReplaceAll(kOracleIr, {{"  %saved = call", absl::StrCat("  ", loads, "%saved = call")},
                                                      {"%r = @CALL@", absl::StrCat(kOracleCasts, call)},
                                                      {"@STORE@", store}}));
}

// The intrinsic's operands for the row's sources: two packed 16-bit floats as the vector
// Pk16Prelude casts (%x16), an f32 data source or scale as a float (%x, %yf, %zf), the others i32.
void SourceArgs(const InstrInfo& info, std::vector<std::string>* types,
                std::vector<std::string>* args) {
  const char* const kArgs[3] = {"%x", "%y", "%z"};
  for (int i = 0; i < info.sources(); ++i) {
    if (IsPacked16(info.src[i])) {  // two packed 16-bit floats: the vector Pk16Prelude casts
      const std::string vec = info.src[i] == SrcRole::data_bf16x2 ? "<2 x bfloat>" : "<2 x half>";
      types->push_back(vec);
      args->push_back(vec + " %x16");
      continue;
    }
    const bool f = info.src[i] == SrcRole::data_f32 || info.src[i] == SrcRole::scale_f32;
    types->push_back(f ? "float" : "i32");
    args->push_back(absl::StrCat(types->back(), " ",
                                 i == 1 && f   ? "%yf"
                                 : i == 2 && f ? "%zf"
                                 : i == 0 && !f ? "%xi"
                                                : kArgs[i]));
  }
}

// The instruction lines of llc's assembly for @k (comments, directives and labels dropped).
std::vector<std::string> LlcKernelLines(const CodeObjectView& co, Instr instr) {
  // The intrinsic is named after the mnemonic (v_cvt_X_f32 -> llvm.amdgcn.cvt.X.f32, '_' ->
  // '.'), its operands follow the instruction's row: an f32 data source or scale is a float (%x,
  // %y or %z as float), the others i32; an instruction that keeps the old VDST takes it (%z) and its
  // select as an immediate (byte: i32 0; 16-bit half: i1 false).
  const InstrInfo& info = GetInstrInfo(instr);
  absl::string_view mnemonic = InstrName(instr);
  absl::ConsumePrefix(&mnemonic, "v_cvt_");
  const std::string name = absl::StrReplaceAll(mnemonic, {{"_", "."}});
  if (IsTupleRow(info)) {
    const std::string ir = TupleOracleIr(info, absl::StrCat("@llvm.amdgcn.cvt.", name));
    EXPECT_FALSE(ir.empty()) << InstrName(instr) << ": no tuple IR for its roles";
    return ir.empty() ? std::vector<std::string>{} : LlcLines(co, instr, ir);
  }
  std::vector<std::string> types, args;
  SourceArgs(info, &types, &args);
  // 16-bit float results (the gfx950 scaled decodes, LLVM IntrinsicsAMDGPU.td): two in a dword,
  // <2 x half> / <2 x bfloat> (src, scale, i1 word); one f16 into a half, <2 x half> (old, src,
  // scale, i32 byte, i1 high half).
  const bool sixteen = info.output == OutputKind::f16 || info.output == OutputKind::bf16;
  const std::string vec16 = info.output == OutputKind::bf16 ? "<2 x bfloat>" : "<2 x half>";
  // An f32 result from selected bytes (DstWrite::dword): float, and the select an immediate.
  const bool f32_result = !sixteen && info.write == DstWrite::dword;
  // gfx1250's unscaled one-byte decodes to f16: (i32 src, i32 byte) -> half (llc-22
  // -mcpu=gfx1250 emits `v_cvt_f16_fp8_e64 v1, s2 byte_sel:1` from it); the half zero-extended.
  // gfx1250's unscaled packed decodes to two f16: (i16 src) -> <2 x half> (llc-22 -mcpu=gfx1250
  // emits `v_cvt_pk_f16_fp8 v0, v0` from llvm.amdgcn.cvt.pk.f16.fp8); the low half of %xi.
  const bool unscaled_pk16 =
      sixteen && info.src[1] == SrcRole::unused && info.write == DstWrite::dword;
  const bool unscaled16 = sixteen && info.src[1] == SrcRole::unused && !unscaled_pk16;
  const bool pk_f16_enc = IsPackedF16(info.src[0]) && info.src[1] == SrcRole::unused &&
                          info.write == DstWrite::half_at_opsel_3;
  if (unscaled_pk16) {
    types.back() = "i16";
    args.back() = "i16 %xs";
  } else if (unscaled16) {
    types.push_back("i32 immarg");
    args.push_back("i32 0");
  } else if (sixteen && info.write == DstWrite::dword) {
    types.push_back("i1 immarg");
    args.push_back("i1 false");
  } else if (sixteen) {
    types.insert(types.begin(), vec16);
    args.insert(args.begin(), vec16 + " %zh");
    types.push_back("i32 immarg");
    args.push_back("i32 0");
    types.push_back("i1 immarg");
    args.push_back("i1 false");
  } else if (f32_result) {
    types.push_back("i32 immarg");
    args.push_back("i32 0");
  } else if (info.output == OutputKind::fp4) {
    // The FP4 encoder (LLVM IntrinsicsAMDGPU.td): (i32 old, float, float, float scale, i32
    // byte) -> i32; llc-22 refuses the old value after the sources.
    types.insert(types.begin(), "i32");
    args.insert(args.begin(), "i32 %z");
    types.push_back("i32 immarg");
    args.push_back("i32 0");
  } else if (pk_f16_enc) {
    // gfx1250's packed f16 -> fp8/bf8 encoders: (<2 x half>) -> i16, no old value or select
    // (llc-22 -mcpu=gfx1250 emits `v_cvt_pk_fp8_f16 v1, s2` from llvm.amdgcn.cvt.pk.fp8.f16).
  } else if (info.kept == KeptFrom::vdst_old) {
    types.push_back("i32");
    args.push_back("i32 %z");
    const bool half = info.write == DstWrite::half_at_opsel_3;
    types.push_back(half ? "i1 immarg" : "i32 immarg");
    args.push_back(half ? "i1 false" : "i32 0");
  }
  ScaledSrCall(info, &types, &args);
  const bool scaled_pair = ScaledPairCall(info, &types, &args);
  // A VGPR pair (dst_bits 64): <2 x float>, its select an i1 (the word), both words used.
  const bool pair = info.dst_bits == 64;
  if (pair) types.back() = "i1 immarg", args.back() = "i1 false";
  // The FP4 decodes select a byte (OPSEL[1:0]): an i32 index, where the fp8 word decodes take
  // an i1 (llc-22 -mcpu=gfx950 emits v_cvt_scalef32_pk_{f32,f16}_fp4 from (i32, float, i32 0)).
  if (info.fp8_slot == Fp8Slot::fp4 && info.src[0] == SrcRole::fp8_bytes) {
    types.back() = "i32 immarg", args.back() = "i32 0";
  }
  const std::string fn = absl::StrCat("@llvm.amdgcn.cvt.", name);
  const std::string ret = pk_f16_enc    ? "i16"
                          : unscaled16  ? "half"
                          : pair        ? "<2 x float>"
                          : scaled_pair ? "<2 x i16>"
                          : sixteen     ? vec16
                          : f32_result  ? "float"
                                        : "i32";
  const std::string decl = absl::StrCat("declare ", ret, " ", fn, "(", absl::StrJoin(types, ", "), ")\n");
  const std::string call = absl::StrCat("call ", ret, " ", fn, "(", absl::StrJoin(args, ", "), ")");
  const std::string result =
      unscaled_pk16 ? absl::StrCat("%xs = trunc i32 %xi to i16\n  %rh = ", call, "\n  %r = bitcast ",
                                   vec16, " %rh to i32")
      : pk_f16_enc ? absl::StrCat("%rs = ", call, "\n  %r = zext i16 %rs to i32")
      : unscaled16 ? absl::StrCat("%rh = ", call, "\n  %rs = bitcast half %rh to i16\n  %r = zext i16 %rs to i32")
      : pair       ? absl::StrCat("%rv = ", call)
      : sixteen    ? absl::StrCat("%zh = bitcast i32 %z to ", vec16, "\n  %rh = ", call,
                                  "\n  %r = bitcast ", vec16, " %rh to i32")
      : scaled_pair ? absl::StrCat("%zv = bitcast i32 %z to <2 x i16>\n  %rv16 = ", call,
                                   "\n  %r = bitcast <2 x i16> %rv16 to i32")
      : f32_result ? absl::StrCat("%rf = ", call, "\n  %r = bitcast float %rf to i32")
                   : absl::StrCat("%r = ", call);
  // Both words of a pair to out[2 * id], out[2 * id + 1], as the kernel stores them.
  const std::string store =
      pair ? "%po = getelementptr <2 x float>, ptr addrspace(1) %out, i32 %id\n  store <2 x float> %rv, ptr addrspace(1) %po"
           : "%po = getelementptr i32, ptr addrspace(1) %out, i32 %id\n  store i32 %r, ptr addrspace(1) %po";
  const std::string ir = decl + absl::StrReplaceAll(kOracleIr, {{"%r = @CALL@", absl::StrCat(kOracleCasts, Pk16Prelude(info), result)},
                                                                 {"@STORE@", store}});
  return LlcLines(co, instr, ir);
}

// llc-22's assembly of `ir` for the code object's target and wave size: the instruction lines
// of @k (comments, directives and labels dropped).
std::vector<std::string> LlcLines(const CodeObjectView& co, Instr instr, const std::string& ir) {
  const std::string path = WriteTemp(absl::StrCat(co.target->name, "_w", co.wave_size, "_", InstrName(instr), ".ll"),
                                     absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(ir.data()), ir.size()));
  CommandResult r = RunCommand(absl::StrCat(Tool("llc"), " -mtriple=amdgcn-amd-amdhsa -mcpu=", co.target->name, " ",
                                            MattrFor(co.wave_size), " -o - ", path));
  std::remove(path.c_str());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::vector<std::string> lines;
  bool in_kernel = false;
  for (absl::string_view raw : absl::StrSplit(r.out, '\n')) {
    std::string line(absl::StripAsciiWhitespace(raw.substr(0, raw.find(';'))));
    if (line == "k:") in_kernel = true;
    if (!in_kernel || line.empty() || line[0] == '.' || absl::EndsWith(line, ":")) continue;
    lines.push_back(line);
    if (line == "s_endpgm") break;
  }
  return lines;
}

// Wait states an instruction provides, as GCNHazardRecognizer counts them: s_nop N gives N+1,
// any other instruction 1.
int WaitStates(absl::string_view text) {
  int n = 0;
  if (absl::ConsumePrefix(&text, "s_nop ") && absl::SimpleAtoi(text, &n)) return n + 1;
  return 1;
}
bool IsHazardInstruction(absl::string_view text) {
  return text == "v_nop" || absl::StartsWith(text, "s_wait_alu") ||
         absl::StartsWith(text, "s_waitcnt_depctr") || absl::StartsWith(text, "s_set_vgpr_msb");
}

// The places in a kernel where a hazard can sit, as line indices: the MODE[7:0] and MODE[23]
// writes before the instruction, the instruction, the same writes after it, the store, and the
// store that reads VDST+1 of a pair (the kernel's store of v5; in llc's output, its one store of
// the pair).
// For a tuple row also, per VDST word k, the first store after the instruction that reads
// VDST+k (store_of[k]; the kernel's `store v1, v[4+k]`, llc's dwordx4 stores of the tuple),
// and the last write before the instruction of a register it reads (last_read_write: the
// kernel's load of its tuple's last dword, llc's last load of a source vector).
struct HazardSites {
  size_t set_lo = SIZE_MAX, set_hi = SIZE_MAX, instr = SIZE_MAX, instr_end = SIZE_MAX,
         restore_lo = SIZE_MAX, restore_hi = SIZE_MAX, store = SIZE_MAX, store_hi = SIZE_MAX;
  std::vector<size_t> store_of;
  size_t last_read_write = SIZE_MAX;
};

// Operand i of an instruction line ("global_store_dwordx4 v32, v[0:3], s[6:7]": 1 is "v[0:3]").
std::string OperandOf(absl::string_view line, int i) {
  const size_t space = line.find(' ');
  if (space == absl::string_view::npos) return "";
  std::vector<std::string> ops = absl::StrSplit(line.substr(space + 1), ',');
  return i < static_cast<int>(ops.size()) ? std::string(absl::StripAsciiWhitespace(ops[i])) : "";
}
// The VGPRs an operand names ("v5": 5..5, "v[0:31]": 0..31); false for another operand.
bool VgprRange(absl::string_view op, int* lo, int* hi) {
  if (!absl::ConsumePrefix(&op, "v")) return false;
  if (absl::ConsumePrefix(&op, "[") && absl::ConsumeSuffix(&op, "]")) {
    const size_t colon = op.find(':');
    return colon != absl::string_view::npos && absl::SimpleAtoi(op.substr(0, colon), lo) &&
           absl::SimpleAtoi(op.substr(colon + 1), hi);
  }
  return absl::SimpleAtoi(op, lo) && (*hi = *lo, true);
}

// The tuple sites of `s` (HazardSites): VDST is v[vdst:vdst+words-1], the instruction reads
// the VGPRs in `reads`.
void FindTupleSites(const std::vector<std::string>& lines, int vdst, int words,
                    const std::set<int>& reads, HazardSites* s) {
  s->store_of.assign(static_cast<size_t>(words), SIZE_MAX);
  for (size_t i = 0; i < lines.size(); ++i) {
    int lo = 0, hi = -1;
    if (absl::StartsWith(lines[i], "global_store") && i > s->instr) {
      if (!VgprRange(OperandOf(lines[i], 1), &lo, &hi)) continue;
      for (int k = 0; k < words; ++k) {
        if (vdst + k >= lo && vdst + k <= hi && s->store_of[k] == SIZE_MAX) s->store_of[k] = i;
      }
    } else if (i < s->instr && VgprRange(OperandOf(lines[i], 0), &lo, &hi)) {
      for (int r = lo; r <= hi; ++r) {
        if (reads.count(r) > 0) s->last_read_write = i;
      }
    }
  }
}

// The VGPRs an instruction line reads: each of its source operands' (operands 1..).
std::set<int> VgprsRead(absl::string_view line) {
  std::set<int> out;
  for (int i = 1; i < 4; ++i) {
    int lo = 0, hi = -1;
    if (VgprRange(OperandOf(line, i), &lo, &hi)) {
      for (int r = lo; r <= hi; ++r) out.insert(r);
    }
  }
  return out;
}

HazardSites FindHazardSites(const std::vector<std::string>& lines, size_t instr, size_t instr_end) {
  HazardSites s;
  s.instr = instr;
  s.instr_end = instr_end;
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool setreg = absl::StartsWith(lines[i], "s_setreg_b32 hwreg(");
    const bool lo = setreg && absl::StrContains(lines[i], ", 0, 8)");
    const bool hi = setreg && absl::StrContains(lines[i], ", 23, 1)");
    size_t& lo_slot = i < instr ? s.set_lo : s.restore_lo;
    size_t& hi_slot = i < instr ? s.set_hi : s.restore_hi;
    if (lo && lo_slot == SIZE_MAX) lo_slot = i;
    if (hi && hi_slot == SIZE_MAX) hi_slot = i;
    if (i > instr && absl::StartsWith(lines[i], "global_store") && s.store == SIZE_MAX) s.store = i;
    if (i > instr && absl::StartsWith(lines[i], "global_store") && s.store_hi == SIZE_MAX &&
        (absl::StrContains(lines[i], " v5,") || absl::StrContains(lines[i], "dwordx2") ||
         absl::StrContains(lines[i], "store_b64"))) {
      s.store_hi = i;  // the kernel's `store v1, v5, ...`; llc's 64-bit store of the pair
    }
  }
  return s;
}

struct Gap {
  const char* name;
  size_t HazardSites::*from;
  size_t HazardSites::*to;
};
constexpr Gap kHazardGaps[] = {
    {"between the MODE[7:0] and MODE[23] writes", &HazardSites::set_lo,
     &HazardSites::set_hi},
    {"from the MODE[23] write to the instruction", &HazardSites::set_hi, &HazardSites::instr},
    {"from the instruction to the MODE[7:0] restore", &HazardSites::instr_end, &HazardSites::restore_lo},
    {"between the MODE[7:0] and MODE[23] restores", &HazardSites::restore_lo, &HazardSites::restore_hi},
    {"from the MODE[23] restore to the store", &HazardSites::restore_hi, &HazardSites::store},
};
// Only for a VGPR-pair writer (dst_bits 64).
constexpr Gap kPairHazardGaps[] = {
    {"from the instruction to the store of VDST+1", &HazardSites::instr_end, &HazardSites::store_hi},
};

// A tuple row's gaps (HazardSites' tuple sites) as (llc, kernel) line ranges into `spans`: from
// the instruction to the store of each VDST word, and from the last write of a register the
// instruction reads to the instruction. The kernel's VDST is v4 (its placeholder's operand 0)
// and its reads the row's registers under kRegisterConvention; llc's are its line's operands.
template <typename SpanT>
void TupleSpans(Instr instr, const std::vector<std::string>& llc,
                const std::vector<std::string>& hand, size_t at, HazardSites* oracle,
                std::vector<SpanT>* spans) {
  const InstrInfo& info = GetInstrInfo(instr);
  const LaneShape shape = info.lane_shape();
  std::set<int> hand_reads;
  for (int src = 0; src < info.sources(); ++src) {
    for (int k = 0; k < shape.src_dwords[src]; ++k) {
      hand_reads.insert(kRegisterConvention.SourceVgpr(shape, src, k));
    }
  }
  HazardSites mine = FindHazardSites(hand, at, at + 1);
  FindTupleSites(hand, kRegisterConvention.vdst, info.dst_words(), hand_reads, &mine);
  int llc_vdst = 0, llc_vdst_hi = 0;
  EXPECT_TRUE(VgprRange(OperandOf(llc[oracle->instr], 0), &llc_vdst, &llc_vdst_hi)) << llc[oracle->instr];
  FindTupleSites(llc, llc_vdst, info.dst_words(), VgprsRead(llc[oracle->instr]), oracle);
  for (int k = 0; k < info.dst_words(); ++k) {
    spans->push_back({absl::StrCat("from the instruction to the store of VDST+", k),
                      oracle->instr_end, oracle->store_of[k], mine.instr_end, mine.store_of[k]});
  }
  spans->push_back({"from the last write of a register the instruction reads to the instruction",
                    oracle->last_read_write, oracle->instr, mine.last_read_write, mine.instr});
}

// One llc-22 run per (code object, row): the default run takes a seeded sample of the (target,
// row) pairs llc can be compared on, a VGPR-pair writer and a tuple row always among them, each on both wave sizes' code objects
// (model/targets/pair_sample_test_util.h: every target, as many rows as fit, a fresh sample
// each run unless LANEDIFF_TEST_SEED is set); device_code_object_all_pairs_test (label slow)
// checks every pair.
constexpr size_t kLlcPairsPerRun = 12;

// Whether llc's kernel and ours can be compared on a (target, row) pair.
bool LlcComparable(const TargetInstr& p) {
  const InstrInfo& info = GetInstrInfo(p.instr);
  // Not gfx950's companion rows (TargetFeature::gfx950_insts): LlcKernelLines builds an
  // llvm.amdgcn.cvt.* call from the mnemonic, and LLVM reaches those instructions through
  // fptrunc and differently shaped intrinsics (llvm.amdgcn.prng.b32, cvt.sr.{f16,bf16}.f32).
  if (info.requires_feature == TargetFeature::gfx950_insts) return false;
  // A tuple row whose roles TupleOracleIr does not spell as IR vectors is not checked.
  if (IsTupleRow(info) && TupleOracleIr(info, "@f").empty()) return false;
  // Nor a row the family's kernel does not run (code_object.h KernelRuns): the kernel would
  // have no store of its words to hold to llc's. Every row fits its family's kernel today
  // (gfx1250's tuple rows since its kernel took the GFX9 kernel's tuples); this keeps a wider
  // row from being compared against a kernel that cannot run it.
  return KernelRuns(p.target->family, info.lane_shape());
}

TEST(CodeObjectTest, LlcOracleWaitStatesAreCoveredAtEveryModeWriteAndTheInstruction) {
  // Sampled among the comparable pairs only, so the pair writer and the tuple row the sample
  // must hold are ones the loop below checks.
  const std::vector<TargetInstr> sample = SamplePairs(
      "LlcOracleWaitStates", kLlcPairsPerRun,
      {[](const TargetInstr& p) { return DstWords(p.instr) == 2; },
       [](const TargetInstr& p) { return IsTupleRow(GetInstrInfo(p.instr)); }},
      LlcComparable);
  int pair_rows = 0;  // (code object, VGPR-pair writer) combinations checked
  int tuple_rows = 0;  // (code object, tuple row) combinations checked
  for (const CodeObjectView& co : AllCodeObjects()) {
    std::vector<Instr> rows;
    for (const TargetInstr& p : sample) {
      if (p.target == co.target) rows.push_back(p.instr);
    }
    if (rows.empty()) continue;
    Disassembly d = Objdump(co, co.elf, "oracle");
    std::vector<std::string> hand;
    for (const Line& l : d.lines) hand.push_back(l.text);
    const size_t at = IndexOf(d, d.labels["lanediff_patch_site"]);
    ASSERT_LT(at + 1, hand.size());
    // The site's second slot (s_nop 0 or a literal dword) does not count as a wait state.
    const HazardSites mine = FindHazardSites(hand, at, at + 1);
    ASSERT_NE(mine.store_hi, SIZE_MAX) << "the kernel has no store of v5";
    for (Instr instr : rows) {
      SCOPED_TRACE(absl::StrCat(co.target->name, " wave", co.wave_size, " ", InstrName(instr)));
      const std::vector<std::string> llc = LlcKernelLines(co, instr);
      size_t llc_instr = 0;
      while (llc_instr < llc.size() && !absl::StartsWith(llc[llc_instr], InstrName(instr))) ++llc_instr;
      ASSERT_LT(llc_instr, llc.size()) << "llc emitted no " << InstrName(instr) << ":\n" << absl::StrJoin(llc, "\n");
      HazardSites oracle = FindHazardSites(llc, llc_instr, llc_instr);
      // Each gap as line ranges (from, to) in llc's output and in the kernel.
      struct Span {
        std::string name;
        size_t lf, lt, hf, ht;
      };
      std::vector<Span> spans;
      std::vector<Gap> gaps(std::begin(kHazardGaps), std::end(kHazardGaps));
      if (DstWords(instr) == 2) {
        gaps.insert(gaps.end(), std::begin(kPairHazardGaps), std::end(kPairHazardGaps));
        ++pair_rows;
      }
      // llc may restore MODE[7:0] before an instruction it does not see reading it (gfx1250's
      // f16 SR encoders: llc-22 orders only the MODE[23] restore after them): its output then
      // puts no wait between the two, and the gaps around that restore are not compared.
      const bool lo_restored_first =
          oracle.restore_lo == SIZE_MAX &&
          std::count_if(llc.begin(), llc.begin() + llc_instr, [](const std::string& l) {
            return absl::StartsWith(l, "s_setreg_b32 hwreg(") && absl::StrContains(l, ", 0, 8)");
          }) == 2;
      for (const Gap& g : gaps) {
        if (lo_restored_first &&
            (g.to == &HazardSites::restore_lo || g.from == &HazardSites::restore_lo)) {
          continue;
        }
        spans.push_back({g.name, oracle.*g.from, oracle.*g.to, mine.*g.from, mine.*g.to});
      }
      if (IsTupleRow(GetInstrInfo(instr))) {
        TupleSpans(instr, llc, hand, at, &oracle, &spans);
        ++tuple_rows;
      }
      for (const Span& g : spans) {
        const size_t lf = g.lf, lt = g.lt, hf = g.hf, ht = g.ht;
        ASSERT_TRUE(lf < lt && lt < llc.size()) << g.name << " not found in llc's output:\n" << absl::StrJoin(llc, "\n");
        ASSERT_TRUE(hf < ht && ht < hand.size()) << g.name << " not found in the kernel";
        int llc_waits = 0, hand_waits = 0;
        std::multiset<std::string> hand_hazard;
        for (size_t i = hf + 1; i < ht; ++i) {
          hand_waits += WaitStates(hand[i]);
          if (IsHazardInstruction(hand[i])) hand_hazard.insert(hand[i]);
        }
        for (size_t i = lf + 1; i < lt; ++i) {
          // A VGPR pair's IR xors the two words (LlcKernelLines); llc may schedule that
          // v_xor_b32 and the s_delay_alu ordering it after the conversion anywhere up to the
          // store (gfx12: between the two MODE restores). They are the IR's own work, not wait
          // states llc puts for a hazard.
          if (GetInstrInfo(instr).dst_bits == 64 &&
              (absl::StartsWith(llc[i], "v_xor_b32") || absl::StartsWith(llc[i], "s_delay_alu"))) {
            continue;
          }
          llc_waits += WaitStates(llc[i]);
          if (!IsHazardInstruction(llc[i])) continue;
          auto it = hand_hazard.find(llc[i]);
          EXPECT_NE(it, hand_hazard.end()) << g.name << ": llc-22 emits `" << llc[i] << "`, the kernel has not";
          if (it != hand_hazard.end()) hand_hazard.erase(it);
        }
        EXPECT_GE(hand_waits, llc_waits) << g.name << ": the kernel has " << hand_waits
                                         << " wait states, llc-22 puts " << llc_waits << ":\n"
                                         << absl::StrJoin(llc.begin() + lf, llc.begin() + lt + 1, "\n");
      }
    }
  }
  EXPECT_GT(pair_rows, 0) << "no VGPR-pair writer on any target: the pair gap was never checked";
  EXPECT_GT(tuple_rows, 0) << "no tuple row sampled: its gaps were never checked";
}

// The kernel descriptor and metadata as llvm-objdump / llvm-readelf decode them.
TEST(CodeObjectTest, DescriptorAndMetadataMatchTheLaunchContract) {
  for (const CodeObjectView& co : AllCodeObjects()) {
    SCOPED_TRACE(absl::StrCat(co.target->name, " wave", co.wave_size));
    const std::string path = WriteTemp(absl::StrCat(co.target->name, "_w", co.wave_size, "_kd.co"), co.elf);
    CommandResult kd = RunCommand(absl::StrCat(Tool("llvm-objdump"), " -D --disassemble-symbols=lanediff_kernel.kd ", path));
    EXPECT_EQ(kd.exit_code, 0) << kd.out;
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_kernarg_size 64"));
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_user_sgpr_kernarg_segment_ptr 1"));
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_user_sgpr_dispatch_ptr 0"));
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_user_sgpr_queue_ptr 0"));
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_system_sgpr_workgroup_id_x 1"));
    // No scratch, spelled per generation (wavefront-offset SGPR on GFX9/10, a flag on GFX11+,
    // neither with architected flat scratch on gfx942/gfx950).
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_private_segment_fixed_size 0"));
    EXPECT_THAT(kd.out, testing::Not(HasSubstr("private_segment_wavefront_offset 1")));
    EXPECT_THAT(kd.out, testing::Not(HasSubstr("enable_private_segment 1")));
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_float_denorm_mode_32 3"));
    EXPECT_THAT(kd.out, HasSubstr(".amdhsa_float_round_mode_32 0"));
    // The MODE at dispatch, as kernel_state.h says the model sees it outside the batch's
    // fields: round modes 0 and denormal modes 3 (MODE[7:0] = 0xf0, overwritten per batch), and
    // the fixed bits: DX10_CLAMP (MODE[8]) and IEEE (MODE[9]) from the descriptor on GFX9-11,
    // fields GFX12 descriptors do not have.
    {
      const KernelModeState state = KernelModeStateFor(*co.target);
      EXPECT_THAT(kd.out, HasSubstr(".amdhsa_float_round_mode_16_64 0"));
      EXPECT_THAT(kd.out, HasSubstr(".amdhsa_float_denorm_mode_16_64 3"));
      EXPECT_EQ(state.entry & 0xffu, 0xf0u);
      auto field = [&](absl::string_view name) -> int {
        const size_t at = kd.out.find(absl::StrCat(name, " "));
        if (at == std::string::npos) return -1;  // not a field of this family's descriptor
        return kd.out[at + name.size() + 1] - '0';
      };
      const int dx10 = field(".amdhsa_dx10_clamp"), ieee = field(".amdhsa_ieee_mode");
      if (co.target->family == Family::gfx12 || co.target->family == Family::gfx1250) {
        EXPECT_EQ(dx10, -1);
        EXPECT_EQ(ieee, -1);
        EXPECT_EQ(state.fixed & (kModeDx10ClampField | kModeIeeeField), 0u);
      } else {
        ASSERT_NE(dx10, -1) << kd.out;
        ASSERT_NE(ieee, -1) << kd.out;
        EXPECT_EQ((state.fixed & kModeDx10ClampField) != 0, true);
        EXPECT_EQ((state.entry & kModeDx10ClampField) != 0, dx10 == 1);
        EXPECT_EQ((state.fixed & kModeIeeeField) != 0, true);
        EXPECT_EQ((state.entry & kModeIeeeField) != 0, ieee == 1);
      }
    }
    if (co.target->family != Family::gfx9) {
      EXPECT_THAT(kd.out, HasSubstr(absl::StrCat(".amdhsa_wavefront_size32 ", co.wave_size == 32 ? 1 : 0)));
    }
    CommandResult notes = RunCommand(absl::StrCat(Tool("llvm-readelf"), " --notes -h ", path));
    EXPECT_EQ(notes.exit_code, 0) << notes.out;
    // Code-object version pinned (5 by default): EI_ABIVERSION is the version minus 2
    // (ELFABIVERSION_AMDGPU_HSA_V5 = 3, _V6 = 4).
    EXPECT_THAT(notes.out, testing::ContainsRegex(
                               absl::StrCat("ABI Version: +", LANEDIFF_CODE_OBJECT_VERSION - 2, "\n")));
    EXPECT_THAT(notes.out, HasSubstr("OS/ABI:                            AMDGPU - HSA"));
    // e_flags name the processor; XNACK / SRAMECC, where the target has them, are "any"
    // (printed without +/-), so one code object loads whatever the device's setting.
    EXPECT_THAT(notes.out, testing::ContainsRegex(absl::StrCat("Flags: +0x[0-9a-f]+, ", co.target->name, "(, xnack)?(, sramecc)?\n")));
    EXPECT_THAT(notes.out, HasSubstr(absl::StrCat("amdhsa.target:   amdgcn-amd-amdhsa--", co.target->name)));
    EXPECT_THAT(notes.out, HasSubstr(absl::StrCat(".wavefront_size: ", co.wave_size)));
    EXPECT_THAT(notes.out, HasSubstr(".kernarg_segment_size: 64"));
    EXPECT_THAT(notes.out, HasSubstr(".symbol:         lanediff_kernel.kd"));
    // Argument offsets as KernelArgs lays them out.
    for (auto [name, off] : std::vector<std::pair<std::string, size_t>>{
             {"src0", offsetof(KernelArgs, src0)}, {"src1", offsetof(KernelArgs, src1)},
             {"src2", offsetof(KernelArgs, src2)}, {"vdst_old", offsetof(KernelArgs, vdst_old)},
             {"out", offsetof(KernelArgs, out)}, {"n", offsetof(KernelArgs, n)},
             {"mode", offsetof(KernelArgs, mode)}, {"sgpr0", offsetof(KernelArgs, sgpr)},
             {"sgpr1", offsetof(KernelArgs, sgpr) + 4}, {"sgpr2", offsetof(KernelArgs, sgpr) + 8},
             {"shape", offsetof(KernelArgs, shape)}}) {
      EXPECT_THAT(notes.out, testing::ContainsRegex(absl::StrCat(
                                 "\\.name: +", name, "\n +\\.offset: +", off, "\n")))
          << name;
    }
    std::remove(path.c_str());
  }
}

// Patched words read back from the ELF, for every instruction of every target, every value of
// each modifier field, SGPR / inline-constant / literal sources and random field mixes; every
// byte outside the 12-byte site unchanged.
// The literal rule is the model's (model/isa/vop3_decode.cc): a two-source instruction's unread SRC2
// = 255 has an unknown length, refused with or without a third dword; a read source = 255
// needs its dword.
TEST(PatchTest, LiteralRuleIsTheModels) {
  absl::StatusOr<CodeObjectView> co = FindCodeObject("gfx1201", 32);
  ASSERT_TRUE(co.ok());
  for (Instr instr : kAllInstrs) {
    if (!co->target->Has(instr)) continue;
    const Fields base{.op = static_cast<uint32_t>(co->target->Opcode(instr))};
    Fields f = base;
    f.src2 = 255;
    std::vector<uint32_t> two = HandEncode(Family::gfx12, f), three = two;
    three.push_back(0x3f800000u);
    if (NumSourcesRead(instr) == 3) {
      EXPECT_TRUE(PatchCodeObject(*co, three).ok()) << InstrName(instr);
      EXPECT_FALSE(PatchCodeObject(*co, two).ok()) << InstrName(instr);
    } else {
      for (const auto& w : {two, three}) {
        absl::StatusOr<std::vector<uint8_t>> p = PatchCodeObject(*co, w);
        ASSERT_FALSE(p.ok()) << InstrName(instr);
        EXPECT_THAT(std::string(p.status().message()), HasSubstr("length is unknown"));
      }
    }
  }
}

TEST(PatchTest, PatchedWordsReadBackExactly) {
  std::mt19937 rng(12345);
  size_t checked = 0;
  for (const CodeObjectView& co : AllCodeObjects()) {
    absl::StatusOr<PatchSite> site = FindPatchSite(co.elf);
    ASSERT_TRUE(site.ok());
    const Family fam = co.target->family;
    for (Instr instr : kAllInstrs) {
      if (!co.target->Has(instr)) continue;
      std::vector<std::pair<Fields, std::optional<uint32_t>>> cases;
      const Fields base{.op = static_cast<uint32_t>(co.target->Opcode(instr))};
      for (uint32_t v = 0; v < 16; ++v) { Fields f = base; f.opsel = v; cases.push_back({f, {}}); }
      for (uint32_t v = 0; v < 8; ++v) { Fields f = base; f.neg = v; cases.push_back({f, {}}); }
      for (uint32_t v = 0; v < 8; ++v) { Fields f = base; f.abs = v; cases.push_back({f, {}}); }
      for (uint32_t v = 0; v < 4; ++v) { Fields f = base; f.omod = v; cases.push_back({f, {}}); }
      { Fields f = base; f.clamp = 1; cases.push_back({f, {}}); }
      // SGPR (s20..s22), inline constants (0, 64, -1, -16, 0.5, -4.0, 1/(2pi)), VGPR v1..v3.
      for (uint32_t code : {20u, 21u, 22u, 128u, 192u, 193u, 208u, 240u, 247u, 248u, 257u, 258u, 259u}) {
        for (int slot = 0; slot < 3; ++slot) {
          Fields f = base;
          (slot == 0 ? f.src0 : slot == 1 ? f.src1 : f.src2) = code;
          cases.push_back({f, {}});
        }
      }
      if (fam != Family::gfx9) {
        // A literal in a source field the instruction reads (the model's rule, NumSourcesRead;
        // the unread SRC2 of a two-source instruction is refused, checked below).
        for (int slot = 0; slot < NumSourcesRead(instr); ++slot) {
          for (uint32_t lit : {0u, 0x3fc00000u, 0xffffffffu, 0xbf800000u}) {
            Fields f = base;
            (slot == 0 ? f.src0 : slot == 1 ? f.src1 : f.src2) = 255;
            cases.push_back({f, lit});
          }
        }
      }
      for (int i = 0; i < 64; ++i) {
        Fields f = base;
        f.opsel = rng() & 15; f.neg = rng() & 7; f.abs = rng() & 7; f.clamp = rng() & 1;
        f.omod = rng() & 3;
        f.src0 = rng() % 256 == 255 ? 257 : rng() & 0x1ff;
        if (f.src0 == 255) f.src0 = 256;
        f.src1 = 257 + rng() % 3;
        f.src2 = 20 + rng() % 3;
        cases.push_back({f, {}});
      }
      for (const auto& [f, lit] : cases) {
        std::vector<uint32_t> words = HandEncode(fam, f);
        if (lit) words.push_back(*lit);
        absl::StatusOr<std::vector<uint8_t>> patched = PatchCodeObject(co, words);
        ASSERT_TRUE(patched.ok()) << co.target->name << ": " << patched.status();
        absl::StatusOr<PatchSiteWords> back = ReadPatchSite(*patched);
        ASSERT_TRUE(back.ok());
        EXPECT_EQ((*back)[0], words[0]);
        EXPECT_EQ((*back)[1], words[1]);
        EXPECT_EQ((*back)[2], lit ? *lit : kSNop0);
        ASSERT_EQ(patched->size(), co.elf.size());
        EXPECT_EQ(std::memcmp(patched->data(), co.elf.data(), site->file_offset), 0);
        const size_t tail = site->file_offset + kPatchSiteBytes;
        EXPECT_EQ(std::memcmp(patched->data() + tail, co.elf.data() + tail, co.elf.size() - tail), 0);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5000u);
}

// llvm-mc's words for each target, spliced in and disassembled by llvm-objdump: the
// instruction decodes at the site with exactly the bytes llvm-mc produced, and the next
// instruction starts right after it (s_nop 0 after an 8-byte word, the kernel's s_nop 7
// after a 12-byte one).
TEST(PatchTest, LlvmMcWordsDecodeAtTheSite) {
  for (const TargetTraits& t : AllTargets()) {
    SCOPED_TRACE(t.name);
    const int wave = t.DefaultWaveSize();
    absl::StatusOr<CodeObjectView> co = FindCodeObject(t.name, wave);
    ASSERT_TRUE(co.ok());
    absl::StatusOr<PatchSite> site = FindPatchSite(co->elf);
    ASSERT_TRUE(site.ok());
    const bool gfx9 = t.family == Family::gfx9;
    // Modifier mixes LLVM 22 accepts (docs/semantics.md §2 table).
    std::vector<std::string> text = {
        "v_cvt_pk_u8_f32 v4, v1, v2, v3",
        "v_cvt_pk_u8_f32 v4, -|v1|, v2, v3 clamp",
        "v_cvt_pk_u8_f32 v4, -v1, 2, s20",
        "v_cvt_pk_u8_f32 v4, 0.5, v2, v3",
        "v_cvt_pk_u8_f32 v4, s20, v2, v3",
        "v_cvt_pk_u8_f32 v4, |v1|, 3, -1",
    };
    if (!gfx9) {
      text.push_back("v_cvt_pk_u8_f32 v4, 0x4b000000, v2, v3");
      text.push_back("v_cvt_pk_u8_f32 v4, v1, v2, 0x12345678");
      text.push_back("v_cvt_pk_u8_f32 v4, s20, s21, v3");
    }
    if (t.Has(Instr::v_cvt_sr_fp8_f32)) {
      if (gfx9) {
        text.push_back("v_cvt_sr_fp8_f32 v4, v1, v2");
        text.push_back("v_cvt_sr_fp8_f32 v4, -|v1|, v2 op_sel:[0,0,1,1]");
        text.push_back("v_cvt_sr_bf8_f32 v4, v1, s20 op_sel:[0,0,1,0]");
      } else {
        text.push_back("v_cvt_sr_fp8_f32 v4, v1, v2 byte_sel:3");
        text.push_back("v_cvt_sr_bf8_f32 v4, -v1, s21 byte_sel:1");
        text.push_back("v_cvt_sr_fp8_f32 v4, 0x3fffffff, v2");
        text.push_back("v_cvt_sr_bf8_f32 v4, s20, 0xfffff000 byte_sel:2");
        if (t.clamp_selects_ue5m3) text.push_back("v_cvt_sr_fp8_f32 v4, v1, v2 clamp");
      }
    }
    if (t.Has(Instr::v_cvt_f32_fp8)) {  // the VOP1 forms: 4, 8 and 8 bytes
      text.push_back("v_cvt_f32_fp8_e32 v4, v1");
      text.push_back("v_cvt_f32_fp8_e32 v4, 0x12345678");
      if (gfx9) {
        text.push_back("v_cvt_f32_fp8_sdwa v4, v1 clamp src0_sel:BYTE_2");
        text.push_back("v_cvt_f32_fp8_e64 v4, s20 mul:2");
      } else {
        text.push_back("v_cvt_f32_fp8_e64 v4, v1 byte_sel:3");
      }
    }
    std::vector<std::vector<uint32_t>> words = Assemble(t.name, wave, text);
    ASSERT_EQ(words.size(), text.size());
    std::vector<std::vector<uint8_t>> variants;
    for (size_t i = 0; i < text.size(); ++i) {
      absl::StatusOr<std::vector<uint8_t>> patched = PatchCodeObject(*co, words[i]);
      ASSERT_TRUE(patched.ok()) << text[i] << ": " << patched.status();
      variants.push_back(*std::move(patched));
    }
    const std::vector<Disassembly> shown = ObjdumpEach(*co, variants, "mc");
    ASSERT_EQ(shown.size(), text.size());
    for (size_t i = 0; i < text.size(); ++i) {
      SCOPED_TRACE(text[i]);
      const Disassembly& d = shown[i];
      const Line* at = LineAt(d, site->address);
      ASSERT_NE(at, nullptr);
      EXPECT_EQ(at->words, words[i]);
      // The text objdump prints, normalised: llvm-mc echoes the same canonical syntax.
      EXPECT_TRUE(absl::StartsWith(at->text, text[i].substr(0, text[i].find(' '))));
      const Line* next = LineAt(d, site->address + 4 * words[i].size());
      ASSERT_NE(next, nullptr) << "no instruction right after the spliced word";
      EXPECT_EQ(next->text, words[i].size() < 3 ? "s_nop 0" : "s_nop 7");
    }
  }
}

// Raw bits LLVM refuses to assemble (NEG/ABS on src1/src2, OMOD, stray OPSEL): the bytes at
// the site are exactly ours even where objdump's text leaves the bits out.
TEST(PatchTest, RawModifierBitsSurviveInTheBytes) {
  for (const TargetTraits& t : AllTargets()) {
    SCOPED_TRACE(t.name);
    absl::StatusOr<CodeObjectView> co = FindCodeObject(t.name, t.DefaultWaveSize());
    ASSERT_TRUE(co.ok());
    absl::StatusOr<PatchSite> site = FindPatchSite(co->elf);
    ASSERT_TRUE(site.ok());
    const Fields base{.op = static_cast<uint32_t>(t.Opcode(Instr::v_cvt_pk_u8_f32))};
    std::vector<Fields> raw;
    { Fields f = base; f.neg = 0b110; raw.push_back(f); }
    { Fields f = base; f.abs = 0b110; raw.push_back(f); }
    { Fields f = base; f.omod = 2; raw.push_back(f); }
    { Fields f = base; f.opsel = 0b1111; f.neg = 7; f.abs = 7; f.clamp = 1; f.omod = 3; raw.push_back(f); }
    std::vector<std::vector<uint8_t>> variants;
    for (const Fields& f : raw) {
      absl::StatusOr<std::vector<uint8_t>> patched = PatchCodeObject(*co, HandEncode(t.family, f));
      ASSERT_TRUE(patched.ok()) << patched.status();
      variants.push_back(*std::move(patched));
    }
    const std::vector<Disassembly> disassembled = ObjdumpEach(*co, variants, "raw");
    ASSERT_EQ(disassembled.size(), raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
      std::vector<uint32_t> words = HandEncode(t.family, raw[i]);
      const Disassembly& d = disassembled[i];
      const Line* at = LineAt(d, site->address);
      // objdump may print the word as an instruction (bits dropped) or as raw data; either
      // way the bytes it shows from the site on are ours.
      ASSERT_NE(at, nullptr);
      std::vector<uint32_t> shown = at->words;
      if (shown.size() < 2) {
        const Line* second = LineAt(d, site->address + 4);
        ASSERT_NE(second, nullptr);
        shown.insert(shown.end(), second->words.begin(), second->words.end());
      }
      shown.resize(2);
      EXPECT_EQ(shown, words) << at->text;
    }
  }
}

// Integration with the ISA layer: whatever model/isa's EncodeVop3 produces with VDST at the
// register convention's v4 can be spliced, and the patcher identifies the same instruction as
// DecodeVop3; the convention the kernels implement is the one register_convention.h states.
TEST(PatchTest, AcceptsWhatTheIsaEncoderProduces) {
  const RegisterConvention conv;
  EXPECT_EQ(conv.vdst, kKernelVdst);
  EXPECT_EQ(conv.vgpr, (std::array<uint16_t, 3>{1, 2, 3}));       // kernels load v1..v3
  EXPECT_EQ(conv.sgpr, (std::array<uint16_t, 3>{20, 21, 22}));     // and s20..s22
  std::mt19937 rng(7);
  size_t checked = 0;
  for (const CodeObjectView& co : AllCodeObjects()) {
    const TargetTraits& t = *co.target;
    for (Instr instr : kAllInstrs) {
      if (!t.Has(instr)) continue;
      for (int i = 0; i < 40; ++i) {
        Vop3Instr in;
        in.instr = instr;
        in.vdst = conv.vdst;
        in.mods.opsel = rng() & 15;
        in.mods.neg = rng() & 7;
        in.mods.abs = rng() & 7;
        in.mods.clamp = rng() & 1;
        in.mods.omod = rng() & 3;
        for (int s = 0; s < 3; ++s) {
          const uint32_t kind = rng() % 4;
          in.src[s] = kind == 0 ? 256 + conv.vgpr[s] : kind == 1 ? conv.sgpr[s] : kind == 2 ? 128 + rng() % 65 : 240 + rng() % 9;
        }
        if (t.family != Family::gfx9 && i % 5 == 0) {
          in.src[i % 3] = 255;
          in.literal = static_cast<uint32_t>(rng());
        }
        absl::StatusOr<std::vector<uint32_t>> words = EncodeVop3(t, in);
        if (!words.ok()) continue;  // e.g. a combination the encoder cannot express
        absl::StatusOr<DecodedVop3> decoded = DecodeVop3(t, *words);
        absl::StatusOr<Instr> checked_instr = CheckPatchWords(t, *words);
        ASSERT_TRUE(checked_instr.ok()) << t.name << ": " << checked_instr.status();
        if (decoded.ok()) {
          EXPECT_EQ(*checked_instr, decoded->vop3.instr);
        }
        EXPECT_EQ(*checked_instr, instr);
        absl::StatusOr<std::vector<uint8_t>> patched = PatchCodeObject(co, *words);
        ASSERT_TRUE(patched.ok()) << patched.status();
        absl::StatusOr<PatchSiteWords> back = ReadPatchSite(*patched);
        ASSERT_TRUE(back.ok());
        for (size_t w = 0; w < words->size(); ++w) EXPECT_EQ((*back)[w], (*words)[w]);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 500u);
}

TEST(PatchTest, RefusesWhatItMustNotSplice) {
  absl::StatusOr<CodeObjectView> gfx942 = FindCodeObject("gfx942", 64);
  absl::StatusOr<CodeObjectView> gfx1100 = FindCodeObject("gfx1100", 32);
  absl::StatusOr<CodeObjectView> gfx1201 = FindCodeObject("gfx1201", 32);
  ASSERT_TRUE(gfx942.ok() && gfx1100.ok() && gfx1201.ok());
  auto msg = [](const CodeObjectView& co, std::vector<uint32_t> w) {
    absl::StatusOr<std::vector<uint8_t>> r = PatchCodeObject(co, w);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string("(accepted)") : std::string(r.status().message());
  };
  // v_add_f32_e64 v4, v1, v2 on gfx942 (VOP3 opcode 0x101): an instruction lanediff does not know.
  std::vector<uint32_t> add = HandEncode(Family::gfx9, Fields{.op = 0x101});
  EXPECT_THAT(msg(*gfx942, add), HasSubstr("refusing to splice VOP3 opcode 257 into the gfx942 kernel"));
  // The SR opcode on gfx1100, which lacks the SR instructions.
  EXPECT_THAT(msg(*gfx1100, HandEncode(Family::gfx11, Fields{.op = 875})),
              HasSubstr("refusing to splice VOP3 opcode 875"));
  // A GFX10+ word in a GFX9 kernel and the reverse: ENC bits.
  EXPECT_THAT(msg(*gfx942, HandEncode(Family::gfx12, Fields{.op = 477})), HasSubstr("ENC[31:26] = 0x35, expected 0x34"));
  EXPECT_THAT(msg(*gfx1201, HandEncode(Family::gfx9, Fields{.op = 550})), HasSubstr("ENC[31:26] = 0x34, expected 0x35"));
  // VDST other than v4.
  EXPECT_THAT(msg(*gfx1201, HandEncode(Family::gfx12, Fields{.vdst = 5, .op = 550})),
              HasSubstr("instruction writes v5 but the kernel stores v4"));
  // Word counts and literals.
  EXPECT_THAT(msg(*gfx1201, {0xd6260004}), HasSubstr("has 1 dwords"));
  std::vector<uint32_t> four = HandEncode(Family::gfx12, Fields{.op = 550});
  four.push_back(0);
  four.push_back(0);
  EXPECT_THAT(msg(*gfx1201, four), HasSubstr("has 4 dwords"));
  EXPECT_THAT(msg(*gfx1201, HandEncode(Family::gfx12, Fields{.op = 550, .src1 = 255})),
              HasSubstr("no literal dword follows"));
  std::vector<uint32_t> extra = HandEncode(Family::gfx12, Fields{.op = 550});
  extra.push_back(7);
  EXPECT_THAT(msg(*gfx1201, extra), HasSubstr("no source names the literal"));
  std::vector<uint32_t> gfx9lit = HandEncode(Family::gfx9, Fields{.op = 477, .src1 = 255});
  gfx9lit.push_back(7);
  EXPECT_THAT(msg(*gfx942, gfx9lit), HasSubstr("GFX9 VOP3 takes no literal"));
  // ...but GFX9's raw code 255 in 8 bytes is a raw encoding to run.
  EXPECT_TRUE(PatchCodeObject(*gfx942, HandEncode(Family::gfx9, Fields{.op = 477, .src1 = 255})).ok());
  // The identified instruction.
  absl::StatusOr<Instr> sr = CheckPatchWords(*gfx942->target, HandEncode(Family::gfx9, Fields{.op = 677}));
  ASSERT_TRUE(sr.ok());
  EXPECT_EQ(*sr, Instr::v_cvt_sr_bf8_f32);
}

TEST(ElfReaderTest, RejectsDamagedFiles) {
  absl::StatusOr<CodeObjectView> co = FindCodeObject("gfx942", 64);
  ASSERT_TRUE(co.ok());
  std::vector<uint8_t> bytes(co->elf.begin(), co->elf.end());
  EXPECT_THAT(std::string(FindPatchSite(absl::MakeConstSpan(bytes).subspan(0, 10)).status().message()),
              HasSubstr("only 10 bytes"));
  std::vector<uint8_t> bad = bytes;
  bad[0] = 0;
  EXPECT_THAT(std::string(FindPatchSite(bad).status().message()), HasSubstr("magic"));
  bad = bytes;
  bad[18] = 62;  // EM_X86_64
  EXPECT_THAT(std::string(FindPatchSite(bad).status().message()), HasSubstr("not EM_AMDGPU"));
  bad = bytes;
  bad[40] = 0xff;  // e_shoff far away
  bad[41] = 0xff;
  bad[42] = 0xff;
  EXPECT_THAT(std::string(FindPatchSite(bad).status().message()), HasSubstr("run past the end"));
  // Truncation anywhere must be an error, never a read past the end (ASan checks).
  for (size_t n = 0; n < bytes.size(); n += 97) {
    EXPECT_FALSE(FindPatchSite(absl::MakeConstSpan(bytes).subspan(0, n)).ok()) << n;
  }
  // Renaming the symbol: not found.
  std::string s(bytes.begin(), bytes.end());
  const size_t pos = s.find("lanediff_patch_site");
  ASSERT_NE(pos, std::string::npos);
  bad = bytes;
  bad[pos] = 'L';
  EXPECT_THAT(std::string(FindPatchSite(bad).status().message()), HasSubstr("has no symbol lanediff_patch_site"));
}

}  // namespace
}  // namespace lanediff
