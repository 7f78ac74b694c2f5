// Small multiples reflowed to their room: the designed columns when the cells are large enough
// for the text, fewer when not, one at a time when even one column is too small; cells tile the
// area without overlapping.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {
namespace {

// Six panels designed as 2 rows x 3 columns, each needing 20 x 12 font sizes.
constexpr PanelShape kSix{6, 3, 20, 12, 10};

Theme themeWithFont(float fontSize) {
    Theme theme = darkTheme();
    theme.fontSize = fontSize;
    return theme;
}

TEST(PanelGridTest, RoomyAreaKeepsTheDesignedColumns) {
    // 3 columns of (1200 - 20) / 3 = 393 px >= 280; 2 rows of 395 px >= 168.
    const PanelGrid grid = reflowPanels({0, 0, 1200, 800}, kSix, themeWithFont(14));
    EXPECT_EQ(grid.columns, 3);
    EXPECT_EQ(grid.rows, 2);
    EXPECT_FALSE(grid.oneAtATime());
    for (int k = 0; k < 6; ++k) EXPECT_TRUE(grid.shows(k)) << k;
    // Panel 4 is row 1, column 1: x = 393.33 + 10, y = 395 + 10 (floored).
    const Box cell = grid.cell(4);
    EXPECT_NEAR(cell.x, 403, 0.5);
    EXPECT_NEAR(cell.y, 405, 0.5);
    EXPECT_NEAR(cell.width, 393, 0.5);
    EXPECT_NEAR(cell.height, 395, 0.5);
}

TEST(PanelGridTest, NarrowAreaTakesFewerColumns) {
    // At font 14 a panel needs 280 px across: 3 columns of 900 px are 293 wide, fit; at font 15
    // (300 px) only 2 columns of 445 px fit, in 3 rows of (900 - 20) / 3 = 293 >= 180 px.
    EXPECT_EQ(reflowPanels({0, 0, 900, 900}, kSix, themeWithFont(14)).columns, 3);
    const PanelGrid grid = reflowPanels({0, 0, 900, 900}, kSix, themeWithFont(15));
    EXPECT_EQ(grid.columns, 2);
    EXPECT_EQ(grid.rows, 3);
    EXPECT_FALSE(grid.oneAtATime());
}

TEST(PanelGridTest, ProjectorInPresentationModeShowsOnePanelAtATime) {
    // 1024 x 768 at 1.75 x 14 px: 3 columns are 328 px (< 490), 2 columns 495 px wide but 3 rows
    // of 203 px (< 294), one column 6 rows: nothing fits, so one panel fills the area.
    const Box area{12, 40, 1000, 630};
    const PanelGrid grid = reflowPanels(area, kSix, themeWithFont(14 * 1.75f), 4);
    ASSERT_TRUE(grid.oneAtATime());
    EXPECT_EQ(grid.shown, 4);
    for (int k = 0; k < 6; ++k) EXPECT_EQ(grid.shows(k), k == 4) << k;
    const Box cell = grid.cell(4);
    EXPECT_EQ(cell.x, area.x);
    EXPECT_EQ(cell.y, area.y);
    EXPECT_EQ(cell.width, area.width);
    EXPECT_EQ(cell.height, area.height);
    EXPECT_EQ(grid.cell(3).width, 0);
    // A selection past the end wraps: the GUI keeps one index whatever the view's count.
    EXPECT_EQ(reflowPanels(area, kSix, themeWithFont(24.5f), 7).shown, 1);
    EXPECT_EQ(reflowPanels(area, kSix, themeWithFont(24.5f), -1).shown, 5);
}

// A lecture's step that names its panel: one panel at a time even where the grid has room (at
// 1440x900 in presentation mode the grid of every panel left plots 86 px tall under the card).
// A file shows every panel whatever the flag: it is the screen's.
TEST(PanelGridTest, LectureStepShowsItsPanelAloneWhereTheGridHasRoom) {
    Theme theme = themeWithFont(14);
    theme.panelsOneAtATime = true;
    const Box area{0, 0, 1200, 800};  // the designed 3 x 2 fits (RoomyAreaKeepsTheDesignedColumns)
    const PanelGrid grid = reflowPanels(area, kSix, theme, 2);
    ASSERT_TRUE(grid.oneAtATime());
    EXPECT_EQ(grid.shown, 2);
    EXPECT_EQ(grid.cell(2).width, area.width);
    EXPECT_EQ(grid.cell(2).height, area.height);
    EXPECT_EQ(reflowPanels(area, kSix, theme, 8).shown, 2);  // wraps as the selector does
    PanelRoom room;
    theme.panelRoom = &room;
    const PanelGrid file = reflowPanels(area, kSix, theme, 2);
    EXPECT_FALSE(file.oneAtATime());
    EXPECT_EQ(file.columns, 3);
}

TEST(PanelGridTest, CellsTileTheAreaWithoutOverlap) {
    for (float width : {300.f, 640.f, 1024.f, 2400.f}) {
        for (float font : {10.f, 14.f, 24.5f}) {
            const Box area{5, 7, width, width * 0.66f};
            const PanelGrid grid = reflowPanels(area, kSix, themeWithFont(font));
            for (int a = 0; a < 6; ++a) {
                if (!grid.shows(a)) continue;
                const Box cell = grid.cell(a);
                EXPECT_GE(cell.x, area.x - 0.5f);
                EXPECT_GE(cell.y, area.y - 0.5f);
                EXPECT_LE(cell.right(), area.right() + 0.5f);
                EXPECT_LE(cell.bottom(), area.bottom() + 0.5f);
                if (!grid.oneAtATime()) {
                    EXPECT_GE(cell.width, 20 * font - 1) << width << " " << font;
                    EXPECT_GE(cell.height, 12 * font - 1) << width << " " << font;
                }
                for (int b = a + 1; b < 6; ++b) {
                    if (grid.shows(b)) {
                        EXPECT_FALSE(boxesOverlap(cell, grid.cell(b), 0)) << a << b;
                    }
                }
            }
        }
    }
}

TEST(PanelGridTest, FocusedPanelFillsTheAreaAsTheGuiNumbersIt) {
    // --panel 3 of a 2 x 2 view: the third panel alone, over the whole area; 5 shows none.
    const Box area{0, 0, 1200, 800};
    const PanelShape shape{4, 2, 20, 12, 10};
    Theme theme = paperTheme();
    theme.focusPanel = 3;
    const PanelGrid grid = reflowOrFocus(area, shape, theme);
    EXPECT_TRUE(grid.oneAtATime());
    EXPECT_TRUE(grid.shows(2));
    EXPECT_FALSE(grid.shows(0));
    EXPECT_FLOAT_EQ(grid.cell(2).width, 1200);
    theme.focusPanel = 5;
    for (int k = 0; k < 4; ++k) EXPECT_FALSE(reflowOrFocus(area, shape, theme).shows(k));
    theme.focusPanel = 0;  // no focus: the designed grid
    EXPECT_EQ(reflowOrFocus(area, shape, theme).columns, 2);
}

// A row whose titles wrap in some cells: each cell is lowered by what its plot starts above the
// row's lowest, its bottom kept; a panel without a plot (NaN) neither moves nor moves the row.
TEST(PanelGridTest, CellsAlignedByRowStartEveryPlotOfARowAtOneHeight) {
    const PanelGrid grid = reflowPanels({0, 0, 1200, 800}, kSix, themeWithFont(14));
    ASSERT_EQ(grid.columns, 3);
    // Plots start 20 px into a cell, 40 px into panels 1 and 3 (a title on two lines); panel 5
    // is a paragraph.
    auto titleHeight = [](int k) { return k == 1 || k == 3 ? 40.f : 20.f; };
    const std::vector<Box> cells = cellsAlignedByRow(
        grid, [&](int k, Box cell) { return k == 5 ? float(NAN) : cell.y + titleHeight(k); });
    ASSERT_EQ(cells.size(), 6u);
    for (int k = 0; k < 6; ++k) {
        const Box plain = grid.cell(k);
        const float plotTop = plain.y + 40;  // each row's lowest: a two-line title in each
        if (k == 5) {
            EXPECT_EQ(cells[5].y, plain.y);  // the paragraph stays
        } else {
            EXPECT_FLOAT_EQ(cells[std::size_t(k)].y + titleHeight(k), plotTop) << k;
        }
        EXPECT_FLOAT_EQ(cells[std::size_t(k)].bottom(), plain.bottom()) << k;
        EXPECT_EQ(cells[std::size_t(k)].x, plain.x) << k;
    }
    // One panel at a time: nothing to line up with.
    Theme projector = themeWithFont(40);
    const PanelGrid alone = reflowPanels({0, 0, 1000, 600}, kSix, projector, 2);
    ASSERT_TRUE(alone.oneAtATime());
    const std::vector<Box> single = cellsAlignedByRow(alone, [](int, Box cell) { return cell.y; });
    EXPECT_EQ(single[2].y, alone.cell(2).y);
}

TEST(PanelGridTest, StepPanelWrapsBothWays) {
    EXPECT_EQ(stepPanel(0, 1, 4), 1);
    EXPECT_EQ(stepPanel(3, 1, 4), 0);
    EXPECT_EQ(stepPanel(0, -1, 4), 3);
    EXPECT_EQ(stepPanel(2, -9, 4), 1);  // 2 - 9 = -7 = 1 (mod 4)
    EXPECT_EQ(stepPanel(5, 0, 0), 0);   // no panels: the first
}

// A one-column file (Theme::panelRoom): rows of the height each panel asks for, the others at
// least minHeightEm; what the column lacks is asked of the canvas and the rows shrink meanwhile;
// the screen, and several columns, are left as they were.
TEST(PanelGridTest, StackForPrintGivesMapsTheirRows) {
    constexpr PanelShape kFour{4, 2, 20, 10, 10};
    PanelRoom room;
    Theme file = themeWithFont(20);
    file.panelRoom = &room;
    const PanelGrid grid = reflowPanels({0, 0, 500, 2000}, kFour, file);
    ASSERT_EQ(grid.columns, 1);  // 500 px is under two columns of 20 ems
    // Room to spare: the maps get 600 and 500, the two plots share the rest equally.
    const PanelGrid stacked = stackForPrint(grid, kFour, {600, 500, 0, 0}, file);
    ASSERT_EQ(stacked.rowHeights.size(), 4u);
    EXPECT_FLOAT_EQ(stacked.cell(0).height, 600);
    EXPECT_FLOAT_EQ(stacked.cell(1).height, 500);
    const float plots = (2000 - 3 * 10 - 1100) / 2.f;
    EXPECT_NEAR(stacked.cell(2).height, plots, 1);
    EXPECT_NEAR(stacked.cell(3).height, plots, 1);
    EXPECT_NEAR(stacked.cell(1).y, 610, 1);
    EXPECT_NEAR(stacked.cell(3).bottom(), 2000, 1);
    EXPECT_EQ(room.missingHeight, 0);
    // Too little: the canvas is asked for the difference (plots at 10 ems = 200 px).
    const PanelGrid short_ = reflowPanels({0, 0, 500, 1000}, kFour, file);
    const PanelGrid squeezed = stackForPrint(short_, kFour, {600, 500, 0, 0}, file);
    EXPECT_FLOAT_EQ(room.missingHeight, 600 + 500 + 2 * 200 + 3 * 10 - 1000);
    EXPECT_NEAR(squeezed.cell(3).bottom(), 1000, 1);
    EXPECT_NEAR(squeezed.cell(0).height / squeezed.cell(2).height, 3, 0.05);
    // The screen (no panelRoom), no request, or two columns: the grid as it was.
    const Theme screen = themeWithFont(20);
    EXPECT_TRUE(stackForPrint(grid, kFour, {600, 500, 0, 0}, screen).rowHeights.empty());
    EXPECT_TRUE(stackForPrint(grid, kFour, {}, file).rowHeights.empty());
    const PanelGrid wide = reflowPanels({0, 0, 1400, 2000}, kFour, file);
    ASSERT_EQ(wide.columns, 2);
    EXPECT_TRUE(stackForPrint(wide, kFour, {600, 500, 0, 0}, file).rowHeights.empty());
}

}  // namespace
}  // namespace poslab
