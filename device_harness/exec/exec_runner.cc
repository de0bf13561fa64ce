#include "device_harness/exec/exec_runner.h"

#include <unistd.h>

#include <sys/wait.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/fault.h"
#include "model/base/status.h"
#include "model/base/version.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

std::string SelfExe() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "/proc/self/exe";
  return std::string(buf, static_cast<size_t>(n));
}

// Parses one VDST word: 1..8 hex digits, `0x` optional.
bool ParseWord(absl::string_view text, uint32_t* out) {
  if (absl::StartsWith(text, "0x") || absl::StartsWith(text, "0X")) text.remove_prefix(2);
  if (text.empty() || text.size() > 8) return false;
  uint32_t v = 0;
  for (char c : text) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    v = v << 4 | static_cast<uint32_t>(d);
  }
  *out = v;
  return true;
}

// The first word of COMMAND must name something the shell can run (a builtin, a function-free
// PATH lookup or a path): `command -v` decides, as the shell itself will. Words the shell would
// expand (quotes, $, globs, redirections) are not checked here; exit 127 then says it.
}  // namespace

absl::Status CheckCommandExists(absl::string_view command, absl::string_view prefix) {
  absl::string_view t = absl::StripLeadingAsciiWhitespace(command);
  const absl::string_view first = t.substr(0, t.find_first_of(" \t\n"));
  if (first == "lanediff") return absl::OkStatus();  // this binary
  if (first.find_first_of("'\"\\$`*?[]{}()<>|&;=~#") != absl::string_view::npos) {
    return absl::OkStatus();
  }
  absl::StatusOr<SubprocessResult> r = RunSubprocess(
      {"/bin/sh", "-c", "command -v -- \"$1\"", "sh", std::string(first)}, "", absl::Seconds(30));
  if (!r.ok()) return r.status();
  if (r->exited_ok()) return absl::OkStatus();
  return absl::UnavailableError(absl::StrCat(
      "--device=", prefix, command, ": command '", first,
      "' not found (not a shell builtin, not in PATH, or not executable); PATH=",
      getenv("PATH") == nullptr ? "(unset)" : getenv("PATH")));
}

namespace {

// Lane i's stdin line: each source's dwords (one, or a wide row's tuple of N, its LaneShape)
// then vdst_old, in hex: "src0 src1 src2 vdst_old" for every one-dword row.
void AppendLaneLine(const LaneView& v, size_t i, std::string* input) {
  for (int s = 0; s < 3; ++s) {
    const size_t n = v.shape.src_dwords[s];
    for (size_t k = 0; k < n; ++k) absl::StrAppendFormat(input, "%08x ", v.src(s)[i * n + k]);
  }
  absl::StrAppendFormat(input, "%08x\n", v.vdst_old[i]);
}

class ExecRunner : public Runner {
 public:
  explicit ExecRunner(ExecOptions options) : options_(std::move(options)) {}

