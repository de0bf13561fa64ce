#include "fuzz/engine/peak_rss.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace lanediff {

absl::StatusOr<double> PeakRssMiB(const std::vector<std::string>& argv_s) {
  if (argv_s.empty()) return absl::InvalidArgumentError("PeakRssMiB: no command");
  std::vector<std::string> copy = argv_s;
  std::vector<char*> argv;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  const std::string cmd = absl::StrJoin(argv_s, " ");
  if (err != 0) return absl::InternalError(absl::StrCat(cmd, ": ", std::strerror(err)));
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) return absl::InternalError(absl::StrCat(cmd, ": wait4 failed"));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(absl::StrCat(cmd, ": ended with wait status ", status));
  }
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace lanediff
