// similarity_offsets.cpp — the part of the Similarity view that depends on i - j alone
// (analysis/similarity.hpp): the offset structure of the sinusoidal table and of RoPE (cosine
// sums of the frequencies, exact every kPhaseBlock offsets) and offset profiles, block-averaged
// in closed form for zoomed-out samples. Names, whole matrices and the rest are similarity.cpp's;
// heatmap samples and curves similarity_samples.cpp's.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

constexpr double kNoScale = std::numeric_limits<double>::quiet_NaN();  // a row with no norm

// Offsets between exact sin/cos evaluations in cosineSums.
constexpr int kPhaseBlock = 64;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Offset structure
// ---------------------------------------------------------------------------------------------

double OffsetSimilarity::at(long long i, long long j) const {
    double value = byOffset[std::size_t(i - j + seqLen - 1)];
    if (!rankOne.empty()) value += rankOne[std::size_t(i)] * rankOne[std::size_t(j)];
    if (!scale.empty()) value *= scale[std::size_t(i)] * scale[std::size_t(j)];
    return value;
}

namespace {

// even[r] = sum_k cosWeights[k] cos(w_k r) and, with kSines, odd[r] = sum_k sinWeights[k]
// sin(w_k r), for r = 0 .. count-1 (both resized to count). The engine of cosineSums and of
// tabulated offset profiles, whose f(+-r) = C(r) -+ S(r); kSines is a template argument so that
// the cosine-only loop (sinusoidal, expected RoPE: the live views) carries no sine work.
template <bool kSines>
void harmonicSums(const std::vector<double>& frequencies, const std::vector<double>& cosWeights,
                  const std::vector<double>* sinWeights, int count, std::vector<double>& even,
                  std::vector<double>* odd) {
    even.assign(std::size_t(std::max(count, 0)), 0.0);
    if constexpr (kSines) odd->assign(even.size(), 0.0);
    std::size_t K = std::min(frequencies.size(), cosWeights.size());
    if constexpr (kSines) K = std::min(K, sinWeights->size());
    if (count <= 0 || K == 0) return;
    // cos((b + j) w) = cos(bw) cos(jw) - sin(bw) sin(jw) and sin((b + j) w) = sin(bw) cos(jw) +
    // cos(bw) sin(jw): a table of cos/sin(jw) for j < 64 and exact cos/sin(bw) at every block
    // start b turn each sum into two dot products per offset.
    const int steps = std::min(kPhaseBlock, count);
    std::vector<double> stepCos(std::size_t(steps) * K), stepSin(stepCos.size());
    for (int j = 0; j < steps; ++j) {
        for (std::size_t k = 0; k < K; ++k) {
            stepCos[std::size_t(j) * K + k] = std::cos(j * frequencies[k]);
            stepSin[std::size_t(j) * K + k] = std::sin(j * frequencies[k]);
        }
    }
    // Frequencies in chunks of 64, outermost: a chunk's slice of the tables (64 KB) stays in cache
    // while every block of offsets uses it, instead of streaming the whole tables per block.
    constexpr std::size_t kChunk = 64;
    const int blocks = (count + kPhaseBlock - 1) / kPhaseBlock;
    auto work = [&](int firstBlock, int lastBlock) {
        double a[kChunk], b[kChunk], e[kChunk], g[kChunk];
        for (std::size_t k0 = 0; k0 < K; k0 += kChunk) {
            const std::size_t n = std::min(kChunk, K - k0);
            for (int block = firstBlock; block < lastBlock; ++block) {
                const int start = block * kPhaseBlock;
                for (std::size_t k = 0; k < n; ++k) {
                    const double angle = double(start) * frequencies[k0 + k];
                    const double c = std::cos(angle), s = std::sin(angle);
                    a[k] = cosWeights[k0 + k] * c;
                    b[k] = cosWeights[k0 + k] * s;
                    if constexpr (kSines) {
                        e[k] = (*sinWeights)[k0 + k] * s;
                        g[k] = (*sinWeights)[k0 + k] * c;
                    }
                }
                const int end = std::min(count, start + kPhaseBlock);
                for (int r = start; r < end; ++r) {
                    const double* c = &stepCos[std::size_t(r - start) * K + k0];
                    const double* s = &stepSin[std::size_t(r - start) * K + k0];
                    // Four independent sums hide the add latency.
                    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                    std::size_t k = 0;
                    for (; k + 4 <= n; k += 4) {
                        s0 += a[k] * c[k] - b[k] * s[k];
                        s1 += a[k + 1] * c[k + 1] - b[k + 1] * s[k + 1];
                        s2 += a[k + 2] * c[k + 2] - b[k + 2] * s[k + 2];
                        s3 += a[k + 3] * c[k + 3] - b[k + 3] * s[k + 3];
                    }
                    for (; k < n; ++k) s0 += a[k] * c[k] - b[k] * s[k];
                    even[std::size_t(r)] += (s0 + s1) + (s2 + s3);
                    if constexpr (kSines) {
                        double t0 = 0, t1 = 0;
                        for (k = 0; k + 2 <= n; k += 2) {
                            t0 += e[k] * c[k] + g[k] * s[k];
                            t1 += e[k + 1] * c[k + 1] + g[k + 1] * s[k + 1];
                        }
                        if (k < n) t0 += e[k] * c[k] + g[k] * s[k];
                        (*odd)[std::size_t(r)] += t0 + t1;
                    }
                }
            }
        }
    };
    // Large profiles (the live view at 65536 positions) split the blocks between the cores.
    const bool large = double(count) * double(K) >= double(1 << 22);
    parallelFor(blocks, large ? 1 : blocks + 1,
                [&](long long first, long long last) { work(int(first), int(last)); });
}

// The part of the similarity that depends on i - j alone, as a profile: all of it for the
// sinusoidal table with even d_model (or t2t) and for RoPE. An odd d_model (interleaved, concat)
// gives its frequency pairs' dot product, unnormalised, and the lone sine column's frequency in
// *loneSine: offsetSimilarity adds that column's rank-one term and the per-row norms. params
// must be valid and not learned.
Result<OffsetProfile> toeplitzProfile(const SimilarityParams& params,
                                      std::optional<double>* loneSine) {
    const int L = params.seqLen;
    const bool cosine = params.metric == SimilarityMetric::Cosine;
    OffsetProfile profile;
    profile.seqLen = L;
    if (params.encoding == SimilarityEncoding::Sinusoidal) {
        // Each pair with both sine and cosine adds cos(w t): all of t2t's (its odd column is
        // zero), floor(d/2) for the other layouts, whose odd d leaves frequency index (d-1)/2 as a
        // lone sine.
        SinusoidalParams p = params.sinusoidal;
        p.seqLen = L;
        profile.frequencies = sinusoidalFrequencies(p);
        const bool lone = p.layout != SinusoidalLayout::Tensor2Tensor && p.dModel % 2 == 1;
        if (lone) {
            if (loneSine) *loneSine = profile.frequencies.back();
            profile.frequencies.pop_back();
        }
        const double pairs = double(profile.frequencies.size());
        profile.cosWeights.assign(profile.frequencies.size(), cosine && !lone ? 1.0 / pairs : 1.0);
        profile.sinWeights.assign(profile.frequencies.size(), 0.0);
        return profile;
    }
    RopeParams p = params.rope;
    p.seqLen = L;
    auto freqs = ropeFrequencies(p);
    if (!freqs) return freqs.error();
    const int passDims = p.headDim - freqs->rotatedDims;
    const double gain = freqs->attentionFactor * freqs->attentionFactor;
    if (params.ropeVectors == RopeVectors::Expected) {
        // E[q_a q_b] = [a == b] for q ~ N(0, I): each pair adds 2 A^2 cos(t_i r), each
        // pass-through dim 1. Cosine: normalised by the value at offset 0, which is the exact
        // E[cos] when A = 1 or every dim rotates (q / |q| is uniform on the sphere).
        const double atZero = gain * freqs->rotatedDims + passDims;
        const double factor = cosine ? 1.0 / atZero : 1.0;
        profile.frequencies = freqs->inverse;
        profile.cosWeights.assign(freqs->inverse.size(), 2 * gain * factor);
        profile.sinWeights.assign(freqs->inverse.size(), 0.0);
        profile.constant = passDims * factor;
        return profile;
    }
    const std::vector<double> q = seededGaussianVector(p.headDim, params.ropeSeed);
    const std::vector<double> k =
        params.ropeVectors == RopeVectors::SameSample
            ? q
            : seededGaussianVector(p.headDim, params.ropeSeed ^ 0x9E3779B97F4A7C15ull);
    profile = ropeScoreProfile(q, k, L, *freqs, p.pairing);
    if (cosine) {
        auto norm = [&](const std::vector<double>& v) {
            const std::vector<double> rotated = ropeRotate(v, 0, *freqs, p.pairing);
            double sum = 0;
            for (double x : rotated) sum += x * x;
            return std::sqrt(sum);
        };
        const double factor = 1.0 / (norm(q) * norm(k));  // rotations keep norms: one for all rows
        for (double& w : profile.cosWeights) w *= factor;
        for (double& w : profile.sinWeights) w *= factor;
        profile.constant *= factor;
    }
    return profile;
}

}  // namespace

