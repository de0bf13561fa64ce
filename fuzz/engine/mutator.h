// Structured mutation of proto::TestCase: reflection over the message's fields, with value
// choices that know the domain (special floats, u8 rounding boundaries, fp8/bf8 midpoints and
// overflow thresholds per format, SR seed extremes, every MODE setting, every OPSEL byte, the
// modifier bits LLVM refuses), then a post-processor that keeps the case valid for its target.
// libprotobuf-mutator is not packaged for Debian 12; this is the compact replacement, used by
// the campaign driver and by the libFuzzer entry points alike.
//
// Deterministic: everything random comes from the Rng passed in (never global rand()).
//
//   Mutator m({.targets = {"gfx942"}, .max_lanes = 64});
//   Rng rng(seed);
//   proto::TestCase tc = m.Generate(rng);
//   m.Mutate(rng, &tc);                   // 1..4 field mutations, then Fixup
//   proto::TestCase child = m.CrossOver(rng, tc, other);
#ifndef LANEDIFF_FUZZ_MUTATOR_H_
#define LANEDIFF_FUZZ_MUTATOR_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fuzz/engine/lane_gen.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// xoshiro256** seeded by splitmix64: small, fast, same stream on every platform.
// Next and Below are inline: lane generation calls them about ten times per lane.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t Next() {
    const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }
  uint32_t Next32() { return static_cast<uint32_t>(Next() >> 32); }
  // Uniform in [0, n); n > 0. Lemire's multiply-shift with rejection: unbiased, deterministic.
  uint64_t Below(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) [[unlikely]] {
      const uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(Next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }
  bool OneIn(uint64_t n) { return Below(n) == 0; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Below(v.size())];
  }

 private:
  uint64_t s_[4];
};

struct MutatorConfig {
  std::vector<std::string> targets;  // gfx names allowed; empty = every target
  std::vector<Instr> instrs;         // empty = every instruction
  size_t min_lanes = 1;
  size_t max_lanes = 64;  // hard limit kMaxLanes
  // Probability (in 1/256) that a generated case uses a non-default source kind, a refused
  // modifier bit, or a non-default MODE.
  int exotic_per_256 = 48;
  // --allow-undefined: sources may also break the constant-bus limit (model/isa/vop3.h
  // SpecViolations). Never a literal on GFX9: its operand has no value the model can compute.
  bool allow_undefined = false;
};

inline constexpr size_t kMaxLanes = 1 << 16;

// Domain value tables (exposed for tests and the dictionary generator).
// f32 bit patterns: zeros, denormals, infinities, NaNs with payloads, 1.0 and friends.
std::vector<uint32_t> SpecialF32Values();
// k + 0.5 for k in {0, 1, 2, 127, 128, 129, 253, 254, 255}, 255.5, -0.5, -0.6, 254.5, 256 ...
std::vector<uint32_t> U8BoundaryValues();
// For one 8-bit format: every code's value, the midpoint above it, max finite, the RNE
// overflow threshold and its neighbours, the smallest subnormal and half of it (as f32 bits,
// both signs).
std::vector<uint32_t> Fp8BoundaryValues(Fp8FormatId id);
// S1 seeds: 0, all ones, each bit of S1[31:kept_low] alone, the ignored low bits alone.
std::vector<uint32_t> SeedValues(int first_seed_bit);
// Every MODE value built from round (MODE[3:0]), denorm (MODE[7:4]) and FP16_OVFL (bit 23).
std::vector<uint32_t> ModeValues();

class Mutator {
 public:
  explicit Mutator(MutatorConfig config);

  // Validates the config (known targets, lane bounds); the error says which field.
  absl::Status Check() const;

  // Each operation comes twice: on a proto::TestCase (the libFuzzer entry points, tests) and on
  // a FlatCase (the campaign's hot path, fuzz/engine/lane_gen.h). The proto forms convert and call
  // the flat ones, so both draw the same random numbers and give the same case.

  // A fresh valid case.
  proto::TestCase Generate(Rng& rng) const;
  // `draw_lanes` false: the lanes are zeros (the campaign aims them next, fuzz/engine/lane_gen.h).
  FlatCase GenerateFlat(Rng& rng, bool draw_lanes = true) const;
  // Fills `n` lanes with domain values for this case's target/instruction.
  void FillLanes(Rng& rng, proto::TestCase* tc, size_t n) const;
  // 1..4 reflective mutations (any field, any lane), then Fixup.
  void Mutate(Rng& rng, proto::TestCase* tc) const;
  void MutateFlat(Rng& rng, FlatCase* c) const;
  // Encoding/MODE from one parent, lanes mixed from both, then Fixup.
  proto::TestCase CrossOver(Rng& rng, const proto::TestCase& a, const proto::TestCase& b) const;
  FlatCase CrossOverFlat(Rng& rng, const FlatCase& a, const FlatCase& b) const;

  // The post-processor: target allowed and known (else replaced), instruction present on the
  // target (else replaced), field widths (OPSEL 4 bits, NEG/ABS 3, OMOD 2), source kinds the
  // target's encoding allows (no literal on GFX9; constant-bus limit unless allow_undefined;
  // inline codes valid),
  // raw_words only as 2 or 3 words and not mixed with modifier fields, lane count within
  // [min_lanes, max_lanes]. Returns true if anything changed.
  bool Fixup(Rng& rng, proto::TestCase* tc) const;
  bool FixupFlat(Rng& rng, FlatCase* c) const;

  // One domain value for a field of this case (name: src0, src1, src2, vdst_old, mode ...).
  uint32_t DomainValue(Rng& rng, const proto::TestCase& tc, const std::string& field) const;

  const MutatorConfig& config() const { return config_; }

 private:
  void MutateField(Rng& rng, FlatCase* c) const;
  void MutateLanes(Rng& rng, FlatCase* c) const;
  // --instrs allows `i` (an empty list allows every instruction).
  bool InstrAllowed(Instr i) const;
  // The instructions `t` has that the config allows.
  std::vector<Instr> AllowedInstrs(const TargetTraits& t) const;
  // FixupFlat's steps, in its order (the first two draw from `rng` only to replace a target
  // or instruction, the last to add lanes); each says whether it changed anything.
  const TargetTraits* FixupTarget(Rng& rng, proto::TestCase* tc, bool* changed) const;
  bool FixupInstr(Rng& rng, const TargetTraits& t, proto::TestCase* tc) const;
  bool FixupSources(const TargetTraits& t, Instr instr, proto::Encoding* enc) const;
  bool FixupLaneCount(Rng& rng, FlatCase* c) const;
  std::vector<const TargetTraits*> targets_;
  MutatorConfig config_;
};

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_MUTATOR_H_
