#include "device_harness/replay/replay_runner.h"

#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "device_harness/batch.h"
#include "device_harness/fault.h"
#include "device_harness/replay/recording_io.h"
#include "model/base/status.h"
#include "proto/validate.h"

namespace lanediff {
namespace {

static_assert(kMaxLanesPerFinding == kMaxLanesPerBatch,
              "a stored finding holds at most one batch: proto/validate.h and batch.h agree");

// (target, words, mode)
struct GroupKey {
  std::string target;
  std::vector<uint32_t> words;
  uint32_t mode = 0;
  friend bool operator==(const GroupKey&, const GroupKey&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const GroupKey& k) {
    return H::combine(std::move(h), k.target, k.words, k.mode);
  }
};

// A lane's resolved operands: each source's dwords (one, or a wide row's tuple: LaneShape),
// then vdst_old. Four words inline, so a one-dword row's key allocates nothing.
using LaneKey = absl::InlinedVector<uint32_t, 4>;
LaneKey KeyOf(const LaneView& v, size_t i) {
  LaneKey key;
  for (int s = 0; s < 3; ++s) {
    const size_t n = v.shape.src_dwords[s];
    key.insert(key.end(), v.src(s) + i * n, v.src(s) + i * n + n);
  }
  key.push_back(v.vdst_old[i]);
  return key;
}

struct Answer {
  // The lane's destination words: VDST, and VDST+1 for a VGPR pair (InstrInfo::dst_bits 64).
  std::array<uint32_t, kMaxDstWords> vdst{};
  int source = 0;   // index into sources_
  int fault = -1;   // index into faults_, or -1
};

struct Source {
  std::string where;  // "file: entry 3"
  proto::Provenance provenance;
};

class ReplayRunner : public Runner {
 public:
  explicit ReplayRunner(std::string path) : path_(std::move(path)) {}

  absl::Status Load() {
    LANEDIFF_ASSIGN_OR_RETURN(std::vector<LoadedRecording> files, LoadRecordings(path_));
    for (const LoadedRecording& f : files) {
      for (int e = 0; e < f.recording.entries_size(); ++e) {
        const proto::Recording::Entry& entry = f.recording.entries(e);
        const std::string where = absl::StrCat(f.path, ": entry ", e + 1);
        auto fail = [&](const absl::Status& s) {
          return absl::Status(s.code(), absl::StrCat(where, ": ", s.message()));
        };
        // A recording holds what a device ran, undefined-by-spec words included (recorded
        // with --allow-undefined); a batch asking for one is checked when it is run.
        absl::StatusOr<DeviceBatch> batch = BuildDeviceBatch(entry.testcase(), /*allow_undefined=*/true);
        if (!batch.ok()) return fail(batch.status());
        absl::StatusOr<DecodedBatch> d = DecodeDeviceBatch(*batch, batch->words);
        if (!d.ok()) return fail(d.status());
        const proto::Observation& obs = entry.observation();
        const size_t n = d->resolved.size();
        const bool faulted = !obs.fault().empty();
        const size_t words = static_cast<size_t>(DstWords(batch->instr));
        if (!faulted && static_cast<size_t>(obs.vdst_size()) != n * words) {
          return fail(absl::DataLossError(absl::StrCat(
              "observation has ", obs.vdst_size(), " vdst words for ", n, " lanes",
              words > 1 ? absl::StrCat(" of ", words, " words (a VGPR pair)") : "")));
        }
        const int source = static_cast<int>(sources_.size());
        sources_.push_back({where, obs.provenance()});
        int fault = -1;
        if (faulted) {
          fault = static_cast<int>(faults_.size());
          faults_.push_back(obs.fault());
        }
        auto& group = groups_[GroupKey{std::string(batch->target->name), batch->words, batch->mode}];
        const LaneView v = d->resolved.view();
        for (size_t i = 0; i < n; ++i) {
          const LaneKey key = KeyOf(v, i);
          Answer a{{}, source, fault};
          for (size_t w = 0; w < words && !faulted; ++w) {
            a.vdst[w] = obs.vdst(static_cast<int>(i * words + w));
          }
          auto [it, inserted] = group.emplace(key, a);
          if (!inserted && (it->second.vdst != a.vdst || (it->second.fault < 0) != (a.fault < 0))) {
            return absl::FailedPreconditionError(absl::StrFormat(
                "%s lane %d: recorded 0x%08x%s%s, but %s recorded 0x%08x%s%s for the same "
                "instruction, MODE and operands; the recordings disagree",
                where, i, a.vdst[0], words > 1 ? absl::StrFormat(":0x%08x", a.vdst[1]) : "",
                a.fault >= 0 ? " (fault)" : "", sources_[it->second.source].where,
                it->second.vdst[0],
                words > 1 ? absl::StrFormat(":0x%08x", it->second.vdst[1]) : "",
                it->second.fault >= 0 ? " (fault)" : ""));
          }
        }
        ++entries_;
      }
    }
    return absl::OkStatus();
  }