std::vector<double> cosineSums(const std::vector<double>& frequencies,
                               const std::vector<double>& weights, int count) {
    std::vector<double> sums;
    harmonicSums<false>(frequencies, weights, nullptr, count, sums, nullptr);
    return sums;
}

Result<OffsetSimilarity> offsetSimilarity(const SimilarityParams& params) {
    if (auto s = validate(params); !s) return s.error();
    if (params.encoding == SimilarityEncoding::Learned) {
        return Error{"learned tables have no offset structure (use gramSimilarity)"};
    }
    std::optional<double> loneSine;
    auto profile = toeplitzProfile(params, &loneSine);
    if (!profile) return profile.error();
    // The profile at every offset from sums over r = 0 .. L-1: f(+-r) = constant + C(r) -+ S(r).
    const int L = params.seqLen;
    const bool withSines = std::any_of(profile->sinWeights.begin(), profile->sinWeights.end(),
                                       [](double w) { return w != 0; });
    std::vector<double> even, odd;
    if (withSines) {
        harmonicSums<true>(profile->frequencies, profile->cosWeights, &profile->sinWeights, L, even,
                           &odd);
    } else {
        harmonicSums<false>(profile->frequencies, profile->cosWeights, nullptr, L, even, nullptr);
    }
    OffsetSimilarity result;
    result.seqLen = L;
    result.byOffset.resize(std::size_t(2 * L - 1));
    for (int r = 0; r < L; ++r) {
        const double sine = withSines ? odd[std::size_t(r)] : 0.0;
        result.byOffset[std::size_t(L - 1 + r)] = profile->constant + even[std::size_t(r)] - sine;
        result.byOffset[std::size_t(L - 1 - r)] = profile->constant + even[std::size_t(r)] + sine;
    }
    if (!loneSine) return result;
    // An odd d_model's lone sine column: sin(wi) sin(wj) as a rank-one term, and for cosine the
    // per-row norms |PE(i)|^2 = pairs + sin^2(wi).
    const double pairs = double(profile->frequencies.size());
    result.rankOne.resize(std::size_t(L));
    for (int i = 0; i < L; ++i) result.rankOne[std::size_t(i)] = std::sin(i * *loneSine);
    if (params.metric == SimilarityMetric::Cosine) {
        result.scale.resize(std::size_t(L));
        for (int i = 0; i < L; ++i) {
            const double u = result.rankOne[std::size_t(i)];
            const double norm2 = pairs + u * u;  // 0 only for d = 1 at i = 0
            result.scale[std::size_t(i)] = norm2 > 0 ? 1.0 / std::sqrt(norm2) : kNoScale;
        }
    }
    return result;
}

