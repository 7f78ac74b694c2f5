#include "poslab/encodings/sandwich.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/causal_bias.hpp"

namespace poslab {

Status validate(const SandwichParams& params) {
    if (auto s = requireIntInRange("head_dim", params.headDim, 2, kMaxDModel); !s) return s;
    if (params.headDim % 2 != 0) {
        return Error{"head_dim must be even (got " + std::to_string(params.headDim) + ")"};
    }
    if (auto s = requireIntInRange("heads", params.heads, 1, kMaxSandwichHeads); !s) return s;
    return requireIntInRange("head", params.head, 0, params.heads - 1);
}

std::vector<double> sandwichFrequencies(int headDim) {
    std::vector<double> w;
    if (headDim < 2) return w;
    // NeMo: 1 / 10000 ** (2 * arange(1, d/2 + 1) / d).
    for (int i = 1; i <= headDim / 2; ++i) w.push_back(1.0 / std::pow(10000.0, 2.0 * i / headDim));
    return w;
}

double sandwichCompression(const SandwichParams& params) {
    return double(params.head + 1) * 8.0 / double(params.heads);
}

double sandwichKernel(int headDim, double distance) {
    double total = 0;
    for (double w : sandwichFrequencies(headDim)) total += std::cos(distance * w);
    return total - headDim / 2;
}

double sandwichBias(const SandwichParams& params, double distance) {
    return sandwichKernel(params.headDim, distance) / sandwichCompression(params);
}

std::vector<double> sandwichBiasByDistance(const SandwichParams& params, int count) {
    std::vector<double> out(std::size_t(count > 0 ? count : 0));
    if (count <= 0) return out;
    const std::vector<double> w = sandwichFrequencies(params.headDim);
    const double half = double(params.headDim / 2), compression = sandwichCompression(params);
    forEachGridPhase(w, 0, 1, count, [&](long long r, const double* cosines, const double*) {
        double total = 0;
        for (std::size_t i = 0; i < w.size(); ++i) total += cosines[i];
        out[std::size_t(r)] = (total - half) / compression;
    });
    out[0] = 0;  // exactly: cos(0) = 1 for every frequency
    return out;
}

Result<Matrix> sandwichBiasMatrix(const SandwichParams& params, int seqLen) {
    if (auto s = validate(params); !s) return s.error();
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s.error();
    if (auto s =
            checkMatrixSize(std::size_t(seqLen), std::size_t(seqLen), "the Sandwich bias matrix");
        !s) {
        return s.error();
    }
    const std::vector<double> byDistance = sandwichBiasByDistance(params, seqLen);
    return causalBiasMatrix(byDistance);
}

}  // namespace poslab
