#include "device_harness/interp/isa.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/base/status.h"

namespace lanediff::interp {
namespace {

// One row: an opcode of a format on a set of families, what it does, its mnemonic there.
struct Row {
  Format format;
  FamilySet families;
  uint16_t opcode;
  Op op;
  const char* name;
};

constexpr FamilySet k9 = FamilyBit(Family::gfx9);
constexpr FamilySet k10 = FamilyBit(Family::gfx10);
constexpr FamilySet k11 = FamilyBit(Family::gfx11);
constexpr FamilySet k12 = FamilyBit(Family::gfx12);
constexpr FamilySet k1250 = FamilyBit(Family::gfx1250);
constexpr FamilySet k12p = k12 | k1250;
constexpr FamilySet k11p = k11 | k12p;
constexpr FamilySet k10p = k10 | k11p;

// Opcodes as LLVM 22 encodes them (SOPInstructions.td: the _vi, _gfx10, _gfx11, _gfx12
// real instructions; SMInstructions.td; VOP1/VOP2/VOPCInstructions.td; FLATInstructions.td),
// each checked on the built code objects by interp_test's llvm-objdump comparison.
constexpr Row kRows[] = {
    {Format::smem, k9 | k10, 0x02, Op::s_load_b128, "s_load_dwordx4"},
    {Format::smem, k9 | k10, 0x03, Op::s_load_b256, "s_load_dwordx8"},
    {Format::smem, k11p, 0x02, Op::s_load_b128, "s_load_b128"},
    {Format::smem, k11p, 0x03, Op::s_load_b256, "s_load_b256"},
    {Format::sop1, k9 | k11p, 0x00, Op::s_mov_b32, "s_mov_b32"},
    {Format::sop1, k9 | k11p, 0x01, Op::s_mov_b64, "s_mov_b64"},
    {Format::sop1, k10, 0x03, Op::s_mov_b32, "s_mov_b32"},
    {Format::sop1, k10, 0x04, Op::s_mov_b64, "s_mov_b64"},
    {Format::sop1, k9, 0x20, Op::s_and_saveexec_b64, "s_and_saveexec_b64"},
    {Format::sop1, k10, 0x24, Op::s_and_saveexec_b64, "s_and_saveexec_b64"},
    {Format::sop1, k10, 0x3c, Op::s_and_saveexec_b32, "s_and_saveexec_b32"},
    {Format::sop1, k11p, 0x20, Op::s_and_saveexec_b32, "s_and_saveexec_b32"},
    {Format::sop1, k11p, 0x21, Op::s_and_saveexec_b64, "s_and_saveexec_b64"},
    {Format::sop2, k9 | k10, 0x0a, Op::s_cselect_b32, "s_cselect_b32"},
    {Format::sop2, k9, 0x0c, Op::s_and_b32, "s_and_b32"},
    {Format::sop2, k9, 0x1c, Op::s_lshl_b32, "s_lshl_b32"},
    {Format::sop2, k9, 0x25, Op::s_bfe_u32, "s_bfe_u32"},
    {Format::sop2, k9, 0x02, Op::s_add_i32, "s_add_i32"},
    {Format::sop2, k9, 0x24, Op::s_mul_i32, "s_mul_i32"},
    {Format::sop2, k10, 0x0e, Op::s_and_b32, "s_and_b32"},
    {Format::sop2, k10, 0x1e, Op::s_lshl_b32, "s_lshl_b32"},
    {Format::sop2, k10, 0x27, Op::s_bfe_u32, "s_bfe_u32"},
    {Format::sop2, k11p, 0x30, Op::s_cselect_b32, "s_cselect_b32"},
    {Format::sop2, k11p, 0x16, Op::s_and_b32, "s_and_b32"},
    {Format::sop2, k11p, 0x08, Op::s_lshl_b32, "s_lshl_b32"},
    {Format::sop2, k11p, 0x26, Op::s_bfe_u32, "s_bfe_u32"},
    {Format::sop2, k12p, 0x02, Op::s_add_i32, "s_add_co_i32"},
    {Format::sop2, k12p, 0x2c, Op::s_mul_i32, "s_mul_i32"},
    {Format::sopc, k9 | k10p, 0x06, Op::s_cmp_eq_u32, "s_cmp_eq_u32"},
    {Format::sopk, k9 | k11p, 0x11, Op::s_getreg_b32, "s_getreg_b32"},
    {Format::sopk, k9 | k11p, 0x12, Op::s_setreg_b32, "s_setreg_b32"},
    {Format::sopk, k10, 0x12, Op::s_getreg_b32, "s_getreg_b32"},
    {Format::sopk, k10, 0x13, Op::s_setreg_b32, "s_setreg_b32"},
    {Format::sopk, k12p, 0x13, Op::s_setreg_imm32_b32, "s_setreg_imm32_b32"},
    {Format::sopp, k9 | k10p, 0x00, Op::s_nop, "s_nop"},
    {Format::sopp, k9 | k10, 0x01, Op::s_endpgm, "s_endpgm"},
    {Format::sopp, k9 | k10, 0x05, Op::s_cbranch_scc1, "s_cbranch_scc1"},
    {Format::sopp, k9 | k10, 0x08, Op::s_cbranch_execz, "s_cbranch_execz"},
    {Format::sopp, k9 | k10, 0x0c, Op::s_waitcnt, "s_waitcnt"},
    {Format::sopp, k11p, 0x30, Op::s_endpgm, "s_endpgm"},
    {Format::sopp, k11p, 0x22, Op::s_cbranch_scc1, "s_cbranch_scc1"},
    {Format::sopp, k11p, 0x25, Op::s_cbranch_execz, "s_cbranch_execz"},
    {Format::sopp, k11, 0x09, Op::s_waitcnt, "s_waitcnt"},
    {Format::sopp, k12p, 0x47, Op::s_wait_kmcnt, "s_wait_kmcnt"},
    {Format::sopp, k12p, 0x40, Op::s_wait_loadcnt, "s_wait_loadcnt"},
    {Format::sopp, k12p, 0x08, Op::s_wait_alu, "s_wait_alu"},
    {Format::sopp, k1250, 0x06, Op::s_set_vgpr_msb, "s_set_vgpr_msb"},
    {Format::vop1, k1250, 0x00, Op::v_nop, "v_nop"},
    {Format::vop1, k9 | k10p, 0x01, Op::v_mov_b32, "v_mov_b32"},
    {Format::vop2, k9, 0x13, Op::v_and_b32, "v_and_b32"},
    {Format::vop2, k9, 0x34, Op::v_add_u32, "v_add_u32"},
    {Format::vop2, k9, 0x12, Op::v_lshlrev_b32, "v_lshlrev_b32"},
    {Format::vop2, k9, 0x08, Op::v_mul_u32_u24, "v_mul_u32_u24"},
    {Format::vop2, k10p, 0x1b, Op::v_and_b32, "v_and_b32"},
    {Format::vop2, k10p, 0x25, Op::v_add_u32, "v_add_nc_u32"},
    {Format::vop2, k10, 0x1a, Op::v_lshlrev_b32, "v_lshlrev_b32"},
    {Format::vop2, k11p, 0x18, Op::v_lshlrev_b32, "v_lshlrev_b32"},
    {Format::vop2, k1250, 0x0b, Op::v_mul_u32_u24, "v_mul_u32_u24"},
    {Format::vopc, k9, 0xcc, Op::v_cmp_gt_u32, "v_cmp_gt_u32"},
    {Format::vopc, k10, 0xc4, Op::v_cmp_gt_u32, "v_cmp_gt_u32"},
    {Format::vopc, k11p, 0x4c, Op::v_cmp_gt_u32, "v_cmp_gt_u32"},
    {Format::global, k9 | k11, 0x14, Op::global_load_b32, "global_load_dword"},
    {Format::global, k9 | k10, 0x1c, Op::global_store_b32, "global_store_dword"},
    {Format::global, k10, 0x0c, Op::global_load_b32, "global_load_dword"},
    {Format::global, k11, 0x1a, Op::global_store_b32, "global_store_b32"},
    {Format::global, k12p, 0x14, Op::global_load_b32, "global_load_b32"},
    {Format::global, k12p, 0x1a, Op::global_store_b32, "global_store_b32"},
    {Format::global, k1250, 0x5d, Op::global_prefetch_b8, "global_prefetch_b8"},
};

const char* FormatName(Format f) {
  switch (f) {
    case Format::sop1: return "SOP1";
    case Format::sop2: return "SOP2";
    case Format::sopc: return "SOPC";
    case Format::sopk: return "SOPK";
    case Format::sopp: return "SOPP";
    case Format::smem: return "SMEM";
    case Format::vop1: return "VOP1";
    case Format::vop2: return "VOP2";
    case Format::vopc: return "VOPC";
    case Format::global: return "FLAT/global";
  }
  return "?";
}

const Row* FindRow(Family family, Format format, uint32_t opcode) {
  for (const Row& r : kRows) {
    if (r.format == format && r.opcode == opcode && (r.families & FamilyBit(family)) != 0) return &r;
  }
  return nullptr;
}

// GFX11's s_load_b128/b256 and global_load_b32 are GFX11 spellings; LLVM 22 prints GFX11
// FLAT loads as global_load_b32 (the row above lists the GFX9 name for opcode 0x14).
const char* FamilyName(Family family, const Row& r) {
  if (family == Family::gfx11 && r.op == Op::global_load_b32) return "global_load_b32";
  return r.name;
}

absl::Status Unknown(Family family, absl::Span<const uint32_t> w, uint64_t address, absl::string_view what) {
  return absl::UnimplementedError(absl::StrFormat(
      "unknown instruction 0x%08x at offset 0x%x on %s: %s (the interpreter implements only the "
      "instructions the harness kernels use; it never skips one)",
      w[0], address, lanediff::FamilyName(family), what));
}

absl::Status Truncated(uint32_t w0, uint64_t address, int bytes) {
  return absl::OutOfRangeError(absl::StrFormat(
      "instruction 0x%08x at offset 0x%x needs %d bytes but the code ends first", w0, address, bytes));
}

int32_t SignExtend(uint32_t v, int bits) {
  const uint32_t m = 1u << (bits - 1);
  return static_cast<int32_t>((v ^ m) - m);
}

// SMEM (s_load_*): SBASE, SDST and the immediate offset; SOFFSET must be null.
absl::Status DecodeSmem(Family family, absl::Span<const uint32_t> w, uint64_t address, Inst* in,
                        uint32_t* opcode) {
  const uint32_t w0 = w[0];
  const bool gfx12p = family == Family::gfx12 || family == Family::gfx1250;
  in->bytes = 8;
  if (w.size() < 2) return Truncated(w0, address, 8);
  in->dst = (w0 >> 6) & 0x7f;
  in->sbase = static_cast<uint16_t>((w0 & 0x3f) << 1);
  if (family == Family::gfx9) {
    *opcode = (w0 >> 18) & 0xff;
    if (((w0 >> 17) & 1) == 0 || ((w0 >> 14) & 1) != 0) {
      return Unknown(family, w, address, "SMEM with an SGPR offset (IMM = 0 or SOE = 1)");
    }
    in->imm = static_cast<int32_t>(w[1] & 0x1fffff);
    in->soffset = NullCode(family);
  } else if (!gfx12p) {
    *opcode = (w0 >> 18) & 0xff;
    in->imm = SignExtend(w[1] & 0x1fffff, 21);
    in->soffset = (w[1] >> 25) & 0x7f;
  } else {
    *opcode = (w0 >> 13) & 0xff;
    in->imm = SignExtend(w[1] & 0xffffff, 24);
    in->soffset = (w[1] >> 25) & 0x7f;
  }
  if (in->soffset != NullCode(family)) {
    return Unknown(family, w, address, absl::StrCat("SMEM with SOFFSET ", in->soffset, " (not null)"));
  }
  return absl::OkStatus();
}

// FLAT global (GFX9-GFX11, 2 dwords): the segment must be global.
absl::Status DecodeGlobal(Family family, absl::Span<const uint32_t> w, uint64_t address, Inst* in,
                          uint32_t* opcode) {
  const uint32_t w0 = w[0];
  in->bytes = 8;
  if (w.size() < 2) return Truncated(w0, address, 8);
  *opcode = (w0 >> 18) & 0x7f;
  uint32_t seg = 0;
  if (family == Family::gfx11) {
    seg = (w0 >> 16) & 3;
    in->imm = SignExtend(w0 & 0x1fff, 13);
    in->cpol = (w0 >> 13) & 7;
  } else if (family == Family::gfx10) {
    seg = (w0 >> 14) & 3;
    in->imm = SignExtend(w0 & 0xfff, 12);
    in->cpol = static_cast<uint8_t>(((w0 >> 16) & 3) | (((w0 >> 12) & 1) << 2));
  } else {
    seg = (w0 >> 14) & 3;
    in->imm = SignExtend(w0 & 0x1fff, 13);
    in->cpol = (w0 >> 16) & 3;
  }
  if (seg != 2) return Unknown(family, w, address, absl::StrCat("FLAT segment ", seg, " (only global, 2)"));
  in->src0 = w[1] & 0xff;            // vaddr
  in->src1 = (w[1] >> 8) & 0xff;     // vdata
  in->sbase = (w[1] >> 16) & 0x7f;   // saddr
  in->dst = (w[1] >> 24) & 0xff;     // vdst
  return absl::OkStatus();
}

// VGLOBAL (GFX12+, 3 dwords).
absl::Status DecodeVglobal(absl::Span<const uint32_t> w, uint64_t address, Inst* in,
                           uint32_t* opcode) {
  const uint32_t w0 = w[0];
  in->bytes = 12;
  if (w.size() < 3) return Truncated(w0, address, 12);
  *opcode = (w0 >> 14) & 0xff;
  in->sbase = w0 & 0x7f;
  in->dst = w[1] & 0xff;
  in->cpol = (w[1] >> 18) & 0x1f;
  in->src1 = (w[1] >> 23) & 0xff;  // vdata
  in->src0 = w[2] & 0xff;          // vaddr
  in->imm = SignExtend(w[2] >> 8, 24);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Inst> DecodeInst(Family family, int wave_size, absl::Span<const uint32_t> w,
                                uint64_t address) {
  (void)wave_size;
  if (w.empty()) return Truncated(0, address, 4);
  const uint32_t w0 = w[0];
  Inst in;
  Format fmt;
  uint32_t opcode = 0;
  const bool gfx12p = family == Family::gfx12 || family == Family::gfx1250;
  const uint32_t smem_enc = family == Family::gfx9 ? 0x30 : 0x3d;
  if ((w0 >> 23) == 0x17d) {
    fmt = Format::sop1;
    opcode = (w0 >> 8) & 0xff;
    in.dst = (w0 >> 16) & 0x7f;
    in.src0 = w0 & 0xff;
  } else if ((w0 >> 23) == 0x17e) {
    fmt = Format::sopc;
    opcode = (w0 >> 16) & 0x7f;
    in.src0 = w0 & 0xff;
    in.src1 = (w0 >> 8) & 0xff;
  } else if ((w0 >> 23) == 0x17f) {
    fmt = Format::sopp;
    opcode = (w0 >> 16) & 0x7f;
    in.imm = static_cast<int32_t>(w0 & 0xffff);
  } else if ((w0 >> 28) == 0xb) {
    fmt = Format::sopk;
    opcode = (w0 >> 23) & 0x1f;
    in.dst = (w0 >> 16) & 0x7f;
    in.imm = static_cast<int32_t>(w0 & 0xffff);
  } else if ((w0 >> 30) == 0x2) {
    fmt = Format::sop2;
    opcode = (w0 >> 23) & 0x7f;
    in.dst = (w0 >> 16) & 0x7f;
    in.src0 = w0 & 0xff;
    in.src1 = (w0 >> 8) & 0xff;
  } else if ((w0 >> 26) == smem_enc) {
    fmt = Format::smem;
    LANEDIFF_RETURN_IF_ERROR(DecodeSmem(family, w, address, &in, &opcode));
  } else if (!gfx12p && (w0 >> 26) == 0x37) {
    fmt = Format::global;
    LANEDIFF_RETURN_IF_ERROR(DecodeGlobal(family, w, address, &in, &opcode));
  } else if (gfx12p && (w0 >> 24) == 0xee) {
    fmt = Format::global;
    LANEDIFF_RETURN_IF_ERROR(DecodeVglobal(w, address, &in, &opcode));
  } else if ((w0 >> 25) == 0x3f) {
    fmt = Format::vop1;
    opcode = (w0 >> 9) & 0xff;
    in.dst = (w0 >> 17) & 0xff;
    in.src0 = w0 & 0x1ff;
  } else if ((w0 >> 25) == 0x3e) {
    fmt = Format::vopc;
    opcode = (w0 >> 17) & 0xff;
    in.src0 = w0 & 0x1ff;
    in.src1 = (w0 >> 9) & 0xff;
  } else if ((w0 >> 31) == 0) {
    fmt = Format::vop2;
    opcode = (w0 >> 25) & 0x3f;
    in.dst = (w0 >> 17) & 0xff;
    in.src0 = w0 & 0x1ff;
    in.src1 = (w0 >> 9) & 0xff;
  } else {
    return Unknown(family, w, address, "an encoding the harness kernels do not use (VOP3, DS, "
                                       "MUBUF, ... outside the patch site)");
  }
  const Row* row = FindRow(family, fmt, opcode);
  if (row == nullptr) {
    return Unknown(family, w, address, absl::StrFormat("%s opcode 0x%x", FormatName(fmt), opcode));
  }
  in.op = row->op;
  in.format = fmt;
  in.name = FamilyName(family, *row);
  // Literals: a scalar source 255 (SOP1/SOP2/SOPC), VOP src0 255, s_setreg_imm32's value.
  bool literal = false;
  switch (fmt) {
    case Format::sop1: literal = in.src0 == kLiteral; break;
    case Format::sop2:
    case Format::sopc: literal = in.src0 == kLiteral || in.src1 == kLiteral; break;
    case Format::vop1:
    case Format::vop2:
    case Format::vopc: literal = in.src0 == kLiteral; break;
    case Format::sopk: literal = in.op == Op::s_setreg_imm32_b32; break;
    default: break;
  }
  if (literal) {
    if (w.size() < 2) return Truncated(w0, address, 8);
    in.has_literal = true;
    in.literal = w[1];
    in.bytes = 8;
  }
  if (fmt == Format::sopp && (in.op == Op::s_cbranch_scc1 || in.op == Op::s_cbranch_execz)) {
    in.imm = SignExtend(static_cast<uint32_t>(in.imm), 16);
  }
  return in;
}

std::string ScalarName(Family family, uint16_t code, bool pair, uint32_t literal) {
  const int last_sgpr = family == Family::gfx9 ? 101 : 105;
  if (code <= last_sgpr) return pair ? absl::StrCat("s[", code, ":", code + 1, "]") : absl::StrCat("s", code);
  if (code == kVccLo) return pair ? "vcc" : "vcc_lo";
  if (code == kVccHi) return "vcc_hi";
  if (code >= kTtmp0 && code < kTtmp0 + 16) {
    const int t = code - kTtmp0;
    return pair ? absl::StrCat("ttmp[", t, ":", t + 1, "]") : absl::StrCat("ttmp", t);
  }
  if (code == NullCode(family)) return "null";
  if (code == M0Code(family)) return "m0";
  if (code == kExecLo) return pair ? "exec" : "exec_lo";
  if (code == kExecHi) return "exec_hi";
  if (code >= 128 && code <= 192) return absl::StrCat(code - 128);
  if (code >= 193 && code <= 208) return absl::StrCat(-(code - 192));
  if (code == kLiteral) return absl::StrFormat("0x%x", literal);
  if (code >= 256) return absl::StrCat("v", code - 256);
  return absl::StrCat("<operand ", code, ">");
}

namespace {

std::string HwReg(Family family, uint32_t simm16) {
  const int id = simm16 & 0x3f, offset = (simm16 >> 6) & 0x1f, size = ((simm16 >> 11) & 0x1f) + 1;
  std::string name;
  const bool gfx12p = family == Family::gfx12 || family == Family::gfx1250;
  if (id == kHwRegMode) {
    name = gfx12p ? "HW_REG_WAVE_MODE" : "HW_REG_MODE";
  } else if (id == kHwRegIbSts2 && family == Family::gfx1250) {
    name = "HW_REG_IB_STS2";
  } else {
    name = absl::StrCat(id);
  }
  if (offset == 0 && size == 32) return absl::StrCat("hwreg(", name, ")");
  return absl::StrCat("hwreg(", name, ", ", offset, ", ", size, ")");
}

std::string Waitcnt(Family family, uint32_t s) {
  int vm, exp, lgkm, vm_max = 63, lgkm_max;
  if (family == Family::gfx11) {
    vm = (s >> 10) & 0x3f, lgkm = (s >> 4) & 0x3f, exp = s & 7, lgkm_max = 63;
  } else {
    vm = (s & 0xf) | (((s >> 14) & 3) << 4), exp = (s >> 4) & 7;
    lgkm = family == Family::gfx9 ? (s >> 8) & 0xf : (s >> 8) & 0x3f;
    lgkm_max = family == Family::gfx9 ? 15 : 63;
  }
  std::string out;
  auto add = [&out](const std::string& s) { absl::StrAppend(&out, out.empty() ? "" : " ", s); };
  if (vm != vm_max) add(absl::StrCat("vmcnt(", vm, ")"));
  if (exp != 7) add(absl::StrCat("expcnt(", exp, ")"));
  if (lgkm != lgkm_max) add(absl::StrCat("lgkmcnt(", lgkm, ")"));
  return out;
}

std::string Vop(Family family, uint16_t code, uint32_t literal) {
  return ScalarName(family, code, false, literal);
}

}  // namespace

std::string Disassemble(Family family, int wave_size, const Inst& in) {
  const std::string n = in.name;
  auto s = [&](uint16_t c) { return ScalarName(family, c, false, in.literal); };
  auto s64 = [&](uint16_t c) { return ScalarName(family, c, true, in.literal); };
  switch (in.op) {
    case Op::s_load_b128:
    case Op::s_load_b256: {
      const int words = in.op == Op::s_load_b128 ? 4 : 8;
      std::string off = absl::StrFormat("0x%x", in.imm);
      if ((family == Family::gfx10 || family == Family::gfx11) && in.imm == 0) off = "null";
      return absl::StrCat(n, " s[", in.dst, ":", in.dst + words - 1, "], ", s64(in.sbase), ", ", off);
    }
    case Op::s_mov_b32: return absl::StrCat(n, " ", s(in.dst), ", ", s(in.src0));
    case Op::s_mov_b64:
    case Op::s_and_saveexec_b64: return absl::StrCat(n, " ", s64(in.dst), ", ", s64(in.src0));
    case Op::s_and_saveexec_b32: return absl::StrCat(n, " ", s(in.dst), ", ", s(in.src0));
    case Op::s_and_b32:
    case Op::s_lshl_b32:
    case Op::s_cselect_b32:
    case Op::s_bfe_u32:
    case Op::s_add_i32:
    case Op::s_mul_i32: return absl::StrCat(n, " ", s(in.dst), ", ", s(in.src0), ", ", s(in.src1));
    case Op::s_cmp_eq_u32: return absl::StrCat(n, " ", s(in.src0), ", ", s(in.src1));
    case Op::s_getreg_b32: return absl::StrCat(n, " ", s(in.dst), ", ", HwReg(family, in.imm));
    case Op::s_setreg_b32: return absl::StrCat(n, " ", HwReg(family, in.imm), ", ", s(in.dst));
    case Op::s_setreg_imm32_b32:
      return absl::StrCat(n, " ", HwReg(family, in.imm), ", ",
                          in.literal <= 64 ? absl::StrCat(in.literal) : absl::StrFormat("0x%x", in.literal));
    case Op::s_nop:
    case Op::s_cbranch_scc1:
    case Op::s_cbranch_execz:
    case Op::s_set_vgpr_msb: return absl::StrCat(n, " ", in.imm);
    case Op::s_endpgm: return n;
    case Op::s_waitcnt: return absl::StrCat(n, " ", Waitcnt(family, in.imm));
    case Op::s_wait_kmcnt:
    case Op::s_wait_loadcnt: return absl::StrFormat("%s 0x%x", n, in.imm);
    case Op::s_wait_alu:
      return in.imm == 0xff9e ? absl::StrCat(n, " depctr_sa_sdst(0)") : absl::StrFormat("%s 0x%x", n, in.imm);
    case Op::v_nop: return n;
    case Op::v_mov_b32:
      return absl::StrCat(n, "_e32 v", in.dst, ", ", Vop(family, in.src0, in.literal));
    case Op::v_and_b32:
    case Op::v_add_u32:
    case Op::v_lshlrev_b32:
    case Op::v_mul_u32_u24:
      return absl::StrCat(n, "_e32 v", in.dst, ", ", Vop(family, in.src0, in.literal), ", v", in.src1);
    case Op::v_cmp_gt_u32:
      return absl::StrCat(n, "_e32 ", wave_size == 64 ? "vcc" : "vcc_lo", ", ", Vop(family, in.src0, in.literal),
                          ", v", in.src1);
    case Op::global_load_b32:
    case Op::global_store_b32:
    case Op::global_prefetch_b8: {
      std::string out = in.op == Op::global_load_b32   ? absl::StrCat(n, " v", in.dst, ", v", in.src0)
                        : in.op == Op::global_store_b32 ? absl::StrCat(n, " v", in.src0, ", v", in.src1)
                                                        : absl::StrCat(n, " v", in.src0);
      absl::StrAppend(&out, ", ", s64(in.sbase));
      if (in.imm != 0) absl::StrAppend(&out, " offset:", in.imm);
      if (in.op == Op::global_prefetch_b8) {
        static const char* kScope[] = {"SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"};
        if ((in.cpol & 3) != 0) absl::StrAppend(&out, " scope:", kScope[in.cpol & 3]);
        if ((in.cpol >> 2) != 0) absl::StrAppend(&out, " th:", in.cpol >> 2);
      } else if (in.cpol != 0) {
        absl::StrAppend(&out, " cpol:", in.cpol);
      }
      return out;
    }
  }
  return n;
}

}  // namespace lanediff::interp
