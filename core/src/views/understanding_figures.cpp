#include "poslab/views/understanding_figures.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <sstream>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

std::shared_ptr<const Matrix> share(Matrix m) {
    return std::make_shared<const Matrix>(std::move(m));
}

// sinusoidalRow with each column's wave looked up once: the same values bit for bit (the same
// sin/cos of the same product), without a pow per value, which dominates sampled checks at
// d = 8192.
class SinusoidalRows {
  public:
    explicit SinusoidalRows(const SinusoidalParams& params) {
        waves_.reserve(std::size_t(std::max(params.dModel, 0)));
        for (int c = 0; c < params.dModel; ++c) waves_.push_back(sinusoidalColumn(params, c));
    }
    void row(double position, double* out) const {
        for (std::size_t c = 0; c < waves_.size(); ++c) {
            const SinusoidalColumn& wave = waves_[c];
            if (wave.isZero) {
                out[c] = 0.0;
                continue;
            }
            const double angle = position * wave.frequency;
            out[c] = wave.isCosine ? std::cos(angle) : std::sin(angle);
        }
    }

  private:
    std::vector<SinusoidalColumn> waves_;
};

// Keeps at most 2 points per pixel column: the column's min and max at its centre, alternating
// min-max and max-min, so fast oscillations draw as a filled band instead of aliasing into a false
// slow wave. Data with no more than 2 points per column pass unchanged.
void envelope(const std::vector<double>& x, const std::vector<double>& y, double low, double high,
              int pixels, std::vector<double>& outX, std::vector<double>& outY) {
    outX.clear();
    outY.clear();
    std::size_t inside = 0;
    for (double v : x) inside += v >= low && v <= high;
    if (pixels <= 0 || inside <= std::size_t(2 * pixels)) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (x[i] >= low && x[i] <= high) outX.push_back(x[i]), outY.push_back(y[i]);
        }
        return;
    }
    const double width = (high - low) / pixels;
    int bucket = -1;
    double minY = 0, maxY = 0;
    bool any = false;
    auto flush = [&] {
        if (!any) return;
        const double centre = low + (bucket + 0.5) * width;
        const bool rising = bucket % 2 == 0;
        outX.push_back(centre), outY.push_back(rising ? minY : maxY);
        outX.push_back(centre), outY.push_back(rising ? maxY : minY);
        any = false;
    };
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!(x[i] >= low && x[i] <= high)) continue;
        const int b = std::min(pixels - 1, int((x[i] - low) / width));
        if (b != bucket) flush(), bucket = b;
        if (!std::isfinite(y[i])) {
            flush();
            outX.push_back(x[i]), outY.push_back(y[i]);  // keeps the break in the line
            continue;
        }
        if (!any) {
            minY = maxY = y[i];
            any = true;
        } else {
            minY = std::min(minY, y[i]);
            maxY = std::max(maxY, y[i]);
        }
    }
    flush();
}

double maxAbs(const Matrix& m) {
    double top = 0;
    for (double v : m.values) {
        if (std::isfinite(v)) top = std::max(top, std::abs(v));
    }
    return top;
}

// A heatmap of a whole (small) matrix, block-averaged to at most one texel per pixel.
HeatmapSpec matrixSpec(const std::string& title, const Matrix& values, Box area,
                       ColormapId colormap, ValueRange range) {
    const long long rpt = cellsPerTexel((long long)values.rows, std::max(1, int(area.height)));
    const long long cpt = cellsPerTexel((long long)values.cols, std::max(1, int(area.width)));
    HeatmapSpec spec;
    spec.title = title;
    spec.x = {"", 0, double(values.cols), false, true};
    spec.y = {"", 0, double(values.rows), false, true};
    if (rpt == 1 && cpt == 1) {
        spec.values = share(values);
    } else {
        spec.values = share(averageBlocks(values, rpt, cpt));
        spec.valuesRowSpan = double(((long long)values.rows + rpt - 1) / rpt * rpt);
        spec.valuesColSpan = double(((long long)values.cols + cpt - 1) / cpt * cpt);
    }
    spec.version = nextMatrixVersion();
    spec.colormap = colormap;
    spec.range = range;
    return spec;
}

Marker trainingMarker(double value, bool vertical, const Theme& theme, std::string label = "") {
    Marker marker;
    marker.vertical = vertical;
    marker.value = value;
    marker.label = label.empty() ? "training length " + formatValue(value) : std::move(label);
    marker.color = theme.accent;
    marker.shadeBeyond = true;
    return marker;
}

// A plot box above a paragraph inside one small-multiple cell.
struct PlotAndText {
    Box plot, text;
};
PlotAndText splitCell(Box cell, float textFraction) {
    const float textHeight = std::floor(cell.height * textFraction);
    return {{cell.x, cell.y, cell.width, cell.height - textHeight},
            {cell.x + 6, cell.bottom() - textHeight + 2, cell.width - 12, textHeight - 2}};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Layout helpers
// ---------------------------------------------------------------------------------------------

Box gridCell(Box area, int rows, int cols, int row, int col, float gap) {
    const float w = (area.width - gap * float(cols - 1)) / float(cols);
    const float h = (area.height - gap * float(rows - 1)) / float(rows);
    return {std::floor(area.x + float(col) * (w + gap)),
            std::floor(area.y + float(row) * (h + gap)), std::floor(w), std::floor(h)};
}

float drawParagraph(Figure& figure, Box box, const std::string& text, const Theme& theme,
                    float size, Rgba color) {
    if (size <= 0) size = theme.fontSize;
    if (color.a == 0) color = theme.text;
    const float lineHeight = size * 1.3f;
    float y = box.y;
    std::istringstream paragraphs(text);
    std::string paragraph;
    while (std::getline(paragraphs, paragraph)) {
        std::istringstream words(paragraph);
        std::string word, line;
        auto emit = [&] {
            if (y + lineHeight <= box.bottom() + 0.5f) {
                figure.add(makeText({box.x, y}, line, size, color));
            }
            y += lineHeight;
            line.clear();
        };
        while (words >> word) {
            const std::string candidate = line.empty() ? word : line + " " + word;
            if (!line.empty() && estimateTextWidth(candidate, size) > box.width) emit();
            line = line.empty() ? word : line + " " + word;
        }
        if (!line.empty()) emit();
        if (paragraph.empty()) y += lineHeight * 0.4f;
    }
    return y - box.y;
}

// ---------------------------------------------------------------------------------------------
// Similarity
// ---------------------------------------------------------------------------------------------

Result<HeatmapSample> similaritySample(const SimilarityParams& params, CellWindow window,
                                       int maxRows, int maxCols) {
    if (params.encoding == SimilarityEncoding::Learned) {
        auto matrix = similarityMatrix(params);
        if (!matrix) return matrix.error();
        return matrixSample(share(std::move(matrix).value()), window, maxRows, maxCols);
    }
    auto offsets = offsetSimilarity(params);
    if (!offsets) return offsets.error();
    return offsetSimilaritySample(*offsets, window, maxRows, maxCols);
}

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

}  // namespace

void drawSimilarityHeatmap(Figure& figure, Box area, const SimilarityParams& params,
                           const HeatmapSample& sample, const SimilarityFigureOptions& options,
                           const Theme& theme, PlotFrame* frame) {
    const CellWindow& w = sample.window;
    HeatmapSpec spec;
    spec.title = similarityFormula(params);
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
                              ? " (mean of " + std::to_string(sample.rowsPerTexel) + " x " +
                                    std::to_string(sample.colsPerTexel) + " cells per pixel)"
                              : "");
    if (options.trainingLength > 0) {
        spec.markers.push_back(trainingMarker(options.trainingLength, false, theme));
        Marker vertical = trainingMarker(options.trainingLength, true, theme, " ");
        vertical.shadeBeyond = true;
        spec.markers.push_back(vertical);
    }
    drawHeatmap(figure, area, spec, theme, frame);
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
    spec.x = {"offset j − i (key − query)", -reach, reach};
    spec.y = {std::string(similarityMetricName(params.metric)), -1, 1};
    if (params.metric == SimilarityMetric::Cosine) {
        spec.y.low = -1.05, spec.y.high = 1.05;
        spec.autoRangeY = false;
    }
    const int pixels = std::max(16, int(area.width) - 80);
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
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(figure, {0, 0, width, titleHeight}, similarityTitle(params), theme);
    const Box body{0, titleHeight, width, height - titleHeight};
    const float heatmapWidth = std::min(body.height + 120, std::floor(body.width * 0.55f));
    const Box heatmapArea{0, body.y, heatmapWidth, body.height};
    const Box curveArea{heatmapWidth + 24, body.y, body.width - heatmapWidth - 24, body.height};

    Matrix full;  // learned: computed once, shared by the heatmap and the curve
    HeatmapSample sample;
    SimilarityCurve curve;
    if (params.encoding == SimilarityEncoding::Learned) {
        const long long L = params.seqLen;
        const long long d = params.learnedTable ? (long long)params.learnedTable->cols
                                                : (long long)params.learned.dModel;
        if (auto s = learnedFigureSize(L, d); !s) return s.error();  // before drawing L x d
        auto table = similarityTable(params);
        if (!table) return table.error();
        if (gramFitsBudget(L, d)) {
            auto matrix = gramSimilarity(*table, params.metric);
            if (!matrix) return matrix.error();
            auto shared = share(std::move(matrix).value());
            sample = matrixSample(shared, options.window, int(heatmapArea.height),
                                  int(heatmapArea.width));
            curve = matrixCurve(*shared, options.reference);
        } else {
            // No L x L matrix (2^31 multiply-adds and more): block means from the rows, the
            // reference row's curve; the mean over all queries would be the whole product.
            sample = tableSimilaritySample(*table, params.metric, options.window,
                                           int(heatmapArea.height), int(heatmapArea.width));
            curve = tableCurve(*table, params.metric, options.reference);
        }
    } else if (auto profile = offsetProfile(params);
               profile && profile->tabulationTerms() > kProfileBudget) {
        // Too long to tabulate (RoPE at L = 2^20, head_dim 8192: 2^32 terms): the heatmap's
        // block means straight from the profile, the curve at most 16 offsets per pixel column.
        sample = profileSample(*profile, options.window, int(heatmapArea.height),
                               int(heatmapArea.width));
        const long long L = params.seqLen;
        const long long reach =
            options.maxOffset > 0 ? std::min<long long>(options.maxOffset, L - 1) : L - 1;
        curve = profileCurve(*profile, options.reference, reach,
                             16LL * std::max(16, int(curveArea.width)));
    } else {
        auto offsets = offsetSimilarity(params);
        if (!offsets) return offsets.error();
        sample = offsetSimilaritySample(*offsets, options.window, int(heatmapArea.height),
                                        int(heatmapArea.width));
        curve = offsetCurve(*offsets, options.reference);
    }
    drawSimilarityHeatmap(figure, heatmapArea, params, sample, options, theme);
    drawSimilarityCurve(figure, curveArea, params, curve, options, theme);
    return figure;
}

