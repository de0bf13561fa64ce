// Differential test against LLVM 22 (llvm-mc-22, the independent oracle), every target:
//  1. >= 10,000 random LEGAL instructions per target: our encoding == llvm-mc's encoding of
//     our printed text (one llvm-mc process per target).
//  2. random raw words (our opcodes, random fields): our decoder's validity and text ==
//     llvm-mc --disassemble's, after the known differences in llvm_differences.cc.
// Any other disagreement fails the test and prints the word and both readings.
#include <stdlib.h>  // mkdtemp

#include <cstdio>
#include <cstdlib>
#include <fstream>
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

constexpr int kLegalPerTarget = 10000;
constexpr int kRawPerTarget = 4000;  // < 16384: 4 sentinels each in a 16-bit imm

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
  // Removes the directory's files when the process ends.
  static const struct Cleanup {
    ~Cleanup() {
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

// A random instruction that LLVM's assembler must accept (LlvmRefusals empty, decodable).
Vop3Instr RandomLegal(std::mt19937& rng, const TargetTraits& t, const CodePools& p) {
  std::vector<Instr> instrs;
  for (Instr i : kAllInstrs) {
    if (t.Has(i)) instrs.push_back(i);
  }
  for (;;) {
    Vop3Instr in;
    in.instr = Pick(rng, instrs);
    const AsmRules r = GetAsmRules(t, in.instr);
    in.vdst = static_cast<uint8_t>(rng());
    for (int i = 0; i < 3; ++i) in.src[i] = RandomSource(rng, p, r.literal);
    if (!r.has_src2_operand) in.src[2] = 0;
    for (uint16_t s : in.src) {
      if (s == kLiteralCode) in.literal = RandomLiteral(rng);
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
      case OpSelSyntax::byte_sel_src: in.mods.opsel = rng() % 4; break;
    }
    // A VOP1 instruction: a third of each of its forms (e32, e64, GFX9 SDWA).
    if (t.Vop1Opcode(in.instr) != kNoOpcode) {
      const int form = static_cast<int>(rng() % (t.family == Family::gfx9 ? 3 : 2));
      if (form == 1) {  // e32: one source, a literal on every family, no modifiers
        in.form = InstrForm::e32;
        in.mods = Modifiers{};
        if (rng() % 8 == 0) {
          in.src[0] = kLiteralCode;
          in.literal = RandomLiteral(rng);
        } else if (in.src[0] == kLiteralCode && t.family == Family::gfx9) {
          continue;
        }
      } else if (form == 2) {  // SDWA: a VGPR, SGPR or inline constant; clamp, omod, src0_sel
        in.form = InstrForm::sdwa;
        if (in.src[0] == kLiteralCode) continue;
        in.mods.opsel = 0;
        in.mods.src0_sel = static_cast<uint8_t>(rng() % 7);
      }
    }
    if (!LlvmRefusals(t, in).empty()) continue;
    absl::StatusOr<std::vector<uint32_t>> w = EncodeVop3(t, in);
    if (!w.ok() || !DecodeVop3(t, *w).ok()) continue;
    return in;
  }
}

TEST(LlvmDifferential, LegalEncodingsMatchLlvm) {
  ASSERT_TRUE(HaveLlvmMc()) << LANEDIFF_LLVM_BIN << "/llvm-mc missing: run scripts/setup.sh";
  std::mt19937 rng(20260101);
  for (const TargetTraits& t : AllTargets()) {
    const CodePools pools = Pools(t.family);
    std::vector<Vop3Instr> cases;
    std::string input;
    for (int i = 0; i < kLegalPerTarget; ++i) {
      cases.push_back(RandomLegal(rng, t, pools));
      absl::StrAppend(&input, PrintVop3(t, cases.back()), "\n");
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
    int compared = 0, disagreements = 0;
    size_t k = 0;
    for (int i = 0; i < kLegalPerTarget; ++i) {
      const std::string ours = FormatEncodingBytes(*EncodeVop3(t, cases[i]));
      const std::string text = PrintVop3(t, cases[i]);
      if (auto e = errors.find(i + 1); e != errors.end()) {
        ++disagreements;
        ADD_FAILURE() << t.name << ": llvm-mc rejects `" << text << "` (" << e->second
                      << "); ours: " << ours;
        continue;
      }
      ASSERT_LT(k, encodings.size()) << t.name << ": llvm-mc printed too few encodings";
      ++compared;
      if (encodings[k] != ours) {
        ++disagreements;
        ADD_FAILURE() << t.name << ": `" << text << "` llvm-mc " << encodings[k] << " ours "
                      << ours;
      }
      ++k;
    }
    EXPECT_EQ(k, encodings.size());
    std::printf("[legal] %-8s compared %d, disagreements %d\n", std::string(t.name).c_str(),
                compared, disagreements);
    EXPECT_GE(compared, kLegalPerTarget);
  }
}

// A random word of one of our instructions: every field random, operand codes biased
// towards the ones we model, sometimes any 9-bit value.
std::vector<uint32_t> RandomWord(std::mt19937& rng, const TargetTraits& t, const CodePools& p) {
  std::vector<Instr> instrs;
  for (Instr i : kAllInstrs) {
    if (t.Has(i)) instrs.push_back(i);
  }
  Vop3Instr in;
  in.instr = Pick(rng, instrs);
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
  // A VOP1 instruction: a third of its words are the 32-bit e32 form (any 9-bit SRC0).
  if (t.Vop1Opcode(in.instr) != kNoOpcode && rng() % 3 == 0) {
    std::vector<uint32_t> w(1, 0);
    const Vop1Layout& v = kVop1Layout;
    v.src0.Set(in.src[0], absl::MakeSpan(w));
    v.op.Set(static_cast<uint32_t>(t.Vop1Opcode(in.instr)), absl::MakeSpan(w));
    v.vdst.Set(in.vdst, absl::MakeSpan(w));
    v.enc.Set(v.enc_value, absl::MakeSpan(w));
    if (in.src[0] == kLiteralCode) w.push_back(RandomLiteral(rng));
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
  if (lit && l.literal_allowed) w.push_back(RandomLiteral(rng));
  return w;
}

std::string BytesLine(absl::Span<const uint32_t> words) {
  std::string b = FormatEncodingBytes(words);
  return b.substr(1, b.size() - 2);  // llvm-mc --disassemble input: no brackets
}

TEST(LlvmDifferential, RawWordsDecodeLikeLlvm) {
  ASSERT_TRUE(HaveLlvmMc()) << LANEDIFF_LLVM_BIN << "/llvm-mc missing: run scripts/setup.sh";
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

    std::vector<std::vector<uint32_t>> words;
    std::vector<LlvmDisasmExpectation> expect;
    std::map<std::string, int> skipped;
    int attempts = 0;
    while (static_cast<int>(words.size()) < kRawPerTarget && attempts < 20 * kRawPerTarget) {
      ++attempts;
      std::vector<uint32_t> w = RandomWord(rng, t, pools);
      LlvmDisasmExpectation e = ExpectLlvmDisassembly(t, w);
      if (!e.comparable) {
        ++skipped[std::string(e.applied.empty() ? "?" : e.applied.back())];
        continue;
      }
      words.push_back(w);
      expect.push_back(e);
    }
    // Pass 1: which cases' first word LLVM calls invalid (stderr names the line). After an
    // invalid word LLVM decodes the following dwords as whatever they spell, which may eat
    // the sentinel, so pass 2 disassembles only the cases pass 1 found valid.
    // After each case, kSentinels one-dword sentinels `s_movk_i32 s0, 4*i+k`: an instruction
    // that reads more dwords than ours (or a garbage decode after an invalid word, up to a
    // VOP3 with a 64-bit literal) eats some of them, never the next case.
    constexpr int kSentinels = 4;
    auto sentinels = [&](size_t i) {
      std::string out;
      for (int k = 0; k < kSentinels; ++k) {
        absl::StrAppend(&out, BytesLine(std::vector<uint32_t>{
                                  (*sentinel)[0] | static_cast<uint32_t>(kSentinels * i + k)}),
                        "\n");
      }
      return out;
    };
    const int lines_per_case = 1 + kSentinels;
    std::string input;
    for (size_t i = 0; i < words.size(); ++i) {
      absl::StrAppend(&input, BytesLine(words[i]), "\n", sentinels(i));
    }
    McRun r = LlvmMc(std::string(t.name), "--disassemble", input);
    ASSERT_TRUE(r.err.find("Stack dump") == std::string::npos) << t.name << " llvm-mc crashed";
    std::set<size_t> invalid;
    std::regex warn_re(R"(<stdin>:(\d+):1: warning: invalid instruction encoding)");
    for (std::sregex_iterator it(r.err.begin(), r.err.end(), warn_re), end; it != end; ++it) {
      const size_t line = std::stoul((*it)[1]) - 1;
      if (line % lines_per_case == 0) invalid.insert(line / lines_per_case);
    }
    // Pass 2: only the cases LLVM decoded (no garbage decodes). A case's lines are those
    // before its first sentinel; if that sentinel is not k = 0, the case read more dwords
    // than ours; if it printed more than one line, fewer.
    std::vector<size_t> valid_cases;
    input.clear();
    for (size_t i = 0; i < words.size(); ++i) {
      if (invalid.count(i)) continue;
      valid_cases.push_back(i);
      absl::StrAppend(&input, BytesLine(words[i]), "\n", sentinels(i));
    }
    r = LlvmMc(std::string(t.name), "--disassemble", input);
    ASSERT_TRUE(r.err.find("Stack dump") == std::string::npos) << t.name << " llvm-mc crashed";
    std::map<size_t, std::vector<std::string>> shown;  // case -> its lines
    std::set<size_t> misaligned;
    std::regex sent_re(R"(s_movk_i32 s0, (0x[0-9a-f]+|\d+))");
    std::vector<std::string> cur;
    std::set<size_t> seen_case;
    for (absl::string_view raw : absl::StrSplit(r.out, '\n')) {
      std::string line(absl::StripAsciiWhitespace(raw));
      if (line.empty() || line[0] == '.') continue;
      if (std::regex_match(line, m, sent_re)) {
        const size_t idx = std::stoul(m[1].str(), nullptr, 0);
        const size_t c = idx / kSentinels;
        if (seen_case.insert(c).second) {
          shown[c] = cur;
          if (idx % kSentinels != 0) misaligned.insert(c);
        }
        cur.clear();
      } else {
        cur.push_back(line);
      }
    }
    int compared = 0, disagreements = 0, llvm_valid = 0;
    std::map<std::string, int> applied;
    for (size_t i = 0; i < words.size(); ++i) {
      const LlvmDisasmExpectation& e = expect[i];
      for (absl::string_view a : e.applied) ++applied[std::string(a)];
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
        ++llvm_valid;
        agree = e.valid && lines.size() == 1 && lines[0] == e.text;
      }
      ++compared;
      if (!agree) {
        ++disagreements;
        absl::StatusOr<DecodedVop3> d = DecodeVop3(t, words[i]);
        ADD_FAILURE() << t.name << " " << FormatEncodingBytes(words[i]) << "\n  llvm-mc: "
                      << llvm_reading << "\n  expected (ours + known differences): "
                      << (e.valid ? e.text : "invalid") << " [" << absl::StrJoin(e.applied, ",")
                      << "]\n  our decoder: "
                      << (d.ok() ? PrintVop3(t, d->vop3) : std::string(d.status().message()));
      }
    }
    std::string skip_text, applied_text;
    for (auto& [k, v] : skipped) absl::StrAppend(&skip_text, " ", k, "=", v);
    for (auto& [k, v] : applied) absl::StrAppend(&applied_text, " ", k, "=", v);
    std::printf("[raw]   %-8s compared %d (llvm valid %d), disagreements %d; not compared:%s; "
                "differences applied:%s\n",
                std::string(t.name).c_str(), compared, llvm_valid, disagreements,
                skip_text.c_str(), applied_text.c_str());
    EXPECT_EQ(compared, kRawPerTarget);
  }
}

}  // namespace
}  // namespace lanediff
