// test_math.hpp — the constants and the dot product many core tests write out, defined once. Each
// test file defining its own in an anonymous namespace kept those files out of one unity group
// (cmake/unity_groups.py groups only files whose internal names do not clash).
#pragma once

#include <cstddef>
#include <limits>
#include <numbers>
#include <vector>

namespace poslab {

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kTwoPi = 2 * std::numbers::pi;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

}  // namespace poslab
