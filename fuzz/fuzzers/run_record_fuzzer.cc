// libFuzzer: the `lanediff report` path. The input is one run record file
// (text and binary, through ParseRunRecordFile: parse, limits, ValidateRunRecord) and one
// finding file (ParseFindingFile); what loads is rendered as JUnit, Markdown and HTML. The
// input's own bytes also go in as a load error, the way an unreadable file's name does.
// Checked: no crash or sanitizer report anywhere on the path; the XML and HTML are valid
// UTF-8 with no control byte XML 1.0 forbids, and no markup from the input survives (the
// templates hold no <script, <img or <iframe, so any in the output came from a file).
// The renderers are fed the records that failed validation too, to keep them robust.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "fuzz/corpus/corpus_store.h"
#include "fuzz/report/report.h"
#include "proto/text_format.h"

namespace {

void CheckMarkup(const std::string& out, const char* what, bool xml) {
  const size_t ok = lanediff::ValidUtf8Prefix(out);
  if (ok != out.size()) {
    std::fprintf(stderr, "%s: invalid UTF-8 at byte %zu\n", what, ok);
    std::abort();
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(out[i]);
    if (xml && ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)) {
      std::fprintf(stderr, "%s: raw control byte 0x%02x at %zu\n", what, c, i);
      std::abort();
    }
  }
  for (const char* tag : {"<script", "<img", "<iframe"}) {
    if (absl::StrContains(out, tag)) {
      std::fprintf(stderr, "%s: input markup %s reached the output\n", what, tag);
      std::abort();
    }
  }
}

void Render(const lanediff::ReportData& data) {
  CheckMarkup(lanediff::RenderJUnit(data), "report.xml", true);
  CheckMarkup(lanediff::RenderHtml(data), "report.html", true);
  (void)lanediff::RenderMarkdown(data);  // Markdown: escaped, but any byte may pass in code
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace lanediff;
  const absl::string_view data(reinterpret_cast<const char*>(bytes), size);
  // One report over everything that parsed, validated or not: the validated records are a
  // subset, and the renderers must not fall over on the rest either.
  ReportData report;
  for (const char* name : {"fuzz.textproto", "fuzz.binpb"}) {
    absl::StatusOr<proto::RunRecord> r = ParseRunRecordFile(name, data);
    if (!r.ok()) report.load_errors.push_back(std::string(r.status().message()));
    absl::StatusOr<proto::Finding> f = ParseFindingFile(name, data);
    if (f.ok()) report.findings.push_back({name, *std::move(f)});
    proto::RunRecord unchecked;
    const bool binary = absl::EndsWith(name, ".binpb");
    if ((binary ? ParseBinaryInto(data, name, &unchecked) : ParseTextInto(data, name, &unchecked)).ok()) {
      report.runs.push_back(std::move(unchecked));
    }
  }
  report.load_errors.push_back(std::string(data.substr(0, 256)));
  Render(report);
  return 0;
}
