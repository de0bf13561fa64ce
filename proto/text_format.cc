#include "proto/text_format.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/reflection.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/wire_format_lite.h"

namespace lanediff {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::TextFormat;

class HexWordPrinter : public TextFormat::FastFieldValuePrinter {
 public:
  explicit HexWordPrinter(bool float_comment) : float_comment_(float_comment) {}
  void PrintUInt32(uint32_t val, TextFormat::BaseTextGenerator* generator) const override {
    std::string text = absl::StrFormat("0x%08x", val);
    if (float_comment_) {
      float f;
      std::memcpy(&f, &val, sizeof f);
      // Printed by the host's formatter: a comment for people, never read back.
      absl::StrAppend(&text, "  # ", absl::StrFormat("%.9g", f));
    }
    generator->PrintString(text);
  }

 private:
  bool float_comment_;
};

void RegisterHexPrinters(const Descriptor* type, TextFormat::Printer* printer,
                         std::vector<const Descriptor*>* seen) {
  for (const Descriptor* s : *seen) {
    if (s == type) return;
  }
  seen->push_back(type);
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* field = type->field(i);
    if (field->type() == FieldDescriptor::TYPE_FIXED32) {
      const bool is_f32 = field->full_name() == "lanediff.proto.Lane.src0";
      printer->RegisterFieldValuePrinter(field, new HexWordPrinter(is_f32));
    } else if (field->type() == FieldDescriptor::TYPE_MESSAGE) {
      RegisterHexPrinters(field->message_type(), printer, seen);
    }
  }
}

class LineErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  explicit LineErrorCollector(absl::string_view source) : source_(source) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    errors_.push_back(absl::StrCat(source_, ":", line + 1, ":", column + 1, ": ", message));
  }
  void AddWarning(int line, google::protobuf::io::ColumnNumber column,
                  const std::string& message) override {
    AddError(line, column, message);
  }
  std::string Joined() const { return absl::StrJoin(errors_, "\n"); }
  bool empty() const { return errors_.empty(); }

 private:
  std::string source_;
  std::vector<std::string> errors_;
};

// "source:line:col" of byte `offset` of `text` (1-based, columns in bytes).
std::string Where(absl::string_view source, absl::string_view text, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return absl::StrCat(source, ":", line, ":", col);
}

absl::Status OverBudget(absl::string_view source, size_t messages) {
  return absl::InvalidArgumentError(absl::StrCat(
      source, ": its ", messages, " or more nested messages (lanes, sweeps, entries ...) would take more than ",
      ParseBudgetBytes() >> 20, " MiB once parsed (the room of ", kParseBudgetLanes,
      " lanes), refused before parsing"));
}

// Costs the nested messages of a binary `type` on the wire, without allocating any. Stops
// early (returning true) once *bytes passes the budget; false when the wire format is broken
// (the real parser then says so).
bool CostWireMessages(google::protobuf::io::CodedInputStream* in, const Descriptor* type,
                      int depth, size_t* bytes, size_t* messages) {
  using google::protobuf::internal::WireFormatLite;
  if (depth > 100) return false;  // protobuf's own recursion limit
  for (;;) {
    const uint32_t tag = in->ReadTag();
    if (tag == 0) return true;  // end of this message (or of the data)
    const FieldDescriptor* field = type->FindFieldByNumber(WireFormatLite::GetTagFieldNumber(tag));
    if (field != nullptr && field->type() == FieldDescriptor::TYPE_MESSAGE &&
        WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t length = 0;
      if (!in->ReadVarint32(&length)) return false;
      if (length > static_cast<uint32_t>(std::numeric_limits<int>::max())) return false;
      ++*messages;
      *bytes += ParsedMessageCost(field->message_type());
      if (*bytes > ParseBudgetBytes()) return true;
      const auto limit = in->PushLimit(static_cast<int>(length));
      if (!CostWireMessages(in, field->message_type(), depth + 1, bytes, messages)) return false;
      if (*bytes > ParseBudgetBytes()) return true;
      if (in->BytesUntilLimit() != 0) return false;
      in->PopLimit(limit);
    } else if (!WireFormatLite::SkipField(in, tag)) {
      return false;
    }
  }
}

// Cost of a message opened in text after field `name`, for every message field of a type's
// tree; `max` for a name not found (a '{' inside a string or comment, an extension).
struct TextCosts {
  std::map<std::string, size_t> by_field;
  size_t max = 0;
};

