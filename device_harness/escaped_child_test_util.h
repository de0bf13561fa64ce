// Test-only: processes a device starts and leaves behind, for the tests that hold a runner to
// "nothing the device started outlives it" (exec, exec-serve).
//
//   const std::string dev = SetsidSleeperFirst(pidfile) + "exec sleep 300 #";
//   ... run `dev`, kill it ...
//   const pid_t pid = ReadPid(pidfile);
//   EXPECT_TRUE(GoneSoon(pid));
#ifndef LANEDIFF_DEVICE_HARNESS_ESCAPED_CHILD_TEST_UTIL_H_
#define LANEDIFF_DEVICE_HARNESS_ESCAPED_CHILD_TEST_UTIL_H_

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <string>

namespace lanediff {

// Shell text that starts `sleep 301` outside the shell's process group (setsid), its pid
// written to `pidfile` after setsid (through a rename, so a reader never sees half a number),
// and goes on only once that file exists, so the sleeper has escaped before what the caller
// appends runs.
inline std::string SetsidSleeperFirst(const std::string& pidfile) {
  return "setsid sh -c 'echo $$ > \"$0.tmp\"; mv \"$0.tmp\" \"$0\"; exec sleep 301' '" + pidfile +
         "' </dev/null >/dev/null 2>&1 & while [ ! -e '" + pidfile + "' ]; do sleep 0.01; done; ";
}

// The pid written in `path`; 0 when there is none.
inline pid_t ReadPid(const std::string& path) {
  std::ifstream in(path);
  long pid = 0;
  in >> pid;
  return static_cast<pid_t>(pid);
}

// Waits (bounded, `seconds`) until process `pid` is gone. It is not the test's child, so
// waitpid cannot tell: kill(pid, 0) answering ESRCH does.
inline bool GoneSoon(pid_t pid, int seconds = 20) {
  for (int i = 0; i < seconds * 1000; ++i) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    ::usleep(1000);
  }
  return false;
}

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_ESCAPED_CHILD_TEST_UTIL_H_
