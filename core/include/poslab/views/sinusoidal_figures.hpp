// sinusoidal_figures.hpp — the sinusoidal views as figures: the position x dimension heatmap and
// the curves of chosen dimensions against position. Used by the GUI panel and `poslab render`.
#pragma once

#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

struct SinusoidalHeatmapOptions {
    ColormapId colormap = ColormapId::BlueWhiteRed;  // signed values in [-1, 1]
    CellWindow window;                               // zoom; empty counts mean everything
    int trainingLength = 0;                          // > 0: mark it and shade the rows beyond
    friend bool operator==(const SinusoidalHeatmapOptions&, const SinusoidalHeatmapOptions&) = default;  // member-wise: caches key on it
};

std::string sinusoidalTitle(const SinusoidalParams& params);  // "Sinusoidal (interleaved) — d=…"

// Texels for a heatmap whose cells fill `area` (one per pixel at most: each is the mean of the
// cells under its pixel). Pass the plot rectangle, see sinusoidalHeatmapPlotBox(). With
// `cellResolution` (a vector file: Theme::cellResolution) one texel per cell, up to
// kMaxTexelsPerSide a side.
HeatmapSample sinusoidalSampleForArea(const SinusoidalParams& params, CellWindow window, Box area,
                                      bool cellResolution = false);

// Where drawSinusoidalHeatmap() puts the cells when drawing into `area`.
Box sinusoidalHeatmapPlotBox(Box area, const SinusoidalParams& params,
                             const SinusoidalHeatmapOptions& options, const Theme& theme);

// Draws the heatmap; pass the sample when the caller caches one, or nullptr to compute it.
void drawSinusoidalHeatmap(Figure& figure, Box area, const SinusoidalParams& params,
                           const SinusoidalHeatmapOptions& options, const Theme& theme,
                           const HeatmapSample* sample, PlotFrame* frame = nullptr);

struct SinusoidalCurveOptions {
    std::vector<int> dimensions{4, 5, 6, 7};  // the Annotated Transformer's choice
    double firstPosition = 0;
    double lastPosition = 100;
    friend bool operator==(const SinusoidalCurveOptions&, const SinusoidalCurveOptions&) = default;  // member-wise: caches key on it
};
// One dimension's wave over [first, last] for a plot `columns` pixels wide: the exact value at
// every column boundary plus every peak and trough inside a column, so waves faster than the
// pixels show their full swing as a band instead of aliasing into slower false waves. When a
// column holds more than a cycle, one peak and one trough stand for all of them. Every point
// lies on the curve.
LineSeries sinusoidalCurve(const SinusoidalParams& params, int dimension, double first,
                           double last, int columns);
void drawSinusoidalCurves(Figure& figure, Box area, const SinusoidalParams& params,
                          const SinusoidalCurveOptions& options, const Theme& theme,
                          PlotFrame* frame = nullptr);

}  // namespace poslab
