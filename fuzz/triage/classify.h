// Classification and signatures: what kind of disagreement a (minimized) case shows, as a
// stable string that names its corpus file and dedups it.
//
// A signature is "<target>.<instr>.<modifiers>.<input class>.mode<MODE hex>.<explanation>":
//   gfx942.<SR mnemonic>.opsel4.sr_carry.mode000000f0.sr_rounding=literal
//   gfx1201.<pk_u8 mnemonic>.plain.tie.mode000000f0.unexplained
//   gfx942.<SR mnemonic>.device_fault.crash        (device faults)
// modifiers: "plain", or the set fields joined by '-' (neg2-abs1-clamp-omod1-opsel12), with
// "raw" when the case carries raw words and srcN_sgpr/srcN_inline/srcN_literal for non-VGPR
// sources. The input class is ClassifyInput (model/ops/input_class.h) of the first differing
// lane. The explanation is the first single alternative hypothesis setting (registry order,
// model/targets/hypotheses.h) under which the model reproduces the device's words on every
// lane, or "unexplained".
//
//   LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(tc));
//   rc.ctx.hyp = model_hypotheses;
//   LANEDIFF_ASSIGN_OR_RETURN(Classification c, ClassifyDisagreement(tc, rc, observed, relax));
#ifndef LANEDIFF_FUZZ_CLASSIFY_H_
#define LANEDIFF_FUZZ_CLASSIFY_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "device_harness/resolve_case.h"
#include "fuzz/engine/compare.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct Classification {
  std::string modifiers;
  std::string input_class;
  std::string explained_by;  // "" when no single hypothesis setting explains the device
  std::string signature;
};

// "plain" or "neg2-opsel4-..." (see above) for a case and its decoded modifiers.
std::string ModifierSet(const proto::TestCase& tc, const Modifiers& mods);

// The MODE fields that matter (docs/semantics.md §7) as a short class name: the f32 round mode
// (MODE[1:0]: nearest_even, plus_inf, minus_inf, toward_zero), then " ftz_in" when MODE[4]
// flushes f32 input denormals, then " fp16_ovfl" when MODE[23] is set. The default MODE
// 0x000000f0 is "nearest_even"; 0x008000e3 is "toward_zero ftz_in fp16_ovfl".
std::string ModeClass(uint32_t mode);

// The first single alternative hypothesis setting (relative to rc.ctx.hyp) under which the
// model's words agree with `observed` on every lane, or "".
absl::StatusOr<std::string> ExplainingHypothesis(const ResolvedCase& rc,
                                                 absl::Span<const uint32_t> observed,
                                                 const Relaxations& relax);

// Classifies a disagreement. rc.ctx.hyp must be the model side's hypotheses; `observed` the
// device's words (one per lane).
absl::StatusOr<Classification> ClassifyDisagreement(const proto::TestCase& tc,
                                                    const ResolvedCase& rc,
                                                    absl::Span<const uint32_t> observed,
                                                    const Relaxations& relax);
// The same from the model's words under rc.ctx (`expected`, OutputWords of them) that the
// caller already holds (a BothSides run's), instead of evaluating them again.
absl::StatusOr<Classification> ClassifyDisagreement(const proto::TestCase& tc,
                                                    const ResolvedCase& rc,
                                                    absl::Span<const uint32_t> expected,
                                                    absl::Span<const uint32_t> observed,
                                                    const Relaxations& relax);

// "<target>.<instr>.device_fault.<crash|hang|fault>[.<input class>]": the class is added when
// the case is one lane and resolves.
std::string FaultSignature(const proto::TestCase& tc, const absl::Status& fault);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLASSIFY_H_
