// Expected strings are llvm-mc-22's own output (Debian LLVM 22.1.8), captured with the command
// quoted above each case.
#include "fuzz/cli/llvm_mc_format.h"

#include "gtest/gtest.h"

namespace lanediff {
namespace {

TEST(LlvmMcLine, PadsTheEncodingCommentToColumn40) {
  // echo 'v_cvt_pk_u8_f32 v5, v1, v2, s3' | llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding
  EXPECT_EQ(LlvmMcLine("v_cvt_pk_u8_f32 v5, v1, v2, s3", "[0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]"),
            "\tv_cvt_pk_u8_f32 v5, v1, v2, s3          ; encoding: "
            "[0x05,0x00,0xdd,0xd1,0x01,0x05,0x0e,0x00]\n");
  // echo 'v_cvt_sr_fp8_f32 v1, v2, v3 op_sel:[0,0,1,1]' | llvm-mc-22 ... -mcpu=gfx950
  // -show-encoding: 44 characters, one space.
  EXPECT_EQ(LlvmMcLine("v_cvt_sr_fp8_f32 v1, v2, v3 op_sel:[0,0,1,1]",
                       "[0x01,0x60,0xa4,0xd2,0x02,0x07,0x02,0x00]"),
            "\tv_cvt_sr_fp8_f32 v1, v2, v3 op_sel:[0,0,1,1] ; encoding: "
            "[0x01,0x60,0xa4,0xd2,0x02,0x07,0x02,0x00]\n");
  // ... | llvm-mc-22 -arch=amdgcn -mcpu=gfx942 --disassemble
  EXPECT_EQ(LlvmMcLine("v_cvt_pk_u8_f32 v5, v1, v2, s3", ""), "\tv_cvt_pk_u8_f32 v5, v1, v2, s3\n");
  EXPECT_EQ(LlvmMcLine("x", "", "why"), "\tx ; why\n");
}

TEST(LlvmMcDiagnostic, EchoesTheLineWithACaret) {
  // printf 'v_cvt_pk_u8_f32 v5, v1, v2, s3\nv_cvt_pk_u8_f32 v5, v1, bogus, s3\n' |
  //   llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding
  EXPECT_EQ(LlvmMcDiagnostic(2, 25, "error", "literal operands are not supported",
                             "v_cvt_pk_u8_f32 v5, v1, bogus, s3"),
            "<stdin>:2:25: error: literal operands are not supported\n"
            "v_cvt_pk_u8_f32 v5, v1, bogus, s3\n"
            "                        ^\n");
  // printf '\tv_cvt_pk_u8_f32 v5, v1,, v2, v3\n' | llvm-mc-22 ...: the column counts the tab
  // as one, the echo expands it to 8 spaces and the caret follows.
  EXPECT_EQ(LlvmMcDiagnostic(11, 25, "error", "unknown token in expression",
                             "\tv_cvt_pk_u8_f32 v5, v1,, v2, v3"),
            "<stdin>:11:25: error: unknown token in expression\n"
            "        v_cvt_pk_u8_f32 v5, v1,, v2, v3\n"
            "                               ^\n");
  // echo foo v1 | llvm-mc-22 ...: column 1, caret in column 1.
  EXPECT_EQ(LlvmMcDiagnostic(10, 1, "error", "invalid instruction", "foo v1"),
            "<stdin>:10:1: error: invalid instruction\nfoo v1\n^\n");
}

TEST(ColumnOfQuotedToken, PointsAtTheQuotedOperand) {
  EXPECT_EQ(ColumnOfQuotedToken("v_cvt_pk_u8_f32 v5, v1, bogus, s3", "'bogus' is not a register"),
            25);
  // The token also appears in the mnemonic: the operand is meant.
  EXPECT_EQ(ColumnOfQuotedToken("  v_cvt_pk_u8_f32 v5, v1, u8, s3", "'u8' is not"), 27);
  EXPECT_EQ(ColumnOfQuotedToken("  foo v1", "unknown instruction"), 3);
  EXPECT_EQ(ColumnOfQuotedToken("foo v1", "'zz' nowhere"), 1);
}

}  // namespace
}  // namespace lanediff
