// lanediff device kernel, GFX12.5 family (gfx1250 gfx1251): wave32 only
//
// Same contract as gfx9.s (read that file's header first): one lane per work-item, the
// register convention of device_harness/register_convention.h (v1..v3 = src0..src2, v4 = VDST loaded with
// vdst_old, s20..s22 = SGPR-source values), the 64-byte kernel-argument layout (KernelArgs in
// device_harness/code_object.h) and the 12-byte patch site lanediff_patch_site. Like the GFX9
// kernel it takes the wide rows (gfx1250's 8- and 16-element scaled conversions, KernelCapacity
// in code_object.h), with the GFX9 kernel's tuple layout: a source of N > 1 dwords is the VGPR
// tuple v[36:36+N-1] (src0, N <= 32) or v[68:68+N-1] (src1, N <= 16), loaded one dword at a
// time from src0[i*N .. i*N+N-1] (src1 likewise); VDST is v[4:4+M-1] (M = KernelArgs::shape[7:0]
// <= 32), stored to out[i*M .. i*M+M-1], and the MODE readback to out[n * M]. Before the
// instruction v5, v8 and v9 hold load offsets (dead after: every wide row writes its words
// whole); after it v1 holds the store offset and v2, v3 the MODE readback and its offset
// (sources, dead by then). No register an outstanding load or store addresses (v5, v8, v9,
// v1, v3, s[4:13]) is written before s_wait_loadcnt or s_endpgm, so the kernel needs none of
// the s_wait_xcnt llc-22 puts before such a write on gfx1250. No silicon has run this kernel:
// its bytes are checked against llvm-objdump-22, its wait states against llc-22's
// (code_object_test) and its execution by the kernel interpreter (device_harness/interp).
// gfx1250 (LLVM PRs #174681, #184904, #191362): an S_SETREG to MODE also writes the VGPR-MSB
// bits MODE[19:12] whatever its size field says, and an S_SET_VGPR_MSB right after a MODE
// setreg can be dropped. So every value we write has bits [19:12] clear, and every MODE
// write is followed by s_nop 0 and s_set_vgpr_msb 0 (this kernel uses v0..v83, all below v256,
// so the MSBs must be 0).
// configure_file fills the @...@ fields per target and wave size (device_harness/CMakeLists.txt).
  .amdgcn_target "amdgcn-amd-amdhsa--@LANEDIFF_TARGET@"
  .amdhsa_code_object_version @LANEDIFF_CODE_OBJECT_VERSION@
// One dword of a source tuple: v[base+k] = the dword at sbase + voff + 4k, then out (branch to
// `done`) when k is its last dword (`slast` = N - 1). As gfx9.s's, with GFX12's load.
.macro LANEDIFF_LOAD_TUPLE_DWORD base, voff, sbase, slast, k, done
  global_load_b32 v[\base+\k], \voff, \sbase offset:4*\k
  s_cmp_eq_u32 \slast, \k
  s_cbranch_scc1 \done
.endm
  .text
  .globl lanediff_kernel
  .p2align 8
  .type lanediff_kernel,@function