void AddTextCosts(const Descriptor* type, TextCosts* costs, std::vector<const Descriptor*>* seen) {
  if (std::find(seen->begin(), seen->end(), type) != seen->end()) return;
  seen->push_back(type);
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* f = type->field(i);
    if (f->type() != FieldDescriptor::TYPE_MESSAGE) continue;
    const size_t c = ParsedMessageCost(f->message_type());
    size_t& slot = costs->by_field[std::string(f->name())];
    slot = std::max(slot, c);
    costs->max = std::max(costs->max, c);
    AddTextCosts(f->message_type(), costs, seen);
  }
}

// Upper bound of what parsing `text` as `type` allocates in messages.
size_t TextCost(absl::string_view text, const Descriptor* type, size_t* messages) {
  TextCosts costs;
  std::vector<const Descriptor*> seen;
  AddTextCosts(type, &costs, &seen);
  size_t bytes = 0;
  for (size_t i = 0; i < text.size() && bytes <= ParseBudgetBytes(); ++i) {
    if (text[i] != '{' && text[i] != '<') continue;
    ++*messages;
    size_t end = i;  // the identifier before it, past spaces and a ':'
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\n' ||
                       text[end - 1] == '\r' || text[end - 1] == ':')) {
      --end;
    }
    size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(text[begin - 1])) ||
                         text[begin - 1] == '_')) {
      --begin;
    }
    const auto it = costs.by_field.find(std::string(text.substr(begin, end - begin)));
    bytes += it == costs.by_field.end() ? costs.max : it->second;
  }
  return bytes;
}

// The first string field (not bytes) holding invalid UTF-8, as "testcase.note", or "".
std::string InvalidUtf8Field(const google::protobuf::Message& m, const std::string& prefix) {
  const google::protobuf::Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    const std::string name = prefix.empty() ? f->name() : absl::StrCat(prefix, ".", f->name());
    if (f->type() == FieldDescriptor::TYPE_STRING) {
      const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
      for (int i = 0; i < n; ++i) {
        const std::string v = f->is_repeated() ? r->GetRepeatedString(m, f, i) : r->GetString(m, f);
        if (ValidUtf8Prefix(v) != v.size()) {
          return f->is_repeated() ? absl::StrCat(name, "[", i, "]") : name;
        }
      }
    } else if (f->type() == FieldDescriptor::TYPE_MESSAGE) {
      const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
      for (int i = 0; i < n; ++i) {
        const std::string where = f->is_repeated() ? absl::StrCat(name, "[", i, "]") : name;
        std::string bad = InvalidUtf8Field(
            f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), where);
        if (!bad.empty()) return bad;
      }
    }
  }
  return "";
}

absl::Status CheckStrings(absl::string_view source, google::protobuf::Message* message) {
  const std::string bad = InvalidUtf8Field(*message, "");
  if (bad.empty()) return absl::OkStatus();
  message->Clear();
  return absl::InvalidArgumentError(
      absl::StrCat(source, ": field ", bad, ": invalid UTF-8 (text fields must be UTF-8)"));
}

}  // namespace

size_t ParsedMessageCost(const Descriptor* type) {
  thread_local std::map<const Descriptor*, size_t> cache;
  size_t& cost = cache[type];
  if (cost == 0) {
    const google::protobuf::Message* prototype =
        google::protobuf::MessageFactory::generated_factory()->GetPrototype(type);
    cost = prototype->SpaceUsedLong() + 16;  // + its pointer in the parent + allocator overhead
  }
  return cost;
}

size_t ParseBudgetBytes() {
  static const size_t budget = kParseBudgetLanes * ParsedMessageCost(proto::Lane::descriptor());
  return budget;
}

size_t ValidUtf8Prefix(absl::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
      len = 2, cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3, cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4, cp = c & 0x07;
    } else {
      return i;  // a continuation byte, an overlong lead (0xc0, 0xc1) or 0xf5..0xff
    }
    if (i + len > n) return i;
    for (size_t k = 1; k < len; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8.
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff)) {
      return i;
    }
    i += len;
  }
  return n;
}

