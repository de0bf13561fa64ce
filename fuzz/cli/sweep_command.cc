// lanediff sweep: exhaustive sweeps of one operand, model vs device and fast model vs oracle.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "device_harness/open_runner.h"
#include "fuzz/triage/run_identity.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/json_line.h"
#include "fuzz/cli/open_device.h"
#include "fuzz/cli/output_path.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/sweep/sweep.h"
#include "model/base/version.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// On a terminal the line redraws in place each second; in a log, one line every 10 s.
void PrintProgress(const std::string& label, const SweepProgress& p) {
  static const bool tty = isatty(STDERR_FILENO);
  static double last_logged = -10;
  if (!tty && p.seconds - last_logged < 10) return;
  last_logged = p.seconds;
  const double rate = p.seconds > 0 ? p.done / p.seconds : 0;
  const double eta = rate > 0 ? (p.total - p.done) / rate : 0;
  std::fprintf(stderr, "%s%s: %5.1f%% %.3g lanes/s, %llu mismatches, ETA %.0f s%s", tty ? "\r" : "",
               label.c_str(), 100.0 * p.done / p.total, rate,
               static_cast<unsigned long long>(p.mismatches), eta, tty ? "   " : "\n");
  std::fflush(stderr);
}

// The destination words each mismatch example keeps (1, a pair's 2, a tuple's N).
size_t WordsPerExample(const proto::SweepResult& r) {
  return r.mismatch_examples_size() == 0
             ? 1
             : static_cast<size_t>(r.mismatch_expected_size() / r.mismatch_examples_size());
}

// The swept element's value in an example lane of an element sweep (its bits of the tuple).
uint32_t ElementValue(const SweepSpec& s, const proto::Lane& l) {
  const InstrInfo& row = GetInstrInfo(s.ctx.instr);
  std::vector<uint32_t> tuple;
  const auto& more = s.tuple_src == 0 ? l.src0_more() : s.tuple_src == 1 ? l.src1_more() : l.src2_more();
  tuple.push_back(s.tuple_src == 0 ? l.src0() : s.tuple_src == 1 ? l.src1() : l.src2());
  tuple.insert(tuple.end(), more.begin(), more.end());
  const int bits = ElementBits(row, s.tuple_src);
  uint32_t v = 0;
  for (int b = 0; b < bits; ++b) {
    const size_t bit = static_cast<size_t>(s.element * bits + b);
    if (bit / 32 < tuple.size()) v |= ((tuple[bit / 32] >> (bit % 32)) & 1u) << b;
  }
  return v;
}

// One sweep's result as a JSON line (docs/json.md): counts, SR round-up probabilities, examples.
void PrintSweepJson(const std::string& target_name, const std::string& instr_name,
                    const SweepSpec& s, const proto::SweepResult& r, const std::string& device) {
  std::vector<std::string> examples;
  const size_t words = WordsPerExample(r);
  for (int i = 0; i < r.mismatch_examples_size(); ++i) {
    const proto::Lane& l = r.mismatch_examples(i);
    JsonLine e;
    e.Str("src0", absl::StrFormat("0x%08x", l.src0()))
        .Str("src1", absl::StrFormat("0x%08x", l.src1()))
        .Str("src2", absl::StrFormat("0x%08x", l.src2()))
        .Str("vdst_old", absl::StrFormat("0x%08x", l.vdst_old()))
        .Str("model", absl::StrFormat("0x%08x", r.mismatch_expected(i * words)))
        .Str("device", absl::StrFormat("0x%08x", r.mismatch_observed(i * words)));
    if (s.swept == SweptOperand::kElement) {
      e.Str("element", absl::StrFormat("0x%x", ElementValue(s, l)))
          .Str("differing", DifferingWords(r.mismatch_expected().data() + i * words,
                                           r.mismatch_observed().data() + i * words, words));
    }
    examples.push_back(e.Text());
  }
  JsonLine j;
  j.Str("type", "sweep").Str("target", target_name).Str("instr", instr_name)
      .Str("swept", r.swept())
      .Str("mode", absl::StrFormat("0x%08x", s.ctx.mode));
  if (s.swept == SweptOperand::kSeed) j.Str("src0", absl::StrFormat("0x%08x", s.src0));
  j.Uint("first", s.first).Uint("last", s.last).Uint("lanes", r.lanes())
      .Num("seconds", r.seconds()).Uint("mismatches", r.mismatches())
      .Uint("oracle_checked", r.oracle_checked())
      .Uint("oracle_mismatches", r.oracle_mismatches());
  if (s.swept == SweptOperand::kSeed && r.lanes() > 0) {
    j.Num("p_up_model", double(r.round_up_model()) / r.lanes())
        .Num("p_up_device", double(r.round_up_device()) / r.lanes());
  }
  j.Raw("mismatch_examples", JsonArray(examples)).Str("fault", r.fault())
      .Str("device", device);
  std::printf("%s\n", j.Text().c_str());
  std::fflush(stdout);
}

