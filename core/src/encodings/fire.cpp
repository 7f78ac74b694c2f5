#include "poslab/encodings/fire.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

Status validate(const FireParams& params) {
    if (auto s = requireInRange("c", params.c, 1e-6, 1e3); !s) return s;
    if (auto s = requireInRange("threshold", params.threshold, 1.0, 1e9); !s) return s;
    if (auto s = requireInRange("eps", params.eps, 0.0, 1.0); !s) return s;
    if (auto s = requireIntInRange("mlp_width", params.mlpWidth, 1, kMaxFireMlpWidth); !s) return s;
    if (auto s = requireIntInRange("heads", params.heads, 1, kMaxFireHeads); !s) return s;
    return requireIntInRange("head", params.head, 0, params.heads - 1);
}

double firePsi(double c, double x) {
    return std::log(std::abs(c * x) + 1.0);
}

double firePhi(const FireParams& params, long long query, long long key) {
    const double distance = std::abs(double(query) - double(key));
    const double normaliser = std::max(double(query), std::abs(params.threshold));
    return firePsi(params.c, distance) / (firePsi(params.c, normaliser) + params.eps);
}

FireMlp seededFireMlp(int width, int heads, std::uint64_t seed) {
    FireMlp mlp;
    mlp.width = std::max(width, 1);
    mlp.heads = std::max(heads, 1);
    std::mt19937_64 engine(seed);
    auto uniform = [&](double bound) {
        const double u = double(engine() >> 11) * 0x1.0p-53;  // [0, 1)
        return -bound + 2.0 * bound * u;
    };
    const double first = 1.0;  // 1 / sqrt(fan_in = 1)
    const double second = 1.0 / std::sqrt(double(mlp.width));
    auto fill = [&](std::vector<double>& v, std::size_t count, double bound) {
        v.resize(count);
        for (double& x : v) x = uniform(bound);
    };
    fill(mlp.w1, std::size_t(mlp.width), first);
    fill(mlp.b1, std::size_t(mlp.width), first);
    fill(mlp.w2, std::size_t(mlp.width) * std::size_t(mlp.heads), second);
    fill(mlp.b2, std::size_t(mlp.heads), second);
    return mlp;
}

double fireMlpOutput(const FireMlp& mlp, int head, double phi) {
    if (head < 0 || head >= mlp.heads) return 0;
    const double* row = mlp.w2.data() + std::size_t(head) * std::size_t(mlp.width);
    double out = mlp.b2[std::size_t(head)];
    for (int k = 0; k < mlp.width; ++k) {
        const double hidden = mlp.w1[std::size_t(k)] * phi + mlp.b1[std::size_t(k)];
        if (hidden > 0) out += row[k] * hidden;
    }
    return out;
}

FireMlpLines fireMlpLines(const FireMlp& mlp, int head) {
    FireMlpLines lines;
    if (head < 0 || head >= mlp.heads) {
        lines.slope = {0.0};
        lines.intercept = {0.0};
        return lines;
    }
    const double* row = mlp.w2.data() + std::size_t(head) * std::size_t(mlp.width);
    // Left of every kink, unit k is on when w1_k < 0 (w1_k phi + b1_k > 0 for phi -> -inf), or
    // when w1_k = 0 and b1_k > 0 (always on). Each kink then turns its unit on (w1_k > 0) or
    // off (w1_k < 0).
    double slope = 0, intercept = mlp.b2[std::size_t(head)];
    std::vector<std::pair<double, int>> kinks;
    for (int k = 0; k < mlp.width; ++k) {
        const double w = mlp.w1[std::size_t(k)], b = mlp.b1[std::size_t(k)];
        if (w < 0 || (w == 0 && b > 0)) {
            slope += row[k] * w;
            intercept += row[k] * b;
        }
        if (w != 0) kinks.emplace_back(-b / w, k);
    }
    std::sort(kinks.begin(), kinks.end());
    lines.slope.push_back(slope);
    lines.intercept.push_back(intercept);
    for (const auto& [at, k] : kinks) {
        const double w = mlp.w1[std::size_t(k)], b = mlp.b1[std::size_t(k)];
        const double sign = w > 0 ? 1.0 : -1.0;
        slope += sign * row[k] * w;
        intercept += sign * row[k] * b;
        lines.kinks.push_back(at);
        lines.slope.push_back(slope);
        lines.intercept.push_back(intercept);
    }
    return lines;
}

double FireMlpLines::operator()(double phi) const {
    const std::size_t line =
        std::size_t(std::upper_bound(kinks.begin(), kinks.end(), phi) - kinks.begin());
    return slope[line] * phi + intercept[line];
}

namespace {

template <class Value>
Result<Matrix> causalMatrix(const FireParams& params, int seqLen, const char* what, Value value) {
    if (auto s = validate(params); !s) return s.error();
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s.error();
    if (auto s = checkMatrixSize(std::size_t(seqLen), std::size_t(seqLen), what); !s) {
        return s.error();
    }
    Matrix out(static_cast<std::size_t>(seqLen), static_cast<std::size_t>(seqLen),
               -std::numeric_limits<double>::infinity());
    for (int i = 0; i < seqLen; ++i) {
        double* row = out.row(std::size_t(i));
        for (int j = 0; j <= i; ++j) row[j] = value(i, j);
    }
    return out;
}

}  // namespace

Result<Matrix> firePhiMatrix(const FireParams& params, int seqLen) {
    return causalMatrix(params, seqLen, "the FIRE phi matrix",
                        [&](int i, int j) { return firePhi(params, i, j); });
}

Result<Matrix> fireBiasMatrix(const FireParams& params, int seqLen) {
    const FireMlp mlp = seededFireMlp(params.mlpWidth, params.heads, params.seed);
    return causalMatrix(params, seqLen, "the FIRE bias matrix", [&](int i, int j) {
        return fireMlpOutput(mlp, params.head, firePhi(params, i, j));
    });
}

}  // namespace poslab
