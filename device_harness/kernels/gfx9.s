// lanediff device kernel, GFX9 family (gfx908 gfx90a gfx942 gfx950): wave64 only.
//
// One lane per work-item: VDST = (instruction under test)(v1=src0[i], v2=src1[i],
// v3=src2[i], v4=vdst_old[i], s20..s22 = SGPR-source values) for i < n, stored to out.
// The register convention is device_harness/register_convention.h's RegisterConvention: v1..v3 hold the
// lane's src0..src2, v4 is VDST (loaded with vdst_old first), s20..s22 hold SGPR sources.
// A VGPR-pair writer (the row's dst_bits 64, KernelArgs::dst_words = 2) writes v[4:5]: v5 holds
// the lane's load offset before it (every pair row writes both words whole) and nothing needed
// afterwards: the store offset is recomputed from v0 into v1 (a source, dead by then).
//
// Kernel arguments (64 bytes; KernelArgs in device_harness/code_object.h mirrors it):
//   0 src0*   8 src1*  16 src2*  24 vdst_old*  32 out*  40 n  44 mode  48 sgpr0 52 sgpr1 56 sgpr2
//   60 dst_words
// out: dst_words = 1: out[i] = v4; dst_words = 2: out[2i] = v4, out[2i + 1] = v5 (the batch
// API's layout for a pair, runner.h). Then out[n * dst_words] = the MODE readback. The width
// costs the one-word path two SALU instructions before and a compare and branch after.
//
// The patch site (symbol lanediff_patch_site, st_size 12) holds a placeholder 8-byte VOP3
// (the first row of model/instrs.def with v4, v1, v2, v3, filled in by CMake: present on
// every target; device_harness/CMakeLists.txt) followed by s_nop 0. The host
// splices 8 bytes (and rewrites the s_nop) or 12 bytes (VOP3 with a literal; GFX10+ only).
// MODE: only MODE[7:0] (FP round and denorm fields) and MODE[23] (FP16_OVFL) are taken from
// the `mode` argument, each with its own s_setreg_b32 from a masked copy; the same fields are
// restored from the MODE value saved before, after the instruction and before the store.
// Other MODE bits (IEEE, DX10_CLAMP, exception enables) are never touched.
// Hazards: GFX9 needs 2 wait states between two s_setreg of the same register, or the first
// write can be lost (LLVM's GCNHazardRecognizer::checkSetRegHazards; llc-22 -mcpu=gfx942
// puts `s_nop 1` there). device_code_object_test's LlcOracle test compiles the same MODE
// writes and instruction with llc-22 and checks every gap here has at least LLVM's wait states
// (for a pair row also the gap from the instruction to the store of v5, against llc's store of
// the pair).
// Built by device_harness/CMakeLists.txt: configure_file fills the @...@ fields per target and
// wave size, then llvm-mc-22 -mcpu=T assembles and ld.lld-22 -shared links.
  .amdgcn_target "amdgcn-amd-amdhsa--@LANEDIFF_TARGET@"
  .amdhsa_code_object_version @LANEDIFF_CODE_OBJECT_VERSION@
  .include "@LANEDIFF_KERNEL_DIR@/readback.s"  // the MODE readback and store macros
  .text
  .globl lanediff_kernel
  .p2align 8
  .type lanediff_kernel,@function
lanediff_kernel:
  // s[0:1] kernarg pointer (user SGPRs), s2 workgroup id x (system SGPR), v0 work-item id.
  s_load_dwordx8 s[4:11], s[0:1], 0x0      // src0, src1, src2, vdst_old pointers
  s_load_dwordx4 s[12:15], s[0:1], 0x20    // out pointer, n, mode
  s_load_dwordx4 s[20:23], s[0:1], 0x30    // s20..s22 = SGPR-source values, s23 = dst_words
  v_and_b32_e32 v0, 0x3ff, v0              // work-item id x (ids may be packed)
  s_lshl_b32 s3, s2, 8                     // 256 work-items per workgroup
  v_add_u32_e32 v0, s3, v0                 // global lane index
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s23, 2                      // KernelArgs::dst_words: 2 = a VGPR pair v[4:5]
  s_cselect_b32 s31, 3, 2                  // log2 of a lane's bytes in out: 8 (pair) or 4
  v_cmp_gt_u32_e32 vcc, s14, v0            // lane index < n
  s_and_saveexec_b64 s[24:25], vcc
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
  s_nop 1                                  // GFX9: 2 wait states between s_setregs of MODE
  s_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s27
  s_waitcnt vmcnt(0)
  s_nop 7                                  // settle MODE before the instruction under test
  s_nop 7
lanediff_patch_site:
  @LANEDIFF_PLACEHOLDER_INSTR@ v4, v1, v2, v3  // placeholder: 8-byte VOP3, replaced by the host
  s_nop 0                                  // padding (or the literal dword of a 12-byte word)
  .size lanediff_patch_site, 12
  s_nop 7                                  // let the instruction retire before MODE changes
  s_nop 7
  LANEDIFF_READ_MODE_BACK HW_REG_MODE  // kernels/readback.s: MODE to v6, out[n * dst_words] offset to v7
  s_and_b32 s28, s26, 0xff                 // restore the fields we changed
  s_bfe_u32 s27, s26, 0x10017
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s28
  s_nop 1                                  // GFX9: 2 wait states between s_setregs of MODE
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
@LANEDIFF_ACCUM_OFFSET@
    .amdhsa_float_round_mode_32 0
    .amdhsa_float_round_mode_16_64 0
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
    .amdhsa_dx10_clamp 1
    .amdhsa_ieee_mode 1
  .end_amdhsa_kernel

  .include "@LANEDIFF_METADATA@"  // kernels/metadata.s: kernarg layout, wave size
