// From a proto::TestCase to what the model and a device need, under the harness's register
// layout (register_convention.h): the instruction (encoded once), the SGPR values the kernels
// load, and where each source's word comes from (the one operand resolver, model/isa/resolve.h).
// The model's path (the expected words), the device path (BuildDeviceBatch) and the fuzzer
// resolve a case through these, once.
//
//   LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(tc));
//   std::vector<uint32_t> vdst(rc.lanes.size());
//   LANEDIFF_RETURN_IF_ERROR(Evaluate(rc.ctx, rc.lanes.view(), absl::MakeSpan(vdst)));
//   rc.words                                   // the instruction words the device runs
//
// For a caller that keeps lanes as flat arrays: ResolveHeader once per case, then
// ResolveLanes(rc.routing, raw, &uniform) (model/isa/resolve.h) for any number of lanes.
#ifndef LANEDIFF_DEVICE_HARNESS_RESOLVE_CASE_H_
#define LANEDIFF_DEVICE_HARNESS_RESOLVE_CASE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/register_convention.h"
#include "model/isa/resolve.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct ResolvedCase {
  const TargetTraits* target = nullptr;
  // target, instr, mods, default hypotheses; mode = KernelMode(target, requested_mode), the
  // MODE the kernel runs the instruction with (kernel_state.h)
  OpContext ctx;
  uint32_t requested_mode = kDefaultMode;  // the case's MODE (0xf0 when absent): the batch's
  LaneBatch lanes;   // every source resolved to the 32-bit word each lane reads (ResolveTestCase)
  Vop3Instr vop3;
  std::vector<uint32_t> words;           // the instruction words (2, or 3 with a literal)
  bool raw_words = false;                // the case gave them as encoding.raw_words
  std::array<uint32_t, 3> sgpr_values{};  // what the kernels load into s20..s22
  LaneRouting routing;                   // per source: its lane word, or its uniform value
};

// The values the kernels load into s20..s22 for `tc`, whose instruction is `vop3`. Raw words:
// s20+i holds Encoding.src<i>.value. Structured: an SGPR source's value goes to the SGPR it
// names (which must be one of s20..s22); the other slots hold Encoding.src<i>.value. Two SGPR
// sources naming one register with different values are an error naming both.
absl::StatusOr<std::array<uint32_t, 3>> CaseSgprValues(const proto::TestCase& tc,
                                                       const Vop3Instr& vop3);

// Everything but the lanes (rc.lanes stays empty; tc's lanes are not read). `routing`, when
// given, receives rc.routing. Errors name the field at fault: the target, the encoding
// (model/isa/testcase.h Vop3FromTestCase), a register the kernels do not load.
absl::StatusOr<ResolvedCase> ResolveHeader(const proto::TestCase& tc,
                                           LaneRouting* routing = nullptr);

// tc's lanes as written (unresolved), laid out as `instr`'s row reads them: each source's
// dwords (a tuple source's past the first from Lane.srcN_more; a lane holding another count is
// an error naming the field) and vdst_old.
absl::StatusOr<LaneBatch> RawLanesOf(const proto::TestCase& tc, Instr instr);
// ResolveHeader, then every lane of tc resolved into rc.lanes.
absl::StatusOr<ResolvedCase> ResolveTestCase(const proto::TestCase& tc);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_RESOLVE_CASE_H_
