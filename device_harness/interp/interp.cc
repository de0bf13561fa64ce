#include "device_harness/interp/interp.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "device_harness/register_convention.h"
#include "model/base/status.h"
#include "model/isa/tables.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"

namespace lanediff::interp {
namespace {

// ---- ELF: the descriptor symbol and the section it lives in (System V gABI ELF64; LLVM
// AMDGPUUsage "ELF Code Object"). code_object.cc reads the patch site the same way.
template <typename T>
T Load(absl::Span<const uint8_t> b, size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

struct Section {
  uint32_t type = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0;
  uint32_t link = 0;
};

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("interpreter: code object: ", what));
}

struct Symbol {
  uint64_t value = 0, size = 0;
  const Section* section = nullptr;
};

absl::StatusOr<Symbol> FindSymbol(absl::Span<const uint8_t> elf, const std::vector<Section>& secs,
                                  absl::string_view name) {
  for (const Section& st : secs) {
    if (st.type != 2) continue;  // SHT_SYMTAB
    if (st.link >= secs.size()) return Bad(".symtab sh_link names no section");
    const Section& strtab = secs[st.link];
    if (st.offset + st.size > elf.size() || strtab.offset + strtab.size > elf.size()) {
      return Bad(".symtab or its string table runs past the end");
    }
    for (uint64_t o = st.offset; o + 24 <= st.offset + st.size; o += 24) {
      const uint32_t ni = Load<uint32_t>(elf, o);
      if (ni >= strtab.size) continue;
      const char* s = reinterpret_cast<const char*>(elf.data() + strtab.offset + ni);
      const size_t len = strnlen(s, strtab.size - ni);
      if (absl::string_view(s, len) != name) continue;
      const uint16_t shndx = Load<uint16_t>(elf, o + 6);
      if (shndx == 0 || shndx >= secs.size()) return Bad(absl::StrCat(name, " has section index ", shndx));
      return Symbol{Load<uint64_t>(elf, o + 8), Load<uint64_t>(elf, o + 16), &secs[shndx]};
    }
  }
  return absl::NotFoundError(absl::StrCat("interpreter: code object has no symbol ", name));
}

int VgprGranule(const TargetTraits& t, int wave) {
  // COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT (LLVM AMDGPUUsage; AMDGPUBaseInfo
  // getVGPRAllocGranule): 4 on GFX9 (8 on gfx90a/gfx942/gfx950, unified AGPRs), 8 in wave32
  // and 4 in wave64 on GFX10-GFX12, 16 on gfx1250 (wave32 only): llvm-mc-22 encodes
  // `.amdhsa_next_free_vgpr 84` as 5 there (llvm-objdump-22 reads it back as 96) and as 10
  // in wave32 on gfx1030, gfx1100 and gfx1201 (88).
  if (t.family == Family::gfx9) return t.aligned_vgpr_tuples ? 8 : 4;
  if (t.family == Family::gfx1250) return 16;
  return wave == 32 ? 8 : 4;
}

}  // namespace

uint32_t InitialMode(Family family, uint32_t rsrc1) {
  uint32_t mode = ((rsrc1 >> 12) & 0x3) | (((rsrc1 >> 14) & 0x3) << 2) | (((rsrc1 >> 16) & 0x3) << 4) |
                  (((rsrc1 >> 18) & 0x3) << 6);
  if (family == Family::gfx9 || family == Family::gfx10 || family == Family::gfx11) {
    mode |= ((rsrc1 >> 21) & 1) << 8;  // ENABLE_DX10_CLAMP
    mode |= ((rsrc1 >> 23) & 1) << 9;  // ENABLE_IEEE_MODE
  }
  mode |= ((rsrc1 >> 26) & 1) << 23;  // FP16_OVFL
  return mode;
}

absl::StatusOr<Kernel> LoadKernel(const TargetTraits& target, int wave_size, absl::Span<const uint8_t> elf) {
  if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0) return Bad("not an ELF file");
  const uint64_t shoff = Load<uint64_t>(elf, 40);
  const uint16_t shnum = Load<uint16_t>(elf, 60);
  if (Load<uint16_t>(elf, 58) != 64 || shoff + uint64_t{shnum} * 64 > elf.size()) return Bad("bad section headers");
  std::vector<Section> secs(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    const size_t o = shoff + size_t{i} * 64;
    secs[i] = {Load<uint32_t>(elf, o + 4), Load<uint64_t>(elf, o + 8), Load<uint64_t>(elf, o + 16),
               Load<uint64_t>(elf, o + 24), Load<uint64_t>(elf, o + 32), Load<uint32_t>(elf, o + 40)};
  }
  Kernel k;
  k.target = &target;
  k.wave_size = wave_size;
  k.elf.assign(elf.begin(), elf.end());
  const std::string kd_name = absl::StrCat(kKernelName, ".kd");
  LANEDIFF_ASSIGN_OR_RETURN(Symbol kd, FindSymbol(elf, secs, kd_name));
  if (kd.size != 64 || kd.value < kd.section->addr || kd.value + 64 > kd.section->addr + kd.section->size) {
    return Bad(absl::StrCat(kd_name, " is ", kd.size, " bytes or lies outside its section (a descriptor is 64)"));
  }
  const uint64_t kdo = kd.section->offset + (kd.value - kd.section->addr);
  if (kdo + 64 > elf.size()) return Bad("kernel descriptor runs past the end");
  k.kd.kernarg_size = Load<uint32_t>(elf, kdo + 8);
  k.kd.entry_offset = Load<int64_t>(elf, kdo + 16);
  k.kd.rsrc3 = Load<uint32_t>(elf, kdo + 44);
  k.kd.rsrc1 = Load<uint32_t>(elf, kdo + 48);
  k.kd.rsrc2 = Load<uint32_t>(elf, kdo + 52);
  k.kd.code_properties = Load<uint16_t>(elf, kdo + 56);
  k.entry = kd.value + static_cast<uint64_t>(k.kd.entry_offset);
  for (const Section& s : secs) {
    if ((s.flags & 0x4) != 0 && k.entry >= s.addr && k.entry < s.addr + s.size) {
      k.text_address = s.addr, k.text_offset = s.offset, k.text_size = s.size;
    }
  }
  if (k.text_size == 0 || k.text_offset + k.text_size > elf.size()) {
    return Bad(absl::StrFormat("kernel_code_entry_byte_offset %d puts the entry at 0x%x, in no executable section",
                               k.kd.entry_offset, k.entry));
  }
  LANEDIFF_ASSIGN_OR_RETURN(PatchSite site, FindPatchSite(elf));
  k.patch_site = site.address;
  const Family f = target.family;
  // kernel_code_properties: wavefront_size32 (bit 10) on GFX10+.
  const bool w32 = (k.kd.code_properties >> 10) & 1;
  if (f != Family::gfx9 && w32 != (wave_size == 32)) {
    return Bad(absl::StrCat("kernel_code_properties.ENABLE_WAVEFRONT_SIZE32 is ", w32, " for a wave", wave_size,
                            " launch"));
  }
  if (f == Family::gfx9 && wave_size != 64) return Bad("GFX9 runs wave64 only");
  // User SGPRs, in the hardware's order: private segment buffer (4), dispatch ptr (2), queue
  // ptr (2), kernarg segment ptr (2), then others the kernels never enable.
  const uint16_t cp = k.kd.code_properties;
  int user = 0;
  if (cp & 0x1) user += 4;
  if (cp & 0x2) user += 2;
  if (cp & 0x4) user += 2;
  if (cp & 0x8) k.kernarg_sgpr = user, user += 2;
  if (cp & 0x70) return Bad(absl::StrFormat("kernel_code_properties 0x%x enables user SGPRs the interpreter does not set up (dispatch id, flat scratch init, private segment size)", cp));
  const int user_count = (k.kd.rsrc2 >> 1) & 0x1f;
  if (user_count != user) {
    return Bad(absl::StrCat("COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is ", user_count, " but the enabled user SGPRs take ", user));
  }
  if (k.kernarg_sgpr < 0) return Bad("kernel_code_properties does not enable the kernarg segment pointer");
  if (k.kd.rsrc2 & 0x1) return Bad("COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT is set: no scratch here");
  if (k.kd.rsrc2 & (0x7u << 8)) return Bad("COMPUTE_PGM_RSRC2 enables workgroup id y/z or workgroup info: a 1-D launch only");
  const bool architected = f == Family::gfx12 || f == Family::gfx1250;
  // Not delivered (-1): a read of that SGPR is a read of a register nothing wrote.
  if (((k.kd.rsrc2 >> 7) & 1) && !architected) k.workgroup_id_sgpr = user_count;
  k.initial_mode = InitialMode(f, k.kd.rsrc1);
  k.vgprs = ((k.kd.rsrc1 & 0x3f) + 1) * VgprGranule(target, wave_size);
  return k;
}

