// Text boxes estimated from anchor, alignment and rotation, checked against boxes worked out by
// hand (0.56 em per glyph), and the overlap and outside checks on small figures.
#include "poslab/figure/text_boxes.hpp"

#include <gtest/gtest.h>

namespace poslab {
namespace {

constexpr float kTolerance = 1e-4f;

void expectBox(Box actual, Box expected) {
    EXPECT_NEAR(actual.x, expected.x, kTolerance);
    EXPECT_NEAR(actual.y, expected.y, kTolerance);
    EXPECT_NEAR(actual.width, expected.width, kTolerance);
    EXPECT_NEAR(actual.height, expected.height, kTolerance);
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
    EXPECT_NEAR(textBox(makeText({0, 0}, "π/2", 10, ink)).width, 16.8f, kTolerance);
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

}  // namespace
}  // namespace poslab
