#include "proto/file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"

namespace lanediff {

absl::Status IoError(absl::string_view what, const std::string& path, int err) {
  std::string msg = absl::StrCat(path, ": ", what, ": ", std::strerror(err));
  if (err == ENOSPC || err == EDQUOT) {
    return absl::ResourceExhaustedError(absl::StrCat(msg, " (disk full)"));
  }
  if (err == EACCES || err == EPERM || err == EROFS) return absl::PermissionDeniedError(msg);
  if (err == ENOENT) return absl::NotFoundError(msg);
  return absl::InternalError(msg);
}

absl::StatusOr<FileLock> FileLock::Acquire(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd < 0) {
    const int err = errno;
    struct stat st;
    if (err == ELOOP && ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, ": lock file is a symbolic link; not followed (remove it)"));
    }
    return IoError("cannot open lock file", path, err);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": lock file is not a regular file (", FileTypeName(st.st_mode), ")"));
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd);
    return IoError("cannot lock", path, err);
  }
  return FileLock(fd);
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::string DirName(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

absl::Status FsyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open directory to fsync", dir, errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  // Some file systems cannot fsync a directory (EINVAL): nothing more can be done there.
  if (rc != 0 && err != EINVAL) return IoError("fsync of directory failed", dir, err);
  return absl::OkStatus();
}

absl::string_view FileTypeName(unsigned mode) {
  if (S_ISREG(mode)) return "regular file";
  if (S_ISDIR(mode)) return "directory";
  if (S_ISFIFO(mode)) return "FIFO";
  if (S_ISSOCK(mode)) return "socket";
  if (S_ISCHR(mode)) return "character device";
  if (S_ISBLK(mode)) return "block device";
  if (S_ISLNK(mode)) return "symbolic link";
  return "special file";
}

absl::StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise block before fstat can refuse it.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return IoError("cannot open", path, errno);
  auto refuse = [&](std::string why) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", why));
  };
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return IoError("cannot stat", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    return refuse(absl::StrCat("not a regular file (", FileTypeName(st.st_mode), "), refused"));
  }
  const std::string too_big = absl::StrCat("larger than the limit of ", max_bytes,
                                           " bytes for a lanediff file, refused");
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return refuse(absl::StrCat(st.st_size, " bytes, ", too_big));
  }
  std::string data;
  data.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return IoError("read failed", path, err);
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
    if (data.size() > max_bytes) return refuse(absl::StrCat("grew while read: ", too_big));
  }
  ::close(fd);
  return data;
}

namespace {

using Visited = std::set<std::pair<dev_t, ino_t>>;

void WalkOne(const std::string& path, int depth, bool given,
             const std::function<bool(absl::string_view)>& want, Visited* seen, FileWalk* out) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    out->errors.push_back(std::string(IoError("cannot read", path, errno).message()));
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    if (!seen->insert({st.st_dev, st.st_ino}).second) return;  // reached again through a link
    if (depth > 16) {
      out->errors.push_back(absl::StrCat(path, ": directory nesting deeper than 16, skipped"));
      return;
    }
    DIR* dir = ::opendir(path.c_str());
    if (dir == nullptr) {
      out->errors.push_back(std::string(IoError("cannot list directory", path, errno).message()));
      return;
    }
    std::vector<std::string> names;
    errno = 0;
    while (struct dirent* e = ::readdir(dir)) names.emplace_back(e->d_name);
    const int err = errno;
    ::closedir(dir);
    if (err != 0) {
      out->errors.push_back(std::string(IoError("cannot list directory", path, err).message()));
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      if (name.empty() || name[0] == '.') continue;  // ., .., lock and temp files
      WalkOne(path == "/" ? "/" + name : absl::StrCat(path, "/", name), depth + 1, false, want,
              seen, out);
    }
    return;
  }
  if (!S_ISREG(st.st_mode)) {
    out->errors.push_back(absl::StrCat(path, ": not a regular file (", FileTypeName(st.st_mode),
                                       "), refused"));
    return;
  }
  if (!given && !want(BaseName(path))) return;
  if (!seen->insert({st.st_dev, st.st_ino}).second) return;  // a second link to one file
  out->files.push_back(path);
}

}  // namespace

FileWalk WalkFiles(const std::vector<std::string>& paths,
                   const std::function<bool(absl::string_view)>& want) {
  FileWalk out;
  Visited seen;
  for (const std::string& p : paths) WalkOne(p, 0, true, want, &seen, &out);
  return out;
}

absl::Status WriteFileAtomic(const std::string& path, absl::string_view contents) {
  static std::atomic<uint64_t> counter{0};
  const std::string dir = DirName(path);
  const std::string tmp = absl::StrCat(dir, "/.tmp.", BaseName(path), ".", ::getpid(), ".",
                                       counter.fetch_add(1));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("cannot create temporary file", tmp, errno);
  auto fail = [&](absl::string_view what, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return IoError(what, path, err);
  };
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed", errno);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("fsync failed", errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return IoError("close failed", path, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return IoError("rename failed", path, err);
  }
  return FsyncDir(dir);
}

}  // namespace lanediff
