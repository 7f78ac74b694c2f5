#include "poslab/encodings/rope.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The two dimensions rotated together as pair i of `pairs`.
struct PairDims {
    std::size_t first;
    std::size_t second;
};
PairDims pairDims(RopePairing pairing, std::size_t pairs, std::size_t i) {
    if (pairing == RopePairing::Half) return {i, i + pairs};
    return {2 * i, 2 * i + 1};
}

// |v| without overflow or underflow in the squares: scaled by the largest entry first. Inf when
// the norm itself is beyond the largest double.
double euclideanNorm(const std::vector<double>& v) {
    double largest = 0;
    for (double x : v) largest = std::max(largest, std::abs(x));
    if (largest == 0 || !std::isfinite(largest)) return largest;
    double squares = 0;
    for (double x : v) squares += (x / largest) * (x / largest);
    return largest * std::sqrt(squares);
}

// Shared checks of the functions that take q, k and frequencies.
Status checkVectors(const std::vector<double>& q, const std::vector<double>& k,
                    const RopeFrequencies& freqs) {
    if (freqs.inverse.empty()) {
        return Error{"the RoPE frequencies are empty (compute them with ropeFrequencies())"};
    }
    if (q.size() != k.size()) {
        return Error{"q and k must have the same length (got " + std::to_string(q.size()) +
                     " and " + std::to_string(k.size()) + ")"};
    }
    if (q.size() < 2 * freqs.inverse.size()) {
        return Error{"q and k must have at least the " + std::to_string(2 * freqs.inverse.size()) +
                     " rotated dims (got " + std::to_string(q.size()) + ")"};
    }
    if (auto s = validateQueryKey(q, k); !s) return s;
    const double gain = freqs.attentionFactor * freqs.attentionFactor;
    if (!(gain * euclideanNorm(q) * euclideanNorm(k) <= kMaxRopeScoreBound)) {
        return Error{"q and k are too large for this attention factor: a_f^2 |q| |k| = " +
                     formatValue(gain * euclideanNorm(q) * euclideanNorm(k)) +
                     " (must be at most " + formatValue(kMaxRopeScoreBound) + ")"};
    }
    return success();
}

// Per-pair products of q and k that the score of any offset is built from (see ropeScore).
struct PairProducts {
    std::vector<double> dot;    // A^2 (q1 k1 + q2 k2)
    std::vector<double> cross;  // A^2 (q2 k1 - q1 k2)
    double passThrough = 0;     // q . k over the unrotated tail
};
PairProducts pairProducts(const std::vector<double>& q, const std::vector<double>& k,
                          const RopeFrequencies& freqs, RopePairing pairing) {
    const std::size_t pairs = freqs.inverse.size();
    const double gain = freqs.attentionFactor * freqs.attentionFactor;
    PairProducts products;
    products.dot.resize(pairs);
    products.cross.resize(pairs);
    for (std::size_t i = 0; i < pairs; ++i) {
        const PairDims dims = pairDims(pairing, pairs, i);
        const double q1 = q[dims.first], q2 = q[dims.second];
        const double k1 = k[dims.first], k2 = k[dims.second];
        products.dot[i] = gain * (q1 * k1 + q2 * k2);
        products.cross[i] = gain * (q2 * k1 - q1 * k2);
    }
    for (std::size_t j = 2 * pairs; j < q.size(); ++j) products.passThrough += q[j] * k[j];
    return products;
}

}  // namespace

Status validateQueryKey(const std::vector<double>& q, const std::vector<double>& k) {
    for (const auto* v : {&q, &k}) {
        for (std::size_t i = 0; i < v->size(); ++i) {
            if (!std::isfinite((*v)[i])) {
                return Error{std::string(v == &q ? "q" : "k") + "[" + std::to_string(i) +
                             "] must be a finite number (got " + formatValue((*v)[i]) + ")"};
            }
        }
    }
    const double bound = euclideanNorm(q) * euclideanNorm(k);
    if (!(bound <= kMaxRopeScoreBound)) {
        return Error{"q and k are too large: |q| |k| = " + formatValue(bound) +
                     " (must be at most " + formatValue(kMaxRopeScoreBound) +
                     ", so that every score is a finite number)"};
    }
    return success();
}

std::string_view pairingName(RopePairing pairing) {
    return enumName(kPairingNames, pairing);
}