// One sweep's result as text: a summary line, then each mismatch and oracle disagreement.
void PrintSweepText(const std::string& label, const SweepSpec& s, const proto::SweepResult& r) {
  std::printf("%s: %llu lanes in %.2f s (%.3g lanes/s), %llu mismatches, oracle %llu/%llu mismatches",
              label.c_str(), static_cast<unsigned long long>(r.lanes()), r.seconds(),
              r.seconds() > 0 ? r.lanes() / r.seconds() : 0.0,
              static_cast<unsigned long long>(r.mismatches()),
              static_cast<unsigned long long>(r.oracle_mismatches()),
              static_cast<unsigned long long>(r.oracle_checked()));
  if (s.swept == SweptOperand::kSeed) {
    std::printf(", P(up) model %.6f device %.6f", double(r.round_up_model()) / r.lanes(),
                double(r.round_up_device()) / r.lanes());
  }
  std::printf("\n");
  const size_t words = WordsPerExample(r);
  for (int i = 0; i < r.mismatch_examples_size(); ++i) {
    const proto::Lane& l = r.mismatch_examples(i);
    if (s.swept != SweptOperand::kElement) {
      std::printf("  mismatch: src0=0x%08x src1=0x%08x src2=0x%08x old=0x%08x model=0x%08x device=0x%08x\n",
                  l.src0(), l.src1(), l.src2(), l.vdst_old(), r.mismatch_expected(i * words),
                  r.mismatch_observed(i * words));
      continue;
    }
    // An element sweep: the element's value, the one-dword sources, then each word that differs.
    std::string line = absl::StrFormat("  mismatch: %s=0x%x", r.swept(), ElementValue(s, l));
    const uint32_t first[3] = {l.src0(), l.src1(), l.src2()};
    const InstrInfo& row = GetInstrInfo(s.ctx.instr);
    for (int src = 0; src < row.sources(); ++src) {
      if (row.src_dwords(src) == 1) absl::StrAppendFormat(&line, " src%d=0x%08x", src, first[src]);
    }
    absl::StrAppend(&line, ":");
    for (size_t k = 0; k < words; ++k) {
      const uint32_t want = r.mismatch_expected(i * words + k), got = r.mismatch_observed(i * words + k);
      if (want != got) absl::StrAppendFormat(&line, " VDST+%d model=0x%08x device=0x%08x", k, want, got);
    }
    std::printf("%s\n", line.c_str());
  }
  for (const proto::Lane& l : r.oracle_mismatch_examples()) {
    std::printf("  fast model != oracle: src0=0x%08x src1=0x%08x src2=0x%08x old=0x%08x\n", l.src0(),
                l.src1(), l.src2(), l.vdst_old());
  }
  if (!r.fault().empty()) std::printf("  fault: %s\n", r.fault().c_str());
}

// The sweeps one invocation runs: each MODE (--all-modes: every rounding mode x input-denormal
// setting) for an instruction that sweeps src0, and for a tuple row each MODE x each of
// `elements`; each src0 of the SR boundary set (or --src0) for one that sweeps the seed.
std::vector<SweepSpec> SweepSpecs(const SweepSpec& base, bool is_sr, bool all_modes,
                                  std::optional<uint32_t> src0, const std::vector<int>& elements) {
  std::vector<SweepSpec> specs;
  if (!elements.empty()) {
    SweepSpec per_element = base;
    per_element.swept = SweptOperand::kElement;
    for (const SweepSpec& m : SweepSpecs(per_element, false, all_modes, std::nullopt, {})) {
      for (int k : elements) {
        SweepSpec e = m;
        e.swept = SweptOperand::kElement;
        e.element = k;
        specs.push_back(e);
      }
    }
    return specs;
  }
  if (!is_sr) {
    std::vector<uint32_t> modes = {base.ctx.mode};
    if (all_modes) {
      modes.clear();
      for (uint32_t denorm_in : {0u, 1u}) {
        for (uint32_t round = 0; round < 4; ++round) {
          modes.push_back((base.ctx.mode & ~(kModeRoundF32Mask | kModeDenormF32InBit)) | round |
                          (denorm_in ? kModeDenormF32InBit : 0));
        }
      }
    }
    for (uint32_t m : modes) {
      SweepSpec s = base;
      s.ctx.mode = m;
      specs.push_back(s);
    }
  } else {
    std::vector<std::pair<uint32_t, double>> values = SrBoundarySet(base.ctx);
    if (src0.has_value()) values = {{*src0, 0.0}};
    for (const auto& [v, frac] : values) {
      SweepSpec s = base;
      s.swept = SweptOperand::kSeed;
      s.src0 = v;
      s.fraction = frac;
      specs.push_back(s);
    }
  }
  return specs;
}

