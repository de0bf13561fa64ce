#include "fuzz/report/escape.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

// A fence of backticks longer than any run of them in `s` (at least `min` long).
std::string Fence(absl::string_view s, size_t min) {
  size_t run = 0, longest = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max(min, longest + 1), '`');
}

}  // namespace

// `s` with every byte sequence XML 1.0 cannot hold as a character written as "\xNN" per byte:
// invalid UTF-8, C0 controls other than tab and line ends, DEL, U+FFFE and U+FFFF.
std::string Printable(absl::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const size_t ok = ValidUtf8Prefix(s.substr(i));
    // Valid UTF-8 run [i, i + ok): copy it, except for the characters XML refuses.
    for (size_t k = i; k < i + ok; ++k) {
      const unsigned char c = static_cast<unsigned char>(s[k]);
      const bool ffff = c == 0xef && k + 2 < i + ok && static_cast<unsigned char>(s[k + 1]) == 0xbf &&
                        (static_cast<unsigned char>(s[k + 2]) & 0xfe) == 0xbe;
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
        absl::StrAppend(&out, absl::StrFormat("\\x%02x", c));
      } else if (ffff) {
        for (int j = 0; j < 3; ++j) {
          absl::StrAppend(&out, absl::StrFormat("\\x%02x", static_cast<unsigned char>(s[k + j])));
        }
        k += 2;
      } else {
        out.push_back(static_cast<char>(c));
      }
    }
    i += ok;
    if (i < s.size()) {  // one byte that starts no valid character
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", static_cast<unsigned char>(s[i])));
      ++i;
    }
  }
  return out;
}

std::string XmlEscape(absl::string_view s) {
  return absl::StrReplaceAll(Printable(s), {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"},
                                            {"\"", "&quot;"}, {"'", "&apos;"}});
}

// Markdown text (a table cell or a list item): one line, every character Markdown or inline
// HTML could act on backslash-escaped.
std::string MdEscape(absl::string_view s) {
  std::string out;
  for (char c : Printable(s)) {
    if (c == '\n' || c == '\r' || c == '\t') {
      out.push_back(' ');
      continue;
    }
    if (absl::string_view("\\`*_{}[]<>()#!|~&").find(c) != absl::string_view::npos) {
      out.push_back('\\');
    }
    out.push_back(c);
  }
  return out;
}

// A fenced Markdown code block holding `s` verbatim (control bytes as "\xNN").
std::string MdCodeBlock(absl::string_view s) {
  const std::string text = Printable(s);
  const std::string fence = Fence(text, 3);
  return absl::StrCat(fence, "\n", text, "\n", fence);
}

// Inline Markdown code: one line, fenced by more backticks than it holds, space-padded.
std::string MdCode(absl::string_view s) {
  std::string text = Printable(s);
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  const std::string fence = Fence(text, 1);
  // A space inside the fence only where a backtick would otherwise touch it (CommonMark
  // strips one space from each end).
  const bool pad = text.empty() || text.front() == '`' || text.back() == '`';
  return pad ? absl::StrCat(fence, " ", text, " ", fence) : absl::StrCat(fence, text, fence);
}

}  // namespace lanediff