const Region* FlatMemory::Find(uint64_t address, uint64_t bytes) const {
  for (const Region& r : regions_) {
    if (address >= r.base && address - r.base <= r.size && bytes <= r.size - (address - r.base)) return &r;
  }
  return nullptr;
}

Evaluator ModelEvaluator(const Hypotheses& hyp) {
  return [hyp](const DeviceBatch& batch, absl::Span<uint32_t> vdst) -> absl::Status {
    LANEDIFF_ASSIGN_OR_RETURN(DecodedBatch d, DecodeDeviceBatch(batch, batch.words));
    d.ctx.hyp = hyp;
    return Evaluate(d.ctx, d.resolved.view(), vdst);
  };
}

Evaluator RunnerEvaluator(Runner* runner) {
  return [runner](const DeviceBatch& batch, absl::Span<uint32_t> vdst) -> absl::Status {
    LANEDIFF_ASSIGN_OR_RETURN(DeviceResult r, runner->Run(batch));
    if (r.vdst.size() != vdst.size()) {
      return absl::InternalError(absl::StrCat("evaluator ", runner->Describe(), " returned ", r.vdst.size(),
                                              " words for ", vdst.size()));
    }
    std::copy(r.vdst.begin(), r.vdst.end(), vdst.begin());
    return absl::OkStatus();
  };
}

namespace {

// Where a VGPR lane's value came from, for the contract checks: a global load (region, word)
// or the instruction under test (word k of lane i's result); anything else is `none`.
struct Tag {
  enum Kind : uint8_t { none, load, result } kind = none;
  uint8_t what = 0;    // region index / result word
  uint32_t index = 0;  // word index in the region / lane
};

constexpr int kMaxWaveInstructions = 100000;

// A one-dword source that names v1, v2 or v3 while that register's lane word is a tuple (a tuple
// row's source mutated to another register): the kernel loads src_s[i], dword i of the buffer,
// into v(s+1) whatever the shape, and the evaluator's batch has no lane word holding that. The
// source is renamed, in the evaluator's copy of the VOP3 words, to the register of a one-dword
// lane word no other source names, and that lane word carries the named register's value
// (`carry[f]`: the register lane word f is read from; -1, its own). A row of one-dword sources
// changes nothing; nor does another form than VOP3 (the tuple rows have no other).
void RenameStaleSources(Family family, const LaneShape& shape, int sources, std::vector<uint32_t>* words,
                        std::array<int, 3>* carry) {
  const Vop3Layout& l = GetVop3Layout(family);
  if (shape.narrow_sources() || words->size() < 2 || l.enc.Get(*words) != l.enc_value) return;
  const Vop3Field* field[3] = {&l.src0, &l.src1, &l.src2};
  const RegisterConvention& c = kRegisterConvention;
  auto lane_word = [](uint32_t code) {
    for (int f = 0; f < 3; ++f) {
      if (code == 256u + kRegisterConvention.vgpr[f]) return f;
    }
    return -1;
  };
  int stale[3] = {-1, -1, -1};  // the register a stale source names
  bool named[3] = {};            // one-dword lane word f's register is read as that lane word
  for (int s = 0; s < sources && s < 3; ++s) {
    const int f = shape.src_dwords[s] == 1 ? lane_word(field[s]->Get(*words)) : -1;
    if (f < 0) continue;
    if (shape.src_dwords[f] > 1) {
      stale[s] = c.vgpr[f];
    } else {
      named[f] = true;
    }
  }
  for (int s = 0; s < 3; ++s) {
    if (stale[s] < 0) continue;
    int to = -1;
    for (int f = 0; f < 3 && to < 0; ++f) {
      if ((*carry)[f] == stale[s]) to = f;  // another source named the same register
    }
    for (int f = 0; f < 3 && to < 0; ++f) {
      if (shape.src_dwords[f] == 1 && !named[f] && (*carry)[f] < 0) to = f;
    }
    if (to < 0) continue;  // no free lane word: at most two one-dword sources read, so one is free
    (*carry)[to] = stale[s];
    named[to] = true;
    field[s]->Set(256u + c.vgpr[to], absl::MakeSpan(*words));
  }
}

// What RunGrid knows once per launch.
struct Launch {
  const Kernel* k;
  const GridLaunch* g;
  const FlatMemory* mem;
  const Evaluator* eval;
  std::vector<Inst>* decoded;      // by (address - text) / 4
  std::vector<uint8_t>* have;      // decoded[i] valid
  Instr instr;                     // the patch site's instruction
  std::vector<uint32_t> words;     // its words (1 to 3)
  LaneShape shape;                 // the site's lane shape (GridLaunch::shape or the row's)
  int region_src[4] = {-1, -1, -1, -1};  // src0..src2, vdst_old (contract)
  int region_out = -1;
  std::vector<uint8_t>* stored;    // out words stored (contract)
};

class Wave {
 public:
  Wave(Launch& l, uint32_t workgroup, int wave_in_group, int lanes)
      : l_(l), k_(*l.k), f_(k_.target->family), w_(k_.wave_size), wg_(workgroup), wave_(wave_in_group),
        lanes_(lanes), v_(static_cast<size_t>(k_.vgprs) * 64), vdef_(k_.vgprs), vpend_(k_.vgprs),
        tags_(l.g->contract ? static_cast<size_t>(k_.vgprs) * 64 : 0) {
    lane_base_ = workgroup * l.g->workgroup_size + static_cast<uint32_t>(wave_in_group * w_);
  }

  absl::Status Run(RunStats* stats) {
    LANEDIFF_RETURN_IF_ERROR(Init());
    uint64_t pc = k_.entry;
    for (int count = 0;; ++count) {
      if (count >= kMaxWaveInstructions) {
        return Where(pc, "") (absl::StrCat("ran ", kMaxWaveInstructions, " instructions without s_endpgm"));
      }
      if (stats) ++stats->instructions;
      if (pc == k_.patch_site) {
        LANEDIFF_RETURN_IF_ERROR(Spliced(pc));
        pc += 4 * l_.words.size();
        after_mode_setreg_ = false;
        continue;
      }
      LANEDIFF_ASSIGN_OR_RETURN(const Inst* in, Fetch(pc));
      bool done = false;
      uint64_t next = pc + in->bytes;
      absl::Status s = Exec(*in, pc, &next, &done);
      if (!s.ok()) return Where(pc, Disassemble(f_, w_, *in))(s.message());
      if (done) return absl::OkStatus();
      pc = next;
    }
  }