lanediff_kernel:
  // The hardware entry sequence every gfx1250 entry point must begin with (an unclaused first
  // VMEM access; a hardware workaround): llvm-project PR #208467 added it to LLVM's codegen
  // (SIInsertWaitcnts, `global_wb scope:SCOPE_CU; v_nop`), #210874 made it a
  // global_prefetch_b8, #215450 gave the prefetch a zeroed SGPR-pair address and #216897 gave
  // it its current form, which the assembler checks ("kernel ... does not begin with the
  // required prologue sequence: s_mov_b64 followed by v_nop and global_prefetch_b8", LLVM MC
  // test of the gfx1250 prologue warning; llc then emits exactly these three lines first).
  // s[64:65] is never initialised by the hardware (hence .amdhsa_next_free_sgpr 66); the
  // v_nop covers the SGPR write before the prefetch reads it; v0 (work-item id) is defined.
  s_mov_b64 s[64:65], 0
  v_nop
  global_prefetch_b8 v0, s[64:65] scope:SCOPE_SE th:TH_LOAD_RT
  // gfx1250 A0: an s_setreg* of MODE needs two v_nop immediately before it (AMD's A0
  // translator inserts them, ROCm/rocm-systems PR #10208). Unverified on silicon and harmless on
  // B0, so every MODE write here has them.
  v_nop
  v_nop
  // LLVM 22 starts every gfx1250 kernel by setting MODE[25]; do the same.
  s_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 25, 1), 1
  s_nop 0                                  // see the VGPR-MSB note below
  s_set_vgpr_msb 0
  // s[0:1] kernarg pointer (user SGPRs), v0 work-item id.
  s_load_b256 s[4:11], s[0:1], 0x0      // src0, src1, src2, vdst_old pointers
  s_load_b128 s[12:15], s[0:1], 0x20    // out pointer, n, mode
  s_load_b128 s[20:23], s[0:1], 0x30    // s20..s22 = SGPR-source values, s23 = KernelArgs::shape
  v_and_b32_e32 v0, 0x3ff, v0              // work-item id x (ids may be packed)
  // GFX12.5 has architected SGPRs and workgroup clusters. Without clusters (IB_STS2[9:6]
  // = 0; hipModuleLaunchKernel launches none) ttmp9 is the workgroup id x; with clusters it
  // is the cluster id, and the id is cluster_id * cluster_size_x + id within the cluster
  // (ttmp6[15:12] = cluster size x - 1, ttmp6[3:0] = id within the cluster), as LLVM 22
  // computes it.
  s_bfe_u32 s2, ttmp6, 0x4000c
  s_and_b32 s3, ttmp6, 15
  s_add_co_i32 s2, s2, 1
  s_mul_i32 s2, ttmp9, s2
  s_add_co_i32 s3, s3, s2
  s_getreg_b32 s2, hwreg(HW_REG_IB_STS2, 6, 4)
  s_cmp_eq_u32 s2, 0
  s_cselect_b32 s2, ttmp9, s3
  s_lshl_b32 s3, s2, 8                     // 256 work-items per workgroup
  v_add_nc_u32_e32 v0, s3, v0                 // global lane index
  s_wait_kmcnt 0x0
  s_and_b32 s31, s23, 0xff                 // M: VDST words per lane (KernelArgs::shape[7:0])
  s_lshl_b32 s31, s31, 2                   // a lane's bytes in out: 4M
  s_bfe_u32 s16, s23, 0x80008              // src0 dwords - 1 (shape[15:8])
  s_bfe_u32 s17, s23, 0x80010              // src1 dwords - 1 (shape[23:16])
  s_add_co_i32 s18, s16, 1
  s_lshl_b32 s18, s18, 2                   // a lane's bytes in src0: 4 * src0 dwords
  s_add_co_i32 s19, s17, 1
  s_lshl_b32 s19, s19, 2                   // a lane's bytes in src1
  .if @LANEDIFF_WAVE@ == 64
  v_cmp_gt_u32_e32 vcc, s14, v0            // lane index < n
  s_and_saveexec_b64 s[24:25], vcc
  .else
  v_cmp_gt_u32_e32 vcc_lo, s14, v0         // lane index < n
  s_and_saveexec_b32 s24, vcc_lo
  .endif
  s_cbranch_execz .Lend
  v_lshlrev_b32_e32 v5, 2, v0              // the lane's operand offset (v5 is a pair's VDST+1: dead after)
  global_load_b32 v1, v5, s[4:5]
  global_load_b32 v2, v5, s[6:7]
  global_load_b32 v3, v5, s[8:9]
  global_load_b32 v4, v5, s[10:11]
  s_cmp_eq_u32 s16, 0                      // src0 is one dword: no tuple
  s_cbranch_scc1 .Lsrc0_loaded
  v_mul_u32_u24_e32 v8, s18, v0            // the lane's offset in src0: i * 4N
  .irp k, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    LANEDIFF_LOAD_TUPLE_DWORD 36, v8, s[4:5], s16, \k, .Lsrc0_loaded
  .endr
.Lsrc0_loaded:
  s_cmp_eq_u32 s17, 0                      // src1 is one dword: no tuple
  s_cbranch_scc1 .Lsrc1_loaded
  v_mul_u32_u24_e32 v9, s19, v0            // the lane's offset in src1
  .irp k, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    LANEDIFF_LOAD_TUPLE_DWORD 68, v9, s[6:7], s17, \k, .Lsrc1_loaded
  .endr
