// lanediff device kernel, GFX10 and GFX11 families (gfx1010 gfx1030 gfx1100 gfx1150): wave32
// and wave64. GFX11 renamed s_load_dwordx8/x4, global_load_dword and global_store_dword to
// s_load_b256/b128, global_load_b32 and global_store_b32; LLVM 22 still takes the GFX10
// spellings on GFX11 and emits the same bytes, so one source serves both families.
//
// Same contract as gfx9.s (read that file's header first): one lane per work-item, the
// register convention of device_harness/register_convention.h (v1..v3 = src0..src2, v4 = VDST loaded with
// vdst_old, s20..s22 = SGPR-source values; v[4:5] for a VGPR pair), the 64-byte
// kernel-argument layout (KernelArgs in device_harness/code_object.h; shape = 2 stores
// VDST+1 at out[2i + 1] and the MODE readback at out[2n]), and the 12-byte patch site
// lanediff_patch_site.
// configure_file fills the @...@ fields per target and wave size (device_harness/CMakeLists.txt).
  .amdgcn_target "amdgcn-amd-amdhsa--@LANEDIFF_TARGET@"
  .amdhsa_code_object_version @LANEDIFF_CODE_OBJECT_VERSION@
  .include "@LANEDIFF_KERNEL_DIR@/readback.s"  // the MODE readback and store macros
  .text
  .globl lanediff_kernel
  .p2align 8
  .type lanediff_kernel,@function
lanediff_kernel:
  // s[0:1] kernarg pointer (user SGPRs), v0 work-item id.
  s_load_dwordx8 s[4:11], s[0:1], 0x0      // src0, src1, src2, vdst_old pointers
  s_load_dwordx4 s[12:15], s[0:1], 0x20    // out pointer, n, mode
  s_load_dwordx4 s[20:23], s[0:1], 0x30    // s20..s22 = SGPR-source values, s23 = KernelArgs::shape (= VDST words here)
  v_and_b32_e32 v0, 0x3ff, v0              // work-item id x (ids may be packed)
  // s2 = workgroup id x (system SGPR after the 2 user SGPRs)
  s_lshl_b32 s3, s2, 8                     // 256 work-items per workgroup
  v_add_nc_u32_e32 v0, s3, v0                 // global lane index
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s23, 2                      // KernelArgs::shape: 2 = a VGPR pair v[4:5]
  s_cselect_b32 s31, 3, 2                  // log2 of a lane's bytes in out: 8 (pair) or 4
  .if @LANEDIFF_WAVE@ == 64
  v_cmp_gt_u32_e32 vcc, s14, v0            // lane index < n
  s_and_saveexec_b64 s[24:25], vcc
  .else
  v_cmp_gt_u32_e32 vcc_lo, s14, v0         // lane index < n
  s_and_saveexec_b32 s24, vcc_lo
  .endif
  s_cbranch_execz .Lend
  v_lshlrev_b32_e32 v5, 2, v0              // the lane's operand offset (v5 is a pair's VDST+1: dead after)
  global_load_dword v1, v5, s[4:5]
  global_load_dword v2, v5, s[6:7]
  global_load_dword v3, v5, s[8:9]
  global_load_dword v4, v5, s[10:11]
  s_getreg_b32 s26, hwreg(HW_REG_MODE, 0, 32)   // save MODE
  s_and_b32 s28, s15, 0xff                 // requested MODE[7:0]: FP round and denorm fields
  s_bfe_u32 s27, s15, 0x10017              // requested MODE[23]: FP16_OVFL (1 bit at offset 23)
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s28
  s_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s27
  s_waitcnt vmcnt(0)
  s_nop 7                                  // settle MODE before the instruction under test
  s_nop 7
lanediff_patch_site:
  @LANEDIFF_PLACEHOLDER_INSTR@ v4, v1, v2, v3  // placeholder: 8-byte VOP3, replaced by the host
  s_nop 0                                  // padding, or the literal dword of a 12-byte word
  .size lanediff_patch_site, 12
  s_nop 7                                  // let the instruction retire before MODE changes
  s_nop 7
  LANEDIFF_READ_MODE_BACK HW_REG_MODE  // kernels/readback.s: MODE to v6, out[n * dst_words] offset to v7
  s_and_b32 s28, s26, 0xff                 // restore the fields we changed
  s_bfe_u32 s27, s26, 0x10017
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s28
  s_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s27
  LANEDIFF_STORE_RESULTS global_store_dword      // kernels/readback.s: VDST (and VDST+1), the MODE readback
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
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 32
    .amdhsa_float_round_mode_32 0
    .amdhsa_float_round_mode_16_64 0
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
    .amdhsa_wavefront_size32 @LANEDIFF_WAVE32@
    .amdhsa_dx10_clamp 1
    .amdhsa_ieee_mode 1
    .amdhsa_workgroup_processor_mode 1
    .amdhsa_memory_ordered 1
    .amdhsa_forward_progress 1
  .end_amdhsa_kernel

  .include "@LANEDIFF_METADATA@"  // kernels/metadata.s: kernarg layout, wave size