// --oracle: off, sampled or every; nullopt for anything else.
std::optional<OracleCheck> ParseOracle(const std::string& oracle) {
  if (oracle == "off") return OracleCheck::kOff;
  if (oracle == "sampled") return OracleCheck::kSampled;
  if (oracle == "every") return OracleCheck::kEvery;
  return std::nullopt;
}

// One device runner per --jobs worker (the first reports how it opened). An exit code when
// one cannot be opened, else -1.
int OpenRunners(const DeviceFlags& dev, uint64_t jobs, std::vector<std::unique_ptr<Runner>>* owned,
                std::vector<Runner*>* runners) {
  const RunnerOptions options = dev.Options();
  for (uint64_t j = 0; j < jobs; ++j) {
    int rc = kExitOk;
    std::unique_ptr<Runner> runner =
        OpenCommandDevice("sweep", dev.device, options, j == 0 ? stderr : nullptr, &rc);
    if (runner == nullptr) return rc;
    owned->push_back(std::move(runner));
    runners->push_back(owned->back().get());
  }
  return -1;
}

// The run's record before its sweeps: start time, version and the run identity.
proto::RunRecord NewRunRecord(const DeviceFlags& dev, const Runner& runner,
                              const std::vector<std::string>& hyps) {
  proto::RunRecord record;
  record.set_started(NowRfc3339());
  record.set_lanediff_version(LANEDIFF_VERSION);
  *record.mutable_identity() = MakeRunIdentity(dev.device, runner.Describe(), dev.inject, hyps, 0);
  // The driver / ISA string, as a campaign's record has it (fuzz/engine/campaign_account.cc
  // DriverOf): the device's own, or "none (<device>)" for one without a driver (simulator,
  // exec, replay).
  const std::string driver = runner.Driver();
  record.mutable_identity()->set_driver(driver.empty() ? absl::StrCat("none (", dev.device, ")")
                                                       : driver);
  return record;
}

struct SweepOutcome {
  bool mismatch = false;  // model vs device, or fast model vs oracle
  bool fault = false;     // a device fault in some sweep
};

// Runs each sweep with a progress line, prints its result (text or JSON) and adds it to
// `record`; nullopt when a sweep could not run (reported on stderr).
std::optional<SweepOutcome> RunSweeps(const std::vector<SweepSpec>& specs,
                                      const std::vector<Runner*>& runners,
                                      const std::string& target_name, const std::string& instr_name,
                                      const std::string& shard, bool json, proto::RunRecord* record) {
  SweepOutcome outcome;
  for (const SweepSpec& s : specs) {
    const std::string label =
        s.swept == SweptOperand::kSeed
            ? absl::StrFormat("%s %s src0=0x%08x", target_name, instr_name, s.src0)
        : s.swept == SweptOperand::kElement
            ? absl::StrFormat("%s %s src%d[%d] mode=0x%08x", target_name, instr_name, s.tuple_src,
                              s.element, s.ctx.mode)
            : absl::StrFormat("%s %s mode=0x%08x", target_name, instr_name, s.ctx.mode);
    auto r = RunSweep(s, runners, [&](const SweepProgress& p) { PrintProgress(label, p); });
    if (!r.ok()) {
      std::fprintf(stderr, "\nlanediff sweep: %s: %s\n", label.c_str(), std::string(r.status().message()).c_str());
      return std::nullopt;
    }
    r->set_shard(shard);
    if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r%-110s\r", "");
    if (json) {
      PrintSweepJson(target_name, instr_name, s, *r, runners[0]->Describe());
    } else {
      PrintSweepText(label, s, *r);
    }
    outcome.mismatch |= r->mismatches() > 0 || r->oracle_mismatches() > 0;
    outcome.fault |= !r->fault().empty();
    *record->add_sweeps() = *std::move(r);
  }
  return outcome;
}

