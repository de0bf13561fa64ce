#include "device_harness/replay/recording_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "model/base/status.h"
#include "proto/file_io.h"
#include "proto/text_format.h"

namespace lanediff {
namespace {

bool IsBinaryName(absl::string_view path) {
  return absl::EndsWith(path, ".pb") || absl::EndsWith(path, ".binpb");
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat(path, ": read error"));
  return ss.str();
}

}  // namespace

absl::StatusOr<proto::Recording> ReadRecordingFile(const std::string& path) {
  LANEDIFF_ASSIGN_OR_RETURN(std::string data, ReadWholeFile(path));
  proto::Recording rec;
  if (IsBinaryName(path)) {
    if (!rec.ParseFromString(data)) {
      return absl::DataLossError(absl::StrCat(path, ": not a binary lanediff.proto.Recording"));
    }
    return rec;
  }
  absl::Status text = ParseTextInto(data, path, &rec);
  if (text.ok()) return rec;
  proto::Recording bin;
  if (!data.empty() && bin.ParseFromString(data) && bin.entries_size() > 0) return bin;
  return text;
}

absl::StatusOr<std::vector<LoadedRecording>> LoadRecordings(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  if (fs::is_directory(path, ec)) {
    for (auto it = fs::recursive_directory_iterator(path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!name.empty() && name[0] == '.') {
        if (it->is_directory()) it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file()) files.push_back(it->path().string());
    }
    if (ec) return absl::UnavailableError(absl::StrCat(path, ": ", ec.message()));
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      return absl::NotFoundError(absl::StrCat(path, ": directory holds no recording files"));
    }
  } else if (fs::exists(path, ec)) {
    files.push_back(path);
  } else {
    return absl::NotFoundError(absl::StrCat(path, ": no such recording file or directory"));
  }
  std::vector<LoadedRecording> out;
  for (const std::string& f : files) {
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
