// The device kernels as code objects: the registry of the ones built into the binary (one per
// target and wave size, assembled from device_harness/kernels/<family>.s at build time), a
// minimal ELF64 reader that finds the patch site by its symbol, and the patcher that splices
// the instruction under test into a copy.
//
//   LANEDIFF_ASSIGN_OR_RETURN(CodeObjectView co, FindCodeObject("gfx942", 64));
//   LANEDIFF_ASSIGN_OR_RETURN(std::vector<uint8_t> elf, PatchCodeObject(co, batch.words));
//   // elf is a complete code object: hipModuleLoadData(&module, elf.data())
//   LANEDIFF_ASSIGN_OR_RETURN(PatchSiteWords site, ReadPatchSite(elf));   // the 3 dwords
//
// Kernel contract (every family): one lane per work-item, 256 work-items per workgroup,
// kernel "lanediff_kernel", arguments as KernelArgs below. Each lane loads src0..src2 into
// v1..v3 and vdst_old into v4, the SGPR-source values into s20..s22 (register_convention.h's
// RegisterConvention), sets MODE[7:0] (round, denormals) and MODE[23] (FP16_OVFL) from
// KernelArgs::mode, runs the 12 bytes at lanediff_patch_site, restores those MODE fields and
// stores v4 to out[i], or, with M = KernelArgs::shape[7:0] VDST words (a VGPR pair v[4:5], or
// on GFX9 and GFX12.5 a tuple v[4:4+M-1]), v4..v(4+M-1) to out[i*M .. i*M+M-1]; then the MODE
// it read back to out[n * M]. On GFX9 and GFX12.5 a source of N > 1 dwords is loaded as a tuple
// (KernelCapacity). The GFX12.5 kernel has run on no silicon: its bytes, its wait states
// against llc-22's and its execution in the kernel interpreter are what check it. No HIP here:
// this file is pure data and byte handling.
#ifndef LANEDIFF_DEVICE_HARNESS_CODE_OBJECT_H_
#define LANEDIFF_DEVICE_HARNESS_CODE_OBJECT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "device_harness/register_convention.h"
#include "model/targets/targets.h"

