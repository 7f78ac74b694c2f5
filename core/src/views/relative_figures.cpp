#include "poslab/views/relative_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_fit.hpp"
#include "poslab/views/print_room.hpp"
#include "poslab/views/relative_oscillators.hpp"

namespace poslab {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

ValueRange texelRange(const Matrix& values) {
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (double v : values.values) {
        if (!std::isfinite(v)) continue;
        low = std::min(low, v);
        high = std::max(high, v);
    }
    if (!(low <= high)) return {0, 1};
    if (high - low < 1e-12) return {low - 0.5, high + 0.5};
    return {low, high};
}

int plotColumns(Box box) {
    return std::max(16, int(box.width));
}

// A quarter of the texels a side while a control moves (Detail::Coarse).
constexpr int kCoarseShrink = 4;
int budgetFor(double pixels, Detail detail) {
    const int full = texelBudget(pixels);
    return detail == Detail::Coarse ? std::max(1, full / kCoarseShrink) : full;
}

// The centre cell of each texel (BlockSummary::CentreCell) of a member's causal matrix, with the
// member evaluated at those cells' distances only: O(texels) evaluations instead of O(L).
HeatmapSample centreCellSample(const RelativeFigureOptions& o, FamilyMember member, int rows,
                               int cols) {
    const long long length = std::max(1, o.seqLen);
    // The cells relativeOffsetSample reads: each block's centre, r0 + (r1 - r0 - 1) / 2.
    auto centres = [length](int texels) {
        const long long per = cellsPerTexel(length, texels);
        std::vector<long long> out;
        for (long long first = 0; first < length; first += per)
            out.push_back(first + (std::min(length, first + per) - first - 1) / 2);
        return out;
    };
    const std::vector<long long> rowCentres = centres(rows), colCentres = centres(cols);
    std::vector<double> distances;
    for (long long i : rowCentres)
        for (long long j : colCentres)
            if (j <= i) distances.push_back(double(i - j));
    std::sort(distances.begin(), distances.end());
    distances.erase(std::unique(distances.begin(), distances.end()), distances.end());
    const std::vector<double> values = toeplitzAtDistances(o, member, distances);
    std::vector<double> byOffset(std::size_t(2 * length - 1), kNegInf);
    for (std::size_t k = 0; k < distances.size(); ++k)
        byOffset[std::size_t(length - 1 - (long long)distances[k])] = values[k];
    return relativeOffsetSample(byOffset, int(length), {}, rows, cols, BlockSummary::CentreCell);
}

// The rotary members (xPos, RoPE, Sandwich) cost O(pairs) per distance: their texels are exact
// block means from closed-form block sums (relative_oscillators.hpp), O(texels x pairs) instead
// of O(L x pairs). The rest cost O(1) per distance and are summed from every offset (coarse: their
// centre cells).
HeatmapSample toeplitzSample(const RelativeFigureOptions& o, FamilyMember member, Box box,
                             Detail detail) {
    const int rows = budgetFor(box.height, detail), cols = budgetFor(box.width, detail);
    switch (member) {
        case FamilyMember::Xpos:
            return causalOscillatorSample(xposOnesOscillators(o.xpos), o.seqLen, rows, cols);
        case FamilyMember::Rope:
            return causalOscillatorSample(ropeOnesOscillators(o.xpos), o.seqLen, rows, cols);
        case FamilyMember::Sandwich:
            return causalOscillatorSample(sandwichOscillators(o.sandwich), o.seqLen, rows, cols);
        default:
            break;
    }
    if (detail == Detail::Coarse) return centreCellSample(o, member, rows, cols);
    return relativeOffsetSample(toeplitzByOffset(o, member, o.seqLen), o.seqLen, {}, rows, cols,
                                BlockSummary::MeanOfUnmasked);
}

std::string tabTitleSuffix(const RelativeFigureOptions& o) {
    return "L = " + formatValue(o.seqLen);
}

}  // namespace

