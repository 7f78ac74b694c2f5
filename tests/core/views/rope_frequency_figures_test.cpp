#include "poslab/views/rope_frequency_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/text_markup.hpp"
#include "rope_figure_checks.hpp"

namespace poslab {
namespace {

using namespace rope_checks;

TEST(RopeFrequencyFiguresTest, FrequencyChartMarksThePairsThatNeverCompleteATurn) {
    const RopeParams p = params(64, 1000);
    const Theme theme = darkTheme();
    Figure figure = emptyFigure(1000, 700, theme);
    drawRopeFrequencies(figure, {0, 0, 1000, 700}, p, {}, theme);
    int expected = 0;  // wavelength 2 pi base^(2i/d) longer than the context
    for (int i = 0; i < 32; ++i) expected += 2 * kPi * std::pow(10000.0, 2.0 * i / 64) > 1000;
    ASSERT_GT(expected, 0);
    int highlighted = 0;
    for (const FigureItem& item : figure.items) {
        if (auto* circle = std::get_if<CircleItem>(&item))
            highlighted += circle->fill == theme.accent;
    }
    EXPECT_EQ(highlighted, expected + 1);  // one dot per pair, plus the legend's
    EXPECT_TRUE(hasText(figure, std::to_string(expected) +
                                    " of 32 pairs never complete a turn within the "
                                    "context 1000"));
    EXPECT_TRUE(hasText(figure, "context = training length 1000"));
    EXPECT_TRUE(hasText(figure, "Wavelength $2π/θ_i$ of each pair"));

    RopeParams longer = p;
    longer.trainingLength = 200;
    Figure two = emptyFigure(1000, 700, theme);
    drawRopeFrequencies(two, {0, 0, 1000, 700}, longer, {RopeTurnReference::Training}, theme);
    EXPECT_TRUE(hasText(two, "context length 1000"));
    EXPECT_TRUE(hasText(two, "training length 200"));
    EXPECT_TRUE(hasText(two, "within the training length 200"));
}

TEST(RopeFrequencyFiguresTest, FrequencyChartOverlaysUnscaledWavelengthsWhenScaling) {
    RopeParams p = params(128, 32768, 500000);
    p.trainingLength = 8192;
    p.scaling.type = RopeScaling::Llama3;
    p.scaling.factor = 8;
    Figure figure = emptyFigure(1000, 700, paperTheme());
    drawRopeFrequencies(figure, {0, 0, 1000, 700}, p, {}, paperTheme());
    EXPECT_TRUE(hasText(figure, "unscaled"));
    EXPECT_TRUE(hasText(figure, "scaled: llama3 ×8"));
    int polylines = 0;
    for (const FigureItem& item : figure.items)
        polylines += std::holds_alternative<PolylineItem>(item);
    EXPECT_GE(polylines, 2);
    // The unscaled curve is the wavelength 2π·base^(2i/d), 2π at pair 0 as drawn; its key said
    // base^(2i/d), a curve 2π times lower (lesson 10's steps 2 to 5).
    EXPECT_TRUE(hasText(figure, "unscaled ($2π·\\mathrm{base}^{2i/d}$)"));
}

// Lesson 10's scalings (trained on 4096, context 32768) at projector sizes: the training and
// context lengths' labels keep clear of the scaling's own threshold labels ("ramp ends (β_slow
// 1)" and "λ = L0/1 = 4096: ÷s above" were under "training length 4096" at 1366x768 in F5).
TEST(RopeFrequencyFiguresTest, LengthLabelsClearTheScalingThresholdLabels) {
    RopeParams yarn = params(64, 32768);
    yarn.trainingLength = 4096;
    yarn.scaling.type = RopeScaling::Yarn;
    yarn.scaling.factor = 8;
    yarn.scaling.betaFast = 32;
    yarn.scaling.betaSlow = 1;
    RopeParams llama3 = yarn;
    llama3.scaling.type = RopeScaling::Llama3;
    llama3.scaling.lowFreqFactor = 1;
    llama3.scaling.highFreqFactor = 4;
    for (const RopeParams& p : {yarn, llama3}) {
        for (float scale : {1.0f, 1.5f, 2.0f}) {
            for (Box area : {Box{0, 0, 1350, 432}, Box{0, 0, 1264, 324}, Box{0, 0, 1008, 372},
                             Box{0, 0, 1400, 700}}) {
                const Theme theme = scaledTheme(darkTheme(), scale);
                Figure figure = emptyFigure(area.width, area.height, theme);
                drawRopeFrequencies(figure, area, p, {RopeTurnReference::Training}, theme);
                auto inPlotLabel = [&](std::size_t item) {
                    const std::string& text = std::get<TextItem>(figure.items[item]).text;
                    for (const char* start : {"training length", "context", "ramp", "YaRN", "λ"})
                        if (text.rfind(start, 0) == 0) return true;
                    return false;
                };
                for (const TextOverlap& overlap : overlappingTexts(figure)) {
                    if (!inPlotLabel(overlap.first) && !inPlotLabel(overlap.second)) continue;
                    ADD_FAILURE() << int(p.scaling.type) << " scale " << scale << " " << area.width
                                  << "x" << area.height << ": \""
                                  << std::get<TextItem>(figure.items[overlap.first]).text
                                  << "\" over \""
                                  << std::get<TextItem>(figure.items[overlap.second]).text << "\"";
                }
            }
        }
    }
}

// YaRN's thresholds are labelled with β_fast and β_slow as a paper sets them: β, then "fast"
// (or "slow") as a subscript, upright (a name, not a product of four variables), through the
// figure text's markup; "β_fast" was drawn as typed, underscore and all (#28).
TEST(RopeFrequencyFiguresTest, YarnThresholdLabelsSubscriptFastAndSlow) {
    RopeParams yarn = params(64, 32768);
    yarn.trainingLength = 4096;
    yarn.scaling.type = RopeScaling::Yarn;
    yarn.scaling.factor = 8;
    yarn.scaling.betaFast = 32;
    yarn.scaling.betaSlow = 1;
    const std::vector<Marker> markers = ropeScalingThresholds(yarn, darkTheme());
    ASSERT_EQ(markers.size(), 2u);
    const std::pair<const char*, const char*> expected[] = {
        {"fast", "YaRN ramp starts (β\u00a032)"}, {"slow", "ramp ends (β\u00a01)"}};
    for (std::size_t i = 0; i < 2; ++i) {
        // Strings, not a structured binding: clang 14 (the sanitizer and web builds) cannot
        // capture one in a lambda.
        const std::string subscript = expected[i].first, plain = expected[i].second;
        const std::vector<TextRun> runs = parseMarkup(markers[i].label);
        const auto script = std::find_if(runs.begin(), runs.end(),
                                         [&](const TextRun& run) { return run.text == subscript; });
        ASSERT_NE(script, runs.end()) << markers[i].label;
        EXPECT_LT(script->shift, 0) << markers[i].label;  // lowered
        EXPECT_LT(script->scale, 1) << markers[i].label;  // smaller
        EXPECT_EQ(script->style, TextStyle::Upright) << markers[i].label;
        // β on the baseline just before it, and nothing else lowered.
        ASSERT_NE(script, runs.begin());
        const TextRun& beta = *std::prev(script);
        EXPECT_EQ(beta.shift, 0);
        EXPECT_EQ(beta.text.substr(beta.text.size() - std::string("β").size()), "β");
        for (const TextRun& run : runs) EXPECT_TRUE(&run == &*script || run.shift == 0);
        // Read without the markup: the words around it unchanged, the value after a no-break
        // space (a legend that wraps the label keeps "β_fast 32" on one line).
        std::string read = plainText(markers[i].label);
        read.erase(read.find(subscript), std::string(subscript).size());
        EXPECT_EQ(read, plain);
        // Lesson 10.4's legend at 1024x768 F5 wrapped "YaRN ramp starts (β_fast" / "32)".
        const std::string value = i == 0 ? "32)" : "1)";
        for (float width = 60; width <= 400; width += 5)
            for (const std::string& line : wrapText(markers[i].label, 24.5f, width))
                EXPECT_NE(line, value) << width;
    }
}

// Lesson 10.4 at 1024x768 in presentation mode (the 1008 x 398 px the card leaves): YaRN's seven
// keys in a column beside the plot left it 250 x 170 px, under a quarter of the figure's width.
// Squeezed so, the two longest names are said shorter and the plot keeps at least 45 %.
TEST(RopeFrequencyFiguresTest, ManyKeysBesideTheProjectorPlotLeaveItHalfTheWidth) {
    RopeParams yarn = params(128, 32768);
    yarn.trainingLength = 4096;
    yarn.scaling.type = RopeScaling::Yarn;
    yarn.scaling.factor = 8;
    yarn.scaling.betaFast = 32;
    yarn.scaling.betaSlow = 1;
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    const Box area{0, 0, 1008, 398};
    Figure figure = emptyFigure(area.width, area.height, theme);
    drawRopeFrequencies(figure, area, yarn, {RopeTurnReference::Training}, theme);
    ASSERT_EQ(figure.panels.size(), 1u);
    EXPECT_GE(figure.panels.front().plot.width, area.width * 0.45f)
        << figure.panels.front().plot.width;
    EXPECT_TRUE(hasText(figure, "0 of 64 pairs: unseen"));  // wrapped: "angles at 32768" below
    EXPECT_TRUE(figure.leftOut.empty());                    // every key still there
    // Where the plot has room the names stay whole.
    Figure wide = emptyFigure(1400, 700, darkTheme());
    drawRopeFrequencies(wide, {0, 0, 1400, 700}, yarn, {RopeTurnReference::Training}, darkTheme());
    EXPECT_TRUE(hasText(wide, "0 of 64 pairs reach angles at 32768 not seen in training"));
    EXPECT_TRUE(hasText(wide, "unscaled ($2π·\\mathrm{base}^{2i/d}$)"));
}

// One column in print (`render rope-frequencies --width 600`): the legend beside the plot wrapped
// "18 of 64 pairs: no full turn in 4096" over four lines and left the plot 40 % of the width
// (#28). Under the plot (drawLinePlot's rule), every key is one whole line and the plot keeps
// most of the width, as `render` builds the file; the x label reads "θ_i = base…" with spaces
// around "=", as typeset maths has them.
TEST(RopeFrequencyFiguresTest, OneColumnPrintKeepsEveryKeyOnOneLine) {
    const Theme theme = forFiles(paperTheme(), 1);
    const RopeParams p = params(128, 4096);
    auto built = buildWithAllPanels(
        [&](const Theme& t, float width, float height) -> Result<Figure> {
            Figure figure = emptyFigure(width, height, t);
            drawRopeFrequencies(figure, {0, 0, width, height}, p, {}, t);
            return figure;
        },
        theme, 600, 400, true, 8192);
    ASSERT_TRUE(built) << built.error().message;
    const Figure& figure = *built;
    // 2^7 ... : pairs 46..63 have wavelengths 2π·10000^(2i/128) above 4096.
    int incomplete = 0;
    for (int i = 0; i < 64; ++i) incomplete += 2 * kPi / theta(i, 128, 10000) > 4096;
    EXPECT_EQ(incomplete, 18);
    EXPECT_TRUE(hasText(figure, "18 of 64 pairs: no full turn in 4096"));
    EXPECT_TRUE(hasText(figure, "context = training length 4096"));
    EXPECT_TRUE(figure.leftOut.empty());
    EXPECT_TRUE(cutTexts(figure).empty());
    EXPECT_TRUE(textsOutsideFigure(figure).empty());
    EXPECT_TRUE(overlappingTexts(figure).empty());
    ASSERT_EQ(figure.panels.size(), 1u);
    EXPECT_GE(figure.panels.front().plot.width, 600 * 0.7f);
    bool spaced = false;
    for (const std::string& text : texts(figure))
        spaced = spaced || plainText(text).find("θi = base") != std::string::npos;
    EXPECT_TRUE(spaced);
}

// A laptop's 1024 x 768 (FigureLayoutTest's size): the whole "context length 512 — pairs above it
// never complete a turn" sat just above the pairs' dots, within markClearance of them, where it
// reads as on the curve (#28). A length's label takes the first place that keeps that clearance
// ("context length 512" alone at the left, here), and none crowds a mark.
TEST(RopeFrequencyFiguresTest, LengthLabelsKeepClearOfThePairsDots) {
    RopeParams p = params(128, 512);
    p.trainingLength = 256;
    for (const Theme& theme : {paperTheme(), darkTheme()}) {
        Figure figure = emptyFigure(1024, 768, theme);
        drawRopeFrequencies(figure, {0, 0, 1024, 768}, p, {}, theme);
        std::string crowded;
        for (const TextOverMark& over : textsCrowdingMarks(figure))
            crowded += std::get<TextItem>(figure.items[over.text]).text + "\n";
        EXPECT_EQ(crowded, "") << themeName(theme.id);
        EXPECT_TRUE(hasText(figure, "context length 512")) << themeName(theme.id);
        EXPECT_TRUE(hasText(figure, "training length 256")) << themeName(theme.id);
    }
}

}  // namespace
}  // namespace poslab
