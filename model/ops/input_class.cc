#include "model/ops/input_class.h"

#include "model/ops/op_table.h"

namespace lanediff {

// Each instruction's classes are its op file's <mnemonic>_classify.
absl::string_view ClassifyInput(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  return ops::GetOp(ctx.instr).classify(ctx, src0, src1);
}

}  // namespace lanediff
