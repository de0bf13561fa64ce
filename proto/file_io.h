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

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace lanediff {

// Files larger than this are refused by ReadFile (a corpus file is a few KiB).
inline constexpr size_t kMaxReadFileBytes = 64u << 20;

absl::Status WriteFileAtomic(const std::string& path, absl::string_view contents);
absl::StatusOr<std::string> ReadFile(const std::string& path);

// fsync of a directory (makes a rename or a new file in it durable).
absl::Status FsyncDir(const std::string& dir);

// A Status for a failed system call on `path`, classified by errno as described above.
absl::Status IoError(absl::string_view what, const std::string& path, int err);

// "a/b/c" -> "a/b" ("." for a bare name); "a/b/c" -> "c".
std::string DirName(const std::string& path);
std::string BaseName(const std::string& path);

}  // namespace lanediff

#endif  // LANEDIFF_PROTO_FILE_IO_H_