 private:
  // Error prefix: "workgroup 1 wave 3 at 0x18d4 (global_store_dword v1, v4, s[12:13]): ".
  std::function<absl::Status(absl::string_view)> Where(uint64_t pc, const std::string& text) {
    return [this, pc, text](absl::string_view msg) {
      return absl::InternalError(absl::StrFormat("interpreter: %s wave%d, workgroup %d wave %d at 0x%x%s: %s",
                                                 k_.target->name, w_, wg_, wave_, pc,
                                                 text.empty() ? "" : absl::StrCat(" (", text, ")"), msg));
    };
  }

  absl::StatusOr<const Inst*> Fetch(uint64_t pc) {
    if (pc < k_.text_address || pc + 4 > k_.text_address + k_.text_size || pc % 4 != 0) {
      return Where(pc, "")("the program counter left the code section");
    }
    const size_t i = (pc - k_.text_address) / 4;
    if (!(*l_.have)[i]) {
      const size_t avail = (k_.text_address + k_.text_size - pc) / 4;
      std::vector<uint32_t> w(std::min<size_t>(avail, 3));
      std::memcpy(w.data(), k_.elf.data() + k_.text_offset + (pc - k_.text_address), 4 * w.size());
      absl::StatusOr<Inst> in = DecodeInst(f_, w_, w, pc);
      if (!in.ok()) return absl::Status(in.status().code(), absl::StrCat("interpreter: ", in.status().message()));
      (*l_.decoded)[i] = *in;
      (*l_.have)[i] = 1;
    }
    return &(*l_.decoded)[i];
  }

  absl::Status Init() {
    for (int i = 0; i < 128; ++i) s_[i] = 0;
    sdef_[0] = sdef_[1] = spend_[0] = spend_[1] = 0;
    const uint64_t ka = l_.g->kernarg;
    SetS(static_cast<uint16_t>(k_.kernarg_sgpr), static_cast<uint32_t>(ka));
    SetS(static_cast<uint16_t>(k_.kernarg_sgpr + 1), static_cast<uint32_t>(ka >> 32));
    if (k_.workgroup_id_sgpr >= 0) SetS(static_cast<uint16_t>(k_.workgroup_id_sgpr), wg_);
    if (f_ == Family::gfx12 || f_ == Family::gfx1250) {
      const uint32_t cs = l_.g->cluster_size;
      SetS(kTtmp0 + 9, cs == 0 ? wg_ : wg_ / cs);  // workgroup id x, or the cluster id
      SetS(kTtmp0 + 7, 0);                         // workgroup ids y, z
      SetS(kTtmp0 + 6, cs == 0 ? 0 : ((cs - 1) << 12) | (wg_ % cs));  // gfx1250 cluster fields
    }
    const uint64_t exec = lanes_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes_) - 1;
    SetS(kExecLo, static_cast<uint32_t>(exec));
    SetS(kExecHi, w_ == 64 ? static_cast<uint32_t>(exec >> 32) : 0);
    mode_ = k_.initial_mode;
    // v0: the work-item id x within the workgroup (packed ids put y, z at [19:10], [29:20]:
    // 0 in a 1-D launch, so the packed and unpacked layouts give the same v0).
    for (int i = 0; i < w_; ++i) v_[i] = static_cast<uint32_t>(wave_ * w_ + i);
    vdef_[0] = 1;
    return absl::OkStatus();
  }

