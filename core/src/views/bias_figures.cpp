#include "poslab/views/bias_figures.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/learned.hpp"

namespace poslab {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
// Categorical ids are drawn as id mod 252 (21 x 12) with range 0..255: the same hue as the id
// (the table repeats every 12) while staying inside the 256-entry table.
constexpr int kCategoricalWrap = 252;
constexpr ValueRange kCategoricalRange{0, 255};

// Labels here are centred unless said otherwise.
TextItem label(Point at, std::string text, float size, Rgba color,
               HorizontalAlign h = HorizontalAlign::Center, VerticalAlign v = VerticalAlign::Top,
               bool vertical90 = false) {
    return makeText(at, std::move(text), size, color, h, v, vertical90);
}

RectItem filledRect(Box box, Rgba fill, Rgba stroke = {0, 0, 0, 0}, float strokeWidth = 1) {
    RectItem rect;
    rect.box = box;
    rect.fill = fill;
    rect.stroke = stroke;
    rect.strokeWidth = strokeWidth;
    return rect;
}

// A 256 x 1 ramp from 1 (top) to 0 (bottom), immutable, for colour bars drawn here.
const std::shared_ptr<const Matrix>& rampMatrix() {
    static const std::shared_ptr<const Matrix> ramp = [] {
        auto m = std::make_shared<Matrix>(kColormapSize, 1);
        for (int i = 0; i < kColormapSize; ++i) (*m)(i, 0) = 1.0 - double(i) / (kColormapSize - 1);
        return std::shared_ptr<const Matrix>(std::move(m));
    }();
    return ramp;
}

std::uint64_t rampVersion() {
    static const std::uint64_t version = nextMatrixVersion();
    return version;
}

float barWidthFor(const Theme& theme) {
    return std::max(10.f, theme.fontSize * 0.9f);
}

// Room a vertical colour bar needs to the right of a plot: bar, tick labels, rotated label.
float colorbarBlockWidth(ValueRange range, float height, const Theme& theme) {
    float widest = 0;
    for (const Tick& t : linearTicks(range.low, range.high, std::max(2, int(height / 50)))) {
        widest = std::max(widest, estimateTextWidth(t.label, theme.fontSize));
    }
    return theme.fontSize * 0.9f + barWidthFor(theme) + 10 + widest + theme.fontSize * 2.6f;
}

// A colour bar in `bar` (the ramp itself), ticks right of it, the label rotated at `labelX`, and
// a "masked" swatch below when asked.
void drawColorbar(Figure& figure, Box bar, ColormapId colormap, ValueRange range,
                  const std::string& caption, float labelX, bool maskedSwatch, const Theme& theme) {
    HeatmapItem ramp;
    ramp.box = bar;
    ramp.values = rampMatrix();
    ramp.colormap = colormap;
    ramp.range = {0, 1};
    ramp.version = rampVersion();
    figure.add(ramp);
    figure.add(filledRect(bar, {0, 0, 0, 0}, theme.axis));
    if (range.high > range.low) {
        for (const Tick& t :
             linearTicks(range.low, range.high, std::max(2, int(bar.height / 50)))) {
            const float fy = float((t.value - range.low) / (range.high - range.low));
            if (fy < -1e-4f || fy > 1.0001f) continue;
            const float py = bar.bottom() - fy * bar.height;
            figure.add(LineItem{{bar.right(), py}, {bar.right() + 4, py}, theme.axis, 1, false});
            figure.add(label({bar.right() + 6, py}, t.label, theme.fontSize, theme.text,
                             HorizontalAlign::Left, VerticalAlign::Middle));
        }
    }
    if (!caption.empty()) {
        figure.add(label({labelX, bar.y + bar.height / 2}, caption, theme.fontSize, theme.mutedText,
                         HorizontalAlign::Center, VerticalAlign::Top, true));
    }
    if (maskedSwatch) {
        const float side = bar.width;
        figure.add(filledRect({bar.x, bar.bottom() + 6, side, side}, theme.masked, theme.axis));
        figure.add(label({bar.right() + 6, bar.bottom() + 6 + side / 2}, "masked",
                         theme.fontSize * 0.9f, theme.mutedText, HorizontalAlign::Left,
                         VerticalAlign::Middle));
    }
}

HeatmapSpec specFor(const HeatmapSample& sample, const std::string& xLabel,
                    const std::string& yLabel) {
    const CellWindow& w = sample.window;
    HeatmapSpec spec;
    spec.x = {xLabel, double(w.firstCol), double(w.firstCol + w.colCount), false, true};
    spec.y = {yLabel, double(w.firstRow), double(w.firstRow + w.rowCount), false, true};
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
    return spec;
}

int texelBudget(float pixels) {
    return std::max(1, int(pixels));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Relative-position samples
// ---------------------------------------------------------------------------------------------

HeatmapSample relativeOffsetSample(const std::vector<double>& byOffset, int length,
                                   CellWindow window, int maxRows, int maxCols,
                                   BlockSummary summary) {
    HeatmapSample sample;
    length = std::max(1, length);
    window = clampWindow(window, length, length);
    sample.window = window;
    sample.rowsPerTexel = cellsPerTexel(window.rowCount, maxRows);
    sample.colsPerTexel = cellsPerTexel(window.colCount, maxCols);
    const long long texRows = (window.rowCount + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    const long long texCols = (window.colCount + sample.colsPerTexel - 1) / sample.colsPerTexel;
    sample.rowSpan = double(texRows * sample.rowsPerTexel);
    sample.colSpan = double(texCols * sample.colsPerTexel);
    sample.version = nextMatrixVersion();
    auto texels = std::make_shared<Matrix>(std::size_t(texRows), std::size_t(texCols));
    if (byOffset.size() != std::size_t(2 * length - 1)) {  // caller error: draw it as missing
        std::fill(texels->values.begin(), texels->values.end(),
                  std::numeric_limits<double>::quiet_NaN());
        sample.values = std::move(texels);
        return sample;
    }
    const long long last = length - 1;
    auto valueAt = [&](long long i, long long j) { return byOffset[std::size_t(j - i + last)]; };

    const bool exactCells = sample.rowsPerTexel == 1 && sample.colsPerTexel == 1;
    if (summary == BlockSummary::CentreCell || exactCells) {
        for (long long tr = 0; tr < texRows; ++tr) {
            const long long r0 = window.firstRow + tr * sample.rowsPerTexel;
            const long long r1 =
                std::min(window.firstRow + window.rowCount, r0 + sample.rowsPerTexel);
            const long long row = r0 + (r1 - r0 - 1) / 2;
            double* out = texels->row(std::size_t(tr));
            for (long long tc = 0; tc < texCols; ++tc) {
                const long long c0 = window.firstCol + tc * sample.colsPerTexel;
                const long long c1 =
                    std::min(window.firstCol + window.colCount, c0 + sample.colsPerTexel);
                out[tc] = valueAt(row, c0 + (c1 - c0 - 1) / 2);
            }
        }
        sample.values = std::move(texels);
        return sample;
    }

    // Row i of a block covers one run of offsets, so its sum is a difference of prefix sums P;
    // the block's rows are consecutive runs, so summing those differences is a difference of
    // prefix sums of P (Q). Every block then costs O(1), whatever its size. Long double keeps
    // the integer sums of the ALiBi pattern exact up to L = 2^20 (Q < 2^61).
    const std::size_t count = byOffset.size();
    std::vector<long double> prefix(count + 1, 0.0L), prefix2(count + 2, 0.0L);
    std::vector<long long> unmasked(count + 1, 0), unmasked2(count + 2, 0);
    for (std::size_t k = 0; k < count; ++k) {
        const bool masked = byOffset[k] == kMinusInf;
        prefix[k + 1] = prefix[k] + (masked ? 0.0L : (long double)byOffset[k]);
        unmasked[k + 1] = unmasked[k] + (masked ? 0 : 1);
    }
    for (std::size_t k = 0; k <= count; ++k) {
        prefix2[k + 1] = prefix2[k] + prefix[k];
        unmasked2[k + 1] = unmasked2[k] + unmasked[k];
    }
    // Sum over rows r0..r1-1 of P[c - i + L - 1] = Q[c - r0 + L] - Q[c - r1 + L].
    auto rowsSum = [&](long long c, long long r0, long long r1) {
        return prefix2[std::size_t(c - r0 + length)] - prefix2[std::size_t(c - r1 + length)];
    };
    auto rowsCount = [&](long long c, long long r0, long long r1) {
        return unmasked2[std::size_t(c - r0 + length)] - unmasked2[std::size_t(c - r1 + length)];
    };
    for (long long tr = 0; tr < texRows; ++tr) {
        const long long r0 = window.firstRow + tr * sample.rowsPerTexel;
        const long long r1 = std::min(window.firstRow + window.rowCount, r0 + sample.rowsPerTexel);
        double* out = texels->row(std::size_t(tr));
        for (long long tc = 0; tc < texCols; ++tc) {
            const long long c0 = window.firstCol + tc * sample.colsPerTexel;
            const long long c1 =
                std::min(window.firstCol + window.colCount, c0 + sample.colsPerTexel);
            const long double sum = rowsSum(c1, r0, r1) - rowsSum(c0, r0, r1);
            const long long cells = rowsCount(c1, r0, r1) - rowsCount(c0, r0, r1);
            out[tc] = cells == 0 ? kMinusInf : double(sum / (long double)cells);
        }
    }
    sample.values = std::move(texels);
    return sample;
}

std::string alibiSlopeText(double slope) {
    if (!(slope > 0) || !std::isfinite(slope)) return formatValue(slope);
    const double exponent = -std::log2(slope);
    const double whole = std::round(exponent);
    if (std::abs(exponent - whole) < 1e-9 && whole >= 0 && whole <= 30) {
        return whole == 0 ? "1" : "1/" + std::to_string(1LL << int(whole));
    }
    // fairseq's slopes for up to 128 heads are 2^(-k/16): print the exponent when it is one.
    const double sixteenths = std::round(exponent * 16);
    if (std::abs(exponent * 16 - sixteenths) < 1e-7) {
        return "2^" + formatValue(-sixteenths / 16, 6);
    }
    return formatValue(slope, 4);
}

// ---------------------------------------------------------------------------------------------
// ALiBi
// ---------------------------------------------------------------------------------------------

Status validate(const AlibiFigureOptions& o) {
    if (auto s = requireIntInRange("heads", o.heads, 1, kMaxAlibiHeads); !s) return s;
    if (auto s = requireIntInRange("seq_len", o.seqLen, 1, kMaxSeqLen); !s) return s;
    if (auto s = requireIntInRange("head", o.enlargedHead, 0, o.heads - 1); !s) return s;
    if (o.queryIndex != -1) {
        if (auto s = requireIntInRange("query", o.queryIndex, 0, o.seqLen - 1); !s) return s;
    }
    if (auto s = requireIntInRange("preview_keys", o.previewKeys, 0, o.seqLen); !s) return s;
    return requireInRange("content_scale", o.contentScale, 0, 100);
}

int alibiQueryIndex(const AlibiFigureOptions& options) {
    return options.queryIndex < 0 ? std::max(0, options.seqLen - 1)
                                  : std::min(options.queryIndex, options.seqLen - 1);
}

std::vector<double> alibiContentLogits(int seqLen, double scale, std::uint64_t seed) {
    std::vector<double> logits;
    if (scale == 0 || seqLen <= 0) return logits;
    NormalSampler sampler(seed);
    logits.reserve(std::size_t(seqLen));
    for (int j = 0; j < seqLen; ++j) logits.push_back(scale * sampler.next());
    return logits;
}

CellWindow alibiPreviewWindow(const AlibiFigureOptions& options) {
    const int length = std::max(1, options.seqLen);
    const int query = alibiQueryIndex(options);
    const int count = options.previewKeys <= 0 ? length : std::min(options.previewKeys, length);
    CellWindow window;
    window.rowCount = 1;
    window.colCount = count;
    // Causal: the keys just before the query; symmetric: the query in the middle.
    window.firstCol = options.symmetric ? query - count / 2 : query - count + 1;
    return clampWindow(window, 1, length);
}

namespace {

// The bias matrix for slope 1, by offset: -|j - i|, and -inf for future keys when causal. Every
// head's matrix is this one times its slope, so one sample serves the whole grid.
std::vector<double> alibiUnitPattern(int length, bool symmetric) {
    std::vector<double> pattern(std::size_t(2 * length - 1));
    for (int k = 0; k < 2 * length - 1; ++k) {
        const int offset = k - (length - 1);  // j - i
        pattern[std::size_t(k)] =
            (!symmetric && offset > 0) ? kMinusInf : -std::abs(double(offset));
    }
    return pattern;
}

HeatmapSample scaledSample(const HeatmapSample& unit, double slope) {
    HeatmapSample sample = unit;
    auto values = std::make_shared<Matrix>(*unit.values);
    for (double& v : values->values) v = v == kMinusInf ? kMinusInf : v * slope;
    sample.values = std::move(values);
    sample.version = nextMatrixVersion();
    return sample;
}

std::string alibiHeadTitle(int head, double slope) {
    return "h" + std::to_string(head) + "  m=" + alibiSlopeText(slope);
}

ValueRange biasRange(double slope, int length) {
    const double low = -slope * double(std::max(1, length - 1));
    return {low < 0 ? low : -1.0, 0.0};
}

}  // namespace

AlibiLayout alibiLayout(Box area, const AlibiFigureOptions& options, const Theme& theme) {
    AlibiLayout layout;
    layout.area = area;
    const float topHeight = std::floor(area.height * 0.56f);
    const float gridWidth = std::floor(area.width * 0.55f);
    const float slopesWidth = std::floor(area.width * 0.36f);
    layout.grid = {area.x, area.y, gridWidth, topHeight};
    layout.enlarged = {area.x + gridWidth, area.y, area.width - gridWidth, topHeight};
    layout.slopes = {area.x, area.y + topHeight, slopesWidth, area.height - topHeight};
    layout.attention = {area.x + slopesWidth, area.y + topHeight, area.width - slopesWidth,
                        area.height - topHeight};

    const int heads = std::clamp(options.heads, 1, kMaxAlibiHeads);
    const std::vector<double> slopes = alibiSlopes(heads);
    const double steepest = *std::max_element(slopes.begin(), slopes.end());
    const Box& g = layout.grid;
    const float titleHeight = theme.titleSize * 1.7f;
    const float pad = theme.fontSize * 0.6f;
    const float colorbarBlock =
        colorbarBlockWidth(biasRange(steepest, options.seqLen), g.height, theme);
    const Box cellsArea{
        g.x + pad, g.y + titleHeight, g.width - colorbarBlock - 2 * pad,
        g.height - titleHeight - pad - (options.symmetric ? 0 : barWidthFor(theme) + 6)};

    // Columns that give the largest square cells; titles shrink with the cells and go when
    // they would be unreadable (the hover still names every head).
    std::size_t longestTitle = 0;
    for (int h = 0; h < heads; ++h) {
        longestTitle = std::max(longestTitle, alibiHeadTitle(h, slopes[std::size_t(h)]).size());
    }
    float bestSide = 0, bestTitle = 0;
    int bestColumns = 1;
    for (int columns = 1; columns <= heads; ++columns) {
        const int rows = (heads + columns - 1) / columns;
        const float cellWidth = cellsArea.width / float(columns);
        const float cellHeight = cellsArea.height / float(rows);
        float titleSize =
            std::min(theme.fontSize, cellWidth / (0.56f * float(longestTitle) + 0.5f));
        if (titleSize < 8.5f) titleSize = 0;
        const float gap = std::max(3.f, cellWidth * 0.06f);
        const float side = std::min(cellWidth - gap, cellHeight - gap - titleSize * 1.3f);
        if (side > bestSide) bestSide = side, bestTitle = titleSize, bestColumns = columns;
    }
    bestSide = std::floor(std::max(1.f, bestSide));
    layout.cellTitleSize = bestTitle;
    // Cells packed at their size plus a small gap, the block centred in the space.
    const int rows = (heads + bestColumns - 1) / bestColumns;
    const float gap = std::max(4.f, bestSide * 0.08f);
    const float pitchX = std::min(cellsArea.width / float(bestColumns), bestSide + gap);
    const float pitchY =
        std::min(cellsArea.height / float(rows), bestSide + bestTitle * 1.3f + gap);
    const float left = cellsArea.x + (cellsArea.width - pitchX * float(bestColumns)) / 2;
    const float top = cellsArea.y + (cellsArea.height - pitchY * float(rows)) / 2;
    for (int h = 0; h < heads; ++h) {
        const int column = h % bestColumns, row = h / bestColumns;
        const float x = left + pitchX * float(column) + (pitchX - bestSide) / 2;
        const float y = top + pitchY * float(row) + bestTitle * 1.3f;
        layout.cells.push_back({std::round(x), std::round(y), bestSide, bestSide});
    }
    float barBottom = 0;
    for (const Box& c : layout.cells) barBottom = std::max(barBottom, c.bottom());
    const float barTop = layout.cells.front().y;
    layout.colorbar = {g.right() - colorbarBlock + theme.fontSize * 0.4f, barTop,
                       barWidthFor(theme), std::max(20.f, barBottom - barTop)};
    return layout;
}

Result<AlibiFigureData> computeAlibiFigureData(const AlibiFigureOptions& options,
                                               const AlibiLayout& layout) {
    if (auto status = validate(options); !status) return status.error();
    AlibiFigureData data;
    data.slopes = alibiSlopes(options.heads);
    const int length = options.seqLen;
    const std::vector<double> unit = alibiUnitPattern(length, options.symmetric);

    // The grid: one unit sample at the cells' size, scaled per head.
    const int side = layout.cells.empty() ? 1 : texelBudget(layout.cells.front().width);
    const HeatmapSample unitSample =
        relativeOffsetSample(unit, length, {}, side, side, BlockSummary::MeanOfUnmasked);
    for (double slope : data.slopes) data.heads.push_back(scaledSample(unitSample, slope));
    data.gridRange = biasRange(*std::max_element(data.slopes.begin(), data.slopes.end()), length);

    // The enlarged head: one texel per pixel of its box at most.
    const double slope = data.slopes[std::size_t(options.enlargedHead)];
    data.enlarged = scaledSample(
        relativeOffsetSample(unit, length, {}, texelBudget(layout.enlarged.height),
                             texelBudget(layout.enlarged.width), BlockSummary::MeanOfUnmasked),
        slope);
    data.enlargedRange = biasRange(slope, length);

    // The attention preview: one softmax row per head, reduced to texels as it is computed.
    const CellWindow keys = alibiPreviewWindow(options);
    const int query = alibiQueryIndex(options);
    const std::vector<double> logits =
        alibiContentLogits(length, options.contentScale, options.contentSeed);
    HeatmapSample& attention = data.attention;
    attention.window = {0, options.heads, keys.firstCol, keys.colCount};
    attention.rowsPerTexel = cellsPerTexel(options.heads, texelBudget(layout.attention.height));
    attention.colsPerTexel = cellsPerTexel(keys.colCount, texelBudget(layout.attention.width));
    const long long texRows = (options.heads + attention.rowsPerTexel - 1) / attention.rowsPerTexel;
    const long long texCols = (keys.colCount + attention.colsPerTexel - 1) / attention.colsPerTexel;
    attention.rowSpan = double(texRows * attention.rowsPerTexel);
    attention.colSpan = double(texCols * attention.colsPerTexel);
    Matrix sums{std::size_t(texRows), std::size_t(texCols)};
    Matrix counts{std::size_t(texRows), std::size_t(texCols)};
    double largest = 0;
    for (int h = 0; h < options.heads; ++h) {
        auto row = alibiAttentionRow(data.slopes[std::size_t(h)], query, length, logits,
                                     options.symmetric);
        if (!row) return row.error();
        const std::size_t tr = std::size_t(h / attention.rowsPerTexel);
        for (long long k = 0; k < keys.colCount; ++k) {
            const long long j = keys.firstCol + k;
            if (!options.symmetric && j > query) continue;  // masked: stays out of the mean
            const double weight = (*row)[std::size_t(j)];
            largest = std::max(largest, weight);
            const std::size_t tc = std::size_t(k / attention.colsPerTexel);
            sums(tr, tc) += weight;
            counts(tr, tc) += 1;
        }
    }
    auto texels = std::make_shared<Matrix>(std::size_t(texRows), std::size_t(texCols));
    for (std::size_t i = 0; i < texels->values.size(); ++i) {
        texels->values[i] = counts.values[i] > 0 ? sums.values[i] / counts.values[i] : kMinusInf;
    }
    attention.values = std::move(texels);
    attention.version = nextMatrixVersion();
    data.attentionMax = largest > 0 ? largest : 1;
    return data;
}

int AlibiFigureFrames::headAt(Point p) const {
    for (std::size_t h = 0; h < cells.size(); ++h) {
        const Box& c = cells[h];
        if (p.x >= c.x - 2 && p.x < c.right() + 2 && p.y >= c.y - 2 && p.y < c.bottom() + 2) {
            return int(h);
        }
    }
    return -1;
}

void drawAlibiFigure(Figure& figure, const AlibiLayout& layout, const AlibiFigureOptions& options,
                     const AlibiFigureData& data, const Theme& theme, AlibiFigureFrames* frames) {
    const bool causal = !options.symmetric;
    const std::string formula = causal ? "-m·(i - j), future masked" : "-m·|i - j|";

    // ---- The grid of heads
    const Box& g = layout.grid;
    std::string gridTitle = std::to_string(options.heads) +
                            (options.heads == 1 ? " head" : " heads") + ", bias " + formula;
    if (layout.cellTitleSize == 0) gridTitle += " (hover for slopes)";
    drawTitle(figure, g, gridTitle, theme);
    for (std::size_t h = 0; h < layout.cells.size() && h < data.heads.size(); ++h) {
        const Box& cell = layout.cells[h];
        const HeatmapSample& sample = data.heads[h];
        if (layout.cellTitleSize > 0) {
            figure.add(label({cell.x + cell.width / 2, cell.y - 3},
                             alibiHeadTitle(int(h), data.slopes[h]), layout.cellTitleSize,
                             int(h) == options.enlargedHead ? theme.accent : theme.text,
                             HorizontalAlign::Center, VerticalAlign::Bottom));
        }
        HeatmapItem item;  // covers the cell: masked cells are painted, opaque, not blended
        item.box = cell;
        item.box.width *= float(sample.colSpan / double(sample.window.colCount));
        item.box.height *= float(sample.rowSpan / double(sample.window.rowCount));
        item.values = sample.values;
        item.colormap = options.colormap;
        item.range = data.gridRange;
        item.masked = theme.masked;
        item.version = sample.version;
        figure.add(ClipPush{cell});
        figure.add(item);
        figure.add(ClipPop{});
        if (int(h) == options.enlargedHead) {
            const Box ring{cell.x - 2, cell.y - 2, cell.width + 4, cell.height + 4};
            figure.add(filledRect(ring, {0, 0, 0, 0}, theme.accent, 2.5f));
        } else {
            figure.add(filledRect(cell, {0, 0, 0, 0}, theme.grid));
        }
    }
    const Box& bar = layout.colorbar;
    drawColorbar(figure, bar, options.colormap, data.gridRange, "bias (shared scale)",
                 g.right() - theme.fontSize * 2.2f, causal, theme);

    // ---- The enlarged head
    const int head = options.enlargedHead;
    const double slope = data.slopes[std::size_t(head)];
    HeatmapSpec enlarged = specFor(data.enlarged, "key j", "query i");
    enlarged.title = "Head " + std::to_string(head) + ": m = " + alibiSlopeText(slope) + ", bias " +
                     (causal ? "-m·(i - j)" : "-m·|i - j|");
    enlarged.colormap = options.colormap;
    enlarged.range = data.enlargedRange;
    enlarged.colorbarLabel = "bias";
    enlarged.showMaskedLegend = causal;
    PlotFrame enlargedFrame;
    drawHeatmap(figure, layout.enlarged, enlarged, theme, &enlargedFrame);
    drawCornerNote(figure, layout.enlarged, &enlargedFrame,
                   blockNote(data.enlarged, causal ? "mean of unmasked" : "mean of"), theme);

    // ---- Slopes across heads
    LinePlotSpec slopes;
    slopes.title = "Slope per head (fairseq get_slopes, n = " + std::to_string(options.heads) + ")";
    slopes.x = {"head", -0.5, double(options.heads) - 0.5};
    // log2 of the slopes: fairseq's slopes are powers of two, so the axis reads -1 for 1/2,
    // -8 for 1/256, and a power-of-two head count gives a straight line.
    slopes.y = {"log\u2082 of slope m", 0, 1};
    slopes.legend = false;
    LineSeries series;
    for (std::size_t h = 0; h < data.slopes.size(); ++h) {
        series.x.push_back(double(h));
        series.y.push_back(std::log2(data.slopes[h]));
    }
    series.markers = options.heads <= 64;
    series.width = 2;
    slopes.series.push_back(series);
    PlotFrame slopesFrame;
    drawLinePlot(figure, layout.slopes, slopes, theme, &slopesFrame);
    CircleItem chosen;
    chosen.center = slopesFrame.toPixel(double(head), std::log2(slope));
    chosen.radius = 6;
    chosen.stroke = theme.accent;
    chosen.strokeWidth = 2.5f;
    figure.add(chosen);

    // ---- Attention preview
    const int query = alibiQueryIndex(options);
    HeatmapSpec attention = specFor(data.attention, "key j", "head");
    attention.title =
        "Query " + std::to_string(query) + ": softmax(" +
        (options.contentScale > 0 ? "content + bias" : "bias") + ") per head" +
        (options.contentScale > 0 ? ", content σ = " + formatValue(options.contentScale, 3)
                                  : ", content logits 0");
    attention.colormap = options.colormap;
    attention.range = {0, data.attentionMax};
    attention.colorbarLabel = "weight";
    attention.showMaskedLegend = causal;
    const CellWindow& keys = data.attention.window;
    const bool queryShown = query >= keys.firstCol && query < keys.firstCol + keys.colCount;
    if (queryShown) {
        Marker marker;
        marker.value = query + 0.5;
        marker.color = theme.accent;
        attention.markers.push_back(marker);
    }
    PlotFrame attentionFrame;
    drawHeatmap(figure, layout.attention, attention, theme, &attentionFrame);
    if (data.attention.rowsPerTexel > 1 || data.attention.colsPerTexel > 1) {
        auto count = [](int n, const char* what) {
            return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
        };
        std::string note = "each pixel: mean of ";
        if (data.attention.rowsPerTexel > 1)
            note += count(data.attention.rowsPerTexel, "head") + " x ";
        note += count(data.attention.colsPerTexel, "key");
        drawCornerNote(figure, layout.attention, &attentionFrame, note, theme);
    }
    if (queryShown) {  // the label on whichever side of the line has room
        const Box& p = attentionFrame.plot;
        const float x = attentionFrame.toPixel(query + 0.5, 0).x;
        const bool right = x < p.x + p.width / 2;
        const std::string text = "query " + std::to_string(query);
        const float size = theme.fontSize * 0.9f;
        const float width = estimateTextWidth(text, size) + 8;
        const Box back{right ? x + 3 : x - 3 - width, p.y + 3, width, size * 1.35f};
        figure.add(filledRect(back, withAlpha(theme.plotBackground, 225)));
        figure.add(label({back.x + width / 2, back.y + back.height / 2}, text, size, theme.accent,
                         HorizontalAlign::Center, VerticalAlign::Middle));
    }

    if (frames) {
        frames->cells = layout.cells;
        frames->enlarged = enlargedFrame;
        frames->slopes = slopesFrame;
        frames->attention = attentionFrame;
    }
}

Status drawAlibiFigure(Figure& figure, Box area, const AlibiFigureOptions& options,
                       const Theme& theme) {
    if (auto status = validate(options); !status) return status;
    const AlibiLayout layout = alibiLayout(area, options, theme);
    auto data = computeAlibiFigureData(options, layout);
    if (!data) return data.error();
    drawAlibiFigure(figure, layout, options, *data, theme);
    return success();
}

// ---------------------------------------------------------------------------------------------
// T5
// ---------------------------------------------------------------------------------------------

Status validate(const T5FigureOptions& options) {
    // The figures never build the L x L matrix, so only the range of seq_len is checked here,
    // not the memory the matrix would need.
    if (auto s = requireIntInRange("seq_len", options.params.seqLen, 1, kMaxSeqLen); !s) return s;
    T5Params shape = options.params;
    shape.seqLen = 1;
    if (auto s = validate(shape); !s) return s;
    if (!options.bucketBiases.empty()) {
        if (options.bucketBiases.size() != std::size_t(options.params.numBuckets)) {
            return Error{"bucket biases must have num_buckets = " +
                         std::to_string(options.params.numBuckets) + " values (got " +
                         std::to_string(options.bucketBiases.size()) + ")"};
        }
        for (std::size_t b = 0; b < options.bucketBiases.size(); ++b) {
            if (auto s = requireFinite("bucket bias " + std::to_string(b), options.bucketBiases[b]);
                !s) {
                return s;
            }
        }
    }
    return success();
}

std::vector<double> t5EffectiveBiases(const T5FigureOptions& options) {
    if (options.bucketBiases.size() == std::size_t(options.params.numBuckets)) {
        return options.bucketBiases;
    }
    return seededBucketBiases(options.params.numBuckets, options.biasSeed);
}

std::string t5RangeText(const BucketRange& range) {
    const std::string low = range.minUnbounded ? "-inf" : std::to_string(range.minDistance);
    const std::string high = range.maxUnbounded ? "+inf" : std::to_string(range.maxDistance);
    if (!range.minUnbounded && !range.maxUnbounded && range.minDistance == range.maxDistance) {
        return low;
    }
    return low + ".." + high;
}

int t5ChartReach(const T5Params& params) {
    return std::max(8, int(std::ceil(1.25 * double(params.maxDistance))));
}

T5Layout t5Layout(Box area, const Theme& theme) {
    T5Layout layout;
    layout.area = area;
    const float topHeight = std::floor(area.height * 0.58f);
    const float half = std::floor(area.width * 0.5f);
    const float legendWidth = std::floor(theme.fontSize * 5.0f);
    layout.buckets = {area.x, area.y, half - legendWidth, topHeight};
    layout.bucketLegend = {area.x + half - legendWidth, area.y, legendWidth, topHeight};
    layout.bias = {area.x + half, area.y, area.width - half, topHeight};
    layout.edges = {area.x, area.y + topHeight, half, area.height - topHeight};
    layout.biasCurve = {area.x + half, area.y + topHeight, area.width - half,
                        area.height - topHeight};
    return layout;
}

Result<T5FigureData> computeT5FigureData(const T5FigureOptions& options, const T5Layout& layout) {
    if (auto status = validate(options); !status) return status.error();
    const T5Params& p = options.params;
    T5FigureData data;
    data.ranges = t5BucketRanges(p);
    data.biases = t5EffectiveBiases(options);

    const int length = p.seqLen;
    std::vector<double> ids(std::size_t(2 * length - 1)), biases(ids.size());
    for (int k = 0; k < 2 * length - 1; ++k) {
        const int bucket = t5RelativePositionBucket(k - (length - 1), p.bidirectional, p.numBuckets,
                                                    p.maxDistance);
        ids[std::size_t(k)] = double(bucket % kCategoricalWrap);
        biases[std::size_t(k)] = data.biases[std::size_t(bucket)];
    }
    // Ids are categories: a texel shows the bucket of its centre cell, never a mean of ids.
    data.buckets =
        relativeOffsetSample(ids, length, {}, texelBudget(layout.buckets.height),
                             texelBudget(layout.buckets.width), BlockSummary::CentreCell);
    data.bias = relativeOffsetSample(biases, length, {}, texelBudget(layout.bias.height),
                                     texelBudget(layout.bias.width), BlockSummary::MeanOfUnmasked);
    double largest = 0;
    for (double b : data.biases) largest = std::max(largest, std::abs(b));
    data.biasRange = {-(largest > 0 ? largest : 1), largest > 0 ? largest : 1};
    return data;
}

namespace {

// Bucket ranges as steps over relative positions -reach..reach, left to right.
struct Step {
    long long low, high;
    int bucket;
};
std::vector<Step> stepsWithin(const std::vector<BucketRange>& ranges, int reach) {
    std::vector<Step> steps;
    for (const BucketRange& r : ranges) {
        const long long low = r.minUnbounded ? -reach : std::max<long long>(r.minDistance, -reach);
        const long long high = r.maxUnbounded ? reach : std::min<long long>(r.maxDistance, reach);
        if (high < low) continue;
        steps.push_back({low, high, r.bucket});
    }
    std::sort(steps.begin(), steps.end(),
              [](const Step& a, const Step& b) { return a.low < b.low; });
    return steps;
}

LineSeries stepSeries(const std::vector<Step>& steps, const std::vector<double>& valueOfBucket) {
    LineSeries series;
    for (const Step& s : steps) {
        const double value = valueOfBucket[std::size_t(s.bucket)];
        series.x.push_back(double(s.low) - 0.5);
        series.y.push_back(value);
        series.x.push_back(double(s.high) + 0.5);
        series.y.push_back(value);
    }
    series.width = 2;
    return series;
}

// Dashed lines where the exact buckets end (|j - i| = max_exact) and at max_distance, on each
// side that has buckets.
void addEdgeMarkers(LinePlotSpec& spec, const T5Params& p, int maxExact, const Theme& theme) {
    for (int side : {-1, 1}) {
        if (side > 0 && !p.bidirectional) continue;
        Marker exact;
        exact.value = side * (maxExact - 0.5);
        exact.color = theme.mutedText;
        spec.markers.push_back(exact);
        Marker far;
        far.value = side * double(p.maxDistance);
        far.color = theme.accent;
        spec.markers.push_back(far);
    }
}

// Their labels, right of the lines on a backing box, where the step curve is not: "exact below
// n" by the rightmost exact line (bidirectional: mid-height, the curve right of it is high;
// causal: at the top, the curve there is below half), "max_distance m" at the bottom by the
// left line (the curve is mid-height or high there).
void labelEdgeMarkers(Figure& figure, const PlotFrame& frame, const T5Params& p, int maxExact,
                      const Theme& theme) {
    const float size = theme.fontSize * 0.9f;
    const Box& plot = frame.plot;
    auto boxed = [&](double x, float top, const std::string& text, Rgba color) {
        const float px = frame.toPixel(x, 0).x;
        const float width = estimateTextWidth(text, size) + 8, height = size * 1.35f;
        if (px + 3 + width > plot.right()) return;
        const Box back{px + 3, top, width, height};
        figure.add(filledRect(back, withAlpha(theme.plotBackground, 225)));
        figure.add(label({back.x + width / 2, back.y + height / 2}, text, size, color,
                         HorizontalAlign::Center, VerticalAlign::Middle));
    };
    const float height = size * 1.35f;
    boxed(p.bidirectional ? maxExact - 0.5 : -(maxExact - 0.5),
          p.bidirectional ? plot.y + plot.height * 0.5f : plot.y + 3,
          "exact below " + std::to_string(maxExact), theme.mutedText);
    boxed(-double(p.maxDistance), plot.bottom() - 3 - height,
          "max_distance " + std::to_string(p.maxDistance), theme.accent);
}

std::string directionText(const T5Params& p) {
    return p.bidirectional ? "bidirectional" : "causal";
}

}  // namespace

void drawT5Figure(Figure& figure, const T5Layout& layout, const T5FigureOptions& options,
                  const T5FigureData& data, const Theme& theme, T5FigureFrames* frames) {
    const T5Params& p = options.params;
    T5FigureFrames local;
    T5FigureFrames& out = frames ? *frames : local;

    // ---- Bucket ids with a discrete legend
    HeatmapSpec buckets = specFor(data.buckets, "key j", "query i");
    buckets.title = "Bucket of j - i (" + std::to_string(p.numBuckets) + " buckets, max_distance " +
                    std::to_string(p.maxDistance) + ")";
    buckets.colormap = ColormapId::Categorical;
    buckets.range = kCategoricalRange;
    buckets.showColorbar = false;
    drawHeatmap(figure, layout.buckets, buckets, theme, &out.buckets);
    {
        const Box plot = out.buckets.plot;
        const Box& legend = layout.bucketLegend;
        const float width = barWidthFor(theme);
        const Box strip{legend.x + theme.fontSize * 0.4f, plot.y, width, plot.height};
        // Top row = highest bucket, as colour bars put high values on top.
        const int count = p.numBuckets;
        const int rows = std::max(1, std::min(count, int(plot.height)));
        auto values = std::make_shared<Matrix>(std::size_t(rows), 1);
        const double perRow = double(count) / rows;
        for (int r = 0; r < rows; ++r) {
            const int bucket = count - 1 - int((r + 0.5) * perRow);
            (*values)(std::size_t(r), 0) = double(bucket % kCategoricalWrap);
        }
        HeatmapItem item;
        item.box = strip;
        item.values = std::move(values);
        item.colormap = ColormapId::Categorical;
        item.range = kCategoricalRange;
        // The legend depends on the bucket count and the strip height only.
        item.version =
            (std::uint64_t(1) << 62) | (std::uint64_t(count) << 20) | std::uint64_t(rows);
        figure.add(item);
        figure.add(filledRect(strip, {0, 0, 0, 0}, theme.axis));
        const float perBucket = strip.height / float(count);
        // Labels only, no tick marks: a mark before a number reads as a minus sign.
        const int most = std::max(2, int(strip.height / (theme.fontSize * 1.6f)));
        for (const Tick& t : linearTicks(0, count - 1, most, true)) {
            const float py = strip.bottom() - (float(t.value) + 0.5f) * perBucket;
            figure.add(label({strip.right() + 5, py}, t.label, theme.fontSize, theme.text,
                             HorizontalAlign::Left, VerticalAlign::Middle));
        }
        figure.add(label({legend.right() - theme.fontSize * 1.4f, strip.y + strip.height / 2},
                         "bucket id", theme.fontSize, theme.mutedText, HorizontalAlign::Center,
                         VerticalAlign::Top, true));
    }

    // ---- Bias matrix
    HeatmapSpec bias = specFor(data.bias, "key j", "query i");
    const bool edited = options.bucketBiases.size() == std::size_t(p.numBuckets);
    bias.title =
        std::string("Bias = b[bucket(j - i)], ") +
        (edited ? "edited values" : "b ~ N(0, 1), seed " + std::to_string(options.biasSeed));
    bias.colormap = ColormapId::BlueWhiteRed;
    bias.range = data.biasRange;
    bias.colorbarLabel = "bias";
    drawHeatmap(figure, layout.bias, bias, theme, &out.bias);
    drawCornerNote(figure, layout.bias, &out.bias, blockNote(data.bias, "mean of"), theme);
    if (data.buckets.rowsPerTexel > 1 || data.buckets.colsPerTexel > 1) {
        drawCornerNote(figure,
                       {layout.buckets.x, layout.buckets.y,
                        layout.buckets.width + layout.bucketLegend.width, layout.buckets.height},
                       &out.buckets, "each pixel: the bucket of its centre cell", theme);
    }

    // ---- Bucket edges and bias against relative position
    const int reach = t5ChartReach(p);
    const std::vector<Step> steps = stepsWithin(data.ranges, reach);
    // The bucket axis is a cell axis (integer ticks, tick b at the centre of row b), so bucket b
    // is drawn at b + 0.5.
    std::vector<double> idOf(std::size_t(p.numBuckets));
    for (int b = 0; b < p.numBuckets; ++b) idOf[std::size_t(b)] = b + 0.5;
    const int maxExact = t5MaxExact(p);

    LinePlotSpec edges;
    edges.title = "Bucket id against j - i (" + directionText(p) + ")";
    edges.x = {"relative position j - i (key - query)", -reach - 0.5, reach + 0.5};
    edges.y = {"bucket", 0, double(p.numBuckets), false, true};
    edges.autoRangeY = false;
    edges.legend = false;
    edges.series.push_back(stepSeries(steps, idOf));
    edges.series.back().color =
        theme.id == ThemeId::Dark ? Rgba{86, 180, 233, 255} : Rgba{0, 114, 178, 255};
    addEdgeMarkers(edges, p, maxExact, theme);
    drawLinePlot(figure, layout.edges, edges, theme, &out.edges);
    labelEdgeMarkers(figure, out.edges, p, maxExact, theme);

    LinePlotSpec curve;
    curve.title = "Bias against relative position j - i";
    curve.x = edges.x;
    curve.y = {"bias", 0, 1};
    curve.legend = false;
    curve.series.push_back(stepSeries(steps, data.biases));
    curve.series.back().color = theme.accent;
    addEdgeMarkers(curve, p, maxExact, theme);  // labelled once, on the left chart
    drawLinePlot(figure, layout.biasCurve, curve, theme, &out.biasCurve);
}

Status drawT5Figure(Figure& figure, Box area, const T5FigureOptions& options, const Theme& theme) {
    if (auto status = validate(options); !status) return status;
    const T5Layout layout = t5Layout(area, theme);
    auto data = computeT5FigureData(options, layout);
    if (!data) return data.error();
    drawT5Figure(figure, layout, options, *data, theme);
    return success();
}

}  // namespace poslab
