#include "device_harness/code_object.h"

#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/code_object_table.h"
#include "model/base/status.h"
#include "model/isa/tables.h"
#include "model/isa/vop3.h"

namespace lanediff {
namespace {

// ELF64 constants (System V gABI; AMDGPU: LLVM AMDGPUUsage "ELF Code Object").
constexpr uint8_t kElfClass64 = 2;
constexpr uint8_t kElfData2Lsb = 1;
constexpr uint16_t kEmAmdgpu = 224;
constexpr uint32_t kShtSymtab = 2;
constexpr uint64_t kShfExecinstr = 0x4;
constexpr size_t kEhdrSize = 64;
constexpr size_t kShdrSize = 64;
constexpr size_t kSymSize = 24;

template <typename T>
T Load(absl::Span<const uint8_t> b, size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));  // x86-64 and AMDGPU ELF are little-endian
  return v;
}

struct Section {
  uint32_t name = 0;
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t addr = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint64_t entsize = 0;
};

absl::Status Corrupt(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("code object is not a valid ELF64 AMDGPU file: ", what));
}

bool InBounds(uint64_t off, uint64_t len, size_t total) {
  return off <= total && len <= total - off;
}

absl::StatusOr<std::vector<Section>> ReadSections(absl::Span<const uint8_t> elf) {
  if (elf.size() < kEhdrSize) return Corrupt(absl::StrCat("only ", elf.size(), " bytes"));
  if (std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0) return Corrupt("no \\x7fELF magic");
  if (elf[4] != kElfClass64) return Corrupt(absl::StrCat("EI_CLASS ", elf[4], " is not ELFCLASS64"));
  if (elf[5] != kElfData2Lsb) return Corrupt(absl::StrCat("EI_DATA ", elf[5], " is not little-endian"));
  const uint16_t machine = Load<uint16_t>(elf, 18);
  if (machine != kEmAmdgpu) return Corrupt(absl::StrCat("e_machine ", machine, " is not EM_AMDGPU (224)"));
  const uint64_t shoff = Load<uint64_t>(elf, 40);
  const uint16_t shentsize = Load<uint16_t>(elf, 58);
  const uint16_t shnum = Load<uint16_t>(elf, 60);
  if (shentsize != kShdrSize) return Corrupt(absl::StrCat("e_shentsize ", shentsize, " != 64"));
  if (shnum == 0) return Corrupt("e_shnum is 0 (no section headers)");
  if (!InBounds(shoff, uint64_t{shnum} * kShdrSize, elf.size())) {
    return Corrupt(absl::StrCat("section headers (e_shoff ", shoff, ", ", shnum, " entries) run past the end"));
  }
  std::vector<Section> out(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    const size_t o = shoff + size_t{i} * kShdrSize;
    Section& s = out[i];
    s.name = Load<uint32_t>(elf, o + 0);
    s.type = Load<uint32_t>(elf, o + 4);
    s.flags = Load<uint64_t>(elf, o + 8);
    s.addr = Load<uint64_t>(elf, o + 16);
    s.offset = Load<uint64_t>(elf, o + 24);
    s.size = Load<uint64_t>(elf, o + 32);
    s.link = Load<uint32_t>(elf, o + 40);
    s.entsize = Load<uint64_t>(elf, o + 56);
  }
  return out;
}

absl::StatusOr<absl::string_view> StringAt(absl::Span<const uint8_t> elf, const Section& strtab,
                                           uint32_t index) {
  if (!InBounds(strtab.offset, strtab.size, elf.size()) || index >= strtab.size) {
    return Corrupt(absl::StrCat("string index ", index, " outside its string table"));
  }
  const char* begin = reinterpret_cast<const char*>(elf.data() + strtab.offset + index);
  const size_t max = strtab.size - index;
  const size_t len = strnlen(begin, max);
  if (len == max) return Corrupt("unterminated string in a string table");
  return absl::string_view(begin, len);
}


}  // namespace

