// rope_heatmap_figures.cpp — RoPE's angle and score heatmaps (views/rope_heatmap_figures.hpp):
// samples of the visible window at most one texel per pixel, and the figures drawn from them.
#include "poslab/views/rope_heatmap_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/angle.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

namespace {

std::string cellsNote(long long rows, long long cols) {
    return std::to_string(rows) + " × " + std::to_string(cols) + " cells per pixel";
}

// ---- Heatmap samples: what the angle and score heatmaps share

// A sample's geometry without its values: the window kept inside rows x cols, at most
// maxRows x maxCols texels, the cells those texels cover, and a fresh version.
struct SampleShape {
    HeatmapSample sample;
    long long texelRows = 0, texelCols = 0;
};
SampleShape sampleShape(CellWindow window, long long rows, long long cols, int maxRows,
                        int maxCols) {
    SampleShape shape;
    HeatmapSample& sample = shape.sample;
    sample.window = clampWindow(window, rows, cols);
    const CellWindow& w = sample.window;
    sample.rowsPerTexel = cellsPerTexel(w.rowCount, maxRows);
    sample.colsPerTexel = cellsPerTexel(w.colCount, maxCols);
    shape.texelRows = (w.rowCount + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    shape.texelCols = (w.colCount + sample.colsPerTexel - 1) / sample.colsPerTexel;
    sample.rowSpan = double(shape.texelRows * sample.rowsPerTexel);
    sample.colSpan = double(shape.texelCols * sample.colsPerTexel);
    sample.version = nextMatrixVersion();
    return shape;
}

// The plot box `draw` (drawRopeAngles, drawRopeScores) gives a heatmap of `window` in `area`.
// The margins depend only on the axes and labels, so it lays the heatmap out once, without
// values, into a scratch figure.
template <class Options>
Box heatmapPlotBox(Box area, CellWindow window,
                   void (*draw)(Figure&, Box, const RopeParams&, const Options&, const Theme&,
                                const HeatmapSample*, PlotFrame*),
                   const RopeParams& params, const Options& options, const Theme& theme) {
    HeatmapSample layout;
    layout.window = window;
    Figure scratch;
    PlotFrame frame;
    frame.plot = area;
    draw(scratch, area, params, options, theme, &layout, &frame);
    return frame.plot;
}

// At most one texel per pixel of the plot box, in each direction; in a vector file
// (Theme::cellResolution) one per cell, up to kMaxTexelsPerSide.
int texelLimit(float pixels, const Theme& theme) {
    return texelBudget(pixels, theme.cellResolution);
}

// A heatmap of `sample`: the axes span its window, the texels cover its spans.
HeatmapSpec sampleSpec(const HeatmapSample& sample, std::string title, std::string xLabel,
                       std::string yLabel, ColormapId colormap, ValueRange range) {
    const CellWindow& w = sample.window;
    HeatmapSpec spec;
    spec.title = std::move(title);
    spec.x = {std::move(xLabel), double(w.firstCol), double(w.firstCol + w.colCount), false, true};
    spec.y = {std::move(yLabel), double(w.firstRow), double(w.firstRow + w.rowCount), false, true};
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
    spec.colormap = colormap;
    spec.range = range;
    return spec;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Angle heatmap
// ---------------------------------------------------------------------------------------------

HeatmapSample ropeAngleSample(const RopeFrequencies& freqs, long long positions, CellWindow window,
                              int maxRows, int maxCols) {
    const long long pairs = static_cast<long long>(freqs.inverse.size());
    auto [sample, texelRows, texelCols] = sampleShape(window, positions, pairs, maxRows, maxCols);
    const CellWindow& w = sample.window;
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    // Each texel is the circular mean of the angles under it: the direction of the mean of the
    // unit vectors e^(i m theta). Over s consecutive positions centred on c that sum is
    // e^(i c theta) sin(s theta / 2) / sin(theta / 2), so a texel costs one term per pair.
    // When the angles spread over more than half a turn (mean length below 2/pi, that of a
    // uniform half-turn arc) there is no honest single angle: the texel is masked ("mixed").
    constexpr double kHalfTurnResultant = 2.0 / std::numbers::pi;
    constexpr int kAnchorEvery = 64;  // exact phases every 64 texel rows, rotations between
    const std::size_t n = std::size_t(w.colCount);
    const long long per = sample.rowsPerTexel;
    auto gainFor = [](double theta, long long rows) {
        const double half = std::sin(0.5 * theta);
        return rows == 1 || std::abs(half) < 1e-300 ? double(rows)
                                                    : std::sin(0.5 * theta * double(rows)) / half;
    };
    const long long columns = texelCols, pairsPerTexel = sample.colsPerTexel;
    auto pairsOf = [&](long long v) {  // the pairs [first, last) under texel column v
        const std::size_t k0 = std::size_t(v * pairsPerTexel);
        return std::pair{k0, std::min(n, k0 + std::size_t(pairsPerTexel))};
    };
    // The threshold a texel's summed vector must reach, for `rows` positions of `pairs` pairs.
    auto thresholdFor = [](long long rows, std::size_t pairs) {
        return kHalfTurnResultant * double(rows) * double(pairs) * (1 - 1e-12);
    };
    // Per visible pair: the gain of a full block, e^(i c theta) at the current row's centre and
    // the rotation by one block (per * theta). A live pan recomputes this every frame: libm
    // calls per pair and anchor row instead of per texel cell.
    std::vector<double> theta(n), fullGain(n), stepCos(n), stepSin(n);
    for (std::size_t k = 0; k < n; ++k) {
        theta[k] = freqs.inverse[std::size_t(w.firstCol) + k];
        fullGain[k] = gainFor(theta[k], per);
    }
    // A column whose pairs turn so fast that even perfectly aligned block sums (the sum of the
    // gains' sizes bounds the summed vector) stay below the threshold is mixed on every full
    // block, whatever the phases: its phases are never needed. Zoomed out, that is most of
    // the fast pairs, and most of a frame's work.
    std::vector<char> alwaysMixed(static_cast<std::size_t>(columns));
    std::vector<std::pair<std::size_t, std::size_t>> livePairs;  // ranges the other columns use
    for (long long v = 0; v < columns; ++v) {
        const auto [k0, k1] = pairsOf(v);
        double bound = 0;
        for (std::size_t k = k0; k < k1; ++k) bound += std::abs(fullGain[k]);
        alwaysMixed[std::size_t(v)] = bound < thresholdFor(per, k1 - k0) * (1 - 1e-9);
        if (alwaysMixed[std::size_t(v)]) continue;
        if (!livePairs.empty() && livePairs.back().second == k0) {
            livePairs.back().second = k1;
        } else {
            livePairs.emplace_back(k0, k1);
        }
    }
    for (const auto& [k0, k1] : livePairs) {
        for (std::size_t k = k0; k < k1; ++k) {
            stepCos[k] = std::cos(theta[k] * double(per));
            stepSin[k] = std::sin(theta[k] * double(per));
        }
    }
    const std::vector<std::pair<std::size_t, std::size_t>> allPairs{{0, n}};
    // Texel rows split between the cores; each part starts from exact phases.
    auto rowsFrom = [&](long long firstRow, long long lastRow) {
        std::vector<double> phaseCos(n), phaseSin(n), lastGain;
        for (long long u = firstRow; u < lastRow; ++u) {
            const long long first = w.firstRow + u * per;
            const long long rows = std::min(per, w.firstRow + w.rowCount - first);
            const double centre = double(first) + 0.5 * double(rows - 1);
            const double* gain = fullGain.data();
            const bool fullBlock = rows == per;
            if (!fullBlock) {  // the window's last, shorter block: its own gains, every pair
                lastGain.resize(n);
                for (std::size_t k = 0; k < n; ++k) lastGain[k] = gainFor(theta[k], rows);
                gain = lastGain.data();
            }
            const auto& used = fullBlock ? livePairs : allPairs;
            if (u == firstRow || u % kAnchorEvery == 0 || !fullBlock) {
                // libm reduces large arguments by the true 2 pi (fmod by the double 2 pi would
                // be less exact, and slower).
                for (const auto& [k0, k1] : used) {
                    for (std::size_t k = k0; k < k1; ++k) {
                        phaseCos[k] = std::cos(centre * theta[k]);
                        phaseSin[k] = std::sin(centre * theta[k]);
                    }
                }
            } else {
                for (const auto& [k0, k1] : used) {
                    for (std::size_t k = k0; k < k1; ++k) {
                        const double c = phaseCos[k], s = phaseSin[k];
                        phaseCos[k] = c * stepCos[k] - s * stepSin[k];
                        phaseSin[k] = s * stepCos[k] + c * stepSin[k];
                    }
                }
            }
            double* out = values->row(std::size_t(u));
            for (long long v = 0; v < columns; ++v) {
                if (fullBlock && alwaysMixed[std::size_t(v)]) {
                    out[v] = -std::numeric_limits<double>::infinity();
                    continue;
                }
                const auto [k0, k1] = pairsOf(v);
                double sumCos = 0, sumSin = 0;
                for (std::size_t k = k0; k < k1; ++k) {
                    sumCos += gain[k] * phaseCos[k];
                    sumSin += gain[k] * phaseSin[k];
                }
                const double threshold = thresholdFor(rows, k1 - k0);
                // Squared lengths: no overflow at these sizes, and hypot is slow.
                if (sumCos * sumCos + sumSin * sumSin < threshold * threshold) {
                    out[v] = -std::numeric_limits<double>::infinity();
                    continue;
                }
                out[v] = directionAngle(sumSin, sumCos);
            }
        }
    };
    parallelFor(texelRows, (1 << 15) / std::max<long long>(1, w.colCount) + 1, rowsFrom);
    sample.values = std::move(values);
    return std::move(sample);  // a structured binding: not moved implicitly
}

Box ropeAnglePlotBox(Box area, const RopeParams& params, const RopeAngleOptions& options,
                     const Theme& theme) {
    const CellWindow window =
        clampWindow(options.window, params.seqLen, std::max(1, rotatedDims(params) / 2));
    return heatmapPlotBox(area, window, drawRopeAngles, params, options, theme);
}

void drawRopeAngles(Figure& figure, Box area, const RopeParams& params,
                    const RopeAngleOptions& options, const Theme& theme,
                    const HeatmapSample* sample, PlotFrame* frame) {
    const std::optional<RopeFrequencies> freqs = ropeFrequenciesOrNote(figure, area, params, theme);
    if (!freqs) return;
    HeatmapSample computed;
    if (!sample) {
        const Box plot = ropeAnglePlotBox(area, params, options, theme);
        computed = ropeAngleSample(*freqs, params.seqLen, options.window,
                                   texelLimit(plot.height, theme), texelLimit(plot.width, theme));
        sample = &computed;
    }
    HeatmapSpec spec = sampleSpec(*sample, "Rotation angle $m·θ_i$ mod 2π — " + ropeTitle(params),
                                  "pair i  (fast → slow)", "position m", options.colormap,
                                  {0, 2 * std::numbers::pi});
    spec.colorbarLabel = "angle (radians)";
    spec.barTicks = BarTicks::Angles;  // 0, π/2, π, 3π/2, 2π: where the cyclic map's colours sit
    if (sample->rowsPerTexel > 1 || sample->colsPerTexel > 1) {
        // Zoomed out: circular means, and "mixed" where a pixel's angles spread too far.
        spec.colorbarLabel += ", circular mean of " + std::to_string(sample->rowsPerTexel) + " × " +
                              std::to_string(sample->colsPerTexel) + " cells a pixel";
        spec.showMaskedLegend = true;
        spec.maskedLabel = "mixed";
    }
    if (options.trainingLength > 0) {
        spec.markers.push_back(trainingLengthMarker(options.trainingLength, theme));
    }
    if (options.queryKey.size() == 2) {
        const char* names[] = {"m (q)", "n (k)"};
        const Rgba colors[] = {ropeQueryColor(theme), ropeKeyColor(theme)};
        for (int i = 0; i < 2; ++i) {
            Marker marker;
            marker.vertical = false;
            marker.value = options.queryKey[std::size_t(i)] + 0.5;  // the centre of the row
            marker.label = names[i];
            marker.color = colors[i];
            marker.dashed = false;
            spec.markers.push_back(marker);
        }
    }
    drawHeatmap(figure, area, spec, theme, frame);
}

// ---------------------------------------------------------------------------------------------
// Score heatmap
// ---------------------------------------------------------------------------------------------

HeatmapSample ropeScoreSample(const std::vector<double>& offsetScores, int seqLen,
                              CellWindow window, int maxRows, int maxCols) {
    const long long length = std::max(seqLen, 1);
    auto [sample, texelRows, texelCols] = sampleShape(window, length, length, maxRows, maxCols);
    const CellWindow& w = sample.window;
    const long long a = sample.rowsPerTexel, b = sample.colsPerTexel;
    if (offsetScores.size() != std::size_t(2 * length - 1)) {
        sample.values = std::make_shared<const Matrix>();
        return std::move(sample);
    }
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    const double* s = offsetScores.data();  // s[m - n + L - 1]
    if (a == 1 && b == 1) {
        for (long long u = 0; u < texelRows; ++u) {
            double* out = values->row(std::size_t(u));
            const long long m = w.firstRow + u;
            for (long long v = 0; v < texelCols; ++v) out[v] = s[m - (w.firstCol + v) + length - 1];
        }
    } else {
        // Block sums of a Toeplitz matrix from two prefix sums: with P[k] = s[0] + ... + s[k-1],
        // sum over n in [n0, n1) of s(m - n) = P[m - n0 + L] - P[m - n1 + L], and with
        // Q[x] = P[0] + ... + P[x-1] the sum over m in [m0, m1) of P[m + c] = Q[m1 + c] - Q[m0 +
        // c]. The mean is taken out first: the scores oscillate about it, so P stays small and Q
        // grows slowly, and the differences of Q keep double's precision.
        const std::size_t count = offsetScores.size();
        double mean = 0;
        for (std::size_t i = 0; i < count; ++i) mean += s[i];
        mean /= double(count);
        std::vector<double> prefix(count + 1, 0.0), second(count + 2, 0.0);
        for (std::size_t i = 0; i < count; ++i) prefix[i + 1] = prefix[i] + (s[i] - mean);
        for (std::size_t i = 0; i <= count; ++i) second[i + 1] = second[i] + prefix[i];
        const double* q = second.data() + length;  // q[x] = Q[x + L]
        for (long long u = 0; u < texelRows; ++u) {
            const long long m0 = w.firstRow + u * a, m1 = std::min(length, m0 + a);
            double* out = values->row(std::size_t(u));
            for (long long v = 0; v < texelCols; ++v) {
                const long long n0 = w.firstCol + v * b, n1 = std::min(length, n0 + b);
                const double sum = (q[m1 - n0] - q[m0 - n0]) - (q[m1 - n1] - q[m0 - n1]);
                out[v] = mean + sum / double((m1 - m0) * (n1 - n0));
            }
        }
    }
    sample.values = std::move(values);
    return std::move(sample);  // a structured binding: not moved implicitly
}

HeatmapSample ropeScoreSample(const std::vector<double>& q, const std::vector<double>& k,
                              int seqLen, const RopeFrequencies& freqs, RopePairing pairing,
                              CellWindow window, int maxRows, int maxCols, long long budget) {
    if (!ropeVectorsFit(q, k, freqs)) {
        const long long length = std::max(seqLen, 1);
        HeatmapSample sample = sampleShape(window, length, length, maxRows, maxCols).sample;
        sample.values = std::make_shared<const Matrix>();
        return sample;
    }
    return profileSample(ropeScoreProfile(q, k, seqLen, freqs, pairing), window, maxRows, maxCols,
                         budget);
}

RopeScoreRange ropeScoreRange(const std::vector<double>& q, const std::vector<double>& k,
                              int seqLen, const RopeFrequencies& freqs, RopePairing pairing,
                              long long budget) {
    RopeScoreRange range;
    const long long length = std::max(seqLen, 1);
    if (!ropeVectorsFit(q, k, freqs)) return range;
    const OffsetProfile profile = ropeScoreProfile(q, k, seqLen, freqs, pairing);
    const long long pairs = std::max<long long>(1, (long long)freqs.inverse.size());
    // Offsets -(T-1)..T-1, nearest zero first: RoPE's scores are largest there (its decay).
    const long long covered = std::clamp(budget / (2 * pairs), 1LL, length);
    double largest = 0, low = INFINITY, high = -INFINITY;
    for (double v : profileValues(profile, double(-(covered - 1)), 1, 2 * covered - 1)) {
        if (!std::isfinite(v)) continue;
        largest = std::max(largest, std::abs(v));
        low = std::min(low, v);
        high = std::max(high, v);
    }
    range.largest = largest > 0 ? largest : 1;
    range.low = std::isfinite(low) ? low : -1;
    range.high = std::isfinite(high) ? high : 1;
    range.offsetsCovered = covered;
    range.allOffsets = covered >= length;
    return range;
}

Box ropeScorePlotBox(Box area, const RopeParams& params, const RopeScoreOptions& options,
                     const Theme& theme) {
    RopeScoreOptions withRange = options;
    if (withRange.range.low == withRange.range.high) withRange.range = {-1, 1};
    withRange.queryKey.clear();
    const CellWindow window = clampWindow(options.window, params.seqLen, params.seqLen);
    return heatmapPlotBox(area, window, drawRopeScores, params, withRange, theme);
}

void drawRopeScores(Figure& figure, Box area, const RopeParams& params,
                    const RopeScoreOptions& options, const Theme& theme,
                    const HeatmapSample* sample, PlotFrame* frame) {
    const std::optional<RopeFrequencies> freqs = ropeFrequenciesOrNote(figure, area, params, theme);
    if (!freqs) return;
    ValueRange range = options.range;
    long long rangeOffsets = options.rangeOffsets;
    HeatmapSample computed;
    if (!sample || range.low == range.high) {
        if (!ropeVectorsFit(options.q, options.k, *freqs)) {
            drawNote(figure, area,
                     "q and k need " + std::to_string(params.headDim) + " entries each (got " +
                         std::to_string(options.q.size()) + " and " +
                         std::to_string(options.k.size()) + ")",
                     theme);
            return;
        }
        if (auto valid = validateQueryKey(options.q, options.k); !valid) {
            drawNote(figure, area, valid.error().message, theme);  // not a NaN or inf heatmap
            return;
        }
        if (range.low == range.high) {
            // Diverging maps centre zero; sequential ones span the scores. Either way over all
            // offsets (or as many as the budget allows, nearest zero), so zooming keeps the
            // colours.
            const RopeScoreRange r =
                ropeScoreRange(options.q, options.k, params.seqLen, *freqs, params.pairing);
            range = isDiverging(options.colormap) || !(r.high > r.low)
                        ? ValueRange{-r.largest, r.largest}
                        : ValueRange{r.low, r.high};
            rangeOffsets = r.allOffsets ? 0 : r.offsetsCovered;
        }
        if (!sample) {
            RopeScoreOptions ranged = options;
            ranged.range = range;  // the colour-bar ticks take part in the layout
            ranged.rangeOffsets = rangeOffsets;
            const Box plot = ropeScorePlotBox(area, params, ranged, theme);
            computed = ropeScoreSample(options.q, options.k, params.seqLen, *freqs, params.pairing,
                                       options.window, texelLimit(plot.height, theme),
                                       texelLimit(plot.width, theme));
            sample = &computed;
        }
    }
    const CellWindow& w = sample->window;
    HeatmapSpec spec = sampleSpec(*sample, "Attention score $q_m·k_n$ — " + ropeTitle(params),
                                  "key position n", "query position m", options.colormap, range);
    spec.colorbarLabel = "$q_m·k_n$  (constant along diagonals $m-n$)";
    spec.squareCells = true;  // query against key position
    if (sample->rowsPerTexel > 1 || sample->colsPerTexel > 1) {
        spec.colorbarLabel =
            "$q_m·k_n$, mean of " + cellsNote(sample->rowsPerTexel, sample->colsPerTexel);
    }
    if (rangeOffsets > 0) {
        spec.colorbarLabel += "; range from |m − n| < " + std::to_string(rangeOffsets);
    }
    if (freqs && freqs->attentionFactor != 1.0) {
        // HF scales cos and sin by attention_scaling, so every score carries its square.
        spec.colorbarLabel += "; × attention factor² " +
                              formatValue(freqs->attentionFactor * freqs->attentionFactor, 4);
    }
    if (options.trainingLength > 0 && options.trainingLength < params.seqLen) {
        for (bool vertical : {true, false}) {
            Marker marker;
            marker.vertical = vertical;
            marker.value = options.trainingLength;
            marker.label =
                vertical ? "training length " + std::to_string(options.trainingLength) : "";
            marker.color = theme.accent;
            spec.markers.push_back(marker);
        }
    }
    PlotFrame drawn;
    drawHeatmap(figure, area, spec, theme, &drawn);
    if (options.queryKey.size() == 2) {
        const double m = options.queryKey[0], n = options.queryKey[1];
        figure.add(ClipPush{drawn.plot});
        // The diagonal m - n = const: every cell on it has the same score.
        const double offset = m - n;
        const double x0 = double(w.firstCol), x1 = double(w.firstCol + w.colCount);
        figure.add(LineItem{drawn.toPixel(x0, x0 + offset), drawn.toPixel(x1, x1 + offset),
                            withAlpha(theme.text, 170), 1.5f, true});
        const Point at = drawn.toPixel(n + 0.5, m + 0.5);
        CircleItem dot;
        dot.center = at;
        dot.radius = 6;
        dot.stroke = theme.text;
        dot.strokeWidth = 2;
        dot.fill = withAlpha(ropeQueryColor(theme), 200);
        figure.add(dot);
        figure.add(ClipPop{});
    }
    if (frame) *frame = drawn;
}

}  // namespace poslab
