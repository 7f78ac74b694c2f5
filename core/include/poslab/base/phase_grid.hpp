// phase_grid.hpp — cos and sin of many frequencies at evenly spaced points, cheaply.
//
// RoPE scores, RoPE's decay bound and the similarity profiles all need cos(x w_k) and sin(x w_k)
// for every frequency w_k at x = first, first + step, ...: exact libm values every 32 points and
// the angle-addition formulas from a small table in between cost a few multiplications per value,
// with errors of a few ulps.
#pragma once

#include <functional>
#include <vector>

namespace poslab {

// Calls visit(j, cos, sin) for j = 0 .. count-1 with cos[k] = cos(x_j w_k) and likewise sin, at
// x_j = first + j * step (w = frequencies). The arrays are valid during the call only.
void forEachGridPhase(const std::vector<double>& frequencies, double first, double step,
                      long long count,
                      const std::function<void(long long, const double*, const double*)>& visit);

}  // namespace poslab
