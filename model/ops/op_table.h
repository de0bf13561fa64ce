// The one table of instructions the model implements: one row per instruction, naming its fast
// batch function and its slow oracle batch function. Adding an instruction is a new file
// model/ops/<mnemonic>.cc defining the two functions, a declaration here and one row in
// kOpTable (ops.cc).
//
// Batch functions get a context that ValidateContext accepted and arrays of lanes.size words.
#ifndef LANEDIFF_MODEL_OPS_OP_TABLE_H_
#define LANEDIFF_MODEL_OPS_OP_TABLE_H_

#include <cstdint>

#include "model/fp/fp8_format.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace ops {

using BatchFn = void (*)(const OpContext& ctx, const LaneView& lanes, uint32_t* out);

// Fp8Shape (model/ops/ops.h): the format and seed position of an 8-bit float output.
using Fp8ShapeFn = Fp8Shape (*)(const OpContext& ctx);

struct OpRow {
  Instr instr;
  BatchFn fast;    // the model: branch-free inner loop, uniform choices hoisted
  BatchFn oracle;  // the slow exact oracle (model/fp/oracle.h), same contract
  Fp8ShapeFn fp8_shape;  // nullptr unless the instruction writes an 8-bit float
};

// The rows, indexed by Instr.
const OpRow& GetOp(Instr instr);

// One pair per instruction file, named by the mnemonic (DESIGN.md rule 1).
void v_cvt_pk_u8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out);
void v_cvt_pk_u8_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out);
void v_cvt_sr_fp8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out);
Fp8Shape v_cvt_sr_fp8_f32_shape(const OpContext& ctx);
void v_cvt_sr_fp8_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out);
void v_cvt_sr_bf8_f32(const OpContext& ctx, const LaneView& lanes, uint32_t* out);
Fp8Shape v_cvt_sr_bf8_f32_shape(const OpContext& ctx);
void v_cvt_sr_bf8_f32_oracle(const OpContext& ctx, const LaneView& lanes, uint32_t* out);

}  // namespace ops
}  // namespace lanediff

#endif  // LANEDIFF_MODEL_OPS_OP_TABLE_H_
