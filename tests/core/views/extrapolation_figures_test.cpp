// The extrapolation figure: every panel, its error for bad lengths, and the learned panel as the
// table's own values (block means at the largest setting, never the whole table).
#include "poslab/views/extrapolation_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "figure_checks.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {
namespace {

TEST(ExtrapolationFiguresTest, EveryPanelAndItsErrors) {
    auto extrapolation = extrapolationFigure({}, 1400, 900, paperTheme());
    ASSERT_TRUE(extrapolation.ok()) << extrapolation.error().message;
    for (const char* title :
         {"Sinusoidal", "Learned", "RoPE: slow pairs", "RoPE scalings", "ALiBi", "T5"}) {
        EXPECT_TRUE(hasText(*extrapolation, title)) << title;
    }
    ExtrapolationOptions bad;
    bad.evaluationLength = bad.trainingLength;
    EXPECT_EQ(extrapolationFigure(bad, 800, 600, paperTheme()).error().message,
              "evaluation_length must be 513..262144 (got 512)");
}

TEST(ExtrapolationFiguresTest, ExtrapolationLearnedPanelIsTheTableBlockMeans) {
    // Small enough for one texel per row: the rows of the table, then masked rows.
    ExtrapolationOptions o;
    o.trainingLength = 50;
    o.evaluationLength = 120;
    o.dModel = 32;
    auto figure = extrapolationFigure(o, 1400, 900, paperTheme());
    ASSERT_TRUE(figure.ok());
    LearnedParams p;
    p.seqLen = 50;
    p.dModel = 32;
    const Matrix table = learnedTable(p).value();
    const HeatmapItem* learned = nullptr;
    for (const FigureItem& item : figure->items) {
        const auto* h = std::get_if<HeatmapItem>(&item);
        if (h && h->range.low == -0.06 && h->values->cols == 32) learned = h;
    }
    ASSERT_NE(learned, nullptr);
    ASSERT_EQ(learned->values->rows, 120u);
    ASSERT_EQ(learned->values->cols, 32u);
    for (std::size_t r = 0; r < 120; ++r) {
        for (std::size_t c = 0; c < 32; ++c) {
            if (r < 50)
                EXPECT_EQ((*learned->values)(r, c), table(r, c));
            else
                EXPECT_EQ((*learned->values)(r, c), -INFINITY);
        }
    }
    // At the largest setting the table (65536 x 1024) is never held, only its block means.
    o.trainingLength = 65536;
    o.evaluationLength = 262144;
    o.dModel = 1024;
    auto large = extrapolationFigure(o, 1200, 800, paperTheme());
    ASSERT_TRUE(large.ok()) << large.error().message;
    for (const FigureItem& item : large->items) {
        if (const auto* h = std::get_if<HeatmapItem>(&item)) {
            EXPECT_LE(h->values->rows, 800u);
            EXPECT_LE(h->values->cols, 1200u);
        }
    }
}

// fairseq's slopes for 8 heads are 2^-1 .. 2^-8. At the training length 512 the bias -m * 512 is
// -256, -128, -64, -32, -16, -8, -4, -2: five heads at or below -10 (e^-10 of the weight), and the
// gentlest, m = 1/256, still only -2 there. "Familiar to every head" was false.
TEST(ExtrapolationFiguresTest, AlibiCaptionCountsTheHeadsThatForgetFarKeys) {
    std::vector<double> slopes;
    for (int h = 1; h <= 8; ++h) slopes.push_back(std::ldexp(1.0, -h));
    const std::string caption = alibiExtrapolationCaption(slopes, 512);
    EXPECT_NE(caption.find("5 of 8 heads"), std::string::npos) << caption;
    EXPECT_NE(caption.find("m = 0.00391"), std::string::npos) << caption;
    EXPECT_NE(caption.find("\u22122 at 512"), std::string::npos) << caption;  // U+2212 minus
    EXPECT_NE(caption.find("below \u221210"), std::string::npos) << caption;
    EXPECT_EQ(caption.find("every head"), std::string::npos) << caption;
    // Trained on 65536, even 1/256 reaches -256: every head.
    EXPECT_NE(alibiExtrapolationCaption(slopes, 65536).find("Every head"), std::string::npos);
    ExtrapolationOptions options;
    auto figure = extrapolationFigure(options, 1800, 1200, paperTheme());
    ASSERT_TRUE(figure.ok());
    std::string all;
    for (const FigureItem& item : figure->items)
        if (const auto* text = std::get_if<TextItem>(&item)) all += text->text + " ";
    EXPECT_EQ(all.find("familiar window to every head"), std::string::npos);
}

// The ALiBi panel's caption names the gentlest head (m = 0.00391 of 8 heads), so the plot draws
// it: four heads from the steepest to the gentlest (it drew heads 0, 2, 4 and 6 of 8, lesson 6.3).
TEST(ExtrapolationFiguresTest, AlibiPanelDrawsTheSteepestAndTheGentlestHead) {
    auto figure = extrapolationFigure(ExtrapolationOptions{}, 1800, 1200, paperTheme());
    ASSERT_TRUE(figure.ok());
    std::vector<std::string> keys;  // legend keys "head N, m = ..."
    for (const FigureItem& item : figure->items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->text.rfind("head ", 0) == 0) keys.push_back(text->text);
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"head 0, m = 0.5", "head 2, m = 0.125",
                                              "head 5, m = 0.0156", "head 7, m = 0.00391"}));
}

