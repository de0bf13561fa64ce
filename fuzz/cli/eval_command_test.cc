// `lanediff eval` driven as a real pipe: the built binary, popen()ed with stdin from a file.
// Expected words are docs/semantics.md's discriminating inputs placed into VDST by hand.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

std::string TempPath(const std::string& name) {
  return absl::StrCat(::testing::TempDir(), "/eval_test_", ::getpid(), "_", name);
}

RunResult RunEval(const std::string& flags, const std::string& input) {
  const std::string in = TempPath("in"), err = TempPath("err");
  std::ofstream(in, std::ios::binary) << input;
  const std::string cmd = absl::StrCat(LANEDIFF_BINARY_DIR, "/fuzz/lanediff eval ", flags, " < ",
                                       in, " 2> ", err);
  RunResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) {
    ADD_FAILURE() << "popen failed: " << cmd;
    return r;
  }
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream e;
  e << std::ifstream(err).rdbuf();
  r.err = e.str();
  std::remove(in.c_str());
  std::remove(err.c_str());
  return r;
}

TEST(EvalCommand, CarryVersusLiteralAndFormats) {
  const std::string input =
      "# src0 src1 src2 vdst_old\n"
      "0x3fffffff 0xfffff000 0x0 0xaabbccdd\n"  // ~2.0, all-ones seed
      "\n"
      "3f840000 80000000 0 aabbccdd   # 1 + 2^-5, seed 1/2\n"
      "0x35800000 0xFFFFF000 0 0\n"             // 2^-20, subnormal SR
      "0x35800000 0xffdff000 0 0";             // last line without a newline
  RunResult r = RunEval("--targets gfx1201 --instrs v_cvt_sr_fp8_f32", input);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0xaabbcc40\n0xaabbcc38\n0x00000001\n0x00000000\n");
  EXPECT_EQ(r.err, "");

  r = RunEval("--targets gfx1201 --instrs v_cvt_sr_fp8_f32 --hypothesis sr_rounding=literal", input);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0xaabbcc39\n0xaabbcc39\n0x00000000\n0x00000000\n");

  // OPSEL 0b0100 writes byte 1; gfx942 FNUZ: 1.0 = 0x40.
  r = RunEval("--targets gfx942 --instrs v_cvt_sr_fp8_f32 --opsel 4", "3f800000 0 0 aabbccdd\n");
  EXPECT_EQ(r.out, "0xaabb40dd\n") << r.err;
  // gfx1250 CLAMP: UE5M3 1.0 = 0x78; --neg 1 makes it -1.0 -> 0x00.
  r = RunEval("--targets gfx1250 --instrs v_cvt_sr_fp8_f32 --clamp", "3f800000 0 0 0\n");
  EXPECT_EQ(r.out, "0x00000078\n") << r.err;
  r = RunEval("--targets gfx1250 --instrs v_cvt_sr_fp8_f32 --clamp --neg 1", "3f800000 0 0 0\n");
  EXPECT_EQ(r.out, "0x00000000\n") << r.err;
  // MODE[23] with the default saturate_finite: 1000 -> 0x7e (0x7f without).
  r = RunEval("--targets gfx1201 --instrs v_cvt_sr_fp8_f32 --mode 0x8000f0", "447a0000 0 0 0\n");
  EXPECT_EQ(r.out, "0x0000007e\n") << r.err;
}

TEST(EvalCommand, PkU8ModeAndByteSelect) {
  // 129.5 into byte 2 of S2: RNE 0x82, truncate 0x81. 0.25 under MODE round-up (hex without
  // 0x): 1.
  RunResult r = RunEval("--targets gfx908 --instrs v_cvt_pk_u8_f32",
                        "43018000 2 11223344 ffffffff\n");
  EXPECT_EQ(r.out, "0x11823344\n") << r.err;
  r = RunEval("--targets gfx908 --instrs v_cvt_pk_u8_f32 --hypothesis pk_u8_rounding=truncate",
              "43018000 2 11223344 ffffffff\n");
  EXPECT_EQ(r.out, "0x11813344\n") << r.err;
  r = RunEval("--targets gfx1100 --instrs v_cvt_pk_u8_f32 --mode f1", "3e800000 0 0 0\n");
  EXPECT_EQ(r.out, "0x00000001\n") << r.err;
  r = RunEval("--targets gfx1100 --instrs v_cvt_pk_u8_f32 --mode=0xe1", "00000001 0 0 0\n");
  EXPECT_EQ(r.out, "0x00000000\n") << r.err;  // denormal flushed, then 0 even rounding up
}