  // ---- registers
  bool SDefined(uint16_t c) const { return (sdef_[c >> 6] >> (c & 63)) & 1; }
  void SetS(uint16_t c, uint32_t v) {
    if (c == NullCode(f_)) return;
    s_[c] = v;
    sdef_[c >> 6] |= uint64_t{1} << (c & 63);
    spend_[c >> 6] &= ~(uint64_t{1} << (c & 63));
  }
  absl::Status CheckSWritable(uint16_t c) {
    const int last = f_ == Family::gfx9 ? 101 : 105;
    if (c <= last || c == kVccLo || c == kVccHi || c == kExecLo || c == kExecHi || c == M0Code(f_) || c == NullCode(f_) ||
        (c >= kTtmp0 && c < kTtmp0 + 16)) {
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(absl::StrCat("writes operand ", ScalarName(f_, c, false), ", not a register"));
  }
  absl::StatusOr<uint32_t> S(uint16_t c, uint32_t literal) {
    if (c == kLiteral) return literal;
    if (c >= 128 && c <= 192) return static_cast<uint32_t>(c - 128);
    if (c >= 193 && c <= 208) return static_cast<uint32_t>(-(c - 192));
    if (c == NullCode(f_)) return 0u;
    if (c >= 128) return absl::UnimplementedError(absl::StrCat("reads operand code ", c, ", which the interpreter does not implement"));
    if (!SDefined(c)) {
      return absl::FailedPreconditionError(absl::StrCat("reads ", ScalarName(f_, c, false),
                                                        ", which nothing has written (not set up by the hardware from the descriptor)"));
    }
    if ((spend_[c >> 6] >> (c & 63)) & 1) {
      return absl::FailedPreconditionError(absl::StrCat(
          "reads ", ScalarName(f_, c, false), " before the wait for the scalar load that writes it (",
          f_ == Family::gfx12 || f_ == Family::gfx1250 ? "s_wait_kmcnt 0" : "s_waitcnt lgkmcnt(0)", ")"));
    }
    return s_[c];
  }
  absl::StatusOr<uint64_t> S64(uint16_t c) {
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t lo, S(c, 0));
    if (c >= 128) return uint64_t{lo};  // inline constants: zero-extended
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t hi, S(static_cast<uint16_t>(c + 1), 0));
    return uint64_t{lo} | uint64_t{hi} << 32;
  }
  uint64_t Exec() const { return w_ == 64 ? (uint64_t{s_[kExecLo]} | uint64_t{s_[kExecHi]} << 32) : s_[kExecLo]; }

  absl::Status CheckV(int r, bool read) {
    if (msb_ != 0) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "accesses v%d while the VGPR MSBs (MODE[19:12], s_set_vgpr_msb) are 0x%02x: it would reach v%d+", r, msb_, 256));
    }
    if (r >= k_.vgprs) {
      return absl::FailedPreconditionError(absl::StrCat("accesses v", r, ", beyond the ", k_.vgprs,
                                                        " VGPRs the descriptor allocates (GRANULATED_WORKITEM_VGPR_COUNT)"));
    }
    if (read && !vdef_[r]) return absl::FailedPreconditionError(absl::StrCat("reads v", r, ", which nothing has written"));
    if (read && vpend_[r]) {
      return absl::FailedPreconditionError(absl::StrCat(
          "reads v", r, " before the wait for the global load that writes it (",
          f_ == Family::gfx12 || f_ == Family::gfx1250 ? "s_wait_loadcnt" : "s_waitcnt vmcnt", ")"));
    }
    return absl::OkStatus();
  }
  // A VOP source for every lane: a VGPR's lanes or a uniform scalar value.
  absl::Status VSrc(uint16_t code, uint32_t literal, uint32_t* out) {
    if (code >= 256) {
      const int r = code - 256;
      LANEDIFF_RETURN_IF_ERROR(CheckV(r, true));
      std::copy_n(&v_[static_cast<size_t>(r) * 64], w_, out);
      return absl::OkStatus();
    }
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t u, S(code, literal));
    std::fill_n(out, w_, u);
    return absl::OkStatus();
  }
  absl::Status WriteV(int r, const uint32_t* vals, uint64_t exec) {
    LANEDIFF_RETURN_IF_ERROR(CheckV(r, false));
    for (int i = 0; i < w_; ++i) {
      if ((exec >> i) & 1) {
        v_[static_cast<size_t>(r) * 64 + i] = vals[i];
        if (!tags_.empty()) tags_[static_cast<size_t>(r) * 64 + i] = Tag{};
      }
    }
    vdef_[r] = 1;
    return absl::OkStatus();
  }

  // ---- memory
  absl::StatusOr<const Region*> Access(uint64_t addr, bool write, int lane, absl::string_view what) {
    const Region* r = l_.mem->Find(addr, 4);
    if (r == nullptr || addr % 4 != 0) {
      const uint32_t g = lane_base_ + static_cast<uint32_t>(lane);
      const bool past_n = l_.g->contract && g >= l_.g->contract->args.n;
      return absl::OutOfRangeError(absl::StrFormat(
          "%s%s lane %d (global lane %d): %s address 0x%x is %s (hipErrorIllegalAddress on a GPU)",
          past_n ? "harness fault: a lane >= n accesses memory (the bounds check is missing or wrong): " : "", what, lane,
          lane_base_ + static_cast<uint32_t>(lane), write ? "store" : "load", addr,
          r == nullptr ? "outside every buffer" : "not 4-byte aligned"));
    }
    if (write && !r->writable) {
      return absl::PermissionDeniedError(absl::StrFormat("lane %d stores to %s (read-only) at 0x%x", lane, r->name, addr));
    }
    return r;
  }

  // ---- the contract (GridLaunch::contract)
  std::string DescribeTag(const Tag& t) const {
    if (t.kind == Tag::load) return absl::StrCat(l_.mem->regions()[t.what].name, "[", t.index, "]");
    if (t.kind == Tag::result) return absl::StrCat("word ", static_cast<int>(t.what), " of lane ", t.index, "'s result");
    return "a value computed by the kernel (no load)";
  }

  absl::Status CheckOperands(uint64_t exec) {
    const Contract& c = *l_.g->contract;
    if ((mode_ & kKernelModeMask) != (c.args.mode & kKernelModeMask)) {
      return absl::InternalError(absl::StrFormat(
          "harness fault: the instruction runs under MODE 0x%08x but KernelArgs::mode is 0x%08x (MODE[7:0] and "
          "MODE[23] differ: 0x%08x vs 0x%08x): a MODE field is written to the wrong bit or not at all",
          mode_, c.args.mode, mode_ & kKernelModeMask, c.args.mode & kKernelModeMask));
    }
    for (int i = 0; i < w_; ++i) {
      if (!((exec >> i) & 1)) continue;
      const uint32_t g = lane_base_ + static_cast<uint32_t>(i);
      if (g >= c.args.n) {
        return absl::InternalError(absl::StrCat("harness fault: lane ", g, " runs the instruction under test but n = ",
                                                c.args.n, ": the bounds check (lane index < n) is missing or wrong"));
      }
      // Source s's dword k (register_convention.h SourceVgpr) from src_s[g * N + k]; vdst_old in v4.
      for (int s = 0; s < 4; ++s) {
        const int dwords = s < 3 ? l_.shape.src_dwords[s] : 1;
        for (int k = 0; k < dwords; ++k) {
          const int reg = s < 3 ? kRegisterConvention.SourceVgpr(l_.shape, s, k) : kRegisterConvention.vdst;
          const uint32_t want = g * static_cast<uint32_t>(dwords) + static_cast<uint32_t>(k);
          const Tag& t = tags_[static_cast<size_t>(reg) * 64 + i];
          if (t.kind != Tag::load || t.what != l_.region_src[s] || t.index != want) {
            return absl::InternalError(absl::StrCat(
                "harness fault: lane ", g, "'s v", reg, " (",
                s == 3 ? std::string("vdst_old") : dwords == 1 ? absl::StrCat("src", s) : absl::StrCat("src", s, " dword ", k),
                ") holds ", DescribeTag(t), ", expected ",
                l_.region_src[s] >= 0 ? l_.mem->regions()[l_.region_src[s]].name : "?", "[", want,
                "]: a wrong kernarg offset, buffer pointer or lane offset"));
          }
        }
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckStore(const Region* r, uint64_t addr, int lane, int data_vgpr) {
    const Contract& c = *l_.g->contract;
    const uint32_t g = lane_base_ + static_cast<uint32_t>(lane);
    if (l_.mem->IndexOf(r) != l_.region_out) {
      return absl::InternalError(absl::StrCat("harness fault: lane ", g, " stores to ", r->name, ", not to out"));
    }
    const uint64_t j = (addr - r->base) / 4, w = l_.shape.dst_words, lanes_words = uint64_t{c.args.n} * w;
    const Tag& t = tags_[static_cast<size_t>(data_vgpr) * 64 + lane];
    if (j > lanes_words) {
      return absl::InternalError(absl::StrCat("harness fault: lane ", g, " stores out[", j, "], past out[n * dst_words] = out[",
                                              lanes_words, "] (", g >= c.args.n ? "a lane >= n stores: the bounds check is missing"
                                                                                : "a wrong store offset", ")"));
    }
    if (j < lanes_words) {
      const uint64_t want_lane = j / w, want_word = j % w;
      if (t.kind == Tag::result && t.index == g && t.index == want_lane && t.what != want_word) {
        return absl::InternalError(absl::StrCat("harness fault: out[", j, "] receives VDST+", static_cast<int>(t.what),
                                                " of lane ", g, ", expected VDST+", want_word,
                                                w == 2 ? ": the pair's words are swapped"
                                                       : ": the lane's words are out of order (a store one slot off)"));
      }
      if (t.kind == Tag::result && t.index == g && g != want_lane) {
        return absl::InternalError(absl::StrCat("harness fault: lane ", g, " stores its result to out[", j, "], lane ",
                                                want_lane, "'s slot: a store to the wrong lane slot"));
      }
      if (t.kind != Tag::result || t.index != want_lane || t.what != want_word) {
        return absl::InternalError(absl::StrCat("harness fault: out[", j, "] (lane ", want_lane, "'s VDST+", want_word,
                                                ") receives ", DescribeTag(t), " from lane ", g,
                                                ": the store writes the wrong register or slot"));
      }
    }
    if ((*l_.stored)[j] < 255) (*l_.stored)[j] += 1;  // every lane stores the MODE readback
    return absl::OkStatus();
  }

  // ---- the instruction under test
  absl::Status Spliced(uint64_t pc) {
    auto where = Where(pc, absl::StrCat("patch site: ", InstrName(l_.instr)));
    if (msb_ != 0 && f_ == Family::gfx1250) return where("runs with non-zero VGPR MSBs");
    const uint64_t exec = Exec();
    // The convention's registers: v1..v4 per lane, s20..s22 uniform.
    const RegisterConvention& rc = kRegisterConvention;
    DeviceBatch b;
    b.target = k_.target;
    b.instr = l_.instr;
    b.words = l_.words;
    b.mode = mode_;
    b.allow_undefined = true;  // the runner checked the batch before the launch
    for (int i = 0; i < 3; ++i) {
      absl::StatusOr<uint32_t> v = S(rc.sgpr[i], 0);
      if (!v.ok()) return where(v.status().message());
      b.sgpr_values[i] = *v;
    }
    // Each source's dwords (v1..v3, or a tuple: SourceVgpr; a one-dword lane word may carry
    // another register, RenameStaleSources) and vdst_old (v4), as read.
    const LaneShape& shape = l_.shape;
    std::array<int, 3> carry = {-1, -1, -1};
    RenameStaleSources(f_, shape, GetInstrInfo(l_.instr).sources(), &b.words, &carry);
    auto source_vgpr = [&](int s, int k) { return s < 3 && carry[s] >= 0 ? carry[s] : rc.SourceVgpr(shape, s, k); };
    for (int s = 0; s < 4; ++s) {
      for (int k = 0; k < (s < 3 ? shape.src_dwords[s] : 1); ++k) {
        const int r = s < 3 ? source_vgpr(s, k) : rc.vdst;
        if (absl::Status st = CheckV(r, true); !st.ok()) return where(st.message());
      }
    }
    if (l_.g->contract) {
      if (absl::Status s = CheckOperands(exec); !s.ok()) return where(s.message());
    }
    int active[64], n = 0;
    for (int i = 0; i < w_; ++i) {
      if ((exec >> i) & 1) active[n++] = i;
    }
    if (n == 0) return absl::OkStatus();
    b.lanes.SetShape(shape);
    b.lanes.Resize(n);
    for (int s = 0; s < 3; ++s) {
      const int dwords = shape.src_dwords[s];
      for (int j = 0; j < n; ++j) {
        for (int k = 0; k < dwords; ++k) {
          b.lanes.src(s)[static_cast<size_t>(j * dwords + k)] =
              v_[static_cast<size_t>(source_vgpr(s, k)) * 64 + active[j]];
        }
      }
    }
    for (int j = 0; j < n; ++j) b.lanes.vdst_old()[j] = v_[static_cast<size_t>(rc.vdst) * 64 + active[j]];
    const int dst_words = shape.dst_words;
    std::vector<uint32_t> out(static_cast<size_t>(n) * dst_words);
    if (absl::Status s = (*l_.eval)(b, absl::MakeSpan(out)); !s.ok()) return where(s.message());
    for (int word = 0; word < dst_words; ++word) {
      const int r = rc.vdst + word;
      if (absl::Status s = CheckV(r, false); !s.ok()) return where(s.message());
      for (int j = 0; j < n; ++j) {
        v_[static_cast<size_t>(r) * 64 + active[j]] = out[static_cast<size_t>(j) * dst_words + word];
        if (!tags_.empty()) {
          tags_[static_cast<size_t>(r) * 64 + active[j]] =
              Tag{Tag::result, static_cast<uint8_t>(word), lane_base_ + static_cast<uint32_t>(active[j])};
        }
      }
      vdef_[r] = 1;
    }
    return absl::OkStatus();
  }

  // ---- waits: scalar loads return out of order (only a wait for 0 retires them); vector
  // loads in order.
  void WaitScalar(int n) {
    if (n == 0) spend_[0] = spend_[1] = 0;
  }
  void WaitVector(int n) {
    while (static_cast<int>(vm_.size()) > n) {
      if (vm_.front() >= 0) vpend_[vm_.front()] = 0;
      vm_.pop_front();
    }
  }

  absl::Status HwReg(uint32_t simm16, int* id, int* offset, int* size) {
    *id = simm16 & 0x3f, *offset = (simm16 >> 6) & 0x1f, *size = ((simm16 >> 11) & 0x1f) + 1;
    if (*id == kHwRegMode || (*id == kHwRegIbSts2 && f_ == Family::gfx1250)) return absl::OkStatus();
    return absl::UnimplementedError(absl::StrCat("hwreg id ", *id, " is not one the interpreter implements"));
  }

  absl::Status SetMode(uint32_t simm16, uint32_t value) {
    int id, offset, size;
    LANEDIFF_RETURN_IF_ERROR(HwReg(simm16, &id, &offset, &size));
    if (id != kHwRegMode) return absl::UnimplementedError("s_setreg of a hwreg other than MODE");
    const uint32_t mask = static_cast<uint32_t>(((uint64_t{1} << size) - 1) << offset);
    mode_ = (mode_ & ~mask) | ((value << offset) & mask);
    if (f_ == Family::gfx1250) {
      // gfx1250: an S_SETREG of MODE also writes the VGPR-MSB bits MODE[19:12] whatever its
      // size field says (kernels/gfx1250.s); taken here as the shifted value's bits [19:12].
      msb_ = static_cast<uint8_t>(((value << offset) >> 12) & 0xff);
      mode_ = (mode_ & ~0xff000u) | (uint32_t{msb_} << 12);
      after_mode_setreg_ = true;
    }
    return absl::OkStatus();
  }

  // s_load_b128, s_load_b256: SGPRs from memory at SBASE + offset.
  absl::Status ExecScalarLoad(const Inst& in) {
    LANEDIFF_ASSIGN_OR_RETURN(uint64_t base, S64(in.sbase));
    const uint64_t addr = base + static_cast<int64_t>(in.imm);
    const int words = in.op == Op::s_load_b128 ? 4 : 8;
    const Region* r = l_.mem->Find(addr, 4u * words);
    if (r == nullptr || addr % 4 != 0) {
      return absl::OutOfRangeError(absl::StrFormat("scalar load of %d bytes at 0x%x is outside every buffer or misaligned",
                                                   4 * words, addr));
    }
    for (int i = 0; i < words; ++i) {
      const uint16_t d = static_cast<uint16_t>(in.dst + i);
      LANEDIFF_RETURN_IF_ERROR(CheckSWritable(d));
      uint32_t v;
      std::memcpy(&v, reinterpret_cast<const void*>(addr + 4u * i), 4);
      SetS(d, v);
      spend_[d >> 6] |= uint64_t{1} << (d & 63);
    }
    return absl::OkStatus();
  }

  // s_and_saveexec_b32/b64: the old EXEC to the destination, then EXEC &= source.
  absl::Status ExecAndSaveExec(const Inst& in) {
    const bool b64 = in.op == Op::s_and_saveexec_b64;
    if (b64 != (w_ == 64)) return absl::InvalidArgumentError(absl::StrCat(in.name, " in a wave", w_, " kernel"));
    LANEDIFF_RETURN_IF_ERROR(CheckSWritable(in.dst));
    if (b64) {
      LANEDIFF_ASSIGN_OR_RETURN(uint64_t a, S64(in.src0));
      const uint64_t old = Exec(), e = a & old;
      SetS(in.dst, static_cast<uint32_t>(old));
      SetS(static_cast<uint16_t>(in.dst + 1), static_cast<uint32_t>(old >> 32));
      SetS(kExecLo, static_cast<uint32_t>(e));
      SetS(kExecHi, static_cast<uint32_t>(e >> 32));
      scc_ = e != 0;
    } else {
      LANEDIFF_ASSIGN_OR_RETURN(uint32_t a, S(in.src0, in.literal));
      const uint32_t old = s_[kExecLo], e = a & old;
      SetS(in.dst, old);
      SetS(kExecLo, e);
      scc_ = e != 0;
    }
    return absl::OkStatus();
  }

  // The two-source scalar ALU operations: s_and_b32, s_lshl_b32, s_cselect_b32, s_bfe_u32,
  // s_add_i32, s_mul_i32.
  absl::Status ExecScalarAlu(const Inst& in) {
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t a, S(in.src0, in.literal));
    LANEDIFF_ASSIGN_OR_RETURN(uint32_t b, S(in.src1, in.literal));
    LANEDIFF_RETURN_IF_ERROR(CheckSWritable(in.dst));
    uint32_t d = 0;
    switch (in.op) {
      case Op::s_and_b32: d = a & b, scc_ = d != 0; break;
      case Op::s_lshl_b32: d = a << (b & 31), scc_ = d != 0; break;
      case Op::s_cselect_b32: d = scc_ ? a : b; break;
      case Op::s_bfe_u32: {
        const uint32_t off = b & 31, width = (b >> 16) & 0x7f;
        d = static_cast<uint32_t>((uint64_t{a} >> off) & ((uint64_t{1} << std::min<uint32_t>(width, 32)) - 1));
        scc_ = d != 0;
        break;
      }
      case Op::s_add_i32: {
        d = a + b;
        scc_ = ((~(a ^ b)) & (a ^ d)) >> 31;  // signed overflow
        break;
      }
      case Op::s_mul_i32: d = a * b; break;
      default: break;
    }
    SetS(in.dst, d);
    return absl::OkStatus();
  }

  // s_getreg_b32: MODE, or IB_STS2.
  absl::Status ExecGetReg(const Inst& in) {
    int id, offset, size;
    LANEDIFF_RETURN_IF_ERROR(HwReg(static_cast<uint32_t>(in.imm), &id, &offset, &size));
    // IB_STS2[9:6]: non-zero with workgroup clusters (GridLaunch::cluster_size).
    const uint32_t reg = id == kHwRegMode ? mode_ : l_.g->cluster_size != 0 ? 1u << 6 : 0u;
    LANEDIFF_RETURN_IF_ERROR(CheckSWritable(in.dst));
    SetS(in.dst, static_cast<uint32_t>((uint64_t{reg} >> offset) & ((uint64_t{1} << size) - 1)));
    return absl::OkStatus();
  }

  // s_waitcnt: the vector and scalar memory counters as each family packs them.
  absl::Status ExecWaitcnt(const Inst& in) {
    const uint32_t s = static_cast<uint32_t>(in.imm);
    int vm, lgkm;
    if (f_ == Family::gfx11) {
      vm = (s >> 10) & 0x3f, lgkm = (s >> 4) & 0x3f;
    } else {
      vm = (s & 0xf) | (((s >> 14) & 3) << 4);
      lgkm = f_ == Family::gfx9 ? (s >> 8) & 0xf : (s >> 8) & 0x3f;
    }
    WaitVector(vm);
    WaitScalar(lgkm);
    return absl::OkStatus();
  }

  // v_mov_b32, v_and_b32, v_add_u32, v_lshlrev_b32, v_mul_u32_u24 on the lanes in `exec`.
  absl::Status ExecVectorAlu(const Inst& in, uint64_t exec) {
    uint32_t a[64], b[64], d[64];
    LANEDIFF_RETURN_IF_ERROR(VSrc(in.src0, in.literal, a));
    if (in.op != Op::v_mov_b32) LANEDIFF_RETURN_IF_ERROR(VSrc(static_cast<uint16_t>(256 + in.src1), 0, b));
    for (int i = 0; i < w_; ++i) {
      switch (in.op) {
        case Op::v_mov_b32: d[i] = a[i]; break;
        case Op::v_and_b32: d[i] = a[i] & b[i]; break;
        case Op::v_add_u32: d[i] = a[i] + b[i]; break;
        case Op::v_mul_u32_u24: d[i] = (a[i] & 0xffffff) * (b[i] & 0xffffff); break;  // low 32 bits
        default: d[i] = b[i] << (a[i] & 31); break;  // v_lshlrev_b32: src0 is the shift
      }
    }
    return WriteV(in.dst, d, exec);
  }

  // v_cmp_gt_u32: the lane mask to VCC (inactive lanes 0).
  absl::Status ExecVectorCompare(const Inst& in, uint64_t exec) {
    uint32_t a[64], b[64];
    LANEDIFF_RETURN_IF_ERROR(VSrc(in.src0, in.literal, a));
    LANEDIFF_RETURN_IF_ERROR(VSrc(static_cast<uint16_t>(256 + in.src1), 0, b));
    uint64_t m = 0;
    for (int i = 0; i < w_; ++i) {
      if (((exec >> i) & 1) && a[i] > b[i]) m |= uint64_t{1} << i;  // inactive lanes write 0
    }
    SetS(kVccLo, static_cast<uint32_t>(m));
    if (w_ == 64) SetS(kVccHi, static_cast<uint32_t>(m >> 32));
    return absl::OkStatus();
  }

  // global_load_b32, global_store_b32, global_prefetch_b8 with an SGPR base (SADDR).
  absl::Status ExecGlobal(const Inst& in, uint64_t exec) {
    if (in.sbase == NullCode(f_) || (f_ == Family::gfx9 && in.sbase == 0x7f)) {
      return absl::UnimplementedError("global access with 64-bit VGPR addresses (SADDR off)");
    }
    LANEDIFF_ASSIGN_OR_RETURN(uint64_t base, S64(in.sbase));
    LANEDIFF_RETURN_IF_ERROR(CheckV(in.src0, true));
    if (in.op == Op::global_prefetch_b8) return absl::OkStatus();  // no architectural effect
    const bool store = in.op == Op::global_store_b32;
    if (store) {
      LANEDIFF_RETURN_IF_ERROR(CheckV(in.src1, true));
    } else {
      LANEDIFF_RETURN_IF_ERROR(CheckV(in.dst, false));
    }
    for (int i = 0; i < w_; ++i) {
      if (!((exec >> i) & 1)) continue;
      const uint64_t addr = base + v_[static_cast<size_t>(in.src0) * 64 + i] + static_cast<int64_t>(in.imm);
      LANEDIFF_ASSIGN_OR_RETURN(const Region* r, Access(addr, store, i, in.name));
      if (store) {
        if (l_.g->contract) LANEDIFF_RETURN_IF_ERROR(CheckStore(r, addr, i, in.src1));
        std::memcpy(reinterpret_cast<void*>(addr), &v_[static_cast<size_t>(in.src1) * 64 + i], 4);
      } else {
        std::memcpy(&v_[static_cast<size_t>(in.dst) * 64 + i], reinterpret_cast<const void*>(addr), 4);
        if (!tags_.empty()) {
          tags_[static_cast<size_t>(in.dst) * 64 + i] =
              Tag{Tag::load, static_cast<uint8_t>(l_.mem->IndexOf(r)), static_cast<uint32_t>((addr - r->base) / 4)};
        }
      }
    }
    if (!store) {
      vdef_[in.dst] = 1;
      vpend_[in.dst] = 1;
      vm_.push_back(in.dst);
    } else if (f_ == Family::gfx9) {
      vm_.push_back(-1);  // GFX9 counts stores in vmcnt too
    }
    return absl::OkStatus();
  }

  absl::Status Exec(const Inst& in, uint64_t pc, uint64_t* next, bool* done) {
    const bool after_setreg = after_mode_setreg_;
    after_mode_setreg_ = false;
    const uint64_t exec = Exec();
    switch (in.op) {
      case Op::s_load_b128:
      case Op::s_load_b256:
        return ExecScalarLoad(in);
      case Op::s_mov_b32: {
        LANEDIFF_ASSIGN_OR_RETURN(uint32_t a, S(in.src0, in.literal));
        LANEDIFF_RETURN_IF_ERROR(CheckSWritable(in.dst));
        SetS(in.dst, a);
        return absl::OkStatus();
      }
      case Op::s_mov_b64: {
        LANEDIFF_ASSIGN_OR_RETURN(uint64_t a, S64(in.src0));
        LANEDIFF_RETURN_IF_ERROR(CheckSWritable(in.dst));
        SetS(in.dst, static_cast<uint32_t>(a));
        SetS(static_cast<uint16_t>(in.dst + 1), static_cast<uint32_t>(a >> 32));
        return absl::OkStatus();
      }
      case Op::s_and_saveexec_b32:
      case Op::s_and_saveexec_b64:
        return ExecAndSaveExec(in);
      case Op::s_and_b32:
      case Op::s_lshl_b32:
      case Op::s_cselect_b32:
      case Op::s_bfe_u32:
      case Op::s_add_i32:
      case Op::s_mul_i32:
        return ExecScalarAlu(in);
      case Op::s_cmp_eq_u32: {
        LANEDIFF_ASSIGN_OR_RETURN(uint32_t a, S(in.src0, in.literal));
        LANEDIFF_ASSIGN_OR_RETURN(uint32_t b, S(in.src1, in.literal));
        scc_ = a == b;
        return absl::OkStatus();
      }
      case Op::s_getreg_b32:
        return ExecGetReg(in);
      case Op::s_setreg_b32: {
        LANEDIFF_ASSIGN_OR_RETURN(uint32_t v, S(in.dst, 0));
        return SetMode(static_cast<uint32_t>(in.imm), v);
      }
      case Op::s_setreg_imm32_b32: return SetMode(static_cast<uint32_t>(in.imm), in.literal);
      case Op::s_set_vgpr_msb:
        if (after_setreg) {
          return absl::FailedPreconditionError(
              "hazard: s_set_vgpr_msb right after an s_setreg of MODE can be dropped on gfx1250 (kernels/gfx1250.s "
              "puts an s_nop 0 between)");
        }
        msb_ = static_cast<uint8_t>(in.imm & 0xff);
        mode_ = (mode_ & ~0xff000u) | (uint32_t{msb_} << 12);
        return absl::OkStatus();
      case Op::s_nop:
      case Op::s_wait_alu:
      case Op::v_nop: return absl::OkStatus();
      case Op::s_endpgm: *done = true; return absl::OkStatus();
      case Op::s_cbranch_scc1:
      case Op::s_cbranch_execz: {
        const bool taken = in.op == Op::s_cbranch_scc1 ? scc_ : exec == 0;
        if (taken) *next = pc + 4 + static_cast<int64_t>(in.imm) * 4;
        return absl::OkStatus();
      }
      case Op::s_waitcnt:
        return ExecWaitcnt(in);
      case Op::s_wait_kmcnt: WaitScalar(in.imm); return absl::OkStatus();
      case Op::s_wait_loadcnt: WaitVector(in.imm); return absl::OkStatus();
      case Op::v_mov_b32:
      case Op::v_and_b32:
      case Op::v_add_u32:
      case Op::v_lshlrev_b32:
      case Op::v_mul_u32_u24:
        return ExecVectorAlu(in, exec);
      case Op::v_cmp_gt_u32:
        return ExecVectorCompare(in, exec);
      case Op::global_load_b32:
      case Op::global_store_b32:
      case Op::global_prefetch_b8:
        return ExecGlobal(in, exec);
    }
    return absl::UnimplementedError(absl::StrCat("no semantics for ", in.name));
  }

  Launch& l_;
  const Kernel& k_;
  Family f_;
  int w_;
  uint32_t wg_;
  int wave_;
  int lanes_;
  uint32_t lane_base_ = 0;
  uint32_t s_[128] = {};
  uint64_t sdef_[2] = {}, spend_[2] = {};
  bool scc_ = false;
  uint32_t mode_ = 0;
  uint8_t msb_ = 0;
  bool after_mode_setreg_ = false;
  std::vector<uint32_t> v_;
  std::vector<uint8_t> vdef_, vpend_;
  std::vector<Tag> tags_;
  std::deque<int> vm_;
};

}  // namespace

