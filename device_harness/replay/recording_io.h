// Reading and writing proto::Recording files (the answers of a device, for
// --device=replay:PATH and `lanediff record`).
//
// Format by name: `.pb` / `.binpb` are binary; `.textproto` / `.txtpb` / `.pbtxt` (and any
// other name) are the project's text format (proto/text_format.h), with binary tried when
// text does not parse. Writes are atomic: a temporary file in the same directory, fsync,
// rename, fsync of the directory.
//
//   LANEDIFF_RETURN_IF_ERROR(WriteRecording(rec, "out/mi300x.textproto"));
//   LANEDIFF_ASSIGN_OR_RETURN(std::vector<LoadedRecording> all, LoadRecordings("out"));
#ifndef LANEDIFF_DEVICE_HARNESS_REPLAY_RECORDING_IO_H_
#define LANEDIFF_DEVICE_HARNESS_REPLAY_RECORDING_IO_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/lanediff.pb.h"

namespace lanediff {

struct LoadedRecording {
  std::string path;
  proto::Recording recording;
};

// One file, or every regular file under a directory (recursively, sorted, dot-files
// skipped; proto/file_io.h WalkFiles). Errors name the file (and line and column for text).
// Refused by name, never skipped: a FIFO, socket or device given or found (/dev/zero would
// never end, a FIFO would block), an unreadable directory, a file over kMaxReadFileBytes or
// kMaxMessagesPerFile, and a file holding no recorded batch (/dev/null, an empty file).
absl::StatusOr<std::vector<LoadedRecording>> LoadRecordings(const std::string& path);

absl::StatusOr<proto::Recording> ReadRecordingFile(const std::string& path);

// Atomic write (proto/file_io.h); binary when the name ends in .pb or .binpb, text otherwise.
absl::Status WriteRecording(const proto::Recording& recording, const std::string& path);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_REPLAY_RECORDING_IO_H_
