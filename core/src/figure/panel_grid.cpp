#include "poslab/figure/panel_grid.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace poslab {

bool PanelGrid::shows(int panel) const {
    if (panel < 0 || panel >= count) return false;
    return shown < 0 || panel == shown;
}

Box PanelGrid::cell(int panel) const {
    if (!shows(panel)) return {area.x, area.y, 0, 0};
    if (oneAtATime()) return area;
    const int row = panel / columns, col = panel % columns;
    const float w = (area.width - gap * float(columns - 1)) / float(columns);
    if (rowHeights.size() == std::size_t(rows)) {
        float y = area.y;
        for (int r = 0; r < row; ++r) y += rowHeights[std::size_t(r)] + gap;
        return {std::floor(area.x + float(col) * (w + gap)), std::floor(y), std::floor(w),
                std::floor(rowHeights[std::size_t(row)])};
    }
    const float h = (area.height - gap * float(rows - 1)) / float(rows);
    // Whole pixels, as gridCell gives: text anchors land on pixel rows.
    return {std::floor(area.x + float(col) * (w + gap)),
            std::floor(area.y + float(row) * (h + gap)), std::floor(w), std::floor(h)};
}

std::vector<Box> alignPlotsByRow(std::vector<Box> cells, int columns,
                                 const std::function<float(int panel, Box cell)>& plotTop) {
    const int count = int(cells.size());
    columns = std::max(1, columns);
    for (int first = 0; first < count; first += columns) {
        const int last = std::min(count, first + columns);
        std::vector<float> tops;
        float lowest = -INFINITY;
        for (int k = first; k < last; ++k) {
            tops.push_back(plotTop(k, cells[std::size_t(k)]));
            lowest = std::max(lowest, tops.back());  // NaN (no plot) is passed over
        }
        for (int k = first; k < last; ++k) {
            Box& cell = cells[std::size_t(k)];
            const float lower = std::min(lowest - tops[std::size_t(k - first)], cell.height);
            if (!(lower > 0)) continue;  // the lowest already, or no plot
            cell.y += lower;
            cell.height -= lower;
        }
    }
    return cells;
}

std::vector<Box> cellsAlignedByRow(const PanelGrid& grid,
                                   const std::function<float(int panel, Box cell)>& plotTop) {
    std::vector<Box> cells;
    for (int k = 0; k < grid.count; ++k) cells.push_back(grid.cell(k));
    if (grid.oneAtATime()) return cells;  // one panel: no row to line up with
    return alignPlotsByRow(std::move(cells), grid.columns, plotTop);
}

PanelGrid reflowOrFocus(Box area, const PanelShape& shape, const Theme& theme, int selected) {
    if (theme.focusPanel <= 0) return reflowPanels(area, shape, theme, selected);
    PanelGrid grid;
    grid.area = area;
    grid.count = std::max(1, shape.count);
    grid.gap = shape.gap;
    grid.shown = theme.focusPanel - 1 < grid.count ? theme.focusPanel - 1 : grid.count;
    return grid;
}

PanelGrid stackForPrint(PanelGrid grid, const PanelShape& shape, const std::vector<float>& wanted,
                        const Theme& theme) {
    if (!theme.panelRoom || grid.oneAtATime() || grid.columns != 1 || grid.rows != grid.count)
        return grid;
    const int rows = grid.rows;
    const float minHeight = shape.minHeightEm * theme.fontSize;
    std::vector<float> heights(std::size_t(rows), minHeight);
    int flexible = 0;
    for (int k = 0; k < rows; ++k) {
        const float asked = std::size_t(k) < wanted.size() ? wanted[std::size_t(k)] : 0;
        if (asked > 0 && std::isfinite(asked))
            heights[std::size_t(k)] = asked;
        else
            ++flexible;
    }
    if (flexible == rows) return grid;  // no map asks: the rows share the area as before
    const float gaps = grid.gap * float(rows - 1);
    float total = gaps;
    for (float h : heights) total += h;
    const float spare = grid.area.height - total;
    if (spare >= 0) {
        // Left over: to the panels that asked for nothing (plots grow), else below the last.
        for (int k = 0; k < rows && flexible > 0; ++k) {
            const float asked = std::size_t(k) < wanted.size() ? wanted[std::size_t(k)] : 0;
            if (!(asked > 0 && std::isfinite(asked)))
                heights[std::size_t(k)] += spare / float(flexible);
        }
    } else {
        PanelRoom& room = *theme.panelRoom;
        room.missingHeight = std::max(room.missingHeight, -spare);
        const float scale = std::max(0.f, grid.area.height - gaps) / (total - gaps);
        for (float& h : heights) h *= scale;
    }
    grid.rowHeights = std::move(heights);
    return grid;
}