Result<RopePairing> parsePairing(std::string_view name) {
    return parseEnum(kPairingNames, name, "pairing");
}

int rotatedDims(const RopeParams& params) {
    // HF: dim = int(head_dim * partial_rotary_factor), a double product truncated toward zero,
    // so e.g. 100 * 0.29 = 28.999999999999996 gives 28, not 29.
    const double product = double(params.headDim) * params.rotaryFraction;
    if (!(product >= 0.0) || product > double(std::numeric_limits<int>::max())) return 0;
    return int(product);
}

int originalMaxPositions(const RopeParams& params) {
    return params.scaling.originalMaxPositions > 0 ? params.scaling.originalMaxPositions
                                                   : params.trainingLength;
}

Status validate(const RopeParams& params) {
    if (auto s = requireIntInRange("head_dim", params.headDim, 2, kMaxDModel); !s) return s;
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireInRange("rotary_fraction", params.rotaryFraction, 0.0, 1.0, false); !s) {
        return s;
    }
    const int d = rotatedDims(params);
    if (d < 2 || d % 2 != 0) {
        // Named by what to change (the first word becomes the option: --head-dim, --rotary-...).
        if (params.rotaryFraction == 1.0) {
            return Error{"head_dim must be even, 2.." + std::to_string(kMaxDModel) + " (got " +
                         std::to_string(params.headDim) + ")"};
        }
        return Error{"rotary_fraction " + formatNumber(params.rotaryFraction) +
                     " leaves int(head_dim * rotary_fraction) = " + std::to_string(d) +
                     " rotated dims of head_dim " + std::to_string(params.headDim) +
                     "; they must be even and >= 2"};
    }
    if (auto s = requireIntInRange("seq_len", params.seqLen, 1, kMaxRopePositions); !s) return s;
    if (auto s = requireIntInRange("training_length", params.trainingLength, 1, kMaxRopePositions);
        !s) {
        return s;
    }
    if (auto s = validate(params.scaling); !s) return s;
    const bool changesBase =
        params.scaling.type == RopeScaling::Ntk || params.scaling.type == RopeScaling::DynamicNtk;
    if (changesBase && d < 4) {
        // base' = base * s^(d/(d-2)) has no value at d = 2.
        return Error{"rotated dims must be >= 4 for " +
                     std::string(scalingName(params.scaling.type)) + " (got " + std::to_string(d) +
                     ")"};
    }
    return success();
}

Result<RopeFrequencies> ropeFrequencies(const RopeParams& params) {
    if (auto s = validate(params); !s) return s.error();
    RopeScalingContext context;
    context.rotatedDims = rotatedDims(params);
    context.base = params.base;
    context.seqLen = params.seqLen;
    context.originalMaxPositions = originalMaxPositions(params);
    return scaledFrequencies(params.scaling, context);
}

Result<RopeFrequencies> unscaledFrequencies(const RopeParams& params) {
    RopeParams plain = params;
    plain.scaling = RopeScalingParams{};
    return ropeFrequencies(plain);
}

Result<PartialRotaryComparison> comparePartialRotary(int headDim, double base, double fraction) {
    RopeParams neox;
    neox.headDim = headDim;
    neox.base = base;
    neox.rotaryFraction = fraction;
    if (auto s = validate(neox); !s) return s.error();
    PartialRotaryComparison result;
    result.neoxRotatedDims = rotatedDims(neox);
    result.neoxPartial = defaultInverseFrequencies(result.neoxRotatedDims, base);
    result.proportional = proportionalInverseFrequencies(headDim, base, fraction);
    result.proportionalRotatedPairs = proportionalRotatedPairs(headDim, fraction);
    return result;
}

std::vector<double> ropeWavelengths(const RopeFrequencies& freqs) {
    std::vector<double> wavelengths(freqs.inverse.size());
    for (std::size_t i = 0; i < wavelengths.size(); ++i) {
        wavelengths[i] = kTwoPi / freqs.inverse[i];
    }
    return wavelengths;
}

std::vector<bool> ropeIncompleteTurns(const RopeFrequencies& freqs, double contextLength) {
    std::vector<bool> incomplete(freqs.inverse.size());
    for (std::size_t i = 0; i < incomplete.size(); ++i) {
        incomplete[i] = kTwoPi / freqs.inverse[i] > contextLength;
    }
    return incomplete;
}

