#include "device_harness/replay/recording_io.h"

#include <sys/stat.h>

#include <cerrno>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "model/base/status.h"
#include "proto/file_io.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

bool IsBinaryName(absl::string_view path) {
  return absl::EndsWith(path, ".pb") || absl::EndsWith(path, ".binpb");
}

}  // namespace

absl::StatusOr<proto::Recording> ReadRecordingFile(const std::string& path) {
  LANEDIFF_ASSIGN_OR_RETURN(std::string data, ReadFile(path));
  proto::Recording rec;
  absl::Status parsed;
  if (IsBinaryName(path)) {
    parsed = ParseBinaryInto(data, path, &rec);
    if (!parsed.ok()) return absl::DataLossError(parsed.message());
  } else if (parsed = ParseTextInto(data, path, &rec); !parsed.ok()) {
    proto::Recording bin;
    if (data.empty() || !ParseBinaryInto(data, path, &bin).ok() || bin.entries_size() == 0) {
      return parsed;
    }
    rec = std::move(bin);
  }
  // Reading nothing is never success: an empty file (or /dev/null copied in) answers nothing.
  if (rec.entries_size() == 0) {
    return absl::DataLossError(absl::StrCat(path, ": holds no recorded batches"));
  }
  return rec;
}

absl::StatusOr<std::vector<LoadedRecording>> LoadRecordings(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return IoError("no such recording file or directory", path, errno);
  FileWalk walk = WalkFiles({path}, [](absl::string_view) { return true; });
  if (!walk.errors.empty()) {
    return absl::FailedPreconditionError(absl::StrJoin(walk.errors, "; "));
  }
  if (walk.files.empty()) {
    return absl::NotFoundError(absl::StrCat(path, ": directory holds no recording files"));
  }
  std::vector<LoadedRecording> out;
  for (const std::string& f : walk.files) {
    LANEDIFF_ASSIGN_OR_RETURN(proto::Recording rec, ReadRecordingFile(f));
    out.push_back({f, std::move(rec)});
  }
  return out;
}

absl::Status WriteRecording(const proto::Recording& recording, const std::string& path) {
  if (IsBinaryName(path)) return WriteFileAtomic(path, recording.SerializeAsString());
  return WriteFileAtomic(
      path, absl::StrCat("# lanediff recording: device answers for --device=replay:PATH\n",
                         "# proto-file: proto/lanediff.proto\n# proto-message: lanediff.proto.Recording\n",
                         ToText(recording)));
}

}  // namespace lanediff
