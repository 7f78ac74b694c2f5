#include "poslab/views/vision_rope_figures.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "figure_checks.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {
namespace {

TEST(VisionRopeFiguresTest, AdvanceLinesGiveTheLargerMergedSide) {
    auto prompt = parseMropePrompt("text:5,image:1x28x42,text:3,video:4x14x14");
    ASSERT_TRUE(prompt);
    auto positions = mropePositions(*prompt, MropeSettings{});
    ASSERT_TRUE(positions);
    const auto lines = mropeAdvanceLines(*prompt, *positions);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0],
              "image 1: 1×28×42 patches → 1×14×21 = 294 tokens; the position advances by 21, "
              "not 294 (max(14, 21))");
    // Qwen2-VL video: 4 frame groups of 7x7 merged; T reaches 3, H and W 6: advances by 7.
    EXPECT_EQ(lines[1],
              "video 1: 4×14×14 patches → 4×7×7 = 196 tokens; the position advances by 7, not 196");
}

// The brief lines (a projector): the merged grid, its tokens (14 x 21 = 294; 4 x 7 x 7 = 196) and
// the advance (max(14, 21) = 21 for the image; 7 for the video), each on one line at 1024 px.
TEST(VisionRopeFiguresTest, BriefAdvanceLinesKeepTheNumbers) {
    auto prompt = parseMropePrompt("text:5,image:1x28x42,text:3,video:4x14x14");
    ASSERT_TRUE(prompt);
    auto positions = mropePositions(*prompt, MropeSettings{});
    ASSERT_TRUE(positions);
    const auto lines = mropeAdvanceLines(*prompt, *positions, true);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "image 1: 294 tokens (1×14×21), position +21 = max(14, 21), not +294");
    EXPECT_EQ(lines[1], "video 1: 196 tokens (4×7×7), position +7, not +196");
}

// At 1024x768 F5 (a ~1008 x 552 px canvas, text 1.75 times larger) the default prompt's figure
// kept a ~130 px plot and left the video's line out ("… and 1 more image or video", #28): every
// image and video has its line, and the plot is at least eight lines of text tall.
TEST(VisionRopeFiguresTest, ProjectorShowsEveryNoteAndAReadablePlot) {
    auto prompt = parseMropePrompt("text:5,image:1x28x42,text:3,video:4x14x14");
    ASSERT_TRUE(prompt);
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    Figure figure = emptyFigure(1008, 552, projector);
    drawMropeFigure(figure, {0, 0, 1008, 552}, *prompt, MropeSettings{}, projector);
    int image = 0, video = 0;
    for (const std::string& text : texts(figure)) {
        image += text.rfind("image 1:", 0) == 0;
        video += text.rfind("video 1:", 0) == 0;
        EXPECT_EQ(text.find("more image"), std::string::npos) << text;
    }
    EXPECT_EQ(image, 1);
    EXPECT_EQ(video, 1);
    ASSERT_EQ(figure.panels.size(), 1u);
    EXPECT_GE(figure.panels[0].plot.height, 8 * projector.fontSize);
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
}

TEST(VisionRopeFiguresTest, MropeFigureDrawsThreeStreamsAndTheStrip) {
    auto prompt = parseMropePrompt("text:3,image:1x4x6,text:2");
    ASSERT_TRUE(prompt);
    Figure figure = emptyFigure(1000, 700, paperTheme());
    drawMropeFigure(figure, {0, 0, 1000, 700}, *prompt, MropeSettings{}, paperTheme());
    const Counts c = count(figure);
    EXPECT_EQ(c.polylines, 3);
    EXPECT_TRUE(allCoordinatesFinite(figure));
    EXPECT_TRUE(hasText(figure, "T 16"));
    EXPECT_TRUE(hasText(figure, "H 24"));
    EXPECT_TRUE(hasText(figure, "advances by 3, not 6"));
    int strip = 0;
    for (const FigureItem& item : figure.items) {
        if (const auto* r = std::get_if<RectItem>(&item)) {
            if (r->fill == positionStreamColor(PositionStream::Width)) ++strip;
        }
    }
    EXPECT_GE(strip, 24);  // one cell per W pair (plus the legend swatch)
}

