// intuition_figures.hpp — two intuitions about the sinusoidal encoding as figures: the binary
// clock and the linear shift T_k. Used by the GUI panel, `poslab render` and the guided tour.
#pragma once

#include "poslab/analysis/intuition.hpp"
#include "poslab/encodings/sinusoidal.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

struct BinaryClockOptions {
    int bits = 5;        // bits shown, 1..12
    int positions = 64;  // positions 0..N-1, 2..4096
    SinusoidalParams sinusoidal{64, 64, 10000,
                                SinusoidalLayout::Interleaved};  // dims beside the bits
    friend bool operator==(const BinaryClockOptions&, const BinaryClockOptions&) = default;  // member-wise: caches key on it
};
// Three panels (the bits, the sinusoidal dimensions, the bit curves) side by side while they
// have room (kBinaryClockPanels), else fewer columns, else `panel` alone.
inline constexpr PanelShape kBinaryClockPanels{3, 3, 14, 18, 10};
void drawBinaryClock(Figure& figure, Box area, const BinaryClockOptions& options,
                     const Theme& theme, int panel = 0);

struct LinearShiftOptions {
    SinusoidalParams sinusoidal{16, 256, 10000, SinusoidalLayout::Interleaved};
    double shift = 5;     // k
    int position = 10;    // p for the vector comparison
    int positions = 256;  // residual checked for p = 0..N-1
    int shownDims = 16;   // the corner of T_k drawn
    friend bool operator==(const LinearShiftOptions&, const LinearShiftOptions&) = default;  // member-wise: caches key on it
};
Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const SampledShiftCheck& check, const Theme& theme);
Result<Figure> binaryClockFigure(const BinaryClockOptions& options, float width, float height,
                                 const Theme& theme, int panel = 0);
// Where binaryClockFigure puts its panels in a figure of that size (the GUI's selector).
PanelGrid binaryClockPanels(float width, float height, const Theme& theme, int panel = 0);
Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme);

}  // namespace poslab
