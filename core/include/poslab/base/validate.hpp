// validate.hpp — one-line range checks shared by every parameter struct.
//
// Messages follow one pattern so users learn to read them: "<name> must be <range> (got <value>)".
#pragma once

#include <string>
#include <string_view>

#include "poslab/base/result.hpp"

namespace poslab {

Status requireIntInRange(std::string_view name, long long value, long long low, long long high);
Status requireFinite(std::string_view name, double value);
// low < value <= high (or >= low when lowInclusive), finite.
Status requireInRange(std::string_view name, double value, double low, double high,
                      bool lowInclusive = true);
Status requireGreaterThan(std::string_view name, double value, double bound);  // finite and > bound

std::string formatNumber(double value);  // shortest text that reads back to the same double

}  // namespace poslab