// Position ids are integers: the position axis is ticked at integers only. The GUI's default
// prompt in the 1440x900 window was ticked 0, 2.5, 5, ..., 32.5, 35; swept over figure heights
// so that some plot height asks for a step between 2 and 5 (2.5 on a plain axis).
TEST(VisionRopeFiguresTest, MropePositionAxisIsTickedAtIntegers) {
    auto prompt = parseMropePrompt("text:5,image:1x28x42,text:3,video:4x14x14");
    ASSERT_TRUE(prompt);
    int numbers = 0;
    for (float height = 400; height <= 1000; height += 25) {
        Figure figure = emptyFigure(1050, height, darkTheme());
        drawMropeFigure(figure, {0, 0, 1050, height}, *prompt, MropeSettings{}, darkTheme());
        for (const std::string& text : texts(figure)) {
            if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos)
                continue;
            ++numbers;
            EXPECT_EQ(text.find('.'), std::string::npos) << text << " at height " << height;
        }
    }
    EXPECT_GE(numbers, 6 * 25);  // the two axes' tick labels at every height
}

TEST(VisionRopeFiguresTest, BadPromptDrawsTheErrorInstead) {
    Figure figure = emptyFigure(800, 600, paperTheme());
    drawMropeFigure(figure, {0, 0, 800, 600}, {PromptSegment{PromptSegmentKind::Image, 1, 1, 3, 4}},
                    MropeSettings{}, paperTheme());
    EXPECT_TRUE(hasText(figure, "multiples of spatial_merge_size"));
}

TEST(VisionRopeFiguresTest, AxialFigureIsOneSquareHeatmapOfTheGrid) {
    AxialRopeParams params;
    params.gridWidth = 12;
    params.gridHeight = 9;
    Figure figure = emptyFigure(900, 700, paperTheme());
    PlotFrame frame;
    drawAxialRopeFigure(figure, {0, 0, 900, 700}, params, paperTheme(), &frame);
    int heatmaps = 0;
    for (const FigureItem& item : figure.items) {
        const auto* h = std::get_if<HeatmapItem>(&item);
        if (h != nullptr && h->values->cols > 1) {  // not the colour bar (one column)
            ++heatmaps;
            EXPECT_EQ(h->values->rows, 9u);
            EXPECT_EQ(h->values->cols, 12u);
            EXPECT_NEAR(h->box.width / 12, h->box.height / 9, 1.0);  // square cells
            EXPECT_NEAR((*h->values)(7, 5), 1.0, 1e-12);             // the query with itself
        }
    }
    EXPECT_EQ(heatmaps, 1);
    EXPECT_TRUE(hasText(figure, "query patch (5, 7)"));
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Audit, session 23: `render mrope --width 600` (a one-column file, its height derived) kept for
// the position plot what the strip and the notes left, a box 0.18 times as tall as wide, the W
// stream's teeth a comb. The file grows until the box is at least 0.45 times as tall as wide; a
// window of a given size keeps its height.
TEST(VisionRopeFiguresTest, AOneColumnFileGivesThePositionPlotItsHeight) {
    auto prompt = parseMropePrompt("text:5,image:1x28x42,text:3,video:4x14x14");
    ASSERT_TRUE(prompt);
    const SizedBuild build = [&](const Theme& t, float w, float h) -> Result<Figure> {
        Figure figure = emptyFigure(w, h, t);
        drawMropeFigure(figure, {0, 0, w, h}, *prompt, MropeSettings{}, t);
        return figure;
    };
    const Theme theme = forFiles(paperTheme(), 1);
    auto column = buildWithAllPanels(build, theme, 600, 400, true, 16384);
    ASSERT_TRUE(column.ok()) << column.error().message;
    ASSERT_EQ(column->panels.size(), 1u);
    const Box plot = column->panels[0].plot;
    EXPECT_GE(plot.height, 0.45f * plot.width - 1) << plot.width << " x " << plot.height;
    EXPECT_TRUE(textsOutsideFigure(*column).empty());
    EXPECT_TRUE(overlappingTexts(*column).empty());
    auto window = buildWithAllPanels(build, theme, 600, 400, false, 16384);
    ASSERT_TRUE(window.ok());
    EXPECT_FLOAT_EQ(window->height, 400);
}

}  // namespace
}  // namespace poslab
