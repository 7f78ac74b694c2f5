// zoomAndPan (ui/widgets.hpp): the wheel, drag and double-click handling the Sinusoidal, RoPE and
// Similarity heatmaps share. Expected windows are worked out by hand from the rule: the wheel
// scales the count by 0.8 per step about the cell under the mouse; a drag of d pixels over a
// plot h pixels tall moves the first row by d / h of the rows shown.
#include <gtest/gtest.h>

#include <imgui.h>

#include "ui/status_text.hpp"
#include "ui/widgets.hpp"

namespace poslab::test {
namespace {

using ui::Canvas;
using ui::ZoomAxes;

// ImGui's IO (Shift) without a window or backend.
class ZoomPanTest : public ::testing::Test {
  protected:
    void SetUp() override { ImGui::CreateContext(); }
    void TearDown() override { ImGui::DestroyContext(); }

    // A 100 x 100 pixel heatmap showing `w` (rows down the y axis, as heatmaps draw them).
    static PlotFrame frameFor(const CellWindow& w) {
        PlotFrame frame;
        frame.plot = {0, 0, 100, 100};
        frame.x.low = double(w.firstCol);
        frame.x.high = double(w.firstCol + w.colCount);
        frame.y.low = double(w.firstRow);
        frame.y.high = double(w.firstRow + w.rowCount);
        frame.yDown = true;
        return frame;
    }
    static Canvas wheelAt(float x, float y, float steps) {
        Canvas canvas;
        canvas.box = {0, 0, 100, 100};
        canvas.hovered = true;
        canvas.mouse = {x, y};
        canvas.wheel = steps;
        return canvas;
    }
};

TEST_F(ZoomPanTest, WheelZoomsRowsAboutTheMouse) {
    CellWindow w{0, 100, 0, 50};
    // The mouse at the top edge (row 0): 100 rows become 80, still starting at row 0.
    ui::zoomAndPan(w, wheelAt(50, 0, 1), frameFor(w), 1000, 50, ZoomAxes::RowsOrColumns);
    EXPECT_EQ(w.firstRow, 0);
    EXPECT_EQ(w.rowCount, 80);
    EXPECT_EQ(w.colCount, 50);  // columns only with Shift
    // The mouse in the middle (row 40 of 0..80): 64 rows about row 40, so 40 - 40 * 0.8 = 8.
    ui::zoomAndPan(w, wheelAt(50, 50, 1), frameFor(w), 1000, 50, ZoomAxes::RowsOrColumns);
    EXPECT_EQ(w.rowCount, 64);
    EXPECT_EQ(w.firstRow, 8);
}

TEST_F(ZoomPanTest, ShiftWheelZoomsColumns) {
    CellWindow w{0, 100, 0, 50};
    ImGui::GetIO().KeyShift = true;
    ui::zoomAndPan(w, wheelAt(0, 50, 1), frameFor(w), 1000, 50, ZoomAxes::RowsOrColumns);
    EXPECT_EQ(w.rowCount, 100);
    EXPECT_EQ(w.colCount, 40);
}

TEST_F(ZoomPanTest, SquareMapsZoomBothAxes) {
    CellWindow w{0, 100, 0, 100};
    ui::zoomAndPan(w, wheelAt(0, 0, 2), frameFor(w), 500, 500, ZoomAxes::Both);
    EXPECT_EQ(w.rowCount, 64);  // 100 * 0.8^2
    EXPECT_EQ(w.colCount, 64);
}

TEST_F(ZoomPanTest, ZoomStopsAtOneCellAndAtEverything) {
    CellWindow w{0, 2, 0, 2};
    ui::zoomAndPan(w, wheelAt(0, 0, 10), frameFor(w), 10, 10, ZoomAxes::Both);
    EXPECT_EQ(w.rowCount, 1);
    EXPECT_EQ(w.colCount, 1);
    ui::zoomAndPan(w, wheelAt(0, 0, -40), frameFor(w), 10, 10, ZoomAxes::Both);
    EXPECT_EQ(w.rowCount, 10);
    EXPECT_EQ(w.firstRow, 0);
}

TEST_F(ZoomPanTest, DragPansByTheFractionOfThePlot) {
    CellWindow w{500, 100, 0, 50};
    Canvas canvas;
    canvas.dragging = true;
    canvas.dragDelta = {0, 25};  // a quarter of the plot's height down: 25 rows back
    ui::zoomAndPan(w, canvas, frameFor(w), 1000, 50, ZoomAxes::RowsOrColumns);
    EXPECT_EQ(w.firstRow, 475);
    EXPECT_EQ(w.rowCount, 100);
}

TEST_F(ZoomPanTest, DoubleClickShowsEverything) {
    CellWindow w{500, 100, 10, 20};
    Canvas canvas;
    canvas.doubleClicked = true;
    ui::zoomAndPan(w, canvas, frameFor(w), 1000, 50, ZoomAxes::RowsOrColumns);
    EXPECT_EQ(w.firstRow, 0);
    EXPECT_EQ(w.rowCount, 1000);
    EXPECT_EQ(w.firstCol, 0);
    EXPECT_EQ(w.colCount, 50);
}

TEST_F(ZoomPanTest, TheWheelOutsideThePlotOrOverAnEmptyPlotDoesNothing) {
    CellWindow w{0, 100, 0, 50};
    ui::zoomAndPan(w, wheelAt(150, 50, 1), frameFor(w), 1000, 50, ZoomAxes::RowsOrColumns);
    EXPECT_EQ(w.rowCount, 100);
    PlotFrame empty = frameFor(w);
    empty.plot.width = 0;
    Canvas drag;
    drag.dragging = true;
    drag.dragDelta = {10, 10};
    ui::zoomAndPan(w, drag, empty, 1000, 50, ZoomAxes::RowsOrColumns);  // no division by zero
    EXPECT_EQ(w.firstRow, 0);
    EXPECT_EQ(w.firstCol, 0);
}

// The status line's message cut to its row (ui/status_text.hpp): a screenshot's path and the
// first start's hint ran past the window's edge at 1024x768 F5. Widths here: 10 px a character.
TEST(StatusTextTest, FitToWidthCutsWithAnEllipsisAtACharacter) {
    auto tenPerCharacter = [](std::string_view text) {
        float characters = 0;
        for (unsigned char c : text) characters += (c & 0xC0) != 0x80;
        return 10 * characters;
    };
    EXPECT_EQ(ui::fitToWidth("Saved x.png", 110, tenPerCharacter), "Saved x.png");  // whole
    EXPECT_EQ(ui::fitToWidth("Saved x.png", 109, tenPerCharacter), "Saved x.p…");   // 100 px
    EXPECT_EQ(ui::fitToWidth("Saved x.png", 70, tenPerCharacter), "Saved…");  // no space before …
    EXPECT_EQ(ui::fitToWidth("θθθθ", 35, tenPerCharacter), "θθ…");  // never half a character
    EXPECT_EQ(ui::fitToWidth("abc", 5, tenPerCharacter), "…");
}

}  // namespace
}  // namespace poslab::test
