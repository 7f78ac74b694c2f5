#include "poslab/views/relative_oscillators.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

// xPos's q.k for q = k = ones, written out from torchscale's XPOS: pair i has
// zeta_i = (2i + gamma d) / ((1 + gamma) d) and theta_i = base^(-i / (d/2)).
double xposOnes(const XposParams& p, double r, bool withScale) {
    double total = 0;
    const int pairs = p.headDim / 2;
    for (int i = 0; i < pairs; ++i) {
        const double zeta = (2.0 * i + p.gamma * p.headDim) / ((1.0 + p.gamma) * p.headDim);
        const double theta = std::pow(p.base, -double(i) / pairs);
        total += 2.0 * (withScale ? std::pow(zeta, r / p.scaleBase) : 1.0) * std::cos(r * theta);
    }
    return total;
}

// Sandwich as NeMo computes it: (sum_{i=1..d/2} cos(r 10000^(-2i/d)) - d/2) / (8 (h+1) / H).
double sandwichWrittenOut(const SandwichParams& p, double r) {
    double total = 0;
    for (int i = 1; i <= p.headDim / 2; ++i)
        total += std::cos(r * std::pow(10000.0, -2.0 * i / p.headDim));
    return (total - p.headDim / 2) / (8.0 * (p.head + 1) / p.heads);
}

// The mean of f(i - j) over the unmasked cells (j <= i) of every texel, cell by cell.
template <class F>
void expectOscillatorBlockMeans(const HeatmapSample& s, int length, F f, double tolerance) {
    ASSERT_TRUE(s.values);
    ASSERT_EQ(s.rowsPerTexel, s.colsPerTexel);
    const long long b = s.rowsPerTexel;
    for (std::size_t tr = 0; tr < s.values->rows; ++tr) {
        for (std::size_t tc = 0; tc < s.values->cols; ++tc) {
            double sum = 0;
            long long count = 0;
            for (long long i = tr * b; i < std::min<long long>(length, (tr + 1) * b); ++i) {
                for (long long j = tc * b; j < std::min<long long>(length, (tc + 1) * b); ++j) {
                    if (j > i) continue;
                    sum += f(double(i - j));
                    ++count;
                }
            }
            const double got = (*s.values)(tr, tc);
            if (count == 0) {
                EXPECT_TRUE(std::isinf(got) && got < 0) << tr << "," << tc;
            } else {
                EXPECT_NEAR(got, sum / double(count), tolerance) << tr << "," << tc;
            }
        }
    }
}

TEST(RelativeOscillatorsTest, XposBlockMeansEqualTheCellByCellMeans) {
    XposParams p;
    p.headDim = 16;
    p.scaleBase = 8;  // a strong decay, so the scale matters within a block
    // 37 cells, at most 5 texel rows: blocks of 8, the last row of 5 cells.
    const HeatmapSample s = causalOscillatorSample(xposOnesOscillators(p), 37, 5, 7);
    EXPECT_EQ(s.rowsPerTexel, 8);
    EXPECT_EQ(s.values->rows, 5u);
    expectOscillatorBlockMeans(
        s, 37, [&](double r) { return xposOnes(p, r, true); }, 1e-11);
}

TEST(RelativeOscillatorsTest, RopeAndSandwichBlockMeansEqualTheCellByCellMeans) {
    XposParams p;
    p.headDim = 32;
    p.base = 1e6;  // slow pairs: exp(w) - 1 near 0, where a naive closed form cancels
    expectOscillatorBlockMeans(
        causalOscillatorSample(ropeOnesOscillators(p), 100, 9, 9), 100,
        [&](double r) { return xposOnes(p, r, false); }, 1e-11);
    SandwichParams q;
    q.headDim = 24;
    q.heads = 4;
    q.head = 2;
    expectOscillatorBlockMeans(
        causalOscillatorSample(sandwichOscillators(q), 50, 50, 50), 50,
        [&](double r) { return sandwichWrittenOut(q, r); }, 1e-12);
    expectOscillatorBlockMeans(
        causalOscillatorSample(sandwichOscillators(q), 50, 3, 4), 50,
        [&](double r) { return sandwichWrittenOut(q, r); }, 1e-12);
}

TEST(RelativeOscillatorsTest, HugeLengthsCostTexelsNotCells) {
    // 2^20 cells, head_dim 1,024, 64 texels: one texel's mean checked against a strided sum
    // would be slow, so check the identities instead: the diagonal's exact value at B = 1 is d,
    // and every texel is finite and at most d (|q.k| <= sum 2 = d).
    XposParams p;
    p.headDim = 1024;
    const HeatmapSample s = causalOscillatorSample(ropeOnesOscillators(p), 1 << 20, 64, 64);
    ASSERT_EQ(s.values->rows, 64u);
    for (std::size_t r = 0; r < 64; ++r)
        for (std::size_t c = 0; c <= r; ++c) {
            EXPECT_TRUE(std::isfinite((*s.values)(r, c)));
            EXPECT_LE(std::abs((*s.values)(r, c)), 1024.0 + 1e-6);
        }
    const HeatmapSample exact = causalOscillatorSample(ropeOnesOscillators(p), 3, 3, 3);
    EXPECT_DOUBLE_EQ((*exact.values)(2, 2), 1024.0);
}

TEST(RelativeOscillatorsTest, ValuesAtDistancesEqualTheWrittenOutSums) {
    XposParams p;
    p.headDim = 64;
    std::vector<double> distances;
    for (int r = 0; r <= 3000; r += 7) distances.push_back(r);  // 429 even steps
    distances.push_back(3001);                                  // and an odd last one
    for (double r : {3100.0, 4000.0, 9000.0}) distances.push_back(r);
    const auto xpos = oscillatorValues(xposOnesOscillators(p), distances);
    const auto rope = oscillatorValues(ropeOnesOscillators(p), distances);
    const auto decay = oscillatorValues(xposDecayOscillators(p), distances);
    for (std::size_t n = 0; n < distances.size(); ++n) {
        const double r = distances[n];
        EXPECT_NEAR(xpos[n], xposOnes(p, r, true), 1e-11) << r;
        EXPECT_NEAR(rope[n], xposOnes(p, r, false), 1e-10) << r;
        double mean = 0;
        for (int i = 0; i < 32; ++i) mean += std::pow((2.0 * i + 0.4 * 64) / (1.4 * 64), r / 512);
        EXPECT_NEAR(decay[n], mean / 32, 1e-13) << r;
        EXPECT_NEAR(oscillatorValue(xposOnesOscillators(p), r), xposOnes(p, r, true), 1e-11);
    }
    SandwichParams q;
    EXPECT_EQ(oscillatorValues(sandwichOscillators(q), {0.0})[0], 0.0);  // exactly
    EXPECT_NEAR(oscillatorValue(sandwichOscillators(q), 77), sandwichWrittenOut(q, 77), 1e-12);
}

}  // namespace
}  // namespace poslab
