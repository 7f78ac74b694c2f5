#include "poslab/views/learned_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Means over blocks of rows [0, rows) and all columns of `table` (NaN spreads to its block).
Matrix blockMeans(const Matrix& table, std::size_t rows, long long rowsPerTexel,
                  long long colsPerTexel) {
    const std::size_t rowGroup = std::size_t(rowsPerTexel), colGroup = std::size_t(colsPerTexel);
    const std::size_t outRows = (rows + rowGroup - 1) / rowGroup;
    const std::size_t outCols = (table.cols + colGroup - 1) / colGroup;
    Matrix out(outRows, outCols);
    for (std::size_t g = 0; g < outRows; ++g) {
        const std::size_t r0 = g * rowGroup, r1 = std::min(rows, r0 + rowGroup);
        double* o = out.row(g);
        for (std::size_t r = r0; r < r1; ++r) {
            const double* in = table.row(r);
            // Block by block (the same additions in the same order as o[c / colGroup] += in[c],
            // without a division per value).
            for (std::size_t k = 0, c0 = 0; c0 < table.cols; ++k, c0 += colGroup) {
                const std::size_t c1 = std::min(table.cols, c0 + colGroup);
                double sum = o[k];
                for (std::size_t c = c0; c < c1; ++c) sum += in[c];
                o[k] = sum;
            }
        }
        for (std::size_t k = 0; k < outCols; ++k) {
            const std::size_t c0 = k * colGroup, c1 = std::min(table.cols, c0 + colGroup);
            o[k] /= double((r1 - r0) * (c1 - c0));
        }
    }
    return out;
}

// "undefined: beyond the trained table" centred in `region` of a plot: on one line, on two, or
// not at all when the region is too small to hold it (the marker's own label remains).
void drawBeyondLabel(Figure& figure, Box region, const Theme& theme) {
    const float size = theme.fontSize;
    const float oneLine = estimateTextWidth(kBeyondTableLabel, size);
    const Point centre{region.x + region.width / 2, region.y + region.height / 2};
    if (region.width >= oneLine + 12 && region.height >= size * 1.6f) {
        figure.add(makeText(centre, kBeyondTableLabel, size, theme.text, HorizontalAlign::Center,
                            VerticalAlign::Middle));
    } else if (region.width >= estimateTextWidth("beyond the trained table", size) + 8 &&
               region.height >= size * 2.8f) {
        figure.add(makeText({centre.x, centre.y - 1}, "undefined:", size, theme.text,
                            HorizontalAlign::Center, VerticalAlign::Bottom));
        figure.add(makeText({centre.x, centre.y + 1}, "beyond the trained table", size, theme.text,
                            HorizontalAlign::Center, VerticalAlign::Top));
    }
}

Marker tableEndMarker(bool vertical, std::size_t rows, const std::string& text,
                      const Theme& theme) {
    Marker marker;
    marker.vertical = vertical;
    marker.value = double(rows);
    marker.label = text;
    marker.color = theme.accent;
    marker.shadeBeyond = true;
    marker.dashed = false;
    return marker;
}

int budget(float pixels) {
    return texelBudget(pixels);
}

