#include "model/ops/unpack_common.h"

#include <cstddef>

#include "model/fp/f32.h"
#include "model/fp/mx_format.h"
#include "model/fp/mx_oracle.h"
#include "model/fp/oracle.h"
#include "model/ops/fp8_clamp.h"
#include "model/targets/hypotheses.h"

namespace lanediff {
namespace ops {

int UnpackSourceByte(const OpContext& ctx) {
  const InstrInfo& info = GetInstrInfo(ctx.instr);
  const OpSelSyntax syntax = info.opsel_syntax[static_cast<int>(ctx.target->family)];
  if (syntax == OpSelSyntax::byte_sel_src || syntax == OpSelSyntax::op_sel_dst_byte_sel) {
    return 2 * (ctx.mods.opsel & 1) + ((ctx.mods.opsel >> 1) & 1);
  }
  // op_sel:[a,b,d] on a byte reader (the gfx950 scaled decodes): the byte is OPSEL[1:0].
  if (syntax == OpSelSyntax::op_sel_dst3) return ctx.mods.opsel & 3;
  // GFX9: the SDWA src0_sel (DWORD = 6 in e32 and VOP3, byte 0 under both readings).
  const uint32_t sel = ctx.mods.src0_sel;
  switch (ctx.hyp.fp8_sdwa_sel) {
    case Fp8SdwaSel::pseudocode: return sel >= 1 && sel <= 3 ? static_cast<int>(sel) : 0;
    case Fp8SdwaSel::extract: return sel <= 3 ? static_cast<int>(sel) : sel == 5 ? 2 : 0;
  }
  return 0;
}

SourceWord UnpackSourceWord(const OpContext& ctx) {
  const InstrInfo& info = GetInstrInfo(ctx.instr);
  const OpSelSyntax syntax = info.opsel_syntax[static_cast<int>(ctx.target->family)];
  // op_sel:[a,b,d] on a word reader (the gfx950 scaled decodes): the word is OPSEL[0].
  if (syntax == OpSelSyntax::op_sel_dst3) return {16u * (ctx.mods.opsel & 1u), 0xffffu};
  if (syntax == OpSelSyntax::op_sel_word_src) {
    if ((ctx.mods.opsel & 1u) == 0) return {0, 0xffffu};
    // A constant in the 16-bit SRC0 under src16_constant=low_only holds 0 in bits 31:16 (the
    // lane word is the default reading's: the constant in both halves, resolve.h).
    if ((ctx.constant16_srcs & 1u) != 0 && ctx.hyp.src16_constant == Src16Constant::low_only) {
      return {16u, 0u};
    }
    return {16u, 0xffffu};
  }
  const uint32_t sel = ctx.mods.src0_sel;
  switch (ctx.hyp.fp8_sdwa_sel) {
    case Fp8SdwaSel::pseudocode: return {(sel & 3u) == 1u ? 16u : 0u, 0xffffu};
    case Fp8SdwaSel::extract:
      if (sel <= 3) return {8u * sel, 0xffu};
      return {sel == 5 ? 16u : 0u, 0xffffu};
  }
  return {0, 0xffffu};
}

Fp8ToF32Options UnpackOptions(const OpContext& ctx, bool clamp_is_format) {
  const bool dx10 = ctx.target->family == Family::gfx9 ? (ctx.mode & kModeDx10ClampBit) != 0
                                                       : true;
  return Fp8DecodeOptionsFor(ctx.hyp, (ctx.mode & kModeDenormF16InBit) != 0, ctx.mods.omod,
                             ctx.mods.clamp && !clamp_is_format, dx10);
}

namespace {

bool SameOptions(const Fp8ToF32Options& a, const Fp8ToF32Options& b) {
  return a.nan == b.nan && a.unsigned_nan == b.unsigned_nan && a.flush_denormals == b.flush_denormals &&
         a.omod == b.omod && a.clamp == b.clamp && a.dx10_clamp == b.dx10_clamp;
}

// The decode table of (format, options), from a small per-thread cache: building one is 256
// decodes, about as much as evaluating a few hundred lanes, and the campaign's aiming
// evaluates 64-lane chunks under each hypothesis value. Eight slots, replaced in turn.
const Fp8ToF32Table& CachedFp8ToF32Table(const Fp8Format& format, const Fp8ToF32Options& options) {
  struct Slot {
    const Fp8Format* format = nullptr;
    Fp8ToF32Options options;
    Fp8ToF32Table table;
  };
  constexpr size_t kSlots = 8;
  thread_local Slot cache[kSlots];
  thread_local size_t next = 0;
  // Only the formats of the table (model/fp/fp8_format.h) are keyed by address; any other is
  // decoded afresh.
  if (&format < kFp8Formats.data() || &format >= kFp8Formats.data() + kFp8Formats.size()) {
    thread_local Fp8ToF32Table other;
    other = MakeFp8ToF32Table(format, options);
    return other;
  }
  for (Slot& s : cache) {
    if (s.format == &format && SameOptions(s.options, options)) return s.table;
  }
  Slot& s = cache[next++ % kSlots];
  s.format = &format;
  s.options = options;
  s.table = MakeFp8ToF32Table(format, options);
  return s.table;
}

}  // namespace

void UnpackByteBatch(const OpContext& ctx, const Fp8Format& format, bool clamp_is_format,
                     const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Table& t = CachedFp8ToF32Table(format, UnpackOptions(ctx, clamp_is_format));
  const uint32_t shift = 8u * static_cast<uint32_t>(UnpackSourceByte(ctx));
  const uint32_t* __restrict src0 = lanes.src0;
  for (size_t i = 0; i < lanes.size; ++i) out[i] = Fp8ToF32(src0[i] >> shift, t);
}

void UnpackByteBatchOracle(const OpContext& ctx, const Fp8Format& format, bool clamp_is_format,
                           const LaneView& lanes, uint32_t* out) {
  const Fp8ToF32Options o = UnpackOptions(ctx, clamp_is_format);
  const int byte = UnpackSourceByte(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    out[i] = OracleFp8ToF32((lanes.src0[i] >> (8 * byte)) & 0xffu, format, o);
  }
}

void UnpackPairBatch(const OpContext& ctx, const Fp8Format& format, const LaneView& lanes,
                     uint32_t* out) {
  const Fp8ToF32Table& t = CachedFp8ToF32Table(format, UnpackOptions(ctx, false));
  const SourceWord w = UnpackSourceWord(ctx);
  const uint32_t* __restrict src0 = lanes.src0;
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint64_t pair = Fp8PairToF32x2((src0[i] >> w.shift) & w.mask, t);
    out[2 * i] = static_cast<uint32_t>(pair);
    out[2 * i + 1] = static_cast<uint32_t>(pair >> 32);
  }
}

void UnpackPairBatchOracle(const OpContext& ctx, const Fp8Format& format, const LaneView& lanes,
                           uint32_t* out) {
  const Fp8ToF32Options o = UnpackOptions(ctx, false);
  const SourceWord w = UnpackSourceWord(ctx);
  for (size_t i = 0; i < lanes.size; ++i) {
    const uint32_t word = (lanes.src0[i] >> w.shift) & w.mask;
    out[2 * i] = OracleFp8ToF32(word & 0xffu, format, o);
    out[2 * i + 1] = OracleFp8ToF32((word >> 8) & 0xffu, format, o);
  }
}

namespace {

absl::string_view ClassifyByte(const Fp8Format& f, uint32_t b) {
  const uint32_t mag = f.is_signed ? b & 0x7fu : b;
  const uint32_t exp = mag >> f.man_bits;
  const uint32_t man = mag & ((1u << f.man_bits) - 1u);
  const uint32_t exp_max = (1u << f.exp_bits) - 1u;
  if (f.fnuz) {
    if (b == 0x80) return "nan";
  } else if (!f.is_signed) {
    if (b == 0xff) return "nan";
  } else if (exp == exp_max) {
    if (f.has_inf) return man == 0 ? "inf" : "nan";
    if (man == (1u << f.man_bits) - 1u) return "nan";
  }
  if (mag == 0) return "zero";
  if (exp == 0) return "denormal";
  return "normal";
}

}  // namespace

absl::string_view ClassifyUnpackPair(const OpContext& ctx, const Fp8Format& f, uint32_t src0) {
  const SourceWord w = UnpackSourceWord(ctx);
  const uint32_t word = (src0 >> w.shift) & w.mask;
  const absl::string_view lo = ClassifyByte(f, word & 0xffu), hi = ClassifyByte(f, word >> 8);
  for (absl::string_view c : {"nan", "inf", "denormal", "zero"}) {
    if (lo == c || hi == c) return c;
  }
  return "normal";
}

absl::string_view ClassifyUnpackByte(const OpContext& ctx, const Fp8Format& f, uint32_t src0) {
  return ClassifyByte(f, (src0 >> (8 * UnpackSourceByte(ctx))) & 0xffu);
}

Fp8ToF32Options ScaledElementOptions(const OpContext& ctx) {
  return Fp8DecodeOptionsFor(ctx.hyp, /*f16_input_denormals=*/true, kOmodNone, false, true);
}

uint32_t ScaleOperandOf(const OpContext& ctx, uint32_t src1) {
  return ApplySrcModifiers(src1, (ctx.mods.abs & 2) != 0, (ctx.mods.neg & 2) != 0);
}

Mx16 RowMx16(const OpContext& ctx) {
  return GetInstrInfo(ctx.instr).output == OutputKind::bf16 ? Mx16::bf16 : Mx16::f16;
}

absl::string_view ClassifyScaledProducts(const OpContext& ctx, uint32_t src0, uint32_t src1,
                                         int bytes) {
  if (E8m0FromF32Exponent(src1) == kE8m0Nan) return "nan";
  const Fp8ToF32Table t = MakeFp8ToF32Table(RowFp8Format(ctx), ScaledElementOptions(ctx));
  const bool wide = GetInstrInfo(ctx.instr).output == OutputKind::f32;
  const Mx16 dst = RowMx16(ctx);
  const uint32_t inf16 = dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  const uint32_t min_normal16 = dst == Mx16::f16 ? 0x0400u : 0x0080u;
  const SourceWord w = UnpackSourceWord(ctx);
  const uint32_t from = bytes == 2 ? (src0 >> w.shift) & w.mask
                                   : (src0 >> (8 * UnpackSourceByte(ctx))) & 0xffu;
  bool overflow = false, denormal = false;
  for (int k = 0; k < bytes; ++k) {
    const uint32_t x = Fp8ToF32(from >> (8 * k), t);
    if (wide) {
      const uint32_t r = MxScaleF32(x, src1, MxScaleRead::exponent, {});
      overflow |= F32IsInf(r);
      denormal |= F32Exp(r) == 0 && !F32IsZero(r);
    } else {
      const uint32_t r = MxScaleF32To16(x, src1, MxScaleRead::exponent, {}, dst) & 0x7fffu;
      overflow |= r == inf16;
      denormal |= r != 0 && r < min_normal16;
    }
  }
  if (overflow) return "overflow";
  if (denormal) return "denormal";
  return "normal";
}

uint32_t Fp4SourceByte(const OpContext& ctx, uint32_t src0) {
  return (src0 >> (8 * UnpackSourceByte(ctx))) & 0xffu;
}

uint32_t Fp4ElementF32(uint32_t code) {
  return MxToF32(code, 127, GetMxElemFormat(MxElemId::fp4_e2m1), {});
}

uint32_t Fp4ElementF32Oracle(uint32_t code) {
  return OracleMxToF32(code, 127, GetMxElemFormat(MxElemId::fp4_e2m1), {});
}

absl::string_view ClassifyScaledFp4(const OpContext& ctx, uint32_t src0, uint32_t src1) {
  if (E8m0FromF32Exponent(src1) == kE8m0Nan) return "nan";
  const uint32_t byte = Fp4SourceByte(ctx, src0);
  if ((byte & 0x7u) == 0 || (byte & 0x70u) == 0) return "zero";
  const bool wide = GetInstrInfo(ctx.instr).output == OutputKind::f32;
  const Mx16 dst = RowMx16(ctx);
  const uint32_t inf16 = dst == Mx16::f16 ? 0x7c00u : 0x7f80u;
  const uint32_t min_normal16 = dst == Mx16::f16 ? 0x0400u : 0x0080u;
  bool overflow = false, denormal = false;
  for (uint32_t k = 0; k < 2; ++k) {
    const uint32_t x = Fp4ElementF32(byte >> (4 * k));
    if (wide) {
      const uint32_t r = MxScaleF32(x, src1, MxScaleRead::exponent, {});
      overflow |= F32IsInf(r);
      denormal |= F32Exp(r) == 0;
    } else {
      const uint32_t r = MxScaleF32To16(x, src1, MxScaleRead::exponent, {}, dst) & 0x7fffu;
      overflow |= r == inf16;
      denormal |= r < min_normal16;
    }
  }
  if (overflow) return "overflow";
  if (denormal) return "denormal";
  return "normal";
}

}  // namespace ops
}  // namespace lanediff
