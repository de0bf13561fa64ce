// Test helpers for the reliability tests: run the built `lanediff` binary as a real process
// (pipes, exit status, signals, max RSS from wait4), and snapshot a directory tree (bytes,
// mode and nanosecond mtime of every entry) to prove that nothing was rewritten.
//
//   ProcResult r = RunProcess({LanediffPath(), "fuzz", "--targets", "gfx999", "--execs", "1"});
//   EXPECT_EQ(r.exit_code, 2);
//   Tree before = Snapshot(dir);  ...  EXPECT_EQ(DescribeChanges(before, Snapshot(dir)), "");
//
// Header-only and test-only: nothing in the product links it.
#ifndef LANEDIFF_FUZZ_RELIABILITY_SUBPROCESS_H_
#define LANEDIFF_FUZZ_RELIABILITY_SUBPROCESS_H_

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace lanediff::reliability {

inline std::string LanediffPath() { return std::string(LANEDIFF_BINARY_DIR) + "/fuzz/lanediff"; }

// Temporary directories of this test binary: removed when every test passed, kept (and
// named on stderr) after a failure, for the post-mortem.
inline std::vector<std::string>& TempDirs() {
  static auto* dirs = new std::vector<std::string>;
  return *dirs;
}

class TempDirCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    const bool passed = ::testing::UnitTest::GetInstance()->Passed();
    for (const std::string& d : TempDirs()) {
      if (!passed) {
        std::fprintf(stderr, "kept for inspection: %s\n", d.c_str());
        continue;
      }
      std::error_code ec;
      std::filesystem::remove_all(d, ec);
    }
  }
};
inline const bool kTempDirCleanupRegistered =
    (::testing::AddGlobalTestEnvironment(new TempDirCleanup), true);

// A fresh directory under the test temp dir, mode 0755 (so a dropped-privilege child can
// traverse it).
inline std::string MakeTempDir(const std::string& tag) {
  std::string templ = "/tmp/lanediff_rel_" + tag + "_XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) return "";
  ::chmod(templ.c_str(), 0755);
  TempDirs().push_back(templ);
  return templ;
}

struct ProcResult {
  int exit_code = -1;    // WEXITSTATUS, or -1 if killed by a signal
  int term_signal = 0;   // the signal that ended it, 0 if it exited
  std::string out, err;
  long max_rss_kb = 0;   // ru_maxrss of the child (wait4)
};

// Writes `data` to `path` as is (test inputs, good and bad).
inline void WriteRaw(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f << data;
}

// Drops privileges to nobody (65534) so that permission bits apply even when the test runs as
// root (root's CAP_DAC_OVERRIDE ignores mode 000). A ChildSetup.
inline bool BecomeNobody() {
  if (::geteuid() != 0) return true;  // not root: permission bits already apply
  if (::setgroups(0, nullptr) != 0) return false;
  return ::setresgid(65534, 65534, 65534) == 0 && ::setresuid(65534, 65534, 65534) == 0;
}

// Runs in the child between fork and exec (unshare, mount, setuid ...). Returns false to make
// the child exit 125 without exec'ing (it should write why to stderr first).
using ChildSetup = std::function<bool()>;

struct Spawned {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;  // parent's ends
};

inline Spawned Spawn(const std::vector<std::string>& argv, const ChildSetup& setup = nullptr) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    return {};
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::setpgid(0, 0);  // its own group: a kill of the group reaches forked workers too
    if (setup && !setup()) ::_exit(125);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    const char msg[] = "exec failed\n";
    (void)!::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  Spawned s;
  s.pid = pid;
  s.in = in[1];
  s.out = out[0];
  s.err = err[0];
  return s;
}

