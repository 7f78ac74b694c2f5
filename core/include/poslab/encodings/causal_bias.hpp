// causal_bias.hpp — the causal L x L matrix of a bias that depends only on the distance i - j
// (KERPLE, Sandwich): row i holds byDistance[i - j] for keys j <= i and -inf (masked) after.
//
//   const std::vector<double> byDistance = ...;   // L values: distance 0 first
//   Matrix bias = causalBiasMatrix(byDistance);   // L x L
#pragma once

#include <limits>
#include <vector>

#include "poslab/base/matrix.hpp"

namespace poslab {

// byDistance.size() rows and columns; the caller checks the size against the memory cap first.
inline Matrix causalBiasMatrix(const std::vector<double>& byDistance) {
    const std::size_t n = byDistance.size();
    Matrix out(n, n, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < n; ++i) {
        double* row = out.row(i);
        for (std::size_t j = 0; j <= i; ++j) row[j] = byDistance[i - j];
    }
    return out;
}

}  // namespace poslab
