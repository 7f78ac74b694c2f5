#include "poslab/views/rope_rotation_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "poslab/figure/text_boxes.hpp"
#include "rope_figure_checks.hpp"

namespace poslab {
namespace {

using namespace rope_checks;

TEST(RopeRotationFiguresTest, RotationPairsAreAllOrSpreadEvenly) {
    EXPECT_EQ(ropeRotationPairs(8, 16), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    const std::vector<int> spread = ropeRotationPairs(64, 16);
    ASSERT_EQ(spread.size(), 16u);
    for (int j = 0; j < 16; ++j) EXPECT_EQ(spread[j], int(std::lround(j * 63.0 / 15.0)));
    EXPECT_EQ(ropeRotationPairs(64, 1), (std::vector<int>{0}));
    EXPECT_TRUE(ropeRotationPairs(0, 16).empty());
}

TEST(RopeRotationFiguresTest, PairScoresSumToTheRotatedDotProduct) {
    const RopeParams p = params(16);
    const auto freqs = ropeFrequencies(p);
    ASSERT_TRUE(freqs.ok());
    const std::vector<double> q = seededGaussianVector(16, 3), k = seededGaussianVector(16, 4);
    const double m = 17.25, n = 4;
    double sum = 0;
    for (int i = 0; i < 8; ++i) sum += ropePairScore(q, k, m, n, *freqs, p.pairing, i);
    EXPECT_NEAR(sum, dot(rotateHalf(q, m, 10000), rotateHalf(k, n, 10000)), 1e-12);
}

TEST(RopeRotationFiguresTest, PairAngleIsTheAngleBetweenTheRotatedPairsAndDependsOnMMinusNOnly) {
    const RopeParams p = params(16);
    const auto freqs = ropeFrequencies(p);
    ASSERT_TRUE(freqs.ok());
    const std::vector<double> q = seededGaussianVector(16, 5), k = seededGaussianVector(16, 6);
    const double m = 9, n = 2;
    const std::vector<double> rq = rotateHalf(q, m, 10000), rk = rotateHalf(k, n, 10000);
    for (int i = 0; i < 8; ++i) {
        double expected = std::atan2(rq[i + 8], rq[i]) - std::atan2(rk[i + 8], rk[i]);
        while (expected > kPi) expected -= 2 * kPi;
        while (expected <= -kPi) expected += 2 * kPi;
        const double angle = ropePairAngleBetween(q, k, m, n, *freqs, p.pairing, i);
        EXPECT_NEAR(angle, expected, 1e-12) << "pair " << i;
        // Shifting both positions leaves it exactly unchanged.
        EXPECT_EQ(ropePairAngleBetween(q, k, m + 1000, n + 1000, *freqs, p.pairing, i), angle);
    }
}

TEST(RopeRotationFiguresTest, RotationFigureHasOnePanelPerPairAndPrintsTheScore) {
    const RopeParams p = params(16);
    RopeRotationOptions options;
    options.q = seededGaussianVector(16, 1);
    options.k = seededGaussianVector(16, 2);
    options.m = 7;
    options.n = 3;
    Figure figure = emptyFigure(1200, 800, darkTheme());
    std::vector<RopeRotationCell> cells;
    drawRopeRotation(figure, {0, 0, 1200, 800}, p, options, darkTheme(), &cells);
    EXPECT_EQ(cells.size(), 8u);  // all pairs for small d
    EXPECT_EQ(countTextsStartingWith(figure, "pair "), 8);
    EXPECT_TRUE(hasText(figure, "RoPE rotates each pair"));
    EXPECT_TRUE(hasText(figure, "q at m = 7"));
    EXPECT_TRUE(hasText(figure, "k at n = 3"));
    const double score = dot(rotateHalf(options.q, 7, 10000), rotateHalf(options.k, 3, 10000));
    EXPECT_TRUE(hasText(figure, "q·k = " + withMinusSign(formatValue(score, 6)))) << score;

    // Large d: a spread subset of 16 panels.
    const RopeParams large = params(128);
    options.q = seededGaussianVector(128, 1);
    options.k = seededGaussianVector(128, 2);
    Figure big = emptyFigure(1200, 800, darkTheme());
    drawRopeRotation(big, {0, 0, 1200, 800}, large, options, darkTheme(), &cells);
    EXPECT_EQ(cells.size(), 16u);
    EXPECT_EQ(cells.front().pair, 0);
    EXPECT_EQ(cells.back().pair, 63);
    EXPECT_TRUE(hasText(big, "16 of 64 pairs"));
}

// The figure split in two (the GUI copies the still part): together they are the one figure's
// items, each part in the one figure's order; the still part is the same for every m and n
// within one whole position (the trails move only with whole positions) and holds no value of
// m, n or the score.
TEST(RopeRotationFiguresTest, MovingPartsSplitOffLeaveAStillFigure) {
    const RopeParams p = params(64);
    RopeRotationOptions options;
    options.q = seededGaussianVector(64, 1);
    options.k = seededGaussianVector(64, 2);
    options.trail = 8;
    // An item's kind and where it is: enough to tell items apart in order.
    auto signature = [](const FigureItem& item) {
        return std::visit(
            [&](const auto& i) -> std::string {
                using T = std::decay_t<decltype(i)>;
                char b[160];
                if constexpr (std::is_same_v<T, TextItem>) {
                    std::snprintf(b, sizeof b, "T %s %.3f %.3f", i.text.c_str(), i.anchor.x,
                                  i.anchor.y);
                } else if constexpr (std::is_same_v<T, CircleItem>) {
                    std::snprintf(b, sizeof b, "C %.4f %.4f %.3f %u", i.center.x, i.center.y,
                                  i.radius, unsigned(i.fill.a));
                } else if constexpr (std::is_same_v<T, LineItem>) {
                    std::snprintf(b, sizeof b, "L %.4f %.4f %.4f %.4f", i.from.x, i.from.y, i.to.x,
                                  i.to.y);
                } else if constexpr (std::is_same_v<T, PolylineItem>) {
                    std::snprintf(b, sizeof b, "P %zu %.4f", i.points.size(),
                                  i.points.empty() ? 0.0 : double(i.points.front().x));
                } else if constexpr (std::is_same_v<T, PolygonItem>) {
                    std::snprintf(b, sizeof b, "G %zu %.4f", i.points.size(),
                                  i.points.empty() ? 0.0 : double(i.points.front().x));
                } else if constexpr (std::is_same_v<T, RectItem>) {
                    std::snprintf(b, sizeof b, "R %.3f %.3f %.3f %.3f", i.box.x, i.box.y,
                                  i.box.width, i.box.height);
                } else {
                    std::snprintf(b, sizeof b, "other");
                }
                return b;
            },
            item);
    };
    auto isSubsequence = [&](const Figure& part, const Figure& whole) {
        std::size_t at = 0;
        for (const FigureItem& item : part.items) {
            const std::string s = signature(item);
            while (at < whole.items.size() && signature(whole.items[at]) != s) ++at;
            if (at == whole.items.size()) return false;
            ++at;
        }
        return true;
    };
    const Box area{0, 0, 1400, 860};
    Figure firstStill, firstMoving;
    for (double step : {0.0, 0.25, 0.5}) {
        options.m = 9.25 + step;
        options.n = 3.25 + step;
        Figure whole = emptyFigure(1400, 860, darkTheme());
        drawRopeRotation(whole, area, p, options, darkTheme());
        Figure still = emptyFigure(1400, 860, darkTheme());
        Figure moving = emptyFigure(1400, 860, darkTheme());
        drawRopeRotation(still, area, p, options, darkTheme(), nullptr, &moving);
        ASSERT_FALSE(moving.items.empty());
        EXPECT_EQ(still.items.size() + moving.items.size(), whole.items.size());
        EXPECT_TRUE(isSubsequence(still, whole));
        EXPECT_TRUE(isSubsequence(moving, whole));
        for (const std::string& t : texts(still)) {
            EXPECT_EQ(t.find("m = "), std::string::npos) << t;
            EXPECT_EQ(t.find("q·k"), std::string::npos) << t;
            EXPECT_EQ(t.find("Δ"), std::string::npos) << t;
        }
        EXPECT_TRUE(hasText(moving, "q at m = "));
        if (step == 0) {
            firstStill = still;
            continue;
        }
        ASSERT_EQ(still.items.size(), firstStill.items.size());
        for (std::size_t i = 0; i < still.items.size(); ++i)
            EXPECT_EQ(signature(still.items[i]), signature(firstStill.items[i])) << i;
    }
    // The next whole position moves the trails.
    options.m = 10.25;
    options.n = 4.25;
    Figure still = emptyFigure(1400, 860, darkTheme()), moving = still;
    drawRopeRotation(still, area, p, options, darkTheme(), nullptr, &moving);
    bool differs = still.items.size() != firstStill.items.size();
    for (std::size_t i = 0; !differs && i < still.items.size(); ++i)
        differs = signature(still.items[i]) != signature(firstStill.items[i]);
    EXPECT_TRUE(differs);

    // The trails split off too (stacked between the two in the GUI): the rest is then the same
    // across whole positions, the three parts hold every item of the one figure, and no dot
    // comes near a text of the rest (drawn before the dots in the split figure, after them in
    // the one figure, so a dot touching one would change its pixels).
    std::vector<std::string> firstRest;
    std::vector<std::string> firstTrails;
    for (double m : {9.25, 10.25, 11.0}) {
        options.m = m;
        options.n = m - 6;
        Figure whole = emptyFigure(1400, 860, darkTheme());
        drawRopeRotation(whole, area, p, options, darkTheme());
        Figure rest = emptyFigure(1400, 860, darkTheme()), trails = rest, live = rest;
        drawRopeRotation(rest, area, p, options, darkTheme(), nullptr, &live, &trails);
        EXPECT_EQ(rest.items.size() + trails.items.size() + live.items.size(), whole.items.size());
        EXPECT_TRUE(isSubsequence(trails, whole));
        ASSERT_FALSE(trails.items.empty());
        std::vector<std::string> restItems, trailItems;
        for (const FigureItem& item : rest.items) restItems.push_back(signature(item));
        for (const FigureItem& item : trails.items) {
            trailItems.push_back(signature(item));
            const auto* dot = std::get_if<CircleItem>(&item);
            ASSERT_NE(dot, nullptr);
            const float reach = dot->radius + 1;  // with its anti-aliased edge
            const Box around{dot->center.x - reach, dot->center.y - reach, 2 * reach, 2 * reach};
            for (const FigureItem& other : rest.items) {
                if (const auto* text = std::get_if<TextItem>(&other)) {
                    EXPECT_FALSE(boxesOverlap(around, textBox(*text), 0)) << text->text;
                }
            }
        }
        if (firstRest.empty()) {
            firstRest = restItems;
            firstTrails = trailItems;
            continue;
        }
        EXPECT_EQ(restItems, firstRest);
        EXPECT_NE(trailItems, firstTrails);
    }
}

TEST(RopeRotationFiguresTest, ShiftingMAndNTogetherChangesNoAngleAndNoScore) {
    const RopeParams p = params(16);
    RopeRotationOptions options;
    options.q = seededGaussianVector(16, 1);
    options.k = seededGaussianVector(16, 2);
    auto labels = [&](double m, double n) {
        options.m = m;
        options.n = n;
        Figure figure = emptyFigure(1200, 800, paperTheme());
        drawRopeRotation(figure, {0, 0, 1200, 800}, p, options, paperTheme());
        std::vector<std::string> kept;
        for (const std::string& t : texts(figure)) {
            if (t.rfind("Δ", 0) == 0 || t.rfind("q·k", 0) == 0) kept.push_back(t);
        }
        return kept;
    };
    const auto before = labels(5, 2), after = labels(405, 402);
    EXPECT_EQ(before.size(), 9u);  // eight pair labels and the total
    EXPECT_EQ(before, after);
    EXPECT_NE(before, labels(6, 2));  // while changing m - n does change them
}

TEST(RopeRotationFiguresTest, RotationLegendWrapsInsideNarrowFigures) {
    // At 500 and 700 pixels the legend row (and the title) no longer fit on one line: every
    // text stays inside the figure, by the same width estimate the layout uses.
    RopeRotationOptions options;
    options.q = seededGaussianVector(128, 1);
    options.k = seededGaussianVector(128, 2);
    options.m = 10;
    options.n = 4;
    for (float width : {500.f, 700.f, 1200.f}) {
        for (const Theme& theme : {paperTheme(), darkTheme()}) {
            Figure figure = emptyFigure(width, 600, theme);
            drawRopeRotation(figure, {0, 0, width, 600}, params(128), options, theme);
            int legendTexts = 0;
            for (const FigureItem& item : figure.items) {
                const auto* text = std::get_if<TextItem>(&item);
                if (!text) continue;
                const float w = estimateTextWidth(text->text, text->size);
                float left = text->anchor.x;
                if (text->horizontal == HorizontalAlign::Center) left -= w / 2;
                if (text->horizontal == HorizontalAlign::Right) left -= w;
                EXPECT_GE(left, 0) << width << ": " << text->text;
                EXPECT_LE(left + w, width + 0.5f) << width << ": " << text->text;
                legendTexts += text->text.rfind("q·k = ", 0) == 0;
            }
            EXPECT_EQ(legendTexts, 1) << width;
        }
    }
}

// Every circle is recorded as a plot (its box), so the tour check sees how large it is drawn:
// ~30 px circles at 1024x768 F5 passed it unseen (#28). One page: `--panel 1` is the figure.
TEST(RopeRotationFiguresTest, EachCircleIsRecordedAsAPlot) {
    RopeRotationOptions options;
    options.q = seededGaussianVector(16, 1);
    options.k = seededGaussianVector(16, 2);
    Figure figure = emptyFigure(1200, 800, darkTheme());
    drawRopeRotation(figure, {0, 0, 1200, 800}, params(16), options, darkTheme());
    std::vector<const CircleItem*> circles;  // the unit circles: outlined, larger than a dot
    for (const FigureItem& item : figure.items)
        if (const auto* c = std::get_if<CircleItem>(&item); c && c->fill.a == 0)
            circles.push_back(c);
    ASSERT_EQ(circles.size(), 8u);
    ASSERT_EQ(figure.panels.size(), 8u);
    EXPECT_EQ(figure.viewPanels, 1);
    for (std::size_t i = 0; i < circles.size(); ++i) {
        const Box& plot = figure.panels[i].plot;
        EXPECT_NEAR(plot.x, circles[i]->center.x - circles[i]->radius, 1e-3f) << i;
        EXPECT_NEAR(plot.y, circles[i]->center.y - circles[i]->radius, 1e-3f) << i;
        EXPECT_NEAR(plot.width, 2 * circles[i]->radius, 1e-3f) << i;
        EXPECT_NEAR(plot.height, 2 * circles[i]->radius, 1e-3f) << i;
    }
}

// 16 pairs on the 1024x768 F5 canvas (~1000 x 510 px at 1.75 times the text): pages of fewer
// pairs, every circle at least four lines of text tall (the tour check's floor for a plot), and
// the pages together show the 16 pairs once each, in order. On a desktop window all at once.
TEST(RopeRotationFiguresTest, ProjectorPagesKeepEveryCircleReadable) {
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    RopeRotationOptions options;
    options.q = seededGaussianVector(64, 1);
    options.k = seededGaussianVector(64, 2);
    options.m = 6;
    options.n = 2;
    options.pairs = ropeRotationPairs(32, 16);
    const Box area{0, 0, 1000, 510};
    const RopeRotationPaging paging = ropeRotationPaging(area, params(64), options, projector);
    ASSERT_GT(paging.pages, 1);
    ASSERT_EQ(paging.pages, (16 + paging.perPage - 1) / paging.perPage);
    std::vector<int> shown;
    for (int page = 0; page < paging.pages; ++page) {
        RopeRotationOptions paged = options;
        paged.perPage = paging.perPage;
        paged.page = page;
        Figure figure = emptyFigure(area.width, area.height, projector);
        std::vector<RopeRotationCell> cells;
        drawRopeRotation(figure, area, params(64), paged, projector, &cells);
        EXPECT_EQ(figure.viewPanels, paging.pages);
        ASSERT_FALSE(figure.panels.empty());
        for (const PanelSpan& span : figure.panels)
            EXPECT_GE(span.plot.height, 4 * projector.fontSize) << "page " << page;
        for (const RopeRotationCell& cell : cells) shown.push_back(cell.pair);
        EXPECT_TRUE(hasText(figure, "16 of 32 pairs"));
    }
    EXPECT_EQ(shown, options.pairs);

    const RopeRotationPaging desktop =
        ropeRotationPaging({0, 0, 1000, 750}, params(64), options, darkTheme());
    EXPECT_EQ(desktop.pages, 1);
    EXPECT_EQ(desktop.perPage, 16);
}

// A 480x320 window leaves the rotation figure 237 x 358 px (237 x 332 under the page selector's
// row). 16 pairs were 8 pages of 2 circles there: now at most 4 pages, every circle still three
// lines of text across (42 px: 6 px arrow heads and the angle's arc read apart), with its arrows,
// its angle arc, "pair N" above it and "Δ" below, no text over another or past the figure, and the
// pages together show the 16 pairs once each, in order.
TEST(RopeRotationFiguresTest, SmallWindowPagesAtMostFourOfReadableCircles) {
    const Theme theme = darkTheme();
    RopeRotationOptions options;
    options.q = seededGaussianVector(64, 1);
    options.k = seededGaussianVector(64, 2);
    options.m = 6;
    options.n = 2;
    options.pairs = ropeRotationPairs(32, 16);
    // As RopePanel::drawRotation asks: the whole room, then without the selector's row.
    RopeRotationPaging paging = ropeRotationPaging({0, 0, 237, 358}, params(64), options, theme);
    ASSERT_GT(paging.pages, 1);
    const Box area{0, 0, 237, 332};
    paging = ropeRotationPaging(area, params(64), options, theme);
    EXPECT_LE(paging.pages, 4);
    ASSERT_EQ(paging.pages, (16 + paging.perPage - 1) / paging.perPage);
    const float leastRadius = 1.5f * theme.fontSize;
    std::vector<int> shown;
    for (int page = 0; page < paging.pages; ++page) {
        RopeRotationOptions paged = options;
        paged.perPage = paging.perPage;
        paged.page = page;
        Figure figure = emptyFigure(area.width, area.height, theme);
        std::vector<RopeRotationCell> cells;
        drawRopeRotation(figure, area, params(64), paged, theme, &cells);
        EXPECT_EQ(layoutFaults(figure), "") << "page " << page;
        ASSERT_EQ(figure.panels.size(), cells.size());
        std::size_t arrowHeads = 0, arcs = 0;
        for (const FigureItem& item : figure.items) {
            arrowHeads += std::holds_alternative<PolygonItem>(item);
            arcs += std::holds_alternative<PolylineItem>(item);
        }
        EXPECT_EQ(arrowHeads, 2 * cells.size()) << "page " << page;
        EXPECT_EQ(arcs, cells.size()) << "page " << page;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const Box& circle = figure.panels[i].plot;
            EXPECT_GE(circle.width / 2, leastRadius)
                << "page " << page << " pair " << cells[i].pair;
            EXPECT_TRUE(hasText(figure, "pair " + std::to_string(cells[i].pair)));
            shown.push_back(cells[i].pair);
        }
        EXPECT_EQ(countTextsStartingWith(figure, "Δ "), int(cells.size())) << "page " << page;
    }
    EXPECT_EQ(shown, options.pairs);
    // Between whole positions ("q at m = 6.50") the legend may take a row more: the page count
    // stays as it is while m and n play.
    RopeRotationOptions playing = options;
    playing.m = 6.5;
    playing.n = 2.5;
    const RopeRotationPaging whileMoving = ropeRotationPaging(area, params(64), playing, theme);
    EXPECT_EQ(whileMoving.pages, paging.pages);
    EXPECT_EQ(whileMoving.perPage, paging.perPage);
}

}  // namespace
}  // namespace poslab
