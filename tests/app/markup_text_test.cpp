// The lesson cards' markup (ui/markup_text): words break at spaces outside $...$ only, so a
// formula is never split across lines, and each word still parses to the runs the figures draw.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "poslab/figure/text_markup.hpp"
#include "ui/markup_text.hpp"

namespace poslab::test {
namespace {

TEST(MarkupTextTest, WordsBreakOutsideMathsOnly) {
    using Words = std::vector<std::string>;
    EXPECT_EQ(ui::markupWords("pair $i$ turns at $θ_i = base^{-2i/d}$ radians"),
              (Words{"pair", "$i$", "turns", "at", "$θ_i = base^{-2i/d}$", "radians"}));
    EXPECT_EQ(ui::markupWords("a  b\nc"), (Words{"a", "b", "\n", "c"}));
    EXPECT_EQ(ui::markupWords("costs \\$5 and $q_m·k_n$."),
              (Words{"costs", "\\$5", "and", "$q_m·k_n$."}));
    EXPECT_EQ(ui::markupWords(""), Words{});
    // A formula's runs as the figure text sets them: θ upright, i a lowered smaller italic.
    const std::vector<TextRun> runs = parseMarkup(ui::markupWords("at $θ_i$")[1]);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].text, "θ");
    EXPECT_EQ(runs[1].text, "i");
    EXPECT_LT(runs[1].shift, 0);
    EXPECT_LT(runs[1].scale, 1);
    EXPECT_EQ(runs[1].style, TextStyle::Italic);
}

}  // namespace
}  // namespace poslab::test