std::string ToValidUtf8(absl::string_view s) {
  std::string out;
  out.reserve(s.size());
  while (!s.empty()) {
    const size_t ok = ValidUtf8Prefix(s);
    out.append(s.data(), ok);
    s.remove_prefix(ok);
    if (s.empty()) break;
    out += "\xef\xbf\xbd";  // U+FFFD for the byte that starts no valid sequence
    s.remove_prefix(1);
  }
  return out;
}

namespace {
bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }
}  // namespace

size_t Utf8CutBefore(absl::string_view s, size_t max) {
  if (max >= s.size()) return s.size();
  size_t n = max;
  // A character is at most 4 bytes: back up over at most 3 continuation bytes.
  for (int k = 0; k < 3 && n > 0 && IsContinuation(s[n]); ++k) --n;
  return n;
}

size_t Utf8CutAfter(absl::string_view s, size_t from) {
  size_t n = from;
  for (int k = 0; k < 3 && n < s.size() && IsContinuation(s[n]); ++k) ++n;
  return n;
}

void MakeStringsValidUtf8(google::protobuf::Message* m) {
  const google::protobuf::Reflection* r = m->GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(*m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (f->type() == FieldDescriptor::TYPE_STRING) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*m, f); ++i) {
          r->SetRepeatedString(m, f, i, ToValidUtf8(r->GetRepeatedString(*m, f, i)));
        }
      } else {
        r->SetString(m, f, ToValidUtf8(r->GetString(*m, f)));
      }
    } else if (f->type() == FieldDescriptor::TYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*m, f); ++i) {
          MakeStringsValidUtf8(r->MutableRepeatedMessage(m, f, i));
        }
      } else {
        MakeStringsValidUtf8(r->MutableMessage(m, f));
      }
    }
  }
}

std::string ToText(const google::protobuf::Message& message) {
  if (!InvalidUtf8Field(message, "").empty()) {
    std::unique_ptr<google::protobuf::Message> copy(message.New());
    copy->CopyFrom(message);
    MakeStringsValidUtf8(copy.get());
    return ToText(*copy);
  }
  TextFormat::Printer printer;
  printer.SetSingleLineMode(false);  // the float comments need line ends
  // Unknown fields (a binary message from a newer schema) print as "8: 107", which no text
  // parser accepts: a file written from such a message would not load again. They are dropped.
  printer.SetHideUnknownFields(true);
  std::vector<const Descriptor*> seen;
  RegisterHexPrinters(message.GetDescriptor(), &printer, &seen);
  std::string out;
  printer.PrintToString(message, &out);
  return out;
}

absl::Status ParseTextInto(absl::string_view text, absl::string_view source,
                           google::protobuf::Message* message) {
  message->Clear();
  if (const size_t ok = ValidUtf8Prefix(text); ok != text.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: invalid UTF-8 (byte 0x%02x); lanediff text files are UTF-8",
        Where(source, text, ok), static_cast<unsigned char>(text[ok])));
  }
  size_t messages = 0;
  if (TextCost(text, message->GetDescriptor(), &messages) > ParseBudgetBytes()) {
    return OverBudget(source, messages);
  }
  LineErrorCollector errors(source);
  TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  const bool ok = parser.ParseFromString(std::string(text), message);
  if (!ok || !errors.empty()) {
    message->Clear();
    if (errors.empty()) return absl::InvalidArgumentError(absl::StrCat(source, ": not a valid text proto"));
    return absl::InvalidArgumentError(errors.Joined());
  }
  return CheckStrings(source, message);
}

absl::Status ParseBinaryInto(absl::string_view data, absl::string_view source,
                             google::protobuf::Message* message) {
  message->Clear();
  if (data.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": too large for a binary proto"));
  }
  size_t bytes = 0, messages = 0;
  {
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(data.data()),
                                              static_cast<int>(data.size()));
    CostWireMessages(&in, message->GetDescriptor(), 0, &bytes, &messages);
  }
  if (bytes > ParseBudgetBytes()) return OverBudget(source, messages);
  if (!message->ParseFromArray(data.data(), static_cast<int>(data.size()))) {
    message->Clear();
    return absl::InvalidArgumentError(absl::StrCat(source, ": malformed or truncated binary ",
                                                   message->GetDescriptor()->full_name(), " (",
                                                   data.size(), " bytes)"));
  }
  return CheckStrings(source, message);
}

std::string InstructionName(proto::Instruction instr) {
  return proto::Instruction_Name(instr);
}

}  // namespace lanediff
