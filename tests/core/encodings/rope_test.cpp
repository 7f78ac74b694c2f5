#include "poslab/encodings/rope.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "../test_math.hpp"
#include "poslab/base/limits.hpp"

namespace poslab {
namespace {

RopeParams ropeParams(int headDim, double base = 10000, double fraction = 1.0,
                      RopePairing pairing = RopePairing::Half) {
    RopeParams p;
    p.headDim = headDim;
    p.base = base;
    p.rotaryFraction = fraction;
    p.pairing = pairing;
    return p;
}

RopeFrequencies frequencies(const RopeParams& p) {
    auto freqs = ropeFrequencies(p);
    EXPECT_TRUE(freqs.ok()) << freqs.error().message;
    return *freqs;
}

// HF's inv_freq written out: 1 / base^(arange(0, dim, 2) / dim), dim = the rotated dims.
std::vector<double> hfInverseFrequencies(int dim, double base) {
    std::vector<double> inverse;
    for (int even = 0; even < dim; even += 2)
        inverse.push_back(1.0 / std::pow(base, 1.0 * even / dim));
    return inverse;
}

// HF's apply_rotary_pos_emb for one vector, written out: emb = cat(freqs, freqs),
// q_embed = q * cos(emb) + rotate_half(q) * sin(emb), rotate_half(x) = cat(-x2, x1); the
// unrotated tail is concatenated back (GPT-NeoX, Phi).
std::vector<double> hfRotateHalf(const std::vector<double>& q, double position,
                                 const std::vector<double>& inverse) {
    const std::size_t dim = 2 * inverse.size(), half = inverse.size();
    std::vector<double> out = q;
    for (std::size_t j = 0; j < dim; ++j) {
        const double angle = position * inverse[j % half];
        const double rotated = j < half ? -q[j + half] : q[j - half];
        out[j] = q[j] * std::cos(angle) + rotated * std::sin(angle);
    }
    return out;
}

// GPT-J's apply_rotary_pos_emb: sin/cos repeat_interleave'd, rotate_every_two(x) turns
// (x0, x1, x2, x3, ...) into (-x1, x0, -x3, x2, ...).
std::vector<double> hfRotateEveryTwo(const std::vector<double>& q, double position,
                                     const std::vector<double>& inverse) {
    const std::size_t dim = 2 * inverse.size();
    std::vector<double> out = q;
    for (std::size_t j = 0; j < dim; ++j) {
        const double angle = position * inverse[j / 2];
        const double rotated = j % 2 == 0 ? -q[j + 1] : q[j - 1];
        out[j] = q[j] * std::cos(angle) + rotated * std::sin(angle);
    }
    return out;
}

std::vector<double> randomVector(int dims, unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> v(static_cast<std::size_t>(dims));
    for (double& x : v) x = uniform(engine);
    return v;
}

TEST(RopeTest, DefaultFrequenciesMatchHfInvFreq) {
    for (double base : {10000.0, 500000.0, 1000000.0}) {
        for (int d : {2, 64, 128}) {
            const RopeFrequencies freqs = frequencies(ropeParams(d, base));
            const std::vector<double> expected = hfInverseFrequencies(d, base);
            ASSERT_EQ(freqs.inverse.size(), expected.size());
            EXPECT_EQ(freqs.rotatedDims, d);
            EXPECT_EQ(freqs.attentionFactor, 1.0);
            for (std::size_t i = 0; i < expected.size(); ++i)
                EXPECT_NEAR(freqs.inverse[i], expected[i], 1e-15 * expected[i]) << d << " " << i;
        }
    }
    // Partial rotary: the exponent runs over the rotated dims (24), not head_dim (96).
    const RopeFrequencies neox = frequencies(ropeParams(96, 10000, 0.25));
    const std::vector<double> expected = hfInverseFrequencies(24, 10000);
    ASSERT_EQ(neox.inverse.size(), 12u);
    for (std::size_t i = 0; i < 12; ++i) EXPECT_NEAR(neox.inverse[i], expected[i], 1e-15);
    EXPECT_NEAR(neox.inverse[11], std::pow(10000.0, -22.0 / 24.0), 1e-18);
}

TEST(RopeTest, RotatedDimsTruncateLikePythonInt) {
    EXPECT_EQ(rotatedDims(ropeParams(128)), 128);
    EXPECT_EQ(rotatedDims(ropeParams(96, 10000, 0.25)), 24);   // GPT-NeoX-20B
    EXPECT_EQ(rotatedDims(ropeParams(80, 10000, 0.4)), 32);    // Phi-2
    EXPECT_EQ(rotatedDims(ropeParams(256, 10000, 0.25)), 64);  // GPT-J-6B's rotary_dim
    // Python: int(100 * 0.29) == 28, because 100 * 0.29 == 28.999999999999996.
    EXPECT_EQ(rotatedDims(ropeParams(100, 10000, 0.29)), 28);
    // int(100 * 0.25) = 25 is odd: no pairing exists, so the parameters are refused.
    const auto odd = validate(ropeParams(100, 10000, 0.25));
    ASSERT_FALSE(odd.ok());
    EXPECT_EQ(odd.error().message,
              "rotary_fraction 0.25 leaves int(head_dim * rotary_fraction) = 25 rotated dims of "
              "head_dim 100; they must be even and >= 2");
}

TEST(RopeTest, RotationMatchesHfApplyRotaryPosEmb) {
    for (double fraction : {1.0, 0.25, 0.5}) {
        const RopeParams p = ropeParams(64, 10000, fraction);
        const RopeFrequencies freqs = frequencies(p);
        const std::vector<double> inverse = hfInverseFrequencies(rotatedDims(p), 10000);
        const std::vector<double> q = randomVector(64, 7);
        for (double position : {0.0, 1.0, 17.0, 4095.0, 100000.0}) {
            const auto half = ropeRotate(q, position, freqs, RopePairing::Half);
            const auto every = ropeRotate(q, position, freqs, RopePairing::Interleaved);
            const auto hfHalf = hfRotateHalf(q, position, inverse);
            const auto hfEvery = hfRotateEveryTwo(q, position, inverse);
            for (std::size_t j = 0; j < q.size(); ++j) {
                EXPECT_NEAR(half[j], hfHalf[j], 1e-12) << fraction << " " << position << " " << j;
                EXPECT_NEAR(every[j], hfEvery[j], 1e-12) << fraction << " " << position << " " << j;
            }
        }
    }
}

TEST(RopeTest, RotationPreservesNorm) {
    for (auto pairing : {RopePairing::Half, RopePairing::Interleaved}) {
        const RopeFrequencies freqs = frequencies(ropeParams(128, 500000));
        const std::vector<double> v = randomVector(128, 3);
        for (double position : {0.0, 1.0, 1234.0, 131071.0}) {
            const auto rotated = ropeRotate(v, position, freqs, pairing);
            EXPECT_NEAR(dot(rotated, rotated), dot(v, v), 1e-12 * dot(v, v));
        }
        const auto at0 = ropeRotate(v, 0.0, freqs, pairing);
        for (std::size_t j = 0; j < v.size(); ++j) EXPECT_EQ(at0[j], v[j]);
    }
}

TEST(RopeTest, PartialRotaryLeavesTailUntouched) {
    const RopeFrequencies freqs = frequencies(ropeParams(64, 10000, 0.25));
    ASSERT_EQ(freqs.rotatedDims, 16);
    const std::vector<double> v = randomVector(64, 11);
    for (auto pairing : {RopePairing::Half, RopePairing::Interleaved}) {
        const auto rotated = ropeRotate(v, 321.0, freqs, pairing);
        for (std::size_t j = 16; j < 64; ++j) EXPECT_EQ(rotated[j], v[j]) << j;
        bool changed = false;
        for (std::size_t j = 0; j < 16; ++j) changed |= rotated[j] != v[j];
        EXPECT_TRUE(changed);
    }
}

TEST(RopeTest, PairingsAgreeAfterPermutingDimensions) {
    // Interleaved pair i is (2i, 2i+1); half pair i is (i, i + d/2). Moving dim 2i to i and
    // 2i+1 to i + d/2 (the tail stays) turns one rotation into the other.
    const int headDim = 40, d = 32, half = d / 2;
    const RopeFrequencies freqs = frequencies(ropeParams(headDim, 10000, 0.8));
    ASSERT_EQ(freqs.rotatedDims, d);
    auto permute = [&](const std::vector<double>& v) {
        std::vector<double> out = v;
        for (int i = 0; i < half; ++i) {
            out[std::size_t(i)] = v[std::size_t(2 * i)];
            out[std::size_t(i + half)] = v[std::size_t(2 * i + 1)];
        }
        return out;
    };
    const std::vector<double> v = randomVector(headDim, 5);
    for (double position : {0.0, 3.0, 999.0}) {
        const auto interleaved = ropeRotate(v, position, freqs, RopePairing::Interleaved);
        const auto halves = ropeRotate(permute(v), position, freqs, RopePairing::Half);
        const auto expected = permute(interleaved);
        for (std::size_t j = 0; j < v.size(); ++j) EXPECT_NEAR(halves[j], expected[j], 1e-14);
    }
}

TEST(RopeTest, ScoreDependsOnlyOnOffset) {
    const std::vector<double> q = randomVector(64, 21), k = randomVector(64, 22);
    for (auto pairing : {RopePairing::Half, RopePairing::Interleaved}) {
        for (double fraction : {1.0, 0.5}) {
            const RopeFrequencies freqs = frequencies(ropeParams(64, 10000, fraction, pairing));
            for (int offset : {-300, -7, 0, 1, 50, 2000}) {
                const double reference = dot(ropeRotate(q, 5000.0 + offset, freqs, pairing),
                                             ropeRotate(k, 5000.0, freqs, pairing));
                for (double n : {0.0, 1.0, 123.0, 7777.0}) {
                    if (n + offset < 0) continue;
                    const double rotatedDot = dot(ropeRotate(q, n + offset, freqs, pairing),
                                                  ropeRotate(k, n, freqs, pairing));
                    EXPECT_NEAR(rotatedDot, reference, 1e-10) << offset << " " << n;
                    EXPECT_NEAR(ropeScore(q, k, n + offset, n, freqs, pairing), reference, 1e-10);
                }
            }
        }
    }
}

TEST(RopeTest, ScoreAppliesTheAttentionFactorToRotatedDimsOnly) {
    // HF multiplies cos and sin by attention_scaling, i.e. the rotated part of q and k, not the
    // pass-through tail: the score's rotated part grows by A^2.
    RopeFrequencies freqs = frequencies(ropeParams(32, 10000, 0.5));
    const std::vector<double> q = randomVector(32, 1), k = randomVector(32, 2);
    const double plain = ropeScore(q, k, 9, 4, freqs, RopePairing::Half);
    double tail = 0;
    for (std::size_t j = 16; j < 32; ++j) tail += q[j] * k[j];
    freqs.attentionFactor = 1.5;
    const double scaled = ropeScore(q, k, 9, 4, freqs, RopePairing::Half);
    EXPECT_NEAR(scaled - tail, 2.25 * (plain - tail), 1e-12);
    const auto rq = ropeRotate(q, 9, freqs, RopePairing::Half);
    const auto rk = ropeRotate(k, 4, freqs, RopePairing::Half);
    EXPECT_NEAR(dot(rq, rk), scaled, 1e-12);
    EXPECT_EQ(rq[20], q[20]);
}

TEST(RopeTest, ScoreMatrixEqualsRotateThenDotEverywhere) {
    const int length = 200;
    for (auto pairing : {RopePairing::Half, RopePairing::Interleaved}) {
        for (double fraction : {1.0, 0.75}) {
            const RopeParams p = ropeParams(48, 10000, fraction, pairing);
            const RopeFrequencies freqs = frequencies(p);
            const std::vector<double> inverse = hfInverseFrequencies(rotatedDims(p), 10000);
            const std::vector<double> q = randomVector(48, 31), k = randomVector(48, 32);
            auto matrix = ropeScoreMatrix(q, k, length, freqs, pairing);
            ASSERT_TRUE(matrix.ok()) << matrix.error().message;
            ASSERT_EQ(matrix->rows, std::size_t(length));
            ASSERT_EQ(matrix->cols, std::size_t(length));
            auto rotate = [&](const std::vector<double>& v, double position) {
                return pairing == RopePairing::Half ? hfRotateHalf(v, position, inverse)
                                                    : hfRotateEveryTwo(v, position, inverse);
            };
            std::vector<std::vector<double>> rq, rk;
            for (int m = 0; m < length; ++m) {
                rq.push_back(rotate(q, m));
                rk.push_back(rotate(k, m));
            }
            for (int m = 0; m < length; ++m)
                for (int n = 0; n < length; ++n)
                    ASSERT_NEAR((*matrix)(m, n), dot(rq[m], rk[n]), 1e-11) << m << "," << n;
        }
    }
}

TEST(RopeTest, OffsetScoresAreIndexedByMMinusN) {
    const RopeFrequencies freqs = frequencies(ropeParams(16));
    const std::vector<double> q = randomVector(16, 41), k = randomVector(16, 42);
    const int length = 70;
    auto offsets = ropeOffsetScores(q, k, length, freqs, RopePairing::Half);
    ASSERT_TRUE(offsets.ok());
    ASSERT_EQ(offsets->size(), std::size_t(2 * length - 1));
    for (int t = 0; t < 2 * length - 1; ++t) {
        const int offset = t - (length - 1);
        const double expected = offset >= 0 ? ropeScore(q, k, offset, 0, freqs, RopePairing::Half)
                                            : ropeScore(q, k, 0, -offset, freqs, RopePairing::Half);
        EXPECT_NEAR((*offsets)[std::size_t(t)], expected, 1e-12) << offset;
    }
}

TEST(RopeTest, LongScoreMatrixIsExact) {
    // 4096 x 4096 at d = 128, against the Hugging Face rotation written out. How fast it is
    // (O(L d) offset scores, then copies) is measured by BM_RopeScoreMatrix in tests/bench, not
    // here: a wall-clock bound fails on a loaded machine and proves nothing on a quiet one.
    const RopeFrequencies freqs = frequencies(ropeParams(128, 10000));
    const std::vector<double> q = seededGaussianVector(128, 1), k = seededGaussianVector(128, 2);
    auto offsets = ropeOffsetScores(q, k, 4096, freqs, RopePairing::Half);
    auto matrix = ropeScoreMatrix(q, k, 4096, freqs, RopePairing::Half);
    ASSERT_TRUE(offsets.ok() && matrix.ok());
    ASSERT_EQ(matrix->rows, 4096u);
    const std::vector<double> inverse = hfInverseFrequencies(128, 10000);
    for (int m : {0, 1, 2047, 4095}) {
        for (int n : {0, 33, 4000, 4095}) {
            const double expected = dot(hfRotateHalf(q, m, inverse), hfRotateHalf(k, n, inverse));
            EXPECT_NEAR((*matrix)(m, n), expected, 1e-10) << m << "," << n;
            // The score depends on m - n alone: the offset scores hold it at index m - n + L - 1.
            EXPECT_NEAR((*offsets)[std::size_t(m - n + 4095)], expected, 1e-10) << m << "," << n;
        }
    }
}

TEST(RopeTest, ScoreMatrixIntoReusesStorage) {
    const RopeFrequencies freqs = frequencies(ropeParams(16));
    const std::vector<double> q = randomVector(16, 51), k = randomVector(16, 52);
    Matrix out;
    ASSERT_TRUE(ropeScoreMatrixInto(out, q, k, 100, freqs, RopePairing::Half).ok());
    const double* storage = out.values.data();
    ASSERT_TRUE(ropeScoreMatrixInto(out, k, q, 60, freqs, RopePairing::Interleaved).ok());
    EXPECT_EQ(out.values.data(), storage);  // smaller: same allocation
    EXPECT_EQ(out.rows, 60u);
    EXPECT_EQ(out.values.size(), 3600u);
    auto fresh = ropeScoreMatrix(k, q, 60, freqs, RopePairing::Interleaved);
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ(out.values, fresh->values);
    // A failed call leaves the previous contents alone.
    EXPECT_FALSE(ropeScoreMatrixInto(out, q, k, 0, freqs, RopePairing::Half).ok());
    EXPECT_EQ(out.values, fresh->values);
}

TEST(RopeTest, AngleTableWrapsPositionTimesTheta) {
    const RopeFrequencies freqs = frequencies(ropeParams(32, 10000));
    auto table = ropeAngleTable(freqs, 500);
    ASSERT_TRUE(table.ok());
    ASSERT_EQ(table->rows, 500u);
    ASSERT_EQ(table->cols, 16u);
    const std::vector<double> inverse = hfInverseFrequencies(32, 10000);
    for (int p = 0; p < 500; ++p) {
        for (int i = 0; i < 16; ++i) {
            const double angle = (*table)(p, i);
            ASSERT_GE(angle, 0.0);
            ASSERT_LT(angle, 2 * kPi);
            // Same point on the circle as the unwrapped angle.
            EXPECT_NEAR(std::cos(angle), std::cos(p * inverse[i]), 1e-12);
            EXPECT_NEAR(std::sin(angle), std::sin(p * inverse[i]), 1e-12);
        }
    }
    // Pair 0 turns at 1 rad per position: position 7 is 7 - 2 pi.
    EXPECT_NEAR((*table)(7, 0), 7.0 - 2 * kPi, 1e-14);
    EXPECT_EQ((*table)(0, 5), 0.0);
}

TEST(RopeTest, AngleTableWindowMatchesFullTableAndReachesFar) {
    const RopeFrequencies freqs = frequencies(ropeParams(16, 10000));
    auto full = ropeAngleTable(freqs, 300);
    auto window = ropeAngleTableWindow(freqs, 120, 100);
    ASSERT_TRUE(full.ok() && window.ok());
    for (int r = 0; r < 100; ++r)
        for (int i = 0; i < 8; ++i) EXPECT_EQ((*window)(r, i), (*full)(120 + r, i));
    const long long far = 1000000000LL;
    auto distant = ropeAngleTableWindow(freqs, far, 4);
    ASSERT_TRUE(distant.ok());
    for (int r = 0; r < 4; ++r) {
        for (int i = 0; i < 8; ++i) {
            const double angle = (*distant)(r, i);
            EXPECT_GE(angle, 0.0);
            EXPECT_LT(angle, 2 * kPi);
            EXPECT_NEAR(std::cos(angle), std::cos(double(far + r) * freqs.inverse[i]), 1e-6);
        }
    }
    EXPECT_FALSE(ropeAngleTableWindow(freqs, -1, 4).ok());
    EXPECT_FALSE(ropeAngleTableWindow(freqs, 0, 0).ok());
    EXPECT_FALSE(ropeAngleTable(RopeFrequencies{}, 10).ok());
}

TEST(RopeTest, WavelengthsAndPairsThatNeverCompleteATurn) {
    const RopeFrequencies freqs = frequencies(ropeParams(128, 10000));
    const std::vector<double> wavelengths = ropeWavelengths(freqs);
    ASSERT_EQ(wavelengths.size(), 64u);
    for (int i = 0; i < 64; ++i)
        EXPECT_NEAR(wavelengths[i], 2 * kPi * std::pow(10000.0, i / 64.0), 1e-12 * wavelengths[i]);
    // 2 pi 10000^(i/64) > 4096  <=>  i > 64 log(4096 / 2 pi) / log(10000) = 45.03.
    const std::vector<bool> incomplete = ropeIncompleteTurns(freqs, 4096);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(incomplete[i], i >= 46) << i;
    // The slowest pair of base 10000 needs 2 pi 10000^(63/64) = 54410 positions per turn.
    EXPECT_NEAR(wavelengths[63], 54410.0, 1.0);
}

TEST(RopeTest, DecayBoundReproducesRoFormerFigure2) {
    auto bound = ropeDecayBound(128, 10000, 250);
    ASSERT_TRUE(bound.ok()) << bound.error().message;
    ASSERT_EQ(bound->size(), 251u);
    EXPECT_NEAR((*bound)[0], 32.5, 1e-12);  // (1/64) * (1 + 2 + ... + 64)
    EXPECT_NEAR((*bound)[5], 20.85, 0.01);
    EXPECT_NEAR((*bound)[100], 10.2, 0.05);
    EXPECT_NEAR((*bound)[250], 6.5, 0.1);
    // The definition written out with std::complex.
    for (int r : {1, 17, 64, 199, 250}) {
        std::complex<double> partial = 0;
        double total = 0;
        for (int k = 0; k < 64; ++k) {
            const double theta = std::pow(10000.0, -2.0 * k / 128.0);
            partial += std::polar(1.0, r * theta);
            total += std::abs(partial);
        }
        EXPECT_NEAR((*bound)[r], total / 64.0, 1e-11) << r;
    }
    EXPECT_FALSE(ropeDecayBound(127, 10000, 10).ok());
    EXPECT_FALSE(ropeDecayBound(128, 1.0, 10).ok());
    EXPECT_FALSE(ropeDecayBound(128, 10000, -1).ok());
}

TEST(RopeTest, SeededGaussianVectorIsPortable) {
    // The standard fixes mt19937_64's output: the 10000th value of a default engine is
    // 9981545732273789042 ([rand.predef]).
    std::mt19937_64 engine;
    engine.discard(9999);
    EXPECT_EQ(engine(), 9981545732273789042ULL);

    // Reference values from an independent Python implementation of MT19937-64 (checked
    // against the value above) and the Box-Muller transform documented in rope.hpp.
    const std::vector<double> expected = {-0.4812176998018449, -0.5745368738983057,
                                          0.49458385623521345, 0.5701215522073739,
                                          0.3745542688498136};
    const std::vector<double> values = seededGaussianVector(5, 42);
    ASSERT_EQ(values.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(values[i], expected[i], 1e-14) << i;
    const std::vector<double> seedZero = seededGaussianVector(3, 0);
    EXPECT_NEAR(seedZero[0], 1.9128045292843205, 1e-14);
    EXPECT_NEAR(seedZero[1], -0.09447956112584306, 1e-14);
    EXPECT_NEAR(seedZero[2], -2.079407906239395, 1e-14);

    // An odd length is the prefix of the next even one; other seeds differ.
    const std::vector<double> six = seededGaussianVector(6, 42);
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(six[i], values[i]);
    EXPECT_NE(seededGaussianVector(4, 43)[0], values[0]);
    EXPECT_TRUE(seededGaussianVector(0, 1).empty());

    // Standard normal moments.
    const std::vector<double> many = seededGaussianVector(200000, 7);
    double sum = 0, squares = 0;
    for (double x : many) {
        sum += x;
        squares += x * x;
    }
    const double mean = sum / many.size();
    EXPECT_NEAR(mean, 0.0, 0.01);
    EXPECT_NEAR(squares / many.size() - mean * mean, 1.0, 0.015);
}

TEST(RopeTest, NamesRoundTrip) {
    for (auto pairing : {RopePairing::Half, RopePairing::Interleaved})
        EXPECT_EQ(*parsePairing(pairingName(pairing)), pairing);
    EXPECT_EQ(pairingName(RopePairing::Half), "half");
    EXPECT_EQ(pairingName(RopePairing::Interleaved), "interleaved");
    const auto bad = parsePairing("neox");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "pairing must be half or interleaved (got 'neox')");
}

TEST(RopeTest, RejectsBadParameters) {
    auto message = [](const RopeParams& p) {
        const auto status = validate(p);
        return status.ok() ? std::string("ok") : status.error().message;
    };
    EXPECT_EQ(message(ropeParams(128)), "ok");
    EXPECT_EQ(message(ropeParams(0)), "head_dim must be 2..8192 (got 0)");
    EXPECT_EQ(message(ropeParams(8194)), "head_dim must be 2..8192 (got 8194)");
    EXPECT_EQ(message(ropeParams(128, 1.0)), "base must be > 1 and <= 1e+12 (got 1)");
    EXPECT_EQ(message(ropeParams(128, NAN)), "base must be > 1 and <= 1e+12 (got nan)");
    EXPECT_EQ(message(ropeParams(128, 10000, 0.0)), "rotary_fraction must be > 0 and <= 1 (got 0)");
    EXPECT_EQ(message(ropeParams(128, 10000, 1.5)),
              "rotary_fraction must be > 0 and <= 1 (got 1.5)");
    EXPECT_NE(message(ropeParams(4, 10000, 0.25))
                  .find("= 1 rotated dims of head_dim 4; they must be even"),
              std::string::npos);
    // A whole head of odd size: the head size is what to change (issue #32: name the input).
    EXPECT_EQ(message(ropeParams(7)), "head_dim must be even, 2..8192 (got 7)");
    RopeParams p = ropeParams(128);
    p.seqLen = 0;
    EXPECT_EQ(message(p), "seq_len must be 1..1073741824 (got 0)");
    p = ropeParams(128);
    p.trainingLength = -5;
    EXPECT_EQ(message(p), "training_length must be 1..1073741824 (got -5)");
    p = ropeParams(2);
    p.scaling.type = RopeScaling::DynamicNtk;
    p.scaling.factor = 2;
    EXPECT_EQ(message(p), "rotated dims must be >= 4 for dynamic-ntk (got 2)");
    p = ropeParams(128);
    p.scaling.type = RopeScaling::Linear;
    p.scaling.factor = 0.5;
    EXPECT_EQ(message(p), "factor must be 1..65536 (got 0.5)");
    EXPECT_FALSE(ropeFrequencies(p).ok());
    EXPECT_TRUE(unscaledFrequencies(p).ok());  // the scaling is not read

    // Vector checks of the Result functions; the plain ones answer NaN / return v unchanged.
    const RopeFrequencies freqs = frequencies(ropeParams(8));
    const std::vector<double> q(8, 1.0), shortK(6, 1.0);
    const auto mismatch = ropeScoreMatrix(q, shortK, 4, freqs, RopePairing::Half);
    ASSERT_FALSE(mismatch.ok());
    EXPECT_EQ(mismatch.error().message, "q and k must have the same length (got 8 and 6)");
    const auto tooShort = ropeOffsetScores(shortK, shortK, 4, freqs, RopePairing::Half);
    ASSERT_FALSE(tooShort.ok());
    EXPECT_EQ(tooShort.error().message, "q and k must have at least the 8 rotated dims (got 6)");
    EXPECT_FALSE(ropeScoreMatrix(q, q, 0, freqs, RopePairing::Half).ok());
    EXPECT_FALSE(ropeScoreMatrix(q, q, kMaxSeqLen + 1, freqs, RopePairing::Half).ok());
    EXPECT_TRUE(std::isnan(ropeScore(q, shortK, 1, 0, freqs, RopePairing::Half)));
    EXPECT_EQ(ropeRotate(shortK, 3.0, freqs, RopePairing::Half), shortK);
}

TEST(RopeTest, PartialRotaryNeoxAndProportionalDiffer) {
    // p = 0.25 of head 128, base 10000. NeoX: int(32) dims, theta_i = 10000^(-2i/32) for 16
    // pairs, reaching the slow end 10000^(-30/32). p-RoPE: 16 pairs at 10000^(-2i/128), the
    // fastest quarter of the full-RoPE spectrum, and 48 zero pairs.
    auto both = comparePartialRotary(128, 10000, 0.25);
    ASSERT_TRUE(both.ok()) << both.error().message;
    EXPECT_EQ(both->neoxRotatedDims, 32);
    EXPECT_EQ(both->proportionalRotatedPairs, 16);
    ASSERT_EQ(both->neoxPartial.size(), 16u);
    ASSERT_EQ(both->proportional.size(), 64u);
    for (int i = 0; i < 16; ++i) {
        EXPECT_NEAR(both->neoxPartial[i], std::pow(10000.0, -i / 16.0), 1e-15) << i;
        EXPECT_NEAR(both->proportional[i], std::pow(10000.0, -i / 64.0), 1e-15) << i;
    }
    for (int i = 16; i < 64; ++i) EXPECT_EQ(both->proportional[i], 0.0) << i;
    // Slowest rotating pair: NeoX 10000^(-15/16) = 1.78e-4, p-RoPE 10000^(-15/64) = 0.1155.
    EXPECT_NEAR(both->neoxPartial[15], 1.7782794100389228e-4, 1e-18);
    EXPECT_NEAR(both->proportional[15], 0.11547819846894583, 1e-15);

    // A zero-frequency pair is a NoPE channel: rotation leaves it unchanged at any position.
    RopeFrequencies freqs;
    freqs.inverse = both->proportional;
    freqs.rotatedDims = 128;
    const std::vector<double> v = seededGaussianVector(128, 7);
    const std::vector<double> rotated = ropeRotate(v, 12345, freqs, RopePairing::Half);
    for (int i = 16; i < 64; ++i) {
        EXPECT_DOUBLE_EQ(rotated[i], v[i]) << i;
        EXPECT_DOUBLE_EQ(rotated[i + 64], v[i + 64]) << i;
    }
    EXPECT_FALSE(comparePartialRotary(90, 10000, 0.1).ok());  // int(9.0) = 9 dims: odd
}

struct QueryKeyCase {
    double component;
    const char* expected;  // the start of the error
};
class RopeQueryKeyTest : public ::testing::TestWithParam<QueryKeyCase> {};

TEST_P(RopeQueryKeyTest, ScoresThatWouldOverflowAreRefused) {
    // Failed before: q and k of 1e154 gave products of 1e308 whose sums overflowed, and
    // inf - inf made NaN scores that the heatmap drew silently.
    RopeParams params;
    params.headDim = 4;
    const RopeFrequencies freqs = ropeFrequencies(params).value();
    std::vector<double> q(4, GetParam().component), k(4, GetParam().component);
    const Status status = validateQueryKey(q, k);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message.rfind(GetParam().expected, 0), 0u) << status.error().message;
    auto scores = ropeOffsetScores(q, k, 4, freqs, params.pairing);
    ASSERT_FALSE(scores.ok());
    EXPECT_EQ(scores.error().message, status.error().message);
}

INSTANTIATE_TEST_SUITE_P(
    Extremes, RopeQueryKeyTest,
    ::testing::Values(QueryKeyCase{1e150, "q and k are too large: |q| |k| = 4e+300"},
                      QueryKeyCase{1e154, "q and k are too large: |q| |k| = inf"},
                      QueryKeyCase{1e200, "q and k are too large: |q| |k| = inf"},
                      QueryKeyCase{1.7e308, "q and k are too large: |q| |k| = inf"},
                      QueryKeyCase{INFINITY, "q[0] must be a finite number (got inf)"},
                      QueryKeyCase{NAN, "q[0] must be a finite number (got nan)"}));

TEST(RopeTest, LargeButBoundedVectorsScoreExactly) {
    // |q| |k| = 4e298 is within the bound: the score at offset 0 is q . k = 4 x 1e298.
    RopeParams params;
    params.headDim = 4;
    const RopeFrequencies freqs = ropeFrequencies(params).value();
    const std::vector<double> q(4, 1e149), k(4, 1e149);
    ASSERT_TRUE(validateQueryKey(q, k).ok());
    auto scores = ropeOffsetScores(q, k, 3, freqs, params.pairing);
    ASSERT_TRUE(scores.ok());
    EXPECT_NEAR((*scores)[2] / 4e298, 1.0, 1e-15);
    for (double s : *scores) EXPECT_TRUE(std::isfinite(s));
}

// Lesson 10: head_dim 128, base 10000, trained on 4096, shown at 32768. Worked by hand:
// unscaled, pair i never turns in 4096 when 2 pi 10000^(i/64) > 4096, i.e. i > 64 log(4096 / 2 pi)
// / log(10000) = 45.03: pairs 46..63, 18 of them, all reaching new angles at 32768. Linear x8:
// theta/8 * 32768 = theta * 4096 exactly, nothing new. NTK x8: base' = 10000 * 8^(128/126), so
// theta'_i L / (theta_i T) = 8 * 8^(-2i/126) = 8^(1 - i/63) > 1 for i < 63: pairs 46..62, 17.
// YaRN (beta 32/1) and Llama 3 (low 1, high 4) divide every pair slower than one turn in 4096
// by 8 exactly: nothing new. (The count of scaled wavelengths over 4096 instead rises to 33,
// 27, 25 and 24: the picture lesson 10 used to show.)
TEST(RopeTest, UnseenAnglesCountWhatTheScaledModelNeverSawInTraining) {
    RopeParams params;
    params.headDim = 128;
    params.base = 10000;
    params.trainingLength = 4096;
    params.seqLen = 32768;
    const RopeFrequencies plain = unscaledFrequencies(params).value();
    auto unseenPairs = [&](RopeScaling type) {
        RopeParams scaled = params;
        scaled.scaling.type = type;
        scaled.scaling.factor = type == RopeScaling::None ? 1 : 8;
        const RopeFrequencies freqs = ropeFrequencies(scaled).value();
        const std::vector<bool> unseen = ropeUnseenAngles(freqs, plain, 32768, 4096);
        std::vector<int> pairs;
        for (std::size_t i = 0; i < unseen.size(); ++i)
            if (unseen[i]) pairs.push_back(int(i));
        return pairs;
    };
    auto range = [](int first, int last) {
        std::vector<int> pairs;
        for (int i = first; i <= last; ++i) pairs.push_back(i);
        return pairs;
    };
    EXPECT_EQ(unseenPairs(RopeScaling::None), range(46, 63));
    EXPECT_EQ(unseenPairs(RopeScaling::Linear), std::vector<int>{});
    EXPECT_EQ(unseenPairs(RopeScaling::Ntk), range(46, 62));
    EXPECT_EQ(unseenPairs(RopeScaling::Yarn), std::vector<int>{});
    EXPECT_EQ(unseenPairs(RopeScaling::Llama3), std::vector<int>{});
    // Unscaled with a longer context it is the pairs without a turn in training.
    const std::vector<bool> incomplete = ropeIncompleteTurns(plain, 4096);
    EXPECT_EQ(ropeUnseenAngles(plain, plain, 32768, 4096), incomplete);
}

}  // namespace
}  // namespace poslab
