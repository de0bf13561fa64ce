// The per-lane difference classes of fuzz/triage/attribution.h: DifferenceClass,
// DifferenceClassF32, DifferenceClassMask, WritesF32Word, DecodeByte.
#include "fuzz/triage/attribution.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/ops/ops.h"

namespace lanediff {
namespace {

uint32_t Byte(uint32_t w, int b) { return (w >> (8 * b)) & 0xffu; }

// One 8-bit float code, taken apart by the format's table row.
struct Code {
  bool nan = false, inf = false, negative = false;
  uint32_t magnitude = 0;  // code without the sign bit (all 8 bits for unsigned formats)
  bool zero = false, subnormal = false;
};

Code Take(const Fp8Format& f, uint32_t code) {
  Code c;
  c.magnitude = f.is_signed ? code & 0x7fu : code;
  c.negative = f.is_signed && (code & 0x80u) != 0;
  const uint32_t special = f.is_signed ? 0x7fu : 0xffu;  // all exponent and mantissa bits set
  if (f.fnuz) {
    c.nan = code == 0x80u;
  } else if (f.has_inf) {  // OCP E5M2: exponent all ones; mantissa 0 = Inf, else NaN
    const uint32_t inf = f.inf_out & 0x7fu;
    c.inf = c.magnitude == inf;
    c.nan = c.magnitude > inf;
  } else {
    c.nan = c.magnitude == special;
  }
  c.zero = !c.nan && c.magnitude == 0;
  c.subnormal = !c.nan && !c.inf && c.magnitude != 0 && (c.magnitude >> f.man_bits) == 0;
  return c;
}

}  // namespace

std::string DifferenceClass(const Fp8Format* format, int written_byte, uint32_t kept,
                            uint32_t expected, uint32_t observed, const RoundingPair* pair) {
  const int w = written_byte & 3;
  const uint32_t ew = Byte(expected, w), ow = Byte(observed, w);
  const uint32_t mask = 0xffu << (8 * w);
  // Moved: byte w was left as kept, and exactly one other byte p changed (its value may
  // differ from the expected one when a second deviation changed it too).
  if (Byte(observed, w) == Byte(kept, w) && (expected & ~mask) == (kept & ~mask)) {
    int changed = 0, at = -1;
    for (int p = 0; p < 4; ++p) {
      if (Byte(observed, p) != Byte(kept, p)) ++changed, at = p;
    }
    if (changed == 1 && at != w) return "byte_moved";
  }
  if ((expected & ~mask) != (observed & ~mask)) {
    return ew == ow ? "unwritten_bytes_changed" : "written_and_unwritten_bytes_changed";
  }
  // The model's other rounding candidate of the same input (the one beyond the largest finite
  // included, as the instruction's overflow rules give it).
  if (pair != nullptr && Byte(pair->down, w) != Byte(pair->up, w) &&
      (ow == Byte(pair->down, w) || ow == Byte(pair->up, w))) {
    return "rounded_other_way";
  }
  if (format == nullptr) {  // unsigned 8-bit integer
    const uint32_t d = ew > ow ? ew - ow : ow - ew;
    if (d == 1) return "one_code_apart";
    if (ew == 0 || ow == 0 || ew == 255 || ow == 255) return "saturated_vs_not";
    return "value_differs";
  }
  const Fp8Format& f = *format;
  const Code e = Take(f, ew), o = Take(f, ow);
  if (e.nan && o.nan) return "nan_encoding";
  if ((e.nan && o.inf) || (e.inf && o.nan)) return "nan_vs_inf";
  // FNUZ: 0x80 is NaN, so zero vs 0x80 is not a sign.
  if (f.is_signed && (ew ^ ow) == 0x80u && !(f.fnuz && (e.zero || o.zero))) return "sign_only";
  const bool e_special = e.nan || e.inf, o_special = o.nan || o.inf;
  if (e_special != o_special) {
    const Code& finite = e_special ? o : e;
    return finite.magnitude == f.max_finite ? "saturated_vs_not" : "special_vs_finite";
  }
  if (e.negative == o.negative || e.zero || o.zero) {  // FNUZ: -tiny rounds to +0 (0x00)
    const uint32_t d = e.magnitude > o.magnitude ? e.magnitude - o.magnitude
                                                 : o.magnitude - e.magnitude;
    if (d == 1) return "one_code_apart";  // zero vs the smallest subnormal included
    if ((e.zero && o.subnormal) || (e.subnormal && o.zero)) return "zero_vs_subnormal";
  }
  return "value_differs";
}

std::string DifferenceClassF32(uint32_t expected, uint32_t observed) {
  struct F32 {
    bool nan, inf, negative, zero, denormal;
  };
  auto take = [](uint32_t w) {
    const uint32_t exp = (w >> 23) & 0xffu, man = w & 0x7fffffu;
    return F32{exp == 0xffu && man != 0, exp == 0xffu && man == 0, (w >> 31) != 0,
               exp == 0 && man == 0, exp == 0 && man != 0};
  };
  // Every value an 8-bit float decodes to (OMOD scaling included) and the canonical NaN has
  // at most the widest 8-bit mantissa in its f32 fraction; a word with fraction bits below
  // that is no byte's decode (a garbage word): the finer classes describe two decoded
  // values, so it is value_differs.
  int widest = 0;
  for (const Fp8Format& f : kFp8Formats) widest = std::max(widest, f.man_bits);
  const uint32_t below = (1u << (23 - widest)) - 1u;
  if ((observed & below) != 0 && ((observed >> 23) & 0xffu) != 0) return "value_differs";
  const F32 e = take(expected), o = take(observed);
  if (e.nan && o.nan) return "nan_encoding";
  if ((e.nan && o.inf) || (e.inf && o.nan)) return "nan_vs_inf";
  if (((expected ^ observed) == 0x80000000u)) return "sign_only";
  if (e.nan || e.inf || o.nan || o.inf) return "special_vs_finite";
  if (e.negative == o.negative && ((e.zero && o.denormal) || (e.denormal && o.zero))) {
    return "zero_vs_subnormal";
  }
  return "value_differs";
}

bool WritesF32Word(Instr instr) {
  const InstrInfo& info = GetInstrInfo(instr);
  return info.output == OutputKind::f32 && info.write == DstWrite::dword;
}

bool WritesSixteenBitFloats(Instr instr) {
  const OutputKind k = GetInstrInfo(instr).output;
  return k == OutputKind::f16 || k == OutputKind::bf16;
}

std::string DifferenceClassMask(const Fp8Format* format, uint32_t mask, uint32_t kept,
                                uint32_t expected, uint32_t observed, const RoundingPair* pair) {
  int bytes = 0, first = -1;
  for (int p = 0; p < 4; ++p) {
    if (((mask >> (8 * p)) & 0xffu) == 0) continue;
    ++bytes;
    if (first < 0) first = p;
  }
  if (bytes <= 1) {
    return DifferenceClass(format, first < 0 ? 0 : first, kept, expected, observed, pair);
  }
  if ((observed & mask) == (kept & mask) && (expected & ~mask) == (kept & ~mask) &&
      (observed & ~mask) != (kept & ~mask)) {
    return "byte_moved";
  }
  if (bytes == 2 && (expected & ~mask) == (observed & ~mask)) {
    // A 16-bit half written in the other element order: its two bytes exchanged.
    const int at = 8 * first;
    const uint32_t lo = (expected >> at) & 0xffu, hi = (expected >> (at + 8)) & 0xffu;
    if (lo != hi && ((observed >> at) & 0xffffu) == (lo << 8 | hi)) return "elements_swapped";
  }
  if ((expected & ~mask) != (observed & ~mask)) {
    return (expected & mask) == (observed & mask) ? "unwritten_bytes_changed"
                                                  : "written_and_unwritten_bytes_changed";
  }
  if (pair != nullptr) {  // every differing element is its other rounding candidate
    bool other_way = true;
    for (int p = 0; p < 4 && other_way; ++p) {
      const uint32_t m = 0xffu << (8 * p);
      if ((mask & m) == 0 || (expected & m) == (observed & m)) continue;
      other_way = (pair->down & m) != (pair->up & m) &&
                  ((observed & m) == (pair->down & m) || (observed & m) == (pair->up & m));
    }
    if (other_way) return "rounded_other_way";
  }
  for (int p = 0; p < 4; ++p) {
    const uint32_t m = 0xffu << (8 * p);
    if ((mask & m) == 0 || (expected & m) == (observed & m)) continue;
    return DifferenceClass(format, p, kept, (expected & m) | (kept & ~m),
                           (observed & m) | (kept & ~m), pair);
  }
  return "value_differs";
}

std::string DifferenceClassFp4(uint32_t written_mask, uint32_t expected, uint32_t observed,
                               const RoundingPair* pair) {
  // The first written byte that differs (a whole dword of eight codes: gfx1250's 8-wide
  // encoder), else the first written byte.
  int at = 0;
  while (at < 24 && ((written_mask >> at) & 0xffu) == 0) at += 8;
  for (int b = at; b < 32; b += 8) {
    if (((written_mask >> b) & 0xffu) != 0 && ((expected ^ observed) >> b & 0xffu) != 0) {
      at = b;
      break;
    }
  }
  const uint32_t e = (expected >> at) & 0xffu, o = (observed >> at) & 0xffu;
  const uint32_t e0 = e & 0xfu, e1 = e >> 4;
  if (e0 != e1 && o == ((e0 << 4) | e1)) return "elements_swapped";
  if (pair != nullptr && e != o) {  // every differing code is its other rounding candidate
    bool other_way = true;
    for (uint32_t sh = at; sh < static_cast<uint32_t>(at) + 8 && other_way; sh += 4) {
      const uint32_t a = (expected >> sh) & 0xfu, b = (observed >> sh) & 0xfu;
      const uint32_t dn = (pair->down >> sh) & 0xfu, up = (pair->up >> sh) & 0xfu;
      other_way = a == b || (dn != up && (b == dn || b == up));
    }
    if (other_way) return "rounded_other_way";
  }
  for (uint32_t sh : {0u, 4u}) {
    const uint32_t a = (e >> sh) & 0xfu, b = (o >> sh) & 0xfu;
    if (a == b) continue;
    if ((a ^ b) == 0x8u) return "sign_only";
    const int ma = static_cast<int>(a & 7u), mb = static_cast<int>(b & 7u);
    const bool same_sign = (a & 8u) == (b & 8u) || ma == 0 || mb == 0;
    if (same_sign && (ma - mb == 1 || mb - ma == 1)) return "one_code_apart";
    return "value_differs";
  }
  return "value_differs";
}

std::string Fp4ByteText(uint8_t byte) {
  // OCP MX v1.0 FP4 E2M1 magnitudes of codes 0..7; bit 3 the sign.
  static constexpr const char* kValues[8] = {"0", "0.5", "1", "1.5", "2", "3", "4", "6"};
  auto one = [](uint32_t c) { return absl::StrCat((c & 8u) != 0 ? "-" : "", kValues[c & 7u]); };
  return absl::StrFormat("0x%02x = fp4 %s, %s (nibbles low first)", byte, one(byte & 0xfu),
                         one(byte >> 4));
}

std::string DecodeByte(const Fp8Format* format, uint8_t byte) {
  if (format == nullptr) return absl::StrFormat("0x%02x = %d", byte, byte);
  const Fp8Format& f = *format;
  const Code c = Take(f, byte);
  if (c.nan) return absl::StrFormat("0x%02x = NaN", byte);
  if (c.inf) return absl::StrFormat("0x%02x = %sInf", byte, c.negative ? "-" : "+");
  const int exp_field = static_cast<int>(c.magnitude >> f.man_bits);
  const int man = static_cast<int>(c.magnitude & ((1u << f.man_bits) - 1));
  // value = (exp ? 1 + man/2^m : man/2^m) * 2^(max(exp,1) - bias)
  const double frac = (exp_field ? 1.0 : 0.0) + man / static_cast<double>(1 << f.man_bits);
  double v = frac;
  for (int e = std::max(exp_field, 1) - f.bias; e > 0; --e) v *= 2;
  for (int e = std::max(exp_field, 1) - f.bias; e < 0; ++e) v /= 2;
  if (c.negative) v = -v;
  return absl::StrFormat("0x%02x = %.9g", byte, v);
}

}  // namespace lanediff