int stepPanel(int selected, int step, int count) {
    if (count <= 0) return 0;
    const long long next = (long long)selected + step;
    return int(((next % count) + count) % count);
}

namespace {

// A file shows every panel (Theme::panelRoom): the height the grid lacks is recorded for the
// columns wide enough (at least one), for a taller canvas; on this one the panels are squeezed
// in the columns that shrink them least (the largest of min(width / minWidth, height /
// minHeight)), so that no panel is left out and none is squeezed flat.
PanelGrid squeezeAllPanels(PanelGrid grid, const PanelShape& shape, float minWidth, float minHeight,
                           PanelRoom& room) {
    auto cellWidth = [&](int c) { return (grid.area.width - shape.gap * float(c - 1)) / float(c); };
    auto cellHeight = [&](int r) {
        return (grid.area.height - shape.gap * float(r - 1)) / float(r);
    };
    int wide = 1;
    for (int c = std::clamp(shape.columns, 1, grid.count); c >= 1; --c) {
        if (cellWidth(c) >= minWidth) {
            wide = c;
            break;
        }
    }
    const int wideRows = (grid.count + wide - 1) / wide;
    const float needed = float(wideRows) * minHeight + shape.gap * float(wideRows - 1);
    room.missingHeight = std::max(room.missingHeight, needed - grid.area.height);
    float best = -1;
    for (int c = 1; c <= std::max(1, std::min(grid.count, std::max(shape.columns, wide) + 1));
         ++c) {
        const int r = (grid.count + c - 1) / c;
        const float fit = std::min(cellWidth(c) / minWidth, cellHeight(r) / minHeight);
        if (fit > best) best = fit, grid.columns = c, grid.rows = r;
    }
    return grid;
}

}  // namespace

PanelGrid reflowPanels(Box area, const PanelShape& shape, const Theme& theme, int selected) {
    PanelGrid grid;
    grid.area = area;
    grid.count = std::max(1, shape.count);
    grid.gap = shape.gap;
    const float minWidth = shape.minWidthEm * theme.fontSize;
    const float minHeight = shape.minHeightEm * theme.fontSize;
    if (theme.panelsOneAtATime && !theme.panelRoom) {
        grid.shown = stepPanel(selected, 0, grid.count);
        return grid;
    }
    for (int columns = std::clamp(shape.columns, 1, grid.count); columns >= 1; --columns) {
        const int rows = (grid.count + columns - 1) / columns;
        const float w = (area.width - shape.gap * float(columns - 1)) / float(columns);
        const float h = (area.height - shape.gap * float(rows - 1)) / float(rows);
        if (w >= minWidth && h >= minHeight) {
            grid.columns = columns;
            grid.rows = rows;
            return grid;
        }
    }
    if (theme.panelRoom)
        return squeezeAllPanels(grid, shape, minWidth, minHeight, *theme.panelRoom);
    // Not even one column fits: the selected panel alone fills the area.
    grid.rows = grid.columns = 1;
    grid.shown = stepPanel(selected, 0, grid.count);
    return grid;
}

}  // namespace poslab