// ---------------------------------------------------------------------------------------------
// Position and meaning
// ---------------------------------------------------------------------------------------------

namespace {

// a . b over n values, four running sums (the maps and read-back are dot-product bound).
double dot4(const double* a, const double* b, std::size_t n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += a[k] * b[k];
        s1 += a[k + 1] * b[k + 1];
        s2 += a[k + 2] * b[k + 2];
        s3 += a[k + 3] * b[k + 3];
    }
    for (; k < n; ++k) s0 += a[k] * b[k];
    return (s0 + s1) + (s2 + s3);
}

// scale * a_i . b_j for every row pair; symmetric when a and b are the same matrix.
Matrix scaledProducts(const Matrix& a, const Matrix& b, double scale) {
    Matrix out(a.rows, b.rows);
    const bool symmetric = &a == &b;
    for (std::size_t i = 0; i < a.rows; ++i) {
        for (std::size_t j = symmetric ? i : 0; j < b.rows; ++j) {
            out(i, j) = scale * dot4(a.row(i), b.row(j), a.cols);
            if (symmetric) out(j, i) = out(i, j);
        }
    }
    return out;
}

// `count` positions spread evenly over 0..total-1, both ends included (all when count >= total).
std::vector<int> evenlySpaced(int total, int count) {
    std::vector<int> out;
    if (total <= 0) return out;
    if (count >= total) {
        for (int i = 0; i < total; ++i) out.push_back(i);
        return out;
    }
    count = std::max(count, 1);
    if (count == 1) return {0};
    for (int s = 0; s < count; ++s) {
        const int p = int(std::llround(double(s) * (total - 1) / (count - 1)));
        if (out.empty() || out.back() != p) out.push_back(p);
    }
    return out;
}

// A heatmap of block means over an L x L matrix: the axes span the cells, the texels the blocks.
HeatmapSpec blockMeansSpec(const std::string& title, const Matrix& means, long long cellsPerTexel,
                           int seqLen, ValueRange range) {
    HeatmapSpec spec;
    spec.title = title;
    spec.x = {"", 0, double(seqLen), false, true};
    spec.y = {"", 0, double(seqLen), false, true};
    spec.values = share(means);
    if (cellsPerTexel > 1) {
        spec.valuesRowSpan = double((long long)means.rows * cellsPerTexel);
        spec.valuesColSpan = double((long long)means.cols * cellsPerTexel);
    }
    spec.version = nextMatrixVersion();
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = range;
    return spec;
}

std::string rmsNote(const LogitTermMaps& maps) {
    if (maps.rmsRows >= maps.seqLen) return "";
    return " RMS (≈) over " + std::to_string(maps.rmsRows) + " evenly spaced query rows of " +
           std::to_string(maps.seqLen) + ", all keys.";
}

}  // namespace

Result<LogitTermMaps> logitTermMaps(const MeaningParams& params, int maxTexels, long long budget) {
    auto sequence = buildSequence(params);
    if (!sequence) return sequence.error();
    const Matrix& x = sequence->tokens;
    const Matrix& p = sequence->positions;
    Matrix sums = x;
    for (std::size_t i = 0; i < sums.values.size(); ++i) sums.values[i] += p.values[i];
    const double scale = 1.0 / std::sqrt(double(params.dModel));  // as decomposeLogits
    const std::size_t L = x.rows, d = x.cols;
    LogitTermMaps maps;
    maps.seqLen = int(L);
    maps.cellsPerTexel = cellsPerTexel((long long)L, std::max(1, maxTexels));
    // Block means of each term from the blocks' mean vectors (the terms are bilinear).
    // Means of groups of rows (the last may be shorter); every column kept.
    const Matrix xm = averageBlocks(x, maps.cellsPerTexel, 1);
    const Matrix pm = averageBlocks(p, maps.cellsPerTexel, 1);
    const Matrix sm = averageBlocks(sums, maps.cellsPerTexel, 1);
    maps.means.contentContent = scaledProducts(xm, xm, scale);
    maps.means.contentPosition = scaledProducts(xm, pm, scale);
    maps.means.positionContent = scaledProducts(pm, xm, scale);
    maps.means.positionPosition = scaledProducts(pm, pm, scale);
    maps.means.total = scaledProducts(sm, sm, scale);
    // RMS over every cell, or over evenly spaced query rows when that costs too much.
    const long long perRow = 5LL * (long long)L * (long long)d;
    const int rows = int(std::clamp<long long>(budget / std::max(1LL, perRow), 1, (long long)L));
    const std::vector<int> queries = evenlySpaced(int(L), rows);
    maps.rmsRows = int(queries.size());
    long double squares[5] = {};
    for (int i : queries) {
        const std::size_t r = std::size_t(i);
        for (std::size_t j = 0; j < L; ++j) {
            const double terms[5] = {dot4(x.row(r), x.row(j), d), dot4(x.row(r), p.row(j), d),
                                     dot4(p.row(r), x.row(j), d), dot4(p.row(r), p.row(j), d),
                                     dot4(sums.row(r), sums.row(j), d)};
            for (int t = 0; t < 5; ++t)
                squares[t] += (long double)(scale * terms[t]) * (scale * terms[t]);
        }
    }
    const double cells = double(queries.size()) * double(L);
    for (int t = 0; t < 5; ++t) maps.rms[t] = std::sqrt(double(squares[t] / cells));
    return maps;
}

namespace {

// The data box drawHeatmap gives an L x L heatmap with a colour bar in `area`: its margins
// depend only on the axes and labels, so it is laid out once, without values, into a scratch
// figure. Block means of at most that many texels a side are never minified on screen.
int heatmapTexels(Box area, int seqLen, const Theme& theme) {
    HeatmapSpec spec;
    spec.title = "title";
    spec.x = {"key j", 0, double(seqLen), false, true};
    spec.y = {"query i", 0, double(seqLen), false, true};
    spec.values = share(Matrix(1, 1));
    spec.range = {-100, 100};  // three-digit colour-bar ticks: wider than most
    spec.colorbarLabel = "logit / √d, mean of 10 x 10 cells";
    Figure scratch;
    PlotFrame frame;
    drawHeatmap(scratch, area, spec, theme, &frame);
    return std::max(1, int(std::min(frame.plot.width, frame.plot.height)));
}

// Where drawAddVersusConcat puts its two heatmaps and the read-back plot in `area`.
struct AddConcatLayout {
    Box columns[3];
    float textHeight = 0;
};
AddConcatLayout addConcatLayout(Box area) {
    AddConcatLayout layout;
    layout.textHeight = std::max(130.f, std::floor(area.height * 0.27f));
    const float gap = 16;
    const float columnWidth = std::floor((area.width - 2 * gap) * 0.36f);
    layout.columns[0] = {area.x, area.y, columnWidth, area.height};
    layout.columns[1] = {area.x + columnWidth + gap, area.y, columnWidth, area.height};
    layout.columns[2] = {area.x + 2 * (columnWidth + gap), area.y,
                         area.width - 2 * (columnWidth + gap), area.height};
    return layout;
}

}  // namespace

int logitTermTexels(Box area, int seqLen, const Theme& theme) {
    return heatmapTexels(gridCell(area, 2, 3, 0, 0, 10), seqLen, theme);
}

