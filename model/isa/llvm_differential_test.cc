// Differential test against LLVM 22 (llvm-mc-22, the independent oracle), per instruction row
// x target x form. The forms come from the row's encoding family (FormsOf below: a row of a
// new Encoding does not compile until its forms are listed), so every row of model/instrs.def
// is covered on every target that has it, with nothing per instruction here.
//  1. N random LEGAL encodings per (row, target, form), op_sel/byte_sel, clamp, neg and abs
//     drawn wherever LLVM accepts them (a 16-bit SRC0, InstrInfo::src_bits: 16-bit literals):
//     our encoding == llvm-mc's encoding of our printed text (one llvm-mc process per target
//     for all rows and forms).
//  2. N random raw words per (row, target, form) (our opcode, every other field random:
//     OPSEL, NEG, ABS, CLAMP, OMOD and any 9-bit operand code; on the GFX9 SDWA form every
//     field of the SDWA dword: SRC0 and S0, DST_SEL, DST_UNUSED, CLAMP, OMOD, SRC0_SEL,
//     SRC0_SEXT/NEG/ABS, and the bits no VOP1 field owns): our decoder's validity and text
//     == llvm-mc --disassemble's, after the known differences in llvm_differences.cc (two
//     llvm-mc processes per target and 16,000 words, more where llvm-mc crashes on a word).
// Any other disagreement fails the test and prints the word and both readings.
//
// N = LANEDIFF_LLVM_PER_FORM (default 500: the default CTest run; the slow-labelled
// model_isa_llvm_full_test runs 10,000). Fixed seeds. Without llvm-mc-22 it exits 77 (CTest's
// skip) and says why.
#include <stdlib.h>  // mkdtemp

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "model/isa/llvm_differences.h"
#include "model/isa/operands.h"
#include "model/isa/tables.h"
#include "model/isa/vop3.h"

