// libFuzzer: bytes from outside lanediff on their way into its files. The input is cut into
// four strings (at 0x00 0x00 pairs, or evenly when there are fewer): a device's stderr, an
// exec-serve hello's device description, an exec-serve fault message, and a path (a corpus
// directory name). Each goes the way the harness takes it - stderr through TruncateMiddle and
// ToValidUtf8 (as the exec runner builds a fault message), the description and the message
// through the exec-serve wire format (EncodeHello/DecodeHello, EncodeAnswer/DecodeAnswer), the
// path through ShellQuote into a repro line - and then store -> load -> replay -> report:
// a DEVICE_FAULT finding recorded in a corpus under that directory (CorpusStore), loaded again
// (LoadCorpus), replayed on the simulator (ReplayFinding), rendered (JUnit, HTML, Markdown),
// and a run record naming the device written (ToText) and read back (ParseRunRecordFile).
// Checked: whatever is stored loads again with no error, holds valid UTF-8 (the input's own
// valid UTF-8 unchanged), and the repro line's quoted path gives back the exact path bytes.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "device_harness/exec/subprocess.h"
#include "device_harness/fault.h"
#include "device_harness/serve/serve_protocol.h"
#include "device_harness/sim/sim_runner.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/engine/replay.h"
#include "fuzz/report/report.h"
#include "model/isa/testcase.h"
#include "model/targets/targets.h"
#include "proto/text_format.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "external_text_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

void CheckUtf8(const std::string& s, const char* what) {
  if (lanediff::ValidUtf8Prefix(s) != s.size()) Fail(what, "invalid UTF-8");
}

// The words of ShellQuote's output, decoded as a POSIX shell would: '...' literal, and
// "$(printf '\NNN')" one byte. Enough for what ShellQuote writes (and nothing else).
std::string UnquoteShellWord(absl::string_view q) {
  std::string out;
  size_t i = 0;
  if (q.empty() || q[0] != '\'') return std::string(q);  // written plain
  while (i < q.size()) {
    if (q[i] == '\'') {
      const size_t end = q.find('\'', i + 1);
      if (end == absl::string_view::npos) Fail("unquote", "unterminated quote");
      const absl::string_view lit = q.substr(i + 1, end - i - 1);
      out.append(lit.data(), lit.size());
      i = end + 1;
    } else if (q.substr(i, 2) == "\\'") {
      out += '\'';
      i += 2;
    } else if (q.substr(i, 12) == "\"$(printf '\\") {
      const absl::string_view oct = q.substr(i + 12, 3);
      if (oct.size() != 3 || q.substr(i + 15, 3) != "')\"") Fail("unquote", std::string(q));
      out += static_cast<char>(((oct[0] - '0') << 6) | ((oct[1] - '0') << 3) | (oct[2] - '0'));
      i += 18;
    } else {
      Fail("unquote: unexpected text", std::string(q.substr(i)));
    }
  }
  return out;
}

std::vector<std::string> Split4(absl::string_view data) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i + 1 < data.size() && parts.size() < 3; ++i) {
    if (data[i] == '\0' && data[i + 1] == '\0') {
      parts.emplace_back(data.substr(start, i - start));
      start = i + 2;
      ++i;
    }
  }
  parts.emplace_back(data.substr(start));
  while (parts.size() < 4) parts.emplace_back();
  return parts;
}

