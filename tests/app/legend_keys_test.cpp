// Every legend key shown (issue 28): a key with no room is counted by the layout check
// (--check-layout, --tour-check) as cut text, and an export on a cramped canvas at a large font
// lists every key instead of leaving one out.
#include <gtest/gtest.h>

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "poslab/figure/plot.hpp"
#include "process.hpp"
#include "ui/frame_context.hpp"
#include "ui/widgets.hpp"

namespace poslab::test {
namespace {

TEST(LayoutAuditTest, CountsALegendKeyLeftOutAsCutText) {
    // A 300 x 70 panel at a projector's font: no placement holds six keys (a row is 32 px).
    Theme theme = scaledTheme(darkTheme(), 1.75f);
    theme.legend = LegendPlacement::Outside;
    LinePlotSpec spec;
    spec.x = {"x", 0, 1};
    spec.y = {"y", 0, 1};
    const std::vector<std::string> names = {"one", "two", "three", "four", "five", "six"};
    for (const std::string& name : names) spec.series.push_back({name, {0, 1}, {0, 1}});
    Figure figure = emptyFigure(300, 70, theme);
    drawLinePlot(figure, {0, 0, 300, 70}, spec, theme);
    int shown = 0;
    for (const std::string& name : names)
        for (const FigureItem& item : figure.items)
            if (const auto* text = std::get_if<TextItem>(&item); text && text->text == name)
                ++shown;
    ASSERT_LT(shown, 6);  // the premise: some keys have no room
    ASSERT_EQ(std::size_t(shown) + figure.leftOut.size(), names.size());

    ui::LayoutAudit audit;
    audit.checkCuts = true;  // 1024x768 and up
    ui::FrameContext context;
    context.theme = theme;
    context.layoutAudit = &audit;
    ui::auditFigureLayout(figure, context);
    EXPECT_EQ(audit.cut, int(6 - shown));
    bool named = false;
    for (const std::string& fault : audit.faults)
        named |= fault.find("\"six\" is left out") != std::string::npos;
    EXPECT_TRUE(named);

    // Below 1024x768 a cut text is no fault, and a key left out is no different.
    ui::LayoutAudit small;
    context.layoutAudit = &small;
    ui::auditFigureLayout(figure, context);
    EXPECT_EQ(small.cut, 0);
}

// The SVG's text elements, in order (Cairo writes text as text).
std::vector<std::string> svgTexts(const std::string& svg) {
    std::vector<std::string> texts;
    for (std::size_t at = 0; (at = svg.find("<text", at)) != std::string::npos;) {
        const std::size_t open = svg.find('>', at), close = svg.find("</text>", at);
        if (open == std::string::npos || close == std::string::npos) break;
        texts.push_back(svg.substr(open + 1, close - open - 1));
        at = close;
    }
    return texts;
}

TEST(LegendExportTest, ACrampedCanvasAtALargeFontListsEveryKey) {
    // The principal components' panel at --font-scale 1.75 on 1010 x 630 showed PC1 and PC2 and
    // left PC3 out: a column beside the plot holds two keys whose names wrap onto two lines.
    const std::string dir = temporaryDirectory("legend-keys");
    const std::string out = dir + "/pcs.svg";
    const ProcessResult run = runPoslab({"render", "learned-pca", "--panel", "2", "--width", "1010",
                                         "--height", "630", "--font-scale", "1.75", "--out", out});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::vector<std::string> texts = svgTexts(readFile(out));
    for (const std::string key : {"PC1 (lag-1 r", "PC2 (lag-1 r", "PC3 (lag-1 r"}) {
        bool found = false;
        for (const std::string& text : texts) found |= text.rfind(key, 0) == 0;
        EXPECT_TRUE(found) << key;
    }
}

}  // namespace
}  // namespace poslab::test
