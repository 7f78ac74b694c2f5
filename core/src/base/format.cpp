#include "poslab/base/format.hpp"

#include <cmath>
#include <cstdio>

namespace poslab {

std::string formatValue(double value, int significant) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[48];
    if (value == std::floor(value) && std::abs(value) < 1e7) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value == 0 ? 0.0 : value);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
    }
    return buffer;
}

}  // namespace poslab
