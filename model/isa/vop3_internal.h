// What the VOP3 encoder, decoder, printer and parser share (vop3.cc defines it). Internal to
// model/isa: the public API is vop3.h.
#ifndef LANEDIFF_MODEL_ISA_VOP3_INTERNAL_H_
#define LANEDIFF_MODEL_ISA_VOP3_INTERNAL_H_

#include "model/isa/vop3.h"
#include "model/targets/targets.h"

namespace lanediff::vop3_internal {

// A literal dword follows when a source the instruction reads is code 255 (an SR
// instruction's unused SRC2 = 255 fetches none here; DecodeVop3 rejects that word).
bool UsesLiteral(const Vop3Instr& in);

// Distinct constant-bus reads among the sources the instruction reads (the literal counts
// once however many sources name it; so does an SGPR read twice). Unknown codes count 0.
int ConstantBusReads(Family family, const Vop3Instr& in);

// The width of source i's operand (InstrInfo::src_bits): 16 for a 16-bit SRC0.
int SrcBits(const TargetTraits& target, const Vop3Instr& in, int i);
// Source i is a 16-bit operand LLVM types as an integer (targets.h Src0Int16).
bool SrcInt16(const TargetTraits& target, const Vop3Instr& in, int i);

}  // namespace lanediff::vop3_internal

#endif  // LANEDIFF_MODEL_ISA_VOP3_INTERNAL_H_
