#include "poslab/figure/polyline.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace poslab {

namespace {

// Squared distance from p to the segment a-b: the hot loop compares these with tolerance^2, as
// hypot() would cost more than the rest of the simplification.
double squaredDistanceToSegment(Point p, Point a, Point b) {
    const double dx = double(b.x) - a.x, dy = double(b.y) - a.y;
    const double px = double(p.x) - a.x, py = double(p.y) - a.y;
    const double length2 = dx * dx + dy * dy;
    const double t = length2 > 0 ? std::clamp((px * dx + py * dy) / length2, 0.0, 1.0) : 0.0;
    const double ex = px - t * dx, ey = py - t * dy;
    return ex * ex + ey * ey;
}

}  // namespace

float distanceToSegment(Point p, Point a, Point b) {
    return float(std::sqrt(squaredDistanceToSegment(p, a, b)));
}

namespace {

// Douglas–Peucker over points[first..last] (all finite), marking the points to keep. An explicit
// stack: a curve of a million points must not recurse a million deep.
void markKept(std::span<const Point> points, std::size_t first, std::size_t last, float tolerance,
              std::vector<char>& keep) {
    keep[first] = keep[last] = 1;
    std::vector<std::pair<std::size_t, std::size_t>> pending{{first, last}};
    while (!pending.empty()) {
        const auto [a, b] = pending.back();
        pending.pop_back();
        if (b <= a + 1) continue;
        double farthest = -1;
        std::size_t at = a;
        for (std::size_t i = a + 1; i < b; ++i) {
            const double d = squaredDistanceToSegment(points[i], points[a], points[b]);
            if (d > farthest) farthest = d, at = i;
        }
        if (farthest > double(tolerance) * tolerance) {
            keep[at] = 1;
            pending.push_back({a, at});
            pending.push_back({at, b});
        }
    }
}

}  // namespace

std::vector<Point> simplifyPolyline(std::span<const Point> points, float tolerance) {
    std::vector<char> keep(points.size(), 0);
    auto finite = [](Point p) { return std::isfinite(p.x) && std::isfinite(p.y); };
    // Each run of finite points is simplified on its own; non-finite points stay as breaks.
    std::size_t i = 0;
    while (i < points.size()) {
        if (!finite(points[i])) {
            keep[i++] = 1;
            continue;
        }
        std::size_t end = i;
        while (end + 1 < points.size() && finite(points[end + 1])) ++end;
        markKept(points, i, end, tolerance, keep);
        i = end + 1;
    }
    std::vector<Point> kept;
    for (std::size_t k = 0; k < points.size(); ++k) {
        if (keep[k]) kept.push_back(points[k]);
    }
    return kept;
}

std::vector<PolylinePiece> splitAtSharpTurns(std::span<const Point> points, float maxTurnDegrees) {
    std::vector<PolylinePiece> pieces;
    if (points.size() < 2) return pieces;
    // A turn sharper than the limit has cos(angle between the two directions) below this.
    const double limit = std::cos(double(maxTurnDegrees) * std::numbers::pi / 180);
    std::size_t start = 0;
    for (std::size_t i = 1; i + 1 < points.size(); ++i) {
        const double ax = double(points[i].x) - points[i - 1].x;
        const double ay = double(points[i].y) - points[i - 1].y;
        const double bx = double(points[i + 1].x) - points[i].x;
        const double by = double(points[i + 1].y) - points[i].y;
        const double lengths = std::sqrt((ax * ax + ay * ay) * (bx * bx + by * by));
        if (lengths > 0 && (ax * bx + ay * by) < limit * lengths) {
            pieces.push_back({start, i});
            start = i;
        }
    }
    pieces.push_back({start, points.size() - 1});
    return pieces;
}

}  // namespace poslab
