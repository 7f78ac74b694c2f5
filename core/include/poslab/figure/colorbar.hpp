// colorbar.hpp — the one colour bar: a vertical ramp of a colormap with ticks to its right. The
// heatmaps' own bars (plot.hpp's drawHeatmap), bars on their own (scatter plots coloured by a
// value) and bars beside a grid of heatmaps sharing one scale (with a rotated caption and a
// "masked" swatch) are all drawn from these pieces, with one width, one tick spacing and one ramp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Sizes
inline constexpr double kColorbarTickSpacing = 50;   // pixels of bar per tick (linear ticks)
inline constexpr float kColorbarLabelClearance = 4;  // px between two tick labels, at least
float barWidthFor(const Theme& theme);               // the bar itself: 0.9 em, at least 10 px
float colorbarLabelGap(const Theme& theme);          // tick to label: 4/14 em, at least 4 px

// ---- Ticks
// One per kColorbarTickSpacing px of bar (angles: 40 px), and never fewer than three labelled
// values (the ends' and one between) on a bar that holds three labels with their clearance,
// labelHeight each: a finer nice step whose labels keep clear of one another, else every other
// (third, ...) tick of one, else the multiples of a step of 1, 2, 2.5, 3, 4, 5, 6 or 8 times a
// power of ten (0, 3, 6 from 0 to 7). Two labels say where the scale ends, not how it runs
// between; uneven gaps (0, 4, 7) say it runs unevenly. Where no such step has three, two evenly
// spaced ones (0 and 5), else the range's ends rounded inward: never uneven gaps.
std::vector<Tick> colorbarTicks(ValueRange range, float barHeight, float labelHeight,
                                BarTicks kind = BarTicks::Numbers);
// Whether three labels labelHeight tall fit on a bar barHeight long.
bool threeLabelsFit(float barHeight, float labelHeight);

// ---- The ramp
// kColormapSize rows from 1 (top) to 0 (bottom), shared and immutable.
std::shared_ptr<const Matrix> colorbarRamp();
// One version per colormap: renderers keep colourised textures by version, so bars of two
// colormaps in one frame must not share one.
std::uint64_t colorbarVersion(ColormapId colormap);
void drawColorbarRamp(Figure& figure, Box bar, ColormapId colormap,
                      const Theme& theme);  // + outline

// ---- Whole bars
// The ramp in `bar` (top = range.high), `ticks` and their labels to its right. labelBounds: a
// label that would leave it, or touch the label above, is left out (a heatmap's own bar).
void drawColorbarTicks(Figure& figure, Box bar, ColormapId colormap, ValueRange range,
                       const std::vector<Tick>& ticks, const Theme& theme,
                       const Box* labelBounds = nullptr);
// On its own (scatter plots coloured by a value, e.g. position index).
void drawColorbar(Figure& figure, Box bar, ColormapId colormap, ValueRange range,
                  const Theme& theme, bool integerTicks = false);
float colorbarTickWidth(ValueRange range, float barHeight, const Theme& theme,
                        bool integerTicks = false);  // room drawColorbar's labels take
// Beside a grid of heatmaps sharing one scale: the caption rotated at `labelX`, and a "masked"
// swatch below when asked. colorbarBlockWidth: the room all of it needs right of the plots, for
// a bar between half and all of `height` tall.
void drawColorbar(Figure& figure, Box bar, ColormapId colormap, ValueRange range,
                  const std::string& caption, float labelX, bool maskedSwatch, const Theme& theme);
float colorbarBlockWidth(ValueRange range, float height, const Theme& theme);

}  // namespace poslab
