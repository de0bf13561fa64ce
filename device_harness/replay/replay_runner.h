// The replay device (--device=replay:PATH): answers from recorded observations, so a model
// change can be checked against silicon recordings on a machine without a GPU.
//
// PATH is a proto::Recording file (text or binary, recording_io.h) or a directory of them.
// Every recorded entry is rebuilt into the batch it was (BuildDeviceBatch) and indexed lane
// by lane under (target, instruction words, MODE) and the lane's resolved operand values
// (src0, src1, src2 as the instruction reads them, vdst_old). A batch is answered when every
// one of its lanes was recorded under its key, in any grouping; a lane recorded as part of a
// faulted batch replays that fault. A batch with no recording is a NotFound error naming the
// target, the assembly and words, MODE and the lane count, and the first lane missing.
// Two recordings of one key with different words are refused at load, naming both files.
//
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<Runner> dev, OpenReplayRunner("rec/mi300x"));
#ifndef LANEDIFF_DEVICE_HARNESS_REPLAY_REPLAY_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_REPLAY_REPLAY_RUNNER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "device_harness/runner.h"

namespace lanediff {

absl::StatusOr<std::unique_ptr<Runner>> OpenReplayRunner(const std::string& path);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_REPLAY_REPLAY_RUNNER_H_
