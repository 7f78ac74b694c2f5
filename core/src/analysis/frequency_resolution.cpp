#include "poslab/analysis/frequency_resolution.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

// |PE(p + D) - PE(p)| for pairs at `frequencies`: sqrt(sum_i 4 sin^2(w_i D / 2)).
double offsetDistance(const std::vector<double>& frequencies, double offset) {
    double sum = 0;
    for (double w : frequencies) {
        const double s = 2 * std::sin(w * offset / 2);
        sum += s * s;
    }
    return std::sqrt(sum);
}

// |2 sin(w D / 2)| for D = 0..n-1, each as the sine of a sum: a block's start a = wD0/2 and the
// step within the block b = wk/2, sin(a + b) = sin a cos b + cos a sin b. That is 2 (n / 256 +
// 256) sines and cosines instead of n sines: the shared-pair slider asks for a new frequency
// every frame on the UI thread, and 65,536 sines took ~4 ms of it. Each value differs from
// 2 sin(wD/2) by about the rounding of the angle itself (an ulp of wD/2).
std::vector<double> chordLengths(double w, int n) {
    constexpr int kBlock = 256;
    const int steps = std::min(n, kBlock);
    std::vector<double> stepSin(static_cast<std::size_t>(steps)),
        stepCos(static_cast<std::size_t>(steps));
    for (int k = 0; k < steps; ++k) {
        stepSin[std::size_t(k)] = std::sin(w * k / 2);
        stepCos[std::size_t(k)] = std::cos(w * k / 2);
    }
    std::vector<double> chords(std::size_t(std::max(n, 0)));
    for (int start = 0; start < n; start += kBlock) {
        const double startSin = std::sin(w * start / 2), startCos = std::cos(w * start / 2);
        const int end = std::min(n, start + kBlock);
        for (int offset = start; offset < end; ++offset) {
            const std::size_t k = std::size_t(offset - start);
            chords[std::size_t(offset)] =
                std::abs(2 * (startSin * stepCos[k] + startCos * stepSin[k]));
        }
    }
    return chords;
}

}  // namespace

Status validate(const FrequencyResolutionParams& params) {
    if (params.dModel < 2 || params.dModel > kMaxResolutionDModel || params.dModel % 2 != 0) {
        return Error{"d_model must be even, 2.." + std::to_string(kMaxResolutionDModel) + " (got " +
                     std::to_string(params.dModel) + ")"};
    }
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("positions", params.positions, 2, kMaxResolutionPositions); !s)
        return s;
    return requireIntInRange("shared_pair", params.sharedPair, 0, params.dModel / 2 - 1);
}

SinusoidalParams standardTable(const FrequencyResolutionParams& params) {
    return {params.dModel, params.positions, params.base, SinusoidalLayout::Interleaved};
}

double sharedFrequency(const FrequencyResolutionParams& params) {
    const std::vector<double> w = sinusoidalFrequencies(standardTable(params));
    if (w.empty()) return 0;
    return w[std::size_t(std::clamp(params.sharedPair, 0, int(w.size()) - 1))];
}

std::vector<double> sharedFrequencyRow(const FrequencyResolutionParams& params, double position) {
    const SinusoidalParams table = standardTable(params);
    const double w = sharedFrequency(params);
    std::vector<double> row(std::size_t(std::max(params.dModel, 0)), 0.0);
    for (int c = 0; c < params.dModel; ++c) {
        const SinusoidalColumn wave = sinusoidalColumn(table, c);
        if (wave.isZero) continue;
        row[std::size_t(c)] = wave.isCosine ? std::cos(w * position) : std::sin(w * position);
    }
    return row;
}

Result<FrequencyResolution> frequencyResolution(const FrequencyResolutionParams& params,
                                                const FrequencyResolution* previous) {
    if (auto s = validate(params); !s) return s.error();
    FrequencyResolution r;
    r.frequencies = sinusoidalFrequencies(standardTable(params));
    r.sharedFrequency = sharedFrequency(params);
    const int n = params.positions;
    const bool sameTable = previous && previous->frequencies == r.frequencies &&
                           previous->standardDistance.size() == std::size_t(n);
    if (sameTable) r.standardDistance = previous->standardDistance;
    r.standardDistance.resize(std::size_t(n));
    for (int offset = 0; offset < n && !sameTable; ++offset)
        r.standardDistance[std::size_t(offset)] = offsetDistance(r.frequencies, offset);
    // One frequency: every pair contributes the same, d/2 of them.
    r.sharedDistance = chordLengths(r.sharedFrequency, n);
    const double pairs = std::sqrt(double(r.frequencies.size()));
    for (double& distance : r.sharedDistance) distance *= pairs;
    auto minimum = [&](const std::vector<double>& distance, double& value, int& at) {
        value = distance[1];
        at = 1;
        for (int offset = 2; offset < n; ++offset) {
            if (distance[std::size_t(offset)] < value)
                value = distance[std::size_t(offset)], at = offset;
        }
    };
    minimum(r.standardDistance, r.standardMinimum, r.standardMinimumOffset);
    minimum(r.sharedDistance, r.sharedMinimum, r.sharedMinimumOffset);
    for (int offset = 1; offset < n; ++offset) {
        if (r.sharedDistance[std::size_t(offset)] < r.standardMinimum) {
            ++r.collidingOffsets;
            r.collidingPairs += n - offset;
        }
    }
    r.farOffset = std::max(1, n / 2);
    for (double w : r.frequencies) {
        r.neighbourByPair.push_back(std::abs(2 * std::sin(w / 2)));
        r.farByPair.push_back(std::abs(2 * std::sin(w * r.farOffset / 2)));
    }
    return r;
}

Result<Matrix> sharedFrequencyTable(const FrequencyResolutionParams& params) {
    if (auto s = validate(params); !s) return s.error();
    if (auto s = checkMatrixSize(std::size_t(params.positions), std::size_t(params.dModel),
                                 "the one-frequency table");
        !s) {
        return s.error();
    }
    Matrix table(std::size_t(params.positions), std::size_t(params.dModel));
    for (int p = 0; p < params.positions; ++p) {
        const std::vector<double> row = sharedFrequencyRow(params, p);
        std::copy(row.begin(), row.end(), table.row(std::size_t(p)));
    }
    return table;
}

}  // namespace poslab