// The element flags against the row: for a row with a tuple source, the elements to sweep
// (--element, else every element of a six-bit field tuple, element 0 of a dword one) and, in
// `spec`, the tuple source and the base lane; for another row, none of them may be given. An
// exit code on a usage error, else -1.
int ElementFlags(const Args& args, const InstrInfo& row, uint64_t element, uint64_t element_src,
                 const std::string& base_lane, std::vector<int>* elements, SweepSpec* spec) {
  const int tuple = args.Given("element-src") ? static_cast<int>(element_src) : FirstTupleSource(row);
  if (tuple < 0 || row.src_dwords(tuple) < 2) {
    if (args.Given("element") || args.Given("element-src") || args.Given("base-lane")) {
      std::fprintf(stderr, "lanediff sweep: --element, --element-src and --base-lane take a row "
                           "with a VGPR-tuple source; %s%s\n", std::string(row.name).c_str(),
                   tuple < 0 ? " has none" : absl::StrCat("'s src", tuple, " is one dword").c_str());
      return kExitUsage;
    }
    return -1;
  }
  spec->tuple_src = tuple;
  const int count = ElementCount(row, tuple);
  if (args.Given("element")) {
    if (element >= static_cast<uint64_t>(count)) {
      std::fprintf(stderr, "lanediff sweep: --element %llu: src%d of %s has elements 0..%d\n",
                   static_cast<unsigned long long>(element), tuple, std::string(row.name).c_str(),
                   count - 1);
      return kExitUsage;
    }
    elements->push_back(static_cast<int>(element));
  } else {
    for (int k = 0; k < (ElementBits(row, tuple) < 32 ? count : 1); ++k) elements->push_back(k);
  }
  spec->base = DefaultBaseLane(row);
  if (!base_lane.empty()) {
    std::vector<uint32_t> words;
    for (absl::string_view tok : absl::StrSplit(base_lane, absl::ByAnyChar(", "), absl::SkipEmpty())) {
      uint32_t w = 0;
      absl::ConsumePrefix(&tok, "0x");
      if (!absl::SimpleHexAtoi(tok, &w)) {
        std::fprintf(stderr, "lanediff sweep: --base-lane: '%s' is not a 32-bit hex word\n",
                     std::string(tok).c_str());
        return kExitUsage;
      }
      words.push_back(w);
    }
    if (words.size() != spec->base.size()) {
      std::fprintf(stderr, "lanediff sweep: --base-lane: %s takes %zu words (each source's dwords, "
                           "then vdst_old), not %zu\n", std::string(row.name).c_str(),
                   spec->base.size(), words.size());
      return kExitUsage;
    }
    spec->base = words;
  }
  return -1;
}

// The help's examples and exit codes; the examples' instructions come from the rows: the
// first without a seed, the first SR.
std::string SweepEpilog() {
  const std::string src0_row = ExampleInstr([](const InstrInfo& r) { return !RowIsSeeded(r); });
  const std::string sr_row = ExampleInstr(RowIsSeeded);
  const std::string tuple_row =
      ExampleInstr([](const InstrInfo& r) { return FirstTupleSource(r) >= 0; });
  return absl::StrCat(
      "examples:\n",
      src0_row.empty() ? ""
                       : absl::StrCat("  lanediff sweep --targets gfx942 --instrs ", src0_row,
                                      " --device sim\n"),
      sr_row.empty() ? ""
                     : absl::StrCat("  lanediff sweep --targets gfx1201 --instrs ", sr_row,
                                    " --out runs/sr.textproto\n"),
      src0_row.empty() ? ""
                       : absl::StrCat("  lanediff sweep --targets gfx942 --instrs ", src0_row,
                                      " --shard 2/4 --out s2.textproto\n"),
      tuple_row.empty() ? ""
                        : absl::StrCat("  lanediff sweep --targets gfx950 --instrs ", tuple_row,
                                       " --element 5 \\\n      --device sim --inject fp6_fields_reversed\n"),
      "exit: 0 all agree, 1 a mismatch (model vs device, or fast model vs oracle), 2 usage (a\n"
      "missing replay: file included), 3 device error or unwritable --out (checked first).");
}

