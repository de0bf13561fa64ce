// `lanediff eval`: the model as a pipe. Lanes on stdin, one VDST word per lane on stdout (two,
// VDST then VDST+1, for an instruction writing a VGPR pair; --json: "vdst" and "vdst1").
//
//   lanediff eval --targets T --instrs I [--opsel N] [--neg N] [--abs N] [--clamp] [--omod N]
//                 [--mode HEX] [--raw-mode] [--hypothesis NAME=VALUE]... < lanes
//
// MODE: the model evaluates under the MODE the harness kernel runs the instruction with
// (device_harness/kernel_state.h KernelMode): --mode's round, denormal and FP16_OVFL fields,
// every other bit as the kernel's code object fixes it (DX10_CLAMP and IEEE set on GFX9-11),
// so `eval` answers what `--device=sim` and a GPU answer for the same word. --raw-mode takes
// --mode's 32 bits as they are, for a MODE no lanediff kernel runs (DX10_CLAMP clear on GFX9).
//
// Input: one lane per line, four 32-bit hex words `src0 src1 src2 vdst_old` (`0x` optional);
// blank lines and `#` comments are skipped. Output: one row per input row, in order: `0x%08x`
// per lane, and for a malformed row an error row in its place, `error: line N: REASON`
// (also reported on stderr), so output row k always answers input row k; processing goes on
// and the exit code is 1 at the end. Unknown target, instruction or hypothesis, or an
// instruction the target lacks: an error listing the valid choices, exit 2.
//
// Streaming: input is read with read(2) in chunks of up to 1 MiB; the complete lines of each
// chunk are evaluated as one batch and their answers written before the next read, so a caller
// that writes a few lines and waits gets its answers, and a caller that streams millions gets
// large batches.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "device_harness/kernel_state.h"
#include "fuzz/cli/args.h"
#include "fuzz/cli/commands.h"
#include "fuzz/cli/model_flags.h"
#include "fuzz/cli/json_line.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

namespace lanediff {
namespace {

constexpr size_t kReadChunk = 1 << 20;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parses one 32-bit hex word, `0x` optional, 1 to 8 digits.
bool ParseHexWord(absl::string_view tok, uint32_t* out) {
  if (tok.size() >= 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) tok.remove_prefix(2);
  if (tok.empty() || tok.size() > 8) return false;
  uint32_t v = 0;
  for (char c : tok) {
    const int d = HexDigit(c);
    if (d < 0) return false;
    v = (v << 4) | static_cast<uint32_t>(d);
  }
  *out = v;
  return true;
}

// A token as quoted in an error: at most 24 bytes, non-printable bytes as \xNN, so a
// multi-megabyte garbage line gives a one-line message.
std::string Shown(absl::string_view tok) {
  std::string out;
  for (size_t k = 0; k < tok.size() && k < 24; ++k) {
    const unsigned char c = static_cast<unsigned char>(tok[k]);
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(c, absl::kZeroPad2));
    }
  }
  if (tok.size() > 24) absl::StrAppend(&out, "... (", tok.size(), " bytes)");
  return out;
}

// One input line (without its '\n'): a lane, nothing (blank or comment), or an error. A lane is
// `want` words: each source's dwords (a tuple source's N, the row's LaneShape) and vdst_old; 4
// for every one-dword row ("src0 src1 src2 vdst_old").
enum class LineKind { lane, skip, error };
LineKind ParseLine(absl::string_view line, int want, uint32_t* words, std::string* error) {
  const std::string expected = want == 4 ? std::string("src0 src1 src2 vdst_old")
                                         : absl::StrCat("each source's dwords, then vdst_old");
  if (size_t hash = line.find('#'); hash != absl::string_view::npos) line = line.substr(0, hash);
  int n = 0;
  size_t i = 0;
  while (true) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i == line.size()) break;
    size_t j = i;
    while (j < line.size() && !IsSpace(line[j])) ++j;
    const absl::string_view tok = line.substr(i, j - i);
    if (n == want) {
      *error = absl::StrCat("more than ", want, " words (expected ", expected, "); extra '",
                            Shown(tok), "'");
      return LineKind::error;
    }
    if (!ParseHexWord(tok, &words[n])) {
      *error = absl::StrCat("word ", n + 1, " '", Shown(tok), "' is not a 32-bit hex number");
      return LineKind::error;
    }
    ++n;
    i = j;
  }
  if (n == 0) return LineKind::skip;
  if (n != want) {
    *error = absl::StrCat("expected ", want, " hex words (", expected, "), got ", n);
    return LineKind::error;
  }
  return LineKind::lane;
}

