// rope_precision_figures.hpp — where low-precision RoPE angles go wrong: for each pair, the first
// position whose phase error (vs float64) passes the threshold, one line per float format.
// `poslab render rope-precision` and the GUI's Precision tab draw it.
#pragma once

#include <atomic>
#include <vector>

#include "poslab/analysis/rope_precision.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// One report per format, scanning positions 0..maxPosition of the params' frequencies (at their
// seqLen). O(formats * pairs * maxPosition): the slow part, kept apart from the drawing.
// `cancelled` (may be null), once set, stops it early (the reports are then meaningless).
Result<std::vector<RopePrecisionReport>> ropePrecisionReports(
    const RopeParams& params, const std::vector<FloatFormat>& formats, long long maxPosition,
    double threshold = 0.1, const std::atomic<bool>* cancelled = nullptr);
// The same at ropePrecisionSamplePositions only (ropePrecisionSampled): a coarse figure, a few
// milliseconds, while a control moves.
Result<std::vector<RopePrecisionReport>> ropePrecisionSampledReports(
    const RopeParams& params, const std::vector<FloatFormat>& formats, long long maxPosition,
    double threshold = 0.1);

// x: pair index (fast pairs left); y: first position over the threshold, log scale. Pairs that
// stay within it up to maxPosition are drawn as open markers on the top edge ("none up to N").
// A legend line per format gives its earliest failing position and pair.
void drawRopePrecision(Figure& figure, Box area, const RopeParams& params,
                       const std::vector<RopePrecisionReport>& reports, const Theme& theme);

}  // namespace poslab
