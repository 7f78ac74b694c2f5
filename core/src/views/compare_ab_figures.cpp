// compare_ab_figures.cpp — two RoPE configurations compared (compare_ab_figures.hpp).
#include "poslab/views/compare_ab_figures.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/views/print_room.hpp"

namespace poslab {

namespace {

// Panel k of the A/B figure: with two columns, the difference spans the bottom row.
Box abCell(const PanelGrid& grid, int k) {
    if (grid.columns != 2) return grid.cell(k);
    const Box top{grid.area.x, grid.area.y, grid.area.width, std::floor(grid.area.height * 0.5f)};
    if (k < 2) return gridCell(top, 1, 2, 0, k, grid.gap);
    return {grid.area.x, top.bottom() + 10, grid.area.width,
            grid.area.bottom() - top.bottom() - 10};
}

}  // namespace

std::string abComparisonTitle(const RopeConfiguration& a, const RopeConfiguration& b) {
    return "RoPE A/B: " + a.label + "  vs  " + b.label;
}

PanelGrid abComparisonPanels(const std::string& title, float width, float height,
                             const Theme& theme, int panel) {
    // Below the title's band, as abComparisonFigure lays them out.
    return reflowOrFocus(belowTitleBand({0, 0, width, height}, title, theme), kAbPanels, theme,
                         panel);
}

Status drawAbComparison(Figure& figure, Box area, const RopeConfiguration& a,
                        const RopeConfiguration& b, int maxOffset, const Theme& theme, int panel,
                        int samplesPerColumn, AbCurveCache* cache) {
    // Offsets 0..K are positions 0..K: K + 1 <= kMaxSeqLen.
    if (auto s = requireIntInRange("max_offset", maxOffset, 2, kMaxSeqLen - 1); !s) return s;
    const RopeConfiguration* configs[2] = {&a, &b};
    RopeFrequencies freqs[2];
    AbCurveCache::Curve curves[2];
    // Every offset while there are at most samplesPerColumn (16) per pixel column of the figure,
    // else an even grid of that many (2^20 offsets at head_dim 8192 would be 2^32 terms per
    // configuration).
    const long long maxPoints =
        (long long)std::max(1, samplesPerColumn) * std::max(16, texelBudget(area.width));
    const long long step = (maxOffset + 1LL + maxPoints - 1) / maxPoints;
    const long long points = maxOffset / step + 1;
    for (int k = 0; k < 2; ++k) {
        RopeParams p = configs[k]->rope;
        p.seqLen = std::max(p.seqLen, maxOffset + 1);
        auto f = ropeFrequencies(p);
        if (!f) return Error{(k == 0 ? "A: " : "B: ") + f.error().message};
        freqs[k] = *f;
        SimilarityParams s;
        s.encoding = SimilarityEncoding::Rope;
        s.rope = configs[k]->rope;
        s.seqLen = maxOffset + 1;
        std::string failure;
        auto compute = [&]() -> AbCurveCache::Curve {
            auto profile = offsetProfile(s);
            if (!profile) {
                failure = profile.error().message;
                return nullptr;
            }
            return std::make_shared<const std::vector<double>>(
                profileValues(*profile, 0, double(step), points));
        };
        const AbCurveCache::Curve curve =
            cache ? cache->get({s.rope, maxOffset, step, points}, compute) : compute();
        if (!curve) return Error{(k == 0 ? "A: " : "B: ") + failure};
        curves[k] = curve;
    }
    Theme small = theme;
    small.titleSize = theme.fontSize * 1.05f;
    const PanelGrid grid = reflowOrFocus(area, kAbPanels, theme, panel);
    // A file too narrow for two columns (a one-column print) stacks the three plots: each as
    // tall as its wrapped title, tick labels and outside legend need (askForHeight).
    if (theme.focusPanel <= 0 &&
        area.width < theme.fontSize * kAbPanels.minWidthEm * 2 + kAbPanels.gap)
        askForHeight(theme, 3 * theme.fontSize * 16 + 2 * kAbPanels.gap - area.height);
    figure.viewPanels = kAbPanels.count;  // --panel N: the GUI's panel N
    const Box bottom = abCell(grid, 2);

    LinePlotSpec wavelengths;
    wavelengths.title = "Wavelength of each pair (positions per turn)";
    const std::size_t pairs = std::max(freqs[0].inverse.size(), freqs[1].inverse.size());
    wavelengths.x =
        integerAxis("pair index i (fast → slow)", 0, double(std::max<std::size_t>(pairs, 2) - 1));
    wavelengths.y = {"wavelength", 1, 1e6, true};
    for (int k = 0; k < 2; ++k) {
        LineSeries series;
        series.name = configs[k]->label;
        const std::vector<double> w = ropeWavelengths(freqs[k]);
        for (std::size_t i = 0; i < w.size(); ++i)
            series.x.push_back(double(i)), series.y.push_back(w[i]);
        wavelengths.series.push_back(series);
    }
    // One line when both sides trained on the same length: B's, drawn exactly over A's, hid it
    // while A's label or legend key still named it.
    const int trainedA = configs[0]->rope.trainingLength;
    const bool sameTraining = trainedA == configs[1]->rope.trainingLength;
    for (int k = 0; k < (sameTraining ? 1 : 2); ++k) {
        Marker context;
        context.vertical = false;
        context.value = configs[k]->rope.trainingLength;
        context.label = sameTraining ? "training length " + std::to_string(trainedA) + " (A and B)"
                                     : (k == 0 ? "A" : "B") + std::string(" training length ") +
                                           std::to_string(configs[k]->rope.trainingLength);
        context.color = sameTraining ? theme.mutedText : seriesColor(k);
        wavelengths.markers.push_back(context);
    }
    if (grid.shows(0)) drawLinePlot(figure, abCell(grid, 0), wavelengths, small);

    // Each curve is its min/max per pixel column; a coarse figure (shown while a base moves,
    // drawn every frame) per two columns: half the near-vertical strokes to fill. Where it
    // samples the offsets as the exact one does, it is the exact one.
    const long long exactPoints =
        (long long)kAbExactSamples * std::max(16, texelBudget(area.width));
    const bool coarse = step != (maxOffset + 1LL + exactPoints - 1) / exactPoints;
    const int columnWidth = coarse ? 2 : 1;
    const int pixels = std::max(16, (texelBudget(area.width / 2) - 80) / columnWidth);
    std::vector<double> offsets(static_cast<std::size_t>(points));
    for (long long j = 0; j < points; ++j) offsets[std::size_t(j)] = double(j * step);
    const std::string spacing =
        step > 1 ? " (offsets " + std::to_string(step) + " apart)" : std::string();
    LinePlotSpec expected;
    expected.title = "Expected cosine of $q_m·k_n$ ($q=k$ random) against $m-n$" + spacing;
    expected.x = integerAxis("offset m − n", 0, double(maxOffset));
    expected.y = {"cosine", -0.2, 1.05};
    for (int k = 0; k < 2; ++k) {
        LineSeries series;
        series.name = configs[k]->label;
        envelope(offsets, *curves[k], 0, maxOffset, pixels, series.x, series.y);
        expected.series.push_back(series);
    }
    if (grid.shows(1)) drawLinePlot(figure, abCell(grid, 1), expected, small);

    LinePlotSpec difference;
    difference.title = "Difference B − A of the expected cosine" + spacing;
    difference.x = expected.x;
    difference.y = {"B − A", -1, 1};
    LineSeries diff;
    diff.name = "B − A";
    std::vector<double> values(offsets.size());
    for (std::size_t r = 0; r < values.size(); ++r) values[r] = (*curves[1])[r] - (*curves[0])[r];
    envelope(offsets, values, 0, maxOffset,
             std::max(16, (texelBudget(bottom.width) - 80) / columnWidth), diff.x, diff.y);
    diff.color = theme.accent;
    difference.series = {diff};
    Marker zero;
    zero.vertical = false;
    zero.value = 0;
    zero.dashed = false;
    zero.color = theme.mutedText;
    difference.markers = {zero};
    difference.legend = false;
    if (grid.shows(2)) drawLinePlot(figure, bottom, difference, small);
    return success();
}

Result<Figure> abComparisonFigure(const RopeConfiguration& a, const RopeConfiguration& b,
                                  int maxOffset, float width, float height, const Theme& theme,
                                  int panel, int samplesPerColumn, AbCurveCache* cache) {
    Figure figure = emptyFigure(width, height, theme);
    const Box body = drawTitleBand(figure, {0, 0, width, height}, abComparisonTitle(a, b), theme);
    if (auto s =
            drawAbComparison(figure, body, a, b, maxOffset, theme, panel, samplesPerColumn, cache);
        !s) {
        return s.error();
    }
    return figure;
}

}  // namespace poslab
