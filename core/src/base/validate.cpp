#include "poslab/base/validate.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace poslab {

std::string formatNumber(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    (void)error;
    return std::string(buffer, end);
}

static std::string quoted(std::string_view name) { return std::string(name); }

Status requireIntInRange(std::string_view name, long long value, long long low, long long high) {
    if (value < low || value > high) {
        return Error{quoted(name) + " must be " + std::to_string(low) + ".." +
                     std::to_string(high) + " (got " + std::to_string(value) + ")"};
    }
    return success();
}

Status requireFinite(std::string_view name, double value) {
    if (!std::isfinite(value)) {
        return Error{quoted(name) + " must be a finite number (got " + formatNumber(value) + ")"};
    }
    return success();
}

Status requireInRange(std::string_view name, double value, double low, double high,
                      bool lowInclusive) {
    const bool aboveLow = lowInclusive ? value >= low : value > low;
    if (!std::isfinite(value) || !aboveLow || value > high) {
        return Error{quoted(name) + " must be " + (lowInclusive ? "" : "> ") + formatNumber(low) +
                     (lowInclusive ? ".." : " and <= ") + formatNumber(high) + " (got " +
                     formatNumber(value) + ")"};
    }
    return success();
}

Status requireGreaterThan(std::string_view name, double value, double bound) {
    if (!std::isfinite(value) || !(value > bound)) {
        return Error{quoted(name) + " must be a finite number > " + formatNumber(bound) +
                     " (got " + formatNumber(value) + ")"};
    }
    return success();
}

}  // namespace poslab