// Lesson 6.3 at 1024x768 in presentation mode: the ALiBi panel alone in the 1008 x 372 px the
// card leaves. Under the figure's title row and its own, over a paragraph box sized as a third of
// the cell, its plot was about 90 px tall; alone, the panel's title names the lengths, the
// figure's row goes to the plot and the paragraph takes the lines it needs.
TEST(ExtrapolationFiguresTest, OnePanelAtATimeOnAProjectorIsARealPlot) {
    ExtrapolationOptions options;  // lesson 6's state
    options.trainingLength = 512;
    options.evaluationLength = 4096;
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    const PanelGrid grid = extrapolationPanels(1008, 372, projector, 4);
    ASSERT_TRUE(grid.oneAtATime());
    auto figure = extrapolationFigure(options, 1008, 372, projector, 4);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    ASSERT_EQ(figure->panels.size(), 1u);
    const Box plot = figure->panels.front().plot;
    EXPECT_GE(plot.height, projector.fontSize * 5) << plot.height;  // five lines of its text
    EXPECT_TRUE(hasText(*figure, "ALiBi: keeps working past 512 (to 4096)"));
    EXPECT_FALSE(hasText(*figure, "what each encoding does"));
    // A grid of every panel keeps the figure's title and the panels' short ones.
    auto whole = extrapolationFigure(options, 1800, 1200, darkTheme());
    ASSERT_TRUE(whole.ok());
    EXPECT_TRUE(hasText(*whole, "what each encoding does"));
    EXPECT_FALSE(hasText(*whole, "past 512 (to 4096)"));
}

// The learned panel's rows past the table are masked; the "masked" key beside its colour bar
// showed the masked colour while the rows were shaded darker still by the training marker's
// shade (#28). Composited as drawn, a masked row is the key's colour.
TEST(ExtrapolationFiguresTest, MaskedRowsAreTheColourOfTheMaskedKey) {
    for (const Theme& theme : {darkTheme(), paperTheme()}) {
        auto figure = extrapolationFigure({}, 1400, 900, theme);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        std::size_t index = figure->items.size();
        for (std::size_t i = 0; i < figure->items.size(); ++i) {
            const auto* h = std::get_if<HeatmapItem>(&figure->items[i]);
            if (h && h->range.low == -0.06) index = i;
        }
        ASSERT_LT(index, figure->items.size());
        const HeatmapItem& learned = std::get<HeatmapItem>(figure->items[index]);
        // Rows 512..2047 of 2048 are past the table: 90 % of the way down is masked.
        const Point inside{learned.box.x + learned.box.width / 2,
                           learned.box.y + learned.box.height * 0.9f};
        double shown[3] = {double(learned.masked.r), double(learned.masked.g),
                           double(learned.masked.b)};
        for (std::size_t i = index + 1; i < figure->items.size(); ++i) {
            const auto* rect = std::get_if<RectItem>(&figure->items[i]);
            if (!rect || rect->fill.a == 0 || !rect->box.contains(inside)) continue;
            const double a = rect->fill.a / 255.0;
            const double fill[3] = {double(rect->fill.r), double(rect->fill.g),
                                    double(rect->fill.b)};
            for (int c = 0; c < 3; ++c) shown[c] = shown[c] * (1 - a) + fill[c] * a;
        }
        const RectItem* key = nullptr;  // the swatch: the masked colour, outlined
        for (const FigureItem& item : figure->items) {
            const auto* rect = std::get_if<RectItem>(&item);
            if (rect && rect->fill == theme.masked && rect->stroke.a > 0) key = rect;
        }
        ASSERT_NE(key, nullptr);
        EXPECT_NEAR(shown[0], key->fill.r, 1);
        EXPECT_NEAR(shown[1], key->fill.g, 1);
        EXPECT_NEAR(shown[2], key->fill.b, 1);
    }
}

