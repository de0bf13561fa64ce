// libFuzzer: the VOP3 encoder against the decoder and the printer against the parser.
//   1. Raw words (input bytes 1..12, target chosen by byte 0): whatever DecodeVop3 accepts
//      must re-encode to exactly the same words, and print/parse back to the same fields.
//   2. Any TestCase (the rest of the input, binary or text): Vop3FromTestCase's instruction
//      must encode, decode and print/parse to itself.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "device_harness/register_convention.h"
#include "fuzz/fuzzers/fuzz_input.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"

namespace {

void Check(const lanediff::TargetTraits& t, const lanediff::Vop3Instr& in) {
  using namespace lanediff;
  absl::StatusOr<std::vector<uint32_t>> words = EncodeVop3(t, in);
  if (!words.ok()) return;
  absl::StatusOr<DecodedVop3> d = DecodeVop3(t, *words);
  if (!d.ok()) return;  // e.g. constant-bus limits the encoder does not police
  if (!(d->vop3 == in)) {
    std::fprintf(stderr, "%s: encode then decode changed %s into %s\n", std::string(t.name).c_str(),
                 PrintVop3(t, in).c_str(), PrintVop3(t, d->vop3).c_str());
    std::abort();
  }
  const std::string text = PrintVop3(t, in);
  absl::StatusOr<Vop3Instr> parsed = ParseAsm(t, text);
  if (!parsed.ok() || !(*parsed == in)) {
    std::fprintf(stderr, "%s: '%s' does not parse back to itself: %s\n",
                 std::string(t.name).c_str(), text.c_str(),
                 parsed.ok() ? PrintVop3(t, *parsed).c_str()
                             : std::string(parsed.status().message()).c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lanediff;
  const auto targets = AllTargets();
  if (size >= 9) {
    const TargetTraits& t = targets[data[0] % targets.size()];
    std::vector<uint32_t> words((std::min<size_t>(size, 13) - 1) / 4);
    std::memcpy(words.data(), data + 1, words.size() * 4);
    absl::StatusOr<DecodedVop3> d = DecodeVop3(t, words);
    if (d.ok()) {
      absl::StatusOr<std::vector<uint32_t>> again = EncodeVop3(t, d->vop3);
      if (!again.ok() || *again != std::vector<uint32_t>(words.begin(),
                                                         words.begin() + d->words_used)) {
        std::fprintf(stderr, "%s: decoded words do not re-encode to themselves\n",
                     std::string(t.name).c_str());
        std::abort();
      }
      Check(t, d->vop3);
    }
  }
  proto::TestCase tc;
  if (ParseFuzzInput(data, size, &tc)) {
    absl::StatusOr<const TargetTraits*> t = FindTarget(tc.target());
    if (t.ok()) {
      absl::StatusOr<Vop3Instr> in = Vop3FromTestCase(**t, tc, HarnessDefaultRegisters());
      if (in.ok()) Check(**t, *in);
    }
  }
  return 0;
}
