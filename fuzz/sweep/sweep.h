// Exhaustive sweeps: every value of one operand through the model and a device, compared lane
// by lane, with the fast model also checked against the slow exact oracle.
//
//   pk_u8, swept = src0: all 2^32 src0 values (or a [first, last) range / a shard of it) for one
//   MODE; src1 (byte select and the ignored bits S1[31:2]) and src2 vary per lane from a fixed
//   hash of the lane index, so every byte select and the "ignored bits" claim are exercised.
//   SR, swept = seed: all 2^20 (fp8) or 2^21 (bf8) seed values for one src0; the low seed bits,
//   which must not matter, are filled with a hash on the device side and left zero on the
//   oracle side, so any dependence on them shows up as a mismatch. The round-up counts give
//   the SR probability curve of the report.
//
//   SweepSpec spec = PkU8Sweep(target, /*mode=*/0xf0);
//   LANEDIFF_ASSIGN_OR_RETURN(proto::SweepResult r, RunSweep(spec, runners, progress));
#ifndef LANEDIFF_FUZZ_SWEEP_SWEEP_H_
#define LANEDIFF_FUZZ_SWEEP_SWEEP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/runner.h"
#include "model/ops/ops.h"
#include "proto/report.pb.h"

namespace lanediff {

enum class SweptOperand { kSrc0, kSeed };

// How often the slow oracle checks the fast model inside a sweep.
enum class OracleCheck { kOff, kSampled, kEvery };

struct SweepSpec {
  OpContext ctx;                       // target, instruction, modifiers, MODE, hypotheses
  SweptOperand swept = SweptOperand::kSrc0;
  uint32_t src0 = 0;                   // held fixed in seed sweeps
  uint64_t first = 0;                  // swept range [first, last)
  uint64_t last = 0;
  double fraction = 0;                 // seed sweeps: src0's position between outputs
  OracleCheck oracle = OracleCheck::kSampled;
  uint32_t oracle_stride = 61;         // kSampled: every Nth lane (a prime, so no aliasing)
  size_t chunk_lanes = 1u << 18;       // lanes per device batch (1 MiB per operand: stays in cache)
  std::string device_name;             // recorded in the result ("sim", "hip", ...)
};

// A shard "i/n" of [first, last): contiguous, equal-sized pieces (the last takes the rest).
absl::StatusOr<std::pair<uint64_t, uint64_t>> ShardRange(uint64_t first, uint64_t last,
                                                         absl::string_view shard);

// The width of an SR instruction's seed under ctx (20 bits for E4M3 and UE5M3, 21 for E5M2:
// the f32 fraction bits the format drops, docs/semantics.md §6); 0 when it takes no seed.
int SeedBits(const OpContext& ctx);

// The boundary set of src0 values a seed sweep visits, with each value's fractional position
// between its two neighbouring outputs: values in [1, 2), where the seed's bits are exactly
// the fraction bits the format drops.
std::vector<std::pair<uint32_t, double>> SrBoundarySet(const OpContext& ctx);

struct SweepProgress {
  uint64_t done = 0, total = 0, mismatches = 0;
  double seconds = 0;
};

// Runs the sweep. `runners` holds one runner per worker thread (the device side; at least
// one); chunks are dealt to workers in order and the result is independent of their number.
// `progress` (may be empty) is called from the calling thread about once per second.
absl::StatusOr<proto::SweepResult> RunSweep(
    const SweepSpec& spec, const std::vector<Runner*>& runners,
    const std::function<void(const SweepProgress&)>& progress);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_SWEEP_SWEEP_H_
