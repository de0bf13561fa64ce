// One JSON object on one line, for the `--json` output of lanediff's commands (JSON Lines:
// one object per line, docs/json.md). Strings are escaped so that the line is always valid
// JSON and valid UTF-8, whatever bytes a file name or a device message holds (a byte that is
// not part of valid UTF-8 becomes U+FFFD).
//
//   JsonLine j;
//   j.Str("type", "finding").Str("signature", sig).Uint("count", 3);
//   std::printf("%s\n", j.Text().c_str());     // {"type":"finding","signature":"...","count":3}
#ifndef LANEDIFF_FUZZ_CLI_JSON_LINE_H_
#define LANEDIFF_FUZZ_CLI_JSON_LINE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace lanediff {

// `s` as a JSON string literal, quotes included.
std::string JsonString(absl::string_view s);

class JsonLine {
 public:
  JsonLine& Str(absl::string_view key, absl::string_view value);
  JsonLine& Uint(absl::string_view key, uint64_t value);
  JsonLine& Num(absl::string_view key, double value);  // null when not finite
  JsonLine& Bool(absl::string_view key, bool value);
  JsonLine& Strs(absl::string_view key, const std::vector<std::string>& values);
  // `json` must already be valid JSON (a nested JsonLine's Text(), an array of them).
  JsonLine& Raw(absl::string_view key, absl::string_view json);
  std::string Text() const { return "{" + body_ + "}"; }

 private:
  void Key(absl::string_view key);
  std::string body_;
};

// "[a,b,c]" from already-encoded JSON values.
std::string JsonArray(const std::vector<std::string>& values);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_JSON_LINE_H_
