// angle.hpp — the direction of a 2-D vector as an angle in [0, 2 pi), fast.
//
// The RoPE angle map takes one direction per texel, hundreds of thousands per frame while a
// user pans: libm's atan2 was most of that sample's time. directionAngle agrees with
// std::atan2 (shifted into [0, 2 pi)) to within a few units in the last place: it reduces the
// ratio of the smaller to the larger coordinate to [0, 1], then to within 1/64 of a tabulated
// point k/32, where atan's series needs five terms for full double precision.
#pragma once

#include <array>
#include <cmath>
#include <numbers>

namespace poslab {

namespace detail {
inline constexpr int kAtanSteps = 32;  // table points k / 32, k = 0..32
inline const std::array<double, kAtanSteps + 1> kAtanTable = [] {
    std::array<double, kAtanSteps + 1> table{};
    for (int k = 0; k <= kAtanSteps; ++k) table[std::size_t(k)] = std::atan(double(k) / kAtanSteps);
    return table;
}();
}  // namespace detail

// atan2(y, x) in [0, 2 pi): 0 along +x, growing counter-clockwise. (0, 0) gives 0; NaN in,
// NaN out.
inline double directionAngle(double y, double x) {
    constexpr double kPi = std::numbers::pi, kTwoPi = 2 * std::numbers::pi;
    if (!std::isfinite(x) || !std::isfinite(y)) {  // rare: libm knows every special case
        const double angle = std::atan2(y, x);
        return angle < 0 ? angle + kTwoPi : angle;
    }
    const double ax = std::abs(x), ay = std::abs(y);
    const bool steep = ay > ax;  // reduce to the octant below the diagonal
    const double larger = steep ? ay : ax, smaller = steep ? ax : ay;
    if (larger == 0) return 0.0;
    const double t = smaller / larger;  // tan of the octant angle, 0..1
    const int k = int(t * detail::kAtanSteps + 0.5);
    const double c = double(k) / detail::kAtanSteps;
    // atan t = atan c + atan u with u = (t - c) / (1 + t c), |u| <= 1/64.
    const double u = (t - c) / (1 + t * c), u2 = u * u;
    const double series = u * (1 + u2 * (-1.0 / 3 + u2 * (1.0 / 5 + u2 * (-1.0 / 7 + u2 / 9))));
    double angle = detail::kAtanTable[std::size_t(k)] + series;
    if (steep) angle = kPi / 2 - angle;
    if (x < 0) angle = kPi - angle;
    if (y < 0) angle = kTwoPi - angle;
    return angle >= kTwoPi ? 0.0 : angle;  // -tiny y rounds up to 2 pi: that is 0
}

}  // namespace poslab
