// The report's plots as self-contained HTML figures: an inline SVG with both axes, tick labels
// and axis titles with units, all drawn inside its viewBox, and a <figcaption> in HTML (text
// that wraps, never cut off) holding the caption and the legend. No script, no network.
#ifndef LANEDIFF_FUZZ_REPORT_PLOTS_H_
#define LANEDIFF_FUZZ_REPORT_PLOTS_H_

#include <string>
#include <vector>

#include "fuzz/report/report.h"
#include "proto/report.pb.h"

namespace lanediff {

// SR round-up probability against src0's fractional position: one polyline per target x
// instruction x side (model, device), and the ideal diagonal. <figure id="sr-probability">.
std::string SrProbabilityFigure(const std::vector<proto::SweepResult>& sweeps);

// Where pk_u8 disagreements fall in f32 space: sign x biased exponent heat map.
// <figure id="pk-u8-map">.
std::string PkU8MapFigure(const std::vector<proto::SweepResult>& sweeps);

// The campaigns' counters over time, one polyline per run identity: lanes run
// (<figure id="lanes-over-time">) and buckets found (<figure id="buckets-over-time">).
std::string TimelineFigures(const std::vector<RunGroup>& groups);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPORT_PLOTS_H_
