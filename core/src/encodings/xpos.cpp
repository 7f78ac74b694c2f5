#include "poslab/encodings/xpos.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

Status validate(const XposParams& params) {
    if (auto s = requireIntInRange("head_dim", params.headDim, 2, kMaxDModel); !s) return s;
    if (params.headDim % 2 != 0) {
        return Error{"head_dim must be even (got " + std::to_string(params.headDim) + ")"};
    }
    if (auto s = requireInRange("gamma", params.gamma, 0.0, 10.0); !s) return s;
    if (auto s = requireInRange("scale_base", params.scaleBase, 1.0, 1e9); !s) return s;
    return requireInRange("base", params.base, 1.0, 1e12, false);
}

std::vector<double> xposZeta(const XposParams& params) {
    const int pairs = params.headDim / 2;
    const double d = params.headDim;
    std::vector<double> zeta(std::size_t(pairs > 0 ? pairs : 0));
    // torchscale: (arange(0, d, 2) + 0.4 d) / (1.4 d), the same operations in the same order.
    for (int i = 0; i < pairs; ++i) {
        zeta[std::size_t(i)] = (2.0 * i + params.gamma * d) / ((1.0 + params.gamma) * d);
    }
    return zeta;
}

std::vector<double> xposThetas(const XposParams& params) {
    const int pairs = params.headDim / 2;
    std::vector<double> theta(std::size_t(pairs > 0 ? pairs : 0));
    // fixed_pos_embedding(scale) sees d/2 columns: 1 / base^(j / (d/2)).
    for (int i = 0; i < pairs; ++i) {
        theta[std::size_t(i)] = 1.0 / std::pow(params.base, double(i) / double(pairs));
    }
    return theta;
}

std::vector<double> xposApply(const std::vector<double>& x, int position, int seqLen, XposRole role,
                              const XposParams& params) {
    const std::vector<double> zeta = xposZeta(params), theta = xposThetas(params);
    // Python's -(L) // 2 floors toward -infinity.
    const double centre = std::floor(-double(seqLen) / 2.0);
    const double exponent = (double(position) + centre) / params.scaleBase;
    std::vector<double> out(x.size(), 0.0);
    for (std::size_t i = 0; i < zeta.size() && 2 * i + 1 < x.size(); ++i) {
        double scale = std::pow(zeta[i], exponent);
        if (role == XposRole::Key) scale = 1.0 / scale;
        const double angle = double(position) * theta[i];
        const double c = std::cos(angle) * scale, s = std::sin(angle) * scale;
        // x * cos + rotate_every_two(x) * sin, rotate_every_two(x0, x1) = (-x1, x0).
        out[2 * i] = x[2 * i] * c - x[2 * i + 1] * s;
        out[2 * i + 1] = x[2 * i + 1] * c + x[2 * i] * s;
    }
    return out;
}

double xposDecay(const XposParams& params, double distance) {
    const std::vector<double> zeta = xposZeta(params);
    if (zeta.empty()) return 0;
    double total = 0;
    for (double z : zeta) total += std::pow(z, distance / params.scaleBase);
    return total / double(zeta.size());
}

double xposScore(const std::vector<double>& q, const std::vector<double>& k,
                 const XposParams& params, double distance) {
    const std::vector<double> zeta = xposZeta(params), theta = xposThetas(params);
    double score = 0;
    for (std::size_t i = 0; i < zeta.size() && 2 * i + 1 < q.size() && 2 * i + 1 < k.size(); ++i) {
        const double q0 = q[2 * i], q1 = q[2 * i + 1], k0 = k[2 * i], k1 = k[2 * i + 1];
        const double angle = distance * theta[i];
        // R(n theta) q . R(m theta) k = q . R((m - n) theta) k.
        score += std::pow(zeta[i], distance / params.scaleBase) *
                 ((q0 * k0 + q1 * k1) * std::cos(angle) - (q1 * k0 - q0 * k1) * std::sin(angle));
    }
    return score;
}

double xposOnesScore(const XposParams& params, double distance) {
    const std::vector<double> zeta = xposZeta(params), theta = xposThetas(params);
    double score = 0;
    for (std::size_t i = 0; i < zeta.size(); ++i) {
        score +=
            2.0 * std::pow(zeta[i], distance / params.scaleBase) * std::cos(distance * theta[i]);
    }
    return score;
}

double ropeOnesScore(const XposParams& params, double distance) {
    double score = 0;
    for (double t : xposThetas(params)) score += 2.0 * std::cos(distance * t);
    return score;
}

Result<Matrix> xposScoreMatrix(const XposParams& params, int seqLen) {
    if (auto s = validate(params); !s) return s.error();
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s.error();
    if (auto s = checkMatrixSize(std::size_t(seqLen), std::size_t(seqLen), "the xPos score matrix");
        !s) {
        return s.error();
    }
    std::vector<double> byDistance(static_cast<std::size_t>(seqLen));
    for (int r = 0; r < seqLen; ++r) byDistance[std::size_t(r)] = xposOnesScore(params, r);
    Matrix out(static_cast<std::size_t>(seqLen), static_cast<std::size_t>(seqLen),
               -std::numeric_limits<double>::infinity());
    for (int n = 0; n < seqLen; ++n) {
        double* row = out.row(std::size_t(n));
        for (int m = 0; m <= n; ++m) row[m] = byDistance[std::size_t(n - m)];
    }
    return out;
}

}  // namespace poslab
