// Run identity: which device (kind, name, driver), which injected errata and hypotheses, which
// seed, lanediff version and commit, host and date produced a RunRecord. Header-only (the
// report library depends on the schema only).
//
//   *record.mutable_identity() = MakeRunIdentity("sim", runner->Describe(), inject, hyps, seed);
//   if (IdentityKey(a.identity()) == IdentityKey(b.identity())) ... // shards of one run
#ifndef LANEDIFF_FUZZ_TRIAGE_RUN_IDENTITY_H_
#define LANEDIFF_FUZZ_TRIAGE_RUN_IDENTITY_H_

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

#include "model/base/version.h"
#include "proto/report.pb.h"

namespace lanediff {

// "hip:1" -> "hip", "exec:./m" -> "exec", "sim" -> "sim".
inline std::string DeviceKind(const std::string& spec) { return spec.substr(0, spec.find(':')); }

inline proto::RunIdentity MakeRunIdentity(const std::string& device_spec,
                                          const std::string& device_name,
                                          std::vector<std::string> injected,
                                          std::vector<std::string> hypotheses, uint64_t seed) {
  proto::RunIdentity id;
  id.set_device_kind(DeviceKind(device_spec));
  id.set_device_name(device_name);
  id.set_silicon(id.device_kind() == "hip");
  std::sort(injected.begin(), injected.end());
  std::sort(hypotheses.begin(), hypotheses.end());
  for (const std::string& e : injected) id.add_injected(e);
  for (const std::string& h : hypotheses) id.add_hypotheses(h);
  id.set_seed(seed);
  id.set_lanediff_version(LANEDIFF_VERSION);
  id.set_git_commit(LANEDIFF_GIT_COMMIT);
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) id.set_host(host);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm;
  ::gmtime_r(&now, &tm);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  id.set_date(date);
  return id;
}

// What shards of one run share: device, driver, errata, hypotheses, version and commit (not
// seed, host or date, which differ between the shards of one run).
inline std::string IdentityKey(const proto::RunIdentity& id) {
  std::string k = id.device_kind() + "|" + id.device_name() + "|" + id.driver() + "|";
  for (const std::string& e : id.injected()) k += e + ",";
  k += "|";
  for (const std::string& h : id.hypotheses()) k += h + ",";
  return k + "|" + id.lanediff_version() + "|" + id.git_commit();
}

// What answered, for labels: "silicon" for a real GPU (hip), and for everything else what it
// is with "not silicon" said: "simulator (not silicon)", "exec (external model, not
// silicon)", "replay of a recording (not live silicon)", ...
inline std::string DeviceKindLabel(const std::string& kind) {
  if (kind == "hip") return "silicon";
  if (kind == "sim") return "simulator (not silicon)";
  if (kind == "exec" || kind == "exec-serve") return kind + " (external model, not silicon)";
  if (kind == "replay") return "replay of a recording (not live silicon)";
  if (kind == "oracle") return "exact oracle (host, not silicon)";
  if (kind == "model") return "model (not silicon)";
  if (kind.empty()) return "unknown device (not silicon)";
  return kind + " (not silicon)";
}

inline std::string IdentityLabel(const proto::RunIdentity& id) {
  if (id.silicon()) return "silicon";
  if (id.device_kind() == "hip") return "hip (not silicon: no real GPU answered)";
  return DeviceKindLabel(id.device_kind());
}

// The label with what else sets runs apart: "simulator (not silicon), injected sr_wrap, model
// sr_rounding=literal". Runs with different titles are never summed.
inline std::string IdentityTitle(const proto::RunIdentity& id) {
  std::string t = IdentityLabel(id);
  if (id.injected_size() > 0) {
    t += ", injected ";
    for (int i = 0; i < id.injected_size(); ++i) t += (i ? "," : "") + id.injected(i);
  }
  if (id.hypotheses_size() > 0) {
    t += ", model";
    for (const std::string& h : id.hypotheses()) t += " " + h;
  }
  return t;
}

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_TRIAGE_RUN_IDENTITY_H_