std::vector<bool> ropeUnseenAngles(const RopeFrequencies& scaled, const RopeFrequencies& plain,
                                   double contextLength, double trainingLength) {
    const std::size_t pairs = std::min(scaled.inverse.size(), plain.inverse.size());
    std::vector<bool> unseen(pairs);
    for (std::size_t i = 0; i < pairs; ++i) {
        const double seen = plain.inverse[i] * trainingLength;  // the largest angle in training
        const double reached = scaled.inverse[i] * contextLength;
        unseen[i] = seen < kTwoPi && reached > seen * (1 + 1e-9);
    }
    return unseen;
}

std::vector<double> ropeRotate(const std::vector<double>& v, double position,
                               const RopeFrequencies& freqs, RopePairing pairing) {
    const std::size_t pairs = freqs.inverse.size();
    if (v.size() < 2 * pairs) return v;
    std::vector<double> out = v;  // the unrotated tail passes through unscaled, as in HF
    const double gain = freqs.attentionFactor;
    for (std::size_t i = 0; i < pairs; ++i) {
        const PairDims dims = pairDims(pairing, pairs, i);
        const double angle = position * freqs.inverse[i];
        const double c = std::cos(angle), s = std::sin(angle);
        const double x1 = v[dims.first], x2 = v[dims.second];
        out[dims.first] = gain * (x1 * c - x2 * s);
        out[dims.second] = gain * (x2 * c + x1 * s);
    }
    return out;
}

double ropeScore(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                 const RopeFrequencies& freqs, RopePairing pairing) {
    if (!checkVectors(q, k, freqs)) return std::numeric_limits<double>::quiet_NaN();
    // R(m theta) a . R(n theta) b = a . R((n - m) theta) b
    //                             = cos(r theta) (a1 b1 + a2 b2) - sin(r theta) (a2 b1 - a1 b2)
    // with r = m - n: only the offset matters, which is the point of RoPE.
    const PairProducts products = pairProducts(q, k, freqs, pairing);
    const double offset = m - n;
    double score = products.passThrough;
    for (std::size_t i = 0; i < freqs.inverse.size(); ++i) {
        const double angle = offset * freqs.inverse[i];
        score += products.dot[i] * std::cos(angle) - products.cross[i] * std::sin(angle);
    }
    return score;
}

Result<std::vector<double>> ropeOffsetScores(const std::vector<double>& q,
                                             const std::vector<double>& k, int seqLen,
                                             const RopeFrequencies& freqs, RopePairing pairing) {
    if (auto s = checkVectors(q, k, freqs); !s) return s.error();
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s.error();
    const PairProducts products = pairProducts(q, k, freqs, pairing);
    const std::size_t pairs = freqs.inverse.size();
    const std::size_t centre = std::size_t(seqLen - 1);
    std::vector<double> scores(2 * centre + 1);
    // score(+r) = C(r) - S(r) and score(-r) = C(r) + S(r), so r = 0..L-1 covers all 2L-1.
    forEachGridPhase(freqs.inverse, 0, 1, seqLen,
                     [&](long long r, const double* cosines, const double* sines) {
                         double even = 0, odd = 0;
                         for (std::size_t i = 0; i < pairs; ++i) {
                             even += products.dot[i] * cosines[i];
                             odd += products.cross[i] * sines[i];
                         }
                         scores[centre + r] = products.passThrough + even - odd;
                         scores[centre - r] = products.passThrough + even + odd;
                     });
    return scores;
}

Status ropeScoreMatrixInto(Matrix& out, const std::vector<double>& q, const std::vector<double>& k,
                           int seqLen, const RopeFrequencies& freqs, RopePairing pairing) {
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s;
    const std::size_t length = std::size_t(seqLen);
    if (auto s = checkMatrixSize(length, length, "the RoPE score matrix"); !s) return s;
    auto offsets = ropeOffsetScores(q, k, seqLen, freqs, pairing);
    if (!offsets) return offsets.error();
    // Row m, column n holds offset m - n. Reversed, the offsets make each row one contiguous
    // slice (starting at L-1-m), so the fill is L straight copies.
    const std::vector<double> reversed(offsets->rbegin(), offsets->rend());
    auto rowStart = [&](std::size_t m) {
        return reversed.begin() + std::ptrdiff_t(length - 1 - m);
    };
    const std::size_t count = length * length;
    out.rows = length;
    out.cols = length;
    if (out.values.capacity() >= count) {
        out.values.resize(count);
        for (std::size_t m = 0; m < length; ++m) {
            std::copy(rowStart(m), rowStart(m) + std::ptrdiff_t(length), out.row(m));
        }
    } else {
        // Fresh storage: appending into reserved capacity skips the zero-fill a resize would
        // do, which matters because first-touching the pages is already the dominant cost.
        std::vector<double>().swap(out.values);
        out.values.reserve(count);
        for (std::size_t m = 0; m < length; ++m) {
            out.values.insert(out.values.end(), rowStart(m), rowStart(m) + std::ptrdiff_t(length));
        }
    }
    return success();
}

