#include "fuzz/selftest/selftest.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "fuzz/triage/discriminate.h"
#include "fuzz/engine/mutator.h"
#include "model/base/lanes.h"
#include "model/base/status.h"
#include "model/base/version.h"
#include "model/isa/tables.h"
#include "model/isa/vop3.h"
#include "model/isa/testcase.h"
#include "model/ops/input_class.h"
#include "model/ops/ops.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// Agreed lanes of no special class kept per batch (every agreed NaN and special lane is kept).
constexpr size_t kMaxKnownLanes = 64;
// Round toward zero (MODE[3:0] = 0b1111: f32 and f16/f64 RTZ), denormals on, FP16_OVFL = 1:
// every field the kernel sets, away from its default.
constexpr uint32_t kOtherMode = 0x008000ffu;

struct Variant {
  std::string name;
  proto::Encoding encoding;
};

// An SGPR S1 value for a source of this role: byte 2, an SR seed, or 1.5.
uint32_t Src1Value(SrcRole role) {
  switch (role) {
    case SrcRole::byte_select: return 2u;
    case SrcRole::sr_seed: return 0x12345678u;
    default: return 0x3fc00000u;
  }
}

// Candidate S1 values by role: byte selects, seed extremes, or a few floats.
std::vector<uint32_t> Src1Candidates(SrcRole role) {
  switch (role) {
    case SrcRole::byte_select: return {0, 1, 2, 3};
    case SrcRole::sr_seed: return {0, 0x12345678u, 0x7fffffffu, 0xffffffffu};
    default: return {0, 0x3f800000u, 0xc3800000u, 0x7fc00000u};  // 0, 1.0, -256.0, NaN
  }
}

std::vector<Variant> Variants(const TargetTraits& target, Instr instr) {
  const InstrInfo& info = GetInstrInfo(instr);
  const AsmRules rules = GetAsmRules(target, instr);
  std::vector<Variant> out;
  out.push_back({"v1, v2, v3", {}});
  Variant na{"-|src0|", {}};
  na.encoding.set_neg(1);
  na.encoding.set_abs(1);
  out.push_back(na);
  if (info.opsel_bits != 0) {
    if (info.write == DstWrite::byte_at_opsel_3_2) {
      for (uint32_t byte = 1; byte < 4; ++byte) {
        Variant b{absl::StrCat("byte ", byte), {}};
        b.encoding.set_opsel(byte << 2);
        out.push_back(b);
      }
    } else if (info.write == DstWrite::half_at_opsel_3) {
      Variant h{"high half", {}};
      h.encoding.set_opsel(0b1000);
      out.push_back(h);
    } else if (rules.opsel == OpSelSyntax::byte_sel_src) {  // source byte = 2*OPSEL[0] + OPSEL[1]
      for (uint32_t byte = 1; byte < 4; ++byte) {
        Variant b{absl::StrCat("source byte ", byte), {}};
        b.encoding.set_opsel((byte >> 1) | ((byte & 1) << 1));
        out.push_back(b);
      }
    }
    if (rules.clamp) {
      Variant c{"clamp", {}};
      c.encoding.set_clamp(true);
      out.push_back(c);
    }
  }
  if (HasForm(target, instr, InstrForm::e32)) {  // the VOP1 forms (model/isa/vop3.h)
    Variant e{"e32 (4-byte VOP1 word)", {}};
    e.encoding.set_form(proto::FORM_E32);
    out.push_back(e);
  }
  if (HasForm(target, instr, InstrForm::sdwa)) {
    Variant w{"SDWA src0_sel:BYTE_2", {}};
    w.encoding.set_form(proto::FORM_SDWA);
    w.encoding.set_src0_sel(2);
    out.push_back(w);
  }
  if (info.src_dwords(1) == 1) {  // a tuple source is a VGPR tuple only (resolve.h)
    Variant s{"SGPR src1 (s21)", {}};
    s.encoding.mutable_src1()->set_kind(proto::SOURCE_SGPR);
    s.encoding.mutable_src1()->set_code(21);
    s.encoding.mutable_src1()->set_value(Src1Value(info.src[1]));
    out.push_back(s);
  }
  // A literal S0 where S0 is one dword a constant may be (not a VGPR tuple, not gfx1250's FP4
  // codes, SrcRole::fp4_x8: LLVM takes a VGPR only there).
  if (GetVop3Layout(target.family).literal_allowed && info.src_dwords(0) == 1 &&
      info.src[0] != SrcRole::fp4_x8) {
    Variant l{"literal src0 (12-byte word)", {}};
    l.encoding.mutable_src0()->set_kind(proto::SOURCE_LITERAL);
    l.encoding.mutable_src0()->set_value(0x42fe0000u);  // 127.0
    out.push_back(l);
  } else if (GetVop3Layout(target.family).literal_allowed && info.src[1] == SrcRole::scale_f32) {
    // A tuple S0 is a VGPR tuple only; the scale takes the literal (gfx1250's 8-wide encoders:
    // llvm-mc-22 assembles `..., 0x3fc00000` into a 12-byte word).
    Variant l{"literal scale src1 (12-byte word)", {}};
    l.encoding.mutable_src1()->set_kind(proto::SOURCE_LITERAL);
    l.encoding.mutable_src1()->set_value(0x40000000u);  // 2.0
    out.push_back(l);
  }
  return out;
}

