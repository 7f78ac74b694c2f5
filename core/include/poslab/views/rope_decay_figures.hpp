// rope_decay_figures.hpp — RoFormer's long-term decay of RoPE (Su et al. 2021, Fig. 2): the
// relative upper bound against relative distance, on a linear or a log distance axis. Part of the
// RoPE view (rope_figures.hpp).
#pragma once

#include <vector>

#include "poslab/base/result.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Long-term decay (RoFormer Fig. 2)
// The bound at the distances a plot `columns` pixels wide can show: every distance 0..R when
// there are at most kDecaySamplesPerColumn per column, else the grid 0, s, 2s, ... and R, with s
// the smallest step that keeps to that many (R = 2^20 at head_dim 8192 would be 2^32 terms).
inline constexpr int kDecaySamplesPerColumn = 16;
struct RopeDecayCurve {
    std::vector<double> distances;  // increasing: 0 first, maxDistance last
    std::vector<double> bounds;     // the bound at each distance
    long long step = 1;             // 1: every distance
};
Result<RopeDecayCurve> ropeDecayCurve(int rotatedDims, double base, int maxDistance, int columns);
double ropeDecayBoundAt(int rotatedDims, double base, double distance);  // one distance, O(d)
// curve: a cached ropeDecayCurve(d, base, maxDistance, >= area width), or nullptr to compute
// one. More distances than pixels are drawn as the min and max over each pixel column (of the
// grid's distances, when it skips some: the caption says which).
// Logarithmic: distances 1..maxDistance on a log axis, each decade as wide as the next, so the
// first few hundred distances (where the bound falls) are not squeezed into a few pixels. The
// bound is then computed at log-spaced distances (kLogDecaySamplesPerColumn per pixel column)
// and drawn as each column's min and max; `curve` is not used.
enum class DistanceAxis { Linear, Logarithmic };
inline constexpr int kLogDecaySamplesPerColumn = 4;
// The distances a log axis of `columns` pixels samples: integers 1..maxDistance, increasing,
// about kLogDecaySamplesPerColumn per column, every distance where the columns hold fewer.
std::vector<double> logDecayDistances(int maxDistance, int columns);
void drawRopeDecay(Figure& figure, Box area, int rotatedDims, double base, int maxDistance,
                   const Theme& theme, const RopeDecayCurve* curve, PlotFrame* frame = nullptr,
                   DistanceAxis axis = DistanceAxis::Linear);

}  // namespace poslab
