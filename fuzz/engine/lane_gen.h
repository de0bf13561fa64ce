// The campaign's hot path without protobuf: a case is its header (a proto::TestCase with no
// lanes: target, instruction, encoding, MODE) plus its lanes as flat arrays of words
// (LaneBatch: src0, src1, src2, vdst_old), and a LaneGen made once per case holds every
// per-case decision the mutator's value choices need (target, instruction, 8-bit format and
// its boundary table, seed position and seed table), so drawing a lane is table look-ups and
// random numbers only. Protobuf Lane objects exist only at the edges (corpus, findings,
// records, the libFuzzer entry points): ToProto / Flatten.
//
// Two ways to draw. Value(rng, field) draws one value exactly as Mutator::DomainValue does, in
// the same order, from the same Rng (the mutator's single-field mutations use it). Fill draws
// whole lanes from per-case value pools instead (LanePools below): the same value choices with
// the same weights, but not the same random stream as drawing each word by Value (one Rng
// number per Fill call, then a counter-based hash: three 64-bit hashes per lane, no branch).
// fuzz/engine/campaign_golden_test.cc is the change detector for that stream.
//
//   FlatCase c = Flatten(tc);
//   LaneGen gen(c.header);                   // once per case
//   gen.Fill(rng, &c.lanes, 1024);           // 1024 fresh lanes
//   proto::TestCase back = ToProto(c);       // only where a proto is needed
#ifndef LANEDIFF_FUZZ_LANE_GEN_H_
#define LANEDIFF_FUZZ_LANE_GEN_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

#include "device_harness/resolve_case.h"

#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

class Rng;

// A test case on the hot path. header.lanes() is always empty; lanes holds the Lane fields
// as written in the case (unresolved: a VGPR source reads its lane field, other sources ignore
// it), 16 bytes per lane.
struct FlatCase {
  proto::TestCase header;
  LaneBatch lanes;
  size_t size() const { return lanes.size(); }
};

// Moves the lanes out of `tc` into flat arrays, laid out as tc's row reads them (LaneShape: a
// wide source's dwords from Lane.srcN_more; one the lane does not hold is 0).
FlatCase Flatten(proto::TestCase tc);
// The lanes back into Lane messages: a wide source's dwords past the first in srcN_more.
proto::TestCase ToProto(const FlatCase& c);
// The LaneShape of the header's row (one dword per source for an unknown instruction).
LaneShape RowShapeOf(const proto::TestCase& header);
// The most lanes a case of a row of `shape` holds when a one-dword row's case holds `lanes`. A
// one-dword lane keeps 4 operand words in the pool of earlier cases (16 bytes: the campaign's
// memory bound, fuzz/engine/campaign_memory_test.cc) and has up to 6 words in flight with its
// VDST words. A wide lane (a VGPR tuple) is given 3 operand words a lane and 6 in flight: its
// case in flight is held in more copies than a narrow one's. Measured (Release, 65,536 lanes per
// batch, 300 cases, peak RSS): a campaign of the SR encoder from 32 f32 alone 110 MiB under the
// in-flight bound alone, 73 MiB with the operand bound too; pk_u8 (one dword) alone 87 MiB. The
// FP6 -> f32 tuple decode (6 + 1 + 1 + 1 operand words, 32 VDST words): 65,536 lanes become
// min(21,845, 9,590) = 9,590; the SR encoder from 32 f32 (32 + 1 + 1 + 1, 6): 5,617. At least 1;
// `lanes` for every narrow row.
inline size_t WideLaneCap(const LaneShape& shape, size_t lanes) {
  const size_t in = static_cast<size_t>(shape.lane_words());
  const size_t all = in + shape.dst_words;
  if (in <= 4 && all <= 6) return lanes;
  const size_t cap = std::min(lanes * 3 / in, lanes * 6 / all);
  return cap == 0 ? 1 : cap;
}

// Lays `lanes` out as `shape` (a row change under mutation): each lane keeps its first dwords
// and as many of a wide source's others as both shapes have; the rest are 0. True if changed.
bool ReshapeLanes(const LaneShape& shape, LaneBatch* lanes);