absl::Status RunGrid(const Kernel& kernel, const GridLaunch& launch, const FlatMemory& memory,
                     const Evaluator& evaluate, RunStats* stats) {
  if (launch.workgroup_size == 0 || launch.workgroup_size > 1024) {
    return absl::InvalidArgumentError(absl::StrCat("workgroup size ", launch.workgroup_size));
  }
  if (launch.cluster_size != 0 &&
      (kernel.target->family != Family::gfx1250 || launch.cluster_size > 16 || launch.workgroups % launch.cluster_size != 0)) {
    return absl::InvalidArgumentError(absl::StrCat("clusters of ", launch.cluster_size, " workgroups: gfx1250 only, 1 to 16, "
                                                   "dividing the grid of ", launch.workgroups));
  }
  if (memory.Find(launch.kernarg, kernel.kd.kernarg_size) == nullptr) {
    return absl::InvalidArgumentError(absl::StrFormat("the kernarg segment (0x%x, %d bytes per the descriptor) is in no buffer",
                                                      launch.kernarg, kernel.kd.kernarg_size));
  }
  // The patch site's instruction, decoded once by the model's decoder.
  std::vector<uint32_t> site(3);
  const uint64_t so = kernel.text_offset + (kernel.patch_site - kernel.text_address);
  std::memcpy(site.data(), kernel.elf.data() + so, 12);
  LANEDIFF_ASSIGN_OR_RETURN(DecodedVop3 d, DecodeVop3Fields(*kernel.target, site));
  site.resize(static_cast<size_t>(d.words_used));
  absl::StatusOr<Instr> instr = CheckPatchWords(*kernel.target, site);
  if (!instr.ok()) return absl::Status(instr.status().code(), absl::StrCat("interpreter: patch site: ", instr.status().message()));
  std::vector<Inst> decoded(kernel.text_size / 4 + 1);
  std::vector<uint8_t> have(decoded.size());
  std::vector<uint8_t> stored;
  const LaneShape shape = launch.shape.value_or(GetInstrInfo(*instr).lane_shape());
  if (!KernelRuns(kernel.target->family, shape)) {
    // "unsupported" (device_harness/fault.h), as the HIP runner answers the same shapes.
    return Unsupported(absl::StrCat(
        "interpreter: the ", FamilyName(kernel.target->family), " kernel does not take ", shape.src_dwords[0], "/",
        shape.src_dwords[1], "/", shape.src_dwords[2], " source dwords and ", shape.dst_words,
        " VDST words per lane (code_object.h KernelCapacity)"));
  }
  Launch l{&kernel, &launch, &memory, &evaluate, &decoded, &have, *instr, site, shape, {}, -1, &stored};
  if (launch.contract && launch.contract->args.shape != KernelShapeWord(shape)) {
    return absl::InternalError(absl::StrFormat(
        "harness fault: KernelArgs::shape is 0x%08x but the instruction moves 0x%08x (KernelShapeWord): the "
        "kernel would load and store another lane layout than the host's buffers", launch.contract->args.shape,
        KernelShapeWord(shape)));
  }
  if (launch.contract) {
    static const char* kNames[] = {"src0", "src1", "src2", "vdst_old"};
    for (size_t i = 0; i < memory.regions().size(); ++i) {
      for (int k = 0; k < 4; ++k) {
        if (memory.regions()[i].name == kNames[k]) l.region_src[k] = static_cast<int>(i);
      }
      if (memory.regions()[i].name == "out") l.region_out = static_cast<int>(i);
    }
    if (l.region_out < 0 || *std::min_element(l.region_src, l.region_src + 4) < 0) {
      return absl::InvalidArgumentError("contract check needs regions named src0, src1, src2, vdst_old and out");
    }
    stored.assign(memory.regions()[l.region_out].size / 4, 0);
  }
  const int waves_per_group = static_cast<int>((launch.workgroup_size + kernel.wave_size - 1) / kernel.wave_size);
  for (uint32_t wg = 0; wg < launch.workgroups; ++wg) {
    for (int wv = 0; wv < waves_per_group; ++wv) {
      const int lanes = std::min<int>(kernel.wave_size, static_cast<int>(launch.workgroup_size) - wv * kernel.wave_size);
      Wave wave(l, wg, wv, lanes);
      LANEDIFF_RETURN_IF_ERROR(wave.Run(stats));
      if (stats) ++stats->waves, stats->lanes += static_cast<uint64_t>(lanes);
    }
  }
  if (launch.contract) {
    const KernelArgs& a = launch.contract->args;
    const uint64_t w = shape.dst_words, words = uint64_t{a.n} * w;
    for (uint64_t j = 0; j <= words && j < stored.size(); ++j) {
      if (j == words ? stored[j] == 0 : stored[j] != 1) {
        return absl::InternalError(absl::StrCat(
            "harness fault: out[", j, "] ", j == words ? "(the MODE readback)" : absl::StrCat("(lane ", j / w, "'s VDST+", j % w, ")"),
            " is stored ", static_cast<int>(stored[j]), " times, expected ", j == words ? "at least once" : "once",
            ": a store is missing or goes to the wrong lane slot"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<DeviceResult> RunBatch(const DeviceBatch& batch, int wave_size, const Evaluator& evaluate,
                                      absl::Span<const uint8_t> elf, RunStats* stats, uint32_t cluster_size) {
  const LaneShape row = GetInstrInfo(batch.instr).lane_shape();
  if (!batch.lanes.shape().same_sources(row)) {
    return absl::InvalidArgumentError(absl::StrCat("the batch's lanes are not in ", InstrName(batch.instr),
                                                   "'s row's shape (LaneShape)"));
  }
  return RunBatchAs(batch, row, wave_size, evaluate, elf, stats, cluster_size);
}

absl::StatusOr<DeviceResult> RunBatchAs(const DeviceBatch& batch, const LaneShape& shape, int wave_size,
                                        const Evaluator& evaluate, absl::Span<const uint8_t> elf, RunStats* stats,
                                        uint32_t cluster_size) {
  if (batch.target == nullptr) return absl::InvalidArgumentError("batch has no target");
  const TargetTraits& t = *batch.target;
  CodeObjectView co;
  if (elf.empty()) {
    LANEDIFF_ASSIGN_OR_RETURN(co, FindCodeObject(t.name, wave_size));
  } else {
    co = CodeObjectView{&t, wave_size, elf};
  }
  LANEDIFF_ASSIGN_OR_RETURN(std::vector<uint8_t> image, PatchCodeObject(co, batch.words));
  LANEDIFF_ASSIGN_OR_RETURN(Kernel k, LoadKernel(t, wave_size, image));
  const size_t n = batch.lanes.size();
  const LaneView lv = batch.lanes.view();
  if (!lv.shape.same_sources(shape)) return absl::InvalidArgumentError("the batch's lanes are not in the shape asked");
  const size_t w = shape.dst_words;
  std::vector<uint32_t> in[4] = {{lv.src0, lv.src0 + n * shape.src_dwords[0]},
                                 {lv.src1, lv.src1 + n * shape.src_dwords[1]},
                                 {lv.src2, lv.src2 + n * shape.src_dwords[2]},
                                 {lv.vdst_old, lv.vdst_old + n}};
  std::vector<uint32_t> out(n * w + 1, 0xA5A5A5A5u);
  KernelArgs args;
  auto addr = [](const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); };
  args.src0 = addr(in[0].data());
  args.src1 = addr(in[1].data());
  args.src2 = addr(in[2].data());
  args.vdst_old = addr(in[3].data());
  args.out = addr(out.data());
  args.n = static_cast<uint32_t>(n);
  args.mode = batch.mode;
  for (int i = 0; i < 3; ++i) args.sgpr[i] = batch.sgpr_values[i];
  args.shape = KernelShapeWord(shape);
  FlatMemory mem;
  mem.Add("kernarg", addr(&args), sizeof(args), false);
  static const char* kNames[] = {"src0", "src1", "src2", "vdst_old"};
  for (int i = 0; i < 4; ++i) mem.Add(kNames[i], addr(in[i].data()), 4 * in[i].size(), false);
  mem.Add("out", addr(out.data()), 4 * out.size(), true);
  GridLaunch g;
  g.workgroups = static_cast<uint32_t>(std::max<size_t>(1, (n + kKernelWorkgroupSize - 1) / kKernelWorkgroupSize));
  g.workgroup_size = kKernelWorkgroupSize;
  g.kernarg = addr(&args);
  g.contract = Contract{args};
  g.shape = shape;
  g.cluster_size = cluster_size;
  if (cluster_size != 0) g.workgroups = (g.workgroups + cluster_size - 1) / cluster_size * cluster_size;
  LANEDIFF_RETURN_IF_ERROR(RunGrid(k, g, mem, evaluate, stats));
  DeviceResult r;
  r.vdst.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n * w));
  r.mode_readback = out[n * w];
  LANEDIFF_RETURN_IF_ERROR(CheckModeReadback(batch, r));
  r.provenance.set_runner("interp");
  r.provenance.set_target(std::string(t.name));
  return r;
}

namespace {

class InterpRunner : public Runner {
 public:
  explicit InterpRunner(std::unique_ptr<Runner> sim) : sim_(std::move(sim)) {}
  std::string Describe() const override {
    return absl::StrCat("interp (the harness kernel interpreted, the instruction on ", sim_->Describe(), ")");
  }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    if (batch.target == nullptr) return absl::InvalidArgumentError("batch has no target");
    // The same refusals as the simulator, before anything runs.
    LANEDIFF_RETURN_IF_ERROR(DecodeDeviceBatch(batch, batch.words).status());
    LANEDIFF_ASSIGN_OR_RETURN(DeviceResult r,
                              RunBatch(batch, batch.target->DefaultWaveSize(), RunnerEvaluator(sim_.get())));
    r.provenance.set_runner("interp");
    r.provenance.set_device(std::string(kSimDeviceName));
    return r;
  }

 private:
  std::unique_ptr<Runner> sim_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Runner>> OpenInterpRunner(const SimOptions& options) {
  LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> sim, OpenSimRunner(options));
  return std::unique_ptr<Runner>(new InterpRunner(std::move(sim)));
}

}  // namespace lanediff::interp
