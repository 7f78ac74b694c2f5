#include "poslab/encodings/axial_rope.hpp"

#include <cmath>
#include <string>

#include "poslab/base/validate.hpp"
#include "poslab/encodings/rope.hpp"

namespace poslab {

std::string_view axialRopeLayoutName(AxialRopeLayout layout) {
    return enumName(kAxialRopeLayoutNames, layout);
}
Result<AxialRopeLayout> parseAxialRopeLayout(std::string_view name) {
    return parseEnum(kAxialRopeLayoutNames, name, "layout");
}
std::string_view axialVectorsName(AxialVectors vectors) {
    return enumName(kAxialVectorNames, vectors);
}
Result<AxialVectors> parseAxialVectors(std::string_view name) {
    return parseEnum(kAxialVectorNames, name, "vectors");
}

Status validate(const AxialRopeParams& params) {
    if (auto s = requireIntInRange("head_dim", params.headDim, 4, 1024); !s) return s;
    if (params.headDim % 4 != 0) {
        return Error{"head_dim must be a multiple of 4 for 2-D RoPE (got " +
                     std::to_string(params.headDim) + ")"};
    }
    if (auto s = requireInRange("base", params.base, 1, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("grid width", params.gridWidth, 1, kMaxAxialGridSide); !s)
        return s;
    if (auto s = requireIntInRange("grid height", params.gridHeight, 1, kMaxAxialGridSide); !s)
        return s;
    if (auto s = requireIntInRange("query x", params.queryX, 0, params.gridWidth - 1); !s) return s;
    if (auto s = requireIntInRange("query y", params.queryY, 0, params.gridHeight - 1); !s)
        return s;
    return success();
}

Result<std::vector<AxialPair>> axialRopePairs(const AxialRopeParams& params) {
    if (auto s = validate(params); !s) return s.error();
    const int d = params.headDim, quarter = d / 4, half = d / 2;
    std::vector<AxialPair> pairs(static_cast<std::size_t>(half));
    for (int p = 0; p < half; ++p) {
        AxialPair& pair = pairs[std::size_t(p)];
        const int k = p % quarter;
        const bool firstHalf = p < quarter;
        if (params.layout == AxialRopeLayout::RopeVit) {
            pair.axis = firstHalf ? PatchAxis::X : PatchAxis::Y;
            pair.theta = std::pow(params.base, -4.0 * k / d);
            pair.first = 2 * p;
            pair.second = 2 * p + 1;
        } else {
            // Even frequency indices 2k for the rows (h), odd 2k + 1 for the columns (w).
            pair.axis = firstHalf ? PatchAxis::Y : PatchAxis::X;
            pair.theta = std::pow(params.base, -2.0 * (firstHalf ? 2 * k : 2 * k + 1) / d);
            pair.first = p;
            pair.second = p + half;
        }
    }
    return pairs;
}

double axialRopeScore(const std::vector<double>& q, const std::vector<double>& k, int qx, int qy,
                      int kx, int ky, const std::vector<AxialPair>& pairs) {
    double score = 0;
    for (const AxialPair& pair : pairs) {
        const double a1 = q[std::size_t(pair.first)], a2 = q[std::size_t(pair.second)];
        const double b1 = k[std::size_t(pair.first)], b2 = k[std::size_t(pair.second)];
        const int offset = pair.axis == PatchAxis::X ? kx - qx : ky - qy;
        // R(alpha) a . R(beta) b = a . R(beta - alpha) b
        const double phi = double(offset) * pair.theta;
        score += (a1 * b1 + a2 * b2) * std::cos(phi) + (a2 * b1 - a1 * b2) * std::sin(phi);
    }
    return score;
}

std::vector<double> axialQuery(const AxialRopeParams& params) {
    if (params.vectors == AxialVectors::Ones)
        return std::vector<double>(std::size_t(params.headDim), 1.0);
    return seededGaussianVector(params.headDim, params.seed);
}
std::vector<double> axialKey(const AxialRopeParams& params) {
    if (params.vectors == AxialVectors::Ones)
        return std::vector<double>(std::size_t(params.headDim), 1.0);
    return seededGaussianVector(params.headDim, params.seed + 1);
}

Result<Matrix> axialSimilarityMap(const AxialRopeParams& params) {
    auto pairs = axialRopePairs(params);
    if (!pairs) return pairs.error();
    const std::vector<double> q = axialQuery(params), k = axialKey(params);
    double qq = 0, kk = 0;
    for (double v : q) qq += v * v;
    for (double v : k) kk += v * v;
    const double norm = std::sqrt(qq) * std::sqrt(kk);
    if (!(norm > 0)) return Error{"q and k must not be zero"};
    // Every pair turns with one axis only, so the score is a sum of a term of the x offset and
    // a term of the y offset: one sum per offset of each axis (2 x 127 on a 64 x 64 grid)
    // instead of one per patch (4,096), the same terms as axialRopeScore's.
    auto axisTerms = [&](PatchAxis axis, int query, int side) {
        std::vector<double> terms(std::size_t(side), 0.0);
        for (int to = 0; to < side; ++to) {
            double sum = 0;
            for (const AxialPair& pair : *pairs) {
                if (pair.axis != axis) continue;
                const double a1 = q[std::size_t(pair.first)], a2 = q[std::size_t(pair.second)];
                const double b1 = k[std::size_t(pair.first)], b2 = k[std::size_t(pair.second)];
                const double phi = double(to - query) * pair.theta;
                sum += (a1 * b1 + a2 * b2) * std::cos(phi) + (a2 * b1 - a1 * b2) * std::sin(phi);
            }
            terms[std::size_t(to)] = sum;
        }
        return terms;
    };
    const std::vector<double> byX = axisTerms(PatchAxis::X, params.queryX, params.gridWidth);
    const std::vector<double> byY = axisTerms(PatchAxis::Y, params.queryY, params.gridHeight);
    Matrix map(std::size_t(params.gridHeight), std::size_t(params.gridWidth));
    for (int y = 0; y < params.gridHeight; ++y) {
        for (int x = 0; x < params.gridWidth; ++x)
            map(std::size_t(y), std::size_t(x)) =
                (byX[std::size_t(x)] + byY[std::size_t(y)]) / norm;
    }
    return map;
}

}  // namespace poslab
