// Reading and writing lanediff's files (corpus findings, recordings, run records, reports)
// so that nothing is ever half-written: one implementation, used by every writer.
//
//   LANEDIFF_RETURN_IF_ERROR(WriteFileAtomic("corpus/findings/x.textproto", ToText(f)));
//   LANEDIFF_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
//
// WriteFileAtomic: a temporary file beside the target (".tmp.<name>.<pid>.<n>", unique per
// call), write, fsync, rename over the target, fsync of the directory. Readers see the old
// file or the new one, never a mixture; a crash at any moment leaves at most the temporary
// file. Errors carry the path and the system's words; ENOSPC/EDQUOT are ResourceExhausted
// ("disk full"), EACCES/EPERM/EROFS PermissionDenied, ENOENT NotFound.
#ifndef LANEDIFF_PROTO_FILE_IO_H_
#define LANEDIFF_PROTO_FILE_IO_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace lanediff {

// Files larger than this are refused by ReadFile before a byte is read (a corpus file is a few
// KiB; a binary finding at the 2^20-lane limit is about 31 MiB).
inline constexpr size_t kMaxReadFileBytes = 64u << 20;

absl::Status WriteFileAtomic(const std::string& path, absl::string_view contents);

// The whole of a regular file. Refused with the path named: anything that is not a regular
// file ("not a regular file (FIFO)": a FIFO would block for ever, /dev/zero never ends,
// /dev/null reads as nothing), and files larger than `max_bytes`. The file is opened
// non-blocking, so a FIFO is refused at once even with no writer.
absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     size_t max_bytes = kMaxReadFileBytes);

// What WalkFiles found: the regular files to read, and one "path: what" line per entry it
// could not use (the walk goes on after each).
struct FileWalk {
  std::vector<std::string> files;
  std::vector<std::string> errors;
};

// Every file to read under `paths`. A path naming a regular file is taken whatever its name;
// a directory is walked recursively (16 levels at most) for regular files whose name `want`
// accepts, in sorted order; names starting with '.' are skipped. Each file and directory is
// visited once, by (device, inode), however many links reach it, so symlink loops end.
// Named in `errors`, never skipped silently: a path that does not exist or cannot be
// stat()ed, a directory that cannot be listed (the rest is still walked), a FIFO, socket or
// device (given or found, whatever its name), nesting deeper than 16.
FileWalk WalkFiles(const std::vector<std::string>& paths,
                   const std::function<bool(absl::string_view name)>& want);

// "FIFO", "socket", "character device", "block device", "directory", "symbolic link",
// "regular file" for a stat() st_mode.
absl::string_view FileTypeName(unsigned mode);

// fsync of a directory (makes a rename or a new file in it durable).
absl::Status FsyncDir(const std::string& dir);

// A Status for a failed system call on `path`, classified by errno as described above.
absl::Status IoError(absl::string_view what, const std::string& path, int err);

// An exclusive flock() on a lock file, held for the object's lifetime (closing releases it).
// The file is created if absent and opened with O_NOFOLLOW and O_NONBLOCK, and must be a
// regular file: a symlink planted where the lock belongs ("symbolic link"), a FIFO or a device
// is refused with the path named, never followed or waited on.
//   LANEDIFF_ASSIGN_OR_RETURN(FileLock lock, FileLock::Acquire(dir + "/.x.lock"));
class FileLock {
 public:
  static absl::StatusOr<FileLock> Acquire(const std::string& path);
  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

// "a/b/c" -> "a/b" ("." for a bare name); "a/b/c" -> "c".
std::string DirName(const std::string& path);
std::string BaseName(const std::string& path);

}  // namespace lanediff

#endif  // LANEDIFF_PROTO_FILE_IO_H_
