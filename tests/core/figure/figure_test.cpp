// Figure primitives: boxes with half-open containment, text in one call, and items kept in the
// order they were added (renderers paint in that order).
#include "poslab/figure/figure.hpp"

#include <gtest/gtest.h>

#include <variant>

namespace poslab {
namespace {

TEST(FigureTest, BoxEdgesAndHalfOpenContainment) {
    const Box box{10, 20, 30, 40};
    EXPECT_FLOAT_EQ(box.right(), 40);
    EXPECT_FLOAT_EQ(box.bottom(), 60);
    EXPECT_TRUE(box.contains({10, 20}));  // top-left corner is inside
    EXPECT_TRUE(box.contains({39.9f, 59.9f}));
    EXPECT_FALSE(box.contains({40, 30}));  // right edge is outside
    EXPECT_FALSE(box.contains({20, 60}));  // bottom edge is outside
    EXPECT_FALSE(box.contains({9.9f, 30}));
    EXPECT_FALSE(Box{}.contains({0, 0}));  // an empty box contains nothing
}

TEST(FigureTest, MakeTextFillsEveryField) {
    const Rgba red{255, 0, 0, 255};
    const TextItem plain = makeText({1, 2}, "label", 12, red);
    EXPECT_FLOAT_EQ(plain.anchor.x, 1);
    EXPECT_FLOAT_EQ(plain.anchor.y, 2);
    EXPECT_EQ(plain.text, "label");
    EXPECT_FLOAT_EQ(plain.size, 12);
    EXPECT_EQ(plain.color.r, 255);
    EXPECT_EQ(plain.horizontal, HorizontalAlign::Left);
    EXPECT_EQ(plain.vertical, VerticalAlign::Top);
    EXPECT_FALSE(plain.vertical90);
    const TextItem rotated =
        makeText({0, 0}, "y", 10, red, HorizontalAlign::Right, VerticalAlign::Bottom, true);
    EXPECT_EQ(rotated.horizontal, HorizontalAlign::Right);
    EXPECT_EQ(rotated.vertical, VerticalAlign::Bottom);
    EXPECT_TRUE(rotated.vertical90);
}

TEST(FigureTest, ItemsKeepTheOrderTheyWereAdded) {
    Figure figure;
    EXPECT_FLOAT_EQ(figure.width, 800);
    EXPECT_FLOAT_EQ(figure.height, 600);
    EXPECT_EQ(figure.background.a, 0);  // transparent unless set
    figure.add(ClipPush{{0, 0, 10, 10}});
    figure.add(RectItem{{1, 1, 2, 2}});
    figure.add(makeText({0, 0}, "t", 10, {}));
    figure.add(ClipPop{});
    ASSERT_EQ(figure.items.size(), 4u);
    EXPECT_TRUE(std::holds_alternative<ClipPush>(figure.items[0]));
    EXPECT_TRUE(std::holds_alternative<RectItem>(figure.items[1]));
    EXPECT_EQ(std::get<TextItem>(figure.items[2]).text, "t");
    EXPECT_TRUE(std::holds_alternative<ClipPop>(figure.items[3]));
    // Defaults renderers rely on: no fill and no outline unless asked, -inf cells see-through.
    const RectItem rect;
    EXPECT_EQ(rect.fill.a, 0);
    EXPECT_EQ(rect.stroke.a, 0);
    const HeatmapItem heatmap;
    EXPECT_EQ(heatmap.masked.a, kMaskedColor.a);
    EXPECT_EQ(heatmap.version, 0u);
}

TEST(FigureTest, TextLeftOutIsForgottenWithTheTryThatLeftItOut) {
    Figure figure;
    figure.add(makeText({0, 0}, "kept", 14, {}));
    figure.leaveOut("first try's key");  // recorded at item 1
    figure.add(makeText({0, 20}, "first try", 14, {}));
    ASSERT_EQ(figure.leftOut.size(), 1u);
    EXPECT_EQ(figure.leftOut[0].item, 1u);
    EXPECT_EQ(figure.leftOut[0].text, "first try's key");
    figure.truncate(2, 0);  // a try undone after it: the record stays
    EXPECT_EQ(figure.leftOut.size(), 1u);
    figure.truncate(1, 0);  // the try that left it out, undone
    EXPECT_TRUE(figure.leftOut.empty());
    EXPECT_EQ(figure.items.size(), 1u);
}

TEST(FigureTest, RollingBackUndoesEverythingATryAdded) {
    Figure figure;
    figure.add(makeText({0, 0}, "kept", 14, {}));
    figure.addMark({0, 0, 10, 10});
    figure.add(ClipPush{{0, 0, 100, 100}});
    const Figure::Checkpoint start = figure.checkpoint();
    EXPECT_EQ(start.items, 2u);
    EXPECT_EQ(start.marks, 1u);
    EXPECT_EQ(start.clips.size(), 1u);
    // A try: a panel, a nested clip, a mark, a text and a key with no room.
    figure.panels.push_back({{0, 0, 50, 50}, 2, 4});
    figure.add(ClipPush{{0, 0, 50, 50}});
    figure.addMark({5, 5, 10, 10});
    figure.leaveOut("the try's key");
    figure.add(makeText({0, 20}, "the try", 14, {}));
    figure.rollBack(start);
    EXPECT_EQ(figure.items.size(), 2u);
    EXPECT_EQ(figure.marks.size(), 1u);
    EXPECT_TRUE(figure.panels.empty());
    ASSERT_EQ(figure.clips.size(), 1u);
    EXPECT_EQ(figure.clips[0].width, 100);
    EXPECT_TRUE(figure.leftOut.empty());
}

}  // namespace
}  // namespace poslab