// Never destroyed, so the exit handler that removes it can still read it.
const std::string& ScratchRoot() {
  static const std::string* root = [] {
    // tmpfs when there is one: every Record fsyncs, which a disk makes the slowest step.
    struct stat st;
    const bool shm = ::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && ::access("/dev/shm", W_OK) == 0;
    auto* t = new std::string(shm ? "/dev/shm/external_text_fuzzer_XXXXXX" : "/tmp/external_text_fuzzer_XXXXXX");
    if (::mkdtemp(t->data()) == nullptr) Fail("mkdtemp", *t);
    std::atexit([] {  // libFuzzer ends with exit(): nothing is left in /dev/shm or /tmp
      std::error_code ec;
      std::filesystem::remove_all(ScratchRoot(), ec);
    });
    return t;
  }();
  return *root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace lanediff;
  if (size > 16384) return 0;
  const std::vector<std::string> part =
      Split4(absl::string_view(reinterpret_cast<const char*>(bytes), size));
  const std::string& stderr_bytes = part[0];
  const std::string& description = part[1];
  const std::string& message = part[2];
  std::string dir_name = part[3].substr(0, 200);  // one path component: no '/', no NUL
  for (char& c : dir_name) {
    if (c == '/' || c == '\0') c = '_';
  }
  if (dir_name.empty() || dir_name == "." || dir_name == "..") dir_name = "d";

  // The harness side: how each string reaches a finding.
  const std::string fault_from_stderr =
      ToValidUtf8(absl::StrCat("exec:dev: failed: exit status 1; stderr: ", TruncateMiddle(stderr_bytes)));
  CheckUtf8(fault_from_stderr, "exec fault text");
  absl::StatusOr<ServeHello> hello =
      DecodeHello(EncodeHello({.device = description, .targets = {}, .instrs = {}}));
  if (!hello.ok()) Fail("hello did not decode", std::string(hello.status().message()));
  CheckUtf8(hello->device, "hello description");
  if (ValidUtf8Prefix(description) == description.size() && hello->device != description) {
    Fail("valid description changed", hello->device);
  }
  absl::StatusOr<ServeAnswer> answer = DecodeAnswer(EncodeAnswer(1, DeviceFault(message)), 0);
  if (!answer.ok() || answer->result.ok()) Fail("fault answer did not decode", "");
  const std::string fault_message(answer->result.status().message());
  CheckUtf8(fault_message, "fault message");

  const std::string corpus = absl::StrCat(ScratchRoot(), "/", dir_name);
  const std::string findings = corpus + "/findings";
  std::error_code ec;
  std::filesystem::remove_all(corpus, ec);

  proto::Finding f;
  f.set_kind(proto::Finding::DEVICE_FAULT);
  const Instr instr = kAllInstrs[0];  // the first row: on every target
  f.set_signature(absl::StrCat(InstrName(instr), ".device_fault"));
  f.mutable_testcase()->set_target("gfx942");
  f.mutable_testcase()->set_instr(InstrToProto(instr));
  f.mutable_testcase()->add_lanes()->set_src0(0x3f800000);
  f.set_fault(absl::StrCat(fault_from_stderr, "; ", fault_message));
  f.mutable_device()->set_runner("exec-serve:dev");
  f.mutable_device()->set_device(hello->device);
  // Unsanitized bytes too: the writer (ToText) must make them loadable on its own.
  f.mutable_device()->set_driver(description);
  f.set_repro(ShellJoin({"lanediff", "replay", findings, "--device=sim"}));
  CheckUtf8(f.repro(), "repro line");
  const std::string quoted = ShellQuote(findings);
  if (!absl::StrContains(f.repro(), quoted)) Fail("repro lacks the quoted path", f.repro());
  if (UnquoteShellWord(quoted) != findings) Fail("quoted path does not give the path back", quoted);

  absl::StatusOr<CorpusStore> store = CorpusStore::Open(findings);
  if (!store.ok()) Fail("open store", std::string(store.status().message()));
  absl::StatusOr<RecordOutcome> rec = store->Record(f);
  if (!rec.ok()) Fail("record", std::string(rec.status().message()));
  CorpusLoad load = LoadCorpus({findings});
  if (!load.errors.empty()) Fail("stored finding does not load", load.errors[0]);
  if (load.findings.size() != 1) Fail("loaded findings", absl::StrCat(load.findings.size()));
  const proto::Finding& back = load.findings[0].finding;
  if (back.fault() != f.fault() || back.device().device() != hello->device ||
      back.device().driver() != ToValidUtf8(description) || back.repro() != f.repro()) {
    Fail("loaded finding differs from what was stored", back.DebugString());
  }

  static std::unique_ptr<Runner> sim = [] {
    absl::StatusOr<std::unique_ptr<Runner>> r = OpenSimRunner({});
    if (!r.ok()) Fail("sim runner", std::string(r.status().message()));
    return *std::move(r);
  }();
  const ReplayOutcome replay = ReplayFinding(back, Hypotheses{}, *sim, Relaxations{});
  if (replay.reproduced) Fail("a device fault reproduced on the simulator", replay.detail);

  proto::RunRecord run;
  run.mutable_identity()->set_device_kind("exec");
  run.mutable_identity()->set_device_name(description);
  run.mutable_identity()->set_driver(fault_message);
  run.set_host(dir_name);
  const std::string run_text = ToText(run);
  CheckUtf8(run_text, "run record text");
  proto::RunRecord run_back;
  if (absl::Status s = ParseTextInto(run_text, "run.textproto", &run_back); !s.ok()) {
    Fail("written run record does not parse", std::string(s.message()));
  }
  absl::StatusOr<proto::RunRecord> validated = ParseRunRecordFile("run.textproto", run_text);
  if (!validated.ok() && absl::StrContains(validated.status().message(), "UTF-8")) {
    Fail("written run record refused as not UTF-8", std::string(validated.status().message()));
  }

  ReportData data;
  data.findings = std::move(load.findings);
  data.runs.push_back(std::move(run_back));
  data.load_errors.push_back(dir_name);
  data.incomplete = ToValidUtf8(message);
  for (const std::string& out : {RenderJUnit(data), RenderHtml(data), RenderMarkdown(data)}) {
    CheckUtf8(out, "report");
  }
  std::filesystem::remove_all(corpus, ec);
  return 0;
}
