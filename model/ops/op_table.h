// The op functions of every instruction, one OpRow per row of model/instrs.def: its fast batch
// function, its slow oracle batch function, its output format and its input classifier.
// Adding an instruction is its row in model/instrs.def and its op file
// model/ops/<mnemonic>.cc defining the five functions declared below; nothing here changes.
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
// model/ops/<mnemonic>.cc defines, found by name from the row's mnemonic.
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

// What every op file model/ops/<mnemonic>.cc defines (README.md, "Adding the next instruction").
#define LANEDIFF_INSTR(mnemonic, proto_number, ...)                                        \
  void mnemonic(const OpContext& ctx, const LaneView& lanes, uint32_t* out);                \
  void mnemonic##_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out);       \
  Fp8Shape mnemonic##_output(const OpContext& ctx);                                          \
  absl::string_view mnemonic##_classify(const OpContext& ctx, uint32_t src0, uint32_t src1); \
  uint32_t mnemonic##_mode_bits(Family family);
#include "model/instrs.def"
#undef LANEDIFF_INSTR

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_OP_TABLE_H_