// Candidate lanes: the mutator's special floats (+-0, denormals, +-Inf, NaNs with payloads,
// max finite) and u8 boundaries as src0, plus, for an 8-bit float source, words whose four
// bytes are each format's NaN, Inf, zero, denormal and max-normal codes (OCP E4M3 NaN 0x7f/0xff
// and max 0x7e; E5M2 Inf 0x7c, NaN 0x7d..0x7f, max 0x7b; FNUZ NaN 0x80 and max 0x7f; smallest
// denormal 0x01 everywhere); byte selects (pk) or seed extremes (SR) as src1; a recognisable
// old VDST.
std::vector<proto::Lane> Candidates(Instr instr) {
  std::set<uint32_t> src0;
  for (uint32_t v : SpecialF32Values()) src0.insert(v);
  for (uint32_t v : U8BoundaryValues()) src0.insert(v);
  if (GetInstrInfo(instr).src[0] == SrcRole::fp8_bytes) {
    for (uint32_t b : {0x7fu, 0xffu, 0x7eu, 0xfeu, 0x7cu, 0xfcu, 0x7du, 0x7bu, 0x80u, 0x00u, 0x01u, 0x81u}) {
      src0.insert(b * 0x01010101u);
    }
    src0.insert(0x807f7cffu);  // a different special code in each byte
  }
  const std::vector<uint32_t> src1 = Src1Candidates(GetInstrInfo(instr).src[1]);
  std::vector<proto::Lane> out;
  for (uint32_t a : src0) {
    for (uint32_t b : src1) {
      proto::Lane l;
      l.set_src0(a);
      l.set_src1(b);
      l.set_src2(0x11223344u);
      l.set_vdst_old(0xa0b0c0d0u);
      out.push_back(l);
    }
  }
  return out;
}

// A lane's input class (model/ops/input_class.h): NaN, or another special value (+-Inf, +-0, a
// denormal, an overflow past the output's largest value), or neither.
enum class LaneKind { nan, special, normal };
LaneKind KindOf(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  const absl::string_view c = ClassifyInput(ctx, src0, src1);
  if (c == "nan") return LaneKind::nan;
  if (c == "inf" || c == "zero" || c == "denormal" || c == "overflow") return LaneKind::special;
  return LaneKind::normal;
}

