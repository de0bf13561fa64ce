// The harness kernels' register layout (device_harness/kernels/*.s): a kernel fact, so it
// lives here and the model knows none of it. Every kernel loads lane i's src0..src2 into
// v1..v3 and vdst_old into v4, which is also VDST (the kernel stores v4), and the batch's three
// SGPR-source values (DeviceBatch::sgpr_values, KernelArgs in code_object.h) into s20..s22.
// A VGPR-pair writer (the row's dst_bits 64) writes v[4:5] (even, as gfx90a+ and gfx1250 need):
// the kernel stores v5 as VDST+1 (KernelArgs::shape[7:0] = 2) and keeps nothing it needs after
// the instruction in v4 or v5. A wide row (GFX9 and GFX12.5 kernels) writes v[4:4+M-1] and reads its
// multi-dword sources from the tuples below. VDST+1's old value is not loaded (v5 holds the lane's load
// offset): every pair row writes both words whole, so no lane word stands for it.
//
// The model reads it only through what the harness hands it: DefaultRegisters (which register
// a structured test case's source names when it leaves the choice to the harness,
// model/isa/testcase.h) and a RegisterFile (which registers hold which lane word or value,
// model/isa/resolve.h).
//
//   LANEDIFF_ASSIGN_OR_RETURN(Vop3Instr in, Vop3FromTestCase(*t, tc, HarnessDefaultRegisters()));
//   LANEDIFF_ASSIGN_OR_RETURN(LaneRouting r,
//                             ResolveOperands(*t, in, HarnessRegisterFile(batch.sgpr_values)));
#ifndef LANEDIFF_DEVICE_HARNESS_REGISTER_CONVENTION_H_
#define LANEDIFF_DEVICE_HARNESS_REGISTER_CONVENTION_H_

#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "model/isa/resolve.h"
#include "model/isa/vop3.h"
#include "model/targets/targets.h"
#include "model/isa/testcase.h"

namespace lanediff {

struct RegisterConvention {
  uint8_t vdst = 4;                            // holds Lane.vdst_old before the instruction;
                                               // a pair is v[vdst:vdst+1]
  std::array<uint16_t, 3> vgpr = {1, 2, 3};    // hold Lane.src0..src2
  std::array<uint16_t, 3> sgpr = {20, 21, 22};  // hold DeviceBatch::sgpr_values[0..2]
  // A source of N > 1 dwords (a wide row's LaneShape) is the VGPR tuple v[tuple[s]:tuple[s]+N-1]
  // (even, as gfx90a+ need), past a 32-word VDST v[4:35]: src0 from v36 (up to 32 dwords), src1
  // from v68 (up to 16); src2 is one dword on every kernel (code_object.h KernelCapacity).
  std::array<uint16_t, 3> tuple = {36, 68, 0};
  // The VGPR holding dword k of source s for a lane of `shape`.
  constexpr int SourceVgpr(const LaneShape& shape, int s, int k) const {
    return shape.src_dwords[s] == 1 ? vgpr[s] : tuple[s] + k;
  }
};
inline constexpr RegisterConvention kRegisterConvention{};
// The most dwords the GFX9 and GFX12.5 kernels load into each source tuple (src0 from v36,
// src1 from v68).
inline constexpr int kTupleCapacity[2] = {32, 16};
inline const RegisterConvention& HarnessConvention() { return kRegisterConvention; }

// What a structured test case's default registers are on the harness.
inline DefaultRegisters HarnessDefaultRegisters() {
  return {kRegisterConvention.vdst, kRegisterConvention.vgpr, kRegisterConvention.sgpr,
          kRegisterConvention.tuple};
}

// The registers the kernels load for a batch whose SGPR-source values are `sgpr_values`.
inline RegisterFile HarnessRegisterFile(const std::array<uint32_t, 3>& sgpr_values) {
  RegisterFile regs("the harness kernels");
  const RegisterConvention& c = kRegisterConvention;
  regs.LoadVgpr(c.vgpr[0], LaneWord::src0)
      .LoadVgpr(c.vgpr[1], LaneWord::src1)
      .LoadVgpr(c.vgpr[2], LaneWord::src2)
      .LoadVgpr(c.vdst, LaneWord::vdst_old)
      // The GFX9 and GFX12.5 kernels' source tuples (as many dwords as the row's source reads;
      // a tuple row on another family is refused before it runs: code_object.h KernelCapacity).
      .LoadVgprTuple(c.tuple[0], LaneWord::src0, kTupleCapacity[0])
      .LoadVgprTuple(c.tuple[1], LaneWord::src1, kTupleCapacity[1]);
  for (int i = 0; i < 3; ++i) regs.LoadSgpr(c.sgpr[i], sgpr_values[i]);
  return regs;
}

// What the kernels' layout asks beyond the sources the instruction reads (those the resolver
// checks): VDST is v4, and a field the instruction does not read names nothing unloaded.
inline absl::Status CheckLayoutBeyondReadSources(const TargetTraits& target, const Vop3Instr& in,
                                          const RegisterFile& regs) {
  const RegisterConvention& conv = HarnessConvention();
  if (in.vdst != conv.vdst) {
    return absl::InvalidArgumentError(
        absl::StrCat("VDST is v", in.vdst, "; the harness kernels load vdst_old into v",
                     conv.vdst, " and read the result from there (register convention)"));
  }
  // A field the instruction does not read (the SR instructions' SRC2) carries no data, and
  // LLVM encodes it as 0 (s0); any other register there must still be one the kernels load,
  // since whether silicon fetches it is not documented.
  const int read = GetInstrInfo(in.instr).sources();
  for (int i = read; i < 3; ++i) {
    if (in.src[i] == 0) continue;
    absl::StatusOr<SourceRoute> unused =
        ResolveSource(target.family, i, in.src[i], in.literal, regs);
    if (!unused.ok()) return unused.status();
  }
  return absl::OkStatus();
}


// The whole convention on decoded words, whoever built the batch: VDST and the unread fields
// (above), and every source the instruction reads is a register the kernels load (v1..v4,
// s20..s22; never v5..v7, a VGPR past the allocation or s23+) or a constant.
inline absl::Status CheckRegisterConvention(const TargetTraits& target, const Vop3Instr& in,
                                            const std::array<uint32_t, 3>& sgpr_values) {
  const RegisterFile regs = HarnessRegisterFile(sgpr_values);
  if (absl::Status s = CheckLayoutBeyondReadSources(target, in, regs); !s.ok()) return s;
  return ResolveOperands(target, in, regs).status();
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_REGISTER_CONVENTION_H_
