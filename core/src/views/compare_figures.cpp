#include "poslab/views/compare_figures.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/deberta.hpp"
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_fit.hpp"
#include "poslab/figure/ticks.hpp"
#include "poslab/views/relative_figures.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

}  // namespace

std::string_view compareBiasName(CompareBias bias) {
    return enumName(kCompareBiasNames, bias);
}

Result<CompareBias> parseCompareBias(std::string_view name) {
    return parseEnum(kCompareBiasNames, name, "bias encoding");
}

std::string compareBiasLabel(CompareBias bias) {
    switch (bias) {
        case CompareBias::Alibi:
            return "ALiBi";
        case CompareBias::T5:
            return "T5";
        case CompareBias::KerplePower:
            return "KERPLE (power)";
        case CompareBias::KerpleLog:
            return "KERPLE (log)";
        case CompareBias::Sandwich:
            return "Sandwich";
        case CompareBias::Fire:
            return "FIRE";
        case CompareBias::Xpos:
            return "xPos";
        case CompareBias::Deberta:
            return "DeBERTa (c2p + p2c)";
    }
    return "";
}

namespace {

// Unless one panel is shown alone, the five heatmaps fill grid.rows - 1 rows of grid.columns
// (one row of five: the designed layout) above the two curves, which share the bottom row.
Box heatmapBlock(const PanelGrid& grid) {
    const Box& area = grid.area;
    // Three rows of heatmaps and more leave the curves at least 32 %: their titles then wrap
    // onto two lines instead of ending in "…".
    const float share =
        grid.rows == 2 ? 0.52f : std::min(0.68f, float(grid.rows - 1) / float(grid.rows));
    return {area.x, area.y, area.width, std::floor(area.height * share)};
}

// How the five heatmaps fill rows of `columns` with no cell left empty (two columns left the
// third row's second cell empty on the default 1200 x 800 page): five in one row; with fewer
// columns the last row's maps share its whole width; with two, ALiBi's and T5's square maps
// share the second row's second cell, side by side, where each has the room a square map
// needs (pairSquares), else T5 takes the third row alone.
struct HeatmapRows {
    int slots = 5;        // cells: ALiBi and T5 in one when paired
    int rows = 1;         // of heatmaps
    bool paired = false;  // ALiBi and T5 halves of one cell
};
HeatmapRows heatmapRows(int columns, bool pairSquares) {
    HeatmapRows rows;
    rows.paired = columns == 2 && pairSquares;
    rows.slots = rows.paired ? 4 : 5;
    rows.rows = (rows.slots + columns - 1) / columns;
    return rows;
}

// One column: the three position-by-dimension tables are wide and short (3/4 of a panel's
// height each), ALiBi's and T5's square maps side by side in one row, each curve plot a row.
// Seven rows of equal height made a one-column print 2,148 px tall.
constexpr float kStackedRows = 0.75f * 3 + 3;
constexpr float kStackedGap = 12;
constexpr int kStackedRowCount = 6;
constexpr float kStackedUnits[kStackedRowCount] = {0.75f, 0.75f, 0.75f, 1, 1, 1};
Box stackedCell(const PanelGrid& grid, int k) {
    const Box& area = grid.area;
    const float unit = std::max(1.f, (area.height - 5 * kStackedGap) / kStackedRows);
    const bool sized = grid.rowHeights.size() == std::size_t(kStackedRowCount);
    auto height = [&](int r) {
        return sized ? grid.rowHeights[std::size_t(r)] : kStackedUnits[r] * unit;
    };
    const int row = k < 3 ? k : k < 5 ? 3 : k - 1;
    float y = area.y;
    for (int r = 0; r < row; ++r) y += height(r) + kStackedGap;
    const Box cell{area.x, y, area.width, height(row)};
    if (k == 3 || k == 4) return gridCell(cell, 1, 2, 0, k - 3, 16);
    return cell;
}

// Panel k's box: heatmaps 0..4, then the two curve plots. grid.rows says whether ALiBi and T5
// are paired (two columns, two rows of heatmaps) or not (three).
Box comparisonCell(const PanelGrid& grid, int k) {
    if (grid.oneAtATime()) return grid.cell(k);
    // One column (a one-column print shows every panel): the seven one under another, the
    // curves each the full width too (side by side they left a gap under the five heatmaps and
    // no room for the cosines' legend beside them).
    if (grid.columns == 1) return stackedCell(grid, k);
    const Box top = heatmapBlock(grid);
    if (k < 5) {
        const HeatmapRows rows = heatmapRows(grid.columns, grid.rows - 1 == 2 && grid.columns == 2);
        const int slot = rows.paired && k == 4 ? 3 : k;
        const int row = slot / grid.columns, column = slot % grid.columns;
        const int inRow = std::min(grid.columns, rows.slots - row * grid.columns);
        const Box cell = gridCell(top, rows.rows, inRow, row, column, 10);
        return rows.paired && slot == 3 ? gridCell(cell, 1, 2, 0, k - 3, 16) : cell;
    }
    const Box bottom{grid.area.x, top.bottom() + 12, grid.area.width,
                     grid.area.bottom() - top.bottom() - 12};
    return gridCell(bottom, 1, 2, 0, k - 5, 16);
}

}  // namespace

