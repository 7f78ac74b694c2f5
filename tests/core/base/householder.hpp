// householder.hpp — a seeded Householder reflection, the orthogonal matrix the linear-algebra
// tests build known spectra and orthonormal bases from.
#pragma once

#include "poslab/base/matrix.hpp"
#include "poslab/base/random.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace poslab::test_support {

// H = I - 2 u u^T / u.u for u of n standard normal draws from `seed`: symmetric, orthogonal
// (H H = I), so its rows and columns are each an orthonormal basis.
inline Matrix householderReflection(std::size_t n, std::uint64_t seed) {
    NormalSampler sampler(seed);
    std::vector<double> u(n);
    double uu = 0;
    for (double& v : u) {
        v = sampler.next();
        uu += v * v;
    }
    Matrix h(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) h(i, j) = (i == j ? 1.0 : 0.0) - 2 * u[i] * u[j] / uu;
    }
    return h;
}

}  // namespace poslab::test_support
