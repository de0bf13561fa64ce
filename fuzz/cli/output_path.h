// The paths a `lanediff` command reads and writes, checked before any long work starts, so a
// typo costs a second instead of a finished sweep.
//
//   if (int rc = CheckOutputFile("sweep", "--out", out); rc >= 0) return rc;
//   if (int rc = CheckInputPaths("replay", "PATH", paths); rc >= 0) return rc;
//
// Output files: an empty path means "not asked for" and passes. Otherwise the parent
// directories are created and a scratch file is created and removed in the parent (the
// writers use temp file + rename there), so an unwritable place fails now, exit 3 (an
// environment error), naming the path and the reason.
// Input paths: a missing or unreadable path is a usage error, exit 2, naming the path.
// Each Check* prints `lanediff COMMAND: FLAG PATH: REASON` on stderr and returns the exit code,
// or returns -1 when every path is fine.
#ifndef LANEDIFF_FUZZ_CLI_OUTPUT_PATH_H_
#define LANEDIFF_FUZZ_CLI_OUTPUT_PATH_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace lanediff {

// Creates `path`'s parent directories and proves a file can be created beside it. A path
// that names an existing directory is an error.
absl::Status PrepareOutputFile(const std::string& path);
// Creates the directory `path` (and its parents) and proves a file can be created in it.
absl::Status PrepareOutputDir(const std::string& path);
// OK when `path` exists and can be read (a file) or listed (a directory).
absl::Status CheckReadable(const std::string& path);

int CheckOutputFile(absl::string_view command, absl::string_view flag, const std::string& path);
int CheckOutputDir(absl::string_view command, absl::string_view flag, const std::string& path);
int CheckInputPaths(absl::string_view command, absl::string_view what,
                    const std::vector<std::string>& paths);
// A --device spec that names a file (replay:PATH) is an input path too.
int CheckDeviceSpecPath(absl::string_view command, const std::string& device_spec);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_CLI_OUTPUT_PATH_H_
