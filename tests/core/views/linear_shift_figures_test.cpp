// The linear shift figures: T_k, a sparse T_k at the largest width, the sine-only comparison.
#include "poslab/views/linear_shift_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "figure_checks.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {
namespace {

TEST(LinearShiftFiguresTest, LinearShiftNamesTk) {
    auto shift = linearShiftFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(shift.ok());
    EXPECT_TRUE(hasText(*shift, "$T_k$ for $k$ = 5"));
}

TEST(LinearShiftFiguresTest, LinearShiftAtItsLargestStaysSparseAndSaysWhatItChecked) {
    LinearShiftOptions options;
    options.sinusoidal.dModel = 8192;
    options.positions = 1 << 20;
    options.shownDims = 8192;
    auto figure = linearShiftFigure(options, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "at 2048 evenly spaced p of 1048576"));
    for (const FigureItem& item : figure->items) {
        if (const auto* h = std::get_if<HeatmapItem>(&item)) {
            EXPECT_LE(h->values->rows, 800u);  // the corner of T_k, block means
            EXPECT_LE(h->values->cols, 1200u);
        }
        if (const auto* line = std::get_if<PolylineItem>(&item)) {
            EXPECT_LE(line->points.size(), 2u * 1200) << "more points than pixels";
        }
    }
}

TEST(LinearShiftFiguresTest, SineOnlyShiftShowsBothResiduals) {
    LinearShiftOptions options;
    options.sinOnly = true;
    auto figure = linearShiftFigure(options, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "best T on the sines alone (ridge least squares)"));
    EXPECT_TRUE(hasText(*figure, "sin + cos: $T_k$, a rotation"));
    EXPECT_TRUE(hasText(*figure, "sin only: least-squares T"));
    options.sinusoidal.dModel = 600;
    EXPECT_EQ(linearShiftFigure(options, 800, 600, paperTheme()).error().message,
              "d_model must be 1..512 (got 600)");
}

// A projector (1024x768, presentation fonts 1.75 times larger, a lesson card below): the three
// parts are too small together, so each is drawn alone over the whole figure, its text at the
// presentation size and whole (lesson 3.1 showed the three shrunk and cut with "…").
TEST(LinearShiftFiguresTest, OnAProjectorEachPartIsDrawnAloneAtFullSize) {
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    const float width = 1008, height = 342;
    EXPECT_TRUE(linearShiftPanels({0, 0, width, height}, projector).oneAtATime());
    for (bool sinOnly : {false, true}) {
        LinearShiftOptions options;
        options.sinOnly = sinOnly;
        const char* titles[] = {sinOnly ? "best T on the sines alone" : "$T_k$ for $k$ = 5",
                                sinOnly ? "T · s(10) misses s(15)" : "lands on PE(15)", "residual"};
        for (int panel = 0; panel < 3; ++panel) {
            auto figure = linearShiftFigure(options, width, height, projector, panel);
            ASSERT_TRUE(figure.ok()) << figure.error().message;
            ASSERT_EQ(figure->panels.size(), 1u) << "panel " << panel << " sinOnly " << sinOnly;
            EXPECT_EQ(figure->viewPanels, 3);
            EXPECT_GE(figure->panels[0].area.width, width - 1);  // the whole figure's width
            EXPECT_TRUE(hasText(*figure, titles[panel])) << panel << sinOnly;
            EXPECT_TRUE(overlappingTexts(*figure).empty()) << panel << sinOnly;
            EXPECT_TRUE(textsOutsideFigure(*figure).empty()) << panel << sinOnly;
            for (std::size_t index : cutTexts(*figure))
                ADD_FAILURE() << "cut: " << std::get<TextItem>(figure->items[index]).text
                              << " panel " << panel << " sinOnly " << sinOnly;
            for (const FigureItem& item : figure->items) {
                if (const auto* text = std::get_if<TextItem>(&item); text && !text->text.empty()) {
                    EXPECT_GE(text->size, darkTheme().fontSize - 0.01f) << text->text;
                }
            }
        }
    }
    // A desktop figure keeps the three parts together, as before.
    auto whole = linearShiftFigure({}, 1200, 800, darkTheme());
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(whole->panels.size(), 3u);
    EXPECT_FALSE(linearShiftPanels({0, 0, 1200, 760}, darkTheme()).oneAtATime());
}