absl::StatusOr<CodeObjectView> FindCodeObject(absl::string_view target, int wave_size) {
  LANEDIFF_ASSIGN_OR_RETURN(const TargetTraits* traits, FindTarget(target));
  std::vector<int> waves;
  for (size_t i = 0; i < internal::kNumEmbeddedCodeObjects; ++i) {
    const internal::EmbeddedCodeObject& e = internal::kEmbeddedCodeObjects[i];
    if (traits->name != e.target) continue;
    if (e.wave_size == wave_size) {
      return CodeObjectView{traits, wave_size, absl::MakeConstSpan(e.data, e.size)};
    }
    waves.push_back(e.wave_size);
  }
  if (waves.empty()) {
    return absl::NotFoundError(absl::StrCat("no device kernel was built for ", target,
                                            " (device_harness/CMakeLists.txt LANEDIFF_KERNEL_BUILDS)"));
  }
  return absl::NotFoundError(absl::StrCat("no wave", wave_size, " device kernel for ", target,
                                          "; built: wave", absl::StrJoin(waves, ", wave")));
}

std::vector<CodeObjectView> AllCodeObjects() {
  std::vector<CodeObjectView> out;
  for (size_t i = 0; i < internal::kNumEmbeddedCodeObjects; ++i) {
    const internal::EmbeddedCodeObject& e = internal::kEmbeddedCodeObjects[i];
    absl::StatusOr<const TargetTraits*> t = FindTarget(e.target);
    // The table is generated from the same list the test checks against AllTargets().
    out.push_back({t.ok() ? *t : nullptr, e.wave_size, absl::MakeConstSpan(e.data, e.size)});
  }
  return out;
}

absl::StatusOr<PatchSite> FindPatchSite(absl::Span<const uint8_t> elf) {
  LANEDIFF_ASSIGN_OR_RETURN(std::vector<Section> sections, ReadSections(elf));
  const Section* symtab = nullptr;
  for (const Section& s : sections) {
    if (s.type == kShtSymtab) {
      symtab = &s;
      break;
    }
  }
  if (symtab == nullptr) return Corrupt("no .symtab section (was the code object stripped?)");
  if (symtab->entsize != kSymSize) return Corrupt(absl::StrCat(".symtab sh_entsize ", symtab->entsize, " != 24"));
  if (!InBounds(symtab->offset, symtab->size, elf.size())) return Corrupt(".symtab runs past the end");
  if (symtab->link >= sections.size()) return Corrupt(".symtab sh_link names no section");
  const Section& strtab = sections[symtab->link];
  const uint64_t count = symtab->size / kSymSize;
  for (uint64_t i = 0; i < count; ++i) {
    const size_t o = symtab->offset + i * kSymSize;
    LANEDIFF_ASSIGN_OR_RETURN(absl::string_view name, StringAt(elf, strtab, Load<uint32_t>(elf, o)));
    if (name != kPatchSiteSymbol) continue;
    const uint16_t shndx = Load<uint16_t>(elf, o + 6);
    const uint64_t value = Load<uint64_t>(elf, o + 8);
    const uint64_t size = Load<uint64_t>(elf, o + 16);
    if (shndx == 0 || shndx >= sections.size()) {
      return Corrupt(absl::StrCat(kPatchSiteSymbol, " has section index ", shndx));
    }
    const Section& sec = sections[shndx];
    if ((sec.flags & kShfExecinstr) == 0) {
      return Corrupt(absl::StrCat(kPatchSiteSymbol, " is not in an executable section"));
    }
    if (size != kPatchSiteBytes) {
      return Corrupt(absl::StrCat(kPatchSiteSymbol, " is ", size, " bytes long, expected ", kPatchSiteBytes));
    }
    if (value < sec.addr || value - sec.addr > sec.size || size > sec.size - (value - sec.addr)) {
      return Corrupt(absl::StrCat(kPatchSiteSymbol, " at 0x", absl::Hex(value), " lies outside its section"));
    }
    const uint64_t file_offset = sec.offset + (value - sec.addr);
    if (!InBounds(file_offset, size, elf.size())) return Corrupt("patch site runs past the end of the file");
    if (file_offset % 4 != 0) return Corrupt("patch site is not dword-aligned");
    return PatchSite{file_offset, value, size};
  }
  return absl::NotFoundError(absl::StrCat("code object has no symbol ", kPatchSiteSymbol));
}

absl::StatusOr<PatchSiteWords> ReadPatchSite(absl::Span<const uint8_t> elf) {
  LANEDIFF_ASSIGN_OR_RETURN(PatchSite site, FindPatchSite(elf));
  PatchSiteWords w;
  for (size_t i = 0; i < w.size(); ++i) w[i] = Load<uint32_t>(elf, site.file_offset + 4 * i);
  return w;
}