PanelGrid comparisonPanels(Box area, const Theme& theme, int panel) {
    // The most heatmap columns (5 down to 2) for which every panel, heatmap or curve, has the
    // room kComparePanels asks for; else one panel at a time.
    if (theme.focusPanel > 0) return reflowOrFocus(area, kComparePanels, theme, panel);
    const float minWidth = kComparePanels.minWidthEm * theme.fontSize;
    const float minHeight = kComparePanels.minHeightEm * theme.fontSize;
    // Four columns would leave four empty cells beside T5, in two rows as three columns take.
    // Two columns pair ALiBi and T5 in one cell when each half is as wide as a square map
    // needs (its axis, a colour bar and a map: kSquareMapEm), else T5 takes a row.
    constexpr float kSquareMapEm = 11;
    auto gridOf = [&](PanelGrid grid, int columns, bool paired) {
        grid.columns = columns;
        grid.rows = heatmapRows(columns, paired).rows + 1;
        return grid;
    };
    auto pairFits = [&](const PanelGrid& grid) {
        return comparisonCell(gridOf(grid, 2, true), 4).width >= kSquareMapEm * theme.fontSize;
    };
    PanelGrid empty;
    empty.area = area;
    empty.count = kComparePanels.count;
    for (int columns : {5, 3, 2}) {
        for (bool paired : {true, false}) {
            if (paired && (columns != 2 || !pairFits(empty))) continue;
            const PanelGrid grid = gridOf(empty, columns, paired);
            const Box heatmap = comparisonCell(grid, 0), curve = comparisonCell(grid, 5);
            if (heatmap.width >= minWidth && heatmap.height >= minHeight &&
                curve.width >= minWidth && curve.height >= minHeight)
                return grid;
        }
    }
    // A file that shows every panel (one column in print) stacks them in kStackedRows, 5.25
    // panel heights for the seven: what it asks the canvas to grow by. Squeezed into two
    // columns instead (a file 1200 px wide), its heatmaps are arranged as above.
    const float stackedEm = kComparePanels.minHeightEm * kStackedRows / kComparePanels.count;
    PanelGrid grid = reflowOrFocus(
        area,
        {kComparePanels.count, 1, kComparePanels.minWidthEm,
         theme.panelRoom ? stackedEm : kComparePanels.minHeightEm, kComparePanels.gap},
        theme, panel);
    if (!grid.oneAtATime() && grid.columns == 1 && theme.panelRoom) {
        // A taller canvas than the stack needs (its curves' legends in rows under them asked
        // for it): the heatmaps keep their least height and the two curve rows share the rest,
        // so a px a curve plot asks for costs the canvas two, not the whole stack's 5.25
        // (LinePlotSpec::canvasPerAreaPx).
        const float least = kComparePanels.minHeightEm * theme.fontSize;
        const float spare = grid.area.height - 5 * kStackedGap - kStackedRows * least;
        if (spare >= 0) {
            grid.rowHeights.clear();
            for (int r = 0; r < kStackedRowCount; ++r)
                grid.rowHeights.push_back(kStackedUnits[r] * least + (r >= 4 ? spare / 2 : 0));
        }
    }
    if (grid.oneAtATime() || grid.columns < 2) return grid;
    return gridOf(grid, grid.columns, grid.columns == 2 && pairFits(grid));
}