void drawLogitTerms(Figure& figure, Box area, const MeaningParams& params,
                    const LogitTermMaps& maps, const Theme& theme, std::vector<PlotFrame>* frames) {
    if (frames) frames->clear();
    const LogitTerms& terms = maps.means;
    // One scale for all five, spanning what is drawn (the block means).
    const double top = std::max({maxAbs(terms.contentContent), maxAbs(terms.contentPosition),
                                 maxAbs(terms.positionContent), maxAbs(terms.positionPosition),
                                 maxAbs(terms.total), 1e-12});
    const ValueRange range{-top, top};
    struct Panel {
        const Matrix* values;
        std::string title;
    };
    const std::string approx = maps.rmsRows < maps.seqLen ? "≈ " : "";
    auto titled = [&](const char* name, const char* formula, int t) {
        return std::string(name) + "  " + formula + "  (rms " + approx +
               formatValue(maps.rms[t], 3) + ")";
    };
    const Panel panels[5] = {
        {&terms.contentContent, titled("content·content", "x_i·x_j", 0)},
        {&terms.contentPosition, titled("content·position", "x_i·p_j", 1)},
        {&terms.positionContent, titled("position·content", "p_i·x_j", 2)},
        {&terms.positionPosition, titled("position·position", "p_i·p_j", 3)},
        {&terms.total, titled("= sum", "(x_i+p_i)·(x_j+p_j)", 4)},
    };
    const float gap = 10;
    for (int k = 0; k < 5; ++k) {
        const Box cell = gridCell(area, 2, 3, k / 3, k % 3, gap);
        HeatmapSpec spec = blockMeansSpec(panels[k].title, *panels[k].values, maps.cellsPerTexel,
                                          maps.seqLen, range);
        spec.x.label = "key j";
        spec.y.label = "query i";
        if (k == 4) {
            spec.colorbarLabel = "logit / √d";
            if (maps.cellsPerTexel > 1) {
                spec.colorbarLabel += ", mean of " + std::to_string(maps.cellsPerTexel) + " x " +
                                      std::to_string(maps.cellsPerTexel) + " cells";
            }
        }
        PlotFrame frame;
        drawHeatmap(figure, cell, spec, theme, &frame);
        if (frames) frames->push_back(frame);
    }
    const Box info = gridCell(area, 2, 3, 1, 2, gap);
    std::string text =
        "Attention logit of query i and key j (identity projections, divided by √d): the sum of "
        "four terms, all on one colour scale.\n";
    text += "d_model = " + std::to_string(params.dModel) + ", " + std::to_string(params.seqLen) +
            " tokens from a vocabulary of " +
            (params.tokens ? std::string("loaded vectors") : std::to_string(params.vocabulary)) +
            " (repeated words light up content·content), " +
            std::string(positionTableName(params.positions)) + " positions." + rmsNote(maps) + "\n";
    const double cross = std::max(maps.rms[1], maps.rms[2]);
    text +=
        "The cross terms are " +
        (cross < 0.25 * std::min(maps.rms[0], maps.rms[3])
             ? std::string(
                   "small noise: random word vectors are nearly orthogonal to every position "
                   "vector, so the sum keeps content and position apart.")
             : std::string(
                   "not small here: with this width and these scales, content and position "
                   "interfere. Raise d_model to see them shrink as 1/√d relative to the others."));
    drawParagraph(figure, {info.x + 8, info.y + 8, info.width - 16, info.height - 16}, text, theme);
}

int nearOrthogonalitySamples(int dModel, int requested) {
    const long long affordable =
        std::max<long long>(100, kOrthogonalityComponents / std::max(1, dModel));
    return int(std::clamp<long long>(requested, 1, std::max<long long>(1, affordable)));
}

Result<double> sampledRecoveryError(const MeaningParams& params, int queries) {
    auto sequence = buildSequence(params);
    if (!sequence) return sequence.error();
    const Matrix& x = sequence->tokens;
    const Matrix& p = sequence->positions;
    const std::size_t L = x.rows, d = x.cols;
    std::vector<double> norms(L);
    for (std::size_t j = 0; j < L; ++j) {
        const double n = std::sqrt(dot4(p.row(j), p.row(j), d));
        norms[j] = n > 0 ? n : 1;
    }
    const std::vector<int> chosen = evenlySpaced(int(L), queries);
    std::vector<double> sum(d);
    double error = 0;
    for (int query : chosen) {
        const std::size_t i = std::size_t(query);
        for (std::size_t k = 0; k < d; ++k) sum[k] = x(i, k) + p(i, k);
        std::size_t best = 0;
        double bestScore = -INFINITY;
        for (std::size_t j = 0; j < L; ++j) {
            const double score = dot4(sum.data(), p.row(j), d) / norms[j];
            if (score > bestScore) bestScore = score, best = j;
        }
        error += std::abs(double(best) - double(i));
    }
    return error / double(chosen.size());
}

int recoveryQueries(int seqLen, int dModel) {
    const long long perQuery = std::max(1LL, (long long)seqLen * dModel);
    return int(std::clamp<long long>(kRecoveryBudget / perQuery, std::min(16, seqLen), seqLen));
}

void drawNearOrthogonality(Figure& figure, Box area, int dModel, const Histogram& histogram,
                           const Theme& theme, int drawn, int requested) {
    const Box left{area.x, area.y, std::floor(area.width * 0.6f), area.height};
    const Box right{left.right() + 8, area.y, area.width - left.width - 8, area.height};
    const double sigma = 1 / std::sqrt(double(dModel));

    LinePlotSpec spec;
    spec.title = "cos(random vector, PE(p)) at d_model = " + std::to_string(dModel);
    spec.x = {"cosine", -1, 1};
    spec.y = {"density", 0, 1};
    double peak = 0;
    for (double v : histogram.density) peak = std::max(peak, v);
    LineSeries exact;
    exact.name = "exact density (1 − c²)^((d−3)/2)";
    const int samples = std::clamp(int(left.width), 64, 2000);
    for (int i = 0; i <= samples; ++i) {
        const double c = -1 + 2.0 * i / samples;
        exact.x.push_back(c);
        exact.y.push_back(randomCosineDensity(dModel, c));
        peak = std::max(peak, exact.y.back());
    }
    exact.color = theme.accent;
    spec.series.push_back(exact);
    spec.y.high = peak * 1.1;
    spec.autoRangeY = false;
    Marker plus,
        minus;  // labelled in the text line below (a marker label would hide under the legend)
    plus.value = sigma;
    minus.value = -sigma;
    plus.color = minus.color = theme.mutedText;
    spec.markers = {plus, minus};
    PlotFrame frame;
    drawLinePlot(figure, left, spec, theme, &frame);
    // Bars under the curve (drawn after the plot; the curve is redrawn on top).
    const int bins = int(histogram.density.size());
    figure.add(ClipPush{frame.plot});
    for (int b = 0; b < bins; ++b) {
        const double x0 = histogram.low + (histogram.high - histogram.low) * b / bins;
        const double x1 = histogram.low + (histogram.high - histogram.low) * (b + 1) / bins;
        const Point p0 = frame.toPixel(x0, 0),
                    p1 = frame.toPixel(x1, histogram.density[std::size_t(b)]);
        if (p0.y - p1.y < 0.5f) continue;
        RectItem bar;
        bar.box = {p0.x, p1.y, std::max(1.f, p1.x - p0.x - 1), p0.y - p1.y};
        bar.fill = withAlpha(seriesColor(0), 170);
        figure.add(bar);
    }
    PolylineItem line;
    line.color = theme.accent;
    line.width = 2;
    for (std::size_t i = 0; i < exact.x.size(); ++i)
        line.points.push_back(frame.toPixel(exact.x[i], exact.y[i]));
    figure.add(line);
    figure.add(ClipPop{});
    // Short lines top left: the legend takes the top right, the peak the middle.
    std::vector<std::pair<std::string, Rgba>> lines = {
        {"sampled: mean " + formatValue(histogram.mean, 2) + ", std " +
             formatValue(histogram.stddev, 3),
         theme.text}};
    if (requested > drawn && drawn > 0) {  // fewer than asked: which ones
        lines.push_back({"first " + std::to_string(drawn) + " of " + std::to_string(requested) +
                             " seeded draws",
                         theme.text});
    } else if (drawn > 0) {
        lines.push_back({std::to_string(drawn) + " random vectors", theme.mutedText});
    }
    lines.push_back({"dashed: ±1/√d = ±" + formatValue(sigma, 3), theme.mutedText});
    for (std::size_t i = 0; i < lines.size(); ++i) {
        figure.add(
            makeText({frame.plot.x + 8, frame.plot.y + 6 + float(i) * theme.fontSize * 1.35f},
                     lines[i].first, theme.fontSize, lines[i].second));
    }

    LinePlotSpec spread;
    spread.title = "spread of the cosine against d_model";
    spread.x = {"d_model", 2, 8192, true};
    spread.y = {"std of the cosine", 0.01, 1, true};
    spread.autoRangeY = false;
    LineSeries law;
    law.name = "1/√d";
    for (double d = 2; d <= 8192; d *= 1.25) law.x.push_back(d), law.y.push_back(1 / std::sqrt(d));
    law.color = theme.accent;
    LineSeries measured;
    measured.name = "sampled at d = " + std::to_string(dModel);
    measured.x = {double(dModel)};
    measured.y = {histogram.stddev};
    measured.markers = true;
    measured.color = seriesColor(0);
    spread.series = {law, measured};
    Marker current;
    current.value = dModel;
    current.color = theme.mutedText;
    spread.markers = {current};
    PlotFrame spreadFrame;
    drawLinePlot(figure, right, spread, theme, &spreadFrame);
    CircleItem dot;  // a single point draws no polyline: mark it explicitly
    dot.center = spreadFrame.toPixel(double(dModel), std::max(histogram.stddev, 0.0101));
    dot.radius = 5;
    dot.fill = seriesColor(0);
    figure.add(dot);
}