Result<Matrix> ropeScoreMatrix(const std::vector<double>& q, const std::vector<double>& k,
                               int seqLen, const RopeFrequencies& freqs, RopePairing pairing) {
    Matrix matrix;
    if (auto s = ropeScoreMatrixInto(matrix, q, k, seqLen, freqs, pairing); !s) return s.error();
    return matrix;
}

Result<Matrix> ropeAngleTableWindow(const RopeFrequencies& freqs, long long firstRow, int rows) {
    if (freqs.inverse.empty()) {
        return Error{"the RoPE frequencies are empty (compute them with ropeFrequencies())"};
    }
    if (auto s = requireIntInRange("rows", rows, 1, kMaxSeqLen); !s) return s.error();
    // Positions stay exact doubles up to 2^53.
    constexpr long long kMaxPosition = 1LL << 53;
    if (auto s = requireIntInRange("first_row", firstRow, 0, kMaxPosition - rows); !s) {
        return s.error();
    }
    const std::size_t pairs = freqs.inverse.size();
    if (auto s = checkMatrixSize(std::size_t(rows), pairs, "the RoPE angle table"); !s) {
        return s.error();
    }
    Matrix table(std::size_t(rows), pairs);
    for (int r = 0; r < rows; ++r) {
        const double position = double(firstRow + r);
        double* out = table.row(std::size_t(r));
        // fmod is exact, and a non-negative angle lands in [0, 2 pi).
        for (std::size_t i = 0; i < pairs; ++i) {
            out[i] = std::fmod(position * freqs.inverse[i], kTwoPi);
        }
    }
    return table;
}

Result<Matrix> ropeAngleTable(const RopeFrequencies& freqs, int seqLen) {
    if (auto s = requireIntInRange("seq_len", seqLen, 1, kMaxSeqLen); !s) return s.error();
    return ropeAngleTableWindow(freqs, 0, seqLen);
}

std::vector<double> seededGaussianVector(int dims, std::uint64_t seed) {
    std::vector<double> values;
    if (dims <= 0) return values;
    values.reserve(std::size_t(dims));
    NormalSampler sampler(seed);
    for (int i = 0; i < dims; ++i) values.push_back(sampler.next());
    return values;
}

Result<std::vector<double>> ropeDecayBound(int headDim, double base, int maxDistance) {
    if (auto s = requireIntInRange("head_dim", headDim, 2, kMaxDModel); !s) return s.error();
    if (headDim % 2 != 0) {
        return Error{"head_dim must be even for the decay bound (got " + std::to_string(headDim) +
                     ")"};
    }
    if (auto s = requireInRange("base", base, 1.0, 1e12, false); !s) return s.error();
    if (auto s = requireIntInRange("max_distance", maxDistance, 0, kMaxSeqLen); !s) {
        return s.error();
    }
    const std::vector<double> theta = defaultInverseFrequencies(headDim, base);
    const std::size_t pairs = theta.size();
    std::vector<double> bound(std::size_t(maxDistance) + 1);
    forEachGridPhase(theta, 0, 1, maxDistance + 1,
                     [&](long long r, const double* cosines, const double* sines) {
                         // S_j is a prefix sum of unit phasors; the bound averages their lengths
                         // over j.
                         double re = 0, im = 0, total = 0;
                         for (std::size_t j = 0; j < pairs; ++j) {
                             re += cosines[j];
                             im += sines[j];
                             total += std::sqrt(re * re + im * im);
                         }
                         bound[std::size_t(r)] = total / double(pairs);
                     });
    return bound;
}

}  // namespace poslab