// A window's figure area (height > 0: linearShiftFigure at that size, `panel` alone when not 0),
// or a one-column file as `render --width W` builds it (height 0: the canvas follows the panels).
struct ShiftSize {
    float width, height;
    Theme theme;
    int panel;
};
Result<Figure> linearShiftAt(bool sinOnly, const ShiftSize& size) {
    LinearShiftOptions options;
    options.sinOnly = sinOnly;
    if (size.height > 0)
        return linearShiftFigure(options, size.width, size.height, size.theme, size.panel);
    return buildWithAllPanels(
        [&](const Theme& t, float w, float h) { return linearShiftFigure(options, w, h, t); },
        size.theme, size.width, 800, true, 8192);
}

// Session 20's audit: "double epsilon" was placed above the residual curve, the dashed line it
// names below it, so the label read as the curve's (1440x900 and 1024x768 F5 alike, with free
// room under the line). It stays beside its line: no curve point between the two. (The figure
// areas of those windows: 1046 x 760, and 1008 x 512 with the residual panel alone.)
TEST(LinearShiftFiguresTest, EpsilonLabelStaysBesideItsLine) {
    // Issue 28: at one column (--width 600, paper) the band under the line was thinner than the
    // label, which went above the curve again; and the sine-only figure's likewise.
    for (const bool sinOnly : {false, true}) {
        for (const ShiftSize& size : {ShiftSize{1046, 760, darkTheme(), 0},
                                      ShiftSize{1008, 512, scaledTheme(darkTheme(), 1.75f), 2},
                                      ShiftSize{600, 0, forFiles(paperTheme(), 1), 0},
                                      ShiftSize{600, 0, forFiles(darkTheme(), 1), 0}}) {
            auto figure = linearShiftAt(sinOnly, size);
            ASSERT_TRUE(figure.ok()) << figure.error().message;
            const TextItem* label = nullptr;
            for (const TextItem* text : itemsOf<TextItem>(*figure))
                if (text->text == "double epsilon") label = text;
            ASSERT_NE(label, nullptr) << size.width << " sine only " << sinOnly;
            const Box box = textBox(*label);
            const float middle = box.y + box.height / 2;
            float lineY = -1e9f;  // the dashed horizontal line nearest the label
            for (const LineItem* line : itemsOf<LineItem>(*figure))
                if (line->dashed && line->from.y == line->to.y &&
                    std::abs(line->from.y - middle) < std::abs(lineY - middle))
                    lineY = line->from.y;
            EXPECT_LT(std::abs(lineY - middle), 2 * box.height)
                << size.width << " sine only " << sinOnly;
            const float low = std::min(lineY, middle), high = std::max(lineY, middle);
            for (const PolylineItem* curve : itemsOf<PolylineItem>(*figure))
                for (Point q : curve->points)
                    if (q.x >= box.x && q.x <= box.right() && q.y > low + 1 && q.y < high - 1)
                        ADD_FAILURE() << "a curve point at (" << q.x << ", " << q.y
                                      << ") lies between the label and its line at " << lineY
                                      << " (" << size.width << ", sine only " << sinOnly << ")";
        }
    }
}