// The fields DomainValue knows (Lane fields, Encoding fields, MODE); kOther: any 32 bits.
enum class DomainField { kSrc0, kSrc1, kSrc2, kVdstOld, kMode, kOpsel, kNegAbs, kOmod, kCode, kOther };
// "src0" and "value" -> kSrc0, "neg" and "abs" -> kNegAbs, ... unknown names -> kOther.
DomainField DomainFieldNamed(absl::string_view name);
// The Lane word a Lane field name is (0..3: src0, src1, src2, vdst_old), or -1.
int LaneWordNamed(absl::string_view name);

// What a LaneGen's value choices depend on (the aim tables' key, below).
struct AimKey {
  const void* target;
  int instr;
  const void* fp8_table;
  const void* seed_table;
  friend auto operator<=>(const AimKey&, const AimKey&) = default;
};

// One lane word's value choices as a pool of 2^bits entries: entry e gives
// (e & 0xffffffff) | (random32 & (e >> 32)) (a fixed value, or some of its bits random). Each
// choice of DomainValue fills a share of the entries proportional to its probability there,
// every value of a table at least once: drawing a word is one index and one load.
struct WordPool {
  std::vector<uint64_t> entries;
  int bits = 0;
};
// The four pools of a LaneGen (src0, src1, src2, vdst_old), built once per distinct value
// choice (8-bit format and its low mask, seed table and its low mask, S1 role, src2 use) and
// kept for the process: a few dozen in a campaign, at most 8 x 16K entries = 128 KiB each.
struct LanePools {
  WordPool word[4];
};

// The per-case value chooser. The header's target may be unknown and its instruction any
// enum value (a mutated case before Fixup): the choices then fall back as DomainValue's do.
class LaneGen {
 public:
  explicit LaneGen(const proto::TestCase& header);
  uint32_t Value(Rng& rng, DomainField field) const;
  // Resizes `lanes` to n and draws src0, src1, src2, vdst_old for each lane from the pools
  // (one rng.Next() per call, whatever n).
  void Fill(Rng& rng, LaneBatch* lanes, size_t n) const;
  // The same into lanes [from, from + n) of four flat arrays (no resize).
  void FillInto(Rng& rng, uint32_t* src0, uint32_t* src1, uint32_t* src2, uint32_t* vdst_old,
                size_t n) const;
  const LanePools& Pools() const;
  // Draws dwords 1..N-1 of every tuple source (LaneShape N > 1) of lanes [from, size): one
  // rng.Next() per call. Fill and FillFrom call it for a wide row (a narrow row's stream does
  // not change).
  void FillTupleDwords(Rng& rng, LaneBatch* lanes, size_t from) const;
  // FillTupleDwords for S0's tuple of packed 16-bit floats (SrcRole::f16x2_x16 / bf16x2_x16):
  // lanes [from, n) of the w-dword tuples at d, hashes from the counter ctr.
  void FillPk16TupleDwords(uint64_t& ctr, uint32_t* d, size_t w, size_t from, size_t n) const;
  // Draws lanes [from, size) of `lanes` (the ones aiming left, say).
  void FillFrom(Rng& rng, LaneBatch* lanes, size_t from) const;
  AimKey Key() const {
    return {target_, static_cast<int>(instr_), fp8_table_, seed_table_};
  }

 private:
  uint32_t Src0(Rng& rng) const;
  uint32_t Src1(Rng& rng) const;
  uint32_t ScaleOperandValue(Rng& rng) const;  // an S1 or S2 of SrcRole::scale_f32
  uint32_t E8m0RegisterValue(Rng& rng) const;  // an S1 of SrcRole::scale_e8m0_x4
  uint32_t Src2(Rng& rng) const;
  uint32_t VdstOld(Rng& rng) const;
  const TargetTraits* target_ = nullptr;
  Instr instr_;
  bool src2_unused_ = false;
  bool has_seed_ = false;                  // writes an 8-bit float (SR seed in S1)
  bool seed16_ = false;  // S1 seeds a 16-bit result (no seed table: no 8-bit format)
  bool src1_data_ = false;                 // S1 is f32 data (its row's SrcRole::data_f32)
  bool src1_scale_ = false;                // S1 is a block scale (SrcRole::scale_f32)
  bool src2_scale_ = false;                // S2 is a block scale (the 3-source scaled encoders)
  bool src1_e8m0_ = false;  // S1 is a register of E8M0 bytes (SrcRole::scale_e8m0_x4, gfx1250)
  uint8_t pk16_ = 0;  // S0 packed 16-bit floats (IsPacked16; IsPackedF16: 1, bfloat16: 2)
  const std::vector<uint32_t>* fp8_table_ = nullptr;  // null: integer result (u8 table)
  uint32_t fp8_low_mask_ = 0;              // f32 mantissa bits below the 8-bit format's
  const std::vector<uint32_t>* seed_table_ = nullptr;
  uint32_t seed_low_mask_ = 0;             // S1 bits below the seed
  mutable const LanePools* pools_ = nullptr;  // looked up on the first Fill
};

