#include "poslab/analysis/rope_usage.hpp"

#include <cmath>
#include <string>

namespace poslab {

PairRows rotaryPairRows(int pair, int rotatedDims, RopePairing pairing) {
    if (pairing == RopePairing::Interleaved) return {2 * pair, 2 * pair + 1};
    return {pair, pair + rotatedDims / 2};
}

Result<RopeUsage> ropeUsage(const ProjectionRowSquares& rows) {
    if (rows.layers < 1 || rows.heads < 1 || rows.kvHeads < 1 || rows.headDim < 2) {
        return Error{"rope usage needs layers, heads, KV heads >= 1 and head_dim >= 2 (got " +
                     std::to_string(rows.layers) + ", " + std::to_string(rows.heads) + ", " +
                     std::to_string(rows.kvHeads) + ", " + std::to_string(rows.headDim) + ")"};
    }
    if (rows.heads % rows.kvHeads != 0) {
        return Error{"rope usage: " + std::to_string(rows.heads) +
                     " query heads are not a multiple of " + std::to_string(rows.kvHeads) +
                     " key heads"};
    }
    if (rows.rotatedDims < 2 || rows.rotatedDims > rows.headDim || rows.rotatedDims % 2 != 0) {
        return Error{"rope usage: rotated dims must be even and 2.." +
                     std::to_string(rows.headDim) + " (got " + std::to_string(rows.rotatedDims) +
                     ")"};
    }
    const std::size_t L = std::size_t(rows.layers), H = std::size_t(rows.heads),
                      G = std::size_t(rows.kvHeads), D = std::size_t(rows.headDim);
    if (rows.query == nullptr || rows.key == nullptr || rows.query->size() != L * H * D ||
        rows.key->size() != L * G * D) {
        return Error{"rope usage: row norms do not match layers x heads x head_dim"};
    }
    RopeUsage out;
    out.layers = rows.layers;
    out.heads = rows.heads;
    out.kvHeads = rows.kvHeads;
    out.pairs = rows.rotatedDims / 2;
    const std::size_t P = std::size_t(out.pairs);
    out.query.resize(L * H * P);
    out.key.resize(L * G * P);
    out.usage.resize(L * H * P);
    auto pairNorm = [&](const std::vector<double>& squares, std::size_t base, int pair) {
        const PairRows r = rotaryPairRows(pair, rows.rotatedDims, rows.pairing);
        return std::sqrt(squares[base + std::size_t(r.first)] +
                         squares[base + std::size_t(r.second)]);
    };
    for (std::size_t l = 0; l < L; ++l) {
        for (std::size_t g = 0; g < G; ++g) {
            for (std::size_t p = 0; p < P; ++p) {
                out.key[(l * G + g) * P + p] = pairNorm(*rows.key, (l * G + g) * D, int(p));
            }
        }
        for (std::size_t h = 0; h < H; ++h) {
            const std::size_t g = std::size_t(out.keyHeadOf(int(h)));
            for (std::size_t p = 0; p < P; ++p) {
                const double q = pairNorm(*rows.query, (l * H + h) * D, int(p));
                out.query[(l * H + h) * P + p] = q;
                out.usage[(l * H + h) * P + p] = q * out.key[(l * G + g) * P + p];
            }
        }
    }
    return out;
}

Matrix usageByLayer(const RopeUsage& usage) {
    Matrix out(std::size_t(usage.layers), std::size_t(usage.pairs));
    for (int l = 0; l < usage.layers; ++l) {
        for (int p = 0; p < usage.pairs; ++p) {
            double sum = 0;
            for (int h = 0; h < usage.heads; ++h) sum += usage.at(l, h, p);
            out.values[std::size_t(l) * out.cols + std::size_t(p)] = sum / usage.heads;
        }
    }
    return out;
}

Result<Matrix> usageOfLayer(const RopeUsage& usage, int layer) {
    if (layer < 0 || layer >= usage.layers) {
        return Error{"layer must be 0.." + std::to_string(usage.layers - 1) + " (got " +
                     std::to_string(layer) + ")"};
    }
    Matrix out(std::size_t(usage.heads), std::size_t(usage.pairs));
    for (int h = 0; h < usage.heads; ++h) {
        for (int p = 0; p < usage.pairs; ++p) {
            out.values[std::size_t(h) * out.cols + std::size_t(p)] = usage.at(layer, h, p);
        }
    }
    return out;
}

std::vector<double> meanUsagePerPair(const RopeUsage& usage) {
    std::vector<double> mean(std::size_t(usage.pairs), 0.0);
    const double count = double(usage.layers) * usage.heads;
    for (int l = 0; l < usage.layers; ++l) {
        for (int h = 0; h < usage.heads; ++h) {
            for (int p = 0; p < usage.pairs; ++p) mean[std::size_t(p)] += usage.at(l, h, p);
        }
    }
    for (double& m : mean) m /= count;
    return mean;
}

double keptUsageShare(const std::vector<double>& meanPerPair, double p) {
    double total = 0, kept = 0;
    const std::size_t keep = std::size_t(std::floor(p * double(meanPerPair.size())));
    for (std::size_t i = 0; i < meanPerPair.size(); ++i) {
        total += meanPerPair[i];
        if (i < keep) kept += meanPerPair[i];
    }
    return total > 0 ? kept / total : 0.0;
}

}  // namespace poslab
