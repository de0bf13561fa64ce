#include "fuzz/triage/render.h"

#include <bit>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/triage/classify.h"
#include "fuzz/cli/json_line.h"
#include "fuzz/triage/attribution.h"
#include "model/fp/mx.h"
#include "model/fp/mx_format.h"
#include "model/isa/testcase.h"
#include "model/ops/ops.h"

namespace lanediff {

std::string Thousands(uint64_t n) {
  std::string d = absl::StrCat(n), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i > 0 && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

std::string DescribeMode(uint32_t mode) {
  static const char* kRound[] = {"nearest_even", "plus_inf", "minus_inf", "toward_zero"};
  const uint32_t denorm = (mode >> 4) & 3;
  return absl::StrFormat("MODE 0x%08x: f32 round %s, f32 denormals 0b%d%d (%s), FP16_OVFL %s",
                         mode, kRound[mode & kModeRoundF32Mask], (denorm >> 1) & 1, denorm & 1,
                         denorm == 3 ? "in+out kept" : denorm == 0 ? "flushed" : "partly flushed",
                         (mode & kModeFp16OvflBit) ? "on" : "off");
}

namespace {

struct Decoded {
  std::string target, assembly, modifiers, mode, repro, path;
  size_t lane = 0;
  uint32_t src0 = 0, src1 = 0, src2 = 0, kept = 0, expected = 0, observed = 0;
  bool src2_scale = false;  // S2 is the block scale (the 3-source scaled encoders)
  int written_byte = 0;  // the written byte shown (a half writer's: the first that differs)
  std::string src0_fields;  // gfx1250's 16 FP6/BF6 codes (SrcRole::fp6_x16), field 0 first
  SrcRole src0_role = SrcRole::unused, src1_role = SrcRole::unused;
  OutputKind output = OutputKind::u8_int;  // what the destination's written bits hold
  std::string expected_byte, observed_byte;
  bool has_lane = false;
  int words = 1;  // destination words per lane (a VGPR pair: 2)
  size_t word = 0;  // the shown word's index in its lane (0: VDST, 1: VDST+1)
};

// gfx1250's 16 FP6/BF6 codes of a 3-dword tuple source (SrcRole::fp6_x16), field k at bits
// 6k+5:6k of lane `lane`'s 96 bits (a one-dword view: dword 0 three times).
std::string Fp6FieldsText(const InstrInfo& info, const LaneView& v, size_t lane) {
  const int n = v.shape.src_dwords[0];
  const uint32_t* t = v.src0 + lane * static_cast<size_t>(n);
  const auto dword = [&](int k) { return uint64_t{t[n == 3 ? k : 0]}; };
  std::vector<std::string> codes;
  for (int bit = 0; bit < 96; bit += 6) {
    const uint64_t pair = dword(bit / 32) | (bit / 32 < 2 ? dword(bit / 32 + 1) << 32 : 0);
    codes.push_back(absl::StrFormat("%02x", (pair >> (bit % 32)) & 0x3fu));
  }
  return absl::StrFormat("(%s codes of the 3-dword tuple, field 0 first: %s)",
                         info.fp8_slot == Fp8Slot::bf6 ? "BF6" : "FP6", absl::StrJoin(codes, " "));
}

// A six-bit FP6/BF6 code and its value (OCP MX: no Inf or NaN code; exponent field 0 a
// subnormal, m * 2^(1 - bias - M)).
std::string Fp6CodeText(const MxElemFormat& mf, uint32_t code) {
  const uint32_t e = (code & 0x1fu) >> mf.man_bits, m = code & ((1u << mf.man_bits) - 1u);
  const int exp = static_cast<int>(e) - mf.bias;
  const double mag = e == 0 ? std::ldexp(m, 1 - mf.bias - mf.man_bits)
                            : std::ldexp(1.0 + std::ldexp(m, -mf.man_bits), exp);
  return absl::StrFormat("0x%02x = %s%g", code, (code & 0x20u) != 0 ? "-" : "", mag);
}

// A tuple of six-bit codes (OutputKind::fp6: field k at bits 6k+5:6k of the lane's words, 96 or
// 192 bits): the first field whose expected and observed codes differ, read across the two
// words it straddles; its index goes in written_byte.
void DecodeFp6Field(const proto::Finding& f, const InstrInfo& info, Decoded& d) {
  const MxElemFormat& mf = GetMxElemFormat(info.fp8_slot == Fp8Slot::bf6 ? MxElemId::bf6_e3m2
                                                                         : MxElemId::fp6_e2m3);
  const auto word = [&](bool observed, int k) -> uint64_t {
    const int i = static_cast<int>(d.lane) * d.words + k;
    if (k >= d.words) return 0;
    if (observed) return i < f.observed_size() ? f.observed(i) : 0;
    return i < f.expected_size() ? f.expected(i) : 0;
  };
  const auto field = [&](bool observed, int k) {
    const int bit = 6 * k, w = bit / 32;
    const uint64_t pair = word(observed, w) | word(observed, w + 1) << 32;
    return static_cast<uint32_t>(pair >> (bit % 32)) & 0x3fu;
  };
  int k = 0;
  while (k + 1 < 32 * d.words / 6 && field(false, k) == field(true, k)) ++k;
  d.written_byte = k;
  d.expected_byte = Fp6CodeText(mf, field(false, k));
  d.observed_byte = Fp6CodeText(mf, field(true, k));
}

Decoded Decode(const proto::Finding& f, const std::string& path) {
  Decoded d;
  d.target = f.testcase().target();
  d.assembly = f.assembly();
  d.repro = f.repro();
  d.path = path;
  absl::StatusOr<ResolvedCase> rc = ResolveTestCase(f.testcase());
  if (!rc.ok()) return d;
  d.modifiers = ModifierSet(f.testcase(), rc->ctx.mods);
  d.mode = DescribeMode(rc->ctx.mode);
  const LaneView v = rc->lanes.view();
  if (v.size == 0) return d;
  // expected/observed hold DstWords words per lane: the first differing word, and its lane.
  d.words = ValidateContext(rc->ctx).ok() ? DstWords(rc->ctx.instr) : 1;
  size_t first_word = 0;
  for (size_t i = 0; i < v.size * d.words && i < static_cast<size_t>(f.observed_size()) &&
                     i < static_cast<size_t>(f.expected_size());
       ++i) {
    if (f.expected(static_cast<int>(i)) != f.observed(static_cast<int>(i))) {
      first_word = i;
      break;
    }
  }
  d.lane = first_word / d.words;
  d.word = first_word % d.words;
  d.has_lane = true;
  d.src0 = v.first(0, d.lane);
  d.src1 = v.src1[d.lane];
  const InstrInfo& info = GetInstrInfo(rc->ctx.instr);
  if (info.src[0] == SrcRole::fp6_x16) d.src0_fields = Fp6FieldsText(info, v, d.lane);
  d.kept = KeptWord(info, v.src2[d.lane], v.vdst_old[d.lane]);
  d.src0_role = info.src[0];
  d.src1_role = info.src[1];
  d.output = info.output;
  d.src2 = v.src2[d.lane];
  d.src2_scale = info.src[2] == SrcRole::scale_f32;
  d.written_byte = WrittenByte(rc->ctx.instr, rc->ctx.mods.opsel, d.src1);
  const std::optional<Fp8Shape> shape =
      ValidateContext(rc->ctx).ok() ? Fp8OutputShape(rc->ctx) : std::nullopt;
  const Fp8Format* format = shape ? shape->format : nullptr;
  if (first_word < static_cast<size_t>(f.expected_size())) d.expected = f.expected(static_cast<int>(first_word));
  if (first_word < static_cast<size_t>(f.observed_size())) d.observed = f.observed(static_cast<int>(first_word));
  // An instruction writing a 16-bit half writes two elements: show the first that differs.
  const uint32_t mask = WrittenMask(rc->ctx.instr, rc->ctx.mods.opsel, d.src1);
  for (int p = 0; p < 4; ++p) {
    const uint32_t m = 0xffu << (8 * p);
    if ((mask & m) != 0 && (d.expected & m) != (d.observed & m)) {
      d.written_byte = p;
      break;
    }
  }
  if (info.output == OutputKind::fp6 && d.words > 1) {
    DecodeFp6Field(f, info, d);
    return d;
  }
  const int sh = 8 * d.written_byte;
  if (info.output == OutputKind::fp4) {  // two FP4 codes, not an 8-bit float
    d.expected_byte = Fp4ByteText(static_cast<uint8_t>(d.expected >> sh));
    d.observed_byte = Fp4ByteText(static_cast<uint8_t>(d.observed >> sh));
    return d;
  }
  d.expected_byte = DecodeByte(format, static_cast<uint8_t>(d.expected >> sh));
  d.observed_byte = DecodeByte(format, static_cast<uint8_t>(d.observed >> sh));
  return d;
}

// An f32 word's value; a NaN with its sign, kind and fraction (NaN words differ by those alone).
std::string F32(uint32_t w) {
  if ((w & 0x7f800000u) == 0x7f800000u && (w & 0x007fffffu) != 0) {
    return absl::StrFormat("%sNaN (%s, fraction 0x%06x)", (w >> 31) != 0 ? "-" : "",
                           (w & 0x00400000u) != 0 ? "quiet" : "signalling", w & 0x007fffffu);
  }
  return absl::StrFormat("%.9g", std::bit_cast<float>(w));
}

// A block scale operand: its exponent field (what the default reading reads) and its f32 value.
std::string ScaleText(uint32_t w) {
  return absl::StrFormat("(scale: exponent field %d = 2^%d; f32 %s)", (w >> 23) & 0xff,
                         static_cast<int>((w >> 23) & 0xff) - 127, F32(w));
}

// What src0 is to this instruction: an f32, a 32-bit integer, two packed 16-bit floats, or 8-bit float codes (the bytes, low first; the
// instruction's selects pick among them).
std::string Src0Text(const Decoded& d) {
  if (d.src0_role == SrcRole::data_b32) return absl::StrFormat("(a 32-bit integer %u)", d.src0);
  if (!d.src0_fields.empty()) return d.src0_fields;
  if (IsPacked16(d.src0_role)) {
    const bool f16 = IsPackedF16(d.src0_role);
    const auto widen = [f16](uint32_t h) { return F32(f16 ? F16ToF32(h) : Bf16ToF32(h)); };
    return absl::StrFormat("(%s halves, low first: %s, %s)", f16 ? "f16" : "bf16",
                           widen(d.src0 & 0xffffu), widen(d.src0 >> 16));
  }
  if (d.src0_role == SrcRole::fp4_x8) {  // gfx1250's eight FP4 codes
    return absl::StrFormat("(FP4 codes, element 0 first: %x %x %x %x %x %x %x %x)", d.src0 & 0xfu,
                           (d.src0 >> 4) & 0xfu, (d.src0 >> 8) & 0xfu, (d.src0 >> 12) & 0xfu,
                           (d.src0 >> 16) & 0xfu, (d.src0 >> 20) & 0xfu, (d.src0 >> 24) & 0xfu,
                           d.src0 >> 28);
  }
  if (d.src0_role != SrcRole::fp8_bytes && d.src0_role != SrcRole::fp8_x8) {
    return absl::StrCat("= ", F32(d.src0));
  }
  return absl::StrFormat("(8-bit float codes, bytes low first: %02x %02x %02x %02x)",
                         d.src0 & 0xffu, (d.src0 >> 8) & 0xffu, (d.src0 >> 16) & 0xffu,
                         d.src0 >> 24);
}

// A result word as its elements: an f32, or two 16-bit floats (low half first).
std::string ResultText(uint32_t w, OutputKind output) {
  if (output == OutputKind::f32) return absl::StrCat("= ", F32(w));
  const auto widen = [output](uint32_t h) {
    return F32(output == OutputKind::f16 ? F16ToF32(h) : Bf16ToF32(h));
  };
  return absl::StrFormat("(%s halves, low first: %s, %s)", output == OutputKind::f16 ? "f16" : "bf16",
                         widen(w & 0xffffu), widen(w >> 16));
}

// What src1 is to this instruction (model/instrs.def's role), decoded.
std::string Src1Role(const Decoded& d) {
  switch (d.src1_role) {
    case SrcRole::sr_seed: return "(SR seed)";
    case SrcRole::byte_select: return absl::StrFormat("(byte select %d)", d.src1 & 3);
    case SrcRole::data_f32: return absl::StrCat("= ", F32(d.src1));
    case SrcRole::scale_f32: return ScaleText(d.src1);
    case SrcRole::scale_e8m0_x4:  // gfx1250: scale_sel picks one (mx_scale_sel)
      return absl::StrFormat("(E8M0 scale bytes, low first: %02x %02x %02x %02x)", d.src1 & 0xffu,
                             (d.src1 >> 8) & 0xffu, (d.src1 >> 16) & 0xffu, d.src1 >> 24);
    default: return "(unused)";
  }
}

}  // namespace

std::string DecodeExample(const proto::Finding& f, const std::string& path) {
  const Decoded d = Decode(f, path);
  std::string out = absl::StrFormat("    example  %s: %s\n", d.target, d.assembly);
  absl::StrAppendFormat(&out, "    modifiers %s; %s\n", d.modifiers, d.mode);
  if (!f.undefined_by_spec().empty()) {
    absl::StrAppendFormat(&out, "    undefined-by-spec: %s (run with --allow-undefined; the "
                          "hardware's result is not defined by the ISA)\n",
                          absl::StrJoin(f.undefined_by_spec(), "; "));
  }
  if (f.kind() == proto::Finding::DEVICE_FAULT) {
    absl::StrAppendFormat(&out, "    device fault: %s\n", f.fault());
  } else if (d.has_lane) {
    absl::StrAppendFormat(&out, "    lane %d: src0 0x%08x %s, src1 0x%08x %s, kept word 0x%08x\n",
                          d.lane, d.src0, Src0Text(d), d.src1, Src1Role(d), d.kept);
    if (d.src2_scale) absl::StrAppendFormat(&out, "    src2 0x%08x %s\n", d.src2, ScaleText(d.src2));
    if (d.words > 1 && (d.output == OutputKind::fp8 || d.output == OutputKind::bf8)) {
      // A VGPR pair of eight 8-bit floats (gfx1250's 8-wide encoders): the first differing word
      // and its first differing byte.
      absl::StrAppendFormat(&out,
                            "    VDST+%d expected 0x%08x (byte %d: %s)  observed 0x%08x (byte %d: "
                            "%s)\n",
                            d.word, d.expected, d.written_byte, d.expected_byte, d.observed,
                            d.written_byte, d.observed_byte);
    } else if (d.words > 1 && d.output == OutputKind::fp6) {
      // A tuple of FP6/BF6 codes: the first differing word and the first differing field.
      absl::StrAppendFormat(&out,
                            "    VDST+%d expected 0x%08x (field %d: %s)  observed 0x%08x (field "
                            "%d: %s)\n",
                            d.word, d.expected, d.written_byte, d.expected_byte, d.observed,
                            d.written_byte, d.observed_byte);
    } else if (d.words > 1) {  // a VGPR tuple: whole words, the first that differs
      const bool halves = d.output == OutputKind::f16 || d.output == OutputKind::bf16;
      const auto text = [&](uint32_t w) {
        return halves ? ResultText(w, d.output) : absl::StrCat("= ", F32(w));
      };
      absl::StrAppendFormat(&out, "    VDST+%d expected 0x%08x %s  observed 0x%08x %s\n", d.word,
                            d.expected, text(d.expected), d.observed, text(d.observed));
    } else if (d.output == OutputKind::f32 || d.output == OutputKind::f16 ||
               d.output == OutputKind::bf16) {  // whole words of floats, not bytes
      absl::StrAppendFormat(&out, "    expected 0x%08x %s  observed 0x%08x %s\n", d.expected,
                            ResultText(d.expected, d.output), d.observed,
                            ResultText(d.observed, d.output));
    } else if (d.output == OutputKind::b32_int) {  // a whole integer word
      absl::StrAppendFormat(&out, "    expected 0x%08x  observed 0x%08x (bits differing 0x%08x)\n",
                            d.expected, d.observed, d.expected ^ d.observed);
    } else {
      absl::StrAppendFormat(&out, "    expected 0x%08x (byte %d: %s)  observed 0x%08x (byte %d: %s)\n",
                            d.expected, d.written_byte, d.expected_byte, d.observed,
                            d.written_byte, d.observed_byte);
    }
  }
  if (!d.repro.empty()) absl::StrAppendFormat(&out, "    repro    %s\n", d.repro);
  absl::StrAppendFormat(&out, "    file     %s\n", path);
  return out;
}

std::string CauseTitle(const std::string& cause) {
  if (absl::StartsWith(cause, "undefined_by_spec.")) {
    return absl::StrCat("undefined by spec: ", CauseTitle(cause.substr(18)));
  }
  if (absl::StartsWith(cause, "device_fault.")) return absl::StrCat("device fault: ", cause.substr(13));
  const size_t eq = cause.find('=');
  if (eq == std::string::npos) return absl::StrCat("none of the known readings: ", cause);
  if (absl::StartsWith(cause, "acts_as_if.")) return absl::StrCat("acts as if ", cause.substr(11));
  const std::string values = cause.substr(eq + 1);
  if (values.find('+') == std::string::npos) return absl::StrCat("reading ", cause);
  return absl::StrCat("equivalent readings ", cause.substr(0, eq), " in {",
                      absl::StrJoin(absl::StrSplit(values, '+'), ", "), "}");
}

std::string TriageText(const TriageRow& r) {
  std::string out = absl::StrFormat("%-9s %s", BucketStatusName(r.status), r.signature);
  if (r.bucket != nullptr) {
    const Bucket& b = *r.bucket;
    absl::StrAppendFormat(&out, "  cause %s  targets %s  count %s  seen %s .. %s\n", b.cause,
                          absl::StrJoin(b.targets, ","), Thousands(b.count), b.first_seen,
                          b.last_seen);
    absl::StrAppendFormat(&out, "    %s\n", CauseTitle(b.cause));
    if (!r.separated_by.empty()) absl::StrAppendFormat(&out, "    separated by: %s\n", r.separated_by);
  } else {
    out += "\n";
  }
  if (r.known != nullptr) {
    absl::StrAppendFormat(&out, "    known: %s%s%s\n", r.known->reason(),
                          r.known->link().empty() ? "" : "  ", r.known->link());
  }
  if (r.bucket != nullptr && r.status != BucketStatus::kFixed && !r.bucket->examples.empty()) {
    out += DecodeExample(r.bucket->examples[0].finding, r.bucket->examples[0].path);
  }
  return out;
}

std::string TriageJson(const TriageRow& r) {
  std::vector<std::string> fields;
  auto add = [&](const std::string& k, const std::string& v) {
    fields.push_back(absl::StrCat(JsonString(k), ":", v));
  };
  add("status", JsonString(BucketStatusName(r.status)));
  add("signature", JsonString(r.signature));
  if (r.known != nullptr) {
    add("known", absl::StrCat("{\"reason\":", JsonString(r.known->reason()),
                              ",\"link\":", JsonString(r.known->link()),
                              ",\"fixed\":", JsonString(r.known->fixed()), "}"));
  }
  if (r.bucket != nullptr) {
    const Bucket& b = *r.bucket;
    add("cause", JsonString(b.cause));
    add("title", JsonString(CauseTitle(b.cause)));
    if (!r.separated_by.empty()) add("separated_by", JsonString(r.separated_by));
    add("instruction", JsonString(b.instr));
    std::vector<std::string> t;
    for (const std::string& x : b.targets) t.push_back(JsonString(x));
    add("targets", absl::StrCat("[", absl::StrJoin(t, ","), "]"));
    add("count", absl::StrCat(b.count));
    add("findings", absl::StrCat(b.findings));
    add("first_seen", JsonString(b.first_seen));
    add("last_seen", JsonString(b.last_seen));
    std::vector<std::string> a;
    for (const auto& [k, n] : b.attributes) a.push_back(absl::StrCat(JsonString(k), ":", n));
    add("attributes", absl::StrCat("{", absl::StrJoin(a, ","), "}"));
    if (!b.examples.empty()) {
      const proto::Finding& f = b.examples[0].finding;
      const Decoded d = Decode(f, b.examples[0].path);
      std::vector<std::string> e;
      auto ea = [&](const std::string& k, const std::string& v) {
        e.push_back(absl::StrCat(JsonString(k), ":", v));
      };
      ea("target", JsonString(d.target));
      ea("path", JsonString(d.path));
      ea("assembly", JsonString(d.assembly));
      ea("modifiers", JsonString(d.modifiers));
      ea("mode", JsonString(d.mode));
      if (f.kind() == proto::Finding::DEVICE_FAULT) ea("fault", JsonString(f.fault()));
      if (d.has_lane && f.kind() == proto::Finding::DISAGREEMENT) {
        ea("lane", absl::StrCat(d.lane));
        ea("src0", JsonString(absl::StrFormat("0x%08x", d.src0)));
        ea("src0_value", JsonString(F32(d.src0)));
        ea("src1", JsonString(absl::StrFormat("0x%08x", d.src1)));
        if (d.src1_role == SrcRole::data_f32) ea("src1_value", JsonString(F32(d.src1)));
        ea("kept", JsonString(absl::StrFormat("0x%08x", d.kept)));
        ea("written_byte", absl::StrCat(d.written_byte));
        ea("expected", JsonString(absl::StrFormat("0x%08x", d.expected)));
        ea("observed", JsonString(absl::StrFormat("0x%08x", d.observed)));
        ea("expected_byte", JsonString(d.expected_byte));
        ea("observed_byte", JsonString(d.observed_byte));
      }
      ea("repro", JsonString(d.repro));
      add("example", absl::StrCat("{", absl::StrJoin(e, ","), "}"));
    }
  }
  return absl::StrCat("{", absl::StrJoin(fields, ","), "}");
}

}  // namespace lanediff
