#include "fuzz/cli/llvm_mc_format.h"


#include "absl/strings/str_cat.h"

namespace lanediff {
namespace {

constexpr size_t kCommentColumn = 40;  // MCAsmInfo::CommentColumn
constexpr size_t kTabStop = 8;         // SourceMgr's tab expansion

}  // namespace

std::string LlvmMcLine(absl::string_view text, absl::string_view bytes,
                       absl::string_view extra_comment) {
  std::string out = absl::StrCat("\t", text);
  if (!bytes.empty()) {
    // PadToColumn: at least one space.
    out.append(text.size() < kCommentColumn ? kCommentColumn - text.size() : 1, ' ');
    absl::StrAppend(&out, "; encoding: ", bytes);
  }
  if (!extra_comment.empty()) absl::StrAppend(&out, " ; ", extra_comment);
  out.push_back('\n');
  return out;
}

std::string LlvmMcDiagnostic(int line, int column, absl::string_view kind,
                             absl::string_view message, absl::string_view source) {
  std::string expanded;
  size_t caret = std::string::npos;
  for (size_t i = 0; i < source.size(); ++i) {
    const size_t before = expanded.size();
    if (source[i] == '\t') {
      expanded.append(kTabStop - expanded.size() % kTabStop, ' ');
    } else {
      expanded.push_back(source[i]);
    }
    if (static_cast<int>(i) + 1 == column) caret = before;
  }
  if (caret == std::string::npos) caret = expanded.size();  // past the end
  return absl::StrCat("<stdin>:", line, ":", column, ": ", kind, ": ", message, "\n", expanded,
                      "\n", std::string(caret, ' '), "^\n");
}

int ColumnOfQuotedToken(absl::string_view source, absl::string_view message) {
  const size_t open = message.find('\'');
  if (open != absl::string_view::npos) {
    const size_t close = message.find('\'', open + 1);
    if (close != absl::string_view::npos && close > open + 1) {
      const absl::string_view token = message.substr(open + 1, close - open - 1);
      // Not the mnemonic: search after the first blank.
      const size_t operands = source.find_first_of(" \t", source.find_first_not_of(" \t"));
      const size_t at =
          operands == absl::string_view::npos ? source.find(token) : source.find(token, operands);
      if (at != absl::string_view::npos) return static_cast<int>(at) + 1;
    }
  }
  const size_t first = source.find_first_not_of(" \t");
  return first == absl::string_view::npos ? 1 : static_cast<int>(first) + 1;
}

}  // namespace lanediff
