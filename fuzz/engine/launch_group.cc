#include "fuzz/engine/launch_group.h"

#include <algorithm>
#include <utility>

namespace lanediff {

bool SameLaunch(const DeviceBatch& a, const DeviceBatch& b) {
  return a.target == b.target && a.instr == b.instr && a.words == b.words && a.mode == b.mode &&
         a.sgpr_values == b.sgpr_values && a.allow_undefined == b.allow_undefined;
}

namespace {

// Appends without zero-filling first (Resize would memset what the copy overwrites: 1% of
// the host pipeline at 64K-lane launches, `lanediff bench --pipeline` under perf).
void Append(LaneBatch* to, const LaneView& from) {
  for (int s = 0; s < 3; ++s) {
    to->src(s).insert(to->src(s).end(), from.src(s), from.src(s) + from.size * from.shape.src_dwords[s]);
  }
  to->vdst_old().insert(to->vdst_old().end(), from.vdst_old, from.vdst_old + from.size);
}

}  // namespace

std::vector<LaunchGroup> GroupLaunches(std::vector<DeviceBatch> batches, size_t max_lanes) {
  std::vector<LaunchGroup> groups;
  std::vector<size_t> open;  // groups that may still take lanes
  for (size_t i = 0; i < batches.size(); ++i) {
    DeviceBatch& b = batches[i];
    LaunchGroup* g = nullptr;
    for (size_t k : open) {
      if (SameLaunch(groups[k].batch, b) && groups[k].batch.lanes.size() + b.lanes.size() <= max_lanes) {
        g = &groups[k];
        break;
      }
    }
    if (g == nullptr) {
      open.push_back(groups.size());
      const size_t n = b.lanes.size();
      groups.push_back({std::move(b), {i}, {0, n}});
      continue;
    }
    Append(&g->batch.lanes, b.lanes.view());
    g->cases.push_back(i);
    g->offset.push_back(g->batch.lanes.size());
  }
  return groups;
}

std::vector<LaunchGroup> GroupLaunches(std::vector<DeviceBatch> headers, absl::Span<const LaneView> lanes,
                                       size_t max_lanes) {
  std::vector<LaunchGroup> groups;
  std::vector<size_t> open;  // groups that may still take lanes
  for (size_t i = 0; i < headers.size() && i < lanes.size(); ++i) {
    DeviceBatch& b = headers[i];
    const size_t n = lanes[i].size;
    LaunchGroup* g = nullptr;
    for (size_t k : open) {
      if (SameLaunch(groups[k].batch, b) && groups[k].offset.back() + n <= max_lanes) {
        g = &groups[k];
        break;
      }
    }
    if (g == nullptr) {
      open.push_back(groups.size());
      b.lanes.Clear();
      groups.push_back({std::move(b), {i}, {0, n}});
      continue;
    }
    g->cases.push_back(i);
    g->offset.push_back(g->offset.back() + n);
  }
  for (LaunchGroup& g : groups) {
    LaneBatch& l = g.batch.lanes;
    const size_t total = g.offset.back();
    l.src0().reserve(total);
    l.src1().reserve(total);
    l.src2().reserve(total);
    l.vdst_old().reserve(total);
    for (size_t i : g.cases) Append(&l, lanes[i]);
  }
  return groups;
}

std::vector<DeviceResult> SplitResult(const LaunchGroup& g, DeviceResult r) {
  std::vector<DeviceResult> out(g.cases.size());
  for (size_t k = 0; k < g.cases.size(); ++k) {
    // A lane's destination words are consecutive (DstWords: 2 for a VGPR pair).
    const size_t w = static_cast<size_t>(DstWords(g.batch.instr));
    out[k].vdst.assign(r.vdst.begin() + g.offset[k] * w, r.vdst.begin() + g.offset[k + 1] * w);
    out[k].provenance = r.provenance;
    out[k].mode_readback = r.mode_readback;
  }
  return out;
}

}  // namespace lanediff