// The legend's rows: one per curve, in drawLinePlot's series colours.
std::vector<LegendKey> legendKeys(const std::vector<LearnedCurve>& curves) {
    std::vector<LegendKey> keys;
    for (std::size_t k = 0; k < curves.size(); ++k)
        keys.push_back({"dim " + std::to_string(curves[k].dimension), seriesColor(int(k)), false});
    return keys;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Cosine similarity
// ---------------------------------------------------------------------------------------------

// Both from analysis/similarity (its learned tables' rule: unit rows, block means of them).
double cosineSimilarity(const Matrix& table, std::size_t a, std::size_t b) {
    return tableSimilarityAt(table, SimilarityMetric::Cosine, (long long)a, (long long)b);
}

HeatmapSample cosineSimilaritySample(const Matrix& table, long long positions, int maxTexels) {
    const long long n = std::clamp<long long>(positions, 1, std::max<long long>(1, table.rows));
    return tableSimilaritySample(table, SimilarityMetric::Cosine, {0, n, 0, n}, maxTexels,
                                 maxTexels);
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

Status validate(const LearnedFigureOptions& o) {
    if (!o.table || o.table->empty()) return Error{"the learned table is empty"};
    if (auto s = requireIntInRange("positions", o.positionsShown, 0, kMaxSeqLen); !s) return s;
    if (auto s = requireIntInRange("curves", o.curveCount, 1, 8); !s) return s;
    return requireIntInRange("first_dimension", o.firstCurveDimension, 0,
                             (long long)o.table->cols - 1);
}

int learnedPositionsShown(const LearnedFigureOptions& options) {
    if (options.positionsShown > 0) return options.positionsShown;
    return options.table ? int(std::min<std::size_t>(options.table->rows, kMaxSeqLen)) : 1;
}

std::string learnedSourceText(const LearnedParams& params) {
    return "seed " + std::to_string(params.seed) + ", std " + formatValue(params.std, 4);
}

Result<Matrix> learnedShownTable(const LearnedFigureOptions& options) {
    if (auto status = validate(options); !status) return status.error();
    const Matrix& table = *options.table;
    const std::size_t rows = std::size_t(learnedPositionsShown(options));
    if (auto s = checkMatrixSize(rows, table.cols, "the shown table"); !s) return s.error();
    Matrix shown(rows, table.cols, kNaN);
    const std::size_t copied = std::min(rows, table.rows);
    std::copy(table.values.begin(), table.values.begin() + std::ptrdiff_t(copied * table.cols),
              shown.values.begin());
    return shown;
}

// ---------------------------------------------------------------------------------------------
// Layout, data, drawing
// ---------------------------------------------------------------------------------------------

PanelGrid learnedPanels(Box area, const Theme& theme, int panel) {
    return reflowOrFocus(area, kLearnedPanels, theme, panel);
}

namespace {

// The cosine map's frame: its title, axes over `shown` positions, colours and caption.
HeatmapSpec cosineFrame(double shown) {
    HeatmapSpec cosine;
    cosine.title = "Cosine similarity between positions";
    cosine.squareCells = true;
    cosine.x = {"position", 0, shown, false, true};
    cosine.y = {"position", 0, shown, false, true};
    cosine.colormap = ColormapId::BlueWhiteRed;
    cosine.range = {-1, 1};
    cosine.colorbarLabel = "cosine";
    return cosine;
}

}  // namespace

int learnedCosineBudget(double pixels, bool cellResolution) {
    return std::max(texelBudget(pixels), cellResolution ? kLearnedVectorCosineTexels : 0);
}

LearnedLayout learnedLayout(Box area, const Theme& theme, int panel) {
    LearnedLayout layout;
    layout.area = area;
    layout.cellResolution = theme.cellResolution;
    PanelGrid panels = learnedPanels(area, theme, panel);
    // A one-column file: the cosine map's row as tall as makes it as wide as the column (its
    // axes measured at four-digit positions; the table itself is wide and fills any height).
    if (theme.panelRoom)
        panels = stackForPrint(
            panels, kLearnedPanels,
            {0, heatmapHeightForWidth(panels.cell(1).width, cosineFrame(1000), theme), 0}, theme);
    if (panels.columns != 2) {
        layout.table = panels.cell(0);
        layout.cosine = panels.cell(1);
        layout.curves = panels.cell(2);
        return layout;
    }
    const float topHeight = std::floor(area.height * 0.6f);
    const float tableWidth = std::floor(area.width * 0.54f);
    layout.table = {area.x, area.y, tableWidth, topHeight};
    layout.cosine = {area.x + tableWidth, area.y, area.width - tableWidth, topHeight};
    layout.curves = {area.x, area.y + topHeight, area.width, area.height - topHeight};
    return layout;
}

Result<LearnedFigureData> computeLearnedFigureData(const LearnedFigureOptions& options,
                                                   const LearnedLayout& layout) {
    if (auto status = validate(options); !status) return status.error();
    const Matrix& table = *options.table;
    const long long shown = learnedPositionsShown(options);
    const long long visible = std::min<long long>(shown, (long long)table.rows);
    // The table fills visible / shown of each position axis; the texel budgets shrink with it.
    const double fraction = double(visible) / double(shown);
    LearnedFigureData data;
    data.tableRows = table.rows;
    data.tableCols = table.cols;

    HeatmapSample& sample = data.table;
    sample.window = {0, visible, 0, (long long)table.cols};
    const bool cells = layout.cellResolution;
    sample.rowsPerTexel =
        cellsPerTexel(visible, texelBudget(layout.table.height * float(fraction), cells));
    sample.colsPerTexel =
        cellsPerTexel((long long)table.cols, texelBudget(layout.table.width, cells));
    auto texels = std::make_shared<Matrix>(
        blockMeans(table, std::size_t(visible), sample.rowsPerTexel, sample.colsPerTexel));
    sample.rowSpan = double(texels->rows) * double(sample.rowsPerTexel);
    sample.colSpan = double(texels->cols) * double(sample.colsPerTexel);
    sample.values = std::move(texels);
    sample.version = nextMatrixVersion();
    // The largest finite |value| and the rows with no direction (undefinedCosineRows' rule), in
    // one pass, counted in place: a copy of the visible rows would double the memory of a table
    // near the cap.
    double largest = 0;
    data.undefinedCosineRows = 0;
    for (std::size_t r = 0; r < std::size_t(visible); ++r) {
        const double* row = table.row(r);
        bool direction = false, finite = true;
        for (std::size_t k = 0; k < table.cols; ++k) {
            const bool isFinite = std::isfinite(row[k]);
            if (isFinite) largest = std::max(largest, std::abs(row[k]));
            finite = finite && isFinite;
            direction = direction || row[k] != 0;
        }
        data.undefinedCosineRows += !(finite && direction);
    }
    data.tableRange = {-(largest > 0 ? largest : 1), largest > 0 ? largest : 1};

    // Not shown (a panel shown alone, or the coarse data's own cosine): no texels, and no pass
    // that turns every row into a unit vector.
    if (layout.cosine.width > 0) {
        const float cosineSide = std::min(layout.cosine.width, layout.cosine.height);
        data.cosine = cosineSimilaritySample(
            table, visible,
            learnedCosineBudget(cosineSide * float(fraction), layout.cellResolution));
    }

    // Curves: at most one point per pixel of the visible part; each point the mean of its block.
    data.positionsPerPoint = cellsPerTexel(visible, budget(layout.curves.width * float(fraction)));
    const std::size_t group = std::size_t(data.positionsPerPoint);
    for (int k = 0; k < options.curveCount; ++k) {
        const std::size_t dimension = std::size_t(options.firstCurveDimension + k);
        if (dimension >= table.cols) break;
        LearnedCurve curve;
        curve.dimension = int(dimension);
        for (std::size_t r0 = 0; r0 < std::size_t(visible); r0 += group) {
            const std::size_t r1 = std::min(std::size_t(visible), r0 + group);
            double sum = 0;
            for (std::size_t r = r0; r < r1; ++r) sum += table(r, dimension);
            curve.x.push_back(group == 1 ? double(r0) : (double(r0) + double(r1 - 1)) / 2);
            curve.y.push_back(sum / double(r1 - r0));
        }
        data.curves.push_back(std::move(curve));
    }
    return data;
}

Result<LearnedFigureData> computeCoarseLearnedFigureData(const LearnedFigureOptions& options,
                                                         const LearnedLayout& layout,
                                                         long long maxValues) {
    if (auto status = validate(options); !status) return status.error();
    const Matrix& table = *options.table;
    const long long shown = learnedPositionsShown(options);
    const long long visible = std::min<long long>(shown, (long long)table.rows);
    const long long cols = (long long)table.cols;
    const long long stride =
        std::max(1LL, (visible * cols + maxValues - 1) / std::max(1LL, maxValues));
    // The strided rows as a table of their own, the same fraction of its axis undefined.
    const long long subRows = (visible + stride - 1) / stride;
    auto sub = std::make_shared<Matrix>(std::size_t(subRows), table.cols);
    for (long long i = 0; i < subRows; ++i)
        std::copy_n(table.row(std::size_t(i * stride)), table.cols, sub->row(std::size_t(i)));
    // Budgets as if the table filled its axes: the data then depend on the visible rows only,
    // not on how far past the table's end the view reaches, so a caller can keep them while
    // only that moves (the GUI's positions slider past the end).
    LearnedFigureOptions strided = options;
    strided.table = sub;
    strided.positionsShown = int(subRows);
    LearnedLayout smaller = layout;  // the cosine is sampled below, at its own few texels
    smaller.cosine.width = 0;
    auto made = computeLearnedFigureData(strided, smaller);
    if (!made) return made.error();
    LearnedFigureData data = std::move(made).value();
    // The cosine costs texels^2 x d: a fixed few texels a side, whatever the panel's size.
    if (layout.cosine.width > 0)
        data.cosine = cosineSimilaritySample(*sub, subRows, kLearnedCoarseCosineTexels);
    // Back to the table's positions.
    const double s = double(stride);
    data.table.window = {0, visible, 0, cols};
    data.table.rowsPerTexel *= stride;
    data.table.rowSpan *= s;
    data.cosine.window = {0, visible, 0, visible};
    data.cosine.rowsPerTexel *= stride;
    data.cosine.colsPerTexel *= stride;
    data.cosine.rowSpan *= s;
    data.cosine.colSpan *= s;
    for (LearnedCurve& curve : data.curves) {
        for (double& x : curve.x) x *= s;
    }
    data.positionsPerPoint *= stride;
    data.undefinedCosineRows *= stride;
    data.tableRows = table.rows;
    data.rowStride = stride;
    return data;
}

void drawLearnedFigure(Figure& figure, const LearnedLayout& layout,
                       const LearnedFigureOptions& options, const LearnedFigureData& data,
                       const Theme& theme, LearnedFigureFrames* frames) {
    struct {
        std::size_t rows, cols;
    } const table{data.tableRows, data.tableCols};
    const long long shown = learnedPositionsShown(options);
    const bool beyond = shown > (long long)table.rows;
    const std::string sampledNote =
        data.rowStride > 1 ? ", 1 in " + std::to_string(data.rowStride) + " positions" : "";
    const std::string endText = "table ends at " + std::to_string(table.rows);
    LearnedFigureFrames local;
    LearnedFigureFrames& out = frames ? *frames : local;

    // ---- The table
    if (layout.table.width > 0) {
        HeatmapSpec spec;
        spec.title = "Learned table (" + options.source + "): " + std::to_string(table.rows) +
                     " × " + std::to_string(table.cols);
        spec.x = {"dimension", 0, double(table.cols), false, true};
        spec.y = {"position", 0, double(shown), false, true};
        spec.values = data.table.values;
        spec.version = data.table.version;
        spec.valuesColSpan = data.table.colSpan;
        spec.valuesRowSpan = data.table.rowSpan;
        spec.colormap = options.colormap;
        spec.range = data.tableRange;
        spec.colorbarLabel = "value";
        if (beyond) spec.markers.push_back(tableEndMarker(false, table.rows, "", theme));
        drawHeatmap(figure, layout.table, spec, theme, &out.table);
        drawCornerNote(figure, layout.table, &out.table,
                       blockNote(data.table, "mean of") + sampledNote, theme);
        if (beyond) {
            const Box& p = out.table.plot;
            const float top = out.table.toPixel(0, double(table.rows)).y;
            const Box region{p.x, top, p.width, p.bottom() - top};
            // Under the line, on the plain undefined background, where it stays readable; the
            // note below it (a wider plot at 1024x768 fitted it on two lines, over the label).
            const float endSize = atLeastMinText(theme.fontSize * 0.9f, theme);
            if (region.height >= theme.fontSize * 3.2f) {
                figure.add(makeText({p.right() - 5, top + 4}, endText, endSize, theme.accent,
                                    HorizontalAlign::Right, VerticalAlign::Top));
                const float labelRow = 4 + endSize * 1.2f + 2;
                drawBeyondLabel(
                    figure, {region.x, region.y + labelRow, region.width, region.height - labelRow},
                    theme);
            } else {
                drawBeyondLabel(figure, region, theme);
            }
        }
    }

    // ---- Cosine similarity (always diverging: its sign matters)
    if (layout.cosine.width > 0) {
        HeatmapSpec cosine = cosineFrame(double(shown));
        cosine.values = data.cosine.values;
        cosine.version = data.cosine.version;
        cosine.valuesColSpan = data.cosine.colSpan;
        cosine.valuesRowSpan = data.cosine.rowSpan;
        if (data.undefinedCosineRows > 0) {  // padding rows: masked, and said so, never NaN
            cosine.showMaskedLegend = true;
            cosine.maskedLabel = "undefined";
        }
        if (beyond) {
            cosine.markers.push_back(tableEndMarker(false, table.rows, "", theme));
            cosine.markers.push_back(tableEndMarker(true, table.rows, "", theme));
        }
        drawHeatmap(figure, layout.cosine, cosine, theme, &out.cosine);
        {
            std::string note = undefinedCosineNote(data.undefinedCosineRows);
            if (data.cosine.rowsPerTexel > 1) {
                // (sampled: the "1 in N positions" in place of "each pixel:", so it fits)
                note += std::string(note.empty() ? "" : "; ") +
                        (data.rowStride > 1 ? "mean of " : "each pixel: mean of ") +
                        std::to_string(data.cosine.rowsPerTexel) + "×" +
                        std::to_string(data.cosine.rowsPerTexel) + " pairs" + sampledNote;
            }
            drawCornerNote(figure, layout.cosine, &out.cosine, note, theme);
        }
        if (beyond) {
            // The band under the table's rows, left of the columns beyond it.
            const Box& p = out.cosine.plot;
            const Point corner = out.cosine.toPixel(double(table.rows), double(table.rows));
            drawBeyondLabel(figure, {p.x, corner.y, corner.x - p.x, p.bottom() - corner.y}, theme);
        }
    }

    // ---- Dimensions against position
    if (layout.curves.width <= 0) return;
    LinePlotSpec curves;
    const int first = options.firstCurveDimension;
    const int last = data.curves.empty() ? first : data.curves.back().dimension;
    curves.title =
        (first == last ? "Dimension " + std::to_string(first)
                       : "Dimensions " + std::to_string(first) + "\u2013" + std::to_string(last)) +
        " against position";
    if (data.positionsPerPoint > 1) {
        curves.title +=
            " (each point: mean of " + std::to_string(data.positionsPerPoint) + " positions)";
    }
    curves.x = integerAxis("position", 0, double(shown));
    // The curves are noise at initialisation: a spike every point. Polyline joins at such sharp
    // angles break up in the anti-aliased renderer, so each curve is drawn as separate segments
    // (LineSeries::segments). The plot places their legend: where it hides none of them, else
    // beside the plot (a short plot on a projector has no free corner).
    double low = INFINITY, high = -INFINITY;
    for (const LearnedCurve& c : data.curves) {
        for (double v : c.y) {
            if (!std::isfinite(v)) continue;
            low = std::min(low, v);
            high = std::max(high, v);
        }
    }
    curves.keys = legendKeys(data.curves);
    for (std::size_t k = 0; k < data.curves.size(); ++k) {
        LineSeries series;
        series.x = data.curves[k].x;
        series.y = data.curves[k].y;
        series.color = seriesColor(int(k));
        // The coarse figure (every n-th row, while the positions slider moves) draws its
        // segments 1 px wide: a whole width takes ImGui's textured lines, two triangles a
        // segment instead of six, and on llvmpipe these 8 noisy curves were half the frame.
        series.width = data.rowStride > 1 ? 1.0f : 1.5f;
        series.segments = true;
        curves.series.push_back(std::move(series));
    }
    if (!(low <= high)) low = -1, high = 1;
    const ValueRange padded = paddedRange(low, high, 0.06);  // finite even for +-1.7e308
    curves.y = {"value", padded.low, padded.high};
    curves.autoRangeY = false;
    if (beyond) curves.markers.push_back(tableEndMarker(true, table.rows, endText, theme));
    drawLinePlot(figure, layout.curves, curves, theme, &out.curves);
    if (beyond) {
        const Box& p = out.curves.plot;
        const float left = out.curves.toPixel(double(table.rows), 0).x;
        const Box region{left, p.y + p.height * 0.35f, p.right() - left, p.height * 0.5f};
        drawBeyondLabel(figure, region, theme);
    }
}

Status drawLearnedFigure(Figure& figure, Box area, const LearnedFigureOptions& options,
                         const Theme& theme, int panel) {
    if (auto status = validate(options); !status) return status;
    const LearnedLayout layout = learnedLayout(area, theme, panel);
    auto data = computeLearnedFigureData(options, layout);
    if (!data) return data.error();
    figure.viewPanels = kLearnedPanels.count;  // --panel N: the GUI's panel N
    drawLearnedFigure(figure, layout, options, *data, theme);
    return success();
}

}  // namespace poslab
