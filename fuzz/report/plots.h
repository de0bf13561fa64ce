// The report's plots as self-contained HTML figures: an inline SVG with both axes, tick labels
// and axis titles with units, all drawn inside its viewBox, and a <figcaption> in HTML (text
// that wraps, never cut off) holding the caption and the legend. No script, no network.
#ifndef LANEDIFF_FUZZ_REPORT_PLOTS_H_
#define LANEDIFF_FUZZ_REPORT_PLOTS_H_

#include <string>
#include <vector>

#include "fuzz/report/report.h"
#include "model/targets/targets.h"
#include "proto/report.pb.h"

namespace lanediff {

// SR round-up probability against src0's fractional position: one polyline per target x
// instruction x side (model, device), and the ideal diagonal. <figure id="sr-probability">.
std::string SrProbabilityFigure(const std::vector<proto::SweepResult>& sweeps);

// Whether the report maps an instruction's src0 disagreements: its row reads an f32 src0
// (SrcRole::data_f32) and has no seed (its sweeps run over src0, not the seed).
bool PlotsSrc0Map(const InstrInfo& row);

// Where the src0 sweeps' disagreements fall in f32 space: one sign x biased exponent heat map
// band per row PlotsSrc0Map holds, in row order, each labelled with the row's name.
// <figure id="src0-map">.
std::string Src0MapFigure(const std::vector<proto::SweepResult>& sweeps);

// The campaigns' counters over time, one polyline per run identity: lanes run
// (<figure id="lanes-over-time">) and buckets found (<figure id="buckets-over-time">).
std::string TimelineFigures(const std::vector<RunGroup>& groups);

}  // namespace lanediff

#endif  // LANEDIFF_FUZZ_REPORT_PLOTS_H_
