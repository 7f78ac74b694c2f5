// frequency_resolution_figures.cpp — why many frequencies: distances between positions, many
// frequencies against one (views/frequency_resolution_figures.hpp).
#include "poslab/views/frequency_resolution_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/views/print_room.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace poslab {

// ---------------------------------------------------------------------------------------------
// Why different frequencies
// ---------------------------------------------------------------------------------------------

constexpr const char* kFrequencyResolutionTitle =
    "Why many frequencies: one frequency repeats itself, a ladder of them keeps positions apart";

PanelGrid frequencyResolutionPanels(Box area, const Theme& theme, int panel) {
    return reflowOrFocus(area, kFrequencyResolutionPanels, theme, panel);
}

PanelGrid frequencyResolutionFigurePanels(float width, float height, const Theme& theme,
                                          int panel) {
    const float titleHeight = titleBandHeight(theme, kFrequencyResolutionTitle, width);
    return frequencyResolutionPanels({0, titleHeight, width, height - titleHeight}, theme, panel);
}

void drawFrequencyResolution(Figure& figure, Box area, const FrequencyResolution& r,
                             const FrequencyResolutionParams& params, const Theme& theme, int panel,
                             bool coarse) {
    // Both plots, the distances taller; or the one a small canvas shows alone, over all of it.
    const PanelGrid grid = frequencyResolutionPanels(area, theme, panel);
    figure.viewPanels = kFrequencyResolutionPanels.count;  // --panel N: the GUI's panel N
    const bool alone = grid.oneAtATime();
    Box top{area.x, area.y, area.width, std::floor(area.height * 0.58f)};
    Box bottom{area.x, top.bottom() + 8, area.width, area.bottom() - top.bottom() - 8};
    if (alone) top = bottom = area;
    // A file at one column: each plot tall enough for its wrapped title, a y label along it and
    // its legend (askForHeight: the height follows the width), rather than narrow plots with
    // their titles and labels cut.
    if (!alone && area.width < theme.fontSize * 36)
        askForHeight(theme, 2 * theme.fontSize * 17 + 8 - area.height);
    const int n = params.positions;
    const double wavelength = 2 * std::numbers::pi / r.sharedFrequency;

    LinePlotSpec distance;
    // Short enough for one line at a projector's title size on a 1024 px figure (lesson 4: the
    // longer "closest 1.47 (D = 1) with …" was squeezed to 20.8 px, under presentation's 23.8);
    // the standard ladder's closest offset (neighbours, D = 1, at the usual bases) is left to
    // the hover, which gives the distance at every D.
    distance.title = "|PE(p+D) − PE(p)|: min " + formatValue(r.standardMinimum, 3) + " with " +
                     std::to_string(r.frequencies.size()) + " frequencies, " +
                     formatValue(r.sharedMinimum, 2) +
                     " (D = " + std::to_string(r.sharedMinimumOffset) + ") with one";
    distance.x = {"offset D (log)", 1, double(std::max(n - 1, 2)), true};
    distance.y = {"distance", 0, 1};
    const int pixels = std::max(16, texelBudget(top.width) - 80) / (coarse ? 4 : 1);
    std::vector<double> logOffsets;  // both curves' x, once
    logOffsets.reserve(std::size_t(std::max(n - 1, 0)));
    for (int offset = 1; offset < n; ++offset) logOffsets.push_back(std::log10(double(offset)));
    auto series = [&](const std::vector<double>& values, const std::string& name, Rgba color) {
        LineSeries s;
        s.name = name;
        s.color = color;
        const std::vector<double> ys(values.begin() + std::min<std::ptrdiff_t>(1, values.size()),
                                     values.end());
        envelope(logOffsets, ys, 0, std::log10(double(std::max(n - 1, 2))), pixels, s.x, s.y);
        for (double& v : s.x) v = std::pow(10.0, v);
        s.markers = n <= 24;
        return s;
    };
    distance.series = {series(r.standardDistance,
                              "standard: pair $i$ at $ω_i=\\mathrm{base}^{-2i/d}$", seriesColor(0)),
                       series(r.sharedDistance,
                              "every pair at $ω_{" + std::to_string(params.sharedPair) +
                                  "}$ (wavelength " + formatValue(wavelength, 3) + ")",
                              seriesColor(3))};
    Marker closest;
    closest.vertical = false;
    closest.value = r.standardMinimum;
    closest.label = "standard table's closest pair";
    closest.color = theme.mutedText;
    distance.markers = {closest};
    if (!alone || grid.shows(0)) drawLinePlot(figure, top, distance, theme);

    LinePlotSpec pairs;
    pairs.title = "one pair on its own: fast pairs separate neighbours, slow pairs far positions";
    // Cell axis: integer ticks at pair centres (i + 0.5 in data units).
    pairs.x = {"pair i (fastest first)", 0, double(r.frequencies.size()), false, true};
    pairs.y = {"distance in pair i", 0, 2.1};
    pairs.autoRangeY = false;
    LineSeries near, far;
    near.name = "neighbours, D = 1";
    far.name = "far apart, D = " + std::to_string(r.farOffset);
    for (std::size_t i = 0; i < r.frequencies.size(); ++i) {
        near.x.push_back(double(i) + 0.5), near.y.push_back(r.neighbourByPair[i]);
        far.x.push_back(double(i) + 0.5), far.y.push_back(r.farByPair[i]);
    }
    near.markers = far.markers = r.frequencies.size() <= 64;
    near.color = seriesColor(0);
    far.color = seriesColor(2);
    pairs.series = {near, far};
    Marker shared;
    shared.value = params.sharedPair + 0.5;
    shared.label = "shared";
    shared.color = seriesColor(3);
    pairs.markers = {shared};
    if (!alone || grid.shows(1)) drawLinePlot(figure, bottom, pairs, theme);
}

Result<Figure> frequencyResolutionFigure(const FrequencyResolutionParams& params, float width,
                                         float height, const Theme& theme, int panel) {
    auto resolution = frequencyResolution(params);
    if (!resolution) return resolution.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = titleBandHeight(theme, kFrequencyResolutionTitle, width);
    drawTitle(figure, {0, 0, width, titleHeight}, kFrequencyResolutionTitle, theme);
    drawFrequencyResolution(figure, {0, titleHeight, width, height - titleHeight}, *resolution,
                            params, theme, panel);
    return figure;
}

}  // namespace poslab