// Panel 4 alone at 1440x900 F5 (1424 x ~640 px): the line at 1's label sat just under the line
// at the right, ~3 px from NTK's curve where it meets the line (#28; at heights 560-570 and
// 640-700 here). It keeps a quarter of a line clear of every curve that does not run along the
// line itself (linear's lies on it).
TEST(ExtrapolationFiguresTest, NoNewAnglesLabelKeepsClearOfTheCurves) {
    const ExtrapolationOptions options;  // 512 -> 2048
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    for (float height = 560; height <= 700; height += 10) {
        ASSERT_TRUE(extrapolationPanels(1424, height, projector, 3).oneAtATime());
        auto figure = extrapolationFigure(options, 1424, height, projector, 3);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        const TextItem* label = nullptr;
        float lineY = NAN;  // the dashed line at 1, across the plot
        for (const FigureItem& item : figure->items) {
            if (const auto* t = std::get_if<TextItem>(&item); t && t->text == "1: no new angles")
                label = t;
            if (const auto* l = std::get_if<LineItem>(&item);
                l && l->dashed && l->from.y == l->to.y && l->color == projector.mutedText)
                lineY = l->from.y;
        }
        ASSERT_NE(label, nullptr);
        ASSERT_TRUE(std::isfinite(lineY));
        const Box box = textBox(*label);
        auto distance = [&](Point p) {
            const float dx = std::max({box.x - p.x, 0.f, p.x - box.right()});
            const float dy = std::max({box.y - p.y, 0.f, p.y - box.bottom()});
            return std::hypot(dx, dy);
        };
        float nearest = INFINITY;
        for (const MarkFootprint& mark : figure->marks) {
            if (mark.kind != MarkKind::Curve) continue;
            for (std::size_t k = 1; k < mark.points.size(); ++k) {
                const Point a = mark.points[k - 1], b = mark.points[k];
                if (std::abs(a.y - lineY) < 1.5f && std::abs(b.y - lineY) < 1.5f) continue;
                for (int s = 0; s <= 100; ++s) {
                    const float t = float(s) / 100;
                    nearest =
                        std::min(nearest, distance({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}) -
                                              mark.halfWidth);
                }
            }
        }
        EXPECT_GE(nearest, projector.fontSize / 4) << height << " " << box.x << "," << box.y;
    }
}

// Issue #28: at one column (`render extrapolation --width 600`) RoPE's, the scalings' and ALiBi's
// legends stood beside their plots with names on two to four lines ("seen in / training / (L =
// 512)"), and T5's inside its plot split "32 buckets, max / distance 128". The project keeps
// names whole: as render builds the file, every line plot's legend is inside its plot or in
// rows under it, one line of text per key, and the file stays under 2,900 px.
TEST(ExtrapolationFiguresTest, OneColumnLegendsKeepEveryNameWhole) {
    auto figure = buildWithAllPanels(
        [](const Theme& t, float w, float h) {
            return extrapolationFigure(ExtrapolationOptions{}, w, h, t);
        },
        forFiles(paperTheme(), 1), 600, 400, true, 8192);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    ASSERT_EQ(figure->panels.size(), 6u);
    EXPECT_LT(figure->height, 2900.f);
    const std::size_t keys[] = {0, 0, 2, 6, 5, 2};  // with the marker lines listed in them
    for (std::size_t panel = 2; panel < 6; ++panel) {
        const PanelSpan& span = figure->panels[panel];
        const std::vector<PanelLegend> legends = panelLegends(*figure, span);
        ASSERT_EQ(legends.size(), 1u) << "panel " << panel;
        const Box& box = legends[0].box;
        EXPECT_TRUE(box.y >= span.plot.bottom() || box.right() <= span.plot.right())
            << "panel " << panel << ": the legend beside the plot";
        EXPECT_EQ(legends[0].lines, keys[panel]) << "panel " << panel << ": a name split";
    }
    EXPECT_EQ(layoutFaults(*figure), "");
}