// The words are decoded by the model's VOP3 decoder (model/isa/vop3.h DecodeVop3Fields): the
// same field layout, opcode table and literal rule (a literal dword follows when a source the
// instruction reads is code 255 on a family with literals) as everywhere else. Operand codes
// and modifier bits are not checked: running raw words is the point.
absl::StatusOr<Instr> CheckPatchWords(const TargetTraits& target,
                                      absl::Span<const uint32_t> words) {
  if (words.empty() || words.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "instruction has ", words.size(), " dwords; the patch site takes 1 to 3 (VOP1 e32, "
        "+ literal or SDWA; VOP3; VOP3 + literal)"));
  }
  const Vop3Layout& l = GetVop3Layout(target.family);
  const bool vop1 = kVop1Layout.enc.Get(words) == kVop1Layout.enc_value;
  if (!vop1 && words.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "instruction has ", words.size(), " dwords; a VOP3 word takes 2 (3 with a literal)"));
  }
  if (const uint32_t enc = l.enc.Get(words); enc != l.enc_value && !vop1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "word 0x%08x is not a %s VOP3 or VOP1 instruction: ENC[31:26] = 0x%02x, expected 0x%02x",
        words[0], FamilyName(target.family), enc, l.enc_value));
  }
  // Decoded with zero dwords appended, so that a missing dword is told apart below.
  const uint32_t padded[3] = {words[0], words.size() >= 2 ? words[1] : 0u,
                              words.size() == 3 ? words[2] : 0u};
  absl::StatusOr<DecodedVop3> d = DecodeVop3Fields(target, padded);
  if (!d.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "refusing to splice ", vop1 ? "VOP1 opcode " : "VOP3 opcode ",
        vop1 ? kVop1Layout.op.Get(words) : l.op.Get(words), " into the ", target.name,
        " kernel: ", d.status().message()));
  }
  const bool e64 = d->vop3.form == InstrForm::e64;
  for (int i = NumSourcesRead(d->vop3.instr); i < 3 && l.literal_allowed && e64; ++i) {
    if (d->vop3.src[i] == 255) {  // as DecodeVop3 (model/isa/vop3_decode.cc) refuses it
      return absl::InvalidArgumentError(absl::StrCat(
          "refusing to splice ", InstrName(d->vop3.instr), " with SRC", i,
          " = 255 (literal) in a source field it does not read: whether a literal dword "
          "follows is unknown, so the instruction length is unknown"));
    }
  }
  if (static_cast<size_t>(d->words_used) > words.size()) {
    return absl::InvalidArgumentError(d->vop3.form == InstrForm::sdwa
        ? "an SDWA word (SRC0 = 249) but no SDWA dword follows"
        : "a source names the literal (code 255) but no literal dword follows");
  }
  if (d->vop3.vdst != kKernelVdst) {
    const int w = DstWords(d->vop3.instr);  // a VGPR pair: v[4:5]
    auto regs = [w](int v) { return w == 1 ? absl::StrCat("v", v) : absl::StrCat("v[", v, ":", v + w - 1, "]"); };
    return absl::InvalidArgumentError(absl::StrCat(
        "instruction writes ", regs(d->vop3.vdst), " but the kernel stores ", regs(kKernelVdst),
        " (RegisterConvention::vdst): encode VDST = ", kKernelVdst));
  }
  if (static_cast<size_t>(d->words_used) != words.size()) {
    // GFX9 VOP3 has no literal: code 255 there is a raw encoding to run as is, in 8 bytes.
    if (!l.literal_allowed && e64) {
      return absl::InvalidArgumentError(
          absl::StrCat("a 3-dword instruction on ", target.name, ": GFX9 VOP3 takes no literal"));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        words.size(), " dwords given but the instruction is ", d->words_used,
        ": no source names the literal (code 255) among those the instruction reads"));
  }
  return d->vop3.instr;
}

absl::StatusOr<std::vector<uint8_t>> PatchCodeObject(const CodeObjectView& view,
                                                     absl::Span<const uint32_t> words) {
  if (view.target == nullptr) return absl::InvalidArgumentError("code object view has no target");
  LANEDIFF_RETURN_IF_ERROR(CheckPatchWords(*view.target, words).status());
  LANEDIFF_ASSIGN_OR_RETURN(PatchSite site, FindPatchSite(view.elf));
  std::vector<uint8_t> out(view.elf.begin(), view.elf.end());
  const uint32_t padded[3] = {words[0], words.size() >= 2 ? words[1] : kSNop0,
                              words.size() == 3 ? words[2] : kSNop0};
  std::memcpy(out.data() + site.file_offset, padded, sizeof(padded));
  return out;
}

}  // namespace lanediff