void drawAddVersusConcat(Figure& figure, Box area, const MeaningParams& params,
                         const LogitTermMaps& maps, double recoveryError, const Theme& theme) {
    const LogitTerms& terms = maps.means;  // block means: concat's are cc + pp's, exactly
    Matrix concat = terms.contentContent;
    for (std::size_t i = 0; i < concat.values.size(); ++i)
        concat.values[i] += terms.positionPosition.values[i];
    const double top = std::max({maxAbs(terms.total), maxAbs(concat), 1e-12});
    const int d = params.dModel;
    const long long addParams = 4LL * d * d, concatParams = 4LL * (2LL * d) * (2LL * d);
    const AddConcatLayout layout = addConcatLayout(area);
    const float textHeight = layout.textHeight;
    const Box* columns = layout.columns;
    for (int side = 0; side < 2; ++side) {
        const Box cell = columns[side];
        const Box plot{cell.x, cell.y, cell.width, cell.height - textHeight};
        const Box text{cell.x + 8, plot.bottom() + 6, cell.width - 16, textHeight - 6};
        const Matrix& values = side == 0 ? terms.total : concat;
        HeatmapSpec spec =
            blockMeansSpec(side == 0 ? "Add: x + p, width d = " + std::to_string(d)
                                     : "Concatenate: [x; p], width 2d = " + std::to_string(2 * d),
                           values, maps.cellsPerTexel, maps.seqLen, {-top, top});
        spec.x.label = "key j";
        spec.y.label = "query i";
        spec.colorbarLabel = "logit / √d";
        if (maps.cellsPerTexel > 1) {
            spec.colorbarLabel += ", mean of " + std::to_string(maps.cellsPerTexel) + " x " +
                                  std::to_string(maps.cellsPerTexel) + " cells";
        }
        drawHeatmap(figure, plot, spec, theme);
        std::string paragraph;
        if (side == 0) {
            paragraph =
                "Logit = content·content + content·position + position·content + "
                "position·position: all four terms, mixed in one number.\n"
                "Attention weights per layer (W_Q, W_K, W_V, W_O): 4·d² = " +
                std::to_string(addParams) + ".";
        } else {
            paragraph =
                "Logit = content·content + position·position only: the halves never meet "
                "in a dot product, so the cross terms vanish.\n"
                "Attention weights per layer: 4·(2d)² = " +
                std::to_string(concatParams) +
                " (4x), and every later layer pays for the wider vectors.";
        }
        drawParagraph(figure, text, paragraph, theme);
    }

    // Is anything lost? Position read back from x + p, against the width.
    const Box cell = columns[2];
    const Box plot{cell.x, cell.y, cell.width, cell.height - textHeight};
    const Box text{cell.x + 8, plot.bottom() + 6, cell.width - 16, textHeight - 6};
    LinePlotSpec spec;
    spec.title = "Position read back from x + p";
    spec.x = {"d_model", 4, 2048, true};
    spec.y = {"mean error (positions)", 0, 1};
    LineSeries added, concatenated;
    added.name = "add";
    concatenated.name = "concatenate";
    added.markers = true;
    concatenated.color = seriesColor(1);
    int sampledFrom = 0, fewestQueries = maps.seqLen;  // widths read back at some queries only
    if (!params.tokens) {  // loaded vectors have one width: only the current point
        for (int width = 4; width <= 2048; width *= 2) {
            MeaningParams p = params;
            p.dModel = width;
            // Evenly spaced queries once all L would pass the budget: at L = 1024 the widths
            // 4..2048 would otherwise cost 2^32 multiply-adds.
            const int queries = recoveryQueries(params.seqLen, width);
            auto error = sampledRecoveryError(p, queries);
            if (!error) continue;
            if (queries < params.seqLen && sampledFrom == 0) sampledFrom = width;
            fewestQueries = std::min(fewestQueries, queries);
            added.x.push_back(width), added.y.push_back(*error);
            concatenated.x.push_back(width), concatenated.y.push_back(0);
        }
    }
    spec.series = {added, concatenated};
    Marker current;
    current.value = d;
    current.color = theme.accent;
    spec.markers = {current};
    drawLinePlot(figure, plot, spec, theme);
    std::string paragraph =
        "Best-matching position row: argmax_j (x_i + p_i)·p_j / |p_j|. Word vectors blur the "
        "readout less as d grows, because they are nearly orthogonal to every p.";
    if (recoveryError >= 0) {
        const int here = recoveryQueries(params.seqLen, d);
        paragraph +=
            " Here (dashed line): off by " + formatValue(recoveryError, 3) +
            " positions on average" +
            (here < params.seqLen ? " over " + std::to_string(here) + " evenly spaced of " +
                                        std::to_string(params.seqLen) + " positions"
                                  : "") +
            ".";
    }
    if (sampledFrom > 0) {
        paragraph += " From d = " + std::to_string(sampledFrom) +
                     " the curve reads back evenly spaced positions only (down to " +
                     std::to_string(fewestQueries) + " of " + std::to_string(params.seqLen) + ").";
    }
    drawParagraph(figure, text, paragraph, theme);
}

Result<Figure> meaningFigure(const MeaningParams& params, float width, float height,
                             const Theme& theme) {
    const float titleHeight = theme.titleSize * 1.8f;
    const Box body{0, titleHeight, width, height - titleHeight};
    auto maps = logitTermMaps(params, logitTermTexels(body, params.seqLen, theme));
    if (!maps) return maps.error();
    Figure figure = emptyFigure(width, height, theme);
    drawTitle(
        figure, {0, 0, width, titleHeight},
        "How position and meaning coexist: the logit of (word + position) vectors, term by term",
        theme);
    drawLogitTerms(figure, body, params, *maps, theme);
    return figure;
}

Result<std::vector<double>> nearOrthogonalityCosines(int dModel, int samples, std::uint64_t seed) {
    if (auto s = requireIntInRange("samples", samples, 1, 1000000); !s) return s.error();
    if (auto s = requireIntInRange("d_model", dModel, 2, kMaxDModel); !s) return s.error();
    // randomPositionCosines(dModel, 10000, n, 4096, seed), draw for draw: x ~ N(0, I) from
    // NormalSampler(seed), the position from mt19937_64(seed + 7), sequential dot products.
    SinusoidalParams p;
    p.dModel = dModel;
    p.base = 10000;
    const SinusoidalRows table(p);
    NormalSampler sampler(seed);
    std::mt19937_64 positions(seed + 7);
    const int n = nearOrthogonalitySamples(dModel, samples);
    std::vector<double> cosines(static_cast<std::size_t>(n));
    std::vector<double> x(static_cast<std::size_t>(dModel)), pe(x.size());
    auto dot = [&](const double* a, const double* b) {
        double sum = 0;
        for (std::size_t k = 0; k < x.size(); ++k) sum += a[k] * b[k];
        return sum;
    };
    for (double& c : cosines) {
        for (double& v : x) v = sampler.next();
        table.row(double(positions() % std::uint64_t(4096)), pe.data());
        c = dot(x.data(), pe.data()) /
            std::sqrt(dot(x.data(), x.data()) * dot(pe.data(), pe.data()));
    }
    return cosines;
}

Result<Figure> nearOrthogonalityFigure(int dModel, int samples, std::uint64_t seed, float width,
                                       float height, const Theme& theme) {
    // A prefix of the seeded stream: the first draws of exactly what was asked for.
    auto cosines = nearOrthogonalityCosines(dModel, samples, seed);
    if (!cosines) return cosines.error();
    const int drawn = int(cosines->size());
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(figure, {0, 0, width, titleHeight},
              "Near-orthogonality: random word vectors against sinusoidal position vectors", theme);
    drawNearOrthogonality(figure, {0, titleHeight, width, height - titleHeight}, dModel,
                          makeHistogram(*cosines, 100, -1, 1), theme, drawn, samples);
    return figure;
}

Result<Figure> addVersusConcatFigure(const MeaningParams& params, float width, float height,
                                     const Theme& theme) {
    const float titleHeight = theme.titleSize * 1.8f;
    const Box body{0, titleHeight, width, height - titleHeight};
    const AddConcatLayout layout = addConcatLayout(body);
    const Box& column = layout.columns[0];
    const int texels =
        heatmapTexels({column.x, column.y, column.width, column.height - layout.textHeight},
                      params.seqLen, theme);
    auto maps = logitTermMaps(params, texels);
    if (!maps) return maps.error();
    auto recovery = sampledRecoveryError(params, recoveryQueries(params.seqLen, params.dModel));
    if (!recovery) return recovery.error();
    Figure figure = emptyFigure(width, height, theme);
    drawTitle(figure, {0, 0, width, titleHeight}, "Adding or concatenating the position vector",
              theme);
    drawAddVersusConcat(figure, body, params, *maps, *recovery, theme);
    return figure;
}

// ---------------------------------------------------------------------------------------------
// Intuitions
// ---------------------------------------------------------------------------------------------

void drawBinaryClock(Figure& figure, Box area, const BinaryClockOptions& options,
                     const Theme& theme) {
    const int bits = std::clamp(options.bits, 1, 12);
    const int positions = std::clamp(options.positions, 2, 4096);
    const Box left{area.x, area.y, std::floor(area.width * 0.22f), area.height};
    const Box middle{left.right() + 6, area.y, std::floor(area.width * 0.25f), area.height};
    const Box right{middle.right() + 10, area.y, area.right() - middle.right() - 10, area.height};

    HeatmapSpec binary = matrixSpec("bits of the position", binaryTable(positions, bits).value(),
                                    left, ColormapId::Cividis, {0, 1});
    binary.x.label = "bit (fastest first)";
    binary.y.label = "position";
    binary.colorbarLabel = "bit";
    drawHeatmap(figure, left, binary, theme);

    SinusoidalParams table = options.sinusoidal;
    table.seqLen = positions;
    SinusoidalHeatmapOptions heatmap;
    heatmap.window = {0, positions, 0, std::min<long long>(table.dModel, 2LL * bits + 8)};
    HeatmapSample sample = sinusoidalSampleForArea(table, heatmap.window, middle);
    HeatmapSpec spec;
    spec.title = "sinusoidal dims (fastest first)";
    spec.x = {"dimension", 0, double(heatmap.window.colCount), false, true};
    spec.y = {"position", 0, double(positions), false, true};
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = {-1, 1};
    spec.colorbarLabel = "value";
    drawHeatmap(figure, middle, spec, theme);

    const float gap = 4;
    const int shown = std::min(bits, 6);
    const int curvePositions = std::min(positions, 64);
    for (int b = 0; b < shown; ++b) {
        const Box cell = gridCell(right, shown, 1, b, 0, gap);
        const double period = std::ldexp(1.0, b + 1);
        const int k = nearestFrequencyIndex(table, period);
        const double wavelength =
            k >= 0 ? kTwoPi / sinusoidalFrequencies(table)[std::size_t(k)] : 0;
        LinePlotSpec curves;
        curves.title = "bit " + std::to_string(b) + ": period " + formatValue(period) +
                       (k >= 0 ? "; nearest PE pair " + std::to_string(k) + " has wavelength " +
                                     formatValue(wavelength, 3)
                               : "");
        curves.x = {b == shown - 1 ? "position" : "", 0, double(curvePositions)};
        curves.y = {"", -1.3, 1.3};
        curves.autoRangeY = false;
        curves.legend = b == 0;
        LineSeries square, smooth;
        square.name = "2·bit − 1";
        smooth.name = "sinusoid, same period";
        // Steps: a point where each run of equal bits starts and ends, none in between.
        for (int p = 0; p < curvePositions; ++p) {
            const double v = 2.0 * positionBit(p, b) - 1;
            if (p == 0 || positionBit(p - 1, b) != positionBit(p, b)) {
                square.x.push_back(p), square.y.push_back(v);
            }
            if (p + 1 == curvePositions || positionBit(p + 1, b) != positionBit(p, b)) {
                square.x.push_back(p + 1), square.y.push_back(v);
            }
        }
        const int samples = std::clamp(int(cell.width), 64, 1024);
        for (int i = 0; i <= samples; ++i) {
            const double p = double(curvePositions) * i / samples;
            smooth.x.push_back(p), smooth.y.push_back(bitSinusoid(p - 0.5, b));
        }
        curves.series = {square, smooth};
        Theme small = theme;
        small.titleSize = theme.fontSize;
        drawLinePlot(figure, cell, curves, small);
    }
}

