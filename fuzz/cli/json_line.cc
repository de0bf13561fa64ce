#include "fuzz/cli/json_line.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace lanediff {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if there is none.
size_t Utf8Length(absl::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n;
  uint32_t cp;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    cp = c & 0x07;
  } else
    return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3f);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff)) {
    return 0;
  }
  return n;
}

}  // namespace

std::string JsonString(absl::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      absl::StrAppend(&out, absl::StrFormat("\\u%04x", c));
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (size_t n = Utf8Length(s, i); n > 0) {
      out.append(s.data() + i, n);
      i += n;
      continue;
    } else {
      out += "\\ufffd";
    }
    ++i;
  }
  return out + "\"";
}

void JsonLine::Key(absl::string_view key) {
  if (!body_.empty()) body_ += ',';
  absl::StrAppend(&body_, JsonString(key), ":");
}

JsonLine& JsonLine::Str(absl::string_view key, absl::string_view value) {
  Key(key);
  body_ += JsonString(value);
  return *this;
}

JsonLine& JsonLine::Uint(absl::string_view key, uint64_t value) {
  Key(key);
  absl::StrAppend(&body_, value);
  return *this;
}

JsonLine& JsonLine::Num(absl::string_view key, double value) {
  Key(key);
  body_ += std::isfinite(value) ? absl::StrFormat("%.17g", value) : "null";
  return *this;
}

JsonLine& JsonLine::Bool(absl::string_view key, bool value) {
  Key(key);
  body_ += value ? "true" : "false";
  return *this;
}

JsonLine& JsonLine::Strs(absl::string_view key, const std::vector<std::string>& values) {
  std::vector<std::string> quoted;
  for (const std::string& v : values) quoted.push_back(JsonString(v));
  return Raw(key, JsonArray(quoted));
}

JsonLine& JsonLine::Raw(absl::string_view key, absl::string_view json) {
  Key(key);
  body_.append(json.data(), json.size());
  return *this;
}

std::string JsonArray(const std::vector<std::string>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ","), "]");
}

}  // namespace lanediff
