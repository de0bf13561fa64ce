// MODE readback, shared by every family's kernel (kernels/<family>.s includes this file and
// invokes the macro after the instruction under test, before MODE is restored): MODE as the
// instruction ran goes to s29, the byte offset of out[n * dst_words] (one slot past the lanes'
// words; n is in s14, KernelArgs::n, and s31 = log2 of a lane's bytes in out, 2 or 3 as
// KernelArgs::dst_words is 1 or 2) to s30, and both to v6/v7 for the store each kernel does
// last (every lane stores the same word). The host compares it with the batch's MODE
// (runner.h CheckModeReadback). `mode_reg` is HW_REG_MODE (GFX9-11) or HW_REG_WAVE_MODE
// (GFX12+).
.macro LANEDIFF_READ_MODE_BACK mode_reg
  s_getreg_b32 s29, hwreg(\mode_reg, 0, 32)
  s_lshl_b32 s30, s14, s31
  v_mov_b32_e32 v6, s29
  v_mov_b32_e32 v7, s30
.endm