namespace {

// T_k's non-zero entries, row by row (at most two a row), built as shiftMatrix builds the dense
// matrix: each sine column with its cosine partner forms one 2x2 rotation by w k.
using SparseRows = std::vector<std::vector<std::pair<int, double>>>;
SparseRows sparseShift(const SinusoidalParams& params, double shift) {
    const int d = params.dModel;
    std::vector<int> sineColumn, cosineColumn;
    std::vector<double> frequency;
    for (int c = 0; c < d; ++c) {
        const SinusoidalColumn wave = sinusoidalColumn(params, c);
        if (wave.isZero) continue;
        const std::size_t index = std::size_t(wave.frequencyIndex);
        if (index >= frequency.size()) {
            frequency.resize(index + 1, 0);
            sineColumn.resize(index + 1, -1);
            cosineColumn.resize(index + 1, -1);
        }
        frequency[index] = wave.frequency;
        (wave.isCosine ? cosineColumn : sineColumn)[index] = c;
    }
    SparseRows rows(std::size_t(std::max(d, 0)));
    for (std::size_t k = 0; k < frequency.size(); ++k) {
        const double c = std::cos(frequency[k] * shift), s = std::sin(frequency[k] * shift);
        const int si = sineColumn[k], ci = cosineColumn[k];
        if (si >= 0 && ci >= 0) {
            rows[std::size_t(si)] = {{si, c}, {ci, s}};
            rows[std::size_t(ci)] = {{si, -s}, {ci, c}};
        } else if (si >= 0) {
            rows[std::size_t(si)] = {{si, c}};  // the lone sine: the best this row can do
        }
    }
    // Entries in column order, as a dense row scan would visit them.
    for (auto& row : rows) std::sort(row.begin(), row.end());
    return rows;
}

std::vector<double> applySparse(const SparseRows& rows, const std::vector<double>& v) {
    std::vector<double> out(rows.size(), 0.0);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        double sum = 0;
        for (const auto& [c, w] : rows[r]) {
            if (w != 0) sum += w * v[std::size_t(c)];
        }
        out[r] = sum;
    }
    return out;
}

}  // namespace