namespace {

// The relative-family members with Compare's parameters for them, at its length, width, base
// and seed.
RelativeFigureOptions relativeOptions(const CompareOptions& o) {
    RelativeFigureOptions r;
    r.seqLen = o.seqLen;
    r.trainingLength = o.seqLen;
    r.xpos.headDim = o.dModel;
    r.xpos.base = o.base;
    r.xpos.gamma = o.xposGamma;
    r.xpos.scaleBase = o.xposScaleBase;
    r.kerplePower = o.kerplePower;
    r.kerpleLog = o.kerpleLog;
    r.sandwich = o.sandwich;
    r.fire = o.fire;
    r.fire.seed = o.seed;
    r.alibiHeads = o.alibiHeads;
    return r;
}

DebertaParams debertaOptions(const CompareOptions& o) {
    DebertaParams p;  // DeBERTa-v3: 256 buckets, max_position 512, head_dim 64
    p.seqLen = o.seqLen;
    p.seed = o.seed;
    return p;
}

FamilyMember familyMember(CompareBias bias) {
    switch (bias) {
        case CompareBias::KerplePower:
            return FamilyMember::KerplePower;
        case CompareBias::KerpleLog:
            return FamilyMember::KerpleLog;
        case CompareBias::Sandwich:
            return FamilyMember::Sandwich;
        case CompareBias::Fire:
            return FamilyMember::Fire;
        case CompareBias::Xpos:
            return FamilyMember::Xpos;
        case CompareBias::T5:
            return FamilyMember::T5;
        default:
            return FamilyMember::Alibi;
    }
}

// DeBERTa's c2p + p2c at the centre cell of each texel (a sum of dot products has no closed-form
// block mean): rows x cols dot products of head_dim, never L x L.
HeatmapSample debertaSample(const DebertaParams& p, int maxRows, int maxCols) {
    const long long length = p.seqLen;
    HeatmapSample sample;
    sample.window = clampWindow({0, length, 0, length}, length, length);
    sample.rowsPerTexel = cellsPerTexel(length, maxRows);
    sample.colsPerTexel = cellsPerTexel(length, maxCols);
    auto centres = [&](long long perTexel) {
        std::vector<long long> at;
        for (long long first = 0; first < length; first += perTexel)
            at.push_back(std::min(length - 1, first + perTexel / 2));
        return at;
    };
    const std::vector<long long> rows = centres(sample.rowsPerTexel);
    const std::vector<long long> cols = centres(sample.colsPerTexel);
    sample.rowSpan = double((long long)rows.size() * sample.rowsPerTexel);
    sample.colSpan = double((long long)cols.size() * sample.colsPerTexel);
    Matrix values = debertaTermSample(p, DebertaTerm::C2p, rows, cols);
    const Matrix p2c = debertaTermSample(p, DebertaTerm::P2c, rows, cols);
    for (std::size_t k = 0; k < values.values.size(); ++k) values.values[k] += p2c.values[k];
    sample.values = std::make_shared<const Matrix>(std::move(values));
    sample.version = nextMatrixVersion();
    return sample;
}

// One bias slot's heatmap over `cell`: exact block means for the Toeplitz members, centre cells
// for FIRE and DeBERTa (said in the title), the whole matrix for ALiBi and T5 as before.
HeatmapSpec biasHeatmap(const CompareOptions& o, CompareBias bias, Box cell) {
    const int L = o.seqLen;
    const int maxRows = texelBudget(cell.height), maxCols = texelBudget(cell.width);
    if (bias == CompareBias::Alibi) {
        AlibiParams alibi;
        alibi.heads = o.alibiHeads;
        alibi.seqLen = L;
        const Matrix values = alibiBias(alibi).value();
        HeatmapSpec spec = matrixSpec("ALiBi head 0: logit bias", values, cell, ColormapId::Viridis,
                                      finiteRange(values));
        spec.showMaskedLegend = true;
        return spec;
    }
    if (bias == CompareBias::T5) {
        T5Params t5;
        t5.seqLen = L;
        t5.numBuckets = o.t5Buckets;
        t5.maxDistance = o.t5MaxDistance;
        const Matrix values = t5BiasMatrix(t5, seededBucketBiases(o.t5Buckets, o.seed)).value();
        return matrixSpec("T5 (random buckets): logit bias", values, cell, ColormapId::BlueWhiteRed,
                          symmetricRange(values));
    }
    const RelativeFigureOptions r = relativeOptions(o);
    HeatmapSample sample;
    std::string title;
    switch (bias) {
        case CompareBias::Fire:
            sample = fireSample(r.fire, L, maxRows, maxCols, true);
            title = "FIRE head " + std::to_string(r.fire.head) + ": MLP bias (centre cells)";
            break;
        case CompareBias::Deberta:
            sample = debertaSample(debertaOptions(o), maxRows, maxCols);
            title = "DeBERTa: c2p + p2c (centre cells)";
            break;
        default:
            sample = relativeOffsetSample(toeplitzByOffset(r, familyMember(bias), L), L, {},
                                          maxRows, maxCols, BlockSummary::MeanOfUnmasked);
            title = bias == CompareBias::Xpos ? "xPos: $q·k$ for $q = k = 1$"
                                              : compareBiasLabel(bias) + ": logit bias";
            break;
    }
    HeatmapSpec spec = specFor(sample, "key", "query");
    spec.title = title;
    const bool bidirectional = bias == CompareBias::Deberta;
    spec.colormap = bidirectional ? ColormapId::BlueWhiteRed : ColormapId::Viridis;
    spec.range = bidirectional ? symmetricRange(*sample.values) : finiteRange(*sample.values);
    spec.showMaskedLegend = !bidirectional;
    return spec;
}

}  // namespace

