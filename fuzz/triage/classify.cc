#include "fuzz/triage/classify.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/base/status.h"
#include "model/ops/input_class.h"
#include "model/targets/hypotheses.h"

namespace lanediff {

std::string ModifierSet(const proto::TestCase& tc, const Modifiers& m) {
  std::vector<std::string> parts;
  if (tc.encoding().raw_words_size() > 0) parts.push_back("raw");
  if (m.neg) parts.push_back(absl::StrCat("neg", m.neg));
  if (m.abs) parts.push_back(absl::StrCat("abs", m.abs));
  if (m.clamp) parts.push_back("clamp");
  if (m.omod) parts.push_back(absl::StrCat("omod", m.omod));
  if (m.opsel) parts.push_back(absl::StrCat("opsel", m.opsel));
  if (tc.encoding().raw_words_size() == 0) {
    const proto::Source* srcs[] = {&tc.encoding().src0(), &tc.encoding().src1(),
                                   &tc.encoding().src2()};
    for (int i = 0; i < 3; ++i) {
      switch (srcs[i]->kind()) {
        case proto::SOURCE_SGPR:
          parts.push_back(absl::StrCat("src", i, "_sgpr"));
          break;
        case proto::SOURCE_INLINE:
          parts.push_back(absl::StrCat("src", i, "_inline"));
          break;
        case proto::SOURCE_LITERAL:
          parts.push_back(absl::StrCat("src", i, "_literal"));
          break;
        default:
          break;
      }
    }
  }
  return parts.empty() ? "plain" : absl::StrJoin(parts, "-");
}

std::string ModeClass(uint32_t mode) {
  static const char* kRound[] = {"nearest_even", "plus_inf", "minus_inf", "toward_zero"};
  return absl::StrCat(kRound[mode & kModeRoundF32Mask],
                      (mode & kModeDenormF32InBit) ? "" : " ftz_in",
                      (mode & kModeFp16OvflBit) ? " fp16_ovfl" : "");
}

absl::StatusOr<std::string> ExplainingHypothesis(const ResolvedCase& rc,
                                                 absl::Span<const uint32_t> observed,
                                                 const Relaxations& relax) {
  std::vector<uint32_t> out(OutputWords(rc.ctx.instr, rc.lanes.size()));
  for (const HypothesisInfo& h : AllHypotheses()) {
    const uint8_t base = h.get(rc.ctx.hyp);
    for (size_t v = 0; v < h.values.size(); ++v) {
      if (v == base) continue;
      OpContext ctx = rc.ctx;
      h.set(&ctx.hyp, static_cast<uint8_t>(v));
      LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(out)));
      if (DifferingLanes(ctx, rc.lanes.view(), out, observed, relax).empty()) {
        return absl::StrCat(h.name, "=", h.values[v].name);
      }
    }
  }
  return std::string();
}

absl::StatusOr<Classification> ClassifyDisagreement(const proto::TestCase& tc,
                                                    const ResolvedCase& rc,
                                                    absl::Span<const uint32_t> observed,
                                                    const Relaxations& relax) {
  std::vector<uint32_t> expected(OutputWords(rc.ctx.instr, rc.lanes.size()));
  LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, rc.lanes.view(), absl::MakeSpan(expected)));
  return ClassifyDisagreement(tc, rc, expected, observed, relax);
}

absl::StatusOr<Classification> ClassifyDisagreement(const proto::TestCase& tc,
                                                    const ResolvedCase& rc,
                                                    absl::Span<const uint32_t> expected,
                                                    absl::Span<const uint32_t> observed,
                                                    const Relaxations& relax) {
  if (expected.size() != OutputWords(rc.ctx.instr, rc.lanes.size())) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "ClassifyDisagreement: %d expected words for %d lanes of %d words", expected.size(),
        rc.lanes.size(), DstWords(rc.ctx.instr)));
  }
  const std::vector<size_t> bad =
      DifferingLanes(rc.ctx, rc.lanes.view(), expected, observed, relax);
  if (bad.empty()) return absl::FailedPreconditionError("no lane disagrees: nothing to classify");
  const size_t lane = bad[0] < rc.lanes.size() ? bad[0] : 0;
  const LaneView v = rc.lanes.view();
  Classification c;
  c.modifiers = ModifierSet(tc, rc.ctx.mods);
  c.input_class = std::string(ClassifyLane(rc.ctx, v, lane));
  LANEDIFF_ASSIGN_OR_RETURN(c.explained_by, ExplainingHypothesis(rc, observed, relax));
  c.signature = absl::StrFormat("%s.%s.%s.%s.mode%08x.%s", rc.target->name,
                                InstrName(rc.ctx.instr), c.modifiers, c.input_class,
                                rc.requested_mode, c.explained_by.empty() ? "unexplained" : c.explained_by);
  return c;
}

std::string FaultSignature(const proto::TestCase& tc, const absl::Status& fault) {
  const char* kind = fault.code() == absl::StatusCode::kDeadlineExceeded ? "hang"
                     : fault.code() == absl::StatusCode::kUnavailable     ? "crash"
                                                                          : "fault";
  std::string sig = absl::StrCat(tc.target(), ".", proto::Instruction_Name(tc.instr()),
                                 ".device_fault.", kind);
  if (tc.lanes_size() == 1) {
    absl::StatusOr<ResolvedCase> rc = ResolveTestCase(tc);
    if (rc.ok() && ValidateContext(rc->ctx).ok()) {
      const LaneView v = rc->lanes.view();
      absl::StrAppend(&sig, ".", ClassifyLane(rc->ctx, v, 0));
    }
  }
  return sig;
}

}  // namespace lanediff
