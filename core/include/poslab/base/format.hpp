// format.hpp — numbers as short text for titles, labels, notes and messages.
#pragma once

#include <string>

namespace poslab {

std::string formatValue(double value, int significant = 4);  // compact: 0.25, 1e+04, -3.2e-05

}  // namespace poslab
