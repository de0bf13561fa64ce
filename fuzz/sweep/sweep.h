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
//   A row with a VGPR-tuple source (LaneShape: a source of N > 1 dwords), swept = element:
//   every value of element K of that tuple (its width from the row's role, SrcElementBits: a
//   six-bit FP6/BF6 field, or a dword), the rest of the lane held at a base lane; an element
//   narrower than a dword is walked against every exponent byte of each scale source
//   (SrcRole::scale_f32) too: 64 FP6 codes x 256 scales = 16,384 lanes. Every destination word
//   of the tuple is compared; an example names the words that differ.
//
//   SweepSpec spec;  spec.ctx = ctx;  spec.first = 0;  spec.last = 1ull << 32;  // pk_u8, src0
//   LANEDIFF_ASSIGN_OR_RETURN(proto::SweepResult r, RunSweep(spec, runners, progress));
//   spec.swept = SweptOperand::kElement;  spec.tuple_src = 0;  spec.element = 5;  // an FP6 row
//   spec.last = ElementSweepSize(GetInstrInfo(ctx.instr), 0);                    // 16,384
//   LANEDIFF_ASSIGN_OR_RETURN(proto::SweepResult r, RunSweep(spec, runners, progress));
#ifndef LANEDIFF_FUZZ_SWEEP_SWEEP_H_
#define LANEDIFF_FUZZ_SWEEP_SWEEP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/runner.h"
#include "model/ops/ops.h"
#include "proto/report.pb.h"

namespace lanediff {

enum class SweptOperand { kSrc0, kSeed, kElement };

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
  // kElement: element `element` of source `tuple_src` (a tuple of the row), the other words of
  // each lane from `base` (LaneShape::lane_words of them: each source's dwords, then vdst_old;
  // empty: DefaultBaseLane).
  int tuple_src = 0;
  int element = 0;
  std::vector<uint32_t> base;
};

// The first source of the row that is a VGPR tuple (more than one dword), or -1: the source an
// element sweep walks unless told another.
int FirstTupleSource(const InstrInfo& row);
// What `lanediff sweep` walks for a row, decided here once (the command and `targets --json`'s
// "sweep", which the nightly reads, both ask): one element of its first tuple source; else the
// seed, when S1 is a seed whose width SeedBits knows on the targets that have the row (an 8-bit
// float output); else src0 (the SR rows to 16-bit floats among them: S1 varies by a hash).
SweptOperand RowSweptOperand(Instr instr);
// "element", "seed" or "src0": the names `targets --json` gives them.
const char* SweptOperandName(SweptOperand s);
// The bits of one element of source `src` (SrcElementBits of its role) and how many elements
// its dwords hold (a 6-dword FP6 tuple: 32 of 6 bits; a 16-dword f32 tuple: 16 of 32).
int ElementBits(const InstrInfo& row, int src);
int ElementCount(const InstrInfo& row, int src);
// The whole range of an element sweep of source `src`: 2^bits element values, times the 256
// exponent bytes of the scale when the element is narrower than a dword and the row has a
// scale source (SrcRole::scale_f32); 2^32 for a dword element (its scale held at the base).
uint64_t ElementSweepSize(const InstrInfo& row, int src);
// The base lane when none is given: every tuple dword 0 (every element +0), every one-dword
// source 0x3f800000 (1.0: a scale of 2^0), vdst_old 0.
std::vector<uint32_t> DefaultBaseLane(const InstrInfo& row);
// The destination words (0-based: VDST+k) in which two lane results of `words` words differ,
// as "VDST+1 VDST+31" (what a person reads to find the element that disagreed).
std::string DifferingWords(const uint32_t* expected, const uint32_t* observed, size_t words);

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