// Each public implementation's output on its discriminating lanes, reproduced by `lanediff
// eval` with that source's --hypothesis settings (docs/semantics.md §9). Expected words are
// derived by hand from the source lines quoted (the seeds in corpus/seeds/*/rocjitsu_*,
// hip_host_cast and tinygrad_emulator carry the full derivations).
TEST(EvalCommand, ReproducesEachPublicImplementation) {
  // rocjitsu's CDNA path, gfx950 fp8, FP16_OVFL set (data_types.h f32_to_fp8_e4m3_sr_mode):
  //   0x3c7fffff, S1 0x800: "shift = 21 - exp" = 21, 7 + carry of 0x1fffff + (0x800 >> 11)
  //     -> "result >= 8" -> 0x08;
  //   2^-11, S1 0xfffff000: "if (shift > 24) return sign" -> 0x00;
  //   +Inf: sign|0x7F, then "fp16_ovfl && !isnan && (result & 0x7F) == 0x7F" -> 0x7e;
  //   +NaN: "isnan -> sign | 0x7F" -> 0x7f.
  const std::string rocjitsu =
      "--targets gfx950 --instrs v_cvt_sr_fp8_f32 --mode 0x8000f0 --hypothesis "
      "sr_rounding=exact_subnormal --hypothesis fp8_nan=sign_7f --hypothesis "
      "fp16_ovfl=saturate_all";
  const std::string lanes =
      "3c7fffff 800 0 0\n3a000000 fffff000 0 0\n7f800000 0 0 0\n7fc00000 0 0 0\n";
  RunResult r = RunEval(rocjitsu, lanes);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0x00000008\n0x00000000\n0x0000007e\n0x0000007f\n");
  // The defaults on the same lanes: 0x07, 0x01, 0x7f, 0xff.
  r = RunEval("--targets gfx950 --instrs v_cvt_sr_fp8_f32 --mode 0x8000f0", lanes);
  EXPECT_EQ(r.out, "0x00000007\n0x00000001\n0x0000007f\n0x000000ff\n") << r.err;
  // rocjitsu gfx1250 CLAMP (f32_to_fp8_e5m3_sr, "mag = std::fabs(val)"): -2^-15 -> 4 * 2^-17
  // = 0x04; +Inf -> "isinf -> 0xFF".
  r = RunEval("--targets gfx1250 --instrs v_cvt_sr_fp8_f32 --clamp --hypothesis "
              "gfx1250_clamp=ue5m3_magnitude",
              "b8000000 0 0 0\n7f800000 0 0 0\n");
  EXPECT_EQ(r.out, "0x00000004\n0x000000ff\n") << r.err;
  // HIP's host cast_to_f8 (gfx950 fp8): 1 + 2^-23 with rng 0x000fffff: "mantissa += rng &
  // drop_mask" -> 0x900000 -> 0x39; 448 + 2^-15: "(x & mask) > ifmax -> signed_inf" = 0x7f;
  // +NaN: "nan = (sign << 7) + 0x7f" = 0x7f.
  r = RunEval("--targets gfx950 --instrs v_cvt_sr_fp8_f32 --hypothesis sr_seed=low --hypothesis "
              "sr_overflow=before_rounding --hypothesis fp8_nan=sign_7f",
              "3f800001 000fffff 0 0\n43e00001 0 0 0\n7fc00000 0 0 0\n");
  EXPECT_EQ(r.out, "0x00000039\n0x0000007f\n0x0000007f\n") << r.err;
  // tinygrad (pcode.py _f_to_u: TRUNC, NaN through the host cast): 129.5 -> 129; NaN -> 255.
  r = RunEval("--targets gfx1100 --instrs v_cvt_pk_u8_f32 --hypothesis pk_u8_rounding=truncate "
              "--hypothesis pk_u8_nan=max",
              "43018000 0 0 0\n7fc00000 0 0 0\n");
  EXPECT_EQ(r.out, "0x00000081\n0x000000ff\n") << r.err;
}

