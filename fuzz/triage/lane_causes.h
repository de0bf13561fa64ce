// Per-lane attribution (Attribute's step 2, fuzz/triage/attribution.h): which readings of a rule
// (hypothesis settings, model/targets/hypotheses.h) and which instruction-word or MODE fields
// explain which disagreeing lanes of one batch, and the fewest of them that together explain
// the batch.
//
// A "setting" is one text:
//   "name=value"                 a hypothesis setting (SetHypothesis)
//   "acts_as_if.FIELD=VALUE"     the model with one field of the word or MODE changed: the
//                                device acts as if the word said VALUE (FieldSettings)
// A cause named by settings is "rule=value" for one, or "rule=v1+v2" (values sorted) for
// settings of one rule that give the same words on every lane seen (equivalent readings):
// CauseName / SettingsOfCause convert.
//
//   std::vector<std::string> fields = FieldSettings(rc.ctx);  // "acts_as_if.neg0=0", ...
//   LANEDIFF_RETURN_IF_ERROR(ApplySetting("acts_as_if.neg0=0", &ctx));
#ifndef LANEDIFF_FUZZ_TRIAGE_LANE_CAUSES_H_
#define LANEDIFF_FUZZ_TRIAGE_LANE_CAUSES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "device_harness/resolve_case.h"
#include "fuzz/engine/compare.h"
#include "model/ops/ops.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct Cause;

// The prefix of a field setting.
inline constexpr absl::string_view kActsAsIf = "acts_as_if.";

// Every other value of every field of the word and MODE the instruction reads on ctx's family,
// as "acts_as_if.FIELD=VALUE", in this order:
//   negI, absI     NEG[I], ABS[I] flipped, for each source I the row accepts -x/|x| on
//                  (InstrInfo::neg_abs_srcs)
//   opselK         OPSEL[K] flipped, for each bit the row reads (InstrInfo::opsel_bits) that
//                  selects neither a source byte or word (byte_sel_src, op_sel_word_src, and
//                  op_sel_dst3 on a reader of 8-bit codes: that
//                  field's cause is the class source_byte_moved) nor a destination byte or half
//                  (a move: the class byte_moved)
//   clamp          CLAMP flipped, where the family accepts it (clamp_families)
//   omod           each other OMOD value 0..3, where the family accepts it (omod_families)
//   mode.round_f32 (MODE[1:0]), mode.round_f16 (MODE[3:2]), mode.denorm_f32 (MODE[5:4]),
//   mode.denorm_f16 (MODE[7:6]), mode.dx10_clamp (MODE[8]), mode.ieee (MODE[9]),
//   mode.fp16_ovfl (MODE[23]): each other value, for each field with a bit the instruction
//                  reads on the family (ModeBitsRead)
std::vector<std::string> FieldSettings(const OpContext& ctx);

// Every single setting tried on a batch of ctx: each other value of each hypothesis
// (AllHypotheses order), then FieldSettings(ctx).
std::vector<std::string> SingleSettings(const OpContext& ctx);

// Applies one setting (a hypothesis "name=value" or a field "acts_as_if.FIELD=VALUE") to ctx.
absl::Status ApplySetting(absl::string_view setting, OpContext* ctx);

// The rule a setting sets: the hypothesis name, or "acts_as_if.FIELD".
std::string RuleOf(absl::string_view setting);

// "rule=value" for one setting; "rule=v1+v2+..." (values sorted) for settings of one rule.
std::string CauseName(std::vector<std::string> settings);
// The settings a cause name stands for (CauseName's inverse); a name without '=' (a difference
// class) stands for none.
std::vector<std::string> SettingsOfCause(absl::string_view name);

// What a batch's value lanes (expected != observed, no structural difference) owe to settings:
// Attribute's step 2. `structural`: per lane, whether its difference is structural (excluded:
// no setting moves a byte). `refuted` settings are never tried. `known`: the settings a
// confirmation batch has confirmed on this target and instruction (the campaign's); they
// explain first, alone and together, and forgive lanes a new setting changes. The causes
// cover value lanes by the rule in fuzz/triage/README.md ("Attribution: the rule");
// `unexplained` receives the value lanes no setting, no set of known and chosen settings and
// no pair of settings explains, ascending.
absl::StatusOr<std::vector<Cause>> CoverValueLanes(const ResolvedCase& rc,
                                                   absl::Span<const uint32_t> expected,
                                                   absl::Span<const uint32_t> observed,
                                                   const Relaxations& relax,
                                                   const std::vector<size_t>& value_lanes,
                                                   const std::vector<bool>& structural,
                                                   absl::Span<const std::string> refuted,
                                                   absl::Span<const std::string> known,
                                                   std::vector<size_t>* unexplained);

// The most lanes KeepUnexplainedLanes keeps.
inline constexpr size_t kMaxUnexplainedLanes = 64;

// For a cause no setting names (a difference class; not a device fault): sets f->unexplained to
// the batch `tc`'s lanes of the cause (the first kMaxUnexplainedLanes), with their expected and
// observed words (DstWords per lane, as in `expected` and `observed`). Any other cause: nothing.
void KeepUnexplainedLanes(const proto::TestCase& tc, const Cause& cause,
                          absl::Span<const uint32_t> expected, absl::Span<const uint32_t> observed,
                          proto::Finding* f);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_LANE_CAUSES_H_