  std::string Describe() const override {
    return absl::StrCat("replay:", path_, " (", entries_, " recorded batches; no hardware)");
  }

  absl::StatusOr<DeviceResult> Run(const DeviceBatch& batch) override {
    LANEDIFF_ASSIGN_OR_RETURN(DecodedBatch d, DecodeDeviceBatch(batch, batch.words));
    const auto group = groups_.find(GroupKey{std::string(batch.target->name), batch.words, batch.mode});
    if (group == groups_.end()) {
      return absl::NotFoundError(absl::StrCat("replay:", path_, " has no recording of ",
                                              DescribeBatch(batch),
                                              " (no batch with this target, words and MODE)"));
    }
    const LaneView v = d.resolved.view();
    DeviceResult r;
    const size_t words = static_cast<size_t>(DstWords(batch.instr));
    r.vdst.resize(v.size * words);
    int first_source = -1;
    size_t missing = 0, first_missing = 0;
    for (size_t i = 0; i < v.size; ++i) {
      const auto it = group->second.find(KeyOf(v, i));
      if (it == group->second.end()) {
        if (missing++ == 0) first_missing = i;
        continue;
      }
      if (it->second.fault >= 0) {
        return DeviceFault(absl::StrCat("replayed from ", sources_[it->second.source].where,
                                        " (lane ", i, "): ", faults_[it->second.fault]));
      }
      for (size_t w = 0; w < words; ++w) r.vdst[i * words + w] = it->second.vdst[w];
      if (first_source < 0) first_source = it->second.source;
    }
    if (missing > 0) {
      return absl::NotFoundError(absl::StrFormat(
          "replay:%s has no recording of %s: %d of %d lanes not recorded, first lane %d "
          "(src0 0x%08x src1 0x%08x src2 0x%08x vdst_old 0x%08x)",
          path_, DescribeBatch(batch), missing, v.size, first_missing, v.src0[first_missing],
          v.src1[first_missing], v.src2[first_missing], v.vdst_old[first_missing]));
    }
    if (first_source >= 0) r.provenance = sources_[first_source].provenance;
    r.provenance.set_runner(absl::StrCat("replay:", path_, r.provenance.runner().empty() ? "" : " recorded by ",
                                         r.provenance.runner()));
    if (r.provenance.target().empty()) r.provenance.set_target(std::string(batch.target->name));
    return r;
  }

 private:
  std::string path_;
  std::vector<Source> sources_;
  std::vector<std::string> faults_;
  absl::flat_hash_map<GroupKey, absl::flat_hash_map<LaneKey, Answer>> groups_;
  int entries_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Runner>> OpenReplayRunner(const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError("--device=replay:PATH needs a PATH");
  auto r = std::make_unique<ReplayRunner>(path);
  LANEDIFF_RETURN_IF_ERROR(r->Load());
  return std::unique_ptr<Runner>(std::move(r));
}

}  // namespace lanediff
