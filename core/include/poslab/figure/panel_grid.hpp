// panel_grid.hpp — small multiples reflowed to the room they have. A view of several panels
// (plots with their titles, tick labels and paragraphs) is designed for some number of columns;
// when its panels would be too small for their text at the theme's size (a projector at
// 1024x768, presentation mode), it gets fewer columns, and when even one column is too small,
// one panel at a time, which the GUI steps through ("panel 2 of 6", Page Up / Page Down).
//
// Usage, in a view that draws kShape.count panels:
//   const PanelGrid grid = reflowPanels(area, kShape, theme, selected);
//   for (int k = 0; k < kShape.count; ++k)
//       if (grid.shows(k)) drawPanel(k, grid.cell(k));
// The GUI calls the same function with the same area and theme to learn whether to show the
// panel selector (grid.oneAtATime()), so the view and its controls always agree.
#pragma once

#include <functional>
#include <vector>

#include "poslab/figure/figure.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- What a multi-panel view asks for
struct PanelShape {
    int count = 1;          // panels in the view
    int columns = 1;        // columns it is designed for; rows follow (row-major order)
    float minWidthEm = 20;  // the smallest legible panel, in units of theme.fontSize
    float minHeightEm = 12;
    float gap = 10;  // pixels between panels (scaled with the theme's fonts)
};

// ---- Where the panels go
struct PanelGrid {
    Box area;       // the whole area the panels share
    int count = 1;  // panels in the view
    int rows = 1, columns = 1;
    int shown = -1;  // -1: every panel in the grid; else the one panel drawn
    float gap = 10;
    // Each row's height, top to bottom (stackForPrint); empty: rows share the area's height.
    std::vector<float> rowHeights{};
    bool oneAtATime() const { return shown >= 0; }
    bool shows(int panel) const;  // panel is drawn
    Box cell(int panel) const;    // panel's box; an empty box at area's origin when not shown
};

// The most columns, up to shape.columns, whose cells are at least minWidthEm x minHeightEm font
// sizes; with none, one panel at a time: `selected` (taken modulo count) fills the area. With
// Theme::panelsOneAtATime (a lecture's step naming its panel) always one at a time, on screen.
PanelGrid reflowPanels(Box area, const PanelShape& shape, const Theme& theme, int selected = 0);
// The grid's cells (one per panel, as cell() gives them) lowered so that the plots of each row
// start at one height: a panel's plot starts below its title, and a title that wraps in one
// cell and not in its neighbour left a row's plots unaligned (Meaning's logit terms). plotTop(k,
// cell) is where panel k's plot would start in `cell` (laid out aside, in a scratch figure);
// each shown cell starts lower by what its plot starts above the row's lowest, its bottom kept.
// A panel without a plot (a paragraph) returns NaN: it neither moves nor moves the others.
std::vector<Box> cellsAlignedByRow(const PanelGrid& grid,
                                   const std::function<float(int panel, Box cell)>& plotTop);
// The same for a view's own cells (columns of its own widths), `columns` to a row, row-major.
std::vector<Box> alignPlotsByRow(std::vector<Box> cells, int columns,
                                 const std::function<float(int panel, Box cell)>& plotTop);
// `--panel N` (Theme::focusPanel > 0): panel N - 1 alone over the whole area, none when N is past
// count; else reflowPanels. A view that lays out with it sets Figure::viewPanels to shape.count,
// so that its panels are numbered as the GUI's selector numbers them.
PanelGrid reflowOrFocus(Box area, const PanelShape& shape, const Theme& theme, int selected = 0);
// A file's one column (every panel shown: Theme::panelRoom, `--width 600`): a row of equal
// height left a square map bound by the height, a third of the column wide and the rest of its
// row empty (#28). Here panel k's row is `wanted[k]` tall when that is > 0 (a square map's
// heatmapHeightForWidth), the others shape.minHeightEm font sizes plus an equal share of what the
// area has left over; what the column lacks is asked of the canvas (PanelRoom::missingHeight),
// which a derived height grows by, and meanwhile every row shrinks in proportion. Any other grid
// (several columns, one panel at a time, the screen) is returned as it is.
PanelGrid stackForPrint(PanelGrid grid, const PanelShape& shape, const std::vector<float>& wanted,
                        const Theme& theme);
// The panel `step` places after `selected` (negative: before), wrapping round count panels.
int stepPanel(int selected, int step, int count);

}  // namespace poslab