// The lanes of `tc` on which every setting agrees (on every destination word: both of a VGPR
// pair), evaluated under the MODE the kernel really runs with (ResolveTestCase: KernelMode,
// device_harness/kernel_state.h), laid out over
// kSelfTestLanes lanes (two workgroups): every agreed NaN and special lane, then at most
// kMaxKnownLanes others spread evenly, in that order from lane 0 and again from lane
// kWorkgroupLanes, and a NaN lane (else a special one) as the last lane; with the agreed
// answers (DstWords per lane) and the count of NaN and special lanes.
absl::Status KeepAgreedLanes(const std::vector<Hypotheses>& settings,
                             proto::TestCase* tc, std::vector<uint32_t>* expected, int* nan_lanes,
                             int* special_lanes) {
  LANEDIFF_ASSIGN_OR_RETURN(ResolvedCase rc, ResolveTestCase(*tc));
  const size_t n = rc.lanes.size();
  const size_t w = static_cast<size_t>(DstWords(rc.ctx.instr));
  // The first setting's words on every lane; each later one is evaluated on the lanes that still
  // agree only, the settings one rule away from the first before those two away and so on: a
  // single reading parts most lanes it touches, so the batch shrinks within the first few dozen
  // of the settings (the product of every relevant rule's readings, thousands on the scaled
  // rows).
  const std::vector<Hypotheses> none = {Hypotheses{}};
  const std::vector<Hypotheses>& all = settings.empty() ? none : settings;
  std::vector<std::pair<int, size_t>> by_distance;  // (rules differing from all[0], index)
  for (size_t h = 1; h < all.size(); ++h) {
    int differ = 0;
    for (const HypothesisInfo& info : AllHypotheses()) differ += info.get(all[h]) != info.get(all[0]);
    by_distance.emplace_back(differ, h);
  }
  std::sort(by_distance.begin(), by_distance.end());
  std::vector<uint32_t> first(OutputWords(rc.ctx.instr, n));
  {
    OpContext ctx = rc.ctx;
    ctx.hyp = all[0];
    LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, rc.lanes.view(), absl::MakeSpan(first)));
  }
  std::vector<size_t> alive(n);
  for (size_t i = 0; i < n; ++i) alive[i] = i;
  LaneBatch sub;
  sub.SetShape(rc.lanes.shape());
  for (const auto& [distance, h] : by_distance) {
    if (alive.empty()) break;
    if (sub.size() != alive.size()) {
      sub.Clear();
      for (size_t i : alive) sub.AddLaneOf(rc.lanes.view(), i);
    }
    OpContext ctx = rc.ctx;
    ctx.hyp = all[h];
    std::vector<uint32_t> out(OutputWords(rc.ctx.instr, alive.size()));
    LANEDIFF_RETURN_IF_ERROR(Evaluate(ctx, sub.view(), absl::MakeSpan(out)));
    std::vector<size_t> still;
    for (size_t j = 0; j < alive.size(); ++j) {
      if (std::equal(out.begin() + j * w, out.begin() + (j + 1) * w, first.begin() + alive[j] * w)) {
        still.push_back(alive[j]);
      }
    }
    alive = std::move(still);
  }
  std::vector<size_t> nans, specials, others;
  for (size_t i : alive) {
    switch (KindOf(rc.ctx, rc.lanes.view().first(0, i), rc.lanes.view().first(1, i))) {  // the words read: literal, SGPR
      case LaneKind::nan: nans.push_back(i); break;
      case LaneKind::special: specials.push_back(i); break;
      case LaneKind::normal: others.push_back(i); break;
    }
  }
  std::vector<size_t> order = nans;
  order.insert(order.end(), specials.begin(), specials.end());
  const size_t step = std::max<size_t>(1, (others.size() + kMaxKnownLanes - 1) / kMaxKnownLanes);
  for (size_t k = 0; k < others.size(); k += step) order.push_back(others[k]);
  *nan_lanes = 0;
  *special_lanes = 0;
  expected->clear();
  proto::TestCase kept = *tc;
  kept.clear_lanes();
  if (order.empty()) {
    *tc = std::move(kept);
    return absl::OkStatus();
  }
  std::vector<size_t> layout(kSelfTestLanes);
  for (size_t i = 0; i < kSelfTestLanes; ++i) layout[i] = order[(i % kWorkgroupLanes) % order.size()];
  if (!nans.empty() || !specials.empty()) layout.back() = nans.empty() ? specials[0] : nans[0];
  for (size_t i : layout) {
    *kept.add_lanes() = tc->lanes(static_cast<int>(i));
    for (size_t j = 0; j < w; ++j) expected->push_back(first[i * w + j]);
    const LaneKind kind = KindOf(rc.ctx, rc.lanes.view().first(0, i), rc.lanes.view().first(1, i));
    *nan_lanes += kind == LaneKind::nan;
    *special_lanes += kind == LaneKind::special;
  }
  *tc = std::move(kept);
  return absl::OkStatus();
}

std::string LaneText(const proto::Lane& l) {
  return absl::StrFormat("src0 0x%08x src1 0x%08x src2 0x%08x vdst_old 0x%08x", l.src0(), l.src1(),
                         l.src2(), l.vdst_old());
}

void Record(const proto::TestCase& tc, const absl::StatusOr<DeviceResult>& r, proto::Recording* rec) {
  if (!r.ok() && !IsDeviceFault(r.status())) return;  // refusals and harness faults do not replay
  proto::Recording::Entry* e = rec->add_entries();
  *e->mutable_testcase() = tc;
  if (r.ok()) {
    for (uint32_t v : r->vdst) e->mutable_observation()->add_vdst(v);
    *e->mutable_observation()->mutable_provenance() = r->provenance;
  } else {
    e->mutable_observation()->set_fault(std::string(r.status().message()));
  }
}

}  // namespace

