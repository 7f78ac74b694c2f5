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

#include "../views/figure_checks.hpp"  // textExtent

namespace poslab {
namespace {

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
        // One line, or (too long for one) lines stacked up from the label's line.
        std::string joined;
        for (std::size_t i = before; i < figure.items.size(); ++i) {
            const auto* drawn = std::get_if<TextItem>(&figure.items[i]);
            ASSERT_NE(drawn, nullptr);
            EXPECT_GT(textExtent(*drawn).first, textExtent(*axisLabel).second) << width;
            EXPECT_LE(textExtent(*drawn).second, area.right()) << width;
            joined += (joined.empty() ? "" : " ") + drawn->text;
        }
        if (width >= 900) {
            EXPECT_EQ(figure.items.size(), before + 1);
            EXPECT_EQ(joined, note);  // room enough: unchanged, one line
        }
        ++drawnCount;
    }
    EXPECT_GE(drawnCount, 2);  // wrapped, shrunk or cut at 400 px, whole at 900 px
}

// Issue #28: a corner note too long for its line ("each pixel: mean of 2x1 cel…" under the
// Learned table at 1024x768 F5) wraps onto lines stacked up from the axis label's line, right of
// the label and below the plot, instead of ending in "…": every word is still there.
TEST(PlotTest, ACornerNoteTooLongForItsLineWrapsInsteadOfBeingCut) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);  // presentation mode
    const std::string note = "each pixel: mean of 2x1 cells";
    const Box area{0, 0, 520, 320};
    HeatmapSpec spec;
    spec.values = std::make_shared<const Matrix>(4, 4);
    spec.x = {"dimension", 0, 4, false, true};
    spec.y = {"position", 0, 4, false, true};
    spec.range = {0, 1};
    Figure figure = emptyFigure(520, 320, theme);
    PlotFrame frame;
    drawHeatmap(figure, area, spec, theme, &frame);
    const std::size_t before = figure.items.size();
    // One line would need more than the room right of the centred x label.
    const float labelRight = frame.plot.x + frame.plot.width / 2 +
                             estimateTextWidth("dimension", theme.fontSize) / 2 + theme.fontSize;
    const float noteSize = theme.fontSize * 0.85f;
    ASSERT_GT(estimateTextWidth(note, noteSize * readableMinScale(noteSize, theme)),
              area.right() - 4 - labelRight);
    drawCornerNote(figure, area, &frame, note, theme);
    ASSERT_GE(figure.items.size(), before + 2);
    std::string joined;
    float lastY = -1;
    for (std::size_t i = before; i < figure.items.size(); ++i) {
        const auto* line = std::get_if<TextItem>(&figure.items[i]);
        ASSERT_NE(line, nullptr);
        EXPECT_EQ(line->text.find("…"), std::string::npos) << line->text;
        EXPECT_GE(textExtent(*line).first, labelRight - 0.5f) << line->text;
        EXPECT_GE(textBox(*line).y, frame.plot.bottom()) << line->text;  // below the plot
        EXPECT_GT(line->anchor.y, lastY);                                // stacked, in order
        lastY = line->anchor.y;
        joined += (joined.empty() ? "" : " ") + line->text;
    }
    EXPECT_EQ(joined, note);
    EXPECT_FLOAT_EQ(lastY, area.bottom() - 2);  // the last on the axis label's line
}

TEST(PlotTest, BlockNotesSayHowManyCellsEachPixelHolds) {
    HeatmapSample sample;
    EXPECT_EQ(blockNote(sample, "mean of"), "");  // one cell per texel: nothing to say
    sample.rowsPerTexel = 19;
    sample.colsPerTexel = 1;
    EXPECT_EQ(blockNote(sample, "mean of unmasked"), "each pixel: mean of unmasked 19×1 cells");
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