bool WriteAll(const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(1, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// The pipe: stdin lanes in, one output row per input row out, a batch per read.
class EvalPipe {
 public:
  EvalPipe(const OpContext& ctx, bool json) : ctx_(ctx), json_(json) {
    lanes_.SetShape(GetInstrInfo(ctx.instr).lane_shape());
  }

  // Reads stdin to its end: kExitOk, kExitFound after a malformed row, kExitEnvironment when
  // stdin, stdout or the model fails.
  int Run() {
    std::string buf;  // unconsumed input: at most one partial line between reads
    buf.reserve(kReadChunk * 2);
    std::vector<char> chunk(kReadChunk);
    while (true) {
      const ssize_t got = ::read(0, chunk.data(), chunk.size());
      if (got < 0) {
        if (errno == EINTR) continue;
        std::perror("lanediff eval: reading stdin");
        return kExitEnvironment;
      }
      if (got == 0) break;
      buf.append(chunk.data(), static_cast<size_t>(got));
      size_t start = 0;
      for (size_t nl; (nl = buf.find('\n', start)) != std::string::npos; start = nl + 1) {
        AddLine(absl::string_view(buf).substr(start, nl - start));
      }
      buf.erase(0, start);
      if (!Flush()) return kExitEnvironment;
    }
    if (!buf.empty()) AddLine(buf);  // a last line without '\n'
    if (!Flush()) return kExitEnvironment;
    return bad_line_ ? kExitFound : kExitOk;
  }

 private:
  // Error rows of the current batch, each to be written before lane `before` of the batch.
  struct ErrorRow {
    size_t before;
    std::string text;
  };

  void AddLine(absl::string_view line) {
    ++line_no_;
    const LaneShape& shape = lanes_.shape();
    uint32_t w[3 * kMaxSrcDwords + 1];
    switch (ParseLine(line, shape.lane_words(), w, &error_)) {
      case LineKind::lane:
        lanes_.AddWide(w, w + shape.src_dwords[0], w + shape.src_dwords[0] + shape.src_dwords[1],
                       w[shape.lane_words() - 1]);
        if (json_) lane_lines_.push_back(line_no_);
        break;
      case LineKind::skip:
        break;
      case LineKind::error:
        bad_line_ = true;
        std::fprintf(stderr, "lanediff eval: stdin line %llu: %s\n",
                     static_cast<unsigned long long>(line_no_), error_.c_str());
        error_rows_.push_back(
            {lanes_.size(), json_ ? JsonLine().Uint("line", line_no_).Str("error", error_).Text() + "\n"
                                  : absl::StrCat("error: line ", line_no_, ": ", error_, "\n")});
        break;
    }
  }

  // Evaluates the batch and writes its rows (error rows in their places); false on failure.
  bool Flush() {
    if (lanes_.size() == 0 && error_rows_.empty()) return true;
    vdst_.resize(OutputWords(ctx_.instr, lanes_.size()));
    if (absl::Status s = Evaluate(ctx_, lanes_.view(), absl::MakeSpan(vdst_)); !s.ok()) {
      std::fprintf(stderr, "lanediff eval: %s\n", std::string(s.message()).c_str());
      return false;
    }
    if (json_) FormatJson();
    else FormatText();
    lanes_.Clear();
    lane_lines_.clear();
    error_rows_.clear();
    return WriteAll(out_.data(), out_.size());
  }

  void FormatJson() {
    const size_t words = static_cast<size_t>(DstWords(ctx_.instr));
    out_.clear();
    auto next = error_rows_.begin();
    const size_t n = lanes_.size();
    for (size_t i = 0; i <= n; ++i) {
      for (; next != error_rows_.end() && next->before == i; ++next) out_ += next->text;
      if (i == n) break;
      absl::StrAppend(&out_, "{\"line\":", lane_lines_[i], ",\"vdst\":\"0x",
                      absl::Hex(vdst_[i * words], absl::kZeroPad8), "\"");
      // A VGPR pair (dst_bits 64): VDST+1 as "vdst1".
      if (words > 1) {
        absl::StrAppend(&out_, ",\"vdst1\":\"0x", absl::Hex(vdst_[i * words + 1], absl::kZeroPad8),
                        "\"");
      }
      out_ += "}\n";
    }
  }

  void FormatText() {
    static constexpr char kHex[] = "0123456789abcdef";
    const size_t words = static_cast<size_t>(DstWords(ctx_.instr));
    size_t error_bytes = 0;
    for (const ErrorRow& e : error_rows_) error_bytes += e.text.size();
    out_.resize(vdst_.size() * 11 + error_bytes);
    char* p = out_.data();
    auto next_error = error_rows_.begin();
    auto put_errors_before = [&](size_t lane) {
      for (; next_error != error_rows_.end() && next_error->before == lane; ++next_error) {
        p = std::copy(next_error->text.begin(), next_error->text.end(), p);
      }
    };
    // One line per destination word (a VGPR pair: VDST, then VDST+1).
    for (size_t i = 0; i < vdst_.size(); ++i) {
      if (i % words == 0) put_errors_before(i / words);
      const uint32_t v = vdst_[i];
      *p++ = '0';
      *p++ = 'x';
      for (int s = 28; s >= 0; s -= 4) *p++ = kHex[(v >> s) & 0xf];
      *p++ = '\n';
    }
    put_errors_before(vdst_.size() / words);
  }

  const OpContext& ctx_;
  const bool json_;
  LaneBatch lanes_;
  std::vector<uint32_t> vdst_;
  std::string out_;
  uint64_t line_no_ = 0;
  bool bad_line_ = false;
  std::string error_;
  std::vector<ErrorRow> error_rows_;
  std::vector<uint64_t> lane_lines_;  // with --json: each lane's input line
};

int RunEval(int argc, char** argv) {
  Args args("eval",
            "Run the model as a pipe: read lanes from stdin, one per line, as four 32-bit hex\n"
            "words `src0 src1 src2 vdst_old` (0x optional; blank lines and # comments\n"
            "skipped), and print each lane's VDST as 0x%08x, one output row per input row.");
  std::string target_name, instr_name;
  uint64_t opsel = 0, neg = 0, abs = 0, omod = 0, mode = 0xf0, src0_sel = 6, dst_sel = 6;
  uint64_t dst_unused = 0;
  bool clamp = false, raw_mode = false, src0_sext = false;
  std::vector<std::string> hyps;
  args.Flag("targets", "the one gfx target, e.g. gfx942 (`lanediff targets`); required", &target_name);
  args.Flag("instrs", "the one instruction (`lanediff targets`); required", &instr_name);
  args.Uint("opsel", "OPSEL[3:0] as encoded (SR: OPSEL[3:2] is the destination byte)", 15,
            &opsel);
  args.Uint("neg", "NEG[2:0] mask, bit 0 = src0", 7, &neg);
  args.Uint("abs", "ABS[2:0] mask, bit 0 = src0", 7, &abs);
  args.Bool("clamp", "set the CLAMP bit", &clamp);
  args.Uint("omod", "OMOD[1:0]", 3, &omod);
  args.Uint("src0-sel", "SDWA SRC0_SEL of a GFX9 _sdwa word (6 = DWORD: the other forms)", 7,
            &src0_sel);
  args.Uint("dst-sel", "SDWA DST_SEL (6 = DWORD: the other forms)", 7, &dst_sel);
  args.Uint("dst-unused", "SDWA DST_UNUSED (0 PAD, 1 SEXT, 2 PRESERVE)", 3, &dst_unused);
  args.Bool("src0-sext", "set SDWA SRC0_SEXT", &src0_sext);
  args.Hex("mode", "the MODE register, hex (0x optional); default 0xf0. The kernel's fields "
          "(MODE[7:0], MODE[23]) are taken from it, the rest is the harness kernel's (DX10_CLAMP "
          "and IEEE set on GFX9-11)", 0xffffffffu, &mode);
  args.Bool("raw-mode", "evaluate under --mode's 32 bits exactly, not the kernel's MODE (a "
            "state no lanediff kernel runs, e.g. DX10_CLAMP clear on GFX9)", &raw_mode);
  args.Repeated("hypothesis", "select a hypothesis (repeatable; `lanediff targets --hypotheses`)", &hyps);
  // The example: the fp8 SR row (E4M3 OCP on gfx1201), byte 0 written (docs/semantics.md §6).
  const std::string sr = ExampleInstr(RowIsSeededFp8);
  args.Epilog(absl::StrCat(
      sr.empty() ? "" : "example:\n",
      sr.empty() ? "" : "  echo '3fffffff fffff000 0 aabbccdd' | lanediff eval --targets gfx1201 \\\n",
      sr.empty() ? "" : absl::StrCat("      --instrs ", sr, "          # prints 0xaabbcc40\n"),
      "A malformed row gets an error row in its place, so output row k answers input row k:\n"
      "  error: line N: REASON          (N counts every stdin line, comments included)\n"
      "exit codes: 0 every row evaluated; 1 some row was malformed (its error row printed,\n"
      "also reported on stderr); 2 usage error; 3 stdout or stdin failed."));
  bool json = false;
  args.Bool("json", "JSON Lines: {\"line\":N,\"vdst\":\"0x...\"} per lane, {\"line\":N,\"error\":...} "
            "per malformed row (docs/json.md)", &json);
  if (int rc = args.Parse(argc, argv); rc >= 0) return rc;

  auto usage_error = [](const std::string& msg) {
    std::fprintf(stderr, "lanediff eval: %s\n", msg.c_str());
    return kExitUsage;
  };
  if (target_name.empty()) {
    std::vector<absl::string_view> names;
    for (const TargetTraits& t : AllTargets()) names.push_back(t.name);
    return usage_error(absl::StrCat("--targets is required; valid: ", absl::StrJoin(names, ", ")));
  }
  if (instr_name.empty()) {
    std::vector<absl::string_view> names;
    for (Instr i : kAllInstrs) names.push_back(InstrName(i));
    return usage_error(absl::StrCat("--instrs is required; valid: ", absl::StrJoin(names, ", ")));
  }
  OpContext ctx;
  if (int rc = ParseOneTarget("eval", target_name, &ctx.target); rc >= 0) return rc;
  if (int rc = ParseOneInstr("eval", instr_name, &ctx.instr); rc >= 0) return rc;
  ctx.mods.opsel = static_cast<uint8_t>(opsel);
  ctx.mods.neg = static_cast<uint8_t>(neg);
  ctx.mods.abs = static_cast<uint8_t>(abs);
  ctx.mods.clamp = clamp;
  ctx.mods.omod = static_cast<uint8_t>(omod);
  ctx.mods.src0_sel = static_cast<uint8_t>(src0_sel);
  ctx.mods.dst_sel = static_cast<uint8_t>(dst_sel);
  ctx.mods.dst_unused = static_cast<uint8_t>(dst_unused);
  ctx.mods.src0_sext = src0_sext;
  ctx.mode = raw_mode ? static_cast<uint32_t>(mode)
                      : KernelMode(*ctx.target, static_cast<uint32_t>(mode));
  if (int rc = ApplyHypothesisFlags("eval", hyps, &ctx.hyp); rc >= 0) return rc;
  if (absl::Status s = ValidateContext(ctx); !s.ok()) return usage_error(std::string(s.message()));

  EvalPipe pipe(ctx, json);
  return pipe.Run();
}

}  // namespace

LANEDIFF_REGISTER_COMMAND(20, "eval", "the model as a pipe: lanes on stdin, VDST words on stdout",
                          RunEval);

}  // namespace lanediff
