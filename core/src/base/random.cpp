#include "poslab/base/random.hpp"

#include <cmath>
#include <numbers>

namespace poslab {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kUnit = 1.0 / 9007199254740992.0;  // 2^-53: 53 random bits -> [0, 1)

}  // namespace

double NormalSampler::next() {
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    const std::uint64_t a = engine_();
    const std::uint64_t b = engine_();
    const double u1 = double((a >> 11) + 1) * kUnit;  // (0, 1]: log(u1) stays finite
    const double u2 = double(b >> 11) * kUnit;        // [0, 1)
    const double radius = std::sqrt(-2.0 * std::log(u1));
    spare_ = radius * std::sin(kTwoPi * u2);
    hasSpare_ = true;
    return radius * std::cos(kTwoPi * u2);
}

}  // namespace poslab
