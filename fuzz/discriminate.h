// `lanediff discriminate`: the smallest set of one-lane test cases (questions) that separates
// every pair of hypothesis settings relevant to a target and instruction: the question list
// to put to a new chip. Against a device, which setting(s) its answers are consistent with.
//
// Relevant hypotheses: those whose alternative value changes the model's answer on at least
// one candidate input for this target/instruction. Settings: every combination of their
// values. Candidates: the mutator's domain tables (special floats, u8 boundaries, fp8/bf8
// boundaries of the target's formats) x SR seed extremes x a few MODE values x CLAMP where it
// matters, in order of simplicity. Greedy set cover over the pairs (ties go to the simplest).
//
//   LANEDIFF_ASSIGN_OR_RETURN(Discrimination d, Discriminate(*FindTarget("gfx942"),
//                                                            Instr::v_cvt_sr_fp8_f32));
//   std::fputs(FormatDiscrimination(d, nullptr).c_str(), stdout);
#ifndef LANEDIFF_FUZZ_DISCRIMINATE_H_
#define LANEDIFF_FUZZ_DISCRIMINATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "device_harness/runner.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct Question {
  proto::TestCase testcase;        // one lane
  std::vector<uint32_t> answers;   // the model's word under each setting
  std::string assembly;
};

struct Discrimination {
  std::string target;
  Instr instr;
  std::vector<std::string> relevant;   // hypothesis names
  std::vector<Hypotheses> settings;
  std::vector<std::string> setting_names;  // "sr_rounding=literal,fp16_ovfl=ignored" / "default"
  std::vector<Question> questions;
  int pairs = 0;            // pairs of settings
  int pairs_separated = 0;  // by the questions (== pairs unless two settings always agree)
  std::vector<std::string> inseparable;  // "A == B" for pairs no candidate separates
};

absl::StatusOr<Discrimination> Discriminate(const TargetTraits& target, Instr instr);

struct DeviceVerdict {
  std::vector<uint32_t> device_answers;          // per question
  std::vector<std::vector<bool>> consistent;     // per question, per setting
  std::vector<bool> all_consistent;              // per setting, over every question
  std::vector<std::string> follows;              // "sr_rounding=literal" per relevant hypothesis
                                                 // the device is unambiguous about
  std::string summary;                           // one line
};

// Runs every question on `runner`; errors name the question and the device's words.
absl::StatusOr<DeviceVerdict> AskDevice(const Discrimination& d, Runner& runner);

std::string FormatDiscrimination(const Discrimination& d, const DeviceVerdict* verdict);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_DISCRIMINATE_H_
