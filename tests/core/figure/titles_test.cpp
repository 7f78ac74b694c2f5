// titles.hpp: what each TitleMode draws, the band kept for it, and the panel titles it gives.
#include "poslab/figure/titles.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

namespace poslab {
namespace {

std::vector<std::string> textsOf(const Figure& figure) {
    std::vector<std::string> out;
    for (const FigureItem& item : figure.items) {
        if (const auto* text = std::get_if<TextItem>(&item)) out.push_back(text->text);
    }
    return out;
}

TEST(TitlesTest, AutoDrawsTheViewsTitleCentredAtTheTop) {
    Figure figure;
    const Theme theme;
    EXPECT_TRUE(drawTitle(figure, {0, 0, 800, 40}, "Sinusoidal table", theme));
    ASSERT_EQ(textsOf(figure), std::vector<std::string>{"Sinusoidal table"});
    const auto& text = std::get<TextItem>(figure.items.front());
    EXPECT_FLOAT_EQ(text.anchor.x, 400);  // the middle of the band
    EXPECT_LT(text.anchor.y, 40);
}

TEST(TitlesTest, HiddenDrawsNothingAndGivesTheBandBack) {
    Figure figure;
    Theme theme;
    theme.titleMode = TitleMode::Hidden;
    EXPECT_FALSE(drawTitle(figure, {0, 0, 800, 40}, "Sinusoidal table", theme));
    EXPECT_TRUE(figure.items.empty());
    EXPECT_EQ(titleBandHeight(theme), 0);
    EXPECT_EQ(panelTitle("heads", theme), "");
}

TEST(TitlesTest, BandIsLinesTimesTheTitleSize) {
    Theme theme;
    theme.titleSize = 20;
    EXPECT_FLOAT_EQ(titleBandHeight(theme), 36);  // 1.8 lines by default
    EXPECT_FLOAT_EQ(titleBandHeight(theme, 3), 60);
}

TEST(TitlesTest, ReplaceSwapsTheFirstFigureTitleAndDropsTheSubtitle) {
    Figure figure;
    Theme theme;
    theme.titleMode = TitleMode::Replace;
    theme.titleText = "Figure 2";
    EXPECT_TRUE(drawTitle(figure, {0, 0, 800, 40}, "Sinusoidal table", theme));
    EXPECT_FALSE(drawTitle(figure, {0, 40, 800, 40}, "a subtitle", theme));
    EXPECT_EQ(textsOf(figure), std::vector<std::string>{"Figure 2"});
    EXPECT_EQ(panelTitle("heads", theme), "heads");  // panel titles stay the view's
}

TEST(TitlesTest, ReplaceOfPanelTitlesKeepsTheFigureTitle) {
    Figure figure;
    Theme theme;
    theme.titleMode = TitleMode::Replace;
    theme.titleTarget = TitleTarget::PanelTitles;
    theme.titleText = "(a)";
    EXPECT_TRUE(drawTitle(figure, {0, 0, 800, 40}, "Sinusoidal table", theme));
    EXPECT_EQ(textsOf(figure), std::vector<std::string>{"Sinusoidal table"});
    EXPECT_EQ(panelTitle("heads", theme), "(a)");
}

// The lines drawn are what the caller stacks a second line under (RoPE Rotation's setup line):
// one for a title that fits, two for one too long even shrunk, each the figure's own text item.
TEST(TitlesTest, ReturnsTheLinesItDrew) {
    const Theme theme;
    const std::string title = "RoPE rotates each pair by position times theta";
    Figure wide;
    EXPECT_EQ(drawTitle(wide, {0, 0, 900, 40}, title, theme), 1);
    EXPECT_EQ(textsOf(wide).size(), 1u);
    Figure narrow;
    EXPECT_EQ(drawTitle(narrow, {0, 0, 260, 40}, title, theme), 2);
    EXPECT_EQ(textsOf(narrow).size(), 2u);
}

}  // namespace
}  // namespace poslab