namespace lanediff {
namespace {

// Random encodings per (row, target, form), for the legal and the raw half each.
int PerForm() {
  const char* env = std::getenv("LANEDIFF_LLVM_PER_FORM");
  const int n = env != nullptr ? std::atoi(env) : 500;
  return n > 0 ? n : 500;
}
constexpr int kMaxRawPerBatch = 16000;  // < 16384: 4 sentinels each in a 16-bit imm

// How an instruction can be encoded on a target: the forms its row's encoding family gives
// there (vop3.h HasForm: VOP3 rows e64; VOP1 rows e64, e32 and, on GFX9, SDWA).
using Form = InstrForm;
absl::string_view FormName(Form f) { return InstrFormName(f); }
std::vector<Form> FormsOf(const TargetTraits& t, Instr instr) {
  std::vector<Form> out;
  for (Form f : {InstrForm::e64, InstrForm::e32, InstrForm::sdwa}) {
    if (HasForm(t, instr, f)) out.push_back(f);
  }
  return out;
}

// Every (row, target, form) to check: the rows the target has (only the mnemonics of
// LANEDIFF_LLVM_INSTRS, comma-separated, where it is set: a run on a few rows).
struct Subject {
  Instr instr;
  Form form;
};
bool Selected(Instr i) {
  const char* env = std::getenv("LANEDIFF_LLVM_INSTRS");
  if (env == nullptr || *env == '\0') return true;
  for (absl::string_view name : absl::StrSplit(env, ',')) {
    if (name == InstrName(i)) return true;
  }
  return false;
}
std::vector<Subject> SubjectsOf(const TargetTraits& t) {
  std::vector<Subject> out;
  for (Instr i : kAllInstrs) {
    if (!t.Has(i) || !Selected(i)) continue;
    const std::vector<Form> forms = FormsOf(t, i);
    if (forms.empty()) {
      ADD_FAILURE() << InstrName(i) << " on " << t.name << ": its row gives no form (HasForm)";
    }
    for (Form f : forms) out.push_back({i, f});
  }
  return out;
}

void SkipWithoutLlvmMc();

struct McRun {
  std::string out, err;
  int rc = 0;
};

std::string ReadFile(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// One llvm-mc process for a whole batch: stdin from a file, stdout and stderr to files.
McRun LlvmMc(const std::string& mcpu, const std::string& mode, const std::string& input) {
  // A private directory per process: other builds may run this test at the same time.
  static const std::string dir = [] {
    std::string tmpl = absl::StrCat(::testing::TempDir(), "/lanediff_llvm_XXXXXX");
    const char* made = mkdtemp(tmpl.data());
    return std::string(made != nullptr ? made : ::testing::TempDir());
  }();
  // Removes the directory's files when the process ends (kept, and named on stdout, with
  // LANEDIFF_LLVM_KEEP=1: to rerun llvm-mc on a batch by hand).
  static const struct Cleanup {
    ~Cleanup() {
      if (std::getenv("LANEDIFF_LLVM_KEEP") != nullptr) {
        std::printf("llvm-mc batches kept in %s\n", dir.c_str());
        return;
      }
      for (const char* m : {"asm", "dis"}) {
        for (const TargetTraits& t : AllTargets()) {
          for (const char* ext : {".in", ".out", ".err"}) {
            std::remove(absl::StrCat(dir, "/", t.name, "_", m, ext).c_str());
          }
        }
      }
      std::remove(dir.c_str());
    }
  } cleanup;
  const std::string base = absl::StrCat(dir, "/", mcpu, "_", mode == "--disassemble" ? "dis" : "asm");
  {
    std::ofstream in(base + ".in");
    in << input;
  }
  const std::string cmd = absl::StrCat(LANEDIFF_LLVM_BIN, "/llvm-mc -arch=amdgcn -mcpu=", mcpu,
                                       " ", mode, " < ", base, ".in > ", base, ".out 2> ", base,
                                       ".err");
  McRun r;
  r.rc = std::system(cmd.c_str());
  r.out = ReadFile(base + ".out");
  r.err = ReadFile(base + ".err");
  return r;
}

bool HaveLlvmMc() {
  return std::ifstream(absl::StrCat(LANEDIFF_LLVM_BIN, "/llvm-mc")).good();
}

// CTest's skip code, with the reason printed, when llvm-mc-22 is absent.
void SkipWithoutLlvmMc() {
  if (HaveLlvmMc()) return;
  std::printf("SKIPPED: %s/llvm-mc not found (llvm-mc-22 is the oracle; scripts/setup.sh "
              "installs it)\n", LANEDIFF_LLVM_BIN);
  std::fflush(stdout);
  std::_Exit(77);
}

// Operand codes we model on this family, grouped so the generator can weight them.
struct CodePools {
  std::vector<uint16_t> vgpr, sgpr, special, inl;
};
CodePools Pools(Family f) {
  CodePools p;
  for (uint16_t c = 0; c < 512; ++c) {
    absl::StatusOr<OperandInfo> info = DescribeOperand(f, c);
    if (!info.ok()) continue;
    switch (info->kind) {
      case OperandKind::vgpr: p.vgpr.push_back(c); break;
      case OperandKind::sgpr: p.sgpr.push_back(c); break;
      case OperandKind::special: p.special.push_back(c); break;
      case OperandKind::inline_int:
      case OperandKind::inline_float: p.inl.push_back(c); break;
      case OperandKind::literal: break;
    }
  }
  return p;
}

template <typename T>
T Pick(std::mt19937& rng, const std::vector<T>& v) { return v[rng() % v.size()]; }

uint16_t RandomSource(std::mt19937& rng, const CodePools& p, bool literal_ok) {
  const int r = rng() % 100;
  if (r < 45) return Pick(rng, p.vgpr);
  if (r < 65) return Pick(rng, p.sgpr);
  if (r < 75) return Pick(rng, p.special);
  if (r < 92 || !literal_ok) return Pick(rng, p.inl);
  return kLiteralCode;
}

uint32_t RandomLiteral(std::mt19937& rng) {
  // Half the time a value that is also an inline constant (printed lit(...)).
  static const uint32_t kInlineValues[] = {0, 1, 64, 0xffffffff, 0xfffffff0, 0x3f800000,
                                           0xbf000000, 0x3e22f983, 0x40800000};
  if (rng() % 2) return kInlineValues[rng() % 9];
  return static_cast<uint32_t>(rng());
}

// The literal of a 16-bit source operand (InstrInfo::src_bits 16): a value that fits 16 bits
// (LLVM's assembler takes no other), half the time a 16-bit inline constant's (printed
// lit(...)); `raw`: a quarter of the time a whole dword, whose high bits LLVM's disassembler
// drops (llvm_differences.cc disasm_truncates_literal16).
uint32_t RandomLiteral16(std::mt19937& rng, bool raw) {
  static const uint32_t kInline16[] = {0, 1, 64, 0xffff, 0xfff0, 0x3c00, 0xb800, 0x3118, 0x4400};
  if (raw && rng() % 4 == 0) {
    const uint32_t high = static_cast<uint32_t>(rng()) & 0xffff0000u;
    return (high == 0 ? 0x10000u : high) | (rng() % 2 ? kInline16[rng() % 9] : rng() & 0xffffu);
  }
  if (rng() % 2) return kInline16[rng() % 9];
  return static_cast<uint32_t>(rng()) & 0xffffu;
}

// The literal for `instr`'s source 0 on `t`, by its operand width.
uint32_t LiteralFor(std::mt19937& rng, const TargetTraits& t, Instr instr, bool raw) {
  return GetInstrInfo(instr).src_bits(t.family, 0) == 16 ? RandomLiteral16(rng, raw)
                                                          : RandomLiteral(rng);
}

// A random VOP3 instruction of `instr` that LLVM's assembler must accept (LlvmRefusals empty,
// decodable).
Vop3Instr RandomLegal(std::mt19937& rng, const TargetTraits& t, Instr instr, Form form,
                      const CodePools& p) {
  for (;;) {
    Vop3Instr in;
    in.instr = instr;
    const AsmRules r = GetAsmRules(t, in.instr);
    in.vdst = static_cast<uint8_t>(rng());
    for (int i = 0; i < 3; ++i) in.src[i] = RandomSource(rng, p, r.literal);
    if (!r.has_src2_operand) in.src[2] = 0;
    for (uint16_t s : in.src) {
      if (s == kLiteralCode) in.literal = LiteralFor(rng, t, instr, /*raw=*/false);
    }
    in.mods.neg = (rng() % 8) & r.neg_abs_srcs;
    in.mods.abs = (rng() % 8) & r.neg_abs_srcs;
    in.mods.clamp = r.clamp && rng() % 2;
    in.mods.omod = r.omod && rng() % 2 ? static_cast<uint8_t>(rng() % 4) : 0;
    if (NumSourcesRead(in.instr) == 1) in.src[1] = 0;
    switch (r.opsel) {
      case OpSelSyntax::none: break;
      case OpSelSyntax::op_sel_4: in.mods.opsel = rng() % 16; break;
      case OpSelSyntax::op_sel_dst3: {
        const uint32_t v = rng() % 8;  // op_sel:[a,b,d] = OPSEL[0], OPSEL[1], OPSEL[3]
        in.mods.opsel = static_cast<uint8_t>((v & 3) | ((v >> 2) << 3));
        break;
      }
      case OpSelSyntax::byte_sel: in.mods.opsel = (rng() % 4) << 2; break;
      case OpSelSyntax::op_sel_byte_sel: in.mods.opsel = rng() % 16; break;
      case OpSelSyntax::byte_sel_src: in.mods.opsel = rng() % 4; break;
      case OpSelSyntax::op_sel_dst_byte_sel: in.mods.opsel = (rng() % 4) | ((rng() % 2) << 3); break;
      case OpSelSyntax::scale_sel: in.mods.opsel = rng() % 16; break;
      case OpSelSyntax::op_sel_word_src: {
        const uint32_t v = rng() % 4;  // op_sel:[a,d] = OPSEL[0], OPSEL[3]
        in.mods.opsel = static_cast<uint8_t>((v & 1) | ((v >> 1) << 3));
        break;
      }
    }
    if (form == InstrForm::e32) {  // one source, a literal on every family, no modifiers
        in.form = InstrForm::e32;
        in.mods = Modifiers{};
        if (rng() % 8 == 0) {
          in.src[0] = kLiteralCode;
          in.literal = LiteralFor(rng, t, instr, /*raw=*/false);
        } else if (in.src[0] == kLiteralCode && t.family == Family::gfx9) {
          continue;
        }
    } else if (form == InstrForm::sdwa) {  // a VGPR, SGPR or inline constant; clamp, omod, src0_sel
        in.form = InstrForm::sdwa;
        if (in.src[0] == kLiteralCode) continue;
        in.mods.opsel = 0;
        in.mods.src0_sel = static_cast<uint8_t>(rng() % 7);
        if (SdwaHasDstSel(instr)) {  // and dst_sel, dst_unused, sext(...), clamp (vop3.h)
          in.mods.dst_sel = static_cast<uint8_t>(rng() % 7);
          in.mods.dst_unused = static_cast<uint8_t>(rng() % 3);
          in.mods.src0_sext = rng() % 2 != 0;
          in.mods.clamp = rng() % 2 != 0;
        }
    }
    if (!LlvmRefusals(t, in).empty()) continue;
    absl::StatusOr<std::vector<uint32_t>> w = EncodeVop3(t, in);
    if (!w.ok() || !DecodeVop3(t, *w).ok()) continue;
    return in;
  }
}

TEST(LlvmDifferential, LegalEncodingsMatchLlvm) {
  SkipWithoutLlvmMc();
  const int per_form = PerForm();
  std::mt19937 rng(20260101);
  for (const TargetTraits& t : AllTargets()) {
    const CodePools pools = Pools(t.family);
    const std::vector<Subject> subjects = SubjectsOf(t);
    std::vector<Vop3Instr> cases;
    std::vector<size_t> subject_of;
    std::string input;
    for (size_t si = 0; si < subjects.size(); ++si) {
      for (int i = 0; i < per_form; ++i) {
        cases.push_back(RandomLegal(rng, t, subjects[si].instr, subjects[si].form, pools));
        subject_of.push_back(si);
        absl::StrAppend(&input, PrintVop3(t, cases.back()), "\n");
      }
    }
    McRun r = LlvmMc(std::string(t.name), "-show-encoding", input);
    // Lines LLVM rejected, by 1-based line number.
    std::map<int, std::string> errors;
    std::regex err_re(R"(<stdin>:(\d+):\d+: error: (.*))");
    for (std::sregex_iterator it(r.err.begin(), r.err.end(), err_re), end; it != end; ++it) {
      errors.emplace(std::stoi((*it)[1]), (*it)[2]);
    }
    std::vector<std::string> encodings;
    for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
      size_t pos = line.find("; encoding: ");
      if (pos != absl::string_view::npos) encodings.emplace_back(line.substr(pos + 12));
    }
    std::vector<int> compared(subjects.size()), disagreements(subjects.size());
    size_t k = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
      const size_t si = subject_of[i];
      const std::string ours = FormatEncodingBytes(*EncodeVop3(t, cases[i]));
      const std::string text = PrintVop3(t, cases[i]);
      if (auto e = errors.find(static_cast<int>(i) + 1); e != errors.end()) {
        ++disagreements[si];
        ADD_FAILURE() << t.name << ": llvm-mc rejects `" << text << "` (" << e->second
                      << "); ours: " << ours;
        continue;
      }
      ASSERT_LT(k, encodings.size()) << t.name << ": llvm-mc printed too few encodings";
      ++compared[si];
      if (encodings[k] != ours) {
        ++disagreements[si];
        ADD_FAILURE() << t.name << ": `" << text << "` llvm-mc " << encodings[k] << " ours "
                      << ours;
      }
      ++k;
    }
    EXPECT_EQ(k, encodings.size());
    for (size_t si = 0; si < subjects.size(); ++si) {
      std::printf("[legal] %-8s %-18s %-5s compared %d, disagreements %d\n",
                  std::string(t.name).c_str(), std::string(InstrName(subjects[si].instr)).c_str(),
                  std::string(FormName(subjects[si].form)).c_str(), compared[si],
                  disagreements[si]);
      EXPECT_EQ(compared[si], per_form) << t.name << " " << InstrName(subjects[si].instr);
    }
  }
}

// A random VOP3 word of `instr`: every field random, operand codes biased towards the ones we
// model, sometimes any 9-bit value.
std::vector<uint32_t> RandomWord(std::mt19937& rng, const TargetTraits& t, Instr instr, Form form,
                                 const CodePools& p) {
  Vop3Instr in;
  in.instr = instr;
  in.vdst = static_cast<uint8_t>(rng());
  for (int i = 0; i < 3; ++i) {
    in.src[i] = rng() % 4 == 0 ? static_cast<uint16_t>(rng() % 512)
                               : RandomSource(rng, p, t.family != Family::gfx9);
  }
  if (Src2Unused(in.instr) && rng() % 2) in.src[2] = 0;
  auto maybe = [&](uint32_t mask) { return rng() % 2 ? 0u : static_cast<uint32_t>(rng()) & mask; };
  in.mods.opsel = maybe(15);
  in.mods.neg = maybe(7);
  in.mods.abs = maybe(7);
  in.mods.clamp = rng() % 4 == 0;
  in.mods.omod = rng() % 4 == 0 ? rng() % 4 : 0;
  if (GetInstrInfo(instr).src_dwords(0) > 1 && rng() % 4 != 0) {
    // A tuple row: three words in four with the even VGPR tuples and no NEG/ABS that llvm-mc-22
    // prints comparably (known difference disasm_tuple_operands); the rest stay random.
    for (int s = 0; s < 3; ++s) {
      if (GetInstrInfo(instr).src_dwords(s) > 1) {
        in.src[s] = static_cast<uint16_t>(kFirstVgprCode + 2 * (rng() % 121));
      }
    }
    in.vdst &= 0xfe;
    in.mods.neg = in.mods.abs = 0;
  }
  // The GFX9 SDWA form of a VOP1 instruction: the VOP1 word with SRC0 = 249, then the SDWA
  // dword (tables.h kSdwaLayout), every field random, the selects and modifiers LLVM refuses
  // drawn often enough to be checked.
  if (form == InstrForm::sdwa) {
    std::vector<uint32_t> w(2, 0);
    const absl::Span<uint32_t> s = absl::MakeSpan(w);
    const Vop1Layout& v = kVop1Layout;
    v.src0.Set(v.sdwa_code, s);
    v.op.Set(static_cast<uint32_t>(t.Vop1Opcode(in.instr)), s);
    v.vdst.Set(in.vdst, s);
    v.enc.Set(v.enc_value, s);
    const SdwaLayout& d = kSdwaLayout;
    const bool vgpr = in.src[0] >= kFirstVgprCode;  // S0 = 0: SRC0 is a VGPR number
    d.src0.Set(vgpr ? in.src[0] - kFirstVgprCode : in.src[0], s);
    d.s0.Set(vgpr ? 0 : 1, s);
    d.dst_sel.Set(rng() % 4 == 0 ? rng() % 8 : kSdwaDword, s);
    d.dst_unused.Set(rng() % 4 == 0 ? rng() % 4 : 0, s);
    d.clamp.Set(in.mods.clamp, s);
    d.omod.Set(in.mods.omod, s);
    d.src0_sel.Set(rng() % 16 == 0 ? 7 : rng() % 7, s);
    d.src0_sext.Set(rng() % 4 == 0, s);
    d.src0_neg.Set(rng() % 8 == 0, s);
    d.src0_abs.Set(rng() % 8 == 0, s);
    if (rng() % 8 == 0) {  // the SRC1 bits (LLVM: invalid) or the reserved bits (LLVM ignores)
      w[1] |= static_cast<uint32_t>(rng()) & (rng() % 2 ? kSdwaSrc1Bits : kSdwaReservedBits);
    }
    return w;
  }
  // The 32-bit e32 form of a VOP1 instruction (any 9-bit SRC0).
  if (form == InstrForm::e32) {
    std::vector<uint32_t> w(1, 0);
    const Vop1Layout& v = kVop1Layout;
    v.src0.Set(in.src[0], absl::MakeSpan(w));
    v.op.Set(static_cast<uint32_t>(t.Vop1Opcode(in.instr)), absl::MakeSpan(w));
    v.vdst.Set(in.vdst, absl::MakeSpan(w));
    v.enc.Set(v.enc_value, absl::MakeSpan(w));
    if (in.src[0] == kLiteralCode) w.push_back(LiteralFor(rng, t, instr, /*raw=*/true));
    return w;
  }
  // Raw fields: encode by hand so that unknown codes and GFX9's 255 are possible.
  const Vop3Layout& l = GetVop3Layout(t.family);
  std::vector<uint32_t> w(2, 0);
  absl::Span<uint32_t> s = absl::MakeSpan(w);
  l.vdst.Set(in.vdst, s);
  l.abs.Set(in.mods.abs, s);
  l.opsel.Set(in.mods.opsel, s);
  l.clamp.Set(in.mods.clamp, s);
  l.op.Set(t.Opcode(in.instr), s);
  l.enc.Set(l.enc_value, s);
  l.src0.Set(in.src[0], s);
  l.src1.Set(in.src[1], s);
  l.src2.Set(in.src[2], s);
  l.omod.Set(in.mods.omod, s);
  l.neg.Set(in.mods.neg, s);
  // A literal dword whenever a read source is 255 on a family with literals.
  bool lit = false;
  for (int i = 0; i < NumSourcesRead(in.instr); ++i) lit |= in.src[i] == kLiteralCode;
  if (lit && l.literal_allowed) w.push_back(LiteralFor(rng, t, instr, /*raw=*/true));
  return w;
}

std::string BytesLine(absl::Span<const uint32_t> words) {
  std::string b = FormatEncodingBytes(words);
  return b.substr(1, b.size() - 2);  // llvm-mc --disassemble input: no brackets
}

// After each case, kSentinels one-dword sentinels `s_movk_i32 s0, 4*i+k`: an instruction that
// reads more dwords than ours (or a garbage decode after an invalid word, up to a VOP3 with a
// 64-bit literal) eats some of them, never the next case.
constexpr int kSentinels = 4;
constexpr int kLinesPerCase = 1 + kSentinels;

// The sentinel lines after case i (llvm-mc --disassemble input).
std::string SentinelLines(uint32_t sentinel, size_t i) {
  std::string out;
  for (int k = 0; k < kSentinels; ++k) {
    absl::StrAppend(&out, BytesLine(std::vector<uint32_t>{
                              sentinel | static_cast<uint32_t>(kSentinels * i + k)}),
                    "\n");
  }
  return out;
}

// Pass 1: which cases' first word llvm-mc-22 calls invalid (stderr names the line), into
// `invalid`. It runs on a set of cases; if llvm-mc crashes (LLVM 22 segfaults on some garbage
// decodes after an invalid word, e.g. on gfx908 `0xf9,0x0a,0x99,0x01,0x9c,0x37,0x00,0xb0`: a
// VOP2 whose SRC0 = 249 announces SDWA, then a sentinel read as the SDWA dword), the set is
// halved until the case that crashes it is alone; such a case goes to `crashed`.
void FindInvalidCases(const TargetTraits& t, const std::vector<std::vector<uint32_t>>& words,
                      uint32_t sentinel, const std::vector<size_t>& ids, std::set<size_t>* invalid,
                      std::vector<size_t>* crashed) {
  if (ids.empty()) return;
  static const std::regex warn_re(R"(<stdin>:(\d+):1: warning: invalid instruction encoding)");
  std::string input;
  for (size_t i : ids) absl::StrAppend(&input, BytesLine(words[i]), "\n", SentinelLines(sentinel, i));
  McRun r = LlvmMc(std::string(t.name), "--disassemble", input);
  if (r.err.find("Stack dump") != std::string::npos) {
    if (ids.size() == 1) {
      crashed->push_back(ids[0]);
      return;
    }
    const auto mid = ids.begin() + static_cast<std::ptrdiff_t>(ids.size() / 2);
    FindInvalidCases(t, words, sentinel, std::vector<size_t>(ids.begin(), mid), invalid, crashed);
    FindInvalidCases(t, words, sentinel, std::vector<size_t>(mid, ids.end()), invalid, crashed);
    return;
  }
  for (std::sregex_iterator it(r.err.begin(), r.err.end(), warn_re), end; it != end; ++it) {
    const size_t line = std::stoul((*it)[1]) - 1;
    if (line % kLinesPerCase == 0) invalid->insert(ids[line / kLinesPerCase]);
  }
}

// Pass 2's output split per case: a case's lines are those before its first sentinel (into
// `shown`); if that sentinel is not k = 0, the case read more dwords than ours (`misaligned`).
void SplitAtSentinels(const std::string& out, std::map<size_t, std::vector<std::string>>* shown,
                      std::set<size_t>* misaligned) {
  static const std::regex sent_re(R"(s_movk_i32 s0, (0x[0-9a-f]+|\d+))");
  std::smatch m;
  std::vector<std::string> cur;
  std::set<size_t> seen_case;
  for (absl::string_view raw : absl::StrSplit(out, '\n')) {
    std::string line(absl::StripAsciiWhitespace(raw));
    if (line.empty() || line[0] == '.') continue;
    if (std::regex_match(line, m, sent_re)) {
      const size_t idx = std::stoul(m[1].str(), nullptr, 0);
      const size_t c = idx / kSentinels;
      if (seen_case.insert(c).second) {
        (*shown)[c] = cur;
        if (idx % kSentinels != 0) misaligned->insert(c);
      }
      cur.clear();
    } else {
      cur.push_back(line);
    }
  }
}

// Up to `batch_size` random words of `subject` whose reading by llvm-mc-22 we can predict, with
// that expectation; the redrawn ones counted in `skipped` by the reason.
void DrawComparableWords(std::mt19937& rng, const TargetTraits& t, const Subject& subject,
                         const CodePools& pools, int batch_size,
                         std::vector<std::vector<uint32_t>>* words,
                         std::vector<LlvmDisasmExpectation>* expect,
                         std::map<std::string, int>* skipped) {
  int attempts = 0;
  while (static_cast<int>(words->size()) < batch_size && attempts < 20 * batch_size) {
    ++attempts;
    std::vector<uint32_t> w = RandomWord(rng, t, subject.instr, subject.form, pools);
    LlvmDisasmExpectation e = ExpectLlvmDisassembly(t, w);
    if (!e.comparable) {
      ++(*skipped)[std::string(e.applied.empty() ? "?" : e.applied.back())];
      continue;
    }
    words->push_back(w);
    expect->push_back(e);
  }
}

// Per target, every subject's words go to llvm-mc together (up to kMaxRawPerBatch cases a
// batch), two processes a batch: the processes' start-up, not the words, was most of the time.
TEST(LlvmDifferential, RawWordsDecodeLikeLlvm) {
  SkipWithoutLlvmMc();
  const int per_form = PerForm();
  std::mt19937 rng(777);
  for (const TargetTraits& t : AllTargets()) {
    const CodePools pools = Pools(t.family);
    // Sentinel between cases: s_movk_i32 s0, <index> (one dword, LLVM's own encoding).
    McRun sr = LlvmMc(std::string(t.name), "-show-encoding", "s_movk_i32 s0, 0x0\n");
    std::smatch m;
    std::regex enc_re(R"(encoding: \[([^\]]*)\])");
    ASSERT_TRUE(std::regex_search(sr.out, m, enc_re)) << sr.out << sr.err;
    absl::StatusOr<std::vector<uint32_t>> sentinel = ParseEncodingText(m[1].str());
    ASSERT_TRUE(sentinel.ok() && sentinel->size() == 1);

    // Every subject's words, drawn in subject order (the same words as one batch a subject).
    const std::vector<Subject> subjects = SubjectsOf(t);
    std::vector<std::vector<uint32_t>> words;
    std::vector<LlvmDisasmExpectation> expect;
    std::vector<size_t> subject_of;
    std::vector<std::map<std::string, int>> skipped(subjects.size());
    for (size_t si = 0; si < subjects.size(); ++si) {
      std::vector<std::vector<uint32_t>> w;
      std::vector<LlvmDisasmExpectation> e;
      DrawComparableWords(rng, t, subjects[si], pools, per_form, &w, &e, &skipped[si]);
      words.insert(words.end(), w.begin(), w.end());
      expect.insert(expect.end(), e.begin(), e.end());
      subject_of.resize(words.size(), si);
    }
    struct Tally {
      int compared = 0, disagreements = 0, llvm_valid = 0, crashes = 0;
      std::map<std::string, int> applied;
    };
    std::vector<Tally> tally(subjects.size());
    for (size_t first = 0; first < words.size(); first += kMaxRawPerBatch) {
      const size_t last = std::min(words.size(), first + kMaxRawPerBatch);
      // This batch's cases, indexed from 0 (the sentinels number them).
      const std::vector<std::vector<uint32_t>> batch(words.begin() + first, words.begin() + last);
      // Pass 1: which cases' first word LLVM calls invalid (stderr names the line). After an
      // invalid word LLVM decodes the following dwords as whatever they spell, which may eat
      // the sentinel, so pass 2 disassembles only the cases pass 1 found valid.
      std::set<size_t> invalid;
      std::vector<size_t> crashed;
      std::vector<size_t> all(batch.size());
      for (size_t i = 0; i < all.size(); ++i) all[i] = i;
      FindInvalidCases(t, batch, (*sentinel)[0], all, &invalid, &crashed);
      std::set<size_t> not_compared(crashed.begin(), crashed.end());
      for (size_t i : crashed) {
        ++tally[subject_of[first + i]].crashes;
        std::printf("[raw]   %-8s %s: llvm-mc-22 crashes on this word and its sentinels (an "
                    "LLVM bug); not compared\n", std::string(t.name).c_str(),
                    FormatEncodingBytes(batch[i]).c_str());
      }
      // Pass 2: only the cases LLVM decoded (no garbage decodes). A case's lines are those
      // before its first sentinel; if that sentinel is not k = 0, the case read more dwords
      // than ours; if it printed more than one line, fewer.
      std::string input;
      for (size_t i = 0; i < batch.size(); ++i) {
        if (invalid.count(i) || not_compared.count(i)) continue;
        absl::StrAppend(&input, BytesLine(batch[i]), "\n", SentinelLines((*sentinel)[0], i));
      }
      McRun r = LlvmMc(std::string(t.name), "--disassemble", input);
      ASSERT_TRUE(r.err.find("Stack dump") == std::string::npos)
          << t.name << ": llvm-mc crashed:\n"
          << r.err.substr(r.err.size() > 4000 ? r.err.size() - 4000 : 0);
      std::map<size_t, std::vector<std::string>> shown;  // case -> its lines
      std::set<size_t> misaligned;
      SplitAtSentinels(r.out, &shown, &misaligned);
      for (size_t i = 0; i < batch.size(); ++i) {
        if (not_compared.count(i)) continue;
        Tally& c = tally[subject_of[first + i]];
        const LlvmDisasmExpectation& e = expect[first + i];
        for (absl::string_view a : e.applied) ++c.applied[std::string(a)];
        std::string llvm_reading;
        bool agree = false;
        if (invalid.count(i)) {
          llvm_reading = "invalid instruction encoding";
          agree = !e.valid;
        } else if (misaligned.count(i) || !shown.count(i)) {
          llvm_reading = "decoded, using a different number of words than ours";
        } else {
          const std::vector<std::string>& lines = shown[i];
          llvm_reading = absl::StrJoin(lines, " | ");
          ++c.llvm_valid;
          agree = e.valid && lines.size() == 1 && lines[0] == e.text;
        }
        ++c.compared;
        if (!agree) {
          ++c.disagreements;
          absl::StatusOr<DecodedVop3> d = DecodeVop3(t, batch[i]);
          ADD_FAILURE() << t.name << " " << FormatEncodingBytes(batch[i]) << "\n  llvm-mc: "
                        << llvm_reading << "\n  expected (ours + known differences): "
                        << (e.valid ? e.text : "invalid") << " [" << absl::StrJoin(e.applied, ",")
                        << "]\n  our decoder: "
                        << (d.ok() ? PrintVop3(t, d->vop3) : std::string(d.status().message()));
        }
      }
    }  // batches
    for (size_t si = 0; si < subjects.size(); ++si) {
      const Tally& c = tally[si];
      std::string skip_text, applied_text;
      for (auto& [k, v] : skipped[si]) absl::StrAppend(&skip_text, " ", k, "=", v);
      for (auto& [k, v] : c.applied) absl::StrAppend(&applied_text, " ", k, "=", v);
      std::printf("[raw]   %-8s %-18s %-5s compared %d (llvm valid %d), disagreements %d, "
                  "llvm-mc crashes %d; redrawn, not comparable:%s; differences applied:%s\n",
                  std::string(t.name).c_str(), std::string(InstrName(subjects[si].instr)).c_str(),
                  std::string(FormName(subjects[si].form)).c_str(), c.compared, c.llvm_valid,
                  c.disagreements, c.crashes, skip_text.c_str(), applied_text.c_str());
      EXPECT_EQ(c.compared + c.crashes, per_form) << t.name << " " << InstrName(subjects[si].instr);
    }
  }
}

}  // namespace
}  // namespace lanediff