// Waits for `pid`, filling exit code, signal and max RSS.
inline void Reap(pid_t pid, ProcResult* r) {
  int status = 0;
  struct rusage ru = {};
  while (::wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  r->max_rss_kb = ru.ru_maxrss;
  if (WIFEXITED(status)) {
    r->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r->term_signal = WTERMSIG(status);
  }
}

// Feeds `input` to stdin, collects stdout and stderr until both close, then reaps.
inline ProcResult Finish(Spawned s, const std::string& input) {
  ProcResult r;
  size_t written = 0;
  if (input.empty()) {
    ::close(s.in);
    s.in = -1;
  } else {
    ::fcntl(s.in, F_SETFL, O_NONBLOCK);
  }
  ::signal(SIGPIPE, SIG_IGN);
  while (s.out >= 0 || s.err >= 0) {
    std::vector<pollfd> p;
    if (s.in >= 0) p.push_back({s.in, POLLOUT, 0});
    if (s.out >= 0) p.push_back({s.out, POLLIN, 0});
    if (s.err >= 0) p.push_back({s.err, POLLIN, 0});
    if (::poll(p.data(), p.size(), -1) < 0 && errno != EINTR) break;
    for (const pollfd& q : p) {
      if (q.revents == 0) continue;
      if (q.fd == s.in) {
        const ssize_t n = ::write(s.in, input.data() + written, input.size() - written);
        if (n > 0) written += static_cast<size_t>(n);
        if (n < 0 && errno != EAGAIN && errno != EINTR) written = input.size();
        if (written == input.size()) {
          ::close(s.in);
          s.in = -1;
        }
        continue;
      }
      char buf[65536];
      const ssize_t n = ::read(q.fd, buf, sizeof buf);
      if (n > 0) {
        (q.fd == s.out ? r.out : r.err).append(buf, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        ::close(q.fd);
        (q.fd == s.out ? s.out : s.err) = -1;
      }
    }
  }
  if (s.in >= 0) ::close(s.in);
  Reap(s.pid, &r);
  return r;
}

inline ProcResult RunProcess(const std::vector<std::string>& argv, const std::string& input = "",
                             const ChildSetup& setup = nullptr) {
  return Finish(Spawn(argv, setup), input);
}

// Reads `fd` until a line containing `needle` arrives, or EOF / `timeout_ms` passes. Returns
// everything read so far (which ends just after that line when found).
inline std::string ReadUntil(int fd, const std::string& needle, int timeout_ms, bool* found) {
  std::string got;
  *found = false;
  while (true) {
    pollfd p = {fd, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return got;
    char c;
    const ssize_t n = ::read(fd, &c, 1);  // byte at a time: stop exactly after the line
    if (n <= 0) return got;
    got.push_back(c);
    if (c == '\n') {
      const size_t start = got.rfind('\n', got.size() - 2);
      const std::string line = got.substr(start == std::string::npos ? 0 : start + 1);
      if (line.find(needle) != std::string::npos) {
        *found = true;
        return got;
      }
    }
  }
}

// Every entry under `root` (root included): relative path -> bytes (files), mode, mtime in ns.
struct Entry {
  std::string bytes;
  mode_t mode = 0;
  int64_t mtime_ns = 0;
  bool operator==(const Entry& o) const {
    return bytes == o.bytes && mode == o.mode && mtime_ns == o.mtime_ns;
  }
};
using Tree = std::map<std::string, Entry>;

inline Tree Snapshot(const std::string& root) {
  Tree t;
  auto add = [&](const std::string& path) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) return;
    Entry e;
    e.mode = st.st_mode;
    e.mtime_ns = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
    if (S_ISREG(st.st_mode)) {
      const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        char buf[65536];
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0) e.bytes.append(buf, static_cast<size_t>(n));
        ::close(fd);
      }
    }
    t[path.substr(root.size())] = std::move(e);
  };
  add(root);
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    add(it->path().string());
  }
  return t;
}

// "" when equal; otherwise one line per added, removed or changed entry.
inline std::string DescribeChanges(const Tree& before, const Tree& after) {
  std::string d;
  for (const auto& [p, e] : before) {
    auto it = after.find(p);
    if (it == after.end()) {
      d += "removed " + p + "\n";
    } else if (!(it->second == e)) {
      d += "changed " + p + (it->second.bytes != e.bytes ? " (bytes)" : "") +
           (it->second.mtime_ns != e.mtime_ns ? " (mtime)" : "") +
           (it->second.mode != e.mode ? " (mode)" : "") + "\n";
    }
  }
  for (const auto& [p, e] : after) {
    if (before.find(p) == before.end()) d += "added " + p + "\n";
  }
  return d;
}

// Files under `root` whose name starts with ".tmp." (a killed writer's leftovers).
inline std::vector<std::string> StrayTemps(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().rfind(".tmp.", 0) == 0) out.push_back(it->path().string());
  }
  return out;
}

}  // namespace lanediff::reliability

#endif  // LANEDIFF_FUZZ_RELIABILITY_SUBPROCESS_H_
