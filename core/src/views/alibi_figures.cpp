#include "poslab/views/alibi_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/figure/layout.hpp"

namespace poslab {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

}  // namespace

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
    // Appended piece by piece: "h" + std::to_string(...) trips GCC 12's -Wrestrict false positive.
    std::string title = "h";
    title += std::to_string(head);
    title += "  m=";
    title += alibiSlopeText(slope);
    return title;
}

// The grid's title; with `hoverHint` when the cells are too small for titles of their own.
std::string alibiGridTitle(const AlibiFigureOptions& options, bool hoverHint) {
    std::string title = std::to_string(options.heads) + (options.heads == 1 ? " head" : " heads") +
                        ", bias " +
                        (options.symmetric ? "$-m·|i-j|$" : "$-m·(i-j)$, future masked");
    if (hoverHint) title += " (hover for slopes)";
    return title;
}

// drawWrappedTitle's rule: two lines when one does not fit at 90 % size (paper controls that
// replace or hide titles draw one line at most).
bool titleWraps(const std::string& title, float width, const Theme& theme) {
    return theme.titleMode == TitleMode::Auto &&
           estimateTextWidth(title, theme.titleSize * 0.9f) > width - theme.titleSize;
}

ValueRange biasRange(double slope, int length) {
    const double low = -slope * double(std::max(1, length - 1));
    return {low < 0 ? low : -1.0, 0.0};
}

}  // namespace

PanelGrid alibiPanels(Box area, const Theme& theme, int panel) {
    return reflowOrFocus(area, kAlibiPanels, theme, panel);
}

