#include "poslab/encodings/alibi.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

// get_slopes_power_of_2(n): start = 2**(-2**-(log2(n) - 3)); [start * start**i for i in range(n)].
// The same operations in the same order as the Python, so the doubles match it bit for bit
// (Python's float ** float is C's pow).
std::vector<double> slopesPowerOfTwo(int n) {
    const double exponent = -std::pow(2.0, -(std::log2(double(n)) - 3.0));
    const double start = std::pow(2.0, exponent);
    std::vector<double> slopes(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) slopes[std::size_t(i)] = start * std::pow(start, double(i));
    return slopes;
}

bool isPowerOfTwo(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

}  // namespace

std::vector<double> alibiSlopes(int heads) {
    if (heads < 1) return {};
    if (isPowerOfTwo(heads)) return slopesPowerOfTwo(heads);
    int closest = 1;  // 2^floor(log2 heads)
    while (closest * 2 <= heads) closest *= 2;
    std::vector<double> slopes = slopesPowerOfTwo(closest);
    // get_slopes(2p)[0::2][:n - p]: 2p is a power of two, so the recursion ends there.
    const std::vector<double> finer = slopesPowerOfTwo(2 * closest);
    for (int k = 0; k < heads - closest; ++k) slopes.push_back(finer[std::size_t(2 * k)]);
    return slopes;
}

Status validate(const AlibiParams& params) {
    if (auto s = kAlibiHeadsParam.check(params.heads); !s) return s;
    if (auto s = requireIntInRange("head", params.head, 0, params.heads - 1); !s) return s;
    if (auto s = requireIntInRange("seq_len", params.seqLen, 1, kMaxSeqLen); !s) return s;
    return checkMatrixSize(std::size_t(params.seqLen), std::size_t(params.seqLen),
                           "the ALiBi bias matrix");
}

double alibiBiasValue(double slope, int query, int key, bool symmetric) {
    if (!symmetric && key > query) return -std::numeric_limits<double>::infinity();
    return -slope * std::abs(double(query) - double(key));
}

Result<Matrix> alibiBias(const AlibiParams& params) {
    if (auto status = validate(params); !status) return status.error();
    const double slope = alibiSlopes(params.heads)[std::size_t(params.head)];
    const int length = params.seqLen;
    Matrix bias(static_cast<std::size_t>(length), static_cast<std::size_t>(length));
    for (int i = 0; i < length; ++i) {
        double* row = bias.row(std::size_t(i));
        for (int j = 0; j < length; ++j) row[j] = alibiBiasValue(slope, i, j, params.symmetric);
    }
    return bias;
}

Status alibiAttentionRowInto(double slope, int queryIndex, int seqLen,
                             const std::vector<double>& contentLogits, bool symmetric,
                             std::vector<double>& weights, std::pair<int, int>* nonZero) {
    if (auto s = requireInRange("slope", slope, 0.0, 1e6); !s) return s;
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s;
    if (auto s = requireIntInRange("query", queryIndex, 0, seqLen - 1); !s) return s;
    if (!contentLogits.empty() && contentLogits.size() != std::size_t(seqLen)) {
        return Error{"content logits must have seq_len = " + std::to_string(seqLen) +
                     " values (got " + std::to_string(contentLogits.size()) + ")"};
    }
    // A value is inf or NaN when its exponent bits are all set: one branch-free pass over the
    // bits (it vectorises), and the offending value is looked for only when there is one.
    // The same pass takes the logits' bounds (used below only when all are finite).
    constexpr std::uint64_t kExponentBits = 0x7ff0000000000000ULL;
    std::uint64_t nonFinite = 0;
    double lowest = 0, highest = 0;
    if (!contentLogits.empty()) lowest = highest = contentLogits.front();
    for (double x : contentLogits) {
        std::uint64_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        nonFinite |= std::uint64_t((bits & kExponentBits) == kExponentBits);
        lowest = x < lowest ? x : lowest;
        highest = x > highest ? x : highest;
    }
    if (nonFinite != 0) {
        for (std::size_t j = 0; j < contentLogits.size(); ++j) {
            if (!std::isfinite(contentLogits[j])) {
                return Error{"content logit " + std::to_string(j) +
                             " must be a finite number (got " + formatNumber(contentLogits[j]) +
                             ")"};
            }
        }
    }

    // Causal rows only see keys 0..queryIndex; everything after stays exactly 0. So does every
    // key farther from the query than `reach`: the largest logit is at least the query's own
    // (content >= lowest, bias 0) and such a key's at most highest - slope * distance, more
    // than 746 below it (plus a margin far above the rounding of these sums), so its exp() is
    // the 0 the loop below would give it. Only [first, end) is computed: with a steep head most
    // of a long row is that far. The weights are the same doubles (adding the skipped zeros to
    // a sum of non-negative terms changes no bit).
    constexpr double kExpIsZeroBelow = -746.0;
    const int visible = symmetric ? seqLen : queryIndex + 1;
    int first = 0, end = visible;
    if (slope > 0) {
        const double margin =
            64 + 1e-12 * (std::abs(lowest) + std::abs(highest) + slope * double(seqLen));
        const double reach = (highest - lowest - kExpIsZeroBelow + margin) / slope;
        if (reach < double(seqLen)) {
            const int within = int(reach);  // keys at a distance <= reach may be non-zero
            first = std::max(0, queryIndex - within);
            end = std::min(visible, queryIndex + within + 1);
        }
    }
    if (nonZero) *nonZero = {first, end};
    weights.resize(std::size_t(seqLen));  // keys first..end-1 are all written below
    std::fill(weights.begin(), weights.begin() + first, 0.0);
    std::fill(weights.begin() + end, weights.end(), 0.0);
    double largest = -std::numeric_limits<double>::infinity();
    for (int j = first; j < end; ++j) {
        const double content = contentLogits.empty() ? 0.0 : contentLogits[std::size_t(j)];
        weights[std::size_t(j)] = content + alibiBiasValue(slope, queryIndex, j, symmetric);
        largest = std::max(largest, weights[std::size_t(j)]);
    }
    // Subtracting the largest logit keeps every exp() argument <= 0: no overflow, and the
    // largest term is exactly 1, so the sum is at least 1. exp() of anything below -746 is 0 (the
    // smallest subnormal is e^-744.4), so those terms skip the call and its underflow handling:
    // far from the query, with a steep slope, that is most of the row.
    double sum = 0;
    for (int j = first; j < end; ++j) {
        const double x = weights[std::size_t(j)] - largest;
        weights[std::size_t(j)] = x < kExpIsZeroBelow ? 0.0 : std::exp(x);
        sum += weights[std::size_t(j)];
    }
    for (int j = first; j < end; ++j) weights[std::size_t(j)] /= sum;
    return success();
}

Result<std::vector<double>> alibiAttentionRow(double slope, int queryIndex, int seqLen,
                                              const std::vector<double>& contentLogits,
                                              bool symmetric) {
    std::vector<double> weights;
    if (auto s =
            alibiAttentionRowInto(slope, queryIndex, seqLen, contentLogits, symmetric, weights);
        !s)
        return s.error();
    return weights;
}

}  // namespace poslab