TEST(EvalCommand, MalformedRowsGetAnErrorRowInPlace) {
  const std::string input =
      "3f800000 0 0 0\n"
      "3f800000 0 0\n"              // line 2: three words
      "3f800000 0 0 0 0\n"          // line 3: five words
      "# fine\n"
      "3f800000 zz 0 0\n"           // line 5: not hex
      "123456789 0 0 0\n"           // line 6: nine digits
      "40000000 0 0 0\n";
  RunResult r = RunEval("--targets gfx950 --instrs v_cvt_sr_fp8_f32", input);
  EXPECT_EQ(r.exit_code, 1);
  // Output row k answers input row k (comment line 4 is not a row). gfx950 writes OCP E4M3
  // (bias 7): 1.0 = 0 0111 000 = 0x38, 2.0 = 0 1000 000 = 0x40. The four bad rows are in
  // place, each naming its stdin line.
  std::vector<std::string> rows = absl::StrSplit(r.out, '\n');
  ASSERT_EQ(rows.size(), 7u) << r.out;  // 6 rows and the empty string after the last '\n'
  EXPECT_EQ(rows[0], "0x00000038");
  EXPECT_TRUE(absl::StartsWith(rows[1], "error: line 2: expected 4 hex words")) << rows[1];
  EXPECT_TRUE(absl::StartsWith(rows[2], "error: line 3: more than 4 words")) << rows[2];
  EXPECT_TRUE(absl::StartsWith(rows[3], "error: line 5: word 2 'zz'")) << rows[3];
  EXPECT_TRUE(absl::StartsWith(rows[4], "error: line 6: word 1 '123456789'")) << rows[4];
  EXPECT_EQ(rows[5], "0x00000040");
  EXPECT_EQ(rows[6], "");
  for (const char* line : {"line 2:", "line 3:", "line 5:", "line 6:"}) {
    EXPECT_TRUE(absl::StrContains(r.err, line)) << line << " in " << r.err;
  }
  EXPECT_FALSE(absl::StrContains(r.err, "line 4:")) << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "line 7:")) << r.err;
}

TEST(EvalCommand, UsageErrorsListTheChoices) {
  RunResult r = RunEval("--targets gfx999 --instrs v_cvt_pk_u8_f32", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "gfx942")) << r.err;
  r = RunEval("--targets gfx908 --instrs v_cvt_sr_fp8_f32", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "gfx908 has no v_cvt_sr_fp8_f32")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "v_cvt_pk_u8_f32")) << r.err;
  r = RunEval("--targets gfx942 --instrs v_bogus", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "v_cvt_sr_bf8_f32")) << r.err;
  r = RunEval("--targets gfx942 --instrs v_cvt_sr_fp8_f32 --hypothesis nope=1", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "sr_rounding")) << r.err;
  r = RunEval("--targets gfx942 --instrs v_cvt_sr_fp8_f32 --hypothesis sr_rounding=maybe", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "carry_truncate")) << r.err;
  r = RunEval("--targets gfx942 --instrs v_cvt_sr_fp8_f32 --opsel 16", "");
  EXPECT_EQ(r.exit_code, 2);
  r = RunEval("--instrs v_cvt_sr_fp8_f32", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(r.err, "--targets")) << r.err;
}

TEST(EvalCommand, LargeBatchStreams) {
  // 300000 lanes (several read chunks, lines split across chunk boundaries): every answer in
  // order. Lane i alternates the two carry/literal discriminators with the byte of vdst_old
  // numbered so that order mistakes show.
  std::string input;
  std::string want;
  for (int i = 0; i < 300000; ++i) {
    const unsigned old = static_cast<unsigned>(i) << 8;
    if (i % 2 == 0) {
      input += absl::StrCat("0x3fffffff 0xfffff000 0 ", absl::Hex(old), "\n");
      want += absl::StrCat("0x", absl::Hex(old | 0x40, absl::kZeroPad8), "\n");
    } else {
      input += absl::StrCat("3f840000 80000000 0 ", absl::Hex(old), "\n");
      want += absl::StrCat("0x", absl::Hex(old | 0x38, absl::kZeroPad8), "\n");
    }
  }
  RunResult r = RunEval("--targets gfx1200 --instrs v_cvt_sr_fp8_f32", input);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out == want) << "outputs differ; sizes " << r.out.size() << " vs " << want.size();
}

}  // namespace
}  // namespace lanediff