AlibiLayout alibiLayout(Box area, const AlibiFigureOptions& options, const Theme& theme,
                        int panel) {
    AlibiLayout layout;
    layout.area = area;
    layout.cellResolution = theme.cellResolution;
    const PanelGrid panels = alibiPanels(area, theme, panel);
    if (panels.columns == 2) {
        // Two columns: the grid wider than the enlarged head, the attention wider than the
        // slopes (its keys run across).
        const float topHeight = std::floor(area.height * 0.56f);
        const float gridWidth = std::floor(area.width * 0.55f);
        const float slopesWidth = std::floor(area.width * 0.36f);
        layout.grid = {area.x, area.y, gridWidth, topHeight};
        layout.enlarged = {area.x + gridWidth, area.y, area.width - gridWidth, topHeight};
        layout.slopes = {area.x, area.y + topHeight, slopesWidth, area.height - topHeight};
        layout.attention = {area.x + slopesWidth, area.y + topHeight, area.width - slopesWidth,
                            area.height - topHeight};
    } else {
        layout.grid = panels.cell(0);
        layout.enlarged = panels.cell(1);
        layout.slopes = panels.cell(2);
        layout.attention = panels.cell(3);
    }
    if (layout.grid.width <= 0) return layout;  // the grid of heads is not shown

    const int heads = std::clamp(options.heads, 1, kMaxAlibiHeads);
    const std::vector<double> slopes = alibiSlopes(heads);
    const double steepest = *std::max_element(slopes.begin(), slopes.end());
    const Box& g = layout.grid;
    const float colorbarBlock =
        colorbarBlockWidth(biasRange(steepest, options.seqLen), g.height, theme);
    // The title without the hover hint decides: a second line when it would not fit over the
    // cells (as wide as drawAlibiFigure's title box, left of the colour bar).
    const float titleWidth = g.width - colorbarBlock + theme.fontSize * 0.4f;
    const bool titleShown = theme.titleMode != TitleMode::Hidden;
    const float titleHeight =
        titleBandHeight(theme, 1.7f) +
        (titleShown && titleWraps(alibiGridTitle(options, false), titleWidth, theme)
             ? theme.titleSize * 1.15f
             : 0);
    const float pad = theme.fontSize * 0.6f;
    const Box cellsArea{
        g.x + pad, g.y + titleHeight, g.width - colorbarBlock - 2 * pad,
        g.height - titleHeight - pad - (options.symmetric ? 0 : barWidthFor(theme) + 6)};

    // Columns that give the largest square cells; titles shrink with the cells and go when
    // they would be unreadable (the hover still names every head).
    std::size_t longestTitle = 0;
    for (int h = 0; h < heads; ++h) {
        longestTitle = std::max(longestTitle, alibiHeadTitle(h, slopes[std::size_t(h)]).size());
    }
    // Head titles no smaller than print allows (8 pt at the printed width: paper-theme files),
    // else shorter ones; the screen keeps its own floor (its hover names every head).
    const float minTitle = theme.id == ThemeId::Paper ? std::max(8.5f, theme.minTextSize) : 8.5f;
    float bestSide = 0, bestTitle = 0;
    int bestColumns = 1;
    for (int columns = 1; columns <= heads; ++columns) {
        const int rows = (heads + columns - 1) / columns;
        const float cellWidth = cellsArea.width / float(columns);
        const float cellHeight = cellsArea.height / float(rows);
        float titleSize =
            std::min(theme.fontSize, cellWidth / (0.56f * float(longestTitle) + 0.5f));
        if (titleSize < minTitle) titleSize = 0;
        const float gap = std::max(3.f, cellWidth * 0.06f);
        const float side = std::min(cellWidth - gap, cellHeight - gap - titleSize * 1.3f);
        if (side > bestSide) bestSide = side, bestTitle = titleSize, bestColumns = columns;
    }
    bestSide = std::floor(std::max(1.f, bestSide));
    // Cells packed at their size plus a small gap, the block centred in the space.
    const int rows = (heads + bestColumns - 1) / bestColumns;
    const float gap = std::max(4.f, bestSide * 0.08f);
    const float pitchX = std::min(cellsArea.width / float(bestColumns), bestSide + gap);
    // Cells limited by the height sit closer than the column width the titles were sized for:
    // the titles then fit the pitch, a few pixels apart (or go).
    float widestAtOne = 0;
    for (int h = 0; h < heads; ++h) {
        widestAtOne =
            std::max(widestAtOne, estimateTextWidth(alibiHeadTitle(h, slopes[std::size_t(h)]), 1));
    }
    if (widestAtOne > 0) bestTitle = std::min(bestTitle, (pitchX - 4) / widestAtOne);
    if (bestTitle < minTitle) bestTitle = 0;
    if (bestTitle == 0 && minTitle > 8.5f) {
        // No room for "h3  m=1/16" at a legible size (one column in print): "h3" over each
        // cell, the cells made as much smaller as its line needs (the slopes panel names m).
        const float widestShort = estimateTextWidth("h" + std::to_string(heads - 1), 1);
        const float size = std::min(theme.fontSize, (pitchX - 4) / widestShort);
        const float sideWithTitle =
            std::floor(cellsArea.height / float(rows) - gap - minTitle * 1.3f);
        if (size >= minTitle && sideWithTitle >= bestSide * 0.6f) {
            bestTitle = minTitle;
            bestSide = std::min(bestSide, sideWithTitle);
            layout.cellTitleShort = true;
        }
    }
    layout.cellTitleSize = bestTitle;
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
                                               const AlibiLayout& layout, AlibiBiasCache* cache) {
    if (auto status = validate(options); !status) return status.error();
    AlibiFigureData data;
    data.slopes = alibiSlopes(options.heads);
    const int length = options.seqLen;
    const double slope = data.slopes[std::size_t(options.enlargedHead)];
    data.gridRange = biasRange(*std::max_element(data.slopes.begin(), data.slopes.end()), length);
    data.enlargedRange = biasRange(slope, length);

    const AlibiBiasCache::Key biasKey{
        options.heads,
        length,
        options.enlargedHead,
        options.symmetric,
        layout.cells.empty() ? 1 : texelBudget(layout.cells.front().width),
        texelBudget(layout.enlarged.height, layout.cellResolution),
        texelBudget(layout.enlarged.width, layout.cellResolution)};
    auto makeBias = [&] {
        AlibiBiasCache::Part part;
        const std::vector<double> unit = alibiUnitPattern(length, options.symmetric);
        // The grid: one unit sample at the cells' size, scaled per head.
        const HeatmapSample unitSample = relativeOffsetSample(
            unit, length, {}, biasKey.gridSide, biasKey.gridSide, BlockSummary::MeanOfUnmasked);
        for (double s : data.slopes) part.heads.push_back(scaledSample(unitSample, s));
        // The enlarged head: one texel per pixel of its box at most.
        part.enlarged =
            scaledSample(relativeOffsetSample(unit, length, {}, biasKey.enlargedRows,
                                              biasKey.enlargedCols, BlockSummary::MeanOfUnmasked),
                         slope);
        return part;
    };
    AlibiBiasCache::Part bias = cache ? cache->get(biasKey, makeBias) : makeBias();
    data.heads = std::move(bias.heads);
    data.enlarged = std::move(bias.enlarged);

    // The attention preview: one softmax row per head, reduced to texels as it is computed.
    const CellWindow keys = alibiPreviewWindow(options);
    const int query = alibiQueryIndex(options);
    const std::vector<double> logits =
        alibiContentLogits(length, options.contentScale, options.contentSeed);
    HeatmapSample& attention = data.attention;
    attention.window = {0, options.heads, keys.firstCol, keys.colCount};
    attention.rowsPerTexel =
        cellsPerTexel(options.heads, texelBudget(layout.attention.height, layout.cellResolution));
    attention.colsPerTexel =
        cellsPerTexel(keys.colCount, texelBudget(layout.attention.width, layout.cellResolution));
    const long long texRows = (options.heads + attention.rowsPerTexel - 1) / attention.rowsPerTexel;
    const long long texCols = (keys.colCount + attention.colsPerTexel - 1) / attention.colsPerTexel;
    attention.rowSpan = double(texRows * attention.rowsPerTexel);
    attention.colSpan = double(texCols * attention.colsPerTexel);
    Matrix sums{std::size_t(texRows), std::size_t(texCols)};
    Matrix counts{std::size_t(texRows), std::size_t(texCols)};
    // Texel rows shared out between the cores, each with its own row buffer; every texel still
    // adds its heads in order and, within a head, its keys in order (the sums do not depend on
    // the number of cores). Keys are walked texel by texel: no division per key.
    std::vector<double> rowLargest(std::size_t(texRows), 0.0);
    std::vector<std::string> rowErrors(static_cast<std::size_t>(texRows));
    const long long keyEnd = keys.firstCol + keys.colCount;
    const long long unmaskedEnd =
        options.symmetric ? keyEnd : std::min<long long>(keyEnd, query + 1);
    parallelFor(texRows, 1, [&](long long firstRow, long long lastRow) {
        std::vector<double> row;
        std::pair<int, int> nonZero;
        for (long long tr = firstRow; tr < lastRow; ++tr) {
            double& largest = rowLargest[std::size_t(tr)];
            double* rowSums = sums.row(std::size_t(tr));
            double* rowCounts = counts.row(std::size_t(tr));
            const int h1 =
                int(std::min<long long>(options.heads, (tr + 1) * attention.rowsPerTexel));
            for (int h = int(tr * attention.rowsPerTexel); h < h1; ++h) {
                const Status made =
                    alibiAttentionRowInto(data.slopes[std::size_t(h)], query, length, logits,
                                          options.symmetric, row, &nonZero);
                if (!made) {
                    rowErrors[std::size_t(tr)] = made.error().message;
                    return;
                }
                for (long long tc = 0; tc < texCols; ++tc) {
                    const long long j0 = keys.firstCol + tc * attention.colsPerTexel;
                    // masked keys (causal, past the query) stay out of the mean
                    const long long j1 = std::min(unmaskedEnd, j0 + attention.colsPerTexel);
                    // the keys outside nonZero add 0: left out, the sums are the same doubles
                    const long long s1 = std::min<long long>(j1, nonZero.second);
                    for (long long j = std::max<long long>(j0, nonZero.first); j < s1; ++j) {
                        const double weight = row[std::size_t(j)];
                        largest = std::max(largest, weight);
                        rowSums[tc] += weight;
                    }
                    rowCounts[tc] += double(std::max<long long>(0, j1 - j0));
                }
            }
        }
    });
    for (const std::string& error : rowErrors) {
        if (!error.empty()) return Error{error};
    }
    const double largest = *std::max_element(rowLargest.begin(), rowLargest.end());
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
                     const AlibiFigureData& data, const Theme& theme, AlibiFigureFrames* frames,
                     Figure* preview) {
    const bool causal = !options.symmetric;

    PlotFrame enlargedFrame, slopesFrame, attentionFrame;
    // ---- The grid of heads
    const Box& g = layout.grid;
    if (!layout.cells.empty()) {
        // Over the cells only: the colour bar's caption runs up the right edge.
        const Box titleBox{g.x, g.y, layout.colorbar.x - g.x, g.height};
        // The hover hint when the cells have no titles, if it takes no more lines than the
        // layout left room for.
        std::string gridTitle = alibiGridTitle(options, false);
        const std::string hinted = alibiGridTitle(options, true);
        if (layout.cellTitleSize == 0 && (titleWraps(gridTitle, titleBox.width, theme) ||
                                          !titleWraps(hinted, titleBox.width, theme))) {
            gridTitle = hinted;
        }
        if (theme.titleMode == TitleMode::Auto) {
            drawWrappedTitle(figure, titleBox, gridTitle, theme);
        } else {
            drawTitle(figure, titleBox, gridTitle, theme);
        }
        for (std::size_t h = 0; h < layout.cells.size() && h < data.heads.size(); ++h) {
            const Box& cell = layout.cells[h];
            const HeatmapSample& sample = data.heads[h];
            if (layout.cellTitleSize > 0) {
                figure.add(centredText({cell.x + cell.width / 2, cell.y - 3},
                                       layout.cellTitleShort
                                           ? "h" + std::to_string(h)
                                           : alibiHeadTitle(int(h), data.slopes[h]),
                                       layout.cellTitleSize,
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
    }

    // ---- The enlarged head
    const int head = options.enlargedHead;
    const double slope = data.slopes[std::size_t(head)];
    if (layout.enlarged.width > 0) {
        HeatmapSpec enlarged = specFor(data.enlarged, "key j", "query i");
        enlarged.squareCells = true;  // L x L: a query's row as long as a key's column
        enlarged.title = "Head " + std::to_string(head) + ": m = " + alibiSlopeText(slope) +
                         ", bias " + (causal ? "$-m·(i-j)$" : "$-m·|i-j|$");
        enlarged.colormap = options.colormap;
        enlarged.range = data.enlargedRange;
        enlarged.colorbarLabel = "bias";
        enlarged.showMaskedLegend = causal;
        drawHeatmap(figure, layout.enlarged, enlarged, theme, &enlargedFrame);
        drawCornerNote(figure, layout.enlarged, &enlargedFrame,
                       blockNote(data.enlarged, causal ? "mean of unmasked" : "mean of"), theme);
    }

    // ---- Slopes across heads
    if (layout.slopes.width > 0) {
        LinePlotSpec slopes;
        slopes.title =
            "Slope per head (fairseq get_slopes, n = " + std::to_string(options.heads) + ")";
        slopes.x = integerAxis("head", -0.5, double(options.heads) - 0.5);
        // log2 of the slopes: fairseq's slopes are powers of two, so the axis reads -1 for 1/2,
        // -8 for 1/256, and a power-of-two head count gives a straight line. Ticked at whole
        // powers only (a one-column PDF read -7.5, -5, -2.5; other head counts put some heads
        // between them).
        slopes.y = {"log\u2082 of slope m", 0, 1, false, false, true};
        slopes.legend = false;
        LineSeries series;
        for (std::size_t h = 0; h < data.slopes.size(); ++h) {
            series.x.push_back(double(h));
            series.y.push_back(std::log2(data.slopes[h]));
        }
        series.markers = options.heads <= 64;
        series.width = 2;
        slopes.series.push_back(series);
        drawLinePlot(figure, layout.slopes, slopes, theme, &slopesFrame);
        CircleItem chosen;
        chosen.center = slopesFrame.toPixel(double(head), std::log2(slope));
        chosen.radius = 6;
        chosen.stroke = theme.accent;
        chosen.strokeWidth = 2.5f;
        figure.add(chosen);
    }

    // ---- Attention preview (last: nothing drawn after it)
    const int query = alibiQueryIndex(options);
    // Drawn into a copy of the figure so far when split: placing its labels and notes sees the
    // same texts, marks and titles as in the one figure, so its items are the same too.
    Figure split;
    if (preview) split = figure;
    Figure& live = preview ? split : figure;
    const std::size_t before = live.items.size();
    if (layout.attention.width > 0) {
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
            marker.label = "query " + std::to_string(query);  // placed off the cells
            marker.color = theme.accent;
            attention.markers.push_back(marker);
        }
        drawHeatmap(live, layout.attention, attention, theme, &attentionFrame);
        if (data.attention.rowsPerTexel > 1 || data.attention.colsPerTexel > 1) {
            auto count = [](int n, const char* what) {
                return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
            };
            std::string note = "each pixel: mean of ";
            if (data.attention.rowsPerTexel > 1)
                note += count(data.attention.rowsPerTexel, "head") + " × ";
            note += count(data.attention.colsPerTexel, "key");
            drawCornerNote(live, layout.attention, &attentionFrame, note, theme);
        }
    }
    if (preview) {
        preview->items.insert(preview->items.end(), split.items.begin() + std::ptrdiff_t(before),
                              split.items.end());
    }

    if (frames) {
        frames->cells = layout.cells;
        frames->enlarged = enlargedFrame;
        frames->slopes = slopesFrame;
        frames->attention = attentionFrame;
    }
}

Status drawAlibiFigure(Figure& figure, Box area, const AlibiFigureOptions& options,
                       const Theme& theme, int panel) {
    if (auto status = validate(options); !status) return status;
    const AlibiLayout layout = alibiLayout(area, options, theme, panel);
    auto data = computeAlibiFigureData(options, layout);
    if (!data) return data.error();
    figure.viewPanels = kAlibiPanels.count;  // --panel N: the GUI's panel N (the grid is one)
    drawAlibiFigure(figure, layout, options, *data, theme);
    return success();
}

}  // namespace poslab