  std::string Describe() const override {
    return absl::StrCat("exec:", options_.command, " (external model; no hardware)");
  }

  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    LANEDIFF_ASSIGN_OR_RETURN(DecodedBatch d, DecodeDeviceBatch(batch, batch.words));
    const std::string line = ExecCommandLine(options_, d);
    const LaneView v = d.resolved.view();
    std::string input;
    input.reserve(v.size * 36);
    for (size_t i = 0; i < v.size; ++i) AppendLaneLine(v, i, &input);
    const size_t limit = ExecAnswerLimit(OutputWords(d.ctx.instr, v.size));
    LANEDIFF_ASSIGN_OR_RETURN(
        SubprocessResult r, RunSubprocess({"/bin/sh", "-c", line}, input, options_.timeout, limit));
    const std::string who = absl::StrCat("exec:", options_.command);
    if (!r.escaped.empty()) {
      std::fprintf(stderr, "lanediff: warning: %s left processes running outside its process "
                   "group (setsid); killed: %s\n", ToValidUtf8(who).c_str(),
                   ToValidUtf8(absl::StrReplaceAll(r.escaped, {{"\n", ", "}})).c_str());
    }
    auto with_stderr = [&](std::string what) {
      std::string truncated = TruncateMiddle(r.err);
      if (r.stderr_dropped > 0) {
        absl::StrAppend(&truncated, "\n[... ", r.stderr_dropped, " more bytes not kept]");
      }
      const std::string err(absl::StripTrailingAsciiWhitespace(truncated));
      // The device's bytes and the user's command line: any bytes, made UTF-8 here.
      return ToValidUtf8(absl::StrCat(what, " [command: ", line, "]",
                                      err.empty() ? "; no stderr" : absl::StrCat("; stderr: ", err)));
    };
    if (r.timed_out) {
      return DeviceFault(absl::StatusCode::kDeadlineExceeded,
                         with_stderr(absl::StrCat(who, ": hang: no complete answer within ",
                                                  absl::FormatDuration(options_.timeout),
                                                  " (timeout); process group killed")));
    }
    if (r.output_overflow) {
      return DeviceFault(with_stderr(absl::StrCat(
          who, ": printed more than ", limit, " bytes on stdout for ", v.size,
          " lanes (the limit is ", kExecAnswerBaseBytes, " + ", kExecAnswerBytesPerLane,
          " bytes per lane); process group killed")));
    }
    if (WIFEXITED(r.wait_status) &&
        (WEXITSTATUS(r.wait_status) == 126 || WEXITSTATUS(r.wait_status) == 127)) {
      // The shell's "cannot execute" / "not found": the environment, not the device.
      return absl::UnavailableError(with_stderr(absl::StrCat(
          who, ": the command cannot be run (", r.HowItEnded(),
          ": the shell's 'not found' or 'not executable')")));
    }
    if (!r.exited_ok()) {
      return DeviceFault(with_stderr(absl::StrCat(who, ": failed: ", r.HowItEnded())));
    }
    // One line per destination word: lane i's VDST, then (a VGPR pair) its VDST+1.
    const size_t want = OutputWords(d.ctx.instr, v.size);
    DeviceResult out;
    out.vdst.reserve(want);
    int line_no = 0;
    for (absl::string_view l : absl::StrSplit(r.out, '\n')) {
      ++line_no;
      absl::string_view t = absl::StripAsciiWhitespace(l);
      if (t.empty() || t[0] == '#') continue;
      uint32_t w;
      if (!ParseWord(t, &w)) {
        return DeviceFault(with_stderr(absl::StrCat(
            who, ": malformed output: stdout line ", line_no, " '", TruncateMiddle(t, 80),
            "' is not a 32-bit hex word")));
      }
      out.vdst.push_back(w);
    }
    if (out.vdst.size() != want) {
      return DeviceFault(with_stderr(absl::StrCat(
          who, ": printed ", out.vdst.size(), " VDST words for ", v.size, " lanes (",
          out.vdst.size() < want ? "too few" : "too many",
          want != v.size ? absl::StrCat("; ", want, " wanted: a VGPR pair per lane") : "", ")")));
    }
    out.provenance.set_runner(who);
    out.provenance.set_device("external model (no hardware)");
    out.provenance.set_target(std::string(batch.target->name));
    out.provenance.set_lanediff_version(LANEDIFF_VERSION);
    return out;
  }

 private:
  ExecOptions options_;
};

}  // namespace

std::vector<std::string> EvalFlags(const DecodedBatch& d) {
  const Modifiers& m = d.ctx.mods;
  std::vector<std::string> f = {
      "--targets", std::string(d.ctx.target->name), "--instrs", std::string(InstrName(d.ctx.instr)),
      "--opsel", absl::StrCat(m.opsel), "--neg", absl::StrCat(m.neg), "--abs", absl::StrCat(m.abs)};
  if (m.clamp) f.push_back("--clamp");
  f.push_back("--omod");
  f.push_back(absl::StrCat(m.omod));
  if (m.src0_sel != 6) {  // an SDWA word's select (model/ops/ops.h Modifiers::src0_sel)
    f.push_back("--src0-sel");
    f.push_back(absl::StrCat(m.src0_sel));
  }
  if (m.dst_sel != 6 || m.dst_unused != 0) {  // an SDWA word's destination fields
    f.insert(f.end(), {"--dst-sel", absl::StrCat(m.dst_sel), "--dst-unused", absl::StrCat(m.dst_unused)});
  }
  if (m.src0_sext) f.push_back("--src0-sext");
  f.push_back("--mode");
  f.push_back(absl::StrFormat("0x%08x", d.requested_mode));  // as asked; `eval` applies the kernel's state
  return f;
}

std::string ExpandLanediff(absl::string_view command, absl::string_view lanediff_path) {
  absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(command);
  if (trimmed == "lanediff" || absl::StartsWith(trimmed, "lanediff ") ||
      absl::StartsWith(trimmed, "lanediff\t")) {
    const std::string self = lanediff_path.empty() ? SelfExe() : std::string(lanediff_path);
    return absl::StrCat(ShellQuote(self), trimmed.substr(8));
  }
  return std::string(command);
}

std::string ExecCommandLine(const ExecOptions& options, const DecodedBatch& d) {
  return absl::StrCat(ExpandLanediff(options.command, options.lanediff_path), " ",
                      absl::StrJoin(EvalFlags(d), " "));
}

absl::StatusOr<std::unique_ptr<Runner>> OpenExecRunner(const ExecOptions& options) {
  if (absl::StripAsciiWhitespace(options.command).empty()) {
    return absl::InvalidArgumentError("--device=exec:COMMAND needs a command after 'exec:'");
  }
  if (options.timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("exec runner timeout must be positive");
  }
  LANEDIFF_RETURN_IF_ERROR(CheckCommandExists(options.command));
  return std::unique_ptr<Runner>(new ExecRunner(options));
}

}  // namespace lanediff