// ---------------------------------------------------------------------------------------------
// Offset profiles
// ---------------------------------------------------------------------------------------------

namespace {

// Corner offsets i0 - j0 of the texels of an a x b block grid over window w: the lattice from
// `low` in steps of gcd(a, b), `count` points.
struct OffsetLattice {
    long long low = 0, step = 1, count = 1;
};
OffsetLattice offsetLattice(const CellWindow& w, long long a, long long b) {
    const long long rows = (w.rowCount + a - 1) / a, cols = (w.colCount + b - 1) / b;
    OffsetLattice lattice;
    lattice.step = std::gcd(a, b);
    lattice.low = w.firstRow - (w.firstCol + (cols - 1) * b);
    const long long high = w.firstRow + (rows - 1) * a - w.firstCol;
    lattice.count = (high - lattice.low) / lattice.step + 1;
    return lattice;
}

long long roundUpTo(long long value, long long multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

// D_a(w) conj(D_b(w)) / (a b), with D_a(w) = sum_{u<a} e^(i u w)
//   = e^(i (a-1) w / 2) sin(a w / 2) / sin(w / 2).
void blockKernel(double w, long long a, long long b, double& re, double& im) {
    const double half = std::sin(0.5 * w);
    auto gain = [&](long long n) {  // D_n's magnitude (signed) over n
        if (n == 1 || std::abs(half) < 1e-300) return 1.0;
        return std::sin(0.5 * w * double(n)) / (half * double(n));
    };
    const double magnitude = gain(a) * gain(b);
    const double phase = 0.5 * w * double(a - b);
    re = magnitude * std::cos(phase);
    im = magnitude * std::sin(phase);
}

// The profile with each weight multiplied by the a x b block kernel: its value at i0 - j0 is the
// mean of f over the block with that corner (less the constant, which every cell shares).
OffsetProfile blockProfile(const OffsetProfile& profile, long long a, long long b) {
    OffsetProfile out = profile;
    for (std::size_t k = 0; k < profile.frequencies.size(); ++k) {
        double kr = 0, ki = 0;
        blockKernel(profile.frequencies[k], a, b, kr, ki);
        const double zr = profile.cosWeights[k], zi = profile.sinWeights[k];
        out.cosWeights[k] = zr * kr - zi * ki;
        out.sinWeights[k] = zr * ki + zi * kr;
    }
    return out;
}

}  // namespace

std::vector<double> profileValues(const OffsetProfile& profile, double first, double step,
                                  long long count) {
    std::vector<double> values(std::size_t(std::max(count, 0LL)));
    const std::size_t K = profile.frequencies.size();
    const double* a = profile.cosWeights.data();
    const double* b = profile.sinWeights.data();
    forEachGridPhase(profile.frequencies, first, step, count,
                     [&](long long j, const double* cosines, const double* sines) {
                         double s0 = 0, s1 = 0;
                         std::size_t k = 0;
                         for (; k + 2 <= K; k += 2) {
                             s0 += a[k] * cosines[k] - b[k] * sines[k];
                             s1 += a[k + 1] * cosines[k + 1] - b[k + 1] * sines[k + 1];
                         }
                         if (k < K) s0 += a[k] * cosines[k] - b[k] * sines[k];
                         values[std::size_t(j)] = profile.constant + (s0 + s1);
                     });
    return values;
}

OffsetProfile ropeScoreProfile(const std::vector<double>& q, const std::vector<double>& k,
                               int seqLen, const RopeFrequencies& freqs, RopePairing pairing) {
    // R(m)q . R(n)k = pass-through + sum_i A^2 [(q1k1 + q2k2) cos(t_i r) - (q2k1 - q1k2) sin(t_i
    // r)] with r = m - n (rope.hpp), pair i being dims (i, i + d/2) or (2i, 2i + 1).
    const std::size_t pairs = freqs.inverse.size();
    const double gain = freqs.attentionFactor * freqs.attentionFactor;
    OffsetProfile profile;
    profile.seqLen = seqLen;
    profile.frequencies = freqs.inverse;
    profile.cosWeights.assign(pairs, 0.0);
    profile.sinWeights.assign(pairs, 0.0);
    if (q.size() < 2 * pairs || k.size() != q.size()) return profile;
    for (std::size_t i = 0; i < pairs; ++i) {
        const std::size_t first = pairing == RopePairing::Half ? i : 2 * i;
        const std::size_t second = pairing == RopePairing::Half ? i + pairs : 2 * i + 1;
        const double q1 = q[first], q2 = q[second], k1 = k[first], k2 = k[second];
        profile.cosWeights[i] = gain * (q1 * k1 + q2 * k2);
        profile.sinWeights[i] = gain * (q2 * k1 - q1 * k2);
    }
    for (std::size_t j = 2 * pairs; j < q.size(); ++j) profile.constant += q[j] * k[j];
    return profile;
}

Result<OffsetProfile> offsetProfile(const SimilarityParams& params) {
    if (auto s = validate(params); !s) return s.error();
    if (!dependsOnOffsetOnly(params)) {
        return Error{"this similarity is not a function of i - j alone (use offsetSimilarity)"};
    }
    return toeplitzProfile(params, nullptr);
}

HeatmapSample profileSample(const OffsetProfile& profile, CellWindow window, int maxRows,
                            int maxCols, long long budget) {
    const long long L = std::max(profile.seqLen, 1);
    const CellWindow w = clampWindow(window, L, L);  // empty counts: everything
    const long long K = std::max<long long>(1, (long long)profile.frequencies.size());
    // The pixels' blocks, unless their lattice is too fine for the budget: then multiples of a
    // power of two s (each grows by less than s, at first an eighth of the smaller), doubling s
    // until the lattice, of step >= s, fits.
    const long long a0 = cellsPerTexel(w.rowCount, maxRows);
    const long long b0 = cellsPerTexel(w.colCount, maxCols);
    long long a = a0, b = b0;
    if (offsetLattice(w, a, b).count * K > budget) {
        long long s = 1;
        while (s * 16 <= std::min(a0, b0)) s *= 2;
        do {
            a = roundUpTo(a0, s);
            b = roundUpTo(b0, s);
            s *= 2;
        } while (offsetLattice(w, a, b).count * K > budget && s <= 2 * L);
    }
    HeatmapSample sample = emptyHeatmapSample(w, a, b);
    const long long texelRows = (w.rowCount + a - 1) / a;
    const long long texelCols = (w.colCount + b - 1) / b;
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    // Full blocks: one value per lattice point.
    const OffsetLattice lattice = offsetLattice(w, a, b);
    const std::vector<double> full = profileValues(blockProfile(profile, a, b), double(lattice.low),
                                                   double(lattice.step), lattice.count);
    for (long long u = 0; u < texelRows; ++u) {
        double* out = values->row(std::size_t(u));
        for (long long v = 0; v < texelCols; ++v) {
            const long long t = w.firstRow + u * a - (w.firstCol + v * b);
            out[v] = full[std::size_t((t - lattice.low) / lattice.step)];
        }
    }
    // Blocks cut at the matrix edge: the last texel row (offsets step -b along it), the last
    // column (step a) and their corner, each with its own kernel.
    const long long lastU = texelRows - 1, lastV = texelCols - 1;
    const long long lastRows = std::min(a, L - (w.firstRow + lastU * a));
    const long long lastCols = std::min(b, L - (w.firstCol + lastV * b));
    if (lastRows < a) {
        const std::vector<double> row =
            profileValues(blockProfile(profile, lastRows, b),
                          double(w.firstRow + lastU * a - w.firstCol), double(-b), texelCols);
        for (long long v = 0; v < texelCols; ++v)
            (*values)(std::size_t(lastU), std::size_t(v)) = row[std::size_t(v)];
    }
    if (lastCols < b) {
        const std::vector<double> column =
            profileValues(blockProfile(profile, a, lastCols),
                          double(w.firstRow - (w.firstCol + lastV * b)), double(a), texelRows);
        for (long long u = 0; u < texelRows; ++u)
            (*values)(std::size_t(u), std::size_t(lastV)) = column[std::size_t(u)];
    }
    if (lastRows < a && lastCols < b) {
        (*values)(std::size_t(lastU), std::size_t(lastV)) =
            profileValues(blockProfile(profile, lastRows, lastCols),
                          double(w.firstRow + lastU * a - (w.firstCol + lastV * b)), 1, 1)[0];
    }
    sample.values = std::move(values);
    return sample;
}

}  // namespace poslab