Result<SampledShiftCheck> sampledShiftCheck(const SinusoidalParams& params, double shift,
                                            int positions, int samples) {
    // shiftMatrix's checks, then checkShift's.
    if (auto s = requireIntInRange("d_model", params.dModel, 1, kMaxDModel); !s) return s.error();
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s.error();
    if (auto s = requireFinite("shift", shift); !s) return s.error();
    if (auto s = requireIntInRange("positions", positions, 1, kMaxSeqLen); !s) return s.error();
    const SparseRows rows = sparseShift(params, shift);
    const std::size_t d = std::size_t(params.dModel);
    SampledShiftCheck check;
    check.checkedOf = positions;
    check.positions = evenlySpaced(positions, std::max(2, samples));
    check.residual.resize(check.positions.size());
    const SinusoidalRows table(params);
    std::vector<double> now(d), later(d);
    for (std::size_t s = 0; s < check.positions.size(); ++s) {
        const int p = check.positions[s];
        table.row(p, now.data());
        table.row(p + shift, later.data());
        double worst = 0;
        int worstColumn = 0;
        for (std::size_t r = 0; r < d; ++r) {
            double value = 0;
            for (const auto& [c, w] : rows[r]) {
                if (w != 0) value += w * now[std::size_t(c)];
            }
            const double error = std::abs(value - later[r]);
            if (error > worst) worst = error, worstColumn = int(r);
        }
        check.residual[s] = worst;
        if (worst > check.maxResidual) {
            check.maxResidual = worst;
            check.worstPosition = p;
            check.worstColumn = worstColumn;
        }
    }
    return check;
}

Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const SampledShiftCheck& check, const Theme& theme) {
    // T_k stays sparse: dense, it is d x d (512 MB at d = 8192) for a corner and a product.
    if (auto s = requireIntInRange("d_model", options.sinusoidal.dModel, 1, kMaxDModel); !s)
        return s;
    if (auto s = requireInRange("base", options.sinusoidal.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireFinite("shift", options.shift); !s) return s;
    const SparseRows t = sparseShift(options.sinusoidal, options.shift);
    const int d = options.sinusoidal.dModel;
    const int shown = std::clamp(options.shownDims, 2, d);
    const Box top{area.x, area.y, area.width, std::floor(area.height * 0.58f)};
    const Box bottom{area.x, top.bottom() + 8, area.width, area.bottom() - top.bottom() - 8};
    const Box matrixBox{top.x, top.y, std::min(top.height + 90, std::floor(top.width * 0.42f)),
                        top.height};
    const Box vectorBox{matrixBox.right() + 10, top.y, top.right() - matrixBox.right() - 10,
                        top.height};

    // The corner's block means straight from the sparse rows (what matrixSpec would draw from
    // the dense corner, which at 8192 dims is 512 MB of mostly zeros).
    const long long rpt = cellsPerTexel(shown, std::max(1, int(matrixBox.height)));
    const long long cpt = cellsPerTexel(shown, std::max(1, int(matrixBox.width)));
    Matrix corner(std::size_t((shown + rpt - 1) / rpt), std::size_t((shown + cpt - 1) / cpt));
    for (int r = 0; r < shown; ++r) {
        for (const auto& [c, w] : t[std::size_t(r)]) {
            if (c < shown) corner(std::size_t(r / rpt), std::size_t(c / cpt)) += w;
        }
    }
    for (std::size_t u = 0; u < corner.rows; ++u) {
        const long long rows = std::min<long long>(rpt, shown - (long long)u * rpt);
        for (std::size_t v = 0; v < corner.cols; ++v) {
            const long long cols = std::min<long long>(cpt, shown - (long long)v * cpt);
            corner(u, v) /= double(rows * cols);
        }
    }
    HeatmapSpec spec;
    spec.title =
        "T_k for k = " + formatValue(options.shift) +
        (shown < d ? " (first " + std::to_string(shown) + " of " + std::to_string(d) + " dims)"
                   : "");
    spec.x = {"", 0, double(shown), false, true};
    spec.y = {"", 0, double(shown), false, true};
    if (rpt > 1 || cpt > 1) {
        spec.valuesRowSpan = double((long long)corner.rows * rpt);
        spec.valuesColSpan = double((long long)corner.cols * cpt);
    }
    spec.values = share(std::move(corner));
    spec.version = nextMatrixVersion();
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = {-1, 1};
    spec.x.label = "input dimension";
    spec.y.label = "output dimension";
    spec.colorbarLabel = "entry";
    if (rpt > 1 || cpt > 1) {
        spec.colorbarLabel +=
            ", mean of " + std::to_string(rpt) + " x " + std::to_string(cpt) + " entries";
    }
    drawHeatmap(figure, matrixBox, spec, theme);

    std::vector<double> now(static_cast<std::size_t>(d)), later(now.size());
    sinusoidalRow(options.sinusoidal, options.position, now.data());
    sinusoidalRow(options.sinusoidal, options.position + options.shift, later.data());
    const std::vector<double> moved = applySparse(t, now);
    LinePlotSpec vectors;
    vectors.title = "T_k · PE(" + std::to_string(options.position) + ") lands on PE(" +
                    formatValue(options.position + options.shift) + ")";
    vectors.x = {"dimension", -0.5, double(shown) - 0.5};
    vectors.y = {"value", -1.15, 1.15};
    vectors.autoRangeY = false;
    LineSeries before, target, result;
    before.name = "PE(p)";
    target.name = "PE(p + k)";
    result.name = "T_k · PE(p)";
    // At most two points per pixel column (the min and max there) and markers only while they
    // stay apart: 8192 dims are not 8192 circles.
    const int vectorPixels = std::max(16, int(vectorBox.width) - 80);
    std::vector<double> dims(static_cast<std::size_t>(shown));
    for (int c = 0; c < shown; ++c) dims[std::size_t(c)] = c;
    auto shownPart = [&](const std::vector<double>& v) {
        return std::vector<double>(v.begin(), v.begin() + shown);
    };
    envelope(dims, shownPart(now), -0.5, shown - 0.5, vectorPixels, before.x, before.y);
    envelope(dims, shownPart(later), -0.5, shown - 0.5, vectorPixels, target.x, target.y);
    envelope(dims, shownPart(moved), -0.5, shown - 0.5, vectorPixels, result.x, result.y);
    before.color = theme.mutedText;
    before.width = 1.2f;
    target.width = 5;
    target.color = withAlpha(seriesColor(1), 160);
    result.markers = shown * 6 <= vectorPixels;
    result.color = seriesColor(0);
    vectors.series = {before, target, result};
    drawLinePlot(figure, vectorBox, vectors, theme);

    LinePlotSpec residual;
    const std::string which = check.everyPosition()
                                  ? "for every p"
                                  : "at " + std::to_string(check.positions.size()) +
                                        " evenly spaced p of " + std::to_string(check.checkedOf);
    residual.title = "residual max_c |T_k·PE(p) − PE(p+k)| " + which + ": largest " +
                     formatValue(check.maxResidual, 3) +
                     " (at p = " + std::to_string(check.worstPosition) + ", dim " +
                     std::to_string(check.worstColumn) + ")";
    residual.x = {"position p", 0, double(std::max(check.checkedOf, 2) - 1)};
    residual.y = {"residual", 1e-18, 10, true};
    residual.autoRangeY = false;
    LineSeries r;
    r.name = "";
    r.markers = check.positions.size() == 1;
    const int pixels = std::max(16, int(bottom.width) - 80);
    std::vector<double> xs(check.residual.size()), ys(check.residual.size());
    for (std::size_t p = 0; p < check.residual.size(); ++p) {
        xs[p] = double(check.positions[p]);
        ys[p] = std::max(check.residual[p], 1e-18);
    }
    envelope(xs, ys, residual.x.low, residual.x.high, pixels, r.x, r.y);
    residual.series = {r};
    Marker epsilon;
    epsilon.vertical = false;
    epsilon.value = 2.220446049250313e-16;
    epsilon.label = "double epsilon";
    epsilon.color = theme.mutedText;
    residual.markers = {epsilon};
    residual.legend = false;
    drawLinePlot(figure, bottom, residual, theme);
    return success();
}

Result<Figure> binaryClockFigure(const BinaryClockOptions& options, float width, float height,
                                 const Theme& theme) {
    if (auto s = requireIntInRange("bits", options.bits, 1, 12); !s) return s.error();
    if (auto s = requireIntInRange("positions", options.positions, 2, 4096); !s) return s.error();
    SinusoidalParams check = options.sinusoidal;
    check.seqLen = options.positions;
    if (auto s = validate(check); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(
        figure, {0, 0, width, titleHeight},
        "Sinusoids as a smooth binary clock: each bit flips twice as slowly as the one before",
        theme);
    drawBinaryClock(figure, {0, titleHeight, width, height - titleHeight}, options, theme);
    return figure;
}

Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme) {
    auto check = sampledShiftCheck(options.sinusoidal, options.shift, options.positions);
    if (!check) return check.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(figure, {0, 0, width, titleHeight},
              "Linear shift: one block-diagonal matrix T_k moves every PE(p) to PE(p + k)", theme);
    if (auto s = drawLinearShift(figure, {0, titleHeight, width, height - titleHeight}, options,
                                 *check, theme);
        !s) {
        return s.error();
    }
    return figure;
}

// ---------------------------------------------------------------------------------------------
// Extrapolation
// ---------------------------------------------------------------------------------------------

Status validate(const ExtrapolationOptions& o) {
    if (auto s = requireIntInRange("training_length", o.trainingLength, 2, 65536); !s) return s;
    if (auto s = requireIntInRange("evaluation_length", o.evaluationLength, o.trainingLength + 1,
                                   262144);
        !s)
        return s;
    if (auto s = requireIntInRange("d_model", o.dModel, 2, 1024); !s) return s;
    if (auto s = requireIntInRange("head_dim", o.headDim, 4, 1024); !s) return s;
    if (o.headDim % 2 != 0)
        return Error{"head_dim must be even (got " + std::to_string(o.headDim) + ")"};
    if (auto s = requireInRange("base", o.ropeBase, 1.0, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("alibi_heads", o.alibiHeads, 1, kMaxAlibiHeads); !s) return s;
    T5Params t5;
    t5.numBuckets = o.t5Buckets;
    t5.maxDistance = o.t5MaxDistance;
    t5.bidirectional = false;
    return validate(t5);
}

namespace {

// The learned table (rows 0..seqLen-1) shown over `positions` rows, the rows past it masked, as
// block means at most one per pixel of `area`, as matrixSpec would draw the extended matrix. The
// rows are drawn from the table's sampler one at a time into the texel sums: no seqLen x d table
// (512 MB at 65536 x 1024) and no positions x d extension (2 GB) is ever held.
HeatmapSpec learnedPastTheTable(const LearnedParams& params, int positions, Box area) {
    const long long rpt = cellsPerTexel(positions, std::max(1, int(area.height)));
    const long long cpt = cellsPerTexel(params.dModel, std::max(1, int(area.width)));
    const std::size_t texelRows = std::size_t((positions + rpt - 1) / rpt);
    const std::size_t texelCols = std::size_t((params.dModel + cpt - 1) / cpt);
    Matrix sums(texelRows, texelCols);
    NormalSampler sampler(params.seed);  // learnedTable's draws, row by row
    for (int r = 0; r < params.seqLen; ++r) {
        double* out = sums.row(std::size_t(r / rpt));
        for (int c = 0; c < params.dModel; ++c) out[c / cpt] += params.std * sampler.next();
    }
    for (std::size_t u = 0; u < texelRows; ++u) {
        const long long first = (long long)u * rpt;
        const long long rows = std::min<long long>(rpt, positions - first);
        // A texel with any row past the table is masked, as the mean over a -inf cell would be.
        const bool masked = first + rows > params.seqLen;
        for (std::size_t v = 0; v < texelCols; ++v) {
            const long long cols = std::min<long long>(cpt, params.dModel - (long long)v * cpt);
            sums(u, v) = masked ? -INFINITY : sums(u, v) / double(rows * cols);
        }
    }
    HeatmapSpec spec;
    spec.title = "Learned: undefined";
    spec.x = {"", 0, double(params.dModel), false, true};
    spec.y = {"", 0, double(positions), false, true};
    spec.values = share(std::move(sums));
    if (rpt > 1 || cpt > 1) {
        spec.valuesRowSpan = double((long long)texelRows * rpt);
        spec.valuesColSpan = double((long long)texelCols * cpt);
    }
    spec.version = nextMatrixVersion();
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = {-0.06, 0.06};
    return spec;
}

}  // namespace

Status drawExtrapolation(Figure& figure, Box area, const ExtrapolationOptions& o,
                         const Theme& theme) {
    if (auto s = validate(o); !s) return s;
    const int train = o.trainingLength, eval = o.evaluationLength;
    const float gap = 14;
    const float textFraction = 0.3f;
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const float textSize = theme.fontSize * 0.92f;

    // 1. Sinusoidal: the formula continues.
    {
        const PlotAndText cell = splitCell(gridCell(area, 2, 3, 0, 0, gap), textFraction);
        SinusoidalParams p{o.dModel, eval, 10000, SinusoidalLayout::Interleaved};
        SinusoidalHeatmapOptions options;
        options.trainingLength = train;
        HeatmapSample sample = sinusoidalSampleForArea(p, {}, cell.plot);
        HeatmapSpec spec;
        spec.title = "Sinusoidal: continues";
        spec.x = {"dimension", 0, double(p.dModel), false, true};
        spec.y = {"position", 0, double(eval), false, true};
        spec.values = sample.values;
        spec.version = sample.version;
        spec.valuesRowSpan = sample.rowSpan;
        spec.valuesColSpan = sample.colSpan;
        spec.colormap = ColormapId::BlueWhiteRed;
        spec.range = {-1, 1};
        spec.markers.push_back(trainingMarker(train, false, theme, "trained"));
        drawHeatmap(figure, cell.plot, spec, small);
        drawParagraph(
            figure, cell.text,
            "The formula gives a vector for every position, so rows past training exist and "
            "stay bounded. But the model never saw them: later layers may misread the new "
            "combinations, and in practice quality drops.",
            theme, textSize);
    }
    // 2. Learned: no rows exist.
    {
        const PlotAndText cell = splitCell(gridCell(area, 2, 3, 0, 1, gap), textFraction);
        LearnedParams p;
        p.seqLen = train;
        p.dModel = o.dModel;
        HeatmapSpec spec = learnedPastTheTable(p, eval, cell.plot);
        spec.x.label = "dimension";
        spec.y.label = "position";
        spec.showMaskedLegend = true;
        spec.markers.push_back(trainingMarker(train, false, theme, "table ends"));
        drawHeatmap(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text,
                      "One trained vector per position (an embedding table): rows past the table "
                      "simply do not exist. BERT and GPT-2 cannot read a longer sequence at all "
                      "without new rows.",
                      theme, textSize);
    }
    // 3. RoPE: angles per pair, seen in training or new.
    RopeParams rope;
    rope.headDim = o.headDim;
    rope.base = o.ropeBase;
    rope.trainingLength = train;
    rope.seqLen = eval;
    const RopeFrequencies plain = unscaledFrequencies(rope).value();
    const int pairs = int(plain.inverse.size());
    {
        const PlotAndText cell = splitCell(gridCell(area, 2, 3, 0, 2, gap), textFraction);
        LinePlotSpec spec;
        spec.title = "RoPE: slow pairs reach new angles";
        spec.x = {"pair i (fast → slow)", 0, double(pairs - 1)};
        spec.y = {"largest angle (rad)", 1e-3, 1e6, true};
        spec.autoRangeY = false;
        LineSeries seen, now;
        seen.name = "seen in training (L = " + std::to_string(train) + ")";
        now.name = "used at L = " + std::to_string(eval);
        for (int i = 0; i < pairs; ++i) {
            seen.x.push_back(i), seen.y.push_back(plain.inverse[std::size_t(i)] * (train - 1));
            now.x.push_back(i), now.y.push_back(plain.inverse[std::size_t(i)] * (eval - 1));
        }
        seen.color = theme.text;
        now.color = theme.accent;
        spec.series = {seen, now};
        Marker turn;
        turn.vertical = false;
        turn.value = kTwoPi;
        turn.label = "2π: one full turn";
        turn.color = theme.mutedText;
        spec.markers = {turn};
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(
            figure, cell.text,
            "Each pair turns by θ_i per position. Fast pairs complete many turns in training, "
            "so every angle is familiar; pairs below 2π never closed their circle, and past "
            "training they reach angles the model has never seen.",
            theme, textSize);
    }
    // 4. RoPE with each scaling, factor eval / train.
    {
        const PlotAndText cell = splitCell(gridCell(area, 2, 3, 1, 0, gap), textFraction);
        const double factor = double(eval) / train;
        LinePlotSpec spec;
        spec.title = "RoPE scalings at factor " + formatValue(factor, 3);
        spec.x = {"pair i (fast → slow)", 0, double(pairs - 1)};
        spec.y = {"angle at L ÷ angle seen", 0.05, 20, true};
        spec.autoRangeY = false;
        const RopeScaling types[] = {RopeScaling::None, RopeScaling::Linear, RopeScaling::Ntk,
                                     RopeScaling::Yarn, RopeScaling::Llama3};
        int index = 0;
        for (RopeScaling type : types) {
            RopeParams scaled = rope;
            scaled.scaling.type = type;
            scaled.scaling.factor = type == RopeScaling::None ? 1 : factor;
            scaled.scaling.originalMaxPositions = train;
            auto freqs = ropeFrequencies(scaled);
            LineSeries series;
            series.name = std::string(scalingName(type));
            series.color = seriesColor(index++);
            if (!freqs) continue;
            for (int i = 0; i < pairs; ++i) {
                const double seenAngle = plain.inverse[std::size_t(i)] * (train - 1);
                // Only pairs that never closed a turn are at risk; others get a ratio for
                // reference.
                series.x.push_back(i);
                series.y.push_back(freqs->inverse[std::size_t(i)] * (eval - 1) / seenAngle);
            }
            spec.series.push_back(std::move(series));
        }
        Marker one;
        one.vertical = false;
        one.value = 1;
        one.label = "1: no new angles";
        one.color = theme.mutedText;
        spec.markers = {one};
        // Pairs that complete a turn in training are on the left of this line.
        int firstIncomplete = pairs;
        for (int i = 0; i < pairs; ++i) {
            if (plain.inverse[std::size_t(i)] * (train - 1) < kTwoPi) {
                firstIncomplete = i;
                break;
            }
        }
        if (firstIncomplete < pairs) {
            Marker incomplete;
            incomplete.value = firstIncomplete;
            incomplete.label = "< one turn in training";
            incomplete.color = theme.accent;
            incomplete.shadeBeyond = true;
            spec.markers.push_back(incomplete);
        }
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(
            figure, cell.text,
            "Above 1 in the shaded pairs means unseen angles. Linear (position interpolation) "
            "divides every frequency by s: nothing new, but neighbours get squeezed. NTK, YaRN "
            "and Llama 3 keep the fast pairs and stretch only the slow ones.",
            theme, textSize);
    }
    // 5. ALiBi: a linear penalty, defined at every distance.
    {
        const PlotAndText cell = splitCell(gridCell(area, 2, 3, 1, 1, gap), textFraction);
        const std::vector<double> slopes = alibiSlopes(o.alibiHeads);
        LinePlotSpec spec;
        spec.title = "ALiBi: keeps working";
        spec.x = {"distance i − j", 0, double(eval)};
        spec.y = {"bias added to the logit", -1, 0};
        const int shown = std::min<int>(int(slopes.size()), 4);
        for (int h = 0; h < shown; ++h) {
            const std::size_t head = std::size_t(h * std::max<int>(1, int(slopes.size()) / shown));
            LineSeries series;
            series.name = "head " + std::to_string(head) + ", m = " + formatValue(slopes[head], 3);
            series.x = {0, double(eval)};
            series.y = {0, -slopes[head] * eval};
            spec.series.push_back(series);
        }
        spec.y.low = -slopes.front() * eval * 0.25;  // the steep heads leave the plot: on purpose
        spec.y.high = 0.02 * slopes.front() * eval;
        spec.autoRangeY = false;
        spec.markers.push_back(trainingMarker(train, true, theme));
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(
            figure, cell.text,
            "No position vectors: each head adds −m·distance to the logit. The rule is "
            "defined at any distance, and far keys are pushed so low that softmax ignores "
            "them: a longer text looks like a familiar window to every head.",
            theme, textSize);
    }
    // 6. T5: everything far shares the last bucket.
    {
        const PlotAndText cell = splitCell(gridCell(area, 2, 3, 1, 2, gap), textFraction);
        LinePlotSpec spec;
        spec.title = "T5 buckets: keep working";
        spec.x = {"distance i − j", 0, double(eval)};
        spec.y = {"bucket", 0, double(o.t5Buckets)};
        spec.autoRangeY = false;
        spec.y.high = o.t5Buckets;
        spec.y.low = -1;
        LineSeries buckets;
        buckets.name = std::to_string(o.t5Buckets) + " buckets, max distance " +
                       std::to_string(o.t5MaxDistance);
        const int samples = std::min(eval, 4 * std::max(64, int(cell.plot.width)));
        int last = -1;
        for (int s = 0; s <= samples; ++s) {
            const int distance = int(std::llround(double(eval) * s / samples));
            const int bucket =
                t5RelativePositionBucket(-distance, false, o.t5Buckets, o.t5MaxDistance);
            if (bucket != last && last >= 0)
                buckets.x.push_back(distance), buckets.y.push_back(last);
            buckets.x.push_back(distance), buckets.y.push_back(bucket);
            last = bucket;
        }
        spec.series = {buckets};
        spec.markers.push_back(trainingMarker(train, true, theme));
        Marker far;
        far.value = o.t5MaxDistance;
        far.label = "max distance";
        far.color = theme.mutedText;
        spec.markers.push_back(far);
        drawLinePlot(figure, cell.plot, spec, small);
        drawParagraph(figure, cell.text,
                      "A learned bias per bucket of distance, with logarithmic buckets and every "
                      "distance beyond max_distance in the last one. Any length maps onto buckets "
                      "seen in training — at the price of not telling 200 from 2000 apart.",
                      theme, textSize);
    }
    return success();
}

Result<Figure> extrapolationFigure(const ExtrapolationOptions& options, float width, float height,
                                   const Theme& theme) {
    if (auto s = validate(options); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(figure, {0, 0, width, titleHeight},
              "Past the training length (" + std::to_string(options.trainingLength) + " → " +
                  std::to_string(options.evaluationLength) + " positions): what each encoding does",
              theme);
    if (auto s = drawExtrapolation(figure, {0, titleHeight, width, height - titleHeight}, options,
                                   theme);
        !s) {
        return s.error();
    }
    return figure;
}

// ---------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------

Status validate(const CompareOptions& o) {
    if (auto s = requireIntInRange("d_model", o.dModel, 4, 1024); !s) return s;
    if (o.dModel % 2 != 0)
        return Error{"d_model must be even (got " + std::to_string(o.dModel) + ")"};
    if (auto s = requireIntInRange("seq_len", o.seqLen, 2, 2048); !s) return s;
    if (auto s = requireInRange("base", o.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("alibi_heads", o.alibiHeads, 1, kMaxAlibiHeads); !s) return s;
    T5Params t5;
    t5.numBuckets = o.t5Buckets;
    t5.maxDistance = o.t5MaxDistance;
    t5.seqLen = o.seqLen;
    return validate(t5);
}

Status drawComparison(Figure& figure, Box area, const CompareOptions& o, const Theme& theme) {
    if (auto s = validate(o); !s) return s;
    const int L = o.seqLen, d = o.dModel;
    const Box top{area.x, area.y, area.width, std::floor(area.height * 0.52f)};
    const Box bottom{area.x, top.bottom() + 12, area.width, area.bottom() - top.bottom() - 12};
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const float gap = 10;

    // Vector encodings and their similarity curves.
    SimilarityParams sin;
    sin.seqLen = L;
    sin.sinusoidal.dModel = d;
    sin.sinusoidal.base = o.base;
    SimilarityParams learned = sin;
    learned.encoding = SimilarityEncoding::Learned;
    learned.learned.dModel = d;
    learned.learned.seed = o.seed;
    SimilarityParams rope = sin;
    rope.encoding = SimilarityEncoding::Rope;
    rope.rope.headDim = d;
    rope.rope.base = o.base;
    rope.rope.trainingLength = L;

    {
        const Box cell = gridCell(top, 1, 5, 0, 0, gap);
        SinusoidalParams p{d, L, o.base, SinusoidalLayout::Interleaved};
        HeatmapSpec spec = matrixSpec("Sinusoidal: added vector", sinusoidalTable(p).value(), cell,
                                      ColormapId::BlueWhiteRed, {-1, 1});
        spec.x.label = "dimension";
        spec.y.label = "position";
        drawHeatmap(figure, cell, spec, small);
    }
    {
        const Box cell = gridCell(top, 1, 5, 0, 1, gap);
        const Matrix table = similarityTable(learned).value();
        HeatmapSpec spec = matrixSpec("Learned (initial): added vector", table, cell,
                                      ColormapId::BlueWhiteRed, symmetricRange(table));
        spec.x.label = "dimension";
        spec.y.label = "position";
        drawHeatmap(figure, cell, spec, small);
    }
    {
        const Box cell = gridCell(top, 1, 5, 0, 2, gap);
        RopeParams p = rope.rope;
        p.seqLen = L;
        const RopeFrequencies freqs = ropeFrequencies(p).value();
        HeatmapSpec spec = matrixSpec("RoPE: rotation angle", ropeAngleTable(freqs, L).value(),
                                      cell, ColormapId::Twilight, {0, kTwoPi});
        spec.x.label = "pair";
        spec.y.label = "position";
        drawHeatmap(figure, cell, spec, small);
    }
    AlibiParams alibi;
    alibi.heads = o.alibiHeads;
    alibi.seqLen = L;
    {
        const Box cell = gridCell(top, 1, 5, 0, 3, gap);
        const Matrix bias = alibiBias(alibi).value();
        HeatmapSpec spec = matrixSpec("ALiBi head 0: logit bias", bias, cell, ColormapId::Viridis,
                                      finiteRange(bias));
        spec.x.label = "key";
        spec.y.label = "query";
        spec.showMaskedLegend = true;
        drawHeatmap(figure, cell, spec, small);
    }
    T5Params t5;
    t5.seqLen = L;
    t5.numBuckets = o.t5Buckets;
    t5.maxDistance = o.t5MaxDistance;
    const std::vector<double> bucketBiases = seededBucketBiases(o.t5Buckets, o.seed);
    const Matrix t5Bias = t5BiasMatrix(t5, bucketBiases).value();
    {
        const Box cell = gridCell(top, 1, 5, 0, 4, gap);
        HeatmapSpec spec = matrixSpec("T5 (random buckets): logit bias", t5Bias, cell,
                                      ColormapId::BlueWhiteRed, symmetricRange(t5Bias));
        spec.x.label = "key";
        spec.y.label = "query";
        drawHeatmap(figure, cell, spec, small);
    }

    // What a query in the middle sees.
    const int query = L / 2;
    LinePlotSpec similarity;
    similarity.title =
        "Vector encodings: cosine similarity to the query at " + std::to_string(query);
    similarity.x = {"offset j − i", double(-query), double(L - 1 - query)};
    similarity.y = {"cosine", -1.05, 1.85};  // headroom: the legend sits above the curves
    similarity.autoRangeY = false;
    const std::pair<const char*, const SimilarityParams*> vectorEncodings[] = {
        {"sinusoidal", &sin},
        {"learned (initial)", &learned},
        {"RoPE, E over q = k (same curve!)", &rope}};
    for (const auto& [name, params] : vectorEncodings) {
        LineSeries series;
        series.name = name;
        // The sinusoidal and expected RoPE curves coincide (both are sum_k cos(w_k r) / (d/2)):
        // the sinusoidal one is drawn wide underneath so both stay visible.
        if (params == &sin) series.width = 6, series.color = withAlpha(seriesColor(0), 150);
        if (params == &learned)
            series.markers = true;  // the exact 1 at offset 0 survives line joins
        if (params->encoding == SimilarityEncoding::Learned) {
            // One row of the Gram matrix: O(L d), not the whole O(L^2 d) matrix.
            const Matrix table = similarityTable(*params).value();
            auto norm = [&](int r) {
                double sum = 0;
                for (int k = 0; k < d; ++k) sum += table(r, k) * table(r, k);
                return std::sqrt(sum);
            };
            for (int j = 0; j < L; ++j) {
                double dot = 0;
                for (int k = 0; k < d; ++k) dot += table(query, k) * table(j, k);
                series.x.push_back(j - query), series.y.push_back(dot / (norm(query) * norm(j)));
            }
        } else {
            const OffsetSimilarity offsets = offsetSimilarity(*params).value();
            for (int j = 0; j < L; ++j)
                series.x.push_back(j - query), series.y.push_back(offsets.at(query, j));
        }
        similarity.series.push_back(series);
    }
    drawLinePlot(figure, gridCell(bottom, 1, 2, 0, 0, 16), similarity, small);

    LinePlotSpec biases;
    biases.title = "Bias encodings: added to the logit of the query at " + std::to_string(query);
    biases.x = similarity.x;
    // Fixed range: T5's values (about +-2) stay readable; ALiBi's steep head leaves through the
    // bottom, which is its point: far keys are pushed out of reach.
    biases.y = {"bias", -10, 3.5};
    biases.autoRangeY = false;
    LineSeries alibiSeries, t5Series;
    alibiSeries.name = "ALiBi head 0 (causal: future masked)";
    t5Series.name = "T5 (bidirectional, random bucket values)";
    const double slope = alibiSlopes(o.alibiHeads).front();
    for (int j = 0; j < L; ++j) {
        alibiSeries.x.push_back(j - query);
        alibiSeries.y.push_back(j <= query ? -slope * (query - j) : NAN);
        t5Series.x.push_back(j - query);
        t5Series.y.push_back(t5Bias(std::size_t(query), std::size_t(j)));
    }
    alibiSeries.color = seriesColor(3);
    t5Series.color = seriesColor(5);
    biases.series = {alibiSeries, t5Series};
    drawLinePlot(figure, gridCell(bottom, 1, 2, 0, 1, 16), biases, small);
    return success();
}

Result<Figure> comparisonFigure(const CompareOptions& options, float width, float height,
                                const Theme& theme) {
    if (auto s = validate(options); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(figure, {0, 0, width, titleHeight},
              "Every encoding at d = " + std::to_string(options.dModel) + ", " +
                  std::to_string(options.seqLen) + " positions, base " +
                  formatValue(options.base, 6),
              theme);
    if (auto s =
            drawComparison(figure, {0, titleHeight, width, height - titleHeight}, options, theme);
        !s) {
        return s.error();
    }
    return figure;
}

Status drawAbComparison(Figure& figure, Box area, const RopeConfiguration& a,
                        const RopeConfiguration& b, int maxOffset, const Theme& theme) {
    // Offsets 0..K are positions 0..K: K + 1 <= kMaxSeqLen.
    if (auto s = requireIntInRange("max_offset", maxOffset, 2, kMaxSeqLen - 1); !s) return s;
    const RopeConfiguration* configs[2] = {&a, &b};
    RopeFrequencies freqs[2];
    std::vector<double> curves[2];
    // Every offset while there are at most 16 per pixel column of the figure, else an even grid
    // of that many (2^20 offsets at head_dim 8192 would be 2^32 terms per configuration).
    const long long maxPoints = 16LL * std::max(16, int(area.width));
    const long long step = (maxOffset + 1LL + maxPoints - 1) / maxPoints;
    const long long points = maxOffset / step + 1;
    for (int k = 0; k < 2; ++k) {
        RopeParams p = configs[k]->rope;
        p.seqLen = std::max(p.seqLen, maxOffset + 1);
        auto f = ropeFrequencies(p);
        if (!f) return Error{(k == 0 ? "A: " : "B: ") + f.error().message};
        freqs[k] = *f;
        SimilarityParams s;
        s.encoding = SimilarityEncoding::Rope;
        s.rope = configs[k]->rope;
        s.seqLen = maxOffset + 1;
        auto profile = offsetProfile(s);
        if (!profile) return Error{(k == 0 ? "A: " : "B: ") + profile.error().message};
        curves[k] = profileValues(*profile, 0, double(step), points);
    }
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const Box top{area.x, area.y, area.width, std::floor(area.height * 0.5f)};
    const Box bottom{area.x, top.bottom() + 10, area.width, area.bottom() - top.bottom() - 10};

    LinePlotSpec wavelengths;
    wavelengths.title = "Wavelength of each pair (positions per turn)";
    const std::size_t pairs = std::max(freqs[0].inverse.size(), freqs[1].inverse.size());
    wavelengths.x = {"pair index i (fast → slow)", 0, double(std::max<std::size_t>(pairs, 2) - 1)};
    wavelengths.y = {"wavelength", 1, 1e6, true};
    for (int k = 0; k < 2; ++k) {
        LineSeries series;
        series.name = configs[k]->label;
        const std::vector<double> w = ropeWavelengths(freqs[k]);
        for (std::size_t i = 0; i < w.size(); ++i)
            series.x.push_back(double(i)), series.y.push_back(w[i]);
        wavelengths.series.push_back(series);
    }
    for (int k = 0; k < 2; ++k) {
        Marker context;
        context.vertical = false;
        context.value = configs[k]->rope.trainingLength;
        context.label = (k == 0 ? "A" : "B") + std::string(" training length ") +
                        std::to_string(configs[k]->rope.trainingLength);
        context.color = seriesColor(k);
        wavelengths.markers.push_back(context);
    }
    drawLinePlot(figure, gridCell(top, 1, 2, 0, 0, 16), wavelengths, small);

    const int pixels = std::max(16, int(area.width / 2) - 80);
    std::vector<double> offsets(static_cast<std::size_t>(points));
    for (long long j = 0; j < points; ++j) offsets[std::size_t(j)] = double(j * step);
    const std::string spacing =
        step > 1 ? " (offsets " + std::to_string(step) + " apart)" : std::string();
    LinePlotSpec expected;
    expected.title = "Expected cosine of q_m·k_n (q = k random) against m − n" + spacing;
    expected.x = {"offset m − n", 0, double(maxOffset)};
    expected.y = {"cosine", -0.2, 1.05};
    for (int k = 0; k < 2; ++k) {
        LineSeries series;
        series.name = configs[k]->label;
        envelope(offsets, curves[k], 0, maxOffset, pixels, series.x, series.y);
        expected.series.push_back(series);
    }
    drawLinePlot(figure, gridCell(top, 1, 2, 0, 1, 16), expected, small);

    LinePlotSpec difference;
    difference.title = "Difference B − A of the expected cosine" + spacing;
    difference.x = expected.x;
    difference.y = {"B − A", -1, 1};
    LineSeries diff;
    diff.name = "B − A";
    std::vector<double> values(offsets.size());
    for (std::size_t r = 0; r < values.size(); ++r) values[r] = curves[1][r] - curves[0][r];
    envelope(offsets, values, 0, maxOffset, int(bottom.width) - 80, diff.x, diff.y);
    diff.color = theme.accent;
    difference.series = {diff};
    Marker zero;
    zero.vertical = false;
    zero.value = 0;
    zero.dashed = false;
    zero.color = theme.mutedText;
    difference.markers = {zero};
    difference.legend = false;
    drawLinePlot(figure, bottom, difference, small);
    return success();
}

Result<Figure> abComparisonFigure(const RopeConfiguration& a, const RopeConfiguration& b,
                                  int maxOffset, float width, float height, const Theme& theme) {
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(figure, {0, 0, width, titleHeight}, "RoPE A/B: " + a.label + "  vs  " + b.label,
              theme);
    if (auto s = drawAbComparison(figure, {0, titleHeight, width, height - titleHeight}, a, b,
                                  maxOffset, theme);
        !s) {
        return s.error();
    }
    return figure;
}

}  // namespace poslab