bool SelfTest::ok() const {
  size_t checked = 0;
  for (const KnownAnswer& k : known) {
    if (k.unsupported()) continue;  // not run: shown as SKIP, not a harness fault
    if (!k.ok()) return false;
    ++checked;
  }
  return discriminate_errors.empty() && checked > 0;
}

absl::StatusOr<SelfTest> RunSelfTest(Runner& runner, const TargetTraits& target, SelfTestOptions options) {
  SelfTest st;
  st.device = runner.Describe();
  st.target = std::string(target.name);
  st.isa = absl::StrCat("amdgcn-amd-amdhsa--", target.name);
  for (Instr instr : kAllInstrs) {
    if (!target.Has(instr)) continue;
    if (!options.instrs.empty() &&
        std::find(options.instrs.begin(), options.instrs.end(), instr) == options.instrs.end()) {
      continue;
    }
    const size_t words = static_cast<size_t>(DstWords(instr));  // per lane (a VGPR pair: 2)
    // The known answers need the relevant rules only (AllCombinations); the questions and spec
    // checks are built when the discriminate pass asks them.
    LANEDIFF_ASSIGN_OR_RETURN(Discrimination d, options.discriminate ? Discriminate(target, instr)
                                                                     : RelevantReadings(target, instr));
    for (const Variant& v : Variants(target, instr)) {
      for (uint32_t mode : {kDefaultMode, kOtherMode}) {
        KnownAnswer k;
        k.name = absl::StrFormat("%s %s, MODE 0x%08x", InstrName(instr), v.name, mode);
        k.testcase.set_target(std::string(target.name));
        k.testcase.set_instr(InstrToProto(instr));
        *k.testcase.mutable_encoding() = v.encoding;
        k.testcase.set_mode(mode);
        k.testcase.set_note(absl::StrCat("self-test known answer: ", k.name));
        for (const proto::Lane& l : Candidates(instr)) *k.testcase.add_lanes() = l;
        CompleteTupleLanes(&k.testcase);  // a tuple source: every dword a copy of the candidate
        absl::Status agreed = KeepAgreedLanes(AllCombinations(d), &k.testcase, &k.expected,
                                              &k.nan_lanes, &k.special_lanes);
        if (!agreed.ok()) {
          return absl::InternalError(absl::StrCat("self-test case ", k.name, ": ", agreed.message()));
        }
        if (k.expected.empty()) continue;  // no lane every reading agrees on
        absl::StatusOr<DeviceBatch> batch = BuildDeviceBatch(k.testcase);
        if (!batch.ok()) {
          return absl::InternalError(absl::StrCat("self-test case ", k.name, ": ", batch.status().message()));
        }
        absl::StatusOr<DeviceResult> r = runner.Run(*batch);
        Record(k.testcase, r, &st.recording);
        if (!r.ok()) {
          k.status = r.status();
        } else {
          if (!st.provenance.has_value()) st.provenance = r->provenance;
          k.observed = r->vdst;
          k.mode_readback = r->mode_readback;
          // Lane by lane, every destination word (a VGPR pair: VDST, VDST+1).
          for (size_t i = 0; i * words < k.expected.size(); ++i) {
            for (size_t j = 0; j < words; ++j) {
              const size_t at = i * words + j;
              const uint32_t got = at < k.observed.size() ? k.observed[at] : 0;
              if (at < k.observed.size() && got == k.expected[at]) continue;
              if (k.wrong_lanes++ == 0) {
                const std::string word = words == 1 ? "" : j == 0 ? " VDST" : absl::StrCat(" VDST+", j);
                k.first_wrong = absl::StrFormat("lane %d%s: %s: expected 0x%08x, got 0x%08x", i, word,
                                                LaneText(k.testcase.lanes(static_cast<int>(i))),
                                                k.expected[at], got);
              }
              break;  // a lane counts once
            }
          }
        }
        st.known.push_back(std::move(k));
      }
    }
    if (!options.discriminate) continue;
    absl::StatusOr<DeviceVerdict> verdict = AskDevice(d, runner);
    if (IsUnsupported(verdict.status())) {  // the device cannot run the instruction: said, not failed
      st.discriminate.push_back(
          absl::StrCat(InstrName(instr), ": not asked (", verdict.status().message(), ")"));
      continue;
    }
    if (!verdict.ok()) {
      st.discriminate_errors.push_back(absl::StrCat(InstrName(instr), ": ", verdict.status().message()));
      continue;
    }
    st.discriminate.push_back(absl::StrCat(InstrName(instr), ": ", verdict->summary));
    // Every lane of every question and spec check, so that a recording answers discriminate.
    auto record = [&](const proto::TestCase& tc, const std::vector<LaneAnswer>& lanes) {
      DeviceResult r;
      for (const LaneAnswer& a : lanes) r.vdst.insert(r.vdst.end(), a.word.begin(), a.word.begin() + a.words);
      r.provenance = st.provenance.value_or(proto::Provenance());
      Record(tc, r, &st.recording);
    };
    for (size_t q = 0; q < d.questions.size() && q < verdict->device_lanes.size(); ++q) {
      record(d.questions[q].testcase, verdict->device_lanes[q]);
    }
    for (size_t c = 0; c < d.checks.size() && c < verdict->check_lanes.size(); ++c) {
      if (!verdict->check_lanes[c].empty()) record(d.checks[c].testcase, verdict->check_lanes[c]);
    }
  }
  if (st.known.empty()) return absl::InternalError(absl::StrCat("no known-answer case for ", target.name));
  return st;
}

