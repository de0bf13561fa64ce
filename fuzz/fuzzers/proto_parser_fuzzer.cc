// libFuzzer: the corpus parsers. Text (proto/text_format.h) and binary proto::Finding; what
// parses must print and parse back to an equal message, and ValidateFinding must not crash.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#include "fuzz/corpus/corpus_store.h"
#include "google/protobuf/util/message_differencer.h"
#include "proto/lanediff.pb.h"
#include "proto/text_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lanediff;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  proto::Finding f;
  if (ParseTextInto(text, "fuzz.textproto", &f).ok()) {
    (void)ValidateFinding(f);
    const std::string printed = ToText(f);
    proto::Finding again;
    absl::Status s = ParseTextInto(printed, "printed.textproto", &again);
    if (!s.ok() || !google::protobuf::util::MessageDifferencer::Equals(f, again)) {
      std::fprintf(stderr, "text round trip failed: %s\n--- printed:\n%s\n",
                   std::string(s.message()).c_str(), printed.c_str());
      std::abort();
    }
  }
  proto::Finding b;
  if (b.ParseFromArray(data, static_cast<int>(size))) {
    (void)ValidateFinding(b);
    // Unknown fields have no text form that parses back; the store drops them before
    // writing (regression: corpus_store_test BinaryFindingWithUnknownFieldsMergesToValidText).
    b.DiscardUnknownFields();
    const std::string printed = ToText(b);
    proto::Finding again;
    absl::Status s = ParseTextInto(printed, "printed.textproto", &again);
    if (!s.ok() || !google::protobuf::util::MessageDifferencer::Equals(b, again)) {
      std::fprintf(stderr, "binary -> text -> parse failed: %s\n--- printed:\n%s\n",
                   std::string(s.message()).c_str(), printed.c_str());
      std::abort();
    }
  }
  return 0;
}
