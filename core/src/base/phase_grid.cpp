#include "poslab/base/phase_grid.hpp"

#include <algorithm>
#include <cmath>

namespace poslab {

namespace {

constexpr long long kGridBlock = 32;  // grid points between exact sin/cos evaluations

}  // namespace

void forEachGridPhase(const std::vector<double>& frequencies, double first, double step,
                      long long count,
                      const std::function<void(long long, const double*, const double*)>& visit) {
    const std::size_t K = frequencies.size();
    const std::size_t steps = std::size_t(std::clamp<long long>(count, 0, kGridBlock));
    std::vector<double> stepCos(steps * K), stepSin(steps * K);
    for (std::size_t j = 0; j < steps; ++j) {
        for (std::size_t k = 0; k < K; ++k) {
            stepCos[j * K + k] = std::cos(double(j) * step * frequencies[k]);
            stepSin[j * K + k] = std::sin(double(j) * step * frequencies[k]);
        }
    }
    std::vector<double> startCos(K), startSin(K), rowCos(K), rowSin(K);
    for (long long blockStart = 0; blockStart < count; blockStart += kGridBlock) {
        const double x = first + double(blockStart) * step;
        for (std::size_t k = 0; k < K; ++k) {
            startCos[k] = std::cos(x * frequencies[k]);
            startSin[k] = std::sin(x * frequencies[k]);
        }
        const long long blockEnd = std::min(count, blockStart + kGridBlock);
        for (long long j = blockStart; j < blockEnd; ++j) {
            // data() + offset, not &v[offset]: with no frequencies the vectors are empty.
            const double* jCos = stepCos.data() + std::size_t(j - blockStart) * K;
            const double* jSin = stepSin.data() + std::size_t(j - blockStart) * K;
            for (std::size_t k = 0; k < K; ++k) {
                rowCos[k] = startCos[k] * jCos[k] - startSin[k] * jSin[k];
                rowSin[k] = startSin[k] * jCos[k] + startCos[k] * jSin[k];
            }
            visit(j, rowCos.data(), rowSin.data());
        }
    }
}

}  // namespace poslab