.Lsrc1_loaded:
  s_getreg_b32 s26, hwreg(HW_REG_WAVE_MODE, 0, 32)   // save MODE
  s_and_b32 s28, s15, 0xff                 // requested MODE[7:0]: FP round and denorm fields
  s_bfe_u32 s27, s15, 0x10017              // requested MODE[23]: FP16_OVFL (1 bit at offset 23)
  s_wait_alu depctr_sa_sdst(0)             // SALU-written SGPR read by s_setreg (GFX12 hazard)
  v_nop                                    // gfx1250 A0: two v_nop right before a MODE write
  v_nop
  s_setreg_b32 hwreg(HW_REG_WAVE_MODE, 0, 8), s28
  s_nop 0                                  // gfx1250: S_SETREG to MODE also writes the VGPR-MSB
  s_set_vgpr_msb 0                         // bits MODE[19:12]; put back 0 (we use v0..v83)
  s_wait_alu depctr_sa_sdst(0)             // SALU-written SGPR read by s_setreg (GFX12 hazard)
  v_nop                                    // gfx1250 A0: two v_nop right before a MODE write
  v_nop
  s_setreg_b32 hwreg(HW_REG_WAVE_MODE, 23, 1), s27
  s_nop 0                                  // gfx1250: S_SETREG to MODE also writes the VGPR-MSB
  s_set_vgpr_msb 0                         // bits MODE[19:12]; put back 0 (we use v0..v83)
  s_wait_loadcnt 0x0
  s_nop 7                                  // settle MODE before the instruction under test
  s_nop 7
lanediff_patch_site:
  @LANEDIFF_PLACEHOLDER_INSTR@ v4, v1, v2, v3  // placeholder: 8-byte VOP3, replaced by the host
  s_nop 0                                  // padding, or the literal dword of a 12-byte word
  .size lanediff_patch_site, 12
  s_nop 7                                  // let the instruction retire before MODE changes
  s_nop 7
  s_getreg_b32 s29, hwreg(HW_REG_WAVE_MODE, 0, 32)  // MODE as the instruction ran
  s_mul_i32 s30, s14, s31                  // the offset of out[n * M]
  v_mov_b32_e32 v2, s29
  v_mov_b32_e32 v3, s30
  s_and_b32 s28, s26, 0xff                 // restore the fields we changed
  s_bfe_u32 s27, s26, 0x10017
  s_wait_alu depctr_sa_sdst(0)             // SALU-written SGPR read by s_setreg (GFX12 hazard)
  v_nop                                    // gfx1250 A0: two v_nop right before a MODE write
  v_nop
  s_setreg_b32 hwreg(HW_REG_WAVE_MODE, 0, 8), s28
  s_nop 0                                  // gfx1250: S_SETREG to MODE also writes the VGPR-MSB
  s_set_vgpr_msb 0                         // bits MODE[19:12]; put back 0 (we use v0..v83)
  s_wait_alu depctr_sa_sdst(0)             // SALU-written SGPR read by s_setreg (GFX12 hazard)
  v_nop                                    // gfx1250 A0: two v_nop right before a MODE write
  v_nop
  s_setreg_b32 hwreg(HW_REG_WAVE_MODE, 23, 1), s27
  s_nop 0                                  // gfx1250: S_SETREG to MODE also writes the VGPR-MSB
  s_set_vgpr_msb 0                         // bits MODE[19:12]; put back 0 (we use v0..v83)
  v_mul_u32_u24_e32 v1, s31, v0            // lane i's offset in out: i * 4M
  global_store_b32 v1, v4, s[12:13]        // out[i * M] = VDST
  global_store_b32 v3, v2, s[12:13]        // out[n * M] = MODE readback
  s_and_b32 s28, s23, 0xff                 // M
  .irp k, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    s_cmp_eq_u32 s28, \k                   // the lane's words are stored
    s_cbranch_scc1 .Lend
    global_store_b32 v1, v[4+\k], s[12:13] offset:4*\k  // out[i * M + k] = VDST+k
  .endr
.Lend:
  s_endpgm
.Lkernel_end:
  .size lanediff_kernel, .Lkernel_end-lanediff_kernel

  .rodata
  .p2align 6
  .amdhsa_kernel lanediff_kernel
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_user_sgpr_count 2
    .amdhsa_kernarg_size 64
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr @LANEDIFF_VGPR_COUNT@  // v0..v83: 4 + 32 VDST words, tuples at v36, v68
    .amdhsa_next_free_sgpr 66
    .amdhsa_float_round_mode_32 0
    .amdhsa_float_round_mode_16_64 0
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
    .amdhsa_wavefront_size32 1
    .amdhsa_memory_ordered 1
    .amdhsa_forward_progress 1
  .end_amdhsa_kernel

  .include "@LANEDIFF_METADATA@"  // kernels/metadata.s: kernarg layout, wave size
