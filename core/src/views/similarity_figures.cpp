#include "poslab/views/similarity_figures.hpp"

#include <algorithm>
#include <cmath>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/views/print_room.hpp"

namespace poslab {

namespace {

std::string similarityFormula(const SimilarityParams& params) {
    const bool cosine = params.metric == SimilarityMetric::Cosine;
    switch (params.encoding) {
        case SimilarityEncoding::Sinusoidal:
            return cosine ? "cos(PE(i), PE(j))" : "PE(i) · PE(j)";
        case SimilarityEncoding::Learned:
            return cosine ? "cos(E(i), E(j))" : "E(i) · E(j)";
        case SimilarityEncoding::Rope:
            if (params.ropeVectors == RopeVectors::Expected) {
                return cosine ? "E[R(i)q · R(j)q] / E|q|²" : "E[R(i)q · R(j)q]";
            }
            return cosine ? "cos(R(i)q, R(j)k)" : "R(i)q · R(j)k";
    }
    return "";
}

// Texels a side for a heatmap `pixels` tall or wide: one per pixel at most, or in a vector file
// (Theme::cellResolution) one per cell up to kMaxTexelsPerSide.
int similarityTexels(double pixels, const Theme& theme) {
    return texelBudget(pixels, theme.cellResolution);
}

// The same for a learned table's block means taken from its rows (no Gram matrix: a block pair
// costs d multiply-adds, half of them by symmetry): in a vector file as many a side as
// kVectorTableBudget multiply-adds allow (4096 at d = 128, 1448 at d = 1024), never fewer than
// the pixels'. Past that the colour bar says the blocks' size.
constexpr double kVectorTableBudget = double(1LL << 30);
int similarityTableTexels(double pixels, const Theme& theme, long long dims) {
    const int screen = texelBudget(pixels);
    if (!theme.cellResolution) return screen;
    const auto affordable =
        (long long)std::sqrt(2.0 * kVectorTableBudget / double(std::max(1LL, dims)));
    return int(std::clamp<long long>(affordable, screen, kMaxTexelsPerSide));
}

}  // namespace

void drawSimilarityHeatmap(Figure& figure, Box area, const SimilarityParams& params,
                           const HeatmapSample& sample, const SimilarityFigureOptions& options,
                           const Theme& theme, PlotFrame* frame) {
    const CellWindow& w = sample.window;
    HeatmapSpec spec;
    spec.title = similarityFormula(params);
    spec.squareCells = true;  // position against position
    spec.x = {"key position j", double(w.firstCol), double(w.firstCol + w.colCount), false, true};
    spec.y = {"query position i", double(w.firstRow), double(w.firstRow + w.rowCount), false, true};
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
    spec.colormap = options.colormap;
    if (params.metric == SimilarityMetric::Cosine) {
        spec.range = {-1, 1};
    } else {
        spec.range = sample.values ? symmetricRange(*sample.values) : ValueRange{-1, 1};
        if (!isDiverging(options.colormap) && sample.values)
            spec.range = finiteRange(*sample.values);
    }
    spec.colorbarLabel = std::string(params.metric == SimilarityMetric::Cosine ? "cosine similarity"
                                                                               : "dot product") +
                         (sample.rowsPerTexel > 1 || sample.colsPerTexel > 1
                              ? " (mean of " + std::to_string(sample.rowsPerTexel) + " × " +
                                    std::to_string(sample.colsPerTexel) + " cells per pixel)"
                              : "");
    if (options.undefinedRows > 0) {  // zero table rows: masked cells, and said what they are
        spec.showMaskedLegend = true;
        spec.maskedLabel = "undefined";
    }
    if (options.trainingLength > 0) {
        spec.markers.push_back(trainingMarker(options.trainingLength, false, theme));
        Marker vertical = trainingMarker(options.trainingLength, true, theme, " ");
        vertical.shadeBeyond = true;
        spec.markers.push_back(vertical);
    }
    PlotFrame local;
    PlotFrame& drawn = frame ? *frame : local;
    drawHeatmap(figure, area, spec, theme, &drawn);
    if (options.undefinedRows > 0)
        drawCornerNote(figure, area, &drawn, undefinedCosineNote(options.undefinedRows), theme);
}

void drawSimilarityCurve(Figure& figure, Box area, const SimilarityParams& params,
                         const SimilarityCurve& curve, const SimilarityFigureOptions& options,
                         const Theme& theme, PlotFrame* frame) {
    LinePlotSpec spec;
    // A grid curve (curve.step > 1) skips offsets: its length is the sequence's.
    const long long L =
        curve.step > 1 ? (long long)params.seqLen : (long long)(curve.offsets.size() + 1) / 2;
    const double reach = options.maxOffset > 0 ? std::min<double>(options.maxOffset, double(L - 1))
                                               : double(std::max<long long>(L - 1, 1));
    spec.title = similarityFormula(params) + " against offset j − i";
    // "(key − query)" where it fits at the axis's size; on a narrow plot (1024x768 F5, ~285 px)
    // the short label, not the long one shrunk below its tick labels (the legend says j − i).
    spec.x = {"offset j − i (key − query)", -reach, reach};
    spec.x.shortLabel = "offset j − i";
    spec.y = {std::string(similarityMetricName(params.metric)), -1, 1};
    if (params.metric == SimilarityMetric::Cosine) {
        spec.y.low = -1.05, spec.y.high = 1.05;
        spec.autoRangeY = false;
    }
    const int pixels = std::max(16, texelBudget(area.width) - 80);
    const bool toeplitz = dependsOnOffsetOnly(params);
    LineSeries row;
    row.name = toeplitz ? "every query (depends on j − i only)"
                        : "query i = " +
                              std::to_string(std::clamp<long long>(options.reference, 0, L - 1));
    if (curve.step > 1) row.name += ", offsets " + std::to_string(curve.step) + " apart";
    if (!toeplitz && curve.diagonalMean.empty() && params.encoding == SimilarityEncoding::Learned)
        row.name += " (no mean over all queries: it costs O(L²·d))";
    // Toeplitz: every row is the same profile, so show all 2L - 1 offsets (the diagonals).
    const std::vector<double>& values =
        toeplitz && !curve.diagonalMean.empty() ? curve.diagonalMean : curve.fromReference;
    envelope(curve.offsets, values, -reach, reach, pixels, row.x, row.y);
    spec.series.push_back(std::move(row));
    if (!toeplitz && !curve.diagonalMean.empty()) {
        LineSeries mean;
        mean.name = "mean over all queries";
        envelope(curve.offsets, curve.diagonalMean, -reach, reach, pixels, mean.x, mean.y);
        spec.series.push_back(std::move(mean));
    }
    if (options.trainingLength > 0 && options.trainingLength < reach) {
        spec.markers.push_back(trainingMarker(options.trainingLength, true, theme));
        Marker left = trainingMarker(-options.trainingLength, true, theme, " ");
        left.shadeBeyond = false;
        spec.markers.push_back(left);
    }
    drawLinePlot(figure, area, spec, theme, frame);
}

SimilarityLayout similarityLayout(float width, float height, float line) {
    SimilarityLayout beside{false, std::floor(std::min(width * 0.56f, height + 110)), height};
    // Over the curve, which keeps 14 lines (room for its legend below it) and a third of the
    // height at least.
    SimilarityLayout over{
        true, width,
        std::floor(std::max(height * 0.34f, std::min(height * 0.55f, height - 14 * line)))};
    if (beside.mapWidth < 16 * line) return over;
    // The square map a box holds besides its title, tick labels and axis label (about six lines
    // down) and its y label, ticks and colour bar with its caption (about twelve across).
    auto side = [&](const SimilarityLayout& l) {
        return std::min(l.mapWidth - 12 * line, l.mapHeight - 6 * line);
    };
    return side(over) > side(beside) ? over : beside;
}

Status learnedFigureSize(long long seqLen, long long dModel) {
    if (seqLen * dModel <= kMaxLearnedFigureCells) return success();
    return Error{"seq_len x d_model must be at most " + std::to_string(kMaxLearnedFigureCells) +
                 " for a learned similarity figure (got " + std::to_string(seqLen) + " x " +
                 std::to_string(dModel) + ")"};
}

Result<Figure> similarityFigure(const SimilarityParams& params,
                                const SimilarityFigureOptions& options, float width, float height,
                                const Theme& theme) {
    if (auto s = validate(params); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    // The band of the lines the title wraps to (one column: two, at the title size), so the
    // map's title keeps its gap below them (#28: it nearly touched two shrunk lines).
    const std::string title = similarityTitle(params);
    const float titleHeight = titleBandHeight(theme, title, width, height);
    drawTitle(figure, {0, 0, width, titleHeight}, title, theme);
    const Box body{0, titleHeight, width, height - titleHeight};
    const float heatmapWidth = std::min(body.height + 120, std::floor(body.width * 0.55f));
    Box heatmapArea{0, body.y, heatmapWidth, body.height};
    Box curveArea{heatmapWidth + 24, body.y, body.width - heatmapWidth - 24, body.height};
    // A file too narrow for the two side by side (a one-column print, whose axis labels were
    // cut): the heatmap above the curve, each the figure's width, the height following the
    // width (askForHeight). On screen the two stay side by side.
    if (heightMayGrow(theme) && body.width < theme.fontSize * 40) {
        const float curveHeight = theme.fontSize * 15;
        askForHeight(theme, body.width * 0.8f + curveHeight + 16 - body.height);
        const float top = std::max(40.f, body.height - curveHeight - 16);
        heatmapArea = {0, body.y, body.width, top};
        curveArea = {0, body.y + top + 16, body.width, body.height - top - 16};
    }

    SimilarityFigureOptions drawn = options;
    HeatmapSample sample;
    SimilarityCurve curve;
    if (params.encoding == SimilarityEncoding::Learned) {
        const long long L = params.seqLen;
        const long long d = params.learnedTable ? (long long)params.learnedTable->cols
                                                : (long long)params.learned.dModel;
        if (auto s = learnedFigureSize(L, d); !s) return s.error();  // before drawing L x d
        // A loaded table compared whole is used in place: a copy doubled the peak (two 250 MiB
        // tables for one figure). Only its first seq_len rows are copied out otherwise.
        Matrix owned;
        const Matrix* table = nullptr;
        if (params.learnedTable && std::size_t(L) == params.learnedTable->rows) {
            table = params.learnedTable.get();
        } else {
            auto built = similarityTable(params);
            if (!built) return built.error();
            owned = std::move(built).value();
            table = &owned;
        }
        if (params.metric == SimilarityMetric::Cosine)
            drawn.undefinedRows = undefinedCosineRows(*table);
        if (gramFitsBudget(L, d)) {
            auto matrix = gramSimilarity(*table, params.metric);
            if (!matrix) return matrix.error();
            auto shared = share(std::move(matrix).value());
            sample =
                matrixSample(shared, options.window, similarityTexels(heatmapArea.height, theme),
                             similarityTexels(heatmapArea.width, theme));
            curve = matrixCurve(*shared, options.reference);
        } else {
            // No L x L matrix (2^31 multiply-adds and more): block means from the rows, the
            // reference row's curve; the mean over all queries would be the whole product.
            sample = tableSimilaritySample(*table, params.metric, options.window,
                                           similarityTableTexels(heatmapArea.height, theme, d),
                                           similarityTableTexels(heatmapArea.width, theme, d));
            curve = tableCurve(*table, params.metric, options.reference);
        }
    } else if (auto profile = offsetProfile(params);
               profile && profile->tabulationTerms() > kProfileBudget) {
        // Too long to tabulate (RoPE at L = 2^20, head_dim 8192: 2^32 terms): the heatmap's
        // block means straight from the profile, the curve at most 16 offsets per pixel column.
        sample =
            profileSample(*profile, options.window, similarityTexels(heatmapArea.height, theme),
                          similarityTexels(heatmapArea.width, theme));
        const long long L = params.seqLen;
        const long long reach =
            options.maxOffset > 0 ? std::min<long long>(options.maxOffset, L - 1) : L - 1;
        curve = profileCurve(*profile, options.reference, reach,
                             16LL * std::max(16, texelBudget(curveArea.width)));
    } else {
        auto offsets = offsetSimilarity(params);
        if (!offsets) return offsets.error();
        sample = offsetSimilaritySample(*offsets, options.window,
                                        similarityTexels(heatmapArea.height, theme),
                                        similarityTexels(heatmapArea.width, theme));
        curve = offsetCurve(*offsets, options.reference);
    }
    drawSimilarityHeatmap(figure, heatmapArea, params, sample, drawn, theme);
    drawSimilarityCurve(figure, curveArea, params, curve, drawn, theme);
    return figure;
}

}  // namespace poslab
