// Text boxes estimated from anchor, alignment and rotation, checked against boxes worked out by
// hand (0.56 em per glyph), and the overlap and outside checks on small figures.
#include "poslab/figure/text_boxes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

namespace poslab {
namespace {

constexpr float kBoxTolerance = 1e-4f;

void expectBox(Box actual, Box expected) {
    EXPECT_NEAR(actual.x, expected.x, kBoxTolerance);
    EXPECT_NEAR(actual.y, expected.y, kBoxTolerance);
    EXPECT_NEAR(actual.width, expected.width, kBoxTolerance);
    EXPECT_NEAR(actual.height, expected.height, kBoxTolerance);
}

TEST(TextBoxesTest, AlignmentPlacesTheBoxAboutTheAnchor) {
    // "abcd" at size 10: 4 glyphs x 5.6 px = 22.4 wide, 10 tall.
    const Rgba ink{0, 0, 0, 255};
    expectBox(textBox(makeText({100, 50}, "abcd", 10, ink)), {100, 50, 22.4f, 10});
    expectBox(textBox(makeText({100, 50}, "abcd", 10, ink, HorizontalAlign::Center,
                               VerticalAlign::Middle)),
              {88.8f, 45, 22.4f, 10});
    expectBox(textBox(makeText({100, 50}, "abcd", 10, ink, HorizontalAlign::Right,
                               VerticalAlign::Bottom)),
              {77.6f, 40, 22.4f, 10});
    // Multi-byte characters count once: "π/2" is 3 glyphs.
    EXPECT_NEAR(textBox(makeText({0, 0}, "π/2", 10, ink)).width, 16.8f, kBoxTolerance);
}

TEST(TextBoxesTest, RotatedTextReadsUpwardsFromTheAnchor) {
    // Rotated counter-clockwise about the anchor: left-aligned text runs up from it, top-aligned
    // text hangs to the right of it (its top edge, turned, faces left).
    const Rgba ink{0, 0, 0, 255};
    expectBox(textBox(makeText({100, 50}, "abcd", 10, ink, HorizontalAlign::Left,
                               VerticalAlign::Top, true)),
              {100, 27.6f, 10, 22.4f});
    expectBox(textBox(makeText({100, 50}, "abcd", 10, ink, HorizontalAlign::Center,
                               VerticalAlign::Top, true)),
              {100, 38.8f, 10, 22.4f});
    expectBox(textBox(makeText({100, 50}, "abcd", 10, ink, HorizontalAlign::Center,
                               VerticalAlign::Middle, true)),
              {95, 38.8f, 10, 22.4f});
}

TEST(TextBoxesTest, OverlapsAndTextOutsideAreListed) {
    const Rgba ink{0, 0, 0, 255};
    Figure figure;
    figure.width = 200, figure.height = 100;
    figure.add(makeText({10, 10}, "first label", 10, ink));   // 0: 10..71.6 x 10..20
    figure.add(makeText({60, 8}, "second", 10, ink));         // 1: overlaps 0
    figure.add(makeText({10, 21}, "just below", 10, ink));    // 2: touches 0 by -1 px: fine
    figure.add(LineItem{{0, 0}, {200, 100}, ink, 1, false});  // 3: not text
    figure.add(makeText({190, 80}, "cut off", 10, ink));      // 4: runs past the right edge
    figure.add(makeText({60, 15}, "  ", 10, ink));            // 5: blank: ignored
    const std::vector<TextOverlap> pairs = overlappingTexts(figure);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].first, 0u);
    EXPECT_EQ(pairs[0].second, 1u);
    EXPECT_EQ(textsOutsideFigure(figure), std::vector<std::size_t>{4});
    EXPECT_TRUE(boxesOverlap({0, 0, 10, 10}, {5, 5, 10, 10}, 1));
    EXPECT_FALSE(boxesOverlap({0, 0, 10, 10}, {9.5f, 0, 10, 10}, 1));  // half a pixel: contact
}

