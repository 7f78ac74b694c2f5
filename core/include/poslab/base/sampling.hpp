// sampling.hpp — which of many positions a sampled check or a sampled statistic looks at.
#pragma once

#include <vector>

namespace poslab {

// `count` positions spread evenly over 0..total-1, both ends included, increasing and distinct:
// all of them when count >= total, {0} when count <= 1, none when total <= 0.
std::vector<int> evenlySpaced(int total, int count);

}  // namespace poslab
