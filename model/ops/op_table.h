// The op functions of every instruction, one OpRow per row of model/instrs.def: its fast batch
// function, its slow oracle batch function, its output format and its input classifier.
// A row names its op (the third argument of LANEDIFF_INSTR); the op file model/ops/<op>.cc
// defines the five functions declared below and reads what differs between the rows sharing it
// (the 8-bit float format: InstrInfo::fp8_slot, fp8_clamp.h RowFp8Format) from ctx.instr's row.
// Adding an instruction is its row; an op file only when no op has its semantics. Nothing here
// changes.
//
// Batch functions get a context that ValidateContext accepted, operand arrays of lanes.size
// words and an output of OutputWords(ctx.instr, lanes.size) words (ops.h).
#ifndef LANEDIFF_MODEL_OPS_OP_TABLE_H_
#define LANEDIFF_MODEL_OPS_OP_TABLE_H_

#include <cstdint>

#include "absl/strings/string_view.h"

#include "model/fp/fp8_format.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace ops {

using BatchFn = void (*)(const OpContext& ctx, const LaneView& lanes, uint32_t* out);

// Fp8Shape (model/ops/ops.h): the format and seed position of the output element; format is
// nullptr when the instruction writes integers.
using OutputFn = Fp8Shape (*)(const OpContext& ctx);

// The input class of one lane (model/ops/input_class.h), from its raw S0 and S1.
using ClassifyFn = absl::string_view (*)(const OpContext& ctx, uint32_t src0, uint32_t src1);

// The MODE bits the op reads on a family, under any hypothesis and any modifiers: every other
// bit of OpContext::mode leaves every lane unchanged (model/ops/mode_bits_test.cc flips each
// one). The harness holds each declared bit either set by the batch or fixed by its kernel
// descriptor (device_harness/kernel_state.h).
using ModeBitsFn = uint32_t (*)(Family family);

// The op part of an instruction's row (model/instrs.def): the functions its op file
// model/ops/<op>.cc defines, found by name from the row's op.
struct OpRow {
  Instr instr;
  BatchFn fast;    // the model: branch-free inner loop, uniform choices hoisted
  BatchFn oracle;  // the slow exact oracle (model/fp/oracle.h), same contract
  OutputFn output;
  ClassifyFn classify;
  ModeBitsFn mode_bits;
};

// The rows, indexed by Instr.
const OpRow& GetOp(Instr instr);

// What every op file model/ops/<op>.cc defines (README.md, "Adding the next instruction"); rows
// sharing an op declare its functions again, which C++ allows.
#define LANEDIFF_INSTR(mnemonic, proto_number, op, ...)                               \
  void op(const OpContext& ctx, const LaneView& lanes, uint32_t* out);                \
  void op##_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out);       \
  Fp8Shape op##_output(const OpContext& ctx);                                          \
  absl::string_view op##_classify(const OpContext& ctx, uint32_t src0, uint32_t src1); \
  uint32_t op##_mode_bits(Family family);
#include "model/instrs.def"
#undef LANEDIFF_INSTR

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_OP_TABLE_H_