HeatmapSample fireSample(const FireParams& params, int length, int maxRows, int maxCols,
                         bool bias) {
    HeatmapSample sample;
    sample.window = clampWindow({0, length, 0, length}, length, length);
    sample.rowsPerTexel = cellsPerTexel(length, maxRows);
    sample.colsPerTexel = cellsPerTexel(length, maxCols);
    const long long rows = (length + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    const long long cols = (length + sample.colsPerTexel - 1) / sample.colsPerTexel;
    sample.rowSpan = double(rows * sample.rowsPerTexel);
    sample.colSpan = double(cols * sample.colsPerTexel);
    sample.version = nextMatrixVersion();
    // The head as lines between its kinks: O(log width) a texel instead of O(width).
    const FireMlpLines mlp =
        fireMlpLines(seededFireMlp(params.mlpWidth, params.heads, params.seed), params.head);
    Matrix values(static_cast<std::size_t>(rows), static_cast<std::size_t>(cols));
    for (long long tr = 0; tr < rows; ++tr) {
        const long long i =
            std::min<long long>(length - 1, tr * sample.rowsPerTexel + sample.rowsPerTexel / 2);
        for (long long tc = 0; tc < cols; ++tc) {
            const long long j =
                std::min<long long>(length - 1, tc * sample.colsPerTexel + sample.colsPerTexel / 2);
            double v = kNegInf;
            if (j <= i) {
                const double phi = firePhi(params, i, j);
                v = bias ? mlp(phi) : phi;
            }
            values(std::size_t(tr), std::size_t(tc)) = v;
        }
    }
    sample.values = std::make_shared<const Matrix>(std::move(values));
    return sample;
}

PanelShape relativePanelShape(RelativeTab tab) {
    switch (tab) {
        case RelativeTab::Family:
            return {2, 2, 26, 16, 12};
        case RelativeTab::Kerple:
        case RelativeTab::Fire:
            return {3, 2, 18, 13, 12};
        case RelativeTab::Sandwich:
            // Its curves need the width for eight heads' keys: at 1024x768 F5 two columns left
            // them a plot a sixth of the window wide beside "training / length / 512" (#28);
            // there the panels are shown one at a time, as KERPLE's and FIRE's are.
            return {2, 2, 24, 13, 12};
        default:
            return {2, 2, 20, 13, 12};
    }
}

// A one-column file's curves under KERPLE's and FIRE's maps: their row's height, of its width.
constexpr float kStackedCurvesAspect = 0.75f;

RelativeLayout relativeLayout(Box area, RelativeTab tab, const Theme& theme, int panel) {
    RelativeLayout layout;
    layout.area = area;
    layout.cellResolution = theme.cellResolution;
    layout.panels = reflowOrFocus(area, relativePanelShape(tab), theme, panel);
    if (heightMayGrow(theme) && (tab == RelativeTab::Kerple || tab == RelativeTab::Fire)) {
        // A one-column file: each map's row as tall as makes it as wide as the column (#28;
        // measured on a map with a two-line title and four-digit ticks).
        HeatmapSpec probe;
        probe.squareCells = true;
        probe.title = "Power $-r_1|i-j|^{r_2}$, $r_1$ = 0.5, $r_2$ = 0.8";
        probe.x = {"key j", 0, 2048, false, true};
        probe.y = {"query i", 0, 2048, false, true};
        probe.range = {-200, 0};
        probe.colorbarLabel = "bias";
        const float map = heatmapHeightForWidth(layout.panels.cell(0).width, probe, theme);
        // The curves' row as tall as three quarters of its width (its title and axes in it):
        // left to take what the canvas had over, FIRE's plot was taken ~600 px tall by the
        // growth its legend asked for in a squeezed first build (600 × 1835, #28).
        const float curves = layout.panels.cell(0).width * kStackedCurvesAspect;
        layout.panels =
            stackForPrint(layout.panels, relativePanelShape(tab), {map, map, curves}, theme);
    }
    layout.wideLast =
        layout.panels.count == 3 && layout.panels.columns == 2 && !layout.panels.oneAtATime();
    if (tab == RelativeTab::Family && layout.panels.shows(1)) {
        const Box grid = layout.panel(1);
        // 4 x 2 or 2 x 4, whichever gives the larger square cells (less their titles and ticks).
        const float room = theme.fontSize * 3.5f;
        auto side = [&](int c, int r) {
            return std::min(grid.width / float(c), grid.height / float(r)) - room;
        };
        bool wide = side(4, 2) >= side(2, 4);
        // A file whose height follows its width (a one-column print): when the members' titles
        // ("KERPLE power") do not fit four columns, two columns of four rows, the canvas taller
        // by what those rows need (askForHeight), rather than the titles cut.
        float widestTitle = 0;
        for (FamilyMember m : kFamilyMemberList)
            widestTitle = std::max(widestTitle,
                                   estimateTextWidth(familyMemberName(m), theme.titleSize * 0.9f));
        if (wide && heightMayGrow(theme) &&
            grid.width / 4 - theme.fontSize * 0.6f - theme.titleSize < widestTitle) {
            wide = false;
            const float cellSide = std::min(grid.width / 2 - room, theme.fontSize * 7);
            askForHeight(theme, 4 * (cellSide + room) - grid.height);
        }
        const int cols = wide ? 4 : 2, rows = wide ? 2 : 4;
        for (int k = 0; k < kFamilyMembers; ++k) {
            layout.cells[std::size_t(k)] =
                gridCell(grid, rows, cols, k / cols, k % cols, theme.fontSize * 0.6f);
        }
    }
    return layout;
}

Box RelativeLayout::panel(int k) const {
    Box box = panels.cell(k);
    if (wideLast && k == 2) box.width = area.right() - box.x;  // the curves: the whole bottom row
    return box;
}

Result<RelativeFigureData> computeRelativeFigureData(const RelativeFigureOptions& o,
                                                     RelativeTab tab, const RelativeLayout& layout,
                                                     RelativeFigureMemo* memo, Detail detail) {
    if (auto s = validate(o); !s) return s.error();
    RelativeFigureData data;
    // A member's heatmap: kept from the memo when its own parameters and texel size are the
    // same (variant: FIRE's phi 0 or bias 1), else built and remembered.
    // A vector file samples a tab's maps at their cells (Theme::cellResolution), as if drawn on
    // kMaxTexelsPerSide pixels a side; the family's small multiples keep one texel per pixel.
    const bool cells = layout.cellResolution && tab != RelativeTab::Family;
    auto texels = [&](Box box) {
        return cells ? Box{box.x, box.y, float(kMaxTexelsPerSide), float(kMaxTexelsPerSide)} : box;
    };
    auto member = [&](FamilyMember m, Box box, int variant, const RelativeFigureOptions& key,
                      auto build) {
        const int rows = budgetFor(box.height, detail), cols = budgetFor(box.width, detail);
        if (memo) {
            for (const auto& kept : memo->maps) {
                if (kept.member == int(m) && kept.variant == variant && kept.rows == rows &&
                    kept.cols == cols && kept.key == key) {
                    data.maps.push_back(kept.sample);
                    data.ranges.push_back(kept.range);
                    return;
                }
            }
        }
        HeatmapSample sample = build();
        const ValueRange range = sample.values ? texelRange(*sample.values) : ValueRange{};
        if (memo) {
            std::erase_if(memo->maps, [&](const auto& kept) {
                return kept.member == int(m) && kept.variant == variant;
            });
            memo->maps.push_back({key, int(m), variant, rows, cols, sample, range});
        }
        data.maps.push_back(std::move(sample));
        data.ranges.push_back(range);
    };
    auto add = [&](FamilyMember m, Box shown) {
        const Box box = texels(shown);
        member(m, box, 0, memberOptions(o, m), [&] { return toeplitzSample(o, m, box, detail); });
    };
    auto addFire = [&](Box shown, bool bias) {
        const Box box = texels(shown);
        member(FamilyMember::Fire, box, bias ? 1 : 0, memberOptions(o, FamilyMember::Fire), [&] {
            return fireSample(o.fire, o.seqLen, budgetFor(box.height, detail),
                              budgetFor(box.width, detail), bias);
        });
    };
    switch (tab) {
        case RelativeTab::Family:
            for (int k = 0; k < kFamilyMembers; ++k) {
                const Box box = layout.cells[std::size_t(k)];
                if (kFamilyMemberList[std::size_t(k)] == FamilyMember::Fire) {
                    addFire(box, true);
                } else {
                    add(kFamilyMemberList[std::size_t(k)], box);
                }
            }
            break;
        case RelativeTab::Xpos:
            add(FamilyMember::Xpos, layout.panel(0));
            break;
        case RelativeTab::Kerple:
            add(FamilyMember::KerplePower, layout.panel(0));
            add(FamilyMember::KerpleLog, layout.panel(1));
            break;
        case RelativeTab::Sandwich: {
            // Every head's matrix is the kernel's divided by its compression 8 (h + 1) / H: the
            // kernel (head 0 of 1, compression 8) is kept per width, length and texel size, so
            // the head slider costs one pass over the texels.
            const Box box = texels(layout.panel(0));
            RelativeFigureOptions kernel = memberOptions(o, FamilyMember::Sandwich);
            kernel.sandwich.heads = 1;
            kernel.sandwich.head = 0;
            const std::size_t before = data.maps.size();
            member(FamilyMember::Sandwich, box, 2, kernel, [&] {
                return causalOscillatorSample(sandwichOscillators(kernel.sandwich), o.seqLen,
                                              budgetFor(box.height, detail),
                                              budgetFor(box.width, detail));
            });
            HeatmapSample head = data.maps[before];
            const double ratio =
                sandwichCompression(kernel.sandwich) / sandwichCompression(o.sandwich);
            if (head.values) {
                Matrix scaled = *head.values;
                for (double& v : scaled.values) v *= ratio;  // -inf stays -inf (ratio > 0)
                head.values = std::make_shared<const Matrix>(std::move(scaled));
            }
            head.version = nextMatrixVersion();
            data.maps[before] = head;
            data.ranges[before] = head.values ? texelRange(*head.values) : ValueRange{};
            break;
        }
        case RelativeTab::Fire: {
            const Box a = layout.panel(0), b = layout.panel(1);
            addFire(a, false);
            addFire(b, true);
            break;
        }
    }
    const Box curveBox = tab == RelativeTab::Family                               ? layout.panel(0)
                         : tab == RelativeTab::Kerple || tab == RelativeTab::Fire ? layout.panel(2)
                                                                                  : layout.panel(1);
    data.curves = curveBox.width > 0 ? relativeTabCurves(o, tab, plotColumns(curveBox),
                                                         memo ? &memo->curves : nullptr, detail)
                                     : std::vector<LineSeries>{};
    return data;
}

namespace {

// Where the items drawn since `from` reach (texts by their estimated boxes): a heatmap with its
// axes, colour bar and labels, which square cells leave smaller than the box it was given.
Box extentSince(const Figure& figure, std::size_t from) {
    float left = INFINITY, top = INFINITY, right = -INFINITY, bottom = -INFINITY;
    auto take = [&](Box b) {
        if (!(b.width > 0 && b.height > 0)) return;
        left = std::min(left, b.x), top = std::min(top, b.y);
        right = std::max(right, b.right()), bottom = std::max(bottom, b.bottom());
    };
    for (std::size_t i = from; i < figure.items.size(); ++i) {
        if (const auto* t = std::get_if<TextItem>(&figure.items[i]); t && !t->text.empty())
            take(textBox(*t));
        else if (const auto* r = std::get_if<RectItem>(&figure.items[i]))
            take(r->box);
        else if (const auto* h = std::get_if<HeatmapItem>(&figure.items[i]))
            take(h->box);
    }
    if (!(left < right && top < bottom)) return {};
    return {left, top, right - left, bottom - top};
}

// A map's note is at most this many lines: more, in the column beside a colour bar, read as a
// list of words ("each / pixel: / mean of / 6×6 cells" at one column, #28).
constexpr std::size_t kMapNoteLines = 2;

float mapNoteSize(const Theme& theme) {
    return atLeastMinText(theme.fontSize * 0.85f, theme);
}

// The note's lines when it takes a row of its own under the map: across the panel, so at most
// kMapNoteLines (empty: not even then).
std::vector<std::string> mapNoteRowLines(const std::string& note, Box box, const Theme& theme) {
    std::vector<std::string> lines = wrapText(note, mapNoteSize(theme), box.width - 8);
    if (lines.size() > kMapNoteLines) lines.clear();
    return lines;
}

// The note placed by the map drawn since `from` in `box`, in the first free place of: the x
// label's row right of "key j", under the colour bar (where it sat at 1440x900); the same row
// from the label on, within the panel (at F5 the bar's column left it a word a line); a row
// under that label, centred under the map, one or two lines across the panel. False, drawing
// nothing, when none is free (a panel as short as its map: drawMap makes the row).
bool placeMapNote(Figure& figure, std::size_t from, Box box, const PlotFrame& frame,
                  const std::string& note, const Theme& theme) {
    const Box extent = extentSince(figure, from);
    Box label{};
    for (std::size_t i = from; i < figure.items.size(); ++i)
        if (const auto* t = std::get_if<TextItem>(&figure.items[i]); t && t->text == frame.x.label)
            label = textBox(*t);
    if (extent.width <= 0 || label.width <= 0) return false;
    const float size = mapNoteSize(theme), step = size * 1.15f;
    const float width = estimateTextWidth(note, size);
    std::vector<Box> texts;
    for (const FigureItem& item : figure.items)
        if (const auto* t = std::get_if<TextItem>(&item); t && !t->text.empty())
            texts.push_back(textBox(*t));
    auto isFree = [&](const std::vector<TextItem>& lines) {
        for (const TextItem& line : lines) {
            const Box b = textBox(line);
            if (b.x < box.x || b.right() > box.right() || b.y < box.y || b.bottom() > box.bottom())
                return false;
            if (marksCovered(figure, b) > 0) return false;
            for (const Box& other : texts)
                if (boxesOverlap(b, other, 0)) return false;
        }
        return true;
    };
    auto onLabelRow = [&](float x, HorizontalAlign align) {
        return std::vector<TextItem>{makeText({x, label.bottom()}, note, size, theme.mutedText,
                                              align, VerticalAlign::Bottom)};
    };
    const float labelRight = label.right() + theme.fontSize;
    std::vector<std::vector<TextItem>> places;
    if (extent.right() - 4 - width >= labelRight)
        places.push_back(onLabelRow(extent.right() - 4, HorizontalAlign::Right));
    places.push_back(onLabelRow(labelRight, HorizontalAlign::Left));
    if (const std::vector<std::string> lines = mapNoteRowLines(note, box, theme); !lines.empty()) {
        float widest = 0;
        for (const std::string& line : lines)
            widest = std::max(widest, estimateTextWidth(line, size));
        // Centred under the map, moved in to stay inside the panel.
        const float centre = std::clamp(frame.plot.x + frame.plot.width / 2, box.x + 4 + widest / 2,
                                        box.right() - 4 - widest / 2);
        std::vector<TextItem> row;
        for (std::size_t i = 0; i < lines.size(); ++i)
            row.push_back(makeText({centre, label.bottom() + 2 + step * float(i)}, lines[i], size,
                                   theme.mutedText, HorizontalAlign::Center, VerticalAlign::Top));
        places.push_back(std::move(row));
    }
    for (std::vector<TextItem>& place : places) {
        if (!isFree(place)) continue;
        for (TextItem& line : place) figure.add(std::move(line));
        return true;
    }
    return false;
}

void drawMap(Figure& figure, Box box, const HeatmapSample& sample, ValueRange range,
             const std::string& title, const std::string& caption, const Theme& theme,
             bool centreCells = false) {
    if (box.width <= 0 || !sample.values) return;
    HeatmapSpec spec = specFor(sample, "key j", "query i");
    spec.squareCells = true;
    spec.title = title;
    spec.colormap = ColormapId::Viridis;
    spec.range = range;
    spec.colorbarLabel = caption;
    const bool reduced = sample.rowsPerTexel > 1 || sample.colsPerTexel > 1;
    const std::string note =
        centreCells ? (reduced ? "each pixel: its centre cell" : "") : blockNote(sample, "mean of");
    PlotFrame frame;
    const Figure::Checkpoint start = figure.checkpoint();
    drawHeatmap(figure, box, spec, theme, &frame);
    if (note.empty() || placeMapNote(figure, start.items, box, frame, note, theme)) return;
    // No free place by the map: the map gives up a row under its x label for the note (at one
    // column and at F5 the map filled its panel, and the note went beside the bar a word a line,
    // or to the panel's far corner, #28).
    const std::vector<std::string> lines = mapNoteRowLines(note, box, theme);
    const float rows =
        float(std::max<std::size_t>(1, lines.size())) * mapNoteSize(theme) * 1.15f + 4;
    if (!lines.empty() && box.height - rows > 4 * theme.fontSize) {
        figure.rollBack(start);
        drawHeatmap(figure, {box.x, box.y, box.width, box.height - rows}, spec, theme, &frame);
        if (placeMapNote(figure, start.items, box, frame, note, theme)) return;
    }
    drawCornerNote(figure, box, &frame, note, theme);
}

Marker trainingAt(const RelativeFigureOptions& o, const Theme& theme) {
    return trainingMarker(double(o.trainingLength), true, theme,
                          "training length " + formatValue(o.trainingLength));
}

// The family's maps as small multiples: each map framed without tick labels (every map has the
// same axes, 0 to L - 1, said once in a line under them), its title above it and its own colour
// bar beside it, the bar's caption ("bias", "q·k") under the bar. At a projector's font the maps
// with their own axes left no room for bars (eight cells of some 250 x 250 px at 1024x768 F5:
// a 40 px map beside its bar), and the maps went without, so no value could be read (#28).
// False, drawing nothing, when even these maps would be under two lines of text a side.
bool drawCompactMaps(Figure& figure, const RelativeLayout& layout, const RelativeFigureData& data,
                     const RelativeFigureOptions& o, const Theme& theme) {
    const int members = std::min(kFamilyMembers, int(data.maps.size()));
    const Box grid = layout.panel(1);
    if (members == 0 || grid.width <= 0) return false;
    const int cols = layout.cells[1].y == layout.cells[0].y ? 4 : 2;
    const int rows = (members + cols - 1) / cols;
    const float noteSize = atLeastMinText(theme.fontSize * 0.85f, theme);
    const std::string axes = "every map: query $i$ down, key $j$ across, 0 to " +
                             formatValue(o.seqLen - 1) + "; grey: future keys (masked)";
    const std::vector<std::string> noteLines = wrapText(axes, noteSize, grid.width - 4);
    const float noteHeight = noteSize * 1.15f * float(noteLines.size()) + 4;
    const Box cellsArea{grid.x, grid.y, grid.width, grid.height - noteHeight};
    const float titleSize = theme.titleSize;
    // The title ends clear of the bar's top tick label, which hangs half a line above the bar.
    const float titleClear = theme.fontSize * 0.5f + 3;
    const float titleRow = titleSize * 1.15f + titleClear;
    const float captionRow = theme.fontSize * 1.7f;  // the lowest tick label hangs half a line
    const float gap = theme.fontSize * 0.5f, barWidth = barWidthFor(theme);
    std::vector<Box> cells;
    for (int k = 0; k < members; ++k)
        cells.push_back(gridCell(cellsArea, rows, cols, k / cols, k % cols, theme.fontSize * 0.6f));
    // One side for every map: the smallest any cell allows beside its bar's labels, measured
    // again for a bar of that length (a shorter bar may take other ticks).
    auto labelRoom = [&](int k, float length) {
        return colorbarTickWidth(data.ranges[std::size_t(k)], length, theme);
    };
    float side = INFINITY;
    for (int round = 0; round < 2; ++round) {
        float smallest = INFINITY;
        for (int k = 0; k < members; ++k) {
            const Box& cell = cells[std::size_t(k)];
            const float length = std::isfinite(side) ? side : cell.height - titleRow - captionRow;
            smallest = std::min({smallest, cell.width - gap - barWidth - labelRoom(k, length) - 2,
                                 cell.height - titleRow - captionRow});
        }
        side = smallest;
    }
    if (!(side >= 2 * theme.fontSize)) return false;
    for (int k = 0; k < members; ++k) {
        const Box& cell = cells[std::size_t(k)];
        const HeatmapSample& sample = data.maps[std::size_t(k)];
        const ValueRange range = data.ranges[std::size_t(k)];
        const float block = side + gap + barWidth + labelRoom(k, side);
        const Box map{cell.x + (cell.width - block) / 2, cell.y + titleRow, side, side};
        const Box bar{map.right() + gap, map.y, barWidth, side};
        const FamilyMember member = kFamilyMemberList[std::size_t(k)];
        const bool rotary = member == FamilyMember::Xpos || member == FamilyMember::Rope;
        std::string title = familyMemberName(member);
        if (rotary) title = member == FamilyMember::Xpos ? "xPos $q·k$" : "RoPE $q·k$";
        // Centred over the map and its bar, inside the cell.
        const FittedText fitted =
            fitText(title, titleSize, cell.width, readableMinScale(titleSize, theme));
        figure.add(centredText({map.x + block / 2, map.y - titleClear}, fitted.text, fitted.size,
                               theme.text, HorizontalAlign::Center, VerticalAlign::Bottom));
        if (sample.values) {
            HeatmapItem item;  // covers the map: masked cells are painted, opaque
            item.box = map;
            item.box.width *= float(sample.colSpan / double(std::max(1LL, sample.window.colCount)));
            item.box.height *=
                float(sample.rowSpan / double(std::max(1LL, sample.window.rowCount)));
            item.values = sample.values;
            item.colormap = ColormapId::Viridis;
            item.range = range;
            item.masked = theme.masked;
            item.version = sample.version;
            figure.add(ClipPush{map});
            figure.add(item);
            figure.add(ClipPop{});
        }
        figure.add(filledRect(map, {0, 0, 0, 0}, theme.axis));
        drawColorbarTicks(figure, bar, ColormapId::Viridis, range,
                          colorbarTicks(range, side, theme.fontSize), theme, &cell);
        figure.add(makeText({bar.x, bar.bottom() + theme.fontSize * 0.55f + 2},
                            rotary ? "$q·k$" : "bias", theme.fontSize, theme.mutedText,
                            HorizontalAlign::Left, VerticalAlign::Top));
    }
    float y = grid.bottom() - noteHeight + 4;
    for (const std::string& line : noteLines) {
        figure.add(makeText({grid.x + grid.width / 2, y}, line, noteSize, theme.mutedText,
                            HorizontalAlign::Center, VerticalAlign::Top));
        y += noteSize * 1.15f;
    }
    return true;
}

void drawFamily(Figure& figure, const RelativeLayout& layout, const RelativeFigureOptions& o,
                const RelativeFigureData& data, const Theme& theme) {
    const Box curves = layout.panel(0);
    if (curves.width > 0) {
        LinePlotSpec spec;
        spec.title = "Bias against distance (each minus its value at 0; xPos and RoPE: log-score)";
        // A short plot (a lesson card under it at F5: 1008 x 372 or 402) keeps its title to one
        // line: the second line took the rows the legend needed inside, below the curves, and the
        // legend went beside a plot of 345 x 205 px (#28, lesson 11). The y label and the
        // legend's "xPos decay" and "RoPE bound" still say what the rotary curves are.
        if (curves.height < theme.fontSize * 18 &&
            estimateTextWidth(spec.title, theme.titleSize) > curves.width - 4 * theme.fontSize)
            spec.title = "Bias against distance, each minus its value at 0";
        const double reach = std::max(1, o.seqLen - 1);
        spec.x = {o.logDistance ? "distance $i-j$ (log)" : "distance $i-j$",
                  o.logDistance ? 1.0 : 0.0, reach, o.logDistance};
        spec.series = data.curves;
        double top = 0.5;
        for (const LineSeries& s : spec.series)
            for (double y : s.y)
                if (std::isfinite(y)) top = std::max(top, y);
        top = std::min(top, -o.biasFloor);
        spec.y = {"bias (log-score)", o.biasFloor, top + 0.05 * (top - o.biasFloor)};
        spec.autoRangeY = false;
        if (o.trainingLength <= reach) spec.markers.push_back(trainingAt(o, theme));
        drawLinePlot(figure, curves, spec, theme);
    }
    // Each member its own colour bar, beside the map in the cell's spare width: their scales
    // differ by orders of magnitude (at L = 2048 ALiBi's bias reaches about −1000, FIRE's spans a
    // few hundredths, q·k reaches d), so one shared bar would flatten all but one, and without a
    // bar no value could be read off the maps.
    auto memberSpec = [&](int k) {
        HeatmapSpec spec = specFor(data.maps[std::size_t(k)], "", "");
        spec.squareCells = true;
        const FamilyMember member = kFamilyMemberList[std::size_t(k)];
        spec.title = familyMemberName(member);
        if (member == FamilyMember::Xpos) spec.title = "xPos $q·k$";
        if (member == FamilyMember::Rope) spec.title = "RoPE $q·k$";
        spec.range = data.ranges[std::size_t(k)];
        spec.colorbarLabel =
            member == FamilyMember::Xpos || member == FamilyMember::Rope ? "$q·k$" : "bias";
        // Across the bar's top, in the title's row: rotated beside it, the caption took a column
        // of text from each map (a quarter of it at print sizes), and bars went without it.
        spec.colorbarLabelAbove = true;
        return spec;
    };
    const int members = std::min(kFamilyMembers, int(data.maps.size()));
    // Every bar says what it measures ("bias" or "q·k"); maps too small for a bar go without.
    auto barredSpec = [&](int k, bool barred, float side) {
        HeatmapSpec spec = memberSpec(k);
        spec.showColorbar = barred;
        spec.maxSquareSide = side;
        return spec;
    };
    // One side for every map, the smallest the cells allow (0: no cell shown): a map beside
    // long tick labels (FIRE's −0.375, ALiBi's −1000) was smaller than its neighbours, which
    // side by side read as a scale. Measured again at that side, since a shorter bar may take
    // other ticks.
    auto commonSide = [&](bool barred) {
        float side = 0;
        for (int round = 0; round < 2; ++round) {
            float smallest = 0;
            for (int k = 0; k < members; ++k) {
                const Box cell = layout.cells[std::size_t(k)];
                if (cell.width <= 0) continue;
                const Box plot = measureHeatmap(cell, barredSpec(k, barred, side), theme).plot;
                const float own = std::min(plot.width, plot.height);
                smallest = smallest > 0 ? std::min(smallest, own) : own;
            }
            if (side > 0 && smallest >= side - 0.5f) break;
            side = smallest;
        }
        return side;
    };
    // Where bars would leave the maps under kBarredMapShare of the side they have without, or
    // under two lines of text (a projector's font, a small window: eight cells of 250 x 130 px),
    // the maps go without: a map a few pixels wide beside its bar shows nothing to read.
    constexpr float kBarredMapShare = 0.4f;
    const float unbarred = commonSide(false);
    bool barred = true;
    float side = commonSide(true);
    if (side < kBarredMapShare * unbarred || side < 2 * theme.fontSize) {
        // Small multiples then: the maps without their own tick labels (the axes stated once
        // below them), each beside its bar.
        if (drawCompactMaps(figure, layout, data, o, theme)) return;
        barred = false;
        side = unbarred;
    }
    for (int k = 0; k < members; ++k) {
        const Box cell = layout.cells[std::size_t(k)];
        if (cell.width > 0) drawHeatmap(figure, cell, barredSpec(k, barred, side), theme);
    }
}

void drawCurves(Figure& figure, Box box, std::string title, AxisSpec y,
                std::vector<LineSeries> series, const RelativeFigureOptions& o, const Theme& theme,
                bool heightBudgeted = false) {
    if (box.width <= 0) return;
    LinePlotSpec spec;
    spec.title = std::move(title);
    // Its row's height is set by the layout (stacked for print): a legend's rows under it may
    // not grow the file, whose other rows would not give the plot what it grew by.
    spec.rowsGrowGrid = !heightBudgeted;
    spec.x = integerAxis("distance $i-j$", 0, double(std::max(1, o.seqLen - 1)));
    spec.y = std::move(y);
    spec.series = std::move(series);
    if (o.trainingLength < o.seqLen) spec.markers.push_back(trainingAt(o, theme));
    drawLinePlot(figure, box, spec, theme);
}

}  // namespace

void drawRelativeFigure(Figure& figure, const RelativeLayout& layout,
                        const RelativeFigureOptions& o, RelativeTab tab,
                        const RelativeFigureData& data, const Theme& theme) {
    auto map = [&](std::size_t k) -> const HeatmapSample& { return data.maps[k]; };
    switch (tab) {
        case RelativeTab::Family:
            drawFamily(figure, layout, o, data, theme);
            break;
        case RelativeTab::Xpos:
            if (data.maps.size() < 1) return;
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    "xPos $q·k$ for $q = k$ = ones, " + tabTitleSuffix(o), "score", theme);
            drawCurves(figure, layout.panel(1),
                       "Score against distance: the decay xPos adds to RoPE",
                       {"$q·k$ ($q = k$ = ones)", 0, 1}, data.curves, o, theme);
            break;
        case RelativeTab::Kerple: {
            if (data.maps.size() < 2) return;
            auto title = [](const char* kind, const KerpleParams& k) {
                const KerpleParams e = kerpleEffective(k);
                std::string t = std::string(kind) + " $r_1$ = " + formatValue(e.r1) +
                                ", $r_2$ = " + formatValue(e.r2);
                if (kerpleClamped(k)) t += " (clamped)";
                return t;
            };
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    title("Power $-r_1|i-j|^{r_2}$,", o.kerplePower), "bias", theme);
            drawMap(figure, layout.panel(1), map(1), data.ranges[1],
                    title("Log $-r_1$ log(1 + $r_2|i-j|$),", o.kerpleLog), "bias", theme);
            drawCurves(figure, layout.panel(2), "KERPLE kernels against distance", {"bias", 0, 1},
                       data.curves, o, theme, !layout.panels.rowHeights.empty());
            break;
        }
        case RelativeTab::Sandwich: {
            if (data.maps.size() < 1) return;
            const SandwichParams& p = o.sandwich;
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    "Sandwich head " + formatValue(p.head) + " (heads 0 to " +
                        formatValue(p.heads - 1) + ", d = " + formatValue(p.headDim) + ")",
                    "bias", theme);
            drawCurves(figure, layout.panel(1), "Sandwich bias against distance, per head",
                       {"bias", 0, 1}, data.curves, o, theme);
            break;
        }
        case RelativeTab::Fire: {
            if (data.maps.size() < 2) return;
            const FireParams& p = o.fire;
            drawMap(figure, layout.panel(0), map(0), data.ranges[0],
                    "$φ = ψ(i - j) / ψ(\\mathrm{max}(i, L))$, c = " + formatValue(p.c) +
                        ", L = " + formatValue(p.threshold),
                    "$φ$", theme, true);
            drawMap(
                figure, layout.panel(1), map(1), data.ranges[1],
                "MLP($φ$), head " + formatValue(p.head) + ", seed " + formatValue(double(p.seed)),
                "bias", theme, true);
            // A query before L stops below 1 (its farthest key is nearer than L): "every query
            // reaches ≈1" was false whenever the sequence length put one there (length 1024).
            drawCurves(figure, layout.panel(2),
                       "$φ$ against distance: from L on, 1 at the farthest key", {"$φ$", 0, 1},
                       data.curves, o, theme, !layout.panels.rowHeights.empty());
            break;
        }
    }
}

Status drawRelativeFigure(Figure& figure, Box area, const RelativeFigureOptions& options,
                          RelativeTab tab, const Theme& theme, int panel, RelativeFigureMemo* memo,
                          Detail detail) {
    if (auto s = validate(options); !s) return s;
    const RelativeLayout layout = relativeLayout(area, tab, theme, panel);
    auto data = computeRelativeFigureData(options, tab, layout, memo, detail);
    if (!data) return data.error();
    figure.viewPanels = layout.panels.count;  // --panel N: the GUI's panel N
    drawRelativeFigure(figure, layout, options, tab, *data, theme);
    return success();
}

}  // namespace poslab
