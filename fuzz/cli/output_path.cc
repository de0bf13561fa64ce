#include "fuzz/cli/output_path.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/cli/commands.h"

namespace lanediff {
namespace {

namespace fs = std::filesystem;

// Creates and removes a scratch file in `dir`: the only honest writability test (access()
// answers for the real uid, ignores read-only mounts' subtleties and ACLs).
absl::Status ProbeWritableDir(const fs::path& dir) {
  const std::string probe =
      (dir / absl::StrCat(".lanediff-write-probe.", ::getpid())).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create files in ", dir.string(), ": ", std::strerror(errno)));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return absl::OkStatus();
}

absl::Status MakeDirs(const fs::path& dir) {
  if (dir.empty()) return absl::OkStatus();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create directory ", dir.string(), ": ", ec.message()));
  }
  return absl::OkStatus();
}

int Report(absl::string_view command, absl::string_view flag, const std::string& path,
           const absl::Status& st, int code) {
  std::fprintf(stderr, "lanediff %.*s: %.*s %s: %.*s\n", static_cast<int>(command.size()),
               command.data(), static_cast<int>(flag.size()), flag.data(), path.c_str(),
               static_cast<int>(st.message().size()), st.message().data());
  return code;
}

}  // namespace

absl::Status PrepareOutputFile(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) return absl::InvalidArgumentError("is a directory, not a file");
  fs::path parent = p.parent_path();
  if (absl::Status st = MakeDirs(parent); !st.ok()) return st;
  return ProbeWritableDir(parent.empty() ? fs::path(".") : parent);
}

absl::Status PrepareOutputDir(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) {
    return absl::InvalidArgumentError("exists and is not a directory");
  }
  if (absl::Status st = MakeDirs(p); !st.ok()) return st;
  return ProbeWritableDir(p);
}

absl::Status CheckReadable(const std::string& path) {
  std::error_code ec;
  const fs::file_status s = fs::status(path, ec);
  if (ec || !fs::exists(s)) return absl::NotFoundError("no such file or directory");
  const int mode = fs::is_directory(s) ? (R_OK | X_OK) : R_OK;
  if (::access(path.c_str(), mode) != 0) {
    return absl::PermissionDeniedError(absl::StrCat("cannot read: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

int CheckOutputFile(absl::string_view command, absl::string_view flag, const std::string& path) {
  if (path.empty()) return -1;
  absl::Status st = PrepareOutputFile(path);
  return st.ok() ? -1 : Report(command, flag, path, st, kExitEnvironment);
}

int CheckOutputDir(absl::string_view command, absl::string_view flag, const std::string& path) {
  if (path.empty()) return -1;
  absl::Status st = PrepareOutputDir(path);
  return st.ok() ? -1 : Report(command, flag, path, st, kExitEnvironment);
}

int CheckInputPaths(absl::string_view command, absl::string_view what,
                    const std::vector<std::string>& paths) {
  for (const std::string& p : paths) {
    if (absl::Status st = CheckReadable(p); !st.ok()) return Report(command, what, p, st, kExitUsage);
  }
  return -1;
}

int CheckDeviceSpecPath(absl::string_view command, const std::string& device_spec) {
  if (!absl::StartsWith(device_spec, "replay:")) return -1;
  absl::Status st = CheckReadable(device_spec.substr(7));
  return st.ok() ? -1 : Report(command, "--device", device_spec, st, kExitUsage);
}

}  // namespace lanediff
