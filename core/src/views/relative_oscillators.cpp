#include "poslab/views/relative_oscillators.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace poslab {

namespace {

using Complex = std::complex<double>;

// std::complex's operator* checks for infinities and NaN on every call (a library call unless
// -fcx-limited-range); these operands are finite.
Complex times(Complex a, Complex b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

Complex expOf(Complex w) {
    const double magnitude = std::exp(w.real());
    return {magnitude * std::cos(w.imag()), magnitude * std::sin(w.imag())};
}

// exp(w) - 1 without cancellation for small w: expm1(x) cos y - 2 sin^2(y/2) + i e^x sin y.
Complex expMinusOne(Complex w) {
    const double half = std::sin(0.5 * w.imag());
    return {std::expm1(w.real()) * std::cos(w.imag()) - 2.0 * half * half,
            std::exp(w.real()) * std::sin(w.imag())};
}

// sum_{t < n} exp(t w) = (exp(n w) - 1) / (exp(w) - 1); n when w = 0.
Complex geometric(long long n, Complex w) {
    if (n <= 0) return 0.0;
    const Complex denominator = expMinusOne(w);
    if (denominator == Complex(0.0)) return double(n);
    return expMinusOne(double(n) * w) / denominator;
}

// (T(a), T(a + 1)) with T(n) = sum_{u < n} (n - u) exp(u w): the sum over the n x n lower
// triangle (diagonal included) of exp((i - j) w). Halving: T(n) = T(h) + T(n - h) +
// exp(w) G(n - h) G(h), h = n / 2 (the two triangles and the square between them), so both
// sizes at each level come from the two of the level below. No cancellation near w = 0,
// unlike the closed form (n - e^w G(n)) / (1 - e^w).
std::pair<Complex, Complex> triangles(long long a, Complex w) {
    if (a <= 0) return {0.0, 1.0};
    const long long b = a / 2;
    // Named, not a structured binding: clang 14 (the page's compiler) cannot capture those.
    const std::pair<Complex, Complex> below = triangles(b, w);
    const Complex tb = below.first, tb1 = below.second;
    const Complex step = expOf(w);
    auto triangle = [&](long long n) {
        const long long h = n / 2;
        auto known = [&](long long s) { return s == b ? tb : tb1; };  // s is b or b + 1
        return known(h) + known(n - h) + times(step, times(geometric(n - h, w), geometric(h, w)));
    };
    return {triangle(a), triangle(a + 1)};
}

}  // namespace

Oscillators xposOnesOscillators(const XposParams& params) {
    Oscillators osc;
    const std::vector<double> zeta = xposZeta(params), theta = xposThetas(params);
    for (std::size_t i = 0; i < zeta.size(); ++i) {
        osc.rate.emplace_back(std::log(zeta[i]) / params.scaleBase, theta[i]);
        osc.weight.push_back(2.0);
    }
    return osc;
}

Oscillators ropeOnesOscillators(const XposParams& params) {
    Oscillators osc;
    for (double t : xposThetas(params)) {
        osc.rate.emplace_back(0.0, t);
        osc.weight.push_back(2.0);
    }
    return osc;
}

Oscillators xposDecayOscillators(const XposParams& params) {
    Oscillators osc;
    for (double z : xposZeta(params)) {
        osc.rate.emplace_back(std::log(z) / params.scaleBase, 0.0);
        osc.weight.push_back(1.0);
    }
    osc.divisor = std::max<double>(1.0, double(osc.rate.size()));
    return osc;
}

Oscillators sandwichOscillators(const SandwichParams& params) {
    Oscillators osc;
    for (double w : sandwichFrequencies(params.headDim)) {
        osc.rate.emplace_back(0.0, w);
        osc.weight.push_back(1.0);
    }
    osc.offset = -double(params.headDim / 2);
    osc.divisor = sandwichCompression(params);
    return osc;
}

double oscillatorValue(const Oscillators& osc, double distance) {
    double total = 0;
    for (std::size_t k = 0; k < osc.rate.size(); ++k) {
        total += osc.weight[k] * std::exp(distance * osc.rate[k].real()) *
                 std::cos(distance * osc.rate[k].imag());
    }
    return (osc.offset + total) / osc.divisor;
}

std::vector<double> oscillatorValues(const Oscillators& osc, const std::vector<double>& distances) {
    std::vector<double> out(distances.size());
    const std::size_t pairs = osc.rate.size();
    // Real and imaginary parts in separate arrays, four partial sums: the stepping loop below
    // vectorises (a few multiplies per pair and distance).
    std::vector<double> re(pairs), im(pairs), stepRe(pairs), stepIm(pairs);
    double stepGap = std::numeric_limits<double>::quiet_NaN();  // the gap `step` advances by
    double previousGap = stepGap;
    int stepsSinceExact = 0;
    for (std::size_t n = 0; n < distances.size(); ++n) {
        const double r = distances[n];
        const double gap = n > 0 ? r - distances[n - 1] : previousGap;
        // A gap seen twice in a row is worth its exp per pair; a new one is evaluated directly.
        const bool stepped = n > 0 && gap == previousGap && stepsSinceExact < 64;
        if (stepped && gap != stepGap) {
            for (std::size_t k = 0; k < pairs; ++k) {
                const Complex z = expOf(gap * osc.rate[k]);
                stepRe[k] = z.real();
                stepIm[k] = z.imag();
            }
            stepGap = gap;
        }
        if (stepped) {
            for (std::size_t k = 0; k < pairs; ++k) {
                const double a = re[k] * stepRe[k] - im[k] * stepIm[k];
                im[k] = re[k] * stepIm[k] + im[k] * stepRe[k];
                re[k] = a;
            }
        } else {
            for (std::size_t k = 0; k < pairs; ++k) {
                const Complex z = expOf(r * osc.rate[k]);
                re[k] = z.real();
                im[k] = z.imag();
            }
        }
        double partial[4] = {0, 0, 0, 0};
        std::size_t k = 0;
        for (; k + 4 <= pairs; k += 4) {
            for (std::size_t lane = 0; lane < 4; ++lane)
                partial[lane] += osc.weight[k + lane] * re[k + lane];
        }
        for (; k < pairs; ++k) partial[0] += osc.weight[k] * re[k];
        const double total = (partial[0] + partial[1]) + (partial[2] + partial[3]);
        stepsSinceExact = stepped ? stepsSinceExact + 1 : 0;
        previousGap = gap;
        out[n] = (osc.offset + total) / osc.divisor;
    }
    return out;
}

HeatmapSample causalOscillatorSample(const Oscillators& osc, int length, int maxRows, int maxCols) {
    const long long cells = std::max(1, length);
    const long long side = std::max(cellsPerTexel(cells, maxRows), cellsPerTexel(cells, maxCols));
    HeatmapSample sample = emptyHeatmapSample({0, cells, 0, cells}, side, side);
    const long long texels = (cells + side - 1) / side;
    const long long lastRows = cells - (texels - 1) * side;  // the last texel row's cells: 1..side
    // Texel (tr, tc) with tc < tr covers rows [tr B, tr B + R) x columns [tc B, tc B + B), so
    // i - j = D + s + t with D = (tr - tc - 1) B + 1, s < R, t < B: its sum is
    // exp(D w) G(R) G(B). It depends on m = tr - tc and on whether tr is the (shorter) last row.
    std::vector<double> inner(std::size_t(texels), 0.0), last(std::size_t(texels), 0.0);
    double diagonal = 0, lastDiagonal = 0;
    for (std::size_t k = 0; k < osc.rate.size(); ++k) {
        const Complex w = osc.rate[k];
        const double weight = osc.weight[k];
        const Complex full = geometric(side, w), shortRows = geometric(lastRows, w);
        const Complex innerFactor = times(full, full), lastFactor = times(shortRows, full);
        diagonal += weight * triangles(side, w).first.real();
        lastDiagonal += weight * triangles(lastRows, w).first.real();
        const Complex step = expOf(double(side) * w);
        Complex current;
        for (long long m = 1; m < texels; ++m) {
            current =
                (m - 1) % 64 == 0 ? expOf(double((m - 1) * side + 1) * w) : times(current, step);
            inner[std::size_t(m)] += weight * times(current, innerFactor).real();
            last[std::size_t(m)] += weight * times(current, lastFactor).real();
        }
    }
    auto mean = [&](double sum, double count) { return (osc.offset + sum / count) / osc.divisor; };
    const double fullTriangle = double(side) * double(side + 1) / 2;
    const double lastTriangle = double(lastRows) * double(lastRows + 1) / 2;
    auto values = std::make_shared<Matrix>(std::size_t(texels), std::size_t(texels),
                                           -std::numeric_limits<double>::infinity());
    for (long long tr = 0; tr < texels; ++tr) {
        const bool lastRow = tr == texels - 1;
        double* row = values->row(std::size_t(tr));
        for (long long tc = 0; tc < tr; ++tc) {
            const std::size_t m = std::size_t(tr - tc);
            row[tc] = lastRow ? mean(last[m], double(lastRows) * double(side))
                              : mean(inner[m], double(side) * double(side));
        }
        row[tr] = lastRow ? mean(lastDiagonal, lastTriangle) : mean(diagonal, fullTriangle);
    }
    sample.values = std::move(values);
    return sample;
}

}  // namespace poslab