// --panel 3 (Theme::focusPanel) is the GUI's panel 3: the residual, alone.
TEST(LinearShiftFiguresTest, FocusPanelNumbersThePartsAsTheGuiDoes) {
    Theme theme = paperTheme();
    theme.focusPanel = 3;
    auto figure = linearShiftFigure({}, 1200, 800, theme);
    ASSERT_TRUE(figure.ok());
    ASSERT_EQ(figure->panels.size(), 1u);
    EXPECT_TRUE(hasText(*figure, "for every p: largest"));
    EXPECT_FALSE(hasText(*figure, "$T_k$ for $k$"));
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Issue #28: on a projector (F5, a 1008 x 512 figure) the title kept the band of one line and was
// shrunk onto it, below the size of its panels' titles; it keeps the band of two lines there now,
// each at the title size.
TEST(LinearShiftFiguresTest, OnAProjectorTheTitleIsNotShrunk) {
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    for (int panel = 0; panel < 3; ++panel) {
        auto figure = linearShiftFigure({}, 1008, 512, theme, panel);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        const std::string title = linearShiftTitle({});
        int lines = 0;
        for (const FigureItem& item : figure->items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->text.empty() || text->anchor.y > 2.5f * theme.titleSize ||
                title.find(text->text) == std::string::npos)
                continue;
            ++lines;
            EXPECT_FLOAT_EQ(text->size, theme.titleSize) << panel << ": " << text->text;
        }
        EXPECT_GE(lines, 1) << panel;
        EXPECT_EQ(layoutFaults(*figure), "") << panel;
    }
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// Figure text outside its $…$ maths, with the maths taken out: a "_" or "^" left there is
// plain-text TeX drawn as typed ("max_c").
std::string plainPartOf(const std::string& text) {
    std::string plain;
    bool maths = false;
    for (const char c : text) {
        if (c == '$')
            maths = !maths;
        else if (!maths)
            plain += c;
    }
    return plain;
}

// Audit, session 23: with 'sine only' ticked (lesson 3 opens so) the residual's y label read
// "max_c |T·PE(p) − PE(p+k)|" on screen (a 1090 x 760 figure at 1440x900), its subscript an
// underscore, beside titles typeset with the figure markup. Every text of both figures, on the
// screen and in a file, keeps sub- and superscripts inside $…$; and the vectors' keys set p and k
// in italics as their plot titles do ("PE(p)" beside "$T_k$ · PE($p$)").
TEST(LinearShiftFiguresTest, EveryTextTypesetsItsSubscripts) {
    struct Case {
        Theme theme;
        float width, height;
    };
    const Case cases[] = {{darkTheme(), 1090, 760}, {paperTheme(), 1200, 800}};
    for (const bool sinOnly : {false, true}) {
        for (const Case& c : cases) {
            LinearShiftOptions options;
            options.sinOnly = sinOnly;
            auto figure = linearShiftFigure(options, c.width, c.height, c.theme);
            ASSERT_TRUE(figure.ok()) << figure.error().message;
            for (const TextItem* text : itemsOf<TextItem>(*figure)) {
                const std::string plain = plainPartOf(text->text);
                EXPECT_EQ(plain.find_first_of("_^"), std::string::npos)
                    << "\"" << text->text << "\" (sine only " << sinOnly << ", " << c.width << ")";
            }
        }
    }
    auto shift = linearShiftFigure({}, 1090, 760, darkTheme());
    ASSERT_TRUE(shift.ok());
    const std::vector<std::string> keys = texts(*shift);  // the keys whole, as their own texts
    EXPECT_NE(std::find(keys.begin(), keys.end(), "PE($p$)"), keys.end());
    EXPECT_NE(std::find(keys.begin(), keys.end(), "PE($p+k$)"), keys.end());
    LinearShiftOptions sineOnly;
    sineOnly.sinOnly = true;
    auto fit = linearShiftFigure(sineOnly, 1090, 760, darkTheme());
    ASSERT_TRUE(fit.ok());
    EXPECT_TRUE(hasText(*fit, "$\\mathrm{max}_c$ |T·PE($p$) − PE($p+k$)|"));
    EXPECT_TRUE(hasText(*fit, "T · s($p$): the best a matrix can do"));
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// The decades a log axis labels (AxisRecord::labelled), as exponents.
std::vector<int> labelledDecades(const AxisRecord& axis) {
    std::vector<int> exponents;
    for (double v : axis.labelled) exponents.push_back(int(std::lround(std::log10(v))));
    return exponents;
}

// Issue 28: the residual's log axis (10^-18 .. 10) was labelled every seventh decade: 10^0,
// 10^-7, 10^-14. It is labelled every 1, 2, 3 or 5 decades, at multiples of the step, at least
// three of them, and the decades between carry short unlabelled ticks (as many as are left).
TEST(LinearShiftFiguresTest, TheResidualAxisIsLabelledEveryFewDecades) {
    for (const bool sinOnly : {false, true}) {
        for (const ShiftSize& size : {ShiftSize{1046, 760, darkTheme(), 0},
                                      ShiftSize{1008, 512, scaledTheme(darkTheme(), 1.75f), 2},
                                      ShiftSize{600, 0, forFiles(paperTheme(), 1), 0}}) {
            auto figure = linearShiftAt(sinOnly, size);
            ASSERT_TRUE(figure.ok()) << figure.error().message;
            const std::string at = std::to_string(int(size.width)) + (sinOnly ? ", sine only" : "");
            const AxisRecord* residual = nullptr;
            for (const AxisRecord& axis : figure->axes)
                if (axis.vertical && axis.logarithmic) residual = &axis;
            ASSERT_NE(residual, nullptr) << at;
            const std::vector<int> decades = labelledDecades(*residual);
            ASSERT_GE(decades.size(), 3u) << at;
            const int step = decades[1] - decades[0];
            EXPECT_TRUE(step == 1 || step == 2 || step == 3 || step == 5) << at << ": " << step;
            for (std::size_t k = 1; k < decades.size(); ++k) {
                EXPECT_EQ(decades[k] - decades[k - 1], step) << at;
                EXPECT_EQ(decades[k] % step, 0) << at;
            }
            // Minor ticks: short horizontal lines left of the plot, one per unlabelled decade.
            const Box& p = residual->plot;
            int minor = 0, decadesInRange = 0;
            for (int e = int(std::ceil(std::log10(residual->low) - 1e-9));
                 e <= int(std::floor(std::log10(residual->high) + 1e-9)); ++e)
                ++decadesInRange;
            std::vector<float> lengths;  // of the tick marks left of the plot
            for (const LineItem* line : itemsOf<LineItem>(*figure))
                if (line->from.y == line->to.y && std::abs(line->to.x - p.x) < 0.01f &&
                    line->from.y >= p.y - 0.5f && line->from.y <= p.bottom() + 0.5f &&
                    line->to.x > line->from.x)
                    lengths.push_back(line->to.x - line->from.x);
            ASSERT_FALSE(lengths.empty()) << at;
            const float major = *std::max_element(lengths.begin(), lengths.end());
            for (float length : lengths) minor += length < 0.75f * major;
            EXPECT_EQ(minor, decadesInRange - int(decades.size())) << at;
        }
    }
}

// Issue 28: the sine-only title broke inside its formula, "… = cos" over "ωk·sin ωp …" at one
// column (and "cos ωk·sin" over "ωp" in narrower rooms): a function's name was cut from its
// argument. Every line of the title ends where a reader would break it: not on "sin" or "cos".
TEST(LinearShiftFiguresTest, TheSineOnlyTitleBreaksBetweenTermsOfItsFormula) {
    LinearShiftOptions options;
    options.sinOnly = true;
    const std::string title = linearShiftTitle(options);
    for (const Theme& theme : {forFiles(paperTheme(), 1), forFiles(darkTheme(), 1)}) {
        auto figure = buildWithAllPanels(
            [&](const Theme& t, float w, float h) { return linearShiftFigure(options, w, h, t); },
            theme, 600, 800, true, 8192);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        int lines = 0;
        for (std::size_t i = 0; i < figure->panels.front().begin; ++i) {
            const auto* text = std::get_if<TextItem>(&figure->items[i]);
            if (!text || text->text.empty() || title.find(text->text) == std::string::npos)
                continue;
            ++lines;
            for (const char* function : {"sin", "cos"}) {
                const std::string name = function;
                EXPECT_FALSE(
                    text->text.size() >= name.size() &&
                    text->text.compare(text->text.size() - name.size(), name.size(), name) == 0)
                    << "\"" << text->text << "\" ends on a function's name";
            }
        }
        EXPECT_GE(lines, 2) << themeName(theme.id);  // too long for one line at 600 px
    }
}

}  // namespace
}  // namespace poslab