namespace lanediff {

inline constexpr absl::string_view kKernelName = "lanediff_kernel";
inline constexpr absl::string_view kPatchSiteSymbol = "lanediff_patch_site";
inline constexpr size_t kPatchSiteBytes = 12;       // 8-byte VOP3 + 4-byte literal or s_nop 0
inline constexpr int kKernelWorkgroupSize = 256;    // work-items per workgroup (fixed)
inline constexpr uint32_t kSNop0 = 0xBF800000;      // s_nop 0 on every family (SOPP op 0)
inline constexpr uint8_t kKernelVdst = kRegisterConvention.vdst;  // the kernel stores v4 (v[4:5])
// The most VDST words per lane any family's kernel stores (the GFX9 and GFX12.5 kernels' v[4:35]).
inline constexpr int kKernelMaxDstWords = 32;

// The lane shapes (model/base/lanes.h) a family's kernel runs: the GFX9 kernel (gfx908 ..
// gfx950) and the GFX12.5 kernel (gfx1250, gfx1251), where the wide rows are, load src0 tuples
// of up to 32 dwords (v[36:67]), src1 tuples of up to 16 (v[68:83]) and store up to 32 VDST
// words; the other families' kernels one dword per source and one or two VDST words
// (kernels/<family>.s). src2 is one dword on every kernel.
inline constexpr LaneShape KernelCapacity(Family family) {
  return family == Family::gfx9 || family == Family::gfx1250 ? LaneShape{{32, 16, 1}, 32}
                                                             : LaneShape{{1, 1, 1}, 2};
}
inline constexpr bool KernelRuns(Family family, const LaneShape& shape) {
  const LaneShape cap = KernelCapacity(family);
  for (int s = 0; s < 3; ++s) {
    if (shape.src_dwords[s] < 1 || shape.src_dwords[s] > cap.src_dwords[s]) return false;
  }
  return shape.dst_words >= 1 && shape.dst_words <= cap.dst_words;
}
// KernelArgs::shape for a lane shape: [7:0] VDST words, [15:8], [23:16], [31:24] the dwords of
// src0..src2 minus one. A row of one-dword sources has the word its VDST words are (1 or 2),
// which is what the kernels before the wide rows read at that offset.
inline constexpr uint32_t KernelShapeWord(const LaneShape& s) {
  return uint32_t{s.dst_words} | uint32_t{s.src_dwords[0] - 1u} << 8 |
         uint32_t{s.src_dwords[1] - 1u} << 16 | uint32_t{s.src_dwords[2] - 1u} << 24;
}
inline constexpr LaneShape LaneShapeOfWord(uint32_t w) {
  return LaneShape{{static_cast<uint8_t>(((w >> 8) & 0xff) + 1), static_cast<uint8_t>(((w >> 16) & 0xff) + 1),
                    static_cast<uint8_t>(((w >> 24) & 0xff) + 1)},
                   static_cast<uint8_t>(w & 0xff)};
}

// The kernel arguments, byte for byte as the kernels' s_load offsets and .amdgpu_metadata
// declare them (device_harness/kernels/*.s).
struct KernelArgs {
  uint64_t src0 = 0;      // device pointers, one uint32 per lane
  uint64_t src1 = 0;
  uint64_t src2 = 0;
  uint64_t vdst_old = 0;
  uint64_t out = 0;
  uint32_t n = 0;         // lanes; work-items with index >= n do nothing
  uint32_t mode = 0;      // MODE value: bits [7:0] and [23] are applied
  uint32_t sgpr[3] = {};  // loaded into s20, s21, s22
  // The lane shape of the instruction (KernelShapeWord of its row's LaneShape): VDST words per
  // lane M in [7:0] (v4 to out[i * M], v5 to out[i * M + 1], ...; the MODE readback to
  // out[n * M]) and each source's dwords - 1 above. The GFX10, GFX11 and GFX12 kernels read
  // only 2 (a VGPR pair) or anything else (one word) there.
  uint32_t shape = 1;
};
static_assert(sizeof(KernelArgs) == 64, "KernelArgs must match the kernels' 64-byte layout");

// One built code object. `elf` points into static storage (never freed).
struct CodeObjectView {
  const TargetTraits* target = nullptr;
  int wave_size = 0;
  absl::Span<const uint8_t> elf;
};

// The built-in code object for a target and wave size (32 or 64). Errors name the target and
// list the wave sizes it has.
absl::StatusOr<CodeObjectView> FindCodeObject(absl::string_view target, int wave_size);

// Every built-in code object, in build order.
std::vector<CodeObjectView> AllCodeObjects();

// Where the patch site is in an ELF64 AMDGPU code object: found through .symtab by the
// symbol kPatchSiteSymbol, which must be in an executable section and 12 bytes long.
struct PatchSite {
  uint64_t file_offset = 0;
  uint64_t address = 0;  // virtual address (what llvm-objdump prints)
  uint64_t size = 0;
};
absl::StatusOr<PatchSite> FindPatchSite(absl::Span<const uint8_t> elf);

// The three little-endian dwords at the patch site.
using PatchSiteWords = std::array<uint32_t, 3>;
absl::StatusOr<PatchSiteWords> ReadPatchSite(absl::Span<const uint8_t> elf);

// Which known instruction `words` (2 dwords, or 3 with a literal) encode on `target`, or why
// they may not be spliced: wrong VOP3 ENC bits for the family, an opcode that is none of the
// target's instructions, a VDST other than v4 (the kernel stores v4), a third dword with no
// source naming the literal (code 255) or a literal source without its dword, a literal on
// GFX9 (its VOP3 has none). Raw modifier bits (NEG/ABS on any source, OMOD, CLAMP, OPSEL) and
// any operand code are allowed: running them is the point.
absl::StatusOr<Instr> CheckPatchWords(const TargetTraits& target,
                                      absl::Span<const uint32_t> words);

// A copy of view.elf with `words` at the patch site: 8 bytes then s_nop 0, or 12 bytes.
// Refuses (InvalidArgument) what CheckPatchWords refuses.
absl::StatusOr<std::vector<uint8_t>> PatchCodeObject(const CodeObjectView& view,
                                                     absl::Span<const uint32_t> words);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_CODE_OBJECT_H_