// Issue 28: in RoPE scalings, linear's ratio (1 at every pair) lay on the line at 1 and NTK,
// YaRN and Llama 3 joined it at the slow pairs, so neither linear nor the line read; at one
// column the line's label "1: no new angles" went to the top of the plot, far from its line.
// Linear is drawn wide under the other curves, the line dashed over them all, and the label sits
// against its line (on two lines where one has no room) at one column, on a laptop and on a
// projector's single panel.
TEST(ExtrapolationFiguresTest, LinearAndTheLineAtOneBothReadAndTheLabelSitsOnItsLine) {
    const ExtrapolationOptions options;  // 512 -> 2048, factor 4
    const Theme print = forFiles(paperTheme(), 1), screen = darkTheme();
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    struct Case {
        const char* name;
        Theme theme;
        Result<Figure> figure;
    };
    Case cases[] = {
        {"one column", print,
         buildWithAllPanels([&](const Theme& t, float w,
                                float h) { return extrapolationFigure(options, w, h, t); },
                            print, 600, 800, true, 8192)},
        {"1440x900", screen, extrapolationFigure(options, 1090, 760, screen, 3)},
        {"F5 panel 4", projector, extrapolationFigure(options, 1424, 640, projector, 3)}};
    for (Case& c : cases) {
        ASSERT_TRUE(c.figure.ok()) << c.name << ": " << c.figure.error().message;
        const Figure& figure = *c.figure;
        // The scalings plot: its y axis is the log axis from 0.05 to 20.
        Box plot;
        for (const AxisRecord& axis : figure.axes)
            if (axis.vertical && axis.logarithmic && axis.low == 0.05 && axis.high == 20)
                plot = axis.plot;
        ASSERT_GT(plot.height, 0) << c.name;
        const float lineY = plot.bottom() - plot.height * float(std::log(1 / 0.05) / std::log(400));
        auto inside = [&](Point p) {
            return p.x >= plot.x && p.x <= plot.right() && p.y >= plot.y && p.y <= plot.bottom();
        };
        // The label's lines inside the plot, their box against the line.
        Box label{0, 0, 0, 0};
        float size = 0;
        int lastCurve = -1, lastLine = -1;
        float linearWidth = 0, widestOther = 0;
        const Rgba linear = lineColorOn(seriesColor(1, c.theme), c.theme);
        for (std::size_t i = 0; i < figure.items.size(); ++i) {
            const FigureItem& item = figure.items[i];
            if (const auto* t = std::get_if<TextItem>(&item)) {
                const bool part =
                    t->text == "1: no new angles" || t->text == "1: no new" || t->text == "angles";
                if (!part || !inside(t->anchor)) continue;
                const Box b = textBox(*t);
                label = label.width == 0
                            ? b
                            : Box{std::min(label.x, b.x), std::min(label.y, b.y),
                                  std::max(label.right(), b.right()) - std::min(label.x, b.x),
                                  std::max(label.bottom(), b.bottom()) - std::min(label.y, b.y)};
                size = t->size;
            } else if (const auto* l = std::get_if<PolylineItem>(&item)) {
                if (l->points.empty() || !inside(l->points.front())) continue;
                lastCurve = int(i);
                if (l->color == linear)
                    linearWidth = std::max(linearWidth, l->width);
                else
                    widestOther = std::max(widestOther, l->width);
            } else if (const auto* l = std::get_if<LineItem>(&item)) {
                if (l->dashed && std::abs(l->from.y - lineY) < 1 && std::abs(l->to.y - lineY) < 1 &&
                    l->from.x <= plot.x + 1 && l->to.x >= plot.right() - 1)
                    lastLine = int(i);
            }
        }
        ASSERT_GT(label.width, 0) << c.name << ": no label in the plot";
        const float off = label.bottom() <= lineY ? lineY - label.bottom() : label.y - lineY;
        EXPECT_GE(off, 0) << c.name << ": the label crosses its line";
        EXPECT_LE(off, 0.6f * size) << c.name << ": the label is " << off << " px from its line";
        EXPECT_GT(lastLine, lastCurve) << c.name << ": the line at 1 is under a curve";
        EXPECT_GE(linearWidth, 2 * widestOther) << c.name << ": linear is not wider";
    }
}

}  // namespace
}  // namespace poslab
