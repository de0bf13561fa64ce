// The decoder of the kernel interpreter (interp.h): exactly the instructions the harness
// kernels (device_harness/kernels/*.s) use, per family, and a printer in llvm-objdump-22's
// syntax so that every instruction of every built code object can be checked against LLVM's
// own disassembler (interp_test). Anything else is an error naming its encoding and offset:
// the interpreter never skips a word it does not know.
//
//   LANEDIFF_ASSIGN_OR_RETURN(Inst in, DecodeInst(Family::gfx11, 32, words, 0x1824));
//   Disassemble(Family::gfx11, 32, in) == "v_add_nc_u32_e32 v0, s3, v0"
//
// Encodings (field layouts and opcodes per family) follow LLVM's AMDGPU instruction
// definitions (llvm-project, llvm/lib/Target/AMDGPU: SOPInstructions.td, SMInstructions.td,
// VOP1/VOP2/VOPCInstructions.td, FLATInstructions.td) and were checked byte for byte against
// llvm-mc-22 / llvm-objdump-22 on the built code objects. The VOP3 instruction under test is
// not decoded here: the model's decoder (model/isa/vop3.h) owns it.
#ifndef LANEDIFF_DEVICE_HARNESS_INTERP_ISA_H_
#define LANEDIFF_DEVICE_HARNESS_INTERP_ISA_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "model/targets/targets.h"

namespace lanediff::interp {

// What an instruction does (its name differs by family: s_load_dwordx8 / s_load_b256).
enum class Op : uint8_t {
  s_load_b128, s_load_b256,                                   // SMEM
  s_mov_b32, s_mov_b64, s_and_saveexec_b32, s_and_saveexec_b64,  // SOP1
  s_and_b32, s_lshl_b32, s_cselect_b32, s_bfe_u32, s_add_i32, s_mul_i32,  // SOP2
  s_cmp_eq_u32,                                               // SOPC
  s_getreg_b32, s_setreg_b32, s_setreg_imm32_b32,             // SOPK
  s_nop, s_endpgm, s_cbranch_scc1, s_cbranch_execz, s_waitcnt, s_wait_kmcnt, s_wait_loadcnt,
  s_wait_alu, s_set_vgpr_msb,                                 // SOPP
  v_nop, v_mov_b32,                                           // VOP1
  v_and_b32, v_add_u32, v_lshlrev_b32, v_mul_u32_u24,         // VOP2
  v_cmp_gt_u32,                                               // VOPC
  global_load_b32, global_store_b32, global_prefetch_b8,      // FLAT / VGLOBAL
};

enum class Format : uint8_t { sop1, sop2, sopc, sopk, sopp, smem, vop1, vop2, vopc, global };

// One decoded instruction. Operand fields hold the encoding's codes: scalar operand codes
// (0..255: SGPRs, vcc, ttmp, m0/null, exec, inline integers, 255 = literal) and 9-bit VOP
// source codes (256 + n = vN).
struct Inst {
  Op op = Op::s_nop;
  Format format = Format::sopp;
  const char* name = "";  // the family's mnemonic, without _e32
  uint8_t bytes = 4;      // 4, 8 or 12
  uint16_t dst = 0;       // SOP sdst / SMEM sdata / VOP vdst (VGPR index) / load vdst
  uint16_t src0 = 0;      // SOP ssrc0 / VOP src0 (9-bit) / FLAT vaddr (VGPR index)
  uint16_t src1 = 0;      // SOP ssrc1 / VOP2 VOPC vsrc1 (VGPR index) / store vdata
  uint16_t sbase = 0;     // SMEM base / FLAT saddr (scalar operand code of the pair)
  uint16_t soffset = 0;   // SMEM SOFFSET code (null on every kernel)
  int32_t imm = 0;        // SOPP/SOPK simm16 (sign-extended for branches), SMEM/FLAT offset
  uint32_t literal = 0;   // the literal dword (has_literal)
  bool has_literal = false;
  uint8_t cpol = 0;       // FLAT cache policy bits as encoded (prefetch scope)
};

// Decodes the instruction starting at words[0] (the following dwords available as words[1..]).
// `address` only names the instruction in errors. Errors: an encoding or opcode the
// interpreter does not implement ("unknown instruction 0xd1dd0004 at 0x1890: VOP3 ..."), a
// truncated instruction, an operand form the kernels never use (SMEM with an SGPR offset).
absl::StatusOr<Inst> DecodeInst(Family family, int wave_size, absl::Span<const uint32_t> words,
                                uint64_t address);

// The instruction in llvm-objdump-22's syntax for that family and wave size.
std::string Disassemble(Family family, int wave_size, const Inst& in);

// A scalar operand code as LLVM prints it: "s4", "vcc_lo", "ttmp9", "null", "m0", "exec_lo",
// inline integers as decimals, the literal as 0x...; `pair` prints 64-bit operands ("s[4:5]",
// "vcc", "exec").
std::string ScalarName(Family family, uint16_t code, bool pair, uint32_t literal = 0);

// Scalar operand codes of the specials, per family.
inline constexpr uint16_t kVccLo = 106, kVccHi = 107, kTtmp0 = 108, kExecLo = 126, kExecHi = 127;
inline constexpr uint16_t kLiteral = 255;
inline uint16_t NullCode(Family f) { return f == Family::gfx9 ? 0xffff : f == Family::gfx10 ? 125 : 124; }
inline uint16_t M0Code(Family f) { return f == Family::gfx9 || f == Family::gfx10 ? 124 : 125; }

// hwreg ids the kernels read or write: MODE on every family, IB_STS2 on gfx1250 (the
// workgroup-cluster fields). "HW_REG_MODE" (GFX9-11) / "HW_REG_WAVE_MODE" (GFX12+).
inline constexpr int kHwRegMode = 1;
inline constexpr int kHwRegIbSts2 = 28;

}  // namespace lanediff::interp

#endif  // LANEDIFF_DEVICE_HARNESS_INTERP_ISA_H_
