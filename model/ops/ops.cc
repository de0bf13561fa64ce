#include "model/ops/ops.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "model/ops/op_table.h"

namespace lanediff {
namespace ops {
namespace {

// The op table: one row per row of model/instrs.def, in Instr order, each with its row's op's
// functions. A row whose op file lacks a function fails to link.
constexpr OpRow kOpTable[] = {
#define LANEDIFF_INSTR(mnemonic, proto_number, op, ...) \
  {Instr::mnemonic, op, op##_oracle, op##_output, op##_classify, op##_mode_bits},
#include "model/instrs.def"
#undef LANEDIFF_INSTR
};
static_assert(sizeof(kOpTable) / sizeof(kOpTable[0]) == kNumInstrs,
              "every Instr needs a row in kOpTable");

}  // namespace

const OpRow& GetOp(Instr instr) { return kOpTable[static_cast<int>(instr)]; }

}  // namespace ops

uint32_t ModeBitsRead(Instr instr, Family family) { return ops::GetOp(instr).mode_bits(family); }

absl::Status ValidateContext(const OpContext& ctx) {
  if (ctx.target == nullptr) return absl::InvalidArgumentError("OpContext has no target");
  if (static_cast<int>(ctx.instr) >= kNumInstrs ||
      ops::GetOp(ctx.instr).instr != ctx.instr) {
    return absl::InvalidArgumentError(
        absl::StrCat("instruction ", static_cast<int>(ctx.instr), " is not in the op table"));
  }
  if (!ctx.target->Has(ctx.instr)) {
    std::vector<absl::string_view> has;
    for (Instr i : kAllInstrs) {
      if (ctx.target->Has(i)) has.push_back(InstrName(i));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        ctx.target->name, " has no ", InstrName(ctx.instr), "; it has: ", absl::StrJoin(has, ", ")));
  }
  const Modifiers& m = ctx.mods;
  if (m.opsel > 0xf) return absl::InvalidArgumentError(absl::StrCat("opsel ", m.opsel, " > 0xf (4 bits)"));
  if (m.neg > 7) return absl::InvalidArgumentError(absl::StrCat("neg ", m.neg, " > 7 (3 bits)"));
  if (m.abs > 7) return absl::InvalidArgumentError(absl::StrCat("abs ", m.abs, " > 7 (3 bits)"));
  if (m.omod > 3) return absl::InvalidArgumentError(absl::StrCat("omod ", m.omod, " > 3 (2 bits)"));
  if (m.src0_sel > 7) {
    return absl::InvalidArgumentError(absl::StrCat("src0_sel ", m.src0_sel, " > 7 (3 bits)"));
  }
  if (m.dst_sel > 7) return absl::InvalidArgumentError(absl::StrCat("dst_sel ", m.dst_sel, " > 7 (3 bits)"));
  if (m.dst_unused > 3) {
    return absl::InvalidArgumentError(absl::StrCat("dst_unused ", m.dst_unused, " > 3 (2 bits)"));
  }
  return absl::OkStatus();
}

namespace {

absl::Status CheckBatch(const OpContext& ctx, const LaneView& lanes, absl::Span<uint32_t> out) {
  absl::Status s = ValidateContext(ctx);
  if (!s.ok()) return s;
  const size_t words = OutputWords(ctx.instr, lanes.size);
  if (out.size() != words) {
    return absl::InvalidArgumentError(absl::StrCat(
        "output has ", out.size(), " words for ", lanes.size, " lanes of ", InstrName(ctx.instr),
        " (", DstWords(ctx.instr), " destination words per lane: ", words, ")"));
  }
  if (lanes.size != 0 &&
      (lanes.src0 == nullptr || lanes.src1 == nullptr || lanes.src2 == nullptr ||
       lanes.vdst_old == nullptr)) {
    return absl::InvalidArgumentError("LaneView has a null operand array");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Evaluate(const OpContext& ctx, const LaneView& lanes, absl::Span<uint32_t> out) {
  absl::Status s = CheckBatch(ctx, lanes, out);
  if (!s.ok()) return s;
  ops::GetOp(ctx.instr).fast(ctx, lanes, out.data());
  return absl::OkStatus();
}

absl::Status EvaluateOracle(const OpContext& ctx, const LaneView& lanes,
                            absl::Span<uint32_t> out) {
  absl::Status s = CheckBatch(ctx, lanes, out);
  if (!s.ok()) return s;
  ops::GetOp(ctx.instr).oracle(ctx, lanes, out.data());
  return absl::OkStatus();
}

std::optional<Fp8Shape> Fp8OutputShape(const OpContext& ctx) {
  const Fp8Shape shape = ops::GetOp(ctx.instr).output(ctx);
  if (shape.format == nullptr) return std::nullopt;
  return shape;
}

bool OutputIsNan(const OpContext& ctx, uint32_t element) {
  const std::optional<Fp8Shape> shape = Fp8OutputShape(ctx);
  if (!shape) return false;  // integers have no NaN
  const Fp8Format& f = *shape->format;
  const uint8_t b = static_cast<uint8_t>(element);
  if (f.fnuz) return b == 0x80;
  if (!f.is_signed) return b == 0xff;  // UE5M3
  const uint8_t mag = b & 0x7f;
  const int man_mask = (1 << f.man_bits) - 1;
  const int exp = mag >> f.man_bits;
  const int exp_max = (1 << f.exp_bits) - 1;
  if (exp != exp_max) return false;
  if (f.has_inf) return (mag & man_mask) != 0;  // E5M2: S.11111.00 is Inf
  return (mag & man_mask) == man_mask;          // E4M3FN: S.1111.111 only
}

uint32_t EvaluateLane(const OpContext& ctx, uint32_t src0, uint32_t src1, uint32_t src2,
                      uint32_t vdst_old) {
  const LaneView v{&src0, &src1, &src2, &vdst_old, 1};
  uint32_t out[kMaxDstWords] = {};
  ops::GetOp(ctx.instr).fast(ctx, v, out);
  return out[0];
}

uint32_t EvaluateLaneOracle(const OpContext& ctx, uint32_t src0, uint32_t src1, uint32_t src2,
                            uint32_t vdst_old) {
  const LaneView v{&src0, &src1, &src2, &vdst_old, 1};
  uint32_t out[kMaxDstWords] = {};
  ops::GetOp(ctx.instr).oracle(ctx, v, out);
  return out[0];
}

}  // namespace lanediff
