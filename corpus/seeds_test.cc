// Every seed file in corpus/seeds/<instruction>/*.textproto parses, names its instruction in
// its folder, has a note, and each lane's `# expect` comments hold under the model: the default
// line `# expect: 0xWORD` and any `# expect NAME=VALUE [NAME=VALUE...]: 0xWORD` under those
// hypotheses. The expected words are docs/semantics.md's, written in the files by hand. A case is
// resolved as every runner resolves it (device_harness/resolve_case.h ResolveTestCase): a
// constant source (an inline constant, a literal) reads its constant in every lane.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "device_harness/resolve_case.h"
#include "gtest/gtest.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

struct Expectation {
  std::vector<std::string> hypotheses;
  std::vector<uint32_t> vdst;  // the lane's destination words (a VGPR pair: 2)
  int line;
};

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The `# expect` comments of each `lanes {` block, in order.
std::vector<std::vector<Expectation>> Expectations(const std::string& text, std::string* error) {
  std::vector<std::vector<Expectation>> out;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    absl::string_view s = absl::StripAsciiWhitespace(line);
    if (absl::StartsWith(s, "lanes {")) {
      out.emplace_back();
      continue;
    }
    if (!absl::ConsumePrefix(&s, "# expect")) continue;
    const size_t colon = s.find(':');
    if (colon == absl::string_view::npos || out.empty()) {
      *error = absl::StrCat("line ", line_no, ": `# expect` outside a lane or without ':'");
      return {};
    }
    Expectation e;
    e.line = line_no;
    for (absl::string_view h : absl::StrSplit(s.substr(0, colon), ' ', absl::SkipEmpty())) {
      e.hypotheses.emplace_back(h);
    }
    // One word per destination word: `0xVDST` or, for a VGPR pair, `0xVDST 0xVDST1`.
    for (absl::string_view word :
         absl::StrSplit(absl::StripAsciiWhitespace(s.substr(colon + 1)), ' ', absl::SkipEmpty())) {
      uint32_t w = 0;
      if (!absl::ConsumePrefix(&word, "0x") || word.size() != 8 || !absl::SimpleHexAtoi(word, &w)) {
        *error = absl::StrCat("line ", line_no, ": expected value is not 0x + 8 hex digits");
        return {};
      }
      e.vdst.push_back(w);
    }
    out.back().push_back(e);
  }
  return out;
}

TEST(CorpusSeeds, EveryExpectationHolds) {
  const std::filesystem::path root = std::filesystem::path(LANEDIFF_SOURCE_DIR) / "corpus/seeds";
  ASSERT_TRUE(std::filesystem::is_directory(root)) << root;
  int files = 0, checks = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".textproto") continue;
    ++files;
    const std::string name = entry.path().lexically_relative(root).string();
    const std::string text = ReadFile(entry.path());
    absl::StatusOr<proto::TestCase> tc = ParseText<proto::TestCase>(text, name);
    ASSERT_TRUE(tc.ok()) << tc.status();
    EXPECT_EQ(entry.path().parent_path().filename().string(), InstructionName(tc->instr()))
        << name << ": the folder must be the instruction's mnemonic";
    EXPECT_FALSE(tc->note().empty()) << name << ": a seed says what it separates";
    ASSERT_GT(tc->lanes_size(), 0) << name;

    std::string error;
    const auto expectations = Expectations(text, &error);
    ASSERT_TRUE(error.empty()) << name << ":" << error;
    ASSERT_EQ(static_cast<int>(expectations.size()), tc->lanes_size()) << name;

    absl::StatusOr<ResolvedCase> rc = ResolveTestCase(*tc);
    ASSERT_TRUE(rc.ok()) << name << ": " << rc.status();
    const OpContext base = rc->ctx;  // target, instr, modifiers, MODE, constant sources
    ASSERT_TRUE(ValidateContext(base).ok()) << name << ": " << ValidateContext(base);

    for (int i = 0; i < tc->lanes_size(); ++i) {
      const LaneView resolved = rc->lanes.view();
      bool has_default = false;
      for (const Expectation& e : expectations[i]) {
        OpContext ctx = base;
        for (const std::string& h : e.hypotheses) {
          absl::Status s = SetHypothesis(h, &ctx.hyp);
          ASSERT_TRUE(s.ok()) << name << ":" << e.line << ": " << s;
        }
        has_default |= e.hypotheses.empty();
        // Every destination word of the lane (a VGPR pair: VDST, VDST+1; a tuple's 32), from
        // every dword of its sources (a tuple source's 6: the row's LaneShape).
        const LaneShape& sh = resolved.shape;
        const LaneView one{resolved.src0 + i * sh.src_dwords[0], resolved.src1 + i * sh.src_dwords[1],
                           resolved.src2 + i * sh.src_dwords[2], resolved.vdst_old + i, 1, sh};
        std::vector<uint32_t> got(OutputWords(ctx.instr, 1)), oracle(got.size());
        ASSERT_TRUE(Evaluate(ctx, one, absl::MakeSpan(got)).ok());
        ASSERT_TRUE(EvaluateOracle(ctx, one, absl::MakeSpan(oracle)).ok());
        EXPECT_EQ(got, e.vdst) << name << ":" << e.line << " lane " << i;
        EXPECT_EQ(oracle, e.vdst) << name << ":" << e.line << " lane " << i << " (oracle)";
        ++checks;
      }
      EXPECT_TRUE(has_default) << name << " lane " << i << ": no `# expect:` default line";
    }
  }
  // Every row has seeds (a row whose folder is missing or renamed would otherwise pass here
  // with nothing checked), and every file in an instruction's folder is a seed this test read.
  for (Instr instr : kAllInstrs) {
    const std::filesystem::path dir = root / std::string(InstrName(instr));
    int seeds = 0;
    if (std::filesystem::is_directory(dir)) {
      for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        EXPECT_EQ(entry.path().extension(), ".textproto")
            << entry.path() << ": not a seed (corpus/seeds/<instruction>/*.textproto)";
        seeds += entry.path().extension() == ".textproto";
      }
    }
    EXPECT_GT(seeds, 0) << InstrName(instr) << " has no seed file under " << dir;
  }
  EXPECT_GT(checks, files) << "fewer expectations than seed files";
  std::printf("%d seed files, %d expectations checked\n", files, checks);
}

}  // namespace
}  // namespace lanediff