// Marks: the figure records every curve, dot and heatmap as it is added, clipped as it is drawn;
// a text over a curve's stroke hides data, one beside it or over the clipped-away part does not.
TEST(TextBoxesTest, TextsOverMarksFollowTheCurvesStrokeAndClip) {
    const Rgba ink{0, 0, 0, 255};
    Figure figure;
    figure.width = 400, figure.height = 200;
    figure.add(ClipPush{{0, 0, 200, 200}});
    figure.add(PolylineItem{{{0, 100}, {300, 100}}, ink, 2});  // a horizontal line at y = 100
    figure.add(ClipPop{});
    figure.add(makeText({20, 95}, "over", 10, ink));         // 0: 95..105 crosses y = 100
    figure.add(makeText({20, 110}, "below", 10, ink));       // 1: clear of the stroke
    figure.add(makeText({250, 95}, "clipped", 10, ink));     // 2: the line is clipped away there
    figure.add(makeText({20, 40}, "long title…", 10, ink));  // 3: cut short
    ASSERT_EQ(figure.marks.size(), 1u);
    EXPECT_EQ(figure.marks[0].kind, MarkKind::Curve);
    const std::vector<TextOverMark> over = textsOverMarks(figure);
    ASSERT_EQ(over.size(), 1u);
    EXPECT_EQ(over[0].text, 3u);  // items: clip, line, pop, then the texts
    EXPECT_EQ(cutTexts(figure), std::vector<std::size_t>{6});
    // A diagonal crossing a box without a vertex inside it still counts.
    Figure diagonal;
    diagonal.add(PolylineItem{{{0, 0}, {100, 100}}, ink, 1});
    EXPECT_TRUE(boxCoversMark({40, 40, 20, 20}, diagonal.marks[0]));
    EXPECT_FALSE(boxCoversMark({60, 10, 20, 20}, diagonal.marks[0]));
    EXPECT_EQ(marksCovered(diagonal, {0, 0, 100, 100}), 1);
}

// A value written inside its own heatmap cell labels it; a text across two cells hides data.
TEST(TextBoxesTest, HeatmapCellLabelsAreNotOverData) {
    Figure figure;
    figure.width = 200, figure.height = 200;
    Matrix values(2, 2);
    HeatmapItem heatmap;
    heatmap.box = {0, 0, 200, 200};
    heatmap.values = std::make_shared<const Matrix>(values);
    figure.add(heatmap);
    figure.add(makeText({10, 10}, "0.17", 10, {0, 0, 0, 255}));      // inside cell (0, 0)
    figure.add(makeText({90, 10}, "0.17 0.5", 10, {0, 0, 0, 255}));  // across cells 0 and 1
    const std::vector<TextOverMark> over = textsOverMarks(figure);
    ASSERT_EQ(over.size(), 1u);
    EXPECT_EQ(over[0].text, 2u);
}

// A text a few pixels from a curve reads as on it (T5's "exact below 8" 3.6 px under its steps at
// one column, #28): within a fifth of its size (3 px at least) of a curve or point it crowds
// the data; a word beside a heatmap's cells (an axis's label) does not.
TEST(TextBoxesTest, TextsCloseToACurveCrowdItButNotBesideAHeatmap) {
    const Rgba ink{0, 0, 0, 255};
    EXPECT_FLOAT_EQ(markClearance(20), 4);
    EXPECT_FLOAT_EQ(markClearance(10), 3);
    Figure figure;
    figure.width = 400, figure.height = 400;
    figure.add(PolylineItem{{{0, 100}, {300, 100}}, ink, 2});  // stroke 99..101
    figure.add(makeText({20, 104}, "near", 20, ink));          // 1: 3 px under the stroke
    figure.add(makeText({20, 106}, "apart", 20, ink));         // 2: 5 px under it
    HeatmapItem heatmap;
    heatmap.box = {0, 200, 100, 100};
    heatmap.values = std::make_shared<const Matrix>(Matrix(2, 2));
    figure.add(heatmap);
    figure.add(makeText({102, 250}, "key", 20, ink));  // 4: 2 px right of the cells
    EXPECT_TRUE(textsOverMarks(figure).empty());       // none covers a mark
    const std::vector<TextOverMark> crowding = textsCrowdingMarks(figure);
    ASSERT_EQ(crowding.size(), 1u);
    EXPECT_EQ(crowding[0].text, 1u);
    EXPECT_TRUE(crowdsMarks(figure, {20, 103, 40, 10}, 20));
    EXPECT_FALSE(crowdsMarks(figure, {20, 106, 40, 10}, 20));
    EXPECT_FALSE(crowdsMarks(figure, {101, 220, 40, 10}, 20));
    EXPECT_TRUE(crowdsMarks(figure, {90, 220, 40, 10}, 20));  // over the cells
}

