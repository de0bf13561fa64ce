// IsolatedRunner: any Runner, run in a forked child process behind a watchdog.
//
// The child is made by fork(); it calls the factory (so a HIP runtime, for instance, is only
// ever initialised in the child), says hello, then answers batches over two pipes with the
// length-prefixed frames of wire.h. The parent waits at most `timeout` per batch. When the
// child crashes (a signal, a GPU fault that kills the process, an exit) or does not answer in
// time (it is then killed with SIGKILL), that batch's Status is a device fault whose message
// gives the exact words: the signal's name and description, or the timeout; the next Run()
// forks a fresh child. Results already returned are the caller's: nothing is lost.
//
//   LANEDIFF_ASSIGN_OR_RETURN(std::unique_ptr<IsolatedRunner> dev,
//       IsolatedRunner::Start([] { return OpenSimRunner({}); }, {.timeout = absl::Seconds(5)}));
//   absl::StatusOr<DeviceResult> r = dev->Run(batch);  // IsDeviceFault(r.status()) on a crash
//
// The child closes every inherited descriptor but its two pipe ends and stdin/stdout/stderr,
// and dies with its parent (PR_SET_PDEATHSIG). Use from one thread at a time.
#ifndef LANEDIFF_DEVICE_HARNESS_ISOLATION_ISOLATED_RUNNER_H_
#define LANEDIFF_DEVICE_HARNESS_ISOLATION_ISOLATED_RUNNER_H_

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "device_harness/runner.h"

namespace lanediff {

using RunnerFactory = std::function<absl::StatusOr<std::unique_ptr<Runner>>()>;

struct IsolationOptions {
  absl::Duration timeout = absl::Seconds(10);        // per batch
  absl::Duration start_timeout = absl::Seconds(20);  // factory + hello in a fresh child
};

class IsolatedRunner : public Runner {
 public:
  // Forks the first child and waits for its hello, so an error of the factory (no GPU, say)
  // is returned here, with the factory's own words.
  static absl::StatusOr<std::unique_ptr<IsolatedRunner>> Start(RunnerFactory factory,
                                                               IsolationOptions options = {});
  ~IsolatedRunner() override;

  // The child's Describe(), prefixed "isolated ".
  std::string Describe() const override;
  // The child's Driver().
  std::string Driver() const override { return driver_; }
  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override;

  // Children forked so far (1 after Start; +1 after each fault).
  int children_started() const { return children_started_; }
  pid_t child_pid() const { return pid_; }
  // Children that died while idle (between batches, or before the batch reached them): each
  // was replaced before the batch ran, and no batch is blamed. How the last one ended.
  int idle_deaths() const { return idle_deaths_; }
  const std::string& last_idle_death() const { return last_idle_death_; }

 private:
  IsolatedRunner(RunnerFactory factory, IsolationOptions options)
      : factory_(std::move(factory)), options_(options) {}
  absl::Status Spawn();
  // Reaps the child (killing it first if `kill`), closes the pipes, and says how it ended.
  std::string Reap(bool kill);
  // True (and the child reaped, its pipes closed) when the child has already ended.
  bool ChildHasEnded();

  RunnerFactory factory_;
  IsolationOptions options_;
  std::string describe_;
  std::string driver_;  // the child's Driver(), from its hello
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  int children_started_ = 0;
  int idle_deaths_ = 0;
  std::string last_idle_death_;
};

// "signal 6 (SIGABRT: Aborted)", "exit status 3": how a waitpid() status ended a process.
std::string DescribeWaitStatus(int wait_status);

}  // namespace lanediff

#endif  // LANEDIFF_DEVICE_HARNESS_ISOLATION_ISOLATED_RUNNER_H_
