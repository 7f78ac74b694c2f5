// Whole-figure helpers: corner notes clear of the axis label, block notes, notes that wrap.
#include "poslab/figure/plot.hpp"

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/text_boxes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace poslab {
namespace {

// The horizontal extent [left, right] of a text item, by the same estimate the layout uses.
std::pair<float, float> textExtent(const TextItem& t) {
    const float width = estimateTextWidth(t.text, t.size);
    switch (t.horizontal) {
        case HorizontalAlign::Left:
            return {t.anchor.x, t.anchor.x + width};
        case HorizontalAlign::Center:
            return {t.anchor.x - width / 2, t.anchor.x + width / 2};
        default:
            return {t.anchor.x - width, t.anchor.x};
    }
}

TEST(PlotTest, CornerNotesKeepClearOfTheAxisLabelOrStayOut) {
    // A narrow heatmap (the ALiBi figure at 500 px wide) once drew "each pixel: mean of ..."
    // over its "key j" label. The note now ends left of the area's edge and starts right of the
    // label, or is left out.
    const Theme theme = paperTheme();
    const std::string note = "each pixel: mean of unmasked 19x19 cells";
    int drawnCount = 0;
    for (float width : {90.0f, 160.0f, 240.0f, 400.0f, 900.0f}) {
        const Box area{10, 0, width, 200};
        HeatmapSpec spec;
        spec.values = std::make_shared<const Matrix>(2, 2);
        spec.x = {"key j", 0, 2, false, true};
        spec.y = {"query i", 0, 2, false, true};
        spec.range = {0, 1};
        Figure figure = emptyFigure(width + 20, 200, theme);
        PlotFrame frame;
        drawHeatmap(figure, area, spec, theme, &frame);
        const std::size_t before = figure.items.size();
        drawCornerNote(figure, area, &frame, note, theme);
        const TextItem* axisLabel = nullptr;
        for (std::size_t i = 0; i < before; ++i) {
            const auto* text = std::get_if<TextItem>(&figure.items[i]);
            // "key j", or fitted to a narrow plot's width ("ke…"): the label under the plot.
            if (text && text->vertical == VerticalAlign::Bottom && text->anchor.y == 198)
                axisLabel = text;
        }
        ASSERT_NE(axisLabel, nullptr) << width;
        if (figure.items.size() == before) continue;  // no room: left out
        ASSERT_EQ(figure.items.size(), before + 1);
        const auto* drawn = std::get_if<TextItem>(&figure.items.back());
        ASSERT_NE(drawn, nullptr);
        EXPECT_GT(textExtent(*drawn).first, textExtent(*axisLabel).second) << width;
        EXPECT_LE(textExtent(*drawn).second, area.right()) << width;
        if (width >= 900) {
            EXPECT_EQ(drawn->text, note);  // room enough: unchanged
        }
        ++drawnCount;
    }
    EXPECT_GE(drawnCount, 2);  // shrunk or cut at 400 px, whole at 900 px
}

TEST(PlotTest, BlockNotesSayHowManyCellsEachPixelHolds) {
    HeatmapSample sample;
    EXPECT_EQ(blockNote(sample, "mean of"), "");  // one cell per texel: nothing to say
    sample.rowsPerTexel = 19;
    sample.colsPerTexel = 1;
    EXPECT_EQ(blockNote(sample, "mean of unmasked"), "each pixel: mean of unmasked 19x1 cells");
}

// A note longer than its area is wide wraps between words and stays inside (RoPE's Layers
// figure at 480x320 ran its "load a config.json …" note 150 px past both edges).
TEST(PlotTest, NotesWrapInsideANarrowArea) {
    const std::string message =
        "load a config.json (path and Load, or drop it here) to see its layers";
    Figure figure = emptyFigure(248, 204, darkTheme());
    drawNote(figure, {0, 0, 248, 204}, message, darkTheme());
    std::string joined;
    int lines = 0;
    for (const FigureItem& item : figure.items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text) continue;
        ++lines;
        joined += (joined.empty() ? "" : " ") + text->text;
    }
    EXPECT_GE(lines, 2);
    EXPECT_EQ(joined, message);  // every word, in order, none cut
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

}  // namespace
}  // namespace poslab