// The command's description for --help: what each kind of row sweeps.
constexpr char kSweepHelp[] =
    "Exhaustive sweeps, model vs device, with the fast model checked against the slow\n"
    "exact oracle in the same pass.\n"
    "  every instruction without a seed (the u8 byte packer, the packed 8-bit float\n"
    "    writers, the 8-bit float -> f32 decoders, one word or a VGPR pair) and the SR\n"
    "    instructions to 16-bit floats (their seed varies by the hash): every src0\n"
    "    value (2^32) for one MODE, or with --all-modes for every rounding mode x\n"
    "    input-denormal setting; the other lane words vary by a fixed hash of src0\n"
    "    (pk_u8: its byte select, ignored S1 bits and kept bytes).\n"
    "  the SR instructions to 8-bit floats (`targets --json`: \"seed\"): every seed value\n"
    "    (2^20 fp8, 2^21 bf8) for each src0 of a boundary set\n"
    "    (or --src0); the seed's low bits, which must not matter, are random on the device\n"
    "    side and zero for the oracle. Gives the SR round-up probability curve.\n"
    "  a row with a VGPR-tuple source (the FP6/BF6 rows; `targets --json`: \"element\"): one\n"
    "    element of the tuple (--element K of --element-src N, default the first tuple\n"
    "    source), the rest of each lane held at --base-lane; every VDST word is compared and\n"
    "    a mismatch names the words that differ (VDST+k). A six-bit FP6/BF6 field takes its\n"
    "    64 codes x the 256 exponent bytes of the scale (16,384 lanes; without --element,\n"
    "    each of the 32 fields in turn); a dword element (one f32 of a 16-f32 tuple) takes\n"
    "    every 32-bit value or --first/--last, element 0 without --element.\n"
    "Work goes to the device in chunks of --chunk lanes, one runner per --jobs worker.\n"
    "Several sweeps (--all-modes, the SR boundary set, each field of a tuple) run one after\n"
    "another.";

