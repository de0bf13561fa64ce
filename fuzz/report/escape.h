// Escaping for the report's three outputs. Every string that comes from a file (run records,
// findings, known issues) goes through one of these before it is written.
//
//   XmlEscape(s)    XML/HTML text and attribute values: entities, and anything XML 1.0 cannot
//                   hold (invalid UTF-8, control characters but tab and line ends,
//                   U+FFFE/U+FFFF) written as "\xNN" per byte
//   MdEscape(s)     one line of Markdown text (a table cell, a list item)
//   MdCode(s)       inline Markdown code; MdCodeBlock(s) a fenced block
#ifndef LANEDIFF_FUZZ_REPORT_ESCAPE_H_
#define LANEDIFF_FUZZ_REPORT_ESCAPE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace lanediff {

// `s` with every byte sequence XML 1.0 cannot hold as a character written as "\xNN" per byte.
std::string Printable(absl::string_view s);
std::string XmlEscape(absl::string_view s);
std::string MdEscape(absl::string_view s);
std::string MdCode(absl::string_view s);
std::string MdCodeBlock(absl::string_view s);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPORT_ESCAPE_H_
