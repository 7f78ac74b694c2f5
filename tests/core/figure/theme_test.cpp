// Themes scaled as a whole: strokes, dots, ticks and swatches grow with the text.
#include "poslab/figure/theme.hpp"

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/figure/text_boxes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace poslab {
namespace {

// Presentation mode and HiDPI scale a figure as a whole: a plot drawn at theme scale 2 in an
// area twice the size has every stroke twice as wide, every dot twice the radius, every tick
// and legend swatch twice as long as at scale 1 (the same figure, magnified).
TEST(ThemeTest, ScaledThemeScalesLinesMarkersTicksAndSwatches) {
    LinePlotSpec spec;
    spec.title = "t";
    spec.x = {"x", 0, 10};
    spec.y = {"y", 0, 1};
    LineSeries series;
    series.name = "series";
    series.markers = true;
    for (int i = 0; i <= 10; ++i) series.x.push_back(i), series.y.push_back(0.05 * i);
    spec.series = {series};
    spec.markers = {Marker{true, 5, "", Rgba{255, 0, 0, 255}, false, false}};
    auto strokes = [&](float factor) {
        const Theme theme = scaledTheme(darkTheme(), factor);
        EXPECT_FLOAT_EQ(theme.lineScale, factor);
        Figure figure = emptyFigure(600 * factor, 400 * factor, theme);
        drawLinePlot(figure, {0, 0, 600 * factor, 400 * factor}, spec, theme);
        std::set<int> sizes;  // in 1/100 px: stroke widths, dot radii, tick and swatch lengths
        auto add = [&](float size) { sizes.insert(int(std::lround(size / factor * 100))); };
        for (const FigureItem& item : figure.items) {
            if (const auto* line = std::get_if<LineItem>(&item)) {
                add(line->width);
                const float length =
                    std::hypot(line->to.x - line->from.x, line->to.y - line->from.y);
                if (length < 40 * factor) add(length);  // ticks and swatches, not grid lines
            } else if (const auto* poly = std::get_if<PolylineItem>(&item)) {
                add(poly->width);
            } else if (const auto* dot = std::get_if<CircleItem>(&item)) {
                add(dot->radius);
            }
        }
        return sizes;
    };
    // Divided by the factor, the sizes at scale 2 are those at scale 1.
    const std::set<int> one = strokes(1), two = strokes(2);
    EXPECT_EQ(one, two);
    // 1 px axes, 1.5 px marker, 1.8 px series, 2.5 px dots and swatches, 4 px ticks, 18 px swatch.
    EXPECT_EQ(one, (std::set<int>{100, 150, 180, 250, 400, 1800}));
    // The unscaled sizes are the documented ones: 1 px axes, 4 px ticks, 2.5 px dots.
    EXPECT_FLOAT_EQ(strokeWidth(darkTheme(), 4), 4);
    EXPECT_FLOAT_EQ(strokeWidth(scaledTheme(darkTheme(), 1.75f), 4), 7);
}

}  // namespace
}  // namespace poslab
