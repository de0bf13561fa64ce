// lanediff device kernel, GFX9 family (gfx908 gfx90a gfx942 gfx950): wave64 only.
//
// One lane per work-item: VDST = (instruction under test)(v1=src0[i], v2=src1[i],
// v3=src2[i], v4=vdst_old[i], s20..s22 = SGPR-source values) for i < n, stored to out.
// The register convention is device_harness/register_convention.h's RegisterConvention: v1..v3 hold the
// lane's src0..src2, v4 is VDST (loaded with vdst_old first), s20..s22 hold SGPR sources.
// A wide row (its LaneShape, model/base/lanes.h: N dwords per source, M words per lane out)
// also runs here, the one family whose kernel takes every shape (KernelCapacity, code_object.h):
// a source of N > 1 dwords is the VGPR tuple v[36:36+N-1] (src0, N <= 32) or v[68:68+N-1]
// (src1, N <= 16), loaded from src0[i*N .. i*N+N-1] (src1 likewise); VDST is v[4:4+M-1]
// (M <= 32). Before the instruction v5, v8 and v9 hold load offsets (dead after: every wide row
// writes its words whole); after it v1 holds the store offset and v2, v3 the MODE readback
// and its offset (sources, dead by then).
//
// Kernel arguments (64 bytes; KernelArgs in device_harness/code_object.h mirrors it):
//   0 src0*   8 src1*  16 src2*  24 vdst_old*  32 out*  40 n  44 mode  48 sgpr0 52 sgpr1 56 sgpr2
//   60 shape: [7:0] M = VDST words per lane, [15:8] src0 dwords - 1, [23:16] src1 dwords - 1,
//      [31:24] src2 dwords - 1 (KernelShapeWord; a one-dword row's shape is its dst_words)
// out: out[i*M + k] = v[4+k] for k < M (the batch API's layout, runner.h). Then out[n * M] = the
// MODE readback. The shape costs a one-dword row a few SALU instructions before (the fields,
// two compares and branches over the tuple loads) and one compare and branch after.
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

// Loads dword k of a source tuple at v[base + k] from the lane's offset `voff` in the buffer
// `sbase`, then ends the tuple (branch to `done`) when k is its last dword (`slast` = N - 1).
.macro LANEDIFF_LOAD_TUPLE_DWORD base, voff, sbase, slast, k, done
  global_load_dword v[\base+\k], \voff, \sbase offset:4*\k
  s_cmp_eq_u32 \slast, \k
  s_cbranch_scc1 \done
.endm
  .text
  .globl lanediff_kernel
  .p2align 8
  .type lanediff_kernel,@function
lanediff_kernel:
  // s[0:1] kernarg pointer (user SGPRs), s2 workgroup id x (system SGPR), v0 work-item id.
  s_load_dwordx8 s[4:11], s[0:1], 0x0      // src0, src1, src2, vdst_old pointers
  s_load_dwordx4 s[12:15], s[0:1], 0x20    // out pointer, n, mode
  s_load_dwordx4 s[20:23], s[0:1], 0x30    // s20..s22 = SGPR-source values, s23 = KernelArgs::shape
  v_and_b32_e32 v0, 0x3ff, v0              // work-item id x (ids may be packed)
  s_lshl_b32 s3, s2, 8                     // 256 work-items per workgroup
  v_add_u32_e32 v0, s3, v0                 // global lane index
  s_waitcnt lgkmcnt(0)
  s_and_b32 s31, s23, 0xff                 // M: VDST words per lane (KernelArgs::shape[7:0])
  s_lshl_b32 s31, s31, 2                   // a lane's bytes in out: 4M
  s_bfe_u32 s16, s23, 0x80008              // src0 dwords - 1 (shape[15:8])
  s_bfe_u32 s17, s23, 0x80010              // src1 dwords - 1 (shape[23:16])
  s_add_i32 s18, s16, 1
  s_lshl_b32 s18, s18, 2                   // a lane's bytes in src0: 4 * src0 dwords
  s_add_i32 s19, s17, 1
  s_lshl_b32 s19, s19, 2                   // a lane's bytes in src1
  v_cmp_gt_u32_e32 vcc, s14, v0            // lane index < n
  s_and_saveexec_b64 s[24:25], vcc
  s_cbranch_execz .Lend
  v_lshlrev_b32_e32 v5, 2, v0              // the lane's operand offset (v5 is a pair's VDST+1: dead after)
  global_load_dword v1, v5, s[4:5]
  global_load_dword v2, v5, s[6:7]
  global_load_dword v3, v5, s[8:9]
  global_load_dword v4, v5, s[10:11]
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
  s_getreg_b32 s29, hwreg(HW_REG_MODE, 0, 32)  // MODE as the instruction ran
  s_mul_i32 s30, s14, s31                  // the offset of out[n * M]
  v_mov_b32_e32 v2, s29
  v_mov_b32_e32 v3, s30
  s_and_b32 s28, s26, 0xff                 // restore the fields we changed
  s_bfe_u32 s27, s26, 0x10017
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s28
  s_nop 1                                  // GFX9: 2 wait states between s_setregs of MODE
  s_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s27
  v_mul_u32_u24_e32 v1, s31, v0            // lane i's offset in out: i * 4M
  global_store_dword v1, v4, s[12:13]      // out[i * M] = VDST
  global_store_dword v3, v2, s[12:13]      // out[n * M] = MODE readback
  s_and_b32 s28, s23, 0xff                 // M
  .irp k, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    s_cmp_eq_u32 s28, \k                   // the lane's words are stored
    s_cbranch_scc1 .Lend
    global_store_dword v1, v[4+\k], s[12:13] offset:4*\k  // out[i * M + k] = VDST+k
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
