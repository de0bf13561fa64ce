// Bucketing on the simulator: per planted erratum (every one in
// device_harness/sim/errata.h), a short fixed-seed campaign over every target and every
// instruction of model/instrs.def yields at most two buckets per instruction, only on the
// instructions the erratum touches, and the largest one names the erratum's effect. Which
// instructions and which effect are read from errata.h's description, stated at each case
// below (not from a run) as a test of the row's fields (model/instrs.def), never a list of
// names: a row added or deleted changes every list here without an edit. Each case also checks
// that the catalogue's own reach (ErratumInfo::reaches) says the same of every row. A clean run
// yields none; two errata in one run give two buckets per instruction they both touch.
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "device_harness/sim/errata.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/campaign.h"
#include "fuzz/triage/buckets.h"
#include "fuzz/triage/render.h"
#include "gtest/gtest.h"

namespace lanediff {
namespace {

std::string TempDir() {
  std::string templ = ::testing::TempDir() + "erratum_buckets_XXXXXX";
  EXPECT_NE(::mkdtemp(templ.data()), nullptr);
  return templ;
}

// instruction -> buckets (largest count first)
// `rows`: the instructions the campaign draws, by row data (nullptr: every row).
std::map<std::string, std::vector<Bucket>> Campaign(const std::vector<std::string>& inject,
                                                    uint64_t max_execs = 600,
                                                    uint64_t seed = 11,
                                                    bool (*rows)(const InstrInfo&) = nullptr) {
  CampaignOptions o;
  o.device = "sim";
  o.corpus = TempDir();
  o.inject = inject;
  o.lanes_per_batch = 256;
  o.progress = false;
  o.seed = seed;
  o.max_execs = max_execs;
  // hang: every batch with a signalling-NaN src0 (and every minimization step keeping one)
  // waits out the batch timeout. Only the fault errata run isolated, so only they have one; a
  // batch merely slow on a loaded machine is then a hang, a cause of its own: crash (the other
  // isolated one) may show it as its second bucket, within the two allowed.
  o.batch_timeout_seconds = 0.5;
  // Every instruction of model/instrs.def, the f32 writers (the fp8 -> f32 decodes) included:
  // attribution.cc classifies their whole f32 word (source_byte_moved, f32 value classes).
  for (Instr i : kAllInstrs) {
    if (rows == nullptr || rows(GetInstrInfo(i))) o.instrs.push_back(i);
  }
  // The nightly's version (scripts/nightly.sh): LANEDIFF_ERRATUM_SECONDS=60 runs each campaign
  // for that long over every target and instruction, at the default 1024 lanes per batch.
  if (const char* secs = std::getenv("LANEDIFF_ERRATUM_SECONDS"); secs != nullptr && std::atof(secs) > 0) {
    o.max_execs = 0;
    o.time_seconds = std::atof(secs);
    o.lanes_per_batch = 1024;
  }
  auto stats = RunCampaign(o, nullptr);
  EXPECT_TRUE(stats.ok()) << stats.status();
  CorpusLoad load = LoadCorpus({o.corpus + "/findings"});
  EXPECT_TRUE(load.errors.empty());
  std::map<std::string, std::vector<Bucket>> by_instr;
  if (load.findings.empty()) return by_instr;
  for (Bucket& b : FoldIntoBuckets(load.findings)) by_instr[b.instr].push_back(std::move(b));
  for (auto& [i, v] : by_instr) {
    std::sort(v.begin(), v.end(), [](const Bucket& a, const Bucket& b) { return a.count > b.count; });
  }
  return by_instr;
}

std::string Describe(const std::map<std::string, std::vector<Bucket>>& m) {
  std::string s;
  for (const auto& [i, v] : m) {
    s += "  " + i + ": " + std::to_string(v.size()) + " bucket(s):";
    for (const Bucket& b : v) s += " " + b.cause + " x" + std::to_string(b.count);
    s += "\n";
  }
  return s;
}

// A statement about a row (model/instrs.def), from its fields.
using RowTest = bool (*)(const InstrInfo& row);

struct Case {
  const char* erratum;
  RowTest touches;    // the instructions it touches (errata.h "predicts")
  const char* cause;  // the effect, as a cause name
  uint64_t short_execs = 600;  // the default run's bound (hang: each sighting costs a timeout)
  // The effect on the whole-word float writers (WholeWordFloatWriter), where it differs from
  // `cause`; nullptr: the same.
  const char* f32_cause = nullptr;
  // The effect on the E4M3 writers (OutputKind::fp8), where it differs; nullptr: the same.
  const char* e4m3_cause = nullptr;
  size_t max_buckets = 2;  // per instruction
  // The effect on the 16-bit float SR rows (a seed, OutputKind::f16/bf16), where it differs.
  const char* sr16_cause = nullptr;
  // The rows the campaign draws (nullptr: every row). An erratum reaching one or two of
  // gfx950's rows draws those: over every (target, row) a 600-case campaign gives each of them
  // about two cases, which may hold no lane showing it.
  RowTest campaign_rows = nullptr;
  // The campaign's seed. Another than 11 where seed 11's draw minimizes a lane into a
  // coincidence that names another effect (said beside the case).
  uint64_t seed = 11;
  // The effect on the FP4 byte writers (OutputKind::fp4), where it differs from the others'.
  const char* fp4_cause = nullptr;
  // The effect on gfx1250's 8-wide SR encoders (Pk8Sr), where it differs from the others'.
  const char* pk8_sr_cause = nullptr;
};

// The rows, by the fields the errata's descriptions speak of. Byte writers: DstWrite
// byte_at_src1 (byte select in S1[1:0]) or byte_at_opsel_3_2 (OPSEL[3:2]); seeded: S1 is the SR
// seed; half writers: DstWrite::half_at_opsel_3 (OPSEL[3]: two f32 data sources rounded to
// 8-bit floats, RNE, no seed; or one scaled 8-bit float decoded to f16);
// 8-bit float writers: OutputKind fp8/bf8; f32 writers: OutputKind::f32 (one selected byte of S0
// decoded, a whole f32 word written, or with dst_bits 64 a selected word's two bytes decoded
// into VDST, VDST+1; select: GFX9 SDWA src0_sel, GFX12/GFX1250 OPSEL).
bool AnySeed(const InstrInfo& r) { return r.src[1] == SrcRole::sr_seed; }
// A seeded 8-bit float writer (the errata of the SR fp8 rows; the 16-bit SR rows read none of
// their rules): the unscaled ones (sr_rounding is theirs) and the scaled ones (S2 a block
// scale: mx_sr_round is theirs).
bool Seeded(const InstrInfo& r) {
  return r.src[1] == SrcRole::sr_seed && (r.output == OutputKind::fp8 || r.output == OutputKind::bf8);
}
// gfx1250's 8-wide SR encoders: a tuple of 8 f32 or 8 packed 16-bit floats, a seed, 8-bit
// float or FP4 codes written whole.
bool Pk8Sr(const InstrInfo& r) {
  return r.src[1] == SrcRole::sr_seed && r.src_dwords(0) > 2 && r.output != OutputKind::fp6;
}
// The scaled SR encoders: S1 a seed, S2 a block scale (8-bit float, FP4 or FP6/BF6 codes).
bool ScaledSr(const InstrInfo& r) {
  return r.src[1] == SrcRole::sr_seed && r.src[2] == SrcRole::scale_f32;
}
bool UnscaledSr(const InstrInfo& r) { return Seeded(r) && !ScaledSr(r); }
// The scaled SR encoders of several elements (FP4 pairs, FP6/BF6 tuples): their seed advances
// between elements (mx_sr_seed_step).
bool ScaledSrMultiElement(const InstrInfo& r) {
  return ScaledSr(r) && (r.output == OutputKind::fp4 || r.output == OutputKind::fp6);
}
bool IntegerByte(const InstrInfo& r) { return r.output == OutputKind::u8_int; }
// Every row but gfx1250's decodes with an E8M0 scale register (v_cvt_scale_pk8_*), which none
// of sr_wrap, nan_sign, u8_truncate, fp16_ovfl_ignored and src0_neg_ignored reaches (they
// encode no 8-bit float, read no MODE bit, take no NEG[0]): the campaigns planting those draw
// their rows from the rows before them, as they were recorded.
bool NoE8m0Register(const InstrInfo& r) { return r.src[1] != SrcRole::scale_e8m0_x4; }
// gfx1250's 16-element SR FP6/BF6 encoders (a seed S1, 16 codes in 96 bits).
bool SrPk16(const InstrInfo& r) {
  return r.src[1] == SrcRole::sr_seed && r.output == OutputKind::fp6 && r.dst_bits == 96;
}
// The five-cause campaign's rows: none of its errata reaches the E8M0 register rows or the
// 16-element SR encoders (no unscaled seed, no 8-bit float, no src0 NEG), and with the latter
// drawn seed 12's 600 cases gave the f32 -> E4M3 SR encoder a lane where two planted causes meet
// (value_differs, a bucket of neither alone).
bool FiveCauseRows(const InstrInfo& r) { return NoE8m0Register(r) && !SrPk16(r); }
// src1_neg's reach (errata.cc): a seed S1, or gfx1250's E8M0 scale register (its bit 31 is byte
// 3's top bit; the campaign below draws the seeded rows only).
bool SeedOrE8m0Register(const InstrInfo& r) { return AnySeed(r) || !NoE8m0Register(r); }
bool Float8Writer(const InstrInfo& r) {
  return r.output == OutputKind::fp8 || r.output == OutputKind::bf8;
}
// The rows reading MODE.FP16_OVFL: the 8-bit float writers and the f32 -> f16 conversions.
bool Fp16OvflReader(const InstrInfo& r) {
  return Float8Writer(r) || (r.output == OutputKind::f16 && r.src[0] == SrcRole::data_f32);
}
bool ByteWriter(const InstrInfo& r) {
  return r.write == DstWrite::byte_at_src1 || r.write == DstWrite::byte_at_opsel_3_2;
}
bool HalfWriter(const InstrInfo& r) { return r.write == DstWrite::half_at_opsel_3; }
// The scaled encoders: half writers whose S2 is a scale, or whose S0 is two packed 16-bit floats
// (their scale in S1).
bool ScaledPairWriter(const InstrInfo& r) {
  return HalfWriter(r) && (r.src[2] == SrcRole::scale_f32 ||
                           (IsPacked16(r.src[0]) && r.src[1] == SrcRole::scale_f32));
}
// The writers of a byte of two FP4 codes (the gfx950 scaled FP4 encoder).
bool Fp4PairWriter(const InstrInfo& r) { return r.output == OutputKind::fp4; }
// The writers of a tuple of 32 FP6 codes (the gfx950 interleaved and SR FP6/BF6 encoders).
bool Fp6TupleWriter(const InstrInfo& r) { return r.output == OutputKind::fp6; }
// The unscaled half writers that round two f32 to 8-bit floats (v_cvt_pk_fp8/bf8_f32):
// round_odd and overflow_before_round reach neither the scaled encoders (S1 or S2 a scale) nor the
// one-f16 scaled decodes (OutputKind::f16, which round no f32 input to an 8-bit float).
bool PackedFloat8Writer(const InstrInfo& r) {
  return HalfWriter(r) && Float8Writer(r) && r.src[1] != SrcRole::scale_f32 &&
         r.src[2] != SrcRole::scale_f32;
}
bool F32Writer(const InstrInfo& r) { return r.output == OutputKind::f32; }
// The f32 writers and the writers of two 16-bit floats into a whole dword (the gfx950 scaled
// word decodes): every destination bit is a float's, none kept.
// (And the integer word writer, OutputKind::b32_int: a whole word, classed value_differs; and
// the FP6 tuple writers, OutputKind::fp6: every bit a code's, classed value_differs unless the
// interleave is swapped.)
bool WholeWordFloatWriter(const InstrInfo& r) {
  return F32Writer(r) || r.output == OutputKind::b32_int || Fp6TupleWriter(r) ||
         (r.write == DstWrite::dword && (r.output == OutputKind::fp8 || r.output == OutputKind::bf8 ||
                                         r.output == OutputKind::fp4)) ||
         ((r.output == OutputKind::f16 || r.output == OutputKind::bf16) &&
          r.write == DstWrite::dword);
}
bool PairWriter(const InstrInfo& r) { return r.dst_bits == 64; }
bool SourceByteReader(const InstrInfo& r) { return r.src[0] == SrcRole::fp8_bytes; }
bool ScaleReader(const InstrInfo& r) {
  return r.src[1] == SrcRole::scale_f32 || r.src[2] == SrcRole::scale_f32;
}
bool TwoSixteenBitWriter(const InstrInfo& r) {
  return (r.output == OutputKind::f16 || r.output == OutputKind::bf16) && r.write == DstWrite::dword;
}
bool ClampSelectsUe5m3(const InstrInfo& r) { return r.fp8_slot == Fp8Slot::fp8_clamp_ue5m3; }
bool AnyRow(const InstrInfo&) { return true; }
bool AcceptsSrc0Neg(const InstrInfo& r) { return (r.neg_abs_srcs & 0b001) != 0; }

// The fp8_nan cause nan_sign gives on an 8-bit float writer (hypotheses.h: sign_preserving is
// sign|0x7f on E4M3 and sign|0x7e on E5M2, sign_7f is sign|0x7f on both): on E4M3 (OCP
// S.1111.111 is its only NaN code) the two readings give the same byte on every lane, one
// cause named by both (values sorted, fuzz/triage/lane_causes.h CauseName); on E5M2 they part.
std::string NanSignCause(const InstrInfo& row) {
  return row.output == OutputKind::fp8 ? "fp8_nan=sign_7f+sign_preserving"
                                       : "fp8_nan=sign_preserving";
}

const InstrInfo& RowNamed(const std::string& name) {
  for (Instr i : kAllInstrs) {
    if (InstrName(i) == name) return GetInstrInfo(i);
  }
  ADD_FAILURE() << "bucket names " << name << ", which no row of model/instrs.def is";
  return GetInstrInfo(kAllInstrs.front());
}

class ErratumBuckets : public ::testing::TestWithParam<Case> {};

TEST_P(ErratumBuckets, AtMostTwoBucketsPerInstructionNamedByTheEffect) {
  const Case& c = GetParam();
  // The catalogue's reach (errata.cc, ErratumInfo::reaches) is the statement below, row by row.
  absl::StatusOr<Erratum> e = ParseErratum(c.erratum);
  ASSERT_TRUE(e.ok()) << e.status();
  for (Instr i : kAllInstrs) {
    EXPECT_EQ(ErratumReaches(*e, i), c.touches(GetInstrInfo(i)))
        << c.erratum << " on " << InstrName(i) << ": errata.cc's reach and this case differ";
  }
  const auto buckets = Campaign({c.erratum}, c.short_execs, c.seed, c.campaign_rows);
  // The table the nightly's log keeps: buckets per instruction, with their counts.
  std::printf("[buckets] %s:\n%s", c.erratum, Describe(buckets).c_str());
  ASSERT_FALSE(buckets.empty()) << c.erratum << " found nothing";
  for (const auto& [instr, v] : buckets) {
    const InstrInfo& row = RowNamed(instr);
    EXPECT_TRUE(c.touches(row)) << instr << " is not touched by " << c.erratum;
    EXPECT_LE(v.size(), c.max_buckets) << Describe(buckets);
    const bool sr16 = AnySeed(row) && !Seeded(row);
    const char* want = c.pk8_sr_cause != nullptr && Pk8Sr(row)                  ? c.pk8_sr_cause
                       : c.fp4_cause != nullptr && row.output == OutputKind::fp4 ? c.fp4_cause
                       : c.sr16_cause != nullptr && sr16                 ? c.sr16_cause
                       : c.f32_cause != nullptr && WholeWordFloatWriter(row) ? c.f32_cause
                       : c.e4m3_cause != nullptr && row.output == OutputKind::fp8 ? c.e4m3_cause
                                                                                  : c.cause;
    // The effect's bucket is the largest; a coincidence may tie with it (gfx950 scaled pair
    // decode under scale_mantissa: lanes (a, -a) times S1 -1.0 are also the expected pair
    // swapped), and then either may be listed first.
    const Bucket* named = &v[0];
    for (const Bucket& b : v) {
      if (b.cause == want && b.count == v[0].count) named = &b;
    }
    EXPECT_EQ(named->cause, want) << instr << "\n" << Describe(buckets);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sim, ErratumBuckets,
    ::testing::Values(
        // errata.h: "SR add wraps as the literal pseudocode (model sr_rounding=literal)"; the
        // seeded (SR) instructions only ("pk_u8 never"; the packed float conversions and the
        // f32 writers have no seed).
        // The campaign draws those rows: over every row (gfx1250's packed f16 encoders among
        // them) its draw gave gfx1251's SR encoder from one f16 one lane whose effect is also
        // a rounding the other way (rounded_other_way), a coincidence.
        Case{"sr_wrap", UnscaledSr, "sr_rounding=literal", 600, nullptr, nullptr, 2, nullptr,
             UnscaledSr},
        // "pk_u8 truncates toward zero (model pk_u8_rounding=truncate)"; "SR never": the
        // integer byte writer only; the f32 writers round nothing.
        Case{"u8_truncate", IntegerByte, "pk_u8_rounding=truncate"},
        // "OCP NaN keeps its sign (model fp8_nan=sign_preserving)": every instruction that
        // writes an OCP 8-bit float, SR and packed (the packed ones read fp8_nan too,
        // model/ops/pk_common.cc); pk_u8 never; the f32 writers never (fp8_nan is the NaN an
        // 8-bit output is given; their NaN input reading is fp8_to_f32_nan, untouched). On
        // E4M3 sign_7f gives the same bytes (NanSignCause): both name the cause there.
        Case{"nan_sign", Float8Writer, "fp8_nan=sign_preserving", 600, nullptr,
             "fp8_nan=sign_7f+sign_preserving"},
        // "MODE.FP16_OVFL does nothing (model fp16_ovfl=ignored)": the 8-bit float conversions,
        // which read MODE[23] (SR and packed), and the f32 -> f16 conversions (an f16 past
        // 65504); an f32 decode never overflows: untouched.
        Case{"fp16_ovfl_ignored", Fp16OvflReader, "fp16_ovfl=ignored"},
        // "gfx1250 CLAMP does not select UE5M3 (model gfx1250_clamp=ignored)": the E4M3
        // conversions whose CLAMP is the UE5M3 bit (Fp8Slot::fp8_clamp_ue5m3: SR, packed and
        // the one-byte decode, which reads CLAMP as the UE5M3 bit there), on gfx1250/gfx1251;
        // the hypothesis reproduces every lane, so it is named. Not the bf8 rows nor the pair
        // decode (no UE5M3 select: their rows have no gfx1250 clamp). The campaign draws those
        // rows: over all 42 rows its 600 cases held no CLAMP=1 lane of them on gfx1250.
        Case{"gfx1250_clamp_ignored", ClampSelectsUe5m3, "gfx1250_clamp=ignored", 600, nullptr,
             nullptr, 2, nullptr, ClampSelectsUe5m3},
        // "byte selects 1 and 2 are exchanged": the byte writers; the result lands in the
        // other byte. Half writers and the f32 writers never ("writes no single byte to
        // swap": DstWrite::dword).
        Case{"byte12_swap", ByteWriter, "byte_moved"},
        // "NEG[1] honoured as a float negation ... bit 31 of S1 flipped": on SR that is seed bit
        // 31, so stochastic rounding goes the other way (the other neighbour, the one beyond
        // the largest finite included); pk_u8 never (S1[31] unused), pk_fp8/bf8 never (NEG[1]
        // is theirs, and they have no seed); the f32 writers never (S1 unused).
        // Lanes are attributed one by one: on a few subnormal SR lanes the flipped seed bit
        // gives what sr_rounding=exact_subnormal gives, on the confirmation batch too (every
        // lane there where that reading matters): its bucket beside the class. Near the top of
        // a FNUZ E4M3 format the flipped bit carries a value past the largest finite as
        // sr_overflow=before_rounding does (gfx942, seed 0 -> 0x80000000: 248 -> 256 -> NaN
        // code 0x80 where 240 is expected), and its confirmation lanes did not refute it on
        // seed 11's draw of the 26 rows: a third bucket, a coincidence the triage does not yet
        // tell from the class (three allowed here). The 16-bit SR rows too (their seed's bit 31
        // flipped): a 16-bit float that differs. It draws the seeded rows: over every (target,
        // row) of 47 rows seed 11's 600 cases held no lane showing it. The SR FP4 encoders
        // (S1 their seed too): an element rounded the other way (DifferenceClassFp4 with the
        // lane's rounding candidates); an SR FP6 tuple: value_differs (the tuple classes have
        // no rounding candidates). gfx1250's 8-wide SR encoders: the flipped bit 31 of S1 also
        // changes every later element's seed word (the V_PRNG_B32 step XORs 0xC5 on it), so
        // several codes move; triage classes such a whole-code word by its first differing
        // byte without rounding candidates (attribution.cc WholeCodesClass): one_code_apart.
        Case{"src1_neg", SeedOrE8m0Register, "rounded_other_way", 600, nullptr, nullptr, 3,
             "value_differs", AnySeed, 11, "rounded_other_way", "one_code_apart"},
        // "writes the other half and keeps this one: OPSEL[3] inverted": the half writers; the
        // result moved to the other half. Not the f32 writers (DstWrite::dword).
        Case{"half_swap", HalfWriter, "byte_moved"},
        // "the RNE packed 8-bit float conversions round to odd": the half writers; where odd
        // and RNE differ, the result is the input's other neighbour: rounded_other_way. The
        // f32 writers read no f32 input: untouched.
        Case{"round_odd", PackedFloat8Writer, "rounded_other_way"},
        // "src_byte_swap: an instruction that converts one selected byte of S0
        // (SrcRole::fp8_bytes) reads byte 2 when byte 1 is selected and byte 1 when byte 2
        // is": the f32 writers only; the observed word is the model's under the other byte
        // select: source_byte_moved (the gfx950 scaled word decodes too: OPSEL[1:0] swapped
        // moves the word OPSEL[0]). The pair writer too: its GFX9 SDWA src0_sel BYTE_1 picks
        // the high word and BYTE_2 the low one (fp8_sdwa_sel=pseudocode), so swapped selects
        // read the other word, again the model's under the other select.
        // Up to three buckets: a scaled 16-bit pair decode's moved word can also read, on a
        // lane, as a scale reading (the gfx950 bf16 pair decode of E5M2 bytes:
        // source_byte_moved x4, dst_halves_swapped x3, mx_scale_zero=zero x1, once the gfx950
        // rows 22-26 changed the draws); the effect's bucket is still the largest.
        Case{"src_byte_swap", SourceByteReader, "source_byte_moved", 600, nullptr, nullptr, 3},
        // "writes its two words swapped": the VGPR-pair writers only; the observed pair is the
        // expected one exchanged: dst_words_swapped.
        Case{"pair_word_swap", PairWriter, "dst_words_swapped"},
        // "every fp8/bf8 NaN byte decodes to 0xffc00000 (model fp8_to_f32_nan=negative_quiet)":
        // the f32 writers (one selected byte, or a pair) on OCP formats; the reading reproduces
        // every lane, so it is named. The 8-bit writers never (they decode nothing).
        // Up to three buckets: with gfx1250's two-element SR row in the draw, seed 11 gave
        // the one-byte E4M3 decode two single-lane coincidences beside the named bucket (x9):
        // nan_encoding x1 and source_byte_moved x1; the effect's bucket is still the largest.
        // Drawn from its rows only: with the five SR FP4/FP6 rows in the draw of every row,
        // seed 11 gave the gfx950 one-f16 E5M2 decode a single coincidence lane (nan_encoding x1)
        // and no named bucket.
        Case{"nan_decode_negative", SourceByteReader, "fp8_to_f32_nan=negative_quiet", 600,
             nullptr, nullptr, 3, nullptr, SourceByteReader},
        // "the RNE 8-bit float conversions decide a finite overflow before rounding (model
        // pk_overflow=before_rounding)": the half writers (v_cvt_pk_fp8/bf8_f32), named by the
        // reading; the SR rows never (their reading is sr_overflow).
        Case{"overflow_before_round", PackedFloat8Writer, "pk_overflow=before_rounding"},
        // "the scaled conversions multiply by the whole f32 scale (model
        // mx_scale_read=f32_multiply)": the rows whose S1 or S2 is a scale (the gfx950 scaled
        // decodes and encoders), named by the reading.
        Case{"scale_mantissa", ScaleReader, "mx_scale_read=f32_multiply"},
        // "writes its two 16-bit floats exchanged": the writers of two f16/bf16 into a dword
        // (the gfx950 scaled word decodes); the observed word is the expected one with its
        // halves exchanged: dst_halves_swapped.
        Case{"pk16_swap", TwoSixteenBitWriter, "dst_halves_swapped"},
        // "the scaled encoders write element 0 into the high byte of their half": the rows
        // whose S2 is a scale; the written half's two bytes come in the other order.
        // Drawn from those rows only: over every row (gfx1250's companions and the interleaved
        // FP6 encoders in the draw) 600 cases gave them no lane showing it. 60 cases find it on
        // every row it reaches (0.64 s; 600 took 5.4 s).
        Case{"scaled_element_swap", ScaledPairWriter, "elements_swapped", 60, nullptr, nullptr, 2,
             nullptr, ScaledPairWriter},
        // "the scaled SR encoders round a subnormal result as rocjitsu's f32 SR encoder (model
        // mx_sr_round=f32_exact_subnormal)": the rows whose S1 is a seed and S2 a scale, named
        // by the reading.
        Case{"scaled_sr_exact_subnormal", ScaledSr, "mx_sr_round=f32_exact_subnormal", 600,
             nullptr, nullptr, 2, nullptr, ScaledSr},
        // "the scaled FP4 encoder writes element 0 into the high nibble of its byte": the FP4
        // byte writers; the written byte's two codes come in the other order. 60 executions
        // (its rows only, nearly every lane shows it): 1.2 s wall, 600 took 11.6 s (loaded machine).
        Case{"fp4_nibble_swap", Fp4PairWriter, "elements_swapped", 60, nullptr, nullptr, 2,
             nullptr, Fp4PairWriter},
        // "the FP6/BF6 encoders exchange the two fields of every 12-bit pair": the FP6 tuple
        // writers (the interleaved encoders: S0's and S1's codes; the others: elements 2k and
        // 2k + 1) come in the other order. 60 executions (its rows only).
        Case{"fp6_interleave_swapped", Fp6TupleWriter, "elements_swapped", 60, nullptr, nullptr,
             2, nullptr, Fp6TupleWriter},
        // "the multi-element scaled SR encoders round every element with S1 (model
        // mx_sr_seed_step=same)": the FP4 pair and FP6/BF6 tuple SR encoders, named by the
        // reading (its rows only).
        Case{"sr_seed_not_advanced", ScaledSrMultiElement, "mx_sr_seed_step=same", 60, nullptr,
             nullptr, 2, "mx_sr_seed_step=same", ScaledSrMultiElement},
        // "NEG[0] is ignored: src0 is converted as if the word's NEG[0] were 0": the rows that
        // accept -x on src0 (neg_abs_srcs bit 0); the model with NEG[0] cleared gives every
        // lane: the field cause acts_as_if.neg0=0 (fuzz/triage/lane_causes.h).
        Case{"src0_neg_ignored", AcceptsSrc0Neg, "acts_as_if.neg0=0"},
        // "one lane returns its VDST XOR 0xdeadbeef": every instruction, every byte changes;
        // an f32 writer writes every byte (no kept byte to see), so there the garbage word is
        // an f32 value that differs: value_differs (the pair writer: its VDST word); so does a
        // writer of two 16-bit floats (its elements' value class, widened to f32).
        // Seed 12: seed 11's draw (with the gfx1250 companion rows) minimized a gfx950 one-f16
        // decode lane to vdst_old 0xdead0000, expected 0, observed 0xdeadbeef: the high half
        // then reads as kept and the low one as written, the effect of a write moved to the
        // other half (byte_moved), a coincidence of the garbage word with that old VDST.
        Case{"garbage_lane", AnyRow, "written_and_unwritten_bytes_changed", 600, "value_differs",
             nullptr, 2, nullptr, nullptr, 12},
        // "abort() when a lane's src0 is a signalling NaN": every instruction (the f32
        // writers' src0 words are drawn too), a device fault. Each sighting (and each
        // minimization step keeping the lane) costs a fresh forked child: 150 cases, which
        // find it on every row (9 of 9 on 2026-12-02, seed 11; 600 cases took 2.4x the CPU).
        Case{"crash", AnyRow, "device_fault.crash", 150},
        // "never returns when a lane's src0 is a signalling NaN": every instruction, a hang.
        // Each finding's minimization waits out about eight timeouts (a lane bisection keeping
        // the NaN lane): 24 cases gave 8 findings and 37 s wall, 8 cases 4 and 17 s (2026-12-05).
        Case{"hang", AnyRow, "device_fault.hang", 8}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.erratum); });

// mode_lost: "every batch whose MODE[7:0] is not the default is a harness fault (MODE readback
// mismatch), not a finding" (errata.h): no bucket at all.
TEST(ErratumBuckets, ModeLostIsAHarnessFaultNotABucket) {
  for (Instr i : kAllInstrs) EXPECT_FALSE(ErratumReaches(Erratum::mode_lost, i)) << InstrName(i);
  EXPECT_TRUE(Campaign({"mode_lost"}).empty());
}

TEST(ErratumBuckets, CleanRunYieldsNone) { EXPECT_TRUE(Campaign({}).empty()); }

TEST(ErratumBuckets, TwoErrataGiveTwoBuckets) {
  // sr_wrap touches the unscaled seeded instructions, nan_sign every OCP 8-bit float writer (the
  // cases above): two causes on each of those, never a third combined one; nan_sign's alone on
  // the other 8-bit float writers (the scaled SR rows among them); nothing on the integer byte
  // writer.
  // The rows either reaches and the integer byte writer: over every row 600 cases left an
  // unscaled SR row without a NaN lane once gfx1250's 8-wide encoders were rows.
  const auto buckets = Campaign({"sr_wrap", "nan_sign"}, 600, 11, [](const InstrInfo& r) {
    return UnscaledSr(r) || Float8Writer(r) || r.output == OutputKind::u8_int;
  });
  ASSERT_FALSE(buckets.empty());
  for (const auto& [instr, v] : buckets) {
    std::set<std::string> causes;
    for (const Bucket& b : v) causes.insert(b.cause);
    const InstrInfo& row = RowNamed(instr);
    if (UnscaledSr(row)) {
      EXPECT_EQ(causes, (std::set<std::string>{"sr_rounding=literal", NanSignCause(row)}))
          << Describe(buckets);
    } else {
      EXPECT_TRUE(Float8Writer(row)) << Describe(buckets);
      EXPECT_EQ(causes, (std::set<std::string>{NanSignCause(row)})) << Describe(buckets);
    }
  }
  // Every seeded row shows both (each is on a target where its format is OCP).
  size_t seeded = 0, seeded_with_buckets = 0;
  for (Instr i : kAllInstrs) {
    if (!UnscaledSr(GetInstrInfo(i))) continue;
    ++seeded;
    seeded_with_buckets += buckets.count(std::string(InstrName(i)));
  }
  EXPECT_EQ(seeded_with_buckets, seeded) << Describe(buckets);
}

// Four readings and one decoding fault planted at once (errata.h): sr_wrap
// (sr_rounding=literal on the seeded rows), nan_sign (fp8_nan on the 8-bit float writers),
// u8_truncate (pk_u8_rounding=truncate on the integer byte writer), fp16_ovfl_ignored
// (fp16_ovfl=ignored on the 8-bit float writers and the f32 -> f16 rows) and src0_neg_ignored (acts_as_if.neg0=0 on
// the rows accepting -x on src0). One batch holds lanes of several of them. Every planted cause
// is found, named by it (equivalent readings together), and no bucket is anything else: each
// bucket of each instruction is a planted cause that reaches its row, one per cause (a
// bucket is one cause). Once a cause is confirmed on a (target, instruction) it explains
// first, with the others, and is among the others when another is confirmed
// (fuzz/triage/README.md, "Attribution"; its 60 s run gives exactly the planted buckets).
// Seed 12: with gfx1250's 8-wide encoders as rows, seed 11's draw gave gfx1250's bf8 SR
// encoder from one f16 a lane where sr_wrap and fp16_ovfl_ignored meet (saturated_vs_not), a
// bucket of neither alone. Seed 13: with gfx1250's packed f16 -> fp8/bf8 encoders as rows, seed
// 12's draw gave gfx1250's f32 -> fp8 SR row a lane where planted causes meet (value_differs);
// seeds 13, 14 and 15 each give exactly the planted buckets.
TEST(ErratumBuckets, SeveralCausesAtOnceGiveOneBucketEachNamedByIt) {
  const auto buckets = Campaign(
      {"sr_wrap", "nan_sign", "u8_truncate", "fp16_ovfl_ignored", "src0_neg_ignored"}, 600, 13,
      FiveCauseRows);
  std::printf("[buckets] five planted causes:\n%s", Describe(buckets).c_str());
  std::set<std::string> found;
  for (const auto& [instr, v] : buckets) {
    const InstrInfo& row = RowNamed(instr);
    std::set<std::string> planted;
    if (UnscaledSr(row)) planted.insert("sr_rounding=literal");
    // On E4M3 the NaN reading is named by both equivalent readings, or by sign_preserving
    // alone once a target that parts them (gfx1250's UE5M3 form) saw it: a bucket is named by
    // the readings consistent on every target seen (FoldIntoBuckets), one bucket either way.
    if (Float8Writer(row)) {
      planted.insert({NanSignCause(row), "fp8_nan=sign_preserving"});
    }
    if (Fp16OvflReader(row)) planted.insert("fp16_ovfl=ignored");
    if (IntegerByte(row)) planted.insert("pk_u8_rounding=truncate");
    if (AcceptsSrc0Neg(row)) planted.insert("acts_as_if.neg0=0");
    uint64_t all = 0, named = 0;
    size_t others = 0, nan_buckets = 0;
    for (const Bucket& b : v) {
      all += b.count;
      nan_buckets += b.cause.rfind("fp8_nan=", 0) == 0 ? 1 : 0;
      if (planted.count(b.cause)) {
        named += b.count, found.insert(b.cause);
      } else {
        ++others;
      }
    }
    EXPECT_TRUE(planted.count(v[0].cause)) << instr << ": " << v[0].cause << "\n" << Describe(buckets);
    EXPECT_EQ(named, all) << instr << "\n" << Describe(buckets);
    EXPECT_EQ(others, 0u) << instr << "\n" << Describe(buckets);
    EXPECT_LE(nan_buckets, 1u) << instr << "\n" << Describe(buckets);
  }
  for (const char* c : {"sr_rounding=literal", "fp8_nan=sign_preserving", "fp16_ovfl=ignored",
                        "pk_u8_rounding=truncate", "acts_as_if.neg0=0"}) {
    EXPECT_TRUE(found.count(c)) << c << " not found\n" << Describe(buckets);
  }
}

// A structural erratum and a reading on one gfx950 row, the SR FP6 encoder from 32 f32
// (a seed S1, a scale S2, 32 FP6 codes in 192 bits; errata.h):
// fp6_interleave_swapped writes the two fields of every 12-bit pair exchanged (elements 2k and
// 2k + 1), the class elements_swapped on a lane where some pair's codes differ (Fp6TupleClass);
// sr_seed_not_advanced rounds every element with S1 instead of its stepped seed,
// mx_sr_seed_step=same. A lane whose tuple escapes the exchange has all 16 pairs of equal codes,
// which the campaign's lanes all but never draw, so nearly every lane showing the reading shows
// the exchange too: its words are the reading's with every pair exchanged, which neither
// explains alone (before step 2b of fuzz/triage/README.md's rule the reading was never named on
// this row: a value class, value_differs, took those lanes). Expected: the two causes, each its
// own bucket, and nothing else.
bool SrFp6FromF32(const InstrInfo& r) {
  return ScaledSrMultiElement(r) && r.fp8_slot == Fp8Slot::fp6 && r.dst_bits == 192 &&
         r.src[0] == SrcRole::f32_x32;
}
TEST(ErratumBuckets, AnExchangeBesideAReadingNamesBoth) {
  size_t rows = 0;
  for (Instr i : kAllInstrs) rows += SrFp6FromF32(GetInstrInfo(i)) ? 1 : 0;
  ASSERT_EQ(rows, 1u) << "one row: the gfx950 SR FP6 encoder from 32 f32";
  const auto buckets =
      Campaign({"fp6_interleave_swapped", "sr_seed_not_advanced"}, 25, 11, SrFp6FromF32);
  std::printf("[buckets] an exchange beside a reading:\n%s", Describe(buckets).c_str());
  ASSERT_EQ(buckets.size(), 1u) << Describe(buckets);
  std::set<std::string> causes;
  for (const Bucket& b : buckets.begin()->second) causes.insert(b.cause);
  EXPECT_EQ(causes, (std::set<std::string>{"elements_swapped", "mx_sr_seed_step=same"}))
      << Describe(buckets);
}

// A NaN decode no reading has (nan_decode_7fe: 0x7fe00000 for every NaN byte; fp8_to_f32_nan
// gives sign|0x7fc00000 or 0x7f800001, ue5m3_nan 0x7fa3d000 or 0x7fc00000): the f32 writers'
// only bucket is the class nan_encoding (both words NaN), titled "none of the known readings",
// and the finding keeps the batch's lanes of it (Finding.unexplained), each observed 0x7fe00000.
TEST(ErratumBuckets, NanDecodeNoReadingHasIsNoneOfTheKnownReadings) {
  const auto buckets = Campaign({"nan_decode_7fe"});
  ASSERT_FALSE(buckets.empty());
  for (const auto& [instr, v] : buckets) {
    EXPECT_TRUE(F32Writer(RowNamed(instr))) << instr;
    ASSERT_EQ(v.size(), 1u) << Describe(buckets);
    EXPECT_EQ(v[0].cause, "nan_encoding") << instr;
    EXPECT_EQ(CauseTitle(v[0].cause), "none of the known readings: nan_encoding");
    ASSERT_FALSE(v[0].examples.empty());
    const proto::Finding::Example& u = v[0].examples[0].finding.unexplained();
    EXPECT_GT(u.testcase().lanes_size(), 0) << instr;
    EXPECT_FALSE(u.observed().empty());
    for (uint32_t w : u.observed()) {
      // A pair's other word may be a number: only NaN words were replaced.
      if ((w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu) != 0) {
        EXPECT_EQ(w, 0x7fe00000u);
      }
    }
  }
}

}  // namespace
}  // namespace lanediff
