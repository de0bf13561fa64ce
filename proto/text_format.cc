#include "proto/text_format.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

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

}  // namespace

std::string ToText(const google::protobuf::Message& message) {
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
  LineErrorCollector errors(source);
  TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  const bool ok = parser.ParseFromString(std::string(text), message);
  if (!ok || !errors.empty()) {
    message->Clear();
    if (errors.empty()) return absl::InvalidArgumentError(absl::StrCat(source, ": not a valid text proto"));
    return absl::InvalidArgumentError(errors.Joined());
  }
  return absl::OkStatus();
}

std::string InstructionName(proto::Instruction instr) {
  return proto::Instruction_Name(instr);
}

}  // namespace lanediff
