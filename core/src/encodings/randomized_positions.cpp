#include "poslab/encodings/randomized_positions.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

Status validate(const RandomizedPositionsParams& params) {
    if (auto s = requireIntInRange("max_length", params.maxLength, 1, kMaxRandomizedRange); !s) {
        return s;
    }
    const long long most = std::min<long long>(params.maxLength, kMaxGuiSeqLen);
    if (auto s = requireIntInRange("length", params.length, 1, most); !s) return s;
    return requireIntInRange("draws", params.draws, 1, kMaxRandomizedDraws);
}

std::vector<long long> sampleSortedPositions(int length, long long maxLength, std::uint64_t seed) {
    std::vector<long long> chosen;
    if (length <= 0 || maxLength < length) return chosen;
    chosen.reserve(std::size_t(length));
    std::mt19937_64 engine(seed);
    // Algorithm S: walk 0..N-1, taking t with probability (still needed) / (still left). Every
    // L-subset is equally likely and the output comes out sorted.
    long long needed = length;
    for (long long t = 0; t < maxLength && needed > 0; ++t) {
        const double u = double(engine() >> 11) * 0x1.0p-53;  // [0, 1)
        if (double(maxLength - t) * u < double(needed)) {
            chosen.push_back(t);
            --needed;
        }
    }
    return chosen;
}

std::vector<long long> randomizedDraw(const RandomizedPositionsParams& params, int draw) {
    const std::uint64_t seed = params.seed * 0x9e3779b97f4a7c15ull + std::uint64_t(draw) + 1;
    return sampleSortedPositions(params.length, params.maxLength, seed);
}

double expectedOrderStatistic(int k, int length, long long maxLength) {
    return double(k + 1) * double(maxLength + 1) / double(length + 1) - 1.0;
}

double orderStatisticStd(int k, int length, long long maxLength) {
    const double r = k + 1, l = length, n = double(maxLength);
    const double variance = r * (l + 1 - r) * (n + 1) * (n - l) / ((l + 1) * (l + 1) * (l + 2));
    return std::sqrt(std::max(variance, 0.0));
}

}  // namespace poslab
