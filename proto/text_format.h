// Text format for lanediff's messages: the corpus format, meant to be read and edited by people.
//
// Differences from protobuf's default printer: every fixed32 field (raw operand and result
// words) prints as 8-digit hex, and a lane's src0 carries its f32 value as a comment:
//
//   lanes {
//     src0: 0x3fc00000  # 1.5
//     src1: 0x00000002
//   }
//
// Parsing is protobuf's own (hex and decimal both accepted); errors name the source and the
// 1-based line and column: "corpus/x.textproto:7:3: Message type ... has no field named ...".
//
//   LANEDIFF_ASSIGN_OR_RETURN(proto::TestCase tc,
//                             ParseText<proto::TestCase>(text, "case.textproto"));
//   std::string again = ToText(tc);
#ifndef LANEDIFF_PROTO_TEXT_FORMAT_H_
#define LANEDIFF_PROTO_TEXT_FORMAT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

// Multi-line text with hex words and value comments. A string field holding invalid UTF-8
// (bytes from outside lanediff) is printed through ToValidUtf8, so the text always parses.
std::string ToText(const google::protobuf::Message& message);

// Memory a file's parsed messages may take, counted before parsing so that a small file cannot
// expand to gigabytes (an empty Lane is 2 bytes of binary and about 90 bytes in memory): as
// much as kParseBudgetLanes Lane messages take, i.e. 2^20 lanes (the per-batch limit) plus
// room for the rest. Larger messages count for more (a SweepResult for several lanes).
inline constexpr size_t kParseBudgetLanes = (size_t{1} << 20) + (size_t{1} << 16);
size_t ParseBudgetBytes();

// Estimated heap bytes of one parsed message of `type` (the object, its pointer in the
// parent's list, allocator overhead); what the parse budget counts.
size_t ParsedMessageCost(const google::protobuf::Descriptor* type);

// Parses `text` into `message` (cleared first). `source` names the input in errors. Refused
// before parsing: text that is not valid UTF-8 ("source:line:col: invalid UTF-8") and text
// with more than kMaxMessagesPerFile message openings ('{' or '<'); after parsing, a string
// field holding invalid UTF-8 (written as an escape such as "\377") is refused by field name.
absl::Status ParseTextInto(absl::string_view text, absl::string_view source,
                           google::protobuf::Message* message);

// The binary form, with the same limits: the nested messages are costed on the wire before
// anything is allocated, and string fields must be valid UTF-8.
absl::Status ParseBinaryInto(absl::string_view data, absl::string_view source,
                             google::protobuf::Message* message);

// Length of the longest prefix of `s` that is valid UTF-8 (== s.size() when all of it is).
size_t ValidUtf8Prefix(absl::string_view s);

// The one rule for text lanediff did not make (a device's stderr, a device description, a
// fault message, a path, a flag's text) on its way into a text proto, a report or JSON: each
// byte that is not part of valid UTF-8 becomes U+FFFD; valid UTF-8 is returned unchanged.
// ToText applies it to every string field, so no file lanediff writes fails its own loader.
// Text that must come back byte for byte (a path in a repro line) is escaped instead
// (ShellQuote, device_harness/exec/subprocess.h).
//   ToValidUtf8("caf\xe9") == "caf\xef\xbf\xbd"
std::string ToValidUtf8(absl::string_view s);

// Cutting text without splitting a character: the largest n <= max such that s[0, n) ends on a
// character boundary (a byte that is not a UTF-8 continuation byte follows, or the end), and
// the smallest start >= from such that s[start, end) begins on one.
size_t Utf8CutBefore(absl::string_view s, size_t max);
size_t Utf8CutAfter(absl::string_view s, size_t from);

// Every string field (not bytes) of `message` and its sub-messages through ToValidUtf8.
void MakeStringsValidUtf8(google::protobuf::Message* message);

template <typename T>
absl::StatusOr<T> ParseText(absl::string_view text, absl::string_view source) {
  T message;
  absl::Status status = ParseTextInto(text, source, &message);
  if (!status.ok()) return status;
  return message;
}

// The mnemonic of a proto::Instruction, as its row spells it ("INSTRUCTION_UNSPECIFIED"
// for the zero value).
std::string InstructionName(proto::Instruction instr);

}  // namespace lanediff

#endif  // LANEDIFF_PROTO_TEXT_FORMAT_H_
