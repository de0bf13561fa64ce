// Peak resident memory of a command, measured as /usr/bin/time -v does: a fresh process
// (posix_spawn, stdout and stderr to /dev/null), its rusage from wait4. Used by
// `lanediff bench --campaign` and fuzz_campaign_memory_test.
//
//   LANEDIFF_ASSIGN_OR_RETURN(double mib, PeakRssMiB({"/proc/self/exe", "fuzz", ...}));
#ifndef LANEDIFF_FUZZ_PEAK_RSS_H_
#define LANEDIFF_FUZZ_PEAK_RSS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace lanediff {

// argv[0] is the program's path. Fails if it cannot be started or does not exit with 0
// (the message names the command and its status).
absl::StatusOr<double> PeakRssMiB(const std::vector<std::string>& argv);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_PEAK_RSS_H_
