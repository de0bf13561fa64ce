// The MODE readback and the final stores, shared by the GFX10, GFX11 and GFX12 kernels
// (kernels/<family>.s includes this file; the GFX9 and GFX12.5 kernels, which store a wide
// lane's VDST tuple, have their own).
//
// LANEDIFF_READ_MODE_BACK, invoked after the instruction under test and before MODE is
// restored: MODE as the instruction ran goes to s29, the byte offset of out[n * dst_words]
// (one slot past the lanes' words; n is in s14, KernelArgs::n, and s31 = log2 of a lane's
// bytes in out, 2 or 3 as KernelArgs::shape is 1 or 2) to s30, and both to v6/v7 for
// LANEDIFF_STORE_RESULTS (every lane stores the same word). The host compares it with the
// batch's MODE (runner.h CheckModeReadback). `mode_reg` is HW_REG_MODE (GFX9-11) or
// HW_REG_WAVE_MODE (GFX12+).
.macro LANEDIFF_READ_MODE_BACK mode_reg
  s_getreg_b32 s29, hwreg(\mode_reg, 0, 32)
  s_lshl_b32 s30, s14, s31
  v_mov_b32_e32 v6, s29
  v_mov_b32_e32 v7, s30
.endm

// The stores every family's kernel ends with, after MODE is restored: lane i's VDST (v4) to
// out[i * dst_words], the MODE readback (v6 at the offset in v7, from LANEDIFF_READ_MODE_BACK)
// to out[n * dst_words], and for a VGPR pair (s31 = 3: KernelArgs::shape = 2) VDST+1 (v5) to
// out[2i + 1]; a one-word row branches to .Lend, the kernel's s_endpgm. The store offset is
// recomputed from v0 (the lane index) into v1: the sources v1..v3 are dead by then, and v4, v5
// may be the result. `store` is the family's 32-bit global store (global_store_dword on
// GFX9/GFX10, global_store_b32 on GFX12+).
.macro LANEDIFF_STORE_RESULTS store
  v_lshlrev_b32_e32 v1, s31, v0            // lane i's offset in out: i * 4, or i * 8 for a pair
  \store v1, v4, s[12:13]                   // out[i * dst_words] = VDST
  \store v7, v6, s[12:13]                   // out[n * dst_words] = MODE readback
  s_cmp_eq_u32 s31, 2                      // one VDST word: done
  s_cbranch_scc1 .Lend
  \store v1, v5, s[12:13] offset:4          // out[2i + 1] = VDST+1 of a VGPR pair
.endm
