// polyline.hpp — fewer vertices for the same drawn line.
//
// Curves are sampled at one point per pixel or finer, but most of a smooth curve is nearly
// straight at that scale: dropping the points that lie within a fraction of a pixel of the line
// through their neighbours draws the same picture with far fewer segments (software GL pays per
// triangle).
#pragma once

#include <span>
#include <vector>

#include "poslab/figure/figure.hpp"

namespace poslab {

// Douglas–Peucker: a subsequence of `points` that keeps the first and last point and every
// point needed so that each dropped point lies within `tolerance` (same units) of the segment
// that replaces it. Points with a non-finite coordinate are kept and never bridged.
std::vector<Point> simplifyPolyline(std::span<const Point> points, float tolerance);

// Distance from p to the segment a–b (to a when they coincide).
float distanceToSegment(Point p, Point a, Point b);

// Splits a polyline where it turns back on itself: at every point where the direction changes
// by more than `maxTurnDegrees`, one piece ends and the next begins (sharing that point).
// Renderers that mitre joins without a limit draw long spikes at such points.
struct PolylinePiece {
    std::size_t first = 0, last = 0;  // indices of the piece's first and last point
};
std::vector<PolylinePiece> splitAtSharpTurns(std::span<const Point> points,
                                             float maxTurnDegrees = 120);

}  // namespace poslab