int RunSweepCommand(int argc, char** argv) {
  Args args("sweep", kSweepHelp);
  std::string target_name, instr_name, shard, oracle = "sampled", out;
  std::vector<std::string> hyps;
  DeviceFlags dev(/*default_timeout_seconds=*/30);
  uint64_t mode = kDefaultMode, opsel = 0, neg = 0, abs = 0, omod = 0, src0 = 0, first = 0,
           last = 0, jobs = std::max(1u, std::thread::hardware_concurrency()), chunk = 1u << 18;
  bool clamp = false, all_modes = false;
  args.Flag("targets", "the one gfx target (`lanediff targets`); required", &target_name);
  args.Flag("instrs", "the one instruction mnemonic; required", &instr_name);
  dev.Declare(args);
  args.Repeated("hypothesis", "model-side hypothesis (repeatable)", &hyps);
  args.Hex("mode", "MODE register, hex (0x optional; default 0xf0)", 0xffffffffu, &mode);
  args.Bool("all-modes", "src0 sweeps: every rounding mode x input-denormal setting", &all_modes);
  args.Uint("opsel", "OPSEL field (SR: destination byte in bits 3:2)", 15, &opsel);
  args.Uint("neg", "NEG mask (bit 0 = src0)", 7, &neg);
  args.Uint("abs", "ABS mask (bit 0 = src0)", 7, &abs);
  args.Bool("clamp", "set CLAMP", &clamp);
  args.Uint("omod", "OMOD field", 3, &omod);
  args.Hex("src0", "SR: the one src0 to sweep seeds for (default: the boundary set)", 0xffffffffu,
           &src0);
  bool has_src0 = false;
  args.Uint("first", "start of the swept range (default 0)", UINT64_MAX, &first);
  args.Uint("last", "end of the swept range, exclusive (default: all values)", UINT64_MAX, &last);
  args.Flag("shard", "sweep only shard i of n of the range (merge with lanediff report)", &shard);
  args.Uint("jobs", "worker threads, one device runner each (1..256; default: cores)", 1, 256,
            &jobs);
  args.Uint("chunk", "lanes per device batch (1..67108864; default 262144)", 1, 1u << 26,
            &chunk);
  uint64_t element = 0, element_src = 0;
  std::string base_lane;
  args.Uint("element", "tuple rows: the element swept (default: every six-bit field; dword 0)", 255,
            &element);
  args.Uint("element-src", "tuple rows: the source holding it (default: the first tuple)", 2,
            &element_src);
  args.Flag("base-lane",
            "tuple rows: every word of a lane, as eval reads one (default: tuple 0, others 1.0)",
            &base_lane);
  args.Flag("oracle", "fast model vs exact oracle (default sampled: 1 in 61)", &oracle);
  args.Flag("out", "write the results as a RunRecord text proto (for lanediff report)", &out);
  bool json = false;
  args.Bool("json", "JSON Lines: one object per sweep (docs/json.md)", &json);
  args.Epilog(SweepEpilog());
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;
  if (int rc = CheckOutputFile("sweep", "--out", out); rc >= 0) return rc;
  if (int rc = dev.CheckPath("sweep"); rc >= 0) return rc;
  has_src0 = args.Given("src0");
  OpContext ctx;
  if (int rc = ParseOneTarget("sweep", target_name, &ctx.target); rc >= 0) return rc;
  if (int rc = ParseOneInstr("sweep", instr_name, &ctx.instr); rc >= 0) return rc;
  ctx.mods = {static_cast<uint8_t>(opsel), static_cast<uint8_t>(neg), static_cast<uint8_t>(abs), clamp,
              static_cast<uint8_t>(omod)};
  ctx.mode = static_cast<uint32_t>(mode);
  if (int rc = ApplyHypothesisFlags("sweep", hyps, &ctx.hyp); rc >= 0) return rc;
  if (absl::Status st = ValidateContext(ctx); !st.ok()) {
    std::fprintf(stderr, "lanediff sweep: %s\n", std::string(st.message()).c_str());
    return kExitUsage;
  }
  const std::optional<OracleCheck> oracle_check = ParseOracle(oracle);
  if (!oracle_check.has_value()) {
    std::fprintf(stderr, "lanediff sweep: --oracle must be off, sampled or every\n");
    return kExitUsage;
  }

  std::vector<std::unique_ptr<Runner>> owned;
  std::vector<Runner*> runners;
  if (int rc = OpenRunners(dev, jobs, &owned, &runners); rc >= 0) return rc;
  std::fprintf(stderr, "device: %s\n", runners[0]->Describe().c_str());

  // A row with a tuple source sweeps an element of it; one that takes a seed the seed; the
  // others src0.
  const InstrInfo& row = GetInstrInfo(ctx.instr);
  std::vector<int> elements;
  SweepSpec base;
  if (int rc = ElementFlags(args, row, element, element_src, base_lane, &elements, &base); rc >= 0) {
    return rc;
  }
  const bool is_sr = elements.empty() && RowSweptOperand(ctx.instr) == SweptOperand::kSeed;
  const uint64_t full = !elements.empty() ? ElementSweepSize(row, base.tuple_src)
                                          : uint64_t{1} << (is_sr ? SeedBits(ctx) : 32);
  if (last == 0) last = full;
  if (last > full || first >= last) {
    std::fprintf(stderr, "lanediff sweep: range [%llu, %llu) is empty or beyond %llu\n",
                 static_cast<unsigned long long>(first), static_cast<unsigned long long>(last),
                 static_cast<unsigned long long>(full));
    return kExitUsage;
  }
  auto range = ShardRange(first, last, shard);
  if (!range.ok()) {
    std::fprintf(stderr, "lanediff sweep: %s\n", std::string(range.status().message()).c_str());
    return kExitUsage;
  }
  base.ctx = ctx;
  base.first = range->first;
  base.last = range->second;
  base.oracle = *oracle_check;
  base.chunk_lanes = chunk;
  base.device_name = dev.device;
  const std::vector<SweepSpec> specs =
      SweepSpecs(base, is_sr, all_modes,
                 has_src0 ? std::optional<uint32_t>(static_cast<uint32_t>(src0)) : std::nullopt,
                 elements);

  proto::RunRecord record = NewRunRecord(dev, *runners[0], hyps);
  const std::optional<SweepOutcome> outcome =
      RunSweeps(specs, runners, target_name, instr_name, shard, json, &record);
  if (!outcome.has_value()) return kExitEnvironment;
  if (!out.empty()) {
    if (absl::Status st = WriteFileAtomic(out, ToText(record)); !st.ok()) {
      std::fprintf(stderr, "lanediff sweep: %s\n", std::string(st.message()).c_str());
      return kExitEnvironment;
    }
  }
  if (outcome->fault) return kExitEnvironment;
  return outcome->mismatch ? kExitFound : kExitOk;
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(70, "sweep", "exhaustive sweeps: all 2^32 src0 (pk_u8), all seeds (SR)",
                          RunSweepCommand);

}  // namespace lanediff
