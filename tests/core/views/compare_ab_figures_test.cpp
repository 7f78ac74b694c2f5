// RoPE A/B (compare_ab_figures.hpp): two configurations, their three plots and the refusals.
#include "poslab/views/compare_ab_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "figure_checks.hpp"
#include "poslab/base/limits.hpp"

namespace poslab {
namespace {

TEST(CompareAbFiguresTest, DrawsBothConfigurationsAndTheirDifference) {
    RopeConfiguration a{"A: base 10000", {}}, b{"B: base 500000", {}};
    b.rope.base = 500000;
    auto ab = abComparisonFigure(a, b, 4096, 1200, 800, paperTheme());
    ASSERT_TRUE(ab.ok()) << ab.error().message;
    EXPECT_TRUE(hasText(*ab, "RoPE A/B: A: base 10000  vs  B: base 500000"));
    EXPECT_TRUE(hasText(*ab, "Wavelength of each pair"));
    EXPECT_TRUE(hasText(*ab, "Difference B − A"));
    // Two wavelength curves, two expected-cosine curves and their difference at least.
    EXPECT_GE(count(*ab).polylines, 5);
    EXPECT_TRUE(allCoordinatesFinite(*ab));
}

TEST(CompareAbFiguresTest, ThreePanelsAndEachAlone) {
    RopeConfiguration a{"A", {}}, b{"B", {}};
    const PanelGrid all = abComparisonPanels(abComparisonTitle(a, b), 1200, 800, paperTheme());
    EXPECT_EQ(all.count, kAbPanels.count);
    EXPECT_EQ(kAbPanels.count, 3);
    for (int panel = 1; panel <= 3; ++panel) {
        auto alone = abComparisonFigure(a, b, 512, 800, 600, paperTheme(), panel);
        ASSERT_TRUE(alone.ok()) << panel << ": " << alone.error().message;
        EXPECT_GE(count(*alone).polylines, 1) << panel;
    }
}

// Offsets 0..K are K + 1 positions: K is 2..kMaxSeqLen - 1; a configuration that cannot be
// drawn is named by its side.
TEST(CompareAbFiguresTest, RefusesAnOffsetRangeOrConfigurationOutOfBounds) {
    RopeConfiguration a{"A", {}}, b{"B", {}};
    auto tooShort = abComparisonFigure(a, b, 1, 800, 600, paperTheme());
    ASSERT_FALSE(tooShort.ok());
    EXPECT_EQ(tooShort.error().message,
              "max_offset must be 2.." + std::to_string(kMaxSeqLen - 1) + " (got 1)");
    b.rope.base = 0.5;
    auto badBase = abComparisonFigure(a, b, 512, 800, 600, paperTheme());
    ASSERT_FALSE(badBase.ok());
    EXPECT_EQ(badBase.error().message.rfind("B: ", 0), 0u) << badBase.error().message;
}

// Every point of every polyline, in order (the curves as drawn).
std::vector<Point> polylinePoints(const Figure& figure) {
    std::vector<Point> points;
    for (const FigureItem& item : figure.items) {
        if (const auto* line = std::get_if<PolylineItem>(&item))
            points.insert(points.end(), line->points.begin(), line->points.end());
    }
    return points;
}

// The GUI's coarse figure (while a slider moves) evaluates fewer offsets per pixel column; while
// every offset fits in that budget it evaluates them all, so the figure is the exact one.
TEST(CompareAbFiguresTest, CoarseSamplingDrawsTheExactFigureWhileEveryOffsetFits) {
    RopeConfiguration a{"A", {}}, b{"B", {}};
    b.rope.base = 500000;
    // 513 offsets, 2 x 1200 columns' worth of samples: all of them either way.
    auto exact = abComparisonFigure(a, b, 512, 1200, 800, paperTheme());
    auto coarse = abComparisonFigure(a, b, 512, 1200, 800, paperTheme(), 0, kAbCoarseSamples);
    ASSERT_TRUE(exact.ok() && coarse.ok());
    const std::vector<Point> e = polylinePoints(*exact), c = polylinePoints(*coarse);
    ASSERT_GT(e.size(), 513u);  // the two cosine curves hold every offset
    ASSERT_EQ(e.size(), c.size());
    for (std::size_t i = 0; i < e.size(); ++i) {
        EXPECT_EQ(e[i].x, c[i].x) << i;
        EXPECT_EQ(e[i].y, c[i].y) << i;
    }
}

// Past that, offsets on an even grid: ceil((K + 1) / (samples x columns)) apart, the columns
// being the figure's width in pixels (1200 here): 65,537 offsets are 4 apart exactly, 28 coarse.
TEST(CompareAbFiguresTest, CoarseSamplingSpacesTheOffsetsEightTimesWider) {
    RopeConfiguration a{"A", {}}, b{"B", {}};
    auto exact = abComparisonFigure(a, b, 65536, 1200, 800, paperTheme());
    auto coarse = abComparisonFigure(a, b, 65536, 1200, 800, paperTheme(), 0, kAbCoarseSamples);
    ASSERT_TRUE(exact.ok() && coarse.ok());
    EXPECT_NE(allText(*exact).find("(offsets 4 apart)"), std::string::npos);    // ⌈65537/19200⌉
    EXPECT_NE(allText(*coarse).find("(offsets 28 apart)"), std::string::npos);  // ⌈65537/2400⌉
    EXPECT_LT(polylinePoints(*coarse).size(), 2 * 4 * 1200u);  // min/max per column, 4 curves
    // The noisy curves' min/max per two pixel columns, not per column: the coarse figure is
    // drawn every frame while a base moves, and their near-vertical strokes are most of its
    // cost. 64 wavelengths per side (head_dim 128) are drawn as they are.
    const std::size_t wavelengths = 2 * 64;
    EXPECT_LE(polylinePoints(*coarse).size() - wavelengths,
              (polylinePoints(*exact).size() - wavelengths) / 2 + 8);
}

// A and B trained on the same length: B's dashed line lay exactly over A's, so A's was hidden
// while its label or legend key still listed it (the default bases 10000 and 500000, both 4096).
// One line then, named for both; different lengths keep a line each, in its side's colour.
TEST(CompareAbFiguresTest, ASharedTrainingLengthIsOneLineNamedForBoth) {
    RopeConfiguration a{"A: base 10000", {}}, b{"B: base 500000", {}};
    a.rope.trainingLength = b.rope.trainingLength = 4096;
    b.rope.base = 500000;
    // Legend keys wrap at one column: the texts joined, and each line's name counted once.
    auto count = [](const std::string& text, const std::string& part) {
        int n = 0;
        for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
        return n;
    };
    for (const auto& [width, height] : {std::pair{1200.0f, 800.0f}, std::pair{600.0f, 1157.0f}}) {
        SCOPED_TRACE(std::to_string(int(width)) + "x" + std::to_string(int(height)));
        auto same = abComparisonFigure(a, b, 8192, width, height, paperTheme());
        ASSERT_TRUE(same.ok()) << same.error().message;
        const std::string shared = allText(*same);
        EXPECT_EQ(count(shared, "training length"), 1) << shared;
        EXPECT_EQ(count(shared, "training length 4096 (A and B)"), 1) << shared;

        RopeConfiguration shorter = a;
        shorter.rope.trainingLength = 2048;
        auto different = abComparisonFigure(shorter, b, 8192, width, height, paperTheme());
        ASSERT_TRUE(different.ok()) << different.error().message;
        const std::string both = allText(*different);
        EXPECT_EQ(count(both, "training length"), 2) << both;
        EXPECT_EQ(count(both, "A training length 2048"), 1) << both;
        EXPECT_EQ(count(both, "B training length 4096"), 1) << both;
    }
}

// In a 480x320 window the wavelength plot's legend below it leaves a shorter plot, whose log
// ticks are 10 and 10000: the margin was made for the taller plot's narrower labels, and
// "10000" ran into the y label "wavelength". The margin now fits the ticks drawn.
TEST(CompareAbFiguresTest, TickLabelsOfTheShortPlotClearTheYLabel) {
    RopeConfiguration a{"A: base 10000", {}}, b{"B: base 500000", {}};
    a.rope.headDim = b.rope.headDim = 64;
    b.rope.base = 500000;
    for (int panel = 1; panel <= 3; ++panel) {
        auto figure = abComparisonFigure(a, b, 8192, 237, 332, darkTheme(), panel);
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        EXPECT_EQ(layoutFaults(*figure), "") << "panel " << panel;
    }
}

// The GUI moves B's base while A holds: the cache hands back A's curve without computing it, and
// a side whose parameters changed is computed again, so each figure is the one made without it.
TEST(CompareAbFiguresTest, CachedCurvesDrawTheFigureMadeWithoutThem) {
    RopeConfiguration a{"A", {}}, b{"B", {}};
    a.rope.headDim = b.rope.headDim = 128;
    AbCurveCache cache;
    for (double base : {20000.0, 500000.0, 20000.0, 1e6}) {
        b.rope.base = base;
        for (int samples : {kAbCoarseSamples, kAbExactSamples}) {
            auto cached =
                abComparisonFigure(a, b, 65536, 1200, 800, paperTheme(), 0, samples, &cache);
            auto fresh = abComparisonFigure(a, b, 65536, 1200, 800, paperTheme(), 0, samples);
            ASSERT_TRUE(cached.ok() && fresh.ok());
            const std::vector<Point> c = polylinePoints(*cached), f = polylinePoints(*fresh);
            ASSERT_EQ(c.size(), f.size()) << base << " " << samples;
            for (std::size_t i = 0; i < c.size(); ++i) {
                ASSERT_EQ(c[i].x, f[i].x) << base << " " << samples << " " << i;
                ASSERT_EQ(c[i].y, f[i].y) << base << " " << samples << " " << i;
            }
        }
    }
    // The cache keys on parameters, not sides: swapped, each side gets the curve of its own base.
    std::swap(a.rope.base, b.rope.base);
    auto swapped =
        abComparisonFigure(a, b, 65536, 1200, 800, paperTheme(), 0, kAbCoarseSamples, &cache);
    auto fresh = abComparisonFigure(a, b, 65536, 1200, 800, paperTheme(), 0, kAbCoarseSamples);
    ASSERT_TRUE(swapped.ok() && fresh.ok());
    EXPECT_EQ(polylinePoints(*swapped).size(), polylinePoints(*fresh).size());
    const std::vector<Point> s = polylinePoints(*swapped), f = polylinePoints(*fresh);
    for (std::size_t i = 0; i < std::min(s.size(), f.size()); ++i) ASSERT_EQ(s[i].y, f[i].y) << i;
}

// A kept curve is handed back without make(); past four others the least recently used goes.
TEST(CompareAbFiguresTest, CurveCacheKeepsTheFourLastUsedCurves) {
    AbCurveCache cache;
    int made = 0;
    auto key = [](double base) {
        AbCurveCache::Key k;
        k.rope.base = base;
        k.maxOffset = 100;
        k.step = 1;
        k.points = 101;
        return k;
    };
    auto curveOf = [&](double base) {
        return cache.get(key(base), [&] {
            ++made;
            return std::make_shared<const std::vector<double>>(1, base);
        });
    };
    EXPECT_EQ((*curveOf(10))[0], 10);
    EXPECT_EQ((*curveOf(10))[0], 10);
    EXPECT_EQ(made, 1);
    for (double base : {20.0, 30.0, 40.0}) curveOf(base);
    EXPECT_EQ(made, 4);
    curveOf(10);  // still kept, and now the most recently used
    EXPECT_EQ(made, 4);
    curveOf(50);  // evicts 20, the least recently used
    EXPECT_EQ(made, 5);
    curveOf(10);
    EXPECT_EQ(made, 5);
    EXPECT_EQ((*curveOf(20))[0], 20);
    EXPECT_EQ(made, 6);
    // A key differing in any field is another curve.
    AbCurveCache::Key other = key(10);
    other.step = 2;
    cache.get(other, [&] {
        ++made;
        return std::make_shared<const std::vector<double>>(1, -1.0);
    });
    EXPECT_EQ(made, 7);
}

}  // namespace
}  // namespace poslab