std::vector<std::string> SelfTestDeviceSpecs(absl::string_view spec, const TargetTraits& target) {
  const bool hip = spec == "hip" || (absl::StartsWith(spec, "hip:") && spec.find(':', 4) == absl::string_view::npos);
  if (!hip || !target.wave32 || !target.wave64) return {std::string(spec)};
  // The spec as given opens the default (wave32) code object (open_runner.h).
  return {std::string(spec), absl::StrCat(spec == "hip" ? "hip:0" : spec, ":wave64")};
}

std::string FormatSelfTest(const SelfTest& st) {
  std::string out = absl::StrCat("self-test of ", st.device, " as ", st.target, " (", st.isa, ")\n");
  if (st.provenance.has_value()) {
    absl::StrAppend(&out, "  device: ", st.provenance->device(), "; target: ", st.provenance->target(),
                    "; driver: ", st.provenance->driver(), "; stepping: ", st.provenance->stepping(), "\n");
  }
  int wrong = 0, skipped = 0;
  for (const KnownAnswer& k : st.known) {
    const std::string readback =
        k.mode_readback.has_value() ? absl::StrFormat("MODE read back 0x%08x", *k.mode_readback) : "no MODE readback";
    if (k.unsupported()) {
      absl::StrAppend(&out, "  SKIP  ", k.name, ": ", k.status.message(), "\n");
      ++skipped;
      continue;
    }
    if (!k.status.ok()) {
      absl::StrAppend(&out, "  ERROR ", k.name, ": ", k.status.message(), "\n");
    } else if (k.wrong_lanes > 0) {
      absl::StrAppend(&out, "  WRONG ", k.name, ": ", k.wrong_lanes, " of ", k.testcase.lanes_size(), " lanes; ",
                      k.first_wrong, " (", readback, ")\n");
    } else {
      absl::StrAppend(&out, "  ok    ", k.name, ": ", k.testcase.lanes_size(), " lanes (", readback, ")\n");
    }
    wrong += !k.ok();
  }
  for (const std::string& d : st.discriminate) absl::StrAppend(&out, "  discriminate ", d, "\n");
  for (const std::string& d : st.discriminate_errors) absl::StrAppend(&out, "  discriminate ERROR ", d, "\n");
  if (st.ok()) {
    absl::StrAppend(&out, "self-test passed: all ", st.known.size() - skipped,
                    " known-answer batches right on this device",
                    skipped == 0 ? ""
                                 : absl::StrCat("; ", skipped, " not run: the device cannot run "
                                                "them (SKIP above), so they are not checked"),
                    "\n");
  } else {
    absl::StrAppend(&out, "self-test FAILED: the harness is wrong on this GPU: ", wrong, " of ", st.known.size(),
                    " known-answer batches wrong or refused (every reading of every rule agrees on their "
                    "lanes)", st.discriminate_errors.empty() ? "" : "; discriminate errors", "\n");
  }
  return out;
}

std::string SelfTestBundle(const SelfTest& st) {
  std::string out = "# lanediff self-test bundle (lanediff devices --selftest --out FILE).\n"
                    "# The '#' lines are the report; the rest is a lanediff.proto.Recording of every batch\n"
                    "# run, so this file replays: lanediff fuzz --device=replay:FILE ...\n";
  absl::StrAppend(&out, "# lanediff version: ", LANEDIFF_VERSION, "\n");
  for (absl::string_view line : absl::StrSplit(FormatSelfTest(st), '\n')) {
    if (!line.empty()) absl::StrAppend(&out, "# ", line, "\n");
  }
  absl::StrAppend(&out, ToText(st.recording));
  return out;
}

}  // namespace lanediff