// Replaces up to all lanes of `c` by lanes on which some single alternative hypothesis
// changes the model's answer under `hyp`.
//
// Without `scratch` (or while the case's aim table below is still cold): 4x as many candidates
// as lanes are drawn (LaneGen), resolved and evaluated once per hypothesis value, and the first
// ones that separate kept in order. That costs four lane draws and one model evaluation per
// alternative hypothesis value (18) per candidate: about 8x an unaimed lane.
//
// With `scratch`, the lanes that separated are remembered in an aim table per (target,
// instruction, 8-bit output format, seed position): the LaneGen's identity, everything its value
// tables depend on, not the case's modifiers, MODE or operands. Once a table holds
// kAimWarmLanes, an aimed case draws only n/16 fresh candidates (verified as above; the ones
// that separate are kept first and enter the table, replacing its oldest lanes) and takes the
// rest of its lanes from the table in runs of kAimRunLanes consecutive table lanes from random
// places (one random index and two cache lines a run: a lane at a time, each a cache miss in
// tables that do not fit the cache, cost 9 ns a lane): lanes that separated on an
// earlier case of the same instruction and format, not re-verified under this case's
// modifiers and MODE. Returns how many lanes were aimed.
// kAimWarmLanes: 256 warmed the tables sooner (a cold call costs about 8x an unaimed lane) but
// changed which lanes src1_neg's campaign in fuzz/triage/erratum_buckets_test.cc aims at, giving
// it a third bucket (sr_seed=low); 1024 keeps that test's two.
// `scratch` keeps the working buffers and the aim tables from one call to the next: at most
// kMaxAimTables tables of kAimTableLanes lanes (16 bytes each): 16 MiB at most, a few MiB in a
// campaign over today's instructions.
inline constexpr size_t kAimTableLanes = 4096;
inline constexpr size_t kAimWarmLanes = 1024;
inline constexpr size_t kMaxAimTables = 256;
inline constexpr size_t kAimRunLanes = 8;
struct AimTable {
  std::vector<uint32_t> words;  // 4 words a lane: src0, src1, src2, vdst_old
  size_t next = 0;              // the lane the next new one replaces, once full
  size_t size() const { return words.size() / 4; }
  void Add(uint32_t s0, uint32_t s1, uint32_t s2, uint32_t vd);
};
struct AimScratch {
  LaneBatch cand, uniform;
  std::vector<uint32_t> base, alt;
  std::vector<uint8_t> keep;
  Hypotheses hyp;  // the tables below hold lanes that separate under this
  std::map<AimKey, AimTable> tables;
};
size_t AimLanes(Rng& rng, const Hypotheses& hyp, FlatCase* c, AimScratch* scratch = nullptr);
// What AimLanes decides once per header (its LaneGen and resolution): made once for many
// cases sharing a header (the grouping step's siblings), it saves a resolution per case.
struct AimHeader {
  explicit AimHeader(const proto::TestCase& header);
  LaneGen gen;
  LaneRouting routing;
  absl::StatusOr<ResolvedCase> rc;
};
// The same as above for a case whose header is `h`'s.
size_t AimLanes(Rng& rng, const Hypotheses& hyp, const AimHeader& h, FlatCase* c,
                AimScratch* scratch = nullptr);

// The static value tables (built once; Mutator's table functions return copies of these).
const std::vector<uint32_t>& SpecialF32Table();
const std::vector<uint32_t>& U8BoundaryTable();
const std::vector<uint32_t>& Fp8BoundaryTable(Fp8FormatId id);
const std::vector<uint32_t>& SeedTable(int first_seed_bit);  // 0..31
const std::vector<uint32_t>& ModeTable();
// 16-bit float values of packed sources (SrcRole::data_f16x2 / data_bf16x2), both signs: IEEE
// binary16 (f16) or bfloat16.
const std::vector<uint32_t>& Pk16ValueTable(bool f16);

// The target a header names (nullptr if unknown). Once per case, never per lane.
const TargetTraits* TargetNamed(absl::string_view name);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_LANE_GEN_H_