// placeFree: the first preferred box that hides nothing, else the nearest free grid position,
// else nothing.
TEST(TextBoxesTest, PlaceFreeAvoidsMarksAndTexts) {
    const Rgba ink{0, 0, 0, 255};
    Figure figure;
    figure.width = 200, figure.height = 100;
    figure.add(PolylineItem{{{0, 20}, {200, 20}}, ink, 2});  // data along the top
    const Box within{0, 0, 200, 100};
    const Box topRight{140, 5, 50, 30}, bottomRight{140, 65, 50, 30};
    EXPECT_EQ(placeFree(figure, within, 50, 30, {topRight, bottomRight})->y, 65);
    figure.add(makeText({150, 70}, "taken", 10, ink));
    const std::optional<Box> nearest = placeFree(figure, within, 50, 30, {topRight, bottomRight});
    ASSERT_TRUE(nearest);
    EXPECT_GT(nearest->y, 21);  // below the line
    EXPECT_FALSE(boxesOverlap(*nearest, textBox(std::get<TextItem>(figure.items[1])), 0));
    figure.add(PolylineItem{{{0, 0}, {200, 100}, {0, 100}, {200, 0}}, ink, 40});  // fills it
    EXPECT_FALSE(placeFree(figure, within, 50, 30, {topRight}));
}

// placeFree on long curves (it skips runs of segments whose bounds miss the box): the box it
// returns covers no curve, and every grid position nearer the first preferred box is covered,
// each checked with boxCoversMark, which tests every segment.
TEST(TextBoxesTest, PlaceFreeOnLongCurvesIsTheNearestFreeGridPosition) {
    const Rgba ink{0, 0, 0, 255};
    Figure figure;
    figure.width = 400, figure.height = 200;
    std::vector<Point> wave, ramp;
    for (int i = 0; i <= 1000; ++i) {
        const float x = 0.4f * float(i);
        wave.push_back({x, 100 + 60 * std::sin(x / 23)});
        ramp.push_back({x, 190 - 0.45f * x});
    }
    figure.add(PolylineItem{wave, ink, 2});
    figure.add(PolylineItem{ramp, ink, 3});
    const Box within{0, 0, 400, 200};
    const float w = 40, h = 18;
    const Box preferred{330, 150, w, h};  // on the ramp: the search starts there
    const std::optional<Box> placed = placeFree(figure, within, w, h, {preferred});
    ASSERT_TRUE(placed);
    auto covered = [&](Box box) {
        for (const MarkFootprint& mark : figure.marks)
            if (boxCoversMark(box, mark, 0)) return true;
        return false;
    };
    EXPECT_TRUE(covered(preferred));
    EXPECT_FALSE(covered(*placed));
    // The grid placeFree documents: steps of a quarter of the box from the top left of `within`.
    const float distance = std::hypot(placed->x - preferred.x, placed->y - preferred.y);
    int nearer = 0;
    const float stepX = 10, stepY = 4.5f;  // max(4, w / 4), max(4, h / 4)
    for (float y = 0; y + h <= 200.5f; y += stepY) {
        for (float x = 0; x + w <= 400.5f; x += stepX) {
            if (std::hypot(x - preferred.x, y - preferred.y) >= distance) continue;
            ++nearer;
            EXPECT_TRUE(covered({x, y, w, h})) << x << ", " << y;
        }
    }
    EXPECT_GE(nearer, 5);  // the answer was not simply the first position tried
}

TEST(TextBoxesTest, BoxMinusLeavesTheBoxWithoutTheHole) {
    const Box box{0, 0, 100, 50}, hole{60, 10, 20, 20};
    const std::vector<Box> pieces = boxMinus(box, hole);
    float area = 0;
    for (const Box& piece : pieces) {
        area += piece.width * piece.height;
        EXPECT_FALSE(boxesOverlap(piece, hole, 0));
        EXPECT_GE(piece.x, box.x);
        EXPECT_LE(piece.right(), box.right());
    }
    EXPECT_FLOAT_EQ(area, 100 * 50 - 20 * 20);               // the box's area less the hole's
    EXPECT_EQ(boxMinus(box, {200, 0, 5, 5}).size(), 1u);     // a hole outside: the box itself
    EXPECT_TRUE(boxMinus(box, {-5, -5, 200, 200}).empty());  // all covered: nothing left
}

}  // namespace
}  // namespace poslab