Status validate(const CompareOptions& o) {
    if (auto s = requireIntInRange("d_model", o.dModel, 4, 1024); !s) return s;
    if (o.dModel % 2 != 0)
        return Error{"d_model must be even (got " + std::to_string(o.dModel) + ")"};
    if (auto s = requireIntInRange("seq_len", o.seqLen, 2, 2048); !s) return s;
    if (auto s = requireInRange("base", o.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("alibi_heads", o.alibiHeads, 1, kMaxAlibiHeads); !s) return s;
    for (CompareBias bias : {o.biasA, o.biasB}) {
        if (int(bias) < 0 || int(bias) > int(CompareBias::Deberta))
            return Error{"bias encoding must be " + enumNameList(kCompareBiasNames) + " (got " +
                         std::to_string(int(bias)) + ")"};
    }
    T5Params t5;
    t5.numBuckets = o.t5Buckets;
    t5.maxDistance = o.t5MaxDistance;
    t5.seqLen = o.seqLen;
    if (auto s = validate(t5); !s) return s;
    return validate(relativeOptions(o));  // the relative members' own parameters
}

std::string compareBiasParameters(const CompareOptions& o, CompareBias bias) {
    const RelativeFigureOptions r = relativeOptions(o);
    switch (bias) {
        case CompareBias::KerplePower:
        case CompareBias::KerpleLog: {
            const KerpleParams& p = bias == CompareBias::KerplePower ? r.kerplePower : r.kerpleLog;
            return "r1 " + formatValue(p.r1, 3) + ", r2 " + formatValue(p.r2, 3);
        }
        case CompareBias::Sandwich:
            return "d " + std::to_string(r.sandwich.headDim) + ", head " +
                   std::to_string(r.sandwich.head) + " of " + std::to_string(r.sandwich.heads) +
                   " (compression " + formatValue(sandwichCompression(r.sandwich), 3) + ")";
        case CompareBias::Fire:
            return "c " + formatValue(r.fire.c, 3) + ", L " + formatValue(r.fire.threshold, 4) +
                   ", MLP width " + std::to_string(r.fire.mlpWidth) + ", head " +
                   std::to_string(r.fire.head) + " of " + std::to_string(r.fire.heads) + ", seed " +
                   std::to_string(r.fire.seed);
        case CompareBias::Xpos:
            return "head_dim " + std::to_string(r.xpos.headDim) + ", gamma " +
                   formatValue(r.xpos.gamma, 3) + ", scale_base " +
                   formatValue(r.xpos.scaleBase, 4) + ", base " + formatValue(r.xpos.base, 6);
        case CompareBias::Deberta: {
            const DebertaParams p = debertaOptions(o);
            return std::to_string(p.positionBuckets) + " buckets, max_position " +
                   std::to_string(p.maxRelativePositions) + ", head_dim " +
                   std::to_string(p.headDim) + ", seed " + std::to_string(p.seed);
        }
        case CompareBias::Alibi:
        case CompareBias::T5:
            break;
    }
    return "";
}

LineSeries compareBiasCurve(const CompareOptions& o, CompareBias bias, int query) {
    const int L = o.seqLen;
    LineSeries series;
    series.name = compareBiasLabel(bias);
    for (int j = 0; j < L; ++j) series.x.push_back(j - query);
    series.y.assign(std::size_t(L), NAN);
    switch (bias) {
        case CompareBias::Alibi: {
            series.name = "ALiBi head 0 (causal)";
            const double slope = alibiSlopes(o.alibiHeads).front();
            for (int j = 0; j <= query; ++j) series.y[std::size_t(j)] = -slope * (query - j);
            break;
        }
        case CompareBias::T5: {
            series.name = "T5, random buckets";
            T5Params t5;
            t5.seqLen = L;
            t5.numBuckets = o.t5Buckets;
            t5.maxDistance = o.t5MaxDistance;
            const std::vector<double> values = seededBucketBiases(o.t5Buckets, o.seed);
            for (int j = 0; j < L; ++j)
                series.y[std::size_t(j)] = values[std::size_t(
                    t5RelativePositionBucket(j - query, true, o.t5Buckets, o.t5MaxDistance))];
            break;
        }
        case CompareBias::Fire: {
            series.name = "FIRE head " + std::to_string(o.fire.head) + " (causal, seeded MLP)";
            const RelativeFigureOptions r = relativeOptions(o);
            const FireMlp mlp = seededFireMlp(r.fire.mlpWidth, r.fire.heads, r.fire.seed);
            const double atQuery = fireMlpOutput(mlp, r.fire.head, firePhi(r.fire, query, query));
            for (int j = 0; j <= query; ++j)
                series.y[std::size_t(j)] =
                    fireMlpOutput(mlp, r.fire.head, firePhi(r.fire, query, j)) - atQuery;
            break;
        }
        case CompareBias::Deberta: {
            series.name = "DeBERTa c2p + p2c (bidirectional, seeded)";
            const DebertaParams p = debertaOptions(o);
            for (int j = 0; j < L; ++j)
                series.y[std::size_t(j)] = debertaTermValue(p, DebertaTerm::C2p, query, j) +
                                           debertaTermValue(p, DebertaTerm::P2c, query, j);
            break;
        }
        default: {
            series.name = bias == CompareBias::Xpos
                              ? "xPos (log decay, causal)"
                              : familyMemberName(familyMember(bias)) + " (causal)";
            const RelativeFigureOptions r = relativeOptions(o);
            for (int j = 0; j <= query; ++j)
                series.y[std::size_t(j)] = familyValue(r, familyMember(bias), query - j);
            break;
        }
    }
    return series;
}

namespace {

// ALiBi with T5 keeps the designed range (T5's +-2 readable, ALiBi leaving through the bottom);
// any other pair spans its finite values down to -20 (ALiBi's steep head still leaves), with
// headroom above for the legend.
AxisSpec biasCurveRange(const CompareBias (&slots)[2], const std::vector<LineSeries>& series) {
    const bool designed = (slots[0] == CompareBias::Alibi && slots[1] == CompareBias::T5) ||
                          (slots[0] == CompareBias::T5 && slots[1] == CompareBias::Alibi);
    if (designed) return {"bias", -10, 3.5};
    double low = 0, high = 0;
    for (std::size_t k = 0; k < series.size(); ++k) {
        if (slots[k] == CompareBias::Alibi) continue;
        for (double v : series[k].y)
            if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
    }
    low = std::max(low, -20.0);
    if (slots[0] == CompareBias::Alibi || slots[1] == CompareBias::Alibi)
        low = std::min(low, -10.0);
    const double span = std::max(high - low, 1e-9);
    return {"bias", low - 0.05 * span, high + 0.45 * span};
}

// ALiBi's line falls without end (−m·|j − i|) and leaves a range chosen for T5's scale: without
// a word the plot read as ALiBi stopping at −10 (#28). A curve that leaves through the bottom
// gets a note in its colour beside the point where it leaves ("ALiBi continues below −10"),
// where it hides no curve and no text. Returns the series that left with no place for a note.
std::vector<std::size_t> noteCurvesBelow(Figure& figure, const PlotFrame& frame,
                                         const LinePlotSpec& spec, const Theme& theme) {
    const Box& p = frame.plot;
    const double low = std::min(frame.y.low, frame.y.high);
    std::vector<std::size_t> unplaced;
    for (std::size_t index = 0; index < spec.series.size(); ++index) {
        const LineSeries& series = spec.series[index];
        std::optional<Point> exit;  // where the curve crosses the bottom edge, within the x range
        for (std::size_t k = 1; k < series.y.size() && !exit; ++k) {
            const double y0 = series.y[k - 1], y1 = series.y[k];
            if (!std::isfinite(y0) || !std::isfinite(y1) || (y0 < low) == (y1 < low)) continue;
            const double t = (low - y0) / (y1 - y0);
            const double x = series.x[k - 1] + t * (series.x[k] - series.x[k - 1]);
            const Point at = frame.toPixel(x, low);
            if (at.x >= p.x && at.x <= p.right()) exit = at;
        }
        if (!exit) continue;
        const std::string name = series.name.substr(0, series.name.find(' '));  // "ALiBi"
        const std::string text = name + " continues below " + withMinusSign(formatValue(low));
        const float size = atLeastMinText(theme.fontSize * 0.9f, theme);
        const float step = size * 1.15f;
        bool placed = false;
        // One line where it fits, else wrapped to the room right of the exit, left of it, half
        // the plot's width, then a third.
        for (float room :
             {p.width, p.right() - exit->x - 8, exit->x - p.x - 8, p.width / 2, p.width / 3}) {
            if (!(room > size)) continue;
            const std::vector<std::string> lines = wrapText(text, size, room - 4);
            float w = 0;
            for (const std::string& line : lines) w = std::max(w, estimateTextWidth(line, size));
            w += 4;
            const float h = step * float(lines.size()) + 2;
            if (w > p.width) continue;
            const float bottom = p.bottom() - 3 - h;
            const std::vector<Box> preferred{{exit->x + 6, bottom, w, h},
                                             {exit->x - 6 - w, bottom, w, h}};
            const std::optional<Box> at = placeFree(figure, p, w, h, preferred);
            if (!at) continue;
            for (std::size_t i = 0; i < lines.size(); ++i)
                figure.add(makeText({at->x + 2, at->y + 1 + step * float(i)}, lines[i], size,
                                    series.color));
            placed = true;
            break;
        }
        if (!placed) unplaced.push_back(index);
    }
    return unplaced;
}

}  // namespace

Status drawComparison(Figure& figure, Box area, const CompareOptions& o, const Theme& theme,
                      int panel) {
    if (auto s = validate(o); !s) return s;
    const int L = o.seqLen, d = o.dModel;
    const PanelGrid grid = comparisonPanels(area, theme, panel);
    figure.viewPanels = kComparePanels.count;  // --panel N: the GUI's panel N
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    // The two bias slots (ALiBi and T5 unless chosen otherwise).
    const CompareBias slots[2] = {o.biasA, o.biasB};
    // What the maps are sampled for: their cells, or in a vector file (Theme::cellResolution)
    // kMaxTexelsPerSide a side, so that every cell of these (at most 2048 x 2048) is a texel.
    auto texels = [&](Box cell) {
        return theme.cellResolution
                   ? Box{cell.x, cell.y, float(kMaxTexelsPerSide), float(kMaxTexelsPerSide)}
                   : cell;
    };
    auto biasSpecIn = [&](int slot, Box cell) {
        HeatmapSpec spec = biasHeatmap(o, slots[slot], texels(cell));
        spec.x.label = "key";
        spec.y.label = "query";
        spec.squareCells = true;
        return spec;
    };

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

    if (grid.shows(0)) {
        const Box cell = comparisonCell(grid, 0);
        SinusoidalParams p{d, L, o.base, SinusoidalLayout::Interleaved};
        HeatmapSpec spec = matrixSpec("Sinusoidal: added vector", sinusoidalTable(p).value(),
                                      texels(cell), ColormapId::BlueWhiteRed, {-1, 1});
        spec.x.label = "dimension";
        spec.y.label = "position";
        drawHeatmap(figure, cell, spec, small);
    }
    // The learned table (L x d seeded normals) is read by panel 1 and by panel 5's curve: made
    // once, when the first of them is shown.
    std::optional<Matrix> learnedTable;
    auto learnedValues = [&]() -> const Matrix& {
        if (!learnedTable) learnedTable = similarityTable(learned).value();
        return *learnedTable;
    };
    if (grid.shows(1)) {
        const Box cell = comparisonCell(grid, 1);
        const Matrix& table = learnedValues();
        HeatmapSpec spec = matrixSpec("Learned (initial): added vector", table, texels(cell),
                                      ColormapId::BlueWhiteRed, symmetricRange(table));
        spec.x.label = "dimension";
        spec.y.label = "position";
        drawHeatmap(figure, cell, spec, small);
    }
    if (grid.shows(2)) {
        const Box cell = comparisonCell(grid, 2);
        RopeParams p = rope.rope;
        p.seqLen = L;
        const RopeFrequencies freqs = ropeFrequencies(p).value();
        HeatmapSpec spec = matrixSpec("RoPE: rotation angle", ropeAngleTable(freqs, L).value(),
                                      texels(cell), ColormapId::Twilight, {0, kTwoPi});
        spec.barTicks = BarTicks::Angles;
        spec.x.label = "pair";
        spec.y.label = "position";
        drawHeatmap(figure, cell, spec, small);
    }
    std::optional<HeatmapSpec> biasSpecs[2];
    for (int slot = 0; slot < 2; ++slot)
        if (grid.shows(3 + slot))
            biasSpecs[slot] = biasSpecIn(slot, comparisonCell(grid, 3 + slot));
    // Side by side in one row, the two maps start level: a title on more lines than its
    // neighbour's (T5's three beside ALiBi's two at one column) set one map lower than the
    // other, which read as a different scale of position.
    if (biasSpecs[0] && biasSpecs[1] &&
        std::abs(comparisonCell(grid, 3).y - comparisonCell(grid, 4).y) < 0.5f) {
        float top = 0;
        for (int slot = 0; slot < 2; ++slot) {
            const Box cell = comparisonCell(grid, 3 + slot);
            top = std::max(top, measureHeatmap(cell, *biasSpecs[slot], small).plot.y - cell.y);
        }
        for (auto& spec : biasSpecs) spec->plotTopAtLeast = top;
    }
    for (int slot = 0; slot < 2; ++slot)
        if (biasSpecs[slot])
            drawHeatmap(figure, comparisonCell(grid, 3 + slot), *biasSpecs[slot], small);

    // What a query in the middle sees.
    const int query = L / 2;
    LinePlotSpec similarity;
    // Seven panels: the file's height is budgeted, except in one column's stack, whose curve
    // rows alone take what the canvas grows by (comparisonPanels).
    similarity.rowsGrowGrid = !grid.oneAtATime() && grid.columns == 1 && theme.panelRoom;
    similarity.canvasPerAreaPx = 2;
    similarity.title =
        "Vector encodings: cosine similarity to the query at " + std::to_string(query);
    // A short plot above three legend rows (1024x768) has no room for a second title line.
    similarity.shortTitle = "Vector encodings: cosine to the query at " + std::to_string(query);
    similarity.x = integerAxis("offset $j-i$", double(-query), double(L - 1 - query));
    similarity.y = {"cosine", -1.05, 1.85};  // headroom: the legend sits above the curves
    similarity.autoRangeY = false;
    // Short names: the legend beside a short plot (1200 x 800) has room for three lines or so,
    // and dropped the third key with longer ones ("(initial)" is in panel 2's title).
    const std::pair<const char*, const SimilarityParams*> vectorEncodings[] = {
        {"sinusoidal", &sin}, {"learned", &learned}, {"RoPE, $E$ over $q = k$", &rope}};
    // The sinusoidal and expected RoPE curves coincide (both are sum_k cos(w_k r) / (d/2)), so
    // one hid the other (a wide translucent sinusoidal one under RoPE's read as one teal curve):
    // the sinusoidal one is drawn solid and RoPE's dashed over it, and its key says they are the
    // same curve. About this many pixels per offset (the plot is most of its cell's width):
    const double pixelsPerOffset =
        grid.shows(5) ? 0.85 * comparisonCell(grid, 5).width / std::max(1, L - 1) : 1.0;
    for (const auto& [name, params] : vectorEncodings) {
        if (!grid.shows(5)) break;  // only the axis is shared (with panel 6)
        LineSeries series;
        series.name = name;
        if (params == &sin) series.width = 3;  // under the dashes: a band they sit on
        if (params == &learned)
            series.markers = true;  // the exact 1 at offset 0 survives line joins
        if (params->encoding == SimilarityEncoding::Learned) {
            // One row of the Gram matrix: O(L d), not the whole O(L^2 d) matrix.
            const Matrix& table = learnedValues();
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
        if (params == &rope) dashSeries(series, pixelsPerOffset);  // a dash centred on offset 0
        similarity.series.push_back(series);
    }
    if (grid.shows(5)) {
        // The keys the plot would make, RoPE's dashed as its curve is and naming the coincidence.
        for (std::size_t index = 0; index < similarity.series.size(); ++index) {
            const bool dashed = index + 1 == similarity.series.size();
            similarity.keys.push_back({dashed
                                           ? similarity.series[index].name + " (same as sinusoidal)"
                                           : similarity.series[index].name,
                                       seriesColor(int(index), small), false, dashed});
        }
    }
    if (grid.shows(5)) drawLinePlot(figure, comparisonCell(grid, 5), similarity, small);

    LinePlotSpec biases;
    biases.rowsGrowGrid = similarity.rowsGrowGrid;
    biases.canvasPerAreaPx = similarity.canvasPerAreaPx;
    biases.title = "Bias encodings: added to the logit of the query at " + std::to_string(query);
    biases.x = similarity.x;
    biases.autoRangeY = false;
    for (int slot = 0; slot < 2; ++slot) {
        LineSeries series = compareBiasCurve(o, slots[slot], query);
        series.color = seriesColor(slot == 0 ? 3 : 5);
        biases.series.push_back(std::move(series));
    }
    biases.y = biasCurveRange(slots, biases.series);
    if (grid.shows(6)) {
        PlotFrame frame;
        const Figure::Checkpoint start = figure.checkpoint();
        drawLinePlot(figure, comparisonCell(grid, 6), biases, small, &frame);
        // No free place in a short plot (1200 x 800 in print): the legend's key says it instead.
        if (const std::vector<std::size_t> unsaid = noteCurvesBelow(figure, frame, biases, small);
            !unsaid.empty()) {
            figure.rollBack(start);
            for (std::size_t index : unsaid)
                biases.series[index].name +=
                    ", continues below " + withMinusSign(formatValue(biases.y.low));
            drawLinePlot(figure, comparisonCell(grid, 6), biases, small);
        }
    }
    return success();
}

namespace {

std::string comparisonTitle(const CompareOptions& options) {
    return "Every encoding at d = " + std::to_string(options.dModel) + ", " +
           std::to_string(options.seqLen) + " positions, base " + formatValue(options.base, 6);
}

// The title's band, two lines high where the title needs two at full size (a one-column
// print): the band of one line held two lines of 3/4 size that touched the first panel's title.
float comparisonTitleBand(const CompareOptions& options, float width, float height,
                          const Theme& theme) {
    return titleBandHeight(theme, comparisonTitle(options), width, height);
}

}  // namespace

PanelGrid comparisonFigurePanels(const CompareOptions& options, float width, float height,
                                 const Theme& theme, int panel) {
    const float titleHeight = comparisonTitleBand(options, width, height, theme);
    return comparisonPanels({0, titleHeight, width, height - titleHeight}, theme, panel);
}

Result<Figure> comparisonFigure(const CompareOptions& options, float width, float height,
                                const Theme& theme, int panel) {
    if (auto s = validate(options); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = comparisonTitleBand(options, width, height, theme);
    drawTitle(figure, {0, 0, width, titleHeight}, comparisonTitle(options), theme);
    if (auto s = drawComparison(figure, {0, titleHeight, width, height - titleHeight}, options,
                                theme, panel);
        !s) {
        return s.error();
    }
    return figure;
}

}  // namespace poslab
